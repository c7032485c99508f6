"""How stable the judge's time verdicts are (issue 43): programs calibrated to fixed fractions of a time limit,
judged many times, quiet and beside CPU hogs, one at a time (-j 1) and N at once (-j N); and how precisely the
watch loop stops a run at its limit.

    python benchmarks/timing_stability.py [--parts verdicts,watch] [--limit 0.5] [--repeats 4]
                                          [--fractions 0.8,0.9,0.95,1.05,1.1,1.2] [--jobs N] [--hogs N]
                                          [--sandbox auto] [--watch-limit 1.0] [--watch-repeats 3]

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

The watch loop's part (`--parts watch`, about a minute): the programs of tests/runner/test_watch_loop.py, run with
`execute.run` under each containment (cgroup, proc) `--watch-repeats` times, quiet and then beside the hogs. A busy
one, one that sleeps 0.3 s and then spins, and two spinning processes run into a CPU limit of `--watch-limit`
seconds (wall ten times that); a busy one and a sleeper into a wall limit of as much (CPU ten times that). Figure:
how far past its limit the run was stopped, the CPU time at the kill over the CPU limit, or the wall time the
backstop counts (less the waiting for a CPU) over the wall limit; median and worst, quiet (the baseline, measured in
the same run) and beside the hogs, and their ratio. Target: the worst quiet figure <= 1.10 (a limit is seen at most
5 ms after it is reached, and the kill takes the rest). A run stopped by the wrong limit is counted and printed.

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

from judge.host_timing import HostTiming, read_host_timing
from judge.judging.measuring import NEAR_LIMIT_FLOOR
from judge.judging.results import SubmissionResult
from judge.judging.submission import judge_submission
from judge.options import RunOptions
from judge.problems.folder import load_problem
from judge.runner import execute
from judge.runner.containment.choice import available_containments, choose_containment
from judge.runner.execute import Tripped
from judge.runner.limits import Limits
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
# The watch loop's programs (those of tests/runner/test_watch_loop.py) and the limit each runs into.
WATCHED = {
    "busy": (Tripped.CPU, HOG),
    "sleep-then-spin": (Tripped.CPU, "import time\ntime.sleep(0.3)\nwhile True:\n    pass\n"),
    "two": (Tripped.CPU, "import os\nos.fork()\nwhile True:\n    pass\n"),
    "busy, wall": (Tripped.WALL, HOG),
    "sleeper": (Tripped.WALL, "import time\ntime.sleep(60)\n"),
}
WATCH_TARGET = 1.10


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


def watched_once(folder: Path, source: str, containment: str, tripping: Tripped, limit: float) -> float | str:
    """One run into `tripping`'s limit: how far past the limit it was stopped (see the module's docstring), or
    what stopped it instead."""
    program = folder / "main.py"
    program.write_text(source)
    stdin = folder / "empty.in"
    stdin.touch()
    spec = execute.RunSpec(
        argv=["/usr/bin/python3", "-S", str(program)],
        cwd=folder,
        stdin_path=stdin,
        stdout_path=folder / "out",
        stderr_path=folder / "err",
        env={"PATH": "/usr/bin:/bin"},
        limit_address_space=False,
    )
    cpu, wall = (limit, 10 * limit) if tripping is Tripped.CPU else (10 * limit, limit)
    stats = execute.run(spec, Limits(cpu, wall, 256, 1), choose_containment(containment))
    if stats.tripped is not tripping:
        return f"stopped by {stats.tripped}: {stats}"
    if tripping is Tripped.CPU:
        return stats.cpu_seconds / limit
    return (stats.wall_seconds - (stats.waiting_seconds or 0.0)) / limit


def watch_precision(root: Path, limit: float, repeats: int, hogged: int) -> list[str]:
    """The watch loop's table per containment (see the module's docstring); returns the lines naming each
    target's outcome."""
    folder = root / "watch"
    folder.mkdir()
    outcomes = []
    for containment in [name for name in available_containments() if name in ("cgroup", "proc")]:
        print(
            f"\nthe watch loop, {containment}, limit {limit:g} s, {repeats} runs each: how far past its limit a run "
            "was stopped (median, worst)\n"
        )
        print(f"| program | limit | quiet (baseline) | beside {hogged} CPU hogs | hogs / quiet (medians) |")
        print("|---|---|---|---|---|")
        wrong = []
        for name, (tripping, source) in WATCHED.items():
            figures: dict[int, list[float]] = {}
            for hogs_now in (0, hogged):
                with hogs(hogs_now):
                    runs = [watched_once(folder, source, containment, tripping, limit) for _ in range(repeats)]
                wrong += [f"  {name}, {hogs_now} hogs: {run}" for run in runs if isinstance(run, str)]
                figures[hogs_now] = [run for run in runs if isinstance(run, float)]
            cells = [
                f"{statistics.median(found):.3f}, {max(found):.3f}" if found else "-"
                for found in (figures[0], figures[hogged])
            ]
            ratio = (
                f"{statistics.median(figures[hogged]) / statistics.median(figures[0]):.3f}"
                if figures[0] and figures[hogged]
                else "-"
            )
            print(f"| {name} | {tripping.name} | {cells[0]} | {cells[1]} | {ratio} |")
            if figures[0]:
                worst = max(figures[0])
                met = "met" if worst <= WATCH_TARGET else "MISSED"
                outcomes.append(
                    f"watch loop {containment} {name}: worst quiet {worst:.3f}  target <= {WATCH_TARGET:g}: {met}"
                )
        if wrong:
            print("\nstopped by another limit:\n" + "\n".join(wrong))
    return outcomes


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


