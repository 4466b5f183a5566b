"""Who this device is in the classroom fleet, and the broker's files.

A device joins the fleet with a *fleet file* (TOML): ``tabletop --fleet FILE``,
``$TABLETOP_FLEET``, or ``/etc/tabletop/fleet.toml`` when it exists. Without one the
device runs on its own, as before::

    device = "station-3"        # this device's id: its MQTT user and its topics
    host = "teacher.local"      # the broker (mosquitto on the teacher's device)
    port = 8883                 # default: 8883 with a ca, 1883 without
    password = "…"              # or password_file = "/etc/tabletop/fleet.pass"
    prefix = "tabletop"         # optional: two classrooms on one broker
    ca = '''-----BEGIN CERTIFICATE-----
    …'''                        # the classroom's authority: TLS, the broker checked

The teacher's console uses a fleet file too, with ``device = "teacher"``.

:func:`provision` writes everything a classroom needs in one folder (``tabletop fleet
setup``): a mosquitto configuration with authentication and the ACL (each station may
write only its own topics; only the teacher's console may write the plan, the clocks and
the class list), the password file (mosquitto's own PBKDF2-SHA512 format, so
``mosquitto_passwd`` is not needed), the broker's TLS certificate and key
(:mod:`tabletop.classroom.fleet.tls`), and one fleet file per device with its own random
password and the classroom's authority certificate. :class:`Broker` runs mosquitto on
that configuration (tests, and a laptop without systemd).
"""

from __future__ import annotations

import base64
import contextlib
import getpass
import hashlib
import os
import secrets
import shutil
import socket
import subprocess
import time
import tomllib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tabletop.classroom.fleet.messages import DEFAULT_PREFIX, MAX_BYTES, Topics, check_device
from tabletop.classroom.fleet.tls import client_context, make_certificates
from tabletop.engine.errors import BadInput, DeviceError

TEACHER = "teacher"
DEFAULT_FILE = Path("/etc/tabletop/fleet.toml")
ENV = "TABLETOP_FLEET"
HASH_ITERATIONS = 101  # mosquitto_passwd's own default for "$7$"
PLAIN_PORT = 1883
TLS_PORT = 8883
CA_FILE = "ca.crt"  # the classroom's authority (public: a browser may trust it too)
CERT_FILE = "server.crt"  # the broker's certificate
KEY_FILE = "server.key"  # and its key (the broker's only)


