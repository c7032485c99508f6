"""What a reference submission is expected to get: one verdict (our `submissions/<id>/<verdict>/` folders) or any
of several (a problem package's `rejected/`, `brute_force/`, or an `@EXPECTED_RESULTS@:` line)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from judge.verdicts import Verdict


@dataclass(frozen=True)
class Expectation:
    """`short` is how reports name it (`WA`, `rejected`); `verdicts` are the overall verdicts that meet it."""

    short: str
    verdicts: frozenset[Verdict]
    partial: bool = False
    """A scored problem's partially accepted submission: AC, with less than the full score."""

    @classmethod
    def of(cls, verdict: Verdict) -> Expectation:
        return cls(verdict.short, frozenset({verdict}))

    def met_by(self, verdict: Verdict, score: float | None = None, max_score: float | None = None) -> bool:
        if self.partial:
            return verdict in self.verdicts and score is not None and max_score is not None and score < max_score
        return verdict in self.verdicts

    @property
    def accepted(self) -> bool:
        """Only AC meets it: the submission must pass every test (and may set a derived time limit)."""
        return self.verdicts == {Verdict.AC} and not self.partial


@dataclass(frozen=True)
class Reference:
    """One reference submission and what it must get; `skipped` says why it cannot be judged here (a language
    judge does not have), in which case it is listed but never run."""

    path: Path
    expectation: Expectation
    skipped: str = ""
