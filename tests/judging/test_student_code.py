"""Real students' code gets the verdict BOJ gives it (issue 9).

Each program in tests/judging/student_code/ has the shape of code students submit to BOJ, and is judged for real through
`judge run` in every language it concerns, once in the bwrap box (the default where it works) and once unconfined.
Variants a Windows editor would save (BOM, CRLF, no final newline, EUC-KR) are made from those files here.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from conftest import SANDBOXES

STUDENT_CODE = Path(__file__).parent / "student_code"
SUM_TESTS = {"sample1": ("1 2\n", "3\n"), "1": ("-7 1000000000000\n", "999999999993\n")}
TOOLS = {"python3": "python3", "pypy3": "pypy3", "java": "javac", "c": "gcc", "cpp": "g++"}
EXTENSIONS = {"python3": ".py", "pypy3": ".py", "java": ".java", "c": ".c", "cpp": ".cpp"}
COMPILED = {"java", "c", "cpp"}


def runs(*rows: tuple[Any, ...]) -> list[Any]:
    """Parameters (key, sandbox, *values) for each row (key, *values): once in the bwrap box, once unconfined,
    skipped where the toolchain or bwrap is missing. The unconfined run of a compiled language is slow (a JVM or
    a static link takes seconds, and the box run covers the same command line): CI runs it with -m slow."""
    params = []
    for key, *values in rows:
        missing = shutil.which(TOOLS[key]) is None
        for box in SANDBOXES:
            sandbox = box.values[0]
            marks = [*box.marks, pytest.mark.skipif(missing, reason=f"{TOOLS[key]} is not installed")]
            if sandbox == "none" and key in COMPILED:
                marks.append(pytest.mark.slow)
            label = "-".join([sandbox, key, *values[:1]])
            params.append(pytest.param(key, sandbox, *values, id=label, marks=marks))
    return params


def judge_run(problem: Path, source: Path, key: str, sandbox: str) -> dict[str, Any]:
    """`judge run --json` as a person runs it; the report, after checking the judge itself did not fail."""
    done = subprocess.run([sys.executable, "-m", "judge", "run", str(problem), str(source), "--lang", key,
                           "--sandbox", sandbox, "--json"], capture_output=True, text=True, timeout=300)
    assert done.returncode in (0, 1), f"judge exit {done.returncode}: {done.stderr[-2000:]}"
    assert "Traceback" not in done.stderr, done.stderr
    return json.loads(done.stdout)


def submit(tmp_path: Path, data: bytes, name: str) -> Path:
    """The bytes a student uploads, under the file name they chose."""
    path = tmp_path / "upload" / name
    path.parent.mkdir(exist_ok=True)
    path.write_bytes(data)
    return path


def verdicts(report: dict[str, Any]) -> str:
    """The overall verdict with each test's, for assertion messages."""
    return f"{report['verdict']}: " + "; ".join(f"{case['name']} {case['verdict']} {case['message']}"
                                                for case in report["cases"]) + report.get("compile_message", "")


# --- 1. Python runs with site: exit() and quit() ---------------------------------------------------------------


@pytest.mark.parametrize(("key", "sandbox"), runs(("python3",), ("pypy3",)))
def test_exit_and_quit_are_ac(make_problem, sandbox: str, key: str) -> None:
    problem = make_problem({"sample1": ("0 0\n", "0\n"), "1": ("40 2\n", "42\n")})
    report = judge_run(problem, STUDENT_CODE / "exit_quit.py", key, sandbox)
    assert report["verdict"] == "AC", verdicts(report)


# --- 2. BOJ's compile lines ------------------------------------------------------------------------------------


@pytest.mark.parametrize(("key", "sandbox"), runs(("c",), ("cpp",)))
def test_c_and_cpp_get_online_judge_libm_and_keep_warnings_harmless(make_problem, sandbox: str, key: str) -> None:
    """Without -DONLINE_JUDGE the program reads a missing input.txt (WA); in C, without -lm after the source (a
    static link reads libraries in order) sqrt is undefined (CE); -Wall's unused variable is a warning, never CE."""
    problem = make_problem({"sample1": ("3 4\n", "5\n"), "1": ("20 21\n", "29\n")})
    report = judge_run(problem, STUDENT_CODE / f"hypotenuse{EXTENSIONS[key]}", key, sandbox)
    assert report["verdict"] == "AC", verdicts(report)
    assert "unused variable" in report["compile_message"], report["compile_message"]