@dataclass(frozen=True)
class FleetConfig:
    """One device's place in the fleet (see the module docstring)."""

    device: str
    host: str = "localhost"
    port: int = PLAIN_PORT
    password: str = ""
    prefix: str = DEFAULT_PREFIX
    keepalive: int = 10  # seconds: the broker publishes the will after 1.5x this
    ca: str = ""  # the classroom authority's certificate (PEM): TLS when given

    def __post_init__(self) -> None:
        check_device(self.device)
        Topics(self.prefix)
        if isinstance(self.port, bool) or not isinstance(self.port, int):
            raise BadInput("fleet.port", f"the port must be a number, not {self.port!r}")
        if not 0 < self.port < 65536:
            raise BadInput("fleet.port", f"the port {self.port} is not 1..65535")
        if not isinstance(self.host, str) or not self.host:
            raise BadInput("fleet.host", "the broker's host name is missing")
        if not isinstance(self.ca, str):
            raise BadInput("fleet.ca", "'ca' must be the certificate's PEM text")
        if self.ca:
            client_context(self.ca)

    @property
    def tls(self) -> bool:
        return bool(self.ca)

    def login(self, client: Any) -> None:
        """Give a paho client this device's user name and password and, with a ``ca``,
        TLS that trusts only the classroom's broker."""
        client.username_pw_set(self.device, self.password)
        if self.ca:
            client.tls_set_context(client_context(self.ca))

    def client(self, client_id: str, **options: Any) -> Any:
        """A paho client of this device, logged in (:meth:`login`), speaking MQTT 5: a
        broker that closes it because another client connected with its id says so (the
        reason "Session taken over", 0x8E), where MQTT 3.1.1 just closed the connection.
        Messages, topics, the ACL and client ids are the same in both, and clients of
        3.1.1 (older versions) go on beside it."""
        import paho.mqtt.client as mqtt
        from paho.mqtt.enums import CallbackAPIVersion

        client = mqtt.Client(
            CallbackAPIVersion.VERSION2, client_id=client_id, protocol=mqtt.MQTTv5, **options
        )
        self.login(client)
        return client

    def connect(self, client: Any, *, keep: bool = False) -> None:
        """Connect ``client`` (:meth:`client`) in the background. ``keep``: the broker
        keeps its session (subscriptions, and the messages queued for it) while it is
        away, for ever, as 3.1.1's ``clean_session=False`` did; else each connection
        starts clean."""
        from paho.mqtt.packettypes import PacketTypes
        from paho.mqtt.properties import Properties

        asked = Properties(PacketTypes.CONNECT)  # type: ignore[no-untyped-call] # (paho's)
        if keep:
            asked.SessionExpiryInterval = 0xFFFFFFFF  # never expires
        client.connect_async(
            self.host, self.port, self.keepalive, clean_start=not keep, properties=asked
        )

    @property
    def topics(self) -> Topics:
        return Topics(self.prefix)

    @property
    def teacher(self) -> bool:
        return self.device == TEACHER

    @classmethod
    def load(cls, path: Path | str) -> FleetConfig:
        """Read a fleet file; :class:`BadInput` names what is wrong in it."""
        path = Path(path)
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except OSError as exc:
            raise BadInput(
                "fleet.file", f"the fleet file {path} cannot be read: {exc.strerror or exc}"
            ) from exc
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
            raise BadInput("fleet.file", f"the fleet file {path} is not TOML: {exc}") from exc
        known = {"device", "host", "port", "password", "password_file", "prefix", "keepalive", "ca"}
        unknown = sorted(set(data) - known)
        if unknown:
            raise BadInput("fleet.file", f"{path}: unknown setting {unknown[0]!r}")
        if "device" not in data:
            raise BadInput("fleet.file", f"{path}: 'device' is missing")
        password = data.get("password", "")
        if "password_file" in data:
            secret = Path(str(data["password_file"]))
            if not secret.is_absolute():
                secret = path.parent / secret
            try:
                password = secret.read_text(encoding="utf-8").strip()
            except OSError as exc:
                raise BadInput(
                    "fleet.file",
                    f"{path}: the password file {secret} cannot be read: {exc.strerror or exc}",
                ) from exc
        try:
            return cls(
                device=data["device"],
                host=data.get("host", "localhost"),
                port=data.get("port", TLS_PORT if data.get("ca") else PLAIN_PORT),
                password=str(password),
                prefix=data.get("prefix", DEFAULT_PREFIX),
                keepalive=int(data.get("keepalive", 10)),
                ca=data.get("ca", ""),
            )
        except BadInput as exc:
            raise BadInput(exc.code, f"{path}: {exc.message}") from exc

    def toml(self) -> str:
        return (
            f'device = "{self.device}"\n'
            f'host = "{self.host}"\n'
            f"port = {self.port}\n"
            f'password = "{self.password}"\n'
            f'prefix = "{self.prefix}"\n'
            + (f"ca = '''\n{self.ca.strip()}\n'''\n" if self.ca else "")
        )


def find_config(explicit: Path | str | None = None) -> FleetConfig | None:
    """The fleet file given, else ``$TABLETOP_FLEET``, else :data:`DEFAULT_FILE` if it
    exists; None: this device runs alone."""
    chosen = explicit or os.environ.get(ENV)
    if chosen:
        return FleetConfig.load(chosen)
    if DEFAULT_FILE.exists():
        return FleetConfig.load(DEFAULT_FILE)
    return None


# -- the broker's files -----------------------------------------------------------------------


def password_hash(password: str, *, salt: bytes | None = None) -> str:
    """``password`` as a line of mosquitto's password file needs it (``$7$``: PBKDF2 with
    SHA-512, mosquitto 2's format)."""
    salt = salt if salt is not None else secrets.token_bytes(12)
    digest = hashlib.pbkdf2_hmac("sha512", password.encode(), salt, HASH_ITERATIONS)
    return (
        f"$7${HASH_ITERATIONS}${base64.b64encode(salt).decode()}$"
        f"{base64.b64encode(digest).decode()}"
    )


