"""Features of problem packages from the field (issue 25), on tests/packages/tally, a 2025-09 package written for
these tests: group settings judge does not use, .py3 and shell submissions, submissions.yaml and mixed/, programs
given as folders with build and run scripts, submissions of several files."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path, PurePosixPath

import pytest
from conftest import judge_cli

from judge.errors import SpecError
from judge.problems.expectations import CaseRequirement, Expectation
from judge.problems.load import load_problem_folder
from judge.problems.packages.submissions import marker_expectation, markers_in
from judge.problems.packages.submissions_yaml import SubmissionsConfig, expand_braces
from judge.verdicts import Verdict

TALLY = Path(__file__).parent.parent / "packages" / "tally"


@pytest.fixture
def tally(package_copy: Callable[[str], Path]) -> Path:
    """A copy of the tally package, to change."""
    return package_copy("tally")


def test_keys_the_specification_defines_are_accepted_and_each_listed_once() -> None:
    problem = load_problem_folder(TALLY)
    assert problem.unused_keys == (
        "constants (problem.yaml)", "full_feedback (data/secret/test_group.yaml)",
        "output_visualizer_args (data/secret/test_group.yaml)",
        "input_visualizer_args (data/secret/large/test_group.yaml)")


def test_a_key_no_version_defines_is_still_an_error(tally: Path) -> None:
    (tally / "data" / "secret" / "large" / "test_group.yaml").write_text("output_visualiser_args: [--wide]\n")
    with pytest.raises(SpecError, match=r"test_group\.yaml.*output_visualiser_args"):
        load_problem_folder(tally)


@pytest.mark.slow
def test_verify_lists_the_unused_keys_once_as_a_note() -> None:
    done = judge_cli("verify", str(TALLY))
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.count("output_visualizer_args") == 1
    assert "note tally: unused keys" in " ".join(done.stdout.split())


@pytest.mark.slow
def test_py3_and_shell_submissions_are_judged_not_skipped() -> None:
    references = {ref.path.name: ref for ref in load_problem_folder(TALLY).references or ()}
    for name in ("tally.sh", "tally_again.py3", "first_two.bash"):
        assert not references[name].skipped, references[name].skipped
    done = judge_cli("verify", str(TALLY))
    assert done.returncode == 0, done.stdout + done.stderr
    rows = {line.split()[0].split("/")[-1]: line.split()[1:] for line in done.stdout.splitlines() if "│" in line}
    assert rows["tally.sh"][:4] == ["│", "Bash", "│", "AC"], rows
    assert rows["tally_again.py3"][:5] == ["│", "PyPy", "3", "│", "AC"], rows  # a package's Python 3 is PyPy 3
    assert rows["first_two.bash"][:4] == ["│", "Bash", "│", "WA"], rows


def test_a_shell_script_that_does_not_parse_is_a_compile_error(tmp_path: Path) -> None:
    script = tmp_path / "broken.sh"
    script.write_text("read n\nif [ $n -gt 0 ]; then\necho $n\n")
    done = judge_cli("run", str(TALLY), str(script))
    assert "result: CE" in done.stdout, done.stdout + done.stderr
    assert "syntax error" in done.stdout + done.stderr


def test_submissions_yaml_gives_the_mixed_folder_its_expectations() -> None:
    references = {f"{ref.path.parent.name}/{ref.path.name}": ref for ref in load_problem_folder(TALLY).references or ()}
    crash = references["mixed/crash_when_long.py"]
    assert not crash.skipped and crash.expectation.verdicts == {Verdict.RE, Verdict.MLE, Verdict.OLE}
    for name in ("mixed/wrong_when_negative.py", "mixed/wrong_when_negative.sh"):  # one pattern, braces expanded
        assert references[name].expectation.verdicts == {Verdict.WA, Verdict.PE}
    assert "submissions.yaml" not in " ".join(references)


@pytest.mark.parametrize(("yaml", "expected"), [
    ("wrong_answer:\n  permitted: [AC, WA, RTE]\n", {Verdict.WA, Verdict.PE}),  # the default's `required` stays
    ("wrong_answer:\n  required: [TLE]\n  permitted: [AC, TLE]\n", {Verdict.TLE, Verdict.OLE}),  # both replaced
    ("wrong_answer/*:\n  permitted: [AC]\n", set()),  # a pattern adds to the default: nothing meets both
    ("wrong_answer/first_only.py:\n  required: [AC, WA]\n", {Verdict.WA, Verdict.PE}),
    ("'*/first_only.py':\n  permitted: [WA, TLE]\n  required: [WA, TLE]\n", {Verdict.WA, Verdict.PE}),
])
def test_a_folder_default_is_overridden_by_its_name_and_narrowed_by_patterns(tally: Path, yaml: str,
                                                                            expected: set[Verdict]) -> None:
    (tally / "submissions" / "submissions.yaml").write_text(yaml)
    references = {ref.path.name: ref for ref in load_problem_folder(tally).references or ()}
    assert references["first_only.py"].expectation.verdicts == expected


def test_a_folder_nothing_names_is_skipped_with_the_reason(tally: Path) -> None:
    (tally / "submissions" / "submissions.yaml").write_text("accepted:\n  permitted: [AC]\n")
    references = {ref.path.name: ref for ref in load_problem_folder(tally).references or ()}
    assert "submissions.yaml names none" in references["crash_when_long.py"].skipped


@pytest.mark.slow
def test_a_marker_gives_a_folder_nothing_names_its_expectation_as_domjudge_reads_it(tally: Path) -> None:
    """DOMjudge's packages keep submissions in its own folders (`compiler_error/`, `no_output/`) with an
    `@EXPECTED_RESULTS@:` line in a file of each; one a person judges, or with two such lines, is skipped."""
    (tally / "submissions" / "submissions.yaml").unlink()
    folder = tally / "submissions" / "compiler_error"
    folder.mkdir()
    (folder / "broken.py").write_text("# @EXPECTED_RESULTS@: COMPILER-ERROR\nprint(\n")
    (folder / "manual.py").write_text("# @EXPECTED_RESULTS@: CHECK-MANUALLY\nprint(0)\n")
    (folder / "twice.py").write_text("# @EXPECTED_RESULTS@: CORRECT\n# @EXPECTED_RESULTS@: CORRECT\nprint(0)\n")
    helper = folder / "helper_marked"
    helper.mkdir()
    (helper / "main.py").write_text("import other\n")
    (helper / "other.py").write_text("# @EXPECTED_RESULTS@: RUN-ERROR\nraise SystemExit(3)\n")
    (folder / "prose.py").write_text("# The @EXPECTED_RESULTS@ line is left out on purpose.\nprint(0)\n")
    references = {ref.path.name: ref for ref in load_problem_folder(tally).references or ()}
    assert (references["broken.py"].expectation.short, references["broken.py"].skipped) == ("COMPILER-ERROR", "")
    assert references["helper_marked"].expectation.verdicts == frozenset({Verdict.RE, Verdict.MLE, Verdict.OLE})
    assert references["manual.py"].skipped == "@EXPECTED_RESULTS@: CHECK-MANUALLY, which a person judges"
    assert references["twice.py"].skipped == "its files hold several @EXPECTED_RESULTS@ lines"
    assert "is not a folder the specification defines" in references["prose.py"].skipped
    assert "is not a folder the specification defines" in references["crash_when_long.py"].skipped
    done = judge_cli("verify", "--format", "json", str(tally))
    got = {Path(row["path"]).name: row["got"] for row in json.loads(done.stdout)["submissions"]}
    assert (got["broken.py"], got["helper_marked"]) == ("CE", "RE"), done.stdout + done.stderr


def test_a_folder_in_a_language_judge_does_not_have_is_skipped_naming_it(tally: Path) -> None:
    folder = tally / "submissions" / "accepted" / "ada_with_notes"
    folder.mkdir()
    (folder / "hello.adb").write_text("with Ada.Text_IO;\n")
    (folder / "notes.txt").write_text("read me\n")
    references = {ref.path.name: ref for ref in load_problem_folder(tally).references or ()}
    assert references["ada_with_notes"].skipped == "no language judges .adb, .txt files here"


def test_domjudges_timelimit_is_met_by_output_beyond_the_limit() -> None:
    """DOMjudge cuts output at its limit and lets the program run into the time limit: TIMELIMIT there."""
    timelimit = marker_expectation(Path("x.cc"), *markers_in(b"// @EXPECTED_RESULTS@: TIMELIMIT\n"))
    assert timelimit is not None and timelimit.verdicts == frozenset({Verdict.TLE, Verdict.OLE})


def test_requirements_per_test_group_become_requirements_on_the_tests_they_match() -> None:
    references = {ref.path.name: ref for ref in load_problem_folder(TALLY).references or ()}
    crash = references["crash_when_long.py"]
    assert not crash.skipped
    assert [requirement.patterns for requirement in crash.expectation.tests] == [(), ("sample",), ("secret/small",),
                                                                                 ("secret/large",)]
    assert not references["first_only.py"].expectation.tests  # no groups: the overall verdict decides, fail-fast


GROUPS = {  # a copy of crash_when_long.py under each name, with these groups; and what verify must say
    "as_written.py": ("  secret/small: {permitted: [AC]}\n  secret/large: {required: [RTE]}\n", ""),
    "crash_required_early.py": ("  secret/small: {required: [RTE]}\n",
                                "secret/small: no test got a required verdict (MLE, OLE, RE)"),
    "crash_not_permitted.py": ("  'secret/{large,small}': {permitted: [AC]}\n",
                               "secret/large or secret/small: secret/large/1 got RE, which is not permitted"),
}


def test_verify_checks_requirements_per_test_group_on_every_tests_verdict(tally: Path) -> None:
    """secret/large comes before secret/small: the small tests are judged after the crash only because the
    requirements need their verdicts."""
    mixed = tally / "submissions" / "mixed"
    for name in GROUPS:
        shutil.copyfile(mixed / "crash_when_long.py", mixed / name)
    for other in ("crash_when_long.py", "wrong_when_negative.py", "wrong_when_negative.sh"):
        (mixed / other).unlink()
    shutil.rmtree(tally / "submissions" / "accepted")
    shutil.rmtree(tally / "submissions" / "wrong_answer")
    shutil.rmtree(tally / "submissions" / "time_limit_exceeded")
    (tally / "submissions" / "submissions.yaml").write_text("".join(
        f"mixed/{name}:\n  permitted: [AC, RTE]\n  required: [RTE]\n{groups}" for name, (groups, _) in GROUPS.items()
    ))
    done = judge_cli("verify", "--format", "json", str(tally))
    rows = {Path(row["path"]).name: row for row in json.loads(done.stdout)["submissions"]}
    for name, (_, unmet) in GROUPS.items():
        assert (rows[name]["ok"], rows[name]["unmet"]) == (not unmet, unmet), rows[name]
    judged = [case["name"] for case in rows["as_written.py"]["result"]["cases"]]
    assert judged == ["sample/1", "secret/large/1", "secret/small/1", "secret/small/2"]
    assert done.returncode == 1


def test_an_unknown_verdict_in_submissions_yaml_names_the_file_and_key(tally: Path) -> None:
    (tally / "submissions" / "submissions.yaml").write_text("mixed:\n  permitted: [AC, MLE]\n")
    with pytest.raises(SpecError, match=r"submissions\.yaml: mixed: permitted: must be a list of AC, WA, TLE, RTE"):
        load_problem_folder(tally)


@pytest.mark.slow
def test_verify_reports_a_mixed_submission_that_misses_its_expectation(tally: Path) -> None:
    (tally / "submissions" / "submissions.yaml").write_text(
        "mixed/crash_when_long.py:\n  permitted: [AC, WA]\n  required: [WA]\n")
    for other in ("wrong_when_negative.py", "wrong_when_negative.sh"):
        (tally / "submissions" / "mixed" / other).unlink()
    done = judge_cli("verify", str(tally))
    assert done.returncode == 1, done.stdout + done.stderr
    assert "MISMATCH" in done.stdout and "1 mismatched" in done.stdout


def test_an_output_validator_folder_is_built_by_its_build_script_and_started_by_run() -> None:
    """sumcheck exits 1 unless `run` adds --one-number to the validator arguments: judge compiling sumcheck.c
    itself and calling it directly (what it did before) is JE on every test."""
    wrong = TALLY / "submissions" / "wrong_answer" / "first_only.py"
    done = judge_cli("run", str(TALLY), str(wrong))
    assert "result: WA" in done.stdout and "wanted the one number 6" in done.stdout, done.stdout + done.stderr


@pytest.mark.slow
def test_an_input_validator_folder_with_only_a_run_script_judges_the_inputs(tally: Path) -> None:
    (tally / "data" / "secret" / "small" / "3.in").write_text("2\n1 2 3\n")
    (tally / "data" / "secret" / "small" / "3.ans").write_text("6\n")
    done = judge_cli("verify", str(tally))
    assert done.returncode == 1
    assert "4/5 tests valid" in done.stdout and "tally/secret/small/3" in done.stdout, done.stdout


@pytest.mark.slow
def test_a_test_cases_own_yaml_gives_its_input_validator_arguments(tally: Path) -> None:
    """2025-09's `<name>.yaml` beside a test (BAPCtools writes them): its `input_validator_args` override the
    group's; `hint` is a key judge does not use, listed once; a key no test case has is the file's mistake."""
    validator = tally / "input_validators" / "format"
    (validator / "run").write_text('#!/bin/sh\nexec python3 "$(dirname "$0")/format.py" "$@"\n')
    (validator / "format.py").write_text("import sys\n\nsys.exit(43 if '--reject' in sys.argv else 42)\n")
    small = tally / "data" / "secret" / "small"
    (small / "2.yaml").write_text("input_validator_args: [--reject]\nhint: add them all\n")
    done = judge_cli("verify", "--format", "json", str(tally))
    invalid = [check["test"] for check in json.loads(done.stdout)["test_data"] if not check["ok"]]
    assert invalid == ["secret/small/2"], done.stdout + done.stderr
    (small / "2.yaml").write_text("input_validator_arguments: [--reject]\n")
    done = judge_cli("verify", str(tally))
    assert done.returncode == 2
    assert f"{small / '2.yaml'}: input_validator_arguments: not a key of a test case" in done.stderr


def test_a_build_script_that_makes_no_run_file_is_the_packages_failure(tally: Path) -> None:
    (tally / "output_validator" / "run").unlink()
    done = judge_cli("run", str(tally), str(tally / "submissions" / "accepted" / "tally.py"))
    assert done.returncode == 3, done.stdout + done.stderr
    assert "build made no run file" in done.stdout + done.stderr


@pytest.mark.parametrize(("folder", "language"), [("java_helpers", "Java 17"), ("c_header", "C11"),
                                                  ("shell_and_program", "Bash"), ("c_files", "C11"),
                                                  ("build_and_run", "build/run scripts")])
def test_a_submission_of_several_files_is_judged_as_one_program(folder: str, language: str) -> None:
    done = judge_cli("run", str(TALLY), str(TALLY / "submissions" / "accepted" / folder))
    assert language in done.stdout, done.stdout
    assert "result: AC" in done.stdout, done.stdout + done.stderr


def test_a_folder_without_one_main_source_is_skipped_with_the_reason(tally: Path) -> None:
    two = tally / "submissions" / "accepted" / "two_programs"
    two.mkdir()
    for name in ("a.c", "b.c"):
        (two / name).write_text("int main(void) { return 0; }\n")
    references = {ref.path.name: ref for ref in load_problem_folder(tally).references or ()}
    assert "one main source" in references["two_programs"].skipped and "a.c, b.c" in references["two_programs"].skipped
    assert not references["java_helpers"].skipped


def test_c_files_are_linked_and_one_named_as_the_saved_main_source_is_refused(tally: Path) -> None:
    """c_files/ links numbers.c with main_loop.c, which judge saves as main.c: a helper of that name would be
    overwritten, so the person is told to rename it (exit 2)."""
    folder = tally / "submissions" / "accepted" / "c_files"
    (folder / "numbers.c").rename(folder / "main.c")
    done = judge_cli("run", str(tally), str(folder))
    assert done.returncode == 2, done.stdout + done.stderr
    assert "main_loop.c: judge saves it as main.c, the name of another file of the submission" in done.stderr


def test_a_submission_folder_with_build_and_run_is_built_by_them_not_compiled_as_its_c_file(tally: Path) -> None:
    """build_and_run/summer.c refuses to compile without the flag its build script gives; without the scripts
    the same folder is a lone C file, and a CE."""
    folder = tally / "submissions" / "accepted" / "build_and_run"
    assert "result: AC" in judge_cli("run", str(tally), str(folder)).stdout
    for script in ("build", "run"):
        (folder / script).unlink()
    done = judge_cli("run", str(tally), str(folder))
    assert "C11" in done.stdout and "result: CE" in done.stdout, done.stdout + done.stderr


def test_a_helper_file_missing_from_the_folder_fails_the_submission(tally: Path) -> None:
    """The files beside the main source are what makes it compile: without Adder.java, Tally.java is CE."""
    (tally / "submissions" / "accepted" / "java_helpers" / "Adder.java").unlink()
    done = judge_cli("run", str(tally), str(tally / "submissions" / "accepted" / "java_helpers"))
    assert "result: CE" in done.stdout, done.stdout + done.stderr


@pytest.mark.parametrize(("legacy", "meets_tle"), [(True, False), (False, True)])
def test_output_beyond_the_limit_meets_tle_from_2023_on_and_rte_always(tmp_path: Path, legacy: bool,
                                                                       meets_tle: bool) -> None:
    config = SubmissionsConfig.read(tmp_path, tmp_path, legacy=legacy)
    tle = config.expectation(PurePosixPath("time_limit_exceeded", "flood.cpp"))
    rte = config.expectation(PurePosixPath("run_time_error", "flood.cpp"))
    assert tle is not None and rte is not None
    assert (Verdict.OLE in tle.verdicts, Verdict.OLE in rte.verdicts) == (meets_tle, True)


@pytest.mark.slow  # 7.5 s; the unused-keys test's verify of the same package exits 0, the rule is tested above
def test_an_endless_flood_in_time_limit_exceeded_verifies() -> None:
    done = judge_cli("verify", str(TALLY))
    row = next(line for line in done.stdout.splitlines() if "flood.cpp" in line)
    assert row.split("│")[3].strip() == "OLE" and "MISMATCH" not in row, done.stdout


def _only_accepted(tally: Path) -> Path:
    """The copy with only its accepted Python submission left, so that verify is quick."""
    submissions = tally / "submissions"
    for folder in ("mixed", "wrong_answer", "time_limit_exceeded"):
        shutil.rmtree(submissions / folder)
    (submissions / "submissions.yaml").unlink()
    for entry in (submissions / "accepted").iterdir():
        if entry.is_dir():
            shutil.rmtree(entry)
        elif entry.name != "tally.py":
            entry.unlink()
    return submissions / "accepted"


def test_a_file_linked_from_several_places_is_a_submission_in_each(tally: Path) -> None:
    accepted = _only_accepted(tally)
    (accepted / "copy.py").symlink_to("tally.py")
    rejected = tally / "submissions" / "rejected"
    rejected.mkdir()
    (rejected / "not_rejected.py").symlink_to("../accepted/tally.py")
    done = judge_cli("verify", "--format", "json", str(tally))
    rows = {"/".join(Path(row["path"]).parts[-2:]): row for row in json.loads(done.stdout)["submissions"]}
    assert {name: (row["expected"], row["got"]) for name, row in rows.items()} == {
        "accepted/tally.py": ("AC", "AC"), "accepted/copy.py": ("AC", "AC"), "rejected/not_rejected.py": ("rejected", "AC")}
    assert done.returncode == 1  # the rejected one must not pass


def test_disabled_submissions_and_a_folder_whose_entrypoint_judge_would_not_run_are_skipped(tally: Path) -> None:
    accepted = _only_accepted(tally)
    (accepted / "tally.cpp.disabled").write_text("int main() {}\n")
    two = accepted / "two_modules"
    two.mkdir()
    (two / "main.py").write_text("print(0)\n")
    (two / "solve.py").write_text("print(0)\n")
    (tally / "submissions" / "submissions.yaml").write_text("accepted/two_modules:\n  entrypoint: solve.py\n")
    references = {ref.path.name: ref for ref in load_problem_folder(tally).references or ()}
    assert references["tally.cpp.disabled"].skipped == "its name ends in .disabled, which switches it off"
    assert references["two_modules"].skipped == ("submissions.yaml gives the entry point solve.py; judge would run "
                                                 "main.py of this folder")


def test_a_shell_folder_runs_its_main_sh_which_sources_the_other(tally: Path) -> None:
    """The specification's default entry point: among several files of one language, the one named main."""
    folder = tally / "submissions" / "accepted" / "sourcing"
    folder.mkdir()
    (folder / "main.sh").write_text('read n\nread line\n. "$(dirname "$0")/add.sh"\n')
    (folder / "add.sh").write_text("total=0\nfor x in $line; do total=$((total + x)); done\necho $total\n")
    done = judge_cli("run", str(tally), str(folder))
    assert "Bash" in done.stdout and "result: AC" in done.stdout, done.stdout + done.stderr


