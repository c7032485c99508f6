"""How `judge grade` scales with workers, and what it costs per test compared with `judge run` one pair at a time.

Builds a synthetic class from the reference submissions (submissions/<problem>/<verdict>/*) of the bundled
problems, at least 60 (student, problem) pairs, and times:

    judge grade -j 1        one worker process
    judge grade -j 2        two (the speed-up should be close to 2 on two idle cores)
    judge run, one by one   a fresh `judge run` process per pair, sequentially (what a shell loop would do)

Slow reference submissions are left out so that the benchmark takes minutes, not an hour: the
time_limit_exceeded and memory_limit_exceeded folders (every test runs to a limit) are skipped, and every other
reference submission is first judged once with `judge run`; those that take longer than --max-seconds (the
faithful ports, JVM start-up on every test, exhaustive searches) are dropped. Verdicts of the two grade runs are
compared: they must not depend on the number of workers. The load average is printed with the figures: on a
shared machine, other jobs' load shows up as a lower speed-up.

Each grade run also reports how long the first worker to run out of pairs sat idle before the last result (the
"tail", from the workers and times recorded in results.sqlite), and how many cores the machine kept busy on
average (/proc/stat): one worker alone keeps more than one core busy at times (a JVM's threads, javac, the
launcher starting while a program compiles), so -j 2 can be at most cores / (cores busy at -j 1) times -j 1. `--repeats N` alternates -j 1 and -j 2 N times and
prints every ratio with the median; `--baseline DIR` times another source tree of the judge (say, an export of
main) on the same class, alternating with this one, so before and after are measured in the same run; `--class
DIR` reuses a class folder built before (which sources pass --max-seconds depends on the load).

    python benchmarks/grade_scaling.py [--pairs 60] [--max-seconds 6] [--keep DIR] [--repeats N]
                                       [--baseline DIR] [--class DIR] [--no-run-loop]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
PROBLEMS = ("2580", "9663")
SKIPPED_FOLDERS = {"time_limit_exceeded", "memory_limit_exceeded"}


def judge_run(problem: str, source: Path, timeout: float | None = None) -> float | None:
    """Seconds that `judge run` took on one pair, or None when it took longer than `timeout`."""
    started = time.perf_counter()
    try:
        done = subprocess.run([sys.executable, "-m", "judge", "run", str(REPO / "problems" / problem), str(source)],
                              capture_output=True, text=True, cwd=REPO, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None
    if done.returncode not in (0, 1):
        raise SystemExit(f"judge run {problem} {source} exited {done.returncode}:\n{done.stderr}")
    return time.perf_counter() - started


def quick_sources(max_seconds: float) -> dict[str, list[Path]]:
    """Per problem, the reference submissions that `judge run` judges within `max_seconds`."""
    found = {}
    for problem in PROBLEMS:
        files = sorted(path for path in (REPO / "submissions" / problem).glob("*/*")
                       if path.is_file() and path.parent.name not in SKIPPED_FOLDERS)
        kept = []
        for path in files:
            seconds = judge_run(problem, path, timeout=max_seconds)
            shown = f"{seconds:5.1f} s" if seconds is not None else f"> {max_seconds:g} s, left out"
            print(f"  {path.relative_to(REPO)}: {shown}")
            if seconds is not None:
                kept.append(path)
        if not kept:
            raise SystemExit(f"no reference submission of {problem} is judged within {max_seconds} s")
        found[problem] = kept
    return found


def build_class(root: Path, sources: dict[str, list[Path]], pairs: int) -> list[tuple[str, str, Path]]:
    """class/<student>/<problem>.<ext>: one pair per problem per student, cycling through the sources."""
    made = []
    for index in range(pairs):
        problem = PROBLEMS[index % len(PROBLEMS)]
        source = sources[problem][(index // len(PROBLEMS)) % len(sources[problem])]
        student = f"student{index // len(PROBLEMS):03}"
        target = root / student / f"{problem}{source.suffix}"
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, target)
        made.append((student, problem, target))
    return made


@dataclass(frozen=True)
class Timed:
    """One `judge grade` run: wall seconds, the tail (a worker idle before the last result), and the cores the
    machine kept busy on average meanwhile (everyone's: /proc/stat counts every process, also ones a box or a
    killed worker never report to a parent)."""

    wall: float
    tail: float
    busy_cores: float


def busy_ticks() -> tuple[int, int]:
    """(busy, all) clock ticks of every CPU so far, from /proc/stat's first line (0, 0 where there is none)."""
    try:
        with open("/proc/stat") as stat:
            fields = [int(value) for value in stat.readline().split()[1:]]
    except OSError:
        return 0, 0
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)  # idle and iowait
    return sum(fields[:8]) - idle, sum(fields[:8])


def grade(class_dir: Path, out: Path, jobs: int, tree: Path = REPO) -> tuple[Timed, dict]:
    """`judge grade -j JOBS` of the judge in `tree` (its package imported from there) into a fresh `out`."""
    shutil.rmtree(out, ignore_errors=True)
    busy_before, _ = busy_ticks()
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "judge", "grade", str(REPO / "problems"), str(class_dir),
                           "--out", str(out), "-j", str(jobs), "--quiet"], capture_output=True, text=True, cwd=tree,
                          env={**os.environ, "PYTHONPATH": str(tree)})
    seconds = time.perf_counter() - started
    busy = (busy_ticks()[0] - busy_before) / os.sysconf("SC_CLK_TCK")
    if done.returncode != 0:
        raise SystemExit(f"judge grade -j {jobs} exited {done.returncode}:\n{done.stderr}")
    return (Timed(seconds, tail_seconds(out / "results.sqlite"), busy / seconds),
            json.loads((out / "grades.json").read_text()))