@pytest.mark.parametrize(("key", "sandbox"), runs(("java",)))
def test_java_gets_online_judge_and_a_deep_stack(make_problem, sandbox: str, key: str) -> None:
    """A recursive DFS 100,000 deep along a path, reading input.txt unless the ONLINE_JUDGE property is set."""
    nodes = 100_000
    path_graph = f"{nodes}\n" + "".join(f"{node} {node + 1}\n" for node in range(1, nodes))
    problem = make_problem({"sample1": ("3\n1 2\n1 3\n", "1\n"), "1": (path_graph, f"{nodes - 1}\n")}, time_limit=2)
    report = judge_run(problem, STUDENT_CODE / "deep_dfs.java", key, sandbox)
    assert report["verdict"] == "AC", verdicts(report)


# --- 3. Python that does not compile is CE, once, naming the student's file ----------------------------------


@pytest.mark.parametrize(("key", "sandbox"), runs(("python3",), ("pypy3",)))
def test_python2_source_is_ce_naming_the_students_file(make_problem, tmp_path: Path, sandbox: str, key: str) -> None:
    source = submit(tmp_path, (STUDENT_CODE / "python2_print.py").read_bytes(), "a_plus_b.py")
    report = judge_run(make_problem(SUM_TESTS), source, key, sandbox)
    assert report["verdict"] == "CE", verdicts(report)
    assert report["cases"] == []
    message = report["compile_message"]
    assert 'File "a_plus_b.py", line 3' in message, message
    assert message.count("SyntaxError") == 1, message
    assert "Main.py" not in message and "/program" not in message, message


# --- 4. Java's shapes, and sources as editors on Windows save them ---------------------------------------------


@pytest.mark.parametrize(("key", "sandbox"), runs(("java",)))
def test_java_helpers_before_a_non_public_main_exiting_from_recursion(make_problem, sandbox: str, key: str) -> None:
    problem = make_problem({"sample1": ("3\n", "1 2 3\n"), "1": ("8\n", "1 2 3 4 5 6 7 8\n")})
    report = judge_run(problem, STUDENT_CODE / "helpers_first.java", key, sandbox)
    assert report["verdict"] == "AC", verdicts(report)


def windows_saved(text: bytes) -> bytes:
    """As Notepad saves a file: a UTF-8 byte order mark, CRLF line ends and no newline at the end."""
    return b"\xef\xbb\xbf" + text.rstrip(b"\n").replace(b"\n", b"\r\n")


@pytest.mark.parametrize(("key", "sandbox"), runs(("python3",), ("pypy3",), ("java",), ("c",), ("cpp",)))
def test_windows_saved_source_with_korean_comments_is_ac(make_problem, tmp_path: Path, sandbox: str,
                                                         key: str) -> None:
    original = (STUDENT_CODE / f"sum_korean{EXTENSIONS[key]}").read_bytes()
    assert "합".encode() in original  # Korean comments, in UTF-8
    source = submit(tmp_path, windows_saved(original), f"Main{EXTENSIONS[key]}")
    report = judge_run(make_problem(SUM_TESTS), source, key, sandbox)
    assert report["verdict"] == "AC", verdicts(report)


def euc_kr(text: bytes) -> bytes:
    """The same source saved in EUC-KR (code page 949), as older Korean Windows editors do."""
    return text.decode("utf-8").encode("euc-kr")


@pytest.mark.parametrize(("key", "sandbox", "encoding", "expected", "says"), runs(
    ("python3", "undeclared", "CE", "Non-UTF-8 code starting with '\\x"),
    ("pypy3", "undeclared", "CE", "Non-UTF-8 code starting with '\\x"),
    ("python3", "declared", "AC", ""),
    ("java", "undeclared", "CE", "unmappable character (0x"),
))
def test_euc_kr_source_is_judged_as_its_compiler_reads_it(make_problem, tmp_path: Path, sandbox: str, key: str,
                                                          encoding: str, expected: str, says: str) -> None:
    """Not UTF-8: javac refuses it (CE), Python runs it only with a PEP 263 declaration, as Python itself."""
    text = euc_kr((STUDENT_CODE / f"sum_korean{EXTENSIONS[key]}").read_bytes())
    if encoding == "declared":  # PEP 263
        text = b"# -*- coding: euc-kr -*-\n" + text
    source = submit(tmp_path, text, f"Main{EXTENSIONS[key]}")
    report = judge_run(make_problem(SUM_TESTS), source, key, sandbox)
    assert report["verdict"] == expected, verdicts(report)
    assert says in report.get("compile_message", ""), report.get("compile_message")
