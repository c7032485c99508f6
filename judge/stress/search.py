"""The search of `judge stress`. First the problem's own tests, smallest first: the first that fails is simplified
(from_tests.py). When every test passes, with a strategy, Hypothesis (as a library) draws inputs, and once one fails it
shrinks it while the verdict stays the same: the first failing verdict is the target, and an input with another
verdict counts as passing while shrinking. Without one, `generator.py` is run seed after seed, with no shrinking.

A run is repeatable: the seed picks every draw (Hypothesis's `seed`, or the generator's seeds), and each distinct
input is judged once, so a replay sees the same verdict. Hypothesis ignores its example database in a seeded run,
so `--database` runs unseeded instead: there the saved examples are what repeats. The budget stops the search:
past it, inputs not judged yet count as passing, so Hypothesis winds down (a shrink in progress keeps the smallest
failure found so far).
No example database is written unless one is asked for, and Hypothesis's other files (its cache of the
constants in the source) go to the run's temporary folder, never to `.hypothesis/` in the user's folder.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import hypothesis
from hypothesis import HealthCheck, Phase, Verbosity, given, settings
from hypothesis.configuration import set_hypothesis_home_dir
from hypothesis.database import DirectoryBasedExampleDatabase
from msgspec import Struct

from judge.errors import SpecError
from judge.options import RunOptions
from judge.problems.files import read_problem_file
from judge.problems.model import Problem
from judge.programs.generators import run_generator
from judge.stress.budget import Clock, OnTrial
from judge.stress.from_tests import failing_test_shrunk
from judge.stress.inputs import GENERATOR_CONTRACT, GeneratorInputs, InputSource, StrategyInputs, input_source
from judge.stress.trials import Bench, Trial, find_reference, open_bench
from judge.verdicts import Verdict


class StressRequest(Struct, frozen=True):
    """What to stress, and how hard."""

    problem: Problem
    source: Path
    reference: Path | None
    submissions_dir: Path
    budget_seconds: float
    max_examples: int
    seed: int | None
    options: RunOptions
    database: Path | None = None
    setup: SearchSetup | None = None
    """The problem's inputs and reference when the caller resolved them already (once per problem)."""
    generated_only: bool = False
    """Search generated inputs only: the bundled tests are not judged, and an input equal to one of them (byte for
    byte) counts as passing, so it is never reported (`judge serve` shows the input to a student)."""
    stop: Callable[[], bool] | None = None
    """Asked between trials: True ends the search as if its budget were spent."""


class SearchSetup(Struct, frozen=True):
    """What searching a problem needs whatever the submission: where its inputs come from and an accepted
    reference. `judge grade --stress` resolves it once per problem, so a problem that cannot be searched (no
    strategy.py or generator.py, no reference) is told once and its strategy.py is imported once."""

    source: InputSource
    reference: Path


def search_setup(problem: Problem, reference: Path | None, submissions_dir: Path) -> SearchSetup:
    """The problem's input source and `reference` (else its first runnable accepted one); SpecError if either
    is missing, naming the fix."""
    return SearchSetup(input_source(problem), reference or find_reference(problem, submissions_dir))


class StressReport(Struct, frozen=True):
    """The outcome: the smallest failing input found (None if every input was accepted), and how it was found:
    `from_test` names the bundled test it came from ("" when the random search found it), `simplified` whether it
    was made smaller; the expected output is the test's answer when it was not, else the reference's."""

    problem_id: str
    submission: str
    reference: str
    inputs_from: str
    shrinks: bool
    simplifies: bool
    seed: int | None
    judged: int
    seconds: float
    budget_spent: bool
    failure: Trial | None
    size: str
    from_test: str = ""
    from_test_size: str = ""
    simplified: bool = False
    compile_message: str = ""


def stress(request: StressRequest, on_trial: OnTrial) -> StressReport:
    """Search for an input the submission fails, then shrink it (with a strategy)."""
    setup = request.setup or search_setup(request.problem, request.reference, request.submissions_dir)
    source, reference = setup.source, setup.reference
    with open_bench(request.problem, request.source, reference, request.options, str(source.path)) as bench:
        report: dict[str, Any] = {
            "problem_id": request.problem.id,
            "submission": str(request.source),
            "reference": str(reference),
            "inputs_from": str(source.path),
            "shrinks": isinstance(source, StrategyInputs),
            "simplifies": source.simplify is not None,
            "seed": request.seed,
        }
        if not bench.submission.compiled.ok:
            failed = Trial(b"", Verdict.CE, "", b"", b"", 0.0)
            return StressReport(
                **report,
                judged=0,
                seconds=0.0,
                budget_spent=False,
                failure=failed,
                size="",
                compile_message=bench.submission.compiled.message,
            )
        clock = Clock.started(request.budget_seconds, request.stop)
        excluded = bundled_inputs(request.problem) if request.generated_only else frozenset()
        from_test = (
            None if request.generated_only else failing_test_shrunk(request.problem, source, bench, clock, on_trial)
        )
        found = from_test.trial if from_test else _search(source, bench, request, clock, excluded, on_trial)
        size = source.size(found.input.decode("utf-8", errors="replace")) if found else ""
        return StressReport(
            **report,
            judged=len(bench.seen),
            seconds=round(clock.elapsed(), 2),
            budget_spent=clock.spent(),
            failure=found,
            size=size,
            from_test=from_test.test.name if from_test else "",
            from_test_size=from_test.test_size if from_test else "",
            simplified=from_test.simplified if from_test else False,
        )


