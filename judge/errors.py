"""The judge's exceptions.

    JudgeError                  a person gave the judge something it cannot use: the CLI prints one line, exits 2
    ├── SpecError               problem.yaml or the problem folder is malformed (names the file and the key)
    ├── SubmissionError         the submission file is missing or its language is unknown
    ├── ToolchainMissing        the language's compiler or interpreter is not installed (names what to install)
    ├── LanguageTableError      languages.yaml is malformed (names the file and the key)
    └── SandboxUnavailable      --require-sandbox (--require-containment) was given but no sandbox (cgroup) works here
    JudgeFailure                the judge itself failed while judging (checker crash, sandbox error): verdict JE

A submission failing is a verdict, never an exception.
"""

from __future__ import annotations


class JudgeError(Exception):
    """Bad input from a person. `str(error)` is the single line the CLI prints."""


class SpecError(JudgeError):
    """A problem folder or its problem.yaml is malformed."""


class SubmissionError(JudgeError):
    """A submission file is missing, unreadable, or in no known language."""


class ToolchainMissing(JudgeError):
    """A language's toolchain is not installed on this machine."""


class LanguageTableError(JudgeError):
    """languages.yaml is malformed."""


class SandboxUnavailable(JudgeError):
    """The sandbox was required but cannot run here."""


class JudgeFailure(Exception):
    """The judge itself failed on one test or submission; becomes verdict JE with this message."""
