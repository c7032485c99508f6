"""How stable the judge's time verdicts are (issue 43): programs calibrated to fixed fractions of a time limit,
judged many times, quiet and beside CPU hogs, one at a time (-j 1) and N at once (-j N).

    python benchmarks/timing_stability.py [--limit 0.5] [--repeats 4] [--fractions 0.8,0.9,0.95,1.05,1.1,1.2]
                                          [--jobs N] [--hogs N] [--sandbox auto]

The program is a C loop of fixed work (not a spin on the clock: its CPU time varies as real work does, with the
caches and the other programs on the machine). It is calibrated once, quiet, to take `--limit` seconds of CPU at
fraction 1.0 (the median of a few judged runs), then compiled per fraction with the scaled number of steps.

For every condition (quiet -j 1, quiet -j N, hogs -j 1, hogs -j N; the hogs are `--hogs` busy processes, each in
a session of its own as a run is) and fraction, each program is judged `--repeats` times with `judge_submission`
(the whole judging, as `judge run` does). Per row:

- verdicts: how many AC and TLE (the right verdict is AC under 1.0, TLE over);
- CPU: the median first run's CPU time as a fraction of the limit (what the calibrated fraction came to under this
  condition) and its coefficient of variation, over the judgings whose first run ran to its end (runs the judge
  stopped at the limit plus the band have a CPU time the judge chose);
- flips before: wrong verdicts had each test been run once (the first run's CPU time against the limit);
- flips after: wrong verdicts as the judge gives them, after re-measuring near the limit (the least CPU time);
- near: verdicts marked "near the limit".

Below each table, the message of every wrong verdict given (after re-measuring).

Nothing here asserts a time. The target (issue 43): outside ±10 % of the limit no flips under any load; inside it,
every verdict marked. Sized for a 2-core machine: the defaults take a few minutes.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from judge.host_timing import read_host_timing
from judge.judging.measuring import NEAR_LIMIT_FLOOR
from judge.judging.results import SubmissionResult
from judge.judging.submission import judge_submission
from judge.options import RunOptions
from judge.problems.folder import load_problem
from judge.verdicts import Verdict

CALIBRATION_STEPS = 20_000_000
CALIBRATION_RUNS = 3
LOOP = """#include <stdio.h>
int main(void) {
    volatile unsigned long long sum = 0;
    for (unsigned long long step = 0; step < %dULL; step++) sum += step ^ (sum >> 3);
    printf("done\\n");
    return 0;
}
"""
HOG = "while True:\n    pass\n"


@dataclass(frozen=True)
class Judged:
    """What one judging of a calibrated program came to."""

    verdict: Verdict
    message: str
    first_cpu: float
    first_ended: bool  # the first run ended by itself (its CPU time is the program's, not a stop at the band)
    near: bool


def write_problem(root: Path, limit: float) -> Path:
    (root / "tests").mkdir(parents=True)
    (root / "problem.yaml").write_text(
        f"id: calibrated\ntitle: Calibrated loop\ntime_limit: {limit}\nmemory_limit: 256\nlanguage_allowance: false\n"
    )
    (root / "tests" / "1.in").write_text("")
    (root / "tests" / "1.ans").write_text("done\n")
    return root


def write_program(folder: Path, steps: int) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    source = folder / "main.c"
    source.write_text(LOOP % steps)
    return source


def judge_once(problem: Path, source: Path, options: RunOptions) -> Judged:
    result: SubmissionResult = judge_submission(load_problem(problem), source, options)
    case = result.cases[0]
    first = case.cpu_runs[0] if case.cpu_runs else case.cpu_seconds
    stop = result.limits.time_seconds * (1 + NEAR_LIMIT_FLOOR)  # where the judge stops a first run
    return Judged(case.verdict, case.message, first, first < stop, case.near_limit_band is not None)


def calibrate(root: Path, limit: float, options: RunOptions) -> float:
    """Steps per CPU second of the loop, judged quiet: a first guess from CALIBRATION_STEPS, then the median of
    a few runs of as many steps as the guess puts at the limit (a short run is mostly the program's start)."""
    problem = write_problem(root / "calibration-problem", 60.0)
    steps = CALIBRATION_STEPS
    for stage in range(2):
        source = write_program(root / f"calibration-{stage}", steps)
        seconds = statistics.median(judge_once(problem, source, options).first_cpu for _ in range(CALIBRATION_RUNS))
        steps = round(steps / seconds * limit)
    return steps / limit


@contextmanager
def hogs(count: int) -> Iterator[None]:
    """`count` busy processes, each leading a session of its own (the scheduler shares CPUs between sessions first,
    with autogroups on, and every run leads its own)."""
    started = [subprocess.Popen([sys.executable, "-c", HOG], start_new_session=True) for _ in range(count)]
    try:
        yield
    finally:
        for hog in started:
            hog.kill()
            hog.wait()


def judge_many(jobs: list[tuple[Path, Path]], options: RunOptions, workers: int) -> list[Judged]:
    if workers == 1:
        return [judge_once(problem, source, options) for problem, source in jobs]
    with ProcessPoolExecutor(workers) as pool:
        return list(pool.map(judge_once, *zip(*jobs, strict=True), [options] * len(jobs)))


def expected(fraction: float) -> Verdict:
    return Verdict.AC if fraction < 1 else Verdict.TLE


def row(fraction: float, limit: float, judged: list[Judged]) -> str:
    verdicts = {verdict: sum(each.verdict is verdict for each in judged) for verdict in (Verdict.AC, Verdict.TLE)}
    other = len(judged) - sum(verdicts.values())
    ended = [each.first_cpu for each in judged if each.first_ended]
    cv = f"{statistics.stdev(ended) / statistics.mean(ended):5.1%}" if len(ended) > 1 else "    -"
    measured = f"{statistics.median(ended) / limit:5.1%}" if ended else "    -"
    right = expected(fraction)
    before = sum((Verdict.TLE if each.first_cpu > limit else Verdict.AC) is not right for each in judged)
    after = sum(each.verdict is not right for each in judged)
    near = sum(each.near for each in judged)
    return (
        f"| {fraction:4.0%} | AC {verdicts[Verdict.AC]:2d} TLE {verdicts[Verdict.TLE]:2d}"
        f"{f' other {other}' if other else ''} | {measured} ± {cv} ({len(ended)} ended) | {before} | {after} | {near} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--limit", type=float, default=0.5)
    parser.add_argument("--repeats", type=int, default=4)
    parser.add_argument("--fractions", default="0.8,0.9,0.95,1.05,1.1,1.2")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--hogs", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--sandbox", default="auto", choices=("auto", "bwrap", "none"))
    arguments = parser.parse_args()
    fractions = [float(each) for each in arguments.fractions.split(",")]
    host = read_host_timing()
    began = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="judge-timing-") as folder:
        root = Path(folder)
        options = RunOptions(sandbox=arguments.sandbox, host_timing=host)
        per_second = calibrate(root, arguments.limit, options)
        problem = write_problem(root / "problem", arguments.limit)
        programs = {
            fraction: write_program(root / f"at-{fraction}", round(per_second * arguments.limit * fraction))
            for fraction in fractions
        }
        print(
            f"limit {arguments.limit:g} s, {arguments.repeats} judgings per fraction and condition, "
            f"{host.cpus} CPUs (SMT {host.smt}, governor {host.governor}, VM {host.virtual_machine}); "
            f"calibrated: {per_second / 1e6:.1f} M steps per CPU second; load average before: "
            f"{' '.join(f'{load:.2f}' for load in os.getloadavg())}"
        )
        for hogged in (0, arguments.hogs):
            for workers in sorted({1, arguments.jobs}):
                jobs = [(problem, programs[fraction]) for fraction in fractions for _ in range(arguments.repeats)]
                with hogs(hogged):
                    judged = judge_many(jobs, RunOptions(**{**vars(options), "workers": workers}), workers)
                print(f"\n{'quiet' if not hogged else f'beside {hogged} CPU hogs'}, -j {workers}\n")
                print("| program at | verdicts | CPU: median / limit ± CV | flips before | flips after | near |")
                print("|---|---|---|---|---|---|")
                wrong = []
                for index, fraction in enumerate(fractions):
                    some = judged[index * arguments.repeats : (index + 1) * arguments.repeats]
                    wrong += [
                        f"  {fraction:.0%}: {each.verdict.short} {each.message}"
                        for each in some
                        if each.verdict is not expected(fraction)
                    ]
                    print(row(fraction, arguments.limit, some))
                if wrong:
                    print("\nwrong verdicts:\n" + "\n".join(wrong))
    print(
        f"\nload average after: {' '.join(f'{load:.2f}' for load in os.getloadavg())}; "
        f"took {time.monotonic() - began:.0f} s"
    )


if __name__ == "__main__":
    main()
