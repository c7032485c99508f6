"""Which modules a `judge` command loads, in a fresh interpreter: shared by the start-up tests of the commands
(tests/cli/test_startup.py, tests/cluster/test_cluster_startup.py), importable from every test folder as conftest is."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

RUN_AND_LIST = """
import contextlib, io, json, sys
from judge.cli import main
with contextlib.redirect_stdout(io.StringIO()) as shown:
    code = main(sys.argv[1:])
print(json.dumps({"code": code, "report": shown.getvalue(), "modules": sorted(sys.modules)}))
"""


def loaded_by(*args: str | Path) -> tuple[dict[str, object], set[str]]:
    """Run `judge ARGS` in a fresh interpreter; its exit code and report, and every module it had loaded."""
    done = subprocess.run([sys.executable, "-c", RUN_AND_LIST, *map(str, args)], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    return answer, set(answer["modules"])


def among(modules: set[str], prefixes: tuple[str, ...]) -> list[str]:
    return sorted(name for name in modules if any(name == p or name.startswith(p + ".") for p in prefixes))
