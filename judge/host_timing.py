"""The host's timing conditions: what on this machine makes one run's CPU time differ from another's.

Read from sysfs and procfs under a root folder (`/` in use; a fake tree in tests), once per command: each judging
is handed the record (RunOptions.host_timing) and adds what changes from run to run (the load average, the
runnable tasks) when it starts. Facts only: `judge doctor` (judge/doctor/timing.py) says what each does to the
measurements, and every result carries them as its provenance.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

from msgspec import Struct
from msgspec.structs import asdict

UNKNOWN = "unknown"


class HostTiming(Struct, frozen=True):
    """The conditions of one machine at one moment; each field a short word or phrase, UNKNOWN where unreadable."""

    machine: str
    """The machine's name: a record read on another machine (a Dask worker's) is not this one's."""
    read_at: float
    """When it was read (Unix time): the command run whose results it describes."""
    cpus: int
    cores: tuple[tuple[int, ...], ...]
    """The CPUs this process may use, grouped by physical core (SMT siblings together), for pinning workers."""
    smt: str  # on, off, not supported (the /sys/.../smt/control word)
    governor: str  # the cpufreq governors in use, or "none" where the kernel has no cpufreq (a VM: the host decides)
    boost: str  # on, off, or UNKNOWN (no boost switch: a VM, or a CPU without one)
    transparent_hugepages: str  # always, madvise, never
    swap: str  # on or off
    address_randomisation: str  # off, on, on (full): /proc/sys/kernel/randomize_va_space
    virtual_machine: str  # no, or the hypervisor's vendor as the firmware names it, or "yes"

    def to_dict(self) -> dict[str, object]:
        """Plain JSON data (the cores as lists), so a result read back from JSON equals the one judged."""
        record = asdict(self)
        record["cores"] = [list(core) for core in self.cores]
        return record


def read_host_timing(root: Path = Path("/")) -> HostTiming:
    """This machine's timing conditions, read under `root`."""
    return HostTiming(
        machine=os.uname().nodename,
        read_at=time.time(),
        cpus=os.cpu_count() or 1,
        cores=_cores(root),
        smt=_smt(root),
        governor=_governor(root),
        boost=_boost(root),
        transparent_hugepages=_chosen(_text(root / "sys/kernel/mm/transparent_hugepage/enabled")),
        swap=_swap(root),
        address_randomisation={"0": "off", "1": "on", "2": "on (full)"}.get(
            _text(root / "proc/sys/kernel/randomize_va_space"), UNKNOWN
        ),
        virtual_machine=_virtual_machine(root),
    )


def load_now(root: Path = Path("/")) -> tuple[float, int]:
    """The 1-minute load average and the tasks runnable at this moment (one read of /proc/loadavg)."""
    fields = _text(root / "proc/loadavg").split()
    try:
        return float(fields[0]), int(fields[3].split("/")[0])
    except (IndexError, ValueError):
        return -1.0, -1


def _text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8", errors="replace").strip()
    except OSError:
        return UNKNOWN


def _chosen(text: str) -> str:
    """The bracketed choice of a sysfs list such as `always [madvise] never`."""
    start, end = text.find("["), text.find("]")
    return text[start + 1 : end] if 0 <= start < end else text


def _cores(root: Path) -> tuple[tuple[int, ...], ...]:
    """The CPUs this process may run on, grouped by their core's thread_siblings_list (each alone where the
    topology is unreadable), in CPU order."""
    allowed = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else list(range(os.cpu_count() or 1))
    groups: dict[tuple[int, ...], None] = {}
    for cpu in allowed:
        siblings = _cpu_list(_text(root / f"sys/devices/system/cpu/cpu{cpu}/topology/thread_siblings_list"))
        groups[tuple(sorted(set(siblings or [cpu]) & set(allowed)))] = None
    return tuple(groups)


def _cpu_list(text: str) -> list[int]:
    """A kernel CPU list such as `0-3,8` as numbers; [] when it is not one."""
    found: list[int] = []
    for part in text.split(","):
        first, _, last = part.partition("-")
        if not first.isdigit() or (last and not last.isdigit()):
            return []
        found.extend(range(int(first), int(last or first) + 1))
    return found


def _smt(root: Path) -> str:
    control = _text(root / "sys/devices/system/cpu/smt/control")
    if control in ("notsupported", "notimplemented"):
        return "not supported"
    if control in ("off", "forceoff"):
        return "off"
    active = _text(root / "sys/devices/system/cpu/smt/active")
    return {"1": "on", "0": "off"}.get(active, control if control == "on" else UNKNOWN)


def _governor(root: Path) -> str:
    cpus = root / "sys/devices/system/cpu"
    try:
        found = sorted({_text(path) for path in cpus.glob("cpu[0-9]*/cpufreq/scaling_governor")})
    except OSError:
        found = []
    return ", ".join(found) if found else "none"


def _boost(root: Path) -> str:
    boost = _text(root / "sys/devices/system/cpu/cpufreq/boost")
    if boost in ("0", "1"):
        return {"1": "on", "0": "off"}[boost]
    no_turbo = _text(root / "sys/devices/system/cpu/intel_pstate/no_turbo")
    return {"1": "off", "0": "on"}.get(no_turbo, UNKNOWN)


def _swap(root: Path) -> str:
    text = _text(root / "proc/swaps")
    if text == UNKNOWN:
        return UNKNOWN
    return "on" if len(text.splitlines()) > 1 else "off"


def _virtual_machine(root: Path) -> str:
    flags = next(
        (line for line in _text(root / "proc/cpuinfo").splitlines() if line.startswith(("flags", "Features"))), ""
    )
    vendor = _text(root / "sys/class/dmi/id/sys_vendor")
    if " hypervisor" in flags or flags.endswith("hypervisor"):
        return vendor if vendor != UNKNOWN else "yes"
    return "no"
