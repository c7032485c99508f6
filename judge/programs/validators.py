"""Input validators: a problem's `validator.py` (ours: exit 0 means legal) and a package's `input_validators/`
(any language judge runs, compiled once: `validator [flags] < input`, exit 42 valid, 43 invalid with the reason on
stderr, anything else the validator failing). Both run confined through `ProblemPrograms`; a validator that
crashes, hangs or exceeds its limits fails the data check, it is never trusted."""

from __future__ import annotations

from pathlib import Path

from msgspec import Struct

from judge.programs.program import Program
from judge.programs.runs import ProblemPrograms
from judge.runner.classify import classify

VALID, INVALID = 42, 43


class ValidatorVerdict(Struct, frozen=True):
    """What a validator said of one input: legal or not, and its message (stdout when legal, else stderr)."""

    legal: bool
    message: str


def run_validator(programs: ProblemPrograms, validator: Path, test_input: Path, scratch: Path) -> ValidatorVerdict:
    """Run `python validator.py < test_input` confined; exit 0 means legal. A validator that crashes, hangs or
    exceeds its limits is reported as such (the data check fails), never trusted."""
    folder = programs.script_folder(scratch, validator, "validator.py")
    spec = programs.python_script(folder, "validator.py", stdin=test_input, name="validator")
    stats = programs.run(spec, programs.limits)
    failure = classify(stats, programs.limits)
    stdout = spec.stdout_path.read_bytes()[-2000:].decode(errors="replace").strip()
    if failure is None:
        return ValidatorVerdict(True, stdout)
    if stats.tripped is None and stats.signal is None:  # it said "illegal" (or crashed) and why, on stderr
        return ValidatorVerdict(False, stats.stderr_tail or stdout)
    return ValidatorVerdict(False, f"{validator}: {failure.verdict.short}: {failure.message}")


class InputValidator(Struct, frozen=True):
    """One compiled input validator of a package (at `path`, whose name a group's arguments may be given for),
    with the label reports use for it."""

    label: str
    path: Path
    program: Program
    programs: ProblemPrograms

    @classmethod
    def build(cls, path: Path, label: str, programs: ProblemPrograms, scratch: Path, index: int) -> InputValidator:
        return cls(label, path, programs.build(path, label, scratch, scratch / f"input-validator-{index}"), programs)

    def __call__(self, test_input: Path, flags: tuple[str, ...] = ()) -> ValidatorVerdict:
        program, limits = self.program, self.programs.limits
        language = program.toolchain.language
        argv = [*program.command(language.run, limits.memory_mib), *flags]
        spec = program.run_spec(argv, test_input, "input-validator")
        stats = self.programs.run(spec, limits)
        failure = classify(stats, limits, language.memory_errors)
        if stats.tripped is None and stats.exit_code == VALID:
            return ValidatorVerdict(True, "")
        if stats.tripped is None and stats.exit_code == INVALID:
            return ValidatorVerdict(False, f"{self.label}: invalid: {_last_line(stats.stderr_tail) or 'no message'}")
        said = failure.message if failure is not None else f"exited with {stats.exit_code}"
        return ValidatorVerdict(False, f"{self.label}: failed ({said}; 42 means valid, 43 invalid)")


def _last_line(text: str) -> str:
    lines = text.strip().splitlines()
    return " ".join(lines[-1].split())[:200] if lines else ""
