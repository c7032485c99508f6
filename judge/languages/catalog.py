"""The language catalog: languages.yaml's records (`Language`, `ToolSpec`, `Allowance`) and `LANGUAGES`, the
packaged table read when first needed (`LanguageTable`), not when the judge is imported.

The table is validated the way problem.yaml is (schema.py): unknown keys, wrong types and placeholders a command
cannot fill are one line naming the file and the key (`LanguageTableError`, exit 2), never a KeyError at the first
submission in that language. A validated table is kept in the judge's cache by content and schema, so pydantic and
PyYAML are imported only when the table or schema.py changed.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

from msgspec import Struct

from judge.tool_cache import validated_once

DEFAULT_MAIN = "Main"
"""The class a main_class language (Java) runs unless the source says otherwise (detection.main_name)."""
MORE_SOURCES = "{more_sources}"
"""In a compile command, the other source files of a submission of several (C files linked together): zero or
more words, so it is a word of its own."""
SCRIPTS = ("build", "run")
"""A program folder holding either is built by `build` (when present) and started as `run` (the specification's
"Programs": any program a package brings, a submission too, may be given so)."""
SCRIPTS_LANGUAGE = "scripts"
SCHEMA_MODULE = Path(__file__).with_name("schema.py")
"""The code that validates languages.yaml: a cached table is reused only while this file is unchanged."""


class Allowance(Struct, frozen=True):
    """BOJ's extra budget for slower languages: limit × factor + extra."""

    factor: float = 1.0
    extra: float = 0.0

    def apply(self, limit: float) -> float:
        return limit * self.factor + self.extra


class ToolSpec(Struct, frozen=True):
    """How to find a tool. `venv`: the package that gives this Python `-m venv` (the tool then also fills
    `{<name>_venv}`); `static`: the package with the static libraries this compiler needs for `-static`."""

    names: tuple[str, ...]
    package: str
    resolve: tuple[str, ...] = ()
    venv: str | None = None
    static: str | None = None


class Language(Struct, frozen=True):
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


def languages_from_fields(table: Mapping[str, Mapping[str, Any]]) -> dict[str, Language]:
    """The languages of a validated table (as validate_table returns it, or as the judge's cache kept it)."""
    return {key: _language(key, fields) for key, fields in table.items()}


def _language(key: str, fields: Mapping[str, Any]) -> Language:
    tools = {
        name: ToolSpec(tuple(tool["names"]), tool["package"], tuple(tool["resolve"]), tool["venv"], tool["static"])
        for name, tool in fields["tools"].items()
    }
    return Language(
        key=key,
        display=fields["display"],
        extensions=tuple(fields["extensions"]),
        source_name=fields["source_name"],
        tools=tools,
        run=tuple(fields["run"]),
        compile=tuple(fields["compile"]) if fields["compile"] else None,
        time=Allowance(**fields["time"]),
        memory=Allowance(**fields["memory"]),
        memory_errors=tuple(fields["memory_errors"]),
        limit_address_space=fields["limit_address_space"],
        max_processes=fields["max_processes"],
        main_class=fields["main_class"],
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


def _packaged_table() -> dict[str, Language]:
    """The packaged languages.yaml, validated once per content and schema (`validated_once`)."""
    table = Path(__file__).with_name("languages.yaml")  # package data, installed beside this module
    text = table.read_text(encoding="utf-8")
    return validated_once(
        "languages", SCHEMA_MODULE, text, lambda: _validate_table(text, str(table)), languages_from_fields
    )


def _validate_table(text: str, source: str) -> dict[str, Any]:
    from judge.languages.schema import validate_table  # noqa: PLC0415 -- pydantic only when validating

    return validate_table(text, source)


LANGUAGES: Mapping[str, Language] = LanguageTable(_packaged_table)
"""Every language, by key; languages.yaml is read and validated on first use."""
