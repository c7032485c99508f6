"""The documents lead somewhere (issue 40): every relative Markdown link in README.md, ARCHITECTURE.md and docs/
names a file that exists and, with an #anchor, a heading of it; every repository path the documents name in
backticks or in a link exists.

What counts as a repository path is kept narrow so prose is never flagged: a backticked word (a whole code span, or
an argument of a command line such as `judge run tests/packages/shout ...`) with a `/`, whose first part is a
top-level entry of the repository that git keeps (`judge/`, `tests/`, `docs/`, ...) or a package of judge/ (the
documents name modules as `runner/execute.py` and tests as `runner/test_security.py`). It must exist under the
repository, under judge/ or under tests/ (tests/ mirrors judge/'s packages). Fenced code blocks are examples (a
course's `problems/1330/`) and are not read; neither are words with a placeholder (`problems/<id>/`, `{py,cpp}`,
`...`); a `*` is a glob that must match something.

Anchors follow GitHub's rule: the heading's text lowercased, punctuation other than `-` and `_` removed (backticks
too), each space a `-`, and `-1`, `-2` ... on repeated headings.
"""

from __future__ import annotations

import fnmatch
import re
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote

import pytest

ROOT = Path(__file__).resolve().parent.parent


def documents(root: Path) -> list[Path]:
    """The Markdown files a reader is sent to: README, ARCHITECTURE and everything under docs/."""
    return [root / "README.md", root / "ARCHITECTURE.md", *sorted((root / "docs").rglob("*.md"))]


FENCE = re.compile(r"^\s*(`{3,}|~{3,})")
ATX_HEADING = re.compile(r"^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
CODE_SPAN = re.compile(r"(`+)(.+?)(?<!`)\1(?!`)", re.DOTALL)
INLINE_LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\[\]]*\])*\]\(\s*<?([^)\s>]*)>?(?:\s+\"[^\"]*\")?\s*\)")
REFERENCE_LINK = re.compile(r"^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+.*)?$", re.MULTILINE)
SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:|^//")
COMMANDS = frozenset({"judge", "python", "python3", "bash", "sh", "pytest"})
"""A code span starting with one of these is a command line: its arguments are checked as paths."""
PLACEHOLDER = re.compile(r"[<>{}$…]|\.\.\.|\|")


@dataclass(frozen=True)
class Prose:
    """A document with its fenced code blocks taken out, and the headings outside them."""

    text: str
    headings: tuple[str, ...]


def read_prose(path: Path) -> Prose:
    """Fenced blocks become blank lines (they hold examples, and a `#` there is a comment, not a heading)."""
    kept, headings = [], []
    fence = ""
    for line in path.read_text(encoding="utf-8").splitlines():
        opened = FENCE.match(line)
        if fence:
            if opened and opened.group(1)[0] == fence[0] and len(opened.group(1)) >= len(fence):
                fence = ""
            kept.append("")
            continue
        if opened:
            fence = opened.group(1)
            kept.append("")
            continue
        kept.append(line)
        heading = ATX_HEADING.match(line)
        if heading:
            headings.append(heading.group(2))
    return Prose("\n".join(kept), tuple(headings))


def slug(heading: str) -> str:
    """GitHub's anchor of a heading: a link keeps its text, then lowercase, punctuation out, spaces to `-`."""
    text = INLINE_LINK.sub(
        lambda match: match.group(0)[match.group(0).index("[") + 1 : match.group(0).rindex("]")], heading
    )
    return re.sub(r"[^\w\- ]", "", text.lower()).replace(" ", "-")


def anchors(headings: tuple[str, ...]) -> frozenset[str]:
    seen: dict[str, int] = {}
    found = set()
    for heading in headings:
        base = slug(heading)
        count = seen.get(base, 0)
        seen[base] = count + 1
        found.add(base if count == 0 else f"{base}-{count}")
    return frozenset(found)


def paragraphs(prose: Prose) -> list[str]:
    """A code span or a link never crosses a blank line, so a stray backtick cannot pair with one pages away."""
    return re.split(r"\n\s*\n", prose.text)


def link_targets(prose: Prose) -> list[str]:
    """The targets of the inline and reference links outside code (a link inside a code span is text)."""
    targets = []
    for paragraph in paragraphs(prose):
        text = CODE_SPAN.sub("code", paragraph)
        targets += [*INLINE_LINK.findall(text), *REFERENCE_LINK.findall(text)]
    return targets


