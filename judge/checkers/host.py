"""Runs inside a box: imports a problem's checker.py and answers the judge's requests, one per test case.

Started as `python -I -S host.py JUDGE_PARENT CHECKER CASE_DIR`. Only the Python standard library and two
modules of the judge (`judge/checkers/base.py`, `judge/verdicts.py`) are importable here: the judge package's
own `__init__` files pull in pydantic and more, so the two packages are registered empty before the import.

Protocol, one JSON object per line on the original stdout (checker.py's own prints go to stderr):
    -> {"ready": true}  or  {"error": "cannot import: ..."}            once, after importing checker.py
    <- any line                                                         CASE_DIR/{input,output,answer} are ready
    -> {"verdict": "AC", "message": ""}  or  {"error": "..."}          per request
"""

from __future__ import annotations

import inspect
import json
import os
import sys
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any


def _register_judge_packages(parent: str) -> None:
    for name in ("judge", "judge.checkers"):
        package = types.ModuleType(name)
        package.__path__ = [os.path.join(parent, *name.split("."))]
        sys.modules[name] = package


def _load_check(path: str) -> Callable[..., Any]:
    """checker.py's `check`, imported as a module of its own (dataclasses and pickling look modules up by name)."""
    module = types.ModuleType("problem_checker")
    module.__file__ = path
    sys.modules[module.__name__] = module
    exec(compile(Path(path).read_bytes(), path, "exec"), module.__dict__)  # noqa: S102 -- the point of this box
    check = getattr(module, "check", None)
    if not callable(check):
        raise TypeError("must define check(*, input: bytes, output: bytes, answer: bytes) -> CheckResult")
    try:
        inspect.signature(check).bind(input=b"", output=b"", answer=b"")
    except (TypeError, ValueError):
        raise TypeError("check() must take the keyword arguments input, output and answer") from None
    return check


def _answer(
    check: Callable[..., Any], case_dir: Path, result_type: type, verdicts: frozenset[str]
) -> dict[str, object]:
    files = {name: (case_dir / name).read_bytes() for name in ("input", "output", "answer")}
    try:
        result = check(**files)
    except Exception as error:  # noqa: BLE001 -- the problem author's code: reported, the judge makes it JE
        return {"error": f"check() raised {type(error).__name__}: {error}"}
    verdict = getattr(getattr(result, "verdict", None), "short", None)
    if not isinstance(result, result_type) or verdict not in verdicts:
        return {"error": f"check() must return a CheckResult with AC, WA or PE, got {result!r:.80}"}
    return {"verdict": verdict, "message": str(getattr(result, "message", ""))}


def main() -> None:
    parent, checker_path, case_dir = sys.argv[1:4]
    channel = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)  # whatever checker.py prints must not be read as an answer
    sys.stdout = sys.stderr

    def send(message: dict[str, object]) -> None:
        channel.write(json.dumps(message) + "\n")
        channel.flush()

    _register_judge_packages(parent)
    try:
        from judge.checkers.base import CheckResult  # noqa: PLC0415 -- importable only once registered above

        check = _load_check(checker_path)
    except TypeError as error:  # importable, but not a checker
        send({"error": str(error)})
        return
    except (Exception, SystemExit) as error:  # noqa: BLE001 -- whatever checker.py does on import is reported
        send({"error": f"cannot import: {type(error).__name__}: {' '.join(str(error).split())}"})
        return
    send({"ready": True})
    for _ in sys.stdin:
        send(_answer(check, Path(case_dir), CheckResult, frozenset({"AC", "WA", "PE"})))


if __name__ == "__main__":
    main()
