"""Toolchains: a language's tools found on this machine, resolved to absolute paths of real binaries, with what a
box must show of them.

Code lives here only where a language differs in a way data cannot say; the YAML holds the rest. Two such
differences: a Python runs submissions from a virtual environment the judge keeps with nothing installed (so
`site` runs, as on BOJ, without the start-up cost of what is installed), and a C or C++ compiler links
statically, as on BOJ, only where this machine can.
"""

from __future__ import annotations

import fcntl
import functools
import json
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from msgspec import Struct, field
from msgspec.structs import asdict

from judge.errors import ToolchainMissing
from judge.languages.catalog import DEFAULT_MAIN, LANGUAGES, MORE_SOURCES, Language, ToolSpec
from judge.languages.shims import launched_binary
from judge.runner.sandbox import MERGED_USR_LINKS, SYSTEM_MOUNTS, ToolchainView
from judge.tool_cache import cache_dir, read_record, tool_key, write_record

ELF_MAGIC = b"\x7fELF"
STATIC_FLAG = "-static"
# What a Python interpreter needs besides its binary and shared libraries: the standard library (sys.path without
# site) and, to hide them, the folders where packages get installed.
LAYOUT_PROBE = (
    "import json, site, sys, sysconfig; paths = sysconfig.get_paths(); "
    "print(json.dumps({'stdlib': sys.path, 'site': [paths['purelib'], paths['platlib'], *site.getsitepackages()]}))"
)
STATIC_PROBE = "int main(void) { return 0; }\n"


class Toolchain(Struct, frozen=True):
    """A language with its tools found on this machine.

    paths: each tool's real binary. venvs: for a Python tool, the interpreter of the judge's empty virtual
    environment. view: what a sandbox must show read-only outside /usr. static_linking: False where a compiler
    that links statically on BOJ cannot here, so `-static` is left out.
    """

    language: Language
    paths: dict[str, str]
    view: ToolchainView = field(default_factory=ToolchainView)
    venvs: dict[str, str] = field(default_factory=dict)
    static_linking: bool = True

    def command(
        self,
        template: tuple[str, ...],
        *,
        program: str,
        source: str,
        source_label: str,
        memory_mib: int,
        main: str = DEFAULT_MAIN,
        more_sources: tuple[str, ...] = (),
    ) -> list[str]:
        """`template` with its placeholders filled; `source_label` is the file name a student knows (for messages),
        `main` the class to run (main_class), `more_sources` the other files a `{more_sources}` word stands for."""
        values = {
            **self.paths,
            **{f"{name}_venv": path for name, path in self.venvs.items()},
            "program": program,
            "source": source,
            "source_label": source_label,
            "memory_mib": str(memory_mib),
            "main": main,
        }
        parts = [part for part in template if self.static_linking or part != STATIC_FLAG]
        return [word for part in parts for word in (more_sources if part == MORE_SOURCES else [part.format(**values)])]


def resolve_toolchain(language: Language) -> Toolchain:
    """Find every tool of a language as an absolute path to a real binary; ToolchainMissing names the package."""
    return _resolve_cached(language.key)


@functools.cache
def _resolve_cached(key: str) -> Toolchain:
    language = LANGUAGES[key]
    paths: dict[str, str] = {}
    venvs: dict[str, str] = {}
    shown: set[str] = set()
    hidden: set[str] = set()
    static_linking = True
    for name, tool in language.tools.items():
        found = next((shutil.which(candidate) for candidate in tool.names if shutil.which(candidate)), None)
        if found is None:
            raise ToolchainMissing(
                f"{language.display}: '{tool.names[0]}' not found on PATH; "
                f"install it (Debian: apt-get install {tool.package})"
            )
        paths[name] = _real_binary(found, tool)
        if tool.venv is not None:
            interpreter = _empty_venv(paths[name], language.display, tool.venv)
            venvs[name] = interpreter.python
            shown.update(interpreter.shown)
            hidden.update(interpreter.hidden)
        elif not _in_every_box(paths[name]):
            shown.add(str(Path(paths[name]).parent.parent))  # a toolchain's own prefix (a JDK under /opt)
        if tool.static is not None:
            static_linking = static_linking and _links_statically(paths[name], language.source_name)
    view = ToolchainView(
        shown=tuple(Path(path) for path in _outermost(shown)), hidden=tuple(Path(path) for path in sorted(hidden))
    )
    return Toolchain(language=language, paths=paths, view=view, venvs=venvs, static_linking=static_linking)


def _real_binary(found: str, tool: ToolSpec) -> str:
    """Follow symlinks, and ask a script shim (pyenv, asdf) for the binary it would start (once: shims.py)."""
    path = os.path.realpath(found)
    with open(path, "rb") as handle:
        is_binary = handle.read(4) == ELF_MAGIC
    if is_binary or not tool.resolve:
        return path
    return launched_binary(path, tool.resolve)


def _in_every_box(path: str) -> bool:
    """True for paths every box shows anyway (/usr and the few system files of sandbox.py)."""
    return any(path == root or path.startswith(root + "/") for root in (*SYSTEM_MOUNTS, *MERGED_USR_LINKS))


def _outermost(paths: set[str]) -> list[str]:
    """`paths` without those inside another one of them, sorted."""
    return [path for path in sorted(paths) if not any(path.startswith(other + "/") for other in paths)]


# --- Python: an empty virtual environment, made once per interpreter and kept in the judge's cache -------------


class _Interpreter(Struct, frozen=True):
    """A Python as submissions run it: `python` the interpreter of its venv, `shown` and `hidden` what a box
    needs of the venv and of the base interpreter (binary, shared libraries, standard library, not its packages)."""

    python: str
    shown: tuple[str, ...]
    hidden: tuple[str, ...]


