"""`judge doctor`'s timing checks, as isolate's check-environment makes them: what on this host makes one run's
CPU time differ from another's, each finding with what it does to the measurements and the one-line fix.

A `warn` makes the host unfit for official grading (`judge doctor` exits 1); a `note` is said but does not: a VM
(its steal time is waiting, which the wall backstop leaves out, but CPU time still varies with its neighbours),
address-space randomisation (turning it off weakens the host's defence against a program that escapes the box,
for a spread isolate measures in a few per cent at most), and the load at this moment (the judge measures it
again for every result). Reads only the files under `root` (a fake tree in the tests).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from judge.doctor.machine import Finding
from judge.host_timing import UNKNOWN, HostTiming, load_now, read_host_timing

CPU = "sys/devices/system/cpu"


def timing_findings(root: Path = Path("/")) -> list[Finding]:
    """One finding per timing condition of the host under `root`."""
    host = read_host_timing(root)
    return [check(host, root) for check in CHECKS]


def fit_for_official_grading(findings: list[Finding]) -> bool:
    return not any(finding.status == "warn" for finding in findings)


def _smt(host: HostTiming, root: Path) -> Finding:
    if host.smt != "on":
        return Finding("timing: SMT", "ok", f"SMT (hyper-threading) {host.smt}")
    return Finding(
        "timing: SMT",
        "warn",
        "SMT on: two runs on sibling threads share one core's caches and units, so a run's CPU time depends on its "
        f"neighbour (tens of per cent); fix: echo off > /{CPU}/smt/control (or grade with -j at most the cores)",
    )


def _governor(host: HostTiming, root: Path) -> Finding:
    if host.governor == "none":
        return Finding("timing: governor", "ok", "no cpufreq here (a VM: the host sets the clock; check it there)")
    if host.governor == "performance":
        return Finding("timing: governor", "ok", "CPU frequency governor: performance")
    return Finding(
        "timing: governor",
        "warn",
        f"CPU frequency governor {host.governor}: the clock follows the load, so a run's CPU time depends on what ran "
        f"before it; fix: echo performance | tee /{CPU}/cpu*/cpufreq/scaling_governor",
    )


def _boost(host: HostTiming, root: Path) -> Finding:
    if host.boost != "on":
        detail = "boost (turbo) off" if host.boost == "off" else "no boost switch here (a VM, or a CPU without one)"
        return Finding("timing: boost", "ok", detail)
    switch = (
        f"echo 0 > /{CPU}/cpufreq/boost"
        if (root / CPU / "cpufreq/boost").exists()
        else f"echo 1 > /{CPU}/intel_pstate/no_turbo"
    )
    return Finding(
        "timing: boost",
        "warn",
        "boost (turbo) on: the clock rises while the chip is cool and few cores are busy, so a program is faster "
        f"alone than beside others; fix: {switch}",
    )


def _transparent_hugepages(host: HostTiming, root: Path) -> Finding:
    if host.transparent_hugepages != "always":
        return Finding("timing: THP", "ok", f"transparent huge pages: {host.transparent_hugepages}")
    return Finding(
        "timing: THP",
        "warn",
        "transparent huge pages always: the kernel may stop a run to compact memory into huge pages, so its time "
        "depends on the memory's state; fix: echo madvise > /sys/kernel/mm/transparent_hugepage/enabled",
    )


def _swap(host: HostTiming, root: Path) -> Finding:
    if host.swap != "on":
        return Finding("timing: swap", "ok", f"swap {host.swap}")
    return Finding(
        "timing: swap",
        "warn",
        "swap on: a run's (or the judge's) pages may go to disk and its time then includes the disk's; fix: swapoff -a",
    )


def _address_randomisation(host: HostTiming, root: Path) -> Finding:
    if host.address_randomisation in ("off", UNKNOWN):
        return Finding("timing: ASLR", "ok", f"address-space randomisation {host.address_randomisation}")
    return Finding(
        "timing: ASLR",
        "note",
        f"address-space randomisation {host.address_randomisation}: where a program's memory lies changes from run "
        "to run, and with it a few per cent of its time; kept on (a defence against a program that escapes); "
        "to turn off: sysctl kernel.randomize_va_space=0",
    )


def _virtual_machine(host: HostTiming, root: Path) -> Finding:
    if host.virtual_machine == "no":
        return Finding("timing: VM", "ok", "not a virtual machine")
    return Finding(
        "timing: VM",
        "note",
        f"a virtual machine ({host.virtual_machine}): its CPUs are shared with the host's other guests, so CPU time "
        "varies with theirs (the wait is left out of the wall limit); fix: grade on dedicated cores or bare metal",
    )


def _load(host: HostTiming, root: Path) -> Finding:
    load, _ = load_now(root)
    if 0 <= load <= host.cpus:
        return Finding("timing: load", "ok", f"load average {load:g} on {host.cpus} CPUs")
    return Finding(
        "timing: load",
        "note",
        f"load average {load:g} on {host.cpus} CPUs: programs beside the judge take CPU time and cache from it "
        "(every result records its load); fix: stop them, or grade with fewer -j",
    )


CHECKS: tuple[Callable[[HostTiming, Path], Finding], ...] = (
    _smt,
    _governor,
    _boost,
    _transparent_hugepages,
    _swap,
    _address_randomisation,
    _virtual_machine,
    _load,
)
"""Every timing check, in the order `judge doctor` shows them."""
