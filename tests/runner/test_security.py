"""Trust in the box (issue 8): what a submission or a stranger's problem folder must never reach.

Each test is a program written to attack one thing, judged for real through the CLI. The attacks on the kernel
run only in the bwrap box and harm nothing when they fail: the sysctl census opens files for writing without
writing, and the one sysctl it writes gets back the value it read.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from conftest import write_problem
from judge.runner.sandbox import bwrap_problem

REPO = Path(__file__).resolve().parents[2]
needs_bwrap = pytest.mark.skipif(bwrap_problem() is not None, reason=f"bwrap unusable: {bwrap_problem()}")

SYSCTL_CENSUS = """
    import os
    writable = []
    for folder, _, files in os.walk("/proc/sys"):
        for name in files:
            path = os.path.join(folder, name)
            try:
                os.close(os.open(path, os.O_WRONLY))
                writable.append(path)
            except OSError:
                pass
    burst = "/proc/sys/kernel/printk_ratelimit_burst"
    try:
        value = open(burst).read()
        with open(burst, "w") as handle:  # the same value back: harmless if it works, and it must not
            handle.write(value)
        wrote = "wrote"
    except OSError:
        wrote = "refused"
    print(len(writable), wrote, *writable[:5])
"""

KEYRINGS = """
    import ctypes, os
    libc = ctypes.CDLL(None, use_errno=True)
    ADD_KEY = {"x86_64": 248, "aarch64": 217}[os.uname().machine]
    results = []
    for ring in (-3, -4, -5):  # session, user, user-session
        added = libc.syscall(ADD_KEY, b"user", b"judge-probe", b"secret", 6, ring)
        results.append("added" if added >= 0 else os.strerror(ctypes.get_errno()))
    print(*results, sep=",")
"""

PTRACE = """
    import ctypes, os, time
    libc = ctypes.CDLL(None, use_errno=True)
    PTRACE_ATTACH, PROCESS_VM_READV = 16, {"x86_64": 310, "aarch64": 270}[os.uname().machine]
    child = os.fork()
    if child == 0:
        time.sleep(30)
        os._exit(0)
    results = []
    attached = libc.ptrace(PTRACE_ATTACH, child, None, None)
    results.append("attached" if attached == 0 else os.strerror(ctypes.get_errno()))
    value = ctypes.c_long(0)
    local = (ctypes.c_void_p * 2)(ctypes.cast(ctypes.pointer(value), ctypes.c_void_p), 8)
    read = libc.syscall(PROCESS_VM_READV, child, local, 1, local, 1, 0)  # its copy of `value`
    results.append("read" if read >= 0 else os.strerror(ctypes.get_errno()))
    os.kill(child, 9)
    print(*results, sep=",")
"""

SOCKETS = """
    import ctypes, os, socket
    libc = ctypes.CDLL(None, use_errno=True)
    IO_URING_SETUP = {"x86_64": 425, "aarch64": 425}[os.uname().machine]
    results = []
    NETLINK_SOCK_DIAG = 4
    for family, kind, protocol in (("AF_INET", socket.SOCK_DGRAM, 0), ("AF_INET6", socket.SOCK_STREAM, 0),
                                   ("AF_NETLINK", socket.SOCK_RAW, NETLINK_SOCK_DIAG),
                                   ("AF_PACKET", socket.SOCK_DGRAM, 0), ("AF_VSOCK", socket.SOCK_STREAM, 0),
                                   ("AF_NETLINK", socket.SOCK_RAW, socket.NETLINK_ROUTE)):
        try:
            socket.socket(getattr(socket, family), kind, protocol).close()
            results.append("made")
        except OSError as error:
            results.append(error.strerror)
    params = ctypes.create_string_buffer(120)
    ring = libc.syscall(IO_URING_SETUP, 1, params)
    results.append("made" if ring >= 0 else os.strerror(ctypes.get_errno()))
    left, right = socket.socketpair()
    left.sendall(b"unix")
    results.append(right.recv(4).decode())
    print(*results, sep=",")
