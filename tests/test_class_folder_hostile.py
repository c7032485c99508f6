"""A class folder and problem folders built to attack `judge grade` and `judge run` (issue #8), run for real.

Every run is a `python -m judge` child process with a timeout, so a regression that hangs (a FIFO, /dev/zero)
fails the test instead of stalling the suite. The class is judged with `--sandbox none`: what is under test is
which files the grader reads, not the box, and unconfined runs keep this file fast.

One class holds every hostile entry at once, next to honest students: a link to a secret file outside the class, a
link to /proc/self/environ, a link to another student's file, a FIFO, a link to /dev/zero, a device node, a sparse
1 GiB source, a linked student folder, and a student folder whose name is not UTF-8. It is graded once (module
fixture) and again to check the rerun; each test asserts one promise about that run.
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import stat
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from grade_helpers import SOURCES, write_problem, write_problems

REPO = Path(__file__).resolve().parent.parent
SECRET = "shadow-secret-91c7e2"
ENV_SECRET = "environ-secret-4d0b7a"
HUGE = 1 << 30
NOT_UTF8 = os.fsdecode(b"\xffkim")
TIMEOUT = 300

# The grader's peak memory, as its parent sees it once it has exited (the maximum RSS over it and every process it
# waited for): a grader that read the sparse 1 GiB source would be over half of it.
MEASURED_GRADE = """
import resource, subprocess, sys
done = subprocess.run([sys.executable, "-m", "judge", "grade", *sys.argv[1:]], capture_output=True)
sys.stdout.buffer.write(done.stdout)
sys.stderr.buffer.write(done.stderr)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024, file=sys.stderr)
sys.exit(done.returncode)
"""


@dataclass(frozen=True)
class Graded:
    """One finished `judge grade` run: its exit status, stderr, peak memory, and the files it wrote."""

    code: int
    stderr: bytes
    peak_bytes: int
    out: Path

    def written(self) -> bytes:
        """Every byte the run left in its --out folder (the database, its WAL, the gradebook)."""
        return b"".join(path.read_bytes() for path in sorted(self.out.rglob("*")) if path.is_file())

    def gradebook(self) -> dict:
        return json.loads((self.out / "grades.json").read_text())


def _environment() -> dict[str, str]:
    return {**os.environ, "JUDGE_TEST_SECRET": ENV_SECRET}


def _grade(problems: Path, class_dir: Path, out: Path, *extra: str) -> Graded:
    done = subprocess.run(
        [sys.executable, "-c", MEASURED_GRADE, str(problems), str(class_dir), "--out", str(out), "-j", "1",
         "--sandbox", "none", *extra],
        capture_output=True, cwd=REPO, env=_environment(), timeout=TIMEOUT,
    )
    *lines, peak = done.stderr.splitlines()
    return Graded(done.returncode, b"\n".join(lines), int(peak), out)


def _write(path: Path, key: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(SOURCES[key])


def _can_make_devices(folder: Path) -> bool:
    try:
        os.mknod(folder / "probe", stat.S_IFCHR | 0o666, os.makedev(1, 5))
    except PermissionError:
        return False
    (folder / "probe").unlink()
    return True


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """problems/ (add, mul), class/ with the hostile entries, and a secret file outside the class."""
    root = tmp_path_factory.mktemp("hostile-class")
    write_problems(root / "problems")
    secret = root / "teacher" / "shadow"
    secret.parent.mkdir()
    secret.write_text(f"root:$6${SECRET}:19000:0:99999:7:::\n")  # if judged: a SyntaxError quoting this line
    class_dir = root / "class"
    _write(class_dir / "alice" / "add.py", "add_ac")
    _write(class_dir / "alice" / "mul.py", "mul_ac")
    _write(class_dir / NOT_UTF8 / "add.py", "add_ac")
    (class_dir / "mallory").mkdir()
    (class_dir / "mallory" / "add.py").symlink_to(secret)
    (class_dir / "mallory" / "mul.py").symlink_to("/proc/self/environ")
    (class_dir / "copycat").mkdir()
    (class_dir / "copycat" / "add.py").symlink_to(Path("..") / "alice" / "add.py")
    (class_dir / "pipe").mkdir()
    os.mkfifo(class_dir / "pipe" / "add.py")
    (class_dir / "zero").mkdir()
    (class_dir / "zero" / "add.py").symlink_to("/dev/zero")
    (class_dir / "huge").mkdir()
    with (class_dir / "huge" / "add.py").open("wb") as handle:
        handle.truncate(HUGE)  # sparse: costs no disk; a grader that read it would hold 1 GiB
    _write(root / "elsewhere" / "add.py", "add_ac")
    (class_dir / "linked").symlink_to(root / "elsewhere")
    if _can_make_devices(root):
        (class_dir / "device").mkdir()
        os.mknod(class_dir / "device" / "add.py", stat.S_IFCHR | 0o666, os.makedev(1, 5))  # /dev/zero's numbers
    return root


@pytest.fixture(scope="module")
def first(world: Path) -> Graded:
    return _grade(world / "problems", world / "class", world / "out")


@pytest.fixture(scope="module")
def second(world: Path, first: Graded) -> Graded:
    return _grade(world / "problems", world / "class", world / "out")


def _reasons(graded: Graded) -> dict[str, str]:
    return {item["path"]: item["reason"] for item in graded.gradebook()["unmatched"]}


def _verdicts(graded: Graded) -> dict[tuple[str, str], str]:
    return {(student["name"], problem): pair["verdict"]
            for student in graded.gradebook()["students"] for problem, pair in student["results"].items()}


def test_the_honest_students_are_graded_and_every_hostile_entry_is_refused(first: Graded, world: Path) -> None:
    assert first.code == 0, first.stderr.decode(errors="replace")
    assert _verdicts(first) == {("alice", "add"): "AC", ("alice", "mul"): "AC", (NOT_UTF8, "add"): "AC"}
    expected = {
        "copycat/add.py": "refused: is a symbolic link",
        "huge/add.py": "refused: is larger than the 64 KiB source limit",
        "linked": "refused: is a symbolic link",
        "mallory/add.py": "refused: is a symbolic link",
        "mallory/mul.py": "refused: is a symbolic link",
        "pipe/add.py": "refused: is a FIFO",
        "zero/add.py": "refused: is a symbolic link",
    }
    if (world / "class" / "device").exists():
        expected["device/add.py"] = "refused: is a device"
    assert _reasons(first) == expected


def test_a_link_to_another_students_file_earns_nothing(first: Graded) -> None:
    copycat = next(student for student in first.gradebook()["students"] if student["name"] == "copycat")
    assert copycat["results"] == {} and copycat["score"] == 0


def test_no_linked_file_reaches_a_report_or_the_database(first: Graded) -> None:
    written = first.written()
    assert (first.out / "report.html").is_file() and (first.out / "results.sqlite").is_file()
    for secret in (SECRET, ENV_SECRET):
        assert secret.encode() not in written
        assert secret.encode() not in first.stderr


def test_a_sparse_huge_source_is_refused_without_being_read(first: Graded) -> None:
    assert first.peak_bytes < HUGE // 2, f"the grader's peak memory was {first.peak_bytes / 2**20:.0f} MiB"


def test_refusals_are_listed_in_the_terminal_summary(first: Graded) -> None:
    stderr = first.stderr.decode()
    assert "unmatched: pipe/add.py: refused: is a FIFO" in stderr
    assert "unmatched: mallory/add.py: refused: is a symbolic link" in stderr


def test_a_name_that_is_not_utf8_is_shown_escaped_and_stored_as_it_is(first: Graded) -> None:
    assert b"\xff" not in first.stderr
    assert "\\xffkim" in (first.out / "report.html").read_text(encoding="utf-8")
    assert "\\xffkim," in (first.out / "grades.csv").read_text(encoding="utf-8")
    with sqlite3.connect(first.out / "results.sqlite") as connection:
        stored = connection.execute("SELECT student FROM results WHERE typeof(student) = 'blob'").fetchall()
    assert [value.decode("utf-8", "surrogatepass") for value, in stored] == [NOT_UTF8]


def test_a_rerun_reuses_every_result_including_the_non_utf8_students(second: Graded) -> None:
    assert second.code == 0, second.stderr.decode(errors="replace")
    assert b"judged 0, up to date 3" in second.stderr
    assert (NOT_UTF8, "add") in _verdicts(second)


def test_the_source_limit_is_the_problems_unless_the_command_line_says_otherwise(tmp_path: Path) -> None:
    problems = tmp_path / "problems"
    write_problem(problems / "add", "add", {"1": ("1 2\n", "3\n")}, source_limit=1)
    (tmp_path / "class" / "kim").mkdir(parents=True)
    (tmp_path / "class" / "kim" / "add.py").write_text("#" * 1500 + "\n" + SOURCES["add_ac"])

    refused = _grade(problems, tmp_path / "class", tmp_path / "a")
    raised = _grade(problems, tmp_path / "class", tmp_path / "b", "--source-limit", "2")

    assert refused.code == 0 and _reasons(refused) == {"kim/add.py": "refused: is larger than the 1 KiB source limit"}
    assert raised.code == 0 and _verdicts(raised) == {("kim", "add"): "AC"} and _reasons(raised) == {}


# --- problem folders: exit 2 with one line, however `judge` is started -------------------------------------------

ALIAS_BOMB = 'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n' + "".join(
    f"{name}: &{name} [{','.join([f'*{previous}'] * 9)}]\n" for previous, name in zip("abcdefgh", "bcdefghi")
)


def _alias_bomb(problem: Path) -> Path:
    (problem / "problem.yaml").write_text(ALIAS_BOMB)
    return problem / "problem.yaml"


def _linked_answer(problem: Path) -> Path:
    answer = problem / "tests" / "1.ans"
    shutil.copy(answer, problem.parent / "elsewhere.ans")
    answer.unlink()
    answer.symlink_to(problem.parent / "elsewhere.ans")
    return answer


@pytest.mark.parametrize("command", ["run", "grade"])
@pytest.mark.parametrize(("spoil", "message"), [
    (_alias_bomb, "line 2: aliases (*name) are not allowed; write the value out"),
    (_linked_answer, "a symbolic link leads out of the problem folder (to "),
], ids=["alias bomb", "linked test file"])
def test_a_hostile_problem_folder_is_one_line_and_exit_2(tmp_path: Path, command: str, spoil, message: str) -> None:
    problem = write_problem(tmp_path / "problems" / "add", "add", {"1": ("1 2\n", "3\n")})
    named = spoil(problem)
    _write(tmp_path / "class" / "kim" / "add.py", "add_ac")
    arguments = ([str(problem), str(tmp_path / "class" / "kim" / "add.py")] if command == "run" else
                 [str(tmp_path / "problems"), str(tmp_path / "class"), "--out", str(tmp_path / "out")])

    done = subprocess.run([sys.executable, "-m", "judge", command, *arguments, "--sandbox", "none"],
                          capture_output=True, text=True, cwd=REPO, timeout=60)

    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith(f"judge: {named}: {message}") and done.stderr.count("\n") == 1, done.stderr
