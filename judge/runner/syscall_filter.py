"""A seccomp filter loaded into every run before it starts: the few system calls a submission must never make.

- The kernel keyrings (`add_key`, `keyctl`, `request_key`): a process keeps its parent's session keyring, and
  the keyrings of a uid outlive its processes, so one run could leave a key for the next (another student's) to
  read. Docker's default profile refuses them for the same reason.
- With `block_new_user_namespaces`, creating a user namespace (`unshare` or `clone` with CLONE_NEWUSER, and
  `clone3`, whose flags a filter cannot read; glibc falls back to `clone` on ENOSYS): inside one, a submission
  would hold every capability again. The root box asks for this; bubblewrap's own user namespace (the box of a
  judge that is not root) refuses nested ones itself, and needs CLONE_NEWUSER to start.
- With `block_network` (every box), any socket but a Unix-domain one and a read-only NETLINK_ROUTE one (`socket`
  with another family or protocol: IP, IPv6, packet, vsock, other netlink; EACCES) and io_uring (ENOSYS), which
  could make one unseen. A box has no network
  anyway (a network namespace of its own with only a loopback); without IP sockets nothing a test does leaves a
  trace in it either (the loopback's counters, `Udp OutDatagrams`, a socket in TIME_WAIT), so a warm box's tests
  share it instead of paying for a new one each (about 0.9 ms per test here, mostly the kernel's tear-down of
  the old one). vsock is not even namespaced: it would reach the host's services.
- The ids Linux (6.8 on) hands out from counters that never go back, which a warm box would give away (always):
  a mount's unique id (`statx` asking STATX_MNT_ID_UNIQUE, `listmount`, `statmount`, and `name_to_handle_at`,
  whose handles also carry a namespace's id) and a namespace's id (the nsfs ioctls NS_GET_MNTNS_ID,
  NS_MNT_GET_INFO/NEXT/PREV, NS_GET_ID, and any later one), and a pidfd of PID 1 (`pidfd_open(1)`: a pidfd's inode
  number, Linux 6.9 on, counts every process the machine makes). A warm box mounts its writable folders and makes
  its IPC namespace anew for every test, and its PID 1 (the launcher) stays, so such an id less the box's root
  mount's (its mount namespace's, its PID 1's) grows by the same step each test: the program would know which
  test it is on (tests/runner/warm_box/count_ids.py). Each call fails as on a kernel without it: ENOSYS (glibc's
  `statx` and Rust's then fall back to `fstatat`), EOPNOTSUPP for file handles, ENOTTY for the ioctls; PID 1's
  pidfd EPERM (a program's own, its children's, stay).
- `ptrace` and the calls that read or write another process's memory by its rules (`process_vm_readv`,
  `process_vm_writev`), as on BOJ. In the box of a judge that is not root, PID 1 is bwrap itself, with the program's
  uid: a program attached to it and stopped it, and the test ran to the wall-clock backstop (TLE after 11 s).

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
from typing import Any

from msgspec import Struct

from judge.runner.launcher.own_limits import PreparedFilter
from judge.tool_cache import cache_dir, content_key, file_stamp, read_record, write_record

CLONE_NEWUSER = 0x10000000
KEYRING_CALLS = ("add_key", "keyctl", "request_key")
PROCESS_ACCESS_CALLS = ("ptrace", "process_vm_readv", "process_vm_writev")
AF_UNIX, AF_NETLINK, NETLINK_ROUTE = 1, 16, 0  # Linux's; `socket` is not imported for three numbers
ADDRESS_FAMILIES = 64  # more than Linux has (AF_MAX is 46)
IO_URING_CALLS = ("io_uring_setup", "io_uring_enter", "io_uring_register")
"""io_uring makes sockets (IORING_OP_SOCKET) and much else without the system calls a filter sees."""
STATX_MNT_ID_UNIQUE = 0x4000
NSFS_IOCTL_TYPE = 0xB7
NSFS_ID_IOCTLS = (5, *range(10, 32))
"""The nsfs ioctl numbers that give an id (5: NS_GET_MNTNS_ID; 10-13: NS_MNT_GET_INFO, NEXT, PREV, NS_GET_ID)
and room for later ones; 1-4 give descriptors and types, 6-9 translate PIDs."""
MOUNT_QUERY_CALLS = {"statmount": 457, "listmount": 458}
"""Numbered, not named: the same number on every architecture (the table shared from 424 on), and libseccomp 2.5
does not know their names."""
# The seccomp(2) system call's number on the architectures the judge runs on.
SECCOMP_SYSCALL = {"x86_64": 317, "aarch64": 277}


class LoadableFilter(Struct, frozen=True):
    """A compiled BPF program and what loading it needs, prepared in the parent so the child only calls in."""

    program: bytes
    syscall_number: int

    def prepared(self) -> PreparedFilter:
        """The filter ready to install, made in the parent, so the child only makes the system calls."""
        return PreparedFilter(self.program, self.syscall_number)


@functools.cache
def compile_filter(block_new_user_namespaces: bool, block_network: bool) -> LoadableFilter | str:
    """The filter for this machine, or why there is none (no libseccomp, an architecture we do not know). A
    compiled program is kept in the judge's cache: importing pyseccomp runs `ldconfig -p` to find libseccomp,
    about 9 ms of every `judge run`. The key is this module, pyseccomp's and the options; a failure is not kept."""
    number = SECCOMP_SYSCALL.get(os.uname().machine)
    if number is None:
        return f"no seccomp filter on {os.uname().machine}"
    binding = importlib.util.find_spec("pyseccomp")
    if binding is None or binding.origin is None:
        return _compiled(block_new_user_namespaces, block_network, number)  # says why there is no filter
    key = content_key(
        file_stamp(__file__),
        file_stamp(binding.origin),
        os.uname().machine,
        str(block_new_user_namespaces),
        str(block_network),
    )
    record = cache_dir() / "seccomp" / f"{key}.json"
    cached = read_record(record)
    if isinstance(cached, str):
        try:
            return LoadableFilter(program=bytes.fromhex(cached), syscall_number=number)
        except ValueError:
            pass  # not a program this judge wrote: compile again
    compiled = _compiled(block_new_user_namespaces, block_network, number)
    if isinstance(compiled, LoadableFilter):
        try:
            write_record(record, compiled.program.hex())
        except OSError:
            pass  # an unwritable cache only costs the next judge one more compilation
    return compiled


