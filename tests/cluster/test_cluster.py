"""The judge's Dask cluster is mutual TLS (issue 21): `judge cluster init` makes a private folder of certificates,
a cluster started with them runs code only for a client holding them, and `--scheduler` refuses a plain tcp
scheduler off loopback. The cluster here is in-process (LocalCluster, threads), so the file takes seconds; the
slow tests/cluster/test_grade_dask.py grades on `judge cluster scheduler` / `worker` processes."""

from __future__ import annotations

import os
import socket
import ssl
import stat
from pathlib import Path

import pytest
from grade_helpers import judge_main, stored_rows, write_class, write_problems

distributed = pytest.importorskip("distributed")
pytest.importorskip("cryptography")

from judge.cluster.address import scheduler_target  # noqa: E402 -- after the skips: needs the dask extra
from judge.cluster.certificates import make_cluster_files  # noqa: E402
from judge.cluster.files import ClusterFiles  # noqa: E402
from judge.errors import JudgeError  # noqa: E402

REFUSED = (OSError, TimeoutError)  # Dask's CommClosedError is an OSError


@pytest.fixture(scope="module")
def cluster_files(tmp_path_factory: pytest.TempPathFactory) -> ClusterFiles:
    return make_cluster_files(tmp_path_factory.mktemp("made") / "cluster", days=30)


@pytest.fixture(scope="module")
def other_files(tmp_path_factory: pytest.TempPathFactory) -> ClusterFiles:
    """A second `init`: a valid folder, of another cluster."""
    return make_cluster_files(tmp_path_factory.mktemp("other") / "cluster", days=30)


@pytest.fixture(scope="module")
def tls_cluster(cluster_files: ClusterFiles):
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False, protocol="tls",
                                  security=cluster_files.security(), host="127.0.0.1",
                                  dashboard_address="127.0.0.1:0") as local:
        yield local.scheduler_address


def one_line_error(capsys: pytest.CaptureFixture[str]) -> str:
    stderr = capsys.readouterr().err
    assert stderr.count("\n") == 1 and "Traceback" not in stderr, stderr
    return stderr


def test_init_makes_a_private_folder_whose_key_only_its_owner_reads(tmp_path: Path, capsys) -> None:
    folder = tmp_path / "deep" / "cluster"
    assert judge_main("cluster", "init", folder) == 0
    files = ClusterFiles(folder)
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    assert stat.S_IMODE(files.key.stat().st_mode) == 0o600
    assert sorted(path.name for path in folder.iterdir()) == ["ca.pem", "cluster-key.pem", "cluster.pem"]
    assert not any(b"PRIVATE KEY" in path.read_bytes() for path in (files.ca, files.certificate))  # no CA key kept
    assert files.checked() == files
    capsys.readouterr()
    assert judge_main("cluster", "init", folder) == 2  # never overwrites a cluster's files
    assert "not empty" in one_line_error(capsys)
    assert files.checked() == files


def test_init_keeps_the_key_private_whatever_the_umask(tmp_path: Path) -> None:
    previous = os.umask(0)
    try:
        files = make_cluster_files(tmp_path / "cluster", days=30)
    finally:
        os.umask(previous)
    assert stat.S_IMODE(files.key.stat().st_mode) == 0o600 and stat.S_IMODE(files.folder.stat().st_mode) == 0o700


def test_a_client_with_the_certificate_runs_code(tls_cluster: str, cluster_files: ClusterFiles) -> None:
    assert tls_cluster.startswith("tls://")
    with distributed.Client(tls_cluster, security=cluster_files.security(), timeout="10s") as client:
        assert client.submit(sum, [1, 2, 3]).result(timeout=30) == 6


def test_a_client_over_plain_tcp_runs_nothing(tls_cluster: str) -> None:
    with pytest.raises(REFUSED):
        with distributed.Client(tls_cluster.replace("tls://", "tcp://"), timeout="3s") as client:
            client.submit(sum, [1, 2, 3]).result(timeout=3)


def test_a_client_with_another_clusters_certificate_runs_nothing(tls_cluster: str, other_files: ClusterFiles) -> None:
    with pytest.raises(REFUSED):
        with distributed.Client(tls_cluster, security=other_files.security(), timeout="3s") as client:
            client.submit(sum, [1, 2, 3]).result(timeout=3)


