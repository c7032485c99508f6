"""A problem's own checker program in any language judge runs: a problem package's output validator, or a
Codeforces Polygon testlib checker.

    checker: {program: validate.cpp}     # the package protocol: validator input answer feedback_dir [flags] < output
    checker: {testlib: checker.cpp}      # the testlib protocol: checker input output answer

Package protocol: exit 42 is AC, 43 is WA, anything else the judge's failure (JE); `teammessage.txt` (else
`judgemessage.txt`) in the feedback folder is the message, and on AC a `score.txt` (one non-negative number) is
the test's score on a scored problem, in place of accept_score (checkers/points.py); on a multi-pass problem the
feedback folder is kept from one pass to the next and a `nextpass.in` there is the next pass's input
(`take_next_pass`; judging/case.py runs the passes). Testlib protocol: exit 0 AC,
1 WA, 2 PE, 3 the checker's own failure (JE), 7 partial points: testlib's `quitp` prints `points <value>
<message>` on stderr; the test stays WA (partial is not AC, as in Polygon) and its score is the value, absolute as
testlib means it, in place of reject_score; its stderr is the message. The source is compiled once per machine
(programs/build.py keeps it) with the files beside it (a `testlib.h`, a `validate.h`), and runs through
`ProblemPrograms` (programs/runs.py) in the sandbox and containment the command chose, under its own limits
(PROBLEM_CODE_LIMITS, or the package's validation limits). A checker that crashes, hangs or exits with another
code is JE, never the student's verdict.
"""

from __future__ import annotations

import os
import shutil
import stat
from pathlib import Path

import msgspec.structs

from judge.checkers.base import CheckResult
from judge.checkers.points import read_score_file, split_points
from judge.errors import JudgeFailure
from judge.programs.program import Program
from judge.programs.runs import ProblemPrograms
from judge.runner.classify import classify
from judge.runner.execute import RunSpec, RunStats
from judge.runner.limits import Limits
from judge.verdicts import Verdict

PACKAGE, TESTLIB = "package", "testlib"
MESSAGE_CHARS = 500
FEEDBACK_FILES = ("teammessage.txt", "judgemessage.txt")
SCORE_FILE = "score.txt"
NEXT_PASS_FILE = "nextpass.in"
PACKAGE_EXITS = {42: Verdict.AC, 43: Verdict.WA}
TESTLIB_EXITS = {0: Verdict.AC, 1: Verdict.WA, 2: Verdict.PE, 7: Verdict.WA}
TESTLIB_FAIL, TESTLIB_POINTS = 3, 7


def program_limits(options: dict[str, float | int | str | bool], base: Limits) -> Limits:
    """The limits of one checker run: `base` (problem code's), or a package's `validation_time` (s) and
    `validation_memory` (MiB), carried in the checker's options as `time` and `memory`."""
    time_seconds = float(options.get("time", base.time_seconds))
    return msgspec.structs.replace(
        base,
        time_seconds=time_seconds,
        wall_seconds=2 * time_seconds + 1,
        memory_mib=int(options.get("memory", base.memory_mib)),
    )


