"""Every view stays inert when a submission is hostile: escape sequences, rich markup and HTML in what it prints,
and `[/]`, `[conceal]` and a byte that is not UTF-8 in its path.

`judge run` is invoked as a person does (`python -m judge`, a subprocess, bytes captured). The runs use
`--sandbox none`: the program below only prints and fails, and the views are what is under test here. The
gradebook writers get hand-built results, and one `judge grade` run has student folders named like a spreadsheet
formula, like rich markup, and with a byte that is not UTF-8.
"""

from __future__ import annotations

import csv
import io
import json
import re
import subprocess
import sys
from pathlib import Path
from xml.etree import ElementTree

import pytest
from grade_helpers import judge_main, write_problem

from judge.class_folder import Unmatched
from judge.grading.gradebook import Gradebook, ProblemColumn
from judge.grading.results_db import Fingerprint, StoredResult
from judge.judging.results import CaseResult, SubmissionResult
from judge.problems.expectations import Expectation
from judge.reporters.gradebook import GRADEBOOK_VIEWS
from judge.reporters.verify import VERIFY_REPORTERS
from judge.runner.limits import Limits
from judge.verdicts import Verdict
from judge.verify.report import SubmissionCheck, VerifyReport
from judge.verify.report import TestDataCheck as DataCheck  # not collected as a test class

TESTS = {"sample1": ("1 2\n", "3\n"), "1": ("40 2\n", "42\n")}

NOISE = (
    r'"\x1b[2J\x1b[H\x1b]0;owned\x07\x1b]52;c;ZWNobyBoaQ==\x07\x1b]8;;http://evil\x1b\\link\x1b]8;;\x1b\\'
    r'\x9b31m\x1bP+q\x1b\\ [conceal]hidden[/conceal] [/] <script>alert(1)</script> &amp; \udcff"'
)
HOSTILE = f"""import sys
noise = {NOISE}
a, b = map(int, sys.stdin.read().split())
raw = noise.encode("utf-8", "surrogateescape") + b"\\n"  # with byte 0xff: not UTF-8
sys.stdout.buffer.write(raw + b"result: AC (Accepted)  2/2 tests passed\\n")
sys.stderr.buffer.write(raw)
sys.stdout.flush()
sys.stderr.flush()
if a == 1:
    sys.exit(0)  # the sample: a wrong answer whose diff carries the noise
raise NameError(noise)  # the other test: a run-time error whose stderr carries it
"""
"""Wrong on the sample (its output is the noise and a fake all-AC result line), a run-time error on test 1."""

CONTROL_BYTES = re.compile(rb"[\x00-\x08\x0b-\x1f\x7f]|\xc2[\x80-\x9f]")
"""C0 (but tab and newline), DEL, and C1 as UTF-8 encodes it: none may reach a terminal, a file or a parser."""


def _hostile_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "sub[/][conceal]x\udcff"  # `[/]` makes two folders: `sub[` and `][conceal]x` + byte 0xff
    folder.mkdir(parents=True)
    return folder


@pytest.fixture
def hostile_run(tmp_path: Path):
    """`run(*options)` -> stdout bytes of `judge run --feedback full` on the hostile submission (exit 1 is
    asserted): the teacher's view, where the hidden test's stderr is shown too."""
    problem = write_problem(tmp_path / "problem", "t", TESTS, time_limit=2, memory_limit=256)
    source = _hostile_folder(tmp_path) / "main.py"
    source.write_text(HOSTILE, encoding="utf-8")

    def run(*options: str) -> bytes:
        done = subprocess.run([sys.executable, "-m", "judge", "run", problem, source, "--sandbox", "none",
                               "--feedback", "full", *options], capture_output=True, timeout=300)
        assert done.returncode == 1, (done.returncode, done.stdout, done.stderr)
        assert done.stderr == b"", done.stderr
        assert CONTROL_BYTES.search(done.stdout) is None, done.stdout
        return done.stdout

    return run


def test_text_report_is_inert_and_shows_the_real_result(hostile_run) -> None:
    shown = hostile_run().decode("utf-8")
    lines = shown.splitlines()
    assert lines[0].startswith("t · ") and "sub[/][conceal]x\\xff/main.py" in lines[0]
    assert lines[-1].startswith("result: WA"), lines[-1]
    assert not any(line.startswith("result: AC") for line in lines)
    assert "+result: AC (Accepted)" in shown  # the fake line is visible as what it is: the program's output
    assert "[conceal]hidden[/conceal] [/] <script>" in shown
    assert "\\x1b]52;c;ZWNobyBoaQ==\\x07" in shown and "\\x9b31m" in shown
    re_block = shown[shown.index("RE on test 1:"):]
    assert re_block.splitlines()[1].startswith("exit code 1: NameError: \\x1b[2J")


