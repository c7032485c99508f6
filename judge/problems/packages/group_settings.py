"""What a test group's settings file (`testdata.yaml`, `test_group.yaml`) or a test case's own `<name>.yaml` may
say, validated: the keys of every version of the specification, and the forms of their validator arguments.
testdata.py reads the files and applies the settings down the groups.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, field_validator

from judge.problems.packages.rules import ValidatorArgs
from judge.problems.packages.validator_flags import split_flags
from judge.problems.scoring import checked_score

USED_GROUP_KEYS = frozenset(
    {
        "on_reject",
        "grader_flags",
        "output_validator_flags",
        "output_validator_args",
        "input_validator_flags",
        "input_validator_args",
        "accept_score",
        "reject_score",
        "scoring",
        "max_score",
        "score_aggregation",
    }
)
"""The settings judge acts on; every other key GroupSettings accepts is one judge does not use (yet)."""
SETTINGS_FILES = ("testdata.yaml", "test_group.yaml")
TEST_CASE_KEYS = (
    "args",
    "input_validator_args",
    "output_validator_args",
    "input_visualizer_args",
    "output_visualizer_args",
    "full_feedback",
    "hint",
    "description",
)
"""What a test case's own `<name>.yaml` (2025-09) may set; its validator arguments override its group's."""


class GroupSettings(BaseModel):
    """The keys of testdata.yaml / test_group.yaml that any version of the specification defines (legacy, the
    2023-07 drafts, 2025-09); a key no version defines is a typo, and an error. The keys judge does not use
    (all but USED_GROUP_KEYS) are accepted, and `judge verify` lists them once per package."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    on_reject: str | None = None
    grading: str | None = None
    grader_flags: str | None = None
    input_validator_flags: str | dict[str, Any] | None = None
    output_validator_flags: str | dict[str, Any] | None = None
    input_validator_args: str | list[str | int | float] | dict[str, Any] | None = None  # YAML's [--max, 10]
    output_validator_args: str | list[str] | None = None
    accept_score: float | None = None
    reject_score: float | None = None
    range: str | None = None
    scoring: dict[str, Any] | None = None
    max_score: int | float | str | None = None
    score_aggregation: str | None = None
    require_pass: Any = None
    static_validation: Any = None
    full_feedback: bool | None = None
    max_validator_args: Any = None
    args: list[str] | None = None
    static_validation_score: int | str | None = None
    static_validator_args: str | list[str] | None = None
    input_visualizer_args: str | list[str] | None = None
    output_visualizer_args: str | list[str] | None = None
    description: str | None = None
    hint: str | None = None  # a test case's .yaml only (TEST_CASE_KEYS)

    @field_validator("output_validator_flags", "output_validator_args")
    @classmethod
    def _flags_split(cls, value: Any) -> Any:
        """Flags given as one string must split as a shell would (a lone quote is a mistake of the file)."""
        if isinstance(value, str):
            split_flags(value)
        elif isinstance(value, dict):
            split_flags(str(value.get("flags", "")))
        return value

    @field_validator("input_validator_flags", "input_validator_args")
    @classmethod
    def _input_args_split(cls, value: Any) -> Any:
        """Every form must read as arguments (input_args says which forms there are)."""
        if value is not None:
            _validator_args(value)
        return value

    def input_args(self) -> ValidatorArgs | None:
        """The input validators' arguments this group sets, or None to inherit them."""
        value = self.input_validator_args if self.input_validator_args is not None else self.input_validator_flags
        return None if value is None else _validator_args(value)

    @field_validator("accept_score", "reject_score", "max_score")
    @classmethod
    def _score_in_range(cls, value: Any) -> Any:
        return value if isinstance(value, str) or value is None else checked_score(value)

    @field_validator("scoring")
    @classmethod
    def _scoring_score_in_range(cls, value: dict[str, Any] | None) -> dict[str, Any] | None:
        score = (value or {}).get("score")
        if isinstance(score, int | float) and not isinstance(score, bool):
            checked_score(score)
        return value

    def validator_flags(self) -> tuple[str, ...] | None:
        """The output validator's arguments this group sets, or None to inherit them."""
        value = self.output_validator_args if self.output_validator_args is not None else self.output_validator_flags
        if value is None:
            return None
        if isinstance(value, dict):
            return split_flags(str(value.get("flags", "")))
        return split_flags(value) if isinstance(value, str) else tuple(value)


def _validator_args(value: Any) -> ValidatorArgs:
    """A group's input validator arguments in any of the forms the format versions define; ValueError (the
    settings file's mistake) for any other."""
    if isinstance(value, dict):
        if set(value) == {"name", "flags"} and isinstance(value["name"], str):  # legacy: one validator's flags
            return ValidatorArgs(by_name=((value["name"], _arguments(value["flags"])),))
        return ValidatorArgs(by_name=tuple((str(name), _arguments(args)) for name, args in value.items()))
    return ValidatorArgs(every=_arguments(value))


def _arguments(value: Any) -> tuple[str, ...]:
    if isinstance(value, str):
        return split_flags(value)
    if isinstance(value, list) and all(isinstance(item, str | int | float) for item in value):
        return tuple(str(item) for item in value)
    raise ValueError(f"arguments must be a list of strings (or one string), got {value!r}")
