"""The solo Mathe-Meister game played by taps as the hint bot plans it: for its demo,
the UI bench and the end-to-end tests (the harness's :class:`~tabletop.ui.harness.Tapper`
does the tapping; only what plays Mathe-Meister lives here, so no other game's demo
loads its bot)."""

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
    cell_name,
)
from tabletop.ui.games.mathe_meister.dialogs import StarPick
from tabletop.ui.games.mathe_meister.solo import MatheMeisterScene
from tabletop.ui.harness import AutoplayError, DemoRun, Tapper, scene_of


def cell(at: tuple[int, int]) -> str:
    return f"cell.{cell_name(at)}"


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
            return [*names, cell(action.cell)]
        four = state.settings.has("fear_of_fours") and turn.dice[action.die] == 4
        die = f"die{action.die}.{action.value}" if four else f"die{action.die}"
        return [die, cell(action.cell)]
    if isinstance(action, WriteOperator):
        pen = f"power.{circled_index(state, action.op)}" if action.power else f"op.{action.op}"
        return [pen, cell(action.cell)]
    if isinstance(action, ChangeDie):
        return ["shop", f"d{action.die}.{action.delta:+d}", "close"]
    if isinstance(action, ClaimStar):
        return [f"star.{action.line}", f"power.{action.power}"]
    if isinstance(action, SwapOperators | SwapOperands):
        kind = "operators" if isinstance(action, SwapOperators) else "operands"
        return ["shop", f"swap.{kind}", cell(action.a), cell(action.b)]
    if isinstance(action, EndRound):
        return ["done"]
    raise AutoplayError(f"no taps for {action!r}")


class Autoplayer(Tapper):
    """Taps targets by name; plays the solo game's rounds and answers its Bonus Star
    offers as the hint bot would."""

    def settle(self) -> None:
        """Answer a Bonus Star offer the way the bot would (claim it, or not now)."""
        while isinstance(offer := self.top, StarPick):
            plan = after_writes(self.game().state, 0)
            claim = next(
                (a for a in plan if isinstance(a, ClaimStar) and a.line == offer.line), None
            )
            self.tap("skip" if claim is None else f"power.{claim.power}", settle=False)

    def game(self) -> MatheMeisterScene:
        return scene_of(self.app, MatheMeisterScene)

    def play(self, action: Action) -> None:
        state = self.game().state
        if isinstance(action, ClaimStar) and (
            action.line in state.sheets[0].stars
            or any(c.line == action.line and c.power for c in state.claims)
        ):
            return  # already claimed (and its Star Power chosen) when the offer came
        for name in taps_for(action, state):
            self.tap(name)

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


class MatheMeisterRun(DemoRun, Autoplayer):
    """A demo run (:class:`~tabletop.ui.harness.DemoRun`) that plays Mathe-Meister as the
    :class:`Autoplayer` does: the demo's and the UI bench's."""


__all__ = ["Autoplayer", "MatheMeisterRun", "taps_for"]
