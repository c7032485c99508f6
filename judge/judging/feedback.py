"""What a person is shown of a judged submission: the one rule every view goes through, a policy per reader.

`boj` (the default of `judge run`, and what `judge serve` shows a student) is what BOJ shows a student: a sample
test in full, a hidden test its verdict, CPU time, memory and score, and no byte its program wrote. A program
decides its stdout (which a checker may quote, in its message or in its own failure), its stderr and the names of
its exceptions: one that copies its input into any of them would print every secret test. So a hidden test's
message is made here from the judge's own words, per verdict (`HIDDEN_MESSAGES`): a wrong answer says it is hidden,
an RE its cause as BOJ says it (runtime_causes.py: `non-zero exit code: ZeroDivisionError`), a limit the limit, a
JE only that the judge failed; an accepted test says nothing, and no hidden test has a diff. A program also chooses its
exit status, its memory and its time (`exit(input[0])`, a byte of the test in MiB): an RE shows no exit status,
and every hidden test shows the largest CPU time, wall time and memory of the submission's hidden tests, one
figure per submission as BOJ shows, never one per test. A JE shown to a student
(a sample's, or a submission's that could not be judged) names no path of the server's. `full` (the teacher:
`--feedback full`, `judge serve`'s teacher, the gradebook `judge grade` writes) shows everything.

A view of a submission takes a `Shown`, which `shown` makes: no view can show a result past a policy.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TypeVar

import msgspec.structs
from msgspec import Struct

from judge.judging.results import CaseResult, SubmissionResult
from judge.verdicts import Verdict

STUDENT = "boj"
TEACHER = "full"
HIDDEN_NOTICE = "hidden test: verdict only, as on BOJ"
HIDDEN_JE_NOTICE = "hidden test: the judge failed here, not the program"
"""The notices name no command-line flag: a student reads them in a browser too (`judge serve`)."""
SERVER_PATH = re.compile(r"(?<![\w.~/-])/[^\s'\"()\[\]{}<>,;:]*[^\s'\"()\[\]{}<>,;:.]")
"""An absolute path in a line of the judge's (a temporary folder, a problem's folder): up to a space, a quote, a
bracket or a `:`, without a last `.`. Not `/ by zero`, `KiB/s` or `1/2`."""
SERVER_PATH_SHOWN = "[server path]"

_Text = TypeVar("_Text", str, CaseResult)


def without_server_paths(text: str) -> str:
    """`text` with each absolute path replaced: a student learns nothing of the server's folders."""
    return SERVER_PATH.sub(SERVER_PATH_SHOWN, text)


def _nothing(message: str) -> str:
    return ""


def _hidden_answer(message: str) -> str:
    return HIDDEN_NOTICE


def _limit(message: str) -> str:
    """The limit's own line: runner/classify.py and judging/interactive.py write it from the limits and the
    measured numbers (`CPU time over 1 s`, `memory limit 256 MiB exceeded`), never from what the program printed."""
    return message.partition("\n")[0]


def _runtime_cause(message: str) -> str:
    """runtime_causes.py's, imported at the first hidden RE: its patterns are no cost of a run that has none."""
    from judge.judging.runtime_causes import runtime_cause  # noqa: PLC0415 -- see the docstring

    return runtime_cause(message)


def _judge_failed(message: str) -> str:
    return HIDDEN_JE_NOTICE


HIDDEN_MESSAGES: dict[Verdict, Callable[[str], str]] = {
    Verdict.AC: _nothing,  # a checker's word on an accepted output may quote it
    Verdict.WA: _hidden_answer,
    Verdict.PE: _hidden_answer,
    Verdict.RE: _runtime_cause,
    Verdict.TLE: _limit,
    Verdict.MLE: _limit,
    Verdict.OLE: _limit,
    Verdict.JE: _judge_failed,  # its reason may quote the output (a checker raising on it) or name server paths
    Verdict.CE: _nothing,  # never a test's verdict
}
"""A hidden test's message under `boj`, from the message the judging wrote, for every verdict."""


def _boj(case: CaseResult) -> CaseResult:
    if case.is_sample:
        return (
            msgspec.structs.replace(case, message=without_server_paths(case.message))
            if case.verdict is Verdict.JE
            else case
        )
    return msgspec.structs.replace(case, message=HIDDEN_MESSAGES[case.verdict](case.message), diff="")


def _boj_figures(cases: tuple[CaseResult, ...]) -> tuple[CaseResult, ...]:
    """Every hidden test with the largest figures of the hidden tests (see the module's docstring)."""
    hidden = [case for case in cases if not case.is_sample]
    if not hidden:
        return cases
    cpu = max(case.cpu_seconds for case in hidden)
    wall = max(case.wall_seconds for case in hidden)
    peak = max(case.peak_mib for case in hidden)
    return tuple(
        case
        if case.is_sample
        else msgspec.structs.replace(
            case, cpu_seconds=cpu, wall_seconds=wall, peak_mib=peak, cpu_runs=(), near_limit_band=None
        )  # a test's own runs, or its being near the limit, would tell which hidden test was the slow one
        for case in cases
    )


def _as_it_is(value: _Text) -> _Text:
    return value


def _all_as_they_are(cases: tuple[CaseResult, ...]) -> tuple[CaseResult, ...]:
    return cases


class Policy(Struct, frozen=True):
    """What one reader is shown: of each test, of the tests together (figures across them), and of the line
    saying why a submission could not be judged."""

    case: Callable[[CaseResult], CaseResult]
    cases: Callable[[tuple[CaseResult, ...]], tuple[CaseResult, ...]]
    error: Callable[[str], str]


POLICIES: dict[str, Policy] = {
    STUDENT: Policy(case=_boj, cases=_boj_figures, error=without_server_paths),
    TEACHER: Policy(case=_as_it_is, cases=_all_as_they_are, error=_as_it_is),
}
"""Every policy by name; `judge run --feedback NAME` picks one."""


class Shown(Struct, frozen=True):
    """A result as `policy` lets a person see it: what every view of a submission is given. Made by `shown`."""

    result: SubmissionResult
    policy: str


def shown(result: SubmissionResult, policy: str) -> Shown:
    """`result` as `policy` lets a person see it (applying a policy again changes nothing)."""
    chosen = POLICIES[policy]
    return Shown(
        msgspec.structs.replace(result, cases=chosen.cases(tuple(chosen.case(each) for each in result.cases))), policy
    )


def shown_case(case: CaseResult, policy: str) -> CaseResult:
    """One test as `policy` lets a person see it, for `judge run`'s live rows, printed as each test finishes on
    the machine that holds the tests: its own figures (the finished result, `shown`, has the policy's)."""
    return POLICIES[policy].case(case)


def shown_error(error: str, policy: str) -> str:
    """The line saying why a submission could not be judged (JE before its tests), as `policy` lets it be seen."""
    return POLICIES[policy].error(error)
