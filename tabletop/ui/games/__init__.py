"""The app's card games and the bubble game: one module per game.

Mathe-Meister lives in ``tabletop/ui/scenes`` (it came first); every other game is a
module (or package) here, listed in :data:`GAME_APPS`, and exposes:

``setup_scene(ctx: Context) -> Scene``
    The game's first screen (players, bots, mode, options, rules), pushed by Home.
``run_demo(*, seed: int | None, out_dir: Path | None, out: TextIO, size=(800, 480)) -> str``
    A whole game with bots in every seat through the game's own scenes, offscreen
    (SDL's dummy driver), camera observations simulated from the virtual deck and
    injected as ``CardsSeen`` events, screenshots saved in ``out_dir`` (a fresh temporary
    folder when None, whose path is printed). Prints one line per round or turn and ends
    with the line ``winner: NAMES`` (seat names joined by ", ", or ``draw``); returns
    that line. ``tabletop demo --game GAME`` calls it.
"""

from __future__ import annotations

import importlib
from types import ModuleType

# game id (as in tabletop.games.GAMES and `tabletop check`) -> module
GAME_APPS = {
    "math-wars-meta": "tabletop.ui.games.math_wars_meta",
    "math-attack": "tabletop.ui.games.math_attack",
    "mecs": "tabletop.ui.games.mecs",
    "math-arena": "tabletop.ui.games.math_arena",
    "bubbles": "tabletop.ui.games.bubbles",
}


def game_app(game: str) -> ModuleType | None:
    """The game's app module, or None if the game has no app (yet)."""
    name = GAME_APPS.get(game)
    if name is None:
        return None
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as e:
        if e.name == name:
            return None
        raise


def playable() -> frozenset[str]:
    """Game ids Home can start (Mathe-Meister always)."""
    return frozenset({"mathe-meister"} | {g for g in GAME_APPS if game_app(g) is not None})
