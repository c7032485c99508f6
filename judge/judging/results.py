"""Finished results: frozen records that reporters present and the gradebook stores.

`to_dict` / `from_dict` give the JSON shape used by `--json`, by `judge grade`'s database and by Dask workers.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from msgspec import Struct, field
from msgspec.structs import asdict, fields

from judge.runner.limits import Limits
from judge.verdicts import Verdict


class CaseResult(Struct, frozen=True):
    """The outcome of one test case."""

    name: str
    verdict: Verdict
    cpu_seconds: float
    wall_seconds: float
    peak_mib: float
    message: str = ""
    is_sample: bool = False
    diff: str = ""
    score: float | None = None
    """The score its checker gave this test (partial points, `score.txt`); None: the group's accept/reject score."""
    cpu_runs: tuple[float, ...] = ()
    """Every run's CPU time, in order, when the test ran more than once to be measured again (judging/measuring.py);
    empty when it ran once."""
    near_limit_band: float | None = None
    """The band (a fraction of the limit) the deciding CPU time lay within, around the limit: a verdict that
    another run on a noisier machine might not give; None when far from the limit."""

    @property
    def timing_note(self) -> str:
        """How the CPU time was measured, when more than once or near the limit (empty otherwise): the views'
        one wording, e.g. `near the limit (±5 %); runs: 1.012, 1.020, 1.008 s`."""
        parts = [f"near the limit (±{self.near_limit_band:.0%})"] if self.near_limit_band is not None else []
        if self.cpu_runs:
            parts.append(f"runs: {', '.join(f'{seconds:.3f}' for seconds in self.cpu_runs)} s")
        return "; ".join(parts)


class SubmissionHeader(Struct, frozen=True):
    """What is known of a submission before its first test runs: enough for a view to print its header at once."""

    problem_id: str
    submission: str
    language: str
    limits: Limits
    isolation: str
    memory_enforcement: str
    limits_note: str
    tests: tuple[str, ...]
    provenance: dict[str, Any] = field(default_factory=dict)

    def result(
        self, verdict: Verdict, cases: Sequence[CaseResult] = (), compile_message: str = "", not_run: Sequence[str] = ()
    ) -> SubmissionResult:
        return SubmissionResult(
            problem_id=self.problem_id,
            submission=self.submission,
            language=self.language,
            limits=self.limits,
            isolation=self.isolation,
            memory_enforcement=self.memory_enforcement,
            limits_note=self.limits_note,
            verdict=verdict,
            cases=tuple(cases),
            compile_message=compile_message,
            provenance=self.provenance,
            not_run=tuple(not_run),
        )


class CaseListener(Protocol):
    """Told about a submission while it is judged, so a view can show each test as it finishes (`judge run`)."""

    def started(self, header: SubmissionHeader) -> None:
        """Before compiling: the limits and the tests that will run."""

    def compiled(self, warnings: str) -> None:
        """The program compiled (with the compiler's warnings, or "") or needed no compiling; the tests start."""

    def judged(self, case: CaseResult) -> None:
        """One test finished."""


def overall_verdict(cases: Sequence[CaseResult]) -> Verdict:
    """The first test that is not AC decides (AC when every test so far is)."""
    return next((case.verdict for case in cases if case.verdict is not Verdict.AC), Verdict.AC)


class SubmissionResult(Struct, frozen=True):
    """The outcome of one submission on one problem. `verdict` is the first non-AC test's verdict."""

    problem_id: str
    submission: str
    language: str
    limits: Limits
    isolation: str
    memory_enforcement: str
    verdict: Verdict
    cases: tuple[CaseResult, ...] = ()
    compile_message: str = ""
    limits_note: str = ""
    """How the limits were derived, e.g. `CPU 10 s × 3 + 2 s ... for Python 3` (empty without an allowance)."""
    hints: tuple[str, ...] = ()
    """Lines for the student about a well-known cause of the verdict (judge/judging/hints.py)."""
    score: float | None = None
    max_score: float | None = None
    """A scored problem's score (judge/problems/scoring.py) and the most it can be; None for pass-fail problems."""
    provenance: dict[str, Any] = field(default_factory=dict)
    """What its times were measured under (judging/provenance.py): containment, sandbox, the host's timing
    conditions at the start, the judge's and the toolchain's versions. Empty in a record from an older judge."""
    not_run: tuple[str, ...] = ()
    """The tests after a `fail_fast` stop, in order: never run (`cases` holds the ones judged). Empty when every
    test ran, for a CE, and on a scored problem, which never stops early."""

    def header(self) -> SubmissionHeader:
        """The header a live view would have printed before the first test."""
        return SubmissionHeader(
            problem_id=self.problem_id,
            submission=self.submission,
            language=self.language,
            limits=self.limits,
            isolation=self.isolation,
            memory_enforcement=self.memory_enforcement,
            limits_note=self.limits_note,
            tests=(*(case.name for case in self.cases), *self.not_run),
            provenance=self.provenance,
        )

    @property
    def passed(self) -> int:
        return sum(case.verdict is Verdict.AC for case in self.cases)

    @property
    def score_shown(self) -> str:
        """`50/100` for a scored problem's result, else empty."""
        if self.score is None:
            return ""
        return f"{self.score:g}/{self.max_score:g}" if self.max_score is not None else f"{self.score:g}"

    @property
    def slowest_cpu_seconds(self) -> float:
        return max((case.cpu_seconds for case in self.cases), default=0.0)

    def to_dict(self) -> dict[str, Any]:
        """Plain data for JSON. Built field by field: `asdict` deep-copies every value, and the grading process
        makes one of these per result it stores (it was the largest part of that process's own CPU time)."""
        data = {each.name: getattr(self, each.name) for each in fields(self)}
        data["limits"] = asdict(self.limits)
        data["verdict"] = self.verdict.short
        data["cases"] = [{**asdict(case), "verdict": case.verdict.short} for case in self.cases]
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> SubmissionResult:
        cases = tuple(
            CaseResult(
                **{**case, "verdict": Verdict.from_short(case["verdict"]), "cpu_runs": tuple(case.get("cpu_runs", ()))}
            )
            for case in data["cases"]
        )
        return cls(
            **{
                **data,
                "limits": Limits(**data["limits"]),
                "verdict": Verdict.from_short(data["verdict"]),
                "cases": cases,
                "hints": tuple(data.get("hints", ())),
                "not_run": tuple(data.get("not_run", ())),
            }
        )
