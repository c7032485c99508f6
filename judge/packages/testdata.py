"""A package's test data: `data/sample/` then `data/secret/` (groups nested to any depth), `<name>.in` with
`<name>.ans`, each folder's entries in natural order, and each group's settings file (`testdata.yaml` in the
legacy format, `test_group.yaml` from 2023-07 on), inherited by the groups below it.

Test names are their paths under data/ without the extension (`sample/1`, `secret/group1/03`), so samples are
the tests whose names start with `sample`, as for our own problems.
"""

from __future__ import annotations

import os
import shlex
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError

from judge.errors import SpecError
from judge.packages.detect import DATA_FOLDER
from judge.problem import TestCase, first_error, natural_key, read_spec_mapping, require_regular

GROUPS = ("sample", "secret")
SETTINGS_FILES = ("testdata.yaml", "test_group.yaml")


class GroupSettings(BaseModel):
    """The keys of testdata.yaml / test_group.yaml. Only the output validator's flags are used so far; the rest
    are accepted as the specification defines them, so that a typo is still caught."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    on_reject: str | None = None
    grading: str | None = None
    grader_flags: str | None = None
    input_validator_flags: str | dict[str, Any] | None = None
    output_validator_flags: str | dict[str, Any] | None = None
    input_validator_args: str | list[str] | dict[str, Any] | None = None
    output_validator_args: str | list[str] | None = None
    accept_score: float | None = None
    reject_score: float | None = None
    range: str | None = None
    scoring: dict[str, Any] | None = None
    static_validation: Any = None
    full_feedback: bool | None = None
    max_validator_args: Any = None

    def validator_flags(self) -> tuple[str, ...] | None:
        """The output validator's arguments this group sets, or None to inherit them."""
        value = self.output_validator_args if self.output_validator_args is not None else self.output_validator_flags
        if value is None:
            return None
        if isinstance(value, dict):
            return tuple(shlex.split(str(value.get("flags", ""))))
        return tuple(shlex.split(value)) if isinstance(value, str) else tuple(value)


@dataclass(frozen=True)
class PackageTest:
    """A test case and the output validator flags that apply to it (its group's, or the nearest ancestor's)."""

    case: TestCase
    validator_flags: tuple[str, ...]


def load_tests(root: Path, flags: tuple[str, ...]) -> tuple[tuple[PackageTest, ...], tuple[Path, ...]]:
    """Every test under data/sample and data/secret with its flags (`flags`: problem.yaml's, the default), and the
    settings files that were read (they affect judging, so they travel with the problem)."""
    data = root / DATA_FOLDER
    settings_files: list[Path] = []
    top = _settings(data, settings_files)
    inherited = top.validator_flags() if top is not None and top.validator_flags() is not None else flags
    tests: list[PackageTest] = []
    for group in GROUPS:
        folder = data / group
        if folder.is_dir() and not folder.is_symlink():
            _walk(data, folder, inherited, tests, settings_files)
    if not tests:
        raise SpecError(f"{data}: no test cases; put <name>.in with <name>.ans under data/sample or data/secret")
    return tuple(tests), tuple(settings_files)


def _walk(data: Path, folder: Path, flags: tuple[str, ...], tests: list[PackageTest], read: list[Path]) -> None:
    settings = _settings(folder, read)
    if settings is not None and settings.validator_flags() is not None:
        flags = settings.validator_flags() or ()
    entries = sorted(os.scandir(folder), key=lambda entry: natural_key(entry.name))
    for entry in entries:
        path = Path(entry.path)
        if entry.name.startswith("."):
            continue
        if entry.is_dir(follow_symlinks=False):
            _walk(data, path, flags, tests, read)
        elif entry.name.endswith(".in"):
            answer = path.with_suffix(".ans")
            if not os.path.lexists(answer):
                raise SpecError(f"{answer}: missing; every .in needs its .ans (the reference answer)")
            for file in (path, answer):
                require_regular(file)
            name = path.relative_to(data).with_suffix("").as_posix()
            tests.append(PackageTest(TestCase(name=name, input_path=path, answer_path=answer), flags))


def _settings(folder: Path, read: list[Path]) -> GroupSettings | None:
    for name in SETTINGS_FILES:
        path = folder / name
        if os.path.lexists(path):
            require_regular(path)
            raw = read_spec_mapping(path, "output_validator_flags, accept_score, ...", empty_ok=True)
            try:
                settings = GroupSettings.model_validate(raw)
            except ValidationError as error:
                raise SpecError(f"{path}: {first_error(error)}") from None
            read.append(path)
            return settings
    return None
