"""`judge grade`'s pieces that need no judging: discovery, packing, the results database, the gradebook, the report,
the status bar and the executor table."""

from __future__ import annotations

import io
import json
import os
import re
import sqlite3
import xml.etree.ElementTree as ElementTree
from collections import Counter
from pathlib import Path

import pytest
from rich.console import Console
from grade_helpers import (
    ADD_TESTS,
    SOURCES,
    record_task,
    sample_gradebook,
    write_class,
    write_problem,
    write_problems,
)

from judge.batch.executors import EXECUTORS, ExecutorChoice
from judge.batch.packing import ProblemPack
from judge.languages.sources import SourceFiles
from judge.problems.scan import load_problems
from judge.batch.status_bar import StatusBar
from judge.batch.tasks import SubmissionOutcome, SubmissionTask
from judge.errors import JudgeError, SpecError
from judge.class_folder import scan_class, source_limits
from judge.grading.gradebook import format_score
from judge.grading.session import stale_tasks
from judge.grading.results_db import ResultsDatabase
from judge.options import RunOptions
from judge.problems.folder import load_problem
from judge.reporters.gradebook import csv_sheet, json_doc
from judge.reporters.gradebook.page import render
from judge.reporters.gradebook.plots import TimePoint, _ticks, cpu_strip, verdict_bars
from judge.verdicts import Verdict

# --- discovery ---------------------------------------------------------------------------------------------------


@pytest.fixture
def problems(tmp_path: Path) -> Path:
    return write_problems(tmp_path / "problems")


def _limits(problems: Path) -> dict[str, int]:
    return source_limits(load_problems(problems), RunOptions())


def test_by_student_layout_is_detected_and_every_stray_file_is_listed(tmp_path: Path, problems: Path) -> None:
    root = write_class(tmp_path / "class")
    (root / "frank").mkdir()
    (root / "frank" / "add.rb").write_text("puts 3\n")
    (root / "frank" / "old").mkdir()
    (root / "readme.md").write_text("hi\n")
    (root / "alice" / ".add.py.swp").write_text("litter\n")

    found = scan_class(root, _limits(problems), "auto")

    assert found.layout == "by-student"
    assert found.students == ("alice", "bob", "carol", "dave", "erin", "frank")
    assert [(item.student, item.problem_id, item.relative) for item in found.submissions][:3] == [
        ("alice", "add", "alice/add.py"), ("alice", "mul", "alice/mul.py"), ("bob", "add", "bob/add.py"),
    ]
    assert {item.relative: item.reason for item in found.unmatched} == {
        "dave/notes.txt": "no problem with id 'notes'",
        "erin/sub.py": "no problem with id 'sub'",
        "frank/add.rb": "no language has the extension '.rb'",
        "frank/old/": "a folder; the by-student layout is <student>/<problem>.<ext>",
        "readme.md": "not inside a folder; the by-student layout is <student>/<problem>.<ext>",
    }


def test_by_problem_layout_gives_the_same_pairs(tmp_path: Path, problems: Path) -> None:
    ids = _limits(problems)
    by_student = scan_class(write_class(tmp_path / "a"), ids, "auto")
    by_problem = scan_class(write_class(tmp_path / "b", by_problem=True), ids, "auto")

    assert by_problem.layout == "by-problem"
    pairs = {(item.student, item.problem_id) for item in by_student.submissions}
    assert {(item.student, item.problem_id) for item in by_problem.submissions} == pairs
    assert {item.relative for item in by_problem.unmatched} == {"notes/", "sub/"}


def test_a_tie_asks_for_the_layout_and_an_explicit_layout_wins(tmp_path: Path, problems: Path) -> None:
    root = tmp_path / "class"
    (root / "kim").mkdir(parents=True)
    (root / "kim" / "hello.py").write_text("print(1)\n")
    ids = _limits(problems)

    with pytest.raises(JudgeError, match="cannot tell the layout.*--layout"):
        scan_class(root, ids, "auto")
    found = scan_class(root, ids, "by-student")
    assert found.students == ("kim",) and not found.submissions
    assert found.unmatched[0].relative == "kim/hello.py"


@pytest.mark.parametrize(("newer", "older"), [("add.py", "add.cpp"), ("add.cpp", "add.py")])
def test_of_two_files_for_a_pair_the_newer_is_graded_and_the_other_named(tmp_path: Path, problems: Path,
                                                                         newer: str, older: str) -> None:
    root = write_class(tmp_path / "class", {"kim": {"add.py": "add_ac"}})
    (root / "kim" / "add.cpp").write_text("int main(){}\n")
    os.utime(root / "kim" / older, ns=(1_000_000_000, 1_000_000_000))
    os.utime(root / "kim" / newer, ns=(2_000_000_000, 2_000_000_000))

    found = scan_class(root, _limits(problems), "auto")

    assert [item.relative for item in found.submissions] == [f"kim/{newer}"]
    assert [(item.relative, item.reason) for item in found.unmatched] == [
        (f"kim/{older}", f"ambiguous: kim has 2 files for problem add; graded kim/{newer}, the most recently "
                         "modified (remove the others)")
    ]


