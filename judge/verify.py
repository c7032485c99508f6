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
from judge.errors import JudgeFailure, SpecError, SubmissionError, ToolchainMissing
from judge.input_validators import InputValidator
from judge.judging.failures import JUDGE_FAILURES, reason
from judge.judging.results import SubmissionResult
from judge.options import RunOptions
from judge.problem_code import ProblemCodeBox, run_validator
from judge.problems.expectations import Expectation, Reference
from judge.problems.load import load_problem_folder
from judge.problems.model import Problem, TestCase
from judge.problems.packages.timing import with_time_limit
from judge.runner.sandbox import Sandbox, choose_sandbox, scratch_folder
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
        score, most = (self.result.score, self.result.max_score) if self.result is not None else (None, None)
        return self.got is not None and self.expected.met_by(self.got, score, most)

    @property
    def slow_warning(self) -> str:
        """Set when an accepted submission leaves less than the safety margin under the time limit."""
        if self.result is None or not self.expected.accepted:
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
        not count as nothing: that policy (judge/judging/failures.py) lets a CI box without a language pass."""
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
        problems = [load_problem_folder(Path(name) if Path(name).is_dir() else problems_dir / name)
                    for name in names]
        for problem in problems:
            require_id_is_folder_name(problem)
        refuse_duplicate_ids(problems)
        return problems
    return list(load_problems(problems_dir).values())


def check_test_data(problem: Problem, sandbox: Sandbox) -> list[TestDataCheck]:
    """Run the validator on every input and the checker on every reference answer, both confined (problem code
    is not trusted: problem_code.py). The judge failing on a test (judge/judging/failures.py) fails that test's
    check."""
    box = ProblemCodeBox.of(sandbox)
    validator = problem.root / problem.spec.validator if problem.spec.validator else None
    checks = []
    try:
        with scratch_folder("judge-data-") as scratch:
            programs = _input_validators(problem, sandbox, scratch, checks)
            with open_checker(problem, box, scratch) as checker:
                for test in problem.tests:
                    try:
                        check = _check_test(problem.id, test, validator, box, checker, scratch, problem.interactive)
                        checks.append(_with_input_validators(check, test, programs))
                    except JUDGE_FAILURES as error:
                        checks.append(TestDataCheck(problem.id, test.name, False, reason(error)))
    except JUDGE_FAILURES as error:  # before any test: the scratch folder, or starting checker.py
        checks.append(TestDataCheck(problem.id, "*", False, reason(error)))
    return checks


def _input_validators(problem: Problem, sandbox: Sandbox, scratch: Path,
                      checks: list[TestDataCheck]) -> list[InputValidator]:
    """A package's input validators, compiled once; one in a language judge cannot run here is noted (a passing
    check naming what is missing), as a reference submission in such a language is skipped."""
    programs = []
    for index, path in enumerate(problem.input_validators):
        label = f"{path.parent.name}/{path.name}"
        try:
            programs.append(InputValidator.build(path, label, sandbox, scratch, index))
        except (SubmissionError, ToolchainMissing) as missing:
            checks.append(TestDataCheck(problem.id, label, True, f"skipped: {missing}"))
        except SpecError as error:
            checks.append(TestDataCheck(problem.id, label, False, str(error)))
    return programs


def _with_input_validators(check: TestDataCheck, test: TestCase, programs: list[InputValidator]) -> TestDataCheck:
    """`check` with every input validator's verdict on the test's input added."""
    verdicts = [program(test.input_path) for program in programs]
    failed = [verdict.message for verdict in verdicts if not verdict.legal]
    if not failed:
        return check
    detail = "; ".join([check.detail, *failed] if check.detail else failed)
    return TestDataCheck(check.problem_id, check.test, False, detail)


def _check_test(problem_id: str, test: TestCase, validator: Path | None, box: ProblemCodeBox, checker: Checker,
                scratch: Path, interactive: bool = False) -> TestDataCheck:
    details, ok = [], True
    if validator is not None:
        verdict = run_validator(box, validator, test.input_path, scratch)
        ok = verdict.legal
        details.append(verdict.message)
    if interactive:  # the validator talks with a submission; it has no output file to judge the .ans as
        return TestDataCheck(problem_id, test.name, ok, "; ".join(detail for detail in details if detail))
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


def reference_submissions(problem: Problem, submissions_dir: Path) -> list[Reference]:
    """The problem's own reference submissions (a package's), else every file under submissions/<id>/<expected>/,
    expected to get the verdict its folder names."""
    if problem.references is not None:
        return list(problem.references)
    root = submissions_dir / problem.id
    found = []
    for folder in sorted(path for path in root.iterdir() if path.is_dir()) if root.is_dir() else []:
        try:
            expected = Verdict.from_folder(folder.name)
        except KeyError:
            names = ", ".join(verdict.folder for verdict in Verdict if verdict is not Verdict.JE)
            raise SpecError(f"{folder}: not a verdict folder; use one of {names}") from None
        found += [Reference(path, Expectation.of(expected)) for path in sorted(folder.iterdir()) if path.is_file()]
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
    A problem package without a time limit first has its accepted submissions measured (timing.py), then
    everything is judged at the derived limit. Ctrl-C or SIGTERM raises `Stopped` once the workers are stopped."""
    report = VerifyReport(submissions_dir=submissions_dir)
    for problem in problems:
        report.data_checks.extend(check_test_data(problem, choose_sandbox(options.sandbox)))
    references = {problem.id: reference_submissions(problem, submissions_dir) for problem in problems}
    report.without_submissions = [problem.id for problem in problems if not references[problem.id]]
    measured = _judge_references([(problem, ref) for problem in problems if problem.time_limit_pending
                                  for ref in references[problem.id] if ref.expectation.accepted and not ref.skipped],
                                 options, executor, progress)
    problems = [_with_derived_limit(problem, measured, report) for problem in problems]
    judged = _judge_references([(problem, ref) for problem in problems for ref in references[problem.id]
                                if not ref.skipped], options, executor, progress)
    report.submissions = [
        judged.get((problem.id, ref.path))
        or SubmissionCheck(problem.id, ref.path, ref.expectation, skipped=ref.skipped)
        for problem in problems for ref in references[problem.id]
    ]
    return report