"""


def judge_run(problem: Path, source: Path, *flags: str) -> dict:
    done = subprocess.run([sys.executable, "-m", "judge", "run", str(problem), str(source), "--format", "json",
                           "--feedback", "full", *flags], capture_output=True, text=True, cwd=REPO, timeout=300)
    assert done.returncode in (0, 1), done.stderr
    return json.loads(done.stdout)


def program(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def echo_problem(tmp_path: Path, answer: str) -> Path:
    return write_problem(tmp_path / "p", {"1": ("\n", answer)}, time_limit=5, memory_limit=256,
                         language_allowance=False, checker="tokens")


def first_output(result: dict) -> str:
    return result["cases"][0]["message"]


@needs_bwrap
def test_no_sysctl_opens_for_writing_in_the_box(tmp_path: Path) -> None:
    result = judge_run(echo_problem(tmp_path, "0 refused\n"), program(tmp_path, "census.py", SYSCTL_CENSUS),
                       "--sandbox", "bwrap")
    assert result["verdict"] == "AC", result["cases"][0]


@pytest.mark.parametrize("sandbox", [pytest.param("bwrap", marks=needs_bwrap), "none"])
def test_no_kernel_keyring_can_be_written(tmp_path: Path, sandbox: str) -> None:
    answer = ",".join([os.strerror(1)] * 3) + "\n"  # EPERM from the seccomp filter, for every keyring
    result = judge_run(echo_problem(tmp_path, answer), program(tmp_path, "keys.py", KEYRINGS), "--sandbox", sandbox)
    assert result["verdict"] == "AC", result["cases"][0]


@pytest.mark.parametrize("sandbox", [pytest.param("bwrap", marks=needs_bwrap), "none"])
def test_no_program_attaches_to_another(tmp_path: Path, sandbox: str) -> None:
    """Not even to its own child: ptrace and process_vm_readv fail with EPERM (in a judge that is not root, the
    box's PID 1 is bwrap with the program's uid, and a program attached to it stopped the test)."""
    answer = ",".join([os.strerror(1)] * 2) + "\n"
    result = judge_run(echo_problem(tmp_path, answer), program(tmp_path, "attach.py", PTRACE), "--sandbox", sandbox)
    assert result["verdict"] == "AC", result["cases"][0]


@needs_bwrap
def test_a_box_makes_no_socket_but_a_unix_one(tmp_path: Path) -> None:
    """No network in a box, and nothing that leaves a trace in its network namespace for a warm box's next test
    (counters, a socket in TIME_WAIT): every family but AF_UNIX and read-only NETLINK_ROUTE (bwrap brings the
    loopback up through it) is refused (EACCES), io_uring too (ENOSYS: it makes sockets without the system call
    the filter sees); Unix-domain sockets, which runtimes use, work."""
    answer = ",".join([os.strerror(13)] * 5 + ["made", os.strerror(38), "unix"]) + "\n"
    result = judge_run(echo_problem(tmp_path, answer), program(tmp_path, "sockets.py", SOCKETS), "--sandbox", "bwrap")
    assert result["verdict"] == "AC", result["cases"][0]


@needs_bwrap
def test_the_box_user_is_not_host_root(tmp_path: Path) -> None:
    source = program(tmp_path, "who.py", """
        import os
        status = dict(line.split(":", 1) for line in open("/proc/self/status"))
        inside = os.getuid()
        maps = [tuple(map(int, line.split())) for line in open("/proc/self/uid_map")]
        outside = next(lower + inside - first for first, lower, count in maps if first <= inside < first + count)
        identity = maps == [(0, 0, 4294967295)]
        # With no user namespace the uid is the host's; with one, 'outside' is the judge's own uid (not 0 when
        # the judge is root, because a root judge uses no user namespace).
        print("host-root" if outside == 0 and (identity or os.geteuid() == 0) else "unprivileged",
              status["CapEff"].strip())
    """)
    result = judge_run(echo_problem(tmp_path, "unprivileged 0000000000000000\n"), source, "--sandbox", "bwrap")
    assert result["verdict"] == "AC", result["cases"][0]


@pytest.mark.parametrize("sandbox", [pytest.param("bwrap", marks=needs_bwrap), "none"])
def test_a_problems_checker_runs_in_its_own_process_and_box(tmp_path: Path, sandbox: str) -> None:
    """A checker.py that tries to write next to the problem and to read the judge's environment: in the box it
    can do neither; unconfined it can write (documented), but never sees the judge's environment."""
    marker = tmp_path / "pwned-by-checker"
    problem = write_problem(tmp_path / "p", {"1": ("1 2\n", "3\n")}, checker="checker.py")
    (problem / "checker.py").write_text(textwrap.dedent(f"""
        import os
        from judge.checkers.base import accepted, wrong

        def check(*, input, output, answer):
            try:
                open({str(marker)!r}, "w").write("checker was here")
            except OSError:
                pass
            secret = os.environ.get("JUDGE_SECURITY_SECRET", "no-secret")
            return wrong(secret)
    """))
    source = program(tmp_path, "add.py", "a, b = map(int, input().split())\nprint(a + b)\n")
    env = {**os.environ, "JUDGE_SECURITY_SECRET": "s3cret"}
    done = subprocess.run([sys.executable, "-m", "judge", "run", str(problem), str(source), "--format", "json",
                           "--feedback", "full", "--sandbox", sandbox], capture_output=True, text=True, cwd=REPO, timeout=300, env=env)
    result = json.loads(done.stdout)
    assert first_output(result) == "no-secret"  # a short fixed environment, never the judge's
    assert marker.exists() is (sandbox == "none")


@needs_bwrap
def test_a_problems_validator_runs_in_the_box(tmp_path: Path) -> None:
    marker = tmp_path / "pwned-by-validator"
    problem = write_problem(tmp_path / "problems" / "t", {"1": ("1 2\n", "3\n")}, validator="validator.py")
    (problem / "validator.py").write_text(textwrap.dedent(f"""
        import sys
        try:
            open({str(marker)!r}, "w").write("validator was here")
        except OSError:
            print("cannot write outside", file=sys.stderr)
            sys.exit(1)
    """))
    done = subprocess.run([sys.executable, "-m", "judge", "verify", "--problems-dir", str(tmp_path / "problems"),
                           "--submissions-dir", str(tmp_path / "none"), "--sandbox", "bwrap", "--json"],
                          capture_output=True, text=True, cwd=REPO, timeout=300)
    assert not marker.exists()
    report = json.loads(done.stdout)
    assert done.returncode == 1, done.stderr
    assert "cannot write outside" in json.dumps(report)
