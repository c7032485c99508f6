"""What one `judge run` costs beyond the test it runs: start-up, imports, compile step, report.

    python benchmarks/startup.py [--repeats 15] [--sandbox none --sandbox bwrap] [--top 12] [--baseline DIR]

Makes a problem with one tiny test (a+b) and a Python submission, then, alternating so that load elsewhere on
the machine hits every side alike, times with `subprocess`:

- the bare run: the interpreter submissions run on (the judge's empty venv, found by `judge.languages`) with the
  same command line, on the same test file, its output compared with the .ans;
- `python -m judge run PROBLEM SOURCE --sandbox MODE` end to end, for each mode (bwrap only where it works);
  with `--baseline DIR`, also the judge of another source tree (say, an export of main), so before and after
  share the machine's load.

Prints, per mode, the median wall time of each and the difference beside its targets (issue 45: at most 150 ms,
then at most 120 ms), the spread (the least and most disturbed repeats), and the CPU time of the judge and of
everything it waited for, which load from other users inflates far less than wall time (with bwrap, the processes
inside the box are not all counted). Then where the time goes: the interpreter's own start, and the imports of
`judge run` by package (`python -X importtime`, self time summed per top-level package), and the start of the
launcher every submission starts (judge/runner/launcher/server.py: its interpreter as the judge starts it, and
its imports), beside that interpreter's bare start: the first test waits for it. Last, a `targets:` block,
one line per mode, as benchmarks/overhead.py ends: CI prints both on every run, as a report (never a test).

The children get a private bytecode cache (PYTHONPYCACHEPREFIX in the temporary folder, after a warm-up run), so
the figures are those of an installed judge even where PYTHONDONTWRITEBYTECODE is set, as in some dev shells.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

from judge.judging.limit_policy import effective_limits
from judge.languages.catalog import LANGUAGES
from judge.languages.toolchains import resolve_toolchain
from judge.problems.folder import load_problem
from judge.runner.launcher.client import launcher_command
from judge.runner.sandbox import bwrap_problem
from judge.runner.starter_choice import SYSTEM_PYTHON

REPO = Path(__file__).resolve().parent.parent
TARGETS_MS = (150.0, 120.0)
"""judge - bare, wall: issue 45's target, then its second step."""
SUBMISSION = "a, b = map(int, input().split())\nprint(a + b)\n"


@dataclass(frozen=True)
class Sample:
    """One timed run: wall seconds, and CPU seconds of the process and everything it waited for."""

    wall: float
    cpu: float


def make_problem(root: Path) -> tuple[Path, Path]:
    """A one-test a+b problem folder and a Python submission for it."""
    (root / "problem" / "tests").mkdir(parents=True)
    (root / "problem" / "problem.yaml").write_text("id: ab\ntitle: A+B\ntime_limit: 1\nmemory_limit: 256\n")
    (root / "problem" / "tests" / "1.in").write_text("1 2\n")
    (root / "problem" / "tests" / "1.ans").write_text("3\n")
    source = root / "ab.py"
    source.write_text(SUBMISSION)
    return root / "problem", source


@dataclass(frozen=True)
class Command:
    """What to time: a command line, its stdin, and the source tree whose `judge` it imports (None: no judge)."""

    argv: list[str]
    stdin: Path | None = None
    tree: Path | None = None


def timed(command: Command, env: dict[str, str]) -> tuple[Sample, bytes]:
    """Run `command` to the end; its stdout, wall time and CPU time (RUSAGE_CHILDREN grows by what it and its
    waited descendants used)."""
    if command.tree is not None:
        env = {**env, "PYTHONPATH": str(command.tree)}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    with open(command.stdin or os.devnull, "rb") as stdin:
        done = subprocess.run(command.argv, stdin=stdin, capture_output=True, env=env, cwd=command.tree)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command.argv)} exited {done.returncode}:\n{done.stderr.decode(errors='replace')}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return Sample(wall, cpu), done.stdout


def bare_argv(problem: Path, source: Path) -> list[str]:
    """The command line `judge run` starts for this submission, outside any box."""
    toolchain = resolve_toolchain(LANGUAGES["python3"])
    limits = effective_limits(load_problem(problem).spec, toolchain.language)
    return toolchain.command(toolchain.language.run, program=str(source.parent), source=str(source),
                             source_label=source.name, memory_mib=limits.memory_mib)


def judge_argv(problem: Path, source: Path, sandbox: str) -> list[str]:
    return [sys.executable, "-m", "judge", "run", str(problem), str(source), "--sandbox", sandbox]


def launcher_argvs(tree: Path) -> tuple[list[str], list[str]]:
    """The launcher's interpreter importing the launcher from `tree` (what it does before it can answer), and the
    same interpreter starting bare. Unconfined, as `--sandbox none` starts it."""
    python = SYSTEM_PYTHON if Path(SYSTEM_PYTHON).is_file() else sys.executable
    interpreter = launcher_command(python, tree)[:4]  # python -I -S -c
    code = "import sys; sys.path.insert(0, sys.argv[1]); import judge.runner.launcher.server"
    return [*interpreter, code, str(tree)], [*interpreter, "pass"]


def child_env(pycache: Path) -> dict[str, str]:
    env = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}
    return {**env, "PYTHONPYCACHEPREFIX": str(pycache)}


