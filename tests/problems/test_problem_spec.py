"""Loading problem folders: a valid spec, checker forms, test order, and every malformed folder as a SpecError."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from judge.errors import SpecError
from judge.intake import natural_key
from judge.problems.folder import load_problem

VALID = """\
id: "1000"
title: A+B
source: Baekjoon 1000
time_limit: 2
memory_limit: 128
output_limit: 4
checker: tokens
language_allowance: false
"""


def write(root: Path, spec: str, tests: dict[str, str] | None = None) -> Path:
    """A problem folder with `spec` as problem.yaml and `tests` as name -> content (".in"/".ans" in the name)."""
    (root / "tests").mkdir(parents=True)
    (root / "problem.yaml").write_text(spec, encoding="utf-8")
    for name, content in (tests if tests is not None else {"1.in": "1 2\n", "1.ans": "3\n"}).items():
        (root / "tests" / name).write_text(content, encoding="utf-8")
    return root


def test_valid_spec_loads(tmp_path: Path) -> None:
    problem = load_problem(write(tmp_path / "p", VALID))
    spec = problem.spec
    assert (spec.id, spec.title, spec.source) == ("1000", "A+B", "Baekjoon 1000")
    assert (spec.time_limit, spec.memory_limit, spec.output_limit) == (2.0, 128, 4)
    assert spec.language_allowance is False
    assert problem.id == "1000"
    assert [test.name for test in problem.tests] == ["1"]
    assert problem.tests[0].input_path == tmp_path / "p" / "tests" / "1.in"
    assert problem.tests[0].answer_path == tmp_path / "p" / "tests" / "1.ans"


def test_defaults(tmp_path: Path) -> None:
    spec = load_problem(write(tmp_path / "p", "id: a\ntitle: A\ntime_limit: 0.5\nmemory_limit: 64\n")).spec
    assert spec.output_limit == 1
    assert spec.checker.name == "boj" and dict(spec.checker.options) == {}
    assert spec.language_allowance is True
    assert spec.source_limit == 64


def test_source_limit_is_read_in_kib(tmp_path: Path) -> None:
    assert load_problem(write(tmp_path / "p", VALID + "source_limit: 128\n")).spec.source_limit == 128


def test_checker_as_a_string(tmp_path: Path) -> None:
    spec = load_problem(write(tmp_path / "p", VALID)).spec
    assert spec.checker.name == "tokens"
    assert dict(spec.checker.options) == {}


def test_checker_as_a_mapping(tmp_path: Path) -> None:
    text = VALID.replace("checker: tokens", "checker: {name: float, absolute: 1.0e-6, relative: 1.0e-6}")
    spec = load_problem(write(tmp_path / "p", text)).spec
    assert spec.checker.name == "float"
    assert dict(spec.checker.options) == {"absolute": 1e-6, "relative": 1e-6}


def test_checker_py_must_exist(tmp_path: Path) -> None:
    root = write(tmp_path / "p", VALID.replace("checker: tokens", "checker: checker.py"))
    with pytest.raises(SpecError, match="checker.py"):
        load_problem(root)
    (root / "checker.py").write_text("def check(*, input, output, answer): ...\n")
    assert load_problem(root).spec.checker.name == "checker.py"


def test_natural_order_with_samples_first(tmp_path: Path) -> None:
    names = ["10", "2", "1", "sample2", "sample10", "sample1", "big", "a3", "a20"]
    files = {f"{name}.{ext}": "x\n" for name in names for ext in ("in", "ans")}
    problem = load_problem(write(tmp_path / "p", VALID, files))
    expected = ["sample1", "sample2", "sample10", "1", "2", "10", "a3", "a20", "big"]
    assert [test.name for test in problem.tests] == expected
    assert [test.is_sample for test in problem.tests] == [True] * 3 + [False] * 6


def test_natural_key() -> None:
    assert sorted(["t10", "t2", "t1"], key=natural_key) == ["t1", "t2", "t10"]


# --- malformed folders: each a SpecError whose message starts with the file it is about -------------------------

SPEC_ERRORS = [
    # (id, problem.yaml text, exact message after "<path to problem.yaml>: ", or a fragment prefixed with "~")
    ("wrong type", VALID.replace("time_limit: 2", "time_limit: fast"),
     "time_limit: must be a positive number, got 'fast'"),
    ("negative memory", VALID.replace("memory_limit: 128", "memory_limit: -5"),
     "memory_limit: must be a positive number, got -5"),
    ("zero time", VALID.replace("time_limit: 2", "time_limit: 0"), "time_limit: must be a positive number, got 0"),
    ("fractional memory", VALID.replace("memory_limit: 128", "memory_limit: 1.5"),
     "memory_limit: must be a whole number, got 1.5"),
    ("unknown key", VALID + "tme_limit: 3\n",
     "tme_limit: unknown key; remove it or check its spelling (did you mean time_limit?)"),
    ("misspelt required key", VALID.replace("time_limit: 2", "timelimit: 2"),
     "timelimit: unknown key; remove it or check its spelling (did you mean time_limit?)"),
    ("unknown key like none", VALID + "colour: blue\n", "colour: unknown key; remove it or check its spelling"),
    ("missing key", VALID.replace("title: A+B\n", ""), "title: missing; this key is required"),
    ("malformed YAML", VALID + "checker: [tokens\n", "~line "),
    ("not a mapping", "- just\n- a list\n", "~must be a mapping"),
    ("empty file", "", "~must be a mapping"),
    ("unknown checker option type", VALID.replace("checker: tokens", "checker: {name: float, absolute: [1]}"),
     "~checker.options.absolute"),
    ("zero source limit", VALID + "source_limit: 0\n", "source_limit: must be a positive number, got 0"),
    ("fractional source limit", VALID + "source_limit: 1.5\n", "source_limit: must be a whole number, got 1.5"),
    ("huge source limit", VALID + "source_limit: 99999\n", "~source_limit: input should be less than or equal to"),
    ("an alias", "id: &i x\ntitle: *i\ntime_limit: 1\nmemory_limit: 64\n",
     "line 2: aliases (*name) are not allowed; write the value out"),
    ("a merge key", VALID + "base: &b {time_limit: 1}\nmore:\n  <<: *b\n",
     "line 11: aliases (*name) are not allowed; write the value out"),
    ("over 64 KiB", VALID + "# padding\n" * 7000,
     "is larger than the 64 KiB problem.yaml limit; it must be a regular file of at most 64 KiB"),
]


@pytest.mark.parametrize(("text", "expected"), [row[1:] for row in SPEC_ERRORS], ids=[row[0] for row in SPEC_ERRORS])
def test_malformed_spec(tmp_path: Path, text: str, expected: str) -> None:
    root = write(tmp_path / "p", text)
    with pytest.raises(SpecError) as raised:
        load_problem(root)
    message = str(raised.value)
    prefix = f"{root / 'problem.yaml'}: "
    assert message.startswith(prefix), message
    if expected.startswith("~"):
        assert expected[1:] in message, message
    else:
        assert message == prefix + expected
    assert "\n" not in message


def test_wrong_type_message_exactly(tmp_path: Path) -> None:
    root = write(tmp_path / "p", VALID.replace("time_limit: 2", "time_limit: fast"))
    with pytest.raises(SpecError) as raised:
        load_problem(root)
    assert str(raised.value) == f"{root}/problem.yaml: time_limit: must be a positive number, got 'fast'"


def test_missing_problem_yaml(tmp_path: Path) -> None:
    root = write(tmp_path / "p", VALID)
    (root / "problem.yaml").unlink()
    with pytest.raises(SpecError, match="^" + re.escape(f"{root / 'problem.yaml'}: ") + "missing"):
        load_problem(root)


def test_missing_problem_folder(tmp_path: Path) -> None:
    with pytest.raises(SpecError, match="^" + re.escape(f"{tmp_path / 'nowhere'}: ") + "no such problem folder"):
        load_problem(tmp_path / "nowhere")


def test_missing_tests_dir(tmp_path: Path) -> None:
    root = write(tmp_path / "p", VALID, {})
    (root / "tests").rmdir()
    with pytest.raises(SpecError, match="^" + re.escape(f"{root / 'tests'}: ") + "missing"):
        load_problem(root)


def test_empty_tests_dir(tmp_path: Path) -> None:
    root = write(tmp_path / "p", VALID, {})
    with pytest.raises(SpecError, match="^" + re.escape(f"{root / 'tests'}: ") + "no test cases"):
        load_problem(root)


def test_input_without_answer(tmp_path: Path) -> None:
    root = write(tmp_path / "p", VALID, {"1.in": "1\n", "1.ans": "1\n", "2.in": "2\n"})
    with pytest.raises(SpecError, match="^" + re.escape(f"{root / 'tests' / '2.ans'}: ") + "missing"):
        load_problem(root)


def test_answer_without_input(tmp_path: Path) -> None:
    root = write(tmp_path / "p", VALID, {"1.in": "1\n", "1.ans": "1\n", "3.ans": "3\n"})
    with pytest.raises(SpecError, match="^" + re.escape(f"{root / 'tests' / '3.ans'}: ") + "has no matching .in"):
        load_problem(root)


# --- files that are not regular files: a problem folder cannot make the judge read elsewhere -------------------


def test_anchors_without_aliases_still_load(tmp_path: Path) -> None:
    assert load_problem(write(tmp_path / "p", VALID.replace("title: A+B", "title: &t A+B"))).spec.title == "A+B"


def _outside(tmp_path: Path, text: str = "secret\n") -> Path:
    target = tmp_path / "elsewhere.txt"
    target.write_text(text)
    return target


@pytest.mark.parametrize("name", ["1.in", "1.ans"])
def test_a_test_file_linked_out_of_the_folder_is_an_error_naming_it(tmp_path: Path, name: str) -> None:
    root = write(tmp_path / "p", VALID)
    (root / "tests" / name).unlink()
    (root / "tests" / name).symlink_to(_outside(tmp_path))
    with pytest.raises(SpecError) as raised:
        load_problem(root)
    assert str(raised.value) == (f"{root / 'tests' / name}: a symbolic link leads out of the problem folder (to "
                                 f"{tmp_path / 'elsewhere.txt'}); put the file itself in the folder, or link only "
                                 f"to files inside it")


def test_links_inside_the_folder_are_followed(tmp_path: Path) -> None:
    """The same rule as a problem package's: a link whose target stays in the folder is read (as a copy)."""
    root = write(tmp_path / "p", VALID.replace("checker: tokens", "checker: checker.py"))
    (root / "src").mkdir()
    (root / "src" / "checker.py").write_text("def check(*, input, output, answer): ...\n")
    (root / "checker.py").symlink_to("src/checker.py")
    (root / "tests").rename(root / "real_tests")
    (root / "tests").symlink_to("real_tests")
    (root / "real_tests" / "2.in").symlink_to("1.in")
    (root / "real_tests" / "2.ans").symlink_to("../real_tests/1.ans")
    problem = load_problem(root)
    assert [test.name for test in problem.tests] == ["1", "2"]


