"""A class folder read: which student wrote which file for which problem. `judge grade` judges what it finds and
`judge similarity` compares it, so both read a class the same way (the problems themselves are found by the problem
scanner, judge/problems/scan.py).

Two class layouts are understood:

    by-student   class/<student>/<problem>.<ext>     one folder per student
    by-problem   class/<problem>/<student>.<ext>     one folder per problem

`auto` counts the top-level folders named after a problem and the top-level folders holding a file named after
a problem, and picks the layout with more; a tie (which includes "nothing matches") is a usage error asking for
`--layout`, because a wrong guess would list every file as unmatched.

Every file that does not become a (student, problem) pair is returned as `Unmatched` with the reason, so a
misnamed submission shows up in the reports instead of silently scoring zero. Hidden entries (names starting
with ".") are skipped: they are editor and version-control litter, not submissions.

The class folder is written by students, so nothing in it is followed or trusted: the folder is listed without
following links (lstat), a symbolic link (to a file or a folder), a FIFO, a device or a socket is `Unmatched` with a
reason starting "refused: ", and each source is read here, once, through `judge.intake`: only a regular file,
reached from the class folder without a link, and never beyond its problem's size cap (an over-size file is
refused too, without being read). A name that is not UTF-8 arrives as a str with surrogate escapes and is kept as it
is; the views escape it.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Collection, Mapping
from pathlib import Path
from typing import Literal

from msgspec import Struct

from judge.errors import JudgeError, SubmissionError
from judge.intake import Refused, kind_refusal, natural_key, visible_entries
from judge.languages.detection import detect_language
from judge.languages.sources import SourceFiles
from judge.options import RunOptions
from judge.problems.model import Problem
from judge.suggest import nearby_path

Layout = Literal["by-student", "by-problem"]
LayoutChoice = Literal["auto", "by-student", "by-problem"]
REFUSED = "refused: "
"""How an `Unmatched` reason starts when the entry was not read at all (a link, a FIFO, an over-size file)."""


class Submission(Struct, frozen=True):
    """One student's source file for one problem, as read. `relative` is its path inside the class folder (POSIX)."""

    student: str
    problem_id: str
    path: Path
    relative: str
    source: SourceFiles
    modified_ns: int = 0
    """When the file was last written: of two files for one pair, the newer is graded (`_one_per_pair`)."""


class Unmatched(Struct, frozen=True):
    """A file or folder of the class that is not graded, and why."""

    relative: str
    reason: str


class ClassFolder(Struct, frozen=True):
    """What a class folder holds. `students` includes students none of whose files matched a problem."""

    layout: Layout
    students: tuple[str, ...]
    submissions: tuple[Submission, ...]
    unmatched: tuple[Unmatched, ...]


def source_limits(problems: Mapping[str, Problem], options: RunOptions) -> dict[str, int]:
    """Each problem's cap on a source, in bytes, by problem id: `--source-limit`, else its `source_limit`."""
    return {
        problem_id: options.source_limit_bytes(problem.spec.source_limit) for problem_id, problem in problems.items()
    }


def scan_class(class_dir: Path, limits: Mapping[str, int], layout: LayoutChoice) -> ClassFolder:
    """Pair every file of `class_dir` with a student and a problem and read it, or list it as unmatched or refused.

    `limits` maps each problem id to the largest source read for it, in bytes (see `source_limits`).
    """
    if not class_dir.is_dir():
        raise JudgeError(
            f"{class_dir}: no such folder{nearby_path(class_dir)}; give the folder holding the students' submissions"
        )
    chosen: Layout = detect_layout(class_dir, limits.keys()) if layout == "auto" else layout
    students: set[str] = set()
    found: list[Submission] = []
    unmatched: list[Unmatched] = []
    for top in visible_entries(class_dir):
        mode = _mode(top)
        if not stat.S_ISDIR(mode):
            reason = kind_refusal(mode)
            unmatched.append(
                Unmatched(
                    top.name,
                    REFUSED + reason if reason else f"not inside a folder; the {chosen} layout is {_SHAPES[chosen]}",
                )
            )
            continue
        if chosen == "by-student":
            students.add(top.name)
        elif top.name not in limits:
            unmatched.append(Unmatched(f"{top.name}/", f"no problem with id {top.name!r}"))
            continue
        try:
            entries = visible_entries(Path(top.path))
        except OSError as error:
            unmatched.append(Unmatched(f"{top.name}/", f"{REFUSED}cannot be listed: {error.strerror}"))
            continue
        for entry in entries:
            relative = f"{top.name}/{entry.name}"
            mode = _mode(entry)
            if stat.S_ISDIR(mode):
                unmatched.append(Unmatched(f"{relative}/", f"a folder; the {chosen} layout is {_SHAPES[chosen]}"))
                continue
            path = Path(entry.path)
            student, problem_id = (top.name, path.stem) if chosen == "by-student" else (path.stem, top.name)
            if chosen == "by-problem":
                students.add(student)
            reason = kind_refusal(mode)
            if reason:
                unmatched.append(Unmatched(relative, REFUSED + reason))
                continue
            reason = _why_not_gradable(path, problem_id, limits.keys())
            if reason:
                unmatched.append(Unmatched(relative, reason))
                continue
            try:
                source = SourceFiles.read(path, limits[problem_id], inside=class_dir)
            except Refused as refused:
                unmatched.append(Unmatched(relative, REFUSED + refused.reason))
            else:
                found.append(Submission(student, problem_id, path, relative, source, _modified_ns(entry)))
    submissions, duplicates = _one_per_pair(found)
    return ClassFolder(
        layout=chosen,
        students=tuple(sorted(students, key=natural_key)),
        submissions=submissions,
        unmatched=tuple(sorted([*unmatched, *duplicates], key=lambda item: natural_key(item.relative))),
    )


