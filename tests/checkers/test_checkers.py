"""Table-style tests of the built-in checkers, `build_checker` and a problem's own checker.py."""

from __future__ import annotations

import msgspec.structs
import os
import pickle
import tempfile
import textwrap
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path

import pytest

from judge.checkers import BUILTIN_CHECKERS, Checker, CheckResult, open_checker
from judge.checkers.boj import BojChecker
from judge.checkers.exact import ExactChecker
from judge.checkers.float_tolerance import FloatChecker, parse_number
from judge.checkers.tokens import TokensChecker
from judge.errors import JudgeFailure, SpecError
from judge.problems.folder import load_problem
from judge.problems.model import Problem
from judge.programs import runs
from judge.programs.runs import ProblemPrograms
from judge.runner.containment.choice import choose_containment
from judge.runner.sandbox import bwrap_problem, choose_sandbox
from judge.verdicts import Verdict

AC, WA, PE = Verdict.AC, Verdict.WA, Verdict.PE


def check(checker: Checker, output: bytes, answer: bytes) -> CheckResult:
    return checker(input=b"", output=output, answer=answer)


# --- boj ---------------------------------------------------------------------------------------------------------

BOJ_CASES = [
    # (output, answer, verdict, fragments the message must contain)
    (b"1 2\n3\n", b"1 2\n3\n", AC, []),
    (b"1 2\n3", b"1 2\n3\n", AC, []),
    (b"1 2   \n3\t\n", b"1 2\n3\n", AC, []),
    (b"1 2\n3\n\n\n  \n", b"1 2\n3\n", AC, []),
    (b"1 2\r\n3\r\n", b"1 2\n3\n", AC, []),
    (b"1 2\n3\n", b"1 2\r\n3\r\n\r\n", AC, []),
    (b"", b"", AC, []),
    (b"\n \n", b"", AC, []),
    (b"1  2\n3\n", b"1 2\n3\n", PE, ["line 1", "column 3", "spacing"]),
    (b"1 2 3\n", b"1 2\n3\n", PE, ["line 1", "spacing"]),
    (b" 1 2\n3\n", b"1 2\n3\n", PE, ["line 1", "column 1"]),
    (b"1 2\n\n3\n", b"1 2\n3\n", PE, ["line 2", "blank line"]),
    (b"1\n2\n", b"1\n\n2\n", PE, ["line 2", "expected a blank line"]),
    (b"1\t2\n", b"1 2\n", PE, ["line 1", "column 2"]),
    (b"1\r2\n", b"1 2\n", PE, ["line 1"]),
    (b"1 2\n91\n", b"1 2\n92\n", WA, ["line 2", "expected '92'", "got '91'"]),
    (b"a\nb\n91 7\n", b"a\nb\n92 7\n", WA, ["line 3", "92", "91"]),
    (b"1\n2\n", b"1\n2\n3\n", WA, ["output ended early", "expected 3 lines, got 2"]),
    (b"1 2\n", b"1 2 3\n", WA, ["line 1", "output ended early", "3"]),
    (b"1\n2\n3\n", b"1\n2\n", WA, ["extra output after the answer", "line 3", "3"]),
    (b"5\n", b"", WA, ["extra output after the answer", "line 1"]),
    (b"", b"1\n2\n", WA, ["no output", "2 lines"]),
    (b"  \n\n", b"42\n", WA, ["no output", "1 line", "42"]),
    (b"1 2 4\n", b"1 2\n3\n", WA, ["line 1", "expected '3'", "got '4'", "line 2 of the answer"]),
    (b"YES\n", b"yes\n", WA, ["expected 'yes'", "got 'YES'"]),
    (b"\xff\xfe\n", b"1\n", WA, ["line 1", "expected '1'"]),
    (b"\x00\x00\x00\n", b"1\n", WA, ["line 1", "\\x00"]),
    (b"1\x002\n", b"1 2\n", WA, ["line 1"]),
    (b"\xd9\xa3\n", b"3\n", WA, ["expected '3'", "٣"]),
    ("３\n".encode(), b"3\n", WA, ["expected '3'"]),
    (b"1\xa02\n", b"1 2\n", WA, ["line 1"]),
]


@pytest.mark.parametrize(("output", "answer", "verdict", "fragments"), BOJ_CASES)
def test_boj(output: bytes, answer: bytes, verdict: Verdict, fragments: list[str]) -> None:
    result = check(BojChecker(), output, answer)
    assert result.verdict is verdict, result.message
    for fragment in fragments:
        assert fragment in result.message
    assert (result.message == "") is (verdict is AC)


