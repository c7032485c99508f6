"""report.html: one self-contained page presenting a gradebook (it decides nothing).

No network and no external files: the CSS and the small script live in the template (report.html next to this
module), the plots are inline SVG drawn by plots.py. The template is rendered by the judge's one HTML engine
(reporters/html.py): every piece of text that came from a student or a problem passes `html_text` there (escaped,
controls shown as visible escapes, and a name that is not UTF-8 shown as `\\xNN`). This module only chooses what
the page shows; the markup is the template's. A test's message shows its first line in the table cell and any
further lines (an RE's stderr tail) in a <pre> below it, keeping their layout.

The page holds the student x problem verdict matrix (a missing submission says so; a cell whose student left
other files for that problem counts them), a <details> element per pair with judge stress's finding first, then
the hints and the per-test report (a click on a matrix cell opens it), the verdict and CPU-time plots, and the
unmatched files.
"""

from __future__ import annotations

from pathlib import Path, PurePosixPath

from msgspec import Struct

from judge import __version__
from judge.grading.gradebook import Gradebook, format_score
from judge.grading.results_db import StoredResult
from judge.reporters.gradebook.conditions import class_runs, weaker_pairs
from judge.reporters.gradebook.plots import TimePoint, cpu_strip, verdict_bars
from judge.reporters.html import environment
from judge.reporters.terminal_text import counted
from judge.stress import StressReport
from judge.verdicts import Verdict

TEMPLATE = "report.html"


class Cell(Struct, frozen=True):
    """A matrix cell of a pair that has a result: the result, its details' anchor, and the student's other files
    for the problem, which were not graded."""

    stored: StoredResult
    anchor: str
    others: tuple[str, ...]


class Row(Struct, frozen=True):
    """A student's row of the matrix: a cell per problem (None: nothing submitted) and the score."""

    student: str
    cells: tuple[Cell | None, ...]
    score: str


class Pair(Struct, frozen=True):
    """One pair's <details>: its result, and what judge stress found for it (None: not searched)."""

    anchor: str
    student: str
    problem_id: str
    stored: StoredResult
    stress: StressReport | str | None


def render(gradebook: Gradebook) -> str:
    anchors = {pair: f"pair-{index}" for index, pair in enumerate(_ordered_pairs(gradebook), start=1)}
    scoring = "partial credit (fraction of tests passed)" if gradebook.partial else "1 per accepted problem"
    counts = dict.fromkeys(Verdict, 0)
    for stored in gradebook.results.values():
        counts[stored.verdict] += 1
    pages = environment(Path(__file__).parent)
    pages.filters["text"] = lambda data: data.decode("utf-8", errors="surrogateescape")
    return pages.get_template(TEMPLATE).render(
        title=f"Grades: {counted(len(gradebook.students), 'student')} × {counted(len(gradebook.problems), 'problem')}",
        meta=f"generated {gradebook.generated_at} by judge {__version__}; layout {gradebook.layout}; "
        f"scoring: {scoring}",
        verdicts=list(Verdict),
        students=counted(len(gradebook.students), "student"),
        submissions=counted(len(gradebook.results), "submission"),
        counts=[(verdict, count) for verdict, count in counts.items() if count],
        gradebook=gradebook,
        rows=[_row(gradebook, student, anchors) for student in gradebook.students],
        class_runs=class_runs(gradebook),
        weaker={anchors[pair] for pair in weaker_pairs(gradebook)},
        verdict_plot=verdict_bars(
            [(problem.id, gradebook.verdict_counts(problem.id)) for problem in gradebook.problems]
        ),
        cpu_plot=cpu_strip(
            [(problem.id, problem.time_limit, _time_points(gradebook, problem.id)) for problem in gradebook.problems]
        ),
        pairs=[
            Pair(anchor, *pair, gradebook.results[pair], gradebook.stress.get(pair)) for pair, anchor in anchors.items()
        ],
    )


def _ordered_pairs(gradebook: Gradebook) -> list[tuple[str, str]]:
    """Pairs in matrix order (student, then problem), so anchors are stable from one run to the next."""
    return [
        (student, problem.id)
        for student in gradebook.students
        for problem in gradebook.problems
        if gradebook.result(student, problem.id) is not None
    ]


def _row(gradebook: Gradebook, student: str, anchors: dict[tuple[str, str], str]) -> Row:
    cells: list[Cell | None] = []
    for problem in gradebook.problems:
        stored = gradebook.result(student, problem.id)
        others = () if stored is None else _other_files(gradebook, stored.fingerprint.source_path)
        cells.append(None if stored is None else Cell(stored, anchors[(student, problem.id)], others))
    return Row(student, tuple(cells), format_score(gradebook.score(student)))


def _other_files(gradebook: Gradebook, graded: str) -> tuple[str, ...]:
    """The student's other files for the same problem, which were not graded (the unmatched list says why): the
    files whose path differs from the graded one's only in the extension, whichever the class folder's layout."""
    stem = PurePosixPath(graded).with_suffix("")
    return tuple(
        item.relative
        for item in gradebook.unmatched
        if item.relative != graded and PurePosixPath(item.relative).with_suffix("") == stem
    )


def _time_points(gradebook: Gradebook, problem_id: str) -> list[TimePoint]:
    """The slowest test's CPU time of every submission that ran tests (not CE, not an unjudged JE)."""
    points = []
    for (student, pid), result in gradebook.results.items():
        if pid == problem_id and result.result is not None and result.result.cases:
            report = result.result
            points.append(
                TimePoint(
                    student, report.slowest_cpu_seconds, result.verdict, report.language, report.limits.time_seconds
                )
            )
    return points
