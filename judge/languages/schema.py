"""languages.yaml as pydantic validates it: unknown keys, wrong types and placeholders a command cannot fill are
one line naming the file and the key (`LanguageTableError`).

Imported only when the table is not in the judge's cache yet (catalog.py keeps the validated table by
content), so `judge run` does not pay for pydantic and PyYAML on every start.
"""

from __future__ import annotations

import string
from typing import Annotated, Any

import yaml
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError, model_validator

from judge.errors import LanguageTableError
from judge.languages.catalog import MORE_SOURCES
from judge.schema_errors import first_error

FIXED_PLACEHOLDERS = frozenset({"program", "source", "source_label", "memory_mib", "main", "more_sources"})

"""What every command may name besides its language's tools (see the comment at the top of languages.yaml)."""


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


class LanguageModel(_Strict):
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
    def _placeholders_are_known(self) -> LanguageModel:
        known = (
            FIXED_PLACEHOLDERS
            | set(self.tools)
            | {f"{name}_venv" for name, tool in self.tools.items() if tool.venv is not None}
        )
        for key, command in (("run", self.run), ("compile", self.compile or [])):
            for part in command:
                try:
                    names = [field for _, field, _, _ in string.Formatter().parse(part) if field is not None]
                except ValueError as error:
                    raise ValueError(f"{key}: {part[:40]!r} is not a command template ({error})") from None
                if "more_sources" in names and part != MORE_SOURCES:
                    raise ValueError(f"{key}: {part[:40]!r}: {MORE_SOURCES} must be a word of its own")
                unknown = sorted(set(names) - known)
                if unknown:
                    raise ValueError(
                        f"{key}: {{{unknown[0]}}} is no placeholder here; use one of "
                        f"{', '.join('{' + name + '}' for name in sorted(known))}"
                    )
        return self


def validate_table(text: str, source: str) -> dict[str, dict[str, Any]]:
    """Each language's fields in `text` (a languages.yaml), validated, defaults filled in; or a LanguageTableError
    naming `source` and the key."""
    try:
        raw = yaml.safe_load(text)
    except yaml.YAMLError as error:
        raise LanguageTableError(f"{source}: not valid YAML ({' '.join(str(error).split())})") from None
    try:
        entries = TypeAdapter(dict[str, LanguageModel]).validate_python(raw)
    except ValidationError as error:
        raise LanguageTableError(f"{source}: {first_error(error)}") from None
    return {key: entry.model_dump() for key, entry in entries.items()}
