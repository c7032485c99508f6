"""Finished results: frozen records that reporters present and the gradebook stores.

`to_dict` / `from_dict` give the JSON shape used by `--json`, by `judge grade`'s database and by Dask workers.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
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

    @property
    def passed(self) -> int:
        return sum(case.verdict is Verdict.AC for case in self.cases)

    @property
    def slowest_cpu_seconds(self) -> float:
        return max((case.cpu_seconds for case in self.cases), default=0.0)

    def to_dict(self) -> dict[str, Any]:
        """Plain data for JSON. Built field by field: `asdict` deep-copies every value, and the grading process
        makes one of these per result it stores (it was the largest part of that process's own CPU time)."""
        data = {field.name: getattr(self, field.name) for field in fields(self)}
        data["limits"] = asdict(self.limits)
        data["verdict"] = self.verdict.short
        data["cases"] = [{**vars(case), "verdict": case.verdict.short} for case in self.cases]
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