def acl_text(prefix: str = DEFAULT_PREFIX) -> str:
    """The broker's ACL: the teacher's console reads and writes the whole prefix; every
    station reads the teacher's topics and the console's answers to its own results
    (``ack``), and writes only its own status and results (so no station can forge an
    answer, not even to itself)."""
    Topics(prefix)
    return (
        "# tabletop classroom fleet: who may read and write what (mosquitto acl_file)\n"
        "# Every station (its user name is its device id):\n"
        f"pattern read {prefix}/teacher/#\n"
        f"pattern write {prefix}/station/%u/status\n"
        f"pattern write {prefix}/station/%u/result\n"
        f"pattern read {prefix}/station/%u/ack\n"
        "\n"
        "# The teacher's console:\n"
        f"user {TEACHER}\n"
        f"topic readwrite {prefix}/#\n"
    )


def mosquitto_conf(
    folder: Path, *, port: int = TLS_PORT, bind: str = "", user: str = "", tls: bool = True
) -> str:
    """A mosquitto configuration for the fleet: one listener (TLS with the certificate
    and key in ``folder``, unless ``tls`` is False), no anonymous clients, the password
    file and the ACL in ``folder``, retained messages kept across restarts. ``user``: the
    account mosquitto runs as when started by root (default: its own ``mosquitto`` user,
    which must be able to read the password file and the key)."""
    listener = f"listener {port} {bind}".rstrip()
    certificates = (
        f"cafile {folder / CA_FILE}\ncertfile {folder / CERT_FILE}\nkeyfile {folder / KEY_FILE}\n"
        if tls
        else ""
    )
    return (
        "# tabletop classroom fleet (written by `tabletop fleet setup`)\n"
        + (f"user {user}\n" if user else "")
        + "per_listener_settings false\n"
        f"{listener}\n" + certificates + "allow_anonymous false\n"
        f"password_file {folder / 'passwd'}\n"
        f"acl_file {folder / 'acl'}\n"
        "persistence true\n"
        f"persistence_location {folder}/\n"
        "max_inflight_messages 20\n"
        "max_queued_messages 1000\n"
        f"max_packet_size {MAX_BYTES + 1024}\n"  # the largest message and its topic
    )


@dataclass(frozen=True)
class Provisioned:
    folder: Path
    conf: Path
    teacher: FleetConfig
    stations: tuple[FleetConfig, ...]

    def config(self, device: str) -> FleetConfig:
        for c in (self.teacher, *self.stations):
            if c.device == device:
                return c
        raise KeyError(device)

    def file(self, device: str) -> Path:
        """The fleet file :func:`provision` wrote for ``device``."""
        return self.folder / f"{self.config(device).device}.toml"


def provision(
    folder: Path | str,
    devices: Sequence[str],
    *,
    host: str = "localhost",
    port: int | None = None,
    prefix: str = DEFAULT_PREFIX,
    bind: str = "",
    user: str = "",
    tls: bool = True,
) -> Provisioned:
    """Write the broker's configuration, password file and ACL, its TLS certificate and
    key (a new classroom authority; ``tls=False``: none, plain MQTT), and a fleet file per
    device (``teacher.toml``, ``<device>.toml``; readable by their owner only) in
    ``folder``. Every device gets a new random password. ``port``: 8883 with TLS, 1883
    without, unless given."""
    folder = Path(folder).resolve()
    names = [check_device(d) for d in devices]
    if TEACHER in names:
        raise BadInput("fleet.device", f"{TEACHER!r} is the console's name, not a station's")
    if len(set(names)) != len(names):
        raise BadInput("fleet.device", "a device id is listed twice")
    if port is None:
        port = TLS_PORT if tls else PLAIN_PORT
    FleetConfig(TEACHER, host=host, port=port, prefix=prefix)  # checked before any file
    made = make_certificates(host) if tls else None
    from tabletop.outfiles import out_folder

    out_folder(folder)  # made if need be, in a folder that is there; else one line
    ca = ""
    if made is not None:
        ca = made.ca
        (folder / CA_FILE).write_text(made.ca, encoding="utf-8")
        (folder / CERT_FILE).write_text(made.cert, encoding="utf-8")
        _private(folder / KEY_FILE, made.key)
    else:
        for stale in (CA_FILE, CERT_FILE, KEY_FILE):  # an older setup's: not this one's
            (folder / stale).unlink(missing_ok=True)
    configs = [
        FleetConfig(
            d, host=host, port=port, password=secrets.token_urlsafe(18), prefix=prefix, ca=ca
        )
        for d in (TEACHER, *names)
    ]
    _private(
        folder / "passwd", "".join(f"{c.device}:{password_hash(c.password)}\n" for c in configs)
    )
    (folder / "acl").write_text(acl_text(prefix), encoding="utf-8")
    conf = folder / "mosquitto.conf"
    conf.write_text(
        mosquitto_conf(folder, port=port, bind=bind, user=user, tls=tls), encoding="utf-8"
    )
    for c in configs:
        _private(folder / f"{c.device}.toml", c.toml())
    return Provisioned(folder, conf, configs[0], tuple(configs[1:]))


