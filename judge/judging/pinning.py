"""Workers that do not disturb each other: with `-j N` and a core for each, a judging's processes (the judge's
worker, its launcher or warm box, checker host and every run) are pinned to one thread of a core no other judging
on this machine holds, so two runs never share a core's caches and units, nor an SMT sibling's.

A core is held by an flock on its file in the judge's cache folder for as long as the judging lasts: workers of
one command, and of other judges started by the same account, take different cores, and a core whose judging died
is free again at once (the kernel drops the lock). Where the cores are too few for the workers, or all are held,
nothing is pinned and the provenance says why. `-j 1` pins nothing: one judging disturbs no other.
"""

from __future__ import annotations

import fcntl
import os
from collections.abc import Iterator
from contextlib import contextmanager

from judge.host_timing import HostTiming
from judge.tool_cache import cache_dir


@contextmanager
def pinned(host: HostTiming, workers: int | None) -> Iterator[str]:
    """Within the block, this process (and what it starts) runs on a core of its own where it can; yields what
    was done, in words, for the provenance."""
    if not hasattr(os, "sched_setaffinity"):
        yield "not pinned: this system cannot pin"
        return
    if workers is None or workers <= 1:
        yield "not pinned: one judging at a time" if workers == 1 else "not pinned: on a cluster's worker"
        return
    if workers > len(host.cores):
        yield f"not pinned: {workers} workers on {len(host.cores)} cores, too few to give each a core of its own"
        return
    with _held_core(host.cores) as core:
        if core is None:
            yield "not pinned: every core was held by another judging"
            return
        before = os.sched_getaffinity(0)
        os.sched_setaffinity(0, {core[0]})
        try:
            siblings = f" (no other judging on its SMT siblings {list(core[1:])})" if core[1:] else ""
            yield f"pinned to CPU {core[0]}, a core of its own{siblings}"
        finally:
            os.sched_setaffinity(0, before)


@contextmanager
def _held_core(cores: tuple[tuple[int, ...], ...]) -> Iterator[tuple[int, ...] | None]:
    """The first core no other judging holds, held until the block ends; None when every one is held."""
    folder = cache_dir() / "cores"
    folder.mkdir(parents=True, exist_ok=True)
    for core in cores:
        descriptor = os.open(folder / f"core-{core[0]}.lock", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(descriptor)
            continue
        try:
            yield core
        finally:
            os.close(descriptor)  # drops the lock
        return
    yield None
