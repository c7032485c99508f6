"""Keeps one judging process running while the server runs, restarting it with backoff.

A judging process that dies (killed, out of memory) is replaced, and the new one puts the submissions the old one
held back in the queue. One that dies again soon after starting (a broken toolchain, a full disk, a Dask
scheduler gone) would otherwise be restarted twice a second forever, each time releasing and reclaiming the
same submissions: so the wait before a restart doubles with each death that follows a short life
(`Backoff`), up to a minute, and a process that lived long enough resets it. Every restart is one line in the
server's log saying why, after how long it ended, and when the next one starts.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Protocol

from msgspec import Struct

SUPERVISE_SECONDS = 0.5
STOP_SECONDS = 20.0


class JudgingProcess(Protocol):
    """What the supervisor needs of a process (multiprocessing's `BaseProcess` is one)."""

    @property
    def exitcode(self) -> int | None: ...

    def is_alive(self) -> bool: ...

    def terminate(self) -> None: ...

    def kill(self) -> None: ...

    def join(self, timeout: float | None = None) -> None: ...


class Backoff(Struct, frozen=True):
    """The wait before restarting: `first` seconds after a short-lived process's death, doubling with each such
    death in a row, at most `longest`; a process that lived `stable` seconds or more counts as a fresh start."""

    first: float = 1.0
    longest: float = 60.0
    stable: float = 60.0

    def delay(self, short_deaths: int) -> float:
        """The wait after the `short_deaths`-th short-lived death in a row (1, 2, ...)."""
        return min(self.longest, self.first * 2 ** (short_deaths - 1))


class JudgingSupervisor:
    """Starts a process with `start` and watches it from a thread until `stop`; `say` writes the server's log."""

    def __init__(
        self,
        start: Callable[[], JudgingProcess],
        say: Callable[[str], None],
        backoff: Backoff = Backoff(),
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._start = start
        self._say = say
        self._backoff = backoff
        self._clock = clock
        self._stopping = threading.Event()
        self._lock = threading.Lock()
        self._process = start()
        self._started_at = clock()
        self._thread = threading.Thread(target=self._watch, name="judging-supervisor", daemon=True)
        self._thread.start()

    def _watch(self) -> None:
        short_deaths = 0
        while not self._stopping.wait(SUPERVISE_SECONDS):
            if self._process.is_alive():
                continue
            lived = self._clock() - self._started_at
            short_deaths = short_deaths + 1 if lived < self._backoff.stable else 1
            delay = self._backoff.delay(short_deaths)
            streak = (
                f" ({short_deaths} in a row ended within {self._backoff.stable:g} s of starting)"
                if short_deaths > 1
                else ""
            )
            self._say(
                f"judge serve: the judging process ended (exit {self._process.exitcode}) after {lived:.0f} s; "
                f"starting another in {delay:g} s{streak}, which judges the submissions it held again"
            )
            if self._stopping.wait(delay):
                return
            with self._lock:
                if self._stopping.is_set():
                    return
                self._process = self._start()
                self._started_at = self._clock()

    def stop(self) -> None:
        with self._lock:
            self._stopping.set()
        self._thread.join()
        self._process.terminate()
        self._process.join(STOP_SECONDS)
        if self._process.is_alive():
            self._process.kill()
            self._process.join()
