"""`judge verify` on a small purpose-built problem: verdict folders, mismatches, skips, margins, -j."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from xml.etree import ElementTree

import msgspec.structs
import psutil
import pytest

from conftest import ctrl_c_as_in_a_terminal
from judge.batch.executors import ExecutorChoice
from judge.batch.status_bar import StatusBar
from judge.options import RunOptions
from judge.problems.expectations import Expectation
from judge.problems.folder import load_problem
from judge.problems.model import Problem
from judge.verdicts import Verdict
from judge.verify.report import SubmissionCheck, VerifyReport
from judge.verify.session import verify

SUBMISSIONS = {
    "accepted/sum.py": "a, b = map(int, input().split())\nprint(a + b)\n",
    "wrong_answer/difference.py": "a, b = map(int, input().split())\nprint(a - b)\n",
    "run_time_error/crash.py": "raise SystemExit(4)\n",
    "time_limit_exceeded/spin.py": "while True:\n    pass\n",
}


@pytest.fixture()
def project(tmp_path: Path) -> Path:
    problem = tmp_path / "problems" / "add"
    (problem / "tests").mkdir(parents=True)
    (problem / "problem.yaml").write_text(
        "id: add\ntitle: Add\ntime_limit: 0.5\nmemory_limit: 64\nlanguage_allowance: false\nvalidator: validator.py\n"
    )
    (problem / "validator.py").write_text(
        "import sys\na, b = map(int, sys.stdin.read().split())\nassert 0 <= a <= 100 and 0 <= b <= 100\nprint('ok')\n"
    )
    for name, (a, b) in {"sample1": (1, 2), "2": (40, 2)}.items():
        (problem / "tests" / f"{name}.in").write_text(f"{a} {b}\n")
        (problem / "tests" / f"{name}.ans").write_text(f"{a + b}\n")
    for relative, code in SUBMISSIONS.items():
        path = tmp_path / "submissions" / "add" / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(code)
    return tmp_path


def run_verify(project: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "judge", "verify", "--sandbox", "none", *args],
        cwd=project, capture_output=True, text=True, timeout=300,
    )


def test_every_reference_submission_gets_its_folder_verdict(project: Path) -> None:
    done = run_verify(project, "--json", "-j", "2")
    assert done.returncode == 0, done.stdout + done.stderr
    report = json.loads(done.stdout)
    got = {Path(entry["path"]).parent.name: entry["got"] for entry in report["submissions"]}
    assert got == {"accepted": "AC", "wrong_answer": "WA", "run_time_error": "RE", "time_limit_exceeded": "TLE"}
    assert all(entry["ok"] for entry in report["test_data"])


def test_a_mismatch_fails_verify(project: Path) -> None:
    moved = project / "submissions" / "add" / "accepted" / "difference.py"
    moved.write_text(SUBMISSIONS["wrong_answer/difference.py"])
    done = run_verify(project)
    assert done.returncode == 1
    assert "MISMATCH" in done.stdout and "FAILED" in done.stdout


def test_an_invalid_input_fails_the_test_data_check(project: Path) -> None:
    (project / "problems" / "add" / "tests" / "2.in").write_text("400 2\n")
    (project / "problems" / "add" / "tests" / "2.ans").write_text("402\n")
    done = run_verify(project)
    assert done.returncode == 1
    assert "invalid add/2" in done.stdout


def test_an_unknown_verdict_folder_is_a_usage_error(project: Path) -> None:
    (project / "submissions" / "add" / "fast").mkdir()
    done = run_verify(project)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "not a verdict folder" in done.stderr


def _verify(problems: list[Problem], submissions: Path, jobs: int) -> VerifyReport:
    return verify(problems, submissions, RunOptions(sandbox="none"), ExecutorChoice(jobs=jobs),
                  lambda total: StatusBar(total, enabled=False))


@pytest.mark.slow
def test_verdicts_do_not_depend_on_parallelism(project: Path) -> None:
    problem = load_problem(project / "problems" / "add")
    serial = _verify([problem], project / "submissions", jobs=1)
    parallel = _verify([problem], project / "submissions", jobs=2)
    assert [check.result.verdict for check in serial.submissions] == [
        check.result.verdict for check in parallel.submissions
    ]


def test_missing_toolchain_is_skipped_not_failed(project: Path, tmp_path: Path) -> None:
    path = project / "submissions" / "add" / "accepted" / "Main.java"
    path.write_text("public class Main { public static void main(String[] a) {} }\n")
    tools = tmp_path / "bin"
    tools.mkdir()  # a PATH with Python on it, and no javac
    (tools / "python3").symlink_to(os.path.realpath(sys.executable))
    done = subprocess.run([sys.executable, "-m", "judge", "verify", "--sandbox", "none", "--json", "-j", "2"],
                          cwd=project, capture_output=True, text=True, timeout=300,
                          env={**os.environ, "PATH": str(tools)})
    assert done.returncode == 0, done.stdout + done.stderr
    report = json.loads(done.stdout)
    skipped = [entry for entry in report["submissions"] if entry["skipped"]]
    assert [Path(entry["path"]).name for entry in skipped] == ["Main.java"]
    assert "apt-get install openjdk-17-jdk-headless" in skipped[0]["skipped"]
    assert report["ok"]


def test_an_accepted_submission_near_the_limit_is_warned(project: Path) -> None:
    problem = load_problem(project / "problems" / "add")
    result = _verify([problem], project / "submissions", jobs=1).submissions[0].result
    assert result is not None
    slow = SubmissionCheck("add", Path("x.py"), Expectation.of(Verdict.AC),
                           result=msgspec.structs.replace(result, cases=tuple(
                               msgspec.structs.replace(case, cpu_seconds=0.4) for case in result.cases)))
    assert "80%" in slow.slow_warning
    assert SubmissionCheck("add", Path("x.py"), Expectation.of(Verdict.AC), result=result).slow_warning == ""


def test_junit_for_ci(project: Path) -> None:
    done = run_verify(project, "--format", "junit", "-j", "2")
    assert done.returncode == 0, done.stderr
    suite = ElementTree.fromstring(done.stdout).find("testsuite")
    assert suite.get("name") == "add" and (suite.get("tests"), suite.get("failures")) == ("6", "0")
    names = {(case.get("classname"), case.get("name")) for case in suite.iter("testcase")}
    assert {("add.data", "sample1"), ("add.data", "2"), ("add.submissions", "accepted/sum.py")} <= names


@pytest.mark.parametrize(("stop", "code"), [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
@pytest.mark.slow
def test_ctrl_c_and_sigterm_stop_verify_and_its_workers(project: Path, stop: signal.Signals, code: int) -> None:
    """verify runs on the batch engine: stopping it stops its spawn workers and their submissions, in one line."""
    slow = project / "submissions" / "add" / "time_limit_exceeded"
    for index in range(4):
        (slow / f"sleep{index}.py").write_text("import time\ntime.sleep(60)\n")
    process = subprocess.Popen([sys.executable, "-m", "judge", "verify", "--sandbox", "none", "-j", "2"],
                               cwd=project, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               preexec_fn=ctrl_c_as_in_a_terminal)
    try:
        deadline = time.monotonic() + 60
        while not _running_a_submission(process.pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        descendants = _tree(process.pid)
        assert len(descendants) >= 3, descendants  # two workers, and a submission running under one
        process.send_signal(stop)
        _, stderr = process.communicate(timeout=30)
        _, alive = psutil.wait_procs(descendants, timeout=5)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == code, stderr
    assert stderr.splitlines() == ["judge verify: interrupted; nothing was verified"]
    assert not alive, f"left running after verify stopped: {alive}"


def _tree(pid: int) -> list[psutil.Process]:
    try:
        return psutil.Process(pid).children(recursive=True)
    except psutil.NoSuchProcess:
        return []


def _running_a_submission(pid: int) -> bool:
    for child in _tree(pid):
        try:
            if any(part.endswith("Main.py") or part.endswith("main.py") for part in child.cmdline()):
                return True
        except psutil.Error:
            continue
    return False
