"""`judge grade`'s --out folder: a full disk is one line and exit 3, and a rerun after freeing space loses and
duplicates nothing; a second run on the same folder is refused while the first holds it, and a killed run frees it.

The full-disk tests mount a small tmpfs as --out (root only: skipped otherwise) and fill it for real, no mocks,
except for EDQUOT, which root cannot meet (quotas do not bind CAP_SYS_RESOURCE).
"""

from __future__ import annotations

import errno
import os
import re
import signal
import sqlite3
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import fill_disk, resize_tmpfs
from grade_helpers import grade_process, judge_main, sample_gradebook, stored_rows, write_class, write_problems

from judge.errors import JudgeFailure
from judge.grading.session import LOCK_NAME, one_run_at_a_time
from judge.grading.results_db import GRADEBOOK_FOLDER
from judge.output_folder import write_failure
from judge.reporters.gradebook import GRADEBOOK_VIEWS, write_views

SUMMARY = re.compile(r"judged (\d+), up to date (\d+)")
CLASS = {f"s{index:02}": {"add.py": "add_ac"} for index in range(16)}
SLOW_CLASS = {f"s{index:02}": {"add.py": "slow_add"} for index in range(8)}


def _full_line(out: Path) -> re.Pattern[str]:
    return re.compile(rf"judge: judge error: the gradebook folder {re.escape(str(out))} is full: [^\n]+; "
                      rf"free space and run the same command again to resume\n")


def _summary(stderr: str) -> tuple[int, int]:
    judged, reused = SUMMARY.search(stderr).groups()
    return int(judged), int(reused)


# --- a full --out ------------------------------------------------------------------------------------------------


@pytest.mark.slow
def test_a_full_out_folder_mid_run_is_one_line_exit_3_and_a_rerun_after_growing_it_loses_nothing(
        tmp_path: Path, tmpfs: Path) -> None:
    problems = write_problems(tmp_path / "problems")
    root = write_class(tmp_path / "class", CLASS)

    first = grade_process(problems, root, "--out", tmpfs, "-j", "2")
    _, stderr = first.communicate(timeout=120)

    assert first.returncode == 3, stderr
    assert _full_line(tmpfs).fullmatch(stderr), stderr
    kept = stored_rows(tmpfs)
    assert 1 <= len(kept) < len(CLASS)  # the disk filled up mid-run, after some results were committed
    assert not (tmpfs / "grades.csv").exists()

    resize_tmpfs(tmpfs, "4m")
    rerun = grade_process(problems, root, "--out", tmpfs, "-j", "2")
    _, stderr = rerun.communicate(timeout=120)

    assert rerun.returncode == 0, stderr
    assert _summary(stderr) == (len(CLASS) - len(kept), len(kept))
    final = stored_rows(tmpfs)
    assert sorted(final) == sorted((student, "add") for student in CLASS)
    assert all(final[pair] == kept[pair] for pair in kept)  # the same rows, not judged again
    assert {verdict for verdict, _ in final.values()} == {"AC"}
    assert (tmpfs / "grades.csv").read_text(encoding="utf-8-sig").count(",AC,") == len(CLASS)


def test_a_run_that_starts_on_a_full_out_folder_says_full_not_a_bad_database(tmp_path: Path, tmpfs: Path) -> None:
    problems = write_problems(tmp_path / "problems")
    root = write_class(tmp_path / "class", {"kim": {"add.py": "add_ac"}})
    resize_tmpfs(tmpfs, "1m")
    assert judge_main("grade", problems, root, "--out", tmpfs, "-q") == 0
    filler = fill_disk(tmpfs)

    again = grade_process(problems, root, "--out", tmpfs, "--force")
    _, stderr = again.communicate(timeout=120)

    assert again.returncode == 3, stderr
    assert _full_line(tmpfs).fullmatch(stderr), stderr
    filler.unlink()
    assert judge_main("grade", problems, root, "--out", tmpfs, "-q", "--force") == 0
    assert list(stored_rows(tmpfs)) == [("kim", "add")]


def test_a_full_disk_while_writing_the_gradebook_is_the_one_line_and_leaves_no_partial_file(
        tmp_path: Path, tmpfs: Path) -> None:
    gradebook = sample_gradebook(tmp_path)
    filler = fill_disk(tmpfs)

    with pytest.raises(JudgeFailure, match=r"^the gradebook folder .* is full: No space left on device.*; "
                                           r"free space and run the same command again to resume$"):
        write_views(gradebook, tmpfs)

    assert sorted(path.name for path in tmpfs.iterdir()) == ["filler"]
    filler.unlink()
    write_views(gradebook, tmpfs)
    assert sorted(path.name for path in tmpfs.iterdir()) == sorted(view.file_name for view in GRADEBOOK_VIEWS.values())


