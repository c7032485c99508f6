"""One stress input judged: checked by the validator, answered by the reference, then judged like a test of
`judge run` (same engine, limits, sandbox and checker). Both programs are compiled once per stress run, and each
distinct input is judged once: Hypothesis often draws an input again while it shrinks."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from judge.errors import JudgeFailure, SpecError, ToolchainMissing
from judge.judging.submission import Judging, open_judging
from judge.languages.detection import detect_language
from judge.languages.toolchains import resolve_toolchain
from judge.options import RunOptions
from judge.problem_code import ProblemCodeBox, run_validator
from judge.problems.model import Problem, TestCase
from judge.runner.sandbox import scratch_folder
from judge.verdicts import Verdict
from judge.verify import reference_submissions


@dataclass(frozen=True)
class Trial:
    """A submission's verdict on one input, with the reference's answer and what the submission printed."""

    input: bytes
    verdict: Verdict
    message: str
    expected: bytes
    actual: bytes
    cpu_seconds: float


def find_reference(problem: Problem, submissions_dir: Path) -> Path:
    """The first accepted reference submission (natural order) whose toolchain this machine has."""
    accepted = [ref.path for ref in reference_submissions(problem, submissions_dir)
                if ref.expectation.accepted and not ref.skipped]
    for path in accepted:
        try:
            resolve_toolchain(detect_language(path))
        except ToolchainMissing:
            continue
        return path
    raise SpecError(f"{submissions_dir / problem.id / 'accepted'}: no accepted submission this machine can run; "
                    f"give one with --reference FILE")


@dataclass(frozen=True)
class Bench:
    """The submission and the reference, compiled and ready; `judge` judges one input (each input once)."""

    problem: Problem
    submission: Judging
    reference: Judging
    reference_path: Path
    box: ProblemCodeBox
    scratch: Path
    source_label: str
    seen: dict[bytes, Trial] = field(default_factory=dict)

    def judge(self, data: bytes) -> Trial:
        if data not in self.seen:
            self.seen[data] = self._judge_new(data)
        return self.seen[data]

    def _judge_new(self, data: bytes) -> Trial:
        test_input = self.scratch / "stress.in"
        test_input.write_bytes(data)
        validator = self.problem.spec.validator
        if validator:
            legal = run_validator(self.box, self.problem.root / validator, test_input, self.scratch)
            if not legal.legal:
                raise SpecError(f"{self.source_label}: produced an input that {validator} rejects "
                                f"({' '.join(legal.message.split())}); make it produce only legal inputs")
        ran, expected = self.reference.output(test_input)
        if ran.verdict is not Verdict.AC:
            raise JudgeFailure(f"the reference {self.reference_path} got {ran.verdict.short} on a generated input "
                               f"({ran.message}); choose another with --reference")
        answer = self.scratch / "stress.ans"
        answer.write_bytes(expected)
        case, actual = self.submission.case_and_output(TestCase("stress", test_input, answer))
        return Trial(data, case.verdict, case.message, expected, actual, case.cpu_seconds)


@contextmanager
def open_bench(problem: Problem, source: Path, reference: Path, options: RunOptions,
               source_label: str) -> Iterator[Bench]:
    """Compile the submission and the reference once, for the duration of the block."""
    with ExitStack() as stack:
        submission = stack.enter_context(open_judging(problem, source, options))
        judged_reference = stack.enter_context(open_judging(problem, reference, RunOptions(sandbox=options.sandbox)))
        if not judged_reference.compiled.ok:
            raise SpecError(f"{reference}: the reference does not compile; choose another with --reference")
        scratch = stack.enter_context(scratch_folder("judge-stress-"))
        yield Bench(problem, submission, judged_reference, reference, ProblemCodeBox.of(submission.sandbox),
                    scratch, source_label)
