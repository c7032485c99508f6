"""A problem folder is read as root and is not trusted: no file of it is ever read through a symbolic link that
leads out of it, in any folder, and no FIFO or device is opened (judge/problems/files.py). Links that stay inside
are followed, as the package format allows (data/sample linked into data/secret).

Every attack here is a package written for this test, with a "secret" file beside it standing for /etc/shadow.
"""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from judge.batch.packing import ProblemPack
from judge.errors import SpecError
from judge.programs.runs import ProblemPrograms
from judge.problems.load import load_problem_folder

SECRET = "SECRETWORD root:$6$salt$hash\n"
SUBMISSION = "print(sum(int(word) % 2 == 0 for word in input().split()))\n"


def _package(tmp_path: Path) -> Path:
    """A small legacy package at tmp_path/pkg (two tests, one accepted submission) and tmp_path/secret."""
    root = tmp_path / "pkg"
    for group, text, answer in (("sample", "1 2\n", "1\n"), ("secret", "2 4 5\n", "2\n")):
        (root / "data" / group).mkdir(parents=True)
        (root / "data" / group / "1.in").write_text(text)
        (root / "data" / group / "1.ans").write_text(answer)
    (root / "problem.yaml").write_text("name: Evens\nlimits: {memory: 256}\n")
    (root / ".timelimit").write_text("2\n")
    (root / "submissions" / "accepted").mkdir(parents=True)
    (root / "submissions" / "accepted" / "a.py").write_text(SUBMISSION)
    (tmp_path / "secret").write_text(SECRET)
    return root


