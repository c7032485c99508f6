"""Run options: chosen once on the command line, then passed down frozen (no global state)."""

from __future__ import annotations

from typing import Literal

from msgspec import Struct

from judge.host_timing import HostTiming

SandboxChoice = Literal["auto", "bwrap", "none"]
DEFAULT_SOURCE_LIMIT_KIB = 64
"""BOJ's code length limit for most problems (a problem.yaml's `source_limit` unless it says otherwise)."""
MAX_SOURCE_LIMIT_KIB = 16 * 1024


class RunOptions(Struct, frozen=True):
    """How to judge a submission.

    language: a language name overriding detection by extension (`--lang pypy3`).
    fail_fast: stop at the first non-AC test.
    sandbox: `auto` uses bubblewrap when it works here, `bwrap` insists on it, `none` runs unconfined.
    source_limit_kib: the largest source read, in KiB (`--source-limit`); None means the problem's `source_limit`.
    containment: how runs are contained and measured (`--containment cgroup|proc|portable`); None: the best
    this machine has.
    require_containment: `cgroup` refuses to judge (exit 2) where runs would not get a control group, whose
    limits the kernel enforces on the whole tree (`--require-containment`, JUDGE_REQUIRE_CONTAINMENT); None: any.
    host_timing: this machine's timing conditions, read once when the command started (judge/host_timing.py);
    None: each judging reads them.
    workers: how many judgings the command runs at once on this machine (`--jobs`); None on a Dask cluster.
    give_way_after: seconds into a judging after which its programs run at a lower CPU priority, so that fresh
    judgings sharing the cores with it get most of them (`judge serve`'s slow lane: batch/executors/lanes.py);
    None: never.
    """

    language: str | None = None
    fail_fast: bool = False
    sandbox: SandboxChoice = "auto"
    source_limit_kib: int | None = None
    containment: str | None = None
    require_containment: str | None = None
    host_timing: HostTiming | None = None
    workers: int | None = 1
    give_way_after: float | None = None

    def source_limit_bytes(self, problem_kib: int) -> int:
        """The cap on a source's size in bytes: `--source-limit` when given, else the problem's `source_limit`."""
        return 1024 * (self.source_limit_kib if self.source_limit_kib is not None else problem_kib)
