"""similarity.csv: every pair compared, highest score first, with whether it is flagged. Names and paths are
hostile text and pass `csv_cell`; the numbers stay numbers."""

from __future__ import annotations

import csv
import io

from judge.inert import csv_cell
from judge.similarity import SimilarityReport


def render(result: SimilarityReport) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["problem", "student_a", "file_a", "student_b", "file_b", "score", "share_a", "share_b", "flagged"])
    for pair in result.pairs:
        writer.writerow(
            [
                csv_cell(pair.problem_id),
                csv_cell(pair.student_a),
                csv_cell(pair.file_a),
                csv_cell(pair.student_b),
                csv_cell(pair.file_b),
                f"{pair.score:.3f}",
                f"{pair.share_a:.3f}",
                f"{pair.share_b:.3f}",
                int(pair.score >= result.threshold),
            ]
        )
    return buffer.getvalue()
