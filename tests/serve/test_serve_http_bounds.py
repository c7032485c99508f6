"""What a stranger's connection can make `judge serve` hold (issue 39, items 1, 8 and 9), against a real server over
loopback: a body is refused as it passes its bound (chunked, with no length to check first), nothing of it reaches
the disk, slow headers and slow bodies are cut, and a thousand silent connections do not lock the class out."""

from __future__ import annotations

import base64
import resource
import select
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

import pytest
from serve_fixtures import STUDENTS, judge_env, running_server, stop_server, wait_for_url, write_problems, write_roster
from starlette.formparsers import MultiPartParser

from judge.serve.http_bounds import BODY_SECONDS, FORM_BYTES, HEADER_SECONDS, UPLOAD_SLACK_BYTES

CHUNK = b"a" * 65536
STREAM_BYTES = 64 * 1024 * 1024
"""What the attacker would send, never ending the body: far past any bound, far past the disk the review saw fill."""
ANSWER_SECONDS = 30.0


def _address(url: str) -> tuple[str, int]:
    host, port = url.removeprefix("http://").rstrip("/").rsplit(":", 1)
    return host, int(port)


def _status(response: bytes) -> int:
    return int(response.split(b" ", 2)[1])


def _stream_chunked(url: str, path: str, headers: str, opening: bytes) -> tuple[bytes, int]:
    """Send a chunked body that never ends, reading between chunks: (the server's answer, bytes sent by then).
    Stops when an answer arrives, the server closes, or `STREAM_BYTES` are out (then waits for an answer)."""
    sent = 0
    with socket.create_connection(_address(url), timeout=ANSWER_SECONDS) as sock:
        sock.sendall(f"POST {path} HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n{headers}\r\n".encode())
        sock.sendall(b"%x\r\n%s\r\n" % (len(opening), opening))
        while sent < STREAM_BYTES:
            if select.select([sock], [], [], 0)[0]:
                break
            try:
                sock.sendall(b"%x\r\n%s\r\n" % (len(CHUNK), CHUNK))
            except (BrokenPipeError, ConnectionResetError):
                break
            sent += len(CHUNK)
        try:
            return sock.recv(65536), sent
        except (TimeoutError, ConnectionResetError):
            return b"", sent


def _disk_bytes(folder: Path) -> int:
    return sum(path.stat().st_size for path in folder.rglob("*") if path.is_file())