def code_words(prose: Prose) -> list[str]:
    """The words of the code spans that may be paths: a whole one-word span, or a command line's arguments."""
    words = []
    for match in (match for paragraph in paragraphs(prose) for match in CODE_SPAN.finditer(paragraph)):
        span = match.group(2).split()
        if len(span) == 1:
            words.append(span[0])
        elif span and (span[0] in COMMANDS or span[0].startswith(".venv/bin/")):
            words.extend(span[1:])
    return words


def tracked_top_level(root: Path) -> frozenset[str]:
    """The entries at the repository's top that git keeps: everything but .git and what .gitignore names."""
    ignore_file = root / ".gitignore"
    lines = ignore_file.read_text(encoding="utf-8").splitlines() if ignore_file.exists() else []
    patterns = [line.strip().strip("/") for line in lines if line.strip() and not line.startswith("#")]
    return frozenset(
        entry.name
        for entry in root.iterdir()
        if entry.name != ".git" and not any(fnmatch.fnmatch(entry.name, pattern) for pattern in patterns)
    )


def judge_packages(root: Path) -> frozenset[str]:
    return frozenset(
        entry.name for entry in (root / "judge").iterdir() if entry.is_dir() and entry.name != "__pycache__"
    )


def repository_path(word: str, roots: frozenset[str]) -> str | None:
    """`word` as a path the repository should hold, or None when it is not one (prose, a placeholder, elsewhere)."""
    word = word.lstrip("'\"(").rstrip("'\"(),;:.")
    if "/" not in word or PLACEHOLDER.search(word) or word.startswith(("/", "~", "-")) or SCHEME.match(word):
        return None
    return word if word.split("/", 1)[0] in roots else None


def path_exists(root: Path, name: str) -> bool:
    """`name` under the repository, judge/ or tests/, or a module's function (`runner/execute.run`) that it defines."""
    module, _, attribute = name.rpartition(".")
    defines = re.compile(rf"^(?:async def|def|class) {re.escape(attribute)}\b|^{re.escape(attribute)}\s*[:=]", re.M)
    for base in (root, root / "judge", root / "tests"):
        if ("*" in name and any(base.glob(name))) or (base / name).exists():
            return True
        if module and (base / f"{module}.py").is_file() and defines.search((base / f"{module}.py").read_text()):
            return True
    return False


def broken_links(root: Path, document: Path) -> list[str]:
    prose = read_prose(document)
    problems = []
    for target in link_targets(prose):
        if not target or SCHEME.match(target):
            continue
        name, _, anchor = unquote(target).partition("#")
        linked = (document.parent / name).resolve() if name else document.resolve()
        if not linked.is_relative_to(root.resolve()) or not linked.exists():
            problems.append(f"{target}: no such file")
        elif anchor and (linked.suffix != ".md" or anchor not in anchors(read_prose(linked).headings)):
            problems.append(f"{target}: no heading in {linked.relative_to(root.resolve())} has the anchor #{anchor}")
    return problems


def missing_paths(root: Path, document: Path) -> list[str]:
    roots = tracked_top_level(root) | judge_packages(root)
    named = (repository_path(word, roots) for word in code_words(read_prose(document)))
    return sorted({name for name in named if name and not path_exists(root, name)})


@pytest.mark.parametrize("document", documents(ROOT), ids=lambda path: str(path.relative_to(ROOT)))
def test_every_relative_link_leads_to_a_file_and_a_heading(document: Path) -> None:
    assert broken_links(ROOT, document) == []


@pytest.mark.parametrize("document", documents(ROOT), ids=lambda path: str(path.relative_to(ROOT)))
def test_every_repository_path_named_exists(document: Path) -> None:
    assert missing_paths(ROOT, document) == []


def test_readme_stays_a_front_page() -> None:
    """README is what it is, the set-up, the quick starts and the command table; the depth lives in docs/."""
    assert len((ROOT / "README.md").read_text(encoding="utf-8").splitlines()) <= 250


def test_readme_opens_with_the_two_setup_commands_ci_relies_on() -> None:
    """README's first commands are the ones a fresh machine runs; .ci/run runs the second (README's test command)."""
    opening = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()[2:6]
    assert opening[0] == "```sh"
    assert opening[1].startswith("bash scripts/setup.sh && .venv/bin/judge verify ")
    assert opening[2].startswith("bash scripts/setup.sh --test && .venv/bin/pytest ")
    assert opening[3] == "```"


