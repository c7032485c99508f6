"""JE is a boundary (issue 10): each failure of the judge is made to happen for real, in `run`, `verify` and
`grade`, and each ends as JE (or a failed data check) with one line of reason, never a Python traceback.

The commands run as child processes, as a person starts them. Where a failure needs a shorter limit than the
judge's own (a validator or checker that hangs), the command runs in this process with that limit lowered.
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import signal
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import msgspec.structs
import pytest

import nonroot
from judge.cli import main
from judge.judging.failures import MISSING_TOOLCHAIN, OnMissingToolchain
from judge.programs import runs
from judge.runner.containment.choice import available_containments

COMMANDS = ("run", "verify", "grade")
SUM = "a, b = map(int, input().split())\nprint(a + b)\n"
SUM_C = '#include <stdio.h>\nint main(void) { int a, b; scanf("%d %d", &a, &b); printf("%d\\n", a + b); return 0; }\n'
RAISING_CHECKER = "def check(*, input, output, answer):\n    raise ValueError('the author forgot a case')\n"
HANGING = "import time\ntime.sleep(600)\n"
SHORT_LIMITS = msgspec.structs.replace(runs.PROBLEM_CODE_LIMITS, time_seconds=1, wall_seconds=1)


@dataclass(frozen=True)
class Project:
    """One problem `t`, one reference submission (accepted) and one student `kim` sending the same source."""

    root: Path
    source_name: str

    @property
    def problem(self) -> Path:
        return self.root / "problems" / "t"

    @property
    def source(self) -> Path:
        return self.root / "class" / "kim" / self.source_name

    def arguments(self, command: str) -> list[str]:
        if command == "run":
            return ["run", str(self.problem), str(self.source), "--json", "--feedback", "full", "--sandbox", "none"]
        if command == "verify":
            return ["verify", "--json", "-j", "1", "--sandbox", "none", "--problems-dir", str(self.root / "problems"),
                    "--submissions-dir", str(self.root / "submissions")]
        return ["grade", str(self.root / "problems"), str(self.root / "class"), "--out", str(self.root / "out"),
                "-j", "1", "-q", "--sandbox", "none"]


def make_project(root: Path, *, source: str = SUM, source_name: str = "t.py", given: str = "1 2\n",
                 **files: str) -> Project:
    """`files` are extra files of the problem folder (checker.py, validator.py); problem.yaml names them."""
    problem = root / "problems" / "t"
    (problem / "tests").mkdir(parents=True)
    spec = "id: t\ntitle: T\ntime_limit: 2\nmemory_limit: 256\n"
    spec += "checker: checker.py\n" if "checker.py" in files else ""
    spec += "validator: validator.py\n" if "validator.py" in files else ""
    (problem / "problem.yaml").write_text(spec)
    for name, text in files.items():
        (problem / name).write_text(text)
    for name in ("1", "2"):
        (problem / "tests" / f"{name}.in").write_text(given)
        (problem / "tests" / f"{name}.ans").write_text("3\n")
    for folder in (root / "submissions" / "t" / "accepted", root / "class" / "kim"):
        folder.mkdir(parents=True)
        (folder / source_name).write_text(source)
    return Project(root, source_name)


@dataclass(frozen=True)
class Outcome:
    """What a command said: its exit code, and the reasons it gave for JE (or for a failed data check)."""

    code: int
    reasons: tuple[str, ...]
    output: str


def outcome(project: Project, command: str, code: int, stdout: str, stderr: str) -> Outcome:
    assert "Traceback" not in stdout + stderr, stdout + stderr
    reasons: list[str] = []
    if command == "run" and stdout.strip():
        reasons += [case["message"] for case in json.loads(stdout)["cases"] if case["verdict"] == "JE"]
    elif command == "verify" and stdout.strip():
        document = json.loads(stdout)
        reasons += [check["detail"] for check in document["test_data"] if not check["ok"]]
        for check in document["submissions"]:
            if check["got"] == "JE":
                reasons.append(check["judge_failure"] or next(
                    case["message"] for case in check["result"]["cases"] if case["verdict"] == "JE"))
    elif command == "grade" and (project.root / "out" / "grades.json").is_file():
        grades = json.loads((project.root / "out" / "grades.json").read_text())
        for pair in grades["students"][0]["results"].values():
            if pair["verdict"] == "JE":
                reasons.append(pair["error"] or next(
                    case["message"] for case in pair["report"]["cases"] if case["verdict"] == "JE"))
    reasons += [line.removeprefix("judge: judge error: ") for line in stderr.splitlines()
                if line.startswith("judge: judge error: ")]
    for line in reasons:
        assert "\n" not in line and line.strip() == line and line, reasons
    return Outcome(code, tuple(reasons), stdout + stderr)


def judge_child(project: Project, command: str, *, env: dict[str, str] | None = None,
                preexec: Callable[[], None] | None = None, argv: list[str] | None = None) -> Outcome:
    """The command as a child process (`argv` to start it another way, e.g. as another user)."""
    done = subprocess.run(argv or [sys.executable, "-m", "judge", *project.arguments(command)],
                          capture_output=True, text=True, timeout=300, cwd=project.root,
                          env=env if env is not None else os.environ.copy(), preexec_fn=preexec)
    return outcome(project, command, done.returncode, done.stdout, done.stderr)


def judge_here(project: Project, command: str, capsys: pytest.CaptureFixture[str]) -> Outcome:
    """The command in this process (so a monkeypatched limit applies), through the CLI's own entry point."""
    code = main(project.arguments(command))
    captured = capsys.readouterr()
    return outcome(project, command, code, captured.out, captured.err)


