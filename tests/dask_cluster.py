"""A real Dask cluster on this machine, started the way a teacher starts one (`judge cluster scheduler` and
`judge cluster worker`, mutual TLS), for the suites that judge on it (grade, verify and serve with --scheduler)."""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


@contextmanager
def running_cluster(certificates: Path, nworkers: int = 2) -> Iterator[tuple[str, object]]:
    """A scheduler on 127.0.0.1 and `nworkers` one-thread worker processes, closed by the certificates' folder
    (made by `judge cluster init`): yields (the scheduler's address, a client holding the certificate)."""
    import distributed

    from judge.cluster.files import ClusterFiles

    judge = [sys.executable, "-m", "judge", "cluster"]
    scheduler = subprocess.Popen([*judge, "scheduler", certificates, "--host", "127.0.0.1", "--port", "0"],
                                 stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    workers = None
    try:
        assert scheduler.stdout is not None
        found = re.search(r"tls://[0-9.]+:[0-9]+", scheduler.stdout.readline())
        assert found is not None, "the scheduler printed no address"
        address = found[0]
        workers = subprocess.Popen([*judge, "worker", certificates, address, "--nworkers", str(nworkers)],
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        with distributed.Client(address, security=ClusterFiles(certificates).security(), timeout="30s") as client:
            client.wait_for_workers(nworkers, timeout=120)
            assert set(client.nthreads().values()) == {1}
            yield address, client
    finally:
        for process in (workers, scheduler):
            if process is not None:
                process.terminate()
                process.wait(timeout=60)
