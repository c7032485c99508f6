"""One stress input judged: checked by the validator, answered by the reference, then judged like a test of
`judge run` (same engine, limits, sandbox and checker). Both programs are compiled once per stress run, and each
distinct input is judged once: Hypothesis often draws an input again while it shrinks."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

from msgspec import Struct, field

from judge.errors import JudgeFailure, SpecError, ToolchainMissing
from judge.judging.open_judging import Judging, open_judging
from judge.languages.detection import detect_language
from judge.languages.toolchains import resolve_toolchain
from judge.options import RunOptions
from judge.problems.files import read_problem_file
from judge.problems.model import Problem, TestCase
from judge.problems.references import reference_submissions
from judge.programs.runs import ProblemPrograms
from judge.programs.validators import run_validator
from judge.runner.sandbox import scratch_folder
from judge.verdicts import Verdict


class Trial(Struct, frozen=True):
    """A submission's verdict on one input, with the reference's answer and what the submission printed."""

    input: bytes
    verdict: Verdict
    message: str
    expected: bytes
    actual: bytes
    cpu_seconds: float


def find_reference(problem: Problem, submissions_dir: Path) -> Path:
    """The first accepted reference submission (natural order) whose toolchain this machine has."""
    accepted = [
        ref.path
        for ref in reference_submissions(problem, submissions_dir)
        if ref.expectation.accepted and not ref.skipped
    ]
    for path in accepted:
        try:
            resolve_toolchain(detect_language(path))
        except ToolchainMissing:
            continue
        return path
    raise SpecError(
        f"{submissions_dir / problem.id / 'accepted'}: no accepted submission this machine can run; "
        f"give one with --reference FILE"
    )


class Bench(Struct, frozen=True):
    """The submission and the reference, compiled and ready; `judge` judges one input (each input once)."""

    problem: Problem
    submission: Judging
    reference: Judging
    reference_path: Path
    programs: ProblemPrograms
    scratch: Path
    source_label: str
    seen: dict[bytes, Trial] = field(default_factory=dict)
    illegal: dict[bytes, str] = field(default_factory=dict)  # input -> why the validator rejects it

    def judge(self, data: bytes) -> Trial:
        """The verdict on `data`; SpecError naming the inputs' source when the validator rejects it."""
        trial = self.judge_if_legal(data)
        if trial is None:
            raise SpecError(
                f"{self.source_label}: produced an input that {self.illegal[data]}; make it produce only legal inputs"
            )
        return trial

    def judge_if_legal(self, data: bytes) -> Trial | None:
        """The verdict on `data`, or None when the validator rejects it (a simplification that went too far)."""
        if data not in self.seen and data not in self.illegal:
            test_input = self.scratch / "stress.in"
            test_input.write_bytes(data)
            rejection = self._rejection(test_input)
            if rejection is None:
                self.seen[data] = self._judge_legal(data, test_input)
            else:
                self.illegal[data] = rejection
        return self.seen.get(data)

    def judge_test(self, test: TestCase) -> Trial:
        """A bundled test judged as `judge run` judges it, against its own answer."""
        data = read_problem_file(test.input_path, self.problem.root, None)
        case, actual = self.submission.case_and_output(test)
        trial = Trial(
            data,
            case.verdict,
            case.message,
            read_problem_file(test.answer_path, self.problem.root, None),
            actual,
            case.cpu_seconds,
        )
        self.seen.setdefault(data, trial)
        return trial

    def _rejection(self, test_input: Path) -> str | None:
        """Why the problem's validator rejects the input, or None when it is legal (or there is no validator)."""
        validator = self.problem.spec.validator
        if not validator:
            return None
        legal = run_validator(self.programs, self.problem.root / validator, test_input, self.scratch)
        return None if legal.legal else f"{validator} rejects ({' '.join(legal.message.split())})"

    def _judge_legal(self, data: bytes, test_input: Path) -> Trial:
        ran, expected = self.reference.output(test_input)
        if ran.verdict is not Verdict.AC:
            raise JudgeFailure(
                f"the reference {self.reference_path} got {ran.verdict.short} on a generated input "
                f"({ran.message}); choose another with --reference"
            )
        answer = self.scratch / "stress.ans"
        answer.write_bytes(expected)
        case, actual = self.submission.case_and_output(TestCase("stress", test_input, answer))
        return Trial(data, case.verdict, case.message, expected, actual, case.cpu_seconds)


@contextmanager
def open_bench(
    problem: Problem, source: Path, reference: Path, options: RunOptions, source_label: str
) -> Iterator[Bench]:
    """Compile the submission and the reference once, for the duration of the block."""
    with ExitStack() as stack:
        submission = stack.enter_context(open_judging(problem, source, options))
        # The reference runs as the submission does (sandbox, containment), without its language or fail-fast.
        reference_options = RunOptions(sandbox=options.sandbox, containment=options.containment)
        judged_reference = stack.enter_context(open_judging(problem, reference, reference_options))
        if not judged_reference.compiled.ok:
            raise SpecError(f"{reference}: the reference does not compile; choose another with --reference")
        scratch = stack.enter_context(scratch_folder("judge-stress-"))
        yield Bench(problem, submission, judged_reference, reference, submission.programs, scratch, source_label)