def expect_judge_error(result: Outcome, command: str, fragment: str) -> None:
    """Exit 3 for `run` and `grade` (the judge failed), 1 for `verify` (the check failed); the reason named."""
    assert result.code == (1 if command == "verify" else 3), result.output
    assert any(fragment in line for line in result.reasons), (fragment, result.reasons, result.output)


@pytest.mark.parametrize("command", COMMANDS)
def test_a_checker_that_raises_is_je_with_its_exception(tmp_path: Path, command: str) -> None:
    project = make_project(tmp_path, **{"checker.py": RAISING_CHECKER})
    expect_judge_error(judge_child(project, command), command, "check() raised ValueError: the author forgot a case")


@pytest.mark.parametrize("command", ["run", "verify"])
@pytest.mark.slow
def test_a_checker_that_hangs_is_je(tmp_path: Path, command: str, capsys, monkeypatch) -> None:
    monkeypatch.setattr(runs, "PROBLEM_CODE_LIMITS", SHORT_LIMITS)
    checker = "import time\ndef check(*, input, output, answer):\n    time.sleep(600)\n"
    project = make_project(tmp_path, **{"checker.py": checker})
    # verify judges submissions in worker processes, under the judge's own limit: only its data check (which
    # runs in this process) is asked about here.
    shutil.rmtree(tmp_path / "submissions" / "t")
    result = judge_here(project, command, capsys)
    expect_judge_error(result, command, "no answer within 1 s")


def test_a_validator_that_hangs_fails_the_data_check(tmp_path: Path, capsys, monkeypatch) -> None:
    monkeypatch.setattr(runs, "PROBLEM_CODE_LIMITS", SHORT_LIMITS)
    project = make_project(tmp_path, **{"validator.py": HANGING})
    result = judge_here(project, "verify", capsys)
    expect_judge_error(result, "verify", "TLE")
    assert len(result.reasons) == 2  # one per test; the submission itself is still judged (and accepted)


def _without_disk_space(limit_bytes: int) -> Callable[[], None]:
    """The judge's files may grow to `limit_bytes`: every write beyond fails as on a full temp folder (EFBIG with
    SIGXFSZ ignored, as a judge under a quota or a small tmpfs sees ENOSPC)."""

    def limit() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit_bytes, limit_bytes))

    return limit


@pytest.mark.parametrize("command", COMMANDS)
def test_a_full_temp_folder_is_je(tmp_path: Path, command: str) -> None:
    project = make_project(tmp_path, given="1 2\n" + " " * 65536 + "\n")  # tests the judge cannot copy
    # Room for the gradebook's store, none for the test's copy.
    result = judge_child(project, command, preexec=_without_disk_space(60 * 1024))
    expect_judge_error(result, command, "File too large")


@pytest.mark.parametrize("command", COMMANDS)
def test_a_toolchain_gone_after_detection_is_je(tmp_path: Path, command: str) -> None:
    if shutil.which("gcc") is None:
        pytest.skip("gcc is not installed (Debian: apt-get install gcc)")
    project = make_project(tmp_path / "project", source=SUM_C, source_name="t.c")
    tools = tmp_path / "bin"
    tools.mkdir()
    # Found on PATH and working while the judge detects it (its static-link probe), then gone: uninstalled.
    (tools / "gcc").write_text(f'#!/bin/sh\nrm -f "$0"\nexec {shutil.which("gcc")} "$@"\n')
    (tools / "gcc").chmod(0o755)
    env = {**os.environ, "PATH": f"{tools}{os.pathsep}{os.environ['PATH']}", "XDG_CACHE_HOME": str(tmp_path)}
    expect_judge_error(judge_child(project, command, env=env), command, "No such file or directory")


