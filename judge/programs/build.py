"""Building a problem's own program in any language judge runs (an output validator, a testlib checker, an input
validator): its main source found, compiled with the files beside it, and kept in the judge's cache so that it is
compiled once per machine. A folder with `build` / `run` scripts is built and started by them instead."""

from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path

from judge.errors import JudgeFailure, SpecError, SubmissionError
from judge.languages.catalog import SCRIPTS
from judge.languages.detection import detect_language
from judge.languages.toolchains import Toolchain, resolve_toolchain
from judge.programs.program import Program
from judge.runner.containment.protocol import Containment
from judge.runner.sandbox import Sandbox
from judge.tool_cache import cache_dir, content_key


def build_program(
    path: Path, label: str, sandbox: Sandbox, containment: Containment, scratch: Path, folder: Path
) -> Program:
    """The problem's program at `path` (a file, or a folder holding one source) compiled in `folder` with the
    files beside it, under the command's `sandbox` and `containment`; JudgeFailure if it does not compile (the
    problem is broken, not a submission).

    Compiled once per machine: the built folder is kept in the judge's cache under a hash of the sources, the
    language and the compiler, and every later submission (verify judges many) starts from a copy of it."""
    source = main_source(path)
    toolchain = resolve_toolchain(detect_language(source))
    # A sibling that is a link was checked at loading to stay inside the problem folder (judge.problems.files):
    # its target is copied, as a header kept once in a package's include folder must be.
    siblings = sorted(sibling for sibling in source.parent.iterdir() if sibling != source and sibling.is_file())
    cached = cache_dir() / "programs" / _build_key(toolchain, source, siblings)
    folder.mkdir()
    for sibling in siblings:
        shutil.copyfile(sibling, folder / sibling.name)
    program = Program.write(
        toolchain,
        sandbox,
        scratch,
        folder,
        source.read_bytes(),
        source.name,
        boj_main=False,
    )
    if cached.is_dir():
        shutil.copytree(cached, folder, dirs_exist_ok=True)
        return program
    compiled = program.compile(containment)
    if not compiled.ok:
        first = compiled.message.strip().splitlines()[:1]
        raise JudgeFailure(f"{label}: does not compile: {first[0] if first else 'no message'}")
    _keep(folder, cached)
    return program


def _build_key(toolchain: Toolchain, source: Path, siblings: list[Path]) -> str:
    """The cache's name for this build: the toolchain and every file's name and bytes."""
    files = (part for file in (source, *siblings) for part in (file.name, file.read_bytes()))
    return content_key(json.dumps([toolchain.language.key, toolchain.paths, toolchain.static_linking]), *files)


def _keep(folder: Path, cached: Path) -> None:
    """Store the built `folder` as `cached`, atomically (a concurrent worker may store the same build)."""
    try:
        cached.parent.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=".building-", dir=cached.parent))
        shutil.copytree(folder, staging, dirs_exist_ok=True)
        try:
            staging.rename(cached)
        except OSError:  # another worker stored it first
            shutil.rmtree(staging, ignore_errors=True)
    except OSError:
        return  # no cache (a read-only home): the next submission compiles again


def main_source(path: Path) -> Path:
    """The source to compile: `path` itself; in a folder with `build` and/or `run` scripts, `build` (else `run`),
    which the specification makes the way to build and start it; else the one file in the folder `path` whose
    language judge knows."""
    if path.is_file():
        return path
    scripts = [path / name for name in SCRIPTS if (path / name).is_file()]
    if scripts:
        return scripts[0]
    sources = []
    for candidate in sorted(path.iterdir()):
        try:
            detect_language(candidate)
        except SubmissionError:
            continue
        sources.append(candidate)
    if len(sources) != 1:
        found = ", ".join(source.name for source in sources) or "none"
        raise SpecError(f"{path}: needs exactly one source file in a language judge runs (found {found})")
    return sources[0]
