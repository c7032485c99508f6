"""What a reference submission is expected to get: one verdict (our `submissions/<id>/<verdict>/` folders) or any
of several (a problem package's `rejected/`, `brute_force/`, or an `@EXPECTED_RESULTS@:` line), or verdicts per
test case (a package's submissions.yaml with requirements for test groups)."""

from __future__ import annotations

import fnmatch
from collections.abc import Mapping
from pathlib import Path, PurePosixPath

from msgspec import Struct

from judge.verdicts import Verdict


def matches_path(pattern: str, path: PurePosixPath) -> bool:
    """Whether the glob `pattern` matches `path` or a folder above it, `*` staying within one name: how
    submissions.yaml matches submissions (under submissions/) and test cases (under data/, without `.in`)."""
    parts = PurePosixPath(pattern).parts
    return len(parts) <= len(path.parts) and all(
        fnmatch.fnmatchcase(name, part) for name, part in zip(path.parts, parts, strict=False)
    )


class CaseRequirement(Struct, frozen=True):
    """What the test cases any of `patterns` matches must get (submissions.yaml): each a `permitted` verdict, at
    least one a `required` one. A group's key with braces is one group (`secret/*{1,3}`: the tests of either
    pattern together); no patterns: every test (a requirement for the whole submission)."""

    patterns: tuple[str, ...]
    permitted: frozenset[Verdict]
    required: frozenset[Verdict]

    def unmet(self, verdicts: Mapping[str, Verdict]) -> str:
        """Why the verdicts of the tests (by name, as `secret/group1/3`) do not meet it, or ""."""
        where = " or ".join(self.patterns) or "every test"
        matched = {
            name: got
            for name, got in verdicts.items()
            if not self.patterns or any(matches_path(pattern, PurePosixPath(name)) for pattern in self.patterns)
        }
        if not matched:
            return f"{where}: matches no test that was judged"
        refused = next((name for name, got in matched.items() if got not in self.permitted), None)
        if refused is not None:
            return f"{where}: {refused} got {matched[refused].short}, which is not permitted"
        if not any(got in self.required for got in matched.values()):
            return f"{where}: no test got a required verdict ({_names(self.required)})"
        return ""


def _names(verdicts: frozenset[Verdict]) -> str:
    return ", ".join(sorted(verdict.short for verdict in verdicts))


class Expectation(Struct, frozen=True):
    """`short` is how reports name it (`WA`, `rejected`); `verdicts` are the overall verdicts that meet it."""

    short: str
    verdicts: frozenset[Verdict]
    partial: bool = False
    """A scored problem's partially accepted submission: AC, with less than the full score."""
    tests: tuple[CaseRequirement, ...] = ()
    """Requirements on the verdicts of single tests: when given, the submission is judged on every test and these
    decide, not the overall verdict."""

    def unmet_by_tests(self, verdicts: Mapping[str, Verdict]) -> str:
        """The first of `tests` that the verdicts of every test (by name) do not meet, or ""."""
        return next((reason for requirement in self.tests if (reason := requirement.unmet(verdicts))), "")

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


class Reference(Struct, frozen=True):
    """One reference submission and what it must get; `skipped` says why it cannot be judged here (a language
    judge does not have), in which case it is listed but never run."""

    path: Path
    expectation: Expectation
    skipped: str = ""
    listed: Path | None = None
    """Where the package lists it, when that is a link to another of its files (`path`, which judging reads):
    one file linked from several folders is a submission per folder, each with its folder's expectation."""

    @property
    def name(self) -> Path:
        """The path that tells this reference apart from the others: where it is listed."""
        return self.listed or self.path
