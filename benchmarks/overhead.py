"""What the judge costs per test beyond the programs it runs (issue 11's targets), against bare loops timed in
the same run.

    python benchmarks/overhead.py [--tests 100] [--repeats 4] [--containment cgroup,proc,portable] [--profile]

For each containment (`--containment`, default: every one `judge.runner.containment.choice.available_containments()`
names), alternating within every repeat so that load elsewhere on the machine hits every side alike:

a. Python, N tiny tests ("echo the number"): `judge_submission` with `--sandbox none` and `--sandbox bwrap`,
   against a bare loop that starts the same interpreter with the same flags (`toolchain.command` of
   judge.languages) on the same input files with `subprocess` and compares the output bytes.
   Figure: judge/bare per test (targets: none <= 1.10, bwrap <= 1.20).
b. The same for a static C program (compiled once for the bare loop exactly as the judge compiles C).
   Figure: judge per test - bare per test, in ms (targets: none <= 1.5 ms, bwrap <= 3 ms).
c. The CPU time the judge reports for that trivial C program (median over the tests of cases[i].cpu_seconds),
   bwrap minus none (target: within 0.5 ms): the box's set-up must not be charged to the submission.
d. A control without a target: the C program of b, pausing PAUSE_MS first (a sleep, as long as a Python test
   lasts). The judge does exactly a C test's work for it, yet its own CPU per test comes out higher, as a Python
   test's does: the same work costs more CPU time after the machine has run something else or idled for
   milliseconds (caches, the CPU's idle state; measured here, 2026-12: this process 0.7 ms after a C test, 1.3
   to 1.5 ms after one that sleeps or computes for 14 ms). Python's own-CPU figure is read against this one:
   what Python's exceeds it by is the judge's work for Python.

Each line of a and b also gives the other form (Python's extra ms, C's ratio), so that the languages compare, and
two figures that other jobs on the machine disturb far less than wall time (targets: <= 1 ms, <= 3):
- the judge's own CPU per test: the CPU time of every process the judgings started (the judge's own, its
  launcher's and box's, and the programs', all reaped and so in RUSAGE_CHILDREN) less the program's own, which
  is the bare loop's children's CPU per test; split into this process's and the rest (launcher, box);
- wake-ups per test: voluntary context switches of this process and of everything it started (each one a
  sleep that a wake-up ends), less the one every program's end adds (the kernel counts a process's last switch,
  into death, as voluntary: a program that never sleeps reads 0 of its own, and its parent 1 for it, measured;
  no one wakes it), against the bare loop's, counted alike (its parent waits for the vfork, the exit, the pipes).
The first is split in two, to tell the judge's own work from a program that runs slower in the judge than in
the bare loop: the program's CPU as the judge charged it (every finished run's `RunStats.cpu_seconds`, the
control group's count where there is one, recorded by wrapping `execute.PendingRun.finish`) against the bare
loop's program CPU, and everything else the judge's processes spent.

"Per test" for the judge is the issue's definition, (T(N) - T(1)) / (N - 1): the fixed cost of one submission
(checker, compile, launcher and box start) is left out, and printed separately as T(1). The whole judging
divided by N is printed as well. Each figure pairs the judge with the bare loop of the same repeat (a shared
machine drifts by milliseconds per test between repeats); medians over the repeats, and the best repeat.
Nothing here asserts a time; the load average is printed with the figures, since other jobs on a shared machine
show up in them.
`--profile` prints a cProfile of one Python judging (first containment, `--profile-sandbox`) instead.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from judge.judging.limit_policy import effective_limits
from judge.judging.results import SubmissionResult
from judge.judging.submission import judge_submission
from judge.languages.catalog import LANGUAGES
from judge.languages.toolchains import resolve_toolchain
from judge.options import RunOptions
from judge.problems.folder import load_problem
from judge.problems.model import Problem
from judge.runner import execute
from judge.runner.containment.choice import available_containments
from judge.runner.sandbox import bwrap_problem
from judge.verdicts import Verdict

PYTHON_SOURCE = "print(int(input()))\n"
C_SOURCE = ('#include <stdio.h>\n'
            'int main(void) { int n; if (scanf("%d", &n) != 1) return 1; printf("%d\\n", n); return 0; }\n')
PAUSE_MS = 15
PAUSING_C_SOURCE = C_SOURCE.replace("#include <stdio.h>\n", "#include <stdio.h>\n#include <unistd.h>\n").replace(
    "int n;", f"int n; usleep({PAUSE_MS * 1000});")
WORKLOADS = {"python3": ("python3", PYTHON_SOURCE), "c": ("c", C_SOURCE), "c-paused": ("c", PAUSING_C_SOURCE)}
"""Each workload's key: its language and source."""
PYTHON_RATIO_TARGET = {"none": 1.10, "bwrap": 1.20}
OWN_CPU_TARGET_MS = 1.0
WAKE_UPS_TARGET = 3
ENDS_PER_TEST = 1  # processes ended per test (the program): each counted one voluntary switch that is no wake-up
C_EXTRA_MS_TARGET = {"none": 1.5, "bwrap": 3.0}
CPU_DIFFERENCE_TARGET_MS = 0.5


