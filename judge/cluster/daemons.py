"""The daemons of `judge cluster scheduler` / `worker`: Dask's own Scheduler and Nannies, started with the cluster
folder's TLS.

What `dask scheduler` / `dask worker` do, without what they leave open: every listener is tls:// and
`require_encryption` refuses anything plain; the HTTP server Dask starts in every scheduler and worker, with no
switch to leave it out, is closed at once with no page in it (its pages list task keys, which hold students'
names, call stacks and logs, to every account on the machine), unless `judge cluster scheduler --dashboard` asks
for the scheduler's, on loopback only; each worker judges one task at a time (`nthreads=1`), so a neighbour never
disturbs a measured time. A Nanny restarts its worker when it dies.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from collections.abc import Awaitable, Callable, Coroutine, Iterator
from typing import TYPE_CHECKING, Any

from judge.cluster.address import SchedulerAddress
from judge.cluster.files import ClusterFiles
from judge.errors import JudgeError

if TYPE_CHECKING:
    from distributed import Worker
    from distributed.security import Security

SCHEDULER_HTTP = "127.0.0.1:8787"
"""Dask's usual dashboard port, on loopback (with --dashboard): reach it through `ssh -L 8787:127.0.0.1:8787 HOST`."""
UNUSED_HTTP = "127.0.0.1:0"
"""Where Dask's HTTP server listens, with no page, for the instant before it is closed."""
CONNECT_TIMEOUT = "10s"


def run_scheduler(
    files: ClusterFiles,
    host: str,
    port: int,
    announce: Callable[[str], None],
    *,
    dashboard: Callable[[str], None] | None = None,
) -> int:
    """Run a scheduler listening at tls://`host`:`port` (every interface when `host` is empty) until SIGINT or
    SIGTERM; `announce` gets the address workers and clients use. Dask's HTTP pages are served (on loopback) only
    when `dashboard` is given, which gets their URL. Returns the signal that stopped it (0: it stopped on its
    own)."""
    return _run(_scheduler(files.security(), host, port, announce, dashboard), f"tls://{host or '*'}:{port}")


def run_workers(
    files: ClusterFiles, scheduler: SchedulerAddress, count: int, host: str | None, announce: Callable[[str], None]
) -> int:
    """Run `count` single-threaded workers (each under a Nanny) for `scheduler` until SIGINT or SIGTERM; a
    scheduler that does not answer first is a JudgeError. Returns as `run_scheduler`."""
    return _run(_workers(files.security(), scheduler, count, host, announce), str(scheduler))


def _run(serving: Coroutine[Any, Any, int], where: str) -> int:
    try:
        return asyncio.run(serving)
    except (OSError, RuntimeError) as error:  # Dask says "Scheduler failed to start." from the OSError
        cause = error if isinstance(error, OSError) else error.__cause__
        if not isinstance(cause, OSError):  # an address in use or not on this machine
            raise
        raise JudgeError(
            f"{where}: cannot serve there ({' '.join(str(cause).split())}); choose another --host or --port"
        ) from None


async def _scheduler(
    security: Security,
    host: str,
    port: int,
    announce: Callable[[str], None],
    dashboard: Callable[[str], None] | None,
) -> int:
    import dask
    from distributed import Scheduler

    async with contextlib.AsyncExitStack() as stack:
        with _dask_quiet(), dask.config.set({} if dashboard is not None else {"distributed.scheduler.http.routes": []}):
            scheduler = Scheduler(
                host=host,
                port=port,
                protocol="tls",
                security=security,
                dashboard=dashboard is not None,  # Bokeh's dashboard too, where it is installed
                dashboard_address=UNUSED_HTTP if dashboard is None else SCHEDULER_HTTP,
            )
            if dashboard is None:
                scheduler.http_server.stop()  # before the scheduler takes its first connection
            await stack.enter_async_context(scheduler)
        announce(scheduler.address)
        if dashboard is not None:
            dashboard(f"http://{scheduler.http_server.address}:{scheduler.http_server.port}/")
        return await _until_stopped([scheduler.finished()])


async def _workers(
    security: Security, scheduler: SchedulerAddress, count: int, host: str | None, announce: Callable[[str], None]
) -> int:
    from distributed import Nanny

    await _check_scheduler(security, scheduler)
    async with contextlib.AsyncExitStack() as stack:
        with _dask_quiet():
            nannies = [
                await stack.enter_async_context(
                    Nanny(
                        str(scheduler),
                        nthreads=1,
                        security=security,
                        protocol="tls",
                        host=host,
                        dashboard_address=UNUSED_HTTP,
                        config={"distributed.worker.http.routes": []},
                        preload=[__name__],  # dask_setup below, in the worker's process
                    )
                )
                for _ in range(count)
            ]
        for nanny in nannies:
            announce(nanny.worker_address)
        return await _until_stopped([nanny.finished() for nanny in nannies])


def dask_setup(worker: Worker) -> None:
    """Close the worker's HTTP server (Dask's preload hook, run in each worker's process before the worker joins
    its scheduler)."""
    worker.http_server.stop()


async def _check_scheduler(security: Security, scheduler: SchedulerAddress) -> None:
    """One TLS exchange with `scheduler`: a wrong address or another cluster's certificate is told now, in one
    line, rather than as a worker retrying for ever."""
    from distributed.comm import connect

    try:
        comm = await connect(str(scheduler), timeout=CONNECT_TIMEOUT, **security.get_connection_args("worker"))
        try:
            await comm.write({"op": "identity", "reply": True})
            kind = (await comm.read()).get("type")
        finally:
            await comm.close()
    except OSError as error:
        raise JudgeError(
            f"{scheduler}: no scheduler of this cluster answers there "
            f"({' '.join(str(error).split())}); start judge cluster scheduler there with the same "
            "folder first"
        ) from None
    if kind != "Scheduler":
        raise JudgeError(
            f"{scheduler}: a Dask {kind}, not the scheduler; give the address judge cluster scheduler printed"
        )


@contextlib.contextmanager
def _dask_quiet() -> Iterator[None]:
    """Dask's INFO lines off while a server starts: a start that fails is the one line of its JudgeError, and
    one that works is announced by the caller; once running, Dask logs as usual."""
    logger = logging.getLogger("distributed")
    level = logger.level
    logger.setLevel(logging.WARNING)
    try:
        yield
    finally:
        logger.setLevel(level)


async def _until_stopped(finishing: list[Awaitable[None]]) -> int:
    """Wait for SIGINT or SIGTERM (its number) or for any of `finishing` (0)."""
    loop = asyncio.get_running_loop()
    stopped: asyncio.Future[int] = loop.create_future()

    def stop(number: int) -> None:
        if not stopped.done():
            stopped.set_result(number)

    for number in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(number, stop, number)
    ended: list[asyncio.Future[None]] = [asyncio.ensure_future(each) for each in finishing]
    waited: list[asyncio.Future[Any]] = [stopped, *ended]
    await asyncio.wait(waited, return_when=asyncio.FIRST_COMPLETED)
    for task in ended:
        task.cancel()
    return stopped.result() if stopped.done() else 0
