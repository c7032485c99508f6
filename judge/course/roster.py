"""The class list, `roster.csv`: read here once for `judge serve` (who may sign in) and `judge grade` (whose names,
e-mails, SIS ids and sections the exports carry), so both accept and refuse the same files.

Columns: `id` and `name` (required), `password`, `email`, `sis_id`, `section` (optional), named on the first line
in any order. A roster is the teacher's file, often saved from a spreadsheet: a byte order mark is allowed, and
every mistake is one line naming the file (and the line) and the fix. An e-mail or SIS id given twice is refused
too: an LMS would put two students' grades on one person.
"""

from __future__ import annotations

import csv
from pathlib import Path

from msgspec import Struct

from judge.errors import JudgeError

REQUIRED = ("id", "name")
OPTIONAL = ("password", "email", "sis_id", "section")
COLUMNS = REQUIRED + OPTIONAL
COLUMNS_IN_WORDS = "id, name (required), password, email, sis_id, section (optional)"
MAX_FIELD = 200
UNIQUE = ("id", "email", "sis_id")
"""Columns whose non-empty values name one student each."""


class RosterRow(Struct, frozen=True):
    """One student of the roster; an optional column not given (or left empty) is ''."""

    id: str
    name: str
    line: int
    """Its line in the file, for a later refusal (serve's reserved teacher id) to name."""
    password: str = ""
    email: str = ""
    sis_id: str = ""
    section: str = ""


class Roster(Struct, frozen=True):
    """The students in the file's order, and which optional columns the file has (a view shows only those)."""

    path: Path
    rows: tuple[RosterRow, ...]
    columns: tuple[str, ...]

    def by_id(self) -> dict[str, RosterRow]:
        return {row.id: row for row in self.rows}

    def has(self, column: str) -> bool:
        return column in self.columns


def read_roster(path: Path) -> Roster:
    """The roster at `path`, or JudgeError: one line naming the file (and line) and the fix."""
    try:
        text = path.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise JudgeError(f"{path}: no such roster; give a CSV file with the columns {COLUMNS_IN_WORDS}") from None
    except (OSError, UnicodeDecodeError) as error:
        raise JudgeError(f"{path}: cannot read the roster ({error}); save it as a UTF-8 CSV file") from None
    reader = csv.DictReader(text.splitlines())
    columns = tuple(reader.fieldnames or ())
    if missing := [name for name in REQUIRED if name not in columns]:
        raise JudgeError(
            f"{path}: no column {', '.join(missing)}; the first line must name the columns: {COLUMNS_IN_WORDS}"
        )
    if unknown := [name for name in columns if name not in COLUMNS]:
        raise JudgeError(f"{path}: unknown column {unknown[0]!r}; the columns are {COLUMNS_IN_WORDS}")
    if twice := [name for name in COLUMNS if columns.count(name) > 1]:
        raise JudgeError(f"{path}: the column {twice[0]!r} appears twice on the first line; name each column once")
    rows: list[RosterRow] = []
    seen: dict[str, dict[str, int]] = {column: {} for column in UNIQUE}
    for line, raw in enumerate(reader, start=2):
        if None in raw or any(value is None for value in raw.values()):
            raise JudgeError(
                f"{path}:{line}: this row has {'more' if None in raw else 'fewer'} fields than the "
                "header; give one value per column"
            )
        values = {key: value.strip() for key, value in raw.items()}
        if not values["id"] or not values["name"]:
            raise JudgeError(f"{path}:{line}: empty id or name; every student needs both")
        if any(len(value) > MAX_FIELD for value in values.values()):
            raise JudgeError(f"{path}:{line}: a field longer than {MAX_FIELD} characters; shorten it")
        for column in UNIQUE:
            value = values.get(column, "")
            if value and value in seen[column]:
                raise JudgeError(
                    f"{path}:{line}: the {column} {value!r} appears twice (line {seen[column][value]} too); "
                    f"give every student their own {column}"
                )
            if value:
                seen[column][value] = line
        rows.append(RosterRow(line=line, **values))
    if not rows:
        raise JudgeError(f"{path}: no students; add a line id,name per student")
    return Roster(path, tuple(rows), columns)
