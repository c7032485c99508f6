"""judge.intake: a source is read only as a regular file, reached without a link, and never beyond its cap."""

from __future__ import annotations

import os
import socket
import stat
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from judge.errors import SubmissionError
from judge.intake import Refused, kind_refusal, read_source, size_refusal

KIB = 1024


def _refusal(path: Path, limit: int | None = 64 * KIB, **keywords: object) -> Refused:
    with pytest.raises(Refused) as raised:
        read_source(path, limit, **keywords)
    return raised.value


def test_a_regular_file_is_read_up_to_and_including_the_cap(tmp_path: Path) -> None:
    source = tmp_path / "main.py"
    source.write_bytes(b"x" * KIB)

    assert read_source(source, KIB) == b"x" * KIB
    assert read_source(source, None) == b"x" * KIB
    source.write_bytes(b"x" * (KIB + 1))
    assert _refusal(source, KIB).reason == "is larger than the 1 KiB source limit"
    assert _refusal(source, 1000).reason == "is larger than the 1000 bytes source limit"
    assert _refusal(source, 1000, what="problem.yaml").reason == "is larger than the 1000 bytes problem.yaml limit"


def test_a_symbolic_link_is_refused_whatever_it_points_to(tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("root:$6$hash\n")
    for target in (secret, Path("/proc/self/environ"), Path("/dev/zero"), tmp_path / "nowhere"):
        link = tmp_path / "link.py"
        link.unlink(missing_ok=True)
        link.symlink_to(target)
        refused = _refusal(link)
        assert refused.reason == "is a symbolic link"
        assert "root:" not in str(refused)


@pytest.fixture
def fifo(tmp_path: Path) -> Iterator[Path]:
    path = tmp_path / "9663.py"
    os.mkfifo(path)
    yield path


def test_a_fifo_is_refused_without_waiting_for_a_writer(fifo: Path) -> None:
    outcome: list[BaseException | bytes] = []

    def read() -> None:
        try:
            outcome.append(read_source(fifo, 64 * KIB))
        except BaseException as error:  # noqa: BLE001 -- handed to the test thread
            outcome.append(error)

    reader = threading.Thread(target=read, daemon=True)  # daemon: a regression blocks it, not the test run
    reader.start()
    reader.join(timeout=30)

    assert outcome, "reading a FIFO blocked"
    assert isinstance(outcome[0], Refused) and outcome[0].reason == "is a FIFO"


@pytest.fixture
def short_dir() -> Iterator[Path]:
    """A folder with a short path: a socket's path must fit in 108 bytes, and pytest's tmp_path may not."""
    with tempfile.TemporaryDirectory(prefix="intake-") as name:
        yield Path(name)


def test_devices_sockets_and_directories_are_refused(tmp_path: Path, short_dir: Path) -> None:
    assert _refusal(Path("/dev/null")).reason == "is a device"
    assert _refusal(tmp_path).reason == "is a directory"
    with socket.socket(socket.AF_UNIX) as listening:
        listening.bind(str(short_dir / "s.py"))
        assert _refusal(short_dir / "s.py").reason == "is a socket"


def test_a_file_over_the_cap_is_refused_before_any_byte_is_read(tmp_path: Path, monkeypatch) -> None:
    huge = tmp_path / "huge.py"
    with huge.open("wb") as handle:
        handle.truncate(200 * KIB * KIB)  # sparse: no disk, and reading it would take 200 MiB of memory
    reads: list[int] = []
    real_read = os.read
    monkeypatch.setattr(os, "read", lambda fd, count: reads.append(count) or real_read(fd, count))

    assert _refusal(huge).reason == "is larger than the 64 KiB source limit"
    assert reads == []


def test_a_file_whose_size_is_not_reported_is_read_only_one_byte_past_the_cap(monkeypatch) -> None:
    environ = Path("/proc/self/environ")  # a regular file whose st_size is 0, whatever it holds
    assert os.stat(environ).st_size == 0 and len(environ.read_bytes()) > 16
    returned: list[int] = []
    real_read = os.read

    def counting(fd: int, count: int) -> bytes:
        data = real_read(fd, count)
        returned.append(len(data))
        return data

    monkeypatch.setattr(os, "read", counting)

    assert _refusal(environ, 16).reason == "is larger than the 16 bytes source limit"
    assert sum(returned) == 17


def test_inside_a_folder_no_component_may_be_a_link(tmp_path: Path) -> None:
    class_dir = tmp_path / "class"
    (class_dir / "kim").mkdir(parents=True)
    (class_dir / "kim" / "add.py").write_text("print(3)\n")
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "add.py").write_text("print('other')\n")
    (class_dir / "eve").symlink_to(outside)
    (class_dir / "lee").symlink_to(class_dir / "kim")  # even a link that stays inside

    assert read_source(class_dir / "kim" / "add.py", 64 * KIB, inside=class_dir) == b"print(3)\n"
    for student in ("eve", "lee"):
        assert _refusal(class_dir / student / "add.py", inside=class_dir).reason == "is reached through a symbolic link"
    assert _refusal(outside / "add.py", inside=class_dir).reason.startswith("is not inside ")
    assert _refusal(class_dir / ".." / "outside" / "add.py", inside=class_dir).reason.startswith("is not inside ")
    assert _refusal(class_dir / "kim" / "gone.py", inside=class_dir).reason == "does not exist"


def test_a_class_folder_named_through_a_link_is_still_read(tmp_path: Path) -> None:
    """The folder the teacher names may itself be a link; only what lies below it is the students'."""
    (tmp_path / "real" / "kim").mkdir(parents=True)
    (tmp_path / "real" / "kim" / "add.py").write_text("print(3)\n")
    (tmp_path / "named").symlink_to(tmp_path / "real")

    assert read_source(tmp_path / "named" / "kim" / "add.py", KIB, inside=tmp_path / "named") == b"print(3)\n"


def test_the_refusal_is_one_submission_error_line_naming_the_file_and_the_fix(tmp_path: Path) -> None:
    link = tmp_path / "\x1b[2Jmain\udcff.py"
    link.symlink_to(tmp_path)
    big = tmp_path / "big.py"
    big.write_bytes(b"#" * 2 * KIB)

    refused = _refusal(link)
    assert isinstance(refused, SubmissionError)
    assert str(refused) == f"{tmp_path}/\\x1b[2Jmain\\xff.py: is a symbolic link; give the regular file itself"
    assert str(_refusal(big, KIB)) == (f"{big}: is larger than the 1 KiB source limit; shorten it, or raise the cap "
                                       f"(source_limit in problem.yaml, or --source-limit)")


@pytest.mark.parametrize(("mode", "reason"), [
    (stat.S_IFREG | 0o644, None),
    (stat.S_IFLNK | 0o777, "is a symbolic link"),
    (stat.S_IFIFO | 0o644, "is a FIFO"),
    (stat.S_IFCHR | 0o666, "is a device"),
    (stat.S_IFBLK | 0o660, "is a device"),
    (stat.S_IFSOCK | 0o755, "is a socket"),
    (stat.S_IFDIR | 0o755, "is a directory"),
    (0, "is not a regular file"),
])
def test_kind_refusal(mode: int, reason: str | None) -> None:
    assert kind_refusal(mode) == reason


@pytest.mark.parametrize(("size", "limit", "reason"), [
    (64 * KIB, 64 * KIB, None),
    (64 * KIB + 1, 64 * KIB, "is larger than the 64 KiB source limit"),
    (10**12, None, None),
    (0, 0, None),
])
def test_size_refusal(size: int, limit: int | None, reason: str | None) -> None:
    assert size_refusal(size, limit) == reason
