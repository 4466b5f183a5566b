"""Playing the app by taps: engine actions turned into taps on named touch targets.

The demo and the end-to-end tests use this to play whole games through the real input
path (``Tap`` events into the app loop, hit-testing, scenes), exactly as a child's
finger would, with the hint bot choosing the moves.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from tabletop.bots.mathe_meister import after_writes, hint
from tabletop.games.mathe_meister import (
    Action,
    ChangeDie,
    ClaimStar,
    EndRound,
    MatheMeisterState,
    SwapOperands,
    SwapOperators,
    WriteOperand,
    WriteOperator,
)
from tabletop.ui.app import App, Scene
from tabletop.ui.games.mathe_meister.dialogs import StarPick
from tabletop.ui.games.mathe_meister.solo import MatheMeisterScene
from tabletop.ui.input import Tap
from tabletop.ui.scenes.dice import DiceScene


class AutoplayError(RuntimeError):
    """A scripted tap found no enabled target with that name."""


def cell_name(cell: tuple[int, int]) -> str:
    return f"cell.r{cell[0]}c{cell[1]}"


def circled_index(state: MatheMeisterState, kind: str) -> int:
    layout, sheet = state.settings.layout, state.sheets[0]
    for i, (k, s) in enumerate(zip(layout.star_powers, sheet.powers)):
        if k == kind and s == "circled":
            return i
    raise AutoplayError(f"no circled {kind} Star Power to tap")


def taps_for(action: Action, state: MatheMeisterState) -> list[str]:
    """The touch targets a child taps, in order, to make ``action`` in the solo game."""
    if isinstance(action, WriteOperand):
        turn = state.turns[0]
        if action.power is not None:
            names = [f"power.{circled_index(state, action.power)}"]
            if not any(turn.used):
                names.append(f"die{action.die}")
            return [*names, cell_name(action.cell)]
        four = state.settings.has("fear_of_fours") and turn.dice[action.die] == 4
        die = f"die{action.die}.{action.value}" if four else f"die{action.die}"
        return [die, cell_name(action.cell)]
    if isinstance(action, WriteOperator):
        pen = f"power.{circled_index(state, action.op)}" if action.power else f"op.{action.op}"
        return [pen, cell_name(action.cell)]
    if isinstance(action, ChangeDie):
        return ["shop", f"d{action.die}.{action.delta:+d}", "close"]
    if isinstance(action, ClaimStar):
        return [f"star.{action.line}", f"power.{action.power}"]
    if isinstance(action, SwapOperators):
        return ["shop", "swap.operators", cell_name(action.a), cell_name(action.b)]
    if isinstance(action, SwapOperands):
        return ["shop", "swap.operands", cell_name(action.a), cell_name(action.b)]
    if isinstance(action, EndRound):
        return ["done"]
    raise AutoplayError(f"no taps for {action!r}")


class Autoplayer:
    """Taps targets by name; answers Bonus Star offers as the bot would."""

    def __init__(self, app: App) -> None:
        self.app = app
        self.taps = 0

    @property
    def top(self) -> Scene:
        scene = self.app.stack.top
        if scene is None:
            raise AutoplayError("the app has no scene")
        return scene

    def tap(self, name: str, *, settle: bool = True) -> None:
        button = self.top.target(name)
        if button is None or not button.enabled:
            state = "disabled" if button is not None else "missing"
            raise AutoplayError(f"target {name!r} is {state} on {type(self.top).__name__}")
        self.app.post(Tap(button.rect.center, self.app.ctx.clock(), "touch"))
        self.app.step()
        self.taps += 1
        if settle:
            self.settle()

    def settle(self) -> None:
        """Answer a Bonus Star offer the way the bot would (claim it, or not now)."""
        while isinstance(self.top, StarPick):
            offer = self.top
            state = self.game().state
            claims = [
                a
                for a in after_writes(state, 0)
                if isinstance(a, ClaimStar) and a.line == offer.line
            ]
            self.tap(f"power.{claims[0].power}" if claims else "skip", settle=False)

    def game(self) -> MatheMeisterScene:
        scene = self.app.stack.find(MatheMeisterScene)
        if scene is None:
            raise AutoplayError("no Mathe-Meister game on the stack")
        return scene

    def play(self, action: Action) -> None:
        state = self.game().state
        if isinstance(action, ClaimStar) and (
            action.line in state.sheets[0].stars
            or any(c.line == action.line and c.power for c in state.claims)
        ):
            return  # already claimed (and its Star Power chosen) when the offer came
        for name in taps_for(action, state):
            self.tap(name)

    def tap_dice(self, values: tuple[int, int]) -> None:
        """On the dice screen: tap the two values in and confirm."""
        if not isinstance(self.top, DiceScene):
            raise AutoplayError("the dice screen is not showing")
        if self.top.mode != "tap":
            self.tap("mode.tap")
        self.tap(f"a.{values[0]}")
        self.tap(f"b.{values[1]}")
        self.tap("ok")

    def bot_round(
        self,
        before_done: Callable[[], None] | None = None,
        choose: Callable[[MatheMeisterState, Sequence[Action]], Action] | None = None,
    ) -> list[Action]:
        """Play this round by taps as the hint bot plans it; ``choose(state, plan)`` makes
        the decision for ``plan[0]`` instead (the rest: the round's later writes), as the
        demo child does. Returns the actions."""
        game = self.game()
        plan = hint(game.state, 0).actions()
        played: list[Action] = []
        for i, planned in enumerate(plan):
            action = planned if choose is None else choose(game.state, plan[i:])
            self.play(action)
            played.append(action)
        for action in after_writes(game.state, 0):
            if isinstance(action, EndRound) and before_done is not None:
                before_done()
            self.play(action)
            played.append(action)
        return played


__all__ = ["AutoplayError", "Autoplayer", "taps_for"]
