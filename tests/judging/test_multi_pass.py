"""Multi-pass problems (2025-09 `type: multi-pass`) and per-group input validator arguments, on
tests/packages/narrow, written for these tests: each pass's input is "pass low high", the submission guesses, and
the output validator either accepts, rejects, or writes the narrowed range to nextpass.in for the next pass. Its
validator also checks that the feedback folder persists between passes and that nextpass.in was taken away."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import judge_cli

from judge.errors import SpecError
from judge.judging.results import CaseResult
from judge.judging.submission import judge_submission
from judge.options import RunOptions
from judge.problems.load import load_problem_folder
from judge.problems.packages.group_settings import GroupSettings
from judge.problems.packages.rules import ValidatorArgs
from judge.verdicts import Verdict

NARROW = Path(__file__).parent.parent / "packages" / "narrow"
HALVING = NARROW / "submissions" / "accepted" / "halving.py"


@pytest.fixture
def narrow(package_copy: Callable[[str], Path]) -> Path:
    """A copy of the narrow package, to change."""
    return package_copy("narrow")


def _cases(root: Path, source: Path, *, fail_fast: bool = False) -> dict[str, CaseResult]:
    result = judge_submission(load_problem_folder(root), source, RunOptions(sandbox="none", fail_fast=fail_fast))
    return {case.name: case for case in result.cases}


def _set_limits(root: Path, limits: str) -> None:
    spec = root / "problem.yaml"
    spec.write_text(spec.read_text().split("limits:")[0] + f"limits:\n{limits}")


def test_a_multi_pass_package_loads_with_its_passes() -> None:
    problem = load_problem_folder(NARROW)
    assert problem.passes == 7 and not problem.interactive and not problem.answers_are_outputs
    assert problem.unused_keys == ()


@pytest.mark.slow
def test_verify_gives_every_submission_its_verdict_and_checks_no_ans_as_an_output() -> None:
    done = judge_cli("verify", "--format", "json", str(NARROW))
    assert done.returncode == 0, done.stdout + done.stderr
    report = json.loads(done.stdout)
    got = {Path(row["path"]).name: row["got"] for row in report["submissions"]}
    assert got == {"halving.py": "AC", "forgets_the_range.py": "WA", "slow_second_pass.py": "TLE"}
    assert all(check["ok"] for check in report["test_data"]), report["test_data"]


def test_a_legacy_package_says_multi_pass_in_validation_as_domjudges_do(narrow: Path) -> None:
    """The legacy format has no multi-pass; DOMjudge's legacy packages say `validation: custom multi-pass`."""
    (narrow / "problem.yaml").write_text("name: Narrow\nvalidation: custom multi-pass\nlimits:\n  validation_passes: 7\n"
                                         "  time_multiplier: 5\n")
    (narrow / ".timelimit").write_text("1\n")
    problem = load_problem_folder(narrow)
    assert problem.passes == 7
    assert _cases(narrow, narrow / "submissions" / "accepted" / "halving.py")["sample/1"].verdict is Verdict.AC


def test_an_accepted_submission_takes_as_many_passes_as_the_validator_asks() -> None:
    cases = _cases(NARROW, HALVING)
    assert {name: case.message for name, case in cases.items()} == {
        "sample/1": "accepted on pass 7", "secret/large/1": "accepted on pass 6",
        "secret/large/2": "accepted on pass 7", "secret/small/1": "accepted on pass 4",
        "secret/small/2": "accepted on pass 1"}
    assert all(case.verdict is Verdict.AC for case in cases.values())


def test_a_wrong_answer_on_the_second_pass_is_that_passes_verdict() -> None:
    cases = _cases(NARROW, NARROW / "submissions" / "wrong_answer" / "forgets_the_range.py")
    assert (cases["sample/1"].verdict, cases["sample/1"].message) == (Verdict.WA, "pass 2: guess 50 is outside 1..49")
    assert cases["secret/small/2"].verdict is Verdict.AC  # its first guess is right


