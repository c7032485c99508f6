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

With --repeats N the two grade runs alternate N times (medians and every sample are printed). During each grade
run the process tree is sampled with psutil, so the figures also say how much CPU the grading process itself
used (its own, not its children's) next to its pool workers' own and everything below them (the submissions and
their launchers): CPU the grading process spends is taken from the two cores the workers need.

    python benchmarks/grade_scaling.py [--pairs 60] [--max-seconds 6] [--repeats 1] [--no-run-loop] [--keep DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import psutil

REPO = Path(__file__).resolve().parent.parent
PROBLEMS = ("2580", "9663")
SKIPPED_FOLDERS = {"time_limit_exceeded", "memory_limit_exceeded"}
TARGET_SPEED_UP = 1.85
SAMPLE_SECONDS = 0.25
"""Seldom enough that the sampling itself takes next to nothing from the two cores being measured."""


@dataclass
class TreeCpu:
    """CPU seconds (user + system, each process's own) seen in a grade run's process tree, per role. Sampling
    misses what a short-lived process used after its last sample; the pool workers and the grading process live
    through the whole run, so their figures are whole."""

    grading: float = 0.0
    workers: dict[int, float] = field(default_factory=dict)
    below: dict[int, float] = field(default_factory=dict)

    def line(self, wall: float) -> str:
        workers, below = sum(self.workers.values()), sum(self.below.values())
        return (f"grading process {self.grading:6.2f} s CPU ({100 * self.grading / wall:4.1f}% of one core), "
                f"{len(self.workers)} pool processes {workers:6.2f} s, below them (submissions, launchers, "
                f"compilers) >= {below:6.2f} s")


def _own_cpu(process: psutil.Process) -> float:
    times = process.cpu_times()
    return times.user + times.system


def watch_tree(process: psutil.Popen) -> TreeCpu:
    """Sample the grade command's process tree until it exits: the last CPU figure seen for every process."""
    seen = TreeCpu()
    while process.poll() is None:
        try:
            seen.grading = _own_cpu(process)
            children = process.children()
        except psutil.NoSuchProcess:
            break
        for child in children:
            try:
                seen.workers[child.pid] = _own_cpu(child)
                for descendant in child.children(recursive=True):
                    seen.below[descendant.pid] = _own_cpu(descendant)
            except psutil.NoSuchProcess:
                continue
        time.sleep(SAMPLE_SECONDS)
    return seen


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


def grade(class_dir: Path, out: Path, jobs: int) -> tuple[float, dict, TreeCpu]:
    """Wall seconds of one `judge grade -j jobs`, its gradebook, and the CPU of its process tree by role."""
    shutil.rmtree(out, ignore_errors=True)
    started = time.perf_counter()
    with open(out.with_name(out.name + ".log"), "w+") as log:
        process = psutil.Popen([sys.executable, "-m", "judge", "grade", str(REPO / "problems"), str(class_dir),
                                "--out", str(out), "-j", str(jobs), "--quiet"], stdout=log, stderr=log, cwd=REPO)
        cpu = watch_tree(process)
        seconds = time.perf_counter() - started
        if process.wait() != 0:
            log.seek(0)
            raise SystemExit(f"judge grade -j {jobs} exited {process.returncode}:\n{log.read()}")
    return seconds, json.loads((out / "grades.json").read_text()), cpu


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
    parser.add_argument("--repeats", type=int, default=1, help="alternating -j 1 / -j 2 rounds (default 1)")
    parser.add_argument("--no-run-loop", action="store_true", help="skip timing `judge run` one pair at a time")
    parser.add_argument("--keep", type=Path, help="build the class and results here instead of a temporary folder")
    arguments = parser.parse_args()

    print(f"load average before: {load()} on {os.cpu_count()} cores")
    print("reference submissions, judged once with `judge run`:")
    sources = quick_sources(arguments.max_seconds)
    workdir = arguments.keep or Path(tempfile.mkdtemp(prefix="grade-scaling-"))
    samples: dict[int, list[tuple[float, TreeCpu]]] = {1: [], 2: []}
    try:
        made = build_class(workdir / "class", sources, arguments.pairs)
        print(f"class: {len(made)} pairs, {len({student for student, _, _ in made})} students, in {workdir}")
        books = {}
        for _ in range(arguments.repeats):
            for jobs in (1, 2):
                seconds, books[jobs], cpu = grade(workdir / "class", workdir / f"out-j{jobs}", jobs)
                samples[jobs].append((seconds, cpu))
                print(f"  -j {jobs}: {seconds:6.1f} s; load average {load()}", file=sys.stderr)
        if verdicts(books[1]) != verdicts(books[2]):
            raise SystemExit("verdicts differ between -j 1 and -j 2")
        run_seconds = None
        if not arguments.no_run_loop:
            run_seconds = sum(judge_run(problem, source) or 0.0 for _, problem, source in made)
    finally:
        if arguments.keep is None:
            shutil.rmtree(workdir, ignore_errors=True)
    print(f"load average after: {load()}")
    print_figures(books[1], samples, run_seconds)


def load() -> str:
    return " ".join(f"{value:.2f}" for value in os.getloadavg())


def print_figures(book: dict, samples: dict[int, list[tuple[float, TreeCpu]]], run_seconds: float | None) -> None:
    """Verdict counts, wall seconds and ms per test of each mode, the speed-up, and the CPU by role."""
    tests = sum(len(cases) - 1 for cases in verdicts(book).values())
    counts: dict[str, int] = {}
    for overall, *_ in verdicts(book).values():
        counts[overall] = counts.get(overall, 0) + 1
    print(f"verdicts: {' '.join(f'{verdict} {count}' for verdict, count in sorted(counts.items()))}; "
          f"{tests} tests judged per run; identical with -j 1 and -j 2")
    median = {jobs: statistics.median(seconds for seconds, _ in runs) for jobs, runs in samples.items()}
    print(f"{'':24}{'wall s':>9}{'ms/test':>9}")
    rows = [("judge grade -j 1", median[1]), ("judge grade -j 2", median[2])]
    if run_seconds is not None:
        rows.append(("judge run, one by one", run_seconds))
    for label, seconds in rows:
        print(f"{label:24}{seconds:9.1f}{1000 * seconds / tests:9.1f}")
    ratios = [one / two for (one, _), (two, _) in zip(samples[1], samples[2])]
    speed_up = median[1] / median[2]
    print(f"speed-up -j 2 over -j 1: {speed_up:.2f} (target >= {TARGET_SPEED_UP}: "
          f"{'met' if speed_up >= TARGET_SPEED_UP else 'MISSED'}); per round: "
          + ", ".join(f"{ratio:.2f}" for ratio in ratios))
    if run_seconds is not None:
        print(f"judge run one by one / judge grade -j 1: {run_seconds / median[1]:.2f}")
    for jobs, runs in samples.items():
        for seconds, cpu in runs:
            print(f"  -j {jobs} {seconds:6.1f} s wall: {cpu.line(seconds)}")


if __name__ == "__main__":
    main()
