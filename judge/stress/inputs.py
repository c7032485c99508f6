"""Where `judge stress` gets inputs: the problem's `strategy.py`, else its `generator.py`.

`strategy.py` is the teacher's code and runs in the judge's process, as Hypothesis needs it to: it defines
`inputs()`, a Hypothesis strategy of input texts, and may define
  - `size(text)`, how the report names an input's size ("5 blanks");
  - `magnitude(text)`, the same as a number, to pick the smallest failing bundled test (default: its length);
  - `simplify(text, answer)`, smaller legal inputs to try instead of `text`, biggest step first, given a correct
    `answer` for it: how a failing bundled test is shrunk (without it, the test is reported as it is).
`generator.py` is problem code like the validator and runs confined: `python generator.py --seed N` prints
one input. Either way every input is checked by the problem's validator before a submission sees it.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable, Iterable
from pathlib import Path
from types import ModuleType
from typing import Any

from hypothesis.strategies import SearchStrategy
from msgspec import Struct

from judge.errors import SpecError
from judge.problems.model import Problem

STRATEGY_FILE = "strategy.py"
GENERATOR_FILE = "generator.py"

GENERATOR_CONTRACT = (
    "for judge stress, `python3 generator.py --seed N` must print one input and write no file (or write a strategy.py)"
)

Simplify = Callable[[str, str], Iterable[str]]
"""`simplify(text, answer)`: smaller inputs to try instead of `text`, biggest step first."""


class StrategyInputs(Struct, frozen=True):
    """Inputs from a Hypothesis strategy, which Hypothesis searches and shrinks."""

    path: Path
    strategy: SearchStrategy[str]
    size: Callable[[str], str]
    magnitude: Callable[[str], int]
    simplify: Simplify | None


class GeneratorInputs(Struct, frozen=True):
    """Inputs from `generator.py --seed N`, one per seed, not shrunk."""

    path: Path

    @staticmethod
    def size(text: str) -> str:
        return _characters(text)

    @staticmethod
    def magnitude(text: str) -> int:
        return len(text)

    @property
    def simplify(self) -> None:
        """A generator offers no way to make one of its inputs smaller."""
        return None


InputSource = StrategyInputs | GeneratorInputs


def input_source(problem: Problem) -> InputSource:
    """The problem's strategy.py if it has one, else its generator.py; SpecError naming the fix if neither."""
    strategy_path = problem.root / STRATEGY_FILE
    if strategy_path.is_file():
        return _load_strategy(strategy_path)
    generator_path = problem.root / GENERATOR_FILE
    if generator_path.is_file():
        return GeneratorInputs(generator_path)
    raise SpecError(
        f"{problem.root}: no {STRATEGY_FILE} or {GENERATOR_FILE}; write a {STRATEGY_FILE} defining "
        f"inputs() (a Hypothesis strategy of input texts) to stress-test this problem"
    )


def _load_strategy(path: Path) -> StrategyInputs:
    module = _import(path)
    make = getattr(module, "inputs", None)
    if not callable(make):
        raise SpecError(f"{path}: defines no inputs(); it must return a Hypothesis strategy of input texts")
    strategy = make()
    if not isinstance(strategy, SearchStrategy):
        raise SpecError(f"{path}: inputs() returned {type(strategy).__name__}; return a Hypothesis strategy")
    return StrategyInputs(
        path,
        strategy,
        _optional(module, "size") or _characters,
        _optional(module, "magnitude") or len,
        _optional(module, "simplify"),
    )


def _optional(module: ModuleType, name: str) -> Callable[..., Any] | None:
    """The module's function `name`, or None (a name bound to something not callable counts as absent)."""
    found = getattr(module, name, None)
    return found if callable(found) else None


def _import(path: Path) -> ModuleType:
    """Import the file under a name of its own, so two problems' strategy.py never share a module."""
    spec = importlib.util.spec_from_file_location(f"judge_stress_strategy_{abs(hash(path.resolve()))}", path)
    if spec is None or spec.loader is None:
        raise SpecError(f"{path}: cannot be imported as a Python module")
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except Exception as error:  # noqa: BLE001 -- the teacher's file: any failure is one line naming it
        raise SpecError(f"{path}: failed to import: {type(error).__name__}: {error}") from None
    return module


def _characters(text: str) -> str:
    return f"{len(text)} characters"
