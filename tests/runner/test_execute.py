"""End to end through `judge_submission`: what `execute.run` measures and enforces, with purpose-built programs.

Timings on the dev machine are noisy (other jobs share its two cores), so nothing here asserts speed: CPU time is
compared, for one and the same run, with what the program counted itself and with what GNU time counted (two runs
of one program differ by up to 2x on a shared machine), and the wall-clock check is the backstop property "the
judge gives up within the wall limit plus generous slack".
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import sysconfig
import textwrap
import time
import uuid
from collections.abc import Callable
from pathlib import Path

import psutil
import pytest

from conftest import TEST_TIME_SCALE, needs, program
from judge.judging.results import SubmissionResult
from judge.judging.submission import judge_submission
from judge.languages.catalog import LANGUAGES
from judge.languages.toolchains import resolve_toolchain
from judge.options import RunOptions
from judge.problems.folder import load_problem
from judge.runner import execute
from judge.runner.containment import cgroups, proctree
from judge.runner.containment.choice import available_containments, choose_containment
from judge.runner.limits import Limits
from judge.verdicts import Verdict

REPOSITORY = Path(__file__).resolve().parents[2]
GNU_TIME = "/usr/bin/time"
ROUNDS = 3

needs_gnu_time = pytest.mark.skipif(not Path(GNU_TIME).is_file(), reason="GNU time missing: apt-get install -y time")


@pytest.fixture(params=["cgroup", "proc", pytest.param("portable", marks=pytest.mark.slow)])
def containment(request: pytest.FixtureRequest) -> str:
    """Every runner test runs under each containment this machine has (`--containment`), skipped where the
    kernel lacks it. The portable one (psutil only) is in the slow suite."""
    if request.param not in available_containments():
        pytest.skip(f"no {request.param} containment here (this machine has: {', '.join(available_containments())})")
    return request.param


@pytest.fixture
def judge(containment: str) -> Callable[..., SubmissionResult]:
    """`judge(problem, source, sandbox, language=None)` under the containment of this test's parameter."""
    def judge_with(problem_dir: Path, source: Path, sandbox: str, language: str | None = None) -> SubmissionResult:
        options = RunOptions(language=language, sandbox=sandbox, containment=containment)
        return judge_submission(load_problem(problem_dir), source, options)

    return judge_with


def python_command(source: Path) -> list[str]:
    """The command line the judge starts for a Python submission, unconfined."""
    toolchain = resolve_toolchain(LANGUAGES["python3"])
    return toolchain.command(toolchain.language.run, program=str(source.parent), source=str(source),
                             source_label=source.name, memory_mib=0)


def gnu_time(command: list[str], stdin: str = "") -> tuple[float, int]:
    """(user + system CPU seconds, max RSS bytes) of `command` run directly, as GNU time reports them."""
    done = subprocess.run([GNU_TIME, "-f", "%U %S %M", "--", *command], input=stdin.encode(),
                          capture_output=True, check=True)
    user, system, max_rss_kib = done.stderr.decode().strip().splitlines()[-1].split()
    return float(user) + float(system), int(max_rss_kib) * 1024


# --- measurements ----------------------------------------------------------------------------------------------


OWN_CLOCK_CHECKER = """
from judge.checkers.base import CheckResult
from judge.verdicts import Verdict

def check(*, input, output, answer):
    total, own_cpu = output.split()
    return CheckResult(Verdict.AC if total == answer.strip() else Verdict.WA, own_cpu.decode())
"""


def test_cpu_time_matches_the_programs_own_clock(make_problem, sandbox, judge):
    """Noise-free, through the whole judge: the program prints the CPU time the kernel counted for it up to its
    last line, and the judge's figure for that same run must cover it and add no more than the interpreter's exit.
    (Two separate runs differ by up to 2x on a shared CI machine, so comparing runs cannot tell a judge that is
    10 % off from load.)"""
    source = program("burn_cpu_own_clock.py")
    problem = make_problem({"1": ("", f"{sum(range(3_000_000))}\n")}, time_limit=10 * TEST_TIME_SCALE,
                           language_allowance=False, checker="checker.py")
    (problem / "checker.py").write_text(OWN_CLOCK_CHECKER, encoding="utf-8")
    result = judge(problem, source, sandbox)
    assert result.verdict is Verdict.AC, result
    own = float(result.cases[0].message)
    measured = result.cases[0].cpu_seconds
    assert own > 0.05, f"the burner is too short to compare: {own} s"
    assert own - 0.002 <= measured <= 1.10 * own + 0.05, (measured, own)