@dataclass(frozen=True)
class Workload:
    """One submission and the bare loop it is compared with; `key` names its figures."""

    key: str
    language: str
    source: Path
    bare_argv: list[str]


@dataclass
class Samples:
    """Seconds per sample, keyed by what was timed (e.g. "python bwrap N"), and the reported CPU times."""

    times: dict[str, list[float]] = field(default_factory=dict)
    cpu_ms: dict[str, list[float]] = field(default_factory=dict)

    def add(self, key: str, seconds: float) -> None:
        self.times.setdefault(key, []).append(seconds)


def make_problem(root: Path, tests: int) -> Problem:
    """A problem whose N tests each give a number to echo back (exact checker)."""
    (root / "tests").mkdir(parents=True)
    (root / "problem.yaml").write_text("id: echo\ntitle: Echo the number\ntime_limit: 1\nmemory_limit: 256\n")
    for number in range(1, tests + 1):
        (root / "tests" / f"{number}.in").write_text(f"{number}\n")
        (root / "tests" / f"{number}.ans").write_text(f"{number}\n")
    return load_problem(root)


def bare_command(language_key: str, source: Path, problem: Problem) -> list[str]:
    """The run command the judge gives `language_key`, with the judge's flags, outside any box; C is compiled
    here once with the judge's own compile command (so -static exactly where the judge links statically)."""
    language = LANGUAGES[language_key]
    toolchain = resolve_toolchain(language)
    memory_mib = effective_limits(problem.spec, language).memory_mib
    program = source.parent

    def command(template: tuple[str, ...]) -> list[str]:
        return toolchain.command(template, program=str(program), source=str(source), source_label=source.name,
                                 memory_mib=memory_mib)

    if language.compile is not None and language_key != "python3":  # Python's byte-compile is the judge's check
        done = subprocess.run(command(language.compile), capture_output=True, text=True, cwd=program)
        if done.returncode != 0:
            raise SystemExit(f"compiling the bare {language_key} program failed:\n{done.stderr}")
    return command(language.run)


def make_workload(root: Path, key: str, language_key: str, text: str, problem: Problem) -> Workload:
    """The submission file the judge gets, and a separate compiled copy for the bare loop."""
    name = LANGUAGES[language_key].source_name
    judged = root / f"{key}-judged" / name
    bare = root / f"{key}-bare" / name
    for path in (judged, bare):
        path.parent.mkdir(parents=True)
        path.write_text(text)
    return Workload(key, language_key, judged, bare_command(language_key, bare, problem))


