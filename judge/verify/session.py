"""One `judge verify` run: the problems chosen, their test data checked here, then their reference submissions
judged on the batch engine, into one `VerifyReport`."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from judge.batch.executors import ExecutorChoice
from judge.batch.status_bar import StatusBar
from judge.options import RunOptions
from judge.problems.load import load_problem_folder
from judge.problems.model import Problem
from judge.problems.references import reference_submissions
from judge.problems.scan import load_problems, refuse_duplicate_ids, require_id_is_folder_name
from judge.programs.runs import ProblemPrograms
from judge.verify.data_checks import check_test_data
from judge.verify.report import SubmissionCheck, VerifyReport
from judge.verify.submissions import judge_references, with_derived_limit


def select_problems(problems_dir: Path, names: tuple[str, ...]) -> list[Problem]:
    """The problems to verify: the named ones (ids under problems_dir, or paths), else every problem the
    scanner finds there (natural order, hidden entries skipped, duplicate ids refused: problems/scan.py)."""
    if names:
        problems = [load_problem_folder(Path(name) if Path(name).is_dir() else problems_dir / name) for name in names]
        for problem in problems:
            require_id_is_folder_name(problem)
        refuse_duplicate_ids(problems)
        return problems
    return list(load_problems(problems_dir).values())


def verify(
    problems: list[Problem],
    submissions_dir: Path,
    options: RunOptions,
    executor: ExecutorChoice,
    progress: Callable[[int], StatusBar],
) -> VerifyReport:
    """Validate every problem's data here, then judge every reference submission on the batch engine (the same
    executors as `judge grade`: a spawn pool with crash isolation, or Dask). `progress(total)` makes the display.
    A problem package without a time limit first has its accepted submissions measured (timing.py), then
    everything is judged at the derived limit. Ctrl-C or SIGTERM raises `Stopped` once the workers are stopped."""
    report = VerifyReport(submissions_dir=submissions_dir)
    programs = ProblemPrograms.chosen(options)
    for problem in problems:
        report.data_checks.extend(check_test_data(problem, programs))
    references = {problem.id: reference_submissions(problem, submissions_dir) for problem in problems}
    report.without_submissions = [problem.id for problem in problems if not references[problem.id]]
    measured = judge_references(
        [
            (problem, ref)
            for problem in problems
            if problem.time_limit_pending
            for ref in references[problem.id]
            if ref.expectation.accepted and not ref.skipped
        ],
        options,
        executor,
        progress,
    )
    problems = [with_derived_limit(problem, measured, report) for problem in problems]
    judged = judge_references(
        [(problem, ref) for problem in problems for ref in references[problem.id] if not ref.skipped],
        options,
        executor,
        progress,
    )
    report.submissions = [
        judged.get((problem.id, ref.name))
        or SubmissionCheck(problem.id, ref.name, ref.expectation, skipped=ref.skipped)
        for problem in problems
        for ref in references[problem.id]
    ]
    return report
