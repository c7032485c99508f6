"""The code the teacher handed out, read from `--template` files and folders (a folder's files in any language
the judge knows; hidden files skipped). Read like a submission: a regular file, within the size cap."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from judge.errors import JudgeError, SubmissionError
from judge.intake import Refused, visible_entries
from judge.languages.sources import SourceFiles
from judge.similarity.fingerprints import Source


def read_templates(paths: Iterable[Path], limit_bytes: int) -> list[Source]:
    sources = []
    for path in paths:
        if path.is_dir():
            files = sorted(Path(entry.path) for entry in visible_entries(path) if entry.is_file(follow_symlinks=False))
        elif path.is_file():
            files = [path]
        else:
            raise JudgeError(f"{path}: no such template file or folder; give the code handed out to the class")
        for file in files:
            try:
                source = SourceFiles.read(file, limit_bytes)
                sources.append(Source.of(str(file), source.text))
            except Refused as refused:
                raise JudgeError(f"{file}: template refused: {refused.reason}") from None
            except SubmissionError:
                if path.is_file():
                    raise
    return sources
