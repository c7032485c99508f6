"""The limit policy: the limits a submission gets on a problem, from the problem's limits and its language's
allowance (BOJ's extra time and memory for slower languages), and the one line that says how they were derived.
Pure functions of the problem's spec and the language: the runner only enforces the `Limits` they give.
"""

from __future__ import annotations

from judge.languages.catalog import Allowance, Language
from judge.problems.model import ProblemSpec
from judge.runner.limits import Limits


def effective_limits(spec: ProblemSpec, language: Language) -> Limits:
    """The limits a submission in `language` gets on this problem (BOJ's allowance unless the problem disables it)."""
    time_allowance = language.time if spec.language_allowance else Allowance()
    memory_allowance = language.memory if spec.language_allowance else Allowance()
    time_seconds = round(time_allowance.apply(spec.time_limit), 3)
    return Limits(
        time_seconds=time_seconds,
        wall_seconds=round(2 * time_seconds + 1, 3),
        memory_mib=int(memory_allowance.apply(spec.memory_limit)),
        output_mib=spec.output_limit,
        max_processes=language.max_processes,
    )


def limits_note(spec: ProblemSpec, language: Language) -> str:
    """How the limits were derived, said once: `CPU 10 s × 3 + 2 s for Python 3, memory 256 MiB × 2 + 32 MiB`.
    Empty when the language gets the bare limits."""
    if not spec.language_allowance:
        return ""
    parts = [
        part
        for part in (
            _allowance_text("CPU", spec.time_limit, "s", language.time),
            _allowance_text("memory", spec.memory_limit, "MiB", language.memory),
        )
        if part
    ]
    return ", ".join([f"{parts[0]} for {language.display}", *parts[1:]]) if parts else ""


def _allowance_text(what: str, limit: float, unit: str, allowance: Allowance) -> str:
    if allowance == Allowance():
        return ""
    text = f"{what} {limit:g} {unit}"
    if allowance.factor != 1:
        text += f" × {allowance.factor:g}"
    if allowance.extra:
        text += f" + {allowance.extra:g} {unit}"
    return text
