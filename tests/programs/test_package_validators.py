"""Problem programs that decide: output validators (the package protocol, 42/43, feedback files) in C++ and
Python, our own problems' `checker: {program: ...}`, and input validators run by `judge verify`.

tests/packages/anysum (2023-07-draft) has a C++ output validator writing judgemessage.txt and a Python input
validator; tests/packages/anyorder (legacy) a Python output validator taking a flag and writing teammessage.txt.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from conftest import judge_cli

from judge.errors import SpecError
from judge.problems.load import load_problem_folder

PACKAGES = Path(__file__).parents[1] / "packages"
ANYSUM, ANYORDER = PACKAGES / "anysum", PACKAGES / "anyorder"


def test_custom_output_validators_load_as_program_checkers() -> None:
    anysum = load_problem_folder(ANYSUM)
    assert anysum.spec.checker.name == "program"
    assert dict(anysum.spec.checker.options) == {"path": "output_validator", "protocol": "package", "flags": "",
                                                 "time": 5.0}
    assert ANYSUM / "output_validator" / "validate.cpp" in anysum.extra_files
    assert anysum.input_validators == (ANYSUM / "input_validators" / "validate.py",)
    anyorder = load_problem_folder(ANYORDER)
    assert dict(anyorder.spec.checker.options) == {"path": "output_validators/same_numbers", "protocol": "package",
                                                   "flags": "one_line", "memory": 256}
    assert anyorder.spec.time_limit == 2.5 and not anyorder.time_limit_pending  # from .timelimit


@pytest.mark.parametrize("sandbox", ["none", "auto"])
@pytest.mark.slow
def test_verify_with_a_cpp_and_a_python_validator(sandbox: str) -> None:
    done = judge_cli("verify", "--sandbox", sandbox, "--format", "json", "-j", "2", str(ANYSUM), str(ANYORDER))
    assert done.returncode == 0, done.stdout + done.stderr
    report = json.loads(done.stdout)
    got = {Path(row["path"]).name: row["got"] for row in report["submissions"]}
    assert got == {"all_first.cc": "AC", "half_and_rest.py": "AC", "off_by_one.py": "WA", "reversed.py": "AC",
                   "exit.py": "RE", "one_per_line.py": "WA"}
    assert all(check["ok"] for check in report["test_data"])


def test_the_feedback_file_is_the_message() -> None:
    done = judge_cli("run", "--format", "json", str(ANYORDER), str(ANYORDER / "submissions/wrong_answer/one_per_line.py"))
    cases = json.loads(done.stdout)["cases"]
    assert cases[0]["verdict"] == "WA" and cases[0]["message"] == "print the numbers on one line"
    done = judge_cli("run", "--format", "json", str(ANYSUM), str(ANYSUM / "submissions/wrong_answer/off_by_one.py"))
    assert json.loads(done.stdout)["cases"][0]["message"] == "5 + 1 is not 5"


def _copy(source: Path, tmp_path: Path) -> Path:
    target = tmp_path / source.name
    shutil.copytree(source, target)
    return target


def test_a_validator_that_breaks_the_protocol_is_a_judge_error(tmp_path: Path) -> None:
    root = _copy(ANYORDER, tmp_path)
    (root / "output_validators/same_numbers/validate.py").write_text("import sys\nsys.exit(1)\n")
    source = root / "submissions/accepted/reversed.py"
    done = judge_cli("run", "--sandbox", "none", "--format", "json", str(root), str(source))
    assert done.returncode == 3, done.stdout + done.stderr
    case = json.loads(done.stdout)["cases"][0]
    assert case["verdict"] == "JE"
    assert case["message"] == "output_validators/same_numbers: exited with 1 (42 accepts, 43 rejects): no message"


def test_a_validator_that_does_not_compile_is_a_judge_error(tmp_path: Path) -> None:
    root = _copy(ANYSUM, tmp_path)
    (root / "output_validator/validate.cpp").write_text("int main( {\n")
    done = judge_cli("run", "--sandbox", "none", str(root), str(root / "submissions/accepted/half_and_rest.py"))
    assert done.returncode == 3
    assert "output_validator: does not compile" in done.stderr and done.stderr.count("\n") == 1


def test_an_input_validator_rejects_a_bad_input(tmp_path: Path) -> None:
    root = _copy(ANYSUM, tmp_path)
    (root / "data/secret/1.in").write_text("-4\n")
    done = judge_cli("verify", "--sandbox", "none", "--format", "json", str(root))
    assert done.returncode == 1
    failing = [check for check in json.loads(done.stdout)["test_data"] if not check["ok"]]
    assert [check["test"] for check in failing] == ["secret/1"]
    assert "validate.py: invalid: not one integer 0..10^6 on one line" in failing[0]["detail"]


def _our_problem(tmp_path: Path, checker: str, files: dict[str, str]) -> Path:
    root = tmp_path / "pick"
    (root / "tests").mkdir(parents=True)
    (root / "problem.yaml").write_text(f"id: pick\ntitle: Pick\ntime_limit: 1\nmemory_limit: 64\nchecker: {checker}\n")
    (root / "tests" / "1.in").write_text("10\n")
    (root / "tests" / "1.ans").write_text("2\n")
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return root


EVEN_DIVISOR = """import sys
n = int(open(sys.argv[1]).read())
got = sys.stdin.read().split()
ok = len(got) == 1 and got[0].isdigit() and 1 < int(got[0]) < n and n % int(got[0]) == 0
if not ok:
    open(sys.argv[3] + "/judgemessage.txt", "w").write("not a proper divisor")
