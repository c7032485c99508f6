"""What a result's times were measured under: the record every result carries (`SubmissionResult.provenance`),
so a teacher can tell a verdict judged on a quiet, fully contained machine from one judged on a busy laptop.

The host's steady conditions (SMT, governor, boost, transparent huge pages, swap, a VM) are read once per command
(`RunOptions.host_timing`, judge/host_timing.py) and again only by a judging on another machine (a Dask worker);
what changes from judging to judging (the load) is read when the judging starts. The toolchain's version comes from
the judge's cache of what its tools said (`--version`, asked once per installed tool).
"""

from __future__ import annotations

import os
from typing import Any

from judge import __version__
from judge.host_timing import HostTiming, load_now, read_host_timing
from judge.languages.toolchains import Toolchain, tool_version
from judge.options import RunOptions
from judge.tool_cache import cache_dir, read_record, tool_key, write_record

CONTAINMENT_STRENGTH = {"cgroup": 2, "proc": 1, "portable": 0}
"""How firmly each containment holds its limits, for telling which results were judged under weaker ones."""


def host_of(options: RunOptions) -> HostTiming:
    """The command's record of this machine, or a fresh one where the command ran on another machine."""
    given = options.host_timing
    if given is not None and given.machine == os.uname().nodename:
        return given
    return read_host_timing()


def provenance(
    options: RunOptions,
    host: HostTiming,
    toolchain: Toolchain,
    sandbox: str,
    containment: str,
    memory: str,
    pinning: str,
) -> dict[str, Any]:
    """The record a result carries: plain data (JSON, the results database, serve's pages)."""
    load, runnable = load_now()
    return {
        "judge_version": __version__,
        "toolchain": toolchain_version(toolchain),
        "sandbox": sandbox,
        "containment": containment,
        "memory": memory,
        "required_containment": options.require_containment,
        "workers": options.workers,
        "pinning": pinning,
        "load_average": load,
        "runnable_tasks": runnable,
        "host": host.to_dict(),
    }


def toolchain_version(toolchain: Toolchain) -> str:
    """The first line of the language's first tool's `--version`, asked once per installed tool and kept in the
    judge's cache (javac takes half a second to answer)."""
    tool = next(iter(toolchain.paths.values()), "")
    if not tool:
        return "unknown"
    record = cache_dir() / "tool-versions" / f"{tool_key(tool)}.json"
    known = read_record(record)
    if isinstance(known, str):
        return known
    version = tool_version(tool)
    try:
        write_record(record, version)
    except OSError:
        pass  # an unwritable cache only costs the next judging the question again
    return version


def flat_provenance(record: dict[str, Any]) -> list[tuple[str, str]]:
    """The record as (name, text) pairs, the host's under `host.` (JUnit properties, a table's rows)."""
    pairs = [(name, str(value)) for name, value in record.items() if name != "host"]
    return pairs + [(f"host.{name}", str(value)) for name, value in (record.get("host") or {}).items()]


def strength(record: dict[str, Any]) -> tuple[int, int, int]:
    """How trustworthy a result's times are, comparable between results (higher is firmer): the containment, the
    sandbox, and whether the machine was no busier than its CPUs at the start."""
    containment = str(record.get("containment", ""))
    contained = max((rank for name, rank in CONTAINMENT_STRENGTH.items() if containment.startswith(name)), default=0)
    boxed = int(record.get("sandbox") not in (None, "none"))
    host = record.get("host") or {}
    cpus = host.get("cpus") or 1
    quiet = int(0 <= float(record.get("load_average", -1)) <= cpus)
    return contained, boxed, quiet
