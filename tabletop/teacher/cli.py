"""``tabletop teacher``: the teacher's console and its web dashboard.

    tabletop teacher --fleet teacher.toml --pin 1234 [--port 8080] [--bind 0.0.0.0]
                     [--data DIR] [--idle-minutes 60]
                     [--tls-cert FILE --tls-key FILE [--redirect-port 8080]]

The PIN comes from ``--pin``, ``--pin-file`` (its first line) or ``$TABLETOP_TEACHER_PIN``;
without one the dashboard does not start (anyone on the classroom network could
otherwise run the rotation). With ``--tls-cert`` and ``--tls-key`` (e.g. the
``server.crt`` and ``server.key`` that ``tabletop fleet setup`` made for the broker's
name) the dashboard is served over HTTPS, so the PIN and the class list do not cross
the classroom network in clear text; ``--redirect-port`` then also listens for plain HTTP
there and sends every browser to the HTTPS address (an old ``http://`` bookmark still
works).
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import signal
import ssl
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from tabletop.engine.errors import BadInput

if TYPE_CHECKING:
    from tabletop.classroom.fleet.config import FleetConfig
    from tabletop.classroom.fleet.coordinator import Coordinator
    from tabletop.teacher.auth import Gate

log = logging.getLogger(__name__)

PIN_ENV = "TABLETOP_TEACHER_PIN"


def add_parser(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "teacher",
        help="the teacher's console: a web dashboard for every station (PIN login)",
        description=(
            "Runs the classroom's console: connects to the fleet's broker as the teacher "
            "and serves the dashboard (stations live, the rotation's controls, the plan, "
            "the class list and the reports)."
        ),
    )
    p.add_argument("--fleet", type=Path, default=None, help="the teacher's fleet file (TOML)")
    p.add_argument(
        "--data",
        type=Path,
        default=None,
        help="the console's data folder (default: console/ in the device's data folder, so "
        "a coordinator that is also a station keeps its own games apart from the class's)",
    )
    p.add_argument("--port", type=int, default=8080, help="the web port (default 8080)")
    p.add_argument(
        "--bind", default="0.0.0.0", help="the address to listen on (default: every one)"
    )
    pin = p.add_mutually_exclusive_group()
    pin.add_argument("--pin", default=None, help=f"the teacher PIN (or ${PIN_ENV})")
    pin.add_argument("--pin-file", type=Path, default=None, help="a file holding the PIN")
    p.add_argument(
        "--idle-minutes",
        type=float,
        default=60.0,
        help="log out after this many minutes without use (default 60)",
    )
    p.add_argument(
        "--tls-cert",
        type=Path,
        default=None,
        help="serve HTTPS with this certificate (PEM; e.g. server.crt from `fleet setup`)",
    )
    p.add_argument("--tls-key", type=Path, default=None, help="and its private key (PEM)")
    p.add_argument(
        "--redirect-port",
        type=int,
        default=None,
        help="with HTTPS: plain HTTP on this port sends browsers to the dashboard",
    )
    p.add_argument("--verbose", action="store_true", help="log what the console does")
    p.set_defaults(run=run)


def read_pin(args: argparse.Namespace) -> str:
    if args.pin is not None:
        return str(args.pin)
    if args.pin_file is not None:
        try:
            lines = args.pin_file.read_text(encoding="utf-8").splitlines()
        except OSError as exc:
            raise BadInput(
                "teacher.pin", f"the PIN file {args.pin_file} cannot be read: {exc.strerror}"
            ) from None
        except UnicodeDecodeError:
            raise BadInput(
                "teacher.pin",
                f"the PIN file {args.pin_file} is not UTF-8 text: save it as plain text",
            ) from None
        return lines[0] if lines else ""
    pin = os.environ.get(PIN_ENV)
    if pin:
        return pin
    raise BadInput("teacher.pin", f"no teacher PIN: give --pin, --pin-file FILE or set ${PIN_ENV}")


CONSOLE_FOLDER = "console"


def tls_context(cert: Path | None, key: Path | None) -> ssl.SSLContext | None:
    """The dashboard's HTTPS context, None for plain HTTP; :class:`BadInput` says which
    file is missing or wrong."""
    if cert is None and key is None:
        return None
    if cert is None or key is None:
        raise BadInput("teacher.tls", "give both --tls-cert FILE and --tls-key FILE, or neither")
    for path in (cert, key):
        try:
            path.read_bytes()
        except OSError as exc:
            raise BadInput("teacher.tls", f"{path} cannot be read: {exc.strerror}") from None
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    try:
        context.load_cert_chain(cert, key)
    except (ssl.SSLError, OSError) as exc:
        raise BadInput(
            "teacher.tls",
            f"{cert} and {key} are not a certificate (PEM) and its own private key: {exc}",
        ) from None
    return context


def teacher_command(
    fleet: Path,
    data: Path,
    port: int,
    *,
    pin: str | None = None,
    tls: tuple[Path, Path] | None = None,
    redirect: int | None = None,
) -> list[str]:
    """The command line of a dashboard process on 127.0.0.1:``port`` run by this Python
    (``pin``: else from ``$TABLETOP_TEACHER_PIN``; ``tls``: certificate and key): for the
    figures and the tests that talk to it over the network."""
    command = [sys.executable, "-m", "tabletop", "teacher", "--fleet", str(fleet)]
    command += ["--data", str(data), "--port", str(port), "--bind", "127.0.0.1"]
    if pin is not None:
        command += ["--pin", pin]
    if tls is not None:
        command += ["--tls-cert", str(tls[0]), "--tls-key", str(tls[1])]
    if redirect is not None:
        command += ["--redirect-port", str(redirect)]
    return command


def run(args: argparse.Namespace) -> int:
    from tabletop.classroom.fleet.config import find_config
    from tabletop.classroom.fleet.coordinator import Coordinator
    from tabletop.store import data_dir
    from tabletop.teacher.auth import Gate, device_secret

    if args.verbose:
        logging.getLogger("tabletop").setLevel(logging.INFO)
    folder = args.data or data_dir() / CONSOLE_FOLDER
    secret = device_secret(folder / "teacher-devices.key")
    gate = Gate(read_pin(args), idle_minutes=args.idle_minutes, secret=secret)
    https = tls_context(args.tls_cert, args.tls_key)
    for port in (args.port, args.redirect_port):
        if port is not None and not 0 < port < 65536:
            raise BadInput("teacher.port", f"the port {port} is not 1..65535")
    if args.redirect_port is not None and https is None:
        raise BadInput("teacher.port", "--redirect-port sends browsers to HTTPS: give --tls-cert")
    if args.redirect_port == args.port:
        raise BadInput("teacher.port", "--redirect-port must differ from --port")
    config = find_config(args.fleet)
    if config is None:
        raise BadInput(
            "teacher.fleet",
            "no fleet file: give --fleet FILE (the teacher.toml `tabletop fleet setup` wrote)",
        )
    # Never the station app's own journal: a coordinator that is also a station would
    # count its own games twice (once played, once received as results).
    console = Coordinator(config, folder)
    console.start()
    try:
        asyncio.run(_serve(console, gate, args.bind, args.port, config, https, args.redirect_port))
    finally:
        console.stop()
    return 0


async def _serve(
    console: Coordinator,
    gate: Gate,
    bind: str,
    port: int,
    config: FleetConfig,
    https: ssl.SSLContext | None = None,
    redirect: int | None = None,
) -> None:
    from aiohttp import web

    from tabletop.teacher.app import make_app, redirect_app

    runners: list[web.AppRunner] = []

    async def listen(app: web.Application, at: int, context: ssl.SSLContext | None) -> None:
        runner = web.AppRunner(app, handle_signals=False, access_log=None, shutdown_timeout=2.0)
        await runner.setup()
        runners.append(runner)
        try:
            await web.TCPSite(runner, bind, at, ssl_context=context).start()
        except OSError as exc:
            for started in runners:
                await started.cleanup()
            raise BadInput(
                "teacher.port", f"cannot listen on {bind}:{at}: {exc.strerror or exc}"
            ) from None

    await listen(make_app(console, gate), port, https)
    if redirect is not None:
        await listen(redirect_app(port), redirect, None)
    shown = "localhost" if bind in ("0.0.0.0", "::", "") else bind
    scheme = "https" if https else "http"
    broker = f"{config.host}:{config.port}" + (" TLS" if config.tls else "")
    print(f"teacher dashboard on {scheme}://{shown}:{port}/ (broker {broker})", flush=True)
    if redirect is not None:
        print(f"http://{shown}:{redirect}/ sends browsers there", flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    try:
        await stop.wait()
    finally:
        for runner in runners:
            await runner.cleanup()
        print("teacher dashboard stopped", file=sys.stderr, flush=True)


__all__ = ["PIN_ENV", "add_parser", "read_pin", "run", "teacher_command", "tls_context"]
