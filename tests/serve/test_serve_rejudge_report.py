"""Rejudges people can trust (issue 42), over real HTTP against a real `judge serve`: a problem whose hidden test
expects the wrong output makes a correct submission WA; the teacher fixes the test, reads the problems again and
rejudges the problem with a reason; the report (on the teacher's page and as CSV) shows WA -> AC for that student
and "unchanged" for the one still wrong, cells still judging as pending (never as unchanged), and the student whose
result changed reads the change and the reason on their pages; the other student reads nothing."""

from __future__ import annotations

import csv
import html
import io
import re
from pathlib import Path

from conftest import write_problem
from serve_fixtures import (AC_SOURCE, STUDENTS, WA_SOURCE, judged, judging_stopped, make_context, running_server,
                            wait_until_judged)
from serve_http import Browser, basic, ok_body, signed_in_browser

from judge.serve.rejudges import changes_seen_by
from judge.serve.roster import TEACHER_SECRET_FILE
from judge.serve.store import Judged, NewSubmission, Requeued, Store
from judge.verdicts import Verdict

KIM, LEE = STUDENTS
REASON = '=HYPERLINK("http://x") test 2 expected 13 <b>instead of</b> 12'
"""Hostile on purpose: a formula start for the CSV, markup for the pages."""


def _submit(server_url: str, student: tuple[str, str, str], source: str) -> int:
    answer = Browser(server_url).post_multipart("/api/submissions", {"problem": "sum", "language": "python3",
                                                                     "code": source}, basic(student[0], student[2]))
    assert answer.status == 201, answer.body
    return int(re.search(r'"id": ?(\d+)', answer.body).group(1))  # type: ignore[union-attr]


def _report_rows(page: str) -> dict[str, list[str]]:
    """The report's rows on a page, by student id: the text of each cell."""
    table = re.search(r'<table class="list" id="rejudge-rows">(.*?)</table>', page, re.S)
    assert table, page[-3000:]
    rows = {}
    for row in re.findall(r"<tr class=\"\w+\">(.*?)</tr>", table.group(1), re.S):
        cells = [html.unescape(re.sub(r"<[^>]+>", "", cell)).strip() for cell in re.findall(r"<td>(.*?)</td>", row, re.S)]
        rows[cells[0].split()[0]] = cells
    return rows


