"""Which scheduler addresses `judge grade` / `verify --scheduler` accept, and with what credentials.

`tls://HOST:PORT` needs the cluster folder (`--cluster-dir`). A plain `tcp://` scheduler runs the Python of anyone
who reaches it, so it is refused unless it is on this machine's loopback (a cluster the teacher started here, as
the tests do) or `--insecure` says the network is trusted.
"""

from __future__ import annotations

import ipaddress
import re
from pathlib import Path

from msgspec import Struct

from judge.cluster.files import ClusterFiles
from judge.errors import JudgeError

ADDRESS = re.compile(r"(?P<scheme>[a-z]+)://(?P<host>\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+):(?P<port>[0-9]{1,5})")


class SchedulerAddress(Struct, frozen=True):
    """`scheme://host:port`, checked for its form (host is bare, without an IPv6 address's brackets)."""

    scheme: str
    host: str
    port: int

    def __str__(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"{self.scheme}://{host}:{self.port}"

    @property
    def on_loopback(self) -> bool:
        if self.host == "localhost":
            return True
        try:
            return ipaddress.ip_address(self.host).is_loopback
        except ValueError:  # a host name: where it leads is not known here
            return False


class SchedulerTarget(Struct, frozen=True):
    """Where to send the work, and the cluster folder that lets this client in (None for plain tcp)."""

    address: SchedulerAddress
    files: ClusterFiles | None


def parse_address(text: str, option: str) -> SchedulerAddress:
    """`text` as a `tls://` or `tcp://` address; anything else is one line naming `option`."""
    match = ADDRESS.fullmatch(text.strip())
    if match is None or match["scheme"] not in ("tls", "tcp") or not 0 < int(match["port"]) < 65536:
        raise JudgeError(f"{option} {text}: not an address like tls://HOST:PORT")
    return SchedulerAddress(match["scheme"], match["host"].strip("[]"), int(match["port"]))


def scheduler_target(text: str, cluster_dir: Path | None, insecure: bool) -> SchedulerTarget:
    """What `--scheduler TEXT --cluster-dir DIR [--insecure]` asks for, once it is safe and its files work."""
    address = parse_address(text, "--scheduler")
    if address.scheme == "tls":
        if insecure:
            raise JudgeError(f"--insecure is for a plain tcp:// scheduler; {address} is TLS: drop --insecure")
        if cluster_dir is None:
            raise JudgeError(
                f"--scheduler {address} needs --cluster-dir DIR: the folder judge cluster init made, "
                "copied to this machine"
            )
        return SchedulerTarget(address, ClusterFiles(cluster_dir).checked())
    if cluster_dir is not None:
        raise JudgeError(f"--cluster-dir is for a tls:// scheduler; use tls://{str(address).partition('://')[2]}")
    if not (address.on_loopback or insecure):
        raise JudgeError(
            f"--scheduler {address}: plain tcp lets anyone who reaches the scheduler run code on every "
            f"worker; start it with judge cluster scheduler and give tls://... --cluster-dir DIR "
            f"(or --insecure on a network only you use)"
        )
    return SchedulerTarget(address, None)
