"""What a new student and a new teacher meet first, through the command line: the mistakes they naturally make
are errors or warnings naming the fix, the messages explain themselves, and README's worked examples verify."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import assert_usage_error, judge_cli, write_problem

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "examples"
ADD = "a, b = map(int, input().split())\nprint(a + b)\n"
TESTS = {"sample1": ("1 2\n", "3\n"), "2": ("40 2\n", "42\n")}


def judge(*args: str | Path, cwd: Path = REPO) -> subprocess.CompletedProcess[str]:
    """`judge ARGS` from the repository's root (the examples' paths are relative to it) unless told otherwise."""
    return judge_cli(*args, cwd=cwd)


def source(tmp_path: Path, text: str = ADD, name: str = "add.py") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def project(tmp_path: Path, folder: str = "add", problem_id: str = "add") -> Path:
    """problems/<folder> with id `problem_id`, and an accepted and a wrong reference submission."""
    write_problem(tmp_path / "problems" / folder, TESTS, id=problem_id)
    for verdict, text in (("accepted", ADD), ("wrong_answer", "print(0)\n")):
        (tmp_path / "submissions" / problem_id / verdict).mkdir(parents=True)
        (tmp_path / "submissions" / problem_id / verdict / "a.py").write_text(text)
    return tmp_path


# --- the teacher's natural mistakes -----------------------------------------------------------------------------


def test_a_copied_folder_that_kept_its_id_is_an_error_naming_the_fix(tmp_path: Path) -> None:
    root = project(tmp_path, folder="1001", problem_id="1000")
    assert_usage_error(judge("verify", "-j", "1", cwd=root), "problems/1001/problem.yaml: id: '1000' differs from its "
                                                         "folder's name '1001'; set id: \"1001\"")
    assert_usage_error(judge("verify", "problems/1001", cwd=root), "differs from its folder's name")


def test_verify_that_judged_nothing_fails_with_the_reason(tmp_path: Path) -> None:
    root = project(tmp_path)
    shutil.rmtree(root / "submissions")
    done = judge("verify", "-j", "1", cwd=root)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "warning: problem add has no reference submissions" in done.stdout
    assert "FAILED: nothing was judged: no reference submissions under submissions/ for add" in done.stdout
    assert "OK" not in done.stdout


def test_verify_from_the_wrong_folder_names_the_real_option(tmp_path: Path) -> None:
    assert_usage_error(judge("verify", cwd=tmp_path), "problems: no such folder", "--problems-dir DIR")


@pytest.mark.parametrize("file_name, key", [("validator.py", "validator"), ("checker.py", "checker")])
def test_problem_code_that_problem_yaml_does_not_name_is_an_error(tmp_path: Path, file_name: str, key: str) -> None:
    problem = write_problem(tmp_path / "add", TESTS, id="add")
    (problem / file_name).write_text("import sys\nsys.exit(1)\n")
    assert_usage_error(judge("run", problem, source(tmp_path)), f"{problem / file_name}: problem.yaml does not name it",
                   f"add '{key}: {file_name}'")


def test_a_misspelt_key_is_unknown_with_the_closest_known_one(tmp_path: Path) -> None:
    problem = write_problem(tmp_path / "add", TESTS, id="add")
    spec = problem / "problem.yaml"
    spec.write_text(spec.read_text().replace("time_limit:", "timelimit:"))
    assert_usage_error(judge("run", problem, source(tmp_path)),
                   f"{spec}: timelimit: unknown key; remove it or check its spelling (did you mean time_limit?)")


def test_an_unknown_problem_folder_suggests_the_closest() -> None:
    assert_usage_error(judge("run", "problems/9963", "x.py"), "problems/9963: no such problem folder; did you mean "
                                                          "'problems/9663'?")


def test_two_files_for_one_problem_are_reported_per_student(tmp_path: Path) -> None:
    root = project(tmp_path)
    (root / "class" / "kim").mkdir(parents=True)
    (root / "class" / "kim" / "add.cpp").write_text("int main() { return 0; }\n")
    (root / "class" / "kim" / "add.py").write_text(ADD)
    os.utime(root / "class" / "kim" / "add.cpp", ns=(10**9, 10**9))
    done = judge("grade", "problems", "class", "--out", "out", "-j", "1", "--layout", "by-student", cwd=root)
    assert done.returncode == 0, done.stderr
    assert ("unmatched: kim/add.cpp: ambiguous: kim has 2 files for problem add; graded kim/add.py, the most "
            "recently modified") in done.stderr
    assert (root / "out" / "grades.csv").read_bytes().startswith(b"\xef\xbb\xbfstudent,add,score,max\nkim,")


def test_conflicting_sandbox_flags_are_a_usage_error(tmp_path: Path) -> None:
    problem = write_problem(tmp_path / "add", TESTS, id="add")
    done = judge("run", problem, source(tmp_path), "--sandbox", "none", "--require-sandbox")
    assert_usage_error(done, "--require-sandbox (run only in bwrap) cannot go with --sandbox none")


# --- what the student reads -------------------------------------------------------------------------------------


def test_piped_rows_are_plain_lines_and_limits_are_explained(tmp_path: Path) -> None:
    problem = write_problem(tmp_path / "add", TESTS, id="add", time_limit=2, memory_limit=128)
    done = judge("run", problem, source(tmp_path), "--sandbox", "none")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[1] == "limits: CPU 8 s, wall 17 s, memory 288 MiB, output 1 MiB"
    assert lines[2] == "        = CPU 2 s × 3 + 2 s for Python 3, memory 128 MiB × 2 + 32 MiB (BOJ's language allowance)"
    assert [line.split()[:2] for line in lines if line.startswith(("sample1 ", "2 "))] == [["sample1", "AC"],
                                                                                         ["2", "AC"]]
    assert "\x1b" not in done.stdout and "┃" not in done.stdout
    assert lines[-1] == "result: AC (맞았습니다!!)  2/2 tests passed"


def test_feedback_boj_hides_hidden_answers_and_full_shows_them(tmp_path: Path) -> None:
    problem = write_problem(tmp_path / "add", TESTS, id="add")
    wrong = source(tmp_path, "a, b = map(int, input().split())\nprint(a + b + (a > 9))\n")
    boj = judge("run", problem, wrong, "--sandbox", "none")
    full = judge("run", problem, wrong, "--sandbox", "none", "--feedback", "full")
    assert boj.returncode == full.returncode == 1
    hidden_row = next(line for line in boj.stdout.splitlines() if line.startswith("2 "))
    assert "hidden test: verdict only" in hidden_row and "'42'" not in boj.stdout
    assert "line 1: expected '42', got '43'" in full.stdout
    assert "diff on test 2:" in full.stdout and "-42" in full.stdout and "+43" in full.stdout


def test_a_compile_error_shows_no_test_count(tmp_path: Path) -> None:
    problem = write_problem(tmp_path / "add", TESTS, id="add")
    done = judge("run", problem, source(tmp_path, "print(\n"), "--sandbox", "none")
    assert done.returncode == 1
    assert done.stdout.splitlines()[-1] == "result: CE (컴파일 에러)"


@pytest.mark.skipif(shutil.which("pypy3") is None, reason="the hint appears only where PyPy is installed")
def test_a_python_tle_names_pypy(tmp_path: Path) -> None:
    problem = write_problem(tmp_path / "add", TESTS, id="add", time_limit=0.3, language_allowance=False)
    done = judge("run", problem, source(tmp_path, "while True:\n    pass\n"), "--sandbox", "none", "--fail-fast")
    assert done.returncode == 1
    assert "hint: the same program often runs several times faster in PyPy 3: submit it as PyPy 3 (pypy3)" in done.stdout


@pytest.mark.skipif(shutil.which("javac") is None, reason="needs javac")
def test_a_public_class_not_named_main_explains_boj_rule() -> None:
    done = judge("run", EXAMPLES / "problems" / "1000",
                 EXAMPLES / "submissions" / "1000" / "compile_error" / "public_class_solution.java")
    assert done.returncode == 1, done.stderr
    assert ("hint: the judge compiles your file as Main.java and runs class Main, as BOJ does: rename "
            "'public class Solution' to 'public class Main'") in done.stdout


# --- the worked examples and judge answers ----------------------------------------------------------------------


@pytest.mark.slow
def test_the_worked_examples_verify() -> None:
    done = judge("verify", cwd=EXAMPLES)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "OK: 9 submissions, 0 mismatched" in done.stdout


def test_answers_are_written_from_the_reference_and_a_differing_one_needs_force(tmp_path: Path) -> None:
    problem = tmp_path / "1000"
    shutil.copytree(EXAMPLES / "problems" / "1000", problem)
    expected = {path.name: path.read_bytes() for path in problem.glob("tests/*.ans")}
    for path in problem.glob("tests/*.ans"):
        path.unlink()
    assert_usage_error(judge("run", problem, source(tmp_path)), "sample1.ans: missing", f"judge answers {problem}")
    reference = source(tmp_path)

    written = judge("answers", problem, "--reference", reference)
    assert written.returncode == 0, written.stderr
    assert {path.name: path.read_bytes() for path in problem.glob("tests/*.ans")} == expected
    assert written.stdout.splitlines()[-1] == f"answers from {reference}: 8 written, 0 overwritten, 0 unchanged"

    (problem / "tests" / "3-carry.ans").write_text("11\n")
    assert_usage_error(judge("answers", problem, "--reference", reference), "3-carry.ans: differs from what",
                   "--force")
    assert (problem / "tests" / "3-carry.ans").read_text() == "11\n"
    forced = judge("answers", problem, "--reference", reference, "--force")
    assert forced.returncode == 0 and (problem / "tests" / "3-carry.ans").read_bytes() == expected["3-carry.ans"]
    assert forced.stdout.splitlines()[-1].endswith("0 written, 1 overwritten, 7 unchanged")


def test_answers_refuse_a_reference_that_fails_a_test(tmp_path: Path) -> None:
    problem = tmp_path / "1000"
    shutil.copytree(EXAMPLES / "problems" / "1000", problem)
    crash = source(tmp_path, "raise SystemExit(3)\n", "crash.py")
    assert_usage_error(judge("answers", problem, "--reference", crash), f"{crash}: RE on test sample1",
                   "ends cleanly on every test")
