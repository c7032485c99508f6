"""Command-line options shared by the commands that run submissions (`run`, `verify`, `grade`)."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TypeVar, get_args

import click

from judge.options import MAX_SOURCE_LIMIT_KIB, SandboxChoice
from judge.runner.containment.choice import CONTAINMENT_NAMES

Command = TypeVar("Command", bound=Callable[..., object])


def sandbox_options(function: Command) -> Command:
    """`--sandbox auto|bwrap|none`, `--require-sandbox` (combine them with `sandbox_choice`) and
    `--containment cgroup|proc|portable`."""
    function = click.option(
        "--containment",
        type=click.Choice(CONTAINMENT_NAMES),
        default=None,
        help="How runs are contained and measured (default: the best this machine has; `judge doctor` lists them).",
    )(function)
    function = click.option(
        "--sandbox",
        type=click.Choice(get_args(SandboxChoice)),
        default="auto",
        show_default=True,
        help="bwrap confines submissions; auto uses it when it works here.",
    )(function)
    return click.option("--require-sandbox", is_flag=True, help="Refuse to run (exit 2) unless bwrap works here.")(
        function
    )


def source_limit_option(function: Command) -> Command:
    """`--source-limit KIB`: a source larger than this is refused unread (default: the problem's source_limit)."""
    return click.option(
        "--source-limit",
        "source_limit",
        metavar="KIB",
        type=click.IntRange(1, MAX_SOURCE_LIMIT_KIB),
        default=None,
        help="Refuse sources larger than this many KiB, unread (default: each "
        "problem's source_limit, 64 unless its problem.yaml says otherwise).",
    )(function)


def sandbox_choice(sandbox: str, require_sandbox: bool) -> SandboxChoice:
    """The sandbox asked for; `--require-sandbox` with `--sandbox none` contradicts itself (exit 2), not a pick."""
    if require_sandbox and sandbox == "none":
        raise click.UsageError("--require-sandbox (run only in bwrap) cannot go with --sandbox none; give one of them")
    if require_sandbox:
        return "bwrap"
    for choice in get_args(SandboxChoice):  # click.Choice let only these through; this names the type for mypy
        if sandbox == choice:
            return choice
    raise click.UsageError(f"--sandbox {sandbox}: use one of {', '.join(get_args(SandboxChoice))}")


def default_jobs() -> int:
    """The cores this process may run on (fewer than os.cpu_count() under taskset or a container quota)."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def format_options(choices: Iterable[str]) -> Callable[[Command], Command]:
    """`--format NAME` (one of `choices`, text by default) and `--json`, kept as an alias of `--format json`;
    combine them with `chosen_format`."""
    names = sorted(choices)

    def decorate(function: Command) -> Command:
        function = click.option(
            "--json", "as_json", is_flag=True, help="The same as --format json (kept for scripts that use it)."
        )(function)
        return click.option(
            "--format",
            "report_format",
            type=click.Choice(names),
            default=None,
            help="How to print the report [default: text].",
        )(function)

    return decorate


def chosen_format(report_format: str | None, as_json: bool) -> str:
    """The one format asked for; `--json` with another `--format` is a usage error (exit 2), not a silent pick."""
    if as_json and report_format not in (None, "json"):
        raise click.UsageError(
            f"--json means --format json, so it cannot go with --format {report_format}; give one of them"
        )
    return "json" if as_json else report_format or "text"


def executor_options(function: Command) -> Command:
    """Where the judging runs, for every command that judges many submissions (grade, serve): `-j/--jobs` local
    worker processes, or a Dask cluster (`scheduler_options`)."""
    function = click.option(
        "-j",
        "--jobs",
        type=click.IntRange(min=1),
        default=None,
        help="Worker processes judging at once (default: the number of cores).",
    )(function)
    return scheduler_options(function)


def scheduler_options(function: Command) -> Command:
    """`--scheduler tls://HOST:PORT`, `--cluster-dir DIR` (its certificates) and `--insecure` (plain tcp off
    loopback); combine them with judge.cluster.address.scheduler_target."""
    function = click.option(
        "--insecure",
        is_flag=True,
        help="Allow a plain tcp:// scheduler off this machine: anyone who reaches it runs code on every worker.",
    )(function)
    function = click.option(
        "--cluster-dir",
        type=click.Path(path_type=Path),
        envvar="JUDGE_CLUSTER_DIR",
        default=None,
        help="The folder judge cluster init made, for a tls:// scheduler [env: JUDGE_CLUSTER_DIR].",
    )(function)
    return click.option(
        "--scheduler",
        metavar="tls://HOST:PORT",
        help="Send the work to this Dask scheduler (judge cluster scheduler) instead of local worker processes.",
    )(function)
