"""The judge's temporary folder running out of room is the judge's failure (issue 21): every test it may have
touched is JE with one line naming the folder, never the RE, WA or OLE a refused write would have caused.

The folder is a tmpfs mounted for the test and given to the judge as TMPDIR (root only). The compile step (up to
16 MiB per output file) must fit, so the small tmpfs is 36 MiB and the problem's output limit 40 MiB: a correct
program printing 38 MiB fills it (before: Python failed to flush, exit code 120, RE on every test)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT, mounted_tmpfs, write_problem

LINE_BYTES = 38 * 1024 * 1024
LONG_LINE = "import sys\nsys.stdout.write('x' * int(input()) + '\\n')\n"

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="mounting a tmpfs needs root")


def judged(tmp_path: Path, temporary: Path, sandbox: str) -> tuple[int, dict, str]:
    """`judge run --json --feedback full` (the teacher's: it names the folder) of the long-line program on two
    tests, with `temporary` as the judge's TMPDIR."""
    tests = {name: (f"{LINE_BYTES}\n", "x" * LINE_BYTES + "\n") for name in ("1", "2")}
    problem = write_problem(tmp_path / "problem", tests, output_limit=40, time_limit=5)
    source = tmp_path / "long_line.py"
    source.write_text(LONG_LINE)
    env = {**os.environ, "TMPDIR": str(temporary), "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-m", "judge", "run", str(problem), str(source), "--json",
                           "--feedback", "full", "--sandbox", sandbox], capture_output=True, text=True, timeout=300,
                          env=env)
    assert "Traceback" not in done.stdout + done.stderr
    return done.returncode, json.loads(done.stdout) if done.stdout.strip() else {}, done.stderr


def test_a_correct_program_filling_the_judges_temp_folder_is_je(tmp_path: Path, sandbox: str) -> None:
    with mounted_tmpfs(tmp_path / "small", "36m") as small:
        code, report, stderr = judged(tmp_path, small, sandbox)
    assert code == 3, (report, stderr)
    cases = report["cases"]
    assert [case["verdict"] for case in cases] == ["JE", "JE"], cases
    for case in cases:
        assert case["message"].startswith(f"the judge's temporary folder {small} is full: "), case
        assert "\n" not in case["message"]


def test_the_same_program_with_room_is_accepted(tmp_path: Path, sandbox: str) -> None:
    with mounted_tmpfs(tmp_path / "roomy", "160m") as roomy:
        code, report, stderr = judged(tmp_path, roomy, sandbox)
    assert code == 0, (report, stderr)
    assert [case["verdict"] for case in report["cases"]] == ["AC", "AC"]
