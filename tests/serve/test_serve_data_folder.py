"""`--data DIR` is the server's alone (issue 39, items 3-5): a folder another local account made (with its own
teacher's secret and session key in it), one others may write in, or one holding a link is refused in one line
before anything is read or written; a fresh one is 0700 with every file 0600 (the database, its -wal and -shm,
the secrets, passwords.csv, the export); one of the server's own account that others may only read is tightened.

Each test starts a real `judge serve`. The tests run as root in CI; another account is played by `nobody`."""

from __future__ import annotations

import os
import pwd
import stat
from pathlib import Path

import pytest
from http_session import signed_in
from nonroot import hand_over
from serve_fixtures import URL_LINE, running_server, start_server, stop_server, write_problems, write_roster

from judge.serve.exports import EXPORT_FILES

ATTACKER_SECRET = "chosen-by-another-account"


def _other_uid() -> int:
    if os.geteuid() != 0:
        pytest.skip("only root can make a folder another account owns")
    return pwd.getpwnam("nobody").pw_uid


def _inputs(tmp_path: Path, roster_text: str | None = None) -> tuple[Path, Path]:
    problems = write_problems(tmp_path / "problems")
    roster = tmp_path / "roster.csv"
    if roster_text is None:
        write_roster(roster)
    else:
        roster.write_text(roster_text, encoding="utf-8")
    return problems, roster


def _refused(tmp_path: Path, data: Path, roster_text: str | None = None) -> str:
    """The one line a real `judge serve` on `data` exits 2 with (the test fails if the server starts serving)."""
    problems, roster = _inputs(tmp_path, roster_text)
    process = start_server(problems, roster, data)
    try:
        assert process.stderr is not None
        lines = []
        for line in process.stderr:  # until it exits (end of file), or says where it serves
            if URL_LINE.search(line):
                pytest.fail(f"judge serve started on {data}: {line.strip()}")
            lines.append(line)
        assert process.wait(timeout=60) == 2, lines
        assert len(lines) == 1 and "Traceback" not in lines[0], lines
        line = lines[0].removeprefix("judge: ")
        assert f"{data}" in line, line
        return line
    finally:
        stop_server(process)


def _modes(folder: Path) -> dict[str, int]:
    """Every entry under `folder` (and the folder, as "."), by relative path, with its permission bits."""
    found = {".": stat.S_IMODE(folder.lstat().st_mode)}
    for path in folder.rglob("*"):
        found[str(path.relative_to(folder))] = stat.S_IMODE(path.lstat().st_mode)
    return found


def _private_file(path: Path, text: str) -> None:
    path.write_text(text, encoding="utf-8")
    path.chmod(0o600)


