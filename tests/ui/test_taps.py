"""Taps from Home to a child's first decision in every game (issue 21's "done when").

A route is what a table does from Home: taps on named targets (counted, as
:class:`~tabletop.ui.autoplay.Autoplayer` counts them) and what reaches the device
without a tap (the camera reading the dice or the cards a child turned up). The first
decision is the moment the engine waits for a child's own choice (``Match.pending``
names seat 1: which cells to write, which card to play, what the answer is; Mathe-Meister
at a table: the dice are out and everybody writes on paper; the bubble game: a bubble
to take) and the child can see what they choose from: with virtual cards, their hand is
on screen.

The counts asserted are today's figures (Math Attack!, Math Arena and Math Wars Meta on the
one setup form, the other setups as before),
so that a change that adds or saves a tap is noticed: a route that saves taps should
lower its figure here. Each route's last tap is checked to be needed (the child had no
decision to make before it). The table of figures is printed by::

    PYTHONPATH=$PWD .venv/bin/python -m tests.ui.test_taps
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest

from tabletop.ui.app import App
from tabletop.ui.autoplay import Autoplayer
from tests.ui.game_scenery import show_cards
from tests.ui.scenery import make_app, photo_seen

# a step of a route: a target's name (a tap), or something that reaches the device
# without a tap (a camera reading)
Step = str | Callable[[App], None]


@dataclass(frozen=True)
class Route:
    game: str
    players: str  # "against a bot", "two children", "one child" (and how)
    steps: tuple[Step, ...]
    taps: int  # today's figure
    camera: bool = False  # the app has a dice camera (Mathe-Meister)
    note: str = ""


def _dice_seen(app: App) -> None:
    """The dice camera's first reading, as it comes when the dice screen opens."""
    app.ctx.camera.next = photo_seen()


def _frame(app: App) -> None:
    """A frame of the app: the camera's reading reaches the screen."""
    app.step()


def _mwm_cards(app: App) -> None:
    """Both children turned up their battle cards; the camera reads them."""
    show_cards(app, 1, "battle", ("C10", "K+2"))
    show_cards(app, 2, "battle", ("C4", "K+1"))


def _mwm_card(app: App) -> None:
    """The child turned up their battle cards (the bot's are on screen)."""
    show_cards(app, 1, "battle", ("C10", "K+2"))


def _operator(app: App) -> None:
    """Math Arena: the operator card turned over in the middle, read by the camera."""
    show_cards(app, None, "operator", ("QH",))


MM, MWM, ATK, ARENA = "mathe-meister", "math-wars-meta", "math-attack", "math-arena"
BOT, TWO = "against a bot", "two children"
ROUTES = (
    Route(MM, "one child", (_dice_seen, f"game.{MM}", "start", _frame, "use"), 3, True,
          "dice read by the camera"),
    Route(MM, "one child, dice typed in", (f"game.{MM}", "start", "a.3", "b.5", "ok"), 5,
          note="no dice camera"),
    Route(MM, BOT, (_dice_seen, f"game.{MM}", "seat.1", "choice.bot.hint", "start", _frame, "use"),
          5, True, "dice read by the camera"),
    Route(MM, TWO, (_dice_seen, f"game.{MM}", "players.+", "start", _frame, "use"), 4, True,
          "dice read by the camera"),
    Route(MWM, BOT, (f"game.{MWM}", "seat.1", "choice.bot.bot", "start", _mwm_card), 4,
          note="real cards (seat 2's picker: a bot, which deals its own)"),
    Route(MWM, TWO, (f"game.{MWM}", "start", _mwm_cards), 2,
          note="real cards read by the camera"),
    Route(ATK, BOT, (f"game.{ATK}", "seat.1", "choice.bot.easy", "start"), 4,
          note="virtual cards (seat 2's picker: a bot)"),
    Route(ATK, TWO, (f"game.{ATK}", "start"), 2, note="real cards"),
    Route("mecs", BOT, ("game.mecs", "start"), 2,
          note="the default: a child and a bot, virtual cards"),
    Route("mecs", TWO, ("game.mecs", "seat.1", "choice.child", "start"), 4,
          note="virtual cards (seat 2's picker: a child)"),
    Route(ARENA, BOT, (f"game.{ARENA}", "seat.1", "choice.bot.easy", "start", "ready.0"), 5,
          note="virtual cards: the hand shows once I'm ready! is tapped (or the button)"),
    Route(ARENA, TWO, (f"game.{ARENA}", "start", _operator), 2,
          note="real cards, the operator card read by the camera"),
    Route("bubbles", "one child", ("game.mecs", "bubbles", "start"), 3,
          note="from the M.E.C.S. setup; one child only"),
)  # fmt: skip


def table_of(app: App) -> Any:
    """The game's table scene on the stack (the one holding a match), or None."""
    for scene in reversed(list(app.stack)):
        match = getattr(scene, "match", None) or getattr(
            getattr(scene, "play", None), "match", None
        )
        if match is not None:
            return scene, match
    return None, None


def decides(app: App) -> bool:
    """Seat 1 (a child in every route) is to choose, and can see what from."""
    from tabletop.games.bubbles import any_move
    from tabletop.ui.games.bubbles import BubbleScene
    from tabletop.ui.games.math_arena import ArenaScene
    from tabletop.ui.games.mathe_meister.table import TableScene as MMTable
    from tabletop.ui.scenes.rules import ChoiceGrid

    top = app.stack.top
    if isinstance(top, MMTable):  # children write on paper sheets once the dice are out
        return top.play.dice is not None
    if isinstance(top, BubbleScene):
        return any_move(top.play.game) is not None or bool(top.play.game.free_numbers())
    table, match = table_of(app)
    if table is None or 0 not in match.pending.seats:
        return False
    if isinstance(table, ArenaScene) and table.play.cards == "virtual":
        return isinstance(top, ChoiceGrid) and top.prefix == "hand."  # hidden till asked for
    return top is table


def walk(route: Route) -> Autoplayer:
    """Follow ``route`` from Home; the child must not be deciding before its last tap."""
    app = make_app(camera=route.camera)
    auto = Autoplayer(app)
    last = max(i for i, s in enumerate(route.steps) if isinstance(s, str))
    for i, step in enumerate(route.steps):
        if i == last:
            assert not decides(app), f"{route.game}: deciding before {step!r}"
        if isinstance(step, str):
            auto.tap(step)
        else:
            step(app)
    assert decides(app), f"{route.game} ({route.players}): no decision at the end"
    return auto


@pytest.mark.parametrize(
    "route", ROUTES, ids=lambda r: f"{r.game}-{r.players.replace(',', '').replace(' ', '-')}"
)
def test_taps_from_home_to_the_first_decision(route: Route) -> None:
    assert walk(route).taps == route.taps


def main() -> None:
    print(f"{'game':16} {'players':26} taps  route")
    for route in ROUTES:
        taps = walk(route).taps
        names = " ".join(s for s in route.steps if isinstance(s, str))
        print(f"{route.game:16} {route.players:26} {taps:4}  {names}  ({route.note})")


if __name__ == "__main__":
    main()
