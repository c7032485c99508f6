"""languages.yaml: its records, and `parse_table`, which validates it the way problem.yaml is validated.

Unknown keys, wrong types and placeholders a command cannot fill are one line naming the file and the key
(`LanguageTableError`, exit 2, from judge/language_schema.py), never a KeyError at the first submission in that
language. The table is read when first needed (`LanguageTable`), not when the judge is imported.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

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


def parse_table(text: str, source: str) -> dict[str, Language]:
    """The languages of `text` (a languages.yaml), or a LanguageTableError naming `source` and the key."""
    from judge.language_schema import validate_table  # noqa: PLC0415 -- pydantic only when validating

    return languages_from_fields(validate_table(text, source))


def languages_from_fields(table: Mapping[str, Mapping[str, Any]]) -> dict[str, Language]:
    """The languages of a validated table (as validate_table returns it, or as the judge's cache kept it)."""
    return {key: _language(key, fields) for key, fields in table.items()}


def _language(key: str, fields: Mapping[str, Any]) -> Language:
    tools = {name: ToolSpec(tuple(tool["names"]), tool["package"], tuple(tool["resolve"]), tool["venv"],
                            tool["static"])
             for name, tool in fields["tools"].items()}
    return Language(
        key=key, display=fields["display"], extensions=tuple(fields["extensions"]), source_name=fields["source_name"],
        tools=tools, run=tuple(fields["run"]), compile=tuple(fields["compile"]) if fields["compile"] else None,
        time=Allowance(**fields["time"]), memory=Allowance(**fields["memory"]),
        memory_errors=tuple(fields["memory_errors"]), limit_address_space=fields["limit_address_space"],
        max_processes=fields["max_processes"], main_class=fields["main_class"],
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
