"""Reading a course file the teacher may or may not have written (assignments.yaml, extensions.csv): absent is
no course or no extension; present, it is read whole, within a bound, as UTF-8 text, or refused in one line."""

from __future__ import annotations

from pathlib import Path

from judge.errors import JudgeError
from judge.intake import Refused, read_source


def optional_text(path: Path, limit_bytes: int, what: str, kind: str) -> str | None:
    """The text at `path` (a byte-order mark dropped), None when there is no such file; JudgeError naming `path`
    and the fix when it is not a regular file within `limit_bytes` or not UTF-8. `kind` names it in the fix
    ("YAML", "CSV")."""
    if not path.exists() and not path.is_symlink():
        return None
    try:
        return read_source(path, limit_bytes, what=what).decode("utf-8-sig")
    except UnicodeDecodeError:
        raise JudgeError(f"{path}: is not UTF-8 text; save it as a UTF-8 {kind} file") from None
    except Refused as refused:
        raise JudgeError(
            f"{path}: {refused.reason}; give a regular {kind} file of at most {limit_bytes // 1024} KiB"
        ) from None
