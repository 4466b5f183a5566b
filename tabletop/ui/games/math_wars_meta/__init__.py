"""Math Wars Meta in the touchscreen app (RULINGS MWM-1..MWM-9).

``setup_scene(ctx)`` is the first screen (the one setup form: players and bots, cards,
edition, teams, discard option, rules); ``run_demo(...)`` plays a whole game offscreen
with bots in every seat, their cards "seen" by a simulated camera. The modules: ``play``
(the controller: the device's side of the table, no pygame), ``cards`` (card codes
read), ``verdict`` (rulings in a child's words), ``table`` (the scene on the one table
base), ``scorecard`` (the Score Cards drawn), ``setup``, ``rules``, ``demo``. The end
goes to the one results scene (:mod:`tabletop.ui.results`).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from tabletop.ui.app import Context, Scene

if TYPE_CHECKING:
    from tabletop.engine.match import Match
    from tabletop.ui.saves import GameSave


def setup_scene(ctx: Context) -> Scene:
    """The game's first screen, pushed by Home."""
    from tabletop.ui.games.math_wars_meta.setup import setup_scene as scene

    return scene(ctx)


def resume_scene(ctx: Context, save: GameSave, match: Match[Any, Any, Any]) -> Scene:
    """The table again around a match replayed from the journal (issue 10): the setup's
    choices and the seed from ``save.app``, then what the table held beyond the match."""
    from tabletop.ui.games.math_wars_meta.setup import Choices, make_game

    choices = Choices.from_record(save.app.get("choices") or {})
    return make_game(ctx, choices, int(save.app["seed"]), save=save, match=match)


def run_demo(
    *,
    seed: int | None = None,
    out_dir: Path | None = None,
    out: TextIO,
    size: tuple[int, int] = (800, 480),
    data: Path | None = None,
    child: bool = False,
) -> str:
    """A whole game with bots in every seat, offscreen; returns the ``winner:`` line.
    ``data``: journal it there; started again after a crash, it carries on. ``child``:
    seat 1 is a guest child answering from a seeded model that makes mistakes."""
    from tabletop.ui.games.math_wars_meta.demo import run_demo as run

    return run(seed=seed, out_dir=out_dir, out=out, size=size, data=data, child=child)


__all__ = ["resume_scene", "run_demo", "setup_scene"]
