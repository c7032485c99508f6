"""Inline SVG plots for report.html, drawn from plain numbers: no plotting library, no network, no script.

This module places the marks (where each bar, dot, line and label goes); the template plot.svg beside it writes
them, through the judge's one HTML engine (reporters/html.py), so labels and student names are made inert there.
Every mark carries a <title>, so hovering it in a browser shows the exact figure behind it.
"""

from __future__ import annotations

import math
import statistics
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from markupsafe import Markup
from msgspec import Struct

from judge.reporters.html import environment
from judge.verdicts import Verdict

TEMPLATE = "plot.svg"
WIDTH = 720
LABEL_WIDTH = 110
ROW_HEIGHT = 30
FONT = (("font-family", "system-ui, sans-serif"), ("font-size", "12"))


class TimePoint(Struct, frozen=True):
    """One submission's CPU time on a problem: the slowest test's, as BOJ reports it."""

    student: str
    seconds: float
    verdict: Verdict
    language: str
    limit: float
    """The time limit this submission had: the problem's, with its language's allowance."""


class Mark(Struct, frozen=True):
    """One SVG element: its tag, its attributes in order (coordinates already written as text), the text it
    shows and the tooltip it carries (its <title>)."""

    tag: str
    attributes: tuple[tuple[str, str], ...]
    text: str = ""
    title: str = ""


class Plot(Struct, frozen=True):
    """A whole plot: its size, the title a screen reader says, its marks in drawing order."""

    height: int
    title: str
    marks: tuple[Mark, ...]
    width: int = WIDTH


def verdict_bars(rows: Sequence[tuple[str, Counter[Verdict]]]) -> Markup:
    """One stacked horizontal bar per problem: how many submissions got each verdict."""
    most = max((sum(counts.values()) for _, counts in rows), default=0) or 1
    plot_width = WIDTH - LABEL_WIDTH - 50
    marks = []
    for index, (label, counts) in enumerate(rows):
        top = index * ROW_HEIGHT + 6
        marks.append(_label(label, top + 13))
        x = float(LABEL_WIDTH)
        for verdict in Verdict:
            count = counts.get(verdict, 0)
            if not count:
                continue
            width = plot_width * count / most
            bar = (("x", f"{x:.1f}"), ("y", f"{top}"), ("width", f"{width:.1f}"), ("height", "18"))
            title = f"{label}: {verdict.short} × {count}"
            marks.append(Mark("rect", (*bar, ("fill", verdict.html_colour)), title=title))
            if width >= 22:
                at = (("x", f"{x + width / 2:.1f}"), ("y", f"{top + 13}"))
                marks.append(Mark("text", (*at, ("fill", "#fff"), ("text-anchor", "middle"), *FONT), f"{count}"))
            x += width
        at = (("x", f"{x + 6:.1f}"), ("y", f"{top + 13}"))
        marks.append(Mark("text", (*at, ("fill", "#555"), *FONT), f"{sum(counts.values())}"))
    present = [verdict for verdict in Verdict if any(counts.get(verdict) for _, counts in rows)]
    marks += _legend(present, ROW_HEIGHT * len(rows) + 22)
    return draw(Plot(ROW_HEIGHT * len(rows) + 40, "Verdicts per problem", tuple(marks)))


