"""Loading a problem folder: `problem.yaml` validated strictly, and its test cases in natural order.

Every mistake in a problem folder is a `SpecError` whose message names the file and the key, e.g.
`problems/2580/problem.yaml: time_limit: must be a positive number, got 'fast'`.

A problem folder is not trusted: problem.yaml is read only as a regular file of at most 64 KiB, with YAML aliases
refused (405 bytes of nested aliases, "billion laughs", expand to a billion values), and the test files, checker.py
and the validator must be regular files, never symbolic links, so a folder cannot make the judge read, pack and
ship files from elsewhere on the grading machine.
"""

from __future__ import annotations

import math
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from judge.errors import SpecError
from judge.expectation import Reference
from judge.scoring import ScoreGroup
from judge.intake import Refused, kind_refusal, read_source
from judge.suggest import closest, nearby_path

SPEC_FILE = "problem.yaml"
CUSTOM_CHECKER_FILE = "checker.py"
VALIDATOR_FILE = "validator.py"
SAMPLE_PREFIX = "sample"
SPEC_LIMIT_BYTES = 64 * 1024
PROGRAM_CHECKER = "program"
PROGRAM_PROTOCOLS = {"program": "package", "testlib": "testlib"}
"""problem.yaml's key for a checker program, and the protocol it speaks (checkers/program.py)."""
HEADER_SUFFIXES = (".h", ".hpp", ".hh")
DEFAULT_SOURCE_LIMIT_KIB = 64
"""BOJ's code length limit for most problems."""
MAX_SOURCE_LIMIT_KIB = 16 * 1024


class CheckerSpec(BaseModel):
    """Which checker decides outputs: a built-in name with its options, or `checker.py` in the problem folder."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = "boj"
    options: dict[str, float | int | str | bool] = Field(default_factory=dict)


class ProblemSpec(BaseModel):
    """The contents of `problem.yaml`. Limits are BOJ's: seconds, MiB."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str = Field(min_length=1)
    title: str = Field(min_length=1)
    source: str = ""
    time_limit: float = Field(gt=0, le=3600)
    memory_limit: int = Field(gt=0, le=65536)
    output_limit: int = Field(default=1, gt=0, le=4096)
    checker: CheckerSpec = Field(default_factory=CheckerSpec)
    language_allowance: bool = True
    validator: Literal["validator.py"] | None = None  # VALIDATOR_FILE
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
        require_regular(root / CUSTOM_CHECKER_FILE)
    if spec.validator:
        if not (root / spec.validator).is_file():
            raise SpecError(f"{spec_path}: validator: {root / spec.validator} does not exist")
        require_regular(root / spec.validator)
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
    if path.is_dir() and not path.is_symlink():
        files = tuple(sorted(child for child in path.iterdir() if not child.name.startswith(".")))
    else:
        files = (path, *sorted(child for child in path.parent.iterdir()
                               if child.suffix in HEADER_SUFFIXES and child != path))
    for file in files:
        require_regular(file)
    return files


def require_regular(path: Path) -> None:
    """A SpecError unless `path` is a regular file itself: a link could point at any file of the grading machine."""
    reason = kind_refusal(path.lstat().st_mode)
    if reason:
        raise SpecError(f"{path}: {reason}; a problem's files must be regular files inside its folder")


def link_target_inside(path: Path, root: Path) -> Path | None:
    """For a symbolic link whose target (fully resolved) is a regular file inside `root`, that target; else None.
    Problem packages link one group's tests into another; a link leaving the folder is never followed."""
    if not path.is_symlink():
        return None
    target = Path(os.path.realpath(path))
    inside = Path(os.path.realpath(root))
    if inside not in target.parents or not target.is_file():
        return None
    return target


def require_regular_inside(path: Path, root: Path) -> None:
    """`require_regular`, except that a link to a regular file inside `root` is accepted (link_target_inside)."""
    if link_target_inside(path, root) is None:
        require_regular(path)


class _SpecLoader(yaml.SafeLoader):
    """PyYAML's safe loader without aliases. An alias (`*name`) repeats a node, and aliases of aliases grow
    exponentially ("billion laughs"); a problem.yaml never needs one, so the first is an error at its line."""

    def compose_node(self, parent: yaml.Node | None, index: object) -> yaml.Node | None:
        if self.check_event(yaml.AliasEvent):
            raise yaml.composer.ComposerError(None, None, "aliases (*name) are not allowed; write the value out",
                                              self.peek_event().start_mark)
        return super().compose_node(parent, index)


