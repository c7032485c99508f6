"""Python submissions run from the judge's empty venv: `site` runs (exit() exists) yet nothing installed is
importable, the box shows the standard library and nothing else of the interpreter's prefix or of any home
folder, and the venv is made once per interpreter, safely when judges race, and again when the interpreter changes.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from conftest import needs
from judge.errors import ToolchainMissing
from judge.languages import toolchains
from judge.languages.catalog import LANGUAGES
from judge.languages.toolchains import resolve_toolchain

REPO = Path(__file__).resolve().parent.parent
PACKAGES = ("yaml", "numpy", "pytest", "rich", "hypothesis", "psutil")

SPY = """
    import os, sys
    leaks = []
    for name in @IMPORTABLE@:
        try:
            __import__(name)
            leaks.append("imported " + name)
        except ImportError:
            pass
    if @IN_BOX@:
        leaks += ["sees " + path for path in @HIDDEN_PATHS@ if os.path.lexists(path)]
        # Of the base interpreter's prefix, only the binary, its shared library and the standard library.
        base = sys.base_prefix
        if not base.startswith("/usr"):
            leaks += ["sees " + os.path.join(base, name) for name in os.listdir(base) if name not in ("bin", "lib")]
            binary = os.path.basename(os.path.realpath(sys.executable))
            leaks += ["sees " + name for name in os.listdir(os.path.join(base, "bin")) if name != binary]
    print(exit.__class__.__name__ if not leaks else " ".join(leaks))
"""


@pytest.fixture
def fresh_toolchains(monkeypatch: pytest.MonkeyPatch, tmp_path: Path):
    """A private judge cache, and toolchains resolved afresh before and after."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    toolchains._resolve_cached.cache_clear()
    yield tmp_path / "cache" / "judge"
    toolchains._resolve_cached.cache_clear()


def base_python(key: str = "python3") -> str:
    """The real interpreter behind a Python language (the venv is made from it)."""
    return next(iter(resolve_toolchain(LANGUAGES[key]).paths.values()))


