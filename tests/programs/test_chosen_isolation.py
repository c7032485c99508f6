"""Every program a problem brings runs in the sandbox and containment the command chose (issue 22): an interactive
problem (its submission and its output validator), a checker program (package protocol), an input validator and
checker.py, each under `--containment portable`, under `--sandbox none` and under the default (bubblewrap and a
control group), through the CLI as a person starts them.

Each program reports what only the mechanism that started it makes true, in the message its protocol carries:
- whether it sees a marker file of the host's file system (only without a sandbox);
- its RLIMIT_AS (a control group caps memory itself and sets none; the portable containment sets one);
- whether /proc/self/cgroup names one of the judge's run groups (`judge-<pid>-<hex>`; visible without a box,
  which shows a run its own cgroup namespace).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from judge.runner.containment.choice import available_containments
from judge.runner.sandbox import bwrap_problem

from conftest import judge_cli

pytestmark = pytest.mark.skipif(
    bwrap_problem() is not None or available_containments()[0] != "cgroup",
    reason="needs bwrap and a control group as this machine's defaults, to tell them from the ones asked for",
)

FINGERPRINT = """
import os

def fingerprint():
    limits = open("/proc/self/limits").read().splitlines()
    address_space = next(line for line in limits if line.startswith("Max address space")).split()[3]
    run_group = "/judge-" in open("/proc/self/cgroup").read()
    return f"host={{os.path.exists({marker!r})}} as={{address_space}} group={{run_group}}"
"""

INPUT_VALIDATOR = """
import sys
print(fingerprint(), file=sys.stderr)
sys.exit(43)
"""

INTERACTIVE_VALIDATOR = """
import sys
said = sys.stdin.readline().strip()
with open(sys.argv[3] + "/judgemessage.txt", "w") as feedback:
    feedback.write(f"validator {fingerprint()} submission {said}")
sys.exit(43)
"""

INTERACTIVE_SUBMISSION = """
print(fingerprint(), flush=True)
"""

CHECKER_PROGRAM = """
import sys
with open(sys.argv[3] + "/judgemessage.txt", "w") as feedback:
    feedback.write(fingerprint())
sys.exit(43)
"""

CHECKER_PY = """
from judge.checkers.base import wrong

def check(*, input, output, answer):
    return wrong(fingerprint())
"""

# What each configuration makes true of every program: sees the host's files, RLIMIT_AS set, in a judge run group
# (None: not visible from inside a box).
CONFIGURATIONS: dict[str, tuple[tuple[str, ...], dict[str, bool | None]]] = {
    "default": ((), {"host": False, "address space limited": False, "run group": None}),
    "portable": (("--containment", "portable"), {"host": False, "address space limited": True, "run group": None}),
    "none": (("--sandbox", "none"), {"host": True, "address space limited": False, "run group": True}),
}


def _program(marker: Path, body: str) -> str:
    return FINGERPRINT.format(marker=str(marker)) + body


def _write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def _problems(root: Path, marker: Path) -> dict[str, Path]:
    """An interactive package with an input validator, and two problems of ours: checker.py and a checker program."""
    probe = root / "probe"
    _write(probe / "problem.yaml", "problem_format_version: 2023-07-draft\ntype: interactive\nname: Probe\n"
                                   "credits: judge test suite\nlicense: cc0\nlimits:\n  time_limit: 2\n")
    _write(probe / "data" / "secret" / "1.in", "1\n")
    _write(probe / "data" / "secret" / "1.ans", "1\n")
    _write(probe / "input_validators" / "validate.py", _program(marker, INPUT_VALIDATOR))
    _write(probe / "output_validator" / "validate.py", _program(marker, INTERACTIVE_VALIDATOR))
    _write(probe / "submissions" / "wrong_answer" / "probe.py", _program(marker, INTERACTIVE_SUBMISSION))
    ours = {}
    for name, checker, files in (("custom", "checker.py", {"checker.py": CHECKER_PY}),
                                 ("program", "{program: probe.py}", {"probe.py": CHECKER_PROGRAM})):
        folder = root / name
        _write(folder / "problem.yaml", f"id: {name}\ntitle: Probe\ntime_limit: 2\nmemory_limit: 256\n"
                                        f"checker: {checker}\n")
        _write(folder / "tests" / "1.in", "1\n")
        _write(folder / "tests" / "1.ans", "1\n")
        for file_name, body in files.items():
            _write(folder / file_name, _program(marker, body))
        ours[name] = folder
    return {"interactive": probe, **ours, "submission": _write(root / "answer.py", "print(1)\n")}


def _case_message(problem: Path, submission: Path, flags: tuple[str, ...]) -> str:
    done = judge_cli("run", "--format", "json", "--feedback", "full", *flags, problem, submission)
    assert done.returncode == 1, done.stdout + done.stderr  # WA: each program reports by rejecting
    case = json.loads(done.stdout)["cases"][0]
    assert case["verdict"] == "WA", case
    return case["message"]


def _input_validator_message(package: Path, flags: tuple[str, ...]) -> str:
    done = judge_cli("verify", "--format", "json", *flags, package)
    report = json.loads(done.stdout)
    assert [row["got"] for row in report["submissions"]] == ["WA"], done.stdout + done.stderr
    failing = [check["detail"] for check in report["test_data"] if not check["ok"]]
    assert len(failing) == 1 and "validate.py: invalid: " in failing[0], report["test_data"]
    return failing[0].split("validate.py: invalid: ", 1)[1]


@pytest.mark.parametrize("configuration", list(CONFIGURATIONS))
@pytest.mark.slow
def test_each_problem_program_starts_as_the_command_chose(tmp_path: Path, configuration: str) -> None:
    flags, expected = CONFIGURATIONS[configuration]
    marker = _write(tmp_path / "host-marker", "")
    problems = _problems(tmp_path / "problems", marker)
    interactive = _case_message(problems["interactive"],
                                problems["interactive"] / "submissions" / "wrong_answer" / "probe.py", flags)
    validator_said, submission_said = interactive.removeprefix("validator ").split(" submission ")
    seen = {
        "interactive submission": submission_said,
        "interactive validator": validator_said,
        "input validator": _input_validator_message(problems["interactive"], flags),
        "checker program": _case_message(problems["program"], problems["submission"], flags),
        "checker.py": _case_message(problems["custom"], problems["submission"], flags),
    }
    for program, said in seen.items():
        facts = dict(part.split("=", 1) for part in said.split())
        got = {"host": facts["host"] == "True", "address space limited": facts["as"] != "unlimited",
               "run group": facts["group"] == "True" if expected["run group"] is not None else None}
        assert got == expected, (program, said)
