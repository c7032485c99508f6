"""A problem's own code (checker.py, validator.py) runs confined, never in the judge's process.

A problem folder is not trusted: a teacher may have downloaded it. So its Python files run in a box of their own
(the same sandbox as submissions, as the box's unprivileged user), under their own limits, seeing a private copy
of the file they need and nothing of the problem folder or the judge but the two modules a checker imports.
A misbehaving checker or validator is the judge's failure (JE, or a failed data check), never a student's verdict.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

from judge.errors import JudgeFailure
from judge.languages.catalog import LANGUAGES
from judge.languages.toolchains import Toolchain, resolve_toolchain
from judge.problems.files import read_problem_file
from judge.runner import execute
from judge.runner.classify import classify
from judge.runner.execute import RunSpec
from judge.runner.limits import Limits
from judge.runner.sandbox import Mounts, Sandbox, program_env

# Per call for a checker, per test input for a validator. Generous: a checker may be slow Python, but a
# checker that needs more than this is broken, and must not hold a class's grading hostage.
PROBLEM_CODE_LIMITS = Limits(time_seconds=30, wall_seconds=60, memory_mib=1024, output_mib=16, max_processes=16)
JUDGE_PACKAGE = Path(__file__).resolve().parent
# The judge's modules a checker.py may import (`from judge.checkers.base import CheckResult, accepted, wrong`).
SHARED_MODULES = ("checkers/base.py", "verdicts.py")


@dataclass(frozen=True)
class ProblemCodeBox:
    """How problem code starts: the sandbox, and a Python interpreter it may see (standard library only)."""

    sandbox: Sandbox
    python: Toolchain

    @classmethod
    def of(cls, sandbox: Sandbox) -> ProblemCodeBox:
        return cls(sandbox, resolve_toolchain(LANGUAGES["python3"]))

    def folder(self, scratch: Path, script: Path, name: str) -> Path:
        """A private program folder under `scratch` holding a copy of `script` as `name` and the shared modules.
        `script` lies in its problem folder's top level (checker.py, validator.py, generator.py), so it is read
        as a file of that folder: never through a link leading out of it, never a FIFO or a device."""
        folder = scratch / f"problem-code-{script.stem}"
        (folder / "judge" / "checkers").mkdir(parents=True, exist_ok=True)
        for module in SHARED_MODULES:
            shutil.copyfile(JUDGE_PACKAGE / module, folder / "judge" / module)
        (folder / name).write_bytes(read_problem_file(script, script.parent, None))
        return folder

    def command(self, folder: Path, script: str, *arguments: str) -> tuple[list[str], Mounts]:
        """The confined command `python -I -S <folder>/<script> arguments...` (paths as the box sees them)."""
        mounts = Mounts(program_dir=folder, toolchain=self.python.view)
        inside = self.sandbox.program_path(folder, mounts)
        argv = [self.python.paths["python"], "-I", "-S", f"{inside}/{script}",
                *(argument.replace("{program}", inside) for argument in arguments)]
        return self.sandbox.wrap(argv, mounts), mounts

    def run_spec(self, argv: list[str], folder: Path, stdin: Path, scratch: Path) -> RunSpec:
        return RunSpec(
            argv=argv, cwd=folder, stdin_path=stdin, stdout_path=scratch / "problem-code.out",
            stderr_path=scratch / "problem-code.err", env=program_env(folder),
            limit_address_space=True, signals_as_exit_codes=self.sandbox.signals_as_exit_codes,
            syscall_filter=self.sandbox.syscall_filter,
        )


@dataclass(frozen=True)
class ValidatorVerdict:
    """What a validator said of one input: legal or not, and its message (stdout when legal, else stderr)."""

    legal: bool
    message: str


def run_validator(box: ProblemCodeBox, validator: Path, test_input: Path, scratch: Path) -> ValidatorVerdict:
    """Run `python validator.py < test_input` confined; exit 0 means legal. A validator that crashes, hangs or
    exceeds its limits is reported as such (the data check fails), never trusted."""
    folder = box.folder(scratch, validator, "validator.py")
    argv, _ = box.command(folder, "validator.py")
    spec = box.run_spec(argv, folder, test_input, scratch)
    stats = execute.run(spec, PROBLEM_CODE_LIMITS)
    failure = classify(stats, PROBLEM_CODE_LIMITS)
    stdout = spec.stdout_path.read_bytes()[-2000:].decode(errors="replace").strip()
    if failure is None:
        return ValidatorVerdict(True, stdout)
    if stats.tripped is None and stats.signal is None:  # it said "illegal" (or crashed) and why, on stderr
        return ValidatorVerdict(False, stats.stderr_tail or stdout)
    return ValidatorVerdict(False, f"{validator}: {failure.verdict.short}: {failure.message}")


def run_generator(box: ProblemCodeBox, generator: Path, seed: int, scratch: Path) -> bytes:
    """Run `python generator.py --seed SEED` confined and return what it printed: one test input. A generator
    that fails is the judge's failure (JE), with its last line of stderr."""
    folder = box.folder(scratch, generator, "generator.py")
    argv, _ = box.command(folder, "generator.py", "--seed", str(seed))
    empty = scratch / "generator.in"
    empty.touch()
    spec = box.run_spec(argv, folder, empty, scratch)
    stats = execute.run(spec, PROBLEM_CODE_LIMITS)
    failure = classify(stats, PROBLEM_CODE_LIMITS)
    if failure is not None:
        said = (stats.stderr_tail or failure.message).strip().splitlines() or [failure.message]
        raise JudgeFailure(f"{generator} --seed {seed}: {failure.verdict.short}: {said[-1]}")
    return spec.stdout_path.read_bytes()
