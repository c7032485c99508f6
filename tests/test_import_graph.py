"""The floor plan of judge/ holds (issue 22): imports only go down the layers below, no two packages import each
other, and a feature (a command's engine) never reaches into another feature.

Read from the source with `ast`, so every import counts: at the top, inside a function (the lazy ones) and under
`TYPE_CHECKING`. A "unit" is a package directly under judge/ or a module there (`judge.class_folder`); the root
`judge` (its `__version__`) is shared.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

import pytest

JUDGE = Path(__file__).resolve().parent.parent / "judge"

LAYERS: tuple[tuple[str, frozenset[str]], ...] = (
    ("shared", frozenset({"judge", "errors", "verdicts", "options", "inert", "lazy", "schema_errors", "suggest", "host_timing",
                          "tool_cache", "intake", "private_folder", "output_folder"})),
    ("runner", frozenset({"runner"})),
    ("languages", frozenset({"languages"})),
    ("problems", frozenset({"problems"})),
    ("programs", frozenset({"programs"})),  # every program a problem brings, and a submission's Program
    ("checkers", frozenset({"checkers"})),
    ("judging", frozenset({"judging"})),
    ("cluster", frozenset({"cluster"})),  # the Dask cluster's address and TLS files; knows no judging
    ("batch", frozenset({"batch"})),
    ("class folder", frozenset({"class_folder"})),
    ("course", frozenset({"course"})),
    ("features", frozenset({"grading", "verify", "stress", "similarity", "answers", "doctor"})),
    ("reporters", frozenset({"reporters"})),
    ("serve", frozenset({"serve"})),  # a web front end like cli: it composes features (grading's results database, similarity) and views
    ("cli", frozenset({"cli"})),
    ("entry point", frozenset({"__main__"})),  # `python -m judge`
)
"""Bottom to top: a unit imports only units of lower layers. Only the shared layer's units import each other (the
cycle test keeps them apart); features are peers that do not (FEATURE_USES lists the exceptions). Reporters sit
above the features because they present the features' records (VerifyReport, Gradebook, StressReport,
SimilarityReport); no feature imports a view, and only cli/ chooses and writes them."""

PEERS_MAY_IMPORT = frozenset({"shared"})

FEATURE_USES: frozenset[tuple[str, str]] = frozenset({
    ("grading", "judge.stress"),
})
"""(feature, module of another feature) it may import. `judge grade --stress` puts `judge stress`'s smallest failing
input of each WA pair on the gradebook, so grading uses stress, through its package API (judge/stress/__init__.py)
only, never its internals."""


@dataclass(frozen=True)
class Import:
    """`importer` (a module) imports `imported` (a module of judge, as precisely as the import names it)."""

    importer: str
    imported: str

    def units(self) -> tuple[str, str]:
        return unit_of(self.importer), unit_of(self.imported)


def unit_of(module: str) -> str:
    """`judge.verify.session` -> `verify`; `judge` -> `judge`."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else parts[0]


def module_files(root: Path) -> dict[str, Path]:
    """Every module of the package at `root`, by dotted name (a package by its own name, not `__init__`)."""
    modules = {}
    for path in sorted(root.rglob("*.py")):
        parts = [root.name, *path.relative_to(root).with_suffix("").parts]
        if parts[-1] == "__init__":
            parts.pop()
        modules[".".join(parts)] = path
    return modules


def imports(root: Path) -> Iterator[Import]:
    """Every import of one of the package's own modules made anywhere in the package at `root`."""
    modules = module_files(root)
    for module, path in modules.items():
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    anchor = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                    base = f"{anchor}.{base}" if base else anchor
                names = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base for alias in node.names]
            else:
                continue
            for name in names:
                if name == root.name or name.startswith(f"{root.name}."):
                    yield Import(module, name)


def layer_of(layers: tuple[tuple[str, frozenset[str]], ...]) -> dict[str, tuple[int, str]]:
    return {unit: (rank, name) for rank, (name, units) in enumerate(layers) for unit in units}