def cpu_strip(rows: Sequence[tuple[str, float, Sequence[TimePoint]]]) -> Markup:
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

    def x_of(seconds: float) -> str:
        return f"{LABEL_WIDTH + plot_width * seconds / top_value:.1f}"

    def vertical(seconds: float, top: float, bottom: float, *stroke: tuple[str, str], title: str = "") -> Mark:
        line = (("x1", x_of(seconds)), ("y1", f"{top}"), ("x2", x_of(seconds)), ("y2", f"{bottom}"))
        return Mark("line", line + stroke, title=title)

    marks = []
    for tick in ticks:
        marks.append(vertical(tick, 4, axis_y, ("stroke", "#e4e4e4")))
        at = (("x", x_of(tick)), ("y", f"{axis_y + 14}"))
        marks.append(Mark("text", (*at, ("text-anchor", "middle"), ("fill", "#555"), *FONT), f"{tick:g}"))
    at = (("x", f"{LABEL_WIDTH + plot_width / 2:.1f}"), ("y", f"{axis_y + 30}"))
    marks.append(Mark("text", (*at, ("text-anchor", "middle"), ("fill", "#333"), *FONT), "CPU seconds, slowest test"))
    for index, (label, limit, points) in enumerate(rows):
        middle = index * ROW_HEIGHT + ROW_HEIGHT / 2 + 4
        marks.append(_label(label, middle + 4))
        for language, shown_limit in _limits(limit, points).items():
            dashed = (("stroke", "#d64545"), ("stroke-width", "2"), ("stroke-dasharray", "4 3"))
            title = f"{label}: time limit {shown_limit:g} s {language}"
            marks.append(vertical(shown_limit, middle - 12, middle + 12, *dashed, title=title))
        for order, point in enumerate(points):
            jitter = (order * 7919 % 17 - 8) * 1.1  # deterministic spread, so identical times stay visible
            dot = (("cx", x_of(point.seconds)), ("cy", f"{middle + jitter:.1f}"), ("r", "4"))
            colour = (("fill", point.verdict.html_colour), ("fill-opacity", "0.8"))
            title = f"{point.student}: {point.seconds:.3f} s ({point.verdict.short})"
            marks.append(Mark("circle", dot + colour, title=title))
        if points:
            median = statistics.median(point.seconds for point in points)
            solid = (("stroke", "#111"), ("stroke-width", "2"))
            title = f"{label}: median {median:.3f} s"
            marks.append(vertical(median, middle - 13, middle + 13, *solid, title=title))
    present = [verdict for verdict in Verdict if any(p.verdict is verdict for _, _, points in rows for p in points)]
    marks += _legend(present, axis_y + 50)
    return draw(Plot(axis_y + 62, "CPU time per problem", tuple(marks)))


def draw(plot: Plot) -> Markup:
    """The plot as inline SVG markup, ready to place in a page."""
    return Markup(environment(Path(__file__).parent).get_template(TEMPLATE).render(plot=plot))


def _limits(base: float, points: Sequence[TimePoint]) -> dict[str, float]:
    """The limit lines of one strip, by what their tooltip says: one per language among `points`."""
    if not points:
        return {"(before the language allowance)": base}
    return {f"for {point.language}": point.limit for point in sorted(points, key=lambda point: point.language)}


def _label(text: str, baseline: float) -> Mark:
    at = (("x", f"{LABEL_WIDTH - 8}"), ("y", f"{baseline:.1f}"))
    return Mark("text", (*at, ("text-anchor", "end"), ("fill", "#222"), *FONT), text)


def _legend(verdicts: Sequence[Verdict], baseline: int) -> list[Mark]:
    marks = []
    for index, verdict in enumerate(verdicts):
        x = LABEL_WIDTH + index * 62
        box = (("x", f"{x}"), ("y", f"{baseline - 10}"), ("width", "12"), ("height", "12"))
        marks.append(Mark("rect", (*box, ("fill", verdict.html_colour))))
        marks.append(Mark("text", (("x", f"{x + 16}"), ("y", f"{baseline}"), ("fill", "#333"), *FONT), verdict.short))
    return marks


def _ticks(maximum: float, count: int = 5) -> list[float]:
    """Round axis ticks (steps of 1, 2 or 5 times a power of ten) from 0 to at least `maximum`."""
    raw = max(maximum, 1e-3) / count
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(factor * magnitude for factor in (1, 2, 5, 10) if factor * magnitude >= raw)
    return [round(index * step, 6) for index in range(math.ceil(max(maximum, 1e-3) / step) + 1)]