def test_a_tls_client_without_a_certificate_is_refused_in_the_handshake(tls_cluster: str,
                                                                        cluster_files: ClusterFiles) -> None:
    """Trusting the cluster's CA is not enough: the scheduler drops a client that shows no certificate, and
    keeps the same client once it shows the cluster's."""
    def first_byte(with_certificate: bool) -> bytes:
        host, port = tls_cluster.removeprefix("tls://").rsplit(":", 1)
        context = ssl.create_default_context(cafile=cluster_files.ca)
        context.check_hostname = False  # this client trusts the cluster: only its own certificate may be missing
        if with_certificate:
            context.load_cert_chain(cluster_files.certificate, cluster_files.key)
        with socket.create_connection((host, int(port)), timeout=10) as raw, \
                context.wrap_socket(raw, server_hostname=host) as connection:
            return connection.recv(1)  # TLS 1.3: a refusal arrives after the client's side of the handshake

    assert first_byte(with_certificate=True) != b""  # let in: Dask's server sends its handshake first
    with pytest.raises(ssl.SSLError):
        first_byte(with_certificate=False)


def test_grade_connects_with_the_cluster_folder(tls_cluster: str, cluster_files: ClusterFiles, tmp_path: Path,
                                                capsys) -> None:
    """The whole path through `--scheduler tls:// --cluster-dir`, judged by the in-process worker."""
    problems = write_problems(tmp_path / "problems")
    root = write_class(tmp_path / "class", {"alice": {"add.py": "add_ac", "mul.py": "mul_wa"}})
    code = judge_main("grade", problems, root, "--out", tmp_path / "out", "--scheduler", tls_cluster,
                      "--cluster-dir", cluster_files.folder, "--sandbox", "none")
    assert code == 0, capsys.readouterr().err
    assert {pair: verdict for pair, (verdict, _) in stored_rows(tmp_path / "out").items()} == {
        ("alice", "add"): "AC", ("alice", "mul"): "WA"}


def test_grade_with_another_clusters_folder_is_one_line(tls_cluster: str, other_files: ClusterFiles,
                                                        tmp_path: Path, capsys) -> None:
    problems = write_problems(tmp_path / "problems")
    root = write_class(tmp_path / "class", {"alice": {"add.py": "add_ac"}})
    code = judge_main("grade", problems, root, "--out", tmp_path / "out", "--scheduler", tls_cluster,
                      "--cluster-dir", other_files.folder)
    assert code == 2 and "cannot reach a Dask scheduler there" in one_line_error(capsys)


def test_a_worker_with_another_clusters_folder_is_one_line(tls_cluster: str, other_files: ClusterFiles,
                                                           capsys) -> None:
    assert judge_main("cluster", "worker", other_files.folder, tls_cluster) == 2
    assert "no scheduler of this cluster answers there" in one_line_error(capsys)


@pytest.mark.parametrize("address", ["tcp://192.0.2.7:8786", "tcp://judge-scheduler.example:8786",
                                     "tcp://[2001:db8::1]:8786"])
def test_plain_tcp_off_loopback_is_refused_before_connecting(address: str, tmp_path: Path, capsys) -> None:
    problems = write_problems(tmp_path / "problems")
    root = write_class(tmp_path / "class", {"alice": {"add.py": "add_ac"}})
    assert judge_main("grade", problems, root, "--out", tmp_path / "out", "--scheduler", address) == 2
    assert "plain tcp lets anyone who reaches the scheduler run code" in one_line_error(capsys)
    assert judge_main("verify", "--problems-dir", problems, "--scheduler", address) == 2
    assert "plain tcp" in one_line_error(capsys)
    assert not (tmp_path / "out").exists()


