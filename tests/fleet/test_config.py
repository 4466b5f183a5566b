"""Fleet files and the broker's files: what a device reads and what mosquitto enforces."""

from __future__ import annotations

import dataclasses
import logging
import socket
import ssl
import threading
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest

from tabletop.classroom.fleet.config import (
    CA_FILE,
    CERT_FILE,
    ENV,
    KEY_FILE,
    PLAIN_PORT,
    TLS_PORT,
    Broker,
    FleetConfig,
    find_config,
    password_hash,
    provision,
)
from tabletop.classroom.fleet.tls import RetryLog, hung_up, why_lost, why_unreachable
from tabletop.engine.errors import BadInput
from tests.fleet.clients import raw_client


def _client(broker: Broker, device: str, password: str | None = None) -> mqtt.Client:
    return raw_client(broker.provisioned.config(device), f"test-{device}", password=password)


def _connect_code(client: mqtt.Client, broker: Broker, wait: float = 10) -> mqtt.ReasonCode:
    done = threading.Event()
    codes: list[mqtt.ReasonCode] = []
    client.on_connect = lambda c, u, f, rc, p: (codes.append(rc), done.set())
    client.connect("127.0.0.1", broker.port)
    client.loop_start()
    try:
        assert done.wait(wait)
    finally:
        client.disconnect()
        client.loop_stop()
    return codes[0]


@pytest.mark.parametrize("device", ["teacher", "station-1", "station-8"])
def test_config_broker_accepts_each_device_with_its_password(broker: Broker, device: str) -> None:
    assert not _connect_code(_client(broker, device), broker).is_failure


def test_config_broker_refuses_a_wrong_password(broker: Broker) -> None:
    client = _client(broker, "station-1", password="not-the-password")
    assert _connect_code(client, broker).is_failure


def test_config_fleet_file_round_trip(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    config = FleetConfig("station-3", host="teacher.local", port=1884, password="pw", prefix="r2")
    path = tmp_path / "fleet.toml"
    path.write_text(config.toml(), encoding="utf-8")
    assert FleetConfig.load(path) == FleetConfig(
        "station-3", host="teacher.local", port=1884, password="pw", prefix="r2"
    )
    monkeypatch.setenv(ENV, str(path))
    assert find_config() is not None and find_config().device == "station-3"


def test_config_password_file_beside_the_fleet_file(tmp_path: Path) -> None:
    (tmp_path / "fleet.pass").write_text("secret\n", encoding="utf-8")
    path = tmp_path / "fleet.toml"
    path.write_text('device = "station-1"\npassword_file = "fleet.pass"\n', encoding="utf-8")
    assert FleetConfig.load(path).password == "secret"


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ('host = "x"\n', "'device' is missing"),
        ('device = "Station 1"\n', "device id"),
        ('device = "station-1"\nport = 0\n', "port 0"),
        ('device = "station-1"\nport = "1883"\n', "must be a number"),
        ('device = "station-1"\ncolour = "red"\n', "unknown setting 'colour'"),
        ('device = "station-1"\npassword_file = "missing.pass"\n', "cannot be read"),
        ("device = \n", "not TOML"),
        ('device = "station-1"\nprefix = "a b"\n', "prefix"),
    ],
)
def test_config_bad_fleet_file_is_refused_with_its_reason(
    tmp_path: Path, text: str, says: str
) -> None:
    path = tmp_path / "fleet.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(BadInput) as err:
        FleetConfig.load(path)
    assert says in err.value.message
    assert str(path) in err.value.message


def test_config_a_file_that_cannot_be_read_is_named_once(tmp_path: Path) -> None:
    """The fleet file, or its password file, missing: the reason in words, the path said
    once (before: "... cannot be read: [Errno 2] No such file or directory: '...'")."""
    missing = tmp_path / "fleet.toml"
    with pytest.raises(BadInput) as err:
        FleetConfig.load(missing)
    assert (
        err.value.message == f"the fleet file {missing} cannot be read: No such file or directory"
    )
    missing.write_text('device = "station-1"\npassword_file = "gone.pass"\n', encoding="utf-8")
    with pytest.raises(BadInput) as err:
        FleetConfig.load(missing)
    assert err.value.message.count(str(tmp_path)) == 2  # the fleet file and the password file
    assert err.value.message.endswith("gone.pass cannot be read: No such file or directory")