@needs_gnu_time
def test_same_run_agrees_with_gnu_time(tmp_path, containment):
    """Noise-free: GNU time and the judge measure one and the same run (GNU time's own share is tiny)."""
    report = tmp_path / "time.txt"
    stdin = tmp_path / "empty.in"
    stdin.touch()
    spec = execute.RunSpec(
        argv=[GNU_TIME, "-f", "%U %S %M", "-o", str(report), "--", *python_command(program("burn_cpu.py"))],
        cwd=tmp_path, stdin_path=stdin, stdout_path=tmp_path / "out", stderr_path=tmp_path / "err",
        env={"PATH": "/usr/bin:/bin"}, limit_address_space=False,
    )
    limits = Limits(time_seconds=10 * TEST_TIME_SCALE, wall_seconds=30 * TEST_TIME_SCALE, memory_mib=512, output_mib=1)
    stats = execute.run(spec, limits, choose_containment(containment))
    assert (stats.exit_code, stats.signal, stats.tripped) == (0, None, None), stats
    user, system, max_rss_kib = report.read_text().split()
    cpu = float(user) + float(system)
    assert abs(stats.cpu_seconds - cpu) <= 0.10 * cpu, (stats.cpu_seconds, cpu)
    assert stats.peak_bytes <= int(max_rss_kib) * 1024 * 1.10 + 4 * 2**20, (stats.peak_bytes, max_rss_kib)


@needs_gnu_time
def test_peak_memory_matches_max_rss(make_problem, sandbox, judge):
    source = program("hold_100mib.py")
    problem = make_problem({"1": ("", "100\n")}, time_limit=5, memory_limit=512, language_allowance=False)
    real_peak = statistics.median(gnu_time(python_command(source))[1] for _ in range(ROUNDS))
    result = judge(problem, source, sandbox)
    assert result.verdict is Verdict.AC, result
    measured = result.cases[0].peak_mib * 1024 * 1024
    assert abs(measured - real_peak) <= 0.10 * real_peak, \
        f"judge {measured / 2**20:.1f} MiB vs max RSS {real_peak / 2**20:.1f} MiB"


# --- time limits -----------------------------------------------------------------------------------------------


def test_sleeper_is_ended_by_the_wall_backstop(make_problem, sandbox, judge):
    """The sleeper would print its answer after 60 s; the backstop (2 s here) must end it first. The message names
    the wall limit, which the classifier only picks when the CPU limit was not reached. No elapsed time is
    asserted: returning at all, with this verdict, is the proof."""
    problem = make_problem({"1": ("", "woke up\n")}, time_limit=0.5, language_allowance=False)
    result = judge(problem, program("sleeper.py"), sandbox)
    assert result.verdict is Verdict.TLE
    assert "wall" in result.cases[0].message


@needs("gcc")
def test_two_busy_threads_are_tle_on_cpu_time(make_problem, sandbox, judge):
    problem = make_problem({"1": ("", "0\n")}, time_limit=0.5)
    result = judge(problem, program("two_threads.c"), sandbox)
    assert result.verdict is Verdict.TLE, result
    assert "CPU" in result.cases[0].message
    assert result.cases[0].cpu_seconds >= result.limits.time_seconds


def test_a_thread_with_the_default_stack_size_starts(make_problem, judge):
    result = judge(make_problem({"1": ("", "thread ok\n")}), program("thread_default_stack.py"), "none")
    assert result.verdict is Verdict.AC, result


