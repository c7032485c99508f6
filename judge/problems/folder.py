"""Loading a problem folder of our layout: `problem.yaml` validated strictly, and its test cases in natural order.

Every mistake in a problem folder is a `SpecError` whose message names the file and the key, e.g.
`problems/2580/problem.yaml: time_limit: must be a positive number, got 'fast'`.

A problem folder is not trusted: problem.yaml is read only as a regular file of at most 64 KiB, with YAML aliases
refused (405 bytes of nested aliases, "billion laughs", expand to a billion values), and the test files, checker.py
and the validator must be regular files inside the folder (a link only to one inside it: files.py),
so a folder cannot make the judge read, pack and ship files from elsewhere on the grading machine.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from judge.errors import SpecError
from judge.intake import natural_key
from judge.problems.files import file_inside, program_files, read_spec_bytes, resolve_inside
from judge.problems.model import (
    CUSTOM_CHECKER_FILE,
    PROGRAM_CHECKER,
    PROGRAM_PROTOCOLS,
    SPEC_FILE,
    VALIDATOR_FILE,
    Problem,
    ProblemSpec,
    TestCase,
    is_sample_name,
)
from judge.suggest import nearby_path
from judge.tool_cache import validated_once

HEADER_SUFFIXES = (".h", ".hpp", ".hh")
SCHEMA_MODULE = Path(__file__).with_name("schema.py")
"""The code that validates problem.yaml: a cached validation is reused only while this file is unchanged."""


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
            raise SpecError(
                f"{root / file_name}: problem.yaml does not name it, so it would be ignored; add "
                f"'{key}: {file_name}' to {root / SPEC_FILE} (or delete the file)"
            )


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
    data = read_spec_bytes(spec_path, spec_path.parent)
    text = data.decode("utf-8")
    return validated_once("specs", SCHEMA_MODULE, data, lambda: _validate(text, spec_path), ProblemSpec.from_fields)


def _validate(text: str, spec_path: Path) -> dict[str, Any]:
    from judge.problems.schema import validate_spec  # noqa: PLC0415 -- pydantic only for a new problem.yaml

    return validate_spec(text, spec_path)


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
            raise SpecError(
                f"{answer_path}: missing; every .in needs its .ans (the reference answer; "
                f"judge answers {root} writes them from a reference solution)"
            )
        cases.append(TestCase(name=input_path.stem, input_path=input_path, answer_path=answer_path))
    orphans = sorted(path.name for path in tests_dir.glob("*.ans") if not path.with_suffix(".in").is_file())
    if orphans:
        raise SpecError(f"{tests_dir / orphans[0]}: has no matching .in; remove it or add the input")
    return tuple(cases)
