"""Math Wars Meta's rules in plain words, with the rule book's worked examples
(RULINGS MWM-1..MWM-8)."""

from __future__ import annotations

from tabletop.games.math_wars_meta import EDITIONS
from tabletop.ui.app import Context
from tabletop.ui.scenes.rules import RulesPage, RulesScene, load_rules


def pages(edition: str = "MWM25") -> list[RulesPage]:
    """The pages for ``edition``, its numbers from the engine's edition data."""
    ed = EDITIONS[edition]
    victories = {name: e.victory_cards for name, e in EDITIONS.items()}
    return list(
        load_rules(
            "math_wars_meta",
            edition=edition,
            victory_cards=ed.victory_cards,
            top=ed.count_numbers[-1],
            victories=victories,
        )
    )


def rules_scene(ctx: Context, edition: str = "MWM25") -> RulesScene:
    return RulesScene(ctx, "Math Wars Meta: the rules", pages(edition))


__all__ = ["pages", "rules_scene"]
