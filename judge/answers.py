"""`judge answers`: write each test's .ans from a reference solution's output, run as a submission runs.

The reference is `--reference FILE`, else the first file (natural order) in `submissions/<id>/accepted/` (a
package's own accepted submission). It runs
through the same engine, limits and sandbox as `judge run`, so an answer is what a correct program prints here.
Nothing is written unless the reference ends cleanly on every test, and an existing .ans that differs from the
reference's output is kept unless `force` says otherwise: the .ans may be the trusted one and the reference wrong.
"""

from __future__ import annotations

import os
from pathlib import Path

from msgspec import Struct

from judge.errors import SpecError, SubmissionError
from judge.intake import visible_entries
from judge.judging.open_judging import reference_runs
from judge.options import RunOptions
from judge.problems.model import Problem

WRITTEN, UNCHANGED, OVERWRITTEN = "written", "unchanged", "overwritten"


class AnswerFile(Struct, frozen=True):
    """What became of one test's .ans."""

    test: str
    path: Path
    status: str


def reference_for(problem: Problem, submissions_dir: Path, reference: Path | None) -> Path:
    """The reference solution: the one given, else the first accepted reference submission of the problem (a
    package's own, in its submissions/accepted/)."""
    if reference is not None:
        return reference
    if problem.references is not None:
        for ref in problem.references:
            if ref.expectation.accepted and not ref.skipped:
                return ref.path
        raise SubmissionError(
            f"{problem.root / 'submissions' / 'accepted'}: no accepted submission this machine "
            f"can run; put your solution there or give --reference FILE"
        )
    accepted = submissions_dir / problem.id / "accepted"
    files = [
        Path(entry.path) for entry in visible_entries(accepted, missing_ok=True) if entry.is_file(follow_symlinks=False)
    ]
    if not files:
        raise SubmissionError(
            f"{accepted}: no accepted reference submission; put your solution there or give --reference FILE"
        )
    return files[0]


def write_answers(problem: Problem, reference: Path, options: RunOptions, *, force: bool) -> list[AnswerFile]:
    """Run `reference` on every input and write the .ans files; raises before writing anything when the reference
    fails a test or (without `force`) when an existing .ans differs from its output."""
    runs = list(reference_runs(problem, reference, options))
    for run in runs:
        if run.failure is not None:
            reason = run.failure.message.split("\n")[0]
            raise SubmissionError(
                f"{reference}: {run.failure.verdict.short} on test {run.test.name} ({reason}); "
                "answers are written only from a reference that ends cleanly on every test"
            )
    planned = [
        AnswerFile(run.test.name, run.test.answer_path, _status(run.test.answer_path, run.output)) for run in runs
    ]
    differing = [answer for answer in planned if answer.status == OVERWRITTEN]
    if differing and not force:
        more = f" (and {len(differing) - 1} more)" if len(differing) > 1 else ""
        raise SpecError(
            f"{differing[0].path}: differs from what {reference} prints{more}; check which is right, "
            "then rerun with --force to overwrite"
        )
    for answer, run in zip(planned, runs, strict=True):
        if answer.status != UNCHANGED:
            _write_atomically(answer.path, run.output)
    return planned


def _status(path: Path, output: bytes) -> str:
    if not os.path.lexists(path):
        return WRITTEN
    return UNCHANGED if path.read_bytes() == output else OVERWRITTEN


def _write_atomically(path: Path, data: bytes) -> None:
    """Through a temporary file and a rename, so an interrupted run never leaves half an answer."""
    partial = path.with_name(f".{path.name}.partial")
    partial.write_bytes(data)
    os.replace(partial, path)
