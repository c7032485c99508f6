"""A run's control group once made (v2, or v1's folders in several hierarchies): what it has counted, its memory
limit, the files a process writes to join it, killing everything in it, and removing it."""

from __future__ import annotations

import os
import select
import signal
import time
from collections.abc import Iterable
from pathlib import Path

from msgspec import Struct, field

from judge.errors import JudgeFailure

PEAK_FILE = {1: "memory.max_usage_in_bytes", 2: "memory.peak"}
KILLED_SECONDS = 5.0
"""How long the processes of a killed group may take to die before the judge goes on without them."""
WATCHED_EXITS = 8
"""How many of a killed group's listed processes `await_any_exit` watches at a time (one descriptor each: a fork
bomb lists thousands)."""
GIVE_WAY_WEIGHT = 33
"""A run group's cpu.weight once its judging has gone slow: a third of the default 100, as nice 5 is of nice 0."""


def write_small(path: Path, value: str) -> None:
    """Write a control file once (a group's limits as it is made, a stale group's thawing)."""
    with open(path, "w") as handle:
        handle.write(value)


def read_small(path: Path) -> str:
    """A small control file's text. os.open, not Path.read_text: several of these are read per run."""
    descriptor = os.open(path, os.O_RDONLY)
    try:
        return os.read(descriptor, 65536).decode()
    finally:
        os.close(descriptor)


class Counters(Struct, frozen=True):
    """What a group has counted so far. A reused group's run is the difference between two of these."""

    cpu_seconds: float
    charged_bytes: int  # memory charged to the group now (a reused group keeps some page cache and slab)
    memory_refusals: int  # charges refused at the limit, and OOM kills
    process_refusals: int  # forks refused at the pids limit


NOTHING_COUNTED = Counters(0.0, 0, 0, 0)
"""A fresh group's counters."""


