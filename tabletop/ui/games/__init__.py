"""The app's card games and the bubble game: one module per game.

Every game is a module (or package) here, listed in :data:`GAME_APPS`, and exposes:

``setup_scene(ctx: Context) -> Scene``
    The game's first screen (players, bots, mode, options, rules), pushed by Home.
``run_demo(*, seed: int | None, out_dir: Path | None, out: TextIO, size=(800, 480)) -> str``
    A whole game with bots in every seat through the game's own scenes, offscreen
    (SDL's dummy driver), camera observations simulated from the virtual deck and
    injected as ``CardsSeen`` events, screenshots saved in ``out_dir`` (a fresh temporary
    folder when None, whose path is printed). Prints one line per round or turn and ends
    with the line ``winner: NAMES`` (seat names joined by ", ", or ``draw``); returns
    that line. ``tabletop demo --game GAME`` calls it.
``resume_scene(ctx: Context, save: GameSave, match: Match) -> Scene``
    The game screen rebuilt around a match replayed from the journal (issue 10):
    ``save.app`` holds what the screen stored when it started (names, bots, options,
    the seed). Home offers it when the app starts with a game left unfinished.
"""

from __future__ import annotations

import importlib
import logging
from collections.abc import Callable, Iterable
from types import ModuleType
from typing import Any

log = logging.getLogger(__name__)

# game id (as in tabletop.games.GAMES and `tabletop check`) -> module
GAME_APPS = {
    "mathe-meister": "tabletop.ui.games.mathe_meister",
    "math-wars-meta": "tabletop.ui.games.math_wars_meta",
    "math-attack": "tabletop.ui.games.math_attack",
    "mecs": "tabletop.ui.games.mecs",
    "math-arena": "tabletop.ui.games.math_arena",
    "bubbles": "tabletop.ui.games.bubbles",
}


def game_package(
    package: str, *, setup_scene: str, resume_scene: str | None = None, **more: Iterable[str]
) -> Callable[[str], Any]:
    """A game package's module ``__getattr__`` (PEP 562): the names above from the modules
    named (``resume_scene``: None for a game that is not journaled; ``run_demo`` from
    ``demo``) and the names ``more`` gives per module (module -> names), each imported
    when first asked for, so that importing a pygame-free module of the package (its
    ``play``) brings no pygame in."""
    where = {"setup_scene": setup_scene, "run_demo": "demo"}
    if resume_scene is not None:
        where["resume_scene"] = resume_scene
    for module, names in more.items():
        where.update(dict.fromkeys(names, module))

    def load(name: str) -> Any:
        if name not in where:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        return getattr(importlib.import_module(f"{package}.{where[name]}"), name)

    return load


def game_app(game: str) -> ModuleType | None:
    """The game's app module, or None for a game id no app is listed for."""
    name = GAME_APPS.get(game)
    return None if name is None else importlib.import_module(name)


def resume_game(ctx: Any, saved: Any) -> Any:
    """The screen of a journaled, unfinished game (``tabletop.store.Saved``), replayed.

    Raises ``CorruptLog`` when its journal no longer replays (the journal then marks it
    "broken", keeping its rows) and ``LookupError`` when its game cannot be resumed.
    """
    from tabletop.games import GAMES
    from tabletop.ui.saves import GameSave

    resume = getattr(game_app(saved.game), "resume_scene", None)
    if resume is None:
        raise LookupError(f"{saved.game} games cannot be carried on")
    save = GameSave.resumed(ctx, saved)
    match = ctx.journal.load(saved.id, GAMES)
    return resume(ctx, save, match)


def start_card_camera(ctx: Any, game: str, seats: int) -> Any | None:
    """Start reading the card zones of ``seats`` seats (``CardsSeen`` events reach the top
    scene); the camera, to stop on leaving, or None without one or with no seats (cards
    are then tapped in, or on the screen)."""
    if ctx.card_camera is None or seats <= 0:
        return None
    try:
        camera = ctx.card_camera(game, seats)
        camera.start()
    except Exception as exc:  # a camera that fails to start is not a reason to stop play
        log.warning("%s: the card camera did not start: %s", game, exc)
        return None
    return camera


def stop_card_camera(camera: Any | None) -> None:
    if camera is not None:
        try:
            camera.stop()
        except Exception as exc:
            log.warning("the card camera did not stop cleanly: %s", exc)