def test_the_scan_reads_each_source_once_and_refuses_what_is_not_a_regular_file(tmp_path: Path,
                                                                               problems: Path) -> None:
    root = write_class(tmp_path / "class", {"kim": {"add.py": "add_ac"}, "lee": {"add.py": "add_wa"}},
                       by_problem=True)
    (root / "mul").mkdir()
    os.mkfifo(root / "mul" / "kim.py")
    (root / "add" / "eve.py").symlink_to(root / "add" / "kim.py")
    (tmp_path / "outside").mkdir()
    (root / "mul-copy").symlink_to(tmp_path / "outside")
    (root / "add" / "big.py").write_bytes(b"#" * (64 * 1024 + 1))

    found = scan_class(root, _limits(problems), "by-problem")

    assert [(item.relative, item.source.text) for item in found.submissions] == [
        ("add/kim.py", SOURCES["add_ac"].encode()), ("add/lee.py", SOURCES["add_wa"].encode()),
    ]
    assert {item.relative: item.reason for item in found.unmatched} == {
        "add/big.py": "refused: is larger than the 64 KiB source limit",
        "add/eve.py": "refused: is a symbolic link",
        "mul-copy": "refused: is a symbolic link",
        "mul/kim.py": "refused: is a FIFO",
    }
    assert found.students == ("big", "eve", "kim", "lee")


def test_each_problem_has_its_own_source_limit_unless_one_is_given(tmp_path: Path) -> None:
    problems = tmp_path / "problems"
    write_problem(problems / "add", "add", ADD_TESTS, source_limit=1)
    write_problem(problems / "mul", "mul", ADD_TESTS)
    loaded = load_problems(problems)

    assert source_limits(loaded, RunOptions()) == {"add": 1024, "mul": 64 * 1024}
    assert source_limits(loaded, RunOptions(source_limit_kib=2)) == {"add": 2048, "mul": 2048}


def test_problems_folder_mistakes_are_usage_errors(tmp_path: Path) -> None:
    with pytest.raises(JudgeError, match="no such folder"):
        load_problems(tmp_path / "missing")
    (tmp_path / "empty").mkdir()
    with pytest.raises(JudgeError, match="no problems here"):
        load_problems(tmp_path / "empty")
    write_problem(tmp_path / "two" / "a", "same", ADD_TESTS)
    write_problem(tmp_path / "two" / "b", "same", ADD_TESTS)
    with pytest.raises(SpecError, match="id: 'same' differs from its folder's name 'a'; set id: \"a\""):
        load_problems(tmp_path / "two")
    single = write_problem(tmp_path / "single", "add", ADD_TESTS)
    assert list(load_problems(single)) == ["add"]


# --- packing -----------------------------------------------------------------------------------------------------


def test_the_problem_hash_covers_judging_files_only(tmp_path: Path) -> None:
    root = write_problem(tmp_path / "add", "add", ADD_TESTS)
    before = ProblemPack.of(load_problem(root)).digest

    (root / "statement.md").write_text("# Add\n")
    (root / "generator.py").write_text("print(1)\n")
    assert ProblemPack.of(load_problem(root)).digest == before

    (root / "tests" / "2.ans").write_text("31\n")
    changed = ProblemPack.of(load_problem(root))
    assert changed.digest != before
    assert [name for name, _ in changed.files] == [
        "problem.yaml", "tests/1.ans", "tests/1.in", "tests/2.ans", "tests/2.in", "tests/3.ans", "tests/3.in",
    ]


def test_a_pack_unpacks_into_the_same_problem(tmp_path: Path) -> None:
    root = write_problem(tmp_path / "add", "add", ADD_TESTS, checker="checker.py")
    (root / "checker.py").write_text("def check(*, input, output, answer): ...\n")
    pack = ProblemPack.of(load_problem(root))

    copy = load_problem(pack.unpack(tmp_path / "copy"))

    assert ProblemPack.of(copy).files == pack.files
    assert copy.spec == load_problem(root).spec and pack.test_count == 3


# --- results database -------------------------------------------------------------------------------------------------


