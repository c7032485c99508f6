"""A problem package's input validators (`input_validators/`): programs in any language judge runs, each
compiled once and run on every test input by `judge verify`, as `validator [flags] < input`: exit 42 means
valid, 43 invalid (its stderr says why), anything else is the validator failing. They run confined, like the
output validator, under PROBLEM_CODE_LIMITS."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from judge.checkers.program import build_program
from judge.problem_code import PROBLEM_CODE_LIMITS, ValidatorVerdict
from judge.program import Program
from judge.runner import execute
from judge.runner.classify import classify
from judge.runner.sandbox import Sandbox

VALID, INVALID = 42, 43


@dataclass(frozen=True)
class InputValidator:
    """One compiled input validator, with the label reports use for it."""

    label: str
    program: Program

    @classmethod
    def build(cls, path: Path, label: str, sandbox: Sandbox, scratch: Path, index: int) -> InputValidator:
        return cls(label, build_program(path, label, sandbox, scratch, scratch / f"input-validator-{index}"))

    def __call__(self, test_input: Path, flags: tuple[str, ...] = ()) -> ValidatorVerdict:
        program = self.program
        language = program.toolchain.language
        argv = [*program.command(language.run, PROBLEM_CODE_LIMITS.memory_mib), *flags]
        spec = program.run_spec(argv, test_input, "input-validator")
        stats = execute.run(spec, PROBLEM_CODE_LIMITS)
        failure = classify(stats, PROBLEM_CODE_LIMITS, language.memory_errors)
        if stats.tripped is None and stats.exit_code == VALID:
            return ValidatorVerdict(True, "")
        if stats.tripped is None and stats.exit_code == INVALID:
            return ValidatorVerdict(False, f"{self.label}: invalid: {_last_line(stats.stderr_tail) or 'no message'}")
        said = failure.message if failure is not None else f"exited with {stats.exit_code}"
        return ValidatorVerdict(False, f"{self.label}: failed ({said}; 42 means valid, 43 invalid)")


def _last_line(text: str) -> str:
    lines = text.strip().splitlines()
    return " ".join(lines[-1].split())[:200] if lines else ""
