"""Command-line options shared by every command that runs submissions (`run`, `verify`, `grade`)."""

from __future__ import annotations

from typing import Callable, TypeVar, get_args

import click

from judge.options import SandboxChoice

Command = TypeVar("Command", bound=Callable[..., object])


def sandbox_options(function: Command) -> Command:
    """`--sandbox auto|bwrap|none` and `--require-sandbox`; combine them with `sandbox_choice`."""
    function = click.option("--sandbox", type=click.Choice(get_args(SandboxChoice)), default="auto",
                            show_default=True, help="bwrap confines submissions; auto uses it when it works here.")(function)
    return click.option("--require-sandbox", is_flag=True,
                        help="Refuse to run (exit 2) unless bwrap works here.")(function)


def sandbox_choice(sandbox: SandboxChoice, require_sandbox: bool) -> SandboxChoice:
    return "bwrap" if require_sandbox else sandbox
