"""The HTML pages: sign-in, problems with their statements, submitting, my submissions, one submission (its status
drawn live by static/app.js from the API), the scoreboard, and the teacher's pages.

Every form is answered with a redirect (POST-redirect-GET), so reloading a page never sends a form again; a
refused form leaves its line and its fields (a student's code stays in the box) for the page it returns to
(drafts.py). Rendered by the judge's one HTML engine (judge/reporters/html.py: Jinja2 with autoescaping, and every value
printed through `judge.inert.html_text`, the environment's `finalize`), the one the gradebook's and the
similarity report's pages use too, so a name, a file name, code or output with HTML, escapes or invisible
characters reaches the page as visible text. Every form carries the session's CSRF token (before signing in, the
login cookie's); every POST checks it (forms.py's `csrf_holds`, the API's check too). The pages set the cookies
(auth.py says what they hold).
"""

from __future__ import annotations

import time

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import FileResponse, RedirectResponse, Response
from starlette.routing import Route

from judge.course.assignments import ASSIGNMENTS_FILE
from judge.course.extensions import extension_of
from judge.course.state import AssignmentState, state_of, states
from judge.errors import JudgeError
from judge.output_folder import FolderUnwritable
from judge.serve.auth import CSRF_FIELD, SESSION_COOKIE, Caller
from judge.serve.clarifications import MAX_QUESTION, visible
from judge.serve.contest import with_form
from judge.serve.counterexample_pages import CounterexamplePages
from judge.serve.desk_pages import DeskPages
from judge.serve.drafts import Draft
from judge.serve.exports import EXPORT_FILES, ExportCourse, export
from judge.serve.feedback import submission_document
from judge.serve.forms import csrf_holds, largest_source, read_submission_form
from judge.serve.rejudges import changes_seen_by, latest_report, reason_given
from judge.serve.service import HttpRefusal, ServeContext, language_choices
from judge.serve.statement import statement_image
from judge.serve.store import Filters, StoredSubmission
from judge.verdicts import Verdict

MAX_ANNOUNCEMENT = 2000
NOT_RUN_AFTER = (Verdict.CE,)
"""A verdict whose result has no tests at all: nothing to call "not run"."""


