"""A problem's `generator.py`, run confined seed after seed when `judge stress` has no strategy to draw from."""

from __future__ import annotations

from pathlib import Path

from judge.errors import SpecError
from judge.programs.runs import ProblemPrograms
from judge.runner.classify import classify


def run_generator(programs: ProblemPrograms, generator: Path, seed: int, scratch: Path) -> bytes:
    """Run `python generator.py --seed SEED` confined and return what it printed: one test input. A generator
    that fails is the teacher's to fix (SpecError, exit 2), with its last line of stderr."""
    folder = programs.script_folder(scratch, generator, "generator.py")
    empty = scratch / "generator.in"
    empty.touch()
    spec = programs.python_script(folder, "generator.py", "--seed", str(seed), stdin=empty, name="generator")
    stats = programs.run(spec, programs.limits)
    failure = classify(stats, programs.limits)
    if failure is not None:
        said = (stats.stderr_tail or failure.message).strip().splitlines() or [failure.message]
        raise SpecError(f"{generator} --seed {seed}: {failure.verdict.short}: {said[-1]}")
    return spec.stdout_path.read_bytes()
