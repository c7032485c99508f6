"""Inline SVG plots for report.html, drawn from plain numbers: no plotting library, no network, no script.

Every mark carries a <title>, so hovering it in a browser shows the exact figure behind it. Labels and student
names pass `html_text` (escaped, encodable as UTF-8).
"""

from __future__ import annotations

import math
import statistics
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from judge.inert import html_text
from judge.verdicts import Verdict

WIDTH = 720
LABEL_WIDTH = 110
ROW_HEIGHT = 30
FONT = 'font-family="system-ui, sans-serif" font-size="12"'


@dataclass(frozen=True)
class TimePoint:
    """One submission's CPU time on a problem: the slowest test's, as BOJ reports it."""

    student: str
    seconds: float
    verdict: Verdict
    language: str
    limit: float
    """The time limit this submission had: the problem's, with its language's allowance."""


def verdict_bars(rows: Sequence[tuple[str, Counter[Verdict]]]) -> str:
    """One stacked horizontal bar per problem: how many submissions got each verdict."""
    most = max((sum(counts.values()) for _, counts in rows), default=0) or 1
    plot_width = WIDTH - LABEL_WIDTH - 50
    height = ROW_HEIGHT * len(rows) + 40
    parts = [_open_svg(height, "Verdicts per problem")]
    for index, (label, counts) in enumerate(rows):
        top = index * ROW_HEIGHT + 6
        parts.append(_label(label, top + 13))
        x = float(LABEL_WIDTH)
        for verdict in Verdict:
            count = counts.get(verdict, 0)
            if not count:
                continue
            width = plot_width * count / most
            parts.append(
                f'<rect x="{x:.1f}" y="{top}" width="{width:.1f}" height="18" fill="{verdict.html_colour}">'
                f"<title>{html_text(label)}: {verdict.short} × {count}</title></rect>"
            )
            if width >= 22:
                parts.append(
                    f'<text x="{x + width / 2:.1f}" y="{top + 13}" fill="#fff" text-anchor="middle" '
                    f"{FONT}>{count}</text>"
                )
            x += width
        parts.append(f'<text x="{x + 6:.1f}" y="{top + 13}" fill="#555" {FONT}>{sum(counts.values())}</text>')
    present = [verdict for verdict in Verdict if any(counts.get(verdict) for _, counts in rows)]
    parts.append(_legend(present, ROW_HEIGHT * len(rows) + 22))
    parts.append("</svg>")
    return "".join(parts)


def cpu_strip(rows: Sequence[tuple[str, float, Sequence[TimePoint]]]) -> str:
    """One strip per problem: a dot per submission at its CPU time, the median, and a limit line per language
    present (a Python AC at 15 s must not look over the base 10 s line); the base limit when nobody ran."""
    largest = max(
        [limit for _, limit, points in rows for limit in _limits(limit, points).values()]
        + [point.seconds for _, _, points in rows for point in points]
    )
    ticks = _ticks(largest * 1.08)
    top_value = ticks[-1]
    plot_width = WIDTH - LABEL_WIDTH - 30
    axis_y = ROW_HEIGHT * len(rows) + 8
    height = axis_y + 62

    def x_of(seconds: float) -> float:
        return LABEL_WIDTH + plot_width * seconds / top_value

    parts = [_open_svg(height, "CPU time per problem")]
    for tick in ticks:
        parts.append(f'<line x1="{x_of(tick):.1f}" y1="4" x2="{x_of(tick):.1f}" y2="{axis_y}" stroke="#e4e4e4"/>')
        parts.append(
            f'<text x="{x_of(tick):.1f}" y="{axis_y + 14}" text-anchor="middle" fill="#555" {FONT}>{tick:g}</text>'
        )
    parts.append(
        f'<text x="{LABEL_WIDTH + plot_width / 2:.1f}" y="{axis_y + 30}" text-anchor="middle" '
        f'fill="#333" {FONT}>CPU seconds, slowest test</text>'
    )
    for index, (label, limit, points) in enumerate(rows):
        middle = index * ROW_HEIGHT + ROW_HEIGHT / 2 + 4
        parts.append(_label(label, middle + 4))
        for language, shown_limit in _limits(limit, points).items():
            parts.append(
                f'<line x1="{x_of(shown_limit):.1f}" y1="{middle - 12}" x2="{x_of(shown_limit):.1f}" '
                f'y2="{middle + 12}" stroke="#d64545" stroke-width="2" stroke-dasharray="4 3"><title>'
                f"{html_text(label)}: time limit {shown_limit:g} s {html_text(language)}</title></line>"
            )
        for order, point in enumerate(points):
            jitter = (order * 7919 % 17 - 8) * 1.1  # deterministic spread, so identical times stay visible
            parts.append(
                f'<circle cx="{x_of(point.seconds):.1f}" cy="{middle + jitter:.1f}" r="4" '
                f'fill="{point.verdict.html_colour}" fill-opacity="0.8"><title>{html_text(point.student)}: '
                f"{point.seconds:.3f} s ({point.verdict.short})</title></circle>"
            )
        if points:
            median = statistics.median(point.seconds for point in points)
            parts.append(
                f'<line x1="{x_of(median):.1f}" y1="{middle - 13}" x2="{x_of(median):.1f}" y2="{middle + 13}" '
                f'stroke="#111" stroke-width="2"><title>{html_text(label)}: median {median:.3f} s</title></line>'
            )
    present = [verdict for verdict in Verdict if any(p.verdict is verdict for _, _, points in rows for p in points)]
    parts.append(_legend(present, axis_y + 50))
    parts.append("</svg>")
    return "".join(parts)


def _limits(base: float, points: Sequence[TimePoint]) -> dict[str, float]:
    """The limit lines of one strip, by what their tooltip says: one per language among `points`."""
    if not points:
        return {"(before the language allowance)": base}
    return {f"for {point.language}": point.limit for point in sorted(points, key=lambda point: point.language)}


def _open_svg(height: int, title: str) -> str:
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" role="img" viewBox="0 0 {WIDTH} {height}" '
        f'width="{WIDTH}" height="{height}"><title>{html_text(title)}</title>'
    )


def _label(text: str, baseline: float) -> str:
    return (
        f'<text x="{LABEL_WIDTH - 8}" y="{baseline:.1f}" text-anchor="end" fill="#222" {FONT}>{html_text(text)}</text>'
    )


def _legend(verdicts: Sequence[Verdict], baseline: float) -> str:
    parts = []
    for index, verdict in enumerate(verdicts):
        x = LABEL_WIDTH + index * 62
        parts.append(f'<rect x="{x}" y="{baseline - 10}" width="12" height="12" fill="{verdict.html_colour}"/>')
        parts.append(f'<text x="{x + 16}" y="{baseline}" fill="#333" {FONT}>{verdict.short}</text>')
    return "".join(parts)


def _ticks(maximum: float, count: int = 5) -> list[float]:
    """Round axis ticks (steps of 1, 2 or 5 times a power of ten) from 0 to at least `maximum`."""
    raw = max(maximum, 1e-3) / count
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(factor * magnitude for factor in (1, 2, 5, 10) if factor * magnitude >= raw)
    return [round(index * step, 6) for index in range(math.ceil(max(maximum, 1e-3) / step) + 1)]
