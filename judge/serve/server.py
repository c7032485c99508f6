"""`judge serve` as one command: hold the data folder, load the problems and the roster, start the judging
process, and serve HTTP (or HTTPS) with uvicorn until Ctrl-C or SIGTERM.

The judging process is supervised (supervisor.py): if it dies (killed, out of memory), a new one is started,
with backoff, which puts the submissions the old one held back in the queue. On the way out the server stops it
with SIGTERM, and it stops its workers (nothing is left running).
"""

from __future__ import annotations

import ipaddress
import multiprocessing
import os
import socket
import sys
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack, contextmanager
from multiprocessing.process import BaseProcess
from pathlib import Path

import msgspec.structs
from msgspec import Struct

from judge.batch.executors import ExecutorChoice
from judge.course.assignments import ASSIGNMENTS_FILE
from judge.course.extensions import EXTENSIONS_FILE
from judge.course.roster import read_roster
from judge.errors import JudgeError
from judge.options import RunOptions
from judge.output_folder import FolderWords, one_writer_at_a_time
from judge.private_folder import claim_private_folder, create_private_file
from judge.problems.scan import load_problems
from judge.serve.auth import Passwords
from judge.serve.http_bounds import connections_within, guarded_protocol, raise_descriptor_limit
from judge.serve.judge_process import JudgingConfig, judging_main
from judge.serve.roster import (
    DATA_FOLDER_FIX,
    PASSWORDS_FILE,
    SESSION_KEY_FILE,
    TEACHER_ID,
    TEACHER_SECRET_FILE,
    RosterEntry,
    kept_secret,
    with_passwords,
)
from judge.serve.service import ServeContext
from judge.serve.store import DATABASE_NAME, Store, Student
from judge.serve.supervisor import JudgingSupervisor

LOCK_FILE = "serve.lock"
DATA_FOLDER = FolderWords("the data folder", "start `judge serve` again")
"""How a data folder too full to hold the server's lock is told."""


class ServeRequest(Struct, frozen=True):
    """Everything `judge serve` was asked to do."""

    problems_dir: Path
    roster: Path
    data_dir: Path
    host: str
    port: int
    certfile: Path | None
    keyfile: Path | None
    executor: ExecutorChoice
    options: RunOptions
    max_pending: int
    trusted_proxies: tuple[str, ...]
    """Addresses or networks whose X-Forwarded-For and X-Forwarded-Proto are believed (none: nobody's)."""


@contextmanager
def data_folder_lock(data_dir: Path) -> Iterator[None]:
    """Make `data_dir` this account's alone (judge.private_folder: made 0700, or refused in one line when another
    account owns or may write in it or anything in it, or it holds a link) and hold its lock (judge.output_folder);
    a second server on it is refused with one line. The database file is made 0600 first, so SQLite's -wal and
    -shm files are too."""
    claim_private_folder(data_dir, DATA_FOLDER_FIX)
    with ExitStack() as held:
        try:
            held.enter_context(
                one_writer_at_a_time(
                    data_dir,
                    LOCK_FILE,
                    DATA_FOLDER,
                    lambda holder: (
                        f"{data_dir}: another `judge serve` is using this data folder{holder}; stop it first, "
                        "or give another --data"
                    ),
                )
            )
        except OSError as error:
            raise JudgeError(
                f"{data_dir}: cannot use it as the data folder ({error.strerror}); give another --data"
            ) from None
        create_private_file(data_dir / DATABASE_NAME)
        yield


def enrol(store: Store, entries: list[RosterEntry], passwords: Passwords) -> None:
    """Make the roster the class: a student keeps their stored hash when their password still matches it, else
    the password is hashed anew (argon2 releases the GIL, so this runs on threads)."""
    known = store.students()

    def student(entry: RosterEntry) -> Student:
        stored = known.get(entry.id)
        if stored is not None and passwords.verify(stored.password_hash, entry.password):
            return Student(entry.id, entry.name, stored.password_hash)
        return Student(entry.id, entry.name, passwords.hash(entry.password))

    with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        store.put_students(list(pool.map(student, entries)))


