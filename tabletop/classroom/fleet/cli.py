"""``tabletop fleet``: set up a classroom's broker files, run simulated stations, and
measure results delivered across a broker outage.

- ``tabletop fleet setup --stations N [--host H] [--port P] [--no-tls] [--prefix P] --out DIR``
- ``tabletop fleet simulate --fleet FILE --data DIR [--seed S] [--game-seconds X]``
- ``tabletop fleet bench-outage [--stations 8] [--outage 120] [--fault outage|power-cut|poison]``
"""

from __future__ import annotations

import argparse
import ipaddress
import os
import sys
from pathlib import Path

from tabletop.engine.errors import BadInput


def add_parser(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("fleet", help="the classroom fleet: broker files, simulated stations")
    what = p.add_subparsers(dest="what", metavar="WHAT", required=True)

    q = what.add_parser(
        "setup", help="write the broker's configuration, passwords, ACL and every fleet file"
    )
    q.add_argument("--stations", type=int, required=True, help="how many stations (1..8)")
    q.add_argument(
        "--host", default="localhost", help="the broker's address as the stations reach it"
    )
    q.add_argument(
        "--port", type=int, default=None, help="the broker's port (default 8883; 1883 plain)"
    )
    q.add_argument(
        "--no-tls",
        dest="tls",
        action="store_false",
        help="plain MQTT: no certificates, passwords and names readable on the network",
    )
    q.add_argument("--prefix", default="tabletop", help="the topic prefix (default tabletop)")
    q.add_argument(
        "--bind", default="", help="the address mosquitto listens on (default: every one)"
    )
    q.add_argument("--out", type=Path, required=True, help="the folder to write into")
    q.set_defaults(run=run_setup)

    q = what.add_parser("simulate", help="a headless station: follows the plan, plays bot games")
    q.add_argument("--fleet", type=Path, required=True, help="this station's fleet file")
    q.add_argument("--data", type=Path, required=True, help="its own data folder (journal)")
    q.add_argument("--seed", type=int, default=0, help="the bots' games (default 0)")
    q.add_argument(
        "--game-seconds",
        type=float,
        default=20.0,
        help="how long each game lasts in rotation time (default 20)",
    )
    q.add_argument("--verbose", action="store_true", help="one line per event it sees")
    q.add_argument(
        "--poison",
        type=int,
        default=0,
        help="also send this many results the console cannot read (a test of the console)",
    )
    q.set_defaults(run=run_simulate)

    q = what.add_parser(
        "bench-outage",
        help="8 simulated stations and the console, and one fault (the broker stopped, a "
        "power cut, poison results): results sent, stored, missing, duplicates (JSON)",
    )
    q.add_argument(
        "--fault",
        choices=("outage", "power-cut", "poison"),
        default="outage",
        help="outage: the broker stopped for --outage s; power-cut: the console stops, "
        "--gap s later the broker is killed (SIGKILL), both start again after --outage s; "
        "poison: station-1 also sends --poison results the console cannot read",
    )
    q.add_argument("--gap", type=float, default=15.0, help="power-cut: console to broker (s)")
    q.add_argument("--poison", type=int, default=50, help="poison: how many bad results")
    q.add_argument("--stations", type=int, default=8, help="how many stations play (default 8)")
    q.add_argument("--outage", type=float, default=120.0, help="seconds without the broker")
    q.add_argument("--before", type=float, default=20.0, help="seconds of play before it")
    q.add_argument("--after", type=float, default=60.0, help="seconds of play after it")
    q.add_argument(
        "--game-seconds", type=float, default=2.0, help="how long each game lasts (default 2)"
    )
    q.add_argument("--folder", type=Path, default=None, help="keep the files here")
    q.set_defaults(run=run_bench_outage)


def run_setup(args: argparse.Namespace) -> int:
    from tabletop.classroom.fleet.config import CA_FILE, CERT_FILE, KEY_FILE, provision

    if not 1 <= args.stations <= 8:
        raise BadInput("fleet.stations", f"--stations must be 1 to 8, not {args.stations}")
    held = [n for n in ("teacher.toml", "mosquitto.conf", "passwd") if (args.out / n).exists()]
    if held:  # new passwords and a new authority would cut off every station set up from it
        raise BadInput(
            "fleet.setup_exists",
            f"{args.out} already holds a classroom ({held[0]}): setting it up again would give "
            "every device a new password, and the stations set up from it would stop "
            "connecting; give another --out folder, or delete that one first",
        )
    devices = [f"station-{i + 1}" for i in range(args.stations)]
    done = provision(
        args.out,
        devices,
        host=args.host,
        port=args.port,
        prefix=args.prefix,
        bind=args.bind,
        tls=args.tls,
    )
    port, kind = done.teacher.port, "TLS" if args.tls else "plain (no TLS)"
    print(f"wrote {done.conf} (mosquitto: one {kind} listener on port {port}, passwords, ACL)")
    print(f"wrote {done.folder / 'passwd'} and {done.folder / 'acl'}")
    if args.tls:
        print(
            f"wrote {done.folder / CA_FILE} (this classroom's own authority), "
            f"{done.folder / CERT_FILE} and {done.folder / KEY_FILE} (the broker's, "
            f"for the name {args.host})"
        )
    for config in (done.teacher, *done.stations):
        role = "the teacher's console" if config.teacher else "a station"
        print(f"wrote {done.folder / (config.device + '.toml')} ({role}, device {config.device})")
    print(f"start the broker: mosquitto -c {done.conf}")
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        # mosquitto started by root becomes its own user, which cannot read the
        # passwords and the key written here (readable by their owner only).
        print(
            "  not as root: mosquitto would run as the mosquitto user and could not read "
            f"{done.folder / 'passwd'}; on a Pi: sudo systemd/install.sh --coordinator "
            f"--broker-dir {done.folder}"
        )
    print(
        "on each station: copy its file to /etc/tabletop/fleet.toml "
        "(or run `tabletop app --fleet FILE`)"
    )
    if _this_computer_only(args.host):
        print(
            f"note: --host {args.host} is reached from this computer only; for stations on "
            "other devices, set up with the name or address they reach it by "
            "(--host teacher.local, say)",
            file=sys.stderr,
        )
    return 0


def _this_computer_only(host: str) -> bool:
    """``host`` names the computer it is used on (localhost, a loopback address)."""
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host.lower().rstrip(".") in ("localhost", "localhost.localdomain")


def run_simulate(args: argparse.Namespace) -> int:
    from tabletop.classroom.fleet.config import FleetConfig
    from tabletop.classroom.fleet.simulate import run_simulation

    config = FleetConfig.load(args.fleet)
    return run_simulation(
        config,
        args.data,
        seed=args.seed,
        game_seconds=args.game_seconds,
        verbose=args.verbose,
        poison=args.poison,
    )


def run_bench_outage(args: argparse.Namespace) -> int:
    from tabletop.classroom.fleet.simulate import bench_outage, outage_json

    figures = bench_outage(
        stations=args.stations,
        outage=args.outage,
        before=args.before,
        after=args.after,
        game_seconds=args.game_seconds,
        folder=args.folder,
        out=sys.stderr,
        fault=args.fault,
        gap=args.gap,
        poison=args.poison,
    )
    print(outage_json(figures))
    good = figures["missing"] == 0 and figures["duplicates"] == 0
    return 0 if good and figures["refused"] == figures["poison_sent"] else 1


__all__ = ["add_parser"]