def test_a_missing_toolchain_follows_the_written_policy(tmp_path: Path) -> None:
    project = make_project(tmp_path, source=SUM_C, source_name="t.c")
    tools = tmp_path / "bin"
    tools.mkdir()  # a PATH with no compiler on it, and the Python that problem code runs on
    (tools / "python3").symlink_to(os.path.realpath(sys.executable))
    env = {**os.environ, "PATH": str(tools)}
    expected_code = {OnMissingToolchain.USAGE_ERROR: 2, OnMissingToolchain.SKIP: 0, OnMissingToolchain.JUDGE_ERROR: 3}
    for command, policy in MISSING_TOOLCHAIN.items():
        result = judge_child(project, command, env=env)
        assert result.code == expected_code[policy], (command, result.output)
        if policy is OnMissingToolchain.SKIP:
            assert "'gcc' not found on PATH" in json.loads(result.output)["submissions"][0]["skipped"]
        elif policy is OnMissingToolchain.JUDGE_ERROR:
            assert any("'gcc' not found on PATH" in line for line in result.reasons), result.output
        else:
            assert result.output.strip().startswith("judge: C11: 'gcc' not found on PATH"), result.output
            assert len(result.output.strip().splitlines()) == 1


@pytest.mark.parametrize("command", COMMANDS)
def test_an_unreadable_test_file(command: str) -> None:
    """`run` finds it while judging (JE on that test); `verify` and `grade` pack every problem's files for their
    workers first, and refuse the problem folder in one line (exit 2), before judging anything."""
    user = nonroot.judge_user()
    if isinstance(user, str):
        pytest.skip(user)
    with nonroot.owned_folder(user.uid) as home:
        project = make_project(home / "project")
        nonroot.hand_over(home, user.uid)
        (project.problem / "tests" / "2.in").chmod(0)
        argv = user.judge(project.arguments(command), join=())
        result = judge_child(project, command, argv=argv, env=user.env(home, home))
    if command in ("verify", "grade"):
        assert result.code == 2, result.output
        assert result.output.strip().splitlines() == [
            f"judge: {project.problem / 'tests' / '2.in'}: cannot be read: Permission denied; a problem's files "
            "must be regular files inside its folder"]
    else:
        expect_judge_error(result, command, f"Permission denied ({project.problem / 'tests' / '2.in'})")


def test_a_bug_in_the_judge_is_one_line_and_exit_3(tmp_path: Path, capsys, monkeypatch) -> None:
    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("an invariant\nthat did not hold")

    monkeypatch.setattr("judge.cli.run.judge_submission", broken)
    result = judge_here(make_project(tmp_path), "run", capsys)
    assert result.code == 3
    assert result.output.splitlines() == [
        "judge: internal error (a bug in the judge; please report it): RuntimeError: an invariant that did not hold"]


def _file_descriptors(limit: int) -> Callable[[], None]:
    def lower() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (limit, limit))

    return lower


@pytest.mark.slow
def test_too_few_file_descriptors_is_je_never_a_made_up_peak(tmp_path: Path) -> None:
    """Started with few descriptors, the judge fails at some step of a run; whichever it is, the test is JE or
    the command's one-line judge error, never a peak of 0 MiB (a counter whose read failed was taken as 0).
    The limits are scanned: where the first failure falls depends on how many files Python opens at start."""
    if "cgroup" not in available_containments():
        pytest.skip("the control group's counters are what this reads (no cgroup containment here)")
    project = make_project(tmp_path)
    for extension in ("in", "ans"):  # one test: a second one fails earlier, at its reused group's limit
        (project.problem / "tests" / f"2.{extension}").unlink()
    counter_failures = 0
    for limit in range(8, 33):
        result = judge_child(project, "run", preexec=_file_descriptors(limit))
        counter_failures += any("could not read /sys/fs/cgroup" in line for line in result.reasons)
        if not result.output.startswith("{"):
            continue  # failed before the report began: one line (`outcome` checked there is no traceback)
        cases = json.JSONDecoder().raw_decode(result.output)[0]["cases"]  # stdout first, then any warning
        for case in cases:
            assert case["verdict"] == "JE" or case["peak_mib"] > 0, (limit, case)
    assert counter_failures, "no limit made a control group's counter unreadable: the scan missed the case"
