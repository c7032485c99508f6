"""The language table: BOJ allowances, detection, and toolchains resolved to real binaries or named as missing."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from judge import languages
from judge.errors import SubmissionError, ToolchainMissing
from judge.languages import LANGUAGES, detect_language, effective_limits, resolve_toolchain
from judge.problem import ProblemSpec


def spec(time_limit: float = 1, memory_limit: int = 256, **extra) -> ProblemSpec:
    return ProblemSpec(id="t", title="T", time_limit=time_limit, memory_limit=memory_limit, **extra)


ALLOWANCES = [
    # (language, time limit, memory limit, CPU seconds, MiB)
    ("python3", 1, 256, 5, 544),
    ("python3", 2, 128, 8, 288),
    ("pypy3", 1, 256, 5, 640),
    ("java", 1, 256, 3, 528),
    ("java", 0.5, 128, 2, 272),
    ("cpp", 1, 256, 1, 256),
    ("c", 0.25, 64, 0.25, 64),
]


@pytest.mark.parametrize(("key", "time_limit", "memory_limit", "cpu", "mib"), ALLOWANCES)
def test_boj_allowances(key: str, time_limit: float, memory_limit: int, cpu: float, mib: int) -> None:
    limits = effective_limits(spec(time_limit, memory_limit), LANGUAGES[key])
    assert (limits.time_seconds, limits.memory_mib) == (cpu, mib)
    assert limits.wall_seconds > limits.time_seconds
    assert limits.max_processes == LANGUAGES[key].max_processes


@pytest.mark.parametrize("key", sorted(LANGUAGES))
def test_no_allowance_when_the_problem_disables_it(key: str) -> None:
    limits = effective_limits(spec(1, 256, language_allowance=False), LANGUAGES[key])
    assert (limits.time_seconds, limits.memory_mib) == (1, 256)


def test_output_limit_passes_through() -> None:
    assert effective_limits(spec(output_limit=7), LANGUAGES["python3"]).output_mib == 7


@pytest.mark.parametrize(("name", "key"), [("a.py", "python3"), ("Main.java", "java"), ("x.c", "c"),
                                           ("x.cpp", "cpp"), ("x.cc", "cpp"), ("X.CPP", "cpp")])
def test_detection_by_extension(name: str, key: str) -> None:
    assert detect_language(Path(name)).key == key


def test_lang_overrides_the_extension() -> None:
    assert detect_language(Path("a.py"), "pypy3").key == "pypy3"


def test_unknown_lang_is_a_submission_error() -> None:
    with pytest.raises(SubmissionError, match="--lang ruby: unknown language"):
        detect_language(Path("a.py"), "ruby")


def test_unknown_extension_is_a_submission_error() -> None:
    with pytest.raises(SubmissionError, match=r"a\.rb: unknown language for extension '\.rb'"):
        detect_language(Path("a.rb"))


@pytest.fixture
def fresh_toolchains():
    """Toolchains are resolved once per process; start and end each test with an empty cache."""
    languages._resolve_cached.cache_clear()
    yield
    languages._resolve_cached.cache_clear()


def test_python_resolves_to_an_absolute_real_binary(fresh_toolchains) -> None:
    path = resolve_toolchain(LANGUAGES["python3"]).paths["python"]
    assert os.path.isabs(path)
    assert os.path.realpath(path) == path
    with open(path, "rb") as handle:
        assert handle.read(4) == b"\x7fELF", f"{path} is not an ELF binary (a shim script?)"


def test_a_shim_script_is_asked_for_its_binary(tmp_path: Path, monkeypatch, fresh_toolchains) -> None:
    """A pyenv-style shim on PATH resolves to the interpreter it would start, never to the script."""
    real = resolve_toolchain(LANGUAGES["python3"]).paths["python"]
    languages._resolve_cached.cache_clear()
    shim = tmp_path / "python3"
    shim.write_text(f'#!/bin/sh\nexec "{real}" "$@"\n')
    shim.chmod(0o755)
    monkeypatch.setenv("PATH", f"{tmp_path}{os.pathsep}{os.environ['PATH']}")
    assert resolve_toolchain(LANGUAGES["python3"]).paths["python"] == real


@pytest.mark.parametrize(("key", "package"), [("python3", "python3"), ("pypy3", "pypy3"),
                                              ("java", "openjdk-17-jdk-headless"), ("cpp", "g++"), ("c", "gcc")])
def test_missing_toolchain_names_the_debian_package(monkeypatch, fresh_toolchains, key: str, package: str) -> None:
    monkeypatch.setattr(shutil, "which", lambda *args, **kwargs: None)
    with pytest.raises(ToolchainMissing) as raised:
        resolve_toolchain(LANGUAGES[key])
    assert f"apt-get install {package}" in str(raised.value)
    assert "\n" not in str(raised.value)


def test_missing_toolchain_with_an_empty_path(monkeypatch, fresh_toolchains) -> None:
    monkeypatch.setenv("PATH", "")
    with pytest.raises(ToolchainMissing, match="g\\+\\+"):
        resolve_toolchain(LANGUAGES["cpp"])


def test_java_gets_its_heap_from_the_memory_limit(fresh_toolchains) -> None:
    if shutil.which("java") is None:
        pytest.skip("java is not installed")
    toolchain = resolve_toolchain(LANGUAGES["java"])
    argv = toolchain.command(toolchain.language.run, program="/program", source="/program/Main.java",
                             source_label="Main.java", memory_mib=528)
    assert "-Xmx528m" in argv
    assert argv[-1] == "Main"
    assert LANGUAGES["java"].limit_address_space is False