def _compiled(block_new_user_namespaces: bool, block_network: bool, number: int) -> LoadableFilter | str:
    """The filter compiled by libseccomp, or why it cannot be."""
    try:
        import pyseccomp as seccomp  # noqa: PLC0415 -- compiled once per machine, then read from the cache
    except (ImportError, OSError) as error:  # pyseccomp raises OSError when libseccomp.so is missing
        return f"no seccomp filter: {error} (Debian: apt-get install libseccomp2; pip install pyseccomp)"
    rules = seccomp.SyscallFilter(defaction=seccomp.ALLOW)
    for name in KEYRING_CALLS + PROCESS_ACCESS_CALLS:
        rules.add_rule(seccomp.ERRNO(errno.EPERM), name)
    if block_new_user_namespaces:
        rules.add_rule(
            seccomp.ERRNO(errno.EPERM), "unshare", seccomp.Arg(0, seccomp.MASKED_EQ, CLONE_NEWUSER, CLONE_NEWUSER)
        )
        rules.add_rule(
            seccomp.ERRNO(errno.EPERM), "clone", seccomp.Arg(0, seccomp.MASKED_EQ, CLONE_NEWUSER, CLONE_NEWUSER)
        )
        rules.add_rule(seccomp.ERRNO(errno.ENOSYS), "clone3")
    _refuse_ids_that_count(seccomp, rules)
    if block_network:
        _refuse_sockets_but_unix_and_route(seccomp, rules)
        for name in IO_URING_CALLS:
            rules.add_rule(seccomp.ERRNO(errno.ENOSYS), name)
    try:
        with tempfile.TemporaryFile() as compiled:  # export_bpf writes to a file descriptor
            rules.export_bpf(compiled)
            compiled.seek(0)
            program = compiled.read()
    except (OSError, RuntimeError) as error:
        return f"no seccomp filter: libseccomp failed: {error}"
    return LoadableFilter(program=program, syscall_number=number)


def _refuse_ids_that_count(seccomp: Any, rules: Any) -> None:
    """The unique mount ids and the namespace ids (see the module's docstring), each refused as a kernel without it
    would. An ioctl's request is matched on its type and number only (the low 16 bits), whatever its size bits."""
    rules.add_rule(
        seccomp.ERRNO(errno.ENOSYS),
        "statx",
        seccomp.Arg(3, seccomp.MASKED_EQ, STATX_MNT_ID_UNIQUE, STATX_MNT_ID_UNIQUE),
    )
    for number in MOUNT_QUERY_CALLS.values():
        rules.add_rule(seccomp.ERRNO(errno.ENOSYS), number)
    rules.add_rule(seccomp.ERRNO(errno.EOPNOTSUPP), "name_to_handle_at")
    rules.add_rule(seccomp.ERRNO(errno.EPERM), "pidfd_open", seccomp.Arg(0, seccomp.MASKED_EQ, 0xFFFFFFFF, 1))
    for number in NSFS_ID_IOCTLS:
        rules.add_rule(
            seccomp.ERRNO(errno.ENOTTY),
            "ioctl",
            seccomp.Arg(1, seccomp.MASKED_EQ, 0xFFFF, NSFS_IOCTL_TYPE << 8 | number),
        )


def _refuse_sockets_but_unix_and_route(seccomp: Any, rules: Any) -> None:
    """EACCES for a socket of any family but AF_UNIX and AF_NETLINK's NETLINK_ROUTE (read-only without
    CAP_NET_ADMIN; bwrap, whose own start the filter also covers outside a warm box, brings the box's loopback up
    through it). A libseccomp rule compares an argument once, so the families are refused one by one."""
    for family in range(ADDRESS_FAMILIES):
        if family not in (AF_UNIX, AF_NETLINK):
            rules.add_rule(seccomp.ERRNO(errno.EACCES), "socket", seccomp.Arg(0, seccomp.EQ, family))
    rules.add_rule(seccomp.ERRNO(errno.EACCES), "socket", seccomp.Arg(0, seccomp.GE, ADDRESS_FAMILIES))
    rules.add_rule(
        seccomp.ERRNO(errno.EACCES),
        "socket",
        seccomp.Arg(0, seccomp.EQ, AF_NETLINK),
        seccomp.Arg(2, seccomp.NE, NETLINK_ROUTE),
    )