sys.exit(42 if ok else 43)
"""


def test_our_problem_can_use_a_program_checker(tmp_path: Path) -> None:
    root = _our_problem(tmp_path, "{program: divisor.py}", {"divisor.py": EVEN_DIVISOR})
    assert load_problem_folder(root).extra_files == (root / "divisor.py",)
    for answer, code in (("5", 0), ("3", 1)):
        source = tmp_path / "answer.py"
        source.write_text(f"print({answer})\n")
        done = judge_cli("run", str(root), str(source), "--feedback", "full")  # test 1 is hidden
        assert done.returncode == code, done.stdout + done.stderr
    assert "not a proper divisor" in done.stdout


@pytest.mark.parametrize(("checker", "message"), [
    ("{program: missing.py}", "checker: 'missing.py' is not a file inside the problem folder"),
    ("{program: ../divisor.py}", "checker: '../divisor.py' is not a file inside the problem folder"),
    ("{program: 3}", "checker: give {program: FILE} or {testlib: FILE}"),
])
def test_a_program_checker_must_be_a_file_inside(tmp_path: Path, checker: str, message: str) -> None:
    root = _our_problem(tmp_path, checker, {"divisor.py": EVEN_DIVISOR})
    with pytest.raises(SpecError, match="problem.yaml: " + message.replace("{", "\\{").replace("}", "\\}")
                       .replace(".", "\\.").replace("(", "\\(")):
        load_problem_folder(root)


def test_a_validator_is_compiled_once_per_machine(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from judge.programs.build import build_program
    from judge.programs.program import Program
    from judge.runner.containment.choice import choose_containment
    from judge.runner.sandbox import choose_sandbox

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    sandbox, containment = choose_sandbox("none"), choose_containment()
    first = build_program(ANYSUM / "output_validator", "v", sandbox, containment, tmp_path, tmp_path / "first")
    assert (first.mounts.program_dir / "main").is_file()
    assert len(list((tmp_path / "cache" / "judge" / "programs").iterdir())) == 1

    def no_compiling(self: Program) -> None:
        raise AssertionError("compiled again")

    monkeypatch.setattr(Program, "compile", no_compiling)
    second = build_program(ANYSUM / "output_validator", "v", sandbox, containment, tmp_path, tmp_path / "second")
    assert (second.mounts.program_dir / "main").read_bytes() == (first.mounts.program_dir / "main").read_bytes()
