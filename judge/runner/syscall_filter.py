"""A seccomp filter loaded into every run before it starts: the few system calls a submission must never make.

- The kernel keyrings (`add_key`, `keyctl`, `request_key`): a process keeps its parent's session keyring, and
  the keyrings of a uid outlive its processes, so one run could leave a key for the next (another student's) to
  read. Docker's default profile refuses them for the same reason.
- With `block_new_user_namespaces`, creating a user namespace (`unshare` or `clone` with CLONE_NEWUSER, and
  `clone3`, whose flags a filter cannot read; glibc falls back to `clone` on ENOSYS): inside one, a submission
  would hold every capability again. The root box asks for this; bubblewrap's own user namespace (the box of a
  judge that is not root) refuses nested ones itself, and needs CLONE_NEWUSER to start.

The filter is compiled once per process by libseccomp (through pyseccomp) and loaded in the child between fork
and exec with two system calls, so a run pays microseconds for it. Where libseccomp is missing, `compile_filter`
says why and the caller reports it (`judge doctor`, `--require-sandbox`).
"""

from __future__ import annotations

import errno
import functools
import importlib.util
import os
import tempfile
from dataclasses import dataclass

from judge.runner.launcher.own_limits import load_filter
from judge.tool_cache import cache_dir, content_key, file_stamp, read_record, write_record

CLONE_NEWUSER = 0x10000000
KEYRING_CALLS = ("add_key", "keyctl", "request_key")
# The seccomp(2) system call's number on the architectures the judge runs on.
SECCOMP_SYSCALL = {"x86_64": 317, "aarch64": 277}


@dataclass(frozen=True)
class LoadableFilter:
    """A compiled BPF program and what loading it needs, prepared in the parent so the child only calls in."""

    program: bytes
    syscall_number: int

    def load(self) -> None:
        """Install the filter in the calling process (the child, before exec). Raises OSError on failure."""
        load_filter(self.program, self.syscall_number)


@functools.lru_cache(maxsize=None)
def compile_filter(block_new_user_namespaces: bool) -> LoadableFilter | str:
    """The filter for this machine, or why there is none (no libseccomp, an architecture we do not know). A
    compiled program is kept in the judge's cache: importing pyseccomp runs `ldconfig -p` to find libseccomp,
    about 9 ms of every `judge run`. The key is this module, pyseccomp's and the options; a failure is not kept."""
    number = SECCOMP_SYSCALL.get(os.uname().machine)
    if number is None:
        return f"no seccomp filter on {os.uname().machine}"
    binding = importlib.util.find_spec("pyseccomp")
    if binding is None or binding.origin is None:
        return _compiled(block_new_user_namespaces, number)  # says why there is no filter
    key = content_key(file_stamp(__file__), file_stamp(binding.origin), os.uname().machine,
                      str(block_new_user_namespaces))
    record = cache_dir() / "seccomp" / f"{key}.json"
    cached = read_record(record)
    if isinstance(cached, str):
        try:
            return LoadableFilter(program=bytes.fromhex(cached), syscall_number=number)
        except ValueError:
            pass  # not a program this judge wrote: compile again
    compiled = _compiled(block_new_user_namespaces, number)
    if isinstance(compiled, LoadableFilter):
        try:
            write_record(record, compiled.program.hex())
        except OSError:
            pass  # an unwritable cache only costs the next judge one more compilation
    return compiled


def _compiled(block_new_user_namespaces: bool, number: int) -> LoadableFilter | str:
    """The filter compiled by libseccomp, or why it cannot be."""
    try:
        import pyseccomp as seccomp
    except (ImportError, OSError) as error:  # pyseccomp raises OSError when libseccomp.so is missing
        return f"no seccomp filter: {error} (Debian: apt-get install libseccomp2; pip install pyseccomp)"
    rules = seccomp.SyscallFilter(defaction=seccomp.ALLOW)
    for name in KEYRING_CALLS:
        rules.add_rule(seccomp.ERRNO(errno.EPERM), name)
    if block_new_user_namespaces:
        rules.add_rule(seccomp.ERRNO(errno.EPERM), "unshare",
                       seccomp.Arg(0, seccomp.MASKED_EQ, CLONE_NEWUSER, CLONE_NEWUSER))
        rules.add_rule(seccomp.ERRNO(errno.EPERM), "clone",
                       seccomp.Arg(0, seccomp.MASKED_EQ, CLONE_NEWUSER, CLONE_NEWUSER))
        rules.add_rule(seccomp.ERRNO(errno.ENOSYS), "clone3")
    try:
        with tempfile.TemporaryFile() as compiled:  # export_bpf writes to a file descriptor
            rules.export_bpf(compiled)
            compiled.seek(0)
            program = compiled.read()
    except (OSError, RuntimeError) as error:
        return f"no seccomp filter: libseccomp failed: {error}"
    return LoadableFilter(program=program, syscall_number=number)