def bind(host: str, port: int) -> socket.socket:
    """The listening socket, bound here so that a busy port is one clear line (port 0: any free port)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as error:
        sock.close()
        raise JudgeError(
            f"--host {host} --port {port}: cannot listen there ({error.strerror}); choose another "
            "--port (or stop what uses it)"
        ) from None
    sock.listen(128)
    sock.set_inheritable(False)
    return sock


def serve(request: ServeRequest, say: Callable[[str], None]) -> None:
    """Run the server until it is stopped; `say` prints a line for the teacher."""
    import uvicorn

    from judge.serve.app import create_app

    problems = load_problems(request.problems_dir)  # a wrong PROBLEMS is told before any folder is made
    with data_folder_lock(request.data_dir):
        store = Store(request.data_dir)
        store.create()
        passwords = Passwords()
        roster = read_roster(request.roster)
        entries = with_passwords(roster, request.data_dir)
        enrol(store, entries, passwords)
        sock = bind(request.host, request.port)
        https = request.certfile is not None
        context = ServeContext(
            data_dir=request.data_dir,
            store=store,
            problems_dir=request.problems_dir,
            problems=problems,
            teacher_secret=kept_secret(request.data_dir / TEACHER_SECRET_FILE),
            session_key=kept_secret(request.data_dir / SESSION_KEY_FILE),
            max_pending=request.max_pending,
            opened_at=_opened_at(store),
            passwords=passwords,
            extensions_file=request.roster.parent / EXTENSIONS_FILE,
            roster=roster,
        )
        context.course_files = context.read_course_files(problems)
        max_connections = connections_within(raise_descriptor_limit())
        config = uvicorn.Config(
            create_app(context),
            http=guarded_protocol(max_connections, request.trusted_proxies),
            limit_concurrency=max_connections,
            log_level="warning",
            access_log=False,
            lifespan="off",
            ssl_certfile=str(request.certfile) if https else None,
            ssl_keyfile=str(request.keyfile) if request.keyfile else None,
            proxy_headers=bool(request.trusted_proxies),  # uvicorn's default believes anyone on 127.0.0.1
            forwarded_allow_ips=list(request.trusted_proxies),
        )
        port = sock.getsockname()[1]
        host = f"[{request.host}]" if ":" in request.host else request.host
        url = f"{'https' if https else 'http'}://{host}:{port}/"
        if not _loopback(request.host) and not https:
            say(
                f"warning: serving on {request.host} without TLS: passwords and code cross the network in the "
                "clear; give --certfile/--keyfile, or put an HTTPS reverse proxy in front (README)"
            )
        executor = with_slow_lane(request.executor)
        workers = (
            f"{executor.jobs} local worker(s), and {executor.spare} more for judgings gone slow"
            if executor.scheduler is None
            else f"the Dask cluster at {executor.scheduler.address}"
        )
        say(f"judge serve: {url} ({len(problems)} problem(s), {len(entries)} student(s), judging on {workers})")
        say(
            f"teacher: sign in as {TEACHER_ID!r} with {context.teacher_secret} "
            f"(kept in {request.data_dir / TEACHER_SECRET_FILE})"
        )
        if context.course_files.assignments:
            course = context.course_files
            say(
                f"course: {len(course.assignments)} assignment(s) from {request.problems_dir / ASSIGNMENTS_FILE}, "
                f"{len(course.extensions)} extension(s) from {context.extensions_file}"
            )
        if any(entry.generated for entry in entries):
            say(f"students' generated passwords: {request.data_dir / PASSWORDS_FILE}")
        judging = JudgingConfig(request.data_dir, request.problems_dir, executor, request.options, os.getpid())
        spawn = multiprocessing.get_context("spawn")
        supervisor = JudgingSupervisor(
            lambda: _started(spawn.Process(target=judging_main, args=(judging,), name="judge-serve-judging")), say
        )
        try:
            uvicorn.Server(config).run(sockets=[sock])
        finally:
            supervisor.stop()
            sock.close()


def _started(process: BaseProcess) -> BaseProcess:
    process.start()
    return process


def _opened_at(store: Store) -> float:
    """When this data folder first served: the start of penalty minutes when the teacher set no window."""
    settings = store.settings()
    if "opened_at" not in settings:
        settings["opened_at"] = repr(time.time())
        store.put_settings({"opened_at": settings["opened_at"]})
    return float(settings["opened_at"])


def with_slow_lane(choice: ExecutorChoice) -> ExecutorChoice:
    """The local pool with as many spare processes as `-j`: a judging gone slow (an endless loop) makes room for a
    fresh submission beside it (batch/executors/lanes.py), so two endless loops at once do not hold every verdict
    of a class with `-j 2`. A Dask cluster is left as its workers size it."""
    return choice if choice.scheduler is not None else msgspec.structs.replace(choice, spare=choice.jobs)


def _loopback(host: str) -> bool:
    """Whether `host` is this machine only (a name other than localhost counts as the network)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def say_on_stderr(line: str) -> None:
    print(line, file=sys.stderr, flush=True)
