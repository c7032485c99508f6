"""Checkers: the built-ins by name, and `build_checker`, which makes the one a problem's `problem.yaml` names.

    checker: tokens                                   # a built-in, no options
    checker: {name: float, absolute: 1e-6}            # a built-in with keyword options
    checker: checker.py                               # the problem folder's own checker (see custom.py)

`open_checker` is how a submission gets its checker: a problem's checker.py runs in a box for as long as the
`with` block, and is torn down after it. `open_test_checkers` gives the tests that have a checker of their own
(a package group's output validator flags: `Problem.test_checkers`) theirs, for the same block. A problem's
checker.py and checker programs start through the judging's `ProblemPrograms` (judge/programs/runs.py), so they
get the sandbox and containment the command chose.

A built-in is a class whose keyword-only `__init__` parameters are its options; their annotations say which
types problem.yaml may give. A value of the right type that is still unusable is refused by the class with
`ValueError("<option>: <what is wrong>")`. Either way the result is a SpecError naming problem.yaml and the key.
"""

from __future__ import annotations

import inspect
import typing
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

from judge.checkers.base import Checker, CheckResult, HoldsProcess
from judge.errors import SpecError
from judge.lazy import LazyRegistry
from judge.problems.model import CUSTOM_CHECKER_FILE, PROGRAM_CHECKER, SPEC_FILE, CheckerSpec, Problem
from judge.programs.runs import ProblemPrograms

__all__ = [
    "BUILTIN_CHECKERS",
    "CheckResult",
    "Checker",
    "CheckerFactory",
    "build_checker",
    "open_checker",
    "open_test_checkers",
]

CheckerFactory = Callable[..., Checker]

BUILTIN_CHECKERS: LazyRegistry[CheckerFactory] = LazyRegistry(
    {
        "boj": "judge.checkers.boj:BojChecker",
        "tokens": "judge.checkers.tokens:TokensChecker",
        "exact": "judge.checkers.exact:ExactChecker",
        "float": "judge.checkers.float_tolerance:FloatChecker",
        "package-default": "judge.checkers.package_default:PackageDefaultChecker",
    }
)
"""The built-ins by name, each imported when a problem names it: `judge run` loads only its problem's checker."""

_TYPE_WORDS: dict[type, str] = {float: "a number", int: "a whole number", bool: "true or false", str: "text"}


@contextmanager
def open_checker(problem: Problem, programs: ProblemPrograms, scratch: Path) -> Iterator[Checker]:
    """The checker `problem.spec.checker` names, for the duration of the block; a confined checker.py is started
    through `programs` (its files under `scratch`) and killed at the end."""
    checker = build_checker(problem, programs, scratch)
    try:
        yield checker
    finally:
        if isinstance(checker, HoldsProcess):
            checker.close()


@contextmanager
def open_test_checkers(problem: Problem, programs: ProblemPrograms, scratch: Path) -> Iterator[Mapping[str, Checker]]:
    """The checker of each test that has its own (`problem.test_checkers`), by test name, for the duration of the
    block: one built per distinct spec, as groups share their flags, each in a scratch folder of its own."""
    built: dict[str, Checker] = {}
    by_test: dict[str, Checker] = {}
    try:
        for test, spec in problem.test_checkers.items():
            key = repr((spec.name, sorted(spec.options.items())))
            if key not in built:
                own = scratch / f"test-checker-{len(built)}"
                own.mkdir()
                built[key] = build_checker(problem, programs, own, spec)
            by_test[test] = built[key]
        yield by_test
    finally:
        for checker in built.values():
            if isinstance(checker, HoldsProcess):
                checker.close()


def build_checker(
    problem: Problem, programs: ProblemPrograms, scratch: Path, spec: CheckerSpec | None = None
) -> Checker:
    """The checker `spec` (by default `problem.spec.checker`) names, built with its options; SpecError if either
    is wrong. A checker.py must be closed: prefer `open_checker`."""
    spec_path = problem.root / SPEC_FILE
    spec = spec or problem.spec.checker
    name, options = spec.name, dict(spec.options)
    if name == CUSTOM_CHECKER_FILE:
        if options:
            key = next(iter(options))
            raise SpecError(f"{spec_path}: checker.{key}: unknown option for {name}; it takes no options")
        from judge.checkers.custom import CustomChecker  # noqa: PLC0415 -- only for a problem that has a checker.py

        return CustomChecker(path=problem.custom_checker_path, programs=programs, scratch=scratch)
    if name == PROGRAM_CHECKER:
        from judge.checkers.program import ProgramChecker, program_limits  # noqa: PLC0415 -- likewise

        flags = tuple(str(options.get("flags", "")).split())
        return ProgramChecker.build(
            path=problem.root / str(options["path"]),
            label=str(options["path"]),
            protocol=str(options["protocol"]),
            flags=flags,
            programs=programs,
            scratch=scratch,
            limits=program_limits(options, programs.limits),
        )
    factory = BUILTIN_CHECKERS.get(name)
    if factory is None:
        choices = ", ".join([*BUILTIN_CHECKERS, CUSTOM_CHECKER_FILE, "{program: FILE}", "{testlib: FILE}"])
        raise SpecError(f"{spec_path}: checker: unknown checker {name!r}; choose one of {choices}")
    try:
        return factory(**_typed_options(name, factory, options))
    except ValueError as error:
        raise SpecError(f"{spec_path}: checker.{error}") from None


def _typed_options(name: str, factory: CheckerFactory, options: Mapping[str, object]) -> dict[str, object]:
    """`options` checked against the factory's keyword-only parameters; ValueError('<key>: ...') if one is off."""
    if not options:  # the usual case: no signature to read (inspect parses a builtin's in about 5 ms)
        return {}
    parameters = [
        parameter.name
        for parameter in inspect.signature(factory).parameters.values()
        if parameter.kind is inspect.Parameter.KEYWORD_ONLY
    ]
    typed: dict[str, object] = {}
    for key, value in options.items():
        if key not in parameters:
            takes = f"it takes {', '.join(parameters)}" if parameters else "it takes no options"
            raise ValueError(f"{key}: unknown option for {name}; {takes}")
        kind = typing.get_type_hints(factory.__init__).get(key, object)
        typed[key] = _coerce(key, value, kind)
    return typed


def _coerce(key: str, value: object, kind: object) -> object:
    """`value` as `kind`. YAML reads `1e-6` (no dot) as a string, so numeric text is accepted for numbers."""
    if kind is float and not isinstance(value, bool):
        if isinstance(value, int | float):
            return float(value)
        if isinstance(value, str):
            try:
                return float(value)
            except ValueError:
                pass
    elif (
        (kind is int and isinstance(value, int) and not isinstance(value, bool))
        or (kind in (bool, str) and isinstance(value, kind))
        or kind is object
    ):
        return value
    raise ValueError(f"{key}: must be {_TYPE_WORDS.get(kind, kind)}, got {value!r}")  # type: ignore[call-overload]
