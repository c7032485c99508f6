"""What the server adds to the class list (`roster.csv`, read by judge/course/roster.py, shared with `judge grade`):
the passwords it made up for students without one (`DIR/passwords.csv`, for the teacher to hand out), the id kept
for the teacher, and the teacher's secret.

Generated passwords are kept: a restart reuses `passwords.csv`, so slips already handed out stay valid.
"""

from __future__ import annotations

import csv
import secrets
from collections.abc import Mapping
from io import StringIO
from pathlib import Path

from msgspec import Struct

from judge.course.roster import Roster
from judge.errors import JudgeError
from judge.private_folder import read_private_file, write_private_file

TEACHER_ID = "teacher"
"""The id the teacher signs in with (a roster may not use it)."""
PASSWORDS_FILE = "passwords.csv"
TEACHER_SECRET_FILE = "teacher-secret.txt"
SESSION_KEY_FILE = "session-key.txt"
DATA_FOLDER_FIX = "give --data a folder of this account's alone (a new one is made, mode 0700)"
"""The end of every refusal of the data folder (judge.private_folder)."""
PASSWORD_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"
"""No 0/o, 1/l/i: a password is read off a slip of paper."""
PASSWORD_LENGTH = 12


class RosterEntry(Struct, frozen=True):
    id: str
    name: str
    password: str
    generated: bool
    """The server made the password up (it is in passwords.csv, not in roster.csv)."""


def with_passwords(roster: Roster, data_dir: Path) -> list[RosterEntry]:
    """The roster's students, each with a password: its own, else the one generated before, else a new one;
    every generated one is (re)written to `data_dir/passwords.csv` (readable by the owner only). The teacher's
    id is refused here: it is the server's own, not a roster's concern (`judge grade` accepts it)."""
    if reserved := next((row for row in roster.rows if row.id == TEACHER_ID), None):
        raise JudgeError(
            f"{roster.path}:{reserved.line}: the id {TEACHER_ID!r} is the teacher's; give the student another id"
        )
    kept = _generated_before(data_dir / PASSWORDS_FILE)
    entries = []
    for row in roster.rows:
        password = row.password or kept.get(row.id) or _new_password()
        entries.append(RosterEntry(row.id, row.name, password, generated=not row.password))
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
