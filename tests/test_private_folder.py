"""judge/private_folder.py, the rule `judge serve`'s data folder and `judge cluster`'s folder share (issue 39): a
folder is used only when it and everything in it is this account's, nobody else may write in it or swap it, and
nothing in it is a link; the files written there are the owner's alone whatever the umask."""

from __future__ import annotations

import os
import pwd
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from judge.errors import JudgeError
from judge.private_folder import (
    check_private_folder,
    claim_private_folder,
    create_private_file,
    read_private_file,
    write_private_file,
)

FIX = "the fix"


@pytest.fixture
def no_umask() -> Iterator[None]:
    previous = os.umask(0)
    try:
        yield
    finally:
        os.umask(previous)


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.lstat().st_mode)


def _refusal(folder: Path) -> str:
    with pytest.raises(JudgeError) as refused:
        check_private_folder(folder, FIX)
    message = str(refused.value)
    assert message.endswith(f"; {FIX}") and "\n" not in message
    return message


def test_a_missing_folder_is_made_0700_and_its_files_0600_whatever_the_umask(tmp_path: Path, no_umask: None) -> None:
    folder = tmp_path / "made" / "data"
    claim_private_folder(folder, FIX)
    write_private_file(folder / "secret.txt", b"s3cret\n")
    create_private_file(folder / "db.sqlite")
    assert _mode(folder) == 0o700 and _mode(folder / "secret.txt") == 0o600 and _mode(folder / "db.sqlite") == 0o600
    assert read_private_file(folder / "secret.txt", FIX) == b"s3cret\n"
    assert read_private_file(folder / "missing.txt", FIX) is None
    assert sorted(path.name for path in folder.iterdir()) == ["db.sqlite", "secret.txt"]  # no partial file left


def test_a_folder_of_ours_that_others_may_only_read_is_tightened(tmp_path: Path, no_umask: None) -> None:
    folder = tmp_path / "data"
    (folder / "export").mkdir(parents=True, mode=0o755)
    folder.chmod(0o755)
    (folder / "serve.sqlite").write_bytes(b"")
    (folder / "serve.sqlite").chmod(0o644)
    (folder / "export" / "grades.csv").write_bytes(b"")
    (folder / "export" / "grades.csv").chmod(0o640)
    claim_private_folder(folder, FIX)
    assert [_mode(path) for path in (folder, folder / "export")] == [0o700, 0o700]
    assert [_mode(path) for path in (folder / "serve.sqlite", folder / "export" / "grades.csv")] == [0o600, 0o600]


def test_a_folder_others_may_write_in_or_holding_a_link_or_a_fifo_is_refused_and_left_as_it_is(
        tmp_path: Path) -> None:
    writable = tmp_path / "writable"
    writable.mkdir()
    writable.chmod(0o775)
    assert _refusal(writable) == f"{writable}: other accounts may write in it (mode 0775); {FIX}"
    with pytest.raises(JudgeError):
        claim_private_folder(writable, FIX)
    assert _mode(writable) == 0o775
    nested = tmp_path / "nested"
    (nested / "export").mkdir(parents=True, mode=0o700)
    nested.chmod(0o700)
    (nested / "export" / "report.html").write_bytes(b"")
    (nested / "export" / "report.html").chmod(0o666)
    assert _refusal(nested).startswith(f"{nested / 'export' / 'report.html'}: other accounts may write in it")
    linked = tmp_path / "linked"
    linked.mkdir(mode=0o700)
    (linked / "session-key.txt").symlink_to("/etc/hostname")
    assert _refusal(linked).startswith(f"{linked / 'session-key.txt'}: a symbolic link")
    fifo = tmp_path / "fifo"
    fifo.mkdir(mode=0o700)
    os.mkfifo(fifo / "passwords.csv", 0o600)
    assert _refusal(fifo).startswith(f"{fifo / 'passwords.csv'}: is a FIFO")
    (tmp_path / "real").mkdir(mode=0o700)
    (tmp_path / "alias").symlink_to(tmp_path / "real")
    assert _refusal(tmp_path / "alias").startswith(f"{tmp_path / 'alias'}: a symbolic link")


def test_a_folder_another_account_owns_or_with_a_file_it_owns_is_refused(tmp_path: Path) -> None:
    if os.geteuid() != 0:
        pytest.skip("only root can give a folder to another account")
    nobody = pwd.getpwnam("nobody").pw_uid
    theirs = tmp_path / "theirs"
    theirs.mkdir(mode=0o700)
    os.chown(theirs, nobody, nobody)
    assert _refusal(theirs).startswith(f"{theirs}: owned by nobody (uid {nobody}), not by root (uid 0)")
    ours = tmp_path / "ours"
    ours.mkdir(mode=0o700)
    (ours / "key.pem").write_bytes(b"")
    (ours / "key.pem").chmod(0o600)
    os.chown(ours / "key.pem", nobody, nobody)
    assert _refusal(ours).startswith(f"{ours / 'key.pem'}: owned by nobody")


def test_a_folder_inside_one_anyone_may_write_in_is_refused_unless_that_one_is_sticky(tmp_path: Path) -> None:
    shared = tmp_path / "shared"
    (shared / "data").mkdir(parents=True, mode=0o700)
    shared.chmod(0o777)
    assert _refusal(shared / "data").startswith(f"{shared}: other accounts may write in this folder above")
    shared.chmod(0o1777)  # as /tmp: nobody may rename or remove another's folder in it
    check_private_folder(shared / "data", FIX)


def test_a_folder_under_one_another_account_owns_is_refused(tmp_path: Path) -> None:
    """The second review: that account may rename our folder away while the judge runs and put its own in its place
    (a database with a password hash of its choosing), even when no other account may write in the folder above."""
    if os.geteuid() != 0:
        pytest.skip("only root can give a folder to another account")
    nobody = pwd.getpwnam("nobody").pw_uid
    theirs = tmp_path / "theirs"
    (theirs / "data").mkdir(parents=True, mode=0o700)
    theirs.chmod(0o755)
    os.chown(theirs, nobody, nobody)
    assert _refusal(theirs / "data").startswith(f"{theirs}: owned by nobody (uid {nobody}), a folder above")
    os.chown(theirs, 0, 0)
    check_private_folder(theirs / "data", FIX)


def test_a_write_replaces_a_link_at_its_path_and_never_writes_through_it(tmp_path: Path) -> None:
    target = tmp_path / "target"
    target.write_text("untouched\n")
    folder = tmp_path / "data"
    folder.mkdir(mode=0o700)
    (folder / "teacher-secret.txt").symlink_to(target)
    write_private_file(folder / "teacher-secret.txt", b"new\n")
    assert target.read_text() == "untouched\n"
    assert not (folder / "teacher-secret.txt").is_symlink()
    assert (folder / "teacher-secret.txt").read_bytes() == b"new\n"
    (folder / "session-key.txt").symlink_to(target)
    with pytest.raises(JudgeError, match=r"session-key.txt: is a symbolic link; the fix$"):
        read_private_file(folder / "session-key.txt", FIX)
    (folder / "serve.sqlite").symlink_to(tmp_path / "nowhere")
    create_private_file(folder / "serve.sqlite")  # O_EXCL: a dangling link is not created through
    assert not (tmp_path / "nowhere").exists()
