"""The data folder's database: the fair queue, the pending cap, claims that make every result count once."""

from __future__ import annotations

from pathlib import Path

from judge.batch.tasks import SubmissionOutcome
from judge.serve.store import NewSubmission, Store
from judge.verdicts import Verdict


def _store(tmp_path: Path) -> Store:
    store = Store(tmp_path)
    store.create()
    return store


def _submit(store: Store, student: str, cap: int = 100) -> int | None:
    return store.add_submission(NewSubmission(student, "sum", "python3", "a.py", b"print(1)\n"), cap)


def test_everyones_first_submission_comes_before_anyones_second(tmp_path: Path) -> None:
    store = _store(tmp_path)
    greedy = [_submit(store, "greedy") for _ in range(10)]
    late_a, late_b = _submit(store, "a"), _submit(store, "b")

    order = store.queued_in_fair_order(4)

    assert order == [greedy[0], late_a, late_b, greedy[1]]


def test_a_student_being_judged_waits_behind_the_others_first(tmp_path: Path) -> None:
    store = _store(tmp_path)
    first = _submit(store, "greedy")
    second = _submit(store, "greedy")
    assert first is not None
    store.claim([first], "judging-1")
    other = _submit(store, "other")

    assert store.queued_in_fair_order(2) == [other, second]


def test_pending_submissions_are_capped_per_student(tmp_path: Path) -> None:
    store = _store(tmp_path)
    assert [_submit(store, "kim", cap=2) is not None for _ in range(3)] == [True, True, False]
    assert _submit(store, "lee", cap=2) is not None
    assert store.counts() == {"queued": 3}


def test_a_result_is_stored_only_under_the_claim_that_holds_it(tmp_path: Path) -> None:
    store = _store(tmp_path)
    submission = _submit(store, "kim")
    assert submission is not None
    outcome = SubmissionOutcome(verdict=Verdict.WA, tests_passed=0, result=None, error="", worker="w")
    (old,) = store.claim([submission], "old")
    assert old.submission.id == submission
    assert store.release_claims() == 1  # a new judging process started: the old one's claim is void
    (new,) = store.claim([submission], "new")

    assert store.finish(submission, old.token, outcome) is False
    assert store.finish(submission, new.token, outcome) is True
    assert store.finish(submission, new.token, outcome) is False  # done: a duplicate result changes nothing
    row = store.submission(submission)
    assert row is not None and row.status == "done" and row.verdict is Verdict.WA


def test_a_claimed_submission_cannot_be_claimed_twice(tmp_path: Path) -> None:
    store = _store(tmp_path)
    submission = _submit(store, "kim")
    assert submission is not None
    assert len(store.claim([submission], "one")) == 1
    assert store.claim([submission], "two") == []


def test_rejudging_queues_again_and_voids_a_result_in_flight(tmp_path: Path) -> None:
    store = _store(tmp_path)
    first, second = _submit(store, "kim"), _submit(store, "lee")
    assert first is not None and second is not None
    claimed = {each.submission.id: each.token for each in store.claim([first, second], "c")}
    outcome = SubmissionOutcome(verdict=Verdict.AC, tests_passed=2, result=None, error="", worker="w")
    store.finish(first, claimed[first], outcome)

    assert store.requeue(reason="r", problem_id="sum").count == 2
    assert store.finish(second, claimed[second], outcome) is False
    assert store.counts() == {"queued": 2}
    assert store.requeue(reason="r", submission_id=first).count == 1


def test_a_run_rejudged_while_judging_is_void_even_when_the_same_process_claims_it_again(tmp_path: Path) -> None:
    """Issue 39 item 10: with two workers, a rejudge's new run and the stale one are judged side by side by one
    judging process; only the latest claim's result may be stored, whichever run finishes first."""
    store = _store(tmp_path)
    submission = _submit(store, "kim")
    assert submission is not None
    (stale,) = store.claim([submission], "one-judging-process")
    assert store.requeue(reason="r", submission_id=submission).count == 1
    (latest,) = store.claim([submission], "one-judging-process")
    accepted = SubmissionOutcome(verdict=Verdict.AC, tests_passed=2, result=None, error="", worker="w")
    wrong = SubmissionOutcome(verdict=Verdict.WA, tests_passed=1, result=None, error="", worker="w")

    assert store.finish(submission, stale.token, accepted) is False
    assert store.finish(submission, latest.token, wrong) is True
    row = store.submission(submission)
    assert row is not None and row.verdict is Verdict.WA


def test_an_announcement_is_edited_and_removed_by_its_id(tmp_path: Path) -> None:
    store = Store(tmp_path)
    store.create()
    store.announce("first")
    store.announce("second")
    second, first = store.announcements()
    assert (first.text, second.text) == ("first", "second")
    assert store.edit_announcement(first.id, "first, corrected")
    assert [(each.id, each.posted_at, each.text) for each in store.announcements()] == [
        (second.id, second.posted_at, "second"), (first.id, first.posted_at, "first, corrected")]
    assert store.remove_announcement(second.id) and not store.remove_announcement(second.id)
    assert not store.edit_announcement(second.id, "gone")
    assert [each.text for each in store.announcements()] == ["first, corrected"]


def test_a_submission_keeps_the_moment_its_deadline_was_checked_at(tmp_path: Path) -> None:
    """serve checks the assignment's hard deadline at one moment and stores that moment: a submission accepted
    just before the deadline is never stamped just after it (and then left out of the grades)."""
    store = _store(tmp_path)
    checked_at = 1_700_000_000.25
    submission_id = store.add_submission(
        NewSubmission("kim", "sum", "python3", "a.py", b"print(1)\n", submitted_at=checked_at), 5
    )
    assert submission_id is not None
    stored = store.submission(submission_id)
    assert stored is not None and stored.submitted_at == checked_at
