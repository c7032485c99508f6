"""The cluster folder `judge cluster init` makes, the same on every machine of the cluster:

    ca.pem            the cluster's CA: a peer is let in only with a certificate it signed
    cluster.pem       the certificate every member (scheduler, worker, `judge grade`) shows
    cluster-key.pem   its private key (mode 0600): whoever holds it can run code on every worker

`checked` refuses, in one line naming the file, a folder that is not this account's alone (judge.private_folder:
another account owns it or a file in it, or may write in it, or it holds a link), and what Dask would otherwise
report as a handshake that failed somewhere: a missing file, a key another user may read, a key that is not the
certificate's, a certificate from another `init`, an expired one.
"""

from __future__ import annotations

import datetime
import stat
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from msgspec import Struct

from judge.errors import JudgeError
from judge.private_folder import check_private_folder

if TYPE_CHECKING:
    from distributed.security import Security

Parsed = TypeVar("Parsed")

FIX = "make the folder with judge cluster init DIR and copy all of it to this machine"
OWN_FIX = "copy the folder judge cluster init made as the account that uses it (scp -rp), keeping it 0700"


class ClusterFiles(Struct, frozen=True):
    """The paths of a cluster folder's three files."""

    folder: Path

    @property
    def ca(self) -> Path:
        return self.folder / "ca.pem"

    @property
    def certificate(self) -> Path:
        return self.folder / "cluster.pem"

    @property
    def key(self) -> Path:
        return self.folder / "cluster-key.pem"

    def checked(self) -> ClusterFiles:
        """These files, once they are known to make a working member of one cluster (JudgeError otherwise)."""
        try:
            from cryptography import x509
            from cryptography.exceptions import InvalidSignature
            from cryptography.hazmat.primitives.serialization import load_pem_private_key
        except ImportError:
            raise JudgeError(
                f"{self.folder}: checking a cluster's certificates needs cryptography: pip install 'judge[dask]'"
            ) from None
        if not self.folder.is_dir():
            raise JudgeError(f"{self.folder}: no such folder; {FIX}")
        check_private_folder(self.folder, OWN_FIX)
        for path in (self.ca, self.certificate, self.key):
            if not path.is_file():
                raise JudgeError(f"{path}: missing; {FIX}")
        if self.key.stat().st_mode & (stat.S_IRWXG | stat.S_IRWXO):
            raise JudgeError(
                f"{self.key}: other users may read this key, and with it run code on every worker; chmod 600 {self.key}"
            )
        ca = _parsed(self.ca, x509.load_pem_x509_certificate)
        certificate = _parsed(self.certificate, x509.load_pem_x509_certificate)
        key = _parsed(self.key, lambda data: load_pem_private_key(data, password=None))
        if key.public_key() != certificate.public_key():
            raise JudgeError(f"{self.key}: not the key of {self.certificate}; {FIX}")
        try:
            certificate.verify_directly_issued_by(ca)
        except (ValueError, TypeError, InvalidSignature):
            raise JudgeError(
                f"{self.certificate}: not signed by {self.ca} (the two come from different "
                f"judge cluster init runs); {FIX}"
            ) from None
        now = datetime.datetime.now(datetime.UTC)
        for path, each in ((self.ca, ca), (self.certificate, certificate)):
            if not each.not_valid_before_utc <= now <= each.not_valid_after_utc:
                raise JudgeError(
                    f"{path}: valid only from {each.not_valid_before_utc:%Y-%m-%d %H:%M} to "
                    f"{each.not_valid_after_utc:%Y-%m-%d %H:%M} UTC; run judge cluster init again "
                    "and copy the new folder to every machine"
                )
        return self

    def security(self) -> Security:
        """Dask's mutual TLS with these files, for whichever role this process plays; plain tcp refused."""
        from distributed.security import Security

        files = {"cert": str(self.certificate), "key": str(self.key)}
        roles = {
            f"tls_{role}_{kind}": path for role in ("client", "scheduler", "worker") for kind, path in files.items()
        }
        return Security(tls_ca_file=str(self.ca), require_encryption=True, **roles)


def _parsed(path: Path, parse: Callable[[bytes], Parsed]) -> Parsed:
    """`parse` (a cryptography PEM loader) applied to the file, or one line naming it."""
    try:
        return parse(path.read_bytes())
    except OSError as error:
        raise JudgeError(f"{path}: cannot read it ({error.strerror}); {FIX}") from None
    except (ValueError, TypeError):
        raise JudgeError(f"{path}: not what judge cluster init wrote there (unreadable PEM); {FIX}") from None