def test_two_busy_processes_are_tle_on_cpu_time(make_problem, sandbox, judge):
    problem = make_problem({"1": ("", "0\n")}, time_limit=0.5, language_allowance=False)
    result = judge(problem, program("two_processes.py"), sandbox)
    assert result.verdict is Verdict.TLE, result
    assert "CPU" in result.cases[0].message


# --- memory and output limits ----------------------------------------------------------------------------------


def test_allocating_twice_the_memory_limit_is_mle(make_problem, sandbox, judge):
    problem = make_problem({"1": ("128\n", "0\n")}, memory_limit=64, language_allowance=False)
    result = judge(problem, program("allocate.py"), sandbox)
    assert result.verdict is Verdict.MLE, result
    assert "64 MiB" in result.cases[0].message


def test_allocating_under_the_memory_limit_is_fine(make_problem, sandbox, judge):
    problem = make_problem({"1": ("16\n", f"{16 * 2**20}\n")}, memory_limit=64, language_allowance=False)
    result = judge(problem, program("allocate.py"), sandbox)
    assert result.verdict is Verdict.AC, result


def test_each_test_is_measured_on_its_own(make_problem, sandbox, containment, judge):
    """A submission's tests may share one control group (judge/runner/containment/cgroup.py, _ReusedGroup): what
    one test used or hit is never the next one's. Test 1 hits the memory limit, test 2 holds 16 MiB, test 3 1 MiB.
    (Polling may miss a short run's peak: only a control group's is certain to be at least what was held.)"""
    tests = {"1": ("128\n", "0\n"), "2": ("16\n", f"{16 * 2**20}\n"), "3": ("1\n", f"{2**20}\n")}
    problem = make_problem(tests, memory_limit=64, language_allowance=False)
    result = judge(problem, program("allocate.py"), sandbox)
    assert [case.verdict for case in result.cases] == [Verdict.MLE, Verdict.AC, Verdict.AC], result
    assert result.cases[1].peak_mib < 40, result.cases[1]
    assert result.cases[2].peak_mib < 16, result.cases[2]
    if containment == "cgroup":
        assert result.cases[1].peak_mib >= 16, result.cases[1]


@pytest.mark.skipif(cgroups.probe() != "cgroup v1", reason="a control group is reused from run to run on v1 only")
def test_a_reused_group_left_holding_a_files_cache_is_replaced(tmp_path):
    """What a run leaves charged to its group (the cache of a file it wrote and kept) is subtracted from the
    next run's peak, up to containment/cgroup.py's RESIDUE_LIMIT_BYTES; a group holding more is replaced by a fresh
    one."""
    stdin = tmp_path / "empty.in"
    stdin.touch()
    keep = tmp_path / "kept"
    write = f"open({str(keep)!r}, 'wb').write(bytes({8 * 2**20}))"
    limits = Limits(time_seconds=5, wall_seconds=10, memory_mib=256, output_mib=16)  # FSIZE: 8 MiB kept

    def spec(code: str) -> execute.RunSpec:
        return execute.RunSpec(argv=[sys.executable, "-I", "-S", "-c", code], cwd=tmp_path, stdin_path=stdin,
                               stdout_path=tmp_path / "out", stderr_path=tmp_path / "err",
                               env={"PATH": "/usr/bin:/bin"}, limit_address_space=False)

    with choose_containment("cgroup").for_runs(limits.memory_mib, limits.max_processes) as runs:
        assert execute.run(spec("pass"), limits, runs).exit_code == 0
        (first_group,) = runs.idle
        assert execute.run(spec("pass"), limits, runs).exit_code == 0
        assert runs.idle == [first_group]  # a run that keeps nothing leaves the group as good as fresh
        assert execute.run(spec(write), limits, runs).exit_code == 0
        stats = execute.run(spec("pass"), limits, runs)
        assert (stats.exit_code, stats.tripped) == (0, None)
        assert len(runs.idle) == 1 and runs.idle[0] is not first_group
        assert stats.peak_bytes < 8 * 2**20, stats
    assert runs.idle == []  # removed with the block


