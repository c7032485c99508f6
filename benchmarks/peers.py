"""What `judge` costs per test next to its peers, on the same problem, in one run (issue 11).

    .venv/bin/python benchmarks/peers.py [--tests 50] [--repeats 3] [--peers-venv PATH] [--only TOOL,...]
                                         [--languages python,c] [--judge COMMAND] [--keep DIR]

Makes, in a temporary folder, one a+b problem with --tests tests and a 1-test copy of it, in each tool's own layout:

- our problem folder (problem.yaml, tests/N.in and N.ans) for `judge run PROBLEM SOURCE`, with `--sandbox none`
  and with `--sandbox bwrap`;
- an oj `test/` folder (sample-N.in, sample-N.out) for `oj test -c COMMAND` (online-judge-tools);
- a Kattis package per language, aplusbpython and aplusbc (a short name must be [a-z0-9]+): problem.yaml,
  problem_statement/, data/secret/, submissions/accepted/, for `verifyproblem PACKAGE -p submissions` (problemtools);
- a DMOJ problem folder (init.yml and the files) and a judge config for `dmoj-cli submit` (dmoj, ptrace sandbox);

and a Python and a C submission (the C one compiled here once, statically where libc.a exists, and once
dynamically, as DMOJ links it). Each tool is timed with time.perf_counter around a subprocess run of its command
line, on all tests and on the 1-test copy, tools alternating in a rotating order across repeats so that load
elsewhere on the machine hits each alike; a tool's cost per test is (T_all - T_1) / (tests - 1), so its start-up
(imports, compiling the submission, building the sandbox once) cancels.

The bare loop starts, with subprocess from this process, the same interpreter with the same flags (or the same
binary) that the tool starts, on the same input files, and compares each output with its answer. Where the tools
start different programs there is one bare loop per program, and each tool is compared with its own:

- judge, oj and verifyproblem run Python as the judge does (its empty venv, `-I -W ignore`): oj is given that
  command line, and verifyproblem gets it through a languages.yaml in a private XDG_CONFIG_HOME (Kattis's own
  default is PyPy); DMOJ runs the base interpreter with `-BS` through its loader (configured to the same
  interpreter), so its bare loop is `python -BS`;
- judge and verifyproblem compile C statically, oj runs the static binary built here, DMOJ links dynamically.

Each tool's measurement in a repeat comes right after a bare loop of the program it starts, and its overhead is
the difference of the two, so a burst of load elsewhere on a shared machine hits both sides of a difference.

Prints one line naming the machine (cores, CPU, kernel, cgroup version, load average before and after) and the
judge command, then a markdown table (tool, Python ms/test, overhead over its bare loop, C ms/test, overhead over
its bare loop, with the ratio tool/bare; medians over the repeats), which bare loop each row is compared with,
the tools skipped and why (with the command that installs them when they are not installed), and every sample.
Progress goes to stderr. Nothing here asserts a time. A tool that fails twice in a row during the measurement is
dropped and listed as skipped, with its one line.

Run it with the judge's own interpreter (it reads the judge's command lines from `judge.languages`). By default the
peers are looked up in /work/venv-peers/bin, else on PATH; `--peers-venv PATH` names another venv.
Tool names for --only: judge-none, judge-bwrap, oj, verifyproblem, dmoj.
"""

from __future__ import annotations

import argparse
import os
import platform
import re
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from judge.languages.catalog import LANGUAGES
from judge.languages.toolchains import resolve_toolchain

REPO = Path(__file__).resolve().parent.parent
DEFAULT_PEERS_VENV = Path("/work/venv-peers")
LANGUAGE_NAMES = ("python", "c")
PYTHON_SOURCE = "a, b = map(int, input().split())\nprint(a + b)\n"
C_SOURCE = """#include <stdio.h>

int main(void) {
    long long a, b;
    if (scanf("%lld %lld", &a, &b) != 2) return 1;
    printf("%lld\\n", a + b);
    return 0;
}
"""
PROBLEM_MEMORY_MIB = 256
RUN_TIMEOUT = 600.0
INSTALL = {
    "judge": "bash scripts/setup.sh (in the judge repository)",
    "oj": "pip install online-judge-tools",
    "verifyproblem": "pip install problemtools",
    "dmoj": "apt-get install libseccomp-dev g++ && pip install dmoj",
}


@dataclass(frozen=True)
class Submission:
    """One language's submission: the source, and the bare command lines to compare tools with."""

    language: str  # "python" or "c"
    source: Path
    bare: dict[str, list[str]]  # bare-loop name -> argv


