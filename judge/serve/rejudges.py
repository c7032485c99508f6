"""What a rejudge changed, for the teacher (a report on the teacher's page and as CSV) and for each student whose
result changed (a line on their submissions list and the submission's page, with the teacher's reason).

The old results are captured by the store in the rejudge's own transaction (store/rejudges.py); the new ones are
the submissions' rows once judged again. A cell still queued or judged is "pending", never "unchanged", so a
report read too early does not tell the teacher that nothing moved.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping

from msgspec import Struct

from judge.course.times import iso_time
from judge.inert import csv_cell
from judge.serve.store import Judged, Rejudge, RejudgedEntry, Store

MAX_REASON = 200
"""The reason's length: one line the students read."""
OUTCOMES = ("changed", "unchanged", "pending", "superseded")
CSV_COLUMNS = (
    "rejudge",
    "reason",
    "rejudged_at",
    "submission",
    "student",
    "name",
    "problem",
    "old_verdict",
    "old_tests_passed",
    "old_score",
    "new_verdict",
    "new_tests_passed",
    "new_score",
    "outcome",
)


class RejudgeReport(Struct, frozen=True):
    """One rejudge and its submissions, by student, problem and submission."""

    rejudge: Rejudge
    entries: tuple[RejudgedEntry, ...]

    def count(self, outcome: str) -> int:
        return sum(entry.outcome == outcome for entry in self.entries)

    @property
    def counts(self) -> dict[str, int]:
        """How many submissions had each outcome (the report's summary line), every outcome named."""
        return {outcome: self.count(outcome) for outcome in OUTCOMES}


def reason_given(text: str) -> str:
    """The teacher's reason as stored: one line, at most MAX_REASON characters; ValueError for none at all."""
    reason = " ".join(text.split())
    if not reason:
        raise ValueError("say why you rejudge (a short reason: the students whose result changes read it)")
    if len(reason) > MAX_REASON:
        raise ValueError(f"the reason is {len(reason)} characters; keep it under {MAX_REASON}")
    return reason


def report(store: Store, rejudge_id: int) -> RejudgeReport | None:
    """The report of rejudge `rejudge_id`; None when there is no such rejudge."""
    rejudge = next((each for each in store.rejudges() if each.id == rejudge_id), None)
    if rejudge is None:
        return None
    return RejudgeReport(rejudge, tuple(store.rejudged_entries(rejudge_id=rejudge_id)))


def latest_report(store: Store) -> RejudgeReport | None:
    rejudges = store.rejudges()
    return report(store, rejudges[0].id) if rejudges else None


def changes_seen_by(store: Store, student: str, submission_id: int | None = None) -> list[RejudgedEntry]:
    """The rejudges that changed this student's results (of one submission, if given), newest first: what the
    student is told. Unchanged and pending ones tell them nothing new, nor does a first verdict (the submission
    had none to change when it was rejudged)."""
    entries = store.rejudged_entries(student=student, submission_id=submission_id)
    return [entry for entry in entries if entry.outcome == "changed" and entry.old.verdict is not None]


def report_csv(report: RejudgeReport, names: Mapping[str, str]) -> str:
    """The report as CSV: text cells through inert.csv_cell (a reason or a name starting with `=` stays text),
    numbers as numbers; a pending submission's new cells are empty."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    rejudge = report.rejudge
    for entry in report.entries:
        writer.writerow(
            [
                rejudge.id,
                csv_cell(rejudge.reason),
                iso_time(rejudge.rejudged_at),
                entry.submission_id,
                csv_cell(entry.student),
                csv_cell(names.get(entry.student, "")),
                csv_cell(entry.problem_id),
                *_cells(entry.old),
                *_cells(entry.new),
                entry.outcome,
            ]
        )
    return out.getvalue()


def _cells(judged: Judged | None) -> list[object]:
    if judged is None or judged.verdict is None:
        return ["", "", ""]
    return [
        judged.verdict.short,
        "" if judged.tests_passed is None else judged.tests_passed,
        "" if judged.score is None else f"{judged.score:g}",
    ]