def test_config_provision_writes_private_files(tmp_path: Path) -> None:
    p = provision(tmp_path / "room", ["station-1", "station-2"], host="10.0.0.5")
    assert {f.name for f in p.folder.iterdir()} >= {
        "mosquitto.conf",
        "passwd",
        "acl",
        "teacher.toml",
        "station-1.toml",
        "station-2.toml",
    }
    for name in ("passwd", "teacher.toml", "station-1.toml"):
        assert (p.folder / name).stat().st_mode & 0o077 == 0
    assert FleetConfig.load(p.folder / "station-2.toml").host == "10.0.0.5"
    assert len({c.password for c in (p.teacher, *p.stations)}) == 3
    with pytest.raises(BadInput):
        provision(tmp_path / "x", ["teacher"])
    with pytest.raises(BadInput):
        provision(tmp_path / "y", ["station-1", "station-1"])


def test_config_password_hash_is_mosquittos_format() -> None:
    line = password_hash("pw", salt=b"0123456789ab")
    assert line.startswith("$7$101$") and line.count("$") == 4


def test_config_fleet_setup_command_writes_every_file(tmp_path: Path, capsys) -> None:
    from tabletop.cli import main

    assert (
        main(["fleet", "setup", "--stations", "3", "--host", "10.0.0.2", "--out", str(tmp_path)])
        == 0
    )
    out = capsys.readouterr().out
    for name in ("mosquitto.conf", "teacher.toml", "station-1.toml", "station-3.toml"):
        assert (tmp_path / name).exists() and name in out
    assert FleetConfig.load(tmp_path / "station-3.toml").host == "10.0.0.2"
    assert main(["fleet", "setup", "--stations", "9", "--out", str(tmp_path / "x")]) == 2
    assert "1 to 8" in capsys.readouterr().err


@pytest.mark.parametrize("host", ["localhost", "127.0.0.1", "::1", "LOCALHOST."])
def test_config_fleet_setup_says_a_loopback_host_reaches_this_computer_only(
    tmp_path: Path, capsys, host: str
) -> None:
    """``--host localhost`` (the default) is right for a try on one computer, but stations
    on other devices cannot reach it: the setup says so (main: nothing, and the install
    printed https://localhost:8443 as the dashboard's address)."""
    from tabletop.cli import main

    assert main(["fleet", "setup", "--stations", "2", "--host", host, "--out", str(tmp_path)]) == 0
    assert capsys.readouterr().err == (
        f"note: --host {host} is reached from this computer only; for stations on other "
        "devices, set up with the name or address they reach it by (--host teacher.local, "
        "say)\n"
    )


def test_config_fleet_setup_says_nothing_of_a_host_others_reach(tmp_path: Path, capsys) -> None:
    from tabletop.cli import main

    for host in ("teacher.local", "10.0.0.2", "localhost-pi"):
        out = tmp_path / host
        assert main(["fleet", "setup", "--stations", "1", "--host", host, "--out", str(out)]) == 0
        assert capsys.readouterr().err == ""