def _empty_venv(python: str, display: str, package: str) -> _Interpreter:
    """The interpreter of this Python's venv, made with --without-pip so its site-packages stay empty and `site`
    reads no .pth file; a changed interpreter gets a new one (`tool_key`). Its record is written last, under a
    lock, so parallel judges never use a half-made venv."""
    folder = cache_dir() / "venvs"
    venv = folder / tool_key(python)
    record = folder / f"{venv.name}.json"
    interpreter = _read_record(record)
    if interpreter is not None:
        return interpreter
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with open(folder / f"{venv.name}.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            interpreter = _read_record(record)
            if interpreter is None:
                interpreter = _make_venv(python, venv, display, package)
                write_record(record, asdict(interpreter))
    except OSError as error:
        raise ToolchainMissing(
            f"{display}: cannot write the judge's cache {folder}: {error}; set XDG_CACHE_HOME to a writable folder"
        ) from None
    return interpreter


def _read_record(record: Path) -> _Interpreter | None:
    """The venv this record describes, or None if there is no record or its venv is gone."""
    fields = read_record(record)
    if not isinstance(fields, dict):
        return None
    try:
        interpreter = _Interpreter(fields["python"], tuple(fields["shown"]), tuple(fields["hidden"]))
    except (KeyError, TypeError):
        return None
    return interpreter if os.path.isfile(interpreter.python) else None


def _make_venv(python: str, venv: Path, display: str, package: str) -> _Interpreter:
    shutil.rmtree(venv, ignore_errors=True)
    try:
        made = subprocess.run(
            [python, "-I", "-m", "venv", "--without-pip", str(venv)], capture_output=True, text=True, timeout=120
        )
        probed = subprocess.run([python, "-I", "-S", "-c", LAYOUT_PROBE], capture_output=True, text=True, timeout=60)
    except subprocess.TimeoutExpired as error:
        raise ToolchainMissing(f"{display}: {python} did not answer in {error.timeout:.0f} s") from None
    except OSError as error:
        raise ToolchainMissing(f"{display}: cannot start {python}: {error.strerror}") from None
    if made.returncode != 0 or probed.returncode != 0:
        failed = made if made.returncode != 0 else probed
        reason = (failed.stderr.strip().splitlines() or [f"exit code {failed.returncode}"])[-1]
        raise ToolchainMissing(
            f"{display}: cannot make a virtual environment with {python}: {reason}; "
            f"install it (Debian: apt-get install {package})"
        )
    _readable_by_all(venv)
    layout = json.loads(probed.stdout)
    stdlib = [path for path in layout["stdlib"] if os.path.exists(path)]
    files = [python, *_shared_libraries(python), *stdlib]
    shown = _outermost({path for path in files if not _in_every_box(path)} | {str(venv)})
    hidden = sorted(
        {
            path
            for path in layout["site"]
            if os.path.isdir(path)
            and not _in_every_box(path)
            and any(path.startswith(folder + "/") for folder in shown)
        }
    )
    return _Interpreter(str(venv / "bin" / "python"), tuple(shown), tuple(hidden))


def _readable_by_all(folder: Path) -> None:
    """Whatever the umask, the box's unprivileged user must read the venv (symlinks, which lead into the
    interpreter's own files, are left alone)."""
    for root, _, files in os.walk(folder):
        os.chmod(root, 0o755)
        for name in files:
            path = os.path.join(root, name)
            if not os.path.islink(path):
                os.chmod(path, os.stat(path).st_mode | 0o444)


def _shared_libraries(binary: str) -> list[str]:
    """The shared libraries the dynamic loader finds for `binary` (a pyenv Python's libpython), by ldd."""
    ldd = shutil.which("ldd")
    if ldd is None:
        raise ToolchainMissing("ldd not found on PATH; install it (Debian: apt-get install libc-bin)")
    try:
        done = subprocess.run([ldd, binary], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError) as error:
        raise ToolchainMissing(f"cannot list the shared libraries of {binary} with ldd: {error}") from None
    if done.returncode != 0:
        return []  # a statically linked interpreter
    targets = (line.split("=>")[-1].split("(")[0].strip() for line in done.stdout.splitlines())
    return [target for target in targets if target.startswith("/")]


# --- C and C++: static linking, as on BOJ, where this machine can -----------------------------------------------


def _links_statically(compiler: str, source_name: str) -> bool:
    """Whether `compiler -static` links a trivial program here (it needs libc.a; libstdc++.a for C++). A yes is
    remembered in the cache (`tool_key`); a no is tried again by each judge, so installing the static libraries
    takes effect at once."""
    marker = cache_dir() / "static-link" / tool_key(compiler)
    if marker.is_file():
        return True
    with tempfile.TemporaryDirectory(prefix="judge-static-") as scratch:
        source = Path(scratch) / source_name
        source.write_text(STATIC_PROBE, encoding="utf-8")
        try:
            done = subprocess.run(
                [compiler, STATIC_FLAG, "-o", str(Path(scratch) / "probe"), str(source)],
                capture_output=True,
                timeout=120,
            )
        except (OSError, subprocess.TimeoutExpired):
            return False
    if done.returncode != 0:
        return False
    try:
        marker.parent.mkdir(parents=True, exist_ok=True)
        marker.touch()
    except OSError:
        pass  # an unwritable cache only costs the next judge one more probe
    return True


def tool_version(path: str) -> str:
    """First line of `<tool> --version` (javac and java print to stderr), for `judge doctor`."""
    try:
        done = subprocess.run([path, "--version"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError) as error:
        return f"unknown ({error})"
    lines = (done.stdout or done.stderr).strip().splitlines()
    return lines[0] if lines else "unknown"
