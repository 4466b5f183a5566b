"""Fleet files and the broker's files: what a device reads and what mosquitto enforces."""

from __future__ import annotations

import threading
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from tabletop.classroom.fleet.config import (
    ENV,
    Broker,
    FleetConfig,
    find_config,
    password_hash,
    provision,
)
from tabletop.engine.errors import BadInput


def _client(broker: Broker, device: str, password: str | None = None) -> mqtt.Client:
    config = broker.provisioned.config(device)
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"test-{device}")
    client.username_pw_set(device, config.password if password is None else password)
    return client


def _connect_code(client: mqtt.Client, broker: Broker) -> mqtt.ReasonCode:
    done = threading.Event()
    codes: list[mqtt.ReasonCode] = []
    client.on_connect = lambda c, u, f, rc, p: (codes.append(rc), done.set())
    client.connect("127.0.0.1", broker.port)
    client.loop_start()
    try:
        assert done.wait(10)
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


def test_config_simulate_refuses_a_bad_fleet_file(tmp_path: Path, capsys) -> None:
    from tabletop.cli import main

    bad = tmp_path / "fleet.toml"
    bad.write_text('device = "teacher"\n', encoding="utf-8")
    assert main(["fleet", "simulate", "--fleet", str(bad), "--data", str(tmp_path / "d")]) == 2
    assert "not a station's" in capsys.readouterr().err
