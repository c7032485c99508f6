"""`judge verify` on a small purpose-built problem: verdict folders, mismatches, skips, margins, -j."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from xml.etree import ElementTree

import pytest

from judge.languages import LANGUAGES, ToolSpec
from judge.options import RunOptions
from judge.problem import load_problem
from judge.verdicts import Verdict
from judge.verify import SubmissionCheck, verify

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


def test_verdicts_do_not_depend_on_parallelism(project: Path) -> None:
    problem = load_problem(project / "problems" / "add")
    serial = verify([problem], project / "submissions", RunOptions(sandbox="none"), jobs=1)
    parallel = verify([problem], project / "submissions", RunOptions(sandbox="none"), jobs=2)
    assert [check.result.verdict for check in serial.submissions] == [
        check.result.verdict for check in parallel.submissions
    ]


def test_missing_toolchain_is_skipped_not_failed(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = project / "submissions" / "add" / "accepted" / "Main.java"
    path.write_text("public class Main { public static void main(String[] a) {} }\n")
    java = LANGUAGES["java"]
    monkeypatch.setitem(java.tools, "javac", ToolSpec(("javac-not-installed",), "openjdk-17-jdk-headless"))
    from judge import languages

    languages._resolve_cached.cache_clear()
    try:
        report = verify([load_problem(project / "problems" / "add")], project / "submissions",
                        RunOptions(sandbox="none"), jobs=1)
    finally:
        languages._resolve_cached.cache_clear()
    skipped = [check for check in report.submissions if check.skipped]
    assert [check.path.name for check in skipped] == ["Main.java"]
    assert "apt-get install openjdk-17-jdk-headless" in skipped[0].skipped
    assert report.ok


def test_an_accepted_submission_near_the_limit_is_warned(project: Path) -> None:
    problem = load_problem(project / "problems" / "add")
    result = verify([problem], project / "submissions", RunOptions(sandbox="none"), jobs=1).submissions[0].result
    assert result is not None
    slow = SubmissionCheck("add", Path("x.py"), Verdict.AC,
                           result=result.__class__(**{**result.__dict__, "cases": tuple(
                               case.__class__(**{**case.__dict__, "cpu_seconds": 0.4}) for case in result.cases)}))
    assert "80%" in slow.slow_warning
    assert SubmissionCheck("add", Path("x.py"), Verdict.AC, result=result).slow_warning == ""


def test_junit_for_ci(project: Path) -> None:
    done = run_verify(project, "--format", "junit", "-j", "2")
    assert done.returncode == 0, done.stderr
    suite = ElementTree.fromstring(done.stdout).find("testsuite")
    assert suite.get("name") == "add" and (suite.get("tests"), suite.get("failures")) == ("6", "0")
    names = {(case.get("classname"), case.get("name")) for case in suite.iter("testcase")}
    assert {("add.data", "sample1"), ("add.data", "2"), ("add.submissions", "accepted/sum.py")} <= names