def detect_layout(class_dir: Path, problem_ids: Collection[str]) -> Layout:
    """by-problem or by-student, from which one explains more top-level folders; JudgeError when it is a tie."""
    folders = [entry for entry in visible_entries(class_dir) if entry.is_dir(follow_symlinks=False)]
    named_after_problem = sum(folder.name in problem_ids for folder in folders)
    holding_problem_files = sum(
        any(
            entry.is_file(follow_symlinks=False) and Path(entry.name).stem in problem_ids
            for entry in visible_entries(Path(folder.path), missing_ok=True)
        )
        for folder in folders
    )
    if named_after_problem > holding_problem_files:
        return "by-problem"
    if holding_problem_files > named_after_problem:
        return "by-student"
    raise JudgeError(
        f"{class_dir}: cannot tell the layout ({named_after_problem} folders are named after a problem, "
        f"{holding_problem_files} hold a file named after one); name it with --layout by-student or by-problem"
    )


_SHAPES: dict[Layout, str] = {
    "by-student": "<student>/<problem>.<ext>",
    "by-problem": "<problem>/<student>.<ext>",
}


def _mode(entry: os.DirEntry[str]) -> int:
    """The entry's own type and permissions (lstat); a link reports itself, never what it points to."""
    try:
        return entry.stat(follow_symlinks=False).st_mode
    except OSError:  # removed while the folder was being read
        return 0


def _why_not_gradable(path: Path, problem_id: str, problem_ids: Collection[str]) -> str:
    """Empty when the file can be judged, else the reason; the language check is the judge's own detection."""
    if problem_id not in problem_ids:
        return f"no problem with id {problem_id!r}"
    try:
        detect_language(path)
    except SubmissionError:
        return f"no language has the extension {path.suffix!r}"
    return ""


def _one_per_pair(found: list[Submission]) -> tuple[tuple[Submission, ...], list[Unmatched]]:
    """One file per (student, problem): the most recently modified (a stray older copy is the usual cause; ties go
    to the first in natural order). Each other file is listed, naming the student, the problem and the file graded."""
    by_pair: dict[tuple[str, str], list[Submission]] = {}
    for submission in sorted(found, key=lambda item: natural_key(item.relative)):
        by_pair.setdefault((submission.student, submission.problem_id), []).append(submission)
    kept, ambiguous = [], []
    for (student, problem_id), files in by_pair.items():
        graded = max(files, key=lambda item: item.modified_ns)  # max keeps the first of equals
        kept.append(graded)
        for other in files:
            if other is not graded:
                ambiguous.append(
                    Unmatched(
                        other.relative,
                        f"ambiguous: {student} has {len(files)} files for problem "
                        f"{problem_id}; graded {graded.relative}, the most recently "
                        f"modified (remove the others)",
                    )
                )
    ordered = sorted(kept, key=lambda item: (natural_key(item.student), natural_key(item.problem_id)))
    return tuple(ordered), ambiguous


def _modified_ns(entry: os.DirEntry[str]) -> int:
    try:
        return entry.stat(follow_symlinks=False).st_mtime_ns
    except OSError:
        return 0
