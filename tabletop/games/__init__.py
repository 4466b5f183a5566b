"""The games: one pure, I/O-free engine module per game."""

from __future__ import annotations

from typing import Any

from tabletop.engine.protocol import Game
from tabletop.games.math_arena import MathArena
from tabletop.games.math_attack import MathAttack
from tabletop.games.math_wars_meta import MathWarsMeta
from tabletop.games.mathe_meister import MatheMeister
from tabletop.games.mecs import Mecs

GAMES: dict[str, Game[Any, Any, Any]] = {
    MatheMeister.name: MatheMeister(),
    Mecs.name: Mecs(),
    MathAttack.name: MathAttack(),
    MathArena.name: MathArena(),
    MathWarsMeta.name: MathWarsMeta(),
}

__all__ = ["GAMES"]
