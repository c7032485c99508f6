"""roster.csv, read once for `judge serve` and `judge grade` (judge/course/roster.py): the optional columns an LMS
export needs, and every refusal one line naming the file (and the line) and the fix."""

from __future__ import annotations

from pathlib import Path

import pytest

from judge.course.roster import read_roster
from judge.errors import JudgeError
from judge.serve.roster import with_passwords


def _roster(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "roster.csv"
    path.write_text(text, encoding="utf-8")
    return path


def test_the_optional_columns_are_read_in_any_order_and_a_byte_order_mark_is_allowed(tmp_path: Path) -> None:
    path = _roster(tmp_path, "\ufeffsection,email,id,name,sis_id\nA1,kim@school.kr,kim,Kim Minji,S-1\nB2,,lee,Lee,\n")
    roster = read_roster(path)
    kim, lee = roster.rows
    assert (kim.id, kim.name, kim.email, kim.sis_id, kim.section, kim.password) == (
        "kim", "Kim Minji", "kim@school.kr", "S-1", "A1", "")
    assert (lee.email, lee.sis_id, lee.section, lee.line) == ("", "", "B2", 3)
    assert roster.has("email") and not roster.has("password")


@pytest.mark.parametrize(
    ("text", "where", "words"),
    [
        ("id,name,phone\nkim,Kim,1\n", "", "unknown column 'phone'; the columns are id, name (required), password, "
                                           "email, sis_id, section (optional)"),
        ("id,email\nkim,k@x\n", "", "no column name"),
        ("id,name,name\nkim,Kim,Kim\n", "", "the column 'name' appears twice"),
        ("id,name\nkim,Kim,extra\n", ":2", "more fields than the header"),
        ("id,name,email\nkim,Kim\n", ":2", "fewer fields than the header"),
        ("id,name\n,Kim\n", ":2", "empty id or name"),
        ("id,name\nkim," + "x" * 201 + "\n", ":2", "a field longer than 200 characters"),
        ("id,name\nkim,Kim\nkim,Kim again\n", ":3", "the id 'kim' appears twice"),
        ("id,name,email\nkim,Kim,k@x\nlee,Lee,k@x\n", ":3", "the email 'k@x' appears twice (line 2 too)"),
        ("id,name,sis_id\nkim,Kim,7\nlee,Lee,7\n", ":3", "the sis_id '7' appears twice"),
        ("id,name\n", "", "no students"),
    ],
)
def test_each_refusal_is_one_line_naming_the_file(tmp_path: Path, text: str, where: str, words: str) -> None:
    path = _roster(tmp_path, text)
    with pytest.raises(JudgeError) as refused:
        read_roster(path)
    message = str(refused.value)
    assert message.startswith(f"{path}{where}: ") and words in message and "\n" not in message


def test_a_missing_or_undecodable_roster_is_one_line(tmp_path: Path) -> None:
    with pytest.raises(JudgeError, match="no such roster; give a CSV file with the columns id, name"):
        read_roster(tmp_path / "nope.csv")
    (tmp_path / "latin.csv").write_bytes("id,name\nkim,K\xe9\n".encode("latin-1"))
    with pytest.raises(JudgeError, match="save it as a UTF-8 CSV file"):
        read_roster(tmp_path / "latin.csv")


def test_serve_refuses_the_teachers_id_naming_its_line_and_grade_does_not(tmp_path: Path) -> None:
    path = _roster(tmp_path, "id,name\nkim,Kim\nteacher,T\n")
    roster = read_roster(path)  # judge grade: a student folder may be called anything
    with pytest.raises(JudgeError, match=rf"^{path}:3: the id 'teacher' is the teacher's"):
        with_passwords(roster, tmp_path)
