"""The teacher's export on a full data folder (issue 40): one line on the teacher's page, naming the data folder
and what to do, never a server error; after the space is freed, the same button exports.

A real `judge serve` whose `--data` is a small tmpfs, filled for real (root only: skipped otherwise)."""

from __future__ import annotations

import re
import urllib.error
import urllib.parse
from pathlib import Path

from conftest import fill_disk, resize_tmpfs
from http_session import CSRF_META, Session, signed_in
from serve_fixtures import running_server

from judge.serve.exports import EXPORT_FILES


def _post_export(teacher: Session) -> tuple[int, str]:
    """(status, page) of the teacher's export button, as a browser sends it."""
    status, page = teacher.get("teacher")
    found = CSRF_META.search(page.decode())
    assert status == 200 and found, (status, page[:200])
    body = urllib.parse.urlencode({"csrf": found.group(1)}).encode()
    try:
        with teacher.opener.open(teacher.url + "teacher/export", data=body, timeout=300) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def test_an_export_on_a_full_data_folder_is_one_line_on_the_page_and_exports_once_there_is_room(
        tmp_path: Path, tmpfs: Path) -> None:
    resize_tmpfs(tmpfs, "2m")
    with running_server(tmp_path, data=tmpfs) as server:
        secret = (server.data / "teacher-secret.txt").read_text(encoding="utf-8").strip()
        teacher = signed_in(server.url, "teacher", secret)
        filler = fill_disk(tmpfs)

        status, page = _post_export(teacher)

        assert status == 200, page[:500]  # sent back to the teacher's page (303) with the line
        (message,) = re.findall(r'<p class="message" id="message">([^<]*)</p>', page)
        assert re.fullmatch(rf"not exported: the data folder {re.escape(str(tmpfs))} is full: [^;]+; free space "
                            r"and export again", message), message
        assert not (tmpfs / "export").exists()
        assert [path.name for path in tmpfs.iterdir() if path.name.startswith(".export-")] == []

        filler.unlink()
        status, page = _post_export(teacher)

        assert status == 200, page[:500]
        assert sorted(path.name for path in (tmpfs / "export").iterdir()) == sorted(EXPORT_FILES)