@pytest.mark.skipif(cgroups.probe() != "cgroup v1", reason="a control group is reused from run to run on v1 only")
def test_two_runs_at_once_each_reuse_a_group_of_their_own(tmp_path):
    """A test's run and the next test's, begun while it goes on (judge/judging/run_ahead.py), are in two groups,
    and both are used again by the next two; a third at once gets a fresh group, removed after it."""
    stdin = tmp_path / "empty.in"
    stdin.touch()
    limits = Limits(time_seconds=5, wall_seconds=10, memory_mib=256, output_mib=1)

    def spec(name: str) -> execute.RunSpec:
        return execute.RunSpec(argv=[sys.executable, "-I", "-S", "-c", "pass"], cwd=tmp_path, stdin_path=stdin,
                               stdout_path=tmp_path / f"{name}.out", stderr_path=tmp_path / f"{name}.err",
                               env={"PATH": "/usr/bin:/bin"}, limit_address_space=False)

    with choose_containment("cgroup").for_runs(limits.memory_mib, limits.max_processes) as runs:
        pending = [execute.begin(spec(name), limits, runs) for name in ("a", "b", "c")]
        groups = [run.contained.group for run in pending]
        assert len({id(group) for group in groups}) == 3
        assert [run.finish().exit_code for run in pending] == [0, 0, 0]
        assert runs.idle == groups[:2]  # the third was not kept
        again = [execute.begin(spec(name), limits, runs) for name in ("a", "b")]
        assert {id(run.contained.group) for run in again} == {id(group) for group in groups[:2]}
        assert [run.finish().exit_code for run in again] == [0, 0]
    assert runs.idle == []


def test_printing_twice_the_output_limit_is_ole(make_problem, sandbox, judge):
    problem = make_problem({"1": ("2\n", "0\n")}, output_limit=1)
    result = judge(problem, program("print_bytes.py"), sandbox)
    assert result.verdict is Verdict.OLE, result


def test_printing_under_the_output_limit_is_judged(make_problem, sandbox, judge):
    problem = make_problem({"1": ("1\n", "0\n")}, output_limit=2)
    result = judge(problem, program("print_bytes.py"), sandbox)
    assert result.verdict is Verdict.WA, result


# --- run-time errors -------------------------------------------------------------------------------------------


def test_exit_code_3_is_re_with_the_code(make_problem, sandbox, judge):
    result = judge(make_problem({"1": ("", "partial\n")}), program("exit3.py"), sandbox)
    assert result.verdict is Verdict.RE
    assert "exit code 3" in result.cases[0].message


@pytest.mark.parametrize("name", ["raise_sigxcpu.py", "exit_152.py"])
def test_a_sigxcpu_under_the_cpu_limit_is_the_programs_own(make_problem, sandbox, name, judge):
    """Only CPU time past the limit is TLE: a program raising SIGXCPU itself (or exiting 152, which a sandbox
    wrapper reports for a SIGXCPU) under it was "CPU time over 1 s" with its few ms of CPU."""
    result = judge(make_problem(), program(name), sandbox)
    assert result.cases[0].verdict is Verdict.RE, result.cases[0]
    assert "CPU time over" not in result.cases[0].message, result.cases[0]


@pytest.mark.parametrize("name", ["segfault.py", pytest.param("segfault.c", marks=needs("gcc"))])
def test_segfault_is_re_with_sigsegv(make_problem, sandbox, name, judge):
    result = judge(make_problem(), program(name), sandbox)
    assert result.verdict is Verdict.RE, result
    assert "SIGSEGV" in result.cases[0].message


def test_python_syntax_error_is_ce_once(make_problem, sandbox, judge):
    """As on BOJ, which byte-compiles Python first: a syntax error is CE, not an RE on every test."""
    result = judge(make_problem(), program("syntax_error.py"), sandbox)
    assert result.verdict is Verdict.CE
    assert "SyntaxError" in result.compile_message
    assert result.cases == ()


# --- compiled languages ----------------------------------------------------------------------------------------


@needs("javac")
def test_java_type_error_is_ce(make_problem, judge):
    result = judge(make_problem(), program("type_error.java"), "none")
    assert result.verdict is Verdict.CE
    assert "incompatible types" in result.compile_message
    assert result.cases == ()