# --- tokens ------------------------------------------------------------------------------------------------------

TOKENS_CASES = [
    (b"1 2 3\n", b"1 2 3\n", AC, []),
    (b"1\n2\n3", b"1 2 3\n", AC, []),
    (b"  1\t\t2\r\n\n\n3  ", b"1 2 3\n", AC, []),
    (b"", b"\n", AC, []),
    (b"1 2 4\n", b"1 2 3\n", WA, ["line 1", "expected '3'", "got '4'"]),
    (b"1\n2\n4\n", b"1 2 3\n", WA, ["line 3", "expected '3'", "got '4'"]),
    (b"1 2\n", b"1 2 3\n", WA, ["output ended early", "3"]),
    (b"1 2 3 4\n", b"1 2 3\n", WA, ["extra output after the answer", "4"]),
    (b"", b"1 2 3\n", WA, ["no output"]),
    (b"1.0\n", b"1\n", WA, ["expected '1'", "got '1.0'"]),
]


@pytest.mark.parametrize(("output", "answer", "verdict", "fragments"), TOKENS_CASES)
def test_tokens(output: bytes, answer: bytes, verdict: Verdict, fragments: list[str]) -> None:
    result = check(TokensChecker(), output, answer)
    assert result.verdict is verdict, result.message
    for fragment in fragments:
        assert fragment in result.message


# --- exact -------------------------------------------------------------------------------------------------------

EXACT_CASES = [
    (b"*\n**\n", b"*\n**\n", AC, []),
    (b"", b"", AC, []),
    (b"*\n**", b"*\n**\n", WA, ["line 2", "column 3", "output ended early", "\\n"]),
    (b"*\n** \n", b"*\n**\n", WA, ["line 2", "column 3", "got '** \\n'"]),
    (b"*\r\n**\r\n", b"*\n**\n", WA, ["line 1", "column 2", "\\r"]),
    (b"*\n*#\n", b"*\n**\n", WA, ["line 2", "column 2", "expected '**\\n'", "got '*#\\n'"]),
    (b"*\n**\n\n", b"*\n**\n", WA, ["line 3", "extra output"]),
    (b"", b"*\n", WA, ["no output"]),
    ("가나다\n가x\n".encode(), "가나다\n가나\n".encode(), WA, ["line 2", "column 2"]),
    ("가나다\n가다\n".encode(), "가나다\n가나\n".encode(), WA, ["line 2", "column 2", "expected '가나\\n'"]),
    ("가나".encode(), "가나다".encode(), WA, ["line 1", "column 3", "output ended early"]),
    (b"\xff\n", b"a\n", WA, ["line 1", "column 1"]),
]


@pytest.mark.parametrize(("output", "answer", "verdict", "fragments"), EXACT_CASES)
def test_exact(output: bytes, answer: bytes, verdict: Verdict, fragments: list[str]) -> None:
    result = check(ExactChecker(), output, answer)
    assert result.verdict is verdict, result.message
    for fragment in fragments:
        assert fragment in result.message


# --- float -------------------------------------------------------------------------------------------------------

FLOAT_CASES = [
    # (options, output, answer, verdict, fragments)
    ({}, b"0.5\n", b"0.5\n", AC, []),
    ({}, b"0.5000000000\n", b"0.5\n", AC, []),
    ({}, b"0.5000000001\n", b"0.5\n", AC, []),
    ({}, b"0.500001\n", b"0.5\n", WA, ["line 1", "expected '0.5'", "got '0.500001'", "off by 1e-06"]),
    ({"absolute": 1e-6}, b"0.5000009\n", b"0.5\n", AC, []),
    ({"absolute": 0.0, "relative": 1e-6}, b"1000000.5\n", b"1000000\n", AC, []),
    ({"absolute": 0.0, "relative": 1e-6}, b"1.5\n", b"1\n", WA, ["expected '1'", "got '1.5'"]),
    ({}, b"1e3\n", b"1000\n", AC, []),
    ({}, b"-0\n", b"0\n", AC, []),
    ({}, b"-0.0\n", b"0.000\n", AC, []),
    ({}, b"1 2\n3", b"1.0 2.0 3.0\n", AC, []),
    ({}, b"YES 0.5\n", b"YES 0.50\n", AC, []),
    ({}, b"yes 0.5\n", b"YES 0.5\n", WA, ["expected 'YES'", "got 'yes'"]),
    ({}, b"nan\n", b"0.5\n", WA, ["got 'nan'", "not a number"]),
    ({}, b"inf\n", b"1e308\n", WA, ["got 'inf'"]),
    ({}, b"1e999\n", b"1e308\n", WA, ["not a finite number"]),
    ({}, b"nan\n", b"nan\n", AC, []),
    ({}, b"NaN\n", b"nan\n", WA, ["expected 'nan'", "got 'NaN'"]),
    ({}, b"1_000\n", b"1000\n", WA, ["not a number"]),
    ({}, b"0x10\n", b"16\n", WA, ["not a number"]),
    ({}, b"\xd9\xa3\n", b"3\n", WA, ["not a number"]),
    ({}, b"abc\n", b"1.5\n", WA, ["line 1", "expected '1.5'", "got 'abc'", "not a number"]),
    ({}, b"1.5\n", b"1.5 2.5\n", WA, ["output ended early", "2.5"]),
    ({}, b"", b"1.5\n", WA, ["no output"]),
    ({}, b"1.5 2.5\n", b"1.5\n", WA, ["extra output"]),
]


