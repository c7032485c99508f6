"""A problem whose hidden tests a submission tries to print (issue 39, item 2), shared by the tests of every view:
`judge run`'s formats (tests/reporters/) and `judge serve`'s pages, API and `judge submit` (tests/serve/).

Each test's input is a mode and a secret token of its own; each answer is another token. The program copies its
whole input to stdout and to stderr, then does what the mode says, so every hidden test ends with another verdict:
an exception whose class is named after the secret, a faked traceback line and exit code 3, a wrong answer, an
accepted answer the checker quotes, an output the checker raises on (JE), and the three limits. The sample
raises too: a student sees it whole, so its secret in a view shows that the view would show a leak.
"""

from __future__ import annotations

from pathlib import Path

import yaml

PROBLEM_ID = "leak"
HIDDEN_MODES = ("raise", "exit", "wrong", "quoted", "checker", "slow", "big", "loud")
HIDDEN_VERDICTS = ("RE", "RE", "WA", "AC", "JE", "TLE", "MLE", "OLE")
SAMPLE_SECRET = "samplesecretq7"


def secret(mode: str) -> str:
    """The secret token in the input of the hidden test of `mode` (an identifier: it also names a class)."""
    return f"hidden{mode}secretq7"


def answer(mode: str) -> str:
    return f"hidden{mode}answerq7"


HIDDEN_TOKENS = tuple(token for mode in HIDDEN_MODES for token in (secret(mode), answer(mode)))

LEAKING_PROGRAM = """\
import sys

data = sys.stdin.read()
sys.stdout.write(data)
sys.stdout.flush()
sys.stderr.write(data)
sys.stderr.flush()
mode, secret = data.split()
if mode == "raise":
    raise type(secret, (Exception,), {})(secret)
if mode == "exit":
    sys.stderr.write("ValueError: " + secret + "\\n")
    sys.exit(3)
if mode == "slow":
    while True:
        pass
if mode == "big":
    kept = []
    while True:
        kept.append(bytearray(16 << 20))
if mode == "loud":
    while True:
        sys.stdout.write(secret * 4096)
"""

QUOTING_CHECKER = """\
from judge.checkers.base import CheckResult, accepted, wrong
from judge.verdicts import Verdict


def check(*, input, output, answer):
    mode = input.split()[0]
    if mode == b"quoted":
        return CheckResult(Verdict.AC, "you printed " + output.decode())
    if mode == b"checker" and output.split() != answer.split():  # a right answer passes, so BOJ's order goes on
        raise ValueError("cannot read " + output.decode())
    return accepted() if output.split() == answer.split() else wrong("got " + output.decode())
"""


def write_leak_problem(problems: Path) -> Path:
    """The problem under `problems`: a sample, then a hidden test per mode, in HIDDEN_MODES' order."""
    root = problems / PROBLEM_ID
    (root / "tests").mkdir(parents=True)
    spec = {"id": PROBLEM_ID, "title": "Leak", "time_limit": 0.5, "memory_limit": 64, "output_limit": 1,
            "language_allowance": False, "checker": "checker.py"}
    (root / "problem.yaml").write_text(yaml.safe_dump(spec, sort_keys=False), encoding="utf-8")
    (root / "checker.py").write_text(QUOTING_CHECKER, encoding="utf-8")
    (root / "statement.md").write_text("# Leak\n\nPrint nothing useful.\n", encoding="utf-8")
    tests = {"sample1": (f"raise {SAMPLE_SECRET}\n", "samplesanswer\n")}
    tests |= {str(n): (f"{mode} {secret(mode)}\n", f"{answer(mode)}\n") for n, mode in enumerate(HIDDEN_MODES, 1)}
    for name, (given, expected) in tests.items():
        (root / "tests" / f"{name}.in").write_text(given, encoding="utf-8")
        (root / "tests" / f"{name}.ans").write_text(expected, encoding="utf-8")
    return root


def leaked(text: str) -> list[str]:
    """The hidden tokens in `text`: none, in anything a student may read."""
    return [token for token in HIDDEN_TOKENS if token in text]