class ProgramChecker:
    """A compiled checker program, ready for one submission's tests. Built with `build`; nothing to close (each
    test is one confined run that leaves nothing behind)."""

    def __init__(
        self,
        *,
        program: Program,
        programs: ProblemPrograms,
        label: str,
        protocol: str,
        flags: tuple[str, ...],
        limits: Limits,
    ) -> None:
        self._program = program
        self._programs = programs
        self._label = label
        self._protocol = protocol
        self._flags = flags
        self._limits = limits
        self._case = program.mounts.program_dir / "case"
        self._case.mkdir(exist_ok=True)

    @classmethod
    def build(
        cls,
        *,
        path: Path,
        label: str,
        protocol: str,
        flags: tuple[str, ...],
        programs: ProblemPrograms,
        scratch: Path,
        limits: Limits,
    ) -> ProgramChecker:
        """Compile the checker at `path` (a file, or a package's validator folder) with the files beside it."""
        program = programs.build(path, label, scratch, scratch / "checker-program")
        return cls(program=program, programs=programs, label=label, protocol=protocol, flags=flags, limits=limits)

    @property
    def limits(self) -> Limits:
        return self._limits

    def __call__(self, *, input: bytes, output: bytes, answer: bytes, next_pass: bool = False) -> CheckResult:
        """The verdict on one output; `next_pass`: a later pass of the same test, whose feedback folder the
        validator finds as the pass before left it."""
        spec = self.prepare(input=input, output=output, answer=answer, next_pass=next_pass)
        return self.conclude(self.run(spec, self._limits))

    def run(self, spec: RunSpec, limits: Limits) -> RunStats:
        """One run of `prepare`'s spec (or an interactive problem's version of it), as the command contains
        problem programs."""
        return self._programs.run(spec, limits)

    def prepare(self, *, input: bytes, output: bytes, answer: bytes, next_pass: bool = False) -> RunSpec:
        """The run of this checker on one test (its case folder written): the output arrives on stdin. An
        interactive problem replaces that stdin (and the stdout) with pipes to the submission. A `next_pass`
        keeps the feedback folder, as the format promises a multi-pass validator."""
        program, case = self._program, self._case
        if next_pass:
            self._feedback_folder()  # still a folder of its own, not a link the validator put in its place
            for name in ("input", "answer", "output"):
                (case / name).unlink(missing_ok=True)
        else:
            shutil.rmtree(case)
            (case / "feedback").mkdir(parents=True)
        for name, data in (("input", input), ("answer", answer), ("output", output)):
            (case / name).write_bytes(data)
        team_output = program.scratch / "checker-team.out"
        team_output.unlink(missing_ok=True)  # a new file, not an overwritten one: see runner/run_files._new_file
        team_output.write_bytes(output)
        inside = program.sandbox.program_path(case, program.mounts)
        if self._protocol == PACKAGE:
            arguments = [f"{inside}/input", f"{inside}/answer", f"{inside}/feedback/", *self._flags]
        else:
            arguments = [f"{inside}/input", f"{inside}/output", f"{inside}/answer"]
        mounts = msgspec.structs.replace(program.mounts, writable_program_dir=True)  # the feedback folder
        program.sandbox.grant_write(case)
        argv = program.command(program.toolchain.language.run, self._limits.memory_mib, mounts)
        return program.run_spec([*argv, *arguments], team_output, "checker", mounts)

    def conclude(self, stats: RunStats) -> CheckResult:
        """The verdict of a finished run of `prepare`'s spec; JudgeFailure when the checker itself failed."""
        failure = classify(stats, self._limits, self._program.toolchain.language.memory_errors)
        if failure is not None and failure.verdict is not Verdict.RE:
            raise JudgeFailure(f"{self._label}: {failure.verdict.short}: {failure.message}")
        code = stats.exit_code
        if self._protocol == PACKAGE:
            return self._package_result(code, stats.stderr_tail)
        return self._testlib_result(code, stats.stderr_tail)

    def take_next_pass(self, target: Path) -> bool:
        """Move the `nextpass.in` the last run wrote (a multi-pass validator asking for another pass) to `target`,
        out of the feedback folder, as the format removes it before the next pass; False when there is none."""
        path = self._feedback_folder() / NEXT_PASS_FILE
        try:
            descriptor = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
        except FileNotFoundError:
            return False
        except OSError as error:
            raise JudgeFailure(f"{self._label}: cannot read its {NEXT_PASS_FILE} ({error.strerror})") from None
        with open(descriptor, "rb") as source:
            if not stat.S_ISREG(os.fstat(source.fileno()).st_mode):
                raise JudgeFailure(f"{self._label}: its {NEXT_PASS_FILE} is not a regular file")
            target.unlink(missing_ok=True)  # a new file, not an overwritten one: see runner/run_files._new_file
            with open(target, "xb") as copy:
                shutil.copyfileobj(source, copy)
        path.unlink()
        return True

    def _feedback_folder(self) -> Path:
        folder = self._case / "feedback"
        if not stat.S_ISDIR(os.lstat(folder).st_mode):
            raise JudgeFailure(f"{self._label}: replaced its feedback folder with something else")
        return folder

    def _package_result(self, code: int | None, stderr: str) -> CheckResult:
        verdict = PACKAGE_EXITS.get(code if code is not None else -1)
        message = self._feedback()
        if verdict is None:
            said = message or _one_line(stderr) or "no message"
            raise JudgeFailure(f"{self._label}: exited with {code} (42 accepts, 43 rejects): {said}")
        score = read_score_file(self._case / "feedback" / SCORE_FILE, self._label) if verdict is Verdict.AC else None
        return CheckResult(verdict, message, score)

    def _testlib_result(self, code: int | None, stderr: str) -> CheckResult:
        message = _one_line(stderr)
        if code == TESTLIB_FAIL:
            raise JudgeFailure(f"{self._label}: the checker failed: {message or 'no message'}")
        verdict = TESTLIB_EXITS.get(code if code is not None else -1)
        if verdict is None:
            raise JudgeFailure(
                f"{self._label}: exited with {code}, which the testlib protocol does not define: "
                f"{message or 'no message'}"
            )
        if code == TESTLIB_POINTS:
            points, said = split_points(message, self._label)
            shown = f"partially correct ({points:g} points)"
            return CheckResult(verdict, f"{shown}: {said}" if said else shown, points)
        return CheckResult(verdict, "" if verdict is Verdict.AC else message)

    def _feedback(self) -> str:
        for name in FEEDBACK_FILES:
            path = self._case / "feedback" / name
            if path.is_file() and not path.is_symlink():
                with open(path, "rb") as handle:
                    text = _one_line(handle.read(4 * MESSAGE_CHARS).decode("utf-8", errors="replace"))
                if text:
                    return text
        return ""


def _one_line(text: str) -> str:
    shown = " ".join(text.split())
    return shown if len(shown) <= MESSAGE_CHARS else shown[: MESSAGE_CHARS - 1] + "…"