def test_which_addresses_are_accepted(cluster_files: ClusterFiles) -> None:
    assert scheduler_target("tcp://127.0.0.1:8786", None, insecure=False).files is None
    assert scheduler_target("tcp://[::1]:8786", None, insecure=False).files is None
    assert scheduler_target("tcp://localhost:8786", None, insecure=False).files is None
    assert str(scheduler_target("tcp://192.0.2.7:8786", None, insecure=True).address) == "tcp://192.0.2.7:8786"
    assert scheduler_target("tls://192.0.2.7:8786", cluster_files.folder, insecure=False).files == cluster_files
    for text, cluster_dir, insecure, said in [
        ("tls://192.0.2.7:8786", None, False, "needs --cluster-dir"),
        ("tls://192.0.2.7:8786", cluster_files.folder, True, "drop --insecure"),
        ("tcp://127.0.0.1:8786", cluster_files.folder, False, "use tls://127.0.0.1:8786"),
        ("192.0.2.7:8786", None, False, "not an address like tls://HOST:PORT"),
        ("ucx://192.0.2.7:8786", None, False, "not an address like"),
        ("tls://192.0.2.7:99999", None, False, "not an address like"),
        ("tls://192.0.2.7", None, False, "not an address like"),
    ]:
        with pytest.raises(JudgeError, match=said):
            scheduler_target(text, cluster_dir, insecure)


def test_wrong_cluster_folders_are_one_line_naming_the_file(tmp_path: Path, cluster_files: ClusterFiles,
                                                            other_files: ClusterFiles) -> None:
    def copy(name: str, *, key_from: ClusterFiles = cluster_files,
             certificate_from: ClusterFiles = cluster_files) -> ClusterFiles:
        files = ClusterFiles(tmp_path / name)
        files.folder.mkdir(mode=0o700)
        files.ca.write_bytes(cluster_files.ca.read_bytes())
        files.certificate.write_bytes(certificate_from.certificate.read_bytes())
        files.key.write_bytes(key_from.key.read_bytes())
        files.key.chmod(0o600)
        return files

    mismatched = copy("mismatched", key_from=other_files)
    foreign = copy("foreign", key_from=other_files, certificate_from=other_files)
    readable = copy("readable")
    readable.key.chmod(0o640)
    garbage = copy("garbage")
    garbage.certificate.write_text("not a certificate\n")
    missing = copy("missing")
    missing.ca.unlink()
    for files, said in [(ClusterFiles(tmp_path / "nowhere"), f"{tmp_path / 'nowhere'}: no such folder"),
                        (mismatched, f"{mismatched.key}: not the key of {mismatched.certificate}"),
                        (foreign, f"{foreign.certificate}: not signed by {foreign.ca}"),
                        (readable, f"{readable.key}: other users may read this key"),
                        (garbage, f"{garbage.certificate}: not what judge cluster init wrote"),
                        (missing, f"{missing.ca}: missing")]:
        with pytest.raises(JudgeError) as refused:
            files.checked()
        assert str(refused.value).startswith(said) and "\n" not in str(refused.value)


def test_cluster_worker_refuses_plain_tcp_and_a_missing_folder(tmp_path: Path, cluster_files: ClusterFiles,
                                                               capsys) -> None:
    assert judge_main("cluster", "worker", cluster_files.folder, "tcp://192.0.2.7:8786") == 2
    assert "the cluster speaks TLS only; give tls://192.0.2.7:8786" in one_line_error(capsys)
    assert judge_main("cluster", "scheduler", tmp_path / "nowhere") == 2
    assert "no such folder" in one_line_error(capsys)


def test_an_expired_folder_says_so_and_how_to_renew(cluster_files: ClusterFiles, monkeypatch) -> None:
    import datetime
    import types

    import judge.cluster.files

    class AfterExpiry(datetime.datetime):
        @classmethod
        def now(cls, tz: datetime.tzinfo | None = None) -> datetime.datetime:  # type: ignore[override]
            return datetime.datetime.now(tz) + datetime.timedelta(days=31)  # the fixture's folder lasts 30 days

    monkeypatch.setattr(judge.cluster.files, "datetime",
                        types.SimpleNamespace(datetime=AfterExpiry, UTC=datetime.UTC))
    with pytest.raises(JudgeError, match=r"ca\.pem: valid only from .* UTC; run judge cluster init again"):
        cluster_files.checked()


def test_a_scheduler_on_a_busy_port_is_one_line(cluster_files: ClusterFiles, capsys) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert judge_main("cluster", "scheduler", cluster_files.folder, "--host", "127.0.0.1", "--port", port) == 2
    assert f"tls://127.0.0.1:{port}: cannot serve there" in one_line_error(capsys)