def tail_seconds(database: Path) -> float:
    """How long before the last result the first worker to finish stored its last one (0 with one worker)."""
    with sqlite3.connect(database) as connection:
        rows = connection.execute("SELECT worker, judged_at FROM results").fetchall()
    last: dict[str, float] = {}
    for worker, judged_at in rows:
        moment = datetime.fromisoformat(judged_at).timestamp()
        last[worker] = max(last.get(worker, moment), moment)
    return max(last.values()) - min(last.values()) if last else 0.0


def verdicts(gradebook: dict) -> dict[tuple[str, str], list[str]]:
    """(student, problem) -> [overall verdict, then each test's verdict]."""
    return {
        (student["name"], problem): [pair["verdict"], *(case["verdict"] for case in pair["report"]["cases"])]
        for student in gradebook["students"] for problem, pair in student["results"].items()
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pairs", type=int, default=60, help="(student, problem) pairs in the class (default 60)")
    parser.add_argument("--max-seconds", type=float, default=6.0,
                        help="leave out reference submissions that `judge run` takes longer on (default 6)")
    parser.add_argument("--keep", type=Path, help="build the class and results here instead of a temporary folder")
    parser.add_argument("--class", dest="class_dir", type=Path, help="reuse this class folder instead of building one")
    parser.add_argument("--repeats", type=int, default=1, help="alternate -j 1 and -j 2 this many times (default 1)")
    parser.add_argument("--baseline", type=Path, help="another source tree of the judge, timed alternately")
    parser.add_argument("--no-run-loop", action="store_true", help="leave out `judge run` one pair at a time")
    arguments = parser.parse_args()

    print(f"load average before: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    workdir = arguments.keep or Path(tempfile.mkdtemp(prefix="grade-scaling-"))
    trees = {"this": REPO, **({"baseline": arguments.baseline.resolve()} if arguments.baseline else {})}
    timings: dict[tuple[str, int], list[Timed]] = {(name, jobs): [] for name in trees for jobs in (1, 2)}
    try:
        if arguments.class_dir:
            class_dir = arguments.class_dir
            made = [(path.parent.name, path.stem, path) for path in sorted(class_dir.glob("*/*"))]
        else:
            print("reference submissions, judged once with `judge run`:")
            class_dir = workdir / "class"
            made = build_class(class_dir, quick_sources(arguments.max_seconds), arguments.pairs)
        print(f"class: {len(made)} pairs, {len({student for student, _, _ in made})} students, in {class_dir}")
        first: dict | None = None
        for _ in range(arguments.repeats):
            for name, tree in trees.items():
                for jobs in (1, 2):
                    timed, gradebook = grade(class_dir, workdir / f"out-{name}-j{jobs}", jobs, tree)
                    timings[(name, jobs)].append(timed)
                    first = first or gradebook
                    if verdicts(gradebook) != verdicts(first):
                        raise SystemExit(f"verdicts differ: {name} -j {jobs}")
                    print(f"  {name:8} -j {jobs}: {timed.wall:6.1f} s wall, tail {timed.tail:4.1f} s, "
                          f"{timed.busy_cores:.2f} cores busy; load {os.getloadavg()[0]:.2f}", flush=True)
        run_seconds = (None if arguments.no_run_loop
                       else sum(judge_run(problem, source) or 0.0 for _, problem, source in made))
    finally:
        if arguments.keep is None:
            shutil.rmtree(workdir, ignore_errors=True)

    assert first is not None
    print(f"load average after: {os.getloadavg()[0]:.2f}")
    tests = sum(len(cases) - 1 for cases in verdicts(first).values())
    counts: dict[str, int] = {}
    for overall, *_ in verdicts(first).values():
        counts[overall] = counts.get(overall, 0) + 1
    print(f"verdicts: {' '.join(f'{verdict} {count}' for verdict, count in sorted(counts.items()))}; "
          f"{tests} tests judged per run; identical in every run")
    print(f"{'':24}{'wall s':>9}{'ms/test':>9}   (medians of {arguments.repeats})")
    for name in trees:
        for jobs in (1, 2):
            runs = timings[(name, jobs)]
            wall = statistics.median(t.wall for t in runs)
            print(f"{f'{name}: judge grade -j {jobs}':24}{wall:9.1f}{1000 * wall / tests:9.1f}")
    if run_seconds is not None:
        print(f"{'judge run, one by one':24}{run_seconds:9.1f}{1000 * run_seconds / tests:9.1f}")
    cores = os.cpu_count() or 1
    for name in trees:
        ratios = [one.wall / two.wall for one, two in zip(timings[(name, 1)], timings[(name, 2)])]
        print(f"{name}: speed-up -j 2 over -j 1: median {statistics.median(ratios):.2f}, each run "
              f"{', '.join(f'{ratio:.2f}' for ratio in ratios)} (target >= 1.85 on 2 idle cores)")
        # A worker alone already keeps more than one core busy at times (a JVM's compiler and collector threads,
        # javac, the launcher starting while the program compiles): -j 2 cannot be faster than the cores left.
        one_busy = statistics.median(t.busy_cores for t in timings[(name, 1)])
        two_busy = statistics.median(t.busy_cores for t in timings[(name, 2)])
        ceiling = min(2.0, cores / one_busy) if one_busy else 2.0
        print(f"{name}: cores busy: -j 1 {one_busy:.2f}, -j 2 {two_busy:.2f} of {cores}; so -j 2 can be at most "
              f"{ceiling:.2f} x -j 1 here, and reached {statistics.median(ratios) / ceiling:.0%} of that")
    if run_seconds is not None:
        print(f"judge run one by one / judge grade -j 1: {run_seconds / statistics.median(t.wall for t in timings[('this', 1)]):.2f}")


if __name__ == "__main__":
    main()
