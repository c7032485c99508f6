"""The scoreboard: ICPC's solved / penalty / attempts, points for scored problems, ranks, and the freeze."""

from __future__ import annotations

import msgspec.structs
import itertools
import json

from judge.course.model import Assignment, Course, LatePolicy
from judge.judging.results import SubmissionResult
from judge.runner.limits import Limits
from judge.serve.scoreboard import build
from judge.serve.store import StoredSubmission
from judge.verdicts import Verdict

START = 1_000_000.0
_ids = itertools.count(1)


def _row(student: str, problem: str, minute: float, verdict: Verdict | None) -> StoredSubmission:
    return StoredSubmission(id=next(_ids), student=student, problem_id=problem, language="python3",
                            file_name="a.py", submitted_at=START + 60 * minute,
                            status="done" if verdict is not None else "queued", progress="", verdict=verdict,
                            tests_passed=None, result_json=None, error="", worker="", judged_at=None)


def test_penalty_is_minutes_to_the_first_ac_plus_20_per_rejected_attempt_compile_errors_free() -> None:
    rows = [_row("kim", "a", 3, Verdict.WA), _row("kim", "a", 5, Verdict.CE), _row("kim", "a", 10.5, Verdict.AC),
            _row("kim", "a", 12, Verdict.WA), _row("lee", "a", 4, Verdict.AC), _row("lee", "b", 7, Verdict.TLE)]

    board = build(rows, {"kim": "Kim", "lee": "Lee"}, ["a", "b"], start=START, freeze_at=None, viewer="kim")

    kim, lee = sorted(board.rows, key=lambda row: row.student)
    assert (kim.solved, kim.penalty, kim.cells["a"].attempts, kim.cells["a"].minutes) == (1, 30, 1, 10)
    assert (lee.solved, lee.penalty, lee.cells["b"].attempts, lee.cells["b"].solved) == (1, 4, 1, False)
    assert [row.student for row in board.rows] == ["lee", "kim"] and [row.rank for row in board.rows] == [1, 2]


def test_equal_standings_share_a_rank_and_nobody_is_left_out() -> None:
    board = build([], {"kim": "Kim", "lee": "Lee", "park": "Park"}, ["a"], start=START, freeze_at=None, viewer=None)
    assert [row.rank for row in board.rows] == [1, 1, 1]


def test_the_freeze_hides_other_students_late_verdicts_but_not_the_viewers_own_or_from_the_teacher() -> None:
    rows = [_row("kim", "a", 50, Verdict.AC), _row("lee", "a", 55, Verdict.AC), _row("lee", "b", 10, Verdict.AC)]
    students = {"kim": "Kim", "lee": "Lee"}
    freeze_at = START + 60 * 45

    seen_by_kim = {row.student: row for row in build(rows, students, ["a", "b"], start=START, freeze_at=freeze_at,
                                                      viewer="kim").rows}
    seen_by_teacher = {row.student: row for row in build(rows, students, ["a", "b"], start=START,
                                                          freeze_at=freeze_at, viewer=None).rows}

    assert seen_by_kim["kim"].solved == 1
    assert seen_by_kim["lee"].solved == 1 and seen_by_kim["lee"].cells["a"].pending == 1
    assert seen_by_teacher["lee"].solved == 2 and seen_by_teacher["lee"].cells["a"].pending == 0


def test_pending_submissions_are_counted_and_decide_nothing() -> None:
    board = build([_row("kim", "a", 1, None)], {"kim": "Kim"}, ["a"], start=START, freeze_at=None, viewer="kim")
    cell = board.rows[0].cells["a"]
    assert (cell.pending, cell.solved, cell.attempts) == (1, False, 0)


def test_an_assignments_late_rule_marks_a_late_solve_scales_points_and_drops_what_came_after_it_closed() -> None:
    due = START + 60 * 10  # due at minute 10; accepted until a day later at 10 % a day
    course = Course(assignments=(Assignment("w", "W", ("a", "s"), None, due, LatePolicy(10, 1)),))
    scored = SubmissionResult(problem_id="s", submission="a.py", language="Python 3", limits=Limits(1, 2, 256, 1),
                              isolation="bwrap", memory_enforcement="cgroup", verdict=Verdict.WA, cases=(),
                              score=50.0, max_score=100.0)
    rows = [_row("kim", "a", 20, Verdict.AC),  # 10 minutes late: one day late, 90 %
            _row("lee", "a", 5, Verdict.AC),  # on time
            _row("park", "a", 10 + 24 * 60 + 1, Verdict.AC),  # past the hard deadline: as if never made
            msgspec.structs.replace(_row("kim", "s", 30, Verdict.WA), result_json=json.dumps(scored.to_dict()))]

    board = build(rows, {"kim": "Kim", "lee": "Lee", "park": "Park"}, ["a", "s"], start=START, freeze_at=None,
                  viewer=None, scored=True, course=course)

    cells = {row.student: row.cells for row in board.rows}
    assert (cells["kim"]["a"].solved, cells["kim"]["a"].late) == (True, "late 90 %")
    assert (cells["lee"]["a"].solved, cells["lee"]["a"].late) == (True, "")
    assert (cells["park"]["a"].solved, cells["park"]["a"].attempts, cells["park"]["a"].pending) == (False, 0, 0)
    assert cells["kim"]["s"].points == 45.0  # 50 points, 10 % off
    assert board.late_rule