def verdict_tables(root: Path, arguments: argparse.Namespace, host: HostTiming) -> None:
    """The verdicts' part: calibrate, then a table per condition (see the module's docstring)."""
    fractions = [float(each) for each in arguments.fractions.split(",")]
    options = RunOptions(sandbox=arguments.sandbox, host_timing=host)
    per_second = calibrate(root, arguments.limit, options)
    problem = write_problem(root / "problem", arguments.limit)
    programs = {
        fraction: write_program(root / f"at-{fraction}", round(per_second * arguments.limit * fraction))
        for fraction in fractions
    }
    print(
        f"limit {arguments.limit:g} s, {arguments.repeats} judgings per fraction and condition; "
        f"calibrated: {per_second / 1e6:.1f} M steps per CPU second"
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--parts", default="verdicts,watch", help="verdicts, watch, or both (comma-separated)")
    parser.add_argument("--limit", type=float, default=0.5)
    parser.add_argument("--repeats", type=int, default=4)
    parser.add_argument("--fractions", default="0.8,0.9,0.95,1.05,1.1,1.2")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--hogs", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--sandbox", default="auto", choices=("auto", "bwrap", "none"))
    parser.add_argument("--watch-limit", type=float, default=1.0)
    parser.add_argument("--watch-repeats", type=int, default=3)
    arguments = parser.parse_args()
    parts = set(arguments.parts.split(","))
    if not parts or not parts <= {"verdicts", "watch"}:
        parser.error(f"--parts {arguments.parts}: name verdicts, watch or both, comma-separated")
    host = read_host_timing()
    began = time.monotonic()
    print(
        f"{host.cpus} CPUs (SMT {host.smt}, governor {host.governor}, VM {host.virtual_machine}); "
        f"load average before: {' '.join(f'{load:.2f}' for load in os.getloadavg())}"
    )
    outcomes = []
    with tempfile.TemporaryDirectory(prefix="judge-timing-") as folder:
        root = Path(folder)
        if "verdicts" in parts:
            verdict_tables(root, arguments, host)
        if "watch" in parts:
            outcomes = watch_precision(root, arguments.watch_limit, arguments.watch_repeats, arguments.hogs)
    if outcomes:
        print("\ntargets:\n  " + "\n  ".join(outcomes))
    print(
        f"\nload average after: {' '.join(f'{load:.2f}' for load in os.getloadavg())}; "
        f"took {time.monotonic() - began:.0f} s"
    )


if __name__ == "__main__":
    main()
