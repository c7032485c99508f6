"""Interactive problems: the submission and the validator run together, connected by pipes, each under its own
limits, with the verdict rules problemtools applies. tests/packages/highlow (2023-07-draft) was written for
these tests: a Python validator answering "lower"/"higher"/"correct" to at most 10 guesses."""

from __future__ import annotations

import json
import os
import shutil
import time
from pathlib import Path

import pytest
from conftest import judge_cli

from judge.judging.submission import judge_submission
from judge.options import RunOptions
from judge.problems.load import load_problem_folder
from judge.verdicts import Verdict

HIGHLOW = Path(__file__).parent.parent / "packages" / "highlow"


def test_an_interactive_package_loads() -> None:
    problem = load_problem_folder(HIGHLOW)
    assert problem.interactive and problem.spec.checker.name == "program"
    assert [test.name for test in problem.tests] == ["secret/1", "secret/500", "secret/777", "secret/1000"]


# without a sandbox is slow (4.1 s): every _judge test below judges interactive submissions that way
@pytest.mark.parametrize("sandbox", [pytest.param("none", marks=pytest.mark.slow), "auto"])
def test_every_reference_submission_gets_its_verdict(sandbox: str) -> None:
    done = judge_cli("verify", "--sandbox", sandbox, "--format", "json", "-j", "2", str(HIGHLOW))
    assert done.returncode == 0, done.stdout + done.stderr
    got = {Path(row["path"]).name: row["got"] for row in json.loads(done.stdout)["submissions"]}
    assert got == {"halving.py": "AC", "gives_up.py": "RE", "never_flushes.py": "TLE",
                   "reads_on_after_correct.py": "TLE", "counting.py": "WA"}


def _judge(tmp_path: Path, code: str, root: Path = HIGHLOW) -> list[tuple[Verdict, str, float]]:
    source = tmp_path / "solution.py"
    source.write_text(code)
    result = judge_submission(load_problem_folder(root), source, RunOptions(sandbox="none", fail_fast=True))
    return [(case.verdict, case.message, case.cpu_seconds) for case in result.cases]


def test_the_validators_message_and_the_submissions_own_cpu_time(tmp_path: Path) -> None:
    counting = (HIGHLOW / "submissions/wrong_answer/counting.py").read_text()
    assert _judge(tmp_path, counting)[1][:2] == (Verdict.WA, "no right guess in 10 tries")
    busy_validator = tmp_path / "busy"
    shutil.copytree(HIGHLOW, busy_validator)
    script = busy_validator / "output_validator/validate.py"
    script.write_text("sum(range(10**7))\n" + script.read_text())  # the validator's CPU is not the submission's
    halving = (HIGHLOW / "submissions/accepted/halving.py").read_text()
    verdict, _, cpu = _judge(tmp_path, halving, busy_validator)[0]
    assert verdict is Verdict.AC and cpu < 0.3


def _alive(marker: str) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                cmdline = Path(f"/proc/{entry}/cmdline").read_bytes()
            except OSError:
                continue
            if marker.encode() in cmdline:
                found.append(int(entry))
    return found


def test_nothing_of_either_side_survives_the_test(tmp_path: Path) -> None:
    root = tmp_path / "leaky"
    shutil.copytree(HIGHLOW, root)
    script = root / "output_validator/validate.py"
    script.write_text("import subprocess\nsubprocess.Popen(['sleep', '96.5'], start_new_session=True)\n"
                      + script.read_text())
    daemon = ("import subprocess\nsubprocess.Popen(['sleep', '97.5'], start_new_session=True)\n"
              + (HIGHLOW / "submissions/accepted/halving.py").read_text())
    assert _judge(tmp_path, daemon, root)[0][0] is Verdict.AC
    time.sleep(0.2)
    assert _alive("96.5") == [] and _alive("97.5") == []


def _package(tmp_path: Path, limits: str) -> Path:
    """A copy of highlow with `limits` (YAML lines under `limits:`) in place of its own."""
    root = tmp_path / "highlow"
    shutil.copytree(HIGHLOW, root)
    spec = root / "problem.yaml"
    spec.write_text(spec.read_text().replace("limits:\n  time_limit: 1\n", f"limits:\n  time_limit: 1\n{limits}"))
    return root


ENDLESS_LINE = "import sys\nwhile True:\n    sys.stdout.write('1' * 65536)\n"
CLOSES_AND_SLEEPS = "import os\nimport time\nos.close(0)\nos.close(1)\ntime.sleep(60)\n"


def test_an_endless_line_is_the_submissions_ole_not_the_validators_je(tmp_path: Path) -> None:
    """The validator reads a line: fed without end it died at its memory limit (64 MiB here), and that was JE.
    The submission's output is capped at its output limit (1 MiB), as a file's would be: OLE."""
    root = _package(tmp_path, "  output: 1\n  validation_memory: 64\n")
    verdict, message, _ = _judge(tmp_path, ENDLESS_LINE, root)[0]
    assert (verdict, message) == (Verdict.OLE, "output to the validator over 1 MiB")


@pytest.mark.slow
def test_a_submission_that_closes_its_pipes_and_sleeps_is_wa_once_the_validator_rejected(tmp_path: Path) -> None:
    """The validator saw the end of the submission's output and rejected it, then the submission slept until the
    judge stopped it at its wall limit: the validator had finished first, so its WA decides (it was TLE)."""
    verdict, message, _ = _judge(tmp_path, CLOSES_AND_SLEEPS)[0]
    assert (verdict, message) == (Verdict.WA, "no guess 1: the submission stopped")


@pytest.mark.slow
def test_a_submission_that_hangs_holding_its_pipes_is_still_tle(tmp_path: Path) -> None:
    """The converse: the validator waits for a guess that never comes, and rejects only when the judge's kill of
    the submission ends its output. That rejection came after the stop, so the submission's TLE stands."""
    verdict, message, _ = _judge(tmp_path, "import time\ntime.sleep(60)\n")[0]
    assert verdict is Verdict.TLE, message