def test_a_time_limit_exceeded_on_the_second_pass_is_tle() -> None:
    cases = _cases(NARROW, NARROW / "submissions" / "time_limit_exceeded" / "slow_second_pass.py", fail_fast=True)
    assert cases["sample/1"].verdict is Verdict.TLE
    assert cases["sample/1"].message.startswith("pass 2: ")


def test_nextpass_in_on_the_last_pass_is_the_packages_judge_error(narrow: Path) -> None:
    _set_limits(narrow, "  time_limit: 1\n  validation_passes: 4\n")
    cases = _cases(narrow, HALVING)
    assert cases["secret/small/1"].verdict is Verdict.AC  # found on pass 4, the last
    assert cases["sample/1"].verdict is Verdict.JE
    assert "nextpass.in on pass 4, the last one (limits.validation_passes: 4)" in cases["sample/1"].message


def test_nextpass_in_with_a_rejection_is_the_packages_judge_error(narrow: Path) -> None:
    validator = narrow / "output_validator" / "validate.py"
    validator.write_text(validator.read_text().replace("sys.exit(42)\n", "sys.exit(43 if pass_number == 2 else 42)\n"))
    cases = _cases(narrow, HALVING)
    assert cases["secret/small/2"].verdict is Verdict.AC  # one pass: no nextpass.in, the exit 42 stands
    assert cases["secret/small/1"].verdict is Verdict.JE
    assert "nextpass.in on pass 2 but did not accept" in cases["secret/small/1"].message


def test_validation_passes_on_a_problem_that_is_not_multi_pass_is_refused(narrow: Path) -> None:
    spec = narrow / "problem.yaml"
    spec.write_text(spec.read_text().replace("type: multi-pass\n", ""))
    done = judge_cli("run", str(narrow), str(HALVING))
    assert done.returncode == 2, done.stdout + done.stderr
    assert done.stderr.strip().splitlines() == [
        f"judge: {spec}: limits.validation_passes: only a multi-pass problem has passes; add multi-pass to type, "
        f"or remove the key"]


@pytest.mark.parametrize(("change", "said"), [
    (("validation_passes: 7", "validation_passes: 1"), "limits.validation_passes"),
    (("type: multi-pass", "type: [multi-pass, interactive]"), "interactive multi-pass problems are not supported"),
])
def test_a_multi_pass_package_judge_cannot_judge_names_the_file(narrow: Path, change: tuple[str, str],
                                                                said: str) -> None:
    spec = narrow / "problem.yaml"
    spec.write_text(spec.read_text().replace(*change))
    with pytest.raises(SpecError, match=rf"problem\.yaml: .*{said}"):
        load_problem_folder(narrow)


def test_a_multi_pass_problem_needs_its_output_validator(narrow: Path) -> None:
    shutil.rmtree(narrow / "output_validator")
    with pytest.raises(SpecError, match=r"type: multi-pass needs an output validator"):
        load_problem_folder(narrow)


def test_each_test_gets_its_groups_input_validator_args() -> None:
    problem = load_problem_folder(NARROW)
    validator = NARROW / "input_validators" / "range.py"
    got = {name: args.for_validator(validator) for name, args in problem.input_validator_args.items()}
    assert got == {"sample/1": ("--max", "100"), "secret/large/1": ("--max", "100"),
                   "secret/large/2": ("--max", "100"), "secret/small/1": ("--max", "10"),
                   "secret/small/2": ("--max", "10")}


def _data_checks(root: Path) -> dict[str, tuple[bool, str]]:
    done = judge_cli("verify", "--format", "json", str(root))
    return {check["test"]: (check["ok"], check["detail"]) for check in json.loads(done.stdout)["test_data"]}


