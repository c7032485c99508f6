"""`SubmissionResult.to_dict` (built field by field for speed) is the JSON shape of the record's fields (the limits a dict too), and round-trips."""

from __future__ import annotations

import msgspec.structs

from judge.judging.results import CaseResult, SubmissionResult
from judge.runner.limits import Limits
from judge.verdicts import Verdict


def test_to_dict_is_the_asdict_shape_and_round_trips() -> None:
    cases = (CaseResult("sample1", Verdict.WA, 0.01, 0.02, 3.5, "line 1: differs", True, "-1\n+2"),
             CaseResult("1\x1b[2J", Verdict.RE, 0.5, 0.6, 12.0, "exit code 1: NameError\ntraceback"))
    result = SubmissionResult("t", "kim\udcff.py", "Python 3", Limits(3.0, 7.0, 544, 1), "bwrap", "cgroup v1",
                              Verdict.WA, cases, "a warning")
    expected = {**msgspec.structs.asdict(result), "limits": msgspec.structs.asdict(result.limits)}
    expected["verdict"] = "WA"
    expected["cases"] = [{**msgspec.structs.asdict(case), "verdict": case.verdict.short} for case in cases]
    assert result.to_dict() == expected
    assert list(result.to_dict()) == list(expected)  # the same key order, so the same JSON text
    assert SubmissionResult.from_dict(result.to_dict()) == result