@dataclass
class Workspace:
    """Everything the tools read, made once in a temporary folder."""

    root: Path
    tests: int
    submissions: dict[str, Submission]
    base_python: str  # the interpreter the judge's venv is made from
    judge_python: list[str]  # the judge's Python run command line, without the source

    def case_dir(self, count: int) -> Path:
        return self.root / f"{count}-tests"


@dataclass(frozen=True)
class Sample:
    """One repeat of a tool in one language: seconds on all tests and on 1 test, and its bare loop's ms/test."""

    whole: float
    one: float
    bare: float

    def per_test(self, tests: int) -> float:
        """(T_all - T_1) / (tests - 1), in milliseconds."""
        return 1000 * (self.whole - self.one) / (tests - 1)


@dataclass
class Tool:
    """A tool under test: how to run it on `count` tests, and how to tell that it accepted every test."""

    name: str
    label: str
    install: str
    bare: dict[str, str]  # language -> the bare loop it is compared with
    command: Callable[[Workspace, str, int], tuple[list[str], dict[str, str], Path]]
    accepted: Callable[[subprocess.CompletedProcess[str], int], bool]
    missing: str | None = None  # why it cannot run here, when it cannot
    absent: bool = False  # not installed (the report then shows how to install it)
    runs: dict[str, list[Sample]] = field(default_factory=dict)  # language -> one sample per repeat


def write_tests(folder: Path, count: int, input_name: str, answer_name: str) -> None:
    """Test i is "i (7i mod 1000)"; the names are formats with {i}."""
    folder.mkdir(parents=True, exist_ok=True)
    for number in range(1, count + 1):
        a, b = number, (7 * number) % 1000
        (folder / input_name.format(i=number)).write_text(f"{a} {b}\n")
        (folder / answer_name.format(i=number)).write_text(f"{a + b}\n")


def make_judge_problem(folder: Path, count: int) -> None:
    folder.mkdir(parents=True)
    (folder / "problem.yaml").write_text(
        f'id: "aplusb{count}"\ntitle: A+B\ntime_limit: 1\nmemory_limit: {PROBLEM_MEMORY_MIB}\n')
    write_tests(folder / "tests", count, "{i}.in", "{i}.ans")


def make_oj_folder(folder: Path, count: int) -> None:
    write_tests(folder / "test", count, "sample-{i}.in", "sample-{i}.out")


def make_kattis_package(folder: Path, count: int, submission: Submission) -> None:
    """A legacy-format Kattis package with the one submission under submissions/accepted."""
    (folder / "problem_statement").mkdir(parents=True)
    (folder / "problem.yaml").write_text("name: A plus B\n")
    (folder / "problem_statement" / "problem.en.tex").write_text("\\problemname{A plus B}\nPrint $a+b$.\n")
    write_tests(folder / "data" / "secret", count, "{i}.in", "{i}.ans")
    accepted = folder / "submissions" / "accepted"
    accepted.mkdir(parents=True)
    shutil.copyfile(submission.source, accepted / submission.source.name)


def make_dmoj_problem(folder: Path, count: int) -> None:
    write_tests(folder, count, "{i}.in", "{i}.out")
    cases = "".join(f"- {{in: {i}.in, out: {i}.out, points: 1}}\n" for i in range(1, count + 1))
    (folder / "init.yml").write_text("test_cases:\n" + cases)


def write_configs(work: Workspace) -> None:
    """verifyproblem's languages.yaml (Python as the judge runs it) and dmoj-cli's judge config."""
    python = shlex.join(work.judge_python)
    config = work.root / "xdg" / "problemtools"
    config.mkdir(parents=True)
    (config / "languages.yaml").write_text(
        "python3:\n"
        f"    compile: '{shlex.join([work.judge_python[0], '-I', '-m', 'py_compile'])} {{files}}'\n"
        f"    run: '{python} \"{{mainfile}}\"'\n")
    (work.root / "dmoj.yml").write_text(
        "problem_storage_globs:\n"
        f"  - {work.root}/*-tests/dmoj/*\n"
        "runtime:\n"
        f"  python3: {work.base_python}\n"
        f"  gcc11: {shutil.which('gcc')}\n")


def compile_c(source: Path, target: Path, static: bool) -> bool:
    """gcc -O2 (-static); False when static linking is not possible here."""
    done = subprocess.run(["gcc", "-O2", *(["-static"] if static else []), "-o", str(target), str(source), "-lm"],
                          capture_output=True, text=True)
    if done.returncode != 0 and static:
        return False
    if done.returncode != 0:
        raise SystemExit(f"gcc failed on the C submission:\n{done.stderr}")
    return True