def bundled_inputs(problem: Problem) -> frozenset[bytes]:
    """Every test input of the problem, as bytes (samples and hidden tests alike)."""
    return frozenset(read_problem_file(test.input_path, problem.root, None) for test in problem.tests)


def _search(
    source: InputSource,
    bench: Bench,
    request: StressRequest,
    clock: Clock,
    excluded: frozenset[bytes],
    on_trial: OnTrial,
) -> Trial | None:
    if isinstance(source, StrategyInputs):
        return _hypothesis_search(source, bench, request, clock, excluded, on_trial)
    return _generator_search(source, bench, request, clock, excluded, on_trial)


class _Failing(Exception):
    """Raised inside the Hypothesis test for an input with the target verdict; carries its trial."""

    def __init__(self, trial: Trial) -> None:
        super().__init__(trial.verdict.short)
        self.trial = trial


def _hypothesis_search(
    source: StrategyInputs,
    bench: Bench,
    request: StressRequest,
    clock: Clock,
    excluded: frozenset[bytes],
    on_trial: OnTrial,
) -> Trial | None:
    target: list[Verdict] = []  # the first failing verdict, which shrinking keeps
    stopped: list[BaseException] = []  # a judge failure or a bad strategy: ends the search, raised after it

    def probe(text: str) -> None:
        data = text.encode("utf-8") if isinstance(text, str) else text
        if stopped or data in excluded or (data not in bench.seen and clock.spent()):
            return
        try:
            trial = bench.judge(data)
        except Exception as error:  # noqa: BLE001 -- kept from Hypothesis, which would shrink it; raised after
            stopped.append(error)
            return
        on_trial(len(bench.seen), clock.elapsed(), source.size(data.decode("utf-8", errors="replace")), trial.verdict)
        if trial.verdict is Verdict.AC:
            return
        target[:] = target or [trial.verdict]
        if trial.verdict is target[0]:
            raise _Failing(trial)

    test = given(source.strategy)(probe)
    test = settings(
        max_examples=request.max_examples,
        deadline=None,
        derandomize=False,
        report_multiple_bugs=False,
        database=DirectoryBasedExampleDatabase(str(request.database)) if request.database else None,
        verbosity=Verbosity.quiet,
        phases=(Phase.reuse, Phase.generate, Phase.shrink) if request.database else (Phase.generate, Phase.shrink),
        suppress_health_check=(HealthCheck.too_slow, HealthCheck.data_too_large),
    )(test)
    if request.seed is not None:
        test = hypothesis.seed(request.seed)(test)
    set_hypothesis_home_dir(bench.scratch / "hypothesis")  # Hypothesis keeps this one setting process-wide
    try:
        test()
    except _Failing as failing:
        return failing.trial
    except Exception as error:  # noqa: BLE001 -- the judge's own errors are in `stopped`: this is the strategy's
        if not stopped:
            raise SpecError(
                f"{source.path}: the strategy failed: {type(error).__name__}: {' '.join(str(error).split())[:300]}"
            ) from None
    finally:
        set_hypothesis_home_dir(None)
        if stopped:
            raise stopped[0]
    return None


def _generator_search(
    source: GeneratorInputs,
    bench: Bench,
    request: StressRequest,
    clock: Clock,
    excluded: frozenset[bytes],
    on_trial: OnTrial,
) -> Trial | None:
    first = request.seed or 0
    for seed in range(first, first + request.max_examples):
        if clock.spent():
            return None
        try:
            data = run_generator(bench.programs, source.path, seed, bench.scratch)
        except SpecError as error:
            raise SpecError(f"{error}; {GENERATOR_CONTRACT}") from None
        if not data.strip():
            raise SpecError(f"{source.path} --seed {seed}: printed nothing; {GENERATOR_CONTRACT}")
        if data in excluded:
            continue
        trial = bench.judge(data)
        on_trial(len(bench.seen), clock.elapsed(), f"{len(data)} bytes", trial.verdict)
        if trial.verdict is not Verdict.AC:
            return trial
    return None
