"""Dask's HTTP pages are off unless asked for (issue 39, item 13): they list task keys (students' names), call
stacks and logs to every account on the machine. A `judge cluster scheduler` and `judge cluster worker` listen
on their TLS ports and nothing else; `judge cluster scheduler --dashboard` serves the pages on loopback and says
where. Slow: real scheduler and worker processes."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import urllib.request
from collections.abc import Iterable
from pathlib import Path

import pytest
from conftest import judge_cli
from dask_cluster import running_cluster

psutil = pytest.importorskip("psutil")
pytest.importorskip("distributed")

pytestmark = pytest.mark.slow


def _port(address: str) -> int:
    return int(address.rsplit(":", 1)[1])


def _listening(pids: Iterable[int]) -> dict[int, set[int]]:
    """Per process, the TCP ports it listens on."""
    return {pid: {connection.laddr.port for connection in psutil.Process(pid).net_connections(kind="tcp")
                  if connection.status == psutil.CONN_LISTEN} for pid in pids}


@pytest.fixture(scope="module")
def certificates(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("cluster") / "certificates"
    assert judge_cli("cluster", "init", folder).returncode == 0
    return folder


def test_a_scheduler_and_its_workers_listen_on_their_tls_ports_only(certificates: Path) -> None:
    with running_cluster(certificates, nworkers=2) as (address, client):
        scheduler_pid = client.run_on_scheduler(os.getpid)  # type: ignore[attr-defined]
        worker_pids = client.run(os.getpid)  # type: ignore[attr-defined]
        workers = client.scheduler_info(n_workers=-1)["workers"]  # type: ignore[attr-defined]
        nanny_pids = {worker: psutil.Process(pid).ppid() for worker, pid in worker_pids.items()}
        listening = _listening({scheduler_pid, *worker_pids.values(), *nanny_pids.values()})
    expected: dict[int, set[int]] = {scheduler_pid: {_port(address)}}
    for worker, pid in worker_pids.items():
        expected[pid] = {_port(worker)}
        expected.setdefault(nanny_pids[worker], set()).add(_port(workers[worker]["nanny"]))
    assert listening == expected

def test_the_schedulers_pages_are_served_on_loopback_with_dashboard(certificates: Path) -> None:
    scheduler = subprocess.Popen([sys.executable, "-m", "judge", "cluster", "scheduler", str(certificates), "--host",
                                  "127.0.0.1", "--port", "0", "--dashboard"], stdout=subprocess.PIPE,
                                 stderr=subprocess.DEVNULL, text=True)
    try:
        assert scheduler.stdout is not None
        address = re.search(r"tls://[0-9.]+:[0-9]+", scheduler.stdout.readline())
        pages = re.fullmatch(r"Dask's pages: (http://127\.0\.0\.1:([0-9]+)/) \(this machine only\)\n",
                             scheduler.stdout.readline())
        assert address and pages, "the scheduler did not say where it listens and where its pages are"
        with urllib.request.urlopen(pages[1] + "info/main/workers.html", timeout=60) as response:
            assert response.status == 200 and b"Workers" in response.read()
        assert _listening([scheduler.pid])[scheduler.pid] == {_port(address[0]), int(pages[2])}
    finally:
        scheduler.terminate()
        scheduler.wait(timeout=60)
