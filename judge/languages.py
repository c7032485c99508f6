"""Languages: the table in languages.yaml, detection by extension, and toolchains resolved to absolute paths.

Code lives here only where a language differs in a way data cannot say; the YAML holds the rest.
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import yaml

from judge.errors import SubmissionError, ToolchainMissing
from judge.problem import ProblemSpec
from judge.results import Limits
from judge.sandbox import ToolchainView

ELF_MAGIC = b"\x7fELF"


@dataclass(frozen=True)
class Allowance:
    """BOJ's extra budget for slower languages: limit × factor + extra."""

    factor: float = 1.0
    extra: float = 0.0

    def apply(self, limit: float) -> float:
        return limit * self.factor + self.extra


@dataclass(frozen=True)
class ToolSpec:
    names: tuple[str, ...]
    package: str
    resolve: tuple[str, ...] = ()


@dataclass(frozen=True)
class Language:
    key: str
    display: str
    extensions: tuple[str, ...]
    source_name: str
    tools: dict[str, ToolSpec]
    run: tuple[str, ...]
    compile: tuple[str, ...] | None = None
    time: Allowance = Allowance()
    memory: Allowance = Allowance()
    memory_errors: tuple[str, ...] = ()
    limit_address_space: bool = True
    max_processes: int = 64


@dataclass(frozen=True)
class Toolchain:
    """A language with its tools found on this machine."""

    language: Language
    paths: dict[str, str]

    def command(self, template: tuple[str, ...], *, program: str, source: str, source_label: str,
                memory_mib: int) -> list[str]:
        """`template` with its placeholders filled; `source_label` is the file name a student knows (for messages)."""
        values = {**self.paths, "program": program, "source": source, "source_label": source_label,
                  "memory_mib": str(memory_mib)}
        return [part.format(**values) for part in template]

    @property
    def view(self) -> ToolchainView:
        """What a sandbox must show read-only outside /usr: each tool's installation prefix."""
        dirs = {Path(path).parent.parent for path in self.paths.values() if not path.startswith("/usr/")}
        return ToolchainView(shown=tuple(sorted(dirs)))


def _load_table() -> dict[str, Language]:
    raw = yaml.safe_load(resources.files("judge").joinpath("languages.yaml").read_text(encoding="utf-8"))
    table = {}
    for key, entry in raw.items():
        tools = {
            name: ToolSpec(tuple(tool["names"]), tool["package"], tuple(tool.get("resolve", ())))
            for name, tool in entry.pop("tools").items()
        }
        table[key] = Language(
            key=key,
            tools=tools,
            display=entry.pop("display"),
            extensions=tuple(entry.pop("extensions")),
            source_name=entry.pop("source_name"),
            run=tuple(entry.pop("run")),
            compile=tuple(entry["compile"]) if entry.get("compile") else None,
            time=Allowance(**entry.get("time", {})),
            memory=Allowance(**entry.get("memory", {})),
            memory_errors=tuple(entry.get("memory_errors", ())),
            limit_address_space=entry.get("limit_address_space", True),
            max_processes=entry.get("max_processes", 64),
        )
    return table


LANGUAGES: dict[str, Language] = _load_table()


def detect_language(source: Path, override: str | None = None) -> Language:
    """The language named by `--lang`, else the one whose extension the file has."""
    if override is not None:
        if override not in LANGUAGES:
            raise SubmissionError(f"--lang {override}: unknown language; choose one of {', '.join(LANGUAGES)}")
        return LANGUAGES[override]
    for language in LANGUAGES.values():
        if source.suffix.lower() in language.extensions:
            return language
    known = ", ".join(ext for language in LANGUAGES.values() for ext in language.extensions)
    raise SubmissionError(f"{source}: unknown language for extension '{source.suffix}'; use one of {known} or --lang")


def resolve_toolchain(language: Language) -> Toolchain:
    """Find every tool of a language as an absolute path to a real binary; ToolchainMissing names the package."""
    return _resolve_cached(language.key)


@functools.lru_cache(maxsize=None)
def _resolve_cached(key: str) -> Toolchain:
    language = LANGUAGES[key]
    paths = {}
    for name, tool in language.tools.items():
        found = next((shutil.which(candidate) for candidate in tool.names if shutil.which(candidate)), None)
        if found is None:
            raise ToolchainMissing(
                f"{language.display}: '{tool.names[0]}' not found on PATH; install it (Debian: apt-get install {tool.package})"
            )
        paths[name] = _real_binary(found, tool)
    return Toolchain(language=language, paths=paths)


def _real_binary(found: str, tool: ToolSpec) -> str:
    """Follow symlinks, and ask a script shim (pyenv, asdf) for the binary it would start."""
    path = os.path.realpath(found)
    with open(path, "rb") as handle:
        is_binary = handle.read(4) == ELF_MAGIC
    if is_binary or not tool.resolve:
        return path
    try:
        answer = subprocess.run([path, *tool.resolve], capture_output=True, text=True, timeout=30, check=True)
    except (OSError, subprocess.SubprocessError) as error:
        raise ToolchainMissing(f"{found}: cannot ask this launcher for its real binary: {error}") from None
    return os.path.realpath(answer.stdout.strip())


def effective_limits(spec: ProblemSpec, language: Language) -> Limits:
    """The limits a submission in `language` gets on this problem (BOJ's allowance unless the problem disables it)."""
    time_allowance = language.time if spec.language_allowance else Allowance()
    memory_allowance = language.memory if spec.language_allowance else Allowance()
    time_seconds = round(time_allowance.apply(spec.time_limit), 3)
    return Limits(
        time_seconds=time_seconds,
        wall_seconds=round(2 * time_seconds + 1, 3),
        memory_mib=int(memory_allowance.apply(spec.memory_limit)),
        output_mib=spec.output_limit,
        max_processes=language.max_processes,
    )


def tool_version(path: str) -> str:
    """First line of `<tool> --version` (javac and java print to stderr), for `judge doctor`."""
    try:
        done = subprocess.run([path, "--version"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError) as error:
        return f"unknown ({error})"
    lines = (done.stdout or done.stderr).strip().splitlines()
    return lines[0] if lines else "unknown"
