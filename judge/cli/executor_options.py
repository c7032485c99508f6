"""Where a command that judges many submissions (verify, grade, serve) runs them: `-j/--jobs` local worker
processes, or a Dask cluster (`--scheduler`, `--cluster-dir`, `--insecure`), handed to the command as one
`ExecutorChoice`. A module of its own, imported by those commands only, so that `judge run` never loads the batch
engine."""

from __future__ import annotations

import os
from pathlib import Path

import click

from judge.batch.executors import ExecutorChoice
from judge.cli.options import Decorator, handing
from judge.cluster.address import scheduler_target
from judge.errors import JudgeError


def default_jobs() -> int:
    """The cores this process may run on (fewer than os.cpu_count() under taskset or a container quota)."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def executor_choice(
    scheduler: str | None, cluster_dir: Path | None, insecure: bool, jobs: int | None
) -> ExecutorChoice:
    """The executor asked for; `--jobs` with `--scheduler` is refused (exit 2): a cluster's size is its workers'."""
    if jobs is not None and scheduler is not None:
        raise JudgeError("--jobs and --scheduler: choose one; a Dask cluster's size is set by its workers")
    target = scheduler_target(scheduler, cluster_dir, insecure) if scheduler else None
    return ExecutorChoice(jobs=jobs or default_jobs(), scheduler=target)


executor_options: Decorator = handing(
    "executor",
    ("scheduler", "cluster_dir", "insecure", "jobs"),
    executor_choice,
    (
        click.option(
            "--scheduler",
            metavar="tls://HOST:PORT",
            help="Send the work to this Dask scheduler (judge cluster scheduler) instead of local worker processes.",
        ),
        click.option(
            "--cluster-dir",
            type=click.Path(path_type=Path),
            envvar="JUDGE_CLUSTER_DIR",
            default=None,
            help="The folder judge cluster init made, for a tls:// scheduler [env: JUDGE_CLUSTER_DIR].",
        ),
        click.option(
            "--insecure",
            is_flag=True,
            help="Allow a plain tcp:// scheduler off this machine: anyone who reaches it runs code on every worker.",
        ),
        click.option(
            "-j",
            "--jobs",
            type=click.IntRange(min=1),
            default=None,
            help="Worker processes judging at once (default: the number of cores).",
        ),
    ),
)
"""The command is handed `executor: ExecutorChoice`."""
