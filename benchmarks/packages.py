"""How long `judge verify` takes on a problem package against Kattis problemtools' `verifyproblem -p submissions`.

    python benchmarks/packages.py [PACKAGE ...] [--verifyproblem PATH] [--repeats 3] [--jobs 1]

For each package (default: tests/packages/anysum and tests/packages/highlow), alternating the two tools so that
load elsewhere on the machine hits both alike, it times `judge verify PACKAGE` and
`verifyproblem -p submissions PACKAGE` (both judge every reference submission on every test; verifyproblem also
judges each at a second, higher time limit), checks that both succeeded, and prints the median seconds of each
and the ratio judge/verifyproblem.

verifyproblem comes from the pip package `problemtools`, kept in its own virtual environment (it pins its own
dependencies): `python3 -m venv /work/venv-problemtools && /work/venv-problemtools/bin/pip install problemtools`
(building it needs a C++ compiler; its checktestdata part may not build). Where it cannot be found or run, judge's
side is still measured and printed, with what is missing.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_PACKAGES = (ROOT / "tests" / "packages" / "anysum", ROOT / "tests" / "packages" / "highlow")
DEFAULT_VERIFYPROBLEM = Path("/work/venv-problemtools/bin/verifyproblem")
TIMEOUT_SECONDS = 900


def timed(argv: list[str]) -> tuple[float, subprocess.CompletedProcess[str]]:
    """Wall seconds of one run of `argv`, and what it did."""
    started = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, text=True, timeout=TIMEOUT_SECONDS, cwd=ROOT)
    return time.perf_counter() - started, done


def verifyproblem_missing(path: Path) -> str:
    """Why verifyproblem cannot be run from `path`, or "" when it can."""
    if not path.exists():
        return f"{path} does not exist (pip install problemtools into its own venv; see this file's docstring)"
    try:
        probe = subprocess.run([str(path), "--help"], capture_output=True, text=True, timeout=60)
    except OSError as error:
        return f"{path} cannot start: {error}"
    if probe.returncode != 0:
        last = (probe.stderr.strip().splitlines() or ["no message"])[-1]
        return f"{path} --help failed: {last}"
    return ""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("packages", nargs="*", type=Path, default=list(DEFAULT_PACKAGES))
    parser.add_argument("--verifyproblem", type=Path, default=DEFAULT_VERIFYPROBLEM)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=1, help="judge verify -j (verifyproblem judges one at a time)")
    args = parser.parse_args()
    missing = verifyproblem_missing(args.verifyproblem)
    if missing:
        print(f"verifyproblem: not measured: {missing}")
    judge = [sys.executable, "-m", "judge", "verify", "-j", str(args.jobs)]
    failed = False
    for package in args.packages:
        judge_times: list[float] = []
        problemtools_times: list[float] = []
        for _ in range(args.repeats):
            seconds, done = timed([*judge, str(package)])
            judge_times.append(seconds)
            if done.returncode != 0:
                failed = True
                print(f"{package.name}: judge verify failed (exit {done.returncode}): {done.stdout[-300:]}"
                      f"{done.stderr[-300:]}")
            if not missing:
                seconds, done = timed([str(args.verifyproblem), str(package), "-p", "submissions"])
                problemtools_times.append(seconds)
                if done.returncode != 0:
                    failed = True
                    print(f"{package.name}: verifyproblem failed (exit {done.returncode}): {done.stdout[-600:]}"
                          f"{done.stderr[-300:]}")
        ours = statistics.median(judge_times)
        line = f"{package.name}: judge verify {ours:.2f} s (median of {args.repeats})"
        if problemtools_times:
            theirs = statistics.median(problemtools_times)
            line += f", verifyproblem -p submissions {theirs:.2f} s, judge/verifyproblem {ours / theirs:.2f}"
        print(line)
    if shutil.which("g++") is None:
        print("note: g++ is missing; C++ submissions and validators were skipped or failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
