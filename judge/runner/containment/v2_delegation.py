"""Where a judge gets a cgroup v2 group of its own from, beyond its own group, and what to tell a person when it
gets none (v2_base.py decides which group to use): the group `JUDGE_CGROUP` names, a transient scope systemd
delegates on request over D-Bus (as `systemd-run --scope -p Delegate=yes` does), and the one-line reason and fix of
every refusal, for `judge doctor`.
"""

from __future__ import annotations

import errno
import os
import shutil
import subprocess
import time
from pathlib import Path

EXPLICIT_VARIABLE = "JUDGE_CGROUP"
SCOPE_WAIT_SECONDS = 30.0  # systemd-run's own D-Bus timeout is 25 s; a user's bus may start on this first call
_MEANINGS = {
    errno.EBUSY: "the group holds processes, and cgroup v2 enables controllers only for a group that holds none",
    errno.EACCES: "the group is not delegated to this user",
    errno.EPERM: "the group is not delegated to this user",
    errno.ENOENT: "a controller is not delegated to this group by its parent",
    errno.EROFS: "/sys/fs/cgroup is mounted read-only (a container without a writable cgroup)",
}


class NoBase(Exception):
    """No group the judge may make run groups in: why (the errno and what it means), and the command that fixes it
    (for `judge doctor`)."""

    def __init__(self, reason: str, fix: str | None = None) -> None:
        super().__init__(reason)
        self.fix = fix if fix is not None else scope_command()


def scope_command() -> str:
    """Starting the judge in a delegated scope of its own: what fixes most failures, where systemd runs."""
    user = "" if os.geteuid() == 0 else " --user"
    return f"systemd-run{user} --scope -p Delegate=yes judge ..."


def refusal(error: OSError, what: str) -> str:
    """One line: what failed, the errno's name and what it means for a control group."""
    name = errno.errorcode.get(error.errno or 0, str(error.errno))
    meaning = _MEANINGS.get(error.errno or 0, error.strerror or "")
    return f"{what}: {name} ({meaning})"


def own_group(root: Path) -> Path:
    """The v2 group this process is in (the `0::` line of /proc/self/cgroup)."""
    for line in Path("/proc/self/cgroup").read_text().splitlines():
        if line.startswith("0::"):
            return root / line[3:].strip().lstrip("/")
    raise NoBase("this process is in no cgroup v2 group (/proc/self/cgroup has no 0:: line)")


def systemd_runs() -> bool:
    """Whether systemd is this machine's init (its own test, as sd_booted does)."""
    return Path("/run/systemd/system").is_dir()


def delegation_without_systemd(root: Path) -> str:
    """What gives an ordinary user a group of its own where no systemd delegates one: root makes it and moves
    the user's shell in; the judge started from that shell then takes the group (rule 4)."""
    if os.geteuid() == 0:
        return f"set {EXPLICIT_VARIABLE} to an empty group with memory and pids in its cgroup.controllers"
    group = root / f"judge-{os.geteuid()}"
    files = " ".join(str(group / name) for name in ("cgroup.procs", "cgroup.threads", "cgroup.subtree_control"))
    return (
        f"have root delegate a group to you: `mkdir {group} && chown {os.geteuid()} {group} {files}`, then "
        f"`echo <your shell's pid> > {group}/cgroup.procs` (with memory and pids in "
        f"{root}/cgroup.subtree_control); start the judge from that shell"
    )


def systemd_scope(root: Path) -> Path:
    """Ask systemd (the user's manager for an ordinary user) for a transient scope with Delegate=yes holding
    the judge, as `systemd-run --scope -p Delegate=yes` does, and wait until the judge is in it."""
    busctl = shutil.which("busctl")
    if busctl is None:
        raise NoBase(
            "no busctl here to ask systemd for a delegated scope",
            f"set {EXPLICIT_VARIABLE} to a group of the judge's own (memory and pids in its "
            "cgroup.controllers, writable by its user), or start the judge alone in a group",
        )
    bus = [] if os.geteuid() == 0 else ["--user"]
    if bus and not (os.environ.get("DBUS_SESSION_BUS_ADDRESS") or os.environ.get("XDG_RUNTIME_DIR")):
        # `su`, `setpriv` or cron from a root process: the user manager, if it runs, would not take a process
        # from outside its own tree anyway
        raise NoBase(
            "no user manager to ask for a delegated scope (XDG_RUNTIME_DIR is not set: not a login session)",
            f"start the judge in a login session of its user (ssh, a desktop, or `runuser -l USER` from root), "
            f"or set {EXPLICIT_VARIABLE} to a group delegated to it",
        )
    me = os.getpid()
    unit = f"judge-{me}-{os.urandom(4).hex()}.scope"
    command = [
        busctl,
        *bus,
        f"--timeout={SCOPE_WAIT_SECONDS:.0f}",
        "call",
        "org.freedesktop.systemd1",
        "/org/freedesktop/systemd1",
        "org.freedesktop.systemd1.Manager",
        "StartTransientUnit",
        "ssa(sv)a(sa(sv))",
        unit,
        "fail",
        "2",
        "PIDs",
        "au",
        "1",
        str(me),
        "Delegate",
        "b",
        "true",
        "0",
    ]
    asking = f"asking systemd{' (the user manager)' if bus else ''} for a delegated scope (StartTransientUnit)"
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=SCOPE_WAIT_SECONDS + 5, check=False)
    except subprocess.TimeoutExpired:
        raise NoBase(f"{asking}: no answer in {SCOPE_WAIT_SECONDS + 5:.0f} s") from None
    except OSError as error:
        raise NoBase(refusal(error, f"{asking}: starting busctl")) from None
    if done.returncode != 0:
        raise NoBase(f"{asking}: refused: {done.stderr.strip()[:200]}")
    deadline = time.monotonic() + SCOPE_WAIT_SECONDS
    while time.monotonic() < deadline:
        group = own_group(root)
        if group.name == unit:
            return group
        time.sleep(0.01)
    raise NoBase(f"systemd accepted the scope {unit} but did not move the judge into it")


def delegation_command(group: Path) -> str:
    """What gives `group` the memory and pids controllers: its parent enabling them (root), or the user's
    systemd manager delegating them (an ordinary user; Debian 12's and Ubuntu 24.04's already do)."""
    if os.geteuid() == 0:
        return f"echo '+memory +pids' > {group.parent}/cgroup.subtree_control"
    return (
        "printf '[Service]\\nDelegate=cpu memory pids\\n' | sudo SYSTEMD_EDITOR=tee systemctl edit "
        "user@.service, then log in again"
    )