def _judge_references(pairs: list[tuple[Problem, Reference]], options: RunOptions, executor: ExecutorChoice,
                      progress: Callable[[int], BatchProgress]) -> dict[tuple[str, Path], SubmissionCheck]:
    """Judge each reference submission on its problem in one batch; on a problem package, a submission expected to
    be too slow is judged with the time limit × the package's `time_limit_to_tle`: it must fail with that margin."""
    tasks, expected = [], {}
    packs: dict[tuple[str, bool], ProblemPack] = {}
    for problem, ref in pairs:
        slow = ref.expectation.verdicts == {Verdict.TLE} and problem.time_rule is not None
        key = (problem.id, slow)
        if key not in packs:
            packs[key] = ProblemPack.of(_as_judged(problem, slow))
        limit = options.source_limit_bytes(problem.spec.source_limit)
        student = f"{ref.path.parent.name}/{ref.path.name}"
        task = GradeTask(student, str(ref.path), SourceFile.read(ref.path, limit), packs[key], options)
        tasks.append(task)
        expected[task.pair] = (problem.id, ref.path, ref.expectation)
    checks: dict[tuple[str, Path], SubmissionCheck] = {}
    if not tasks:
        return checks

    def finished(done: Finished) -> None:
        problem_id, path, expectation = expected[done.task.pair]
        checks[(problem_id, path)] = _check(problem_id, path, expectation, done.outcome)

    run_batch(tasks, executor, progress(len(tasks)), finished)
    return checks


def _with_derived_limit(problem: Problem, measured: dict[tuple[str, Path], SubmissionCheck],
                        report: VerifyReport) -> Problem:
    """`problem` with its time limit derived from its accepted submissions' slowest test, as problemtools does;
    without an accepted submission that passed, the data check says so and the measuring ceiling stays."""
    if problem.time_rule is None or not problem.time_limit_pending:
        return problem
    times = [check.result.slowest_cpu_seconds for (problem_id, _), check in measured.items()
             if problem_id == problem.id and check.result is not None and check.result.verdict is Verdict.AC]
    if not times:
        report.data_checks.append(TestDataCheck(problem.id, "time limit", False, "no accepted submission passed, so "
                                                "no time limit can be derived; give limits.time_limit"))
        return problem
    return with_time_limit(problem, problem.time_rule.limit_for(max(times)))


def _as_judged(problem: Problem, slow: bool) -> Problem:
    """The problem as a reference submission is judged on it: a pending time limit at its measuring ceiling, and
    for a submission expected to be too slow (`slow`), the limit × the package's time_limit_to_tle."""
    if problem.time_limit_pending:
        problem = with_time_limit(problem, problem.spec.time_limit)
    if slow and problem.time_rule is not None:
        problem = with_time_limit(problem, round(problem.spec.time_limit * problem.time_rule.time_limit_to_tle, 3))
    return problem


def _check(problem_id: str, path: Path, expected: Expectation, outcome: PairOutcome) -> SubmissionCheck:
    """A missing toolchain follows verify's policy (judge/judging/failures.py: skipped); the judge failing before any
    test is that submission's JE, with its reason."""
    if outcome.missing_toolchain:
        return SubmissionCheck(problem_id, path, expected, skipped=outcome.error)
    if outcome.result is None:
        return SubmissionCheck(problem_id, path, expected, failed=outcome.error)
    return SubmissionCheck(problem_id, path, expected, result=outcome.result)
