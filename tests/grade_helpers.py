"""Helpers shared by the `judge grade` tests (no tests here): tiny problems and classes built in tmp_path.

Two problems, each with three tests and no language allowance, so a TLE costs 0.3 s of CPU per test:
`add` (print a + b) and `mul` (print a * b). Submissions are a few lines of Python.
"""

from __future__ import annotations

import msgspec.structs
import os
import sqlite3
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import yaml

from conftest import ctrl_c_as_in_a_terminal

from judge.batch.tasks import SubmissionOutcome, SubmissionTask
from judge.class_folder import scan_class, source_limits
from judge.grading.gradebook import Gradebook
from judge.grading.results_db import Fingerprint, ResultsDatabase, StoredResult
from judge.grading.session import make_tasks
from judge.judging.results import CaseResult, SubmissionResult
from judge.options import RunOptions
from judge.problems.scan import load_problems
from judge.runner.limits import Limits
from judge.verdicts import Verdict

ADD_TESTS = {"1": ("1 2\n", "3\n"), "2": ("10 20\n", "30\n"), "3": ("-5 5\n", "0\n")}
MUL_TESTS = {"1": ("2 3\n", "6\n"), "2": ("7 8\n", "56\n"), "3": ("0 9\n", "0\n")}

SOURCES = {
    "add_ac": "a, b = map(int, input().split())\nprint(a + b)\n",
    "add_wa": "a, b = map(int, input().split())\nprint(a + b + (a == 10))\n",  # fails test 2 only
    "mul_ac": "a, b = map(int, input().split())\nprint(a * b)\n",
    "mul_wa": "a, b = map(int, input().split())\nprint(a + b)\n",
    "tle": "while True:\n    pass\n",
    "re": "raise SystemExit(3)\n",
    "slow_add": "import time\na, b = map(int, input().split())\ntime.sleep(0.25)\nprint(a + b)\n",
    # Unconfined: its parent is the launcher of the submission's tests, whose parent is the worker.
    "kill_worker": ("import os, signal\nlauncher = open(f'/proc/{os.getppid()}/stat').read()\n"
                    "os.kill(int(launcher.rsplit(')', 1)[1].split()[1]), signal.SIGKILL)\n"),
}

# Who wrote what: student -> {file name: source key}. Expected verdicts follow from the source keys.
CLASS = {
    "alice": {"add.py": "add_ac", "mul.py": "mul_ac"},
    "bob": {"add.py": "add_wa", "mul.py": "mul_ac"},
    "carol": {"add.py": "tle", "mul.py": "mul_wa"},
    "dave": {"add.py": "re", "notes.txt": "add_ac"},
    "erin": {"mul.py": "mul_ac", "sub.py": "add_ac"},
}
EXPECTED = {
    ("alice", "add"): "AC", ("alice", "mul"): "AC",
    ("bob", "add"): "WA", ("bob", "mul"): "AC",
    ("carol", "add"): "TLE", ("carol", "mul"): "WA",
    ("dave", "add"): "RE",
    ("erin", "mul"): "AC",
}


def write_problem(root: Path, problem_id: str, tests: Mapping[str, tuple[str, str]], **spec: object) -> Path:
    root.mkdir(parents=True)
    document = {"id": problem_id, "title": f"Problem {problem_id}", "time_limit": 0.3, "memory_limit": 128,
                "language_allowance": False, **spec}
    (root / "problem.yaml").write_text(yaml.safe_dump(document), encoding="utf-8")
    (root / "tests").mkdir()
    for name, (given, answer) in tests.items():
        (root / "tests" / f"{name}.in").write_text(given, encoding="utf-8")
        (root / "tests" / f"{name}.ans").write_text(answer, encoding="utf-8")
    return root


def write_problems(root: Path) -> Path:
    write_problem(root / "add", "add", ADD_TESTS)
    write_problem(root / "mul", "mul", MUL_TESTS)
    return root


