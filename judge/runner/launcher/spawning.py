"""Starting one run's program, for the launcher (server.py): into the run's control group, as the run's uid, with
vfork + exec. Standard library only, like the launcher (tests/runner/test_launcher_imports.py)."""

from __future__ import annotations

# The C module beneath `signal`, whose enums the launcher never uses (see server.py).
import _signal as signal
import os
import time

# Every run starts with every signal at its default, whatever the launcher was left: Python ignores SIGPIPE and
# SIGXFSZ (a run over the output limit must die of SIGXFSZ, a writer to a closed pipe of SIGPIPE), and a judge
# started under nohup ignores SIGHUP; an ignored signal stays ignored across exec. Naming them all costs less
# than naming those two: glibc's posix_spawn sets each named signal once in the child, and reads each other one
# before setting it again (two system calls a signal, 120 per test, about 35 us of each test's CPU time, charged to
# the run: the child is in the run's group).
DEFAULT_SIGNALS = tuple(sorted(signal.valid_signals() - {signal.SIGKILL, signal.SIGSTOP}))


def spawn(argv: list[str], cwd: str, env: dict[str, str], streams: tuple[int, int, int], uid: int | None) -> int:
    """Start `argv` as `uid` (None: as the launcher) in a session of its own with `streams` as its stdin, stdout
    and stderr, and return its pid.

    posix_spawn is a vfork and exec in glibc, as `subprocess` would do, without importing `subprocess` (about
    a third of the launcher's start). No other descriptor reaches the run: every one the launcher holds is
    close-on-exec (server.py's `close_inherited` and `receive`). The launcher has one thread, so it becomes the
    run's uid for the spawn (`as_user`), steps into `cwd` (as that uid, as a child would) and back to `/`, where
    it lives and which every uid may enter. An exec that fails raises OSError here (glibc reports it since 2.24).
    """
    program = argv[0] if "/" in argv[0] else on_path(argv[0], env.get("PATH", os.defpath))
    as_user(uid)
    try:
        os.chdir(cwd)
        try:
            return os.posix_spawn(
                program,
                argv,
                env,
                setsid=True,
                setsigdef=DEFAULT_SIGNALS,
                file_actions=[(os.POSIX_SPAWN_DUP2, stream, target) for target, stream in enumerate(streams)],
            )
        finally:
            os.chdir("/")
    finally:
        as_root(uid)


def join(files: list[int]) -> None:
    """Move the launcher into a run's group: "0" to each join file but the last, its CPU time settled
    (`settle_cpu_time`), then "0" to the last, the folder that counts CPU time (run_group.py orders them so).
    From that write on, until the vfork's sleep, what the launcher does is charged to the run: the other moves
    are not (each a cgroup migration; per C test, the run's count over the program's own 0.06-0.07 ms before,
    0.04-0.05 after, in the warm box; 0.08-0.10 and 0.06 without it, measured)."""
    for descriptor in files[:-1]:
        os.write(descriptor, b"0")
    settle_cpu_time()
    for descriptor in files[-1:]:  # none without groups
        os.write(descriptor, b"0")


def settle_cpu_time() -> None:
    """Have the kernel count the CPU time the launcher has run since it last did, to the group it is in now.

    The scheduler adds a running task's time to its control groups' counters only now and then (when it
    sleeps, at a tick, when asked), to the groups the task is in at that moment. Moving into a group does not
    always count first (not where cgroup v1 mounts cpuacct apart from cpu), so what the launcher did since it
    woke up (reading the request) would be counted when it next sleeps, in the vfork of the run: to the run's
    group, and the submission (0.06-0.1 ms per test more than the program's own rusage, measured; up to a
    tick's worth). Reading its own CPU clock makes the kernel count it here."""
    time.thread_time()


def on_path(name: str, path: str) -> str:
    """Where `name` is found on the run's PATH (as execvpe looks), or `name` itself to fail with ENOENT."""
    for folder in path.split(os.pathsep):
        candidate = os.path.join(folder or ".", name)
        if os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
    return name


def as_user(uid: int | None) -> None:
    """Switch to `uid` to start a run (None: stay the launcher). Real and effective ids switch and the saved ones
    stay root, so the launcher gets root back afterwards (`as_root`), and the spawn is still a vfork (`user=` of
    `Popen` would fork the launcher, 1 ms more per test); the exec sets the saved ids too, so the program has no
    way back to root and, not being root, no capability. The launcher dropped its supplementary groups in `setup`."""
    if uid is not None:
        os.setresgid(uid, uid, 0)
        os.setresuid(uid, uid, 0)


def as_root(uid: int | None) -> None:
    """Back to root after `as_user(uid)`."""
    if uid is not None:
        os.setresuid(0, 0, 0)
        os.setresgid(0, 0, 0)