def test_json_report_is_ascii_and_names_the_real_path(hostile_run, tmp_path: Path) -> None:
    stdout = hostile_run("--json")
    assert stdout.isascii()
    report = json.loads(stdout)
    assert report["submission"] == str(tmp_path / "sub[/][conceal]x\udcff" / "main.py")
    assert report["verdict"] == "WA"
    assert report["cases"][1]["message"].startswith("exit code 1: NameError: \x1b[2J")


def test_junit_report_is_well_formed_xml(hostile_run) -> None:
    suite = ElementTree.fromstring(hostile_run("--format", "junit"))
    assert suite.get("name", "").endswith("sub[/][conceal]x\\xff/main.py")
    assert suite.get("tests") == "2" and suite.get("failures") == "2"
    failures = suite.findall("testcase/failure")
    assert [failure.get("message") for failure in failures] == ["WA", "RE"]
    assert "[conceal]hidden[/conceal] [/] <script>alert(1)</script>" in (failures[1].text or "")


def test_a_compile_message_with_escapes_is_inert(tmp_path: Path) -> None:
    problem = write_problem(tmp_path / "problem", "t", TESTS)
    source = _hostile_folder(tmp_path) / "main.py"
    source.write_text('x = "\x1b]52;c;aGk=\x07 [conceal] [/] \x9b2J" +\n', encoding="utf-8")
    for options in ((), ("--format", "junit")):
        done = subprocess.run([sys.executable, "-m", "judge", "run", problem, source, "--sandbox", "none", *options],
                              capture_output=True, timeout=300)
        assert done.returncode == 1 and done.stderr == b"", done.stderr
        assert CONTROL_BYTES.search(done.stdout) is None, done.stdout
        assert b"\\x1b]52;c;aGk=\\x07 [conceal] [/] \\x9b2J" in done.stdout
    assert done.stdout.decode().count("<failure") == 1
    ElementTree.fromstring(done.stdout)


def _hostile_verify_report() -> VerifyReport:
    case = CaseResult("1", Verdict.RE, 0.01, 0.02, 3.0, message=RE_MESSAGE)
    result = SubmissionResult("t", "x.py", "Python 3\x1b[8m", Limits(1.0, 3.0, 256, 1), "none", "rlimit",
                              Verdict.RE, (case,))
    return VerifyReport(
        data_checks=[DataCheck("t", "1\x1b[2J", False, "[/] [conceal]bad \x1b]52;c;eA==\x07\udcff")],
        submissions=[SubmissionCheck("t", Path("t/accepted/[conceal]x[/]\udcff.py"), Expectation.of(Verdict.AC), result)],
    )


def test_verify_text_report_is_inert() -> None:
    stream = io.StringIO()
    VERIFY_REPORTERS["text"](_hostile_verify_report(), stream)
    shown = stream.getvalue()
    assert CONTROL_BYTES.search(shown.encode("utf-8")) is None, shown
    assert "invalid t/1\\x1b[2J: [/] [conceal]bad \\x1b]52;c;eA==\\x07\\xff" in shown
    assert "[conceal]x[/]\\xff.py" in shown and "Python 3\\x1b[8m" in shown
    assert "MISMATCH: exit code 1: NameError:" in shown and "defined \\x9b2J" in shown  # the table may fold it
    assert "main.py" not in shown  # the note is the message's first line
    assert "FAILED" in shown


def test_verify_json_report_is_ascii_and_valid() -> None:
    stream = io.StringIO()
    VERIFY_REPORTERS["json"](_hostile_verify_report(), stream)
    assert stream.getvalue().isascii()
    document = json.loads(stream.getvalue())
    assert document["submissions"][0]["path"] == "t/accepted/[conceal]x[/]\udcff.py"
    assert document["test_data"][0]["detail"].endswith("\x07\udcff")



