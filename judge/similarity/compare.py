"""Every pair of a problem's submissions, scored: the share of each file's fingerprinted tokens that the other
file also has, after the template's code is removed. A pair's score is the larger share, so a copy that added
code of its own is still caught through the file it was copied from."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from itertools import combinations

import numpy as np
from copydetect import compare_files
from msgspec import Struct

from judge.class_folder import ClassFolder, Submission, Unmatched
from judge.intake import natural_key
from judge.similarity import DEFAULT_THRESHOLD
from judge.similarity.fingerprints import Source, boilerplate_hashes, fingerprint

__all__ = ["DEFAULT_THRESHOLD", "PairScore", "Region", "SimilarityReport", "compare_class"]

Region = tuple[int, int]
"""A matching stretch of a file's text: [start, end) in characters."""


class PairScore(Struct, frozen=True):
    """Two students' files for one problem, how much of each the other has, and where."""

    problem_id: str
    student_a: str
    student_b: str
    file_a: str
    file_b: str
    text_a: str
    text_b: str
    share_a: float
    share_b: float
    regions_a: tuple[Region, ...]
    regions_b: tuple[Region, ...]

    @property
    def score(self) -> float:
        return max(self.share_a, self.share_b)


class SimilarityReport(Struct, frozen=True):
    """Every pair compared, highest score first; `flagged` are those at or above the threshold."""

    threshold: float
    pairs: tuple[PairScore, ...]
    templates: tuple[str, ...]
    unmatched: tuple[Unmatched, ...]

    @property
    def flagged(self) -> tuple[PairScore, ...]:
        return tuple(pair for pair in self.pairs if pair.score >= self.threshold)


def compare_class(class_folder: ClassFolder, templates: Sequence[Source], threshold: float) -> SimilarityReport:
    """Score every pair of students' submissions to the same problem."""
    boilerplate = boilerplate_hashes(templates)
    by_problem: dict[str, list[Submission]] = defaultdict(list)
    for submission in class_folder.submissions:
        by_problem[submission.problem_id].append(submission)
    pairs: list[PairScore] = []
    for problem_id in sorted(by_problem, key=natural_key):
        pairs += _problem_pairs(problem_id, by_problem[problem_id], boilerplate)
    pairs.sort(
        key=lambda pair: (
            -pair.score,
            natural_key(pair.problem_id),
            natural_key(pair.student_a),
            natural_key(pair.student_b),
        )
    )
    return SimilarityReport(
        threshold, tuple(pairs), tuple(template.name for template in templates), class_folder.unmatched
    )


def _problem_pairs(problem_id: str, submissions: list[Submission], boilerplate: np.ndarray) -> list[PairScore]:
    ordered = sorted(submissions, key=lambda submission: natural_key(submission.student))
    sources = [Source.of(submission.source.name, submission.source.text) for submission in ordered]
    prints = [fingerprint(source, boilerplate) for source in sources]
    pairs = []
    for a, b in combinations(range(len(ordered)), 2):
        _, (share_a, share_b), (slices_a, slices_b) = compare_files(prints[a], prints[b])
        pairs.append(
            PairScore(
                problem_id,
                ordered[a].student,
                ordered[b].student,
                ordered[a].relative,
                ordered[b].relative,
                sources[a].text,
                sources[b].text,
                round(float(share_a), 3),
                round(float(share_b), 3),
                _regions(slices_a),
                _regions(slices_b),
            )
        )
    return pairs


def _regions(slices: np.ndarray) -> tuple[Region, ...]:
    """copydetect's 2×N array of slice starts and ends as (start, end) pairs."""
    if slices.size == 0:
        return ()
    return tuple((int(start), int(end)) for start, end in zip(slices[0], slices[1], strict=True))