def wrong_imports(found: list[Import], layers: tuple[tuple[str, frozenset[str]], ...],
                  feature_uses: frozenset[tuple[str, str]]) -> list[str]:
    """Each import that climbs a layer or crosses between peers that may not import each other, as a line."""
    layer = layer_of(layers)
    wrong = set()
    for found_import in found:
        importer, imported = found_import.units()
        if importer == imported:
            continue
        (low, importer_layer), (high, imported_layer) = layer[importer], layer[imported]
        allowed = (high < low or (high == low and importer_layer in PEERS_MAY_IMPORT)
                   or (unit_of(found_import.importer), found_import.imported) in feature_uses)
        if not allowed:
            wrong.add(f"{found_import.importer} ({importer_layer}) imports {found_import.imported} ({imported_layer})")
    return sorted(wrong)


def unit_cycles(found: list[Import]) -> list[list[str]]:
    """Every cycle of the graph of units (a unit importing itself is not one), each as found by a depth-first walk."""
    graph: dict[str, set[str]] = {}
    for found_import in found:
        importer, imported = found_import.units()
        if importer != imported:
            graph.setdefault(importer, set()).add(imported)
    cycles, done = [], set()

    def walk(unit: str, path: list[str]) -> None:
        for successor in sorted(graph.get(unit, ())):
            if successor in path:
                cycles.append([*path[path.index(successor):], successor])
            elif successor not in done:
                walk(successor, [*path, successor])
        done.add(unit)

    for start in sorted(graph):
        if start not in done:
            walk(start, [start])
    return cycles


SQL_CALLS = frozenset({"execute", "executemany", "executescript"})
SQL_OWNER = "serve.store"
"""serve/ is a front end (ARCHITECTURE.md): its one package that speaks SQL is its store (and its modules)."""


def sql_speakers(root: Path) -> list[str]:
    """Each module of the package at `root` that imports sqlite3 or calls `.execute`, `.executemany` or
    `.executescript` on anything, as a line."""
    found = set()
    for module, path in module_files(root).items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.Import) and any(alias.name.split(".")[0] == "sqlite3" for alias in node.names):
                found.add(f"{module} imports sqlite3")
            elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "sqlite3":
                found.add(f"{module} imports sqlite3")
            elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                  and node.func.attr in SQL_CALLS):
                found.add(f"{module} calls .{node.func.attr}")
    return sorted(found)


def units_in(root: Path) -> set[str]:
    return {unit_of(module) for module in module_files(root)}


@pytest.fixture(scope="module")
def judge_imports() -> list[Import]:
    return list(imports(JUDGE))


def test_every_unit_of_judge_has_one_layer() -> None:
    """A new package or top-level module must be placed in the table (and one removed taken out of it)."""
    listed = [unit for _, units in LAYERS for unit in units]
    assert len(listed) == len(set(listed)), "a unit is in two layers"
    assert units_in(JUDGE) == set(listed)


def test_imports_only_go_down(judge_imports: list[Import]) -> None:
    assert wrong_imports(judge_imports, LAYERS, FEATURE_USES) == []


def test_no_two_packages_import_each_other(judge_imports: list[Import]) -> None:
    assert unit_cycles(judge_imports) == []


def test_features_import_no_other_feature_but_through_the_table(judge_imports: list[Import]) -> None:
    features = dict(LAYERS)["features"]
    crossing = {(unit_of(found.importer), found.imported) for found in judge_imports
                if found.units()[0] in features and found.units()[1] in features - {found.units()[0]}}
    assert crossing == set(FEATURE_USES)  # every listed use is real, and no other exists


SERVE_FRONTS = frozenset({"judge.serve.api", "judge.serve.pages"})
"""The JSON API and the pages: peers over serve's forms, CSRF check and service, neither importing the other."""


def test_the_api_and_the_pages_are_peers(judge_imports: list[Import]) -> None:
    assert [found for found in judge_imports
            if found.importer in SERVE_FRONTS and found.imported in SERVE_FRONTS - {found.importer}] == []


