"""`judge serve PROBLEMS --roster roster.csv --data DIR`: a classroom online judge in one command (judge/serve/)."""

from __future__ import annotations

import ipaddress
from pathlib import Path

import click

from judge.batch.executors import ExecutorChoice
from judge.cli.executor_options import executor_options
from judge.cli.options import SANDBOX, run_options
from judge.errors import JudgeError
from judge.options import RunOptions

DEFAULT_MAX_PENDING = 5


@click.command("serve")
@click.argument("problems_dir", metavar="PROBLEMS", type=click.Path(path_type=Path))
@click.option(
    "--roster",
    type=click.Path(path_type=Path),
    required=True,
    help="CSV with columns id,name and optionally password (missing ones are generated into DIR/passwords.csv).",
)
@click.option(
    "--data",
    "data_dir",
    type=click.Path(path_type=Path),
    default=Path("judge-data"),
    show_default=True,
    help="Folder for the database, the secrets, passwords.csv and exports (created if missing).",
)
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="Address to listen on (0.0.0.0 opens it to the lab network: use TLS there).",
)
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True, help="0: any free port.")
@click.option(
    "--certfile",
    type=click.Path(path_type=Path, exists=True, dir_okay=False),
    default=None,
    help="TLS certificate (PEM): serve HTTPS.",
)
@click.option(
    "--keyfile",
    type=click.Path(path_type=Path, exists=True, dir_okay=False),
    default=None,
    help="The certificate's private key (PEM), unless --certfile holds it too.",
)
@click.option(
    "--trusted-proxy",
    "trusted_proxies",
    metavar="ADDRESS",
    multiple=True,
    help="A reverse proxy's address or network (repeat it, or separate by commas): only its X-Forwarded-For and "
    "X-Forwarded-Proto are believed (the students' addresses, HTTPS for the cookie).",
)
@executor_options
@click.option(
    "--max-pending",
    type=click.IntRange(min=1),
    default=DEFAULT_MAX_PENDING,
    show_default=True,
    help="Submissions a student may have waiting for a verdict at once.",
)
@run_options(SANDBOX)
def serve_command(
    problems_dir: Path,
    roster: Path,
    data_dir: Path,
    host: str,
    port: int,
    certfile: Path | None,
    keyfile: Path | None,
    trusted_proxies: tuple[str, ...],
    executor: ExecutorChoice,
    max_pending: int,
    options: RunOptions,
) -> None:
    """Serve PROBLEMS to the students of the roster: they submit from a browser (or `judge submit`) and see their
    verdicts live; the teacher signs in with the secret printed at start."""
    from judge.serve.server import ServeRequest, say_on_stderr, serve

    if keyfile is not None and certfile is None:
        raise JudgeError("--keyfile needs --certfile: give the certificate too")
    serve(
        ServeRequest(
            problems_dir=problems_dir,
            roster=roster,
            data_dir=data_dir,
            host=host,
            port=port,
            certfile=certfile,
            keyfile=keyfile,
            executor=executor,
            options=options,
            max_pending=max_pending,
            trusted_proxies=proxy_networks(trusted_proxies),
        ),
        say_on_stderr,
    )


def proxy_networks(values: tuple[str, ...]) -> tuple[str, ...]:
    """The --trusted-proxy values as networks uvicorn reads; a value that is not an address is refused (uvicorn
    would take it as a literal name that no peer ever has, and believe nobody without a word)."""
    networks = []
    for value in (part.strip() for given in values for part in given.split(",")):
        try:
            networks.append(str(ipaddress.ip_network(value, strict=False)))
        except ValueError:
            raise JudgeError(
                f"--trusted-proxy {value!r}: not an IP address or network; give the reverse proxy's address, "
                "e.g. 127.0.0.1 or 10.0.0.0/24"
            ) from None
    return tuple(networks)
