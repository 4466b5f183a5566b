"""Every ``tabletop`` command (DESIGN.md, "Commands").

This is the composition root: it reads files, picks dealers and bots, and turns every
error into one clear line on stderr with exit status 2. Nothing below it prints.
"""

from __future__ import annotations

import argparse
import importlib
import json
import logging
import os
import stat
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from tabletop.cliparse import OneLineParser
from tabletop.engine.errors import BadInput, CorruptLog, TabletopError

log = logging.getLogger("tabletop")

GAME_NAMES = ("mathe-meister", "math-wars-meta", "math-attack", "mecs", "math-arena")


class CommandError(Exception):
    """A problem to report on one line with exit status 2."""


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING, format="%(name)s: %(message)s")
    try:
        result: int = args.run(args)
        return result
    except (CommandError, TabletopError) as exc:
        print(f"tabletop {args.command}: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"tabletop {args.command}: stopped", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


def _parser() -> argparse.ArgumentParser:
    parser = OneLineParser(
        prog="tabletop", description="The math-games tabletop device: games, checks and tools."
    )
    parser.set_defaults(run=_cmd_default, command="app")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    p = sub.add_parser("demo", help="no display needed: bots play a whole game in the app")
    _game_options(p)
    p.add_argument(
        "--game",
        default="mathe-meister",
        choices=("mathe-meister", "math-wars-meta", "math-attack", "mecs", "math-arena", "bubbles"),
        help="which game (default: mathe-meister)",
    )
    p.add_argument("--out", type=Path, default=None, help="folder for the screenshots")
    p.add_argument(
        "--data",
        type=Path,
        default=None,
        help="journal the game in this folder as the app does; started again with the same "
        "arguments after a crash, the demo carries on where it was",
    )
    p.add_argument("--terminal", action="store_true", help="the text version (virtual dice)")
    p.add_argument(
        "--child",
        action="store_true",
        help="seat 1 is a guest child whose answers make each kind of mistake at a stated "
        "rate (seeded), so the journal makes a real skills report",
    )
    p.set_defaults(run=_cmd_demo)

    from tabletop.ui.commands import add_parsers as add_ui_parsers

    add_ui_parsers(sub)

    p = sub.add_parser("check", help="arbitrate one situation from JSON and print JSON")
    p.add_argument("game", metavar="GAME", help=", ".join(GAME_NAMES))
    p.add_argument("file", metavar="FILE|-", help="a JSON file, or - for standard input")
    p.set_defaults(run=_cmd_check)

    from tabletop.printables.commands import add_parser as add_print_parser

    add_print_parser(sub)

    from tabletop.classroom.report import add_parser as add_report_parser

    add_report_parser(sub)
    importlib.import_module("tabletop.teacher.cli").add_parser(sub)  # tabletop teacher
    importlib.import_module("tabletop.classroom.fleet.cli").add_parser(sub)  # tabletop fleet

    p = sub.add_parser("replay", help="replay a game log and print its final state")
    p.add_argument("log", metavar="LOG", help="a JSON-lines game log")
    p.set_defaults(run=_cmd_replay)

    from vision.cli import add_parser as add_vision_parser

    add_vision_parser(sub)

    p = sub.add_parser("bench", help="measured figures as JSON (bots, simulations, timing)")
    p.add_argument("--game", default="mathe-meister", help=", ".join(BENCH_GAMES))
    p.add_argument("--games", type=int, default=1000, help="seeded games per figure (default 1000)")
    p.add_argument("--modes", default="freestyle", help="Mathe-Meister: comma-separated modes")
    p.set_defaults(run=_cmd_bench)
    return parser


def _game_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--seed", type=int, default=None, help="dice seed (default: random)")
    p.add_argument(
        "--modes",
        default="freestyle",
        help="comma-separated game modes, e.g. twins,coinless; M.E.C.S.: normal or challenge",
    )
    p.add_argument("--log", type=Path, default=None, help="write the game log (JSON lines) here")


# -- check -------------------------------------------------------------------------------


def _cmd_check(args: argparse.Namespace) -> int:
    _known_game(args.game)  # before the file: the first thing wrong is said first
    data = _read_json(args.file)
    print(json.dumps(check(args.game, data), sort_keys=True))
    return 0


# Each game module (pure) exposes ``check(data) -> dict``; Mathe-Meister also takes its
# sheet layout, which is data in tabletop/assets/.
CHECK_MODULES = {
    "math-wars-meta": "tabletop.games.math_wars_meta",
    "math-attack": "tabletop.games.math_attack",
    "mecs": "tabletop.games.mecs",
    "math-arena": "tabletop.games.math_arena",
}


def check(game: str, data: Any) -> dict[str, Any]:
    """``tabletop check`` for one game: JSON data in, JSON data out."""
    if game == "mathe-meister":
        from tabletop.assets import mathe_meister_layout
        from tabletop.games import mathe_meister

        return mathe_meister.check(data, mathe_meister_layout())
    _known_game(game)
    module = _game_module(CHECK_MODULES[game], game)
    result: dict[str, Any] = module.check(data)
    return result


def _known_game(game: str) -> None:
    if game not in GAME_NAMES:
        raise CommandError(f"unknown game {game!r}: choose from {', '.join(GAME_NAMES)}")


def _game_module(name: str, game: str) -> Any:
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name == name:
            raise CommandError(f"{game}: this game's engine is not built yet") from None
        raise


# What `check` and `replay` read at most: a long game's log (Math Wars Meta, 8 players,
# MWM100, 1,850 actions) is 0.2 MB, so no real file comes near (/dev/zero never ends).
MAX_INPUT = 16 * 2**20


def _read_text(name: str) -> str:
    """``name`` (``-``: standard input) as UTF-8 text, never more than :data:`MAX_INPUT`
    read: a folder, a device or a larger file is refused; a pipe (``<(cat game.log)``,
    ``/dev/stdin``) is read like a file, up to the cap (which also stops ``/dev/zero``)."""
    try:
        if name == "-":
            data: str | bytes = sys.stdin.read(MAX_INPUT + 1)
        elif not (stat.S_ISREG(mode := os.stat(name).st_mode) or stat.S_ISFIFO(mode)):
            raise BadInput("cli.not_a_file", f"{name} is not a file")
        else:
            with open(name, "rb") as file:
                data = file.read(MAX_INPUT + 1)
    except OSError as exc:
        raise CommandError(f"cannot read {name}: {exc.strerror}") from None
    if len(data) > MAX_INPUT:
        raise BadInput("cli.too_large", f"{name} is larger than {MAX_INPUT:,} bytes")
    return data if isinstance(data, str) else data.decode("utf-8")


def _read_json(name: str) -> Any:
    try:
        text = _read_text(name)
    except UnicodeDecodeError:
        raise CommandError(f"{name} is not UTF-8 text") from None
    from tabletop.engine.codec import loads

    try:
        return loads(text)
    except json.JSONDecodeError as exc:
        raise BadInput(
            "cli.json", f"not JSON: {exc.msg} at line {exc.lineno} column {exc.colno}"
        ) from None
    except RecursionError:
        raise BadInput("cli.json", "the JSON is nested too deeply to read") from None


# -- replay ------------------------------------------------------------------------------


def _cmd_replay(args: argparse.Namespace) -> int:
    from tabletop.engine.codec import digest, encode
    from tabletop.engine.match import Match
    from tabletop.games import GAMES

    try:
        lines = _read_text(str(args.log)).splitlines()
    except UnicodeDecodeError:
        raise CorruptLog("log.text", f"{args.log} is not UTF-8 text") from None
    match = Match.replay(lines, GAMES)
    result = match.result()
    out = {
        "game": match.game.name,
        "actions": match.moves,
        "over": result is not None,
        "digest": digest(match.state),
        "result": None if result is None else encode(result),
        "state": encode(match.state),
    }
    print(json.dumps(out, sort_keys=True))
    return 0


# -- play, demo and bench ----------------------------------------------------------------


def _cmd_default(args: argparse.Namespace) -> int:
    """Bare ``tabletop``: the touchscreen app."""
    from tabletop.ui.commands import run_app_command

    args.command = "app"  # so an error reads "tabletop app: ..."
    return run_app_command(None)


def _cmd_demo(args: argparse.Namespace) -> int:
    from tabletop.outfiles import apart, out_file, out_folder
    from tabletop.store import FILE_NAME

    apart([args.log, args.out], journal=None if args.data is None else args.data / FILE_NAME)
    if args.log is not None:  # before the game is played, not after
        out_file(args.log)
    if args.out is not None:
        out_folder(args.out)
    if not args.terminal:
        from tabletop.ui.commands import run_demo_command

        return run_demo_command(args)
    given = [f"--{n}" for n in ("data", "child") if getattr(args, n)]
    if args.game != "mathe-meister" or given:  # refused, never ignored
        what = f"--game {args.game}" if args.game != "mathe-meister" else " or ".join(given)
        raise BadInput(
            "demo.terminal", f"--terminal is the text Mathe-Meister solo game: it has no {what}"
        )
    from tabletop import terminal

    return terminal.demo(seed=args.seed, modes=_modes(args.modes), log_path=args.log)


# Each other game's bot module exposes ``bench(games: int) -> dict`` of measured figures.
BENCH_MODULES = {
    "math-wars-meta": "tabletop.bots.math_wars_meta",
    "math-attack": "tabletop.bots.math_attack",
    "mecs": "tabletop.bots.mecs",
    "math-arena": "tabletop.bots.math_arena",
}
# What `tabletop bench --game` measures: every game, the camera's reading, the printables.
BENCH_GAMES = ("mathe-meister", *BENCH_MODULES, "vision", "printables")


def _cmd_bench(args: argparse.Namespace) -> int:
    if args.games < 1:  # the figures are means over the games played: none has no mean
        raise CommandError(f"--games must be at least 1, not {args.games}")
    if args.game == "mathe-meister":
        from tabletop import bench

        figures = bench.engine_figures(args.games, _modes(args.modes))
    elif args.game == "vision":
        from vision import bench as vision_bench

        figures = vision_bench.figures()
    elif args.game == "printables":
        import tempfile

        from tabletop.printables.verify import read_rates

        with tempfile.TemporaryDirectory() as tmp:
            figures = read_rates(Path(tmp))
    elif args.game in BENCH_MODULES:
        figures = _game_module(BENCH_MODULES[args.game], args.game).bench(args.games)
    else:
        raise CommandError(f"unknown game {args.game!r}: choose from {', '.join(BENCH_GAMES)}")
    print(json.dumps(figures, indent=2))
    return 0


def _modes(text: str) -> tuple[str, ...]:
    return tuple(m for m in (part.strip() for part in text.split(",")) if m)


if __name__ == "__main__":
    raise SystemExit(main())