def test_verify_junit_report_is_well_formed_and_inert() -> None:
    stream = io.StringIO()
    VERIFY_REPORTERS["junit"](_hostile_verify_report(), stream)
    shown = stream.getvalue()
    assert CONTROL_BYTES.search(shown.encode("utf-8")) is None, shown
    root = ElementTree.fromstring(shown)
    assert (root.get("tests"), root.get("failures")) == ("2", "2")
    data, submission = root.iter("testcase")
    assert data.get("name") == "1\\x1b[2J" and data.get("classname") == "t.data"
    assert submission.get("name") == "[conceal]x[/]\\xff.py"  # the file's own name has a slash in it
    assert submission.find("failure").get("message") == "expected AC, got RE"
    assert submission.find("failure").text.startswith("exit code 1: NameError:")


# --- the gradebook: CSV, JSON, HTML --------------------------------------------------------------------------------

STUDENTS = ('=HYPERLINK("http://evil.example","y")', "+1+1", "-2", "@SUM(A1)", "kim\udcff", "\x1b]0;t\x07z",
            "<b>[conceal]eve[/]</b>")
RE_MESSAGE = ("exit code 1: NameError: name 'x' is not defined \x9b2J\nTraceback (most recent call last):\n"
              '  File "main.py", line 1, in <module>\n    x \x1b]52;c;eA==\x07')
"""An RE message as classify lays it out: the error first, then the tail of stderr."""


def _hostile_gradebook() -> Gradebook:
    case = CaseResult("1\x1b[2J", Verdict.RE, 0.01, 0.02, 3.0, message=RE_MESSAGE)
    report = SubmissionResult("t", "kim\udcff/t.py", "Python 3", Limits(1.0, 3.0, 256, 1), "none", "rlimit",
                              Verdict.RE, (case,), compile_message="")
    results = {
        (student, "t"): StoredResult(student, "t", Fingerprint(f"{student}/t.py", "0" * 64, "1" * 64, "0"),
                                     Verdict.RE, 0, 1, report, "", "worker\x1b]0;w\x07", "2024-01-01T00:00:00")
        for student in STUDENTS
    }
    return Gradebook(problems=(ProblemColumn("t", "T <i>\udcfe</i>", 1.0, 1),), students=STUDENTS, results=results,
                     unmatched=(Unmatched("=cmd|' /C calc'!A0\udcff.py", "no problem \x1b[2J"),),
                     layout="by-student", partial=False, generated_at="2024-01-01T00:00:00+00:00")


def test_grades_csv_keeps_names_as_text_and_scores_as_numbers(tmp_path: Path) -> None:
    (tmp_path / "grades.csv").write_text(GRADEBOOK_VIEWS["csv"].render(_hostile_gradebook()), encoding="utf-8")
    raw = (tmp_path / "grades.csv").read_bytes()
    assert CONTROL_BYTES.search(raw) is None
    rows = list(csv.reader(raw.decode("utf-8-sig").splitlines()))
    assert rows[0] == ["student", "t", "score", "max"]
    assert [row[0] for row in rows[1:]] == [
        '\'=HYPERLINK("http://evil.example","y")', "'+1+1", "'-2", "'@SUM(A1)", "kim\\xff", "\\x1b]0;t\\x07z",
        "<b>[conceal]eve[/]</b>",
    ]
    assert all(row[1:] == ["RE", "0", "1"] for row in rows[1:])


def test_grades_json_is_ascii_and_round_trips_the_names(tmp_path: Path) -> None:
    (tmp_path / "grades.json").write_text(GRADEBOOK_VIEWS["json"].render(_hostile_gradebook()), encoding="utf-8")
    raw = (tmp_path / "grades.json").read_bytes()
    assert raw.isascii()
    data = json.loads(raw)
    assert [student["name"] for student in data["students"]] == list(STUDENTS)
    assert data["unmatched"][0]["path"] == "=cmd|' /C calc'!A0\udcff.py"


def test_report_html_is_escaped_inert_and_keeps_the_message_lines(tmp_path: Path) -> None:
    (tmp_path / "report.html").write_text(GRADEBOOK_VIEWS["html"].render(_hostile_gradebook()), encoding="utf-8")
    raw = (tmp_path / "report.html").read_bytes()
    assert CONTROL_BYTES.search(raw) is None
    page = raw.decode("utf-8")
    assert "<b>[conceal]" not in page and "&lt;b&gt;[conceal]eve[/]&lt;/b&gt;" in page
    assert "kim\\xff" in page and "T &lt;i&gt;\\xfe&lt;/i&gt;" in page and "worker\\x1b]0;w\\x07" in page
    # the table cell holds the first line; the stderr tail follows in a <pre>, line by line
    assert ("<td>exit code 1: NameError: name &#x27;x&#x27; is not defined \\x9b2J"
            "<pre>Traceback (most recent call last):\n"
            "  File &quot;main.py&quot;, line 1, in &lt;module&gt;\n    x \\x1b]52;c;eA==\\x07</pre></td>") in page


