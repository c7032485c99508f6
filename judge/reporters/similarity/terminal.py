"""The ranked table of flagged pairs for a person at a terminal. Names come from the class folder: made inert."""

from __future__ import annotations

from typing import TextIO

from judge.inert import for_terminal
from judge.similarity import SimilarityReport

HEADER = ("rank", "problem", "student A", "student B", "score", "A in B", "B in A")


def report(result: SimilarityReport, stream: TextIO) -> None:
    flagged = result.flagged
    raw: list[tuple[str, ...]] = [
        HEADER,
        *(
            (
                str(rank),
                pair.problem_id,
                pair.student_a,
                pair.student_b,
                f"{pair.score:.2f}",
                f"{pair.share_a:.0%}",
                f"{pair.share_b:.0%}",
            )
            for rank, pair in enumerate(flagged, 1)
        ),
    ]
    rows = [tuple(for_terminal(cell) for cell in row) for row in raw]
    widths = [max(len(row[column]) for row in rows) for column in range(len(HEADER))]
    for row in rows:
        stream.write("  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip() + "\n")
    template = f"; template removed: {', '.join(result.templates)}" if result.templates else ""
    stream.write(
        for_terminal(f"{len(flagged)} of {len(result.pairs)} pairs at or above {result.threshold:g}{template}\n")
    )