def test_a_quota_is_told_as_a_full_folder_and_other_errors_are_left_alone(tmp_path: Path, monkeypatch) -> None:
    gradebook = sample_gradebook(tmp_path)
    out = tmp_path / "views"
    out.mkdir()

    def over_quota(self: Path, *args: object, **kwargs: object) -> int:
        self.touch()
        raise OSError(errno.EDQUOT, os.strerror(errno.EDQUOT), str(self))

    monkeypatch.setattr(Path, "write_text", over_quota)
    with pytest.raises(JudgeFailure, match=rf"^the gradebook folder {re.escape(str(out))} is full: Disk quota "
                                           rf"exceeded \(\.grades\.csv\.partial\); free space and run the same"):
        write_views(gradebook, out)
    assert list(out.iterdir()) == []
    assert write_failure(PermissionError(errno.EACCES, "Permission denied"), out, GRADEBOOK_FOLDER) is None
    assert write_failure(sqlite3.OperationalError("no such table: results"), out, GRADEBOOK_FOLDER) is None


def test_an_sqlite_io_error_on_a_disk_with_room_is_told_as_an_io_error(tmp_path: Path) -> None:
    error = sqlite3.OperationalError("disk I/O error")
    error.sqlite_errorcode, error.sqlite_errorname = 778, "SQLITE_IOERR_WRITE"  # what SQLite says for EDQUOT
    assert str(write_failure(error, tmp_path, GRADEBOOK_FOLDER)) == (
        f"the gradebook folder {tmp_path} could not be written: disk I/O error (SQLITE_IOERR_WRITE); check its disk "
        f"(a quota, a failing device) and run the same command again to resume")


# --- one run at a time -------------------------------------------------------------------------------------------


def _wait_for_lock_holder(out: Path, process: subprocess.Popen[str], timeout: float = 60) -> None:
    """Until `process` has written its pid into the lock file (it holds the lock from then on)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        assert process.poll() is None, process.communicate()
        lock = out / LOCK_NAME
        if lock.exists() and lock.read_text().strip() == str(process.pid):
            return
        time.sleep(0.02)
    raise AssertionError(f"no lock taken after {timeout} s")


@pytest.fixture
def started() -> Iterator[list[subprocess.Popen[str]]]:
    """Grade processes a test starts; killed at the end if a failed assertion left them running."""
    processes: list[subprocess.Popen[str]] = []
    yield processes
    for process in processes:
        if process.poll() is None:
            process.kill()
            process.communicate()


def _first_run_holding_the_lock(tmp_path: Path, started: list) -> tuple[Path, Path, Path, subprocess.Popen]:
    """A slow class's `judge grade -j 1` started in the background, once it holds its --out folder's lock."""
    problems = write_problems(tmp_path / "problems")
    root = write_class(tmp_path / "class", SLOW_CLASS)
    out = tmp_path / "out"
    first = grade_process(problems, root, "--out", out, "-j", "1", scratch=tmp_path / "scratch")
    started.append(first)
    _wait_for_lock_holder(out, first)
    return problems, root, out, first


@pytest.mark.slow  # 7.8 s; the Dask test below is refused by the same lock, and every rerun test sees it end
def test_a_second_run_on_the_same_out_is_refused_with_one_line_while_the_first_runs(
        tmp_path: Path, started: list, capsys) -> None:
    problems, root, out, first = _first_run_holding_the_lock(tmp_path, started)

    assert judge_main("grade", problems, root, "--out", out, "-j", "1") == 2
    assert capsys.readouterr().err == (
        f"judge: {out}: another `judge grade` (pid {first.pid}) is writing this gradebook folder; wait for it to "
        f"end and run the same command again, or give another --out\n")

    _, stderr = first.communicate(timeout=120)
    assert first.returncode == 0, stderr
    assert _summary(stderr) == (len(SLOW_CLASS), 0)  # the refused run judged nothing, so nothing twice
    assert judge_main("grade", problems, root, "--out", out, "-q") == 0  # the lock ended with the run


def _stored_so_far(out: Path) -> dict:
    """The rows a killed run stored: none when it died before making its database or its table."""
    try:
        return stored_rows(out) if (out / "results.sqlite").exists() else {}
    except sqlite3.OperationalError:  # killed between creating the file and its table
        return {}


@pytest.mark.slow  # 5.2 s; test_grade_cli's SIGKILL test reruns on the killed run's folder and checks more
def test_a_killed_run_frees_the_folder(tmp_path: Path, started: list) -> None:
    problems, root, out, first = _first_run_holding_the_lock(tmp_path, started)

    first.send_signal(signal.SIGKILL)
    first.wait(timeout=10)
    kept = _stored_so_far(out)
    rerun = grade_process(problems, root, "--out", out, "-j", "2")
    started.append(rerun)
    _, stderr = rerun.communicate(timeout=120)

    assert rerun.returncode == 0, stderr
    assert _summary(stderr) == (len(SLOW_CLASS) - len(kept), len(kept))


def test_the_lock_is_the_clients_so_a_dask_run_is_refused_before_it_sends_anything(tmp_path: Path, capsys) -> None:
    problems = write_problems(tmp_path / "problems")
    root = write_class(tmp_path / "class", {"kim": {"add.py": "add_ac"}})
    out = tmp_path / "out"
    with one_run_at_a_time(out):  # another run holds the folder
        # Nothing listens on port 9: had the run contacted the scheduler first, it would fail differently.
        assert judge_main("grade", problems, root, "--out", out, "--scheduler", "tcp://127.0.0.1:9") == 2
    assert "another `judge grade`" in capsys.readouterr().err
    assert not (out / "results.sqlite").exists()
