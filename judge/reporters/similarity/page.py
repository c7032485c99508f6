"""similarity.html: one self-contained page (no network, no script) with the ranked flagged pairs and, for each,
the two files side by side with the matching regions marked. Every file's text and every name passes
`html_text`, one stretch at a time, so the marks are the page's own and nothing from a student is markup."""

from __future__ import annotations

from judge import __version__
from judge.inert import html_text
from judge.similarity import PairScore, SimilarityReport
from judge.similarity.compare import Region

STYLE = """
body { font: 14px/1.45 system-ui, sans-serif; margin: 0; color: #1d1d1f; background: #f6f7f9; }
header { background: #1f2a44; color: #fff; padding: 18px 28px; } header h1 { margin: 0 0 4px; font-size: 22px; }
main { padding: 8px 28px 40px; } section { background: #fff; border: 1px solid #e1e4e8; border-radius: 8px;
padding: 14px 18px; margin: 16px 0; } table.rank td, table.rank th { padding: 3px 12px 3px 0; text-align: left; }
.sides { display: flex; gap: 12px; } .side { flex: 1; min-width: 0; }
pre { background: #f6f8fa; padding: 8px; border-radius: 4px; overflow-x: auto; font-size: 12px; }
mark { background: #ffe08a; } .note { color: #555; }
"""

NOTE = (
    "A score is the larger of the two shares: how much of one file's code (on tokens, with names, comments "
    "and layout ignored, and the template removed) also appears in the other. It is evidence to look at, not "
    "proof: short programs for the same problem, a common textbook idiom or help from the same tutor can score "
    "high, and a copy rewritten by hand can score low. Read the marked regions before you talk to anyone."
)


def render(result: SimilarityReport) -> str:
    flagged = result.flagged
    rows = "".join(
        f'<tr><td>{rank}</td><td>{html_text(pair.problem_id)}</td><td><a href="#pair-{rank}">'
        f"{html_text(pair.student_a)} · {html_text(pair.student_b)}</a></td><td>{pair.score:.2f}</td>"
        f"<td>{pair.share_a:.0%}</td><td>{pair.share_b:.0%}</td></tr>"
        for rank, pair in enumerate(flagged, 1)
    )
    table = (
        f'<table class="rank"><tr><th>#</th><th>problem</th><th>students</th><th>score</th><th>A in B</th>'
        f"<th>B in A</th></tr>{rows}</table>"
        if flagged
        else "<p>No pair at or above the threshold.</p>"
    )
    templates = html_text(", ".join(result.templates)) if result.templates else "none"
    return (
        '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>Similarity: {len(flagged)} flagged pairs</title><style>{STYLE}</style></head><body>"
        f"<header><h1>Similarity: {len(flagged)} of {len(result.pairs)} pairs at or above "
        f"{result.threshold:g}</h1><p>judge {__version__}; template removed: {templates}</p></header><main>"
        f'<section><p class="note">{html_text(NOTE)}</p>{table}</section>'
        + "".join(_pair(rank, pair) for rank, pair in enumerate(flagged, 1))
        + "</main></body></html>\n"
    )


def _pair(rank: int, pair: PairScore) -> str:
    return (
        f'<section id="pair-{rank}"><h2>#{rank} · {html_text(pair.problem_id)} · score {pair.score:.2f}</h2>'
        '<div class="sides">'
        + _side(pair.file_a, pair.share_a, pair.text_a, pair.regions_a)
        + _side(pair.file_b, pair.share_b, pair.text_b, pair.regions_b)
        + "</div></section>"
    )


def _side(name: str, share: float, text: str, regions: tuple[Region, ...]) -> str:
    return (
        f'<div class="side"><h3>{html_text(name)} ({share:.0%} found in the other)</h3>'
        f"<pre>{_marked(text, regions)}</pre></div>"
    )


def _marked(text: str, regions: tuple[Region, ...]) -> str:
    """`text` with each region inside <mark>; each stretch escaped on its own."""
    parts, at = [], 0
    for start, end in sorted(regions):
        start, end = max(start, at), min(end, len(text))
        if start >= end:
            continue
        parts += [html_text(text[at:start]), "<mark>", html_text(text[start:end]), "</mark>"]
        at = end
    parts.append(html_text(text[at:]))
    return "".join(parts)
