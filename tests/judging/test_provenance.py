"""Every result says what its times were measured under (issue 43, item 2): the keys are there and true of this
machine and this judging, in the result, its JSON and JUnit views and the gradebook, which shows a line per class
run and flags a result judged under weaker conditions than the rest. The host's conditions are also read from a
fake sysfs/procfs tree, so each reading is checked against a known answer."""

from __future__ import annotations

import msgspec.structs
import io
import json
from pathlib import Path
from xml.etree import ElementTree

import pytest

from judge import __version__
from judge.grading.gradebook import Gradebook, ProblemColumn
from judge.grading.results_db import Fingerprint, StoredResult
from judge.host_timing import read_host_timing
from judge.judging.feedback import shown
from judge.judging.provenance import toolchain_version
from judge.judging.results import CaseResult, SubmissionResult
from judge.judging.submission import judge_submission
from judge.languages.catalog import LANGUAGES
from judge.languages.toolchains import resolve_toolchain, tool_version
from judge.options import RunOptions
from judge.problems.folder import load_problem
from judge.reporters.gradebook import json_doc, page
from judge.reporters.submission import REPORTERS
from judge.runner.containment.choice import choose_containment
from judge.runner.limits import Limits
from judge.verdicts import Verdict


def fake_root(tmp_path: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return tmp_path


BUSY_LAPTOP = {
    "sys/devices/system/cpu/smt/control": "on\n",
    "sys/devices/system/cpu/smt/active": "1\n",
    "sys/devices/system/cpu/cpu0/cpufreq/scaling_governor": "powersave\n",
    "sys/devices/system/cpu/cpu1/cpufreq/scaling_governor": "powersave\n",
    "sys/devices/system/cpu/intel_pstate/no_turbo": "0\n",
    "sys/kernel/mm/transparent_hugepage/enabled": "[always] madvise never\n",
    "proc/swaps": "Filename Type Size Used Priority\n/swapfile file 2097148 0 -2\n",
    "proc/sys/kernel/randomize_va_space": "2\n",
    "proc/cpuinfo": "processor\t: 0\nflags\t\t: fpu vme sse2\n",
}
GRADING_SERVER = {
    "sys/devices/system/cpu/smt/control": "off\n",
    "sys/devices/system/cpu/cpu0/cpufreq/scaling_governor": "performance\n",
    "sys/devices/system/cpu/cpufreq/boost": "0\n",
    "sys/kernel/mm/transparent_hugepage/enabled": "always madvise [never]\n",
    "proc/swaps": "Filename Type Size Used Priority\n",
    "proc/sys/kernel/randomize_va_space": "0\n",
    "proc/cpuinfo": "processor\t: 0\nflags\t\t: fpu vme sse2 hypervisor\n",
    "sys/class/dmi/id/sys_vendor": "QEMU\n",
}


@pytest.mark.parametrize(
    ("files", "expected"),
    [
        (BUSY_LAPTOP, ("on", "powersave", "on", "always", "on", "on (full)", "no")),
        (GRADING_SERVER, ("off", "performance", "off", "never", "off", "off", "QEMU")),
        ({}, ("unknown", "none", "unknown", "unknown", "unknown", "unknown", "no")),
    ],
    ids=["laptop", "server", "nothing-readable"],
)
def test_the_host_conditions_are_read_from_sysfs_and_procfs(tmp_path, files, expected):
    host = read_host_timing(fake_root(tmp_path, files))
    found = (host.smt, host.governor, host.boost, host.transparent_hugepages, host.swap,
             host.address_randomisation, host.virtual_machine)
    assert found == expected


def test_a_result_records_what_it_was_measured_under(make_problem, submission):
    problem = make_problem()
    source = submission("a, b = map(int, input().split())\nprint(a + b)\n", "sum.py")
    host = read_host_timing()
    result = judge_submission(load_problem(problem), source, RunOptions(sandbox="none", containment="proc",
                                                                        host_timing=host))
    record = result.provenance
    assert result.verdict is Verdict.AC
    assert record["judge_version"] == __version__
    python = resolve_toolchain(LANGUAGES["python3"])
    assert record["toolchain"] == toolchain_version(python) == tool_version(next(iter(python.paths.values())))
    assert (record["sandbox"], record["containment"]) == ("none", choose_containment("proc").name)
    assert record["memory"] == result.memory_enforcement
    assert record["workers"] == 1 and record["required_containment"] is None
    assert record["load_average"] >= 0 and record["runnable_tasks"] >= 1
    assert record["host"] == host.to_dict()  # the command's one reading, passed down, not read again


def test_a_record_read_on_another_machine_is_read_again(make_problem, submission):
    """A Dask worker on another machine measures under its own conditions, not the command's."""
    elsewhere = msgspec.structs.replace(read_host_timing(), machine="another-machine", smt="on (elsewhere)")
    result = judge_submission(load_problem(make_problem()), submission("print(3)\n", "three.py"),
                              RunOptions(sandbox="none", host_timing=elsewhere))
    assert result.provenance["host"]["machine"] != "another-machine"
    assert result.provenance["host"]["smt"] != "on (elsewhere)"


def result_with(provenance: dict) -> SubmissionResult:
    case = CaseResult("1", Verdict.AC, 0.5, 0.6, 3.0)
    return SubmissionResult("t", "kim/t.py", "Python 3", Limits(1.0, 3.0, 256, 1), "bwrap", "cgroup v2",
                            Verdict.AC, (case,), provenance=provenance)


def record(containment: str, sandbox: str, load: float, read_at: float) -> dict:
    host = {**msgspec.structs.asdict(read_host_timing()), "machine": "lab", "read_at": read_at, "cpus": 4}
    return {"judge_version": __version__, "toolchain": "Python 3.11.2", "sandbox": sandbox,
            "containment": containment, "memory": "", "required_containment": None, "workers": 2,
            "load_average": load, "runnable_tasks": 2, "host": host}


@pytest.mark.parametrize("name", ["json", "junit"])
def test_the_submission_views_carry_the_record(name):
    stream = io.StringIO()
    REPORTERS[name](shown(result_with(record("cgroup v2", "bwrap", 0.5, 1.0)), "full"), stream)
    if name == "json":
        assert json.loads(stream.getvalue())["provenance"]["host"]["machine"] == "lab"
    else:
        found = ElementTree.fromstring(stream.getvalue()).find("./properties/property[@name='host.machine']")
        assert found is not None and found.get("value") == "lab"


def test_the_gradebook_shows_a_line_per_class_run_and_flags_the_weaker_results():
    quiet, busy, polled = (record("cgroup v2", "bwrap", 0.5, 1_700_000_000), record("cgroup v2", "bwrap", 9.0,
                           1_700_090_000), record("proc", "bwrap", 0.5, 1_700_090_000))
    results = {
        (student, "t"): StoredResult(student, "t", Fingerprint(f"{student}/t.py", "0" * 64, "1" * 64, "0"),
                                     Verdict.AC, 1, 1, result_with(provenance), "", "here", "2024-01-01T00:00:00")
        for student, provenance in (("ann", quiet), ("bo", busy), ("cy", polled))
    }
    gradebook = Gradebook(problems=(ProblemColumn("t", "T", 1.0, 1),), students=("ann", "bo", "cy"),
                          results=results, unmatched=(), layout="by-student", partial=False,
                          generated_at="2024-01-01T00:00:00+00:00")
    document = json.loads(json_doc.render(gradebook))
    assert [run["results"] for run in document["class_runs"]] == [1, 2]
    assert all("on lab: " in run["line"] and "SMT" in run["line"] for run in document["class_runs"])
    assert "cgroup v2 / proc" in document["class_runs"][1]["line"]
    assert document["weaker_conditions"] == [{"student": "bo", "problem": "t"}, {"student": "cy", "problem": "t"}]
    html = page.render(gradebook)
    assert html.count('class="weaker"') == 2
    assert html.count("<li>2023-11-") == 2  # the two class runs' lines


def test_grade_records_its_workers_and_one_host_reading_per_class_run(tmp_path):
    from conftest import judge_cli, write_problem

    write_problem(tmp_path / "problems" / "t")
    for student in ("ann", "bo"):
        (tmp_path / "class" / student).mkdir(parents=True)
        (tmp_path / "class" / student / "t.py").write_text("a, b = map(int, input().split())\nprint(a + b)\n")
    done = judge_cli("grade", tmp_path / "problems", tmp_path / "class", "--out", tmp_path / "out", "--jobs", "2",
                     "--sandbox", "none")
    assert done.returncode == 0, done.stderr
    document = json.loads((tmp_path / "out" / "grades.json").read_text())
    records = [student["results"]["t"]["report"]["provenance"] for student in document["students"]]
    assert [each["workers"] for each in records] == [2, 2]
    assert len(document["class_runs"]) == 1 and document["class_runs"][0]["results"] == 2
