"""`judge grade` end to end on tiny purpose-built problems: real judging, real worker processes, real signals."""

from __future__ import annotations

import json
import re
import signal
import sqlite3
import time
from pathlib import Path

import psutil
import pytest
from grade_helpers import (
    EXPECTED,
    SOURCES,
    grade_process,
    judge_main,
    stored_rows,
    write_class,
    write_problem,
    write_problems,
)

SUMMARY = re.compile(r"judged (\d+), up to date (\d+)")


@pytest.fixture
def problems(tmp_path: Path) -> Path:
    return write_problems(tmp_path / "problems")


def _summary(stderr: str) -> tuple[int, int]:
    judged, reused = SUMMARY.search(stderr).groups()
    return int(judged), int(reused)


def _case_verdicts(out: Path) -> dict[tuple[str, str], list[str]]:
    data = json.loads((out / "grades.json").read_text())
    return {
        (student["name"], problem): [case["verdict"] for case in pair["report"]["cases"]]
        for student in data["students"] for problem, pair in student["results"].items()
    }


@pytest.mark.slow
def test_a_class_is_graded_the_same_with_one_worker_or_two(tmp_path: Path, problems: Path, capsys) -> None:
    root = write_class(tmp_path / "class")

    assert judge_main("grade", problems, root, "--out", tmp_path / "one", "-j", "1") == 0
    one = capsys.readouterr().err
    assert judge_main("grade", problems, root, "--out", tmp_path / "two", "-j", "2") == 0
    two = capsys.readouterr().err

    assert {pair: verdict for pair, (verdict, _) in stored_rows(tmp_path / "one").items()} == EXPECTED
    assert {pair: verdict for pair, (verdict, _) in stored_rows(tmp_path / "two").items()} == EXPECTED
    assert _case_verdicts(tmp_path / "one") == _case_verdicts(tmp_path / "two")
    assert _case_verdicts(tmp_path / "one")["bob", "add"] == ["AC", "WA", "AC"]
    for stderr in (one, two):
        assert "unmatched: dave/notes.txt: no problem with id 'notes'" in stderr
        assert "unmatched: erin/sub.py: no problem with id 'sub'" in stderr
        assert _summary(stderr) == (8, 0)
    assert (tmp_path / "two" / "grades.csv").read_text(encoding="utf-8-sig") == (
        "student,add,mul,score,max\nalice,AC,AC,2,2\nbob,WA,AC,1,2\ncarol,TLE,WA,0,2\ndave,RE,,0,2\nerin,,AC,1,2\n"
    )
    assert 'id="matrix"' in (tmp_path / "two" / "report.html").read_text()


def test_the_by_problem_layout_and_partial_scores(tmp_path: Path, problems: Path, capsys) -> None:
    members = {"alice": {"add.py": "add_ac", "mul.py": "mul_wa"}, "bob": {"add.py": "add_wa"}}
    root = write_class(tmp_path / "class", members, by_problem=True)

    assert judge_main("grade", problems, root, "--out", tmp_path / "out", "--partial", "--quiet") == 0

    assert capsys.readouterr().err == ""
    assert (tmp_path / "out" / "grades.csv").read_text(encoding="utf-8-sig") == (
        "student,add,mul,score,max\nalice,AC,WA,1,2\nbob,WA,,0.667,2\n")


@pytest.mark.slow
def test_a_rerun_judges_only_what_is_missing_or_changed(tmp_path: Path, problems: Path, capsys) -> None:
    members = {"alice": {"add.py": "add_ac", "mul.py": "mul_ac"}, "bob": {"add.py": "add_wa"}}
    root = write_class(tmp_path / "class", members)
    out = tmp_path / "out"
    arguments = ("grade", problems, root, "--out", out)

    assert judge_main(*arguments) == 0
    first = stored_rows(out)
    assert _summary(capsys.readouterr().err) == (3, 0)

    assert judge_main(*arguments) == 0
    assert _summary(capsys.readouterr().err) == (0, 3) and stored_rows(out) == first

    (root / "bob" / "add.py").write_text(SOURCES["add_ac"])
    write_class(root, {"carol": {"mul.py": "mul_ac"}})
    assert judge_main(*arguments) == 0
    assert _summary(capsys.readouterr().err) == (2, 2)
    second = stored_rows(out)
    assert second["bob", "add"][0] == "AC" and second["bob", "add"][1] > first["bob", "add"][1]
    assert all(second[pair] == first[pair] for pair in (("alice", "add"), ("alice", "mul")))

    (problems / "mul" / "tests" / "3.ans").write_text("0\n\n")  # same verdicts, but the data changed
    assert judge_main(*arguments) == 0
    assert _summary(capsys.readouterr().err) == (2, 2)
    third = stored_rows(out)
    assert [pair for pair in third if third[pair][1] != second[pair][1]] == [("alice", "mul"), ("carol", "mul")]

    assert judge_main(*arguments, "--force") == 0
    assert _summary(capsys.readouterr().err) == (4, 0)
    with sqlite3.connect(out / "results.sqlite") as connection:
        assert connection.execute("SELECT count(*) FROM results").fetchone() == (4,)