@dataclass(frozen=True)
class Usage:
    """What the kernel counted so far of this process (all its threads) and of its reaped descendants."""

    wall: float
    own_cpu: float
    children_cpu: float
    own_switches: int  # voluntary context switches: each a sleep that a wake-up ended
    children_switches: int

    @staticmethod
    def now() -> Usage:
        own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
        return Usage(time.perf_counter(), own.ru_utime + own.ru_stime, children.ru_utime + children.ru_stime,
                     own.ru_nvcsw, children.ru_nvcsw)

    def since(self, before: Usage) -> dict[str, float]:
        """The figures of what ran between `before` and this, by the name they are kept under."""
        return {"": self.wall - before.wall, " own": self.own_cpu - before.own_cpu,
                " children": self.children_cpu - before.children_cpu,
                " own switches": self.own_switches - before.own_switches,
                " switches": self.own_switches + self.children_switches - before.own_switches
                - before.children_switches}


def time_bare(problem: Problem, workload: Workload) -> dict[str, float]:
    """The bare loop over every test (start the program on the input file, compare the bytes): its seconds, the
    CPU seconds of the loop itself and of the programs, and the wake-ups of both (`Usage.since`)."""
    before = Usage.now()
    for test in problem.tests:
        with open(test.input_path, "rb") as stdin:
            done = subprocess.run(workload.bare_argv, stdin=stdin, capture_output=True, cwd=workload.source.parent)
        if done.returncode != 0 or done.stdout != test.answer_path.read_bytes():
            raise SystemExit(f"bare {workload.key} run failed on {test.name}: {done}")
    return Usage.now().since(before)


@dataclass
class ChargedCpu:
    """The CPU seconds the judge charged to the programs it ran (`RunStats.cpu_seconds` of every finished run,
    `execute.PendingRun.finish`) while `recording`: the program's own CPU inside the judge, which the bare loop's
    children CPU is compared with."""

    seconds: float = 0.0

    @contextmanager
    def recording(self) -> Iterator[None]:
        real = execute.PendingRun.finish

        def recorded(run: execute.PendingRun) -> execute.RunStats:
            stats = real(run)
            self.seconds += stats.cpu_seconds
            return stats

        execute.PendingRun.finish = recorded  # type: ignore[method-assign]  # every run of the judging ends here
        try:
            yield
        finally:
            execute.PendingRun.finish = real  # type: ignore[method-assign]


FAILURES: list[str] = []
"""Judgings that were not AC (a judge bug, not a timing): listed at the end; the judging is timed again."""


def time_judge(problem: Problem, workload: Workload,
               options: RunOptions) -> tuple[dict[str, float], SubmissionResult]:
    """One whole judging (in process, as `judge run` does after its imports): its figures (`Usage.since`: every
    process it started is reaped by its end) and its result. A judging that is not AC is recorded in FAILURES
    and done again (twice in a row ends the benchmark)."""
    for _ in range(2):
        charged = ChargedCpu()
        before = Usage.now()
        with charged.recording():
            result = judge_submission(problem, workload.source, options)
        figures = Usage.now().since(before)
        figures[" program"] = charged.seconds
        if result.verdict is Verdict.AC:
            return figures, result
        wrong = [f"test {case.name}: {case.verdict.short} {case.message}" for case in result.cases
                 if case.verdict is not Verdict.AC]
        FAILURES.append(f"{workload.key} sandbox {options.sandbox} containment {options.containment}: "
                        f"{result.verdict.short} on {len(wrong)} of {len(result.cases)} tests ({'; '.join(wrong[:3])})")
        print(f"  not AC, judged again: {FAILURES[-1]}", file=sys.stderr)
    raise SystemExit(f"the judge was not AC twice in a row: {FAILURES[-1]}")


def one_repeat(problems: dict[int, Problem], workloads: dict[str, Workload], containment: str,
               sandboxes: Sequence[str], samples: Samples) -> None:
    """One sample of everything for one containment, bare loop first, then each sandbox at N tests and 1 test."""
    big = max(problems)
    for key, workload in workloads.items():
        for name, value in time_bare(problems[big], workload).items():
            samples.add(f"{containment} {key} bare{name}", value)
        for sandbox in sandboxes:
            options = RunOptions(sandbox=sandbox, containment=containment)  # type: ignore[arg-type]
            for size, problem in problems.items():
                figures, result = time_judge(problem, workload, options)
                for name, value in figures.items():
                    samples.add(f"{containment} {key} {sandbox}{name} {size}", value)
                if size == big:
                    cpus = [case.cpu_seconds * 1000 for case in result.cases]
                    cpu_key = f"{containment} {key} {sandbox}"
                    samples.cpu_ms.setdefault(cpu_key, []).append(statistics.median(cpus))
                    samples.cpu_ms.setdefault(f"{cpu_key} mean", []).append(statistics.mean(cpus))