def make_workspace(root: Path, tests: int) -> Workspace:
    """The submissions, the judge's command lines, and every tool's problem layout for `tests` and 1 test."""
    language = LANGUAGES["python3"]
    toolchain = resolve_toolchain(language)
    sources = root / "src"
    sources.mkdir(parents=True)
    python_source, c_source = sources / "aplusb.py", sources / "aplusb.c"
    python_source.write_text(PYTHON_SOURCE)
    c_source.write_text(C_SOURCE)

    # Python's run line has no memory placeholder (only Java's heap flag does), so the limit given here is moot
    judge_argv = toolchain.command(language.run, program=str(sources), source=str(python_source),
                                   source_label=python_source.name, memory_mib=PROBLEM_MEMORY_MIB)
    if judge_argv[-1] != str(python_source):
        raise SystemExit(f"unexpected Python run command in judge.languages: {judge_argv}")
    judge_python = judge_argv[:-1]
    base_python = toolchain.paths["python"]

    static, dynamic = sources / "aplusb-static", sources / "aplusb-dynamic"
    compile_c(c_source, dynamic, static=False)
    if not compile_c(c_source, static, static=True):
        shutil.copyfile(dynamic, static)
        static.chmod(0o755)
    submissions = {
        "python": Submission("python", python_source, {
            "python": [*judge_python, str(python_source)],
            "python -BS": [base_python, "-BS", str(python_source)],
        }),
        "c": Submission("c", c_source, {"static C": [str(static)], "dynamic C": [str(dynamic)]}),
    }
    work = Workspace(root, tests, submissions, base_python, judge_python)
    for count in (tests, 1):
        case = work.case_dir(count)
        make_judge_problem(case / "judge", count)
        make_oj_folder(case / "oj", count)
        for name, submission in submissions.items():
            make_kattis_package(case / f"aplusb{name}", count, submission)
        make_dmoj_problem(case / "dmoj" / f"aplusb{count}", count)
    write_configs(work)
    return work


def find_program(name: str, peers_venv: Path | None) -> str | None:
    if peers_venv is not None and (peers_venv / "bin" / name).exists():
        return str(peers_venv / "bin" / name)
    return shutil.which(name)


def judge_command(given: str | None) -> list[str] | None:
    """The command that starts the judge: --judge, else the judge package of this checkout run by this interpreter
    (the same code whose command lines the bare loops read from judge.languages; a venv's `judge` script imports
    whichever checkout the venv was installed from, e.g. the main worktree instead of this one)."""
    if given:
        return shlex.split(given)
    return ["env", f"PYTHONPATH={REPO}", sys.executable, "-m", "judge"]


def judge_tool(sandbox: str, executable: list[str] | None) -> Tool:
    def command(work: Workspace, language: str, count: int) -> tuple[list[str], dict[str, str], Path]:
        source = work.submissions[language].source
        return ([*(executable or []), "run", str(work.case_dir(count) / "judge"), str(source), "--sandbox", sandbox],
                {}, work.root)

    return Tool(f"judge-{sandbox}", f"judge `--sandbox {sandbox}`", INSTALL["judge"],
                {"python": "python", "c": "static C"}, command,
                lambda done, count: done.returncode == 0,
                missing=None if executable else "no judge command", absent=not executable)


def oj_tool(peers_venv: Path | None) -> Tool:
    executable = find_program("oj", peers_venv)

    def command(work: Workspace, language: str, count: int) -> tuple[list[str], dict[str, str], Path]:
        run = work.submissions[language].bare["python" if language == "python" else "static C"]
        return [str(executable), "test", "-c", shlex.join(run), "-d", "test"], {}, work.case_dir(count) / "oj"

    def accepted(done: subprocess.CompletedProcess[str], count: int) -> bool:
        return done.returncode == 0 and f"test success: {count} cases" in done.stderr + done.stdout

    return Tool("oj", "oj test", INSTALL["oj"], {"python": "python", "c": "static C"}, command, accepted,
                missing=None if executable else "oj not found", absent=not executable)


