"""`judge run` imports only what it needs (issues 11 and 45): no Dask, no gradebook, no `doctor`, no rich, no web
server, no checker its problem does not name, and, for a problem.yaml validated before, neither pydantic nor PyYAML
(nor pyseccomp, once the filter is compiled). Checked on the modules a real run leaves loaded, in a fresh
interpreter; no test here measures a time."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import program, write_problem
from startup_helpers import among, loaded_by

from judge.runner.containment.choice import available_containments

NEVER_FOR_RUN = ("dask", "distributed", "matplotlib", "sqlite3", "psutil", "rich", "judge.grading", "judge.batch",
                 "judge.doctor", "judge.cli.grade", "judge.cli.verify", "judge.cli.doctor",
                 "judge.reporters.gradebook", "judge.reporters.verify", "hypothesis", "copydetect", "numpy",
                 "judge.stress", "judge.similarity", "judge.answers", "judge.cli.stress", "judge.cli.similarity",
                 "judge.cli.answers", "judge.problems.packages.loader", "judge.judging.interactive",
                 "concurrent.futures",
                 # the launcher's own modules: the judge only talks to it (judge/runner/launcher/messages.py)
                 "judge.runner.launcher.server", "judge.runner.launcher.box_init", "judge.runner.launcher.spawning",
                 # the web server and the course (judge serve, judge grade)
                 "judge.serve", "judge.course", "starlette", "uvicorn", "jinja2", "argon2", "multipart",
                 "itsdangerous", "cryptography", "markdown_it", "latex2mathml")
NOT_FOR_A_PASSING_RUN = (
    # checkers the problem does not name, and what only another problem's checker or program needs
    "judge.checkers.custom", "judge.checkers.program", "judge.checkers.points", "judge.checkers.exact",
    "judge.checkers.tokens", "judge.checkers.float_tolerance", "judge.checkers.package_default",
    "judge.programs.build", "judge.problems.expectations", "judge.problems.scoring",
    # what only a problem package brings (its time rule, its validators' arguments)
    "judge.problems.packages.rules",
    # only an error message or a failed test's diff, a runtime error's cause
    "difflib", "judge.judging.runtime_causes")
"""What a run of a boj-checked problem whose tests all pass never needs (issue 45)."""
VALIDATING = ("pydantic", "pydantic_core", "yaml", "judge.problems.schema", "judge.languages.schema")

def test_run_imports_only_what_it_needs(tmp_path: Path) -> None:
    problem = write_problem(tmp_path / "problem", {"1": ("1 2\n", "3\n")})
    first, modules = loaded_by("run", problem, program("sum.py"), "--sandbox", "none")
    assert first["code"] == 0 and "AC" in str(first["report"]), first["report"]
    assert among(modules, NEVER_FOR_RUN + NOT_FOR_A_PASSING_RUN) == []
    again, modules = loaded_by("run", problem, program("sum.py"), "--sandbox", "none", "--format", "json")
    assert json.loads(str(again["report"]))["verdict"] == "AC"
    # the spec, languages.yaml and the seccomp program came from the judge's cache, keyed without OpenSSL's hashes
    assert among(modules, NEVER_FOR_RUN + NOT_FOR_A_PASSING_RUN + VALIDATING + ("pyseccomp", "hashlib", "socket")) == []


def test_run_with_cgroups_imports_no_polled_containment(tmp_path: Path) -> None:
    """Where the kernel's control groups contain a run, the /proc and psutil containments are never loaded, nor
    the /proc process-tree walking they share (issue 45)."""
    if available_containments()[0] != "cgroup":
        pytest.skip("no usable cgroup here: the polled containment is the one judge run uses")
    problem = write_problem(tmp_path / "problem", {"1": ("1 2\n", "3\n")})
    answer, modules = loaded_by("run", problem, program("sum.py"), "--sandbox", "none")
    assert answer["code"] == 0, answer["report"]
    assert among(modules, ("judge.runner.containment.polled", "judge.runner.containment.proctree")) == []


def test_run_help_imports_no_other_command() -> None:
    answer, modules = loaded_by("run", "--help")
    assert answer["code"] == 0 and "--sandbox" in str(answer["report"])
    assert among(modules, NEVER_FOR_RUN + VALIDATING) == []


def test_a_changed_problem_yaml_is_validated_again(tmp_path: Path) -> None:
    """The cache is keyed by content: an edit is validated (and a broken edit refused) at once."""
    problem = write_problem(tmp_path / "problem", {"1": ("1 2\n", "3\n")})
    loaded_by("run", problem, program("sum.py"), "--sandbox", "none")
    spec = problem / "problem.yaml"
    spec.write_text(spec.read_text() + "tme_limit: 3\n")
    done = subprocess.run([sys.executable, "-m", "judge", "run", str(problem), str(program("sum.py"))],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2, done
    assert done.stderr.strip() == (f"judge: {spec}: tme_limit: unknown key; remove it or check its spelling "
                                   "(did you mean time_limit?)")


def test_a_misspelt_command_is_matched_against_every_command_not_only_loaded_ones() -> None:
    done = subprocess.run([sys.executable, "-m", "judge", "simlarity"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2, done
    assert "No such command 'simlarity'. Did you mean 'similarity'?" in done.stderr


COLLECTOR_AFTER_LOADING = """
import gc, json, sys
from judge.cli import main
gc.disable() if sys.argv[1] == "off" else None
before = gc.get_freeze_count()
main(["run", "--help"])
print(json.dumps({"frozen": gc.get_freeze_count() - before, "enabled": gc.isenabled()}))
"""


@pytest.mark.parametrize("collector", ["on", "off"])
def test_a_commands_modules_are_frozen_once_loaded_and_the_collector_left_as_it_was(collector: str) -> None:
    """`judge run`'s modules live as long as its process: once loaded they are frozen, so the cyclic collector
    never walks them again (issue 45); the collector is left on (or off, if someone turned it off)."""
    done = subprocess.run([sys.executable, "-c", COLLECTOR_AFTER_LOADING, collector], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout.splitlines()[-1])
    assert answer["enabled"] is (collector == "on")
    assert (answer["frozen"] > 10_000) is (collector == "on"), answer


QUIET_START = """
import gc, json, sys
collected = []
gc.callbacks.append(lambda phase, info: phase == "start" and collected.append(info["generation"]))
import judge.__main__ as entry
sys.argv = ["judge", "--version"]
collected.clear()  # what importing judge/__main__.py itself cost (compiling it, where no bytecode is written)
code = entry.command_line()
print(json.dumps({"code": code, "collected": collected, "enabled": gc.isenabled()}))
"""


def test_the_command_line_loads_without_the_collector_running() -> None:
    """The entry of `judge` and `python -m judge` loads click and judge/cli/ with the collector paused, then
    freezes them (issue 45): `judge --version` runs no collection at all, and leaves the collector on."""
    done = subprocess.run([sys.executable, "-c", QUIET_START], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout.splitlines()[-1])
    assert answer == {"code": 0, "collected": [], "enabled": True}, answer


RECORDS_DEFINED = """
import contextlib, io, json, sys
from judge.cli import main
with contextlib.redirect_stdout(io.StringIO()):
    code = main(sys.argv[1:])
