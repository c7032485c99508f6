"""A problem package as a `Problem`: our ProblemSpec filled from the package's problem.yaml, data/ and limits.

What judge cannot do yet with a package is refused here, at loading, with one line saying what: submit-answer
problems, interactive multi-pass ones, more than one custom output validator. Groups may give output validator
flags of their own (testdata.yaml / test_group.yaml, inherited down, as the specification allows): their tests
get a checker of their own (`Problem.test_checkers`). A multi-pass problem runs each test up to
`limits.validation_passes` times (2 by default), a key only a multi-pass problem may give.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from judge.errors import SpecError
from judge.problems.files import program_files, resolve_inside
from judge.problems.folder import checker_program_files
from judge.problems.model import PROGRAM_CHECKER, SPEC_FILE, CheckerSpec, Problem, ProblemSpec
from judge.problems.packages import spec as package_spec
from judge.problems.packages.spec import PackageSpec
from judge.problems.packages.submissions import package_references
from judge.problems.packages.testdata import PackageTest, load_tests
from judge.problems.packages.timing import (
    DEFAULT_CODE_KIB,
    DEFAULT_MEMORY_MIB,
    DEFAULT_OUTPUT_MIB,
    MEASURING_CEILING_SECONDS,
    given_time_limit,
    time_rule,
)
from judge.problems.packages.validator_flags import default_checker, split_flags
from judge.schema_errors import first_error

UNSUPPORTED_TYPES = ("submit-answer",)
MULTI_PASS = "multi-pass"
DEFAULT_PASSES = 2
OUTPUT_VALIDATOR_FOLDERS = ("output_validators", "output_validator")
INPUT_VALIDATORS_FOLDER = "input_validators"
MEANT_LANGUAGES = {"python3": "pypy3"}
"""The languages a package's author meant where ours differ: the format's `python3` (`.py`, `.py3`) runs on PyPy 3
in problemtools ('Python 3 (w/PyPy3)', `pypy3 "{mainfile}"`) and on Kattis, and a package's time limits are
derived from it; our `python3` is CPython, as on BOJ. Judged on CPython, derived limits came out 2-50x too large."""


def load_package(root: Path, raw: dict[Any, Any]) -> Problem:
    """The package at `root`, whose problem.yaml reads as `raw`; SpecError naming the file and key if malformed."""
    spec_path = root / SPEC_FILE
    try:
        spec = PackageSpec.model_validate(raw)
    except ValidationError as error:
        raise SpecError(f"{spec_path}: {first_error(error)}") from None
    _check_version_keys(spec_path, spec, raw)
    _refuse_unsupported(root, spec)
    passes = _passes(spec_path, spec)
    flags = split_flags(spec.validator_flags)
    input_validators = _input_validators(root)
    data = load_tests(root, flags, legacy=spec.legacy, input_validators=input_validators)
    flag_sets = _flag_sets(data.tests, root / SPEC_FILE)
    shared = next(iter(flag_sets)) if len(flag_sets) == 1 else flags  # else problem.yaml's, the default
    checkers = {
        each: _checker(root, spec, each, where) for each, where in {shared: root / SPEC_FILE, **flag_sets}.items()
    }
    checker = checkers[shared]
    seconds, timelimit_file = given_time_limit(root, spec)
    source_limit = spec.limits.code or DEFAULT_CODE_KIB
    problem_spec = ProblemSpec(
        id=_problem_id(root),
        title=spec.title or _problem_id(root),
        source=str(spec.source or ""),
        time_limit=seconds or MEASURING_CEILING_SECONDS,
        memory_limit=spec.limits.memory or DEFAULT_MEMORY_MIB,
        output_limit=spec.limits.output or DEFAULT_OUTPUT_MIB,
        checker=checker,
        language_allowance=False,
        source_limit=source_limit,
    )
    return Problem(
        root=root,
        spec=problem_spec,
        tests=tuple(test.case for test in data.tests),
        scoring=data.groups if "scoring" in spec.types else None,
        interactive="interactive" in spec.types,
        passes=passes,
        references=package_references(root, source_limit * 1024, legacy=spec.legacy),
        extra_files=(
            *data.settings_files,
            *([timelimit_file] if timelimit_file else []),
            *(checker_program_files(root, problem_spec) if checker.name == PROGRAM_CHECKER else ()),
        ),
        time_rule=time_rule(spec),
        time_limit_pending=seconds is None,
        input_validators=input_validators,
        input_validator_args={test.case.name: test.input_validator_args for test in data.tests},
        test_checkers={
            test.case.name: checkers[test.validator_flags] for test in data.tests if test.validator_flags != shared
        },
        boj_java_main=False,
        unused_keys=(*(f"{key} ({SPEC_FILE})" for key in spec.unused_keys), *data.unused_keys),
        meant_languages=MEANT_LANGUAGES,
    )


def _problem_id(root: Path) -> str:
    """A package's id is its folder's name (its short name, as Kattis calls it)."""
    return root.resolve().name


def _check_version_keys(spec_path: Path, spec: PackageSpec, raw: dict[Any, Any]) -> None:
    """Keys of one format version used in another are errors, as problemtools treats them."""
    limits = raw.get("limits") or {}
    if spec.legacy:
        wrong = [f"limits.{key}" for key in package_spec.NEW_LIMITS if key in limits]
        fix = "the legacy format has no such key (use a .timelimit file, time_multiplier, time_safety_margin)"
    else:
        wrong = [key for key in package_spec.LEGACY_ONLY if key in raw]
        wrong += [f"limits.{key}" for key in package_spec.LEGACY_LIMITS if key in limits]
        fix = f"{spec.problem_format_version} has no such key (legacy only; see the specification's changelog)"
    if wrong:
        raise SpecError(f"{spec_path}: {wrong[0]}: {fix}")


def _refuse_unsupported(root: Path, spec: PackageSpec) -> None:
    spec_path = root / SPEC_FILE
    for kind in UNSUPPORTED_TYPES:
        if kind in spec.types:
            raise SpecError(f"{spec_path}: type: {kind} problems are not supported by judge yet")
    if {MULTI_PASS, "interactive"} <= spec.types:
        raise SpecError(
            f"{spec_path}: type: interactive multi-pass problems are not supported by judge yet (multi-pass alone "
            f"and interactive alone are)"
        )


def _passes(spec_path: Path, spec: PackageSpec) -> int:
    """How many passes a test may take: `limits.validation_passes` (2 by default) on a multi-pass problem, one on
    any other, where the key is a mistake (the specification allows it only on multi-pass problems)."""
    given = spec.limits.validation_passes
    if MULTI_PASS not in spec.types:
        if given is not None:
            raise SpecError(
                f"{spec_path}: limits.validation_passes: only a multi-pass problem has passes; add multi-pass to "
                f"type, or remove the key"
            )
        return 1
    return given or DEFAULT_PASSES


def _input_validators(root: Path) -> tuple[Path, ...]:
    """Each file or folder in input_validators/ (legacy and 2023-07; 2025-09 calls it input_validators/ too)."""
    folder = root / INPUT_VALIDATORS_FOLDER
    if not os.path.lexists(folder):
        return ()
    resolve_inside(folder, root, folder=True)
    validators = tuple(sorted(entry for entry in folder.iterdir() if not entry.name.startswith(".")))
    for validator in validators:
        program_files(validator, root)
    return validators


def _flag_sets(package_tests: tuple[PackageTest, ...], spec_path: Path) -> dict[tuple[str, ...], Path]:
    """Each distinct set of output validator flags the tests have, with the first file giving it. The problem's
    checker has the set every test shares, else problem.yaml's; a test with another gets a checker of its own."""
    found: dict[tuple[str, ...], Path] = {}
    for test in package_tests:
        found.setdefault(test.validator_flags, test.flags_file or spec_path)
    return found


