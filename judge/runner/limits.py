"""The limits a run gets, as a person states them (seconds and MiB): a record of its own, with no import, so that
results and their views name a run's limits without loading the runner that enforces them."""

from __future__ import annotations

from msgspec import Struct

MIB = 1024 * 1024


class Limits(Struct, frozen=True):
    """The limits a run gets (for a submission: after its language's allowance). Seconds and MiB."""

    time_seconds: float
    wall_seconds: float
    memory_mib: int
    output_mib: int
    max_processes: int = 64
