"""`judge run` in a terminal: the header and each test's row arrive as the tests finish, and Ctrl-C keeps them.

The judge runs in a pseudo-terminal. Its second test blocks on a FIFO that this test opens only after it has read
the first test's row, so a report held back until the end could never pass: the second test would end as TLE
(wall-clock backstop) with nobody at the other end of the FIFO. No wall-clock time is asserted.
"""

from __future__ import annotations

import errno
import fcntl
import json
import os
import re
import select
import signal
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest

from conftest import ctrl_c_as_in_a_terminal, write_problem

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
PATIENCE_SECONDS = 120
"""Only a guard against hanging the suite if the judge misbehaves; nothing is asserted about it."""

BLOCKER = """\
import os, sys
words = sys.stdin.read().split()
if words[0] == "wait":
    with open(words[2], "w") as pid_file:
        pid_file.write(str(os.getpid()))
    with open(words[1]) as fifo:
        print(fifo.read().strip())
else:
    print(int(words[0]) + int(words[1]))
"""


class Terminal:
    """`judge run ...` with a pseudo-terminal as its stdin, stdout and stderr."""

    def __init__(self, *args: str | Path, stdout: int | None = None) -> None:
        self.master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 160, 0, 0))
        self.process = subprocess.Popen([sys.executable, "-m", "judge", "run", *map(str, args)], stdin=slave,
                                        stdout=slave if stdout is None else stdout, stderr=slave,
                                        start_new_session=True, preexec_fn=ctrl_c_as_in_a_terminal)
        os.close(slave)
        self.raw = b""
        self.text = ""
        """What the terminal showed, colours and cursor moves removed."""

    def read_until(self, fragment: str) -> bool:
        """Read until `fragment` has appeared (True) or the judge closed the terminal (False)."""
        deadline = time.monotonic() + PATIENCE_SECONDS
        while fragment not in self.text and time.monotonic() < deadline:
            ready, _, _ = select.select([self.master], [], [], 1)
            if not ready:
                continue
            try:
                chunk = os.read(self.master, 65536)
            except OSError:  # EIO: every writer closed the terminal
                return fragment in self.text
            if not chunk:
                return fragment in self.text
            self.raw += chunk
            self.text = ANSI.sub("", self.raw.decode("utf-8", errors="replace"))
        return fragment in self.text

    def finish(self) -> int:
        self.read_until("\0never printed\0")
        os.close(self.master)
        return self.process.wait(timeout=PATIENCE_SECONDS)


@pytest.fixture
def blocking_problem(tmp_path: Path) -> tuple[Path, Path, Path, Path]:
    """A problem whose sample is instant and whose second test waits for a line on a FIFO; the program (run
    without a sandbox, so it can reach the FIFO) writes its pid next to it first."""
    fifo, pid_file = tmp_path / "gate", tmp_path / "pid"
    os.mkfifo(fifo)
    problem = write_problem(tmp_path / "problem", {"sample1": ("1 2\n", "3\n"), "2": (f"wait {fifo} {pid_file}\n",
                                                                                      "42\n")},
                            time_limit=5, memory_limit=128)
    source = tmp_path / "blocker.py"
    source.write_text(BLOCKER, encoding="utf-8")
    return problem, source, fifo, pid_file


def _open_writer(fifo: Path) -> int:
    """Open the FIFO for writing once its reader (the second test) is there; fail if the judge ended it first."""
    deadline = time.monotonic() + PATIENCE_SECONDS
    while time.monotonic() < deadline:
        try:
            return os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
        except OSError as error:
            if error.errno != errno.ENXIO:  # ENXIO: no reader yet
                raise
        time.sleep(0.05)
    pytest.fail("the second test never opened the FIFO")


def test_first_row_arrives_before_the_last_test_ends(blocking_problem):
    problem, source, fifo, _ = blocking_problem
    terminal = Terminal(problem, source, "--sandbox", "none")
    assert terminal.read_until("sample1  AC"), terminal.text
    header, _, _ = terminal.text.partition("sample1  AC")
    assert "limits: CPU 17 s" in header and "5 s × 3 + 2 s for Python 3" in header
    writer = _open_writer(fifo)  # the second test is still running: it waits for this line
    os.write(writer, b"42\n")
    os.close(writer)
    assert terminal.finish() == 0, terminal.text
    rows = terminal.text[terminal.text.index("sample1  AC"):]
    assert "2        AC" in rows and "result: AC" in rows, terminal.text


def test_ctrl_c_keeps_the_rows_judged_and_leaves_no_process(blocking_problem):
    problem, source, _, pid_file = blocking_problem
    terminal = Terminal(problem, source, "--sandbox", "none")
    assert terminal.read_until("sample1  AC"), terminal.text
    deadline = time.monotonic() + PATIENCE_SECONDS
    while not pid_file.exists() or not pid_file.read_text():  # the second test is running, blocked on the FIFO
        assert time.monotonic() < deadline, terminal.text
        time.sleep(0.05)
    blocked = int(pid_file.read_text())
    terminal.process.send_signal(signal.SIGINT)
    assert terminal.finish() == 130, terminal.text
    assert "result so far: AC (맞았습니다!!)  1/1 tests passed (partial: interrupted after 1 of 2 tests)" \
        in terminal.text, terminal.text
    assert "Traceback" not in terminal.text
    while _alive(blocked):  # killed by the runner; init reaps it once the judge has gone
        assert time.monotonic() < deadline, f"process {blocked} of the interrupted test is still running"
        time.sleep(0.05)


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]
    except OSError:
        return False
    return state != "Z"


def test_json_stays_one_document_on_stdout_while_the_rows_go_to_the_terminal(tmp_path: Path) -> None:
    problem = write_problem(tmp_path / "problem", {"sample1": ("1 2\n", "3\n"), "2": ("40 2\n", "42\n")})
    source = tmp_path / "add.py"
    source.write_text("a, b = map(int, input().split())\nprint(a + b)\n", encoding="utf-8")
    terminal = Terminal(problem, source, "--sandbox", "none", "--format", "json", stdout=subprocess.PIPE)
    document = terminal.process.stdout.read()
    assert terminal.finish() == 0, terminal.text
    assert [case["verdict"] for case in json.loads(document)["cases"]] == ["AC", "AC"]
    assert "sample1  AC" in terminal.text and "result: AC" in terminal.text
