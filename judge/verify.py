"""`judge verify`: regression-test the bundled problems against their reference submissions.

For each problem: its tests are validated (the validator accepts every .in, the checker accepts every .ans),
then every file in `submissions/<id>/<expected>/` is judged and its overall verdict compared with the folder
name. As in Kattis problemtools, an accepted submission whose slowest test uses more than half of its
(language-adjusted) time limit is a warning: the limit leaves too little margin.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from judge.batch.engine import run_batch
from judge.batch.executors import ExecutorChoice, Finished
from judge.batch.packing import ProblemPack, SourceFile
from judge.batch.problems import load_problems, refuse_duplicate_ids, require_id_is_folder_name
from judge.batch.progress import BatchProgress
from judge.batch.tasks import GradeTask, PairOutcome
from judge.checkers import Checker, open_checker
from judge.errors import JudgeFailure, SpecError
from judge.failures import JUDGE_FAILURES, reason
from judge.options import RunOptions
from judge.problem import Problem, TestCase, load_problem
from judge.problem_code import ProblemCodeBox, run_validator
from judge.results import SubmissionResult
from judge.sandbox import Sandbox, choose_sandbox, scratch_folder
from judge.verdicts import Verdict

MARGIN_WARNING = 0.5


@dataclass(frozen=True)
class TestDataCheck:
    """The validator's and the checker's opinion of one test case."""

    problem_id: str
    test: str
    ok: bool
    detail: str


@dataclass(frozen=True)
class SubmissionCheck:
    """One reference submission: what its folder expects and what it got (or why it was skipped, or why the judge
    failed on it before any test: then it got JE)."""

    problem_id: str
    path: Path
    expected: Verdict
    result: SubmissionResult | None = None
    skipped: str = ""
    failed: str = ""

    @property
    def got(self) -> Verdict | None:
        """The verdict it got; None when skipped."""
        return Verdict.JE if self.failed else self.result.verdict if self.result is not None else None

    @property
    def ok(self) -> bool:
        return self.skipped != "" or self.got is self.expected

    @property
    def slow_warning(self) -> str:
        """Set when an accepted submission leaves less than the safety margin under the time limit."""
        if self.result is None or self.expected is not Verdict.AC:
            return ""
        used = self.result.slowest_cpu_seconds / self.result.limits.time_seconds
        if used > MARGIN_WARNING:
            return f"slowest test uses {used:.0%} of the time limit (warn above {MARGIN_WARNING:.0%})"
        return ""


@dataclass
class VerifyReport:
    data_checks: list[TestDataCheck] = field(default_factory=list)
    submissions: list[SubmissionCheck] = field(default_factory=list)
    without_submissions: list[str] = field(default_factory=list)
    """Ids of the problems with no reference submission (a warning; verified nothing about their limits)."""
    submissions_dir: Path = Path("submissions")

    @property
    def judged_nothing(self) -> str:
        """Why the verification had no submission to judge, or "". Submissions skipped for a missing toolchain do
        not count as nothing: that policy (judge/failures.py) lets a CI box without a language pass."""
        if self.submissions:
            return ""
        return (f"no reference submissions under {self.submissions_dir}/ for "
                f"{', '.join(self.without_submissions)}; put them in {self.submissions_dir}/<id>/<verdict folder>/ "
                f"or give --submissions-dir")

    @property
    def ok(self) -> bool:
        return (all(check.ok for check in self.data_checks) and all(check.ok for check in self.submissions)
                and not self.judged_nothing)


def select_problems(problems_dir: Path, names: tuple[str, ...]) -> list[Problem]:
    """The problems to verify: the named ones (ids under problems_dir, or paths), else every problem the batch
    scanner finds there (natural order, hidden entries skipped, duplicate ids refused: batch/problems.py)."""
    if names:
        problems = [load_problem(Path(name) if Path(name).is_dir() else problems_dir / name) for name in names]
        for problem in problems:
            require_id_is_folder_name(problem)
        refuse_duplicate_ids(problems)
        return problems
    return list(load_problems(problems_dir).values())


def check_test_data(problem: Problem, sandbox: Sandbox) -> list[TestDataCheck]:
    """Run the validator on every input and the checker on every reference answer, both confined (problem code
    is not trusted: problem_code.py). The judge failing on a test (judge/failures.py) fails that test's check."""
    box = ProblemCodeBox.of(sandbox)
    validator = problem.root / problem.spec.validator if problem.spec.validator else None
    checks = []
    try:
        with scratch_folder("judge-data-") as scratch:
            with open_checker(problem, box, scratch) as checker:
                for test in problem.tests:
                    try:
                        checks.append(_check_test(problem.id, test, validator, box, checker, scratch))
                    except JUDGE_FAILURES as error:
                        checks.append(TestDataCheck(problem.id, test.name, False, reason(error)))
    except JUDGE_FAILURES as error:  # before any test: the scratch folder, or starting checker.py
        checks.append(TestDataCheck(problem.id, "*", False, reason(error)))
    return checks


