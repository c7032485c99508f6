"""Clarifications (issue 42), over real HTTP against a real `judge serve`: two students ask about a problem from its
page (POST-redirect-GET, CSRF-checked, bounded, rate-limited); the teacher sees both questions and answers one to
everyone and one privately; the answer to everyone reaches both students (without the asker's name), the private
one only its asker, on the page and in the API the page's script polls. Questions and answers are hostile text."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

from serve_fixtures import STUDENTS, running_server
from serve_http import Answer, Browser, basic, ok_body, signed_in_browser

from judge.serve.clarifications import MAX_QUESTION, QUESTIONS_PER_MINUTE
from judge.serve.roster import TEACHER_SECRET_FILE

KIM, LEE = STUDENTS
PUBLIC_QUESTION = "May the sum overflow? <script>alert(1)</script>"
PRIVATE_QUESTION = "Why is my #1 WA? \x1b[31m"
PUBLIC_ANSWER = "No: |a|, |b| <= 10^9 <b>fits</b>"
PRIVATE_ANSWER = "Read the input format again, lee"


def _ask(student: Browser, question: str, token: str | None = None) -> Answer:
    """The problem page's question form, as the browser sends it; the page it is sent back to (PRG)."""
    token = token or student.get("/problems/sum").meta_csrf()
    sent = student.post_form("/problems/sum/questions", {"csrf": token, "question": question})
    assert sent.status == 303, (sent.status, sent.body[:300])
    return _followed(student, sent)


def _api(url: str, student: tuple[str, str, str]) -> list[dict[str, object]]:
    answer = Browser(url).get("/api/clarifications", basic(student[0], student[2]))
    assert answer.status == 200 and answer.header("content-type").startswith("application/json"), answer.body
    documents: list[dict[str, object]] = json.loads(answer.body)
    return documents


def test_an_answer_to_everyone_reaches_both_students_and_a_private_one_only_its_asker(tmp_path: Path) -> None:
    with running_server(tmp_path) as server:
        kim, lee = signed_in_browser(server.url, KIM[0], KIM[2]), signed_in_browser(server.url, LEE[0], LEE[2])
        asked = _ask(kim, PUBLIC_QUESTION)
        assert html.escape(PUBLIC_QUESTION) in ok_body(asked) and "<script>alert" not in asked.body
        _ask(lee, PRIVATE_QUESTION)
        assert PRIVATE_QUESTION.split("?")[0] not in ok_body(kim.get("/problems/sum"))  # not answered, not kim's
        assert [each["question"] for each in _api(server.url, KIM)] == [PUBLIC_QUESTION]
        assert [each["answer"] for each in _api(server.url, KIM)] == [None]

        teacher = signed_in_browser(server.url, "teacher", (server.data / TEACHER_SECRET_FILE).read_text().strip())
        page = ok_body(teacher.get("/teacher"))
        assert html.escape(PUBLIC_QUESTION) in page and "Why is my #1 WA? \\x1b[31m" in page  # escaped, visible
        numbers = {question: int(number) for number, question in
                   re.findall(r'id="question-(\d+)">.*?<pre class="question">(.*?)</pre>', page, re.S)}
        public, private = numbers[html.escape(PUBLIC_QUESTION)], numbers["Why is my #1 WA? \\x1b[31m"]
        token = teacher.get("/teacher").meta_csrf()
        for number, answer, to in ((public, PUBLIC_ANSWER, "everyone"), (private, PRIVATE_ANSWER, "asker")):
            sent = teacher.post_form(f"/teacher/clarifications/{number}", {"csrf": token, "answer": answer, "to": to})
            assert (sent.status, sent.header("location")) == (303, "/teacher?message=answered#clarifications")
        forged = teacher.post_form(f"/teacher/clarifications/{public}", {"csrf": "forged", "answer": "x", "to": "asker"})
        assert forged.status == 303 and "this form expired" in ok_body(teacher.get("/teacher"))
        assert kim.post_form(f"/teacher/clarifications/{private}", {"csrf": kim.get("/").meta_csrf(), "answer": "x",
                                                                     "to": "everyone"}).status == 303  # refused: the teacher's form

        kim_sees, lee_sees = _api(server.url, KIM), _api(server.url, LEE)
        assert [(each["question"], each["answer"], each["mine"]) for each in kim_sees] == [
            (PUBLIC_QUESTION, PUBLIC_ANSWER, True)]
        assert [(each["question"], each["answer"], each["mine"]) for each in lee_sees] == [
            ("Why is my #1 WA? \\x1b[31m", PRIVATE_ANSWER, True), (PUBLIC_QUESTION, PUBLIC_ANSWER, False)]
        assert all("student" not in each for each in kim_sees + lee_sees)  # the asker is the teacher's to know
        kim_page, lee_page = ok_body(kim.get("/problems/sum")), ok_body(lee.get("/problems/sum"))
        assert html.escape(PUBLIC_ANSWER) in kim_page and html.escape(PUBLIC_ANSWER) in lee_page
        assert PRIVATE_ANSWER in lee_page and PRIVATE_ANSWER not in kim_page and "Why is my" not in kim_page
        assert KIM[0] not in lee_page.split('id="clarifications"')[1] and KIM[1] not in lee_page
        assert [each["student"] for each in json.loads(ok_body(teacher.get("/api/clarifications")))] == ["lee", "kim"]


def test_a_question_is_bounded_rate_limited_and_csrf_checked_and_a_refusal_keeps_it(tmp_path: Path) -> None:
    with running_server(tmp_path) as server:
        kim = signed_in_browser(server.url, KIM[0], KIM[2])
        token = kim.get("/problems/sum").meta_csrf()
        forged = kim.post_form("/problems/sum/questions", {"csrf": "forged", "question": "hello?"})
        assert forged.status == 303 and "this form expired" in _followed(kim, forged).body
        too_long = _ask(kim, "x" * (MAX_QUESTION + 1), token)
        assert f"ask in at most {MAX_QUESTION}" in too_long.body and "x" * MAX_QUESTION in too_long.body
        for number in range(QUESTIONS_PER_MINUTE):
            assert f"question {number}" in _ask(kim, f"question {number}", token).body
        refused = _ask(kim, "one more", token)
        assert f"at most {QUESTIONS_PER_MINUTE} questions a minute" in refused.body
        assert "one more</textarea>" in refused.body  # kept in the box, asked again later
        assert len(_api(server.url, KIM)) == QUESTIONS_PER_MINUTE and _api(server.url, LEE) == []
        assert kim.post_form("/problems/nothing/questions", {"csrf": token, "question": "?"}).status == 303
        assert len(_api(server.url, KIM)) == QUESTIONS_PER_MINUTE


def _followed(student: Browser, sent: Answer) -> Answer:
    """The page a form's redirects end on (a refused question's go through its form's path to the problem's)."""
    answer = sent
    while answer.status == 303:
        answer = student.get(answer.header("location").split("#")[0])
    assert answer.status == 200, (answer.status, answer.body[:300])
    return answer