def test_config_fleet_setup_refuses_to_write_over_a_classroom(tmp_path: Path, capsys) -> None:
    """Set up again into the same folder (say, for a sixth station): refused, every file
    kept (main: a new authority and new passwords, so every station already set up from
    the folder stopped connecting, without a word)."""
    from tabletop.cli import main

    assert main(["fleet", "setup", "--stations", "5", "--out", str(tmp_path)]) == 0
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    capsys.readouterr()
    assert main(["fleet", "setup", "--stations", "6", "--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err == (
        f"tabletop fleet: {tmp_path} already holds a classroom (teacher.toml): setting it up"
        " again would give every device a new password, and the stations set up from it would"
        " stop connecting; give another --out folder, or delete that one first\n"
    )
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before


@pytest.mark.parametrize("uid", [0, 1000])
def test_config_fleet_setup_as_root_says_how_to_start_the_broker(
    tmp_path: Path, capsys, monkeypatch: pytest.MonkeyPatch, uid: int
) -> None:
    from tabletop.cli import main

    monkeypatch.setattr("os.geteuid", lambda: uid)
    assert main(["fleet", "setup", "--stations", "1", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert f"start the broker: mosquitto -c {tmp_path / 'mosquitto.conf'}" in out
    said = f"not as root: mosquitto would run as the mosquitto user and could not read {tmp_path}"
    assert (said in out) == (uid == 0)
    assert (f"sudo systemd/install.sh --coordinator --broker-dir {tmp_path}" in out) == (uid == 0)


def test_config_simulate_refuses_a_bad_fleet_file(tmp_path: Path, capsys) -> None:
    from tabletop.cli import main

    bad = tmp_path / "fleet.toml"
    bad.write_text('device = "teacher"\n', encoding="utf-8")
    assert main(["fleet", "simulate", "--fleet", str(bad), "--data", str(tmp_path / "d")]) == 2
    assert "not a station's" in capsys.readouterr().err


# -- TLS ----------------------------------------------------------------------------------


def _certificate(pem: str):
    from cryptography import x509

    return x509.load_pem_x509_certificate(pem.encode())


def test_config_provision_makes_a_classroom_authority_and_the_brokers_certificate(
    tmp_path: Path,
) -> None:
    from cryptography import x509

    p = provision(tmp_path / "room", ["station-1"], host="teacher.local")
    assert p.teacher.port == TLS_PORT and p.teacher.tls
    ca = (p.folder / CA_FILE).read_text(encoding="utf-8")
    assert p.teacher.ca == ca and p.config("station-1").ca == ca
    assert (p.folder / KEY_FILE).stat().st_mode & 0o077 == 0
    # The authority's key is thrown away: the only private key written is the broker's.
    keys = [f.name for f in p.folder.iterdir() if "PRIVATE KEY" in f.read_text("utf-8")]
    assert keys == [KEY_FILE]
    cert = _certificate((p.folder / CERT_FILE).read_text(encoding="utf-8"))
    names = cert.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    assert names.get_values_for_type(x509.DNSName) == ["teacher.local", "localhost"]
    assert [str(a) for a in names.get_values_for_type(x509.IPAddress)] == ["127.0.0.1", "::1"]
    assert cert.issuer == _certificate(ca).subject
    # Valid from 2020 and never expiring: a Pi without a battery clock still connects.
    assert cert.not_valid_before_utc.year == 2020 and cert.not_valid_after_utc.year == 9999
    conf = p.conf.read_text(encoding="utf-8")
    assert f"listener {TLS_PORT}" in conf and f"keyfile {p.folder / KEY_FILE}" in conf
    again = provision(tmp_path / "room", ["station-1"], host="teacher.local")
    assert again.teacher.ca != ca  # a new setup is a new authority


def test_config_certificate_names_the_host_as_ssl_sends_it(tmp_path: Path, capsys) -> None:
    from cryptography import x509

    from tabletop.cli import main

    p = provision(tmp_path / "room", ["station-1"], host="école.local")
    cert = _certificate((p.folder / CERT_FILE).read_text(encoding="utf-8"))
    names = cert.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    assert names.get_values_for_type(x509.DNSName)[0] == "xn--cole-9oa.local"
    out = tmp_path / "bad"
    assert main(["fleet", "setup", "--stations", "2", "--host", "my pi", "--out", str(out)]) == 2
    assert "'my pi' is not a host name or address" in capsys.readouterr().err
    assert not out.exists()  # nothing written


def test_config_provision_without_tls_writes_no_certificates(tmp_path: Path) -> None:
    provision(tmp_path / "room", ["station-1"])
    p = provision(tmp_path / "room", ["station-1"], tls=False)
    assert p.teacher.port == PLAIN_PORT and not p.teacher.tls
    assert not any((p.folder / f).exists() for f in (CA_FILE, CERT_FILE, KEY_FILE))
    assert "certfile" not in p.conf.read_text(encoding="utf-8")
    assert "ca =" not in p.file("station-1").read_text(encoding="utf-8")


def test_config_fleet_file_with_its_authority_round_trips(tmp_path: Path) -> None:
    p = provision(tmp_path / "room", ["station-1"], host="10.0.0.5")
    loaded = FleetConfig.load(p.file("station-1"))
    assert loaded == p.config("station-1") and loaded.port == TLS_PORT
    # Without a port the file means the TLS port when it has a ca, else the plain one.
    bare = tmp_path / "bare.toml"
    bare.write_text('device = "station-1"\nca = """\n' + loaded.ca + '"""\n', encoding="utf-8")
    assert FleetConfig.load(bare).port == TLS_PORT
    bare.write_text('device = "station-1"\n', encoding="utf-8")
    assert FleetConfig.load(bare).port == PLAIN_PORT


@pytest.mark.parametrize("ca", ["not a certificate", "-----BEGIN CERTIFICATE-----\nAAAA\n"])
def test_config_fleet_file_with_a_bad_authority_is_refused(tmp_path: Path, ca: str) -> None:
    path = tmp_path / "fleet.toml"
    path.write_text(f'device = "station-1"\nca = """{ca}"""\n', encoding="utf-8")
    with pytest.raises(BadInput) as err:
        FleetConfig.load(path)
    assert err.value.code == "fleet.ca" and "not a certificate" in err.value.message
    assert str(path) in err.value.message


def test_config_broker_speaks_only_tls(broker: Broker) -> None:
    """A client without TLS (an old fleet file, or someone reading the network) gets no
    MQTT answer: the broker hangs up on a plain CONNECT."""
    connect = bytes([0x10, 12, 0, 4]) + b"MQTT" + bytes([4, 2, 0, 10, 0, 0])
    with socket.create_connection(("127.0.0.1", broker.port), timeout=10) as s:
        s.sendall(connect)
        try:
            answer = s.recv(4)
        except (ConnectionResetError, TimeoutError):
            answer = b""
    assert answer[:1] != b"\x20"  # no CONNACK
    plain = dataclasses.replace(broker.provisioned.config("station-1"), ca="")
    assert not plain.tls
    with pytest.raises(AssertionError):  # never answered
        _connect_code(raw_client(plain, "plain"), broker, wait=3)


def test_config_broker_without_tls_takes_plain_clients(broker_for) -> None:
    plain = broker_for(["station-1"], tls=False)
    assert not plain.provisioned.teacher.tls
    assert not _connect_code(_client(plain, "station-1"), plain).is_failure


def test_config_why_unreachable_names_the_cause() -> None:
    verify = ssl.SSLCertVerificationError(1, "certificate verify failed")
    verify.verify_message = "Hostname mismatch, certificate is not valid for 'x'"
    cases = [
        (verify, "not this classroom's (Hostname mismatch"),
        (ssl.SSLError(1, "[SSL: WRONG_VERSION_NUMBER] wrong version number"), "no TLS from"),
        (socket.gaierror(-2, "Name or service not known"), "'teacher.local' is not known"),
        (ConnectionRefusedError(111, "Connection refused"), "is the broker running?"),
        (TimeoutError(), "no answer from teacher.local:8883"),
        (OSError(113, "No route to host"), "No route to host"),
        (None, "cannot reach teacher.local:8883"),
    ]
    for exc, says in cases:
        assert says in why_unreachable(exc, "teacher.local", 8883), exc
    assert "no 'ca'" in hung_up("h", 8883, tls=False) and "ca" not in hung_up("h", 8883, tls=True)


def test_config_why_lost_says_what_paho_calls_an_unspecified_error() -> None:
    from paho.mqtt.packettypes import PacketTypes
    from paho.mqtt.reasoncodes import ReasonCode

    dropped = ReasonCode(PacketTypes.DISCONNECT, "Unspecified error")  # paho: the socket closed
    assert why_lost(dropped) == "the connection dropped: the broker stopped, or the network failed"
    timeout = ReasonCode(PacketTypes.DISCONNECT, "Keep alive timeout")
    assert "keep-alive" in why_lost(timeout)
    assert why_lost(ReasonCode(PacketTypes.DISCONNECT, "Session taken over")) == (
        "Session taken over"
    )


def test_config_a_connection_that_keeps_failing_is_logged_once_a_minute(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """paho tries again every few seconds; the log says a reason when it is new, and the
    same one again once a minute with the tries so far."""
    now = [0.0]
    retry = RetryLog(logging.getLogger("test.retry"), "console", clock=lambda: now[0])
    caplog.set_level(logging.WARNING, "test.retry")
    for _ in range(16):  # a minute of tries, 4 s apart
        retry.failed("nothing listens at h:8883: is the broker running?")
        now[0] += 4
    retry.failed("the name 'h' is not known on this network")  # a new reason: said at once
    retry.failed("nothing listens at h:8883: is the broker running?")  # changed back: said
    lines = [r.getMessage() for r in caplog.records]
    assert lines == [
        "console: nothing listens at h:8883: is the broker running?; trying again",
        "console: nothing listens at h:8883: is the broker running?; trying again (try 16)",
        "console: the name 'h' is not known on this network; trying again",
        "console: nothing listens at h:8883: is the broker running?; trying again",
    ]
    retry.connected()
    caplog.clear()
    retry.failed("nothing listens at h:8883: is the broker running?", logging.ERROR)
    assert [(r.levelno, r.getMessage()) for r in caplog.records] == [
        (logging.ERROR, "console: nothing listens at h:8883: is the broker running?; trying again")
    ]