def verifyproblem_tool(peers_venv: Path | None) -> Tool:
    executable = find_program("verifyproblem", peers_venv)

    def command(work: Workspace, language: str, count: int) -> tuple[list[str], dict[str, str], Path]:
        package = work.case_dir(count) / f"aplusb{language}"
        return ([str(executable), str(package), "-p", "submissions"],
                {"XDG_CONFIG_HOME": str(work.root / "xdg")}, work.root)

    def accepted(done: subprocess.CompletedProcess[str], count: int) -> bool:
        # its exit status alone is not trusted: its summary line must count no error
        return done.returncode == 0 and re.search(r"tested: 0 errors", done.stdout + done.stderr) is not None

    return Tool("verifyproblem", "problemtools `verifyproblem -p submissions`", INSTALL["verifyproblem"],
                {"python": "python", "c": "static C"}, command, accepted,
                missing=None if executable else "verifyproblem not found", absent=not executable)


def dmoj_tool(peers_venv: Path | None) -> Tool:
    executable = find_program("dmoj-cli", peers_venv)
    executors = {"python": "PY3", "c": "C11"}

    def command(work: Workspace, language: str, count: int) -> tuple[list[str], dict[str, str], Path]:
        source = work.submissions[language].source
        return ([str(executable), "-c", str(work.root / "dmoj.yml"), "--history", str(work.root / "dmoj-history"),
                 "--skip-self-test", "--no-ansi", "-e", ",".join(executors.values()),
                 "submit", f"aplusb{count}", executors[language], str(source)], {}, work.root)

    def accepted(done: subprocess.CompletedProcess[str], count: int) -> bool:
        # the exit status of `dmoj-cli submit` says nothing of the verdicts: count the accepted test cases
        return len(re.findall(r"^Test case\s+\d+ AC\b", done.stdout, re.MULTILINE)) == count

    return Tool("dmoj", "DMOJ `dmoj-cli submit` (ptrace)", INSTALL["dmoj"],
                {"python": "python -BS", "c": "dynamic C"}, command, accepted,
                missing=None if executable else "dmoj-cli not found", absent=not executable)


def run_tool(tool: Tool, work: Workspace, language: str, count: int) -> tuple[float, subprocess.CompletedProcess[str]]:
    """Seconds for one whole run of the tool on `count` tests, and what it printed."""
    argv, extra_env, cwd = tool.command(work, language, count)
    env = {**os.environ, **extra_env}
    started = time.perf_counter()
    try:
        done = subprocess.run(argv, capture_output=True, text=True, cwd=cwd, env=env, timeout=RUN_TIMEOUT)
    except subprocess.TimeoutExpired:
        done = subprocess.CompletedProcess(argv, -1, "", f"timed out after {RUN_TIMEOUT:g} s")
    return time.perf_counter() - started, done


def why_failed(done: subprocess.CompletedProcess[str]) -> str:
    """One line: the first line that names an error, else the last thing the tool printed."""
    lines = [line.strip() for line in (done.stderr + "\n" + done.stdout).splitlines() if line.strip()]
    errors = [line for line in lines if re.search(r"could not|error|denied|not permitted|failed", line, re.IGNORECASE)]
    return f"exit {done.returncode}: {(errors or lines or ['no output'])[-1 if not errors else 0]}"


def warm_up(tool: Tool, work: Workspace, languages: list[str]) -> None:
    """One run on the 1-test copy per language (page cache, caches, compiling helpers); a failure skips the tool."""
    for language in languages:
        _, done = run_tool(tool, work, language, 1)
        if not tool.accepted(done, 1):
            tool.missing = f"did not accept the 1-test problem in {language}: {why_failed(done)}"
            return


def timed_pair(tool: Tool, work: Workspace, language: str) -> tuple[float, float] | None:
    """Seconds for the run on all tests and for the run on 1 test, back to back; None when the tool failed twice.

    A failed run is tried once more (the machine is shared: a transient refusal to start a process should not
    end the benchmark); a second failure drops the tool, with the one line it printed.
    """
    for attempt in (1, 2):
        whole, done = run_tool(tool, work, language, work.tests)
        if tool.accepted(done, work.tests):
            one, done = run_tool(tool, work, language, 1)
            if tool.accepted(done, 1):
                return whole, one
        reason = f"failed in {language} during the measurement (twice): {why_failed(done)}"
        print(f"  {tool.name} {language}, attempt {attempt}: {why_failed(done)}", file=sys.stderr)
    tool.missing = reason
    return None


