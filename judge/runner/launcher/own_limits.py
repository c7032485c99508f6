"""The limits a process puts on itself before it starts a run: rlimits and a seccomp filter. Used by the launcher
(server.py, which may import only the standard library and its own small modules), by a fork of the judge between
fork and exec (judge/runner/start.py), and by judge/runner/syscall_filter.py."""

from __future__ import annotations

import ctypes
import errno
import resource

PR_SET_NO_NEW_PRIVS = 38
SECCOMP_SET_MODE_FILTER = 1
SECCOMP_FILTER_FLAG_SPEC_ALLOW = 1 << 2


class _SockFprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_char_p)]


class PreparedFilter:
    """A seccomp filter ready to install, every object its installation needs made beforehand: a fork of the
    judge installs it between fork and exec, where each object made copies pages of the judge's memory (on the
    compile step's way)."""

    def __init__(self, program: bytes, syscall_number: int) -> None:
        libc = ctypes.CDLL(None, use_errno=True)
        self._prctl, self._syscall, self._number = libc.prctl, libc.syscall, syscall_number
        self._fprog = _SockFprog(len(program) // 8, program)  # keeps `program` alive with it
        self._reference = ctypes.byref(self._fprog)

    def install(self) -> None:
        """Install it in the calling process. Raises OSError on failure."""
        if self._prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "prctl(PR_SET_NO_NEW_PRIVS) failed")
        # SPEC_ALLOW: on kernels whose Spectre mitigation is "prctl,seccomp", a filter would otherwise also turn on
        # speculative store bypass disable, which slows CPU-bound programs: a run's CPU time must not depend on the
        # filter. Kernels before 4.17 do not know the flag (EINVAL): load it without.
        for flags in (SECCOMP_FILTER_FLAG_SPEC_ALLOW, 0):
            if self._syscall(self._number, SECCOMP_SET_MODE_FILTER, flags, self._reference) == 0:
                return
            if ctypes.get_errno() != errno.EINVAL:
                break
        raise OSError(ctypes.get_errno(), "seccomp(SECCOMP_SET_MODE_FILTER) failed")


def lower_limit(which: int, soft: int, hard: int) -> None:
    """Set a limit, never above the hard limit the process has (raising it would fail without root)."""
    resource.setrlimit(which, limit_within(which, soft, hard))


def limit_within(which: int, soft: int, hard: int) -> tuple[int, int]:
    """(soft, hard) lowered to the hard limit the calling process has (and its children, forked or started, have
    the same)."""
    current_hard = resource.getrlimit(which)[1]
    if current_hard != resource.RLIM_INFINITY:
        hard = current_hard if hard == resource.RLIM_INFINITY else min(hard, current_hard)
        soft = min(soft, hard)
    return soft, hard
