"""`judge cluster init DIR`: a certificate authority made for one cluster, and the one certificate it signs.

Every machine of the cluster (scheduler, workers, the teacher's `judge grade`) holds the same leaf: Dask checks only
that the peer's certificate chains to the CA, never which role it plays, so per-role certificates would confine
nothing (a worker's key could still act as a client). The CA's private key signs that leaf here and is never
written anywhere: with nothing left to sign it would only be a key to steal. Renewing or revoking is running
`init` again and copying the new folder to every machine, which the old certificates then cannot join.

Keys are ECDSA P-256 (fast to make, accepted by every TLS 1.2+ OpenSSL); the folder is 0700, the key 0600.
"""

from __future__ import annotations

import datetime
import os
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

from judge.cluster.files import ClusterFiles
from judge.errors import JudgeError


def make_cluster_files(folder: Path, days: int) -> ClusterFiles:
    """Create `folder` (mode 0700) holding a new CA's certificate and a leaf certificate and key it signed, both
    valid for `days`."""
    files = ClusterFiles(folder)
    _make_private_folder(folder)
    now = datetime.datetime.now(datetime.UTC)
    valid = (now - datetime.timedelta(minutes=5), now + datetime.timedelta(days=days))  # minutes: clocks differ
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca_name = _name(f"judge cluster CA {now:%Y-%m-%d %H:%M:%S}")
    ca_certificate = (
        _builder(ca_name, ca_name, ca_key.public_key(), valid)
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .add_extension(
            x509.KeyUsage(
                digital_signature=False,
                content_commitment=False,
                key_encipherment=False,
                data_encipherment=False,
                key_agreement=False,
                key_cert_sign=True,
                crl_sign=True,
                encipher_only=False,
                decipher_only=False,
            ),
            critical=True,
        )
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(ca_key.public_key()), critical=False)
        .sign(ca_key, hashes.SHA256())
    )
    leaf_key = ec.generate_private_key(ec.SECP256R1())
    leaf_certificate = (
        _builder(_name("judge cluster member"), ca_name, leaf_key.public_key(), valid)
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(
            x509.KeyUsage(
                digital_signature=True,
                content_commitment=False,
                key_encipherment=False,
                data_encipherment=False,
                key_agreement=True,
                key_cert_sign=False,
                crl_sign=False,
                encipher_only=False,
                decipher_only=False,
            ),
            critical=True,
        )
        .add_extension(
            x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH, ExtendedKeyUsageOID.CLIENT_AUTH]), critical=False
        )
        .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()), critical=False)
        .sign(ca_key, hashes.SHA256())
    )
    _write_new(
        files.key,
        leaf_key.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
        ),
        mode=0o600,
    )
    _write_new(files.certificate, leaf_certificate.public_bytes(serialization.Encoding.PEM), mode=0o644)
    _write_new(files.ca, ca_certificate.public_bytes(serialization.Encoding.PEM), mode=0o644)
    return files


def _make_private_folder(folder: Path) -> None:
    """`folder`, new or empty, mode 0700 whatever the umask; a folder with files in it is never written into."""
    try:
        folder.mkdir(mode=0o700, parents=True)
    except FileExistsError:
        if not folder.is_dir():
            raise JudgeError(f"{folder}: not a folder; give judge cluster init a new folder's name") from None
        if any(folder.iterdir()):
            raise JudgeError(
                f"{folder}: not empty; give judge cluster init a new folder (it never overwrites a cluster's files)"
            ) from None
    except OSError as error:
        raise JudgeError(f"{folder}: cannot create it ({error.strerror}); choose another folder") from None
    folder.chmod(0o700)


def _write_new(path: Path, content: bytes, mode: int) -> None:
    """Write a file that must not exist yet, created with `mode` (so a key is never readable by others, even
    for an instant)."""
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, mode)
    with os.fdopen(descriptor, "wb") as file:
        file.write(content)
    os.chmod(path, mode)  # the umask may have taken bits from a certificate's 0644


def _name(common_name: str) -> x509.Name:
    return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common_name)])


def _builder(
    subject: x509.Name,
    issuer: x509.Name,
    public_key: ec.EllipticCurvePublicKey,
    valid: tuple[datetime.datetime, datetime.datetime],
) -> x509.CertificateBuilder:
    return (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(issuer)
        .public_key(public_key)
        .serial_number(x509.random_serial_number())
        .not_valid_before(valid[0])
        .not_valid_after(valid[1])
    )