def per_test(samples: Samples, key: str, big: int) -> dict[str, list[float]]:
    """Per repeat, ms per test of the judge ("marginal": (T(N) - T(1)) / (N - 1); "whole": T(N) / N) and T(1)."""
    many, one = samples.times[f"{key} {big}"], samples.times[f"{key} 1"]
    return {"marginal": [(n - o) / (big - 1) * 1000 for n, o in zip(many, one, strict=True)],
            "whole": [n / big * 1000 for n in many], "fixed": [o * 1000 for o in one]}


def verdict(value: float, target: float) -> str:
    return f"target <= {target:g}: {'met' if value <= target else 'MISSED'}"


def report(samples: Samples, containments: Sequence[str], sandboxes: Sequence[str], big: int) -> list[str]:
    """The figures, one block per containment; returns the lines naming each target's outcome. Each figure is
    paired within a repeat (the judge against the bare loop timed just before it), so that the machine's drift
    between repeats cancels out; the median over the repeats is the figure, the best repeat is shown too."""
    outcomes = []
    for containment in containments:
        print(f"\n## containment {containment}")
        for language in ("python3", "c"):
            bare = [seconds / big * 1000 for seconds in samples.times[f"{containment} {language} bare"]]
            print(f"  {language:<7} bare loop            {statistics.median(bare):7.2f} ms/test  "
                  f"(best {min(bare):.2f})")
            bare_own = [seconds / big * 1000 for seconds in samples.times[f"{containment} {language} bare own"]]
            for sandbox in sandboxes:
                judged = per_test(samples, f"{containment} {language} {sandbox}", big)
                pairs = list(zip(judged["marginal"], bare, strict=True))
                ratios = [judge / bare_ms for judge, bare_ms in pairs]
                extras = [judge - bare_ms for judge, bare_ms in pairs]
                ratio = f"judge/bare {statistics.median(ratios):.3f} (best {min(ratios):.3f})"
                extra = f"judge - bare {statistics.median(extras):+.2f} ms (best {min(extras):+.2f})"
                if language == "python3":
                    figure, shown, also = statistics.median(ratios), ratio, extra
                    target = PYTHON_RATIO_TARGET[sandbox]
                else:
                    figure, shown, also = statistics.median(extras), extra, ratio
                    target = C_EXTRA_MS_TARGET[sandbox]
                line = f"{containment} {language} {sandbox}: {shown}  {verdict(figure, target)}"
                outcomes.append(line)
                print(f"  {language:<7} judge {sandbox:<6} {statistics.median(judged['marginal']):7.2f} ms/test  "
                      f"{shown}  [{verdict(figure, target)}]  {also}; whole judging/N "
                      f"{statistics.median(judged['whole']):.2f} ms, T(1) {statistics.median(judged['fixed']):.0f} ms")
                outcomes.extend(own_cost_lines(samples, f"{containment} {language}", sandbox, big))
            print(f"  {language:<7} bare loop: its own CPU {statistics.median(bare_own):.2f} ms/test")
        outcomes.extend(cpu_lines(samples, containment, sandboxes))
        outcomes.extend(control_lines(samples, containment, sandboxes, big))
    return outcomes


