"""The teacher's exports, from the server's store: the gradebook `judge grade` writes (grades.csv, grades.json,
report.html, canvas.csv and moodle.csv for an LMS, with its results.sqlite) and the similarity report `judge
similarity` writes.

The LMS files grade every judged submission by the course's late policy at the time the server stored it
(judge/grading/course_grading.py, as `judge grade` does with a file's modification time), with the roster's names,
e-mails, SIS ids and sections.

Each student's graded submission per problem is their latest accepted one, else their latest judged one (as a
teacher collecting files would take the last). They become the class folder and stored results that `judge grade`
would have made, so the very same writers render them: nothing is judged again.

The files are written into a new private folder inside the data folder (mkdtemp: 0700, a name nobody chose
beforehand), made 0600 there, and that folder is renamed to `export/` in one step: a download never sees half an
export, and nothing already at `export/` (a link planted to a folder of someone's choosing) is written through, a
rename moves the link itself. Cells whose judging is under way (a rejudge) are named to the teacher
(`pending_cells`), never left blank silently. A full data folder is one line in the teacher's words
(`EXPORT_WORDS`, whichever writer met it: judge.output_folder), and the partial export is removed.
"""

from __future__ import annotations

import errno
import os
import shutil
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path

from msgspec import Struct, field

from judge.batch.packing import ProblemPack
from judge.batch.tasks import Pair, SubmissionOutcome
from judge.class_folder import ClassFolder, Submission
from judge.course.grades import Attempt
from judge.course.model import Course
from judge.course.roster import Roster
from judge.grading.course_grading import as_course, graded_course
from judge.grading.gradebook import Gradebook, fraction
from judge.grading.results_db import DATABASE_NAME, Fingerprint, ResultsDatabase, StoredResult
from judge.languages.sources import SourceFiles
from judge.output_folder import FolderWords, writing_into
from judge.private_folder import claim_private_folder
from judge.problems.model import Problem
from judge.reporters.gradebook import GRADEBOOK_VIEWS, write_views
from judge.serve.store import Store, StoredSubmission
from judge.verdicts import Verdict

SIMILARITY_FILES = ("similarity.csv", "similarity.html")
EXPORT_FILES = (DATABASE_NAME, *(view.file_name for view in GRADEBOOK_VIEWS.values()), *SIMILARITY_FILES)
"""Every file an export writes: the only names the teacher's download route serves."""
EXPORT_WORDS = FolderWords("the data folder", "export again")


def graded_submissions(submissions: Sequence[StoredSubmission]) -> dict[Pair, StoredSubmission]:
    """Per (student, problem): the latest accepted submission, else the latest judged one."""
    chosen: dict[Pair, StoredSubmission] = {}
    for submission in sorted(submissions, key=lambda submission: submission.id):
        if submission.status != "done":
            continue
        pair = (submission.student, submission.problem_id)
        if submission.verdict is Verdict.AC or chosen.get(pair) is None or chosen[pair].verdict is not Verdict.AC:
            chosen[pair] = submission
    return chosen


def pending_cells(submissions: Sequence[StoredSubmission], problems: Mapping[str, Problem]) -> list[Pair]:
    """The (student, problem) cells with a submission still queued or judging (a rejudge under way): their grade
    in an export made now is blank, or an older submission's."""
    return sorted(
        {(row.student, row.problem_id) for row in submissions if row.status != "done" and row.problem_id in problems}
    )


class ExportCourse(Struct, frozen=True):
    """What grades the export as a course: the course (its assignments and extensions; none: each problem its own,
    due never), where it was read from (None: nowhere), and the roster the server read at its start."""

    course: Course = field(default_factory=Course)
    source: str | None = None
    roster: Roster | None = None