def test_a_rejudge_after_a_test_is_fixed_reports_wa_to_ac_and_tells_the_student_why(tmp_path: Path) -> None:
    problems = tmp_path / "problems"
    write_problem(problems / "sum", {"sample1": ("1 2\n", "3\n"), "2": ("5 7\n", "13\n")}, id="sum", title="A+B")
    with running_server(tmp_path) as server:
        store = Store(server.data)
        kim_id, lee_id = _submit(server.url, KIM, AC_SOURCE), _submit(server.url, LEE, WA_SOURCE)
        wait_until_judged(store, 2)
        assert [store.submission(each).verdict.short for each in (kim_id, lee_id)] == ["WA", "WA"]  # type: ignore[union-attr]

        teacher = signed_in_browser(server.url, "teacher", (server.data / TEACHER_SECRET_FILE).read_text().strip())
        token = teacher.get("/teacher").meta_csrf()
        refused = teacher.post_form("/teacher/rejudge", {"csrf": token, "target": "problem", "problem": "sum"})
        assert refused.status == 303 and "not rejudged: say why" in ok_body(teacher.get("/teacher"))
        assert store.counts() == {"done": 2}  # a rejudge without a reason changes nothing

        (problems / "sum" / "tests" / "2.ans").write_text("12\n", encoding="utf-8")  # the teacher fixes the test
        assert teacher.post_form("/teacher/problems", {"csrf": token}).status == 303  # and reads the problems again
        with judging_stopped(server.process.pid):
            rejudged = teacher.post_form("/teacher/rejudge", {"csrf": token, "target": "problem", "problem": "sum",
                                                              "reason": REASON})
            assert rejudged.status == 303
            early = ok_body(teacher.get(rejudged.header("location")))
            assert "2 submission(s) queued again" in early
            assert re.search(r"2 rejudged: 0 changed · 0 unchanged ·\s+2 pending", early), early[-3000:]
            assert [row[-1] for row in _report_rows(early).values()] == ["pending", "pending"]
            assert "rejudged on" not in ok_body(signed_in_browser(server.url, KIM[0], KIM[2]).get("/submissions"))
        wait_until_judged(store, 2)

        page = ok_body(teacher.get("/teacher"))
        assert re.search(r"2 rejudged: 1 changed · 1 unchanged ·\s+0 pending", page), page[-3000:]
        rows = _report_rows(page)
        assert rows[KIM[0]][3:] == ["WA", "1", "AC", "2", "changed"]
        assert rows[LEE[0]][3:] == ["WA", "0", "WA", "0", "unchanged"]
        assert "&lt;b&gt;instead of&lt;/b&gt;" in page and "<b>instead" not in page

        rejudge_id = re.search(r'href="/teacher/rejudges/(\d+)\.csv"', page).group(1)  # type: ignore[union-attr]
        download = teacher.get(f"/teacher/rejudges/{rejudge_id}.csv")
        assert download.status == 200 and download.header("content-type").startswith("text/csv")
        assert "attachment" in download.header("content-disposition")
        table = {row["student"]: row for row in csv.DictReader(io.StringIO(download.body))}
        assert (table["kim"]["old_verdict"], table["kim"]["new_verdict"], table["kim"]["outcome"]) == ("WA", "AC",
                                                                                                        "changed")
        assert (table["kim"]["old_tests_passed"], table["kim"]["new_tests_passed"]) == ("1", "2")
        assert table["kim"]["name"] == KIM[1] and table["lee"]["outcome"] == "unchanged"
        assert table["kim"]["reason"] == "'" + REASON  # a formula start made text (inert.csv_cell)
        assert _report_rows(ok_body(teacher.get(f"/teacher/rejudges/{rejudge_id}"))) == rows
        assert teacher.get(f"/teacher/rejudges/{rejudge_id}").status == 200

        kim = signed_in_browser(server.url, KIM[0], KIM[2])
        said = f"WA → AC, because {html.escape(REASON)}"
        for path in ("/submissions", f"/submissions/{kim_id}"):
            assert re.search(r"rejudged on <time[^>]*>[^<]+</time>: " + re.escape(said), ok_body(kim.get(path))), path
        lee = signed_in_browser(server.url, LEE[0], LEE[2])
        for path in ("/submissions", f"/submissions/{lee_id}"):
            assert "rejudged on" not in ok_body(lee.get(path))  # unchanged: nothing to tell
        assert kim.get(f"/teacher/rejudges/{rejudge_id}.csv").status == 404  # the teacher's alone


def test_a_submission_rejudged_again_before_it_was_judged_reports_what_its_student_last_saw(tmp_path: Path) -> None:
    """The store's side: a rejudge that a second one overtook never had a result ("superseded", not "changed"),
    and the second one reports the change from the verdict the student last saw; a rejudge of nothing leaves no
    report."""
    store = make_context(tmp_path).store
    submission = store.add_submission(NewSubmission("kim", "sum", "python3", "a.py", b"print(0)"), 5)
    assert submission is not None
    judged(store, submission, Verdict.WA)
    first = store.requeue(reason="first", submission_id=submission)
    second = store.requeue(reason="second", problem_id="sum")
    assert [entry.outcome for entry in store.rejudged_entries()] == ["pending", "superseded"]
    judged(store, submission, Verdict.AC)

    latest, overtaken = store.rejudged_entries(student="kim")
    assert (latest.rejudge.id, latest.old.shown, latest.new, latest.outcome) == (
        second.rejudge_id, "WA", Judged(Verdict.AC, 2, None), "changed")
    assert (overtaken.rejudge.id, overtaken.outcome) == (first.rejudge_id, "superseded")
    assert [entry.rejudge.reason for entry in changes_seen_by(store, "kim", submission)] == ["second"]
    assert store.requeue(reason="nothing", submission_id=submission + 1) == Requeued(None, 0)
    assert [rejudge.reason for rejudge in store.rejudges()] == ["second", "first"]