@needs("g++")
def test_cpp_compiles_and_is_ac(make_problem, sandbox, judge):
    problem = make_problem({"1": ("1 2\n", "3\n"), "2": ("-5 1000000000000\n", "999999999995\n")})
    result = judge(problem, program("sum.cpp"), sandbox)
    assert result.verdict is Verdict.AC, result
    assert [case.verdict for case in result.cases] == [Verdict.AC, Verdict.AC]


@needs("javac")
@needs("java")
def test_java_main_is_ac(make_problem, sandbox, judge):
    problem = make_problem({"1": ("1 2\n", "3\n"), "2": ("40 2\n", "42\n")})
    result = judge(problem, program("sum.java"), sandbox)
    assert result.verdict is Verdict.AC, result
    assert result.limits.memory_mib == 2 * 256 + 16


# --- cleanup ---------------------------------------------------------------------------------------------------


def processes_with(marker: str) -> list[psutil.Process]:
    found = []
    for process in psutil.process_iter(["cmdline"]):
        if marker in (process.info["cmdline"] or []):
            found.append(process)
    return found


def test_a_double_forking_daemon_does_not_survive(make_problem, sandbox, judge):
    marker = f"judge-test-daemon-{uuid.uuid4().hex}"
    problem = make_problem({"1": (marker + "\n", "daemon started\n")})
    try:
        result = judge(problem, program("daemon.py"), sandbox)
        assert result.verdict is Verdict.AC, result  # the daemon really ran before its parent exited
        deadline = time.monotonic() + 10  # SIGKILL is delivered asynchronously; allow the kernel a moment
        while processes_with(marker) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert processes_with(marker) == []
    finally:
        for process in processes_with(marker):
            process.kill()


# --- the fallback as an ordinary user ---------------------------------------------------------------------------

SYSTEM_PYTHON = "/usr/bin/python3"
NOBODY = "65534"
JUDGE_PATH = os.pathsep.join(dict.fromkeys([str(REPOSITORY), sysconfig.get_paths()["purelib"],
                                            sysconfig.get_paths()["platlib"]]))
"""What the system Python needs on its path to import the judge: the checkout and the venv's packages."""
BUSY_USER = textwrap.dedent("""
    import os, sys, tempfile, threading
    from pathlib import Path
    sys.path[:0] = sys.argv[1].split(os.pathsep)  # the checkout, then the venv's packages (msgspec)
    try:
        from judge.runner import execute
        from judge.runner.containment.choice import choose_containment
        from judge.runner.limits import Limits
    except ImportError as error:
        sys.exit(f"SKIP {error}")
    release = threading.Event()
    for _ in range(100):  # the user already runs more threads than the run's process allowance
        threading.Thread(target=release.wait, daemon=True).start()
    folder = Path(tempfile.mkdtemp())
    (folder / "in").touch()
    # An explicit stack size: the default one is RLIMIT_STACK (the memory limit), which RLIMIT_AS cannot fit.
    code = ("import threading; threading.stack_size(1 << 20); "
            "t = threading.Thread(target=print, args=('thread ok',)); t.start(); t.join()")
    spec = execute.RunSpec(argv=[sys.executable, "-c", code], cwd=folder, stdin_path=folder / "in",
                           stdout_path=folder / "out", stderr_path=folder / "err", env={"PATH": "/usr/bin:/bin"})
    limits = Limits(time_seconds=5, wall_seconds=10, memory_mib=256, output_mib=1, max_processes=64)
    stats = execute.run(spec, limits, choose_containment())  # the best this user has: no cgroup as nobody
    print(stats.exit_code, stats.signal, (folder / "out").read_text().strip(), "|", stats.stderr_tail[-300:])
    release.set()
""")


@pytest.mark.skipif(os.geteuid() != 0 or shutil.which("setpriv") is None or not Path(SYSTEM_PYTHON).is_file(),
                    reason="needs root, setpriv and /usr/bin/python3 to run the judge as user nobody")
