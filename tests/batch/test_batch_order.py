"""A batch hands out the longest tasks first (so it does not end on one long pair while the other workers idle):
by test count, or, for `judge grade`, by how long each pair took the last time. Order changes no result."""

from __future__ import annotations

from pathlib import Path

import pytest
from grade_helpers import record_task

from judge.batch import engine
from judge.batch.executors import ExecutorChoice, Finished
from judge.batch.order import longest_first
from judge.batch.packing import ProblemPack
from judge.batch.status_bar import StatusBar
from judge.batch.tasks import SubmissionOutcome, SubmissionTask
from judge.grading.session import previous_seconds
from judge.grading.results_db import ResultsDatabase
from judge.judging.results import CaseResult, SubmissionResult
from judge.languages.sources import SourceFiles
from judge.options import RunOptions
from judge.runner.limits import Limits
from judge.verdicts import Verdict


def task(student: str, problem: str, tests: int) -> SubmissionTask:
    pack = ProblemPack(problem_id=problem, files=(), test_count=tests)
    source = SourceFiles(f"{problem}.py", b"print(1)\n")
    return SubmissionTask(student, f"{student}/{problem}.py", source, pack, RunOptions())


def judged(walls: list[float]) -> SubmissionOutcome:
    cases = tuple(CaseResult(str(index), Verdict.AC, wall / 2, wall, 3.0) for index, wall in enumerate(walls))
    result = SubmissionResult("p", "x.py", "Python 3", Limits(1.0, 3.0, 256, 1), "none", "rlimit", Verdict.AC, cases)
    return SubmissionOutcome(verdict=Verdict.AC, tests_passed=len(walls), result=result, error="", worker="test:1")


def test_more_tests_first_and_ties_keep_their_order() -> None:
    tasks = [task("a", "small", 3), task("b", "big", 40), task("c", "small", 3), task("d", "mid", 10)]
    assert [t.owner for t in longest_first(tasks)] == ["b", "d", "a", "c"]


def test_grade_expects_what_the_last_run_took(tmp_path: Path) -> None:
    slow_few, quick_many, unseen = task("slow", "p", 2), task("quick", "p", 20), task("new", "p", 5)
    with ResultsDatabase(tmp_path / "out") as database:
        record_task(database, slow_few, judged([4.0, 4.0]))
        record_task(database, quick_many, judged([0.01] * 20))
        stored = database.results()
    expected = previous_seconds(stored)
    assert expected(slow_few) == pytest.approx(8.0)
    assert expected(quick_many) == pytest.approx(0.2)
    assert expected(unseen) == pytest.approx(5 * 8.2 / 22)  # its tests at the stored seconds per test
    assert [t.owner for t in longest_first([quick_many, unseen, slow_few], expected)] == ["slow", "new", "quick"]
    assert previous_seconds({})(unseen) == 5.0


class Recording:
    """An executor that judges nothing: it notes the order of submissions and answers at once."""

    capacity = 1

    def __init__(self) -> None:
        self.order: list[str] = []
        self._last: SubmissionTask | None = None

    def submit(self, submitted: SubmissionTask) -> None:
        self.order.append(submitted.owner)
        self._last = submitted

    def next_finished(self) -> Finished:
        assert self._last is not None
        return Finished(self._last, judged([0.1]))

    def __enter__(self) -> Recording:
        return self

    def __exit__(self, *exc_info: object) -> None:
        return None


def test_the_engine_submits_the_longest_first(monkeypatch: pytest.MonkeyPatch) -> None:
    recording = Recording()
    monkeypatch.setattr(engine, "open_executor", lambda choice: recording)
    finished: list[str] = []
    tasks = [task("a", "small", 3), task("b", "big", 40), task("c", "mid", 10)]
    engine.run_batch(tasks, ExecutorChoice(jobs=1), StatusBar(3, enabled=False),
                     lambda done: finished.append(done.task.owner))
    assert recording.order == finished == ["b", "c", "a"]
