"""`stops_held` (judge/batch/executors/local.py): a local pool's worker is started whole or not at all. Ctrl-C or
SIGTERM in the middle of a start left the grading process without a worker it had started, which then died with a
traceback on its half-sent start-up data; a Ctrl-C reaching the new worker before it ignored Ctrl-C killed it the
same way. Each case runs in a fresh interpreter, whose main thread is its own (pytest keeps its own handlers)."""

from __future__ import annotations

import subprocess
import sys

import pytest

HELD = """
import os, signal, sys, threading, time
from judge.batch.executors.local import stops_held

class Stop(BaseException):
    pass

arrived = []
def stop(number, frame):
    raise Stop(number)

signal.signal(signal.SIGTERM, stop if sys.argv[1] == "raising" else lambda number, frame: arrived.append(number))
signal.signal(signal.SIGINT, lambda number, frame: arrived.append(number))
if sys.argv[2] == "with another thread":  # a process's signal then goes to a thread that does not block it
    threading.Thread(target=time.sleep, args=(5,), daemon=True).start()
try:
    with stops_held():
        os.kill(os.getpid(), signal.SIGTERM)
        os.kill(os.getpid(), signal.SIGINT)
        os.kill(os.getpid(), signal.SIGTERM)
        deadline = time.monotonic() + 0.2
        while time.monotonic() < deadline:  # Python code runs, and would run a handler, meanwhile
            pass
        print("the block ended; arrived so far:", arrived, flush=True)
    time.sleep(0.2)
    print("after it:", sorted(arrived))
except Stop as stopped:
    print("stopped after it by", *stopped.args)
"""


def _blocked(status: str) -> set[int]:
    """The signals a /proc/PID/status text says are blocked."""
    line = next(line for line in status.splitlines() if line.startswith("SigBlk:"))
    mask = int(line.split()[1], 16)
    return {number for number in range(1, 65) if mask & (1 << (number - 1))}


def _held(handler: str, threads: str) -> list[str]:
    done = subprocess.run([sys.executable, "-c", HELD, handler, threads], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


@pytest.mark.parametrize("threads", ["alone", "with another thread"])
def test_signals_wait_for_the_block_then_each_arrives_once(threads: str) -> None:
    """Sent inside, Ctrl-C and SIGTERM (twice, which a pending signal makes once) arrive after the block."""
    assert _held("noting", threads) == ["the block ended; arrived so far: []", "after it: [2, 15]"]


@pytest.mark.parametrize("threads", ["alone", "with another thread"])
def test_a_handler_raising_raises_after_the_block(threads: str) -> None:
    assert _held("raising", threads) == ["the block ended; arrived so far: []", "stopped after it by 15"]


STARTED_INSIDE = """
import subprocess, sys
from judge.batch.executors.local import stops_held
with stops_held():
    child = subprocess.run([sys.executable, "-c", "print(open('/proc/self/status').read())"], capture_output=True,
                           text=True, check=True)
print(child.stdout)
print("---")
print(open("/proc/self/status").read())
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/PID/status")
def test_a_process_started_inside_starts_with_the_stops_blocked_and_the_block_leaves_none() -> None:
    done = subprocess.run([sys.executable, "-c", STARTED_INSIDE], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    child, parent = done.stdout.split("\n---\n")
    assert {2, 15} <= _blocked(child)
    assert not {2, 15} & _blocked(parent)


PREPARED = """
import os, signal
from judge.batch.executors.local import prepare_worker
signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
os.kill(os.getpid(), signal.SIGINT)  # a Ctrl-C while the worker started: dropped once it ignores Ctrl-C
prepare_worker(os.getppid())
print(open("/proc/self/status").read())
print("ignores Ctrl-C:", signal.getsignal(signal.SIGINT) is signal.SIG_IGN)
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/PID/status")
def test_a_worker_unblocks_the_stops_once_its_handlers_are_set() -> None:
    done = subprocess.run([sys.executable, "-c", PREPARED], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert not {2, 15} & _blocked(done.stdout)
    assert done.stdout.splitlines()[-1] == "ignores Ctrl-C: True"
    assert not done.stderr