def bare_loop(argv: list[str], work: Workspace) -> float:
    """Milliseconds per test for starting argv on every input of the judge's problem and comparing with its .ans."""
    tests = work.case_dir(work.tests) / "judge" / "tests"
    started = time.perf_counter()
    for number in range(1, work.tests + 1):
        with open(tests / f"{number}.in", "rb") as stdin:
            done = subprocess.run(argv, stdin=stdin, capture_output=True, cwd=work.root)
        if done.returncode != 0 or done.stdout != (tests / f"{number}.ans").read_bytes():
            raise SystemExit(f"bare loop {argv} failed on test {number}: {done}")
    return 1000 * (time.perf_counter() - started) / work.tests


def cgroup_version() -> str:
    root = Path("/sys/fs/cgroup")
    if (root / "cgroup.controllers").exists():
        return "cgroup v2"
    if (root / "memory").is_dir():
        return "cgroup v1 (hybrid, v2 at /sys/fs/cgroup/unified)" if (root / "unified").is_dir() else "cgroup v1"
    return "no cgroup file system"


def machine_line(load_before: float) -> str:
    model = "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return (f"machine: {os.cpu_count()} cores ({model}), Linux {platform.release()}, {cgroup_version()}, "
            f"Python {platform.python_version()}, load average {load_before:.2f} before, "
            f"{os.getloadavg()[0]:.2f} after")


def measure(tools: list[Tool], work: Workspace, languages: list[str], repeats: int) -> dict[str, list[float]]:
    """Every tool x language once per repeat, in an order rotated by one each repeat, each right after a bare loop
    of the program it starts (so that each overhead compares two runs under the same load); returns every bare
    loop's samples, ms/test, by name."""
    always = {"python": "python", "c": "static C"}
    argv = {name: argv for submission in work.submissions.values() for name, argv in submission.bare.items()}
    bare: dict[str, list[float]] = {always[language]: [] for language in languages}
    jobs: list[tuple[Tool | None, str]] = [(tool, language) for tool in tools for language in languages]
    jobs += [(None, name) for name in bare if not any(tool.bare[language] == name for tool, language in jobs if tool)]
    for repeat in range(repeats):
        shift = repeat % len(jobs)
        for tool, what in jobs[shift:] + jobs[:shift]:
            if tool is None:
                bare[what].append(bare_loop(argv[what], work))
                continue
            if tool.missing is not None:
                continue
            base = bare_loop(argv[tool.bare[what]], work)
            bare.setdefault(tool.bare[what], []).append(base)
            pair = timed_pair(tool, work, what)
            if pair is not None:
                tool.runs.setdefault(what, []).append(Sample(*pair, base))
        print(f"  repeat {repeat + 1}/{repeats} done, load average {os.getloadavg()[0]:.2f}", file=sys.stderr)
    return bare


def summary(samples: list[Sample], tests: int) -> tuple[float, float, float]:
    """Medians over the repeats of: ms per test, its overhead over the bare loop run just before it, their ratio."""
    per_test = [sample.per_test(tests) for sample in samples]
    return (statistics.median(per_test),
            statistics.median(value - sample.bare for value, sample in zip(per_test, samples)),
            statistics.median(value / sample.bare for value, sample in zip(per_test, samples)))


def print_table(tools: list[Tool], bare: dict[str, list[float]], tests: int) -> None:
    print("| tool | Python per test | its overhead | C per test | its overhead |")
    print("|---|---|---|---|---|")
    for python_bare, c_bare in (("python", "static C"), ("python -BS", "dynamic C")):
        if not bare.get(python_bare) and not bare.get(c_bare):
            continue
        label = "bare loop" if python_bare == "python" else "bare loop, DMOJ's programs (`python -BS`, dynamic C)"
        cells = [f"{statistics.median(bare[name]):.1f} ms" if bare.get(name) else "—"
                 for name in (python_bare, c_bare)]
        print(f"| {label} | {cells[0]} | — | {cells[1]} | — |")
    for tool in tools:
        cells = []
        for language in LANGUAGE_NAMES:
            if not tool.runs.get(language):
                cells += ["—", "—"]
                continue
            value, overhead, ratio = summary(tool.runs[language], tests)
            cells += [f"{value:.1f} ms", f"{overhead:+.1f} ms (×{ratio:.2f})"]
        print(f"| {tool.label} | " + " | ".join(cells) + " |")


