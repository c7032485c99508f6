"""What a caller is shown of a submission, as the JSON the API returns, the pages' script draws and `judge submit`
reads: one shape for each record, so a new field of a result goes in one place.

    status    what the stored row says, without parsing the result (lists are polled): id, student, problem,
              language (its key, and its name as people call it), file name, times, status, progress, verdict,
              and why it could not be judged (`error`)
    document  the status, the feedback policy's name, and under "result" the result as that policy shows it, in
              `SubmissionResult.to_dict()`'s own shape (None until judged, and when it could not be judged)

Students get BOJ's policy (judge/judging/feedback.py: hidden tests show their verdict, time, memory and an RE's
cause, never a byte the program wrote; no server path in a JE), the teacher everything (`full`), the same content
`judge run --feedback boj|full` prints. The result and the line of a submission that could not be judged both go
through that policy, here and nowhere else in serve/. A student's document also leaves out the result's provenance
(the server's name, its load and settings: the teacher's to read, not a student's); the teacher's page shows it.
"""

from __future__ import annotations

from typing import Any

from judge.judging.feedback import STUDENT, TEACHER, shown, shown_error
from judge.languages.catalog import LANGUAGES
from judge.serve.store import StoredSubmission


def language_name(key: str) -> str:
    """A language as people call it ("Python 3"), as pages show it, from its stored key; the key itself for one
    no longer known."""
    language = LANGUAGES.get(key)
    return language.display if language is not None else key


def policy(*, teacher: bool) -> str:
    """The feedback policy of a caller."""
    return TEACHER if teacher else STUDENT


def submission_status(submission: StoredSubmission, *, teacher: bool) -> dict[str, Any]:
    """A list's entry, and the head of a submission's document."""
    verdict = submission.verdict
    return {
        "id": submission.id,
        "student": submission.student,
        "problem": submission.problem_id,
        "language": submission.language,
        "language_name": language_name(submission.language),
        "file_name": submission.file_name,
        "submitted_at": submission.submitted_at,
        "judged_at": submission.judged_at,
        "status": submission.status,
        "progress": submission.progress,
        "verdict": verdict.short if verdict is not None else None,
        "verdict_name": verdict.boj_name if verdict is not None else None,
        "error": shown_error(submission.error, policy(teacher=teacher)),
    }


def submission_document(submission: StoredSubmission, *, teacher: bool) -> dict[str, Any]:
    """The API's view of one submission: its status, and its result as the caller's policy shows it."""
    result, reader = submission.result, policy(teacher=teacher)
    document = shown(result, reader).result.to_dict() if result is not None else None
    if document is not None and not teacher:
        document["provenance"] = {}
    return {**submission_status(submission, teacher=teacher), "feedback": reader, "result": document}