def write_class(root: Path, members: Mapping[str, Mapping[str, str]] = CLASS, *, by_problem: bool = False) -> Path:
    """Write `members` in the by-student layout, or by-problem (<problem>/<student>.<ext>) when asked."""
    for student, files in members.items():
        for name, key in files.items():
            stem, _, extension = name.partition(".")
            path = root / stem / f"{student}.{extension}" if by_problem else root / student / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(SOURCES[key], encoding="utf-8")
    return root


def stored_rows(out_dir: Path) -> dict[tuple[str, str], tuple[str, str]]:
    """(student, problem) -> (verdict, judged_at) from results.sqlite."""
    with sqlite3.connect(out_dir / "results.sqlite") as connection:
        rows = connection.execute("SELECT student, problem_id, verdict, judged_at FROM results").fetchall()
    return {(student, problem): (verdict, judged_at) for student, problem, verdict, judged_at in rows}


def judge_main(*args: str | Path) -> int:
    """`judge ARGS` in this process, through the CLI's own entry point (its exit code)."""
    from judge.cli import main

    return main([str(arg) for arg in args])


def grade_process(*args: str | Path, scratch: Path | None = None, **popen: Any) -> subprocess.Popen[str]:
    """`judge grade ARGS` as a child process, stdout and stderr captured. A test that kills it gives `scratch` as
    its TMPDIR: a process killed by SIGKILL cannot remove its scratch folders, which then stay in tmp_path, not /tmp."""
    if scratch is not None:
        scratch.mkdir(parents=True, exist_ok=True)
        popen["env"] = {**popen.get("env", os.environ), "TMPDIR": str(scratch)}
    return subprocess.Popen([sys.executable, "-m", "judge", "grade", *map(str, args)], text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, preexec_fn=ctrl_c_as_in_a_terminal,
                            **popen)


def _report(verdicts: list[Verdict], cpu: float = 0.05) -> SubmissionResult:
    cases = tuple(CaseResult(str(index), verdict, cpu, cpu * 2, 9.5, message="line 1: expected 3, got 4"
                             if verdict is Verdict.WA else "") for index, verdict in enumerate(verdicts, start=1))
    overall = next((verdict for verdict in verdicts if verdict is not Verdict.AC), Verdict.AC)
    return SubmissionResult("add", "x.py", "Python 3", Limits(0.3, 1.6, 128, 1), "none", "rlimit", overall, cases)


def sample_gradebook(tmp_path: Path, *, partial: bool = False, student: str = "kim") -> Gradebook:
    """A gradebook made by hand: `student` has AC on add and WA (2 of 3) on mul; lee sent only add, CE."""
    problems = load_problems(write_problems(tmp_path / "problems"))
    root = write_class(tmp_path / "class", {student: {"add.py": "add_ac", "mul.py": "mul_wa"},
                                            "lee": {"add.py": "re", "notes.txt": "re"}})
    found = scan_class(root, source_limits(problems, RunOptions()), "auto")
    outcomes = {
        (student, "add"): SubmissionOutcome(Verdict.AC, 3, _report([Verdict.AC] * 3), "", "w:1"),
        (student, "mul"): SubmissionOutcome(Verdict.WA, 2, _report([Verdict.AC, Verdict.WA, Verdict.AC], 0.2), "",
                                            "w:2"),
        ("lee", "add"): SubmissionOutcome(Verdict.CE, 0, msgspec.structs.replace(_report([]), verdict=Verdict.CE,
                                                                             compile_message="bad <code>"), "", "w:1"),
    }
    with ResultsDatabase(tmp_path / "out") as database:
        for task in make_tasks(problems, found, RunOptions()):
            record_task(database, task, outcomes[task.pair])
        return Gradebook.build(problems, found, database.results(), partial=partial)


def record_task(database: ResultsDatabase, task: SubmissionTask, outcome: SubmissionOutcome) -> StoredResult:
    """Record `outcome` of `task` as `judge grade` does."""
    return database.record(task.pair, Fingerprint.of(task, outcome.judge_version), outcome, task.problem.test_count)
