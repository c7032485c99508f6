"""`judge cluster init | scheduler | worker`: a Dask cluster for `judge grade` and `verify` that only holders of
the cluster folder can use (mutual TLS; judge/cluster/)."""

from __future__ import annotations

import signal
from pathlib import Path
from types import ModuleType

import click

from judge.cluster.address import parse_address
from judge.cluster.files import ClusterFiles
from judge.errors import JudgeError

INSTALL = "judge cluster needs Dask and cryptography: pip install 'judge[dask]'"


@click.group("cluster")
def cluster_command() -> None:
    """Make and run a Dask cluster protected by TLS certificates (for grade/verify --scheduler)."""


@cluster_command.command("init")
@click.argument("folder", metavar="DIR", type=click.Path(path_type=Path))
@click.option(
    "--days",
    type=click.IntRange(1, 3650),
    default=400,
    show_default=True,
    help="How long the certificates are valid (400: a school year and its resits).",
)
def init_command(folder: Path, days: int) -> None:
    """Make DIR (mode 0700) with a new CA's certificate and the certificate and key every machine of the
    cluster shows; copy DIR to the scheduler, each worker and where you run judge grade."""
    try:
        from judge.cluster.certificates import make_cluster_files
    except ImportError:
        raise JudgeError(INSTALL) from None
    files = make_cluster_files(folder, days)
    click.echo(
        f"made {files.ca.name}, {files.certificate.name} and {files.key.name} in {folder}, valid {days} days;"
        f" copy the folder (0700, the key 0600) to the scheduler, every worker and where you run judge grade"
    )


@cluster_command.command("scheduler")
@click.argument("folder", metavar="DIR", type=click.Path(path_type=Path))
@click.option(
    "--host",
    default="",
    metavar="HOST",
    help="The address to listen on [default: every interface; only certificate holders get in].",
)
@click.option(
    "--port",
    type=click.IntRange(0, 65535),
    default=8786,
    show_default=True,
    help="The port to listen on (0: any free one).",
)
@click.option(
    "--dashboard",
    is_flag=True,
    help="Serve Dask's HTTP pages on 127.0.0.1:8787 (ssh -L 8787:127.0.0.1:8787 HOST). Off by default: they show "
    "every account on this machine the task keys (students' names), call stacks and logs.",
)
def scheduler_command(folder: Path, host: str, port: int, dashboard: bool) -> None:
    """Run the cluster's Dask scheduler with DIR's certificates until Ctrl-C or SIGTERM."""
    files = ClusterFiles(folder).checked()
    stopped_by = _daemons().run_scheduler(
        files,
        host,
        port,
        lambda address: click.echo(
            f"scheduler listening at {address}; on each worker machine: judge cluster worker {folder} {address}"
        ),
        dashboard=(lambda url: click.echo(f"Dask's pages: {url} (this machine only)")) if dashboard else None,
    )
    _say_stopped("scheduler", stopped_by)


@cluster_command.command("worker")
@click.argument("folder", metavar="DIR", type=click.Path(path_type=Path))
@click.argument("scheduler", metavar="tls://HOST:PORT")
@click.option(
    "--nworkers",
    type=click.IntRange(1, 1024),
    default=1,
    show_default=True,
    help="Worker processes to start, each judging one submission at a time (at most one per core).",
)
@click.option(
    "--host",
    default=None,
    metavar="HOST",
    help="The address workers listen on [default: the interface that reaches the scheduler].",
)
def worker_command(folder: Path, scheduler: str, nworkers: int, host: str | None) -> None:
    """Run worker processes (one thread each) for the scheduler at tls://HOST:PORT, with DIR's certificates,
    until Ctrl-C or SIGTERM."""
    address = parse_address(scheduler, "judge cluster worker")
    if address.scheme != "tls":
        raise JudgeError(
            f"judge cluster worker {scheduler}: the cluster speaks TLS only; give "
            f"tls://{str(address).partition('://')[2]}"
        )
    files = ClusterFiles(folder).checked()
    stopped_by = _daemons().run_workers(
        files, address, nworkers, host, lambda worker: click.echo(f"worker {worker} joined {address}")
    )
    _say_stopped(f"worker{'s' if nworkers > 1 else ''}", stopped_by)


def _daemons() -> ModuleType:
    """judge/cluster/daemons.py, once Dask is known to be installed."""
    try:
        from judge.cluster import daemons
    except ImportError:
        raise JudgeError(INSTALL) from None
    return daemons


def _say_stopped(what: str, signal_number: int) -> None:
    cause = signal.Signals(signal_number).name if signal_number else "it ended on its own"
    click.echo(f"judge cluster: {what} stopped ({cause})", err=True)