def test_a_judge_failure_exits_3_and_is_judged_again_next_time(tmp_path: Path, capsys) -> None:
    problems = tmp_path / "problems"
    root = write_problem(problems / "add", "add", {"1": ("1 2\n", "3\n")}, checker="checker.py")
    (root / "checker.py").write_text("def check(*, input, output, answer):\n    raise RuntimeError('boom')\n")
    write_class(tmp_path / "class", {"alice": {"add.py": "add_ac"}})
    arguments = ("grade", problems, tmp_path / "class", "--out", tmp_path / "out")

    assert judge_main(*arguments) == 3
    stderr = capsys.readouterr().err
    assert "the judge failed on 1 pair(s) (JE)" in stderr
    assert stored_rows(tmp_path / "out")["alice", "add"][0] == "JE"

    assert judge_main(*arguments) == 3
    assert _summary(capsys.readouterr().err) == (1, 0)


def test_a_submission_that_kills_its_worker_is_je_and_spares_the_others(tmp_path: Path, problems: Path,
                                                                          capsys) -> None:
    members = {"alice": {"add.py": "add_ac", "mul.py": "mul_ac"}, "bob": {"add.py": "add_wa", "mul.py": "mul_ac"},
               "mallory": {"add.py": "kill_worker"}}
    root = write_class(tmp_path / "class", members)

    code = judge_main("grade", problems, root, "--out", tmp_path / "out", "-j", "2", "--sandbox", "none")

    assert code == 3, capsys.readouterr().err
    rows = {pair: verdict for pair, (verdict, _) in stored_rows(tmp_path / "out").items()}
    assert rows == {("alice", "add"): "AC", ("alice", "mul"): "AC", ("bob", "add"): "WA", ("bob", "mul"): "AC",
                    ("mallory", "add"): "JE"}
    report = json.loads((tmp_path / "out" / "grades.json").read_text())["students"][2]["results"]["add"]
    assert "its worker process died while judging it, also when it was judged alone" in report["error"]


@pytest.mark.parametrize(("arguments", "message"), [
    (("PROBLEMS", "missing"), "missing: no such folder"),
    (("EMPTY", "CLASS"), "no problems here"),
    (("PROBLEMS", "CLASS", "-j", "2", "--scheduler", "tcp://127.0.0.1:1"), "--jobs and --scheduler: choose one"),
])
def test_usage_errors_exit_2_with_one_line(tmp_path: Path, problems: Path, capsys, arguments, message) -> None:
    (tmp_path / "empty").mkdir()
    write_class(tmp_path / "class", {"alice": {"add.py": "add_ac"}})
    places = {"PROBLEMS": problems, "EMPTY": tmp_path / "empty", "CLASS": tmp_path / "class"}

    code = judge_main("grade", *(places.get(arg, tmp_path / arg if arg == "missing" else arg) for arg in arguments))

    stderr = capsys.readouterr().err
    assert code == 2 and message in stderr and stderr.count("\n") == 1


# --- interruptions: a real `judge grade` process, stopped from outside -------------------------------------------

SLOW_CLASS = {f"s{index:02}": {"add.py": "slow_add"} for index in range(10)}


