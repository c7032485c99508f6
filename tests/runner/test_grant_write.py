"""`Bubblewrap.grant_write`: the program folder, all of it, becomes the box user's before the compile step writes
into it, without following a link out of it (a link there could name any file of the judge's)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from judge.runner.sandbox import BOX_UID, Bubblewrap


@pytest.mark.skipif(os.geteuid() != 0, reason="only a judge that is root hands files to the box's uid")
def test_every_file_and_folder_inside_becomes_the_box_users_and_no_link_is_followed(tmp_path: Path) -> None:
    outside = tmp_path / "outside.txt"
    outside.write_text("the judge's own")
    program = tmp_path / "program"
    (program / "pkg" / "deeper").mkdir(parents=True)
    (program / "Main.java").write_text("class Main {}")
    (program / "pkg" / "deeper" / "Util.java").write_text("class Util {}")
    (program / "escape").symlink_to(outside)
    (program / "escape-folder").symlink_to(tmp_path)

    Bubblewrap(executable="/usr/bin/bwrap", syscall_filter=None, setpriv="/usr/bin/setpriv").grant_write(program)

    inside = [program, *program.rglob("*")]
    assert len(inside) == 7
    assert all(path.lstat().st_uid == BOX_UID and path.lstat().st_gid == BOX_UID for path in inside)
    assert outside.stat().st_uid == os.geteuid()
    assert tmp_path.stat().st_uid == os.geteuid()


def test_a_judge_that_is_not_root_changes_nothing(tmp_path: Path) -> None:
    program = tmp_path / "program"
    program.mkdir()
    (program / "Main.py").write_text("print(1)")
    before = {path: path.lstat().st_uid for path in (program, program / "Main.py")}

    Bubblewrap(executable="/usr/bin/bwrap", syscall_filter=None, setpriv=None).grant_write(program)

    assert {path: path.lstat().st_uid for path in before} == before
