"""How much the judge adds per test case over starting the interpreter directly.

    /work/venv/bin/python benchmarks/overhead.py [--tests 100] [--repeats 5] [--no-cgroup] [--profile]

Makes a problem with N tiny tests ("echo the number") and a trivial Python submission, then, alternating so that
load elsewhere on the machine hits every side alike:

- judges it with `judge_submission` (sandbox none, and bwrap when it works here);
- runs a bare loop that starts the same interpreter with the same command line (from `judge.languages`) on the
  same input files with `subprocess`, and compares each output byte for byte with its .ans.

Prints the median milliseconds per test of each, the ratio judge/bare (target: at most 1.15 without sandbox)
and the milliseconds per test the sandbox adds. `--no-cgroup` measures the rlimit + polling fallback (as if no
control group could be created here); `--profile` prints a cProfile of one judging (sandbox none).
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from judge import cgroups
from judge.judging import judge_submission
from judge.languages import LANGUAGES, effective_limits, resolve_toolchain
from judge.options import RunOptions
from judge.problem import Problem, load_problem
from judge.sandbox import bwrap_problem
from judge.verdicts import Verdict

TARGET_RATIO = 1.15
SUBMISSION = "print(int(input()))\n"


def make_problem(root: Path, tests: int) -> Problem:
    (root / "tests").mkdir(parents=True)
    (root / "problem.yaml").write_text("id: echo\ntitle: Echo the number\ntime_limit: 1\nmemory_limit: 256\n")
    for number in range(1, tests + 1):
        (root / "tests" / f"{number}.in").write_text(f"{number}\n")
        (root / "tests" / f"{number}.ans").write_text(f"{number}\n")
    return load_problem(root)


def time_judge(problem: Problem, source: Path, sandbox: str) -> float:
    """Seconds per test for one whole judging."""
    started = time.perf_counter()
    result = judge_submission(problem, source, RunOptions(sandbox=sandbox))
    elapsed = time.perf_counter() - started
    if result.verdict is not Verdict.AC:
        raise SystemExit(f"the judge said {result.verdict.short} ({sandbox}): {result.cases}")
    return elapsed / len(problem.tests)


def time_bare(problem: Problem, source: Path) -> float:
    """Seconds per test for starting the interpreter directly on every test and comparing the bytes."""
    language = LANGUAGES["python3"]
    toolchain = resolve_toolchain(language)
    memory_mib = effective_limits(problem.spec, language).memory_mib
    argv = toolchain.command(language.run, program=str(source.parent), source=str(source), source_label=source.name,
                             memory_mib=memory_mib)
    started = time.perf_counter()
    for test in problem.tests:
        with open(test.input_path, "rb") as stdin:
            done = subprocess.run(argv, stdin=stdin, capture_output=True, cwd=source.parent)
        if done.returncode != 0 or done.stdout != test.answer_path.read_bytes():
            raise SystemExit(f"bare run failed on {test.name}: {done}")
    return (time.perf_counter() - started) / len(problem.tests)


def profile(problem: Problem, source: Path) -> None:
    profiler = cProfile.Profile()
    profiler.enable()
    judge_submission(problem, source, RunOptions(sandbox="none"))
    profiler.disable()
    stats = pstats.Stats(profiler, stream=sys.stdout).sort_stats("tottime")
    stats.print_stats(20)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tests", type=int, default=100)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--no-cgroup", action="store_true", help="measure the fallback without control groups")
    parser.add_argument("--profile", action="store_true", help="print a cProfile of one judging (sandbox none)")
    args = parser.parse_args()
    if args.no_cgroup:
        cgroups.create = lambda *_args, **_kwargs: None  # what execute.run sees on a machine without cgroups

    sandboxes = ["none"] + (["bwrap"] if bwrap_problem() is None else [])
    with tempfile.TemporaryDirectory(prefix="judge-bench-") as folder:
        root = Path(folder)
        problem = make_problem(root / "problem", args.tests)
        source = root / "submission" / "echo.py"
        source.parent.mkdir()
        source.write_text(SUBMISSION)
        if args.profile:
            profile(problem, source)
            return
        time_judge(problem, source, "none")  # warm up: toolchain lookup, page cache, cgroup probe
        samples: dict[str, list[float]] = {name: [] for name in ["bare", *sandboxes]}
        for _ in range(args.repeats):
            samples["bare"].append(time_bare(problem, source))
            for sandbox in sandboxes:
                samples[sandbox].append(time_judge(problem, source, sandbox))

    median = {name: statistics.median(values) * 1000 for name, values in samples.items()}
    best = {name: min(values) * 1000 for name, values in samples.items()}  # the least disturbed repeat
    memory = "rlimits + polling (--no-cgroup)" if args.no_cgroup else cgroups.probe()
    print(f"{args.tests} tests x {args.repeats} repeats; memory: {memory}; "
          f"bwrap: {'yes' if 'bwrap' in sandboxes else bwrap_problem()}")
    print(f"  bare interpreter loop     {median['bare']:7.2f} ms/test   (best repeat {best['bare']:.2f})")
    for sandbox in sandboxes:
        ratio = median[sandbox] / median["bare"]
        met = "met" if ratio <= TARGET_RATIO else "MISSED"
        target = f"  (target <= {TARGET_RATIO:.2f}: {met})" if sandbox == "none" else ""
        print(f"  judge, sandbox {sandbox:<6}    {median[sandbox]:7.2f} ms/test   judge/bare {ratio:.3f}{target}"
              f"   (best repeats: {best[sandbox]:.2f} ms, ratio {best[sandbox] / best['bare']:.3f})")
    if "bwrap" in sandboxes:
        print(f"  bwrap adds                {median['bwrap'] - median['none']:7.2f} ms/test   "
              f"(best repeats: {best['bwrap'] - best['none']:.2f})")
    print("  all samples (ms/test): " + "; ".join(
        f"{name} " + ", ".join(f"{value * 1000:.1f}" for value in values) for name, values in samples.items()))


if __name__ == "__main__":
    main()