def _load_spec(spec_path: Path) -> ProblemSpec:
    raw = read_spec_mapping(spec_path, "id, title, time_limit, ...")
    unknown = [key for key in raw if key not in ProblemSpec.model_fields]
    if unknown:  # before the missing keys: `timelimit:` is a misspelt time_limit, not a missing one
        near = closest(str(unknown[0]), ProblemSpec.model_fields)
        raise SpecError(f"{spec_path}: {_show_key(unknown[0])}: unknown key; remove it or check its spelling"
                        + (f" (did you mean {near}?)" if near else ""))
    try:
        return ProblemSpec.model_validate(raw)
    except ValidationError as error:
        raise SpecError(f"{spec_path}: {first_error(error)}") from None


def read_spec_mapping(spec_path: Path, keys_hint: str, *, empty_ok: bool = False) -> dict[Any, Any]:
    """A problem.yaml (ours or a problem package's) as a mapping, read safely: a regular file of at most 64 KiB,
    no aliases; any problem is a SpecError naming the file (and the line, for YAML errors). With `empty_ok`, an
    empty file is an empty mapping (a legacy package's problem.yaml may leave every key at its default)."""
    try:
        text = read_source(spec_path, SPEC_LIMIT_BYTES, what=SPEC_FILE).decode("utf-8")
        raw = yaml.load(text, Loader=_SpecLoader)  # noqa: S506 -- a SafeLoader, minus aliases
    except Refused as refused:
        raise SpecError(f"{spec_path}: {refused.reason}; it must be a regular file of at most "
                        f"{SPEC_LIMIT_BYTES // 1024} KiB") from None
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        where = f"line {mark.line + 1}: " if mark is not None else ""
        problem = getattr(error, "problem", None) or "not valid YAML"
        raise SpecError(f"{spec_path}: {where}{problem}") from None
    except (OSError, UnicodeDecodeError) as error:
        raise SpecError(f"{spec_path}: cannot read: {error}") from None
    except RecursionError:
        raise SpecError(f"{spec_path}: not valid YAML: nested too deeply") from None
    except ValueError as error:  # PyYAML's constructors: `2021-13-01`, `!!float fast`, `!!int 0x`
        raise SpecError(f"{spec_path}: not valid YAML: {_one_line(str(error))}") from None
    if raw is None and empty_ok:
        return {}
    if not isinstance(raw, dict):
        raise SpecError(f"{spec_path}: must be a mapping of keys ({keys_hint}), got {type(raw).__name__}")
    return raw


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _show_key(part: object) -> str:
    """A key as a message shows it: quoted when it holds line breaks or other invisible characters."""
    text = str(part)
    return text if text and text.isprintable() and text.strip() == text else repr(text)


def first_error(error: ValidationError) -> str:
    """The first pydantic error as `key: what is wrong, got <value>`."""
    first = error.errors()[0]
    key = ".".join(_show_key(part) for part in first["loc"]) or "(top level)"
    kind = first["type"]
    if kind == "extra_forbidden":
        return f"{key}: unknown key; remove it or check its spelling"
    if kind == "missing":
        return f"{key}: missing; this key is required"
    message = {
        "greater_than": "must be a positive number",
        "float_parsing": "must be a positive number",
        "int_parsing": "must be a whole number",
        "int_from_float": "must be a whole number",
    }.get(kind, first["msg"].lower())
    return f"{key}: {message}, got {first.get('input')!r}"


def _load_tests(root: Path, require_answers: bool) -> tuple[TestCase, ...]:
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
        require_regular(input_path)
        if os.path.lexists(answer_path):
            require_regular(answer_path)
        elif require_answers:
            raise SpecError(f"{answer_path}: missing; every .in needs its .ans (the reference answer; "
                            f"judge answers {root} writes them from a reference solution)")
        cases.append(TestCase(name=input_path.stem, input_path=input_path, answer_path=answer_path))
    orphans = sorted(path.name for path in tests_dir.glob("*.ans") if not path.with_suffix(".in").is_file())
    if orphans:
        raise SpecError(f"{tests_dir / orphans[0]}: has no matching .in; remove it or add the input")
    return tuple(cases)
