"""A problem package as a `Problem`: our ProblemSpec filled from the package's problem.yaml, data/ and limits.

What judge cannot do yet with a package is refused here, at loading, with one line saying what: interactive,
multi-pass and submit-answer problems, scored problems, custom output validators, and groups whose output
validator flags differ from the rest.
"""

from __future__ import annotations

import os
import shlex
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from judge.errors import SpecError
from judge.packages import spec as package_spec
from judge.packages.spec import PackageSpec
from judge.packages.submissions import package_references
from judge.packages.testdata import load_tests
from judge.packages.timing import (DEFAULT_CODE_KIB, DEFAULT_MEMORY_MIB, DEFAULT_OUTPUT_MIB,
                                   MEASURING_CEILING_SECONDS, given_time_limit, time_rule)
from judge.packages.validator_flags import default_checker
from judge.problem import SPEC_FILE, Problem, ProblemSpec, first_error

UNSUPPORTED_TYPES = ("interactive", "multi-pass", "submit-answer", "scoring")
OUTPUT_VALIDATOR_FOLDERS = ("output_validators", "output_validator")


def load_package(root: Path, raw: dict[Any, Any]) -> Problem:
    """The package at `root`, whose problem.yaml reads as `raw`; SpecError naming the file and key if malformed."""
    spec_path = root / SPEC_FILE
    try:
        spec = PackageSpec.model_validate(raw)
    except ValidationError as error:
        raise SpecError(f"{spec_path}: {first_error(error)}") from None
    _check_version_keys(spec_path, spec, raw)
    _refuse_unsupported(root, spec)
    flags = tuple(shlex.split(spec.validator_flags))
    package_tests, settings_files = load_tests(root, flags)
    checker = _one_checker(root, package_tests, spec_path)
    seconds, timelimit_file = given_time_limit(root, spec)
    source_limit = spec.limits.code or DEFAULT_CODE_KIB
    problem_spec = ProblemSpec(
        id=_problem_id(root), title=spec.title or _problem_id(root), source=str(spec.source or ""),
        time_limit=seconds or MEASURING_CEILING_SECONDS, memory_limit=spec.limits.memory or DEFAULT_MEMORY_MIB,
        output_limit=spec.limits.output or DEFAULT_OUTPUT_MIB, checker=checker, language_allowance=False,
        source_limit=source_limit,
    )
    return Problem(
        root=root, spec=problem_spec, tests=tuple(test.case for test in package_tests),
        references=package_references(root, source_limit * 1024),
        extra_files=(*settings_files, *([timelimit_file] if timelimit_file else [])),
        time_rule=time_rule(spec), time_limit_pending=seconds is None,
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
    custom = spec.validation.split()[:1] == ["custom"]
    folder = next((root / name for name in OUTPUT_VALIDATOR_FOLDERS if os.path.lexists(root / name)), None)
    if custom or folder is not None:
        where = folder if folder is not None else spec_path
        raise SpecError(f"{where}: custom output validators are not supported by judge yet")


def _one_checker(root: Path, package_tests: tuple[Any, ...], spec_path: Path) -> Any:
    """The default validator with the flags every test shares; flags that differ between groups are refused."""
    distinct = {test.validator_flags for test in package_tests}
    if len(distinct) > 1:
        raise SpecError(f"{root / 'data'}: groups with different output validator flags are not supported by judge "
                        f"yet; give the flags once, in problem.yaml")
    return default_checker(next(iter(distinct)), spec_path)