def test_a_busy_user_can_still_start_threads():
    """RLIMIT_NPROC counts every task of the user, not the run's: as the only process limit of the fallback it
    must leave room for what the user already runs, or every threaded submission (any JVM) fails to start."""
    done = subprocess.run(["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups", SYSTEM_PYTHON,
                           "-c", BUSY_USER, JUDGE_PATH], capture_output=True, text=True, timeout=120)
    if done.stderr.startswith("SKIP"):
        pytest.skip(f"{SYSTEM_PYTHON} cannot import the judge: {done.stderr.strip()}")
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("|")[0].split() == ["0", "None", "thread", "ok"], done.stdout


FORGET_TOKEN = """
import ctypes, sys, time
environ = ctypes.POINTER(ctypes.c_void_p).in_dll(ctypes.CDLL(None), "environ")
sys.stdin.readline()
index = 0
while environ[index]:  # blank the strings in place: /proc/<pid>/environ then shows no token
    ctypes.memset(environ[index], ord("x"), len(ctypes.string_at(environ[index])))
    index += 1
time.sleep(30)
"""


def test_the_fallback_keeps_a_member_that_loses_its_token():
    """A killed process's environment goes early in its exit, while it still runs: a box's daemon, killed as its
    box's PID 1 ended, was found running after `judge run` returned. Once a member, a process stays one for as
    long as it is the same process (its start time), so the kill waits for it. Here an escapee blanks its
    environment itself, as a process might."""
    token = uuid.uuid4().hex
    forks = proctree.forks_so_far()
    first = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    escapee = subprocess.Popen([sys.executable, "-c", FORGET_TOKEN], env={proctree.RUN_TOKEN_VARIABLE: token},
                               stdin=subprocess.PIPE, start_new_session=True)
    spawned, stranger = proctree.Spawned(first.pid, forks, token), proctree.Spawned(first.pid, forks, token)
    environ = Path(f"/proc/{escapee.pid}/environ")
    try:
        assert escapee.pid in spawned.members()  # seen with its token
        escapee.stdin.write(b"now\n")
        escapee.stdin.close()
        deadline = time.monotonic() + 20
        while token.encode() in environ.read_bytes() and time.monotonic() < deadline:
            time.sleep(0.02)
        assert token.encode() not in environ.read_bytes()
        assert escapee.pid in spawned.members()
        assert escapee.pid not in stranger.members()  # never seen with it: not a member
        spawned.kill()
        assert escapee.wait(timeout=10) == -9
    finally:
        for process in (first, escapee):
            process.kill()
            process.wait()


def test_the_fallback_finds_descendants_and_token_holders_only():
    """Without a cgroup the run's processes are its descendants plus escapees carrying its token."""
    token = uuid.uuid4().hex
    sleep = [sys.executable, "-c", "import time; time.sleep(30)"]
    forks = proctree.forks_so_far()
    family = subprocess.Popen(  # a child that starts a grandchild with an empty environment
        [sys.executable, "-c", f"import subprocess, time; subprocess.Popen({sleep!r}, env={{}}); time.sleep(30)"],
        env={"PATH": "/usr/bin:/bin", proctree.RUN_TOKEN_VARIABLE: token})
    escapee = subprocess.Popen(sleep, env={proctree.RUN_TOKEN_VARIABLE: token}, start_new_session=True)
    stranger = subprocess.Popen(sleep, env={})
    spawned = proctree.Spawned(family.pid, forks, token)
    try:
        deadline = time.monotonic() + 20
        while len(spawned.members()) < 3 and time.monotonic() < deadline:
            time.sleep(0.05)
        members = spawned.members()
        grandchildren = [pid for pid in members if pid not in (family.pid, escapee.pid)]
        assert family.pid in members and escapee.pid in members and len(grandchildren) == 1, members
        assert stranger.pid not in members and os.getpid() not in members
        cpu, rss = spawned.usage()
        assert cpu >= 0 and rss > 3 * 2**20
        spawned.kill()
        for process in (family, escapee):
            assert process.wait(timeout=10) == -9
        assert stranger.poll() is None
    finally:
        for process in (family, escapee, stranger):
            process.kill()
            process.wait()
        spawned.kill()
