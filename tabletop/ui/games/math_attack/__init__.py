"""Math Attack! in the touchscreen app: two number lines, drawn card by card with running
totals (RULINGS ATK-1..ATK-6, engine :mod:`tabletop.games.math_attack`).

Two ways to play: two children with real cards, read by the camera (or tapped in), or a
child against a bot with the cards on the screen. The modules: ``play`` (the device's
side of the table, no pygame), ``table`` (the scene on the one table base), ``draw``
(cards and number lines), ``setup`` (the rules and the setup form), ``demo``. The end
is the one results scene (:mod:`tabletop.ui.results`).

``setup_scene(ctx)`` is what Home pushes; ``resume_scene(ctx, save, match)`` is the
table again around a game carried on from the journal; ``run_demo(...)`` plays a whole
game with two bots offscreen (``tabletop demo --game math-attack``).
"""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

if TYPE_CHECKING:
    from tabletop.engine.match import Match
    from tabletop.ui.app import Context, Scene
    from tabletop.ui.saves import GameSave

# names other modules and the tests use, from the module that defines them (imported
# when first asked for, so that importing ``play`` alone does not bring pygame in)
WHERE = {
    "AttackScene": "table",
    "SETUP": "setup",
    "RULES": "setup",
    "zone_reading": "demo",
    "BOT_SECONDS": "play",
    "AttackPlay": "play",
    "Ghost": "play",
    "label": "play",
    "draw_card": "draw",
    "draw_number_line": "draw",
}


def __getattr__(name: str) -> Any:
    if name not in WHERE:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{WHERE[name]}"), name)


def setup_scene(ctx: Context) -> Scene:
    """The first screen of Math Attack! (Home pushes it): the one setup form."""
    from tabletop.ui.games.math_attack.setup import SETUP
    from tabletop.ui.scenes.form import FormScene

    return FormScene(ctx, SETUP)


def resume_scene(ctx: Context, save: GameSave, match: Match[Any, Any, Any]) -> Scene:
    """The game screen again around a match replayed from the journal: the names, the
    bot, who started and the seed from ``save.app`` (the keys every version wrote)."""
    from tabletop.ui.games.math_attack.table import AttackScene

    app = save.app
    names = tuple(save.names) if len(save.names) == 2 else tuple(app["names"])
    return AttackScene(
        ctx,
        names=(str(names[0]), str(names[1])),
        bot=app.get("bot"),
        first=int(app.get("first", 0)),
        seed=int(app["seed"]),
        match=match,
        save=save,
    )


def run_demo(
    *,
    seed: int | None = None,
    out_dir: Path | None = None,
    out: TextIO,
    size: tuple[int, int] = (800, 480),
    bots: tuple[str, str] = ("hard", "medium"),
    rollouts: int = 200,
    data: Path | None = None,
) -> str:
    """Two bots play a whole game with "real" cards offscreen; returns the ``winner:``
    line. ``data``: journal it there; started again after a kill, it carries on."""
    from tabletop.ui.games.math_attack.demo import run_demo as run

    return run(
        seed=seed, out_dir=out_dir, out=out, size=size, bots=bots, rollouts=rollouts, data=data
    )


__all__ = ["resume_scene", "run_demo", "setup_scene"]
