"""A pyenv shim is asked once which binary it starts, and asked again when anything its answer
depends on changes: the script, the binary it named, the working folder, PATH, the PYENV_/ASDF_ variables, or
`judge doctor` forgetting every answer."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from judge.languages import shims, toolchains
from judge.languages.catalog import LANGUAGES
from judge.languages.toolchains import resolve_toolchain

QUESTION = ("-c", "import sys; print(sys.executable)")


@pytest.fixture
def private_cache(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    return tmp_path / "cache" / "judge" / "launchers"


def shim(folder: Path, target: Path, log: Path) -> Path:
    """A launcher that notes each time it is asked, and answers `target`."""
    folder.mkdir(exist_ok=True)
    script = folder / "python3"
    script.write_text(f'#!/bin/sh\necho asked >> "{log}"\necho "{target}"\n')
    script.chmod(0o755)
    return script


def asked(log: Path) -> int:
    return len(log.read_text().splitlines()) if log.exists() else 0


def test_asked_once_then_read_from_the_cache(tmp_path: Path, private_cache: Path) -> None:
    target, log = tmp_path / "python3.11", tmp_path / "log"
    target.write_bytes(b"\x7fELF binary")
    script = shim(tmp_path / "shims", target, log)
    assert shims.launched_binary(str(script), QUESTION) == str(target)
    assert shims.launched_binary(str(script), QUESTION) == str(target)
    assert asked(log) == 1
    assert len(list(private_cache.iterdir())) == 1


def test_a_changed_launcher_is_asked_again(tmp_path: Path, private_cache: Path) -> None:
    first, second, log = tmp_path / "python3.11", tmp_path / "python3.12", tmp_path / "log"
    first.write_bytes(b"\x7fELF one")
    second.write_bytes(b"\x7fELF two")
    script = shim(tmp_path / "shims", first, log)
    assert shims.launched_binary(str(script), QUESTION) == str(first)
    shim(tmp_path / "shims", second, log)  # a new pyenv rewrote its shims: other bytes, another mtime
    os.utime(script, ns=(1_000_000_000, 1_000_000_000))
    assert shims.launched_binary(str(script), QUESTION) == str(second)
    assert asked(log) == 2


def test_a_changed_or_removed_binary_is_asked_again(tmp_path: Path, private_cache: Path) -> None:
    target, log = tmp_path / "python3.11", tmp_path / "log"
    target.write_bytes(b"\x7fELF old")
    script = shim(tmp_path / "shims", target, log)
    shims.launched_binary(str(script), QUESTION)
    target.write_bytes(b"\x7fELF upgraded in place")
    shims.launched_binary(str(script), QUESTION)
    assert asked(log) == 2
    target.unlink()
    shims.launched_binary(str(script), QUESTION)
    assert asked(log) == 3


def test_what_steers_a_shim_is_part_of_the_key(tmp_path: Path, private_cache: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    target, log = tmp_path / "python3.11", tmp_path / "log"
    target.write_bytes(b"\x7fELF")
    script = shim(tmp_path / "shims", target, log)
    shims.launched_binary(str(script), QUESTION)
    monkeypatch.setenv("PYENV_VERSION", "3.12.1")
    shims.launched_binary(str(script), QUESTION)
    (tmp_path / "project").mkdir()
    monkeypatch.chdir(tmp_path / "project")  # where a .python-version could pick another Python
    shims.launched_binary(str(script), QUESTION)
    assert asked(log) == 3
    shims.forget_launchers()
    shims.launched_binary(str(script), QUESTION)
    assert asked(log) == 4


def test_an_unwritable_cache_still_answers(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "cache").write_text("a file where the cache folder would be")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    target, log = tmp_path / "python3.11", tmp_path / "log"
    target.write_bytes(b"\x7fELF")
    script = shim(tmp_path / "shims", target, log)
    assert shims.launched_binary(str(script), QUESTION) == str(target)
    assert shims.launched_binary(str(script), QUESTION) == str(target)
    assert asked(log) == 2


def test_a_pyenv_style_shim_resolves_once_across_judges(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Through resolve_toolchain, as each new `judge` process resolves it (its in-process memo cleared)."""
    toolchains._resolve_cached.cache_clear()
    real = resolve_toolchain(LANGUAGES["python3"]).paths["python"]
    log = tmp_path / "log"
    script = tmp_path / "shims" / "python3"
    script.parent.mkdir()
    script.write_text(f'#!/bin/sh\necho asked >> "{log}"\nexec "{real}" "$@"\n')
    script.chmod(0o755)
    monkeypatch.setenv("PATH", f"{script.parent}{os.pathsep}{os.environ['PATH']}")
    try:
        for _ in range(3):
            toolchains._resolve_cached.cache_clear()
            assert resolve_toolchain(LANGUAGES["python3"]).paths["python"] == real
    finally:
        toolchains._resolve_cached.cache_clear()
    assert asked(log) == 1


def test_a_launcher_the_machine_cannot_start_is_the_judges_failure(tmp_path: Path, private_cache: Path) -> None:
    """Out of descriptors (EMFILE) when starting a shim is the judge's machine failing (JE, exit 3), not a missing
    toolchain (exit 2, "install ..."): only a shim that cannot be run or fails says the toolchain is missing."""
    import errno
    import resource

    from judge.errors import JudgeFailure, ToolchainMissing

    script = shim(tmp_path / "bin", Path("/usr/bin/python3"), tmp_path / "log")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    hoard: list[int] = []
    resource.setrlimit(resource.RLIMIT_NOFILE, (64, hard))
    try:
        while True:  # every descriptor taken but one: the question's pipes cannot be made
            try:
                hoard.append(os.open("/dev/null", os.O_RDONLY))
            except OSError as error:
                assert error.errno == errno.EMFILE
                break
        os.close(hoard.pop())
        with pytest.raises(JudgeFailure, match="cannot start this launcher"):
            shims.launched_binary(str(script), QUESTION)
    finally:
        for descriptor in hoard:
            os.close(descriptor)
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    script.chmod(0o644)
    with pytest.raises(ToolchainMissing):
        shims.launched_binary(str(script), QUESTION)
