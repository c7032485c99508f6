"""Problem packages' statements on the problem page: a package's Markdown statement is rendered and sanitised as
statement.md is, and a LaTeX-only statement is one line saying so. The packages are written here."""

from __future__ import annotations

import re
from pathlib import Path

from judge.problems.scan import load_problems
from judge.serve.statement import statement_image, statement_page

HOSTILE_MARKDOWN = (
    "# Halving\n\nPrint *half* of $n$.\n\n<script>alert('statement')</script>\n\n"
    "[help](javascript:alert(1)) <img src=x onerror=alert(2)>\n"
)


def _package(root: Path, files: dict[str, str]) -> Path:
    """A legacy-format package: problem.yaml with a name, one sample and one secret test, and `files`."""
    for group, given, answer in (("sample", "4\n", "2\n"), ("secret", "10\n", "5\n")):
        (root / "data" / group).mkdir(parents=True)
        (root / "data" / group / "1.in").write_text(given)
        (root / "data" / group / "1.ans").write_text(answer)
    (root / "problem.yaml").write_text(f"name: {root.name.title()}\n")
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return root


def _pages(tmp_path: Path) -> dict[str, str]:
    problems = tmp_path / "problems"
    _package(problems / "english", {"problem_statement/problem.en.md": HOSTILE_MARKDOWN,
                                    "problem_statement/problem.sv.md": "# Halvering\n"})
    _package(problems / "plain", {"statement/problem.md": "Print **double** of n.\n"})
    _package(problems / "latex", {"problem_statement/problem.en.tex": "\\problemname{Latex}\nPrint $n$.\n"})
    _package(problems / "bare", {})
    return {problem_id: statement_page(problem).html for problem_id, problem in load_problems(problems).items()}


def test_a_packages_markdown_statement_is_rendered_and_sanitised(tmp_path: Path) -> None:
    english = _pages(tmp_path)["english"]
    assert "<h1>Halving</h1>" in english and "<em>half</em>" in english and "Halvering" not in english
    assert "<script" not in english and "&lt;script&gt;" in english
    assert "javascript:" not in english.replace("[help](javascript:alert(1))", "")
    assert not re.search(r"<img|onerror=alert", english.replace("&lt;img src=x onerror=alert(2)&gt;", ""))


def test_a_2023_package_statement_without_a_language_is_rendered(tmp_path: Path) -> None:
    assert "<strong>double</strong>" in _pages(tmp_path)["plain"]


def test_a_latex_only_statement_is_one_line_saying_so(tmp_path: Path) -> None:
    pages = _pages(tmp_path)
    latex = pages["latex"]
    assert "LaTeX only (problem_statement/problem.en.tex)" in latex and "problemname" not in latex
    assert latex.count("<p>") == 1
    assert "no statement" in pages["bare"]


PNG = b"\x89PNG\r\n\x1a\n" + b"\0" * 24
FIGURES = (
    "![the graph](graph.png) ![nested](img/tree.PNG) ![vector](drawing.svg) ![far](https://example.org/x.png) "
    "![up](../problem.yaml.png) ![hidden](.secret.png) ![root](/etc/x.png)\n"
)


def _figures_package(tmp_path: Path) -> Path:
    problems = tmp_path / "problems"
    root = _package(problems / "figures", {"problem_statement/problem.en.md": FIGURES,
                                          "problem_statement/drawing.svg": "<svg><script>alert(1)</script></svg>"})
    (root / "problem_statement" / "graph.png").write_bytes(PNG)
    (root / "problem_statement" / "img").mkdir()
    (root / "problem_statement" / "img" / "tree.PNG").write_bytes(PNG)
    (root / "problem_statement" / ".secret.png").write_bytes(PNG)
    (root / "problem_statement" / "linked.png").symlink_to("/etc/hostname")
    return problems


def test_a_statements_local_figures_point_at_the_problems_route_and_other_images_are_their_alt_text(
        tmp_path: Path) -> None:
    html = statement_page(load_problems(_figures_package(tmp_path))["figures"]).html
    assert '<img src="/problems/figures/statement/graph.png" alt="the graph"' in html
    assert '<img src="/problems/figures/statement/img/tree.PNG" alt="nested"' in html
    assert html.count("<img") == 2
    for alt in ("vector", "far", "up", "hidden", "root"):
        assert alt in html
    assert "example.org" not in html and "drawing.svg" not in html


def test_only_a_statements_raster_figures_are_served_and_only_from_inside_the_problem(tmp_path: Path) -> None:
    problem = load_problems(_figures_package(tmp_path))["figures"]
    assert statement_image(problem, "graph.png") == (PNG, "image/png")
    assert statement_image(problem, "img/tree.PNG") == (PNG, "image/png")
    for refused in ("drawing.svg", "../problem.yaml", ".secret.png", "linked.png", "missing.png", "/etc/x.png",
                    "img/../graph.png", "problem.en.md"):
        assert statement_image(problem, refused) is None, refused
