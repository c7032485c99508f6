"""The command line as a person meets it: `python -m judge` in a subprocess, its exit code, stdout and stderr."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import assert_usage_error, judge_cli, program

SUM_TESTS = {"sample1": ("1 2\n", "3\n"), "1": ("40 2\n", "42\n")}


def test_accepted_exits_0(make_problem):
    done = judge_cli("run", make_problem(SUM_TESTS), program("sum.py"), "--sandbox", "none")
    assert done.returncode == 0, done.stderr
    assert "AC" in done.stdout
    assert done.stderr == ""


def test_wrong_answer_exits_1(make_problem):
    done = judge_cli("run", make_problem(SUM_TESTS), program("wrong_sum.py"), "--sandbox", "none")
    assert done.returncode == 1, done.stderr
    assert "WA" in done.stdout


def test_json_report(make_problem):
    problem = make_problem(SUM_TESTS, time_limit=1, memory_limit=128)
    done = judge_cli("run", problem, program("sum.py"), "--json", "--sandbox", "none")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert {"problem_id", "language", "limits", "cases", "verdict"} <= set(report)
    assert report["problem_id"] == "t"
    assert report["language"] == "Python 3"
    assert report["verdict"] == "AC"
    assert report["limits"]["time_seconds"] == 5 and report["limits"]["memory_mib"] == 288
    assert [case["name"] for case in report["cases"]] == ["sample1", "1"]
    assert all(case["verdict"] == "AC" for case in report["cases"])


def test_malformed_spec_exits_2(make_problem):
    problem = make_problem(SUM_TESTS, time_limit="fast")
    done = judge_cli("run", problem, program("sum.py"))
    assert_usage_error(done, f"{problem / 'problem.yaml'}: time_limit: must be a positive number, got 'fast'")


def test_missing_answer_exits_2(make_problem):
    problem = make_problem(SUM_TESTS)
    (problem / "tests" / "1.ans").unlink()
    assert_usage_error(judge_cli("run", problem, program("sum.py")), str(problem / "tests" / "1.ans"))


def test_unknown_extension_exits_2(make_problem, submission):
    source = submission("puts 3\n", "main.rb")
    assert_usage_error(judge_cli("run", make_problem(SUM_TESTS), source), "main.rb", ".rb")


def test_missing_source_exits_2(make_problem, tmp_path):
    missing = tmp_path / "nowhere.py"
    assert_usage_error(judge_cli("run", make_problem(SUM_TESTS), missing), str(missing))


def test_missing_problem_folder_exits_2(tmp_path):
    missing = tmp_path / "no-such-problem"
    assert_usage_error(judge_cli("run", missing, program("sum.py")), str(missing))


def test_unknown_lang_exits_2(make_problem):
    # click rejects it before the judge runs, with its usage text (several lines), hence not assert_usage_error.
    done = judge_cli("run", make_problem(SUM_TESTS), program("sum.py"), "--lang", "ruby")
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert "Traceback" not in done.stderr
    assert "ruby" in done.stderr


def test_crashing_checker_exits_3(make_problem):
    problem = make_problem(SUM_TESTS, checker="checker.py")
    (problem / "checker.py").write_text(
        "def check(*, input, output, answer):\n    raise RuntimeError('checker bug')\n", encoding="utf-8")
    done = judge_cli("run", problem, program("sum.py"), "--json", "--sandbox", "none")
    assert done.returncode == 3, (done.stdout, done.stderr)
    report = json.loads(done.stdout)
    assert report["verdict"] == "JE"
    assert "checker bug" in report["cases"][0]["message"]


def test_doctor(tmp_path):
    done = judge_cli("doctor")
    # 0 fit for official grading, 1 not (SMT, swap, a powersave governor: this host's own conditions)
    assert (done.returncode, done.stdout.rstrip().splitlines()[-1].startswith("timing: not fit")) in ((0, False), (1, True)), done
    assert "memory" in done.stdout
    assert "sandbox" in done.stdout
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize("args", [["--version"], ["--help"], ["run", "--help"]])
def test_help_and_version_exit_0(args):
    done = judge_cli(*args)
    assert done.returncode == 0, done.stderr
    assert "judge" in done.stdout


@pytest.mark.parametrize("command", ["run", "verify"])
def test_json_and_another_format_is_a_usage_error(make_problem, command):
    arguments = [make_problem(SUM_TESTS), program("sum.py")] if command == "run" else []
    done = judge_cli(command, *arguments, "--format", "text", "--json")
    assert_usage_error(done, "--json means --format json", "--format text", f"judge {command} --help")


def test_json_is_an_alias_of_format_json(make_problem):
    problem = make_problem(SUM_TESTS)
    by_alias, by_format, both = (judge_cli("run", problem, program("sum.py"), "--sandbox", "none", *flags)
                                 for flags in (["--json"], ["--format", "json"], ["--format", "json", "--json"]))
    reports = [json.loads(done.stdout) for done in (by_alias, by_format, both)]
    assert {done.returncode for done in (by_alias, by_format, both)} == {0}
    assert [[case["verdict"] for case in report["cases"]] for report in reports] == [["AC", "AC"]] * 3