@pytest.mark.parametrize(
    ("heading", "anchor"),
    [
        (
            "Limits on cgroup v2 machines (Debian 12, Ubuntu 24.04, Fedora)",
            "limits-on-cgroup-v2-machines-debian-12-ubuntu-2404-fedora",
        ),
        ("`judge serve`", "judge-serve"),
        ("The API, and `judge submit`", "the-api-and-judge-submit"),
        ("`judge stress` on the bundled submissions", "judge-stress-on-the-bundled-submissions"),
        ("What is trusted", "what-is-trusted"),
        ("`judge/serve/app.py` and tests_here", "judgeserveapppy-and-tests_here"),
        ("See [the cache](#the-cache) -- twice", "see-the-cache----twice"),
    ],
)
def test_anchors_follow_githubs_rule(heading: str, anchor: str) -> None:
    assert slug(heading) == anchor


def test_a_repeated_heading_gets_a_numbered_anchor() -> None:
    assert anchors(("Options", "Options", "Options")) == {"options", "options-1", "options-2"}


def make_repository(root: Path, readme: str) -> Path:
    (root / "docs").mkdir(parents=True)
    (root / "judge" / "serve").mkdir(parents=True)
    (root / "judge" / "serve" / "app.py").write_text("def create():\n    pass\n\nROUTES = []\n")
    (root / "tests" / "serve").mkdir(parents=True)
    (root / ".gitignore").write_text("# what runs leave behind\nresults/\n")
    (root / "results").mkdir()
    (root / "problems" / "9663").mkdir(parents=True)
    (root / ".ci").mkdir()
    (root / ".ci" / "run").write_text("")
    (root / "ARCHITECTURE.md").write_text("# Architecture\n")
    (root / "docs" / "commands.md").write_text("# Commands\n\n## `judge serve`\n\n```\n## not a heading\n```\n")
    (root / "README.md").write_text(readme)
    return root / "README.md"


@pytest.mark.parametrize(
    ("line", "problem"),
    [
        ("[serve](docs/commands.md#judge-serve)", None),
        ("[serve](docs/command.md#judge-serve)", "docs/command.md#judge-serve: no such file"),
        (
            "[serve](docs/commands.md#serve)",
            "docs/commands.md#serve: no heading in docs/commands.md has the anchor #serve",
        ),
        ("[fenced](docs/commands.md#not-a-heading)", "no heading"),
        ("[here](#top)", "#top: no heading in README.md has the anchor #top"),
        ("[up](../outside.md)", "../outside.md: no such file"),
        ("![shot](docs/serve/shot.png)", "docs/serve/shot.png: no such file"),
        ("[site](https://example.com/x#y) and `[code](nowhere.md)`", None),
        ("[`judge serve`](docs/commands.md#judge-serve) and [ref]: docs/nothing.md", None),
        ("[ref]: docs/nothing.md", "docs/nothing.md: no such file"),
    ],
)
def test_a_broken_link_is_named(tmp_path: Path, line: str, problem: str | None) -> None:
    readme = make_repository(tmp_path / "repo", f"# judge\n\n{line}\n")
    found = broken_links(tmp_path / "repo", readme)
    if problem is None:
        assert found == []
    else:
        assert len(found) == 1 and problem in found[0]


@pytest.mark.parametrize(
    ("line", "missing"),
    [
        ("`judge/serve/app.py` and `tests/serve/`", []),
        ("`judge/serve/api.py`", ["judge/serve/api.py"]),
        ("`serve/app.py`, as ARCHITECTURE names modules", []),
        ("`serve/pages.py`", ["serve/pages.py"]),
        ("`judge run tests/serve/x.py --lang pypy3`", ["tests/serve/x.py"]),
        ("`problems/9963: no such problem folder; did you mean 'problems/9663'?`", []),
        ("`docs/<page>.md`, `tests/{a,b}`, `docs/...`, `results/report.html`, `class/kim/1000.py`", []),
        ("```\njudge run tests/nothing/here.py\n```", []),
        ("`judge/*/app.py` and `judge/*/nothing.py`", ["judge/*/nothing.py"]),
        ("`serve/app.create`, `serve/app.ROUTES` and `serve/app.missing`, functions", ["serve/app.missing"]),
        ("`judge/serve/app.yaml`", ["judge/serve/app.yaml"]),
        ("`serve/pages.render`", ["serve/pages.render"]),
        ("`.ci/run` and `.ci/nothing`, (`tests/serve/`).", [".ci/nothing"]),
        (
            "`problems/9663`, and `problems/9663/x.py`: `python3 problems/9663/y.py`",
            ["problems/9663/x.py", "problems/9663/y.py"],
        ),
        ("a stray ` backtick\n\nthen `judge/serve/app.py` and `tests/nothing/`", ["tests/nothing/"]),
    ],
)
def test_a_missing_path_is_named(tmp_path: Path, line: str, missing: list[str]) -> None:
    readme = make_repository(tmp_path / "repo", f"# judge\n\n{line}\n")
    assert missing_paths(tmp_path / "repo", readme) == missing
