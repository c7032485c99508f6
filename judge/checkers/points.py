"""A checker program's own score for one test, read from what it left behind.

Two protocols give one (judge/checkers/program.py):

* testlib: `quitp(points, message)` exits 7 and prints `points <value> <message>` on stderr (testlib.h writes
  the word `points`, then the value with trailing zeros removed, then the message). testlib lets the value be
  anything from 0 to 1e6 and never relates it to a maximum: it is an absolute number of points, as Polygon
  uses it, so it becomes the test's score as it is.
* problem package: an accepting validator may write `score.txt` in its feedback folder, one non-negative
  number (at most MAX_SCORE, testlib's bound), the test's score instead of accept_score (legacy spec, "Grading";
  2023-07/2025-09, "Scoring test cases").

Either one, malformed, is the checker's failure (JudgeFailure, so the test is JE with one line), never the
student's: the student cannot write these files.
"""

from __future__ import annotations

import os
from pathlib import Path

from judge.errors import JudgeFailure
from judge.problems.scoring import MAX_SCORE, checked_score

SCORE_FILE_BYTES = 200
"""More than any number needs: a larger score.txt is not one number."""


def parse_score(text: str) -> float | None:
    """`text` as a score (a finite number from 0 to MAX_SCORE, so sums of scores stay finite), or None."""
    try:
        return checked_score(float(text))
    except ValueError:
        return None


def split_points(stderr: str, label: str) -> tuple[float, str]:
    """The points and the rest of a testlib checker's message after exit 7: `points 0.5 message` (testlib's
    own form), or `0.5 message` from a checker that prints the value first itself."""
    words = stderr.split()
    if words and words[0] == "points":
        words = words[1:]
    points = parse_score(words[0]) if words else None
    if points is None:
        said = " ".join(stderr.split())[:80] or "nothing"
        raise JudgeFailure(f"{label}: exit 7 (partial points) needs 'points <value>' first on stderr, got: {said}")
    return points, " ".join(words[1:])


def read_score_file(path: Path, label: str) -> float | None:
    """The score in a validator's `score.txt` at `path`; None when it wrote none."""
    if not os.path.lexists(path):
        return None
    if path.is_symlink() or not path.is_file():
        raise JudgeFailure(f"{label}: {path.name}: not a regular file")
    with open(path, "rb") as handle:
        data = handle.read(SCORE_FILE_BYTES + 1)
    text = data.decode("utf-8", errors="replace").strip()
    score = parse_score(text) if len(data) <= SCORE_FILE_BYTES else None
    if score is None:
        raise JudgeFailure(
            f"{label}: {path.name}: must hold one non-negative number, got {text[:40]!r} (at most {MAX_SCORE:.0f})"
        )
    return score