def own_cost_lines(samples: Samples, key: str, sandbox: str, big: int) -> list[str]:
    """The judge's own CPU per test (every process it started, less the program: the bare loop's program CPU
    per test of the same repeat) and its wake-ups per test, against their targets (see the module's docstring)."""
    def marginal(name: str) -> list[float]:
        return per_test(samples, f"{key} {sandbox}{name}", big)["marginal"]

    def bare(name: str) -> list[float]:
        return [value / big * 1000 for value in samples.times[f"{key} bare{name}"]]

    own, children, program = marginal(" own"), marginal(" children"), bare(" children")
    whole = judge_own_cpu(samples, key, sandbox, big)
    charged = marginal(" program")
    slower = [inside - ran for inside, ran in zip(charged, program, strict=True)]
    helpers = [theirs - ran for theirs, ran in zip(children, program, strict=True)]
    # Switches are counts, not seconds: per_test's ms are thousandths of a switch.
    wake_ups = [value / 1000 - ENDS_PER_TEST for value in marginal(" switches")]
    judge_wake_ups = [value / 1000 for value in marginal(" own switches")]
    bare_wake_ups = [value / 1000 - ENDS_PER_TEST for value in bare(" switches")]
    cpu_line = (f"{key} {sandbox}: the judge's own CPU {statistics.median(whole):.2f} ms/test "
                f"(spread {min(whole):.2f}-{max(whole):.2f})  {verdict(statistics.median(whole), OWN_CPU_TARGET_MS)}")
    wake_line = (f"{key} {sandbox}: wake-ups {statistics.median(wake_ups):.2f}/test "
                 f"(bare loop {statistics.median(bare_wake_ups):.2f}, "
                 f"{statistics.median(wake_ups) - statistics.median(bare_wake_ups):+.2f})  "
                 f"{verdict(statistics.median(wake_ups), WAKE_UPS_TARGET)}")
    print(f"    {cpu_line}: this process {statistics.median(own):.2f}, its launcher and box "
          f"{statistics.median(helpers):.2f} (their CPU less the program's {statistics.median(program):.2f})")
    print(f"    {key} {sandbox}: of which the program, as the judge charged it: {statistics.median(charged):.2f} "
          f"ms/test against {statistics.median(program):.2f} bare ({statistics.median(slower):+.2f}, spread "
          f"{min(slower):+.2f} to {max(slower):+.2f}), and the judge's processes outside it "
          f"{statistics.median(whole) - statistics.median(slower):.2f}")
    print(f"    {wake_line}: this process {statistics.median(judge_wake_ups):.2f}, its launcher, box and programs "
          f"{statistics.median(wake_ups) - statistics.median(judge_wake_ups):.2f}")
    return [cpu_line, wake_line]


def judge_own_cpu(samples: Samples, key: str, sandbox: str, big: int) -> list[float]:
    """Per repeat, the judge's own CPU in ms per test: every process of the judging less the bare loop's program."""
    own = per_test(samples, f"{key} {sandbox} own", big)["marginal"]
    children = per_test(samples, f"{key} {sandbox} children", big)["marginal"]
    program = [value / big * 1000 for value in samples.times[f"{key} bare children"]]
    return [mine + theirs - ran for mine, theirs, ran in zip(own, children, program, strict=True)]


def control_lines(samples: Samples, containment: str, sandboxes: Sequence[str], big: int) -> list[str]:
    """Figure d (no target): the judge's own CPU for the C program that pauses, beside Python's and C's."""
    lines = []
    for sandbox in sandboxes:
        figures = {key: statistics.median(judge_own_cpu(samples, f"{containment} {key}", sandbox, big))
                   for key in ("c-paused", "python3", "c")}
        mine = {key: statistics.median(per_test(samples, f"{containment} {key} {sandbox} own", big)["marginal"])
                for key in figures}
        lines.append(f"{containment} control {sandbox}: the judge's own CPU for a C test that pauses {PAUSE_MS} ms "
                      f"{figures['c-paused']:.2f} ms/test, this process {mine['c-paused']:.2f} (no target: a C "
                      f"test's work; python3 {figures['python3']:.2f}, this process {mine['python3']:.2f}; c "
                      f"{figures['c']:.2f}, this process {mine['c']:.2f})")
        print(f"  {lines[-1]}")
    return lines


