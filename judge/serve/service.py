"""What the JSON API and the pages both do, in one place: who is calling, submitting, and what a caller may see.

`ServeContext` is the server's state, made once by server.py and handed to the routes (no globals): the store, the
problems, the signed-in checks, the browsers' sessions and the rate limits.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from pathlib import Path, PurePosixPath

import msgspec.structs
from msgspec import Struct, field
from starlette.requests import Request

from judge.course.assignments import ASSIGNMENTS_FILE, read_course
from judge.course.extensions import read_extensions
from judge.course.model import Course
from judge.course.roster import Roster
from judge.course.state import submission_refusal
from judge.errors import SubmissionError
from judge.languages.catalog import LANGUAGES
from judge.languages.detection import detect_language
from judge.problems.model import Problem
from judge.problems.scan import load_problems
from judge.serve.auth import (
    SESSION_COOKIE,
    BrowserSession,
    Caller,
    InFlight,
    Passwords,
    RateLimiter,
    VerifiedPasswords,
    basic_credentials,
    credential_fingerprint,
    new_csrf_token,
    new_session_id,
    same_secret,
    session_storage_id,
)
from judge.serve.contest import ContestSettings
from judge.serve.drafts import Drafts
from judge.serve.roster import TEACHER_ID
from judge.serve.scoreboard import Scoreboard, build
from judge.serve.store import (
    PROBLEMS_EPOCH,
    Filters,
    NewSubmission,
    SessionLifetimes,
    Store,
    StoredSession,
    StoredSubmission,
)

MAX_FILE_NAME = 100
_PLAIN_FILE_NAME = re.compile(r"[A-Za-z0-9_+-][A-Za-z0-9_.+-]{0,99}")
"""A file name kept as uploaded; any other (a leading dot, spaces, controls, non-ASCII) becomes Main.<ext>."""
LOGIN_ATTEMPTS = (10, 300.0)
"""Sign-in attempts allowed per (id, address) pair in so many seconds (a correct one starts the count again)."""
SIGN_INS_AT_ONCE = 8
"""Sign-ins one address may have under way at once: a lab behind one NAT signs in as a class, a stranger's
stream of guesses waits for its own (auth.Passwords runs one hash per CPU at a time)."""
_SESSION_LOOKED_UP = "judge.session"
"""Where a request keeps its session once looked up (the caller, the CSRF check and the page all ask)."""
SUBMISSIONS_PER_MINUTE = 6


class HttpRefusal(Exception):
    """A request the judge answers with an HTTP error and one line saying why (and what to do). Not
    `judge.intake.Refused`, which is a file the judge will not read (statement.py meets both)."""

    def __init__(self, status: int, message: str, retry_after: float = 0.0) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.retry_after = retry_after


class ServeContext(Struct):
    """Everything the routes need. Mutable only in its thread-safe helpers (rate limits, verified passwords) and
    in `reload_problems`, which replaces `problems` and `course_files` whole (a request holding the old ones
    finishes with them).
    `clock` and `lifetimes` are the sessions' (a test gives its own)."""

    data_dir: Path
    store: Store
    problems_dir: Path
    problems: dict[str, Problem]
    teacher_secret: str
    session_key: str
    max_pending: int
    opened_at: float
    passwords: Passwords = field(default_factory=Passwords)
    verified: VerifiedPasswords = field(default_factory=VerifiedPasswords)
    login_limits: RateLimiter = field(default_factory=lambda: RateLimiter(*LOGIN_ATTEMPTS))
    signing_in: InFlight = field(default_factory=lambda: InFlight(SIGN_INS_AT_ONCE))
    submit_limits: RateLimiter = field(default_factory=lambda: RateLimiter(SUBMISSIONS_PER_MINUTE, 60.0))
    lifetimes: SessionLifetimes = field(default_factory=SessionLifetimes)
    drafts: Drafts = field(default_factory=Drafts)
    clock: Callable[[], float] = time.time
    course_files: Course = field(default_factory=Course)
    """The course as the files say it (assignments.yaml, extensions.csv); `course()` adds the teacher page's."""
    extensions_file: Path | None = None
    roster: Roster | None = None
    """The roster as the server read it at its start: the names, e-mails, SIS ids and sections the exports carry
    (None in a test's in-process context: the exports name the stored students only)."""

    @property
    def export_dir(self) -> Path:
        return self.data_dir / "export"

    def settings(self) -> ContestSettings:
        return ContestSettings.of(self.store.settings())

    def reload_problems(self) -> int:
        """Read the problems folder again (the teacher's "read the problems again", and every rejudge): the pages
        show, and the judging process judges with, what the folder holds now; how many problems it holds. A
        folder that does not read (a half-edited problem.yaml) raises JudgeError and changes nothing."""
        problems = load_problems(self.problems_dir)
        course = self.read_course_files(problems)
        self.problems, self.course_files = problems, course
        self.store.put_settings({PROBLEMS_EPOCH: repr(time.time())})
        return len(problems)

    def read_course_files(self, problems: dict[str, Problem]) -> Course:
        """assignments.yaml beside the problems, with extensions.csv's extensions (JudgeError when either is
        malformed)."""
        course = read_course(self.problems_dir / ASSIGNMENTS_FILE, problems)
        if self.extensions_file is None:
            return course
        return msgspec.structs.replace(
            course, extensions=read_extensions(self.extensions_file, course, self.store.students())
        )

    def course(self) -> Course:
        """The course as it stands: the files' extensions, then the teacher page's, which override them."""
        return msgspec.structs.replace(
            self.course_files, extensions=self.course_files.extensions + self.store.extensions()
        )

    # who is calling -------------------------------------------------------------------------------------------

    def check_password(self, user: str, password: str, address: str) -> Caller:
        """The caller `user` proves to be with `password`; HttpRefusal (429 past the attempts allowed, else 401).

        Only this (id, address) pair's failures count: an attempt counts before the check (so that parallel
        guesses count too), and a correct one clears the pair, so `judge submit`, sending its password with every
        poll, and a class behind one address (a lab's NAT) are never refused."""
        with self.signing_in.entered(address) as admitted:
            if not admitted:
                raise HttpRefusal(429, "too many sign-ins from your address at once; try again in a moment", 1.0)
            return self._check_password(user, password, address)

    def _check_password(self, user: str, password: str, address: str) -> Caller:
        pair = f"{user}\0{address}"
        wait = self.login_limits.retry_after(pair)
        if wait:
            raise HttpRefusal(429, f"too many sign-in attempts; try again in {int(wait) + 1} s", wait)
        if user == TEACHER_ID:
            if not same_secret(password, self.teacher_secret):
                raise HttpRefusal(401, "wrong id or password")
            self.login_limits.forget(pair)
            return Caller(TEACHER_ID, "teacher")
        student = self.store.student(user)
        if student is None:
            self.passwords.hash(password)  # as slow as a real check, so the time does not tell which ids exist
            raise HttpRefusal(401, "wrong id or password")
        if not (
            self.verified.known(user, student.password_hash, password)
            or self.passwords.verify(student.password_hash, password)
        ):
            raise HttpRefusal(401, "wrong id or password")
        self.verified.remember(user, student.password_hash, password)
        self.login_limits.forget(pair)
        return Caller(student.id, student.name)

    def caller(self, request: Request) -> Caller | None:
        """HTTP Basic when the request carries it (scripts), else the browser's session; None: nobody.
        Wrong Basic credentials raise HttpRefusal (401 or 429)."""
        header = request.headers.get("authorization")
        if header is not None:
            credentials = basic_credentials(header)
            if credentials is None:
                raise HttpRefusal(401, "give HTTP Basic credentials: your id and password")
            return self.check_password(*credentials, address=_address(request))
        session = self.session(request)
        return session.caller if session is not None else None

    # browsers' sessions ---------------------------------------------------------------------------------------

    def open_session(self, caller: Caller) -> str:
        """A new session for `caller`, signed in just now: the id its cookie carries."""
        account = self._account(caller.id)
        if account is None:  # removed from the roster since the password was checked: not signed in after all
            raise HttpRefusal(401, "wrong id or password")
        session_id = new_session_id()
        stored = StoredSession(caller.id, account[1], new_csrf_token())
        self.store.open_session(session_storage_id(self.session_key, session_id), stored, self.clock(), self.lifetimes)
        return session_id

    def session(self, request: Request) -> BrowserSession | None:
        """The request's session, if its cookie names a live one opened with the credential that holds now."""
        if _SESSION_LOOKED_UP not in request.scope:
            request.scope[_SESSION_LOOKED_UP] = self._live_session(request.cookies.get(SESSION_COOKIE))
        found: BrowserSession | None = request.scope[_SESSION_LOOKED_UP]
        return found

    def end_session(self, request: Request) -> None:
        """Sign the browser out: its session is gone from the store, whatever its cookie still says."""
        cookie = request.cookies.get(SESSION_COOKIE)
        if cookie:
            self.store.end_session(session_storage_id(self.session_key, cookie))
        request.scope[_SESSION_LOOKED_UP] = None

    def _live_session(self, cookie: str | None) -> BrowserSession | None:
        if not cookie:
            return None
        storage_id = session_storage_id(self.session_key, cookie)
        stored = self.store.session(storage_id, self.clock(), self.lifetimes)
        if stored is None:
            return None
        account = self._account(stored.user)
        if account is None or not same_secret(stored.credential, account[1]):
            self.store.end_session(storage_id)  # a new password, a new teacher secret, or no longer on the roster
            return None
        return BrowserSession(account[0], stored.csrf)

    def _account(self, user: str) -> tuple[Caller, str] | None:
        """`user` as things stand, with the fingerprint of what proves them now (the teacher's secret, a student's
        stored hash); None when they are no longer on the roster."""
        if user == TEACHER_ID:
            return Caller(TEACHER_ID, "teacher"), credential_fingerprint(self.session_key, user, self.teacher_secret)
        student = self.store.student(user)
        if student is None:
            return None
        return Caller(student.id, student.name), credential_fingerprint(self.session_key, user, student.password_hash)

    # submitting -----------------------------------------------------------------------------------------------

    def submit(self, caller: Caller, problem_id: str, file_name: str, source: bytes, language: str | None) -> int:
        """Store a submission (durably, before this returns its id) or raise HttpRefusal saying why not."""
        if caller.teacher:
            raise HttpRefusal(403, "the teacher does not submit; sign in as a student")
        problem = self.problems.get(problem_id)
        if problem is None:
            raise HttpRefusal(404, f"no problem {problem_id!r}; the problems are: {', '.join(self.problems)}")
        now = time.time()
        refusal = submission_refusal(self.course(), problem_id, caller.id, now)
        if refusal is None:  # in no assignment: the contest window decides
            refusal = self.settings().refusal(now)
        if refusal:
            raise HttpRefusal(403, refusal)
        limit = 1024 * problem.spec.source_limit
        if len(source) > limit:
            raise HttpRefusal(
                413,
                f"the source is {len(source)} bytes; this problem accepts at most {limit} "
                f"({problem.spec.source_limit} KiB)",
            )
        if not source.strip():
            raise HttpRefusal(400, "the source is empty; choose a file or paste your code")
        name = PurePosixPath(file_name.replace("\\", "/")).name[:MAX_FILE_NAME]
        if not name and not language:  # pasted code: the student's last language, else they must choose
            language = self.last_language(caller.id)
            if language is None:
                raise HttpRefusal(400, "choose the language of your code: it has no file name to tell")
        try:
            chosen = detect_language(Path(name or "source"), language or None)
        except SubmissionError as error:
            raise HttpRefusal(400, f"{error}".replace("--lang", "the language field")) from None
        if not _PLAIN_FILE_NAME.fullmatch(name) or Path(name).suffix.lower() not in chosen.extensions:
            name = chosen.source_file("Main")  # the worker writes the file under this name: nothing odd in it
        wait = self.submit_limits.retry_after(caller.id)
        if wait:
            raise HttpRefusal(
                429, f"at most {SUBMISSIONS_PER_MINUTE} submissions a minute; try again in {int(wait) + 1} s", wait
            )
        stored: int | None = None
        try:
            stored = self.store.add_submission(
                NewSubmission(caller.id, problem_id, chosen.key, name, source, submitted_at=now), self.max_pending
            )
        finally:
            if stored is None:  # refused by the cap (or not stored at all): not a submission of this minute
                self.submit_limits.give_back(caller.id)
        if stored is None:
            raise HttpRefusal(
                429,
                f"you already have {self.max_pending} submissions waiting to be judged; "
                "submit again when one has its verdict",
            )
        return stored

    def last_language(self, student: str) -> str | None:
        """The language of the student's latest submission (the submit form's default), None before the first."""
        latest = next(iter(self.store.submissions(Filters(student=student))), None)
        return latest.language if latest is not None and latest.language in LANGUAGES else None

    # what a caller may see ------------------------------------------------------------------------------------

    def visible_submission(self, caller: Caller, submission_id: int) -> StoredSubmission:
        """The submission, if it is the caller's own (or the caller is the teacher); 404 otherwise, so that
        another student's ids are not even confirmed to exist."""
        submission = self.store.submission(submission_id)
        if submission is None or not (caller.teacher or submission.student == caller.id):
            raise HttpRefusal(404, f"no submission {submission_id} of yours")
        return submission

    def scoreboard(self, caller: Caller) -> Scoreboard:
        settings = self.settings()
        if settings.scoreboard_hidden and not caller.teacher:
            raise HttpRefusal(403, "the teacher has hidden the scoreboard")
        freeze_at = settings.freeze_at
        frozen = freeze_at is not None and time.time() >= freeze_at
        students = {student.id: student.name for student in self.store.students().values()}
        return build(
            self.store.submissions(),
            students,
            list(self.problems),
            start=settings.start if settings.start is not None else self.opened_at,
            freeze_at=freeze_at if frozen else None,
            viewer=None if caller.teacher else caller.id,
            scored=any(problem.scoring is not None for problem in self.problems.values()),
            course=self.course(),
        )


def language_choices() -> list[tuple[str, str]]:
    """(key, display name) of every language, for the submit form."""
    return [(language.key, language.display) for language in LANGUAGES.values()]


def _address(request: Request) -> str:
    return request.client.host if request.client is not None else "unknown"