def _wait_for_rows(out: Path, count: int, process, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        assert process.poll() is None, process.communicate()
        try:
            if len(stored_rows(out)) >= count:
                return
        except sqlite3.OperationalError:  # not created yet
            pass
        time.sleep(0.05)
    raise AssertionError(f"fewer than {count} results after {timeout} s")


def _tree(pid: int) -> list[psutil.Process]:
    return psutil.Process(pid).children(recursive=True)


def _leaked_control_groups(processes: list[psutil.Process]) -> list[Path]:
    """Control groups that runs started by these processes left behind (execute.run names them judge-<pid>-<n>)."""
    return [path for process in processes for path in Path("/sys/fs/cgroup").glob(f"*/judge-{process.pid}-*")]


@pytest.fixture
def started() -> list:
    """Grade processes a test starts; killed at the end if a failed assertion left them running."""
    processes: list = []
    yield processes
    for process in processes:
        if process.poll() is None:
            process.kill()
            process.communicate()


@pytest.mark.slow
def test_sigkill_loses_only_pairs_in_flight_and_a_rerun_judges_the_rest(tmp_path: Path, problems: Path,
                                                                         started: list) -> None:
    root = write_class(tmp_path / "class", SLOW_CLASS)
    out = tmp_path / "out"
    process = grade_process(problems, root, "--out", out, "-j", "2", scratch=tmp_path / "scratch")
    started.append(process)
    _wait_for_rows(out, 3, process)
    descendants = _tree(process.pid)

    process.send_signal(signal.SIGKILL)
    process.wait(timeout=10)
    first = stored_rows(out)
    _, alive = psutil.wait_procs(descendants, timeout=20)
    assert not alive, f"left running after the judge was killed: {alive}"
    assert not _leaked_control_groups(descendants)

    rerun = grade_process(problems, root, "--out", out, "-j", "2")
    started.append(rerun)
    _, stderr = rerun.communicate(timeout=120)
    assert rerun.returncode == 0, stderr
    assert 3 <= len(first) < len(SLOW_CLASS)
    assert _summary(stderr) == (len(SLOW_CLASS) - len(first), len(first))
    final = stored_rows(out)
    assert sorted(final) == sorted((student, "add") for student in SLOW_CLASS)
    assert {pair: verdict for pair, (verdict, _) in final.items()} == {pair: "AC" for pair in final}
    assert all(final[pair] == first[pair] for pair in first)


# Slow: 9-10 s each (the default run keeps to ten minutes)
@pytest.mark.slow
@pytest.mark.parametrize(("stop", "code"), [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
def test_sigterm_and_ctrl_c_stop_the_workers_and_keep_the_results(tmp_path: Path, problems: Path, started: list,
                                                                   stop: signal.Signals, code: int) -> None:
    root = write_class(tmp_path / "class", SLOW_CLASS)
    out = tmp_path / "out"
    process = grade_process(problems, root, "--out", out, "-j", "2")
    started.append(process)
    _wait_for_rows(out, 2, process)
    descendants = _tree(process.pid)
    assert len(descendants) >= 2

    process.send_signal(stop)
    _, stderr = process.communicate(timeout=30)
    _, alive = psutil.wait_procs(descendants, timeout=5)

    assert process.returncode == code, stderr
    assert "run the same command again" in stderr and stderr.count("\n") == 1
    assert not alive, f"left running after the judge stopped: {alive}"
    assert not _leaked_control_groups(descendants)
    assert not (out / "grades.csv").exists()
    stored = len(stored_rows(out))
    rerun = grade_process(problems, root, "--out", out, "-j", "2")
    started.append(rerun)
    _, stderr = rerun.communicate(timeout=120)
    assert rerun.returncode == 0 and _summary(stderr) == (len(SLOW_CLASS) - stored, stored)


@pytest.mark.slow  # 10-30 s of deadlines and restarts: CI runs it in the slow suite
def test_a_forced_run_stopped_by_ctrl_c_is_resumed_by_a_plain_run(tmp_path: Path, problems: Path,
                                                                   started: list) -> None:
    root = write_class(tmp_path / "class", SLOW_CLASS)
    out = tmp_path / "out"
    assert judge_main("grade", problems, root, "--out", out, "-q", "-j", "2") == 0
    before = stored_rows(out)
    forced = grade_process(problems, root, "--out", out, "-j", "2", "--force")
    started.append(forced)
    deadline = time.monotonic() + 60
    while sum(stored_rows(out)[pair] != before[pair] for pair in before) < 2:
        assert forced.poll() is None and time.monotonic() < deadline, forced.communicate()
        time.sleep(0.05)
    forced.send_signal(signal.SIGINT)
    _, stderr = forced.communicate(timeout=30)
    again = {pair for pair, row in stored_rows(out).items() if row != before[pair]}
    assert forced.returncode == 130, stderr
    assert "same command" not in stderr and "run the command again without --force" in stderr
    assert f"{len(again)} of {len(SLOW_CLASS)} pairs were judged again" in stderr
    assert len(again) < len(SLOW_CLASS)

    rerun = grade_process(problems, root, "--out", out, "-j", "2")
    started.append(rerun)
    _, stderr = rerun.communicate(timeout=120)
    assert rerun.returncode == 0, stderr
    assert _summary(stderr) == (len(SLOW_CLASS) - len(again), len(again))  # exactly what the forced run missed
    final = stored_rows(out)
    assert all(final[pair] != before[pair] for pair in before)
