"""What `judge verify` found: a check per test and per reference submission, and the report of the whole run.
These are the records its views (judge/reporters/verify/) present; they hold results, no judging."""

from __future__ import annotations

from pathlib import Path

from msgspec import Struct, field

from judge.judging.results import SubmissionResult
from judge.problems.expectations import Expectation
from judge.problems.packages.rules import TimeRule
from judge.verdicts import Verdict

MARGIN_WARNING = 0.5


class TestDataCheck(Struct, frozen=True):
    """The validator's and the checker's opinion of one test case."""

    problem_id: str
    test: str
    ok: bool
    detail: str
    note: str = ""
    """Not a test but something the author should know, never a failure: NOTE (keys judge does not use) or WARNING
    (what the verification cannot have proved: every test is a sample)."""
    skipped: str = ""
    """Why this check could not be made here (an input validator judge cannot run); never a failure, never a pass."""


NOTE, WARNING = "note", "warning"


class SubmissionCheck(Struct, frozen=True):
    """One reference submission: what its folder expects and what it got (or why it was skipped, or why the judge
    failed on it before any test: then it got JE)."""

    problem_id: str
    path: Path
    expected: Expectation
    result: SubmissionResult | None = None
    skipped: str = ""
    failed: str = ""

    @property
    def got(self) -> Verdict | None:
        """The verdict it got; None when skipped."""
        return Verdict.JE if self.failed else self.result.verdict if self.result is not None else None

    @property
    def ok(self) -> bool:
        if self.skipped:
            return True
        if self.expected.tests and self.result is not None and self.result.cases:
            return not self.unmet
        score, most = (self.result.score, self.result.max_score) if self.result is not None else (None, None)
        return self.got is not None and self.expected.met_by(self.got, score, most)

    @property
    def unmet(self) -> str:
        """Which requirement on single tests (submissions.yaml's test groups) the verdicts missed, or ""."""
        if not self.expected.tests or self.result is None:
            return ""
        return self.expected.unmet_by_tests({case.name: case.verdict for case in self.result.cases})

    @property
    def mismatch(self) -> str:
        """What happened, when the submission did not get what it should (else ""): the judge's failure, the
        requirement on single tests it missed, the first line of the message of the test that decided, or the
        outcome in words when no message says it (a should-fail submission that every test accepted)."""
        if self.ok:
            return ""
        if self.failed or self.unmet:
            return self.failed or self.unmet
        result = self.result
        if result is None:
            return ""
        if result.verdict is Verdict.AC and self.expected.partial:
            return f"expected less than the full score, got {result.score_shown}"
        if result.verdict is Verdict.AC:  # an accepted test's message (a checker's "ok") would not say it
            return f"expected {self.expected.short}, every test was accepted"
        deciding = next((case for case in result.cases if case.verdict is result.verdict), None)
        message = (deciding.message if deciding is not None else result.compile_message).split("\n")[0]
        return message or f"expected {self.expected.short}, got {result.verdict.short}"

    @property
    def slow_warning(self) -> str:
        """Set when an accepted submission leaves less than the safety margin under the time limit."""
        if self.result is None or not self.expected.accepted:
            return ""
        used = self.result.slowest_cpu_seconds / self.result.limits.time_seconds
        if used > MARGIN_WARNING:
            return f"slowest test uses {used:.0%} of the time limit (warn above {MARGIN_WARNING:.0%})"
        return ""

    @property
    def score_warning(self) -> str:
        """Set when an accepted submission of a scored problem gets less than the full score, as problemtools warns:
        for a heuristic problem that may be meant, else it belongs in partially_accepted/."""
        result = self.result
        if result is None or not self.expected.accepted or result.verdict is not Verdict.AC:
            return ""
        if result.score is None or result.max_score is None or result.score >= result.max_score:
            return ""
        return f"did not attain full score ({result.score_shown}); if meant, move it to partially_accepted/"

    @property
    def warning(self) -> str:
        """Every warning about an accepted submission, in one line (empty without any)."""
        return "; ".join(warning for warning in (self.slow_warning, self.score_warning) if warning)


class DerivedLimit(Struct, frozen=True):
    """The time limit verify derived for a package that gives none, and how: `judge run` needs it written down, so
    every view shows it once per problem with the numbers that produced it."""

    problem_id: str
    seconds: float
    slowest_seconds: float
    """The slowest test's CPU time of the slowest accepted submission."""
    slowest: Path
    rule: TimeRule

    @property
    def text(self) -> str:
        """`time limit 1 s, derived from accepted/halve.py: 0.040 s × 4 (...) = ...; write it in .timelimit ...`."""
        return (
            f"time limit {self.seconds:g} s, derived from the slowest accepted submission "
            f"{'/'.join(self.slowest.parts[-2:])}: {self.rule.derivation(self.slowest_seconds)}; "
            f"write it in {self.rule.where_to_write} to judge with it"
        )


class VerifyReport(Struct):
    data_checks: list[TestDataCheck] = field(default_factory=list)
    submissions: list[SubmissionCheck] = field(default_factory=list)
    without_submissions: list[str] = field(default_factory=list)
    """Ids of the problems with no reference submission (a warning; verified nothing about their limits)."""
    submissions_dir: Path = Path("submissions")
    derived_limits: list[DerivedLimit] = field(default_factory=list)
    """One per package that gives no time limit and got one from its accepted submissions."""

    @property
    def judged_nothing(self) -> str:
        """Why the verification had no submission to judge, or "". Submissions skipped for a missing toolchain do
        not count as nothing: that policy (judge/judging/failures.py) lets a CI box without a language pass."""
        if self.submissions:
            return ""
        return (
            f"no reference submissions under {self.submissions_dir}/ for "
            f"{', '.join(self.without_submissions)}; put them in {self.submissions_dir}/<id>/<verdict folder>/ "
            f"or give --submissions-dir"
        )

    @property
    def ok(self) -> bool:
        return (
            all(check.ok for check in self.data_checks)
            and all(check.ok for check in self.submissions)
            and not self.judged_nothing
        )
