"""``tabletop`` (the app), ``tabletop app``, ``tabletop demo`` and ``tabletop buttons test``.

Parsers and runners for the commands of the touchscreen app and the seat buttons;
``tabletop/cli.py`` plugs them in.
"""

from __future__ import annotations

import argparse
import inspect
import sys
from collections.abc import Mapping
from dataclasses import asdict, fields
from pathlib import Path

from tabletop.engine.errors import BadInput
from tabletop.outfiles import out_folder
from tabletop.ui.launch import AppOptions, run_app


def window_size(text: str) -> tuple[int, int]:
    """``--size``'s argument type: WIDTHxHEIGHT, at least 320x240."""
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"a size is WIDTHxHEIGHT, e.g. 800x480, not {text!r}"
        ) from None
    if w < 320 or h < 240:
        raise argparse.ArgumentTypeError(f"{text} is too small: at least 320x240")
    return w, h


def add_parsers(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("app", help="the touchscreen app (what bare `tabletop` starts)")
    mode = p.add_mutually_exclusive_group()
    mode.add_argument(
        "--fullscreen",
        dest="fullscreen",
        action="store_true",
        help="full screen (the default on a Raspberry Pi)",
    )
    mode.add_argument(
        "--windowed",
        dest="fullscreen",
        action="store_false",
        help="a window (the default on a desktop)",
    )
    p.add_argument(
        "--size",
        type=window_size,
        help="window size, WIDTHxHEIGHT (800x480; 1280x720 the big layout; others scaled)",
    )
    p.add_argument("--pins", type=Path, help="the seat pin map (TOML)")
    p.add_argument(
        "--no-buttons",
        dest="buttons",
        action="store_false",
        help="no GPIO seat buttons (keys 1..8 still work)",
    )
    p.add_argument(
        "--camera", help="auto, none, picamera, a USB camera index, or a folder of photos"
    )
    p.add_argument(
        "--data",
        type=Path,
        help="the folder for saved games and the class list (default: $TABLETOP_DATA "
        "or the platform's data folder)",
    )
    p.add_argument(
        "--fleet",
        type=Path,
        help="join the classroom fleet with this fleet file (default: $TABLETOP_FLEET, "
        "else /etc/tabletop/fleet.toml if it exists)",
    )
    p.add_argument("--frames", type=int, help=argparse.SUPPRESS)
    p.add_argument(
        "--timing",
        action="store_true",
        help="print the time from start to the first frame on stderr",
    )
    p.set_defaults(run=run_app_command, **asdict(AppOptions()))  # its defaults, said once

    p = sub.add_parser("buttons", help="seat buttons: `buttons test` checks the wiring")
    what = p.add_subparsers(dest="what", metavar="WHAT", required=True)
    q = what.add_parser("test", help="light each seat's LED, then report each button press")
    q.add_argument("--pins", type=Path, help="the pin map (TOML)")
    q.add_argument("--seconds", type=float, default=60.0, help="how long to wait for presses")
    q.add_argument(
        "--mock",
        action="store_true",
        help="no hardware: gpiozero's mock pins, every button pressed once",
    )
    q.add_argument("--print-map", action="store_true", help="print the pin map as TOML and stop")
    q.set_defaults(run=run_buttons_command)


def run_app_command(args: argparse.Namespace | None) -> int:
    """Run the app; ``args`` (None: every default) carries each of :class:`AppOptions`'s
    fields under its own name, as ``add_parsers`` made them."""
    if args is None:
        return run_app(AppOptions())
    return run_app(AppOptions(**{f.name: getattr(args, f.name) for f in fields(AppOptions)}))


# Why a game's demo has no --child (issue 24): the device checks none of its players'
# answers, so no skills report could come of it.
NO_CHILD = {
    "bubbles": "the bubble game is not journaled, so no report keeps its answers",
    "math-attack": "the device works Math Attack!'s totals out itself and checks no answers",
}


def demo_modes(game: str, text: str, takes: Mapping[str, object]) -> dict[str, object]:
    """``--modes`` for the game's demo: Mathe-Meister's modes (``modes``), M.E.C.S.'s one
    mode (``mode``: normal or challenge, MECS-6); for a demo with no modes anything but the
    default is refused, never ignored."""
    names = [m.strip() for m in text.split(",") if m.strip()]
    if "modes" in takes:
        from tabletop.games.mathe_meister import normalise_mode

        return {"modes": tuple(normalise_mode(m) for m in names) or ("freestyle",)}
    if names in ([], ["freestyle"]):
        return {}
    if "mode" in takes:
        from tabletop.games.mecs import MODES

        if len(names) == 1 and names[0] in MODES:
            return {"mode": names[0]}
    raise BadInput("demo.modes", f"the {game} demo has no mode {','.join(names)!r}")


def run_demo_command(args: argparse.Namespace) -> int:
    """The game's app demo, given the options its ``run_demo`` takes (Mathe-Meister's
    also take ``--modes`` and ``--log``); ``--data``, ``--child`` or ``--log`` for a demo
    that has no such option is refused."""
    from tabletop.ui.games import game_app

    game = args.game
    app = game_app(game)
    if app is None:
        raise BadInput("demo.game", f"{game} has no app demo yet")
    takes = inspect.signature(app.run_demo).parameters
    given = {"data": args.data, "child": args.child or None, "log_path": args.log}
    refusals = {
        "data": f"the {game} demo is not saved, so --data does not apply",
        "child": f"the {game} demo has no --child: {NO_CHILD.get(game, 'not built yet')}",
        "log_path": f"the {game} demo writes no game log: --log is for mathe-meister",
    }
    extra: dict[str, object] = {k: v for k, v in given.items() if v is not None}
    for name in (n for n in extra if n not in takes):
        raise BadInput(f"demo.{name}", refusals[name])  # refused, never ignored
    extra.update(demo_modes(game, args.modes, takes))
    if args.data is not None:  # the journal's folder: made, or refused before the game
        out_folder(args.data)
    app.run_demo(seed=args.seed, out_dir=args.out, out=sys.stdout, **extra)
    return 0


def run_buttons_command(args: argparse.Namespace) -> int:
    from hardware.pins import format_pin_map, load_pin_map
    from hardware.wiring import buttons_test

    pins = load_pin_map(args.pins)
    if args.print_map:
        print(format_pin_map(pins), end="")
        return 0
    factory = None
    if args.mock:
        from gpiozero.pins.mock import MockFactory  # type: ignore[import-untyped]

        factory = MockFactory()
    if args.seconds <= 0:
        raise BadInput("buttons.seconds", "--seconds must be more than 0")
    pressed = buttons_test(
        pins, sys.stdout, seconds=args.seconds, pin_factory=factory, simulate=args.mock
    )
    return 0 if pressed == len(pins) else 1


__all__ = ["add_parsers", "run_app_command", "run_buttons_command", "run_demo_command"]
