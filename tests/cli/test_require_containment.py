"""Fail closed on request: `--require-containment cgroup` (or JUDGE_REQUIRE_CONTAINMENT=cgroup, set once by a
teacher) refuses to judge, one line, exit 2, where the limits would fall back to polling and rlimits; with a
control group it judges as before. The cgroup is taken away the way a machine without one has none: the choice
of containment finds no cgroup (in this process), or the run is forced to `--containment proc`."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import assert_usage_error, judge_cli, write_problem
from judge.cli import main
from judge.errors import SandboxUnavailable
from judge.judging.submission import judge_submission
from judge.options import RunOptions
from judge.problems.folder import load_problem
from judge.runner.containment import choice
from judge.verdicts import Verdict

REFUSAL = "--require-containment cgroup: runs here would be limited by RLIMIT_AS per process"


@pytest.fixture
def no_cgroup(monkeypatch: pytest.MonkeyPatch) -> None:
    """This process finds no control group: the best containment it has is `proc`."""
    monkeypatch.setattr(choice, "_cgroup_version", lambda: None)


@pytest.fixture
def project(tmp_path: Path) -> tuple[Path, Path]:
    problem = write_problem(tmp_path / "problems" / "sum")
    source = tmp_path / "class" / "ada" / "sum.py"
    source.parent.mkdir(parents=True)
    source.write_text("a, b = map(int, input().split())\nprint(a + b)\n")
    return problem, source


def arguments(command: str, problem: Path, source: Path) -> list[str]:
    return {
        "run": ["run", str(problem), str(source)],
        "verify": ["verify", "--problems-dir", str(problem.parent)],
        "grade": ["grade", str(problem.parent), str(source.parent.parent), "--out", str(source.parents[2] / "out")],
        "serve": ["serve", str(problem.parent), "--roster", str(source.parents[2] / "roster.csv")],
    }[command]


@pytest.mark.parametrize("command", ["run", "verify", "grade", "serve"])
def test_without_a_cgroup_the_command_refuses_in_one_line(command, project, no_cgroup, capsys):
    problem, source = project
    code = main([*arguments(command, problem, source), "--require-containment", "cgroup"])
    captured = capsys.readouterr()
    assert code == 2, captured
    lines = captured.err.splitlines()
    assert len(lines) == 1 and REFUSAL in lines[0], captured.err
    assert not (source.parents[2] / "out").exists()  # nothing was judged or written


def test_the_teachers_default_refuses_too(project, no_cgroup, capsys, monkeypatch):
    monkeypatch.setenv("JUDGE_REQUIRE_CONTAINMENT", "cgroup")
    code = main(arguments("run", *project))
    assert code == 2
    assert REFUSAL in capsys.readouterr().err


def test_a_worker_without_a_cgroup_refuses_the_judging(project, no_cgroup):
    """A batch worker (another machine of a Dask cluster) checks again when it sets a judging up."""
    with pytest.raises(SandboxUnavailable, match="--require-containment cgroup"):
        judge_submission(load_problem(project[0]), project[1], RunOptions(require_containment="cgroup"))


def test_asking_for_proc_and_requiring_cgroup_contradict_each_other(project):
    done = judge_cli(*arguments("run", *project), "--containment", "proc", "--require-containment", "cgroup")
    assert_usage_error(done, "--require-containment cgroup cannot go with --containment proc; give one of them")


def test_with_a_cgroup_the_requirement_judges_as_before(project, capsys):
    if "cgroup" not in choice.available_containments():
        pytest.skip("no cgroup containment here")
    assert main([*arguments("run", *project), "--require-containment", "cgroup"]) == 0, capsys.readouterr()
    result = judge_submission(load_problem(project[0]), project[1], RunOptions(require_containment="cgroup"))
    assert result.verdict is Verdict.AC