def export(
    store: Store,
    problems: Mapping[str, Problem],
    students: Sequence[str],
    out_dir: Path,
    course: ExportCourse = ExportCourse(),
) -> list[Pair]:
    """Put a new `out_dir` in place holding every file of EXPORT_FILES, readable by the owner only, and return
    the cells whose judging was still under way (`pending_cells`); a full data folder (`out_dir`'s parent) raises
    `FolderUnwritable` in EXPORT_WORDS."""
    with writing_into(out_dir.parent, EXPORT_WORDS):
        staging = Path(tempfile.mkdtemp(prefix=".export-", dir=out_dir.parent))
        try:
            submissions = store.submissions()
            _write_export(store, problems, students, staging, submissions, course)
            claim_private_folder(staging, "export again")  # the writers' files are 0644 under umask 022: 0600 now
            _put_in_place(staging, out_dir)
        finally:
            shutil.rmtree(staging, ignore_errors=True)  # gone already once in place
    return pending_cells(submissions, problems)


def _write_export(
    store: Store,
    problems: Mapping[str, Problem],
    students: Sequence[str],
    out_dir: Path,
    rows: Sequence[StoredSubmission],
    course: ExportCourse,
) -> None:
    """Write every file of EXPORT_FILES into the new folder `out_dir`, from the store's `rows` (read once)."""
    from judge.reporters.similarity import write_files  # copydetect and numpy: only when exporting
    from judge.similarity import DEFAULT_THRESHOLD, compare_class

    chosen = graded_submissions(rows)
    submissions = []
    for (student, problem_id), row in chosen.items():
        if problem_id not in problems:  # a problem removed from PROBLEMS since: not in the gradebook either
            continue
        relative = f"{student}/{problem_id}/{row.id}-{row.file_name}"
        submissions.append(
            Submission(
                student,
                problem_id,
                Path(relative),
                relative,
                SourceFiles(row.file_name, store.source(row.id)),
                modified_ns=int(row.submitted_at * 1e9),
            )
        )
    class_folder = ClassFolder("by-student", tuple(students), tuple(submissions), ())
    digests = {problem_id: ProblemPack.of(problem).digest for problem_id, problem in problems.items()}
    stored: dict[Pair, StoredResult] = {}
    with ResultsDatabase(out_dir) as results:
        for submission in class_folder.submissions:
            pair = (submission.student, submission.problem_id)
            row = chosen[pair]
            outcome = SubmissionOutcome(
                verdict=row.verdict or Verdict.JE,
                tests_passed=row.tests_passed or 0,
                result=row.result,
                error=row.error,
                worker=row.worker,
            )
            fingerprint = Fingerprint(
                submission.relative, submission.source.sha256, digests[submission.problem_id], outcome.judge_version
            )
            tests = len(problems[submission.problem_id].tests)
            stored[pair] = results.record(pair, fingerprint, outcome, tests)
    gradebook = Gradebook.build(problems, class_folder, stored, partial=False)
    graded = graded_course(course.course, problems, course.source)
    write_views(as_course(gradebook, graded, _attempts(rows, problems), course.roster, course.source), out_dir)
    write_files(compare_class(class_folder, (), DEFAULT_THRESHOLD), out_dir)


def _attempts(rows: Sequence[StoredSubmission], problems: Mapping[str, Problem]) -> list[Attempt]:
    """Every judged submission, at the time it was stored: the late policy may credit an earlier one more than
    the latest accepted one the gradebook shows."""
    return [
        Attempt(
            row.student,
            row.problem_id,
            row.submitted_at,
            fraction(
                row.verdict or Verdict.JE,
                row.result,
                row.tests_passed or 0,
                len(problems[row.problem_id].tests),
                partial=False,
            ),
        )
        for row in rows
        if row.status == "done" and row.problem_id in problems
    ]


def _put_in_place(staging: Path, out_dir: Path) -> None:
    """Rename `staging` to `out_dir`, moving aside and removing what was there (a folder, or a link, which is
    removed as itself and never followed). When another export took the place meanwhile, that one stays."""
    retired = staging.with_name(f"{staging.name}.old")
    try:
        os.rename(out_dir, retired)
    except FileNotFoundError:
        pass
    try:
        os.rename(staging, out_dir)
    except OSError as error:
        if error.errno not in (errno.ENOTEMPTY, errno.EEXIST):
            raise
    if retired.is_symlink() or retired.is_file():
        retired.unlink()
    else:
        shutil.rmtree(retired, ignore_errors=True)
