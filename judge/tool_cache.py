"""The judge's cache folder, and the small JSON records it keeps there about this machine's tools.

What the judge learns by running a tool (the binary a launcher script starts, an empty venv made once, whether a
compiler links statically) is kept here, so the next `judge` process does not pay for it again. Every record is
named by `tool_key`, which changes when the tool does.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

try:  # hashlib's own BLAKE2 (CPython's): `import hashlib` loads OpenSSL first, 4-5 ms of every `judge run` (issue 45)
    from _blake2 import blake2b
except ImportError:  # another Python
    from hashlib import blake2b

Fields = TypeVar("Fields")
Built = TypeVar("Built")


def cache_dir() -> Path:
    """The judge's cache folder: $XDG_CACHE_HOME/judge, else ~/.cache/judge."""
    base = os.environ.get("XDG_CACHE_HOME", "")
    return Path(base if os.path.isabs(base) else os.path.join(os.path.expanduser("~"), ".cache")) / "judge"


def tool_key(tool: str, *context: str) -> str:
    """A name for what the cache knows of `tool` (in `context`): its file name and a digest of its path, size and
    mtime, so an upgraded tool is asked again."""
    text = "\0".join((file_stamp(tool), *context))
    return f"{Path(tool).name}-{blake2b(text.encode(), digest_size=8).hexdigest()}"


def read_record(path: Path) -> Any | None:
    """The JSON value stored at `path`, or None if there is none or it cannot be read."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def write_record(path: Path, value: Any) -> None:
    """Store `value` at `path` atomically (a reader sees the old record or the new one, never half of one);
    OSError if the cache cannot be written."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.NamedTemporaryFile("w", dir=path.parent, suffix=".tmp", delete=False) as handle:
        try:
            json.dump(value, handle)
            handle.flush()
            os.replace(handle.name, path)
        except OSError:
            os.unlink(handle.name)
            raise


def file_stamp(path: Path | str) -> str:
    """A file's path, size and mtime: what changes when the file is edited or reinstalled."""
    stat = os.stat(path)
    return f"{path}\0{stat.st_size}\0{stat.st_mtime_ns}"


def content_key(*parts: str | bytes) -> str:
    """A record name for a result computed from `parts` (say, a file's bytes and the stamp of the code that read it)."""
    digest = blake2b(digest_size=16)
    for part in parts:
        data = part.encode() if isinstance(part, str) else part
        digest.update(len(data).to_bytes(8, "little"))
        digest.update(data)
    return digest.hexdigest()


def validated_once(
    kind: str, schema: Path, text: str | bytes, validate: Callable[[], Fields], build: Callable[[Fields], Built]
) -> Built:
    """`build(validate())`, where the validated fields of this `text` under this `schema` (the module that
    validates) come from the cache after the first time; the cache holds only what validated, so every error is
    found afresh. Validating means pydantic and PyYAML, about 100 ms of a judge's start."""
    record = cache_dir() / kind / f"{content_key(file_stamp(schema), text)}.json"
    cached = read_record(record)
    if cached is not None:
        try:
            return build(cached)
        except (KeyError, TypeError, AttributeError, ValueError):
            pass  # not a record this judge wrote: validate again
    fields = validate()
    try:
        write_record(record, fields)
    except OSError:
        pass  # an unwritable cache only costs the next judge one more validation
    return build(fields)
