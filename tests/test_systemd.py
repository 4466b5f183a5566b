"""The Raspberry Pi install (systemd/): the units pass ``systemd-analyze verify``, the
scripts pass shellcheck, ``install.sh --dry-run`` prints the plan it would carry out,
and the broker configuration it writes is one Debian's mosquitto accepts."""

from __future__ import annotations

import dataclasses
import getpass
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SYSTEMD = ROOT / "systemd"
INSTALL = SYSTEMD / "install.sh"
UNITS = ("tabletop.service", "tabletop-teacher.service")
TABLETOP_BIN = "/opt/tabletop/.venv/bin/tabletop"


# What Raspberry Pi OS has and a plain Debian (an arm64 board, a laptop) lacks.
PI_ONLY = frozenset({"python3-picamera2", "python3-lgpio"})
_FAKES: dict[frozenset[str], Path] = {}


def fake_apt(missing: frozenset[str] = frozenset()) -> Path:
    """A folder with an ``apt-cache`` that knows every package but ``missing`` (as
    ``apt-cache policy`` prints them), to put first on PATH: the plan then does not
    depend on this machine's package lists."""
    if missing not in _FAKES:
        folder = Path(tempfile.mkdtemp(prefix="fake-apt-"))
        script = folder / "apt-cache"
        script.write_text(
            "#!/bin/sh\n"
            '[ "$1" = policy ] || exit 100\n'
            f'case " {" ".join(sorted(missing))} " in *" $2 "*) exit 0 ;; esac\n'
            'printf "%s:\\n  Installed: (none)\\n  Candidate: 1.0-1\\n" "$2"\n'
        )
        script.chmod(0o755)
        _FAKES[missing] = folder
    return _FAKES[missing]


def dry_run(
    *args: str, env: dict[str, str] | None = None, missing: frozenset[str] = frozenset()
) -> subprocess.CompletedProcess[str]:
    """``install.sh ARGS --dry-run`` on a system whose apt has every package it wants but
    ``missing`` (the default: Raspberry Pi OS)."""
    env = dict(os.environ if env is None else env)
    env["PATH"] = f"{fake_apt(missing)}:{env.get('PATH', os.defpath)}"
    return subprocess.run(
        ["bash", str(INSTALL), *args, "--dry-run"],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )


def commands(out: str) -> list[str]:
    """The commands the plan runs (lines starting with "+ ")."""
    return [line[2:] for line in out.splitlines() if line.startswith("+ ")]


def one(lines: list[str], pattern: str) -> str:
    found = [line for line in lines if re.search(pattern, line)]
    assert len(found) == 1, f"{pattern!r} in {found or lines}"
    return found[0]


def unit_text(name: str) -> str:
    return (SYSTEMD / name).read_text()


def unit_values(name: str, key: str) -> list[str]:
    return re.findall(rf"^{key}=(.*)$", unit_text(name), flags=re.MULTILINE)


@pytest.fixture(scope="module")
def fleet_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """What `tabletop fleet setup` writes: broker files and one fleet file per device."""
    folder = tmp_path_factory.mktemp("fleet")
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "tabletop",
            "fleet",
            "setup",
            "--stations",
            "2",
            "--out",
            str(folder),
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return folder


# -- the units --------------------------------------------------------------------------


