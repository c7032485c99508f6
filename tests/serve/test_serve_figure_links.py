"""A statement's figures are real image files beside it, never a link (issue 39, item 12): a figure that is a link
to a hidden test's answer inside the problem folder, or a file named .png that is not a PNG, answers 404 over real
HTTP; a real PNG beside the statement is served."""

from __future__ import annotations

import shutil
from pathlib import Path

from http_session import signed_in
from serve_fixtures import STUDENTS, running_server, write_problems

PNG = b"\x89PNG\r\n\x1a\n" + b"\0" * 24
HIDDEN_ANSWER = "tests/2.ans"  # the hidden test of serve_fixtures' problem `sum` (the sample is sample1)


def test_a_figure_that_links_to_a_hidden_answer_is_not_served(tmp_path: Path) -> None:
    problem = write_problems(tmp_path / "problems") / "sum"
    (problem / HIDDEN_ANSWER).write_text("the hidden answer 4242\n", encoding="utf-8")  # nothing is judged here
    (problem / "statement.md").write_text(
        "# A+B\n\n![graph](graph.png) ![linked](linked.png) ![renamed](renamed.png)\n", encoding="utf-8")
    (problem / "graph.png").write_bytes(PNG)
    (problem / "linked.png").symlink_to(HIDDEN_ANSWER)  # inside the problem folder
    (problem / "figures").symlink_to("tests")  # a folder link: figures/2.ans.png would be in tests/
    shutil.copyfile(problem / HIDDEN_ANSWER, problem / "renamed.png")  # a copy (or a hard link) named as a figure
    (problem / "tests" / "2.ans.png").symlink_to("2.ans")
    hidden = (problem / HIDDEN_ANSWER).read_bytes()
    with running_server(tmp_path) as server:
        student = signed_in(server.url, STUDENTS[0][0], STUDENTS[0][2])
        assert student.get("problems/sum/statement/graph.png") == (200, PNG)
        for name in ("linked.png", "renamed.png", "figures/2.ans.png"):
            status, body = student.get(f"problems/sum/statement/{name}")
            assert status == 404 and hidden not in body, (name, status, body[:100])
