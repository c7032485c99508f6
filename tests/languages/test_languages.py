"""The language table: BOJ allowances, detection, and toolchains resolved to real binaries or named as missing."""

from __future__ import annotations

import os
import shutil
import subprocess
from importlib import resources
from pathlib import Path

import pytest

from judge.doctor import machine as doctor
from judge.errors import LanguageTableError, SubmissionError, ToolchainMissing
from judge.judging.limit_policy import effective_limits
from judge.languages import toolchains
from judge.languages.catalog import LANGUAGES, Language, languages_from_fields
from judge.languages.detection import detect_language
from judge.languages.schema import validate_table
from judge.languages.toolchains import resolve_toolchain
from judge.problems.model import ProblemSpec


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
                                           ("x.cpp", "cpp"), ("x.cc", "cpp"), ("X.CPP", "cpp"),
                                           ("a.py3", "python3"), ("run.sh", "bash"), ("run.bash", "bash")])
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
    toolchains._resolve_cached.cache_clear()
    yield
    toolchains._resolve_cached.cache_clear()


def test_python_resolves_to_an_absolute_real_binary(fresh_toolchains) -> None:
    path = resolve_toolchain(LANGUAGES["python3"]).paths["python"]
    assert os.path.isabs(path)
    assert os.path.realpath(path) == path
    with open(path, "rb") as handle:
        assert handle.read(4) == b"\x7fELF", f"{path} is not an ELF binary (a shim script?)"


def test_a_shim_script_is_asked_for_its_binary(tmp_path: Path, monkeypatch, fresh_toolchains) -> None:
    """A pyenv-style shim on PATH resolves to the interpreter it would start, never to the script."""
    real = resolve_toolchain(LANGUAGES["python3"]).paths["python"]
    toolchains._resolve_cached.cache_clear()
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


# --- Python: site from an empty venv, byte-compiled first ------------------------------------------------------


@pytest.mark.parametrize("key", ["python3", pytest.param("pypy3", marks=pytest.mark.skipif(
    shutil.which("pypy3") is None, reason="pypy3 is not installed"))])
def test_python_runs_with_site_from_the_judges_venv(key: str) -> None:
    toolchain = resolve_toolchain(LANGUAGES[key])
    argv = toolchain.command(toolchain.language.run, program="/p", source="/p/Main.py", source_label="a.py",
                             memory_mib=64)
    (venv_python,) = toolchain.venvs.values()
    assert argv == [venv_python, "-E", "-s", "-W", "ignore", "/p/Main.py"]
    assert Path(venv_python).parent.parent in toolchain.view.shown


@pytest.mark.parametrize(("text", "code", "said"), [
    (b"print(int(input()) * 2)\n", 0, ""),
    (b"n = int(input())\nprint n\n", 1, 'File "two.py", line 2'),
    (b"# \xb5\xce \xbc\xf6\n", 1, "Non-UTF-8 code starting with '\\xb5' in file two.py on line 1"),
    (b"# -*- coding: euc-kr -*-\n# \xb5\xce \xbc\xf6\nprint(1)\n", 0, ""),
    (b"print(1)\x00\n", 1, "null bytes"),
    (b"#!/usr/bin/env python3\n# vim: set fileencoding=latin-1 :\nprint('\xe9')\n", 0, ""),
    (b"print(1)\nprint(2)\n# coding: latin-1\n# \xe9\n", 1, "Non-UTF-8 code starting with '\\xe9' in file two.py on line 4"),
])
def test_python_byte_compiles_naming_the_students_file_and_writes_nothing(tmp_path: Path, text: bytes, code: int,
                                                                          said: str) -> None:
    toolchain = resolve_toolchain(LANGUAGES["python3"])
    (tmp_path / "Main.py").write_bytes(text)
    argv = toolchain.command(toolchain.language.compile, program=str(tmp_path), source=str(tmp_path / "Main.py"),
                             source_label="two.py", memory_mib=2048)
    done = subprocess.run(argv, capture_output=True, text=True, cwd=tmp_path, env={"PATH": "/usr/bin:/bin"})
    assert (done.returncode, done.stdout) == (code, ""), done
    assert said in done.stderr and str(tmp_path) not in done.stderr, done.stderr
    assert [path.name for path in tmp_path.iterdir()] == ["Main.py"]  # no __pycache__


# --- Compile lines as on BOJ -----------------------------------------------------------------------------------


@pytest.mark.parametrize(("key", "flags"), [
    ("c", ["-O2", "-Wall", "-lm", "-static", "-std=gnu11", "-DONLINE_JUDGE", "-DBOJ"]),
    ("cpp", ["-O2", "-Wall", "-lm", "-static", "-std=gnu++17", "-DONLINE_JUDGE", "-DBOJ"]),
])
def test_c_and_cpp_compile_with_bojs_flags_after_the_source(key: str, flags: list[str]) -> None:
    template = list(LANGUAGES[key].compile or ())
    # after `{source} {more_sources} -o main`, so -lm follows every source
    assert template[template.index("{source}"):template.index("{source}") + 2] == ["{source}", "{more_sources}"]
    assert template[template.index("{source}") + 4:] == flags


def test_java_compiles_and_runs_with_bojs_options() -> None:
    java = LANGUAGES["java"]
    assert {"-encoding", "UTF-8", "--release", "17"} <= set(java.compile or ())
    assert {"-Xss512m", "-Dfile.encoding=UTF-8", "-DONLINE_JUDGE=1", "-DBOJ"} <= set(java.run)


