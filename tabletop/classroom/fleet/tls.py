"""TLS for the classroom fleet: the classroom's own certificate authority, the broker's
certificate, and the clients' side.

``tabletop fleet setup`` makes a new authority for each classroom, signs one certificate
for the broker with it, and throws the authority's key away: no one can sign another
certificate that the stations would trust, and a new setup is a new authority. Every
fleet file carries the authority's certificate (``ca``), so a station trusts exactly
its classroom's broker and checks the broker's name, as a browser does.

A Raspberry Pi has no battery clock, and a classroom network may have no time server:
the certificates are valid from 2020 and do not expire (RFC 5280's 9999-12-31), so a
station whose clock is behind or ahead still connects.
"""

from __future__ import annotations

import datetime
import ipaddress
import logging
import re
import socket
import ssl
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from tabletop.engine.errors import BadInput

Clock = Callable[[], float]

if TYPE_CHECKING:
    from cryptography import x509

VALID_FROM = datetime.datetime(2020, 1, 1, tzinfo=datetime.UTC)
VALID_UNTIL = datetime.datetime(9999, 12, 31, 23, 59, 59, tzinfo=datetime.UTC)
LOOPBACK = ("localhost", "127.0.0.1", "::1")
_HOST = re.compile(r"(?!-)[A-Za-z0-9-]{1,63}(?<!-)(\.(?!-)[A-Za-z0-9-]{1,63}(?<!-))*\.?")


@dataclass(frozen=True)
class Certificates:
    """PEM texts: the authority's certificate (for every fleet file) and the broker's
    certificate and private key (for mosquitto only)."""

    ca: str
    cert: str
    key: str


