"""Packages verified as their authors meant them (issue 44): each test writes a small package of its own with the
shape seen in the field: a should-fail reference that passes, an accepted one short of the full score, a package
without secret data, a checktestdata validator, groups with output validator flags of their own, Python judged on
PyPy 3 as Kattis and problemtools judge it."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from xml.etree import ElementTree

import pytest
from conftest import ROOT, assert_usage_error, judge_cli, needs, write_problem

ECHO = "print(input())\n"
IMPLEMENTATION = "import platform\nprint(platform.python_implementation())\n"
"""Prints which Python runs it: `PyPy` on PyPy 3, `CPython` on our Python 3."""


def write_package(root: Path, files: dict[str, str]) -> Path:
    """A package at `root` holding `files` (relative path -> text); problem.yaml defaults to a legacy one."""
    for name, text in {"problem.yaml": "name: Echo\n", **files}.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return root


def verify_json(root: Path) -> dict:
    done = judge_cli("verify", "--sandbox", "none", "--format", "json", root)
    assert done.returncode in (0, 1), done.stdout + done.stderr
    return json.loads(done.stdout)


def words(text: str) -> str:
    """Text with every run of white space (and the table's folds) made one space."""
    return " ".join(text.replace("│", " ").split())


@pytest.mark.slow
def test_a_should_fail_reference_that_every_test_accepts_says_so(tmp_path: Path) -> None:
    root = write_package(tmp_path / "echo", {
        ".timelimit": "1\n",
        "data/secret/1.in": "5\n", "data/secret/1.ans": "5\n",
        "submissions/accepted/echo.py": ECHO,
        "submissions/wrong_answer/also_echo.py": ECHO,
    })
    report = verify_json(root)
    (row,) = [row for row in report["submissions"] if row["path"].endswith("also_echo.py")]
    assert not row["ok"] and row["mismatch"] == "expected WA, every test was accepted"
    text = judge_cli("verify", "--sandbox", "none", root)
    assert text.returncode == 1
    assert "MISMATCH: expected WA, every test was accepted" in words(text.stdout), text.stdout
    junit = judge_cli("verify", "--sandbox", "none", "--format", "junit", root)
    (failure,) = ElementTree.fromstring(junit.stdout).iter("failure")
    assert failure.text == "expected WA, every test was accepted"


@pytest.mark.slow
def test_an_accepted_reference_short_of_the_full_score_is_warned_and_range_sets_the_full_score(tmp_path: Path) -> None:
    """Two tests of 1 point each, and the top testdata.yaml's `range: 0 100`: an accepted submission scores 2 of
    the 100 the package says a full score is, which problemtools warns about."""
    files = {
        "problem.yaml": "name: Echo\ntype: scoring\n",
        ".timelimit": "1\n",
        "data/secret/1.in": "5\n", "data/secret/1.ans": "5\n",
        "data/secret/2.in": "7\n", "data/secret/2.ans": "7\n",
        "submissions/accepted/echo.py": ECHO,
    }
    ranged = write_package(tmp_path / "ranged", {**files, "data/testdata.yaml": "range: 0 100\n"})
    report = verify_json(ranged)
    (row,) = report["submissions"]
    assert row["ok"] and row["got"] == "AC", row
    assert (row["result"]["score"], row["result"]["max_score"]) == (2, 100)
    assert row["warning"] == "did not attain full score (2/100); if meant, move it to partially_accepted/"
    assert "unused keys" not in [check["test"] for check in report["test_data"]]  # range is read
    text = judge_cli("verify", "--sandbox", "none", ranged)
    assert text.returncode == 0 and "did not attain full score (2/100)" in words(text.stdout), text.stdout
    assert "1 warning" in text.stdout

    (full,) = verify_json(write_package(tmp_path / "full", files))["submissions"]
    assert (full["result"]["score"], full["result"]["max_score"], full["warning"]) == (2, 2, "")


def test_a_package_without_secret_data_is_warned_that_only_samples_were_judged(tmp_path: Path) -> None:
    root = write_package(tmp_path / "echo", {
        ".timelimit": "1\n",
        "data/sample/1.in": "5\n", "data/sample/1.ans": "5\n",
        "submissions/accepted/echo.py": ECHO,
    })
    (warning,) = [check for check in verify_json(root)["test_data"] if check["note"]]
    assert warning["note"] == "warning" and warning["ok"], warning
    assert warning["detail"].startswith("No secret data provided: every test is a sample")
    text = judge_cli("verify", "--sandbox", "none", root)
    assert text.returncode == 0, text.stdout + text.stderr
    assert "warning echo: secret data: No secret data provided" in words(text.stdout), text.stdout
    assert "test data: 1/1 tests valid" in text.stdout


@pytest.mark.slow
def test_an_input_validator_judge_cannot_run_is_a_skipped_check_not_a_passed_one(tmp_path: Path) -> None:
    root = write_package(tmp_path / "echo", {
        ".timelimit": "1\n",
        "input_validators/format.ctd": "INT(0, 10) NEWLINE\n",
        "data/secret/1.in": "5\n", "data/secret/1.ans": "5\n",
        "data/secret/2.in": "7\n", "data/secret/2.ans": "7\n",
        "submissions/accepted/echo.py": ECHO,
    })
    checks = verify_json(root)["test_data"]
    assert [check["test"] for check in checks] == ["input_validators/format.ctd", "secret/1", "secret/2"]
    assert checks[0]["skipped"] == "judge does not run checktestdata scripts (.ctd)"
    assert not any(check["note"] for check in checks)  # it has secret data: no warning
    text = judge_cli("verify", "--sandbox", "none", root)
    assert text.returncode == 0, text.stdout + text.stderr
    assert "test data: 2/2 tests valid, 1 check skipped" in text.stdout
    assert ("skipped echo/input_validators/format.ctd: judge does not run checktestdata scripts (.ctd); its checks "
            "were not made") in words(text.stdout)
    assert "--lang" not in text.stdout
    junit = ElementTree.fromstring(judge_cli("verify", "--sandbox", "none", "--format", "junit", root).stdout)
    (suite,) = junit.iter("testsuite")
    assert suite.get("skipped") == "1" and suite.get("failures") == "0"


@needs("pypy3")
def test_a_packages_python_is_judged_and_timed_on_pypy_as_kattis_runs_it(tmp_path: Path) -> None:
    """Its accepted submissions set the time limit (none is given) and must print PyPy: measured and judged on
    PyPy 3, `.py` and `.py3` alike; the one expecting CPython must be WA."""
    root = write_package(tmp_path / "which", {
        "data/secret/1.in": "\n", "data/secret/1.ans": "PyPy\n",
        "submissions/accepted/which.py": IMPLEMENTATION,
        "submissions/accepted/which_again.py3": IMPLEMENTATION,
        "submissions/wrong_answer/which.py": IMPLEMENTATION.replace("print(", "print('C' + "),
    })
    report = verify_json(root)
    rows = {"/".join(Path(row["path"]).parts[-2:]): row for row in report["submissions"]}
    assert report["ok"], rows
    assert {name: (row["got"], row["result"]["language"]) for name, row in rows.items()} == {
        "accepted/which.py": ("AC", "PyPy 3"), "accepted/which_again.py3": ("AC", "PyPy 3"),
        "wrong_answer/which.py": ("WA", "PyPy 3")}
    (derived,) = report["derived_time_limits"]
    assert Path(derived["slowest_accepted"]).parent.name == "accepted"


def test_our_own_problems_python_stays_cpython_as_on_boj(tmp_path: Path) -> None:
    write_problem(tmp_path / "problems" / "which", {"1": ("\n", "CPython\n")}, id="which")
    submission = tmp_path / "submissions" / "which" / "accepted" / "which.py"
    submission.parent.mkdir(parents=True)
    submission.write_text(IMPLEMENTATION)
    done = judge_cli("verify", "--sandbox", "none", "--format", "json", cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    (row,) = json.loads(done.stdout)["submissions"]
    assert (row["got"], row["result"]["language"]) == ("AC", "Python 3")


def test_without_pypy_a_packages_python_is_skipped_naming_the_fix_never_judged_on_cpython(tmp_path: Path) -> None:
    """A PATH with Python 3 and no PyPy: the package's Python submission is skipped, in one line naming the package
    to install and why CPython does not stand in; its C++ one is still judged."""
    if not shutil.which("g++"):
        pytest.skip("needs g++")
    path = tmp_path / "bin"
    path.mkdir()
    for tool in ("python3", "g++", "ldd", "as", "ld"):
        found = shutil.which(tool)
        if found is not None:
            (path / tool).symlink_to(found)
    root = write_package(tmp_path / "which", {
        ".timelimit": "2\n",
        "data/secret/1.in": "\n", "data/secret/1.ans": "PyPy\n",
        "submissions/accepted/which.py": IMPLEMENTATION,
        "submissions/accepted/which.cc": '#include <cstdio>\nint main() { std::puts("PyPy"); }\n',
    })
    env = {**os.environ, "PATH": str(path), "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-m", "judge", "verify", "--sandbox", "none", "--format", "json", str(root)],
                          capture_output=True, text=True, timeout=600, env=env)
    assert done.returncode == 0, done.stdout + done.stderr
    rows = {Path(row["path"]).name: row for row in json.loads(done.stdout)["submissions"]}
    assert rows["which.cc"]["got"] == "AC", rows
    skipped = rows["which.py"]["skipped"]
    assert rows["which.py"]["got"] is None and "\n" not in skipped
    assert "apt-get install pypy3" in skipped and "a package's Python 3 runs on PyPy 3, as on Kattis" in skipped

    run = subprocess.run([sys.executable, "-m", "judge", "run", "--sandbox", "none", str(root),
                          str(root / "submissions" / "accepted" / "which.py")],
                         capture_output=True, text=True, timeout=600, env=env)
    assert_usage_error(run, "apt-get install pypy3", "--lang python3 runs a submission on ours")


@needs("pypy3")
def test_judge_run_on_a_package_agrees_with_verify_and_lang_still_chooses(tmp_path: Path) -> None:
    root = write_package(tmp_path / "which", {
        ".timelimit": "2\n", "data/secret/1.in": "\n", "data/secret/1.ans": "PyPy\n",
    })
    (tmp_path / "which.py").write_text(IMPLEMENTATION)
    done = judge_cli("run", "--sandbox", "none", "--format", "json", root, tmp_path / "which.py")
    assert done.returncode == 0, done.stdout + done.stderr
    assert json.loads(done.stdout)["language"] == "PyPy 3"
    ours = judge_cli("run", "--sandbox", "none", "--lang", "python3", "--format", "json", root, tmp_path / "which.py")
    assert ours.returncode == 1 and json.loads(ours.stdout)["verdict"] == "WA", ours.stdout + ours.stderr


def test_groups_with_output_validator_flags_of_their_own_check_their_tests_with_them(tmp_path: Path) -> None:
    """data/secret/strict/ compares case-sensitively (its testdata.yaml), the rest does not (the default): an
    echo is WA on the strict group only, and a shout is AC on both, which no single set of flags gives."""
    root = write_package(tmp_path / "shout", {
        ".timelimit": "1\n",
        "data/secret/loose/1.in": "Hello\n", "data/secret/loose/1.ans": "hello\n",
        "data/secret/strict/testdata.yaml": "output_validator_flags: case_sensitive\n",
        "data/secret/strict/1.in": "Hello\n", "data/secret/strict/1.ans": "HELLO\n",
        "submissions/accepted/shout.py": "print(input().upper())\n",
        "submissions/wrong_answer/echo.py": ECHO,
    })
    report = verify_json(root)
    rows = {Path(row["path"]).name: row for row in report["submissions"]}
    assert report["ok"], rows
    assert rows["shout.py"]["got"] == "AC"
    echo = rows["echo.py"]["result"]["cases"]
    assert [(case["name"], case["verdict"]) for case in echo] == [("secret/loose/1", "AC"), ("secret/strict/1", "WA")]
    run = judge_cli("run", "--sandbox", "none", root, root / "submissions" / "wrong_answer" / "echo.py")
    assert run.returncode == 1 and "secret/strict/1" in run.stdout, run.stdout + run.stderr


def test_a_groups_arguments_reach_the_packages_own_output_validator_for_its_tests_only(tmp_path: Path) -> None:
    """2023-07: data/secret/loud/test_group.yaml gives the package's validator `--any-case`; the plain group's
    tests are compared exactly. A shout is right only where the flag reaches the validator."""
    validator = (
        "import sys\n"
        "answer = open(sys.argv[2]).read().split()\n"
        "output = sys.stdin.read().split()\n"
        "if '--any-case' in sys.argv[4:]:\n"
        "    answer, output = [w.lower() for w in answer], [w.lower() for w in output]\n"
        "sys.exit(42 if output == answer else 43)\n"
    )
    root = write_package(tmp_path / "loud", {
        "problem.yaml": "problem_format_version: 2023-07-draft\nname: Loud\nlimits: {time_limit: 1}\n",
        "output_validator/validate.py": validator,
        "data/secret/plain/1.in": "hi\n", "data/secret/plain/1.ans": "HI\n",
        "data/secret/loud/test_group.yaml": "output_validator_args: [--any-case]\n",
        "data/secret/loud/1.in": "hey\n", "data/secret/loud/1.ans": "hey\n",
        "submissions/accepted/shout.py": "print(input().upper())\n",
        "submissions/wrong_answer/echo.py": ECHO,
    })
    report = verify_json(root)
    rows = {Path(row["path"]).name: row for row in report["submissions"]}
    assert report["ok"], rows
    assert rows["shout.py"]["got"] == "AC" and rows["echo.py"]["got"] == "WA"
    assert [case["name"] for case in rows["echo.py"]["result"]["cases"]] == ["secret/loud/1", "secret/plain/1"]