def _private(path: Path, text: str) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(text)


# -- running mosquitto ------------------------------------------------------------------------


def mosquitto_binary() -> str | None:
    return shutil.which("mosquitto") or next(
        (p for p in ("/usr/sbin/mosquitto", "/usr/local/sbin/mosquitto") if Path(p).exists()),
        None,
    )


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_listening(
    port: int, *, process: subprocess.Popen[Any] | None = None, timeout: float = 10.0
) -> bool:
    """Wait until something listens on loopback ``port``: True; False after ``timeout``
    seconds, or at once when ``process`` (the server started) has stopped."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process is not None and process.poll() is not None:
            return False
        with (
            contextlib.suppress(OSError),
            socket.create_connection(("127.0.0.1", port), timeout=0.2),
        ):
            return True
        time.sleep(0.05)
    return False


class Broker:
    """mosquitto on loopback with a provisioned configuration: ``start()``, ``stop()``
    (the outage in tests), ``start()`` again on the same port and files."""

    def __init__(self, provisioned: Provisioned, *, log: Path | None = None) -> None:
        self.provisioned = provisioned
        self.port = provisioned.teacher.port
        self.log = log or provisioned.folder / "mosquitto.log"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self, timeout: float = 10.0) -> None:
        binary = mosquitto_binary()
        if binary is None:
            raise DeviceError(
                "fleet.no_broker", "mosquitto is not installed: sudo apt-get install -y mosquitto"
            )
        with open(self.log, "ab") as out:
            self.process = subprocess.Popen(
                [binary, "-c", str(self.provisioned.conf)], stdout=out, stderr=out
            )
        if wait_listening(self.port, process=self.process, timeout=timeout):
            return
        if self.process.poll() is not None:
            raise DeviceError(
                "fleet.broker",
                f"mosquitto stopped at start (exit {self.process.returncode}); see {self.log}",
            )
        self.stop()
        raise DeviceError("fleet.broker", f"mosquitto did not listen on port {self.port}")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(5)
        self.process = None

    def kill(self) -> None:
        """SIGKILL, as a power cut: mosquitto saves nothing it had not saved yet."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(5)
        self.process = None

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def __enter__(self) -> Broker:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


@contextlib.contextmanager
def loopback_broker(
    folder: Path | str,
    devices: Sequence[str],
    *,
    prefix: str = DEFAULT_PREFIX,
    tls: bool = True,
) -> Iterator[Broker]:
    """A provisioned mosquitto on a free loopback port, stopped at the end."""
    provisioned = provision(
        folder,
        devices,
        host="127.0.0.1",
        port=free_port(),
        prefix=prefix,
        bind="127.0.0.1",
        user=getpass.getuser(),  # run as whoever owns the files
        tls=tls,
    )
    broker = Broker(provisioned)
    broker.start()
    try:
        yield broker
    finally:
        broker.stop()


__all__ = [
    "CA_FILE",
    "CERT_FILE",
    "DEFAULT_FILE",
    "ENV",
    "KEY_FILE",
    "PLAIN_PORT",
    "TEACHER",
    "TLS_PORT",
    "Broker",
    "FleetConfig",
    "Provisioned",
    "acl_text",
    "find_config",
    "free_port",
    "loopback_broker",
    "mosquitto_binary",
    "mosquitto_conf",
    "password_hash",
    "provision",
    "wait_listening",
]
