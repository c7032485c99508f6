"""A problem as every command sees it, whatever its layout (ours or a problem package): `Problem`, its
`ProblemSpec` and `TestCase`s, and the checker keys that problem.yaml's schema (schema.py, which validates them) and
our folder's loader (folder.py, which follows them) must agree on.

Standard library only, like everything a loaded problem holds: a problem is read from the judge's cache without
pydantic or PyYAML.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from msgspec import Struct, field

from judge.options import DEFAULT_SOURCE_LIMIT_KIB

if TYPE_CHECKING:  # only named in annotations: a problem without references, groups or a package's rules never
    # imports them
    from judge.problems.expectations import Reference
    from judge.problems.packages.rules import TimeRule, ValidatorArgs
    from judge.problems.scoring import ScoreGroup

SPEC_FILE = "problem.yaml"
CUSTOM_CHECKER_FILE = "checker.py"
VALIDATOR_FILE = "validator.py"
SAMPLE_PREFIX = "sample"
PROGRAM_CHECKER = "program"
PROGRAM_PROTOCOLS = {"program": "package", "testlib": "testlib"}
"""problem.yaml's key for a checker program (`checker: {program: v.cpp}`), and the protocol it speaks."""


class CheckerSpec(Struct, frozen=True, kw_only=True):
    """Which checker decides outputs: a built-in name with its options, or `checker.py` in the problem folder."""

    name: str = "boj"
    options: Mapping[str, float | int | str | bool] = field(default_factory=dict)


class ProblemSpec(Struct, frozen=True, kw_only=True):
    """The contents of `problem.yaml`, validated (schema.py). Limits are BOJ's: seconds, MiB."""

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


class TestCase(Struct, frozen=True):
    """One test: its input, its reference answer, and whether it is a sample shown to students."""

    name: str
    input_path: Path
    answer_path: Path

    @property
    def is_sample(self) -> bool:
        return is_sample_name(self.name)


class Problem(Struct, frozen=True):
    """A loaded problem: our folder layout or a problem package, in the same shape.

    references: the reference submissions when the problem carries its own (a package's `submissions/`); None
    means `submissions/<id>/<verdict>/` beside the problems. extra_files: further files that affect judging, to
    be packed with the problem. time_rule: a package's rule for time limits (its safety margins);
    time_limit_pending: the package gives no time limit, so it is still to be derived by that rule (spec.time_limit
    is then only the ceiling used to measure the accepted submissions). generated: files the judge made for the
    problem (a derived `.timelimit`), packed as if they were in the folder. input_validators: a package's
    validator programs (files or folders) that `judge verify` runs on every input (exit 42 = valid), with each
    test's `input_validator_args` (by test name; a test not named gets none). scoring:
    the groups that grade a scored problem (scoring.py); None for pass-fail. interactive: the checker (a
    program) talks with the submission while it runs (judge/judging/interactive.py). passes: how many times a
    test may run the submission (a multi-pass package's `limits.validation_passes`; 1 for every other problem),
    each pass's input written by the output validator of the one before (judge/judging/case.py). unused_keys: keys of a
    package's problem.yaml and group settings that the specification defines and judge does not use, each once
    (`judge verify` lists them). test_checkers: a package's tests whose group (or own settings file) gives output
    validator flags other than the problem's checker has, each with the checker those flags make; every other
    test is checked by spec.checker.
    """

    root: Path
    spec: ProblemSpec
    tests: tuple[TestCase, ...]
    references: tuple[Reference, ...] | None = None
    extra_files: tuple[Path, ...] = ()
    time_rule: TimeRule | None = None
    time_limit_pending: bool = False
    input_validators: tuple[Path, ...] = ()
    input_validator_args: Mapping[str, ValidatorArgs] = field(default_factory=dict)
    scoring: ScoreGroup | None = None
    interactive: bool = False
    passes: int = 1
    generated: tuple[tuple[str, bytes], ...] = ()
    boj_java_main: bool = True
    """A Java submission runs as class Main, as on BOJ; a package's name their class as the format does."""
    unused_keys: tuple[str, ...] = ()
    test_checkers: Mapping[str, CheckerSpec] = field(default_factory=dict)
    meant_languages: Mapping[str, str] = field(default_factory=dict)
    """The language key a submission is judged in, by the key its extension names, where the problem's format means
    another: a package's Python 3 is PyPy 3 (packages/loader.py). `--lang` still decides when given."""

    def language_meant(self, detected: str) -> str:
        """The language a submission detected as `detected` is judged in on this problem."""
        return self.meant_languages.get(detected, detected)

    @property
    def id(self) -> str:
        return self.spec.id

    @property
    def answers_are_outputs(self) -> bool:
        """Whether each .ans is an output the checker can judge (`judge verify` checks it so): not when the
        submission talks with the validator, nor when a test runs it more than once, as the format says."""
        return not self.interactive and self.passes == 1

    @property
    def custom_checker_path(self) -> Path:
        return self.root / CUSTOM_CHECKER_FILE


def is_sample_name(name: str) -> bool:
    """The one rule for which tests are samples (shown to students with a diff, listed first): `sample*.in`."""
    return name.startswith(SAMPLE_PREFIX)
