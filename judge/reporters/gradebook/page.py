"""report.html: one self-contained page presenting a gradebook (it decides nothing).

No network and no external files: the CSS and the small script live in the template (report.html next to this
module), the plots are inline SVG drawn by plots.py. Every piece of text that came from a student or a problem passes
`html_text`: HTML-escaped, controls shown as visible escapes, and a name that is not UTF-8 shown as `\\xNN`
(a lone surrogate would otherwise crash writing the page). A test's message shows its first line in the table
cell and any further lines (an RE's stderr tail) in a <pre> below it, keeping their layout.

The page holds the student x problem verdict matrix (a missing submission says so; a cell whose student left
other files for that problem counts them), a <details> element per pair with judge stress's finding first, then
the hints and the per-test report (a click on a matrix cell opens it), the verdict and CPU-time plots, and the
unmatched files.
"""

from __future__ import annotations

from importlib import resources
from pathlib import PurePosixPath
from string import Template

from judge import __version__
from judge.grading.gradebook import Gradebook, format_score
from judge.inert import html_text
from judge.judging.results import SubmissionResult
from judge.reporters.gradebook.plots import TimePoint, cpu_strip, verdict_bars
from judge.reporters.terminal_text import counted
from judge.stress import StressReport
from judge.verdicts import Verdict

TEMPLATE = "report.html"
SIMILARITY_LINK = (
    '<a href="similarity.html">similarity.html</a> (the pairs of students whose code is alike, '
    "written here by <code>judge similarity CLASS --out</code> this folder)"
)


def render(gradebook: Gradebook) -> str:
    template_file = resources.files("judge.reporters.gradebook").joinpath(TEMPLATE)
    template = Template(template_file.read_text(encoding="utf-8"))
    anchors = {pair: f"pair-{index}" for index, pair in enumerate(_ordered_pairs(gradebook), start=1)}
    scoring = "partial credit (fraction of tests passed)" if gradebook.partial else "1 per accepted problem"
    return template.substitute(
        title=html_text(
            f"Grades: {counted(len(gradebook.students), 'student')} × {counted(len(gradebook.problems), 'problem')}"
        ),
        meta=html_text(
            f"generated {gradebook.generated_at} by judge {__version__}; layout {gradebook.layout}; scoring: {scoring}"
        ),
        similarity_link=SIMILARITY_LINK,
        verdict_css="\n".join(f"  .v-{verdict.short} {{ background: {verdict.html_colour}; }}" for verdict in Verdict),
        totals=_totals(gradebook),
        matrix=_matrix(gradebook, anchors),
        verdict_plot=verdict_bars(
            [(problem.id, gradebook.verdict_counts(problem.id)) for problem in gradebook.problems]
        ),
        cpu_plot=cpu_strip(
            [(problem.id, problem.time_limit, _time_points(gradebook, problem.id)) for problem in gradebook.problems]
        ),
        details="\n".join(_details(gradebook, pair, anchor) for pair, anchor in anchors.items())
        or '<p class="muted">No submissions.</p>',
        unmatched=_unmatched(gradebook),
    )


def _ordered_pairs(gradebook: Gradebook) -> list[tuple[str, str]]:
    """Pairs in matrix order (student, then problem), so anchors are stable from one run to the next."""
    return [
        (student, problem.id)
        for student in gradebook.students
        for problem in gradebook.problems
        if gradebook.result(student, problem.id) is not None
    ]


def _totals(gradebook: Gradebook) -> str:
    counts = dict.fromkeys(Verdict, 0)
    for result in gradebook.results.values():
        counts[result.verdict] += 1
    chips = [
        f'<span class="chip plain">{counted(len(gradebook.students), "student")}</span>',
        f'<span class="chip plain">{counted(len(gradebook.results), "submission")}</span>',
    ]
    chips += [
        f'<span class="chip v-{verdict.short}" title="{html_text(verdict.boj_name)}">{verdict.short} {count}</span>'
        for verdict, count in counts.items()
        if count
    ]
    if gradebook.unmatched:
        chips.append(f'<span class="chip plain">{len(gradebook.unmatched)} unmatched</span>')
    return "".join(chips)


def _matrix(gradebook: Gradebook, anchors: dict[tuple[str, str], str]) -> str:
    head = "".join(
        f'<th title="{html_text(problem.title)}">{html_text(problem.id)}</th>' for problem in gradebook.problems
    )
    rows = [
        f'<thead><tr><th class="student">student</th>{head}<th>score / {gradebook.max_score}</th></tr></thead><tbody>'
    ]
    for student in gradebook.students:
        cells = []
        for problem in gradebook.problems:
            result = gradebook.result(student, problem.id)
            if result is None:
                cells.append('<td class="empty" title="nothing was submitted for this problem">missing</td>')
                continue
            short = result.verdict.short
            others = _other_files(gradebook, result.fingerprint.source_path)
            marker = (
                f'<small class="others" title="{html_text("not graded: " + ", ".join(others))}">'
                f"+{len(others)} file{'s' if len(others) > 1 else ''}</small>"
                if others
                else ""
            )
            cells.append(
                f'<td class="cell v-{short}" title="{html_text(result.verdict.boj_name)}">'
                f'<a href="#{anchors[(student, problem.id)]}">{short}</a>'
                f"<small>{result.tests_passed}/{result.tests_total}</small>{marker}</td>"
            )
        score = format_score(gradebook.score(student))
        rows.append(
            f'<tr><td class="student">{html_text(student)}</td>{"".join(cells)}<td class="score">{score}</td></tr>'
        )
    rows.append("</tbody>")
    return "".join(rows)