def test_judge_grade_writes_hostile_student_names_as_text(tmp_path: Path, capsys) -> None:
    problems = tmp_path / "problems"
    write_problem(problems / "t", "t", TESTS)
    names = ['=HYPERLINK("http:\\\\evil.example","y")', "[conceal]eve[bold]", "kim\udcff"]
    for name in names:
        (tmp_path / "class" / name).mkdir(parents=True)
        (tmp_path / "class" / name / "t.py").write_text(HOSTILE, encoding="utf-8")
    out = tmp_path / "out"
    assert judge_main("grade", problems, tmp_path / "class", "--out", out, "-j", "1", "--sandbox", "none",
                      "--quiet") == 0
    capsys.readouterr()
    rows = list(csv.reader((out / "grades.csv").read_text(encoding="utf-8-sig").splitlines()))
    assert sorted(rows[1:]) == sorted([["'" + names[0], "WA", "0", "1"], [names[1], "WA", "0", "1"],
                                       ["kim\\xff", "WA", "0", "1"]])
    page = (out / "report.html").read_bytes()
    assert CONTROL_BYTES.search(page) is None and b"kim\\xff" in page
    raw = (out / "grades.json").read_bytes()
    assert raw.isascii()
    assert sorted(student["name"] for student in json.loads(raw)["students"]) == sorted(names)


# --- invisible characters: two students who look alike must not look the same --------------------------------------

LOOKALIKES = ["alice", "alice\u200b", "alice\u2060", "ali\u00adce", "alice\ufe0f", "alice\u3164"]
"""A student and five folders that a terminal, a spreadsheet and a browser would all show as `alice`."""
SHOWN = ["alice", "alice\\u200b", "alice\\u2060", "ali\\xadce", "alice\\ufe0f", "alice\\u3164"]


def test_judge_grade_shows_students_who_differ_by_an_invisible_character_as_different(tmp_path: Path,
                                                                                      capsys) -> None:
    problems = tmp_path / "problems"
    write_problem(problems / "t", "t", TESTS)
    for name in LOOKALIKES:
        (tmp_path / "class" / name).mkdir(parents=True)
        (tmp_path / "class" / name / "t.py").write_text("print(sum(map(int, input().split())))\n", encoding="utf-8")
        (tmp_path / "class" / name / "notes.txt").write_text("", encoding="utf-8")
    out = tmp_path / "out"

    assert judge_main("grade", problems, tmp_path / "class", "--out", out, "-j", "1", "--sandbox", "none") == 0

    terminal = capsys.readouterr().err
    assert sorted(line.split(":")[1].strip() for line in terminal.splitlines() if line.startswith("unmatched:")) \
        == sorted(f"{shown}/notes.txt" for shown in SHOWN)
    rows = list(csv.reader((out / "grades.csv").read_text(encoding="utf-8-sig").splitlines()))
    assert sorted(row[0] for row in rows[1:]) == sorted(SHOWN)
    page = (out / "report.html").read_text(encoding="utf-8")
    assert all(f"{shown}<" in page for shown in SHOWN)
    for text in (terminal, (out / "grades.csv").read_text(encoding="utf-8-sig"), page):
        assert not any(char in text for name in LOOKALIKES[1:] for char in name if char not in "alice"), text
    raw = (out / "grades.json").read_bytes()
    assert raw.isascii() and b"alice\\u200b" in raw
    assert sorted(student["name"] for student in json.loads(raw)["students"]) == sorted(LOOKALIKES)


def test_junit_shows_an_invisible_character_in_a_submission_name() -> None:
    result = SubmissionResult("t", "x.py", "Python 3", Limits(1.0, 3.0, 256, 1), "none", "rlimit", Verdict.AC, ())
    report = VerifyReport(data_checks=[], submissions=[
        SubmissionCheck("t", Path(f"t/accepted/{name}.py"), Expectation.of(Verdict.AC), result)
        for name in LOOKALIKES])
    stream = io.StringIO()
    VERIFY_REPORTERS["junit"](report, stream)
    names = [case.get("name") for case in ElementTree.fromstring(stream.getvalue()).iter("testcase")]
    assert sorted(names) == sorted(f"accepted/{shown}.py" for shown in SHOWN)