def installed_packages_folder(python: str) -> Path:
    done = subprocess.run([python, "-I", "-S", "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          capture_output=True, text=True, check=True)
    return Path(done.stdout.strip())


def importable_in_base(python: str) -> list[str]:
    """The packages of PACKAGES this interpreter imports when started normally (with its site-packages)."""
    return [name for name in PACKAGES
            if subprocess.run([python, "-I", "-c", f"import {name}"], capture_output=True).returncode == 0]


def hidden_host_paths(key: str) -> list[str]:
    """Host paths a submission must not see: what is installed for the base interpreter, the judge's cache
    records, the judge's own files, and the files of the home folder (but the folders leading to the toolchain)."""
    site = installed_packages_folder(base_python(key))
    paths = [site / name for name in sorted(os.listdir(site))[:20]] if site.is_dir() else []
    cache = toolchains.cache_dir() / "venvs"
    paths += [*cache.glob("*.json"), *cache.glob("*.lock"), REPO / "judge", REPO / "problems",
              Path(sys.prefix) / "pyvenv.cfg"]
    shown = resolve_toolchain(LANGUAGES[key]).view.shown
    paths += [path for path in sorted(Path.home().iterdir())[:40]
              if not any(path == folder or path in folder.parents for folder in shown)]
    return [str(path) for path in paths if os.path.lexists(path)]


@pytest.mark.parametrize("key", ["python3", pytest.param("pypy3", marks=needs("pypy3"))])
def test_a_submission_has_site_but_nothing_installed(make_problem, tmp_path: Path, sandbox: str, key: str) -> None:
    """The spy prints `Quitter` (the class of exit(), which site defines) when it finds no leak, else the leaks."""
    source = tmp_path / "spy.py"
    source.write_text(textwrap.dedent(SPY).replace("@IMPORTABLE@", repr(importable_in_base(base_python(key))))
                      .replace("@IN_BOX@", repr(sandbox == "bwrap"))
                      .replace("@HIDDEN_PATHS@", repr(hidden_host_paths(key))), encoding="utf-8")
    problem = make_problem({"sample1": ("", "Quitter\n")})
    done = subprocess.run([sys.executable, "-m", "judge", "run", str(problem), str(source), "--lang", key,
                           "--sandbox", sandbox, "--json"], capture_output=True, text=True, timeout=120)
    assert done.returncode in (0, 1), done.stderr
    report = json.loads(done.stdout)
    assert report["verdict"] == "AC", (report["cases"], report["compile_message"])


def test_the_venv_is_made_once_for_judges_starting_together(fresh_toolchains: Path) -> None:
    script = ("from judge.languages.catalog import LANGUAGES; "
              "from judge.languages.toolchains import resolve_toolchain; "
              "print(resolve_toolchain(LANGUAGES['python3']).venvs['python'])")
    starts = [subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True) for _ in range(4)]
    answers = [process.communicate(timeout=120) for process in starts]
    assert all(process.returncode == 0 for process in starts), answers
    assert len({out.strip() for out, _ in answers}) == 1, answers
    python = answers[0][0].strip()
    venvs = [path for path in (fresh_toolchains / "venvs").iterdir() if path.is_dir()]
    assert venvs == [Path(python).parent.parent]
    done = subprocess.run([python, "-I", "-W", "ignore", "-c",
                           "import sys, sysconfig; print(sys.prefix != sys.base_prefix); "
                           "print(sorted(__import__('os').listdir(sysconfig.get_paths()['purelib']))); exit(3)"],
                          capture_output=True, text=True)
    assert (done.returncode, done.stdout.split("\n")[:2]) == (3, ["True", "[]"]), done


def test_a_changed_interpreter_gets_a_new_venv(fresh_toolchains: Path, tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """Keyed by the interpreter's path, size and mtime: upgrading it in place must not reuse the old venv."""
    folder = tmp_path / "bin"
    folder.mkdir()
    copy = folder / "python3"
    shutil.copy2(base_python(), copy)
    monkeypatch.setenv("PATH", f"{folder}{os.pathsep}{os.environ['PATH']}")
    first = resolve_toolchain(LANGUAGES["python3"]).venvs["python"]
    os.utime(copy, (1_000_000_000, 1_000_000_000))
    toolchains._resolve_cached.cache_clear()
    second = resolve_toolchain(LANGUAGES["python3"]).venvs["python"]
    assert first != second
    for python in (first, second):
        done = subprocess.run([python, "-I", "-c", "import sys; print(sys.prefix)"], capture_output=True, text=True)
        assert done.stdout.strip() == str(Path(python).parent.parent), done


def test_a_python_without_venv_is_one_line_naming_the_package(fresh_toolchains: Path, tmp_path: Path,
                                                              make_problem) -> None:
    folder = tmp_path / "bin"
    folder.mkdir()
    fake = folder / "python3"
    fake.write_text('#!/bin/sh\ncase "$*" in *sys.executable*) echo "$0";;\n'
                    '*) echo "No module named venv" >&2; exit 1;; esac\n')
    fake.chmod(0o755)
    source = tmp_path / "sum.py"
    source.write_text("print(sum(map(int, input().split())))\n")
    env = {**os.environ, "PATH": f"{folder}{os.pathsep}{os.environ['PATH']}"}
    done = subprocess.run([sys.executable, "-m", "judge", "run", str(make_problem()), str(source)],
                          capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 2, done
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr, done.stderr
    assert "No module named venv" in done.stderr and "apt-get install python3-venv" in done.stderr, done.stderr


def test_an_unwritable_cache_is_one_line(fresh_toolchains: Path, tmp_path: Path,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))
    with pytest.raises(ToolchainMissing, match="set XDG_CACHE_HOME to a writable folder") as raised:
        resolve_toolchain(LANGUAGES["python3"])
    assert "\n" not in str(raised.value)


def test_the_box_shows_the_standard_library_not_the_prefix() -> None:
    toolchain = resolve_toolchain(LANGUAGES["python3"])
    python = toolchain.paths["python"]
    shown = set(toolchain.view.shown)
    assert Path(toolchain.venvs["python"]).parent.parent in shown
    assert Path.home() not in shown
    for path in shown:
        assert not {"site-packages", "dist-packages"} & set(path.parts), path
    if not python.startswith("/usr/"):
        assert Path(python).parent.parent not in shown  # the prefix: only parts of it
        site = installed_packages_folder(python)
        if site.is_dir() and any(folder in site.parents for folder in shown):
            assert site in toolchain.view.hidden
