"""A click group that imports a command's module only when that command runs (or its help is shown).

A command's modules are imported once, at the start of the process, and live as long as it: the cyclic garbage
collector is paused while they load and they are frozen after (`gc.freeze`), so no later collection walks them
again. About 4 ms of the CPU of every `judge run` (issue 45), where the collector ran some thirty times during
the imports and found nothing to free.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import click

from judge.lazy import frozen_once_loaded, load_target


class LazyGroup(click.Group):
    """`commands` maps each name to `"module:attribute"` of its `click.Command`; `judge run` imports
    judge/cli/run.py and what it needs, never the modules of `grade` or `doctor`."""

    def __init__(self, *args: Any, lazy_commands: Mapping[str, str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._lazy_commands = dict(lazy_commands)

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *self._lazy_commands})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        target = self._lazy_commands.get(cmd_name)
        if target is None:
            return super().get_command(ctx, cmd_name)
        with frozen_once_loaded(target.partition(":")[0]):
            command = load_target(target)
        if not isinstance(command, click.Command):
            raise TypeError(f"{target} is not a click command")
        return command

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        """As click's, with `Did you mean ...?` drawn from every command (click looks only at the loaded ones)."""
        try:
            return super().resolve_command(ctx, args)
        except click.exceptions.NoSuchCommand as error:
            raise click.exceptions.NoSuchCommand(
                error.command_name, possibilities=self.list_commands(ctx), ctx=ctx
            ) from None
