"""A submission's output files, kept open from test to test (runner/execute.py's `KeptOutputs`): the next run gets
them empty and as if new, and only after a run whose every process is known gone."""

from __future__ import annotations

import io
import os
import sys
from pathlib import Path

import pytest

from judge.runner import execute, run_files
from judge.runner.containment.choice import available_containments, choose_containment
from judge.runner.limits import Limits

LIMITS = Limits(time_seconds=5, wall_seconds=10, memory_mib=256, output_mib=1)

needs_cgroup = pytest.mark.skipif("cgroup" not in available_containments(), reason="no control group here")


def spec(folder: Path, code: str) -> execute.RunSpec:
    stdin = folder / "empty.in"
    stdin.touch()
    return execute.RunSpec(argv=[sys.executable, "-I", "-S", "-c", code], cwd=folder, stdin_path=stdin,
                           stdout_path=folder / "run.out", stderr_path=folder / "run.err",
                           env={"PATH": "/usr/bin:/bin"}, limit_address_space=False)


def run(folder: Path, code: str, containment: str, kept: execute.KeptOutputs) -> execute.RunStats:
    stats = execute.begin(spec(folder, code), LIMITS, choose_containment(containment), kept=kept).finish()
    assert (stats.exit_code, stats.tripped) == (0, None), stats
    return stats


@needs_cgroup
def test_the_next_run_gets_the_same_files_empty(tmp_path):
    with execute.KeptOutputs() as kept:
        run(tmp_path, "print('x' * 5000); import sys; print('e' * 3000, file=sys.stderr)", "cgroup", kept)
        first = os.stat(tmp_path / "run.out").st_ino
        stats = run(tmp_path, "print(2)", "cgroup", kept)
        assert (tmp_path / "run.out").read_bytes() == b"2\n"
        assert (tmp_path / "run.err").read_bytes() == b""
        assert (stats.stdout_bytes, stats.stderr_bytes) == (2, 0)
        assert os.stat(tmp_path / "run.out").st_ino == first  # kept, not made anew


@needs_cgroup
def test_what_a_run_sets_on_its_output_does_not_reach_the_next(tmp_path):
    """The next run shares the judge's open file: the flags and offset a run set on it are undone."""
    meddle = (
        "import fcntl, os\n"
        "fcntl.fcntl(1, fcntl.F_SETFL, os.O_APPEND | os.O_NONBLOCK)\n"
        "os.write(1, b'left behind ' * 100)\n"
        "os.lseek(1, 100000, 0)\n"
    )
    check = (
        "import fcntl, os\n"
        "assert fcntl.fcntl(1, fcntl.F_GETFL) & (os.O_APPEND | os.O_NONBLOCK) == 0\n"
        "assert os.lseek(1, 0, 1) == 0\n"
        "os.write(1, b'ok')\n"
    )
    with execute.KeptOutputs() as kept:
        run(tmp_path, meddle, "cgroup", kept)
        first = os.stat(tmp_path / "run.out").st_ino
        run(tmp_path, check, "cgroup", kept)
        assert os.stat(tmp_path / "run.out").st_ino == first
        assert (tmp_path / "run.out").read_bytes() == b"ok"


@pytest.mark.skipif("proc" not in available_containments(), reason="no /proc containment here")
def test_the_files_of_a_run_not_known_gone_are_not_kept(tmp_path):
    """Polling cannot tell that every process of a run is gone: one left could write into the next run's file."""
    with execute.KeptOutputs() as kept:
        run(tmp_path, "print(1)", "proc", kept)
        first = os.open(tmp_path / "run.out", os.O_RDONLY)  # holds the inode: a new file gets another number
        try:
            run(tmp_path, "print(2)", "proc", kept)
            assert os.fstat(first).st_ino != os.stat(tmp_path / "run.out").st_ino
            assert os.read(first, 100) == b"1\n"
        finally:
            os.close(first)


@needs_cgroup
def test_an_output_put_aside_is_not_written_again(tmp_path):
    """A run's output renamed away (judging/measuring.py keeps a run's output aside) keeps what it holds."""
    with execute.KeptOutputs() as kept:
        run(tmp_path, "print(1)", "cgroup", kept)
        (tmp_path / "run.out").rename(tmp_path / "run.out.1")
        run(tmp_path, "print(2)", "cgroup", kept)
        assert (tmp_path / "run.out.1").read_bytes() == b"1\n"
        assert (tmp_path / "run.out").read_bytes() == b"2\n"


@needs_cgroup
def test_a_kept_output_is_read_through_its_kept_file(tmp_path, monkeypatch):
    """Not through a descriptor of its own: closing one would make ext4 write out the file emptied before."""
    with execute.KeptOutputs() as kept:
        run(tmp_path, "print(1)", "cgroup", kept)
        run(tmp_path, "print(2)", "cgroup", kept)

        output = str(tmp_path / "run.out")
        real_open, real_io_open = os.open, io.open

        def os_open(path, *args, **kwargs):
            assert os.fspath(path) != output, f"{path} opened by name"
            return real_open(path, *args, **kwargs)

        def io_open(path, *args, **kwargs):
            assert os.fspath(path) != output, f"{path} opened by name"
            return real_io_open(path, *args, **kwargs)

        monkeypatch.setattr(os, "open", os_open)
        monkeypatch.setattr(io, "open", io_open)
        assert kept.read(tmp_path / "run.out") == b"2\n"


@needs_cgroup
def test_an_output_put_back_is_read_from_its_path(tmp_path):
    """judging/measuring.py puts the deciding run's output back in place: the file kept is then another."""
    with execute.KeptOutputs() as kept:
        run(tmp_path, "print(1)", "cgroup", kept)
        (tmp_path / "run.out").rename(tmp_path / "run.out.1")
        run(tmp_path, "print(2)", "cgroup", kept)
        (tmp_path / "run.out.1").replace(tmp_path / "run.out")
        assert kept.read(tmp_path / "run.out") == b"1\n"


def test_a_file_is_read_whole_whatever_its_size(tmp_path):
    """`read_whole` (answers, inputs for the checker, outputs read by name) reads to the end, not to the size it
    saw first (a file may grow meanwhile; /proc's report a size of 0): nothing, one byte, more than one read's
    worth. What it cannot read is an OSError naming the path, as `Path.read_bytes` raises."""
    for size in (0, 1, 3 * 65536 + 7):
        path = tmp_path / f"{size}.ans"
        data = os.urandom(size)
        path.write_bytes(data)
        assert run_files.read_whole(path) == data
    assert Path("/proc/self/status").stat().st_size == 0
    assert run_files.read_whole(Path("/proc/self/status")).startswith(b"Name:")
    with pytest.raises(FileNotFoundError, match="missing.ans"):
        run_files.read_whole(tmp_path / "missing.ans")
    with pytest.raises(IsADirectoryError, match=str(tmp_path)):
        run_files.read_whole(tmp_path)