def print_report(tools: list[Tool], skipped: list[Tool], bare: dict[str, list[float]], work: Workspace,
                 languages: list[str], repeats: int, judge: list[str] | None, load_before: float) -> None:
    print(machine_line(load_before))
    print(f"judge: {shlex.join(judge) if judge else 'not found'}")
    print(f"{work.tests} tests and 1 test, {repeats} repeats, tools in a rotating order; "
          f"per test = (T{work.tests} - T1) / {work.tests - 1}; overhead = per test minus a bare loop of the program "
          f"the tool starts, run just before it; medians over the repeats (ratio tool/bare in brackets)")
    print()
    print_table(tools, bare, work.tests)
    print()
    print(f"bare loops: python = {shlex.join(work.judge_python)} aplusb.py (judge, oj, verifyproblem); "
          f"python -BS = {work.base_python} -BS aplusb.py (DMOJ, which adds its loader); "
          f"static C = gcc -O2 -static (judge, oj, verifyproblem); dynamic C = gcc -O2 (DMOJ)")
    for tool in skipped:
        print(f"skipped {tool.name}: {tool.missing}" + (f"; install: {tool.install}" if tool.absent else ""))
    print("samples, ms/test per repeat (tool/its bare loop): " + "; ".join(
        [f"{tool.name} {language} " + ", ".join(f"{sample.per_test(work.tests):.1f}/{sample.bare:.1f}"
                                                 for sample in samples)
         for tool in tools for language, samples in tool.runs.items()]))
    if set(languages) != set(LANGUAGE_NAMES):
        print(f"languages measured: {', '.join(languages)}")


def parse_arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tests", type=int, default=50, help="tests in the problem (default 50; at least 2)")
    parser.add_argument("--repeats", type=int, default=3, help="timed rounds over every tool (default 3)")
    parser.add_argument("--peers-venv", type=Path, default=None,
                        help=f"venv holding oj, verifyproblem, dmoj-cli (default: {DEFAULT_PEERS_VENV} if it "
                             "exists, else PATH)")
    parser.add_argument("--only", default="",
                        help="comma-separated tools: judge-none,judge-bwrap,oj,verifyproblem,dmoj")
    parser.add_argument("--languages", default=",".join(LANGUAGE_NAMES), help="comma-separated: python,c")
    parser.add_argument("--judge", help="the command that starts the judge, split like a shell would (default: "
                                           f"env PYTHONPATH={REPO} {sys.executable} -m judge); e.g. "
                                           "'env PYTHONPATH=/tmp/judge-head .venv/bin/python -m judge'")
    parser.add_argument("--keep", type=Path, help="build the problems here (kept) instead of a temporary folder")
    arguments = parser.parse_args()
    if arguments.tests < 2 or arguments.repeats < 1:
        parser.error("--tests must be at least 2 and --repeats at least 1")
    if arguments.keep is not None and arguments.keep.exists() and any(arguments.keep.iterdir()):
        parser.error(f"--keep {arguments.keep}: the folder must be new or empty")
    if arguments.peers_venv is None and DEFAULT_PEERS_VENV.is_dir():
        arguments.peers_venv = DEFAULT_PEERS_VENV
    return arguments


def main() -> None:
    arguments = parse_arguments()
    languages = [name for name in arguments.languages.split(",") if name]
    if not languages or set(languages) - set(LANGUAGE_NAMES):
        raise SystemExit(f"--languages: choose from {', '.join(LANGUAGE_NAMES)}")
    judge = judge_command(arguments.judge)
    tools = [judge_tool("none", judge), judge_tool("bwrap", judge), oj_tool(arguments.peers_venv),
             verifyproblem_tool(arguments.peers_venv), dmoj_tool(arguments.peers_venv)]
    if arguments.only:
        wanted = set(arguments.only.split(","))
        unknown = wanted - {tool.name for tool in tools}
        if unknown:
            raise SystemExit(f"--only: unknown tool(s) {', '.join(sorted(unknown))}; "
                             f"choose from {', '.join(tool.name for tool in tools)}")
        tools = [tool for tool in tools if tool.name in wanted]

    load_before = os.getloadavg()[0]
    folder = arguments.keep or Path(tempfile.mkdtemp(prefix="judge-peers-"))
    try:
        work = make_workspace(folder, arguments.tests)
        for tool in tools:
            if tool.missing is None:
                warm_up(tool, work, languages)
        ready = [tool for tool in tools if tool.missing is None]
        print(f"measuring {', '.join(tool.name for tool in ready) or 'nothing but the bare loops'} "
              f"in {folder}", file=sys.stderr)
        bare = measure(ready, work, languages, arguments.repeats)
        print_report([tool for tool in ready if tool.missing is None],
                     [tool for tool in tools if tool.missing is not None], bare, work, languages, arguments.repeats,
                     judge, load_before)
    finally:
        if arguments.keep is None:
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
