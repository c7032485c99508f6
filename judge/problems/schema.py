"""problem.yaml as pydantic validates it: the schema, the YAML reader without aliases, and errors as one line.

Imported only for a problem.yaml the judge has not validated before (folder.py keeps what it validated in
the judge's cache, by content), so `judge run` on a known problem pays for neither pydantic nor PyYAML. A problem
package's files (packages/) are read with the same YAML reader and reported with the same `first_error`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from judge.errors import SpecError
from judge.options import DEFAULT_SOURCE_LIMIT_KIB, MAX_SOURCE_LIMIT_KIB
from judge.problems.model import PROGRAM_CHECKER, PROGRAM_PROTOCOLS
from judge.schema_errors import first_error, one_line, show_key
from judge.suggest import closest


class CheckerModel(BaseModel):
    """`checker:` of problem.yaml (model.py's CheckerSpec holds the result)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = "boj"
    options: dict[str, float | int | str | bool] = Field(default_factory=dict)


class SpecModel(BaseModel):
    """problem.yaml's keys, types and bounds (model.py's ProblemSpec holds the result)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str = Field(min_length=1)
    title: str = Field(min_length=1)
    source: str = ""
    time_limit: float = Field(gt=0, le=3600)
    memory_limit: int = Field(gt=0, le=65536)
    output_limit: int = Field(default=1, gt=0, le=4096)
    checker: CheckerModel = Field(default_factory=CheckerModel)
    language_allowance: bool = True
    validator: Literal["validator.py"] | None = None  # model.py's VALIDATOR_FILE
    source_limit: int = Field(default=DEFAULT_SOURCE_LIMIT_KIB, gt=0, le=MAX_SOURCE_LIMIT_KIB)  # KiB

    @field_validator("checker", mode="before")
    @classmethod
    def _checker_from_name_or_mapping(cls, value: Any) -> Any:
        """`checker: tokens`, `checker: {name: float, absolute: 1e-6}`, or a program: `checker: {program: v.cpp}`
        (the package protocol, 42/43) or `checker: {testlib: checker.cpp}` (the testlib protocol)."""
        if isinstance(value, str):
            return {"name": value}
        if isinstance(value, dict) and len(value) == 1 and next(iter(value)) in PROGRAM_PROTOCOLS:
            key, path = next(iter(value.items()))
            return {"name": PROGRAM_CHECKER, "options": {"path": path, "protocol": PROGRAM_PROTOCOLS[key]}}
        if isinstance(value, dict) and "name" in value:
            options = {key: option for key, option in value.items() if key != "name"}
            return {"name": value["name"], "options": options}
        return value


def validate_spec(text: str, spec_path: Path) -> dict[str, Any]:
    """The fields of a problem.yaml's `text`, validated (defaults filled in); SpecError naming `spec_path` and the key.
    An unknown key is reported before the missing ones, with the closest known key: `timelimit:` is a misspelt
    time_limit, not a missing one."""
    raw = parse_mapping(text, spec_path, "id, title, time_limit, ...")
    unknown = [key for key in raw if key not in SpecModel.model_fields]
    if unknown:
        near = closest(str(unknown[0]), SpecModel.model_fields)
        raise SpecError(
            f"{spec_path}: {show_key(unknown[0])}: unknown key; remove it or check its spelling"
            + (f" (did you mean {near}?)" if near else "")
        )
    try:
        return SpecModel.model_validate(raw).model_dump()
    except ValidationError as error:
        raise SpecError(f"{spec_path}: {first_error(error)}") from None


def parse_mapping(text: str, spec_path: Path, keys_hint: str, *, empty_ok: bool = False) -> dict[Any, Any]:
    """A YAML file's `text` as a mapping, without aliases; any problem is a SpecError naming `spec_path` (and the
    line, for YAML errors). With `empty_ok`, an empty file is an empty mapping."""
    try:
        raw = yaml.load(text, Loader=_SpecLoader)  # noqa: S506 -- a SafeLoader, minus aliases
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        where = f"line {mark.line + 1}: " if mark is not None else ""
        problem = getattr(error, "problem", None) or "not valid YAML"
        raise SpecError(f"{spec_path}: {where}{problem}") from None
    except RecursionError:
        raise SpecError(f"{spec_path}: not valid YAML: nested too deeply") from None
    except ValueError as error:  # PyYAML's constructors: `2021-13-01`, `!!float fast`, `!!int 0x`
        raise SpecError(f"{spec_path}: not valid YAML: {one_line(str(error))}") from None
    if raw is None and empty_ok:
        return {}
    if not isinstance(raw, dict):
        raise SpecError(f"{spec_path}: must be a mapping of keys ({keys_hint}), got {type(raw).__name__}")
    return raw


class _SpecLoader(yaml.SafeLoader):
    """PyYAML's safe loader without aliases. An alias (`*name`) repeats a node, and aliases of aliases grow
    exponentially ("billion laughs"); a problem.yaml never needs one, so the first is an error at its line."""

    def compose_node(self, parent: yaml.Node | None, index: int) -> yaml.Node | None:
        if self.check_event(yaml.AliasEvent):
            raise yaml.composer.ComposerError(
                None, None, "aliases (*name) are not allowed; write the value out", self.peek_event().start_mark
            )
        return super().compose_node(parent, index)
