"""Whether bubblewrap can make a box here: its probe (`bwrap ... /bin/true`), run so that nothing of it outlives the
call, and the record of a yes, so that the next judge need not pay the probe's 10 ms again (sandbox.py asks).

A yes is remembered under a name made of everything that decides it (`_record`); a no is never remembered, so a
fix takes effect at the next judge. `judge doctor` always probes (`fresh`) and forgets a yes that failed. A stale
yes cannot run a submission less confined: its box then fails to start, a JE.
"""

from __future__ import annotations

import os
import subprocess
import tempfile
from pathlib import Path

from judge.runner.containment.protocol import kill_process_group
from judge.runner.start import start_process
from judge.tool_cache import cache_dir, tool_key

PROBE_NAMESPACES = ("user", "mnt", "pid", "net", "ipc", "uts", "cgroup")
USER_NAMESPACE_SYSCTLS = (
    "/proc/sys/user/max_user_namespaces",
    "/proc/sys/kernel/unprivileged_userns_clone",  # Debian's
    "/proc/sys/kernel/apparmor_restrict_unprivileged_userns",  # Ubuntu's
)
INHERITED = ("NoNewPrivs:", "Seccomp:", "Seccomp_filters:")
# How long the probe (bwrap running /bin/true, a few ms) may take before bwrap counts as broken.
PROBE_SECONDS = 10


def problem(executable: str, argv: list[str], fresh: bool) -> str | None:
    """Why the probe `argv` (bwrap at `executable`) fails here, or None when it works: remembered if a probe of the
    same command in the same conditions said yes since this boot, unless `fresh`."""
    record = _record(executable, argv)
    if not fresh and record is not None and record.is_file():
        return None
    found = _probe_problem(argv)
    if record is not None:
        try:
            if found is None:
                record.parent.mkdir(parents=True, exist_ok=True)
                record.touch()
            else:
                record.unlink(missing_ok=True)
        except OSError:
            pass  # an unwritable cache only costs the next judge one more probe
    return found


def _probe_problem(argv: list[str]) -> str | None:
    try:
        returncode, stderr = _probe(argv)
    except (OSError, subprocess.TimeoutExpired) as error:
        return f"bwrap failed to start: {error}"
    if returncode != 0:
        reason = stderr.decode(errors="replace").strip().splitlines()
        return f"bwrap cannot create namespaces here: {reason[-1] if reason else returncode}"
    return None


def _record(executable: str, argv: list[str]) -> Path | None:
    """Where a yes of the probe `argv` is remembered, named by everything that decides whether bwrap can make its
    namespaces: bwrap itself (`tool_key`: path, size, mtime), the probe's exact command (mounts, flags, setpriv),
    this boot, the judge's uid, the namespaces it runs in (a container has its own), the sysctls that allow or
    refuse unprivileged user namespaces, and the seccomp and no-new-privileges state it would pass on. None where
    these cannot be read (no /proc): then every judge probes."""
    try:
        facts = [
            Path("/proc/sys/kernel/random/boot_id").read_text().strip(),
            str(os.geteuid()),
            *(os.readlink(f"/proc/self/ns/{kind}") for kind in PROBE_NAMESPACES),
            *(_optional_text(Path(sysctl)) for sysctl in USER_NAMESPACE_SYSCTLS),
            *(line for line in Path("/proc/self/status").read_text().splitlines() if line.startswith(INHERITED)),
            "\0".join(argv),
        ]
    except OSError:
        return None
    return cache_dir() / "bwrap-probe" / tool_key(executable, *facts)


def _optional_text(path: Path) -> str:
    try:
        return path.read_text().strip()
    except FileNotFoundError:
        return "-"


def _probe(argv: list[str]) -> tuple[int, bytes]:
    """Run bwrap's probe to its end; its exit code and stderr. Nothing of it outlives this call.

    bwrap's first child (the box's PID 1) blocks on an eventfd until bwrap's monitor, its parent, says go on,
    and nothing yet ends it with the monitor: a monitor killed in between (by the timeout, or by a worker's
    cleanup that took it for a leaf just before it forked) left that child blocked forever, an orphan of init.
    So the probe gets a session of its own, and its whole group is killed however the monitor ended: once reaped,
    the monitor's pid stays the group's id, never reused, while a member of the group lives."""
    with tempfile.TemporaryFile() as stderr:  # not a pipe: an orphan holding it would keep its reader waiting
        process = start_process(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=stderr)
        try:
            returncode = process.wait(timeout=PROBE_SECONDS)
        finally:
            kill_process_group(process.pid)
            process.wait()
        stderr.seek(0)
        return returncode, stderr.read()