@pytest.mark.parametrize(("options", "output", "answer", "verdict", "fragments"), FLOAT_CASES)
def test_float(
    options: dict[str, float], output: bytes, answer: bytes, verdict: Verdict, fragments: list[str]
) -> None:
    result = check(FloatChecker(**options), output, answer)
    assert result.verdict is verdict, result.message
    for fragment in fragments:
        assert fragment in result.message


@pytest.mark.parametrize(
    ("token", "value"),
    [(b"12", 12.0), (b"-0.5", -0.5), (b"+.5", 0.5), (b"5.", 5.0), (b"1E-3", 1e-3), (b"nan", None), (b"inf", None),
     (b"-Infinity", None), (b"1e400", None), (b"1_0", None), (b"e5", None), (b"1e", None), (b"--1", None),
     (b"\xd9\xa3", None), (b"", None)],
)
def test_parse_number_takes_plain_decimals_only(token: bytes, value: float | None) -> None:
    assert parse_number(token) == value


@pytest.mark.parametrize("options", [{"absolute": -1.0}, {"relative": float("nan")}, {"absolute": float("inf")}])
def test_float_refuses_unusable_tolerances(options: dict[str, float]) -> None:
    with pytest.raises(ValueError, match="must be a non-negative number"):
        FloatChecker(**options)


# --- every built-in on garbage -----------------------------------------------------------------------------------

GARBAGE = {
    "empty": b"",
    "invalid utf-8": b"\xff\xfe\xfd\n\xc3\x28\n",
    "nul bytes": b"\x00" * 1000,
    "10 MB line": b"7" * 10_000_000,
    "a million tokens": b"1 " * 1_000_000,
    "a million lines": b"1\n" * 1_000_000,
    "only whitespace": b" \t\r\n\x0b\x0c" * 1000,
    "control characters": bytes(range(32)) * 100,
}


@pytest.mark.parametrize("name", list(BUILTIN_CHECKERS))
@pytest.mark.parametrize("garbage", list(GARBAGE))
def test_garbage_is_wrong_answer_with_a_short_message(name: str, garbage: str) -> None:
    result = check(BUILTIN_CHECKERS[name](), GARBAGE[garbage], b"1 2\n3\n")
    assert result.verdict in (WA, PE)
    assert result.message
    assert len(result.message) < 200
    assert result.message.isprintable()


@pytest.mark.parametrize("name", list(BUILTIN_CHECKERS))
def test_a_mebibyte_of_output_is_judged_to_its_last_line(name: str) -> None:
    answer = b"".join(b"%d\n" % (i * 7919 % 1_000_003) for i in range(150_000))
    wrong_last = answer[:-2] + b"x\n"
    checker = BUILTIN_CHECKERS[name]()
    assert check(checker, answer, answer).verdict is AC
    result = check(checker, wrong_last, answer)
    assert result.verdict is WA
    assert "150000" in result.message


# --- build_checker -----------------------------------------------------------------------------------------------


Build = Callable[[Problem], Checker]


@pytest.fixture
def build(tmp_path: Path) -> Iterator[Build]:
    """Builds a problem's checker as judging does (checker.py confined), and tears each down after the test."""
    with ExitStack() as stack:
        def make(problem: Problem) -> Checker:
            programs = ProblemPrograms.of(choose_sandbox("auto"), choose_containment())  # PROBLEM_CODE_LIMITS now
            return stack.enter_context(open_checker(problem, programs, Path(tempfile.mkdtemp(dir=tmp_path))))
        yield make