def _task(tmp_path: Path, source: str = "print(3)\n", student: str = "kim") -> SubmissionTask:
    root = tmp_path / "add"
    if not root.exists():
        write_problem(root, "add", ADD_TESTS)
    return SubmissionTask(student, f"{student}/add.py", SourceFiles("add.py", source.encode()),
                     ProblemPack.of(load_problem(root)), RunOptions())


def _outcome(verdict: Verdict, passed: int = 3) -> SubmissionOutcome:
    return SubmissionOutcome(verdict=verdict, tests_passed=passed, result=None, error="", worker="test:1")


def test_a_pair_has_one_row_however_often_it_is_recorded(tmp_path: Path) -> None:
    task = _task(tmp_path)
    with ResultsDatabase(tmp_path / "out") as database:
        record_task(database, task, _outcome(Verdict.WA, 1))
        record_task(database, task, _outcome(Verdict.AC))
        stored = database.results()
    assert list(stored) == [("kim", "add")]
    assert stored["kim", "add"].verdict is Verdict.AC and stored["kim", "add"].tests_total == 3
    with sqlite3.connect(tmp_path / "out" / "results.sqlite") as connection:
        assert connection.execute("PRAGMA journal_mode").fetchone() == ("wal",)
        assert connection.execute("SELECT count(*) FROM results").fetchone() == (1,)


def test_only_missing_changed_or_failed_pairs_are_stale(tmp_path: Path) -> None:
    kept, edited, failed, new = (_task(tmp_path, student=name) for name in ("kept", "edited", "failed", "new"))
    with ResultsDatabase(tmp_path / "out") as database:
        record_task(database, kept, _outcome(Verdict.AC))
        record_task(database, edited, _outcome(Verdict.AC))
        record_task(database, failed, _outcome(Verdict.JE, 0))
        stored = database.results()
    edited_now = _task(tmp_path, "print(1 + 2)\n", student="edited")
    tasks = [kept, edited_now, failed, new]

    assert [task.owner for task in stale_tasks(tasks, stored, force=False)] == ["edited", "failed", "new"]
    assert stale_tasks(tasks, stored, force=True) == tasks


def test_names_that_are_not_utf8_are_stored_as_they_are_and_found_again(tmp_path: Path) -> None:
    student = os.fsdecode(b"\xffkim\x1b")
    task = _task(tmp_path, student=student)
    outcome = SubmissionOutcome(verdict=Verdict.JE, tests_passed=0, result=None, error="odd \ud800 text", worker="w:1")
    with ResultsDatabase(tmp_path / "out") as database:
        record_task(database, task, outcome)
    with ResultsDatabase(tmp_path / "out") as database:
        stored = database.results()

    assert list(stored) == [(student, "add")]
    assert stored[student, "add"].fingerprint.source_path == f"{student}/add.py"
    assert stored[student, "add"].error == "odd \ud800 text"
    with ResultsDatabase(tmp_path / "out") as database:
        record_task(database, task, _outcome(Verdict.AC))
        assert list(database.results()) == [(student, "add")]


def test_a_database_from_elsewhere_is_refused(tmp_path: Path) -> None:
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "results.sqlite").write_text("not a database, just text" * 100)
    with pytest.raises(JudgeError, match="not a results database"):
        ResultsDatabase(tmp_path / "out")
    with sqlite3.connect(tmp_path / "newer.sqlite") as connection:
        connection.execute("PRAGMA user_version=99")
    (tmp_path / "newer").mkdir()
    (tmp_path / "newer.sqlite").rename(tmp_path / "newer" / "results.sqlite")
    with pytest.raises(JudgeError, match="schema 99"):
        ResultsDatabase(tmp_path / "newer")


# --- gradebook and report ----------------------------------------------------------------------------------------


def test_scores_count_accepted_problems_or_the_fraction_of_tests(tmp_path: Path) -> None:
    whole = sample_gradebook(tmp_path / "a")
    partial = sample_gradebook(tmp_path / "b", partial=True)

    assert whole.score("kim") == 1 and whole.score("lee") == 0
    assert partial.score("kim") == pytest.approx(1 + 2 / 3)
    assert format_score(partial.score("kim")) == "1.667" and format_score(whole.score("kim")) == "1"


def test_grades_csv_has_a_row_per_student_and_a_column_per_problem(tmp_path: Path) -> None:
    gradebook = sample_gradebook(tmp_path)
    (tmp_path / "grades.csv").write_text(csv_sheet.render(gradebook), encoding="utf-8")
    assert (tmp_path / "grades.csv").read_text(encoding="utf-8") == (
        "\ufeffstudent,add,mul,score,max\nkim,AC,WA,1,2\nlee,CE,,0,2\n")


