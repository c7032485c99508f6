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

    python benchmarks/grade_scaling.py [--pairs 60] [--max-seconds 6] [--keep DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
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


def grade(class_dir: Path, out: Path, jobs: int) -> tuple[float, dict]:
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "judge", "grade", str(REPO / "problems"), str(class_dir),
                           "--out", str(out), "-j", str(jobs), "--quiet"], capture_output=True, text=True, cwd=REPO)
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"judge grade -j {jobs} exited {done.returncode}:\n{done.stderr}")
    return seconds, json.loads((out / "grades.json").read_text())


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
    arguments = parser.parse_args()

    print(f"load average before: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    print("reference submissions, judged once with `judge run`:")
    sources = quick_sources(arguments.max_seconds)
    workdir = arguments.keep or Path(tempfile.mkdtemp(prefix="grade-scaling-"))
    try:
        made = build_class(workdir / "class", sources, arguments.pairs)
        print(f"class: {len(made)} pairs, {len({student for student, _, _ in made})} students, in {workdir}")
        one_seconds, one = grade(workdir / "class", workdir / "out-j1", 1)
        two_seconds, two = grade(workdir / "class", workdir / "out-j2", 2)
        if verdicts(one) != verdicts(two):
            raise SystemExit("verdicts differ between -j 1 and -j 2")
        run_seconds = sum(judge_run(problem, source) or 0.0 for _, problem, source in made)
    finally:
        if arguments.keep is None:
            shutil.rmtree(workdir, ignore_errors=True)

    print(f"load average after: {os.getloadavg()[0]:.2f}")
    tests = sum(len(cases) - 1 for cases in verdicts(one).values())
    counts: dict[str, int] = {}
    for overall, *_ in verdicts(one).values():
        counts[overall] = counts.get(overall, 0) + 1
    print(f"verdicts: {' '.join(f'{verdict} {count}' for verdict, count in sorted(counts.items()))}; "
          f"{tests} tests judged per run; identical with -j 1 and -j 2")
    print(f"{'':24}{'wall s':>9}{'ms/test':>9}")
    for label, seconds in (("judge grade -j 1", one_seconds), ("judge grade -j 2", two_seconds),
                           ("judge run, one by one", run_seconds)):
        print(f"{label:24}{seconds:9.1f}{1000 * seconds / tests:9.1f}")
    print(f"speed-up -j 2 over -j 1: {one_seconds / two_seconds:.2f} (target >= 1.8 on 2 cores)")
    print(f"judge run one by one / judge grade -j 1: {run_seconds / one_seconds:.2f}")


if __name__ == "__main__":
    main()