def _checker(root: Path, spec: PackageSpec, flags: tuple[str, ...], where: Path) -> CheckerSpec:
    """The default output validator with `flags` (given in the file `where`, which a mistake in them names), or
    the package's own (legacy `validation: custom` with `output_validators/<name>/`; from 2023-07 on, an
    `output_validator/` folder), run with the flags and the package's validation limits."""
    folder = _validator_folder(root, spec)
    if folder is None:
        for kind in ("interactive", MULTI_PASS):
            if kind in spec.types:
                raise SpecError(f"{root / SPEC_FILE}: type: {kind} needs an output validator (output_validator/)")
        return default_checker(flags, where)
    options: dict[str, float | int | str | bool] = {
        "path": folder.relative_to(root).as_posix(),
        "protocol": "package",
        "flags": " ".join(flags),
    }
    if spec.limits.validation_time:
        options["time"] = spec.limits.validation_time
    if spec.limits.validation_memory:
        options["memory"] = spec.limits.validation_memory
    return CheckerSpec(name=PROGRAM_CHECKER, options=options)


def _validator_folder(root: Path, spec: PackageSpec) -> Path | None:
    legacy_custom = spec.legacy and spec.validation.split()[:1] == ["custom"]
    names = OUTPUT_VALIDATOR_FOLDERS if legacy_custom else () if spec.legacy else OUTPUT_VALIDATOR_FOLDERS[1:]
    folder = next((root / name for name in names if os.path.isdir(root / name)), None)
    if folder is None:
        if legacy_custom:
            raise SpecError(f"{root / SPEC_FILE}: validation: custom, but there is no output_validators/<name>/ folder")
        return None
    resolve_inside(folder, root, folder=True)
    entries = [entry for entry in sorted(folder.iterdir()) if not entry.name.startswith(".")]
    folders = [entry for entry in entries if entry.is_dir()]  # a linked one is checked with its files
    if folders and len(entries) == len(folders):  # output_validators/<name>/: one validator per folder
        if len(folders) > 1:
            raise SpecError(f"{folder}: {len(folders)} output validators; judge runs one (keep one folder)")
        return folders[0]
    return folder
