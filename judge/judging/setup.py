"""The setup of one judging (a submission on a problem): what every run of its tests shares, fixed before the first.

`set_up` checks what the person gave (a problem with a time limit, a readable source, a language with a
toolchain), chooses the sandbox and containment the command asked for, writes the source into a scratch folder
removed afterwards and opens the problem's checker. `tests_started` then gives the setup the starter of its tests
(a launcher, or a warm box), the one control group they share and their output files, kept from test to test.
A test case needs nothing else (case.py).
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

import msgspec.structs
from msgspec import Struct, field

from judge.checkers import Checker, open_checker, open_test_checkers
from judge.errors import SpecError, SubmissionError, ToolchainMissing
from judge.judging.limit_policy import effective_limits, limits_note
from judge.judging.pinning import pinned
from judge.judging.provenance import host_of, provenance
from judge.judging.results import SubmissionHeader
from judge.languages.catalog import LANGUAGES, Language
from judge.languages.detection import detect_language
from judge.languages.sources import SourceFiles
from judge.languages.toolchains import Toolchain, resolve_toolchain
from judge.options import RunOptions
from judge.problems.model import SPEC_FILE, Problem, TestCase
from judge.programs.program import Program
from judge.programs.runs import ProblemPrograms
from judge.runner.containment.choice import choose_containment, describe
from judge.runner.containment.protocol import Containment
from judge.runner.execute import RunSpec, run_limits
from judge.runner.limits import Limits
from judge.runner.run_files import KeptOutputs
from judge.runner.sandbox import choose_sandbox, scratch_folder
from judge.runner.start import Spawner, Starter
from judge.runner.starter_choice import BoxPython, test_starter
from judge.suggest import nearby_path

LAUNCHER_LANGUAGE = "python3"  # the language whose toolchain runs a warm box's launcher without a system Python


class JudgingSetup(Struct, frozen=True):
    """Everything fixed for the runs of one submission, built by `set_up`: with a test, all a case needs."""

    problem: Problem
    program: Program
    """The submission, written (then compiled) in the setup's scratch folder."""
    limits: Limits
    """The problem's limits with the language's allowance (limit_policy.py)."""
    checker: Checker
    programs: ProblemPrograms
    """The problem's own programs (checker, validator), under the setup's sandbox and containment."""
    containment: Containment
    """The containment the command chose; inside `tests_started`, the run group the tests share."""
    starter: Starter
    """How a run starts: a fork of the judge; inside `tests_started`, the tests' launcher or warm box."""
    test_checkers: Mapping[str, Checker] = field(default_factory=dict)
    """The checkers of the tests that have their own (a package group's output validator flags), by name."""
    outputs: KeptOutputs | None = None
    """Inside `tests_started`, the output files of the test before, emptied for the next (runner/execute.py)."""
    test_run: RunSpec | None = None
    """Inside `tests_started`, how the program starts on a test, but for its input: the same for every test, so
    made once (its command and paths cost 0.05-0.1 ms to build)."""
    give_way_at: float | None = None
    """When (time.monotonic) this judging's programs start giving way to fresh ones (`RunOptions.give_way_after`,
    counted from the start of its setup); None: never."""

    def run_spec(self, input_path: Path) -> RunSpec:
        """How the program starts on the test whose input is `input_path`: its run command, confined."""
        if self.test_run is not None:
            return msgspec.structs.replace(self.test_run, stdin_path=input_path)
        in_box = self.starter.in_box
        argv = self.program.command(self.program.toolchain.language.run, self.limits.memory_mib, in_box=in_box)
        return self.program.run_spec(argv, input_path, "run", in_box=in_box)

    def checker_for(self, test: TestCase) -> Checker:
        """The checker that judges `test`'s output: its own, else the problem's."""
        return self.test_checkers.get(test.name, self.checker)