def fake_compiler(folder: Path, real: str) -> Path:
    """A compiler like one without static libraries: `-static` fails as ld does, anything else is `real`."""
    folder.mkdir()
    script = folder / "gcc"
    script.write_text(f'#!/bin/sh\nfor a in "$@"; do [ "$a" = -static ] && '
                      f'{{ echo "ld: cannot find -lc" >&2; exit 1; }}; done\nexec "{real}" "$@"\n')
    script.chmod(0o755)
    return script


@pytest.mark.skipif(shutil.which("gcc") is None, reason="gcc is not installed")
def test_without_static_libraries_c_links_dynamically_and_doctor_says_so(tmp_path: Path, monkeypatch,
                                                                         fresh_toolchains) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    real = resolve_toolchain(LANGUAGES["c"]).paths["cc"]
    toolchains._resolve_cached.cache_clear()
    fake_compiler(tmp_path / "bin", real)
    monkeypatch.setenv("PATH", f"{tmp_path / 'bin'}{os.pathsep}{os.environ['PATH']}")
    toolchain = resolve_toolchain(LANGUAGES["c"])
    assert toolchain.static_linking is False
    argv = toolchain.command(LANGUAGES["c"].compile, program=str(tmp_path), source=str(tmp_path / "main.c"),
                             source_label="a.c", memory_mib=2048)
    assert "-static" not in argv and "-lm" in argv
    finding = next(finding for finding in doctor.examine() if finding.topic == "C11")
    assert finding.status == "warn" and "apt-get install libc6-dev" in finding.detail, finding
    assert not list((tmp_path / "cache" / "judge").glob("static-link/gcc-*"))  # a no is asked again next time


@pytest.mark.skipif(shutil.which("gcc") is None, reason="gcc is not installed")
def test_where_static_linking_works_c_programs_are_static(tmp_path: Path, monkeypatch, fresh_toolchains) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    toolchain = resolve_toolchain(LANGUAGES["c"])
    if not toolchain.static_linking:
        pytest.skip("this machine cannot link statically (no libc.a)")
    assert len(list((tmp_path / "cache" / "judge" / "static-link").iterdir())) == 1  # a yes is remembered
    (tmp_path / "main.c").write_text('#include <math.h>\n#include <stdio.h>\n'
                                     'int main(void) { double x; scanf("%lf", &x); printf("%.0f\\n", sqrt(x)); }\n')
    argv = toolchain.command(LANGUAGES["c"].compile, program=str(tmp_path), source=str(tmp_path / "main.c"),
                             source_label="a.c", memory_mib=2048)
    subprocess.run(argv, check=True, capture_output=True)
    done = subprocess.run(["ldd", str(tmp_path / "main")], capture_output=True, text=True)
    assert done.returncode != 0 and "not a dynamic executable" in done.stdout + done.stderr, done


PACKAGED_TABLE = resources.files("judge.languages").joinpath("languages.yaml").read_text(encoding="utf-8")
TINY = ("lua:\n  display: Lua\n  extensions: ['.lua']\n  source_name: main.lua\n"
        "  tools: {lua: {names: [lua5.4], package: lua5.4}}\n  run: ['{lua}', '{source}']\n")


def parse_table(text: str, source: str) -> dict[str, Language]:
    """The languages of `text` as the catalog reads an uncached table: validated, then made records."""
    return languages_from_fields(validate_table(text, source))


def test_the_packaged_table_is_valid_and_matches_the_loaded_one():
    assert parse_table(PACKAGED_TABLE, "languages.yaml") == dict(LANGUAGES)


@pytest.mark.parametrize(("text", "message"), [
    (TINY + "  optimise: true\n", "languages.yaml: lua.optimise: unknown key; remove it or check its spelling"),
    (TINY.replace("'{lua}'", "'{lua_venv}'"), "languages.yaml: lua: run: {lua_venv} is no placeholder "
                                              "here; use one of {lua}, {main}, {memory_mib}, {more_sources}, {program}, "
                                              "{source}, {source_label}"),
    (TINY.replace("'{source}']", "'--with={more_sources}']"),
     "languages.yaml: lua: run: '--with={more_sources}': {more_sources} must be a word of its own"),
    (TINY.replace("'{lua}'", "'{lua'"), "languages.yaml: lua: run: '{lua' is not a command template"),
    (TINY + "  max_processes: many\n", "languages.yaml: lua.max_processes: input should be a valid integer, got 'many'"),
    (TINY + "  time: {factor: 0}\n", "languages.yaml: lua.time.factor: must be a positive number, got 0"),
    (TINY.replace("  source_name: main.lua\n", ""), "languages.yaml: lua.source_name: missing; this key is required"),
])
def test_a_malformed_table_is_one_line_naming_the_key(text, message):
    with pytest.raises(LanguageTableError) as raised:
        parse_table(text, "languages.yaml")
    assert str(raised.value).startswith(message), str(raised.value)
    assert "\n" not in str(raised.value)


def test_a_valid_entry_becomes_a_language():
    lua = parse_table(TINY, "languages.yaml")["lua"]
    assert (lua.key, lua.extensions, lua.run, lua.compile, lua.tools["lua"].names) == (
        "lua", (".lua",), ("{lua}", "{source}"), None, ("lua5.4",))
