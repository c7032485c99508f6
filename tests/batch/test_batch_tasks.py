"""A batch task carries its submission as one record, `languages.sources.SourceFiles` (issue 40): read once where
the batch starts, judged on the worker as it came, never written to the worker's disk and read back. So a file
over the cap is named as the submission names it, not by a path in the worker's temporary folder, and a stored
result's source hash is what it was when the record had two forms."""

from __future__ import annotations

import pickle
from pathlib import Path

from conftest import write_problem

from judge.batch.packing import ProblemPack
from judge.batch.tasks import SubmissionTask, run_task
from judge.languages.sources import SourceFiles
from judge.options import RunOptions
from judge.problems.folder import load_problem
from judge.verdicts import Verdict

MAIN = b"from helper import answer\nprint(answer(input()))\n"
HELPER = b"def answer(line):\n    return sum(map(int, line.split()))\n"


def _pack(tmp_path: Path, **spec: object) -> ProblemPack:
    return ProblemPack.of(load_problem(write_problem(tmp_path / "add", {"1": ("1 2\n", "3\n")}, id="add", **spec)))


def test_a_folder_read_once_is_judged_on_the_worker_as_it_came(tmp_path: Path) -> None:
    folder = tmp_path / "kim"
    folder.mkdir()
    (folder / "main.py").write_bytes(MAIN)
    (folder / "helper.py").write_bytes(HELPER)
    files = SourceFiles.read(folder, 64 * 1024)
    assert files == SourceFiles("kim", MAIN, "main.py", (("helper.py", HELPER, False),))

    for path in folder.iterdir():  # the worker needs nothing of the disk it was read from
        path.unlink()
    task = pickle.loads(pickle.dumps(SubmissionTask("kim", "kim", files, _pack(tmp_path), RunOptions())))
    outcome = run_task(task)

    assert (outcome.verdict, outcome.error) == (Verdict.AC, "")


def test_a_source_over_a_cap_lowered_since_it_was_read_is_refused_by_its_own_name(tmp_path: Path) -> None:
    """`judge serve` judging a stored source again after the teacher lowered source_limit."""
    source = SourceFiles("add.py", b"print(3)\n" + b"#" * 2048)
    outcome = run_task(SubmissionTask("kim", "add.py", source, _pack(tmp_path, source_limit=1), RunOptions()))

    assert outcome.verdict is Verdict.JE
    assert outcome.error == (
        "add.py: is larger than the 1 KiB source limit; shorten it, or raise the cap (source_limit in problem.yaml, "
        "or --source-limit)"
    )


def test_the_source_hash_a_result_is_stored_under_is_unchanged() -> None:
    """Pinned from batch/packing.SourceFile before the two records became one: a rerun of `judge grade` on the same
    version finds its rows current."""
    folder = SourceFiles("prog", MAIN, "main.py", (("helper.py", HELPER, False), ("run", b"#!/bin/sh\n", True)))
    assert folder.sha256 == "a254c4bdb992c82c8cb8a2ba84fe4f5b4a288ebeef6ff6eeb975be32b098d739"
    assert SourceFiles("a.py", b"print(1)\n").sha256 == (
        "cc42155088fca5730758db72b2a5bca33112a941dfaa2d43098ec422ce4ea213"
    )
