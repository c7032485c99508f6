"""The class list: `roster.csv` (columns `id,name` and optionally `password`), the passwords the server made up
for students without one (`DIR/passwords.csv`, for the teacher to hand out), and the teacher's secret.

Generated passwords are kept: a restart reuses `passwords.csv`, so slips already handed out stay valid.
"""

from __future__ import annotations

import csv
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from io import StringIO
from pathlib import Path

from judge.errors import JudgeError
from judge.private_folder import read_private_file, write_private_file

TEACHER_ID = "teacher"
"""The id the teacher signs in with (a roster may not use it)."""
PASSWORDS_FILE = "passwords.csv"
TEACHER_SECRET_FILE = "teacher-secret.txt"
SESSION_KEY_FILE = "session-key.txt"
DATA_FOLDER_FIX = "give --data a folder of this account's alone (a new one is made, mode 0700)"
"""The end of every refusal of the data folder (judge.private_folder)."""
REQUIRED = ("id", "name")
OPTIONAL = ("password",)
PASSWORD_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"
"""No 0/o, 1/l/i: a password is read off a slip of paper."""
PASSWORD_LENGTH = 12
MAX_FIELD = 200


@dataclass(frozen=True)
class RosterEntry:
    id: str
    name: str
    password: str
    generated: bool
    """The server made the password up (it is in passwords.csv, not in roster.csv)."""


def read_roster(path: Path, data_dir: Path) -> list[RosterEntry]:
    """The roster's students, each with a password: its own, else the one generated before, else a new one;
    every generated one is (re)written to `data_dir/passwords.csv` (readable by the owner only)."""
    rows = _rows(path)
    kept = _generated_before(data_dir / PASSWORDS_FILE)
    entries = []
    for row in rows:
        given = row.get("password") or ""
        password = given or kept.get(row["id"]) or _new_password()
        entries.append(RosterEntry(row["id"], row["name"], password, generated=not given))
    generated = [entry for entry in entries if entry.generated]
    if generated:
        write_private_file(
            data_dir / PASSWORDS_FILE,
            (
                "id,name,password\n" + "".join(_csv_line((entry.id, entry.name, entry.password)) for entry in generated)
            ).encode("utf-8"),
        )
    return entries


def kept_secret(path: Path) -> str:
    """A random secret made once and kept in `path` (readable by the owner only): the teacher's password, the
    session cookies' signing key. Read and written in the checked data folder, never through a link."""
    kept = read_private_file(path, DATA_FOLDER_FIX)
    if kept is not None:
        return kept.decode("utf-8", "replace").strip()
    secret = secrets.token_urlsafe(24)
    write_private_file(path, (secret + "\n").encode("utf-8"))
    return secret


def _rows(path: Path) -> list[dict[str, str]]:
    try:
        text = path.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise JudgeError(
            f"{path}: no such roster; give a CSV file with columns id,name (and optionally password)"
        ) from None
    except (OSError, UnicodeDecodeError) as error:
        raise JudgeError(f"{path}: cannot read the roster ({error}); save it as a UTF-8 CSV file") from None
    reader = csv.DictReader(text.splitlines())
    columns = tuple(reader.fieldnames or ())
    if missing := [name for name in REQUIRED if name not in columns]:
        raise JudgeError(
            f"{path}: no column {', '.join(missing)}; the first line must name the columns id,name "
            "(and optionally password)"
        )
    if unknown := [name for name in columns if name not in REQUIRED + OPTIONAL]:
        raise JudgeError(f"{path}: unknown column {unknown[0]!r}; the columns are id, name and password")
    rows, seen = [], set()
    for line, row in enumerate(reader, start=2):
        if None in row or any(value is None for value in row.values()):
            raise JudgeError(
                f"{path}:{line}: this row has {'more' if None in row else 'fewer'} fields than the "
                "header; give one value per column"
            )
        row = {key: value.strip() for key, value in row.items()}
        if not row["id"] or not row["name"]:
            raise JudgeError(f"{path}:{line}: empty id or name; every student needs both")
        if any(len(value) > MAX_FIELD for value in row.values()):
            raise JudgeError(f"{path}:{line}: a field longer than {MAX_FIELD} characters; shorten it")
        if row["id"] == TEACHER_ID:
            raise JudgeError(f"{path}:{line}: the id {TEACHER_ID!r} is the teacher's; give the student another id")
        if row["id"] in seen:
            raise JudgeError(f"{path}:{line}: the id {row['id']!r} appears twice; give every student their own id")
        seen.add(row["id"])
        rows.append(row)
    if not rows:
        raise JudgeError(f"{path}: no students; add a line id,name per student")
    return rows


def _generated_before(path: Path) -> Mapping[str, str]:
    kept = read_private_file(path, DATA_FOLDER_FIX)
    if kept is None:
        return {}
    rows = csv.DictReader(StringIO(kept.decode("utf-8", "replace"), newline=""))
    return {row["id"]: row["password"] for row in rows if row.get("id") and row.get("password")}


def _new_password() -> str:
    return "".join(secrets.choice(PASSWORD_ALPHABET) for _ in range(PASSWORD_LENGTH))


def _csv_line(values: tuple[str, ...]) -> str:
    buffer = StringIO()
    csv.writer(buffer, lineterminator="\n").writerow(values)
    return buffer.getvalue()
