"""Command-line options shared by the commands that run submissions (`run`, `verify`, `grade`)."""

from __future__ import annotations

import os
from typing import Callable, TypeVar, get_args

import click

from judge.options import SandboxChoice
from judge.problem import MAX_SOURCE_LIMIT_KIB

Command = TypeVar("Command", bound=Callable[..., object])


def sandbox_options(function: Command) -> Command:
    """`--sandbox auto|bwrap|none` and `--require-sandbox`; combine them with `sandbox_choice`."""
    function = click.option("--sandbox", type=click.Choice(get_args(SandboxChoice)), default="auto",
                            show_default=True, help="bwrap confines submissions; auto uses it when it works here.")(function)
    return click.option("--require-sandbox", is_flag=True,
                        help="Refuse to run (exit 2) unless bwrap works here.")(function)


def source_limit_option(function: Command) -> Command:
    """`--source-limit KIB`: a source larger than this is refused unread (default: the problem's source_limit)."""
    return click.option("--source-limit", "source_limit", metavar="KIB", type=click.IntRange(1, MAX_SOURCE_LIMIT_KIB),
                        default=None, help="Refuse sources larger than this many KiB, unread (default: each "
                                           "problem's source_limit, 64 unless its problem.yaml says otherwise).")(function)


def sandbox_choice(sandbox: SandboxChoice, require_sandbox: bool) -> SandboxChoice:
    return "bwrap" if require_sandbox else sandbox


def default_jobs() -> int:
    """The cores this process may run on (fewer than os.cpu_count() under taskset or a container quota)."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
