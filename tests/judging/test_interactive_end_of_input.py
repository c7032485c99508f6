"""Interactive problems whose protocol is the end of input: tests/packages/sumtoend (written for these tests) has
a validator that sends numbers, closes its output and waits for their sum. Under bwrap the submission never saw
that end (bwrap's own monitor and PID 1 kept copies of the pipe) and every accepted submission was TLE."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

SUMTOEND = Path(__file__).parent.parent / "packages" / "sumtoend"


@pytest.mark.slow
def test_a_submission_reading_to_the_end_of_input_sees_it(sandbox: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "judge", "verify", "--sandbox", sandbox, "--format", "json", str(SUMTOEND)],
        capture_output=True, text=True, timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    got = {Path(row["path"]).name: row["got"] for row in json.loads(done.stdout)["submissions"]}
    assert got == {"sums_to_the_end.py": "AC", "sums_to_the_end.cpp": "AC", "sums_the_first_line.py": "WA"}
