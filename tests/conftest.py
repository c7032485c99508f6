"""Shared fixtures: tiny problem folders written into tmp_path, the purpose-built programs, sandbox parameters."""

from __future__ import annotations

import errno
import os
import shutil
import signal
import subprocess
import sys
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import yaml

from judge.runner.sandbox import bwrap_problem

PROGRAMS = Path(__file__).parent / "sample_programs"
PACKAGES = Path(__file__).parent / "packages"
ROOT = Path(__file__).resolve().parent.parent
# The time limits' multiple for a machine that runs everything slower, as a VM under emulation does (the cgroup v2
# lane under QEMU's TCG sets 10). Only tests whose programs run forever or well inside their limit use it, so a larger
# limit changes when a program ends, not its verdict.
TEST_TIME_SCALE = float(os.environ.get("JUDGE_TEST_TIME_SCALE", "1"))


def program(name: str) -> Path:
    """A purpose-built program from tests/sample_programs/."""
    path = PROGRAMS / name
    assert path.is_file(), path
    return path


def judge_cli(*args: str | Path, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """`python -m judge ARGS` in a subprocess (from `cwd`), with the judge of this checkout importable."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    return subprocess.run([sys.executable, "-m", "judge", *map(str, args)], capture_output=True, text=True,
                          timeout=600, cwd=cwd, env=env)


def assert_usage_error(done: subprocess.CompletedProcess[str], *fragments: str) -> None:
    """Exit 2, exactly one line on stderr, no traceback."""
    assert done.returncode == 2, (done.returncode, done.stdout, done.stderr)
    assert "Traceback" not in done.stderr + done.stdout
    lines = done.stderr.splitlines()
    assert len(lines) == 1, done.stderr
    for fragment in fragments:
        assert fragment in lines[0], lines[0]


def write_problem(
    root: Path,
    tests: Mapping[str, tuple[str, str]] | None = None,
    **spec: Any,
) -> Path:
    """Write a problem folder at `root`: problem.yaml from `spec` (over small defaults) and tests/<name>.in/.ans.

    `tests` maps a test name to (input, answer); the default is one test "1" asking for 1 + 2.
    """
    root.mkdir(parents=True, exist_ok=True)
    document = {"id": "t", "title": "Test problem", "time_limit": 1, "memory_limit": 256, **spec}
    (root / "problem.yaml").write_text(yaml.safe_dump(document, sort_keys=False), encoding="utf-8")
    tests_dir = root / "tests"
    tests_dir.mkdir(exist_ok=True)
    for name, (given, answer) in (tests if tests is not None else {"1": ("1 2\n", "3\n")}).items():
        (tests_dir / f"{name}.in").write_text(given, encoding="utf-8")
        (tests_dir / f"{name}.ans").write_text(answer, encoding="utf-8")
    return root



@contextmanager
def mounted_tmpfs(folder: Path, size: str) -> Iterator[Path]:
    """A tmpfs of `size` mounted at `folder` (made here) for the block: a judge's TMPDIR that fills (root only)."""
    folder.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(folder)],
                          capture_output=True, text=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.strip()}")
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=True)


def ctrl_c_as_in_a_terminal() -> None:
    """`preexec_fn` of a judge started to be stopped with SIGINT. A shell's background job starts with SIGINT
    ignored, and Python keeps an ignored SIGINT ignored; the child must see Ctrl-C as in a terminal however the
    test suite itself was started (CI, nohup, `&`)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)

@pytest.fixture
def package_copy(tmp_path: Path) -> Callable[[str], Path]:
    """`package_copy(NAME)`: a copy of the package tests/packages/NAME in tmp_path, for a test to change."""

    def copy(name: str) -> Path:
        return Path(shutil.copytree(PACKAGES / name, tmp_path / name))

    return copy


@pytest.fixture
def make_problem(tmp_path: Path) -> Callable[..., Path]:
    """`make_problem(tests={...}, time_limit=..., ...)` -> a fresh problem folder under tmp_path."""
    counter = iter(range(1_000_000))

    def make(tests: Mapping[str, tuple[str, str]] | None = None, **spec: Any) -> Path:
        return write_problem(tmp_path / f"problem{next(counter)}", tests, **spec)

    return make


@pytest.fixture
def submission(tmp_path: Path) -> Callable[[str, str], Path]:
    """`submission(text, "main.py")` -> that source written to a file under tmp_path."""
    folder = tmp_path / "submissions"

    def write(text: str, name: str) -> Path:
        folder.mkdir(exist_ok=True)
        path = folder / name
        path.write_text(text, encoding="utf-8")
        return path

    return write


def _sandbox_param(name: str) -> Any:
    if name == "bwrap":
        reason = bwrap_problem()
        return pytest.param(name, marks=pytest.mark.skipif(reason is not None, reason=f"bwrap unusable: {reason}"))
    return pytest.param(name)


SANDBOXES = [_sandbox_param("none"), _sandbox_param("bwrap")]


@pytest.fixture(params=SANDBOXES)
def sandbox(request: pytest.FixtureRequest) -> str:
    """Each test using this runs once unconfined and once under bwrap (skipped with the reason if unusable)."""
    return request.param


def needs(tool: str) -> pytest.MarkDecorator:
    """Skip unless `tool` is on PATH."""
    return pytest.mark.skipif(shutil.which(tool) is None, reason=f"{tool} is not installed")


@pytest.fixture
def tmpfs(tmp_path: Path) -> Iterator[Path]:
    """An empty folder with a tmpfs of 96 KiB mounted on it, unmounted at the end: a disk a test fills for real
    (root only: skipped otherwise)."""
    if os.geteuid() != 0:
        pytest.skip("mounting a small tmpfs needs root")
    out = tmp_path / "full"
    out.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=96k,mode=0755", "tmpfs", str(out)],
                             capture_output=True, text=True)
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {mounted.stderr.strip()}")
    yield out
    subprocess.run(["umount", "-l", str(out)], check=True)


def resize_tmpfs(mount: Path, size: str) -> None:
    subprocess.run(["mount", "-o", f"remount,size={size}", str(mount)], check=True)


def fill_disk(folder: Path) -> Path:
    """Write a file into `folder` until its disk is full; the file, to free the space again."""
    filler = folder / "filler"
    with filler.open("wb", buffering=0) as file:
        try:
            while True:
                file.write(b"\0" * 4096)
        except OSError as error:
            assert error.errno == errno.ENOSPC
    return filler
