"""A submission's progress ("compiling", "test k of n"), written by the worker that judges it: only under its
claim, never raising, never creating a database where there is none."""

from __future__ import annotations

import pickle
from pathlib import Path

from judge.judging.results import CaseResult, SubmissionHeader
from judge.runner.limits import Limits
from judge.serve.progress import StoredProgress
from judge.serve.store import NewSubmission, Store
from judge.verdicts import Verdict

HEADER = SubmissionHeader(problem_id="sum", submission="a.py", language="Python 3", limits=Limits(1, 3, 256, 1),
                          isolation="bwrap", memory_enforcement="cgroup", limits_note="", tests=("sample1", "2"))
CASE = CaseResult(name="sample1", verdict=Verdict.AC, cpu_seconds=0.01, wall_seconds=0.02, peak_mib=3.0)


def _claimed(tmp_path: Path) -> tuple[Store, int, str]:
    store = Store(tmp_path)
    store.create()
    submission_id = store.add_submission(NewSubmission("kim", "sum", "python3", "a.py", b"print(3)\n"), 5)
    assert submission_id is not None
    (claimed,) = store.claim([submission_id], "mine")
    return store, submission_id, claimed.token


def test_the_phases_reach_the_database_in_order(tmp_path: Path) -> None:
    store, submission_id, token = _claimed(tmp_path)
    listener = pickle.loads(pickle.dumps(StoredProgress(store.path, submission_id, token)))  # as it travels
    seen = []
    for step in (lambda: listener.started(HEADER), lambda: listener.compiled(""), lambda: listener.judged(CASE)):
        step()
        row = store.submission(submission_id)
        assert row is not None
        seen.append(row.progress)
    assert seen == ["compiling", "test 1 of 2", "test 2 of 2"]


def test_another_claims_progress_is_not_written(tmp_path: Path) -> None:
    store, submission_id, _ = _claimed(tmp_path)
    StoredProgress(store.path, submission_id, "an older claim").started(HEADER)
    row = store.submission(submission_id)
    assert row is not None and row.progress == ""


def test_without_the_database_nothing_is_written_and_nothing_raises(tmp_path: Path) -> None:
    missing = tmp_path / "elsewhere" / "serve.sqlite"
    StoredProgress(missing, 1, "mine").started(HEADER)
    assert not missing.parent.exists()
