"""The launcher process (judge/runner/launcher/server.py) imports only the standard library and its own two
modules: in a warm box it sees nothing else of the judge, and it must start fast. Importing it runs the
__init__.py of judge, judge.runner and judge.runner.launcher on the way, so none of them may import anything."""

from __future__ import annotations

import ast
import subprocess
import sys

from judge.runner.launcher.client import JUDGE_PACKAGE, launcher_command

ON_THE_WAY = ("judge", "judge.runner", "judge.runner.launcher")
LAUNCHER_MODULES = {*ON_THE_WAY, "judge.runner.launcher.server", "judge.runner.launcher.box_init",
                    "judge.runner.launcher.own_limits", "judge.runner.launcher.spawning",
                    "judge.runner.launcher.messages", "judge.runner.launcher.copying"}
NOT_FOR_THE_LAUNCHER = ("socket", "selectors", "signal", "enum", "json", "re", "array", "collections",
                        "contextlib")
"""Python wrappers whose additions (enums, selectors) the launcher never uses (it takes the C module beneath), and
what only slowed its start: json (marshal is built in), array (struct is loaded anyway), contextlib."""
# In place of the launcher's boot line: import the launcher as its boot line does, and list what that loaded.
LIST_IMPORTS = ("import sys; sys.path.insert(0, sys.argv[1]); before = set(sys.modules); "
                "import judge.runner.launcher.server; print(sorted(set(sys.modules) - before))")


def test_the_launcher_loads_only_the_standard_library_and_its_own_modules() -> None:
    command = launcher_command(sys.executable, JUDGE_PACKAGE.parent)
    assert command[1:4] == ["-I", "-S", "-c"], command  # isolated, no site: as the launcher starts
    done = subprocess.run([*command[:4], LIST_IMPORTS, *command[5:]], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    loaded = set(ast.literal_eval(done.stdout))
    assert {name for name in loaded if name.partition(".")[0] == "judge"} == LAUNCHER_MODULES
    assert sorted(loaded & set(NOT_FOR_THE_LAUNCHER)) == []
    assert sorted(name for name in loaded - LAUNCHER_MODULES
                  if name.partition(".")[0] not in sys.stdlib_module_names) == []


def test_the_packages_on_the_launchers_way_import_nothing() -> None:
    """Not even the standard library: each module loaded here is time the first test may wait for."""
    for package in ON_THE_WAY:
        init = JUDGE_PACKAGE.parent.joinpath(*package.split("."), "__init__.py")
        imports = [node for node in ast.walk(ast.parse(init.read_text()))
                   if isinstance(node, (ast.Import, ast.ImportFrom))]
        assert imports == [], f"{init} imports (line {imports[0].lineno if imports else 0})"
