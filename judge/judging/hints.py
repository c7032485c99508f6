"""Hints for the student: one line each, added to a report when a verdict has a well-known cause outside the code.

An explicit registry: each hint looks at the finished result and its language and returns its line, or "". A hint
is read in a terminal (`judge run`) and in a browser (`judge serve`) alike, so it names no command-line flag: a
language by the name both show (PyPy 3) and the key a command takes (pypy3).
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


def _out_of_cpu(result: SubmissionResult) -> bool:
    """Whether a test ran out of CPU time (not only of wall time, the backstop)."""
    limit = result.limits.time_seconds
    return any(case.verdict is Verdict.TLE and case.cpu_seconds >= limit for case in result.cases)


def _pypy_on_tle(result: SubmissionResult, language: Language) -> str:
    """BOJ offers PyPy for Python programs that are too slow; say so when this machine has it too, and only when
    the CPU time was the limit: a faster interpreter does not help a program that waits."""
    if language.key != PYTHON_KEY or result.verdict is not Verdict.TLE or PYPY_KEY not in LANGUAGES:
        return ""
    pypy = LANGUAGES[PYPY_KEY]
    installed = all(any(shutil.which(name) for name in tool.names) for tool in pypy.tools.values())
    if not installed or not _out_of_cpu(result):
        return ""
    return (
        f"hint: the same program often runs several times faster in {pypy.display}: "
        f"submit it as {pypy.display} ({pypy.key})"
    )


def _wall_with_cpu_to_spare(result: SubmissionResult, language: Language) -> str:
    """A TLE at the wall backstop with CPU time to spare is rarely a slow algorithm: say what it usually is."""
    if result.verdict is not Verdict.TLE or _out_of_cpu(result):
        return ""
    return (
        "hint: the program ran out of wall time with CPU time to spare; that usually means it waited for input "
        "that never comes (reading more than the input holds), slept, or ran on a machine too busy to give it "
        "the CPU"
    )


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


HINTS: tuple[Callable[[SubmissionResult, Language], str], ...] = (
    _pypy_on_tle,
    _wall_with_cpu_to_spare,
    _java_class_main,
)


def hints_for(result: SubmissionResult, language: Language) -> tuple[str, ...]:
    """Every hint that applies, in registry order."""
    return tuple(line for hint in HINTS if (line := hint(result, language)))
