"""Loading a problem folder: `problem.yaml` validated strictly, and its test cases in natural order.

Every mistake in a problem folder is a `SpecError` whose message names the file and the key, e.g.
`problems/2580/problem.yaml: time_limit: must be a positive number, got 'fast'`.

A problem folder is not trusted: problem.yaml is read only as a regular file of at most 64 KiB, with YAML aliases
refused (405 bytes of nested aliases, "billion laughs", expand to a billion values), and the test files, checker.py
and the validator must be regular files inside the folder (a link only to one inside it: judge/problem_files.py),
so a folder cannot make the judge read, pack and ship files from elsewhere on the grading machine.
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from judge.checker_keys import PROGRAM_CHECKER, PROGRAM_PROTOCOLS
from judge.errors import SpecError
from judge.expectation import Reference
from judge.options import DEFAULT_SOURCE_LIMIT_KIB
from judge.problem_files import file_inside, program_files, read_problem_file, resolve_inside
from judge.scoring import ScoreGroup
from judge.suggest import nearby_path
from judge.tool_cache import validated_once

SPEC_FILE = "problem.yaml"
CUSTOM_CHECKER_FILE = "checker.py"
VALIDATOR_FILE = "validator.py"
SAMPLE_PREFIX = "sample"
SPEC_LIMIT_BYTES = 64 * 1024
HEADER_SUFFIXES = (".h", ".hpp", ".hh")
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
    validator: Literal["validator.py"] | None = None  # VALIDATOR_FILE
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
class TimeRule:
    """How to set a time limit a problem does not give (problem packages): the slowest accepted reference
    submission × `ac_to_time_limit`, rounded up to a multiple of `resolution`; a time_limit_exceeded submission
    must still fail at the limit × `time_limit_to_tle`."""

    ac_to_time_limit: float
    time_limit_to_tle: float
    resolution: float

    def limit_for(self, slowest_accepted_seconds: float) -> float:
        steps = max(1, math.ceil(round(slowest_accepted_seconds * self.ac_to_time_limit / self.resolution, 9)))
        return round(steps * self.resolution, 6)


@dataclass(frozen=True)
class Problem:
    """A loaded problem: our folder layout or a problem package, in the same shape.

    references: the reference submissions when the problem carries its own (a package's `submissions/`); None
    means `submissions/<id>/<verdict>/` beside the problems. extra_files: further files that affect judging, to
    be packed with the problem. time_rule: a package's rule for time limits (its safety margins);
    time_limit_pending: the package gives no time limit, so it is still to be derived by that rule (spec.time_limit
    is then only the ceiling used to measure the accepted submissions). generated: files the judge made for the
    problem (a derived `.timelimit`), packed as if they were in the folder. input_validators: a package's
    validator programs (files or folders) that `judge verify` runs on every input (exit 42 = valid). scoring:
    the groups that grade a scored problem (judge/scoring.py); None for pass-fail. interactive: the checker (a
    program) talks with the submission while it runs (judge/interactive.py).
    """

    root: Path
    spec: ProblemSpec
    tests: tuple[TestCase, ...]
    references: tuple[Reference, ...] | None = None
    extra_files: tuple[Path, ...] = ()
    time_rule: TimeRule | None = None
    time_limit_pending: bool = False
    input_validators: tuple[Path, ...] = ()
    scoring: ScoreGroup | None = None
    interactive: bool = False
    generated: tuple[tuple[str, bytes], ...] = ()
    boj_java_main: bool = True
    """A Java submission runs as class Main, as on BOJ; a package's name their class as the format does."""

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


def load_problem(root: Path | str, *, require_answers: bool = True) -> Problem:
    """Read and validate a problem folder; raises SpecError naming the file and the fix. Without
    `require_answers`, an input may lack its .ans (`judge answers` is about to write it)."""
    root = Path(root)
    spec_path = root / SPEC_FILE
    if not root.is_dir():
        raise SpecError(f"{root}: no such problem folder{nearby_path(root)}")
    if not os.path.lexists(spec_path):
        raise SpecError(f"{spec_path}: missing; every problem folder needs a problem.yaml")
    spec = _load_spec(spec_path)
    if spec.checker.name == CUSTOM_CHECKER_FILE:
        if not (root / CUSTOM_CHECKER_FILE).is_file():
            raise SpecError(f"{spec_path}: checker: names checker.py, but {root / CUSTOM_CHECKER_FILE} does not exist")
        resolve_inside(root / CUSTOM_CHECKER_FILE, root)
    if spec.validator:
        if not (root / spec.validator).is_file():
            raise SpecError(f"{spec_path}: validator: {root / spec.validator} does not exist")
        resolve_inside(root / spec.validator, root)
    _refuse_unnamed_code(root, spec)
    extra = checker_program_files(root, spec) if spec.checker.name == PROGRAM_CHECKER else ()
    return Problem(root=root, spec=spec, tests=_load_tests(root, require_answers), extra_files=extra)


def _refuse_unnamed_code(root: Path, spec: ProblemSpec) -> None:
    """A checker.py or validator.py that problem.yaml does not name would be silently ignored (every input
    "valid", the built-in checker deciding): a SpecError that says which line to add."""
    named = {spec.checker.name, spec.validator}
    for key, file_name in (("checker", CUSTOM_CHECKER_FILE), ("validator", VALIDATOR_FILE)):
        if file_name not in named and os.path.lexists(root / file_name):
            raise SpecError(f"{root / file_name}: problem.yaml does not name it, so it would be ignored; add "
                            f"'{key}: {file_name}' to {root / SPEC_FILE} (or delete the file)")


def checker_program_files(root: Path, spec: ProblemSpec) -> tuple[Path, ...]:
    """A checker program's source and the headers beside it (a testlib.h), checked to be regular files inside the
    folder; they travel with the problem. `path` may be a folder (a package's output validator): all its files."""
    spec_path = root / SPEC_FILE
    relative = spec.checker.options.get("path")
    protocol = spec.checker.options.get("protocol")
    if not isinstance(relative, str) or protocol not in PROGRAM_PROTOCOLS.values():
        raise SpecError(f"{spec_path}: checker: give {{program: FILE}} or {{testlib: FILE}}")
    path = root / relative
    if ".." in Path(relative).parts or Path(relative).is_absolute() or not os.path.lexists(path):
        raise SpecError(f"{spec_path}: checker: {relative!r} is not a file inside the problem folder")
    if os.path.isdir(path):
        return program_files(path, root)
    headers = sorted(child for child in path.parent.iterdir() if child.suffix in HEADER_SUFFIXES and child != path)
    for file in (path, *headers):
        resolve_inside(file, root)
    return (path, *headers)


def _load_spec(spec_path: Path) -> ProblemSpec:
    """The validated spec; a problem.yaml validated before (the same bytes, the same schema) is read from the
    judge's cache, without importing pydantic and PyYAML (about 100 ms of every `judge run`)."""
    data = _read_spec_bytes(spec_path, spec_path.parent)
    text = data.decode("utf-8")
    return validated_once("specs", SCHEMA_MODULE, data, lambda: _validate(text, spec_path), ProblemSpec.from_fields)


def _validate(text: str, spec_path: Path) -> dict[str, Any]:
    from judge.problem_schema import validate_spec  # noqa: PLC0415 -- pydantic only for a new problem.yaml

    return validate_spec(text, spec_path)


def read_spec_mapping(spec_path: Path, keys_hint: str, *, empty_ok: bool = False,
                      root: Path | None = None) -> dict[Any, Any]:
    """A problem.yaml (ours or a problem package's; or a group's settings file, inside the problem folder `root`)
    as a mapping, read safely: a regular file of at most 64 KiB, no aliases; any problem is a SpecError naming the
    file (and the line, for YAML errors). With `empty_ok`, an empty file is an empty mapping (a legacy package's
    problem.yaml may leave every key at its default)."""
    from judge.problem_schema import parse_mapping  # noqa: PLC0415 -- PyYAML only where a package is read

    text = _read_spec_bytes(spec_path, root or spec_path.parent).decode("utf-8")
    return parse_mapping(text, spec_path, keys_hint, empty_ok=empty_ok)


def _read_spec_bytes(spec_path: Path, root: Path) -> bytes:
    """A problem.yaml's bytes: a regular file (in the problem folder `root`) of at most 64 KiB in UTF-8, else a
    SpecError naming it."""
    data = read_problem_file(spec_path, root, SPEC_LIMIT_BYTES, what=SPEC_FILE,
                             fix=f"it must be a regular file of at most {SPEC_LIMIT_BYTES // 1024} KiB")
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise SpecError(f"{spec_path}: cannot read: {error}") from None
    return data


def _load_tests(root: Path, require_answers: bool) -> tuple[TestCase, ...]:
    tests_dir = root / "tests"
    if not os.path.lexists(tests_dir):
        raise SpecError(f"{tests_dir}: missing; put test cases there as <name>.in with <name>.ans")
    real_tests = resolve_inside(tests_dir, root, folder=True)
    # Samples first (students read them first), then the rest in natural order.
    inputs = sorted(tests_dir.glob("*.in"), key=lambda path: (not is_sample_name(path.stem), natural_key(path.stem)))
    if not inputs:
        raise SpecError(f"{tests_dir}: no test cases (<name>.in with <name>.ans)")
    cases = []
    for input_path in inputs:
        answer_path = input_path.with_suffix(".ans")
        file_inside(input_path, real_tests, root)
        if os.path.lexists(answer_path):
            file_inside(answer_path, real_tests, root)
        elif require_answers:
            raise SpecError(f"{answer_path}: missing; every .in needs its .ans (the reference answer; "
                            f"judge answers {root} writes them from a reference solution)")
        cases.append(TestCase(name=input_path.stem, input_path=input_path, answer_path=answer_path))
    orphans = sorted(path.name for path in tests_dir.glob("*.ans") if not path.with_suffix(".in").is_file())
    if orphans:
        raise SpecError(f"{tests_dir / orphans[0]}: has no matching .in; remove it or add the input")
    return tuple(cases)