class Pages(DeskPages, CounterexamplePages):
    """Every page route over one `ServeContext`: the students' and the teacher's pages here, the rejudge reports'
    and questions' in desk_pages.py, the counterexamples' in counterexample_pages.py."""

    # signing in -----------------------------------------------------------------------------------------------

    async def login(self, request: Request) -> Response:
        if request.method == "GET":
            return self.render(request, "login.html")
        form = await request.form(max_files=0, max_fields=8)
        user, password = str(form.get("id", "")).strip(), str(form.get("password", ""))
        if not csrf_holds(request, self.context, form.get(CSRF_FIELD)):
            return self.sent_back(request, Draft("/login", "this form expired; try again", {"id": user}))
        address = request.client.host if request.client is not None else "unknown"
        try:
            caller = await run_in_threadpool(self.context.check_password, user, password, address)
            self.context.end_session(request)  # signing in again leaves no second session behind
            session_id = await run_in_threadpool(self.context.open_session, caller)
        except HttpRefusal as refusal:
            return self.sent_back(request, Draft("/login", refusal.message, {"id": user}))
        response = RedirectResponse("/teacher" if caller.teacher else "/", status_code=303)
        self.set_cookie(response, request, SESSION_COOKIE, session_id)
        return response

    async def logout(self, request: Request) -> Response:
        form = await request.form(max_files=0, max_fields=4)
        response = RedirectResponse("/login", status_code=303)
        if self.context.session(request) is not None and csrf_holds(request, self.context, form.get(CSRF_FIELD)):
            self.context.end_session(request)
            self.set_cookie(response, request, SESSION_COOKIE, "", keep=False)
        return response

    # students -------------------------------------------------------------------------------------------------

    async def home(self, request: Request, context: ServeContext, caller: Caller) -> Response:
        mine = context.store.submissions(Filters(student=caller.id))
        solved = {row.problem_id for row in mine if row.verdict is Verdict.AC}
        tried = {row.problem_id for row in mine} - solved
        return self.render(
            request,
            "problems.html",
            caller=caller,
            problems=list(context.problems.values()),
            solved=solved,
            tried=tried,
            window=context.settings().refusal(time.time()),
            assignments=states(context.course(), caller.id, time.time()),
        )

    async def problem(self, request: Request, context: ServeContext, caller: Caller) -> Response:
        problem = context.problems.get(request.path_params["problem_id"])
        if problem is None:
            raise HttpRefusal(404, "no such problem")
        if request.method == "POST":
            _, file_name, source, language = await read_submission_form(request, context)
            try:
                submission_id = await run_in_threadpool(context.submit, caller, problem.id, file_name, source, language)
            except HttpRefusal as refusal:  # the code goes back into the box, with the language chosen
                kept = {"code": kept_code(source, largest_source(context)), "language": language or ""}
                return self.sent_back(request, Draft(request.url.path, refusal.message, kept))
            return RedirectResponse(f"/submissions/{submission_id}", status_code=303)
        return self.render(
            request,
            "problem.html",
            caller=caller,
            problem=problem,
            page=self.statement(problem),
            languages=language_choices(),
            last_language=context.last_language(caller.id) or "",
            assignment=assignment_state(context, problem.id, caller.id),
            clarifications=[each for each in visible(context.store, caller) if each.problem_id == problem.id],
            max_question=MAX_QUESTION,
        )

    async def figure(self, request: Request, context: ServeContext, caller: Caller) -> Response:
        """A figure of a problem's statement (`statement.statement_image`): raster images beside it only."""
        problem = context.problems.get(request.path_params["problem_id"])
        name = request.path_params["name"]
        found = None if problem is None else await run_in_threadpool(statement_image, problem, name)
        if found is None:
            raise HttpRefusal(404, "no such figure")
        content, media_type = found
        return Response(content, media_type=media_type)

    async def my_submissions(self, request: Request, context: ServeContext, caller: Caller) -> Response:
        rows = context.store.submissions(Filters(student=caller.id))
        rejudged = changes_seen_by(context.store, caller.id)
        return self.render(request, "submissions.html", caller=caller, rows=rows, rejudged=rejudged)

    async def submission(self, request: Request, context: ServeContext, caller: Caller) -> Response:
        try:
            submission_id = int(request.path_params["submission_id"])
        except ValueError:
            raise HttpRefusal(404, "no such submission") from None
        row = context.visible_submission(caller, submission_id)
        source = context.store.source(row.id).decode("utf-8", "replace")
        problem = context.problems.get(row.problem_id)
        test_names = [test.name for test in problem.tests] if problem is not None else []
        return self.render(
            request,
            "submission.html",
            caller=caller,
            row=row,
            source=source,
            document=submission_document(row, teacher=caller.teacher),
            test_names=test_names,
            not_run=not_run(row, test_names),
            rejudged=context.store.rejudged_entries(submission_id=row.id)
            if caller.teacher
            else changes_seen_by(context.store, caller.id, row.id),
        )

    async def scoreboard(self, request: Request, context: ServeContext, caller: Caller) -> Response:
        return self.render(request, "scoreboard.html", caller=caller, board=context.scoreboard(caller))

    # the teacher ----------------------------------------------------------------------------------------------

    async def teacher(self, request: Request, context: ServeContext, caller: Caller) -> Response:
        query = request.query_params
        filters = Filters(
            student=query.get("student") or None,
            problem_id=query.get("problem") or None,
            verdict=query.get("verdict") or None,
        )
        exported = [name for name in EXPORT_FILES if (context.export_dir / name).is_file()]
        return self.render(
            request,
            "teacher.html",
            caller=caller,
            rows=context.store.submissions(filters),
            filters=filters,
            students=context.store.students(),
            problems=list(context.problems),
            titles={problem_id: problem.spec.title for problem_id, problem in context.problems.items()},
            verdicts=[verdict.short for verdict in Verdict],
            settings=context.settings(),
            exported=exported,
            counts=context.store.counts(),
            message=query.get("message", ""),
            course=context.course_files,
            granted=context.store.extensions(),
            extensions_file=context.extensions_file,
            rejudge_report=latest_report(context.store),
            rejudges=context.store.rejudges(),
            clarifications=visible(context.store, caller),
        )

    async def rejudge(self, request: Request, context: ServeContext, caller: Caller) -> Response:
        """Requeue after the problems are read again (the teacher fixed a test), so the statement, the samples and
        the judging agree; a folder that does not read refuses the rejudge."""
        form = await request.form()
        target = str(form.get("target", ""))
        try:
            reason = reason_given(str(form.get("reason", "")))
        except ValueError as error:
            raise HttpRefusal(400, f"not rejudged: {error}") from None
        try:
            await run_in_threadpool(context.reload_problems)
        except JudgeError as error:
            raise HttpRefusal(400, f"not rejudged: the problems folder does not read: {error}") from None
        if target == "submission":
            try:
                done = context.store.requeue(reason=reason, submission_id=int(str(form.get("submission", ""))))
            except ValueError:
                raise HttpRefusal(400, "give the submission's number") from None
        elif target == "problem" and str(form.get("problem", "")) in context.problems:
            done = context.store.requeue(reason=reason, problem_id=str(form.get("problem")))
        elif target == "all":
            done = context.store.requeue(reason=reason)
        else:
            raise HttpRefusal(400, "rejudge what? a submission, a problem of the list, or all")
        said = f"{done.count}+submission(s)+queued+again"  # the teacher's page shows the latest rejudge's report
        return RedirectResponse(f"/teacher?message={said}#rejudge-report", status_code=303)

    async def reload(self, request: Request, context: ServeContext, caller: Caller) -> Response:
        try:
            count = await run_in_threadpool(context.reload_problems)
        except JudgeError as error:
            raise HttpRefusal(400, f"the problems were not read again (the old ones stay): {error}") from None
        return RedirectResponse(f"/teacher?message={count}+problem(s)+read+again", status_code=303)

    async def settings(self, request: Request, context: ServeContext, caller: Caller) -> Response:
        form = await request.form()
        try:
            chosen = with_form(context.settings(), {key: str(value) for key, value in form.items()})
        except JudgeError as error:
            raise HttpRefusal(400, str(error)) from None
        context.store.put_settings(chosen.stored())
        return RedirectResponse("/teacher?message=settings+saved", status_code=303)

    async def announce(self, request: Request, context: ServeContext, caller: Caller) -> Response:
        form = await request.form()
        text = str(form.get("text", "")).strip()
        if not text:
            raise HttpRefusal(400, "an announcement needs some text")
        context.store.announce(text[:MAX_ANNOUNCEMENT])
        return RedirectResponse("/teacher?message=announced", status_code=303)

    async def edit_announcement(self, request: Request, context: ServeContext, caller: Caller) -> Response:
        """Save an announcement's new text, or remove it (the form's `action`)."""
        form = await request.form()
        try:
            number = int(request.path_params["announcement_id"])
        except ValueError:
            raise HttpRefusal(404, "no such announcement") from None
        if form.get("action") == "remove":
            done, said = context.store.remove_announcement(number), "announcement+removed"
        else:
            text = str(form.get("text", "")).strip()
            if not text:
                raise HttpRefusal(400, "an announcement needs some text; remove it instead")
            done, said = context.store.edit_announcement(number, text[:MAX_ANNOUNCEMENT]), "announcement+saved"
        if not done:
            raise HttpRefusal(404, "no such announcement (removed already?)")
        return RedirectResponse(f"/teacher?message={said}", status_code=303)

    async def grant_extension(self, request: Request, context: ServeContext, caller: Caller) -> Response:
        """An extension from the teacher's form, checked as extensions.csv's rows are; it overrides the file's."""
        form = await request.form()
        student, assignment, due = (str(form.get(name, "")).strip() for name in ("student", "assignment", "due"))
        try:
            granted = extension_of(student, assignment, due, context.course_files, context.store.students())
        except JudgeError as error:
            raise HttpRefusal(400, f"no extension granted: {error}") from None
        context.store.grant_extension(granted)
        return RedirectResponse("/teacher?message=extension+granted#course", status_code=303)

    async def remove_extension(self, request: Request, context: ServeContext, caller: Caller) -> Response:
        form = await request.form()
        if not context.store.remove_extension(str(form.get("student", "")), str(form.get("assignment", ""))):
            raise HttpRefusal(404, "no such extension granted on this page (removed already?)")
        return RedirectResponse("/teacher?message=extension+removed#course", status_code=303)

    async def export(self, request: Request, context: ServeContext, caller: Caller) -> Response:
        students = list(context.store.students())
        course = context.course()
        source = str(context.problems_dir / ASSIGNMENTS_FILE) if course.assignments else None
        graded = ExportCourse(course, source, context.roster)
        try:
            pending = await run_in_threadpool(
                export, context.store, context.problems, students, context.export_dir, graded
            )
        except FolderUnwritable as failure:  # a full data folder: the teacher's one line, not a server error
            raise HttpRefusal(507 if failure.full else 500, f"not exported: {failure}") from None
        except JudgeError as error:  # the course's files contradict the problems (an assignment id a problem's)
            raise HttpRefusal(400, f"not exported: {error}") from None
        if pending:  # a rejudge under way: say which grades are not final rather than leave them blank silently
            cells = ", ".join(f"{student}/{problem}" for student, problem in pending)
            message = (
                f"exported, but {len(pending)} grade(s) wait for a judging under way and are blank or from an "
                f"older submission: {cells}; export again once nothing is queued or judging"
            )
            return self.sent_back(request, Draft("/teacher", message))
        return RedirectResponse("/teacher?message=exported", status_code=303)

    async def download(self, request: Request, context: ServeContext, caller: Caller) -> Response:
        name = request.path_params["name"]
        if name not in EXPORT_FILES or not (context.export_dir / name).is_file():
            raise HttpRefusal(404, "no such export; export first")
        return FileResponse(context.export_dir / name, filename=name, content_disposition_type="attachment")

    def routes(self) -> list[Route]:
        return [
            Route("/login", self.login, methods=["GET", "POST"]),
            Route("/logout", self.logout, methods=["POST"]),
            Route("/", self.signed_in(self.home)),
            Route("/problems/{problem_id}", self.signed_in(self.problem), methods=["GET", "POST"]),
            Route("/problems/{problem_id}/statement/{name:path}", self.signed_in(self.figure)),
            Route("/submissions", self.signed_in(self.my_submissions)),
            Route("/submissions/{submission_id}", self.signed_in(self.submission)),
            Route("/scoreboard", self.signed_in(self.scoreboard)),
            Route("/teacher", self.teacher_only(self.teacher)),
            Route("/teacher/rejudge", self.teacher_only(self.rejudge), methods=["POST"]),
            Route("/teacher/problems", self.teacher_only(self.reload), methods=["POST"]),
            Route("/teacher/settings", self.teacher_only(self.settings), methods=["POST"]),
            Route("/teacher/announce", self.teacher_only(self.announce), methods=["POST"]),
            Route(
                "/teacher/announcements/{announcement_id}",
                self.teacher_only(self.edit_announcement),
                methods=["POST"],
            ),
            Route("/teacher/extensions", self.teacher_only(self.grant_extension), methods=["POST"]),
            Route("/teacher/extensions/remove", self.teacher_only(self.remove_extension), methods=["POST"]),
            Route("/teacher/export", self.teacher_only(self.export), methods=["POST"]),
            Route("/teacher/export/{name}", self.teacher_only(self.download)),
            Route("/teacher/rejudges/{rejudge_id:int}", self.teacher_only(self.rejudge_report)),
            Route("/teacher/rejudges/{rejudge_id:int}.csv", self.teacher_only(self.rejudge_csv)),
            Route("/problems/{problem_id}/questions", self.signed_in(self.ask), methods=["GET", "POST"]),
            Route("/teacher/clarifications/{clarification_id:int}", self.teacher_only(self.answer), methods=["POST"]),
            *self.counterexample_routes(),
        ]


def assignment_state(context: ServeContext, problem_id: str, student: str) -> AssignmentState | None:
    """The state of the assignment `problem_id` is in, for `student` (None: it is in none)."""
    course = context.course()
    assignment = course.assignment_of(problem_id)
    return None if assignment is None else state_of(course, assignment, student, time.time())


def not_run(row: StoredSubmission, test_names: list[str]) -> list[str]:
    """The problem's tests a judged submission did not run: those after the first failure of a pass/fail problem
    (the judging stops there, as BOJ does) and a scored group's tests skipped after it broke. static/app.js draws
    the same rows from the page's list of test names."""
    result = row.result
    if row.status != "done" or result is None or result.verdict in NOT_RUN_AFTER:
        return []
    ran = {case.name for case in result.cases}
    return [name for name in test_names if name not in ran]


def kept_code(source: bytes, largest: int) -> str:
    """A refused submission's source as the box shows it again: text up to the largest source any problem takes
    (an uploaded file too, so the student can fix and send it from the box); "" for anything else."""
    if len(source) > largest:
        return ""
    try:
        return source.decode("utf-8")
    except UnicodeDecodeError:
        return ""
