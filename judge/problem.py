"""Loading a problem folder: `problem.yaml` validated strictly, and its test cases in natural order.

Every mistake in a problem folder is a `SpecError` whose message names the file and the key, e.g.
`problems/2580/problem.yaml: time_limit: must be a positive number, got 'fast'`.

A problem folder is not trusted: problem.yaml is read only as a regular file of at most 64 KiB, with YAML aliases
refused (405 bytes of nested aliases, "billion laughs", expand to a billion values), and the test files, checker.py
and the validator must be regular files, never symbolic links, so a folder cannot make the judge read, pack and
ship files from elsewhere on the grading machine.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from judge.errors import SpecError
from judge.intake import Refused, kind_refusal, read_source
from judge.options import DEFAULT_SOURCE_LIMIT_KIB
from judge.tool_cache import validated_once

SPEC_FILE = "problem.yaml"
CUSTOM_CHECKER_FILE = "checker.py"
SAMPLE_PREFIX = "sample"
SPEC_LIMIT_BYTES = 64 * 1024
SCHEMA_MODULE = Path(__file__).with_name("problem_schema.py")
"""The code that validates problem.yaml: a cached validation is reused only while this file is unchanged."""


@dataclass(frozen=True, kw_only=True)
class CheckerSpec:
    """Which checker decides outputs: a built-in name with its options, or `checker.py` in the problem folder."""

    name: str = "boj"
    options: Mapping[str, float | int | str | bool] = field(default_factory=dict)


@dataclass(frozen=True, kw_only=True)
class ProblemSpec:
    """The contents of `problem.yaml`, validated (judge/problem_schema.py). Limits are BOJ's: seconds, MiB."""

    id: str
    title: str
    source: str = ""
    time_limit: float
    memory_limit: int
    output_limit: int = 1
    checker: CheckerSpec = field(default_factory=CheckerSpec)
    language_allowance: bool = True
    validator: Literal["validator.py"] | None = None
    source_limit: int = DEFAULT_SOURCE_LIMIT_KIB  # KiB

    @classmethod
    def from_fields(cls, fields: Mapping[str, Any]) -> ProblemSpec:
        """The spec of validated `fields` (as validate_spec returns them, or as the cache kept them)."""
        return cls(**{**fields, "checker": CheckerSpec(**fields["checker"])})


@dataclass(frozen=True)
class TestCase:
    """One test: its input, its reference answer, and whether it is a sample shown to students."""

    name: str
    input_path: Path
    answer_path: Path

    @property
    def is_sample(self) -> bool:
        return is_sample_name(self.name)


@dataclass(frozen=True)
class Problem:
    """A loaded problem folder."""

    root: Path
    spec: ProblemSpec
    tests: tuple[TestCase, ...]

    @property
    def id(self) -> str:
        return self.spec.id

    @property
    def custom_checker_path(self) -> Path:
        return self.root / CUSTOM_CHECKER_FILE


def is_sample_name(name: str) -> bool:
    """The one rule for which tests are samples (shown to students with a diff, listed first): `sample*.in`."""
    return name.startswith(SAMPLE_PREFIX)


def natural_key(name: str) -> list[Any]:
    """Sort key that puts `2` before `10`: digits compare as numbers, the rest as text."""
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", name)]


def load_problem(root: Path | str) -> Problem:
    """Read and validate a problem folder; raises SpecError naming the file and the fix."""
    root = Path(root)
    spec_path = root / SPEC_FILE
    if not root.is_dir():
        raise SpecError(f"{root}: no such problem folder")
    if not os.path.lexists(spec_path):
        raise SpecError(f"{spec_path}: missing; every problem folder needs a problem.yaml")
    spec = _load_spec(spec_path)
    if spec.checker.name == CUSTOM_CHECKER_FILE:
        if not (root / CUSTOM_CHECKER_FILE).is_file():
            raise SpecError(f"{spec_path}: checker: names checker.py, but {root / CUSTOM_CHECKER_FILE} does not exist")
        _require_regular(root / CUSTOM_CHECKER_FILE)
    if spec.validator:
        if not (root / spec.validator).is_file():
            raise SpecError(f"{spec_path}: validator: {root / spec.validator} does not exist")
        _require_regular(root / spec.validator)
    return Problem(root=root, spec=spec, tests=_load_tests(root))


def _require_regular(path: Path) -> None:
    """A SpecError unless `path` is a regular file itself: a link could point at any file of the grading machine."""
    reason = kind_refusal(path.lstat().st_mode)
    if reason:
        raise SpecError(f"{path}: {reason}; a problem's files must be regular files inside its folder")


def _load_spec(spec_path: Path) -> ProblemSpec:
    """The validated spec; a problem.yaml validated before (the same bytes, the same schema) is read from the
    judge's cache, without importing pydantic and PyYAML (about 100 ms of every `judge run`)."""
    try:
        data = read_source(spec_path, SPEC_LIMIT_BYTES, what=SPEC_FILE)
        text = data.decode("utf-8")
    except Refused as refused:
        raise SpecError(f"{spec_path}: {refused.reason}; it must be a regular file of at most "
                        f"{SPEC_LIMIT_BYTES // 1024} KiB") from None
    except (OSError, UnicodeDecodeError) as error:
        raise SpecError(f"{spec_path}: cannot read: {error}") from None
    return validated_once("specs", SCHEMA_MODULE, data, lambda: _validate(text, spec_path), ProblemSpec.from_fields)


def _validate(text: str, spec_path: Path) -> dict[str, Any]:
    from judge.problem_schema import validate_spec  # noqa: PLC0415 -- pydantic only for a new problem.yaml

    return validate_spec(text, spec_path)


def _load_tests(root: Path) -> tuple[TestCase, ...]:
    tests_dir = root / "tests"
    if tests_dir.is_symlink():
        raise SpecError(f"{tests_dir}: is a symbolic link; put the test cases in a folder inside the problem folder")
    if not tests_dir.is_dir():
        raise SpecError(f"{tests_dir}: missing; put test cases there as <name>.in with <name>.ans")
    # Samples first (students read them first), then the rest in natural order.
    inputs = sorted(tests_dir.glob("*.in"), key=lambda path: (not is_sample_name(path.stem), natural_key(path.stem)))
    if not inputs:
        raise SpecError(f"{tests_dir}: no test cases (<name>.in with <name>.ans)")
    cases = []
    for input_path in inputs:
        answer_path = input_path.with_suffix(".ans")
        if not os.path.lexists(answer_path):
            raise SpecError(f"{answer_path}: missing; every .in needs its .ans (the reference answer)")
        _require_regular(input_path)
        _require_regular(answer_path)
        cases.append(TestCase(name=input_path.stem, input_path=input_path, answer_path=answer_path))
    orphans = sorted(path.name for path in tests_dir.glob("*.ans") if not path.with_suffix(".in").is_file())
    if orphans:
        raise SpecError(f"{tests_dir / orphans[0]}: has no matching .in; remove it or add the input")
    return tuple(cases)