class RunGroup(Struct):
    """The control group(s) of one run. `dirs` maps a role (memory, cpu, pids, freezer) to its folder.

    The files read or written per run stay open (`_files`): an open of a control file costs 20 to 40 µs, a
    read of an open one a few, and a group reused for every test of a submission reads them for each test.
    """

    version: int
    dirs: dict[str, Path]
    _files: dict[tuple[str, str, int], int] = field(default_factory=dict)
    _joins: dict[str, Path] = field(default_factory=dict)  # `_join_paths`, once made
    _memory_limit: int | None = None  # the limit `set_memory_limit` set last
    _memsw: bool | None = None  # `_swap_counted`, once looked up

    def _join_paths(self) -> dict[str, Path]:
        """Each of the group's folders' join file, by the first role naming that folder; made at the first run
        (every folder of the group is made by then) and kept, as the group is reused run after run. The folder
        that counts CPU time comes last: a launcher hopping in is charged to the run from that write on
        (launcher/spawning.py `join`), so the writes before it stay the launcher's own."""
        if not self._joins:
            name = "tasks" if self.version == 1 else "cgroup.procs"
            roles: dict[Path, str] = {}
            for role, folder in self.dirs.items():
                roles.setdefault(folder, role)
            counting_last = sorted(roles.items(), key=lambda item: item[1] == "cpu")
            self._joins = {role: folder / name for folder, role in counting_last}
        return self._joins

    def _descriptor(self, role: str, name: str, mode: int) -> int:
        key = (role, name, mode)
        if key not in self._files:
            self._files[key] = os.open(self.dirs[role] / name, mode | os.O_CLOEXEC)
        return self._files[key]

    def _text(self, role: str, name: str) -> str:
        """A counter file's text. A read that fails (the judge out of file descriptors, say) is the judge's
        failure, never a zero: a peak of 0 MiB or no CPU time would be a figure made up for the student."""
        try:
            return os.pread(self._descriptor(role, name, os.O_RDONLY), 65536, 0).decode()
        except OSError as error:
            raise JudgeFailure(f"the judge could not read {self.dirs[role] / name}: {error.strerror}") from None

    def _number(self, role: str, name: str) -> int:
        text = self._text(role, name)
        try:
            return int(text.split()[0])
        except (ValueError, IndexError):
            raise JudgeFailure(f"{self.dirs[role] / name}: not a number: {text[:40]!r}") from None

    def _keyed(self, role: str, name: str) -> dict[str, int]:
        """A `key value` per line file such as memory.events or cpu.stat."""
        pairs = (line.split() for line in self._text(role, name).splitlines())
        return {pair[0]: int(pair[1]) for pair in pairs if len(pair) == 2}

    def _set(self, role: str, name: str, value: str) -> None:
        os.pwrite(self._descriptor(role, name, os.O_WRONLY), value.encode(), 0)

    def join_files(self) -> tuple[Path, ...]:
        """The files a process writes "0" to, to move itself into the group (in the child between fork and exec,
        or a launcher hopping in to start a run).

        On v1 these are the `tasks` files, not `cgroup.procs`: a single-threaded process moves by its thread,
        and the kernel then skips the global threadgroup lock whose RCU grace period makes each `cgroup.procs`
        write cost several milliseconds (about 5 ms per run here).
        """
        return tuple(self._join_paths().values())

    def join_descriptors(self) -> tuple[int, ...]:
        """The join files, open for writing until the group is removed (`join_files`: a launcher is handed
        these for every run of a reused group instead of opening them each time)."""
        return tuple(self._descriptor(role, path.name, os.O_WRONLY) for role, path in self._join_paths().items())

    def give_way(self) -> None:
        """Lower the group's CPU weight against its siblings (other runs) where the cpu controller weighs groups:
        cgroup v2 with `cpu` on (priority.py). A group is a run's own there, so it needs no raising again."""
        if self.version == 2 and "cpu" in self.dirs:
            try:
                self._set("cpu", "cpu.weight", str(GIVE_WAY_WEIGHT))
            except OSError:
                pass  # no cpu controller here: the threads' niceness is all there is

    def cpu_seconds(self) -> float:
        if self.version == 2:
            return self._keyed("cpu", "cpu.stat").get("usage_usec", 0) / 1e6
        return self._number("cpu", "cpuacct.usage") / 1e9

    def peak_bytes(self) -> int:
        return self._number("memory", PEAK_FILE[self.version])

    def reset_peak(self) -> None:
        """Start the peak again from what is charged now: the child's copy of the judge between fork and exec
        is not the submission's, nor is a reused group's earlier runs. (v2 cannot: only a fresh group there.)"""
        if self.version == 1:
            self._set("memory", "memory.max_usage_in_bytes", "0")

    def counters(self) -> Counters:
        if self.version == 2:
            events = self._keyed("memory", "memory.events")
            charged = self._number("memory", "memory.current")
            memory_refusals = events.get("max", 0) + events.get("oom_kill", 0)
        else:
            charged = self._number("memory", "memory.usage_in_bytes")
            memory_refusals = self._number("memory", "memory.failcnt") + self._keyed(
                "memory", "memory.oom_control"
            ).get("oom_kill", 0)
        return Counters(self.cpu_seconds(), charged, memory_refusals, self._keyed("pids", "pids.events").get("max", 0))

    def set_memory_limit(self, limit_bytes: int) -> None:
        """Set the hard limit (memory and, where swap is counted, memory+swap, which must never be the lower).
        A reused group's limit is set before every run: whether swap is counted is looked up once, and the
        limit is not written again when it is the one set last."""
        if limit_bytes == self._memory_limit:
            return
        names = ["memory.limit_in_bytes"] if self.version == 1 else ["memory.max"]
        if self.version == 1 and self._swap_counted():
            set_last = self._memory_limit
            lowering = limit_bytes < (set_last or self._number("memory", "memory.limit_in_bytes"))
            names = ["memory.limit_in_bytes", "memory.memsw.limit_in_bytes"][:: 1 if lowering else -1]
        self._memory_limit = None  # unknown until every write is done
        for name in names:
            self._set("memory", name, str(limit_bytes))
        self._memory_limit = limit_bytes

    def _swap_counted(self) -> bool:
        if self._memsw is None:
            self._memsw = (self.dirs["memory"] / "memory.memsw.limit_in_bytes").exists()
        return self._memsw

    def is_empty(self) -> bool:
        """No process is left in the group (every process is in all of a run's hierarchies: one read is enough).
        Unreadable counts as not empty: the group is then killed and replaced, not reused."""
        try:
            return self._number("pids", "pids.current") == 0
        except JudgeFailure:
            return False

    def pids(self) -> list[int]:
        pids: set[int] = set()
        for folder in self.dirs.values():
            try:
                pids.update(int(pid) for pid in read_small(folder / "cgroup.procs").split())
            except OSError:
                pass
        return sorted(pids)

    def _holds_only_zombies(self) -> bool:
        """No folder of the group lists a process (`is_empty` said one is counted: so it is a zombie). False
        when a listing cannot be read: the group is then killed as one that may hold anything."""
        try:
            return not any(read_small(folder / "cgroup.procs").split() for folder in dict.fromkeys(self.dirs.values()))
        except OSError:
            return False

    def kill_all(self) -> None:
        """SIGKILL every process in the group, including ones forking while we kill, and wait until the group
        lists none (`_await_none_listed`).

        A group that counts processes but lists none holds only zombies, which no signal reaches and no fork
        leaves: after a compile step or a checker in a box, bwrap has returned and its PID 1 waits for the
        machine's init to reap it. Nothing is then frozen or killed (that took 0.8-1.7 ms of every compile
        step in a box, measured)."""
        if self.is_empty() or self._holds_only_zombies():  # the usual case after a clean exit, then this one
            return
        if self.version == 2 and (self.dirs["pids"] / "cgroup.kill").exists():
            self._set("pids", "cgroup.kill", "1")
        else:
            self._kill_frozen()
        self._await_none_listed()

    def _kill_frozen(self) -> None:
        """v1 (or v2 before cgroup.kill): SIGKILL each process with the group frozen, so none forks meanwhile."""
        freezer = self.dirs.get("freezer")
        if freezer is not None:
            self._set("freezer", "freezer.state", "FROZEN")  # no fork escapes the first round of kills
        try:
            kill_each(self.pids())
        finally:
            # A frozen process dies only once thawed; and a group left frozen (its last process may have left
            # by itself since is_empty) freezes whatever joins it next: a reused group's launcher.
            if freezer is not None:
                self._set("freezer", "freezer.state", "THAWED")

    def _await_none_listed(self) -> None:
        """Wait until the group lists no process, killing again whatever it still lists, for at most
        KILLED_SECONDS (a process stuck in the kernel dies no sooner: the group is then not reused). A killed
        process must first get a CPU to die, and under load that can take longer than the hundred looks a
        millisecond apart this once was. The list, not `pids.current`: that also counts the zombies no one has
        reaped yet, and a box's PID 1, its run over, is reaped by the machine's init, which may take seconds
        (1.6-2 s here). Between two looks it waits for one of the listed processes to leave (`await_any_exit`),
        not for a fixed pause: a box's PID 1 still tearing its namespaces down when bwrap returns leaves the
        group a fraction of a millisecond later, and a pause of 0.5 ms and then 1 ms overshot that by up to a
        millisecond after every compile step in a box."""
        deadline, pause = time.monotonic() + KILLED_SECONDS, 0.0005
        while pids := self.pids():
            if time.monotonic() > deadline:
                return
            kill_each(pids)
            await_any_exit(pids[:WATCHED_EXITS], pause)
            pause = min(2 * pause, 0.01)

    def remove(self) -> None:
        """Delete the group's folders. A folder that a killed process still pins (until its parent, or the
        machine's init, reaps it) is tried again for at most KILLED_SECONDS in all: 0.4 s per folder once left
        two of a run's folders behind when Ctrl-C stopped `judge grade` in CI (a later judge's sweep removes
        such a folder, but a judge that stops should leave none)."""
        for descriptor in self._files.values():
            os.close(descriptor)
        self._files.clear()
        deadline, pause = time.monotonic() + KILLED_SECONDS, 0.002
        for folder in dict.fromkeys(self.dirs.values()):
            while True:
                try:
                    folder.rmdir()
                    break
                except FileNotFoundError:
                    break
                except OSError:
                    if time.monotonic() > deadline:
                        break
                    time.sleep(pause)
                    pause = min(2 * pause, 0.02)


def await_any_exit(pids: list[int], timeout: float) -> None:
    """Return once one of `pids` has ended, or after `timeout` seconds. A pidfd reads ready when its process has
    exited, by which time it has left its control groups; one already gone returns at once. Where there is no
    pidfd (Linux before 5.3), a plain pause."""
    descriptors: list[int] = []
    try:
        waiting = select.poll()  # not select.select: a busy judge's descriptors can be numbered past 1023
        for pid in pids:
            descriptors.append(os.pidfd_open(pid))
            waiting.register(descriptors[-1], select.POLLIN)
        waiting.poll(timeout * 1000)
    except ProcessLookupError:
        return
    except OSError:  # no pidfd_open on this kernel
        time.sleep(timeout)
    finally:
        for descriptor in descriptors:
            os.close(descriptor)


def kill_each(pids: Iterable[int]) -> None:
    """SIGKILL each of `pids` that is still there."""
    for pid in pids:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
