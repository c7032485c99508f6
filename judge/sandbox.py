"""The sandbox seam: how a command is wrapped before `execute.run` starts it.

`Bubblewrap` confines a run with bwrap: no network; its own PID, IPC, UTS and user namespaces (uid 65534 inside);
a read-only view of /usr and the toolchain folders it needs; the program folder read-only at /program; an empty,
size-limited, private working folder /box, /tmp and /dev/shm, and nothing else writable; no further user
namespaces (bwrap >= 0.8); a short fixed environment; killed with the judge.
`Unconfined` runs the command as it is, with only the rlimits and process cleanup of `execute.py`.
"""

from __future__ import annotations

import functools
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from judge.errors import SandboxUnavailable
from judge.options import SandboxChoice

BOX = Path("/box")
PROGRAM = Path("/program")
SCRATCH_BYTES = 64 * 1024 * 1024
# Read-only from the host: the system's programs and libraries, and the few files of /etc that runtimes read.
SYSTEM_MOUNTS = ("/usr", "/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d", "/etc/localtime",
                 "/etc/alternatives", "/etc/java-17-openjdk", "/etc/java-21-openjdk", "/etc/ssl/certs")
MERGED_USR_LINKS = {"/bin": "usr/bin", "/lib": "usr/lib", "/lib64": "usr/lib64", "/sbin": "usr/sbin"}
SANDBOX_ENV = {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "HOME": str(BOX), "TMPDIR": "/tmp"}


@dataclass(frozen=True)
class Mounts:
    """What one run may see: its program folder (read-only) and the toolchain folders outside /usr."""

    program_dir: Path
    toolchain_dirs: tuple[Path, ...] = field(default_factory=tuple)
    writable_program_dir: bool = False


class Sandbox(Protocol):
    """Turns a command into the command that runs it confined. `name` is the isolation level reported."""

    name: str
    # True when a signal that killed the program comes back as exit code 128 + signal, as bwrap reports it.
    signals_as_exit_codes: bool

    def wrap(self, argv: list[str], mounts: Mounts) -> list[str]: ...

    def program_path(self, host_path: Path, mounts: Mounts) -> str: ...


class Unconfined:
    """No isolation: the command runs as the judge's user, in the program folder."""

    name = "none"
    signals_as_exit_codes = False

    def wrap(self, argv: list[str], mounts: Mounts) -> list[str]:
        return argv

    def program_path(self, host_path: Path, mounts: Mounts) -> str:
        return str(host_path)


@dataclass(frozen=True)
class Bubblewrap:
    """Confinement with bubblewrap (https://github.com/containers/bubblewrap)."""

    executable: str
    name: str = "bwrap"
    signals_as_exit_codes: bool = True

    def wrap(self, argv: list[str], mounts: Mounts) -> list[str]:
        command = [
            self.executable, "--unshare-all", "--unshare-user", "--uid", "65534", "--gid", "65534",
            "--die-with-parent", "--new-session", "--cap-drop", "ALL", "--hostname", "judge",
        ]
        if "--disable-userns" in _options(self.executable):
            # A user namespace of its own would give the submission every capability again inside it, e.g. to
            # mount a tmpfs without a size limit over /box (bwrap >= 0.8).
            command += ["--disable-userns"]
        for path in SYSTEM_MOUNTS:
            command += ["--ro-bind-try", path, path]
        for link, target in MERGED_USR_LINKS.items():
            if Path(link).is_symlink():
                command += ["--symlink", target, link]
            else:
                command += ["--ro-bind-try", link, link]
        for folder in mounts.toolchain_dirs:
            command += ["--ro-bind", str(folder), str(folder)]
        bind = "--bind" if mounts.writable_program_dir else "--ro-bind"
        command += [bind, str(mounts.program_dir), str(PROGRAM)]
        command += ["--proc", "/proc", "--dev", "/dev"]
        command += ["--size", str(SCRATCH_BYTES), "--tmpfs", "/tmp"]
        command += ["--size", str(SCRATCH_BYTES), "--tmpfs", "/dev/shm"]
        if not mounts.writable_program_dir:
            command += ["--size", str(SCRATCH_BYTES), "--tmpfs", str(BOX)]
        # bwrap builds `/` and `/dev` as tmpfs without a size limit (half the RAM): writable, they would let a
        # submission fill the host's memory where no control group counts it. Only the sized tmpfs stay writable.
        command += ["--remount-ro", "/dev", "--remount-ro", "/"]
        workdir = PROGRAM if mounts.writable_program_dir else BOX
        command += ["--chdir", str(workdir), "--clearenv"]
        for key, value in SANDBOX_ENV.items():
            command += ["--setenv", key, value]
        return command + ["--", *argv]

    def program_path(self, host_path: Path, mounts: Mounts) -> str:
        return str(PROGRAM / host_path.relative_to(mounts.program_dir))


@functools.lru_cache(maxsize=None)
def _options(executable: str) -> frozenset[str]:
    """The options this bwrap knows, from its --help (newer hardening options are used only where they exist)."""
    try:
        done = subprocess.run([executable, "--help"], capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired):
        return frozenset()
    return frozenset(word for word in (done.stdout + done.stderr).split() if word.startswith("--"))


@functools.lru_cache(maxsize=None)
def bwrap_problem() -> str | None:
    """Why bubblewrap cannot confine a run here, or None when it can (tried once with a trivial command)."""
    executable = shutil.which("bwrap")
    if executable is None:
        return "bwrap is not installed (Debian: apt-get install bubblewrap)"
    probe = Bubblewrap(executable).wrap(["/bin/true"], Mounts(program_dir=Path("/usr/bin")))
    try:
        done = subprocess.run(probe, capture_output=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired) as error:
        return f"bwrap failed to start: {error}"
    if done.returncode != 0:
        reason = done.stderr.decode(errors="replace").strip().splitlines()
        return f"bwrap cannot create namespaces here: {reason[-1] if reason else done.returncode}"
    return None


def choose_sandbox(choice: SandboxChoice) -> Sandbox:
    """The sandbox for `--sandbox auto|bwrap|none`; `bwrap` refuses (SandboxUnavailable) when it cannot work."""
    if choice == "none":
        return Unconfined()
    problem = bwrap_problem()
    if problem is None:
        return Bubblewrap(shutil.which("bwrap") or "bwrap")
    if choice == "bwrap":
        raise SandboxUnavailable(f"sandbox required but unavailable: {problem}")
    return Unconfined()