@pytest.mark.slow
def test_verify_runs_the_input_validators_with_each_groups_args(narrow: Path) -> None:
    (narrow / "data" / "secret" / "small" / "1.in").write_text("1 1 20\n")  # legal for large's --max 100 only
    (narrow / "data" / "secret" / "large" / "test_group.yaml").unlink()  # large's tests: no arguments at all
    checks = _data_checks(narrow)
    assert checks["secret/small/1"] == (
        False, "input_validators/range.py: invalid: expected 1 1 high with high at most 10, got 1 1 20")
    assert checks["secret/small/2"] == (True, "")
    assert checks["secret/large/1"][0] is False
    assert "input_validators/range.py: failed" in checks["secret/large/1"][1]


def test_arguments_for_a_validator_the_package_does_not_have_are_refused(narrow: Path) -> None:
    (narrow / "data" / "secret" / "small" / "test_group.yaml").write_text("input_validator_args:\n  rnage: [-x]\n")
    with pytest.raises(SpecError, match=r"small/test_group\.yaml: input validator arguments for 'rnage', which is "
                                        r"not in input_validators/ \(it has range\.py\)"):
        load_problem_folder(narrow)


@pytest.mark.parametrize(("settings", "range_args", "other_args"), [
    ({"input_validator_args": ["--max", 5]}, ("--max", "5"), ("--max", "5")),
    ({"input_validator_args": "--max '5'"}, ("--max", "5"), ("--max", "5")),
    ({"input_validator_args": {"range.py": ["--max", "5"]}}, ("--max", "5"), ()),
    ({"input_validator_flags": "--max 5"}, ("--max", "5"), ("--max", "5")),
    ({"input_validator_flags": {"name": "range", "flags": "--max 5"}}, ("--max", "5"), ()),
    ({"input_validator_args": [], "input_validator_flags": "--max 5"}, (), ()),
])
def test_every_form_of_input_validator_arguments_reads_the_same(settings: dict[str, object],
                                                                 range_args: tuple[str, ...],
                                                                 other_args: tuple[str, ...]) -> None:
    args = GroupSettings.model_validate(settings).input_args()
    assert isinstance(args, ValidatorArgs)
    assert args.for_validator(Path("input_validators/range.py")) == range_args
    assert args.for_validator(Path("input_validators/other")) == other_args


def test_input_validator_arguments_that_are_not_arguments_name_the_key() -> None:
    with pytest.raises(ValueError, match="input_validator_args"):
        GroupSettings.model_validate({"input_validator_args": {"range": {"max": 5}}})


def test_a_nextpass_in_that_is_a_link_is_not_followed(narrow: Path, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere.in"
    elsewhere.write_text("2 1 100\n")
    validator = narrow / "output_validator" / "validate.py"
    validator.write_text(validator.read_text().replace(
        "sys.exit(42)\n",
        f"if guess != secret:\n    os.remove(os.path.join(feedback, 'nextpass.in'))\n"
        f"    os.symlink({str(elsewhere)!r}, os.path.join(feedback, 'nextpass.in'))\nsys.exit(42)\n"))
    cases = _cases(narrow, HALVING)
    assert cases["secret/small/2"].verdict is Verdict.AC
    assert cases["secret/small/1"].verdict is Verdict.JE
    assert "cannot read its nextpass.in" in cases["secret/small/1"].message


def test_judge_answers_refuses_a_multi_pass_problem_and_keeps_its_answers(narrow: Path) -> None:
    """A pass's output is judged by the validator, not kept: `judge answers --force` must not overwrite the .ans."""
    before = {path: path.read_bytes() for path in narrow.rglob("*.ans")}
    done = judge_cli("answers", str(narrow), "--reference", str(HALVING), "--force")
    assert done.returncode == 2, done.stdout + done.stderr
    assert "multi-pass problem's program runs up to 7 times per test" in done.stderr
    assert "Traceback" not in done.stderr
    assert {path: path.read_bytes() for path in narrow.rglob("*.ans")} == before