def _other_files(gradebook: Gradebook, graded: str) -> list[str]:
    """The student's other files for the same problem, which were not graded (the unmatched list says why): the
    files whose path differs from the graded one's only in the extension, whichever the class folder's layout."""
    stem = PurePosixPath(graded).with_suffix("")
    return [
        item.relative
        for item in gradebook.unmatched
        if item.relative != graded and PurePosixPath(item.relative).with_suffix("") == stem
    ]


def _time_points(gradebook: Gradebook, problem_id: str) -> list[TimePoint]:
    """The slowest test's CPU time of every submission that ran tests (not CE, not an unjudged JE)."""
    points = []
    for (student, pid), result in gradebook.results.items():
        if pid == problem_id and result.result is not None and result.result.cases:
            report = result.result
            points.append(
                TimePoint(
                    student, report.slowest_cpu_seconds, result.verdict, report.language, report.limits.time_seconds
                )
            )
    return points


def _details(gradebook: Gradebook, pair: tuple[str, str], anchor: str) -> str:
    student, problem_id = pair
    result = gradebook.results[pair]
    fingerprint = result.fingerprint
    short = result.verdict.short
    parts = [
        f'<details class="pair" id="{anchor}"><summary><span class="badge v-{short}">{short}</span> '
        f"<strong>{html_text(student)}</strong> · {html_text(problem_id)} · {html_text(fingerprint.source_path)} · "
        f"{result.tests_passed}/{result.tests_total} tests</summary>",
        f'<p class="muted">judged {html_text(result.judged_at)} on {html_text(result.worker)} by judge '
        f"{html_text(fingerprint.judge_version)}; source sha256 {fingerprint.source_sha256[:12]}…, problem "
        f"{fingerprint.problem_hash[:12]}…</p>",
    ]
    if result.error:
        parts.append(f"<p>The judge could not judge this submission:</p><pre>{html_text(result.error)}</pre>")
    if pair in gradebook.stress:  # first: the one input to look at, before the per-test rows and their diffs
        parts.append(_stress_body(gradebook.stress[pair]))
    if result.result is not None:
        parts.append(_report_body(result.result))
    parts.append("</details>")
    return "".join(parts)


def _report_body(report: SubmissionResult) -> str:
    limits = report.limits
    parts = [
        f'<p class="muted">{html_text(report.language)}; limits {limits.time_seconds:g} s CPU, '
        f"{limits.memory_mib} MiB; isolation {html_text(report.isolation)}</p>"
    ]
    parts += [f'<p class="hint-line">{html_text(hint)}</p>' for hint in report.hints]
    if report.compile_message:
        parts.append(f"<pre>{html_text(report.compile_message)}</pre>")
    if report.cases:
        rows = ["<tr><th>test</th><th>verdict</th><th>CPU s</th><th>wall s</th><th>MiB</th><th>message</th></tr>"]
        for case in report.cases:
            first, _, rest = case.message.partition("\n")
            message = html_text(first) + (f"<pre>{html_text(rest)}</pre>" if rest else "")
            message += f"<pre>{html_text(case.diff)}</pre>" if case.diff else ""
            rows.append(
                f'<tr><td>{html_text(case.name)}</td><td><span class="badge v-{case.verdict.short}">'
                f'{case.verdict.short}</span></td><td class="num">{case.cpu_seconds:.3f}</td>'
                f'<td class="num">{case.wall_seconds:.3f}</td><td class="num">{case.peak_mib:.1f}</td>'
                f"<td>{message}</td></tr>"
            )
        parts.append(f'<table class="tests">{"".join(rows)}</table>')
    return "".join(parts)


def _stress_body(found: StressReport | str) -> str:
    """What `judge grade --stress` found for a WA pair: the smallest failing input, expected and actual output."""
    if isinstance(found, str):
        return f'<p class="muted">judge stress found no input: {html_text(found)}</p>'
    failure = found.failure
    if failure is None:
        return (
            f'<p class="muted">judge stress found no failing input in {found.judged} generated inputs '
            f"({found.seconds} s).</p>"
        )
    show = lambda data: f"<pre>{html_text(data.decode('utf-8', errors='surrogateescape'))}</pre>"  # noqa: E731
    origin = (
        f"from test {found.from_test}, made smaller"
        if found.simplified
        else f"test {found.from_test}"
        if found.from_test
        else f"seed {found.seed}"
    )
    answer = "the test's answer" if found.from_test and not found.simplified else "the reference's output"
    return (
        f"<h4>Smallest failing input found by judge stress ({html_text(found.size)}, {html_text(origin)}): "
        f"{failure.verdict.short}</h4>{show(failure.input)}<p>expected ({answer}):</p>"
        f"{show(failure.expected)}<p>actual output:</p>{show(failure.actual)}<p>{html_text(failure.message)}</p>"
    )


def _unmatched(gradebook: Gradebook) -> str:
    if not gradebook.unmatched:
        return '<p class="muted">None: every file was matched to a student and a problem.</p>'
    items = "".join(
        f"<li><code>{html_text(item.relative)}</code>: {html_text(item.reason)}</li>" for item in gradebook.unmatched
    )
    return f'<ul class="unmatched">{items}</ul>'