names = ("TimeRule", "ValidatorArgs", "Judging", "ReferenceRun")
print(json.dumps({"code": code, "defined": sorted(name for module in list(sys.modules.values())
                                                  for name in names if name in vars(module))}))
"""


def test_judge_run_creates_no_record_only_other_commands_use(tmp_path: Path) -> None:
    """Each record class costs `judge run` its creation at start-up: those only a problem package
    brings (its time rule, its validators' arguments) and those only stress and answers use (an open judging, a
    reference run) are not created for a problem folder of ours (issue 45)."""
    problem = write_problem(tmp_path / "problem", {"1": ("1 2\n", "3\n")})
    done = subprocess.run([sys.executable, "-c", RECORDS_DEFINED, "run", str(problem), str(program("sum.py")),
                           "--sandbox", "none"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout.splitlines()[-1]) == {"code": 0, "defined": []}


ENDING = """
import atexit, sys, threading, time, weakref
import judge.__main__ as entry
atexit.register(lambda: print("an exit function ran"))
if sys.argv[1] in ("thread", "daemon"):
    ending = lambda: (time.sleep(0.3), print("the thread ended"))
    threading.Thread(target=ending, daemon=sys.argv[1] == "daemon").start()
if sys.argv[1] == "last finalizer":
    go, finalizing, commanded = threading.Event(), threading.Event(), threading.Event()
    def finish():
        finalizing.set()
        commanded.wait(60)
        time.sleep(0.2)  # the process is ending meanwhile
        print("the thread's last finalizer ended")
    class Load:
        pass
    class Ending(threading.Thread):
        def __init__(self):
            super().__init__()
            self.load = Load()  # freed with the thread object, once its thread has left threading's list
            weakref.finalize(self.load, finish)
        def run(self):
            go.wait(60)  # until this thread holds the last reference to its object
    Ending().start()
    go.set()
    finalizing.wait(60)
    command_line = entry.command_line
    entry.command_line = lambda: (command_line(), commanded.set())[0]
sys.argv = ["judge", *sys.argv[2:]]
code = entry.console()
print("the interpreter's exit, with", code)
"""


def ending(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", ENDING, *argv], capture_output=True, text=True, timeout=60)


def test_the_process_ends_without_teardown_once_its_exit_functions_ran() -> None:
    """`judge` ends its process itself, skipping the interpreter's teardown (issue 45), but not what anyone
    sees of an exit: the exit functions run, the output is flushed, the status is the command's."""
    done = ending("alone", "--version")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[1:] == ["an exit function ran"], done.stdout
    refused = ending("alone", "--sandbox")
    assert refused.returncode == 2 and "an exit function ran" in refused.stdout, refused
    assert "the interpreter's exit" not in refused.stdout


def test_a_thread_still_running_is_waited_for_before_the_exit_functions() -> None:
    """Another thread still running is waited for, as the interpreter's exit waits, then the process ends."""
    done = ending("thread", "--version")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[1:] == ["the thread ended", "an exit function ran"], done.stdout


def test_a_threads_last_finalizer_is_waited_for() -> None:
    """A thread is waited for to its very end: objects its end frees run their finalizers after `threading` has
    forgotten the thread (a process pool's semaphores are unlinked so), and ending the process in the middle of
    one left the pool's resource tracker warning of a leak on `judge verify`'s stderr."""
    done = ending("last finalizer", "--version")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[1:] == ["the thread's last finalizer ended", "an exit function ran"], done.stdout
    assert not done.stderr


def test_a_daemon_thread_still_running_is_left_to_the_interpreters_exit() -> None:
    """A daemon thread is not waited for: the command returns, and the interpreter's exit (which lets it run
    on) ends the process as it always has."""
    done = ending("daemon", "--version")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[1:3] == ["the interpreter's exit, with 0", "an exit function ran"], done.stdout
