"""The options every judging command shares are decoded once, in judge/cli/options.py and executor_options.py
(issue 40, item 5): each command is handed a ready `RunOptions` and `ExecutorChoice`, and options that contradict
each other are refused there, in one line naming them and the fix, exit 2, before the command reads anything."""

from __future__ import annotations

import ast
import importlib
import inspect
from pathlib import Path

import click
import pytest

from conftest import ROOT, assert_usage_error, judge_cli
from judge.cli import COMMANDS

CLI = ROOT / "judge" / "cli"
DECODERS = {"options.py": "RunOptions", "executor_options.py": "ExecutorChoice"}
RAW = {"jobs", "scheduler", "cluster_dir", "insecure", "sandbox", "require_sandbox", "containment", "source_limit",
       "source_limit_kib", "lang", "language", "as_json", "fail_fast", "require_containment"}
NOWHERE = "/nonexistent/judge-test"  # refused before any path is looked at

ARGUMENTS = {
    "run": [f"{NOWHERE}/problem", f"{NOWHERE}/a.py"],
    "verify": ["--problems-dir", NOWHERE],
    "grade": [f"{NOWHERE}/problems", f"{NOWHERE}/class"],
    "stress": [f"{NOWHERE}/problem", f"{NOWHERE}/a.py"],
    "answers": [f"{NOWHERE}/problem"],
    "serve": [f"{NOWHERE}/problems", "--roster", f"{NOWHERE}/roster.csv"],
}


@pytest.mark.parametrize("command", ["verify", "grade", "serve"])
def test_jobs_with_a_scheduler_is_refused_in_one_line(command: str) -> None:
    done = judge_cli(command, *ARGUMENTS[command], "--jobs", "2", "--scheduler", "tls://192.0.2.7:8786")
    assert_usage_error(done, "--jobs and --scheduler: choose one; a Dask cluster's size is set by its workers")


@pytest.mark.parametrize("command", ["run", "verify", "grade", "stress", "answers", "serve"])
def test_require_sandbox_with_no_sandbox_is_refused_before_anything_is_read(command: str) -> None:
    done = judge_cli(command, *ARGUMENTS[command], "--sandbox", "none", "--require-sandbox")
    assert_usage_error(done, "--require-sandbox (run only in bwrap) cannot go with --sandbox none; give one of them",
                       f"judge {command} --help")


@pytest.mark.parametrize("command", ["run", "stress"])
def test_json_with_another_format_is_refused_before_anything_is_read(command: str) -> None:
    done = judge_cli(command, *ARGUMENTS[command], "--json", "--format", "text")
    assert_usage_error(done, "--json means --format json, so it cannot go with --format text")


def test_run_options_and_executor_choices_are_built_only_by_the_option_modules() -> None:
    """A command that built its own `RunOptions(...)` or `ExecutorChoice(...)` would decode options a second way."""
    built = []
    for module in sorted(CLI.glob("*.py")):
        for node in ast.walk(ast.parse(module.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in DECODERS.values():
                if DECODERS.get(module.name) != node.func.id:
                    built.append(f"{module.name}:{node.lineno} {node.func.id}(...)")
    assert built == []


def test_the_jobs_and_scheduler_refusal_is_written_once() -> None:
    holders = [module.name for module in CLI.glob("*.py") if "--jobs and --scheduler" in module.read_text()]
    assert holders == ["executor_options.py"]


def judging_commands() -> list[click.Command]:
    """Every command that judges here (offers --sandbox, --source-limit or --jobs); `judge submit`'s --lang is
    sent to a server, not decoded into RunOptions."""
    found = []
    for target in COMMANDS.values():
        module, attribute = target.split(":")
        command = getattr(importlib.import_module(module), attribute)
        for each in command.commands.values() if isinstance(command, click.Group) else [command]:
            if {"--sandbox", "--source-limit", "--jobs"} & {option for param in each.params for option in param.opts}:
                found.append(each)
    return found


def test_every_judging_command_is_handed_decoded_options_not_raw_ones() -> None:
    commands = judging_commands()
    assert sorted(command.name or "" for command in commands) == [
        "answers", "grade", "run", "serve", "similarity", "stress", "verify"]
    for command in commands:
        offered = {option for param in command.params for option in param.opts}
        assert command.callback is not None
        parameters = inspect.signature(command.callback).parameters  # the command's own (wraps sets __wrapped__)
        assert RAW.isdisjoint(parameters), (command.name, sorted(RAW & set(parameters)))
        assert parameters["options"].annotation == "RunOptions", command.name
        if "--jobs" in offered:
            assert parameters["executor"].annotation == "ExecutorChoice", command.name
