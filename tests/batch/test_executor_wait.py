"""`Executor.wait_finished`: a result or a timeout, so `judge serve` can look at its queue while a slow submission
runs (issue 41). On the local pool: nothing finished is None, not a wait; a quick task finishes past a slow one
that holds the other worker; `next_finished` still blocks for the last."""

from __future__ import annotations

from pathlib import Path

from conftest import write_problem

from judge.batch.executors.local import LocalExecutor
from judge.batch.packing import ProblemPack
from judge.batch.tasks import SubmissionTask
from judge.languages.sources import SourceFiles
from judge.options import RunOptions
from judge.problems.folder import load_problem
from judge.verdicts import Verdict

WAIT_SECONDS = 0.05
QUICK = b"a, b = map(int, input().split())\nprint(a + b)\n"
ENDLESS = b"while True:\n    pass\n"


def _task(pack: ProblemPack, owner: str, source: bytes) -> SubmissionTask:
    return SubmissionTask(owner, f"{owner}.py", SourceFiles(f"{owner}.py", source), pack, RunOptions())


def test_a_quick_task_finishes_while_a_slow_one_holds_the_other_worker(tmp_path: Path) -> None:
    problem = write_problem(tmp_path / "add", {"1": ("1 2\n", "3\n")}, id="add", time_limit=2,
                            language_allowance=False)
    pack = ProblemPack.of(load_problem(problem))
    with LocalExecutor(jobs=2) as executor:
        assert executor.workers == 2
        assert executor.wait_finished(WAIT_SECONDS) is None  # nothing submitted: no wait for ever
        executor.submit(_task(pack, "slow", ENDLESS))
        executor.submit(_task(pack, "quick", QUICK))
        assert executor.wait_finished(0.0) is None  # the workers are still starting

        finished = None
        while finished is None:  # what serve's judging process does between looks at its queue
            finished = executor.wait_finished(WAIT_SECONDS)
        assert (finished.task.owner, finished.outcome.verdict) == ("quick", Verdict.AC)

        last = executor.next_finished()
        assert (last.task.owner, last.outcome.verdict) == ("slow", Verdict.TLE)
