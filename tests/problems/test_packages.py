"""Problem packages (Kattis / ICPC format) load into the same Problem as our folders and verify end to end.

The packages in tests/packages/ were written for these tests: `halve` in the legacy format (float tolerance, a
time limit derived from the accepted submissions, nested groups, an @EXPECTED_RESULTS@ line, a Java class named
after its file, Rust and Python 2 files to skip) and `shout` in 2023-07-draft (a given time limit, a
test_group.yaml with case_sensitive, the rejected and brute_force folders).
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from xml.etree import ElementTree

import pytest

from judge.batch.packing import ProblemPack
from judge.problems.scan import load_problems
from judge.errors import SpecError
from judge.problems.expectations import Expectation
from judge.problems.load import load_problem_folder
from judge.problems.packages.rules import TimeRule
from judge.problems.packages.timing import with_time_limit
from judge.verdicts import Verdict

PACKAGES = Path(__file__).parent.parent / "packages"
HALVE = PACKAGES / "halve"
SHOUT = PACKAGES / "shout"


def judge(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "judge", *args], capture_output=True, text=True, timeout=300,
                          cwd=cwd)


def test_a_legacy_package_loads_into_our_model() -> None:
    problem = load_problem_folder(HALVE)
    assert (problem.id, problem.spec.title, problem.spec.memory_limit) == ("halve", "Halve", 256)
    assert [test.name for test in problem.tests] == ["sample/1", "secret/2", "secret/10", "secret/big/1",
                                                     "secret/big/2"]
    assert [test.is_sample for test in problem.tests] == [True, False, False, False, False]
    assert problem.spec.checker.name == "package-default"
    assert dict(problem.spec.checker.options) == {"absolute": 1e-6}
    assert not problem.spec.language_allowance
    assert problem.time_limit_pending and problem.time_rule == TimeRule(4, 3, 1.0, legacy=True)


def test_a_2023_package_loads_with_its_given_limit_and_group_flags() -> None:
    problem = load_problem_folder(SHOUT)
    assert (problem.id, problem.spec.title, problem.spec.time_limit) == ("shout", "Shout", 2)
    assert not problem.time_limit_pending
    assert dict(problem.spec.checker.options) == {"case_sensitive": True}
    assert [test.name for test in problem.tests] == ["sample/1", "secret/01-letters", "secret/02-mixed"]
    assert SHOUT / "data" / "test_group.yaml" in problem.extra_files


def test_reference_submissions_carry_their_expectations() -> None:
    references = {ref.path.name: ref for ref in load_problem_folder(HALVE).references or ()}
    assert references["floor.py"].expectation == Expectation("WA", frozenset({Verdict.WA, Verdict.PE}))
    assert references["slow_or_wrong.py"].expectation.verdicts == {Verdict.WA, Verdict.PE, Verdict.TLE}
    assert references["crash.py"].expectation.met_by(Verdict.MLE)
    assert "Python 2" in references["halve2.py"].skipped
    assert ".rs" in references["halve.rs"].skipped
    shout = {ref.path.parent.name: ref.expectation for ref in load_problem_folder(SHOUT).references or ()}
    assert shout["rejected"].met_by(Verdict.RE) and not shout["rejected"].met_by(Verdict.AC)
    assert shout["brute_force"].met_by(Verdict.TLE) and not shout["brute_force"].met_by(Verdict.WA)


@pytest.mark.parametrize(("slowest", "limit"), [(0.01, 1.0), (0.3, 2.0), (0.25, 1.0), (1.2, 5.0)])
def test_the_derived_time_limit_rounds_up_to_the_resolution(slowest: float, limit: float) -> None:
    assert TimeRule(4, 3, 1.0).limit_for(slowest) == limit


def test_a_derived_limit_travels_with_the_pack(tmp_path: Path) -> None:
    problem = with_time_limit(load_problem_folder(HALVE), 3)
    pack = ProblemPack.of(problem)
    assert pack.folder == "halve"
    copy = load_problem_folder(pack.unpack(tmp_path / pack.folder))
    assert (copy.id, copy.spec, [test.name for test in copy.tests]) == ("halve", problem.spec,
                                                                       [test.name for test in problem.tests])
    assert not copy.time_limit_pending and ProblemPack.of(copy).digest == pack.digest


def test_one_scanner_sees_both_layouts(tmp_path: Path) -> None:
    shutil.copytree(SHOUT, tmp_path / "shout")
    ours = tmp_path / "add"
    (ours / "tests").mkdir(parents=True)
    (ours / "problem.yaml").write_text("id: add\ntitle: Add\ntime_limit: 1\nmemory_limit: 64\n")
    (ours / "tests" / "1.in").write_text("1 2\n")
    (ours / "tests" / "1.ans").write_text("3\n")
    problems = load_problems(tmp_path)
    assert list(problems) == ["add", "shout"]
    assert problems["add"].references is None and problems["shout"].references


def _package(tmp_path: Path, spec: str, files: dict[str, str] | None = None) -> Path:
    root = tmp_path / "pkg"
    (root / "data" / "secret").mkdir(parents=True)
    (root / "problem.yaml").write_text(spec)
    (root / "data" / "secret" / "1.in").write_text("1\n")
    (root / "data" / "secret" / "1.ans").write_text("1\n")
    for name, text in (files or {}).items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return root


@pytest.mark.parametrize(("spec", "files", "message"), [
    ("name: X\nlimts: {memory: 5}\n", {}, "problem.yaml: limts: unknown key"),
    ("name: X\nlimits: {memory: lots}\n", {}, "problem.yaml: limits.memory: must be a whole number"),
    ("problem_format_version: 2023-07-draft\nvalidation: custom\n", {},
     "problem.yaml: validation: 2023-07-draft has no"),
    ("limits: {time_limit: 2}\n", {}, "problem.yaml: limits.time_limit: the legacy format has no such key"),
    ("problem_format_version: 1999\n", {}, "problem.yaml: problem_format_version: "),
    ("validator_flags: float_tolerance\n", {}, "problem.yaml: validator flags: float_tolerance needs a number"),
    ("validator_flags: case_insensitive\n", {}, "validator flags: unknown flag 'case_insensitive'"),
    ("validator_flags: float_tolerance 1 float_absolute_tolerance 2\n", {}, "repeats a tolerance"),
    ('validator_flags: "\\"x"\n', {}, "problem.yaml: validator_flags: cannot be split into words (no closing quotation)"),
    ("name: X\n", {"data/secret/testdata.yaml": "output_validator_flags: \"x 'y\"\n"},
     "data/secret/testdata.yaml: output_validator_flags: cannot be split into words (no closing quotation): \"x 'y\""),
    ("name: X\n", {"data/testdata.yaml": "output_validator_flags: {flags: 'x \\'}\n"},
     "data/testdata.yaml: output_validator_flags: cannot be split into words (no escaped character)"),
    ("problem_format_version: 2023-07-draft\n", {"data/secret/test_group.yaml": "output_validator_args: \"'\"\n"},
     "test_group.yaml: output_validator_args: cannot be split into words"),
    ("name: X\n", {".timelimit": "fast\n"}, ".timelimit: must hold a number of seconds, got 'fast'"),
    ("name: X\n", {"data/secret/2.in": "2\n"}, "data/secret/2.ans: missing"),
    ("name: X\n", {"data/secret/testdata.yaml": "on_rejct: grade\n"}, "testdata.yaml: on_rejct: unknown key"),
    ("name: X\n", {"data/testdata.yaml": "range: 100 0\n"}, "data/testdata.yaml: range: must be two numbers, the smaller"),
    ("name: X\n", {"data/testdata.yaml": "range: 0 1e9\n"}, "data/testdata.yaml: range: its maximum must be a number"),
    ("name: X\n", {"submissions/accepted/a.py": "# @EXPECTED_RESULTS@: MAYBE\n"}, "unknown result 'MAYBE'"),
    ("problem_format_version: 2023-07-draft\ntype: interactive\n", {}, "type: interactive needs an output validator"),
    ("problem_format_version: 2023-07-draft\ntype: submit-answer\n", {}, "type: submit-answer problems are not supported"),
    ("validation: custom\n", {}, "problem.yaml: validation: custom, but there is no output_validators/<name>/ folder"),
    ("validation: custom\n", {"output_validators/a/v.py": "\n", "output_validators/b/v.py": "\n"},
     "output_validators: 2 output validators; judge runs one"),
    ("name: X\n", {"data/secret/g/testdata.yaml": "output_validator_flags: case_insensitive\n",
                   "data/secret/g/1.in": "1\n", "data/secret/g/1.ans": "1\n"},
     "data/secret/g/testdata.yaml: validator flags: unknown flag 'case_insensitive'"),
])
def test_package_mistakes_are_one_line_naming_the_file(tmp_path: Path, spec: str, files: dict[str, str],
                                                       message: str) -> None:
    root = _package(tmp_path, spec, files)
    with pytest.raises(SpecError) as raised:
        load_problem_folder(root)
    assert message in str(raised.value) and "\n" not in str(raised.value)
    assert str(raised.value).startswith(str(root))


def test_an_empty_legacy_problem_yaml_is_a_package(tmp_path: Path) -> None:
    problem = load_problem_folder(_package(tmp_path, ""))
    assert problem.id == "pkg" and problem.spec.title == "pkg" and problem.spec.memory_limit == 2048


@pytest.mark.slow  # 12.0 s; the load, expectation, run and derived-limit tests here and verify's own cover it
def test_verify_gives_every_reference_submission_its_expected_verdict() -> None:
    done = judge("verify", "--sandbox", "none", "--format", "json", "-j", "2", str(HALVE), str(SHOUT))
    assert done.returncode == 0, done.stdout + done.stderr
    report = json.loads(done.stdout)
    rows = {Path(row["path"]).name: row for row in report["submissions"]}
    assert rows["spin.py"]["got"] == "TLE" and rows["spin.py"]["expected"] == "TLE"
    assert rows["crash.py"]["got"] == "RE" and rows["exhaustive.py"]["got"] == "TLE"
    assert rows["Halve.java"]["got"] == "AC" and rows["halve.cc"]["got"] == "AC"
    assert rows["halve.rs"]["skipped"] and rows["halve2.py"]["skipped"]
    assert rows["whisper.py"]["got"] == "WA"  # case_sensitive from data/test_group.yaml
    assert [derived["problem"] for derived in report["derived_time_limits"]] == ["halve"]  # shout gives its own


def test_run_on_a_package_with_a_given_limit(tmp_path: Path) -> None:
    done = judge("run", "--sandbox", "none", str(SHOUT), str(SHOUT / "submissions" / "wrong_answer" / "whisper.py"))
    assert done.returncode == 1, done.stderr
    assert "sample/1" in done.stdout and "WA" in done.stdout


def test_run_on_a_package_without_a_limit_says_how_to_get_one() -> None:
    done = judge("run", "--sandbox", "none", str(HALVE), str(HALVE / "submissions" / "accepted" / "halve.py"))
    assert done.returncode == 2
    assert done.stderr.strip().endswith("derives one from its accepted submissions: write it in .timelimit")
    assert done.stderr.count("\n") == 1


# Slow: 6-10 s each; a legacy package's rule and advice are tested above
@pytest.mark.slow
@pytest.mark.parametrize(("spec", "multiplier_key", "where"), [
    ("name: Echo\nlimits: {time_multiplier: 3}\n", "limits.time_multiplier", "write it in .timelimit"),
    ("problem_format_version: 2023-07\nname: Echo\nlimits: {time_multipliers: {ac_to_time_limit: 3}, "
     "time_resolution: 0.5}\n", "limits.time_multipliers.ac_to_time_limit", "write it in limits.time_limit"),
])
def test_verify_says_once_per_problem_the_time_limit_it_derived(tmp_path: Path, spec: str, multiplier_key: str,
                                                                 where: str) -> None:
    root = _package(tmp_path, spec, {
        "submissions/accepted/echo.py": "print(input())\n",
        "submissions/accepted/echo_too.py": "import sys\nsys.stdout.write(sys.stdin.read())\n",
    })
    done = judge("verify", "--sandbox", "none", "--format", "json", str(root))
    assert done.returncode == 0, done.stdout + done.stderr
    (derived,) = json.loads(done.stdout)["derived_time_limits"]
    resolution = 1.0 if where.endswith(".timelimit") else 0.5
    assert derived["problem"] == "pkg" and derived["resolution"] == resolution and derived["ac_to_time_limit"] == 3
    assert Path(derived["slowest_accepted"]).name in {"echo.py", "echo_too.py"}
    assert derived["seconds"] == TimeRule(3, 1, resolution).limit_for(derived["slowest_accepted_seconds"])
    assert multiplier_key in derived["how"] and where in derived["how"]
    assert f": {derived['seconds']:g} s;" in derived["how"]

    text = judge("verify", "--sandbox", "none", str(root))
    assert text.returncode == 0, text.stdout + text.stderr
    lines = [line for line in text.stdout.splitlines() if "time limit" in line and "derived" in line]
    assert len(lines) == 1 and f"time limit {derived['seconds']:g} s" in lines[0]

    junit = judge("verify", "--sandbox", "none", "--format", "junit", str(root))
    (suite,) = ElementTree.fromstring(junit.stdout).iter("testsuite")
    (limit,) = suite.iter("property")
    assert (limit.get("name"), limit.get("value")) == ("derived_time_limit", f"{derived['seconds']:g}")
    (said,) = suite.iter("system-out")
    assert said.text is not None and multiplier_key in said.text

