"""`judge grade --scheduler` against a real Dask cluster started by `judge cluster scheduler` / `worker` (mutual
TLS; two worker processes, one thread each), including a worker killed while it is judging."""

from __future__ import annotations

import json
import os
import re
import signal
import sqlite3
import time
from pathlib import Path

import pytest
from dask_cluster import running_cluster
from grade_helpers import EXPECTED, SOURCES, grade_process, judge_main, stored_rows, write_class, write_problems

distributed = pytest.importorskip("distributed")
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def cluster_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("cluster") / "certificates"
    assert judge_main("cluster", "init", folder) == 0
    return folder


@pytest.fixture(scope="module")
def cluster(cluster_dir: Path):
    """`judge cluster scheduler` and `judge cluster worker --nworkers 2` as a teacher starts them (mutual TLS),
    and a client holding the cluster's certificate."""
    with running_cluster(cluster_dir) as (address, client):
        yield address, client


def test_a_cluster_gives_the_same_verdicts_as_local_workers(tmp_path: Path, cluster, cluster_dir: Path,
                                                            capsys) -> None:
    address, client = cluster
    problems = write_problems(tmp_path / "problems")
    root = write_class(tmp_path / "class")

    assert judge_main("grade", problems, root, "--out", tmp_path / "out", "--scheduler", address,
                      "--cluster-dir", cluster_dir) == 0

    rows = stored_rows(tmp_path / "out")
    assert {pair: verdict for pair, (verdict, _) in rows.items()} == EXPECTED
    assert "judged 8, up to date 0" in capsys.readouterr().err
    worker_pids = set(client.run(os.getpid).values())
    with_pid = {int(worker.rsplit(":", 1)[1]) for worker in _workers(tmp_path / "out").values()}
    assert with_pid <= worker_pids and len(with_pid) == 2  # both workers judged, none of it ran here


def test_a_worker_killed_mid_run_loses_nothing_and_duplicates_nothing(tmp_path: Path, cluster,
                                                                      cluster_dir: Path) -> None:
    address, client = cluster
    problems = write_problems(tmp_path / "problems")
    students = {f"s{index:02}": {"add.py": "slow_add", "mul.py": "mul_ac"} for index in range(8)}
    root = write_class(tmp_path / "class", students)
    out = tmp_path / "out"
    process = grade_process(problems, root, "--out", out, "--scheduler", address, "--cluster-dir", cluster_dir)
    try:
        victim, lost = _busy_worker(client, out, process)
        os.kill(victim, signal.SIGKILL)
        _, stderr = process.communicate(timeout=180)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 0, stderr
    assert re.search(r"judged 16, up to date 0", stderr)
    rows = stored_rows(out)
    assert sorted(rows) == sorted((student, problem) for student in students for problem in ("add", "mul"))
    assert {verdict for verdict, _ in rows.values()} == {"AC"}
    judged_by = _workers(out)
    assert lost and all(not judged_by[pair].endswith(f":{victim}") for pair in lost)  # judged again elsewhere
    client.wait_for_workers(2, timeout=60)  # the nanny restarted it, for the next test


def test_an_unreachable_scheduler_is_a_usage_error(tmp_path: Path, capsys) -> None:
    problems = write_problems(tmp_path / "problems")
    root = write_class(tmp_path / "class", {"alice": {"add.py": "add_ac"}})

    code = judge_main("grade", problems, root, "--out", tmp_path / "out", "--scheduler", "tcp://127.0.0.1:9")

    stderr = capsys.readouterr().err
    assert code == 2 and "cannot reach a Dask scheduler there" in stderr and stderr.count("\n") == 1


def _busy_worker(client, out: Path, process, timeout: float = 60) -> tuple[int, list[tuple[str, str]]]:
    """The pid of a worker that has work, once some results are in, and the pairs it has (from the task keys)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        assert process.poll() is None, process.communicate()
        try:
            enough = len(stored_rows(out)) >= 2
        except sqlite3.OperationalError:  # the database does not exist yet
            enough = False
        busy = [(address, keys) for address, keys in client.processing().items() if keys]
        if enough and busy:
            address, keys = busy[0]
            pairs = [(match[2], match[1]) for key in keys if (match := re.match(r"judge-grade-(\w+)-(\w+)-", key))]
            return client.run(os.getpid, workers=[address])[address], pairs
        time.sleep(0.05)
    raise AssertionError("no worker was busy")


def _workers(out: Path) -> dict[tuple[str, str], str]:
    """(student, problem) -> the worker (host:pid) that judged it."""
    with sqlite3.connect(out / "results.sqlite") as connection:
        rows = connection.execute("SELECT student, problem_id, worker FROM results")
        return {(student, problem): worker for student, problem, worker in rows}


def test_verify_runs_on_the_cluster_too(tmp_path: Path, cluster, cluster_dir: Path, capsys) -> None:
    address, _ = cluster
    problems = write_problems(tmp_path / "problems")
    for name, source in (("accepted/sum.py", "add_ac"), ("wrong_answer/off.py", "add_wa")):
        path = tmp_path / "submissions" / "add" / name
        path.parent.mkdir(parents=True)
        path.write_text(SOURCES[source], encoding="utf-8")
    code = judge_main("verify", "add", "--problems-dir", problems, "--submissions-dir", tmp_path / "submissions",
                      "--scheduler", address, "--cluster-dir", cluster_dir, "--format", "json", "--sandbox", "none")
    document = json.loads(capsys.readouterr().out)
    assert code == 0, document
    assert [(Path(entry["path"]).name, entry["got"]) for entry in document["submissions"]] == [
        ("sum.py", "AC"), ("off.py", "WA")]
