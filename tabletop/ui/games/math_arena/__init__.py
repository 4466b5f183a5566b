"""Math Arena in the touchscreen app (ARENA-1..ARENA-5): the operator card, the seat
buttons, the reveal, the ruling.

The modules: ``play`` (the device's side of the table, no pygame), ``table`` (the scene:
drawing and routing), ``rules`` (the rules pages and the setup form), ``demo``
(``tabletop demo --game math-arena``). The end is the one results scene.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from tabletop.ui.app import Context, Scene

if TYPE_CHECKING:
    from tabletop.engine.match import Match
    from tabletop.ui.saves import GameSave

# names kept importable from here, and the module that holds each
_WHERE = {
    "ArenaScene": "table",
    "HandPicker": "table",
    "draw_card": "table",
    "RULES": "rules",
    "SETUP": "rules",
    "ArenaPlay": "play",
    "BOT_SECONDS": "play",
    "BOT_STAGGER": "play",
    "COUNTDOWN": "play",
    "value_question": "play",
}


def __getattr__(name: str) -> Any:
    if name not in _WHERE:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{_WHERE[name]}"), name)


def setup_scene(ctx: Context) -> Scene:
    """The game's first screen (Home pushes it): the one setup form."""
    from tabletop.ui.games.math_arena.rules import setup_scene

    return setup_scene(ctx)


def rules_scene(ctx: Context) -> Scene:
    from tabletop.ui.games.math_arena.rules import rules_scene

    return rules_scene(ctx)


def resume_scene(ctx: Context, save: GameSave, match: Match[Any, Any, Any]) -> Scene:
    """The game screen again around a match replayed from the journal (issue 10): the
    seats, cards, level, seed and tournament from ``save.app`` as the game wrote them."""
    from tabletop.games.math_arena import Tournament
    from tabletop.store import SeatInfo
    from tabletop.ui.games.math_arena.play import TOURNAMENT_TARGET
    from tabletop.ui.games.math_arena.table import ArenaScene

    app = save.app
    players = len(app.get("seats") or save.seats)
    t = app.get("tournament") or {}
    tournament = Tournament(
        players,
        target=int(t.get("target", TOURNAMENT_TARGET)),
        points=tuple(int(x) for x in t.get("points", ())) or (0,) * players,
        games=int(t.get("games", 0)),
    )
    seats: list[tuple[str, bool] | SeatInfo] = list(save.seats)
    if len(seats) != players:
        seats = [(str(name), bool(bot)) for name, bot in app["seats"]]
    return ArenaScene(
        ctx,
        seats=seats,
        cards=str(app.get("cards", "table")),
        level=str(app.get("level", "easy")),
        seed=int(app["seed"]),
        tournament=tournament,
        match=match,
        save=save,
    )


def run_demo(
    *,
    seed: int | None,
    out_dir: Path | None,
    out: TextIO,
    size: tuple[int, int] = (800, 480),
    data: Path | None = None,
    child: bool = False,
) -> str:
    """A whole game with bots offscreen; returns the ``winner:`` line (see ``demo``)."""
    from tabletop.ui.games.math_arena.demo import run_demo as run

    return run(seed=seed, out_dir=out_dir, out=out, size=size, data=data, child=child)


__all__ = ["resume_scene", "rules_scene", "run_demo", "setup_scene"]
