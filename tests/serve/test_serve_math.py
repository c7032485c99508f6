"""Math in statements (issue 41, item 5), against a real `judge serve`: `$...$` and `$$...$$` reach the page as MathML
made on the server (no script: the CSP is unchanged), which headless Chromium draws; LaTeX carrying markup or a link
stays inert; dollars that are not math stay text; inline code looks unlike the text around it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import write_problem
from http_session import signed_in
from serve_fixtures import STUDENTS, headless_chromium, running_server

KIM = STUDENTS[0]
STATEMENT = r"""# A+B

Given $1 \le N \le 10^5$ numbers, print their sum with `print(a + b)`. Tickets cost $5 and $10.

$$\sum_{i=1}^{N} a_i$$

$\text{<img src=x onerror=alert(1)>}$ and $\href{javascript:alert(1)}{x}$ and $\style{color:red}{y}$.
"""


@pytest.mark.slow  # 4.4 s here: a server of its own (the default run keeps to ten minutes)
def test_math_is_mathml_made_on_the_server_and_inline_code_stands_out(tmp_path: Path) -> None:
    problem = write_problem(tmp_path / "problems" / "sum", {"sample1": ("1 2\n", "3\n")}, id="sum", title="A+B")
    (problem / "statement.md").write_text(STATEMENT, encoding="utf-8")
    with running_server(tmp_path) as server:
        status, body = signed_in(server.url, KIM[0], KIM[2]).get("problems/sum")
        page = body.decode("utf-8")
        assert status == 200
        assert '<math display="inline"><mrow><mn>1</mn><mo>≤</mo><mi>N</mi>' in page
        assert '<math display="block">' in page and "<munderover><mo>∑</mo>" in page
        assert re.search(r"<mtext>&lt;img\ssrc=x\sonerror=alert\(1\)&gt;</mtext>", page)  # a space is U+00A0 there
        assert "<img" not in page, page[page.find("<img") - 200:][:400]
        assert "javascript:" not in page and "href=" not in re.sub(r'<link [^>]*>|<a href="[^"]*"', "", page)
        assert "style=" not in page
        assert "cost $5 and $10." in page and "\\le" not in page

        with headless_chromium() as browser:
            shown = browser.new_page()  # type: ignore[attr-defined]
            errors: list[str] = []
            shown.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
            shown.goto(server.url + "login")
            shown.fill("#id", KIM[0])
            shown.fill("#password", KIM[2])
            shown.click("#sign-in")
            shown.wait_for_url(server.url)
            shown.goto(server.url + "problems/sum")
            text = shown.inner_text(".statement")
            assert "$" not in text.replace("$5 and $10", "") and "≤" in text
            drawn = shown.evaluate("Array.from(document.querySelectorAll('.statement math'),"
                                   " m => m.getBoundingClientRect().height)")
            assert len(drawn) == 5 and min(drawn) > 0
            code, prose = (shown.evaluate(f"getComputedStyle(document.querySelector('{selector}')).{name}")
                           for selector, name in ((".statement code", "fontFamily"), (".statement p", "fontFamily")))
            assert "monospace" in code and code != prose
            background = shown.evaluate("getComputedStyle(document.querySelector('.statement code')).backgroundColor")
            assert background not in ("rgba(0, 0, 0, 0)", "transparent")
            assert errors == []