def _check_test(problem_id: str, test: TestCase, validator: Path | None, box: ProblemCodeBox, checker: Checker,
                scratch: Path) -> TestDataCheck:
    details, ok = [], True
    if validator is not None:
        verdict = run_validator(box, validator, test.input_path, scratch)
        ok = verdict.legal
        details.append(verdict.message)
    answer = test.answer_path.read_bytes()
    try:
        checked = checker(input=test.input_path.read_bytes(), output=answer, answer=answer)
    except JudgeFailure as failure:
        ok = False
        details.append(f"checker failed on the .ans: {failure}")
    else:
        if checked.verdict is not Verdict.AC:
            ok = False
            details.append(f"checker rejects the .ans: {checked.message}")
    return TestDataCheck(problem_id, test.name, ok, "; ".join(detail for detail in details if detail))


def reference_submissions(problem: Problem, submissions_dir: Path) -> list[tuple[Path, Verdict]]:
    """Every file under submissions/<id>/<expected>/, with the verdict its folder names."""
    root = submissions_dir / problem.id
    found = []
    for folder in sorted(path for path in root.iterdir() if path.is_dir()) if root.is_dir() else []:
        try:
            expected = Verdict.from_folder(folder.name)
        except KeyError:
            names = ", ".join(verdict.folder for verdict in Verdict if verdict is not Verdict.JE)
            raise SpecError(f"{folder}: not a verdict folder; use one of {names}") from None
        found += [(path, expected) for path in sorted(folder.iterdir()) if path.is_file()]
    return found


def verify(
    problems: list[Problem],
    submissions_dir: Path,
    options: RunOptions,
    executor: ExecutorChoice,
    progress: Callable[[int], BatchProgress],
) -> VerifyReport:
    """Validate every problem's data here, then judge every reference submission on the batch engine (the same
    executors as `judge grade`: a spawn pool with crash isolation, or Dask). `progress(total)` makes the display.
    Ctrl-C or SIGTERM raises `Stopped` once the workers are stopped."""
    report = VerifyReport(submissions_dir=submissions_dir)
    for problem in problems:
        report.data_checks.extend(check_test_data(problem, choose_sandbox(options.sandbox)))
    tasks, expected = [], {}
    for problem in problems:
        pack = ProblemPack.of(problem)
        limit = options.source_limit_bytes(problem.spec.source_limit)
        found = reference_submissions(problem, submissions_dir)
        if not found:
            report.without_submissions.append(problem.id)
        for path, verdict in found:
            task = GradeTask(f"{verdict.folder}/{path.name}", str(path), SourceFile.read(path, limit), pack, options)
            tasks.append(task)
            expected[task.pair] = (problem.id, path, verdict)
    checks: dict[tuple[str, str], SubmissionCheck] = {}

    def finished(done: Finished) -> None:
        checks[done.task.pair] = _check(*expected[done.task.pair], done.outcome)

    run_batch(tasks, executor, progress(len(tasks)), finished)
    report.submissions = [checks[task.pair] for task in tasks]
    return report


def _check(problem_id: str, path: Path, expected: Verdict, outcome: PairOutcome) -> SubmissionCheck:
    """A missing toolchain follows verify's policy (judge/failures.py: skipped); the judge failing before any test
    is that submission's JE, with its reason."""
    if outcome.missing_toolchain:
        return SubmissionCheck(problem_id, path, expected, skipped=outcome.error)
    if outcome.result is None:
        return SubmissionCheck(problem_id, path, expected, failed=outcome.error)
    return SubmissionCheck(problem_id, path, expected, result=outcome.result)