def make_certificates(host: str, *, classroom: str = "tabletop classroom") -> Certificates:
    """A new authority and the broker's certificate for ``host`` (a name or an address),
    also valid for this computer's loopback names so a console beside the broker can use
    them. The authority's key is not kept."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

    def name(common: str) -> x509.Name:
        return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common)])

    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca_name = name(f"{classroom} authority")
    ca = (
        x509.CertificateBuilder()
        .subject_name(ca_name)
        .issuer_name(ca_name)
        .public_key(ca_key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(VALID_FROM)
        .not_valid_after(VALID_UNTIL)
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .add_extension(_usage(cert_sign=True), critical=True)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(ca_key.public_key()), False)
        .sign(ca_key, hashes.SHA256())
    )
    key = ec.generate_private_key(ec.SECP256R1())
    cert = (
        x509.CertificateBuilder()
        .subject_name(name(host))
        .issuer_name(ca_name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(VALID_FROM)
        .not_valid_after(VALID_UNTIL)
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(_usage(cert_sign=False), critical=True)
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), False)
        .add_extension(x509.SubjectAlternativeName(_alt_names(host)), critical=False)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), False)
        .add_extension(
            x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()), False
        )
        .sign(ca_key, hashes.SHA256())
    )
    pem = serialization.Encoding.PEM
    return Certificates(
        ca=ca.public_bytes(pem).decode(),
        cert=cert.public_bytes(pem).decode(),
        key=key.private_bytes(
            pem, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
        ).decode(),
    )


def _usage(*, cert_sign: bool) -> x509.KeyUsage:
    from cryptography import x509

    return x509.KeyUsage(
        digital_signature=not cert_sign,
        content_commitment=False,
        key_encipherment=False,
        data_encipherment=False,
        key_agreement=False,
        key_cert_sign=cert_sign,
        crl_sign=cert_sign,
        encipher_only=False,
        decipher_only=False,
    )


def _alt_names(host: str) -> list[x509.GeneralName]:
    from cryptography import x509

    names: list[x509.GeneralName] = []
    for h in dict.fromkeys((host, *LOOPBACK)):
        try:
            names.append(x509.IPAddress(ipaddress.ip_address(h)))
        except ValueError:
            names.append(x509.DNSName(dns_name(h)))
    return names


def dns_name(host: str) -> str:
    """``host`` as a certificate names it (``école.local`` -> ``xn--cole-9oa.local``, as
    Python's ssl sends it); :class:`BadInput` when it cannot be a host name."""
    try:
        name = host.encode("idna").decode("ascii")
    except UnicodeError:
        name = ""
    if not _HOST.fullmatch(name):
        raise BadInput(
            "fleet.host",
            f"{host!r} is not a host name or address: use letters, digits, '-' and '.' "
            "(e.g. teacher.local or 192.168.1.20)",
        )
    return name


def client_context(ca: str) -> ssl.SSLContext:
    """A client's TLS context that trusts only the classroom's authority and checks the
    broker's name; :class:`BadInput` when ``ca`` is not a certificate."""
    try:
        return ssl.create_default_context(cadata=ca)
    except (ssl.SSLError, ValueError) as exc:
        raise BadInput(
            "fleet.ca", f"'ca' is not a certificate (PEM text from `tabletop fleet setup`): {exc}"
        ) from None


def why_unreachable(exc: BaseException | None, host: str, port: int) -> str:
    """What went wrong connecting to the broker, as a log line says it."""
    where = f"{host}:{port}"
    if isinstance(exc, ssl.SSLCertVerificationError):
        detail = getattr(exc, "verify_message", None) or exc
        return (
            f"the broker at {where} is not this classroom's ({detail}); "
            "the fleet file must come from the same `tabletop fleet setup` as the broker's "
            "files, with --host naming the broker as the stations reach it"
        )
    if isinstance(exc, ssl.SSLError):
        detail = getattr(exc, "reason", None) or exc
        return (
            f"no TLS from {where} ({detail}): is it the broker's TLS port "
            "(8883 from `tabletop fleet setup`)?"
        )
    if isinstance(exc, socket.gaierror):
        return f"the name {host!r} is not known on this network"
    if isinstance(exc, ConnectionRefusedError):
        return f"nothing listens at {where}: is the broker running?"
    if isinstance(exc, TimeoutError):
        return f"no answer from {where}"
    if isinstance(exc, OSError):
        return f"cannot reach {where}: {exc.strerror or exc}"
    return f"cannot reach {where}"


def hung_up(host: str, port: int, *, tls: bool) -> str:
    """What a log line says when the broker closed the connection before any answer."""
    why = f"the broker at {host}:{port} hung up before it answered"
    if tls:
        return why
    return (
        f"{why}: if it uses TLS (port 8883), this fleet file has no 'ca'; use the one "
        "from the same `tabletop fleet setup` as the broker's files"
    )


TAKEN_OVER = "Session taken over"  # MQTT 5's reason 0x8E: another client took this one's id


def why_lost(reason: object) -> str:
    """Why a connection that worked ended, as a log line says it (paho names a dropped
    connection "Unspecified error")."""
    name = str(reason)
    if name == "Unspecified error":
        return "the connection dropped: the broker stopped, or the network failed"
    if name == "Keep alive timeout":
        return "the broker stopped answering (keep-alive timeout)"
    return name


class RetryLog:
    """The log of a connection that keeps failing (paho tries again every few seconds):
    a reason is logged when it is new, and the same reason again at most once a minute,
    with the tries so far. An hour's outage is about 60 lines, not 800."""

    def __init__(
        self, log: logging.Logger, who: str, *, every: float = 60.0, clock: Clock = time.monotonic
    ) -> None:
        self.log, self.who, self.every, self.clock = log, who, every, clock
        self.tries = 0
        self._said: str | None = None
        self._at = 0.0

    def failed(self, why: str, level: int = logging.WARNING) -> None:
        self.tries += 1
        now = self.clock()
        if why == self._said and now - self._at < self.every:
            return
        again = f" (try {self.tries})" if why == self._said else ""
        self.log.log(level, "%s: %s; trying again%s", self.who, why, again)
        self._said, self._at = why, now

    def connected(self) -> None:
        """The next failure is news again."""
        self.tries, self._said = 0, None


__all__ = [
    "LOOPBACK",
    "TAKEN_OVER",
    "VALID_FROM",
    "VALID_UNTIL",
    "Certificates",
    "RetryLog",
    "client_context",
    "dns_name",
    "hung_up",
    "make_certificates",
    "why_lost",
    "why_unreachable",
]