def test_grades_json_holds_every_report_and_the_unmatched_files(tmp_path: Path) -> None:
    gradebook = sample_gradebook(tmp_path, partial=True)
    (tmp_path / "grades.json").write_text(json_doc.render(gradebook), encoding="utf-8")
    data = json.loads((tmp_path / "grades.json").read_text())

    assert data["scoring"] == "partial" and [p["id"] for p in data["problems"]] == ["add", "mul"]
    kim = data["students"][0]
    assert kim["name"] == "kim" and kim["score"] == pytest.approx(1.666667)
    assert kim["results"]["mul"]["report"]["cases"][1]["verdict"] == "WA"
    assert len(kim["results"]["mul"]["source_sha256"]) == 64 and kim["results"]["mul"]["tests_passed"] == 2
    assert data["unmatched"] == [{"path": "lee/notes.txt", "reason": "no problem with id 'notes'"}]


def test_the_report_is_self_contained_and_escapes_what_students_wrote(tmp_path: Path) -> None:
    page = render(sample_gradebook(tmp_path, student="<img src=x onerror=alert(1)>"))

    assert "<img src=x" not in page and "&lt;img src=x onerror=alert(1)&gt;" in page
    assert "bad &lt;code&gt;" in page
    assert 'id="matrix"' in page and page.count('<details class="pair"') == 3
    assert "http://" not in page.replace('xmlns="http://www.w3.org/2000/svg"', "") and "https://" not in page
    assert "<link" not in page and "src=" not in page.replace("&lt;img src=x", "")


def test_plots_are_well_formed_svg_with_a_tooltip_per_mark() -> None:
    bars = verdict_bars([("add", Counter({Verdict.AC: 3, Verdict.WA: 1})), ("mul", Counter())])
    strip = cpu_strip([("add", 1.0, [TimePoint("kim", 0.5, Verdict.AC, "C++17", 1.0),
                                     TimePoint("<lee>", 5.4, Verdict.TLE, "Python 3", 5.0)]),
                       ("mul", 2.0, [])])
    for svg in (bars, strip):
        ElementTree.fromstring(svg)
    assert "add: AC × 3" in bars and "add: WA × 1" in bars
    assert "&lt;lee&gt;: 5.400 s (TLE)" in strip and "median 2.950 s" in strip
    assert "add: time limit 5 s for Python 3" in strip and "add: time limit 1 s for C++17" in strip
    assert "mul: time limit 2 s (before the language allowance)" in strip


@pytest.mark.parametrize(("maximum", "ticks"), [
    (1.08, [0, 0.5, 1.0, 1.5]),
    (0.35, [0, 0.1, 0.2, 0.3, 0.4]),
    (10.8, [0, 5, 10, 15]),
    (0.0, [0, 0.0002, 0.0004, 0.0006, 0.0008, 0.001]),
])
def test_axis_ticks_are_round_and_cover_the_maximum(maximum: float, ticks: list[float]) -> None:
    assert _ticks(maximum) == pytest.approx(ticks)


# --- status bar and executors ------------------------------------------------------------------------------------


def test_the_status_bar_shows_counts_per_verdict_on_a_terminal() -> None:
    output = io.StringIO()
    console = Console(file=output, force_terminal=True, width=160)
    with StatusBar(3, enabled=True, console=console) as bar:
        for verdict in (Verdict.AC, Verdict.WA, Verdict.AC):
            bar.advance(verdict)
    shown = output.getvalue()
    assert "3/3" in shown and "AC 2" in shown and "WA 1" in shown and "pairs/s" in shown


def test_the_status_bar_is_off_when_quiet_or_not_a_terminal() -> None:
    assert not StatusBar.wanted(quiet=False, console=Console(file=io.StringIO()))
    assert not StatusBar.wanted(quiet=True, console=Console(file=io.StringIO(), force_terminal=True))
    assert StatusBar.wanted(quiet=False, console=Console(file=io.StringIO(), force_terminal=True))


def test_the_executor_is_chosen_from_an_explicit_table() -> None:
    assert set(EXECUTORS) == {"local", "dask"}
    assert ExecutorChoice(jobs=2).kind == "local"
    assert ExecutorChoice(jobs=2, scheduler="tcp://127.0.0.1:8786").kind == "dask"


def test_one_colour_table_for_terminal_and_html(tmp_path: Path) -> None:
    colours = [verdict.html_colour for verdict in Verdict]
    assert len(set(colours)) == len(colours) and all(re.fullmatch(r"#[0-9a-f]{6}", colour) for colour in colours)
    page = render(sample_gradebook(tmp_path))
    for verdict in Verdict:
        assert f".v-{verdict.short} {{ background: {verdict.html_colour}; }}" in page
