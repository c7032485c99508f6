"""Run by tests/runner/test_concurrent_box_starts.py as one of several judges at once: judge BOXES submissions of
TESTS tests each, every submission in a warm box of its own started as a judging starts it (its launcher's home
group made first, then the box, then a run group shared by its tests), the program a correct one (/usr/bin/cat,
copied in as /program/main, printing its input back). Prints how the runs ended, as JSON: `ok`, `wrong`, and the
line of each JE (what the judging boundary, judge/judging/failures.py, turns into one).

    python box_starts.py BOXES TESTS
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

from judge.judging.failures import JUDGE_FAILURES, reason
from judge.runner import execute
from judge.runner.containment.choice import choose_containment
from judge.runner.execute import RunSpec, run_limits
from judge.runner.limits import Limits
from judge.runner.sandbox import BOX, PROGRAM, SANDBOX_ENV, Mounts, choose_sandbox, scratch_folder
from judge.runner.starter_choice import test_starter

LIMITS = Limits(time_seconds=10, wall_seconds=60, memory_mib=256, output_mib=8)
GIVEN = "1 2\n"


def judge_boxes(boxes: int, tests: int) -> dict:
    sandbox = choose_sandbox("bwrap")
    containment = choose_containment("cgroup")
    ended: dict = {"ok": 0, "wrong": 0, "je": []}
    for _ in range(boxes):
        with scratch_folder("judge-") as scratch:
            program = scratch / "program"
            program.mkdir()
            program.chmod(0o755)
            shutil.copy("/usr/bin/cat", program / "main")
            given = scratch / "test.in"
            given.write_text(GIVEN)
            spec = RunSpec(argv=[f"{PROGRAM}/main"], cwd=BOX, stdin_path=given, stdout_path=scratch / "run.out",
                           stderr_path=scratch / "run.err", env=dict(SANDBOX_ENV), limit_address_space=False,
                           signals_as_exit_codes=True, syscall_filter=sandbox.syscall_filter)
            rlimits = run_limits(LIMITS, containment.guards(LIMITS.max_processes), limit_address_space=False)
            done = 0
            try:
                with (containment.for_runs(LIMITS.memory_mib, LIMITS.max_processes) as runs,
                      test_starter(sandbox, runs, Mounts(program_dir=program), rlimits, lambda: None) as starter):
                    assert starter.in_box, "not a warm box: this test needs a judge that is root and a control group"
                    for _ in range(tests):
                        done += 1
                        try:
                            stats = execute.begin(spec, LIMITS, runs, starter).finish()
                        except JUDGE_FAILURES as error:
                            ended["je"].append(reason(error))
                            continue
                        right = stats.exit_code == 0 and Path(spec.stdout_path).read_text() == GIVEN
                        ended["ok" if right else "wrong"] += 1
            except JUDGE_FAILURES as error:  # the box or a group could not be set up or taken down
                ended["je"] += [reason(error)] * max(1, tests - done)
    return ended


if __name__ == "__main__":
    print(json.dumps(judge_boxes(int(sys.argv[1]), int(sys.argv[2]))))
