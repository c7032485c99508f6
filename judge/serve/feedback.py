"""What a caller is shown of a submission, as the JSON the API returns and the pages' script draws.

Students get BOJ's policy (judge/judging/feedback.py: hidden tests show their verdict, time, memory and an RE's
cause, never a byte the program wrote; no server path in a JE), the teacher everything (`full`), the same content
`judge run --feedback boj|full` prints. Every field of a result, and the line of a submission that could not be
judged, goes through that policy. The shown result travels whole under "result", with the policy's name under
"feedback", so `judge submit` prints it with `judge run`'s own text view.
"""

from __future__ import annotations

from typing import Any

from judge.judging.feedback import STUDENT, TEACHER, shown, shown_error
from judge.serve.store import StoredSubmission


def policy(*, teacher: bool) -> str:
    """The feedback policy of a caller."""
    return TEACHER if teacher else STUDENT


def submission_summary(submission: StoredSubmission, *, teacher: bool) -> dict[str, Any]:
    """A list's entry: what the stored row says, without parsing the result (lists are polled)."""
    verdict = submission.verdict
    return {
        "id": submission.id,
        "student": submission.student,
        "problem": submission.problem_id,
        "language": submission.language,
        "file_name": submission.file_name,
        "submitted_at": submission.submitted_at,
        "status": submission.status,
        "progress": submission.progress,
        "verdict": verdict.short if verdict is not None else None,
        "verdict_name": verdict.boj_name if verdict is not None else None,
        "judged_at": submission.judged_at,
        "tests_passed": submission.tests_passed,
        "error": shown_error(submission.error, policy(teacher=teacher)),
    }


def submission_document(submission: StoredSubmission, *, teacher: bool) -> dict[str, Any]:
    """The API's view of one submission: the summary, and the feedback the caller may see."""
    result, reader = submission.result, policy(teacher=teacher)
    shown_result = shown(result, reader).result if result is not None else None
    return {
        **submission_summary(submission, teacher=teacher),
        "feedback": reader,
        "tests_total": len(shown_result.cases) if shown_result is not None else None,
        "score": shown_result.score_shown if shown_result is not None else "",
        "compile_message": shown_result.compile_message if shown_result is not None else "",
        "hints": list(shown_result.hints) if shown_result is not None else [],
        "tests": [
            {
                "name": case.name,
                "verdict": case.verdict.short,
                "cpu_seconds": case.cpu_seconds,
                "wall_seconds": case.wall_seconds,
                "peak_mib": case.peak_mib,
                "message": case.message,
                "diff": case.diff,
                "sample": case.is_sample,
            }
            for case in (shown_result.cases if shown_result is not None else ())
        ],
        "result": shown_result.to_dict() if shown_result is not None else None,
    }
