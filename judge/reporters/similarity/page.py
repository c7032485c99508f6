"""similarity.html: one self-contained page (no network, no script) with the ranked flagged pairs and, for each,
the two files side by side with the matching regions marked.

The markup is the template similarity.html beside this module, rendered by the judge's one HTML engine
(reporters/html.py): every file's text and every name passes `html_text` there, one stretch at a time, so the
marks are the page's own and nothing from a student is markup. This module only cuts each file into stretches.
"""

from __future__ import annotations

from pathlib import Path

from msgspec import Struct

from judge import __version__
from judge.reporters.html import environment
from judge.similarity import PairScore, SimilarityReport
from judge.similarity.compare import Region

TEMPLATE = "similarity.html"


class Side(Struct, frozen=True):
    """One file of a flagged pair: its name, how much of it the other file has, and its text in stretches, each
    marked (found in the other) or not."""

    name: str
    share: float
    stretches: tuple[tuple[str, bool], ...]


def render(result: SimilarityReport) -> str:
    flagged = [(rank, pair, _sides(pair)) for rank, pair in enumerate(result.flagged, 1)]
    return (
        environment(Path(__file__).parent)
        .get_template(TEMPLATE)
        .render(result=result, flagged=flagged, version=__version__)
    )


def _sides(pair: PairScore) -> tuple[Side, Side]:
    return (
        Side(pair.file_a, pair.share_a, _stretches(pair.text_a, pair.regions_a)),
        Side(pair.file_b, pair.share_b, _stretches(pair.text_b, pair.regions_b)),
    )


def _stretches(text: str, regions: tuple[Region, ...]) -> tuple[tuple[str, bool], ...]:
    """`text` cut at the regions' ends: (stretch, whether it lies in a region), in order."""
    parts, at = [], 0
    for start, end in sorted(regions):
        start, end = max(start, at), min(end, len(text))
        if start >= end:
            continue
        parts += [(text[at:start], False), (text[start:end], True)]
        at = end
    parts.append((text[at:], False))
    return tuple(parts)