def test_a_chunked_upload_is_refused_as_it_passes_the_bound_and_never_reaches_the_disk(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Item 1: a signed-in student streams a file part with no Content-Length and keeps the body open."""
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    monkeypatch.setenv("TMPDIR", str(temporary))  # the server's temporary folder, where Starlette spools uploads
    student, _, password = STUDENTS[0]
    basic = base64.b64encode(f"{student}:{password}".encode()).decode()
    opening = (b'--b\r\nContent-Disposition: form-data; name="problem"\r\n\r\nsum\r\n'
               b'--b\r\nContent-Disposition: form-data; name="file"; filename="a.py"\r\n\r\n')
    with running_server(tmp_path) as server:
        answer, sent = _stream_chunked(server.url, "/api/submissions",
                                       f"Authorization: Basic {basic}\r\nContent-Type: multipart/form-data; boundary=b\r\n",
                                       opening)
        kept = _disk_bytes(temporary)
    assert _status(answer) == 413, answer
    assert sent < STREAM_BYTES  # refused while the body was still coming, not at its end
    assert kept < 64 * 1024, f"{kept} bytes of the upload reached the temporary folder"


def test_a_sign_in_form_streamed_without_end_is_refused_at_its_bound(tmp_path: Path) -> None:
    """Item 8: a stranger (no session, no password) streams a chunked body to /login."""
    with running_server(tmp_path) as server:
        answer, sent = _stream_chunked(server.url, "/login",
                                       "Content-Type: application/x-www-form-urlencoded\r\n", b"id=teacher&password=")
    assert _status(answer) == 413, answer
    assert sent < STREAM_BYTES


def test_every_body_bound_keeps_uploads_in_memory() -> None:
    """Bodies are read whole in memory: the largest bound (BOJ's largest source limit, 64 KiB, and the slack) stays
    under the size past which Starlette's form parser would spool a file to disk."""
    assert max(FORM_BYTES, 64 * 1024 + UPLOAD_SLACK_BYTES) < MultiPartParser.spool_max_size


def _closed_with(sock: socket.socket) -> bytes:
    """What the server sent before it closed `sock` (socket.timeout if it never does)."""
    received = b""
    while chunk := sock.recv(4096):
        received += chunk
    return received


@pytest.mark.slow  # 10-30 s of deadlines and restarts: CI runs it in the slow suite
def test_slow_headers_and_a_slow_body_are_cut_off(tmp_path: Path) -> None:
    """Item 9's slow half: headers that never end, and a body that stops after 10 of its 1,000 declared bytes."""
    with running_server(tmp_path) as server, ExitStack() as stack:
        wait = 4 * max(HEADER_SECONDS, BODY_SECONDS)
        headers = stack.enter_context(socket.create_connection(_address(server.url), timeout=wait))
        headers.sendall(b"GET /login HTTP/1.1\r\nHost: x\r\nX-Slow: ")
        body = stack.enter_context(socket.create_connection(_address(server.url), timeout=wait))
        body.sendall(b"POST /login HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\n"
                     b"Content-Length: 1000\r\n\r\nid=teache")
        assert _status(_closed_with(headers)) == 408
        assert _status(_closed_with(body)) == 408


@contextmanager
def _descriptors_raised() -> Iterator[int]:
    """This test process's open-file limit raised to its hard limit for the block; the limit."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    try:
        yield hard
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def _login_shell_limits() -> None:
    """`preexec_fn`: the server starts with a login shell's 1,024 open files (the hard limit stays)."""
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (1024, hard))


def _get_status(url: str) -> int | None:
    """The status of GET /login, None when the server did not answer within a few seconds."""
    try:
        with socket.create_connection(_address(url), timeout=5) as sock:
            sock.sendall(b"GET /login HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            answer = sock.recv(4096)
    except OSError:
        return None
    return _status(answer) if answer.startswith(b"HTTP/") else None


@pytest.mark.slow  # 10-30 s of deadlines and restarts: CI runs it in the slow suite
def test_a_thousand_silent_connections_do_not_lock_the_class_out(tmp_path: Path) -> None:
    """Item 9: 1,100 connections that never finish their headers, against a server started with 1,024 open files:
    a student's request gets a clear 503 or its page, never silence, and its page once the silent ones are cut."""
    problems = write_problems(tmp_path / "problems")
    roster = write_roster(tmp_path / "roster.csv")
    with _descriptors_raised() as limit:
        if limit < 1500:
            pytest.skip(f"the hard open-file limit ({limit}) is too low to open 1,100 connections")
        process = subprocess.Popen(
            [sys.executable, "-m", "judge", "serve", str(problems), "--roster", str(roster), "--data",
             str(tmp_path / "data"), "--port", "0"], stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True,
            env=judge_env(), start_new_session=True, preexec_fn=_login_shell_limits)
        try:
            url = wait_for_url(process)
            with ExitStack() as stack:
                for _ in range(1100):
                    silent = stack.enter_context(socket.create_connection(_address(url), timeout=30))
                    silent.sendall(b"GET / HTTP/1.1\r\n")
                seen: list[int | None] = []
                deadline = time.monotonic() + 6 * HEADER_SECONDS
                while time.monotonic() < deadline and (not seen or seen[-1] != 200):
                    seen.append(_get_status(url))
                    time.sleep(0.5)
        finally:
            stop_server(process)
    assert seen and seen[-1] == 200, seen
    assert set(seen) <= {200, 503}, seen  # a clear answer every time, never a hang


def test_one_address_holding_a_thousand_silent_connections_leaves_the_class_served(tmp_path: Path) -> None:
    """The second review: one stranger reopening 1,000 silent sockets kept every client at uvicorn's 503. One address
    now holds at most PER_ADDRESS (its next connection is a clear 503), and a student elsewhere gets the page."""
    with _descriptors_raised() as limit, running_server(tmp_path) as server, ExitStack() as stack:
        if limit < 1500:
            pytest.skip(f"the hard open-file limit ({limit}) is too low to open 1,000 connections")
        host, port = _address(server.url)
        answers = []
        for _ in range(1000):
            silent = stack.enter_context(socket.create_connection((host, port), timeout=30,
                                                                  source_address=("127.0.0.2", 0)))
            silent.sendall(b"GET / HTTP/1.1\r\n")
        assert _get_status(server.url) == 200  # from 127.0.0.1, at once: no wait for the silent ones to be cut
        answers.append(silent.recv(4096))  # the last of them: long past the bound, refused in so many words
    assert _status(answers[0]) == 503 and b"too many connections from your address" in answers[0]
