"""languages.yaml: its records, and the loader that validates it the way problem.yaml is validated.

Unknown keys, wrong types and placeholders a command cannot fill are one line naming the file and the key
(`LanguageTableError`, exit 2), never a KeyError at the first submission in that language. The table is read
when first needed (`LanguageTable`), not when the judge is imported.
"""

from __future__ import annotations

import functools
import string
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Annotated

import yaml
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError, model_validator

from judge.errors import LanguageTableError
from judge.problem import first_error

FIXED_PLACEHOLDERS = frozenset({"program", "source", "source_label", "memory_mib", "main"})
"""What every command may name besides its language's tools (see the comment at the top of languages.yaml)."""


@dataclass(frozen=True)
class Allowance:
    """BOJ's extra budget for slower languages: limit × factor + extra."""

    factor: float = 1.0
    extra: float = 0.0

    def apply(self, limit: float) -> float:
        return limit * self.factor + self.extra


@dataclass(frozen=True)
class ToolSpec:
    """How to find a tool. `venv`: the package that gives this Python `-m venv` (the tool then also fills
    `{<name>_venv}`); `static`: the package with the static libraries this compiler needs for `-static`."""

    names: tuple[str, ...]
    package: str
    resolve: tuple[str, ...] = ()
    venv: str | None = None
    static: str | None = None


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
    main_class: bool = False

    def source_file(self, main: str) -> str:
        """The source's file name in the program folder; `{main}` in source_name is the class to run (Java)."""
        return self.source_name.format(main=main)


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class _Tool(_Strict):
    names: Annotated[list[str], Field(min_length=1)]
    package: str
    resolve: list[str] = []
    venv: str | None = None
    static: str | None = None


class _Allowance(_Strict):
    factor: Annotated[float, Field(gt=0)] = 1.0
    extra: Annotated[float, Field(ge=0)] = 0.0


class _Language(_Strict):
    display: str
    extensions: list[str]
    source_name: str
    tools: Annotated[dict[str, _Tool], Field(min_length=1)]
    run: Annotated[list[str], Field(min_length=1)]
    compile: list[str] | None = None
    time: _Allowance = _Allowance()
    memory: _Allowance = _Allowance()
    memory_errors: list[str] = []
    limit_address_space: bool = True
    max_processes: Annotated[int, Field(gt=0)] = 64
    main_class: bool = False

    @model_validator(mode="after")
    def _placeholders_are_known(self) -> _Language:
        known = FIXED_PLACEHOLDERS | set(self.tools) | {f"{name}_venv" for name, tool in self.tools.items()
                                                         if tool.venv is not None}
        for key, command in (("run", self.run), ("compile", self.compile or [])):
            for part in command:
                try:
                    names = [field for _, field, _, _ in string.Formatter().parse(part) if field is not None]
                except ValueError as error:
                    raise ValueError(f"{key}: {part[:40]!r} is not a command template ({error})") from None
                unknown = sorted(set(names) - known)
                if unknown:
                    raise ValueError(f"{key}: {{{unknown[0]}}} is no placeholder here; use one of "
                                     f"{', '.join('{' + name + '}' for name in sorted(known))}")
        return self


def parse_table(text: str, source: str) -> dict[str, Language]:
    """The languages of `text` (a languages.yaml), or a LanguageTableError naming `source` and the key."""
    try:
        raw = yaml.safe_load(text)
    except yaml.YAMLError as error:
        raise LanguageTableError(f"{source}: not valid YAML ({' '.join(str(error).split())})") from None
    try:
        entries = TypeAdapter(dict[str, _Language]).validate_python(raw)
    except ValidationError as error:
        raise LanguageTableError(f"{source}: {first_error(error)}") from None
    return {key: _language(key, entry) for key, entry in entries.items()}


def _language(key: str, entry: _Language) -> Language:
    tools = {name: ToolSpec(tuple(tool.names), tool.package, tuple(tool.resolve), tool.venv, tool.static)
             for name, tool in entry.tools.items()}
    return Language(
        key=key, display=entry.display, extensions=tuple(entry.extensions), source_name=entry.source_name,
        tools=tools, run=tuple(entry.run), compile=tuple(entry.compile) if entry.compile else None,
        time=Allowance(entry.time.factor, entry.time.extra), memory=Allowance(entry.memory.factor, entry.memory.extra),
        memory_errors=tuple(entry.memory_errors), limit_address_space=entry.limit_address_space,
        max_processes=entry.max_processes, main_class=entry.main_class,
    )


class LanguageTable(Mapping[str, Language]):
    """The language table, read by `load` on first use and kept."""

    def __init__(self, load: Callable[[], dict[str, Language]]) -> None:
        self._load = load

    @functools.cached_property
    def _table(self) -> dict[str, Language]:
        return self._load()

    def __getitem__(self, key: str) -> Language:
        return self._table[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._table)

    def __len__(self) -> int:
        return len(self._table)