def _link(path: Path, target: Path | str) -> None:
    """Replace whatever is at `path` with a symbolic link to `target`."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)
    elif os.path.lexists(path):
        path.unlink()
    path.symlink_to(target)


def _judge(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "judge", *args], capture_output=True, text=True, timeout=300)


OUTSIDE = [
    "input_validators/x.cpp",
    "input_validators/v/validate.py",
    "input_validators",
    "output_validators/check/check.py",
    "output_validators/check",
    "data/secret/1.in",
    "data/sample/1.ans",
    "data/secret/testdata.yaml",
    "data/secret/group",
    "data/secret",
    "problem.yaml",
    ".timelimit",
    "submissions/accepted/a.py",
    "submissions/accepted",
    "submissions",
]


@pytest.mark.parametrize("name", OUTSIDE)
def test_a_link_leading_out_of_the_package_is_a_spec_error_naming_it(tmp_path: Path, name: str) -> None:
    root = _package(tmp_path)
    if name.startswith("output_validators"):
        (root / "problem.yaml").write_text("name: Evens\nvalidation: custom\n")
        (root / "output_validators" / "check").mkdir(parents=True)
        (root / "output_validators" / "check" / "check.py").write_text("import sys\nsys.exit(42)\n")
    if name == "input_validators/v/validate.py":
        (root / "input_validators" / "v").mkdir(parents=True)
    outside = tmp_path / "secret" if "." in Path(name).name else tmp_path / "elsewhere"
    if outside.name == "elsewhere":  # a folder outside, holding what the folder would
        (outside / "1.in").parent.mkdir()
        (outside / "1.in").write_text(SECRET)
        (outside / "1.ans").write_text(SECRET)
    _link(root / name, outside)
    with pytest.raises(SpecError) as raised:
        load_problem_folder(root)
    message = str(raised.value)
    assert message.startswith(f"{root / name}: a symbolic link leads out of the problem folder"), message
    assert "\n" not in message and "SECRETWORD" not in message


def test_verify_refuses_a_validator_linked_out_before_reading_it(tmp_path: Path) -> None:
    """The reported attack: input_validators/x.cpp -> /etc/shadow was compiled as root and the compiler quoted
    its first word. Now `judge verify` stops at loading: exit 2, one line naming the file, nothing of it read."""
    root = _package(tmp_path)
    _link(root / "input_validators" / "x.cpp", tmp_path / "secret")
    done = _judge("verify", str(root))
    assert done.returncode == 2, done.stderr
    assert done.stderr.count("\n") == 1 and "input_validators/x.cpp: a symbolic link leads out" in done.stderr
    assert "SECRETWORD" not in done.stdout + done.stderr


def test_links_inside_the_package_are_followed(tmp_path: Path) -> None:
    """problemtools' packages link tests between groups; a linked group, test, validator or submission that stays
    inside the package is read as if it were there. A linked submission is judged as its target file."""
    root = _package(tmp_path)
    _link(root / "data" / "secret" / "s1.in", "../sample/1.in")
    _link(root / "data" / "secret" / "s1.ans", "../sample/1.ans")
    _link(root / "data" / "secret" / "again", "../sample")
    (root / "shared").mkdir()
    (root / "shared" / "validate.py").write_text("import sys\nsys.exit(42)\n")
    _link(root / "input_validators" / "validate.py", "../shared/validate.py")
    _link(root / "submissions" / "accepted" / "b.py", "a.py")
    problem = load_problem_folder(root)
    assert [test.name for test in problem.tests] == ["sample/1", "secret/1", "secret/again/1", "secret/s1"]
    assert problem.input_validators == (root / "input_validators" / "validate.py",)
    assert [reference.path.name for reference in problem.references or ()] == ["a.py", "a.py"]


def test_a_folder_linked_to_one_above_it_is_refused_not_walked_forever(tmp_path: Path) -> None:
    root = _package(tmp_path)
    _link(root / "data" / "secret" / "loop", "..")
    with pytest.raises(SpecError, match="data/secret/loop: links to a folder above it"):
        load_problem_folder(root)


@pytest.mark.parametrize("name", ["input_validators/x.cpp", "input_validators/v/validate.py",
                                  "data/secret/1.ans", "data/secret/testdata.yaml", "problem.yaml"])
def test_a_fifo_in_a_package_is_refused_unopened(tmp_path: Path, name: str) -> None:
    """A FIFO blocks its reader forever; a package holding one is refused at loading, and nothing opens it (the
    test would hang if anything did: no writer ever comes)."""
    root = _package(tmp_path)
    (root / name).parent.mkdir(parents=True, exist_ok=True)
    if os.path.lexists(root / name):
        (root / name).unlink()
    os.mkfifo(root / name)
    done = _judge("verify", str(root))
    assert done.returncode == 2, done.stderr
    assert done.stderr.count("\n") == 1 and f"{name}: is a FIFO" in done.stderr


@pytest.mark.parametrize("name", ["checker.py", "validator.py", "generator.py"])
def test_problem_code_is_copied_into_its_box_only_from_inside_the_folder(tmp_path: Path, name: str) -> None:
    """The judge copies checker.py, validator.py and generator.py into the box's folder as root, and the box can
    read the copy: a link leading out must not be followed there either (checked again, whatever loading saw)."""
    root = _package(tmp_path)
    _link(root / name, tmp_path / "secret")
    programs = ProblemPrograms(None, None, None)  # type: ignore[arg-type]  # script_folder() uses none of them
    scratch = tmp_path / "scratch"
    with pytest.raises(SpecError, match="a symbolic link leads out of the problem folder"):
        programs.script_folder(scratch, root / name, name)
    assert not (scratch / f"problem-code-{Path(name).stem}" / name).exists()
    (root / "src").mkdir()
    (root / "src" / name).write_text("print(1)\n")
    _link(root / name, f"src/{name}")
    assert (programs.script_folder(scratch, root / name, name) / name).read_text() == "print(1)\n"


def test_a_package_with_links_inside_packs_as_copies_and_a_link_swapped_in_later_is_refused(tmp_path: Path) -> None:
    """What grade ships to a worker: linked tests and groups become files under their own names; a test replaced
    by a link leading out between loading and packing is refused, not read."""
    root = _package(tmp_path)
    _link(root / "data" / "secret" / "again", "../sample")
    problem = load_problem_folder(root)
    unpacked = load_problem_folder(ProblemPack.of(problem).unpack(tmp_path / "unpacked"))
    assert [test.name for test in unpacked.tests] == [test.name for test in problem.tests]
    assert (tmp_path / "unpacked" / "data" / "secret" / "again" / "1.in").read_text() == "1 2\n"
    _link(root / "data" / "secret" / "1.in", tmp_path / "secret")
    with pytest.raises(SpecError, match="data/secret/1.in: a symbolic link leads out of the problem folder"):
        ProblemPack.of(problem)


@pytest.mark.skipif(os.geteuid() != 0, reason="making a device node needs root")
def test_a_device_in_a_package_is_refused_unopened(tmp_path: Path) -> None:
    """/dev/zero's device node as a validator would never end; it is refused before anything opens it."""
    root = _package(tmp_path)
    (root / "input_validators").mkdir()
    os.mknod(root / "input_validators" / "x.cpp", 0o600 | stat.S_IFCHR, os.makedev(1, 5))
    with pytest.raises(SpecError, match="input_validators/x.cpp: is a device;"):
        load_problem_folder(root)


def test_a_validator_header_linked_inside_the_package_is_compiled_with_it(tmp_path: Path) -> None:
    """A C++ output validator whose header is a link to the package's shared include folder (as packages keep
    testlib.h once for several programs) compiles with that header: the link was checked at loading, and the
    build copies what it points to."""
    root = tmp_path / "anysum"
    shutil.copytree(Path(__file__).parent.parent / "packages" / "anysum", root)
    (root / "include").mkdir()
    (root / "include" / "verdicts.h").write_text("#define ACCEPTED 42\n")
    _link(root / "output_validator" / "verdicts.h", "../include/verdicts.h")
    source = root / "output_validator" / "validate.cpp"
    text = source.read_text().replace("#include <fstream>", '#include <fstream>\n#include "verdicts.h"')
    source.write_text(text.replace("return 42;", "return ACCEPTED;"))
    done = _judge("verify", str(root))
    assert done.returncode == 0, done.stdout + done.stderr
