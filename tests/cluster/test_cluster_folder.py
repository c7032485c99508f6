"""A cluster folder is this account's alone (issue 39, item 14), by the rule `judge serve`'s data folder follows
(judge/private_folder.py): one another account owns (even with its key 0600), one others may write in, or one
holding a link is refused in one line, by `judge cluster scheduler`, `worker` and `--cluster-dir` alike."""

from __future__ import annotations

import os
import pwd
import re
import shutil
from pathlib import Path

import pytest
from grade_helpers import judge_main
from nonroot import hand_over

pytest.importorskip("distributed")
pytest.importorskip("cryptography")

from judge.cluster.address import scheduler_target  # noqa: E402 -- after the skips: needs the dask extra
from judge.cluster.certificates import make_cluster_files  # noqa: E402
from judge.cluster.files import ClusterFiles  # noqa: E402
from judge.errors import JudgeError  # noqa: E402

OWN_FIX = "copy the folder judge cluster init made as the account that uses it"


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> ClusterFiles:
    return make_cluster_files(tmp_path_factory.mktemp("made") / "cluster", days=30)


def _copy(made: ClusterFiles, folder: Path) -> ClusterFiles:
    """A copy as `scp -rp` makes it: the folder 0700, the key 0600."""
    shutil.copytree(made.folder, folder)
    return ClusterFiles(folder)


def _refused(files: ClusterFiles, capsys: pytest.CaptureFixture[str]) -> str:
    """The one line each way of using the folder refuses it with (all three say the same)."""
    with pytest.raises(JudgeError) as refused:
        files.checked()
    line = str(refused.value)
    assert "\n" not in line and OWN_FIX in line, line
    with pytest.raises(JudgeError, match=f"^{re.escape(line)}$"):
        scheduler_target("tls://127.0.0.1:8786", files.folder, insecure=False)
    capsys.readouterr()
    assert judge_main("cluster", "scheduler", files.folder, "--host", "127.0.0.1", "--port", "0") == 2
    stderr = capsys.readouterr().err
    assert stderr.count("\n") == 1 and line in stderr and "Traceback" not in stderr, stderr
    return line


def test_a_cluster_folder_another_account_owns_is_refused_though_its_key_is_0600(
        made: ClusterFiles, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    if os.geteuid() != 0:
        pytest.skip("only root can give a folder to another account")
    theirs = _copy(made, tmp_path / "theirs")
    hand_over(theirs.folder, pwd.getpwnam("nobody").pw_uid)
    assert _refused(theirs, capsys).startswith(f"{theirs.folder}: owned by nobody")
    key_only = _copy(made, tmp_path / "key-only")
    os.chown(key_only.key, pwd.getpwnam("nobody").pw_uid, -1)
    assert _refused(key_only, capsys).startswith(f"{key_only.key}: owned by nobody")


@pytest.mark.parametrize("mode", [0o770, 0o777, 0o1777])
def test_a_cluster_folder_others_may_write_in_is_refused(made: ClusterFiles, tmp_path: Path, mode: int,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    files = _copy(made, tmp_path / "cluster")
    files.folder.chmod(mode)
    assert _refused(files, capsys).startswith(f"{files.folder}: other accounts may write in it")


def test_a_cluster_folder_with_a_linked_key_is_refused(made: ClusterFiles, tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    files = _copy(made, tmp_path / "cluster")
    files.key.rename(tmp_path / "key-elsewhere.pem")
    files.key.symlink_to(tmp_path / "key-elsewhere.pem")
    assert _refused(files, capsys).startswith(f"{files.key}: a symbolic link")


def test_a_copy_of_this_accounts_own_is_accepted_and_left_as_it_is(made: ClusterFiles, tmp_path: Path) -> None:
    files = _copy(made, tmp_path / "cluster")
    before = {path.name: path.stat().st_mode for path in (files.folder, files.ca, files.certificate, files.key)}
    assert files.checked() == files
    assert {path.name: path.stat().st_mode for path in (files.folder, files.ca, files.certificate, files.key)} == before
