"""Command-line options shared by the commands, each family decoded once, here: a command is handed a ready
`RunOptions` (`run_options`) and report format (`format_options`) instead of the raw values of their options, and
judge/cli/executor_options.py hands the commands that judge many submissions their `ExecutorChoice`. Options that
contradict each other are refused here, in one line naming them and the fix (exit 2), before the command starts.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Sequence
from typing import Any, get_args

import click
import msgspec.structs
from msgspec import Struct

from judge.host_timing import read_host_timing
from judge.options import MAX_SOURCE_LIMIT_KIB, RunOptions, SandboxChoice
from judge.runner.containment.choice import CONTAINMENT_NAMES, REQUIRABLE, choose_containment

Decorator = Callable[[Callable[..., Any]], Callable[..., Any]]


def handing(into: str, names: Sequence[str], decode: Callable[..., object], options: Sequence[Decorator]) -> Decorator:
    """Add `options` (click.option decorators, in the order --help lists them) to a command, and hand the command
    one parameter `into` in place of their values (the parameters `names`): `decode(**values)`, called before the
    command's body runs, so what it refuses stops the command before anything starts."""

    def decorate(function: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(function)  # keeps the options already attached to `function` (click's __click_params__)
        def command(*args: Any, **given: Any) -> Any:
            decoded = decode(**{name: given.pop(name) for name in names})
            return function(*args, **given, **{into: decoded})

        decorated: Callable[..., Any] = command
        for option in reversed(options):  # click lists the last-applied option first
            decorated = option(decorated)
        return decorated

    return decorate


class RunOptionGroup(Struct, frozen=True):
    """Options that --help lists together, and the `RunOptions` fields they set: `fields`, called with the options'
    values as the keyword arguments `names` (by default the values are the fields)."""

    names: tuple[str, ...]
    options: tuple[Decorator, ...]
    fields: Callable[..., dict[str, Any]] = dict


def run_options(*groups: RunOptionGroup, **fixed: Any) -> Decorator:
    """Hand the command `options: RunOptions`: the fields the `groups`' options set, and those `fixed` for it."""

    def decode(**values: Any) -> RunOptions:
        fields: dict[str, Any] = {**fixed, "host_timing": read_host_timing()}  # once per command (provenance)
        for group in groups:
            fields |= group.fields(**{name: values[name] for name in group.names})
        return RunOptions(**fields)

    names = [name for group in groups for name in group.names]
    handed = handing("options", names, decode, [option for group in groups for option in group.options])

    def decorate(function: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(function)
        def with_workers(*args: Any, **given: Any) -> Any:
            """A command that also takes an `ExecutorChoice` (decoded by executor_options.py, outside this
            decorator) judges that many at once here (`--jobs`), or on a cluster (None): the results say so."""
            executor = given.get("executor")
            if executor is not None:
                jobs = executor.jobs if executor.scheduler is None else None
                given["options"] = msgspec.structs.replace(given["options"], workers=jobs)
            return function(*args, **given)

        return handed(with_workers)

    return decorate


def language(whose: str) -> RunOptionGroup:
    """`--lang KEY`, the language of `whose` source (`The submission's`), instead of its extension's."""
    return RunOptionGroup(
        ("language",),
        (
            click.option(
                "--lang",
                "language",
                metavar="KEY",
                help=f"{whose} language key (python3, pypy3, java, c, cpp, ...), instead of guessing "
                "from the extension.",
            ),
        ),
    )


FAIL_FAST = RunOptionGroup(
    ("fail_fast",), (click.option("--fail-fast", is_flag=True, help="Stop at the first test that is not accepted."),)
)

SOURCE_LIMIT = RunOptionGroup(
    ("source_limit_kib",),
    (
        click.option(
            "--source-limit",
            "source_limit_kib",
            metavar="KIB",
            type=click.IntRange(1, MAX_SOURCE_LIMIT_KIB),
            default=None,
            help="Refuse sources larger than this many KiB, unread (default: each "
            "problem's source_limit, 64 unless its problem.yaml says otherwise).",
        ),
    ),
)
"""`--source-limit KIB`: a source larger than this is refused unread (default: the problem's source_limit)."""


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


def required_containment(containment: str | None, require_containment: str | None) -> dict[str, Any]:
    """`--containment` and `--require-containment`, refused here (exit 2) when they contradict each other or this
    machine cannot give what is required, before the command starts anything (set_up checks again on a worker)."""
    if require_containment is not None and containment not in (None, require_containment):
        raise click.UsageError(
            f"--require-containment {require_containment} cannot go with --containment {containment}; give one of them"
        )
    if require_containment is not None:
        choose_containment(containment, require_containment)
    return {"containment": containment, "require_containment": require_containment}


SANDBOX = RunOptionGroup(
    ("require_sandbox", "sandbox", "containment", "require_containment"),
    (
        click.option("--require-sandbox", is_flag=True, help="Refuse to run (exit 2) unless bwrap works here."),
        click.option(
            "--sandbox",
            type=click.Choice(get_args(SandboxChoice)),
            default="auto",
            show_default=True,
            help="bwrap confines submissions; auto uses it when it works here.",
        ),
        click.option(
            "--containment",
            type=click.Choice(CONTAINMENT_NAMES),
            default=None,
            help="How runs are contained and measured (default: the best this machine has; `judge doctor` lists them).",
        ),
        click.option(
            "--require-containment",
            type=click.Choice(REQUIRABLE),
            envvar="JUDGE_REQUIRE_CONTAINMENT",
            default=None,
            help="Refuse to judge (exit 2) where the limits would fall back to polling and rlimits "
            "(a teacher sets it once: JUDGE_REQUIRE_CONTAINMENT=cgroup).",
        ),
    ),
    lambda require_sandbox, sandbox, containment, require_containment: {
        "sandbox": sandbox_choice(sandbox, require_sandbox),
        **required_containment(containment, require_containment),
    },
)
"""`--sandbox auto|bwrap|none`, `--require-sandbox`, `--containment cgroup|proc|portable` and
`--require-containment cgroup`."""


def format_options(choices: Iterable[str]) -> Decorator:
    """`--format NAME` (one of `choices`, text by default) and `--json`, kept as an alias of `--format json`: the
    command is handed `report_format`, the one format asked for."""
    return handing(
        "report_format",
        ("report_format", "as_json"),
        chosen_format,
        (
            click.option(
                "--format",
                "report_format",
                type=click.Choice(sorted(choices)),
                default=None,
                help="How to print the report [default: text].",
            ),
            click.option(
                "--json", "as_json", is_flag=True, help="The same as --format json (kept for scripts that use it)."
            ),
        ),
    )


def chosen_format(report_format: str | None, as_json: bool) -> str:
    """The one format asked for; `--json` with another `--format` is a usage error (exit 2), not a silent pick."""
    if as_json and report_format not in (None, "json"):
        raise click.UsageError(
            f"--json means --format json, so it cannot go with --format {report_format}; give one of them"
        )
    return "json" if as_json else report_format or "text"
