"""Interpreter shims (pyenv and asdf launcher scripts): asked once which real binary they start, the answer
kept on disk.

Asking a pyenv shim costs about 100 ms (a bash script that runs pyenv), which every `judge run` used to pay. The
answer is kept in the judge's cache under a key made of everything that can change it: the script (its real
path, size and mtime), the question, PATH, the working folder (a `.python-version` there picks another Python)
and the version managers' variables (`PYENV_*`, `ASDF_*`). The record also holds the size and mtime of the binary
it names, so a binary upgraded or removed since is asked about again. A choice the key cannot see, such as
`pyenv global` naming another default, is picked up by `judge doctor`, which forgets every answer and asks again.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from judge.errors import JudgeFailure, ToolchainMissing
from judge.tool_cache import cache_dir, read_record, tool_key, write_record

STEERING_VARIABLES = ("PYENV", "ASDF")
"""Prefixes of the environment variables with which a version manager's shim picks its binary."""


def launchers_dir() -> Path:
    """Where the answers of launcher scripts are kept."""
    return cache_dir() / "launchers"


def launched_binary(script: str, question: tuple[str, ...]) -> str:
    """The real path of the binary `script` starts, as `script *question` prints it: asked once per key (see the
    module's docstring), then read from the cache. ToolchainMissing if the launcher cannot answer."""
    record = launchers_dir() / f"{_key(script, question)}.json"
    cached = _binary_in(read_record(record))
    if cached is not None:
        return cached
    binary = _ask(script, question)
    try:
        write_record(record, _record_of(binary))
    except OSError:
        pass  # an unwritable cache only costs the next judge one more question
    return binary


def forget_launchers() -> None:
    """Drop every kept answer, so the next resolution asks each launcher again (`judge doctor` does)."""
    shutil.rmtree(launchers_dir(), ignore_errors=True)


def _key(script: str, question: tuple[str, ...]) -> str:
    steering = sorted(f"{name}={value}" for name, value in os.environ.items() if name.startswith(STEERING_VARIABLES))
    return tool_key(script, *question, os.environ.get("PATH", ""), _working_folder(), *steering)


def _working_folder() -> str:
    try:
        return os.getcwd()
    except OSError:  # the folder was removed under us: nothing there can steer a shim
        return ""


def _ask(script: str, question: tuple[str, ...]) -> str:
    try:
        answer = subprocess.run([script, *question], capture_output=True, text=True, timeout=30, check=True)
    except (FileNotFoundError, PermissionError, subprocess.SubprocessError) as error:
        raise ToolchainMissing(f"{script}: cannot ask this launcher for its real binary: {error}") from None
    except OSError as error:  # out of descriptors, memory or processes: the judge's machine, not the toolchain
        raise JudgeFailure(f"{script}: cannot start this launcher to ask for its real binary: {error}") from None
    return os.path.realpath(answer.stdout.strip())


def _record_of(binary: str) -> dict[str, object]:
    stat = os.stat(binary)
    return {"binary": binary, "size": stat.st_size, "mtime_ns": stat.st_mtime_ns}


def _binary_in(record: object) -> str | None:
    """The binary a record names, if it is still the same file (same size and mtime); else None."""
    if not isinstance(record, dict) or not isinstance(record.get("binary"), str):
        return None
    try:
        same = _record_of(record["binary"]) == record
    except OSError:
        return None
    return record["binary"] if same else None
