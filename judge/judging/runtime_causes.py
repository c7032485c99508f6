"""An RE's cause as BOJ names it to a student ("런타임 에러 (ZeroDivisionError)"): how the run ended, and the
error's class when it is one of the languages' standard ones, with no other text the program wrote.

The RE message runner/classify.py writes starts with the judge's own words (`exit code 1`, `killed by SIGSEGV`,
`too many processes (limit 64)`, after `pass 2: ` on a multi-pass problem), then the program's stderr. That
stderr is the program's to choose: a class it named after its input, a traceback it faked. So the cause keeps
the judge's words only if they match this grammar exactly, and a class name only if it is in `STANDARD_ERRORS`, a
fixed list; anything else is left out. A message of another shape gives no cause (the verdict alone says RE).
"""

from __future__ import annotations

import builtins
import re

JAVA_ERRORS = (
    "ArithmeticException",
    "ArrayIndexOutOfBoundsException",
    "ArrayStoreException",
    "ClassCastException",
    "ClassNotFoundException",
    "ConcurrentModificationException",
    "EmptyStackException",
    "ExceptionInInitializerError",
    "IllegalArgumentException",
    "IllegalStateException",
    "IndexOutOfBoundsException",
    "InputMismatchException",
    "IOException",
    "KotlinNullPointerException",
    "NegativeArraySizeException",
    "NoClassDefFoundError",
    "NoSuchElementException",
    "NullPointerException",
    "NumberFormatException",
    "OutOfMemoryError",
    "RuntimeException",
    "StackOverflowError",
    "StringIndexOutOfBoundsException",
    "UncheckedIOException",
    "UninitializedPropertyAccessException",
    "UnsupportedOperationException",
)
"""Java's (and Kotlin's) common run-time errors, by their simple name (`java.lang.` is left out, as BOJ does)."""

CPP_ERRORS = (
    "std::bad_alloc",
    "std::bad_array_new_length",
    "std::bad_cast",
    "std::bad_function_call",
    "std::bad_optional_access",
    "std::bad_variant_access",
    "std::domain_error",
    "std::invalid_argument",
    "std::length_error",
    "std::logic_error",
    "std::out_of_range",
    "std::overflow_error",
    "std::range_error",
    "std::runtime_error",
    "std::system_error",
    "std::underflow_error",
)
"""The C++ standard library's exceptions, as `terminate called after throwing an instance of '...'` names them."""

STANDARD_ERRORS = frozenset(
    (
        *(
            name
            for name, value in vars(builtins).items()
            if isinstance(value, type) and issubclass(value, BaseException)
        ),
        *JAVA_ERRORS,
        *CPP_ERRORS,
    )
)
"""Every class name a student may be shown: Python's built-in exceptions (this interpreter's, not the program's),
and the lists above."""

_HOW_IT_ENDED = re.compile(
    r"(?P<how>(?:pass \d+: )?"
    r"(?:exit code -?\d+|non-zero exit code|killed by (?:SIG[A-Z0-9]+|signal \d+)|too many processes \(limit \d+\)))"
    r"(?:: (?P<said>.*))?"
)
"""The start of classify.py's RE message: the judge's words, then what the program printed (its headline)."""
_EXIT_STATUS = re.compile(r"exit code -?\d+")
_JAVA_THREAD = re.compile(r'Exception in thread "[^"\n]*" ')
_CPP_THROWN = re.compile(r"terminate called after throwing an instance of '(?P<name>[\w:]+)'")
_CLASS = re.compile(r"(?P<name>[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)(?::|$)")


NONZERO_EXIT = "non-zero exit code"
"""How an exit with an error status is shown, without the status: a program chooses it (`exit(input[0])` would
show a byte of the test per run), so a student is told what BOJ's NZEC tells."""


def runtime_cause(message: str) -> str:
    """`non-zero exit code: ZeroDivisionError`, `killed by SIGSEGV`: the cause an RE's `message` shows a student,
    made of the judge's words (an exit status not among them) and a name from `STANDARD_ERRORS` only; "" when the
    message has another shape."""
    ended = _HOW_IT_ENDED.fullmatch(message.partition("\n")[0])
    if ended is None:
        return ""
    how = _EXIT_STATUS.sub(NONZERO_EXIT, ended["how"])
    name = error_class(ended["said"] or "")
    return f"{how}: {name}" if name else how


def error_class(headline: str) -> str:
    """The standard error class an error's headline names (`ValueError: ...`, `Exception in thread "main"
    java.lang.ArithmeticException: ...`, `Caused by: ...`, C++'s `terminate called after throwing ...`), else ""."""
    thrown = _CPP_THROWN.match(headline)
    if thrown or headline in CPP_ERRORS:  # a name alone: the cause as shown, read again (`judge submit`)
        name = thrown["name"] if thrown else headline
        return name if name in CPP_ERRORS else ""
    in_thread = _JAVA_THREAD.match(headline)
    named = _CLASS.match((headline[in_thread.end() :] if in_thread else headline).removeprefix("Caused by: "))
    simple = named["name"].rpartition(".")[2] if named else ""
    return simple if simple in STANDARD_ERRORS else ""
