"""Hints for the student: one line each, added to a report when a verdict has a well-known cause outside the code.

An explicit registry: each hint looks at the finished result and its language and returns its line, or "".
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable

from judge.judging.results import SubmissionResult
from judge.languages.catalog import LANGUAGES, Language
from judge.verdicts import Verdict

PYPY_KEY = "pypy3"
PYTHON_KEY = "python3"
JAVA_KEY = "java"
_JAVA_FILE_NAME = re.compile(r"class (\w+) is public, should be declared in a file named \1\.java")
_JAVA_NO_MAIN = "Could not find or load main class Main"


def _pypy_on_tle(result: SubmissionResult, language: Language) -> str:
    """BOJ offers PyPy for Python programs that are too slow; say so when this machine has it too."""
    if language.key != PYTHON_KEY or result.verdict is not Verdict.TLE or PYPY_KEY not in LANGUAGES:
        return ""
    pypy = LANGUAGES[PYPY_KEY]
    if not all(any(shutil.which(name) for name in tool.names) for tool in pypy.tools.values()):
        return ""
    return "hint: the same program often runs several times faster in PyPy: add --lang pypy3"


def _java_class_main(result: SubmissionResult, language: Language) -> str:
    """BOJ saves every Java submission as Main.java and runs `java Main`; javac's own message blames the file."""
    if language.key != JAVA_KEY:
        return ""
    named = _JAVA_FILE_NAME.search(result.compile_message) if result.verdict is Verdict.CE else None
    if named:
        return (
            f"hint: the judge compiles your file as Main.java and runs class Main, as BOJ does: "
            f"rename 'public class {named.group(1)}' to 'public class Main'"
        )
    if any(_JAVA_NO_MAIN in case.message for case in result.cases):
        return "hint: the judge runs class Main, as BOJ does: name the class with your main method Main"
    return ""


HINTS: tuple[Callable[[SubmissionResult, Language], str], ...] = (_pypy_on_tle, _java_class_main)


def hints_for(result: SubmissionResult, language: Language) -> tuple[str, ...]:
    """Every hint that applies, in registry order."""
    return tuple(line for hint in HINTS if (line := hint(result, language)))
