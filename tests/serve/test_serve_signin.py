"""Sign-in limits that a stranger cannot turn against the owner, against a real `judge serve`: two loopback
addresses stand for two machines (127.0.0.1 and 127.0.0.2)."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from serve_fixtures import STUDENTS, running_server
from serve_http import Browser, basic

from judge.serve.roster import TEACHER_SECRET_FILE
from judge.serve.service import LOGIN_ATTEMPTS

KIM, LEE = STUDENTS[0], STUDENTS[1]
KIM_LOGIN, LEE_LOGIN = (KIM[0], KIM[2]), (LEE[0], LEE[2])
ALLOWED = LOGIN_ATTEMPTS[0]
STRANGER, OWNER = "127.0.0.2", "127.0.0.1"


def _attempts(url: str, source: str, credentials: list[tuple[str, str]],
              headers: list[dict[str, str]] | None = None) -> list[int]:
    """The status of each Basic sign-in, in order, from `source` (each with its own extra headers)."""
    extra = headers or [{}] * len(credentials)
    return [Browser(url, source).get("/api/problems", {**basic(*pair), **more}).status
            for pair, more in zip(credentials, extra, strict=True)]


def test_a_strangers_wrong_passwords_for_teacher_leave_the_teacher_free_elsewhere(tmp_path: Path) -> None:
    with running_server(tmp_path) as server:
        secret = (server.data / TEACHER_SECRET_FILE).read_text(encoding="utf-8").strip()
        guesses = _attempts(server.url, STRANGER, [("teacher", f"guess{n}") for n in range(ALLOWED + 5)])
        assert guesses == [401] * ALLOWED + [429] * 5
        assert _attempts(server.url, STRANGER, [("teacher", secret)]) == [429]  # the stranger's pair still waits

        teacher = Browser(server.url, OWNER)
        assert teacher.sign_in("teacher", secret).header("location") == "/teacher"
        assert teacher.get("/teacher").status == 200
        assert _attempts(server.url, OWNER, [("teacher", secret)]) == [200]


def test_a_hundred_failures_from_one_address_refuse_no_other_student_behind_it(tmp_path: Path) -> None:
    """A lab behind one NAT: someone in it fails for many ids (and locks kim's pair), the others still sign in."""
    wrong = [(f"nobody{n}", "guess") for n in range(ALLOWED * 10)] + [(KIM[0], f"guess{n}") for n in range(ALLOWED)]
    with running_server(tmp_path) as server:
        with ThreadPoolExecutor(4) as pool:
            codes = list(pool.map(lambda pair: _attempts(server.url, STRANGER, [pair])[0], wrong))
        assert codes == [401] * len(wrong)
        assert _attempts(server.url, STRANGER, [KIM_LOGIN]) == [429]
        assert Browser(server.url, STRANGER).sign_in(*LEE_LOGIN).header("location") == "/"
        assert _attempts(server.url, STRANGER, [LEE_LOGIN] * 3) == [200] * 3
        assert _attempts(server.url, OWNER, [KIM_LOGIN]) == [200]
