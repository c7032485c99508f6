"""The teacher's rejudge reports (rejudges.py) and the students' questions with the teacher's answers
(clarifications.py), as pages: a mixin of `Pages`."""

from __future__ import annotations

from urllib.parse import quote

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from judge.serve.auth import Caller
from judge.serve.clarifications import MAX_QUESTION, ClarificationDesk
from judge.serve.drafts import Draft
from judge.serve.forms import csrf_token
from judge.serve.page_base import PageBase
from judge.serve.rejudges import report, report_csv
from judge.serve.service import HttpRefusal, ServeContext


class DeskPages(PageBase):
    """Rejudge reports and clarifications; `desk` holds the questions' per-minute limit."""

    def __init__(self, context: ServeContext) -> None:
        super().__init__(context)
        self.desk = ClarificationDesk(context.store)

    async def rejudge_report(self, request: Request, context: ServeContext, caller: Caller) -> Response:
        """One rejudge's report (the teacher's page shows the latest)."""
        found = report(context.store, request.path_params["rejudge_id"])
        if found is None:
            raise HttpRefusal(404, "no such rejudge")
        return self.render(
            request, "rejudge_page.html", caller=caller, rejudge_report=found, students=context.store.students()
        )

    async def rejudge_csv(self, request: Request, context: ServeContext, caller: Caller) -> Response:
        found = report(context.store, request.path_params["rejudge_id"])
        if found is None:
            raise HttpRefusal(404, "no such rejudge")
        names = {student.id: student.name for student in context.store.students().values()}
        name = f"rejudge-{found.rejudge.id}.csv"
        return Response(
            report_csv(found, names),
            media_type="text/csv; charset=utf-8",
            headers={"Content-Disposition": f'attachment; filename="{name}"'},
        )

    async def ask(self, request: Request, context: ServeContext, caller: Caller) -> Response:
        """A student's question (POST), sent back to the problem's page; a GET (a refused form's redirect) goes
        there too, with the refusal's line."""
        problem_id = request.path_params["problem_id"]
        page = f"/problems/{quote(problem_id, safe='')}"
        if request.method == "GET":
            draft = context.drafts.take(csrf_token(request, context), request.url.path)
            if draft is not None:
                return self.sent_back(request, Draft(page, draft.message, draft.fields))
            return RedirectResponse(page, status_code=303)
        question = str((await request.form()).get("question", ""))
        try:
            await run_in_threadpool(self.desk.ask, caller, problem_id, set(context.problems), question)
        except HttpRefusal as refusal:
            kept = {"question": question[:MAX_QUESTION]}
            return self.sent_back(request, Draft(page, refusal.message, kept))
        return RedirectResponse(f"{page}#clarifications", status_code=303)

    async def answer(self, request: Request, context: ServeContext, caller: Caller) -> Response:
        form = await request.form()
        self.desk.answer(request.path_params["clarification_id"], str(form.get("answer", "")), str(form.get("to")))
        return RedirectResponse("/teacher?message=answered#clarifications", status_code=303)
