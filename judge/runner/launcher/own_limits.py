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


def load_filter(program: bytes, syscall_number: int) -> None:
    """Install a compiled seccomp BPF `program` (judge/runner/syscall_filter.py) in the calling process, through the
    seccomp system call `syscall_number`. Raises OSError on failure."""
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_NO_NEW_PRIVS) failed")
    fprog = _SockFprog(len(program) // 8, program)
    # SPEC_ALLOW: on kernels whose Spectre mitigation is "prctl,seccomp", a filter would otherwise also turn on
    # speculative store bypass disable, which slows CPU-bound programs: a run's CPU time must not depend on the
    # filter. Kernels before 4.17 do not know the flag (EINVAL): load it without.
    for flags in (SECCOMP_FILTER_FLAG_SPEC_ALLOW, 0):
        if libc.syscall(syscall_number, SECCOMP_SET_MODE_FILTER, flags, ctypes.byref(fprog)) == 0:
            return
        if ctypes.get_errno() != errno.EINVAL:
            break
    raise OSError(ctypes.get_errno(), "seccomp(SECCOMP_SET_MODE_FILTER) failed")


def lower_limit(which: int, soft: int, hard: int) -> None:
    """Set a limit, never above the hard limit the process has (raising it would fail without root)."""
    current_hard = resource.getrlimit(which)[1]
    if current_hard != resource.RLIM_INFINITY:
        hard = current_hard if hard == resource.RLIM_INFINITY else min(hard, current_hard)
        soft = min(soft, hard)
    resource.setrlimit(which, (soft, hard))