def make_problem(root: Path, checker_yaml: str, checker_py: str | None = None) -> Problem:
    """A minimal problem folder with one test, whose problem.yaml says `checker_yaml` (a YAML fragment)."""
    (root / "tests").mkdir(parents=True)
    (root / "tests" / "1.in").write_bytes(b"1 2\n")
    (root / "tests" / "1.ans").write_bytes(b"3\n")
    spec = "id: t\ntitle: T\ntime_limit: 1\nmemory_limit: 128\n" + (f"{checker_yaml}\n" if checker_yaml else "")
    (root / "problem.yaml").write_text(spec, encoding="utf-8")
    if checker_py is not None:
        (root / "checker.py").write_text(textwrap.dedent(checker_py), encoding="utf-8")
    return load_problem(root)


@pytest.mark.parametrize(
    ("checker_yaml", "kind"),
    [
        ("", BojChecker),
        ("checker: boj", BojChecker),
        ("checker: tokens", TokensChecker),
        ("checker: exact", ExactChecker),
        ("checker: float", FloatChecker),
        ("checker: {name: float, absolute: 0.001}", FloatChecker),
    ],
)
def test_build_checker_builds_the_named_builtin(
    build: Build, tmp_path: Path, checker_yaml: str, kind: type
) -> None:
    assert isinstance(build(make_problem(tmp_path, checker_yaml)), kind)


def test_build_checker_passes_options(build: Build, tmp_path: Path) -> None:
    checker = build(make_problem(tmp_path, "checker:\n  name: float\n  absolute: 0.5\n  relative: 0"))
    assert isinstance(checker, FloatChecker)
    assert (checker.absolute, checker.relative) == (0.5, 0.0)
    assert check(checker, b"1.4\n", b"1\n").verdict is AC


def test_build_checker_reads_exponent_written_without_a_dot(build: Build, tmp_path: Path) -> None:
    # PyYAML reads `1e-6` as the string "1e-6"; a problem author means the number.
    checker = build(make_problem(tmp_path, "checker: {name: float, absolute: 1e-6}"))
    assert isinstance(checker, FloatChecker)
    assert checker.absolute == 1e-6


@pytest.mark.parametrize(
    ("checker_yaml", "fragments"),
    [
        ("checker: tokenz", ["checker: unknown checker 'tokenz'; choose one of boj, tokens, exact, float, package-default, checker.py"]),
        ("checker: {name: float, absolut: 0.1}", ["checker.absolut: unknown option for float", "absolute, relative"]),
        ("checker: {name: boj, absolute: 0.1}", ["checker.absolute: unknown option for boj", "it takes no options"]),
        ("checker: {name: float, absolute: -1}", ["checker.absolute: must be a non-negative number"]),
        ("checker: {name: float, relative: lots}", ["checker.relative: must be a number, got 'lots'"]),
        ("checker: {name: float, relative: true}", ["checker.relative: must be a number, got True"]),
        ("checker: {name: float, absolute: .nan}", ["checker.absolute: must be a non-negative number"]),
    ],
)
def test_build_checker_refuses_bad_names_and_options(
    build: Build, tmp_path: Path, checker_yaml: str, fragments: list[str]
) -> None:
    problem = make_problem(tmp_path, checker_yaml)
    with pytest.raises(SpecError) as caught:
        build(problem)
    message = str(caught.value)
    assert message.startswith(f"{tmp_path / 'problem.yaml'}: ")
    assert "\n" not in message
    for fragment in fragments:
        assert fragment in message


# --- checker.py --------------------------------------------------------------------------------------------------

GOOD_CHECKER = """
    from dataclasses import dataclass

    from judge.checkers.base import CheckResult, accepted, wrong


    @dataclass(frozen=True)
    class Sum:
        value: int


    def check(*, input: bytes, output: bytes, answer: bytes) -> CheckResult:
        total = Sum(sum(int(x) for x in input.split()))
        return accepted() if output.split() == [str(total.value).encode()] else wrong("not the sum")
"""


def test_custom_checker_is_loaded_and_called(build: Build, tmp_path: Path) -> None:
    checker = build(make_problem(tmp_path, "checker: checker.py", GOOD_CHECKER))
    assert checker(input=b"1 2\n", output=b"3\n", answer=b"") == CheckResult(AC, "")
    assert checker(input=b"1 2\n", output=b"4\n", answer=b"") == CheckResult(WA, "not the sum")


