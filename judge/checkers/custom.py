"""`checker.py`: a problem's own checker, for answers the built-ins cannot judge (several right answers, 2580).

The file must define a function with the built-ins' contract:

    from judge.checkers.base import CheckResult, accepted, wrong

    def check(*, input: bytes, output: bytes, answer: bytes) -> CheckResult:
        return accepted() if output.split() == answer.split() else wrong("the board is not solved")

It is imported from its path when the problem's checker is built, so a broken file is a SpecError before any
submission runs. A crash or a bad return value while judging is the problem author's fault, not the student's:
it becomes JudgeFailure (verdict JE) naming the file.
"""

from __future__ import annotations

import hashlib
import importlib.util
import inspect
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

from judge.checkers.base import CheckResult
from judge.errors import JudgeFailure, SpecError
from judge.verdicts import Verdict

_CHECKER_VERDICTS = frozenset({Verdict.AC, Verdict.WA, Verdict.PE})


class CustomChecker:
    """Calls `check()` from a problem's checker.py and insists on a CheckResult with AC, WA or PE."""

    def __init__(self, *, path: Path) -> None:
        self.path = path
        self._check = _load_check(path)

    def __getstate__(self) -> dict[str, Path]:
        # Process pools and Dask workers get the path and import the file themselves; a function from a module
        # that exists only in this process's sys.modules cannot be pickled by reference.
        return {"path": self.path}

    def __setstate__(self, state: dict[str, Path]) -> None:
        self.path = state["path"]
        self._check = _load_check(self.path)

    def __call__(self, *, input: bytes, output: bytes, answer: bytes) -> CheckResult:
        try:
            result = self._check(input=input, output=output, answer=answer)
        except Exception as error:
            raise JudgeFailure(f"{self.path}: check() raised {type(error).__name__}: {error}") from error
        if not isinstance(result, CheckResult) or result.verdict not in _CHECKER_VERDICTS:
            raise JudgeFailure(f"{self.path}: check() must return a CheckResult with AC, WA or PE, got {result!r:.80}")
        return result


def _load_check(path: Path) -> Callable[..., object]:
    module = _import_file(path)
    check = getattr(module, "check", None)
    if not callable(check):
        raise SpecError(f"{path}: must define check(*, input: bytes, output: bytes, answer: bytes) -> CheckResult")
    try:
        inspect.signature(check).bind(input=b"", output=b"", answer=b"")
    except (TypeError, ValueError):
        raise SpecError(f"{path}: check() must take the keyword arguments input, output and answer") from None
    return check


def _import_file(path: Path) -> ModuleType:
    """Import `path` under a name unique to it, so two problems' checker.py never share a module."""
    digest = hashlib.sha256(str(path.resolve()).encode()).hexdigest()[:16]
    name = f"judge_problem_checker_{digest}"
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise SpecError(f"{path}: cannot be imported as a Python module")
    module = importlib.util.module_from_spec(spec)
    # Registered before running, as importlib's recipe does: dataclasses and pickling look the module up by name.
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except (Exception, SystemExit) as error:
        del sys.modules[name]
        reason = " ".join(str(error).split())  # the CLI prints a SpecError as one line
        raise SpecError(f"{path}: cannot import: {type(error).__name__}: {reason}") from None
    return module