def test_a_data_folder_another_account_made_with_the_teachers_secret_in_it_is_refused(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir(mode=0o700)
    _private_file(data / "teacher-secret.txt", ATTACKER_SECRET + "\n")
    _private_file(data / "session-key.txt", ATTACKER_SECRET + "-key\n")
    hand_over(data, _other_uid())
    line = _refused(tmp_path, data)
    assert "owned by nobody" in line and "give --data a folder of this account's alone" in line
    assert ATTACKER_SECRET not in line


def test_a_file_of_another_account_in_the_servers_own_folder_is_refused(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir(mode=0o700)
    _private_file(data / "session-key.txt", ATTACKER_SECRET + "\n")
    os.chown(data / "session-key.txt", _other_uid(), -1)
    assert _refused(tmp_path, data).startswith(f"{data / 'session-key.txt'}: owned by nobody")


@pytest.mark.parametrize(("folder_mode", "file_mode"), [(0o770, 0o600), (0o707, 0o600), (0o700, 0o620)])
def test_a_data_folder_others_may_write_in_is_refused(tmp_path: Path, folder_mode: int, file_mode: int) -> None:
    data = tmp_path / "data"
    data.mkdir()
    _private_file(data / "teacher-secret.txt", "ours\n")
    (data / "teacher-secret.txt").chmod(file_mode)
    data.chmod(folder_mode)
    assert "other accounts may write in it" in _refused(tmp_path, data)


def test_a_data_folder_in_a_folder_anyone_may_write_in_is_refused(tmp_path: Path) -> None:
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o777)  # not sticky: anyone may rename data away and put their own folder in its place
    line = _refused(tmp_path, shared / "data")
    assert line.startswith(f"{shared}: other accounts may write in this folder above {shared / 'data'}")
    assert not (shared / "data").exists() or not any((shared / "data").iterdir())


def test_a_link_planted_as_the_passwords_partial_file_is_refused_and_its_target_unchanged(tmp_path: Path) -> None:
    target = tmp_path / "root-only.conf"
    _private_file(target, "root's own settings\n")
    data = tmp_path / "data"
    data.mkdir(mode=0o700)
    (data / ".passwords.csv.partial").symlink_to(target)
    line = _refused(tmp_path, data, roster_text="id,name\nkim,Kim Minji\n")  # kim's password is generated
    assert line.startswith(f"{data / '.passwords.csv.partial'}: a symbolic link")
    assert target.read_text(encoding="utf-8") == "root's own settings\n"
    assert not (data / "passwords.csv").exists()


def test_a_link_planted_as_export_is_refused(tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    data = tmp_path / "data"
    data.mkdir(mode=0o700)
    (data / "export").symlink_to(elsewhere)
    assert _refused(tmp_path, data).startswith(f"{data / 'export'}: a symbolic link")
    assert not any(elsewhere.iterdir())


@pytest.mark.slow  # 3.0 s here: a server of its own (the default run keeps to ten minutes)
def test_a_fresh_data_folder_and_everything_in_it_only_its_owner_reads(tmp_path: Path) -> None:
    write_roster(tmp_path / "roster.csv", (("kim", "Kim Minji", ""), ("lee", "Lee Jun", "lee-password")))
    with running_server(tmp_path) as server:
        secret = (server.data / "teacher-secret.txt").read_text(encoding="utf-8").strip()
        teacher = signed_in(server.url, "teacher", secret)
        assert teacher.post_form("teacher/export", {}) == 200
        modes = _modes(server.data)
    expected = {"serve.sqlite", "serve.sqlite-wal", "serve.sqlite-shm", "teacher-secret.txt", "session-key.txt",
                "passwords.csv", "serve.lock", "export", *(f"export/{name}" for name in EXPORT_FILES)}
    assert expected <= set(modes), sorted(modes)
    folders = {".", "export"}
    assert {name: mode for name, mode in modes.items() if name in folders} == dict.fromkeys(folders, 0o700)
    assert {name: mode for name, mode in modes.items() if name not in folders} == {
        name: 0o600 for name in modes if name not in folders}


def test_an_export_goes_into_the_data_folder_even_when_export_became_a_link(tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    with running_server(tmp_path) as server:
        teacher = signed_in(server.url, "teacher",
                            (server.data / "teacher-secret.txt").read_text(encoding="utf-8").strip())
        (server.data / "export").symlink_to(elsewhere)  # after the start's check
        assert teacher.post_form("teacher/export", {}) == 200
        status, grades = teacher.get("teacher/export/grades.csv")
    assert not any(elsewhere.iterdir())
    export = server.data / "export"
    assert not export.is_symlink() and export.is_dir()
    assert status == 200 and grades.decode("utf-8-sig").startswith("student,name,sum,")  # the roster's names (issue 42)
    assert sorted(path.name for path in export.iterdir()) == sorted(EXPORT_FILES)


def test_a_folder_of_the_servers_own_that_others_may_read_is_tightened_and_kept(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    data.chmod(0o755)  # made by an earlier judge serve under umask 022
    (data / "teacher-secret.txt").write_text("the-secret-we-had\n", encoding="utf-8")
    (data / "teacher-secret.txt").chmod(0o644)
    with running_server(tmp_path, data=data) as server:
        signed_in(server.url, "teacher", "the-secret-we-had")
        modes = _modes(data)
    assert modes.pop(".") == 0o700 and set(modes.values()) == {0o600}, modes
