"""`judge similarity`: which pairs of students handed in suspiciously similar code, problem by problem.

    fingerprints.py   a source's winnowing fingerprints on its tokens (copydetect), with template code removed
    compare.py        every pair of a problem's submissions scored and the matching regions found

It never runs a submission and never sends code anywhere: it reads the files and compares them on this machine.
"""

from __future__ import annotations

from typing import Any

DEFAULT_THRESHOLD = 0.5
"""Flag a pair from this score up: the lowest caught copy of the synthetic class scores 0.65, the highest
independent pair 0.31 (tests/similarity/test_similarity.py)."""

__all__ = ["DEFAULT_THRESHOLD", "PairScore", "SimilarityReport", "compare_class"]


def __getattr__(name: str) -> Any:
    """The comparison is imported on first use: it loads copydetect, numpy and matplotlib, which no other command
    needs (and matplotlib writes its configuration folder into HOME)."""
    if name in __all__:
        from judge.similarity import compare

        return getattr(compare, name)
    raise AttributeError(name)
