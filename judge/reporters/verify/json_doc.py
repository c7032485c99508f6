"""A `judge verify` report as one JSON document, for machines. Written by `json_document` (pure ASCII)."""

from __future__ import annotations

from typing import TextIO

from msgspec.structs import asdict

from judge.inert import json_document
from judge.verify.report import VerifyReport


def report(verified: VerifyReport, stream: TextIO) -> None:
    document = {
        "ok": verified.ok,
        "judged_nothing": verified.judged_nothing,
        "without_submissions": verified.without_submissions,
        "test_data": [asdict(check) for check in verified.data_checks],
        "derived_time_limits": [
            {
                "problem": derived.problem_id,
                "seconds": derived.seconds,
                "slowest_accepted": str(derived.slowest),
                "slowest_accepted_seconds": derived.slowest_seconds,
                "ac_to_time_limit": derived.rule.ac_to_time_limit,
                "resolution": derived.rule.resolution,
                "how": derived.text,
            }
            for derived in verified.derived_limits
        ],
        "submissions": [
            {
                "problem": check.problem_id,
                "path": str(check.path),
                "expected": check.expected.short,
                "got": check.got.short if check.got else None,
                "ok": check.ok,
                "skipped": check.skipped,
                "judge_failure": check.failed,
                "unmet": check.unmet,
                "mismatch": check.mismatch,
                "warning": check.warning,
                "result": check.result.to_dict() if check.result else None,
            }
            for check in verified.submissions
        ],
    }
    stream.write(json_document(document))
    stream.write("\n")
