"""The judging process's supervisor: a process that keeps dying is restarted with a growing wait, said in the
server's log, and one that lived long enough starts the wait afresh."""

from __future__ import annotations

import threading

from judge.serve.supervisor import Backoff, JudgingSupervisor

TINY = Backoff(first=0.01, longest=0.04, stable=100.0)


class _Process:
    """A process that has already ended (or runs until terminated, when `alive`)."""

    def __init__(self, alive: bool) -> None:
        self.alive = alive
        self.exitcode: int | None = None if alive else 3

    def is_alive(self) -> bool:
        return self.alive

    def terminate(self) -> None:
        self.alive = False
        self.exitcode = -15

    def kill(self) -> None:
        self.terminate()

    def join(self, timeout: float | None = None) -> None:
        return None


class _Clock:
    """Moves `step` seconds at each reading: each process has lived `step` seconds when its death is seen."""

    def __init__(self, step: float) -> None:
        self.now = 0.0
        self.step = step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


def _supervise(lives: list[bool], clock: _Clock, lines: int) -> list[str]:
    """Run a supervisor whose successive processes are dead or alive as `lives` says; its first `lines` lines."""
    said: list[str] = []
    enough = threading.Event()
    processes = iter(lives)

    def say(line: str) -> None:
        said.append(line)
        if len(said) >= lines:
            enough.set()

    supervisor = JudgingSupervisor(lambda: _Process(next(processes)), say, TINY, clock)
    assert enough.wait(30), said
    supervisor.stop()
    return said[:lines]


def test_a_judging_process_that_keeps_dying_is_restarted_ever_later_and_the_log_says_so() -> None:
    said = _supervise([False] * 6 + [True], _Clock(step=1.0), 5)
    assert [line.split("starting another in ")[1].split(" s")[0] for line in said] == [
        "0.01",
        "0.02",
        "0.04",
        "0.04",
        "0.04",
    ]
    assert all("the judging process ended (exit 3)" in line for line in said)
    assert "3 in a row ended within 100 s of starting" in said[2]


def test_a_judging_process_that_lived_long_enough_is_restarted_with_the_shortest_wait() -> None:
    said = _supervise([False] * 4 + [True], _Clock(step=500.0), 3)  # each death follows a long life
    assert all("starting another in 0.01 s" in line and "in a row" not in line for line in said)


def test_the_delay_doubles_up_to_the_longest() -> None:
    backoff = Backoff(first=1.0, longest=60.0)
    assert [backoff.delay(n) for n in range(1, 9)] == [1, 2, 4, 8, 16, 32, 60, 60]
