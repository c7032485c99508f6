"""Finished results: frozen records that reporters present and the gradebook stores.

`to_dict` / `from_dict` give the JSON shape used by `--json`, by `judge grade`'s database and by Dask workers.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from judge.execute import Limits
from judge.verdicts import Verdict


@dataclass(frozen=True)
class CaseResult:
    """The outcome of one test case."""

    name: str
    verdict: Verdict
    cpu_seconds: float
    wall_seconds: float
    peak_mib: float
    message: str = ""
    is_sample: bool = False
    diff: str = ""


@dataclass(frozen=True)
class SubmissionResult:
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
    score: float | None = None
    max_score: float | None = None
    """A scored problem's score (judge/scoring.py) and the most it can be; None for pass-fail problems."""

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
        data = asdict(self)
        data["verdict"] = self.verdict.short
        data["cases"] = [{**asdict(case), "verdict": case.verdict.short} for case in self.cases]
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> SubmissionResult:
        cases = tuple(
            CaseResult(**{**case, "verdict": Verdict.from_short(case["verdict"])}) for case in data["cases"]
        )
        return cls(
            **{
                **data,
                "limits": Limits(**data["limits"]),
                "verdict": Verdict.from_short(data["verdict"]),
                "cases": cases,
            }
        )
