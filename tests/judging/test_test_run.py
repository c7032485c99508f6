"""A submission's run command is built once for all its tests (judging/setup.py's `test_run`): it is the same for
every test but for the input, and building it (the toolchain's template, the sandbox's paths) cost 0.05-0.1 ms a
test."""

from __future__ import annotations

import pytest

from judge.judging.submission import judge_submission
from judge.languages.catalog import LANGUAGES
from judge.options import RunOptions
from judge.problems.folder import load_problem
from judge.programs.program import Program
from judge.runner.sandbox import bwrap_problem
from judge.verdicts import Verdict


@pytest.mark.parametrize("sandbox", ["none", "bwrap"])
def test_the_run_command_is_built_once_for_every_test(make_problem, submission, monkeypatch, sandbox):
    if sandbox == "bwrap" and bwrap_problem() is not None:
        pytest.skip(f"bwrap unusable: {bwrap_problem()}")
    built: list[tuple[str, ...]] = []
    command = Program.command

    def counted(self, template, *args, **kwargs):
        built.append(template)
        return command(self, template, *args, **kwargs)

    monkeypatch.setattr(Program, "command", counted)
    problem = make_problem({str(number): (f"{number}\n", f"{number}\n") for number in range(1, 5)})
    source = submission("print(int(input()))\n", "echo.py")
    result = judge_submission(load_problem(problem), source, RunOptions(sandbox=sandbox))
    assert result.verdict is Verdict.AC, result
    assert [case.name for case in result.cases] == ["1", "2", "3", "4"]
    assert built.count(LANGUAGES["python3"].run) == 1, built