@pytest.mark.parametrize("sandbox", ["bwrap", "none"])
def test_custom_checker_runs_in_a_process_of_its_own(tmp_path: Path, sandbox: str) -> None:
    """checker.py never runs in the judge's process; in the box it sees the case's files, not the problem folder."""
    if sandbox == "bwrap" and bwrap_problem() is not None:
        pytest.skip(bwrap_problem())
    spec_path = tmp_path / "p" / "problem.yaml"
    source = (
        "import os\nfrom judge.checkers.base import wrong\n"
        "def check(*, input, output, answer):\n"
        "    case = sorted(os.listdir(os.path.join(os.path.dirname(__file__), 'case')))\n"
        f"    return wrong(f\"{{os.getpid()}} {{os.path.exists({str(spec_path)!r})}} {{case}}\")\n"
    )
    problem = make_problem(tmp_path / "p", "checker: checker.py", source)
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    with open_checker(problem, ProblemPrograms.of(choose_sandbox(sandbox), choose_containment()), scratch) as checker:
        message = check(checker, b"1\n", b"1\n").message
    pid, sees_problem_folder, case_files = message.split(" ", 2)
    assert int(pid) != os.getpid()
    assert sees_problem_folder == str(sandbox == "none")
    assert case_files == "['answer', 'input', 'output']"


def test_custom_checker_that_hangs_is_a_judge_failure_and_is_killed(
    tmp_path: Path, build: Build, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(runs, "PROBLEM_CODE_LIMITS", msgspec.structs.replace(runs.PROBLEM_CODE_LIMITS, wall_seconds=1))
    source = "import time\ndef check(*, input, output, answer):\n    time.sleep(3600)\n"
    checker = build(make_problem(tmp_path, "checker: checker.py", source))
    with pytest.raises(JudgeFailure, match="no answer within 1 s"):
        check(checker, b"1\n", b"1\n")
    assert checker._process is None  # killed, not left running


@pytest.mark.parametrize("name", list(BUILTIN_CHECKERS))
def test_builtins_survive_pickling_for_worker_processes(name: str) -> None:
    copy = pickle.loads(pickle.dumps(BUILTIN_CHECKERS[name]()))
    assert check(copy, b"1\n", b"1\n").verdict is AC


def test_two_problems_custom_checkers_do_not_collide(build: Build, tmp_path: Path) -> None:
    always = "from judge.checkers.base import CheckResult, {0}\ndef check(*, input, output, answer): return {0}({1})"
    first = build(make_problem(tmp_path / "a", "checker: checker.py", always.format("accepted", "")))
    second = build(make_problem(tmp_path / "b", "checker: checker.py", always.format("wrong", "'no'")))
    assert check(first, b"", b"").verdict is AC
    assert check(second, b"", b"").verdict is WA


@pytest.mark.parametrize(
    ("source", "fragments"),
    [
        ("def judge(*, input, output, answer): pass\n", ["must define check("]),
        ("check = 3\n", ["must define check("]),
        ("def check(input, output): pass\n", ["keyword arguments input, output and answer"]),
        ("def check(:\n", ["cannot import", "SyntaxError"]),
        ("import no_such_module_here\n", ["cannot import", "ModuleNotFoundError"]),
        ("raise SystemExit(1)\n", ["cannot import", "SystemExit"]),
    ],
)
def test_broken_custom_checker_is_a_spec_error_naming_the_file(
    build: Build,    tmp_path: Path, source: str, fragments: list[str]
) -> None:
    problem = make_problem(tmp_path, "checker: checker.py", source)
    with pytest.raises(SpecError) as caught:
        build(problem)
    message = str(caught.value)
    assert message.startswith(f"{tmp_path / 'checker.py'}: ")
    for fragment in fragments:
        assert fragment in message


def test_custom_checker_takes_no_options(build: Build, tmp_path: Path) -> None:
    problem = make_problem(tmp_path, "checker: {name: checker.py, strict: true}", GOOD_CHECKER)
    with pytest.raises(SpecError, match="checker.strict: unknown option for checker.py"):
        build(problem)


@pytest.mark.parametrize(
    ("body", "fragment"),
    [
        ("raise ZeroDivisionError('oops')", "check() raised ZeroDivisionError: oops"),
        ("return 'AC'", "must return a CheckResult"),
        ("return CheckResult(Verdict.TLE, '')", "must return a CheckResult with AC, WA or PE"),
    ],
)
def test_custom_checker_failing_while_judging_is_a_judge_failure(
    build: Build, tmp_path: Path, body: str, fragment: str
) -> None:
    source = (
        "from judge.checkers.base import CheckResult\nfrom judge.verdicts import Verdict\n"
        f"def check(*, input, output, answer):\n    {body}\n"
    )
    checker = build(make_problem(tmp_path, "checker: checker.py", source))
    with pytest.raises(JudgeFailure) as caught:
        check(checker, b"1\n", b"1\n")
    assert str(caught.value).startswith(f"{tmp_path / 'checker.py'}: ")
    assert fragment in str(caught.value)
