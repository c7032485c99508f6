"""Where `judge grade` runs its tasks: the explicit table of executors, and the rule that picks one.

local   a pool of `--jobs` worker processes on this machine (the default)
dask    a Dask distributed cluster, chosen by `--scheduler tls://HOST:PORT --cluster-dir DIR`
"""

from __future__ import annotations

from collections.abc import Callable

from msgspec import Struct

from judge.batch.executors.base import Executor, Finished
from judge.batch.executors.dask_cluster import DaskExecutor
from judge.batch.executors.local import LocalExecutor
from judge.cluster.address import SchedulerTarget

__all__ = ["EXECUTORS", "Executor", "ExecutorChoice", "Finished", "open_executor"]


class ExecutorChoice(Struct, frozen=True):
    """The command line's say on executors: `--jobs` for the local pool, `--scheduler` for Dask; `spare`: the local
    pool's processes beyond `jobs` for judgings gone slow (lanes.py; `judge serve` sets it)."""

    jobs: int
    scheduler: SchedulerTarget | None = None
    spare: int = 0

    @property
    def kind(self) -> str:
        return "local" if self.scheduler is None else "dask"


def _dask(choice: ExecutorChoice) -> Executor:
    if choice.scheduler is None:  # `kind` is "dask" only with a scheduler
        raise ValueError("the dask executor needs a scheduler")
    return DaskExecutor(choice.scheduler)


EXECUTORS: dict[str, Callable[[ExecutorChoice], Executor]] = {
    "local": lambda choice: LocalExecutor(choice.jobs, choice.spare),
    "dask": _dask,
}


def open_executor(choice: ExecutorChoice) -> Executor:
    """Start the executor `choice` names; use it as a context manager."""
    return EXECUTORS[choice.kind](choice)
