"""A submission's files as judge reads them: one source file, or a folder of several (as problem packages give
them: a Java program with helper classes, a C program with a header, a shell script with a binary beside it),
with the main source that decides the language and is compiled and run.

`SourceFiles` is the one record of them everywhere: `judge run` reads it from the path it was given, a batch reads
it once on the machine that starts the batch and sends it to a worker inside the task (it pickles: names and
bytes, no path), and judging takes it as it is. So no worker writes a submission to disk only to read it back.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from msgspec import Struct

from judge.errors import SubmissionError
from judge.intake import Refused, read_source, size_refusal
from judge.languages.catalog import MORE_SOURCES, SCRIPTS, Language
from judge.languages.detection import declares_main, detect_language


class SourceFiles(Struct, frozen=True):
    """A submission's files, read: one source file, or a folder of several, whose other files are written beside the
    main source, executable if they were."""

    name: str
    """The submission's own name: its file's (whose extension picks the language), or its folder's."""
    text: bytes
    """The main source's bytes."""
    main: str = ""
    """For a folder, the file in it that is compiled and run (`main_file`); empty for a single file."""
    beside: tuple[tuple[str, bytes, bool], ...] = ()
    """A folder's other files: each one's name, bytes and whether it is executable."""

    @classmethod
    def read(
        cls, source: Path, limit_bytes: int | None, language: str | None = None, *, inside: Path | None = None
    ) -> SourceFiles:
        """The file `source`, or the folder `source` with its main source found (`main_file`); every file is read
        as a source is (a regular file, never through a link) and `limit_bytes` caps them together. With `inside`,
        `source` is a file reached without a link from that folder (a class folder's). Raises `Refused`, or
        SubmissionError for a folder without one main source."""
        if inside is not None or not source.is_dir() or source.is_symlink():
            return cls(source.name, read_source(source, limit_bytes, inside=inside))
        files = sorted(entry for entry in source.iterdir() if not entry.name.startswith("."))
        if any(entry.is_dir() and not entry.is_symlink() for entry in files):
            raise SubmissionError(f"{source}: a submission folder holds files only; move the folders out")
        contents = {entry: read_source(entry, limit_bytes, inside=source) for entry in files}
        if limit_bytes is not None and sum(map(len, contents.values())) > limit_bytes:
            raise SubmissionError(_over_limit(source, limit_bytes))
        main = main_file(source, contents, language)
        beside = tuple(
            (entry.name, text, bool(os.stat(entry, follow_symlinks=False).st_mode & stat.S_IXUSR))
            for entry, text in contents.items()
            if entry != main
        )
        return cls(source.name, contents[main], main.name, beside)

    @property
    def main_name(self) -> str:
        """The main source's file name."""
        return self.main or self.name

    def main_path(self, given: Path) -> Path:
        """The main source's path when the submission is at `given` (what a message about it names)."""
        return given / self.main if self.main else given

    def within(self, limit_bytes: int | None) -> SourceFiles:
        """These files, when they fit under `limit_bytes` as `read` would have found them, else its refusal: a
        problem's cap may have been lowered since they were read (`judge serve` judging a stored source again)."""
        reason = size_refusal(len(self.text), limit_bytes) if not self.main else None
        if reason:
            raise Refused(Path(self.name), reason)
        total = len(self.text) + sum(len(content) for _, content, _ in self.beside)
        if self.main and limit_bytes is not None and total > limit_bytes:
            raise SubmissionError(_over_limit(Path(self.name), limit_bytes))
        return self

    @property
    def sha256(self) -> str:
        """What a stored result names its source by: the main source's bytes, and for a folder every file's name,
        bytes and executable bit (the main source's first)."""
        import hashlib  # noqa: PLC0415 -- only results name sources: `judge run` never loads OpenSSL for it (4-5 ms)

        hasher = hashlib.sha256(self.text)
        if self.main:
            for name, content, executable in ((self.main, self.text, False), *self.beside):
                hasher.update(f"{len(name)}:{name}:{int(executable)}:{len(content)}:".encode() + content)
        return hasher.hexdigest()


def _over_limit(folder: Path, limit_bytes: int) -> str:
    return f"{folder}: its files together are larger than the {limit_bytes // 1024} KiB source limit"


def main_file(folder: Path, contents: dict[Path, bytes], language: str | None) -> Path:
    """The file of a submission folder that judge compiles and runs: its `build` script (else `run`), which the
    specification makes the way to build and start any program; else the only file in a language judge knows
    (headers, data and binaries have none); else, among files of one language that are compiled together (Java
    classes, C or C++ files linked as one program: `{more_sources}`), the one declaring `main`; else, among
    files of one language that are not (a shell script sourcing another, Python modules), the one named `main`
    (`main.sh`, `main.py`: the specification's default entry point)."""
    if language is None:
        scripts = [folder / name for name in SCRIPTS if folder / name in contents]
        if scripts:
            return scripts[0]
    known: dict[Path, Language] = {}
    for path in contents:
        try:
            known[path] = detect_language(path, language if path.suffix else None)
        except SubmissionError:
            continue
    if len(known) == 1:
        return next(iter(known))
    if not known:  # a folder of a language judge has no toolchain for: say which, as for a single file
        suffixes = sorted({path.suffix or "extensionless" for path in contents})
        raise SubmissionError(f"{folder}: no language judges {', '.join(suffixes)} files here")
    kinds = {found.key: found for found in known.values()}
    defaults = [path for path in known if path.stem == "main"]  # the specification's entry point: main.py, ...
    if len(kinds) == 1 and len(defaults) == 1 and not _compiled_together(next(iter(kinds.values()))):
        return defaults[0]
    if len(kinds) == 1 and _compiled_together(next(iter(kinds.values()))):
        holders = [path for path, found in known.items() if declares_main(found, contents[path])]
        if len(holders) == 1:
            return holders[0]
    names = ", ".join(path.name for path in known) or "none"
    raise SubmissionError(
        f"{folder}: judge runs a folder with one main source, or files of one language with one defining main "
        f"(Java, C, C++), or build/run scripts; found {names}"
    )


def _compiled_together(language: Language) -> bool:
    """Whether the language's compiler takes a program's other sources: Java's finds the classes beside the
    main one, C's and C++'s are given them (`{more_sources}`)."""
    return language.main_class or MORE_SOURCES in (language.compile or ())
