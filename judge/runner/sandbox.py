"""The sandbox seam: how a command is wrapped before `execute.run` starts it.

`Bubblewrap` confines a run with bwrap: no network; its own PID, IPC and UTS namespaces; an unprivileged host uid
(BOX_UID through setpriv when the judge is root, else the judge's own uid behind a user namespace), never host
root; a read-only view of /usr, of /proc and of the toolchain files it needs (an interpreter's standard library,
not its site-packages); the program folder read-only at /program; an empty, size-limited, private working folder
/box, /tmp and /dev/shm, and nothing else writable; no new user namespaces and no kernel keyrings (a seccomp
filter, syscall_filter.py); a short fixed environment; killed with the judge.
`Unconfined` runs the command as it is, as the judge's user, with only the keyring filter, the rlimits and the
process cleanup of `execute.py`.
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Protocol

from msgspec import Struct, field

from judge.errors import SandboxUnavailable
from judge.options import SandboxChoice
from judge.runner import bwrap_probe
from judge.runner.syscall_filter import LoadableFilter, compile_filter

BOX = Path("/box")
# The unprivileged host uid a box runs as when the judge is root; no account uses it (isolate uses 60000 + box).
BOX_UID = 60000
PROGRAM = Path("/program")
LAUNCHER_CODE = Path("/launcher/judge")
SCRATCH_BYTES = 64 * 1024 * 1024
# Read-only from the host: the system's programs and libraries, and the few files of /etc that runtimes read.
SYSTEM_MOUNTS = (
    "/usr",
    "/etc/ld.so.cache",
    "/etc/ld.so.conf",
    "/etc/ld.so.conf.d",
    "/etc/localtime",
    "/etc/alternatives",
    "/etc/java-17-openjdk",
    "/etc/java-21-openjdk",
    "/etc/ssl/certs",
)
MERGED_USR_LINKS = {"/bin": "usr/bin", "/lib": "usr/lib", "/lib64": "usr/lib64", "/sbin": "usr/sbin"}
# All a warm box's launcher keeps of root: mount its own /proc, fresh writable folders and a tmpfs copy of the
# program folder, enter a new IPC namespace and reset the PID counter (SYS_ADMIN), copy the program folder's
# owners and modes (CHOWN, FOWNER) and read it
# whatever they are (DAC_OVERRIDE), drop each run to the box's uid (SETUID, SETGID) with no capability to inherit
# (SETPCAP), and kill what a run left (KILL).
LAUNCHER_CAPABILITIES = (
    "CAP_SYS_ADMIN",
    "CAP_SETUID",
    "CAP_SETGID",
    "CAP_SETPCAP",
    "CAP_KILL",
    "CAP_DAC_OVERRIDE",
    "CAP_FOWNER",
    "CAP_CHOWN",
)
# bwrap's end of its options: what follows is the command in the box.
BOX_COMMAND = "--"
# The two moves of `pipes_past_the_wrapper`: before bwrap (stdin and stdout to fds 3 and 4, /dev/null in their
# place) and in the box (back to 0 and 1).
_STDIO_ASIDE = ["/bin/sh", "-c", 'exec 3<&0 4>&1 </dev/null >/dev/null && exec "$@"', "sh"]
_STDIO_BACK = ["/bin/sh", "-c", 'exec 0<&3 1>&4 3<&- 4<&- && exec "$@"', "sh"]
SANDBOX_ENV = {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "HOME": str(BOX), "TMPDIR": "/tmp"}
"""The one environment policy: all a program in a box sees (bwrap sets it after --clearenv)."""


def program_env(home: Path) -> dict[str, str]:
    """The environment a program (a submission, a checker, a validator) is started with: SANDBOX_ENV, with HOME
    its own folder for when no box gives it one (`--sandbox none`)."""
    return {**SANDBOX_ENV, "HOME": str(home)}


class ToolchainView(Struct, frozen=True):
    """What a box may see of a toolchain installed outside /usr: `shown` paths (files or folders) appear
    read-only at the same place, and `hidden` folders under them appear empty (an interpreter's site-packages)."""

    shown: tuple[Path, ...] = ()
    hidden: tuple[Path, ...] = ()


class Mounts(Struct, frozen=True):
    """What one run may see: its program folder (read-only unless compiling) and its toolchain."""

    program_dir: Path
    toolchain: ToolchainView = field(default_factory=ToolchainView)
    writable_program_dir: bool = False
    # The judge package, shown at LAUNCHER_CODE to a warm box's launcher (which unmounts it once started).
    launcher_code: Path | None = None


class Sandbox(Protocol):
    """Turns a command into the command that runs it confined. `name` is the isolation level reported."""

    @property
    def name(self) -> str: ...

    @property
    def signals_as_exit_codes(self) -> bool:
        """True when a signal that killed the program comes back as exit code 128 + signal, as bwrap reports it."""
        ...

    @property
    def syscall_filter(self) -> LoadableFilter | None:
        """Loaded into every run before exec by its starter; None where libseccomp is missing (doctor says so)."""
        ...

    @property
    def scratch(self) -> tuple[str, ...]:
        """The writable folders of a box, emptied between two tests that share it (none when there is no box)."""
        ...

    @property
    def warm_box_uid(self) -> int | None:
        """The uid a warm box's launcher (root inside the box, without a user namespace) drops each run to; None
        where no box can host one (a judge that is not root: its box's user namespace maps a single uid)."""
        ...

    def wrap(self, argv: list[str], mounts: Mounts, as_init: bool = False) -> list[str]:
        """`argv` confined; `as_init`: as the PID 1 of its box (a launcher that lives for a submission)."""

    def program_path(self, host_path: Path, mounts: Mounts) -> str: ...

    def grant_write(self, folder: Path) -> None:
        """Let the box's user write `folder` (the program folder while compiling)."""


class Unconfined(Struct, frozen=True):
    """No isolation: the command runs as the judge's user, in the program folder."""

    syscall_filter: LoadableFilter | None
    name: str = "none"
    signals_as_exit_codes: bool = False
    scratch: tuple[str, ...] = ()
    warm_box_uid: int | None = None

    def wrap(self, argv: list[str], mounts: Mounts, as_init: bool = False) -> list[str]:
        return argv

    def program_path(self, host_path: Path, mounts: Mounts) -> str:
        return str(host_path)

    def grant_write(self, folder: Path) -> None:
        return None


class Bubblewrap(Struct, frozen=True):
    """Confinement with bubblewrap (https://github.com/containers/bubblewrap).

    A judge that is root starts bwrap as root without a user namespace (as isolate does), and the command runs
    through `setpriv` as BOX_UID with no capabilities: the box's uid is an unprivileged host uid, so /proc/sys,
    the host's files and other users' processes are out of its reach. A judge that is not root gets bwrap's
    user namespace, whose uid 65534 is the judge's own unprivileged uid outside.
    """

    executable: str
    syscall_filter: LoadableFilter | None
    setpriv: str | None = None  # set when the judge is root
    name: str = "bwrap"
    signals_as_exit_codes: bool = True
    scratch: tuple[str, ...] = (str(BOX), "/tmp", "/dev/shm")

    @property
    def warm_box_uid(self) -> int | None:
        return BOX_UID if self.setpriv is not None else None

    def wrap(self, argv: list[str], mounts: Mounts, as_init: bool = False) -> list[str]:
        command = [self.executable, *self._namespaces(), "--die-with-parent", "--new-session", "--hostname", "judge"]
        if as_init:
            # No bwrap reaper: the launcher is PID 1, out of reach of the box's signals, and stays root in the box
            # (it resets the PID counter and hides itself from /proc) while each run drops to warm_box_uid.
            command += ["--as-pid-1", "--cap-drop", "ALL"]
            for capability in LAUNCHER_CAPABILITIES:
                command += ["--cap-add", capability]
        # bwrap makes the folders above a mount point private to root (0700): the box user must pass through them.
        for folder in _parents(SYSTEM_MOUNTS):
            command += ["--perms", "0755", "--dir", folder]
        for path in SYSTEM_MOUNTS:
            command += ["--ro-bind-try", path, path]
        for link, target in MERGED_USR_LINKS.items():
            if Path(link).is_symlink():
                command += ["--symlink", target, link]
            else:
                command += ["--ro-bind-try", link, link]
        bind = "--bind" if mounts.writable_program_dir else "--ro-bind"
        command += [bind, str(mounts.program_dir), str(PROGRAM)]
        if mounts.launcher_code is not None:
            command += ["--ro-bind", str(mounts.launcher_code), str(LAUNCHER_CODE)]
        # A read-only /proc: the sysctls of the box's own namespaces (pid_max, the IPC limits) stay unwritable too.
        command += ["--proc", "/proc", "--remount-ro", "/proc", "--dev", "/dev"]
        scratch = ["/tmp", "/dev/shm"] + ([] if mounts.writable_program_dir else [str(BOX)])
        for folder in scratch:
            command += ["--perms", "1777", "--size", str(SCRATCH_BYTES), "--tmpfs", folder]
        # After the scratch folders, so a toolchain under /tmp (a cache in a temporary HOME) is not covered by them.
        for folder in _parents(mounts.toolchain.shown, exclude=(*scratch, "/dev")):
            command += ["--perms", "0755", "--dir", folder]
        for shown in mounts.toolchain.shown:
            command += ["--ro-bind", str(shown), str(shown)]
        for hidden in mounts.toolchain.hidden:
            command += ["--tmpfs", str(hidden), "--remount-ro", str(hidden)]
        # bwrap builds `/` and `/dev` as tmpfs without a size limit (half the RAM): writable, they would let a
        # submission fill the host's memory where no control group counts it. Only the sized tmpfs stay writable.
        command += ["--remount-ro", "/dev", "--remount-ro", "/"]
        workdir = PROGRAM if mounts.writable_program_dir else BOX
        command += ["--chdir", str(workdir), "--clearenv"]
        for key, value in SANDBOX_ENV.items():
            command += ["--setenv", key, value]
        return [*command, BOX_COMMAND, *([] if as_init else self._as_box_user()), *argv]

    def _namespaces(self) -> list[str]:
        shared = ["--unshare-pid", "--unshare-net", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try"]
        if self.setpriv is not None:
            return shared
        # A user namespace of its own would give the submission every capability again inside it, e.g. to
        # mount a tmpfs without a size limit over /box (bwrap >= 0.8 can refuse it).
        nested = ["--disable-userns"] if "--disable-userns" in _options(self.executable) else []
        return [*shared, "--unshare-user", "--uid", "65534", "--gid", "65534", *nested, "--cap-drop", "ALL"]

    def _as_box_user(self) -> list[str]:
        if self.setpriv is None:
            return []
        uid = str(BOX_UID)
        return [
            self.setpriv,
            f"--reuid={uid}",
            f"--regid={uid}",
            "--clear-groups",
            "--inh-caps=-all",
            "--bounding-set=-all",
            "--",
        ]

    def program_path(self, host_path: Path, mounts: Mounts) -> str:
        return str(PROGRAM / host_path.relative_to(mounts.program_dir))

    def grant_write(self, folder: Path) -> None:
        """`folder` and everything in it, the box user's (not following links). With os.walk, not pathlib's
        `rglob`: this is on the way of every compile step, and `rglob` took 0.28 ms of it, os.walk 0.07."""
        if self.setpriv is None:
            return  # the box's uid is the judge's own
        os.chown(folder, BOX_UID, BOX_UID, follow_symlinks=False)
        for parent, folders, files in os.walk(folder, onerror=_raise):
            for name in (*folders, *files):
                os.chown(os.path.join(parent, name), BOX_UID, BOX_UID, follow_symlinks=False)


def pipes_past_the_wrapper(argv: list[str]) -> list[str]:
    """`argv` as `Bubblewrap.wrap` made it, changed so that no process of bwrap's own holds the command's stdin or
    stdout; any other command (unconfined) as it is.

    bwrap keeps descriptors 0-2 open in its monitor outside the box and in its PID 1 inside, and closes every
    other one there (passing them all on to the command). So a pipe given as the command's stdout does not end
    while the box lives: an interactive validator that closes its output and then waits for the submission's
    reply was never seen to close it, and a submission reading to the end of its input ran into its time limit.
    A shell before bwrap moves stdin and stdout to descriptors 3 and 4, and one in the box moves them back
    (about 1 ms of each side's run)."""
    if Path(argv[0]).name != "bwrap" or BOX_COMMAND not in argv:
        return argv
    start = argv.index(BOX_COMMAND) + 1
    return [*_STDIO_ASIDE, *argv[:start], *_STDIO_BACK, *argv[start:]]


@contextmanager
def scratch_folder(prefix: str) -> Iterator[Path]:
    """A temporary folder for one submission's or one problem's boxes: the box's user may pass through it (0711)
    to the program folders inside, and can list or read nothing else in it."""
    with tempfile.TemporaryDirectory(prefix=prefix) as name:
        os.chmod(name, 0o711)
        yield Path(name)


def _raise(error: OSError) -> None:
    """os.walk's `onerror` that does not skip a folder it cannot list: a file left the judge's fails the compile."""
    raise error


def _parents(paths: Iterable[str | Path], exclude: Iterable[str] = ()) -> list[str]:
    """Every folder above `paths` except `/` and `exclude` (mount points that exist already), outermost first.
    With os.path, not pathlib's `parents`: the compile step's box and the warm box took 0.28 ms of it, now 0.04."""
    skip = {"/", *exclude}
    folders: set[str] = set()
    for path in paths:
        folder = os.path.normpath(path)
        while (parent := os.path.dirname(folder)) != folder:
            folder = parent
            if folder not in skip:
                folders.add(folder)
    return sorted(folders, key=lambda folder: (folder.count("/"), folder))


@functools.cache
def _options(executable: str) -> frozenset[str]:
    """The options this bwrap knows, from its --help (newer hardening options are used only where they exist)."""
    try:
        done = subprocess.run([executable, "--help"], capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired):
        return frozenset()
    return frozenset(word for word in (done.stdout + done.stderr).split() if word.startswith("--"))


def _bubblewrap() -> Bubblewrap | str:
    """bubblewrap as this judge would start it, or why it cannot be."""
    executable = shutil.which("bwrap")
    if executable is None:
        return "bwrap is not installed (Debian: apt-get install bubblewrap)"
    setpriv = None
    if os.geteuid() == 0:
        setpriv = shutil.which("setpriv")
        if setpriv is None:
            return (
                "setpriv is not installed, and a judge that is root needs it to run boxes unprivileged "
                "(Debian: apt-get install util-linux)"
            )
    loaded = compile_filter(block_new_user_namespaces=setpriv is not None, block_network=True)
    return Bubblewrap(executable, loaded if isinstance(loaded, LoadableFilter) else None, setpriv)


@functools.cache
def bwrap_problem(fresh: bool = False) -> str | None:
    """Why bubblewrap cannot confine a run here, or None when it can: tried with a trivial command (the probe, 10 ms
    of every `judge run`'s start), unless a probe of the same command in the same conditions since this boot said
    yes (bwrap_probe.py). A no is never remembered: the next judge tries again, so a fix takes effect at once.
    `fresh` (judge doctor) always tries, and forgets the yes when it fails."""
    box = _bubblewrap()
    if isinstance(box, str):
        return box
    return bwrap_probe.problem(box.executable, box.wrap(["/bin/true"], Mounts(program_dir=Path("/usr/bin"))), fresh)


def sandbox_gaps() -> list[str]:
    """What the sandbox cannot guarantee on this machine, one line each; empty when it guarantees everything."""
    problem = bwrap_problem()
    if problem is not None:
        return [problem]
    box = _bubblewrap()
    assert isinstance(box, Bubblewrap)  # bwrap_problem() is None
    gaps = []
    if box.syscall_filter is None:
        gaps.append(str(compile_filter(block_new_user_namespaces=box.setpriv is not None, block_network=True)))
    if box.setpriv is None and "--disable-userns" not in _options(box.executable):
        gaps.append("this bwrap (older than 0.8) cannot refuse nested user namespaces")
    return gaps


def choose_sandbox(choice: SandboxChoice) -> Sandbox:
    """The sandbox for `--sandbox auto|bwrap|none`; `bwrap` refuses (SandboxUnavailable) unless it guarantees
    everything it promises here (see `sandbox_gaps`)."""
    if choice == "bwrap":
        gaps = sandbox_gaps()
        if gaps:
            raise SandboxUnavailable(f"sandbox required but unavailable: {'; '.join(gaps)}")
    if choice != "none" and bwrap_problem() is None:
        box = _bubblewrap()
        assert isinstance(box, Bubblewrap)
        return box
    loaded = compile_filter(block_new_user_namespaces=False, block_network=False)
    return Unconfined(loaded if isinstance(loaded, LoadableFilter) else None)