def test_a_python_folder_runs_its_main_py_which_imports_the_other(tally: Path) -> None:
    """The script's folder is on sys.path, as on BOJ: the modules of a submission of several files import each
    other (DOMjudge's and BAPCtools' packages have such accepted submissions)."""
    folder = tally / "submissions" / "accepted" / "two_modules"
    folder.mkdir()
    (folder / "main.py").write_text("import adding\n\nprint(adding.total())\n")
    (folder / "adding.py").write_text("import sys\n\n\ndef total():\n    return sum(map(int, sys.stdin.read().split()[1:]))\n")
    done = judge_cli("run", str(tally), str(folder))
    assert "PyPy 3" in done.stdout and "result: AC" in done.stdout, done.stdout + done.stderr


def test_domjudges_compiler_error_marker_and_spaced_braces_are_read() -> None:
    assert marker_expectation(Path("x.cc"), *markers_in(b"// @EXPECTED_RESULTS@: COMPILER-ERROR\n")) == Expectation(
        "COMPILER-ERROR", frozenset({Verdict.CE}))
    assert expand_braces("secret/*{ 4 }{ 2 }") == ["secret/*42"]


def test_a_group_key_with_braces_is_one_group() -> None:
    """`secret/*{1,3}` covers the tests of both patterns together: the one that matches nothing is no failure."""
    odd = CaseRequirement(("secret/*1", "secret/*3"), frozenset({Verdict.AC}), frozenset({Verdict.AC}))
    assert odd.unmet({"secret/13": Verdict.AC, "secret/2": Verdict.WA}) == ""
    assert odd.unmet({"secret/13": Verdict.WA}) == "secret/*1 or secret/*3: secret/13 got WA, which is not permitted"


def test_a_package_without_its_data_folder_says_so(tmp_path: Path) -> None:
    (tmp_path / "problem.yaml").write_text("problem_format_version: 2025-09\nname: Later\n")
    with pytest.raises(SpecError, match=r"data: missing; problem.yaml names a problem_format_version"):
        load_problem_folder(tmp_path)
