"""`judge submit URL PROBLEM FILE`: submit through a `judge serve` server's API and print the result as `judge run`
prints it, with `judge run`'s exit codes (0 accepted, 1 another verdict, 3 the judge failed, 2 refused).

Standard library only (urllib): a student's machine needs nothing but `judge`. The id and password come from
--user/--password or JUDGE_USER/JUDGE_PASSWORD, sent as HTTP Basic (use an https:// URL off this machine).
"""

from __future__ import annotations

import base64
import json
import secrets
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import click

from judge.cli.exit_codes import ExitCode
from judge.cli.run import exit_code
from judge.errors import JudgeError
from judge.inert import for_terminal
from judge.judging.feedback import POLICIES, STUDENT, shown
from judge.judging.results import SubmissionResult
from judge.reporters.submission.terminal import report

POLL_SECONDS = 0.5
REQUEST_TIMEOUT = 30.0


@click.command("submit")
@click.argument("url")
@click.argument("problem")
@click.argument("source", metavar="FILE", type=click.Path(path_type=Path, dir_okay=False))
@click.option("--lang", metavar="KEY", default=None, help="Language key, instead of guessing from the extension.")
@click.option("--user", envvar="JUDGE_USER", required=True, help="Your id [env: JUDGE_USER].")
@click.option(
    "--password",
    envvar="JUDGE_PASSWORD",
    required=True,
    prompt=True,
    hide_input=True,
    help="Your password [env: JUDGE_PASSWORD; asked when missing].",
)
@click.option(
    "--wait",
    "wait_seconds",
    type=click.FloatRange(min=0),
    default=600.0,
    show_default=True,
    help="Seconds to wait for the verdict.",
)
def submit_command(
    url: str, problem: str, source: Path, lang: str | None, user: str, password: str, wait_seconds: float
) -> int:
    """Submit FILE for PROBLEM to the judge at URL and print the verdict and each test's row."""
    try:
        content = source.read_bytes()
    except OSError as error:
        raise JudgeError(f"{source}: cannot read it ({error.strerror}); give your source file") from None
    client = _Client(url, user, password)
    fields = {"problem": problem, **({"language": lang} if lang else {})}
    created = client.request("POST", "/api/submissions", _multipart(fields, source.name, content))
    submission_id = created["id"]
    click.echo(f"submitted as #{submission_id}; waiting for the verdict", err=True)
    deadline = time.monotonic() + wait_seconds
    last_status = ""
    while True:
        document = client.request("GET", f"/api/submissions/{submission_id}")
        status = document["status"] + (f": {document['progress']}" if document.get("progress") else "")
        if status != last_status:
            last_status = status
            click.echo(for_terminal(f"#{submission_id}: {status}"), err=True)
        if document["status"] == "done":
            break
        if time.monotonic() >= deadline:
            click.echo(
                f"judge submit: no verdict after {wait_seconds:g} s; see {url.rstrip('/')}/submissions/{submission_id}",
                err=True,
            )
            return ExitCode.JUDGE_FAILED
        time.sleep(POLL_SECONDS)
    if document["result"] is None:
        click.echo(for_terminal(f"judge submit: judge error: {document['error']}"), err=True)
        return ExitCode.JUDGE_FAILED
    result = SubmissionResult.from_dict(document["result"])
    policy = document.get("feedback")  # the policy the server applied; applying it again changes nothing
    report(shown(result, policy if isinstance(policy, str) and policy in POLICIES else STUDENT), sys.stdout)
    return exit_code(result)


class _Client:
    """The API over urllib with HTTP Basic; an HTTP error is the server's one line, as a JudgeError (exit 2)."""

    def __init__(self, url: str, user: str, password: str) -> None:
        if not url.startswith(("http://", "https://")):
            raise JudgeError(f"{url}: not a server address; give it as http://HOST:PORT or https://HOST:PORT")
        self._base = url.rstrip("/")
        token = base64.b64encode(f"{user}:{password}".encode()).decode("ascii")
        self._headers = {"Authorization": f"Basic {token}", "Accept": "application/json"}

    def request(self, method: str, path: str, body: tuple[bytes, str] | None = None) -> Any:
        headers = dict(self._headers)
        data = None
        if body is not None:
            data, headers["Content-Type"] = body
        request = urllib.request.Request(self._base + path, data=data, method=method, headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=REQUEST_TIMEOUT) as response:
                return json.loads(response.read())
        except urllib.error.HTTPError as error:
            raise JudgeError(f"{self._base}: {error.code}: {_error_line(error)}") from None
        except (urllib.error.URLError, TimeoutError, OSError) as error:
            reason = getattr(error, "reason", error)
            raise JudgeError(
                f"{self._base}: cannot reach the judge ({reason}); check the URL and that it runs"
            ) from None


def _error_line(error: urllib.error.HTTPError) -> str:
    try:
        return str(json.loads(error.read())["error"])
    except (ValueError, KeyError, TypeError, OSError):
        return error.reason or "refused"


def _multipart(fields: dict[str, str], file_name: str, content: bytes) -> tuple[bytes, str]:
    """A multipart/form-data body with `fields` and the file `file`, and its Content-Type."""
    boundary = f"judge-{secrets.token_hex(16)}"
    parts = []
    for name, value in fields.items():
        parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'.encode())
    quoted = file_name.replace("\\", "\\\\").replace('"', '\\"')
    parts.append(
        f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="{quoted}"\r\n'
        "Content-Type: application/octet-stream\r\n\r\n".encode("utf-8", "surrogateescape")
        + content
        + b"\r\n"
    )
    parts.append(f"--{boundary}--\r\n".encode())
    return b"".join(parts), f"multipart/form-data; boundary={boundary}"
