"""Math Arena's rules pages and its setup (the one setup form: seats, children or bots
at one level, real or virtual cards)."""

from __future__ import annotations

from tabletop.games.math_arena import MathArena
from tabletop.ui.app import Context, Scene
from tabletop.ui.scenes.form import (
    CHILD,
    EMPTY,
    REAL,
    VIRTUAL,
    Cards,
    FormScene,
    FormSpec,
    FormValues,
    Preset,
    Seats,
)
from tabletop.ui.scenes.rules import RulesScene, load_rules

GAME = MathArena()

RULES = load_rules("math_arena")


def rules_scene(ctx: Context) -> RulesScene:
    return RulesScene(ctx, "Math Arena: the rules", RULES)


def _start(ctx: Context, values: FormValues) -> Scene:
    from tabletop.ui.games.math_arena.table import ArenaScene

    cards = "virtual" if values.virtual else "table"
    seed = ctx.rng.randrange(1 << 30)
    return ArenaScene(ctx, seats=values.seats, cards=cards, level=values.level, seed=seed)


SETUP = FormSpec(
    game=GAME.name,
    title="Math Arena",
    subtitle="Win the Kings, Queens and Jacks with two number cards.",
    rules=RULES,
    start=_start,
    seats=Seats(
        2,
        5,
        (CHILD, CHILD, CHILD, EMPTY, EMPTY),
        levels=(("easy", "Easy"), ("hard", "Hard")),
        level="easy",
        shared_level=True,
    ),
    cards=Cards(),
    modes=(("cards", Preset(cards=REAL)), ("virtual", Preset(cards=VIRTUAL))),
    replace=True,
)


def setup_scene(ctx: Context) -> Scene:
    """The game's first screen (Home pushes it): the one setup form."""
    return FormScene(ctx, SETUP)


__all__ = ["RULES", "SETUP", "rules_scene", "setup_scene"]
