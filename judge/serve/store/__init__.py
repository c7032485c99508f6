"""The data folder's database (`--data DIR/serve.sqlite`): students, submissions, settings, announcements, and
the browsers' sessions. It is the one package of serve/ that speaks SQL (tests/test_import_graph.py).

Both processes of `judge serve` open it: the web server stores submissions, the judging process claims and
finishes them, and a local worker writes a submission's progress (`record_progress`). WAL mode lets pages read
while a result is written; `synchronous=FULL` on a new submission's commit makes it survive a power cut, so once
the server has answered 201 the submission is on disk.

Each thread keeps one connection and reuses it: opening one costs about half a millisecond of CPU (the file, the
WAL index, the schema parsed again), which was half of what a page or a poll cost the server, and under a full
judging load that CPU is what is short. Every statement still runs in its own transaction (autocommit, or one
BEGIN IMMEDIATE ... COMMIT), so a kept connection holds no lock and no snapshot between calls.

Files: `database.py` (the file, its connections, the schema version), then one module per kind of row, each a
mixin of `Database` with its tables' schema: `students.py`, `submissions.py` (and `record_progress`),
`settings.py` (settings and announcements), `sessions.py`, `extensions.py` (a course's extensions granted on the
teacher's page), `rejudges.py` (each rejudge's reason and the results it replaced), `clarifications.py`
(students' questions and the teacher's answers), `counterexamples.py` (students' requests for a failing input,
claimed like submissions). A new kind of row is a new module and one line in `Store` below.
"""

from __future__ import annotations

from judge.serve.store.clarifications import CLARIFICATIONS_SCHEMA, Clarification, ClarificationRows
from judge.serve.store.counterexamples import (
    COUNTEREXAMPLES_SCHEMA,
    Asked,
    ClaimedCounterexample,
    CounterexampleResult,
    CounterexampleRows,
    StoredCounterexample,
    claim_holds,
)
from judge.serve.store.database import DATABASE_NAME, SCHEMA_VERSION, Database
from judge.serve.store.extensions import EXTENSIONS_SCHEMA, ExtensionRows
from judge.serve.store.rejudges import REJUDGES_SCHEMA, Judged, Rejudge, RejudgedEntry, RejudgeRows, Requeued
from judge.serve.store.sessions import SESSIONS_PER_USER, SESSIONS_SCHEMA, SessionLifetimes, SessionRows, StoredSession
from judge.serve.store.settings import PROBLEMS_EPOCH, SETTINGS_SCHEMA, Announcement, SettingRows
from judge.serve.store.students import STUDENTS_SCHEMA, Student, StudentRows
from judge.serve.store.submissions import (
    SUBMISSIONS_SCHEMA,
    Claimed,
    Filters,
    NewSubmission,
    Status,
    StoredSubmission,
    SubmissionRows,
    record_progress,
)

__all__ = [
    "DATABASE_NAME",
    "PROBLEMS_EPOCH",
    "SCHEMA_VERSION",
    "SESSIONS_PER_USER",
    "Announcement",
    "Asked",
    "Claimed",
    "ClaimedCounterexample",
    "Clarification",
    "CounterexampleResult",
    "Database",
    "Filters",
    "Judged",
    "NewSubmission",
    "Rejudge",
    "RejudgedEntry",
    "Requeued",
    "SessionLifetimes",
    "Status",
    "Store",
    "StoredCounterexample",
    "StoredSession",
    "StoredSubmission",
    "Student",
    "claim_holds",
    "record_progress",
]


class Store(
    StudentRows,
    SubmissionRows,
    SettingRows,
    SessionRows,
    ExtensionRows,
    RejudgeRows,
    ClarificationRows,
    CounterexampleRows,
):
    """The whole database: every kind of row, over one connection per thread."""

    SCHEMAS = (
        STUDENTS_SCHEMA,
        SUBMISSIONS_SCHEMA,
        SETTINGS_SCHEMA,
        SESSIONS_SCHEMA,
        EXTENSIONS_SCHEMA,
        REJUDGES_SCHEMA,
        CLARIFICATIONS_SCHEMA,
        COUNTEREXAMPLES_SCHEMA,
    )