@contextmanager
def set_up(
    problem: Problem, source: Path | SourceFiles, options: RunOptions
) -> Iterator[tuple[JudgingSetup, SubmissionHeader]]:
    """The setup of `source` on `problem`, in a scratch folder removed after the block, and the header a view
    shows before the first test. `source` is a path, read here, or a submission's files read already (a batch
    task's, judged on a worker as they came). Bad input from the person is a `JudgeError`, raised before anything
    starts."""
    begun = time.monotonic()
    if problem.time_limit_pending:
        where = problem.time_rule.where_to_write if problem.time_rule else "limits.time_limit in problem.yaml"
        raise SpecError(
            f"{problem.root / SPEC_FILE}: the package gives no time limit; "
            f"`judge verify {problem.root}` derives one from its accepted submissions: write it in {where}"
        )
    files, given = _source_files(source, options.source_limit_bytes(problem.spec.source_limit), options.language)
    detected = detect_language(files.main_path(given), options.language)
    language = LANGUAGES[problem.language_meant(detected.key)] if options.language is None else detected
    toolchain = _toolchain(language, detected)
    sandbox = choose_sandbox(options.sandbox)
    containment = choose_containment(options.containment, options.require_containment)
    limits = effective_limits(problem.spec, language)
    host = host_of(options)
    with pinned(host, options.workers) as pinning, scratch_folder("judge-") as scratch:
        program = Program.write(
            toolchain,
            sandbox,
            scratch,
            scratch / "program",
            files.text,
            files.main_name,
            boj_main=problem.boj_java_main,
            beside=files.beside,
        )
        programs = ProblemPrograms.of(sandbox, containment)
        with (
            open_checker(problem, programs, scratch) as checker,
            open_test_checkers(problem, programs, scratch) as test_checkers,
        ):
            setup = JudgingSetup(
                problem,
                program,
                limits,
                checker,
                programs,
                containment,
                Spawner(sandbox.syscall_filter),
                test_checkers,
                give_way_at=None if options.give_way_after is None else begun + options.give_way_after,
            )
            header = SubmissionHeader(
                problem_id=problem.id,
                submission=str(given),
                language=language.display,
                limits=limits,
                isolation=sandbox.name,
                memory_enforcement=describe(containment),
                limits_note=limits_note(problem.spec, language),
                tests=tuple(test.name for test in problem.tests),
                provenance=provenance(
                    options, host, toolchain, sandbox.name, containment.name, describe(containment), pinning
                ),
            )
            yield setup, header


def _toolchain(language: Language, detected: Language) -> Toolchain:
    """The toolchain of `language`; when it is missing and the problem's format meant it for what the extension
    names (`detected`: a package's Python 3 is PyPy 3), the error says so, and that --lang chooses ours."""
    try:
        return resolve_toolchain(language)
    except ToolchainMissing as missing:
        if language is detected:
            raise
        raise ToolchainMissing(
            f"{missing}; a package's {detected.display} runs on {language.display}, as on Kattis "
            f"(--lang {detected.key} runs a submission on ours)"
        ) from None


def _source_files(source: Path | SourceFiles, limit_bytes: int, language: str | None) -> tuple[SourceFiles, Path]:
    """The submission's files, and the path a message names it by: read from the path `source` (never a link, a
    FIFO, ...; a folder is a submission of several files), or `source` itself if it still fits under the cap."""
    if isinstance(source, SourceFiles):
        return source.within(limit_bytes), Path(source.name)
    if not os.path.lexists(source):
        raise SubmissionError(
            f"{source}: no such file; give the path of a submission's source file{nearby_path(source)}"
        )
    return SourceFiles.read(source, limit_bytes, language), source


@contextmanager
def tests_started(setup: JudgingSetup) -> Iterator[JudgingSetup]:
    """`setup` with the starter of the submission's tests (a launcher, or a warm box) and their containment (one
    control group for them all, where it can be), stopped after the block.
    An interactive problem keeps a fork of the judge per run: its submission and validator run at once, each in
    a box of its own, joined by the judge's pipes."""
    if setup.problem.interactive:
        yield setup
        return
    program, limits = setup.program, setup.limits
    guards = setup.containment.guards(limits.max_processes)
    rlimits = run_limits(limits, guards, program.toolchain.language.limit_address_space)
    with (
        setup.containment.for_runs(limits.memory_mib, limits.max_processes) as containment,
        test_starter(program.sandbox, containment, program.mounts, rlimits, _launcher_python) as starter,
        KeptOutputs() as outputs,
    ):
        started = msgspec.structs.replace(setup, starter=starter, containment=containment, outputs=outputs)
        yield msgspec.structs.replace(started, test_run=started.run_spec(Path(os.devnull)))


def _launcher_python() -> BoxPython | None:
    """The Python 3 toolchain, to run a warm box's launcher on a machine without a system Python; None without
    one (each test then gets a box of its own)."""
    try:
        python = resolve_toolchain(LANGUAGES[LAUNCHER_LANGUAGE])
    except ToolchainMissing:
        return None
    return BoxPython(python.paths["python"], python.view)