def test_a_fifo_as_a_test_file_is_an_error_naming_it(tmp_path: Path) -> None:
    root = write(tmp_path / "p", VALID)
    (root / "tests" / "1.ans").unlink()
    os.mkfifo(root / "tests" / "1.ans")
    with pytest.raises(SpecError, match="^" + re.escape(f"{root / 'tests' / '1.ans'}: is a FIFO;")):
        load_problem(root)


def test_a_linked_tests_folder_is_an_error(tmp_path: Path) -> None:
    root = write(tmp_path / "p", VALID)
    (root / "tests").rename(tmp_path / "real_tests")
    (root / "tests").symlink_to(tmp_path / "real_tests")
    with pytest.raises(SpecError, match="^" + re.escape(f"{root / 'tests'}: a symbolic link leads out")):
        load_problem(root)


def test_a_linked_problem_yaml_is_an_error(tmp_path: Path) -> None:
    root = write(tmp_path / "p", VALID)
    (root / "problem.yaml").unlink()
    (root / "problem.yaml").symlink_to(_outside(tmp_path, VALID))
    with pytest.raises(SpecError, match="^" + re.escape(f"{root / 'problem.yaml'}: a symbolic link leads out")):
        load_problem(root)


@pytest.mark.parametrize(("key", "name"), [("checker", "checker.py"), ("validator", "validator.py")])
def test_a_linked_checker_or_validator_is_an_error(tmp_path: Path, key: str, name: str) -> None:
    root = write(tmp_path / "p", VALID.replace("checker: tokens", f"{key}: {name}"))
    (root / name).symlink_to(_outside(tmp_path, "def check(*, input, output, answer): ...\n"))
    with pytest.raises(SpecError, match="^" + re.escape(f"{root / name}: a symbolic link leads out")):
        load_problem(root)
