"""results.sqlite, the results database of a gradebook folder: one row per (student, problem), written as each
result arrives. (`judge serve` keeps its own database, judge/serve/store/; this one is what `judge grade` and
serve's export write.)

Only the grading process writes (workers return outcomes, they never touch the database), one transaction per
result, in WAL mode with synchronous=NORMAL: a committed row survives the judge being killed (SIGKILL, crash),
so an interrupted run loses at most the pairs that were in flight. The primary key is the pair and a write is an
upsert, so a task that an executor ran twice (a lost worker) still leaves exactly one row.

A row remembers what it depends on (`Fingerprint`); the next run judges a pair again only when it has no row,
when the source, the problem's judging files or the judge's version changed, or when it was JE (the judge
failed, which says nothing about the student, so it is worth retrying). A `--force` run first lists every pair it
will judge in `judge_again`, and each result it records takes its pair off the list, so a forced run that was
stopped is resumed by a plain run like any other: what it did not reach is judged, what it did is kept.
A row is recorded from what it needs: its pair, its fingerprint and the outcome (`record`), whoever judged it.

Names come from the class folder, and a name that is not UTF-8 reaches Python as a str with lone surrogates
(`\\udcff` for the byte 0xff), which sqlite3 cannot encode. Such text is stored as a BLOB of its UTF-8 encoding with
the surrogates kept (`surrogatepass`), which decodes back to the very same str, so a rerun finds the same pair.
Every other text stays TEXT, as before, so older databases read the same.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable
from datetime import UTC, datetime
from pathlib import Path
from typing import TypeAlias

from msgspec import Struct

from judge import __version__
from judge.batch.tasks import Pair, SubmissionOutcome, SubmissionTask
from judge.errors import JudgeError
from judge.judging.results import SubmissionResult
from judge.output_folder import FolderWords, write_failure, writing_into
from judge.verdicts import Verdict

Stored: TypeAlias = str | bytes
"""Text as a column holds it: TEXT when it is valid UTF-8, else a BLOB (see the module's docstring)."""

DATABASE_NAME = "results.sqlite"
GRADEBOOK_FOLDER = FolderWords("the gradebook folder", "run the same command again to resume")
"""How every writer of the --out folder (this database, the gradebook views, the lock) tells a full disk."""
SCHEMA_VERSION = 1
_SCHEMA = """
CREATE TABLE IF NOT EXISTS results (
    student        TEXT NOT NULL,     -- this and every text column: a BLOB when not valid UTF-8 (_stored)
    problem_id     TEXT NOT NULL,
    source_path    TEXT NOT NULL,     -- inside the class folder
    source_sha256  TEXT NOT NULL,
    problem_hash   TEXT NOT NULL,     -- ProblemPack.digest: problem.yaml, tests, checker
    judge_version  TEXT NOT NULL,
    verdict        TEXT NOT NULL,     -- Verdict.short
    tests_passed   INTEGER NOT NULL,
    tests_total    INTEGER NOT NULL,
    report_json    TEXT,              -- SubmissionResult.to_dict(); NULL when the pair could not be judged
    error          TEXT NOT NULL,     -- why the pair could not be judged (verdict JE), else empty
    worker         TEXT NOT NULL,     -- host:pid that judged it
    judged_at      TEXT NOT NULL,     -- ISO 8601, UTC, when the result reached the database
    PRIMARY KEY (student, problem_id)
)
"""
_JUDGE_AGAIN_SCHEMA = """
CREATE TABLE IF NOT EXISTS judge_again (  -- pairs a --force run has still to judge (see the module's docstring)
    student        TEXT NOT NULL,
    problem_id     TEXT NOT NULL,
    PRIMARY KEY (student, problem_id)
)
"""


class Fingerprint(Struct, frozen=True):
    """What a result depends on; a pair whose fingerprint changed is judged again."""

    source_path: str
    source_sha256: str
    problem_hash: str
    judge_version: str

    @classmethod
    def of(cls, task: SubmissionTask, judge_version: str = __version__) -> Fingerprint:
        """The task's: to compare with a stored row (this judge's version), or to record its outcome (the
        version that judged it, which a Dask worker reports)."""
        return cls(task.source_path, task.source.sha256, task.problem.digest, judge_version)


class StoredResult(Struct, frozen=True):
    """One row of the results table."""

    student: str
    problem_id: str
    fingerprint: Fingerprint
    verdict: Verdict
    tests_passed: int
    tests_total: int
    result: SubmissionResult | None
    error: str
    worker: str
    judged_at: str
    to_judge_again: bool = False
    """A --force run was asked to judge it and stopped before it did."""

    def is_current(self, fingerprint: Fingerprint) -> bool:
        """True when this row can be reused for a submission with `fingerprint`."""
        return self.fingerprint == fingerprint and self.verdict is not Verdict.JE and not self.to_judge_again


class ResultsDatabase:
    """The results database of one `--out` folder. Use as a context manager; not shared between processes."""

    def __init__(self, out_dir: Path) -> None:
        self.out_dir = out_dir
        self.path = out_dir / DATABASE_NAME
        with writing_into(out_dir, GRADEBOOK_FOLDER):
            out_dir.mkdir(parents=True, exist_ok=True)
            self._connection = sqlite3.connect(self.path)
            try:
                self._open()
            except BaseException:
                self._connection.close()
                raise

    def _open(self) -> None:
        """Check the schema version and create the table (a full disk here is told as such, not as a bad file)."""
        try:
            version = self._connection.execute("PRAGMA user_version").fetchone()[0]
            if version not in (0, SCHEMA_VERSION):
                raise JudgeError(
                    f"{self.path}: written by another version of judge (schema {version}); use another --out folder"
                )
            self._connection.execute("PRAGMA journal_mode=WAL")
            self._connection.execute("PRAGMA synchronous=NORMAL")
            self._connection.execute(_SCHEMA)
            self._connection.execute(_JUDGE_AGAIN_SCHEMA)
            self._connection.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
            self._connection.commit()
        except sqlite3.DatabaseError as error:
            if write_failure(error, self.out_dir, GRADEBOOK_FOLDER) is not None:
                raise
            raise JudgeError(f"{self.path}: not a results database ({error}); use another --out folder") from None

    def __enter__(self) -> ResultsDatabase:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self._connection.close()

    def results(self) -> dict[Pair, StoredResult]:
        """Every stored row, keyed by (student, problem id)."""
        # A read in WAL mode may have to create the shared-memory file.
        with writing_into(self.out_dir, GRADEBOOK_FOLDER):
            rows = self._connection.execute(
                "SELECT student, problem_id, source_path, source_sha256, problem_hash, judge_version, verdict,"
                " tests_passed, tests_total, report_json, error, worker, judged_at FROM results"
            ).fetchall()
            again = {
                (_text(student), _text(problem_id))
                for student, problem_id in self._connection.execute("SELECT student, problem_id FROM judge_again")
            }
        stored = {}
        for row in rows:
            (
                student,
                problem_id,
                source_path,
                source_sha256,
                problem_hash,
                judge_version,
                verdict,
                tests_passed,
                tests_total,
                report_json,
                error,
                worker,
                judged_at,
            ) = row
            student, problem_id = _text(student), _text(problem_id)
            stored[(student, problem_id)] = StoredResult(
                student=student,
                problem_id=problem_id,
                fingerprint=Fingerprint(_text(source_path), source_sha256, problem_hash, judge_version),
                verdict=Verdict.from_short(verdict),
                tests_passed=tests_passed,
                tests_total=tests_total,
                result=SubmissionResult.from_dict(json.loads(report_json)) if report_json is not None else None,
                error=_text(error),
                worker=_text(worker),
                judged_at=judged_at,
                to_judge_again=(student, problem_id) in again,
            )
        return stored

    def judge_again(self, pairs: Iterable[Pair]) -> None:
        """A --force run starts: `pairs` count as stale until each is recorded again (the list of an earlier forced
        run is replaced)."""
        with writing_into(self.out_dir, GRADEBOOK_FOLDER):
            self._connection.execute("DELETE FROM judge_again")
            self._connection.executemany(
                "INSERT OR IGNORE INTO judge_again VALUES (?, ?)",
                [(_stored(student), _stored(problem_id)) for student, problem_id in pairs],
            )
            self._connection.commit()

    def record(
        self, pair: Pair, fingerprint: Fingerprint, outcome: SubmissionOutcome, tests_total: int
    ) -> StoredResult:
        """Write (or replace) `pair`'s row, `outcome` on a problem of `tests_total` tests judged from what
        `fingerprint` names, and commit, so it survives whatever happens next; the row as `results` reads it back."""
        row = StoredResult(
            *pair,
            fingerprint,
            outcome.verdict,
            outcome.tests_passed,
            tests_total,
            outcome.result,
            outcome.error,
            outcome.worker,
            judged_at=datetime.now(UTC).isoformat(timespec="microseconds"),
        )
        with writing_into(self.out_dir, GRADEBOOK_FOLDER):  # a failed transaction is rolled back on close
            self._write(row)
        return row

    def _write(self, row: StoredResult) -> None:
        """The upsert of one pair's row, committed."""
        self._connection.execute(
            "INSERT INTO results VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
            " ON CONFLICT (student, problem_id) DO UPDATE SET"
            " source_path=excluded.source_path, source_sha256=excluded.source_sha256,"
            " problem_hash=excluded.problem_hash, judge_version=excluded.judge_version, verdict=excluded.verdict,"
            " tests_passed=excluded.tests_passed, tests_total=excluded.tests_total,"
            " report_json=excluded.report_json, error=excluded.error, worker=excluded.worker,"
            " judged_at=excluded.judged_at",
            (
                _stored(row.student),
                _stored(row.problem_id),
                _stored(row.fingerprint.source_path),
                row.fingerprint.source_sha256,
                row.fingerprint.problem_hash,
                row.fingerprint.judge_version,
                row.verdict.short,
                row.tests_passed,
                row.tests_total,
                json.dumps(row.result.to_dict()) if row.result is not None else None,  # ASCII: \udcff escapes
                _stored(row.error),
                _stored(row.worker),
                row.judged_at,
            ),
        )
        self._connection.execute(
            "DELETE FROM judge_again WHERE student = ? AND problem_id = ?",
            (_stored(row.student), _stored(row.problem_id)),
        )
        self._connection.commit()


def _stored(text: str) -> Stored:
    """`text` as a column holds it: itself when it is valid UTF-8, else a BLOB that `_text` turns back into it."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-8", "surrogatepass")
    return text


def _text(value: Stored) -> str:
    """The str that `_stored` stored."""
    return value.decode("utf-8", "surrogatepass") if isinstance(value, bytes) else value
