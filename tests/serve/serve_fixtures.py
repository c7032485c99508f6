"""What the serve tests share: a tiny A+B problem, a roster, an in-process app (no judging process) and a real
`judge serve` in a subprocess."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import psutil
import pytest
from argon2 import PasswordHasher
from conftest import ROOT, write_problem

from judge.problems.scan import load_problems
from judge.batch.tasks import SubmissionOutcome
from judge.judging.results import CaseResult, SubmissionResult
from judge.runner.limits import Limits
from judge.serve.auth import Passwords
from judge.serve.roster import RosterEntry
from judge.serve.server import enrol
from judge.serve.service import ServeContext
from judge.serve.store import Store
from judge.verdicts import Verdict

AC_SOURCE = "a, b = map(int, input().split())\nprint(a + b)\n"
WA_SOURCE = "print(0)\n"
STUDENTS = (("kim", "Kim Minji", "kim-password"), ("lee", "Lee Jun", "lee-password"))
URL_LINE = re.compile(r"judge serve: (https?://\S+/) ")
START_SECONDS = 60.0
CHEAP_HASHER = PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)
"""argon2id still, at a cost that keeps a test that signs in a dozen times fast (the server uses the default)."""


def write_problems(root: Path) -> Path:
    """PROBLEMS with one problem `sum` (A+B): a sample and a hidden test, and a statement."""
    problem = write_problem(root / "sum", {"sample1": ("1 2\n", "3\n"), "2": ("5 7\n", "12\n")}, id="sum",
                            title="A+B")
    (problem / "statement.md").write_text("# A+B\n\nPrint the **sum** of two integers.\n", encoding="utf-8")
    return root


def write_roster(path: Path, students: Sequence[tuple[str, str, str]] = STUDENTS) -> Path:
    path.write_text("id,name,password\n" + "".join(f"{i},{n},{p}\n" for i, n, p in students), encoding="utf-8")
    return path


def make_context(tmp_path: Path, students: Sequence[tuple[str, str, str]] = STUDENTS, *,
                 max_pending: int = 5) -> ServeContext:
    """A ServeContext over a fresh data folder (no judging process: submissions stay queued)."""
    data = tmp_path / "data"
    data.mkdir()
    store = Store(data)
    store.create()
    passwords = Passwords(CHEAP_HASHER)
    enrol(store, [RosterEntry(i, n, p, generated=False) for i, n, p in students], passwords)
    problems_dir = write_problems(tmp_path / "problems")
    return ServeContext(data_dir=data, store=store, problems_dir=problems_dir, problems=load_problems(problems_dir),
                        teacher_secret="teacher-secret", session_key="k" * 32, max_pending=max_pending,
                        opened_at=time.time(), passwords=passwords)


@dataclass(frozen=True)
class RunningServer:
    process: subprocess.Popen[str]
    url: str
    data: Path


def judge_env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}


@contextmanager
def running_server(tmp_path: Path, *extra: str, data: Path | None = None) -> Iterator[RunningServer]:
    """`judge serve` on a free loopback port, stopped (SIGTERM, then SIGKILL) after the block."""
    problems = tmp_path / "problems"
    if not problems.exists():
        write_problems(problems)
    roster = tmp_path / "roster.csv"
    if not roster.exists():
        write_roster(roster)
    data = data or tmp_path / "data"
    process = start_server(problems, roster, data, *extra)
    try:
        yield RunningServer(process, wait_for_url(process), data)
    finally:
        stop_server(process)


def start_server(problems: Path, roster: Path, data: Path, *extra: str) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "judge", "serve", str(problems), "--roster", str(roster),
                             "--data", str(data), "--port", "0", *extra], stderr=subprocess.PIPE,
                            stdout=subprocess.DEVNULL, text=True, env=judge_env(), start_new_session=True)


def wait_for_url(process: subprocess.Popen[str]) -> str:
    """The URL the server prints once it listens (its first line)."""
    assert process.stderr is not None
    deadline = time.monotonic() + START_SECONDS
    while time.monotonic() < deadline:
        line = process.stderr.readline()
        if not line:
            raise AssertionError(f"judge serve exited ({process.wait()}) before listening")
        if match := URL_LINE.search(line):
            return match.group(1)
    raise AssertionError("judge serve did not print its URL")


def stop_server(process: subprocess.Popen[str]) -> None:
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    if process.stderr is not None:
        process.stderr.close()


def wait_until_judged(store: Store, count: int, timeout: float = 120.0) -> None:
    """Until `count` submissions are done (bounded by `timeout`)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if store.counts().get("done", 0) >= count:
            return
        time.sleep(0.2)
    raise AssertionError(f"not judged in {timeout} s: {store.counts()}")


@contextmanager
def judging_stopped(server_pid: int) -> Iterator[None]:
    """The judging process (and its workers) stopped with SIGSTOP for the block: what is queued stays queued."""
    stopped = psutil.Process(server_pid).children(recursive=True)
    for process in stopped:
        os.kill(process.pid, signal.SIGSTOP)
    try:
        yield
    finally:
        for process in stopped:
            os.kill(process.pid, signal.SIGCONT)


def judged(store: Store, submission_id: int, verdict: Verdict, *, message: str = "", diff: str = "",
           compile_message: str = "", provenance: dict[str, object] | None = None) -> None:
    """Give a stored submission a result as the judging process would (a claim, then `finish`), with a test row
    per verdict: the sample carries `message` and `diff`, the hidden test the same verdict."""
    (claimed,) = store.claim([submission_id], "test-claim")
    row = claimed.submission
    cases = () if verdict is Verdict.CE else tuple(
        CaseResult(name=name, verdict=verdict, cpu_seconds=0.01, wall_seconds=0.02, peak_mib=3.0, message=message,
                   is_sample=name.startswith("sample"), diff=diff) for name in ("sample1", "2"))
    result = SubmissionResult(problem_id=row.problem_id, submission=row.file_name, language="Python 3",
                              limits=Limits(5, 11, 544, 1), isolation="bwrap", memory_enforcement="cgroup",
                              verdict=verdict, cases=cases, compile_message=compile_message,
                              provenance=provenance or {})
    outcome = SubmissionOutcome(verdict=verdict, tests_passed=result.passed, result=result, error="", worker="test")
    assert store.finish(submission_id, claimed.token, outcome)


CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                  "--disable-component-update"]


@contextmanager
def headless_chromium() -> Iterator[object]:
    """Debian's Chromium driven by playwright for the block (the test is skipped where either is missing)."""
    playwright_api = pytest.importorskip("playwright.sync_api")
    if not CHROMIUM.exists():
        pytest.skip("needs Chromium at /usr/bin/chromium (apt-get install chromium)")
    with playwright_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_FLAGS)
        try:
            yield launched
        finally:
            launched.close()


def sign_in_page(page: object, url: str, user: str, password: str) -> None:
    """Sign a Chromium page in through the login form; it lands on the home page (the teacher's: /teacher)."""
    page.goto(url + "login")  # type: ignore[attr-defined]
    page.fill("#id", user)  # type: ignore[attr-defined]
    page.fill("#password", password)  # type: ignore[attr-defined]
    page.click("#sign-in")  # type: ignore[attr-defined]
    page.wait_for_url(re.compile(re.escape(url) + "(teacher)?$"))  # type: ignore[attr-defined]
