"""`judge similarity`: which pairs of students handed in suspiciously similar code, problem by problem.

    fingerprints.py   a source's winnowing fingerprints on its tokens (copydetect), with template code removed
    compare.py        every pair of a problem's submissions scored and the matching regions found

It never runs a submission and never sends code anywhere: it reads the files and compares them on this machine.
"""

from judge.similarity.compare import PairScore, SimilarityReport, compare_class

__all__ = ["PairScore", "SimilarityReport", "compare_class"]