def import_costs(command: Command, env: dict[str, str]) -> tuple[float, dict[str, float]]:
    """Total import milliseconds of one run, and the self time summed per top-level package."""
    argv, tree = command.argv, command.tree
    done = subprocess.run([argv[0], "-X", "importtime", *argv[1:]], capture_output=True, text=True, cwd=tree,
                          env={**env, "PYTHONPATH": str(tree)} if tree else env)
    per_package: dict[str, float] = defaultdict(float)
    for line in done.stderr.splitlines():
        if not line.startswith("import time:") or "self [us]" in line:
            continue
        self_us, _, name = line.removeprefix("import time:").split("|")
        per_package[name.strip().split(".")[0]] += int(self_us) / 1000
    return sum(per_package.values()), dict(per_package)


def summary(values: list[Sample]) -> tuple[float, float, float, float]:
    """Median wall ms, least and most wall ms, median CPU ms."""
    walls = [sample.wall * 1000 for sample in values]
    return statistics.median(walls), min(walls), max(walls), statistics.median(s.cpu * 1000 for s in values)


def verdict(difference_ms: float) -> str:
    """`difference_ms` against each target in turn: "target <= 150: met, <= 120: MISSED"."""
    return "target " + ", ".join(f"<= {target:.0f}: {'met' if difference_ms <= target else 'MISSED'}"
                                 for target in TARGETS_MS)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=15)
    parser.add_argument("--sandbox", action="append", choices=["none", "bwrap"],
                        help="modes to time (default: none, and bwrap where it works)")
    parser.add_argument("--top", type=int, default=12, help="packages shown in the import breakdown")
    parser.add_argument("--baseline", type=Path, help="another source tree of the judge, timed alternately")
    args = parser.parse_args()
    modes = args.sandbox or ["none"] + (["bwrap"] if bwrap_problem() is None else [])

    with tempfile.TemporaryDirectory(prefix="judge-startup-") as folder:
        problem, source = make_problem(Path(folder))
        env = child_env(Path(folder) / "pycache")
        answer = (problem / "tests" / "1.ans").read_bytes()
        runs = {"bare": Command(bare_argv(problem, source), problem / "tests" / "1.in")}
        runs |= {mode: Command(judge_argv(problem, source, mode), tree=REPO) for mode in modes}
        if args.baseline:
            runs |= {f"baseline {mode}": Command(judge_argv(problem, source, mode), tree=args.baseline.resolve())
                     for mode in modes}
        runs["python -c pass"] = Command([sys.executable, "-c", "pass"])
        launcher, launcher_bare = launcher_argvs(REPO)
        runs |= {"launcher": Command(launcher), "launcher's python": Command(launcher_bare)}
        if args.baseline:
            runs["baseline launcher"] = Command(launcher_argvs(args.baseline.resolve())[0])
        for command in runs.values():  # warm-up: bytecode cache, the judge's venv and launcher answers
            timed(command, env)
        samples: dict[str, list[Sample]] = {name: [] for name in runs}
        for _ in range(args.repeats):
            for name, command in runs.items():
                sample, out = timed(command, env)
                if name == "bare" and out != answer:
                    raise SystemExit(f"the bare run printed {out!r}, not {answer!r}")
                samples[name].append(sample)
        total_imports, per_package = import_costs(runs[modes[0]], env)

    load = os.getloadavg()
    print(f"judge run on 1 tiny test, {args.repeats} repeats, alternating; load average {load[0]:.2f} "
          f"{load[1]:.2f} {load[2]:.2f} on {os.cpu_count()} cores")
    bare, bare_low, bare_high, bare_cpu = summary(samples["bare"])
    print(f"  {'bare run of the test':<38} {bare:7.1f} ms wall (spread {bare_low:.1f}-{bare_high:.1f}), "
          f"{bare_cpu:6.1f} ms CPU")
    outcomes = []
    for mode in [name for name in runs if name not in ("bare", "python -c pass") and "launcher" not in name]:
        wall, low, high, cpu = summary(samples[mode])
        label = f"{'baseline: ' if mode.startswith('baseline') else ''}judge run --sandbox {mode.split()[-1]}"
        print(f"  {label:<38} {wall:7.1f} ms wall (spread {low:.1f}-{high:.1f}), "
              f"{cpu:6.1f} ms CPU;  judge - bare: {wall - bare:6.1f} ms wall ({verdict(wall - bare)}),"
              f" {cpu - bare_cpu:6.1f} ms CPU")
        outcomes.append(f"start-up, {label}: judge - bare {wall - bare:+.1f} ms wall  {verdict(wall - bare)}")
    start, _, _, start_cpu = summary(samples["python -c pass"])
    print(f"where it goes ({modes[0]}): the interpreter's own start {start:.1f} ms wall ({start_cpu:.1f} ms CPU); "
          f"imports {total_imports:.1f} ms (python -X importtime, self time per package, which -X importtime "
          "itself inflates):")
    for package, milliseconds in sorted(per_package.items(), key=lambda item: -item[1])[:args.top]:
        print(f"  {package:<24} {milliseconds:7.1f} ms")
    for name in [name for name in runs if name.endswith("launcher")]:
        wall, _, _, cpu = summary(samples[name])
        label = f"{'baseline: ' if name.startswith('baseline') else ''}the launcher's start (imports included)"
        print(f"  {label:<50} {wall:6.1f} ms wall, {cpu:5.1f} ms CPU")
    wall, _, _, cpu = summary(samples["launcher's python"])
    print(f"  {'its interpreter, bare (python -I -S -c pass)':<50} {wall:6.1f} ms wall, {cpu:5.1f} ms CPU")
    print("targets:\n  " + "\n  ".join(outcomes))


if __name__ == "__main__":
    main()