def cpu_lines(samples: Samples, containment: str, sandboxes: Sequence[str]) -> list[str]:
    """Figure c: the trivial C program's reported CPU time in the box against without it."""
    cpu = {sandbox: statistics.median(samples.cpu_ms[f"{containment} c {sandbox}"]) for sandbox in sandboxes}
    mean = {sandbox: statistics.median(samples.cpu_ms[f"{containment} c {sandbox} mean"]) for sandbox in sandboxes}
    # A case's cpu_seconds is rounded to the millisecond, so the median over tests moves in whole ms; the mean
    # over 100 tests shows what lies between.
    print("  c reported CPU per test (median over repeats of the median over tests; mean over tests): "
          + ", ".join(f"{sandbox} {value:.2f} ms ({mean[sandbox]:.2f})" for sandbox, value in cpu.items()))
    if "bwrap" not in cpu:
        return []
    difference = cpu["bwrap"] - cpu["none"]
    line = (f"{containment} c cpu bwrap - none: {difference:+.2f} ms (means {mean['bwrap'] - mean['none']:+.2f})  "
            f"{verdict(abs(difference), CPU_DIFFERENCE_TARGET_MS)}")
    print(f"  {line}")
    return [line]


def profile(problem: Problem, workload: Workload, options: RunOptions) -> None:
    """Where one judging spends its time, by own time and by cumulative time."""
    time_judge(problem, workload, options)  # warm: toolchain cache, page cache
    profiler = cProfile.Profile()
    profiler.enable()
    judge_submission(problem, workload.source, options)
    profiler.disable()
    stats = pstats.Stats(profiler, stream=sys.stdout)
    stats.sort_stats("tottime").print_stats(25)
    stats.sort_stats("cumulative").print_stats(30)


def load() -> str:
    return " ".join(f"{value:.2f}" for value in os.getloadavg())


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tests", type=int, default=100)
    parser.add_argument("--repeats", type=int, default=4, help="default 4: about 3 minutes on 2 busy cores")
    parser.add_argument("--containment", default=",".join(available_containments()),
                        help=f"comma-separated, from {', '.join(available_containments())} (default: all of them)")
    parser.add_argument("--profile", action="store_true", help="print a cProfile of one Python judging instead")
    parser.add_argument("--profile-sandbox", default="none", choices=("none", "bwrap"))
    parser.add_argument("--profile-language", default="python3", choices=("python3", "c"))
    args = parser.parse_args()
    args.containment = [name.strip() for name in args.containment.split(",") if name.strip()]
    unknown = set(args.containment) - set(available_containments())
    if unknown:
        parser.error(f"--containment {', '.join(sorted(unknown))}: not available here")
    return args


def main() -> None:
    args = parse_args()
    sandboxes = ["none"] + (["bwrap"] if bwrap_problem() is None else [])
    with tempfile.TemporaryDirectory(prefix="judge-bench-") as folder:
        root = Path(folder)
        problems = {args.tests: make_problem(root / "many", args.tests), 1: make_problem(root / "one", 1)}
        workloads = {key: make_workload(root, key, language, text, problems[args.tests])
                     for key, (language, text) in WORKLOADS.items()}
        if args.profile:
            options = RunOptions(sandbox=args.profile_sandbox, containment=args.containment[0])
            profile(problems[args.tests], workloads[args.profile_language], options)
            return
        print(f"{args.tests} tests x {args.repeats} repeats; containments {', '.join(args.containment)}; "
              f"sandboxes {', '.join(sandboxes)} (bwrap: {bwrap_problem() or 'works'}); {os.cpu_count()} CPUs; "
              f"load average before: {load()}")
        started = time.perf_counter()
        samples = Samples()
        for containment in args.containment:  # warm up: toolchain cache, page cache, first control group
            one_repeat({1: problems[1], 2: problems[1]}, workloads, containment, sandboxes, Samples())
        for _ in range(args.repeats):
            for containment in args.containment:
                one_repeat(problems, workloads, containment, sandboxes, samples)
    outcomes = report(samples, args.containment, sandboxes, args.tests)
    print(f"\nload average after: {load()}; took {time.perf_counter() - started:.0f} s")
    print("targets:\n  " + "\n  ".join(outcomes))
    if FAILURES:
        print(f"judgings that were not AC ({len(FAILURES)}; each judged again):\n  " + "\n  ".join(FAILURES))


if __name__ == "__main__":
    main()