@pytest.mark.skipif(not shutil.which("systemd-analyze"), reason="systemd-analyze is not here")
@pytest.mark.parametrize("name", UNITS)
def test_unit_passes_systemd_analyze_verify(name: str, tmp_path: Path) -> None:
    # verify also checks that ExecStart's program exists and is executable, and
    # /opt/tabletop/.venv only exists on an installed Pi: the copy checked here runs this
    # test's Python instead (an executable that exists); every other line is the unit's.
    text = unit_text(name)
    assert TABLETOP_BIN in text
    (tmp_path / name).write_text(text.replace(TABLETOP_BIN, sys.executable))
    done = subprocess.run(
        ["systemd-analyze", "verify", f"./{name}"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    # An unknown key or a bad value is only a warning: none may be printed about the unit.
    complaints = [line for line in done.stderr.splitlines() if name in line]
    assert complaints == []


@pytest.mark.skipif(not shutil.which("systemd-analyze"), reason="systemd-analyze is not here")
def test_verify_can_fail(tmp_path: Path) -> None:
    text = unit_text("tabletop.service").replace("TTYPath=", "TTYPathh=")
    (tmp_path / "tabletop.service").write_text(text.replace(TABLETOP_BIN, sys.executable))
    done = subprocess.run(
        ["systemd-analyze", "verify", "./tabletop.service"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert "TTYPathh" in done.stderr


def test_app_unit_runs_on_tty1_and_boots_without_a_network() -> None:
    name = "tabletop.service"
    assert unit_values(name, "User") == ["tabletop"]
    assert unit_values(name, "TTYPath") == ["/dev/tty1"]
    assert unit_values(name, "StandardInput") == ["tty"]
    assert "getty@tty1.service" in unit_values(name, "Conflicts")[0]
    assert "SDL_VIDEODRIVER=kmsdrm" in unit_values(name, "Environment")
    assert "TABLETOP_DATA=/var/lib/tabletop" in unit_values(name, "Environment")
    assert unit_values(name, "StateDirectory") == ["tabletop"]
    assert unit_values(name, "Restart") == ["on-failure"]
    assert unit_values(name, "RestartSec") and unit_values(name, "StartLimitBurst")
    # A station plays without a network: nothing may wait for one.
    assert "network-online" not in "".join(
        unit_values(name, "After") + unit_values(name, "Wants") + unit_values(name, "Requires")
    )
    # Camera, GPIO, screen, touch and sound are devices: no setting may hide them.
    assert unit_values(name, "PrivateDevices") == ["no"]
    for hiding in ("DeviceAllow", "DevicePolicy", "ProtectClock", "ProtectKernelLogs"):
        assert not unit_values(name, hiding), hiding
    assert unit_values(name, "NoNewPrivileges") == ["yes"]
    assert unit_values(name, "ProtectSystem") == ["full"]
    assert unit_values(name, "ReadWritePaths") == ["/var/lib/tabletop"]


def test_teacher_unit_uses_the_files_install_writes(fleet_dir: Path) -> None:
    name = "tabletop-teacher.service"
    (start,) = unit_values(name, "ExecStart")
    assert start.startswith(f"{TABLETOP_BIN} teacher ")
    flags = dict(re.findall(r"(--[\w-]+) (\S+)", start))
    assert "--port" not in flags  # 8080 by default; the ports come from teacher.env
    assert "mosquitto.service" in unit_values(name, "Wants")[0]
    assert "mosquitto.service" in unit_values(name, "After")[0]
    assert "TABLETOP_DATA=/var/lib/tabletop" in unit_values(name, "Environment")
    assert unit_values(name, "PrivateDevices") == ["yes"]
    assert unit_values(name, "ProtectSystem") == ["strict"]
    # The fleet file and the PIN it reads are the ones the coordinator's install writes.
    plan = dry_run("--coordinator", "--broker-dir", str(fleet_dir))
    assert plan.returncode == 0, plan.stderr
    written = {line.split()[-1] for line in commands(plan.stdout) if line.startswith("install -m")}
    written |= {line.split()[1] for line in commands(plan.stdout) if line.startswith("write ")}
    assert flags["--fleet"] in written
    assert flags["--pin-file"] in written
    # HTTPS on 8443 (and http on 8080 sending browsers there): the options come from
    # the environment file install writes, with the broker's certificate and a key the
    # dashboard's account can read.
    assert start.endswith(" $TABLETOP_TEACHER_WEB")
    assert unit_values(name, "EnvironmentFile") == ["-/etc/tabletop/teacher.env"]
    assert "/etc/tabletop/teacher.env" in written
    web = teacher_env(plan.stdout)
    assert web["--port"] == "8443" and web["--redirect-port"] == "8080"
    assert {web["--tls-cert"], web["--tls-key"]} <= written
    key = one(commands(plan.stdout), r"/etc/tabletop/teacher\.key$")
    assert key.startswith("install -m 0640 -o root -g tabletop ")
    assert "The teacher's dashboard: https://localhost:8443 " in plan.stdout  # setup's --host


def teacher_env(out: str) -> dict[str, str]:
    """The dashboard's options in the teacher.env the plan writes."""
    env = out.split("+ write /etc/tabletop/teacher.env (mode 0644, root:root)\n")[1]
    line = env.splitlines()[0]
    assert line.startswith("|   TABLETOP_TEACHER_WEB=")
    return dict(re.findall(r"(--[\w-]+) (\S+)", line))


# -- shellcheck -------------------------------------------------------------------------


SCRIPTS = sorted([*SYSTEMD.glob("*.sh"), *(ROOT / "scripts").glob("*.sh")])


@pytest.mark.skipif(not shutil.which("shellcheck"), reason="shellcheck is not here")
@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: str(p.relative_to(ROOT)))
def test_shellcheck(script: Path) -> None:
    done = subprocess.run(
        ["shellcheck", "--external-sources", str(script)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_install_script_is_among_the_checked() -> None:
    assert INSTALL in SCRIPTS
    assert os.access(INSTALL, os.X_OK)


# -- install.sh --dry-run ---------------------------------------------------------------


def test_station_plan() -> None:
    done = dry_run()
    assert done.returncode == 0, done.stderr
    plan = commands(done.stdout)
    apt = one(plan, r"apt-get install")
    for package in (
        "python3-venv",
        "python3-picamera2",
        "libzbar0",
        "fonts-droid-fallback",
        "espeak-ng",
    ):
        assert f" {package}" in apt
    assert "mosquitto" not in apt
    if subprocess.run(["id", "-u", "tabletop"], capture_output=True).returncode != 0:
        user = one(plan, r"^useradd ")
        assert "--system" in user and user.endswith(" tabletop")
        assert "--home-dir /var/lib/tabletop" in user
    groups = one(plan, r"^usermod --append --groups ")
    assert "video" in groups.split()[3].split(",")
    venv = one(plan, r" -m venv ")
    assert "--system-site-packages /opt/tabletop/.venv" in venv
    assert re.search(r"pip install .* '/opt/tabletop\[pi\]'$", one(plan, r"pip install"))
    assert "install -d -m 0750 -o tabletop -g tabletop /var/lib/tabletop" in plan
    assert "install -m 0644 /opt/tabletop/systemd/tabletop.service " in one(
        plan, r"tabletop\.service /etc/systemd/system/"
    )
    assert "systemctl enable tabletop.service" in plan
    assert not [line for line in plan if "teacher" in line or "mosquitto" in line]
    assert plan.index("systemctl daemon-reload") < plan.index("systemctl enable tabletop.service")


def test_station_with_its_fleet_file(fleet_dir: Path) -> None:
    done = dry_run("--station", "--fleet", str(fleet_dir / "station-2.toml"))
    assert done.returncode == 0, done.stderr
    line = one(commands(done.stdout), r"/etc/tabletop/fleet\.toml$")
    source = fleet_dir / "station-2.toml"
    assert line == f"install -m 0640 -o root -g tabletop {source} /etc/tabletop/fleet.toml"


def test_coordinator_plan(fleet_dir: Path) -> None:
    done = dry_run("--coordinator", "--broker-dir", str(fleet_dir))
    assert done.returncode == 0, done.stderr
    plan = commands(done.stdout)
    assert " mosquitto" in one(plan, r"apt-get install")
    assert "install -m 0640 -o root -g mosquitto" in one(plan, r"/etc/tabletop/mosquitto/passwd$")
    assert "install -m 0640 -o root -g mosquitto" in one(plan, r"/etc/tabletop/mosquitto/acl$")
    # TLS: the broker's key readable by mosquitto only; the certificates are public.
    key = one(plan, r"/etc/tabletop/mosquitto/server\.key$")
    assert key.startswith("install -m 0640 -o root -g mosquitto")
    for public in ("ca.crt", "server.crt"):
        assert one(plan, rf"/etc/tabletop/mosquitto/{public}$").startswith(
            "install -m 0644 -o root -g root"
        )
    assert one(plan, r"/etc/tabletop/teacher\.toml$").startswith(
        "install -m 0640 -o root -g tabletop"
    )
    assert "write /etc/mosquitto/conf.d/tabletop.conf (mode 0644, root:root)" in plan
    for unit in UNITS:
        assert f"systemctl enable {unit}" in plan
        one(plan, rf"install -m 0644 /opt/tabletop/systemd/{unit} /etc/systemd/system/{unit}$")
    assert "systemctl restart mosquitto.service" in plan
    assert "systemctl restart tabletop-teacher.service" in plan


def test_systemd_dry_run_prints_no_pin_the_real_run_would_not_use(fleet_dir: Path) -> None:
    """No PIN given and none installed: the real run makes a random one and says it once;
    a dry run says it would, with no number (it printed one the real run then did not use)."""
    done = dry_run("--coordinator", "--broker-dir", str(fleet_dir))
    assert done.returncode == 0, done.stderr
    assert "A random 6-digit PIN would be made (change it: --pin-file FILE" in done.stdout
    assert "The teacher's PIN is" not in done.stdout
    assert not re.search(r"^\|   \d{6}$", done.stdout, flags=re.MULTILINE)
    assert "|   (a random 6-digit PIN)" in done.stdout.splitlines()


@pytest.mark.parametrize(
    ("host", "tls", "said"),
    [
        ("classroom-pi.local", True, "https://classroom-pi.local:8443"),
        ("localhost", True, "https://localhost:8443"),
        ("10.0.0.5", False, "http://10.0.0.5:8080"),
    ],
)
def test_systemd_dashboard_address_is_the_host_the_setup_made(
    host: str, tls: bool, said: str, tmp_path: Path
) -> None:
    """The address said at the end is the host in the classroom's teacher.toml (the name
    the certificate the dashboard serves was made for), not this computer's name + .local
    (a classroom set up for localhost printed https://vm.local:8443)."""
    from tabletop.classroom.fleet.config import provision

    provision(tmp_path / "classroom", ["station-1"], host=host, tls=tls)
    done = dry_run("--coordinator", "--broker-dir", str(tmp_path / "classroom"))
    assert done.returncode == 0, done.stderr
    assert f"The teacher's dashboard: {said} (PIN in /etc/tabletop/teacher.pin)" in done.stdout


def test_coordinator_without_app_and_with_a_pin(fleet_dir: Path, tmp_path: Path) -> None:
    pin = tmp_path / "pin"
    pin.write_text("73519x\n")
    done = dry_run(
        "--coordinator", "--broker-dir", str(fleet_dir), "--pin-file", str(pin), "--no-app"
    )
    assert done.returncode == 0, done.stderr
    plan = commands(done.stdout)
    assert "systemctl enable tabletop-teacher.service" in plan
    assert "systemctl enable tabletop.service" not in plan
    assert "write /etc/tabletop/teacher.pin (mode 0640, root:tabletop)" in plan
    assert "|   73519x" in done.stdout.splitlines()
    assert "The teacher's PIN is" not in done.stdout


def broker_conf(out: str) -> str:
    """The mosquitto drop-in the plan writes, as printed by --dry-run."""
    lines = out.splitlines()
    start = lines.index("+ write /etc/mosquitto/conf.d/tabletop.conf (mode 0644, root:root)")
    body = []
    for line in lines[start + 1 :]:
        if not line.startswith("|   "):
            break
        body.append(line[4:])
    return "\n".join(body) + "\n"


def test_broker_conf_points_at_the_installed_files(fleet_dir: Path) -> None:
    conf = broker_conf(dry_run("--coordinator", "--broker-dir", str(fleet_dir)).stdout)
    assert "password_file /etc/tabletop/mosquitto/passwd\n" in conf
    assert "acl_file /etc/tabletop/mosquitto/acl\n" in conf
    assert "certfile /etc/tabletop/mosquitto/server.crt\n" in conf
    assert "keyfile /etc/tabletop/mosquitto/server.key\n" in conf
    assert "cafile /etc/tabletop/mosquitto/ca.crt\n" in conf
    assert "allow_anonymous false\n" in conf
    assert str(fleet_dir) not in conf
    assert "persistence" not in conf  # Debian's mosquitto.conf sets it: twice is refused


@pytest.mark.skipif(
    not (shutil.which("mosquitto") or Path("/usr/sbin/mosquitto").exists()),
    reason="mosquitto is not here",
)
def test_debian_mosquitto_takes_the_drop_in(fleet_dir: Path, tmp_path: Path) -> None:
    """Debian's /etc/mosquitto/mosquitto.conf (its persistence lines, then include_dir)
    with the installed drop-in: the broker starts and lets the teacher in over TLS with
    the password and authority from teacher.toml. The setup's own file in the same place
    is refused."""
    import paho.mqtt.client as mqtt

    from tabletop.classroom.fleet.config import FleetConfig, free_port, mosquitto_binary

    installed = tmp_path / "etc-tabletop-mosquitto"
    installed.mkdir()
    for name in ("passwd", "acl", "ca.crt", "server.crt", "server.key"):
        shutil.copy(fleet_dir / name, installed / name)
    port = free_port()
    conf = broker_conf(dry_run("--coordinator", "--broker-dir", str(fleet_dir)).stdout)
    conf = conf.replace("/etc/tabletop/mosquitto", str(installed))
    conf = re.sub(r"^listener \d+.*$", f"listener {port} 127.0.0.1", conf, flags=re.MULTILINE)
    (tmp_path / "conf.d").mkdir()
    (tmp_path / "persist").mkdir()
    main = tmp_path / "mosquitto.conf"
    # Debian's main file, with one line more: run as this user, as the test files are its
    # own (started by root, mosquitto would become the mosquitto user and read nothing).
    main.write_text(
        f"user {getpass.getuser()}\n"
        "persistence true\n"
        f"persistence_location {tmp_path}/persist/\n"
        f"include_dir {tmp_path}/conf.d\n"
    )
    binary = mosquitto_binary()
    assert binary

    # The setup's file as it is (its own persistence lines) is refused by such a broker.
    raw = (
        (fleet_dir / "mosquitto.conf")
        .read_text()
        .replace("listener 8883", f"listener {port} 127.0.0.1")
    )
    (tmp_path / "conf.d" / "tabletop.conf").write_text(raw)
    refused = subprocess.run([binary, "-c", str(main)], capture_output=True, text=True, timeout=30)
    assert refused.returncode != 0
    assert "Duplicate persistence_location" in refused.stdout + refused.stderr

    (tmp_path / "conf.d" / "tabletop.conf").write_text(conf)
    broker = subprocess.Popen(
        [binary, "-c", str(main)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
    try:
        teacher = FleetConfig.load(fleet_dir / "teacher.toml")
        results: dict[str, int] = {}
        for who, password in (("teacher", teacher.password), ("wrong", "not-the-password")):
            client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=f"t-{who}")
            dataclasses.replace(teacher, password=password).login(client)
            reason = None
            for _ in range(100):  # the broker needs a moment to listen (no timing asserted)
                try:
                    reason = client.connect("127.0.0.1", port, keepalive=5)
                    break
                except ConnectionRefusedError:
                    assert broker.poll() is None, broker.communicate()[0]
                    time.sleep(0.05)
            assert reason is not None
            connack: list[int] = []
            client.on_connect = lambda _c, _u, _f, rc, _p, out=connack: out.append(rc.value)
            for _ in range(100):
                client.loop(timeout=0.1)
                if connack:
                    break
            client.disconnect()
            results[who] = connack[0] if connack else -1
        assert results["teacher"] == 0
        assert results["wrong"] != 0
    finally:
        broker.terminate()
        broker.wait(timeout=10)


# -- refusals ---------------------------------------------------------------------------


def test_refuses_without_root(tmp_path: Path) -> None:
    # Pretend not to be root with an `id` that says uid 1000 (the tests may run as root).
    fake = tmp_path / "bin"
    fake.mkdir()
    (fake / "id").write_text(
        '#!/bin/sh\n[ "$1" = -u ] && [ -z "$2" ] && { echo 1000; exit 0; }\nexec /usr/bin/id "$@"\n'
    )
    (fake / "id").chmod(0o755)
    env = {**os.environ, "PATH": f"{fake}:{os.environ['PATH']}"}
    done = subprocess.run(
        ["bash", str(INSTALL)], capture_output=True, text=True, env=env, timeout=60
    )
    assert done.returncode == 1
    assert "must run as root" in done.stderr
    assert done.stdout == ""  # nothing was done, not even an apt-get line
    assert dry_run(env=env).returncode == 0  # --dry-run needs no root


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--bogus"], "unknown option --bogus"),
        (["--fleet"], "--fleet needs a value"),
        (["--fleet", "/nonexistent/fleet.toml"], "cannot read the fleet file"),
        (["--broker-dir", "/tmp"], "--broker-dir is for the coordinator"),
        (["--no-app"], "--no-app is for a coordinator"),
        (["--coordinator", "--broker-dir", "/nonexistent"], "mosquitto.conf is missing"),
        (["--source", "/tmp"], "is not the tabletop project"),
        (["--coordinator", "--pin-file", "/dev/null"], "one PIN of 4 to 64 characters"),
    ],
)
def test_refusals(args: list[str], said: str) -> None:
    done = dry_run(*args)
    assert done.returncode == 1
    assert said in done.stderr
    assert "+ " not in done.stdout


def test_refuses_a_tls_broker_dir_without_its_key(fleet_dir: Path, tmp_path: Path) -> None:
    partial = tmp_path / "classroom"
    shutil.copytree(fleet_dir, partial)
    (partial / "server.key").unlink()
    done = dry_run("--coordinator", "--broker-dir", str(partial))
    assert done.returncode == 1
    assert f"{partial}/server.key is missing: the broker's TLS needs it" in done.stderr
    assert "+ " not in done.stdout


def test_coordinator_plan_for_a_plain_broker(tmp_path: Path) -> None:
    """A setup with --no-tls: no certificates to install, and none asked for."""
    from tabletop.classroom.fleet.config import provision

    provision(tmp_path / "plain", ["station-1"], tls=False)
    done = dry_run("--coordinator", "--broker-dir", str(tmp_path / "plain"))
    assert done.returncode == 0, done.stderr
    assert "server.key" not in done.stdout and "certfile" not in broker_conf(done.stdout)
    assert teacher_env(done.stdout) == {"--port": "8080"}  # plain, even after a TLS setup
    assert "The teacher's dashboard: http://localhost:8080 " in done.stdout


def test_refuses_the_teacher_file_as_a_station_file(fleet_dir: Path) -> None:
    done = dry_run("--fleet", str(fleet_dir / "teacher.toml"))
    assert done.returncode == 1
    assert "teacher's console file" in done.stderr


@pytest.mark.skipif(
    Path("/etc/tabletop/teacher.toml").exists(), reason="a coordinator is installed here"
)
def test_coordinator_needs_the_broker_files_the_first_time() -> None:
    done = dry_run("--coordinator")
    assert done.returncode == 1
    assert "needs --broker-dir" in done.stderr


def test_dry_run_changes_nothing(fleet_dir: Path) -> None:
    watched = [Path("/opt/tabletop"), Path("/etc/tabletop"), Path("/var/lib/tabletop")]
    before = [p.exists() for p in watched]
    assert dry_run("--coordinator", "--broker-dir", str(fleet_dir)).returncode == 0
    assert [p.exists() for p in watched] == before


# -- a Debian that is not Raspberry Pi OS ---------------------------------------------------


def test_systemd_install_on_plain_debian_skips_the_pi_packages_and_finishes() -> None:
    """Issue 25 item 11: without python3-picamera2 and python3-lgpio (an arm64 board's
    Debian, a laptop) the plan installs the rest, names what it skipped and why, installs
    the project without its [pi] extra, and goes on to the end (the old main: one apt-get
    line with every package, which stops at "Unable to locate package" under set -e)."""
    done = dry_run(missing=PI_ONLY)
    assert done.returncode == 0, done.stderr
    plan = commands(done.stdout)
    apt = one(plan, r"apt-get install")
    assert "picamera2" not in apt and "lgpio" not in apt
    for package in ("python3-venv", "libzbar0", "fonts-droid-fallback", "rsync"):
        assert f" {package}" in apt
    lines = done.stdout.splitlines()
    assert (
        "skipped python3-picamera2: the Pi camera's library is only in Raspberry Pi OS: "
        "cameras then come through OpenCV (a USB webcam)"
    ) in lines
    assert any(line.startswith("skipped python3-lgpio: ") for line in lines)
    assert one(plan, r"pip install").endswith(" --editable /opt/tabletop")
    assert "systemctl enable tabletop.service" in plan
    assert (
        "Skipped (not in this system's packages): python3-picamera2 python3-lgpio"
        in (done.stdout.split("== Done")[1])
    )
    pi = dry_run()  # Raspberry Pi OS: everything, and the [pi] extra
    assert "skipped python3" not in pi.stdout and "Skipped" not in pi.stdout
    assert " python3-picamera2" in one(commands(pi.stdout), r"apt-get install")


def test_systemd_install_takes_the_renamed_library_and_refuses_a_missing_one() -> None:
    """Debian 13 has libzbar0t64 where 12 has libzbar0: the plan takes the one there is.
    A package the device cannot do without is refused with one line, before any change."""
    renamed = dry_run(missing=PI_ONLY | {"libzbar0"})
    assert renamed.returncode == 0, renamed.stderr
    assert " libzbar0t64 " in one(commands(renamed.stdout), r"apt-get install")
    refused = dry_run(missing=PI_ONLY | {"libzbar0", "libzbar0t64"})
    assert refused.returncode == 1
    assert refused.stderr.splitlines() == [
        "install.sh: the package libzbar0 or libzbar0t64 is not in this system's package "
        "sources (apt-cache policy libzbar0): add the Debian sources that have it, then run "
        "this again"
    ]
    assert "apt-get install" not in refused.stdout