def test_no_module_of_serve_but_its_store_speaks_sql() -> None:
    speakers = [line.split()[0] for line in sql_speakers(JUDGE / "serve")]
    assert [module for module in speakers if module != SQL_OWNER and not module.startswith(SQL_OWNER + ".")] == []


HTML_ENGINE = "judge.reporters.html"
HTML_ENGINE_PARTS = ("jinja2", "judge.inert.html_text", "string.Template")
"""One HTML engine for every page the judge writes (ARCHITECTURE.md, "Hostile text"): only reporters/html.py
holds Jinja2 and `html_text`; no page is built with `string.Template` or by escaping text by hand."""


def html_engine_parts(root: Path) -> list[str]:
    """Each use of a part of an HTML engine (HTML_ENGINE_PARTS) by a module of the package at `root`, as a line."""
    found = set()
    for module, path in module_files(root).items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and not node.level:
                names = [f"{node.module}.{alias.name}" for alias in node.names]
            else:
                continue
            for name in names:
                part = next((part for part in HTML_ENGINE_PARTS if name == part or name.startswith(f"{part}.")), None)
                if part is not None:
                    found.add(f"{module} imports {name}")
    return sorted(found)


def test_every_page_is_written_by_one_html_engine() -> None:
    assert [line for line in html_engine_parts(JUDGE) if line.split()[0] != HTML_ENGINE] == []
    assert html_engine_parts(JUDGE) == [f"{HTML_ENGINE} imports jinja2.Environment",
                                        f"{HTML_ENGINE} imports jinja2.FileSystemLoader",
                                        f"{HTML_ENGINE} imports judge.inert.html_text"]


def _write_tree(root: Path, files: Mapping[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def test_the_checks_catch_a_climb_a_cycle_and_a_feature_reaching_into_another(tmp_path: Path) -> None:
    """The same functions on a small package built to break each rule once, so the tests above can fail."""
    root = _write_tree(tmp_path / "judge", {
        "__init__.py": "",
        "low/__init__.py": "",
        "low/core.py": "def helper():\n    from judge.high import view  # a lazy import that climbs\n",
        "high/__init__.py": "",
        "high/view.py": "from judge.low.core import helper\n",
        "one/__init__.py": "from judge.one.engine import run\n",
        "one/engine.py": "from ..two import api\n",
        "two/__init__.py": "",
        "two/api.py": "from judge.two import internals\n",
        "two/internals.py": "from judge.one import engine\n",
    })
    layers = (("low", frozenset({"judge", "low"})), ("features", frozenset({"one", "two"})),
              ("high", frozenset({"high"})))
    found = list(imports(root))
    assert wrong_imports(found, layers, frozenset()) == [
        "judge.low.core (low) imports judge.high.view (high)",
        "judge.one.engine (features) imports judge.two.api (features)",
        "judge.two.internals (features) imports judge.one.engine (features)",
    ]
    assert wrong_imports(found, layers, frozenset({("one", "judge.two.api"), ("two", "judge.one.engine")})) == [
        "judge.low.core (low) imports judge.high.view (high)",
    ]
    assert sorted(map(tuple, unit_cycles(found))) == [("high", "low", "high"), ("one", "two", "one")]



def test_the_sql_check_catches_an_import_and_each_call(tmp_path: Path) -> None:
    """The check above on a small package that breaks the rule every way once, so it can fail."""
    root = _write_tree(tmp_path / "serve", {
        "__init__.py": "",
        "store.py": "import sqlite3\n",
        "progress.py": "def write(connection):\n    import sqlite3.dbapi2\n    connection.execute('UPDATE t')\n",
        "pages.py": "from sqlite3 import connect\n",
        "api.py": "def f(c):\n    c.executemany('x', [])\n    c.executescript('x')\n",
        "app.py": "def f(executor):\n    return executor.submit(f)\n",
    })
    assert sql_speakers(root) == [
        "serve.api calls .executemany", "serve.api calls .executescript", "serve.pages imports sqlite3",
        "serve.progress calls .execute", "serve.progress imports sqlite3", "serve.store imports sqlite3",
    ]
