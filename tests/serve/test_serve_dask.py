"""`judge serve --scheduler`: submissions judged on a real Dask cluster (`judge cluster scheduler` / `worker`,
mutual TLS), their progress ("test k of n") reaching the server's database through Dask's events, since a worker
on another machine cannot open it."""

from __future__ import annotations

import base64
import json
import os
import sqlite3
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import judge_cli, write_problem
from dask_cluster import running_cluster
from serve_fixtures import STUDENTS, running_server, write_roster

from judge.serve.progress import DaskProgressRecorder
from judge.serve.store import NewSubmission, Store

distributed = pytest.importorskip("distributed")

SLOW_SUM = "import time\ntime.sleep(0.4)\na, b = map(int, input().split())\nprint(a + b)\n"
TESTS = {f"{number}": (f"{number} {number}\n", f"{2 * number}\n") for number in range(1, 6)}


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path, set[int]]]:
    """A scheduler and two one-thread workers on this machine, as a teacher starts them: (address, the
    certificates' folder, the workers' pids)."""
    certificates = tmp_path_factory.mktemp("cluster") / "certificates"
    assert judge_cli("cluster", "init", certificates).returncode == 0
    with running_cluster(certificates) as (address, client):
        yield address, certificates, set(client.run(os.getpid).values())  # type: ignore[attr-defined]


def _submit(url: str, source: str) -> int:
    boundary = "daskboundary"
    body = (f'--{boundary}\r\nContent-Disposition: form-data; name="problem"\r\n\r\nslow\r\n'
            f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="slow.py"\r\n\r\n{source}\r\n'
            f"--{boundary}--\r\n").encode()
    credentials = base64.b64encode(f"{STUDENTS[0][0]}:{STUDENTS[0][2]}".encode()).decode()
    request = urllib.request.Request(f"{url}api/submissions", data=body, method="POST", headers={
        "Content-Type": f"multipart/form-data; boundary={boundary}", "Authorization": f"Basic {credentials}"})
    with urllib.request.urlopen(request, timeout=60) as response:
        return int(json.loads(response.read())["id"])


@pytest.mark.slow
def test_a_dask_cluster_judges_and_its_progress_reaches_the_page(tmp_path: Path, cluster) -> None:
    address, certificates, worker_pids = cluster
    write_problem(tmp_path / "problems" / "slow", TESTS, id="slow", title="Slow sum", time_limit=2)
    write_roster(tmp_path / "roster.csv")
    phases: set[str] = set()
    with running_server(tmp_path, "--scheduler", address, "--cluster-dir", str(certificates)) as server:
        submission_id = _submit(server.url, SLOW_SUM)
        database = server.data / "serve.sqlite"
        deadline = time.monotonic() + 120
        row = None
        while time.monotonic() < deadline:
            with sqlite3.connect(database, timeout=10) as connection:
                row = connection.execute("SELECT status, progress, verdict, worker FROM submissions WHERE id = ?",
                                         (submission_id,)).fetchone()
            if row[1]:
                phases.add(row[1])
            if row[0] == "done":
                break
            time.sleep(0.05)
    assert row is not None and row[0] == "done" and row[2] == "AC", row
    assert int(row[3].rsplit(":", 1)[1]) in worker_pids  # judged on the cluster, not in the judging process
    assert {f"test {k} of {len(TESTS)}" for k in range(2, len(TESTS))} & phases, phases


def test_the_recorder_writes_well_formed_events_under_their_claim_and_ignores_the_rest(tmp_path: Path) -> None:
    store = Store(tmp_path)
    store.create()
    first, second = (store.add_submission(NewSubmission("kim", "sum", "python3", "a.py", b"print(3)\n"), 5)
                     for _ in range(2))
    assert first is not None and second is not None
    mine = {each.submission.id: each.token for each in store.claim([first, second], "mine")}
    recorder = DaskProgressRecorder(store.path)
    for message in ("test 1 of 2", {"submission": str(first), "claim": mine[first], "phase": "test 1 of 2"},
                    {"submission": first, "claim": mine[first]}, {"submission": first, "claim": "another", "phase": "x"},
                    {"submission": second, "claim": mine[second], "phase": "test 2 of 2"}):
        recorder((0.0, message))
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and not store.submission(second).progress:  # type: ignore[union-attr]
        time.sleep(0.02)
    # written in order by one thread: once the last is there, every earlier one was handled
    assert store.submission(second).progress == "test 2 of 2"  # type: ignore[union-attr]
    assert store.submission(first).progress == ""  # type: ignore[union-attr]
