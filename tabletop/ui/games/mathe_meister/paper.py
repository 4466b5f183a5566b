"""Mathe-Meister's controller at the table on paper sheets, without a display."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from tabletop.bots.mathe_meister import after_writes, hint
from tabletop.engine.dealers import KeyedDealer
from tabletop.engine.errors import TabletopError
from tabletop.engine.match import Match
from tabletop.engine.protocol import Result
from tabletop.games.mathe_meister import (
    ROUNDS,
    Action,
    ClaimStar,
    MatheMeister,
    Roll,
    StarBoard,
    StarClaim,
    line_name,
)
from tabletop.ui.games.mathe_meister.play import DicePlay, MMMatch, round_start, sums_checked
from tabletop.ui.messages import child_message
from tabletop.ui.saves import standings_result

BOT_SECONDS = 20.0  # a bot seat presses this long after the dice, so quick children beat it


class PaperPlay(DicePlay):
    """The table on paper sheets (``table.py``): what the device knows of the game, the
    round, its dice, the Bonus Stars and the presses waiting (MM-5); ``match`` is only
    the table's header in the journal, a game nobody writes in. ``names`` per seat;
    ``bots``: the seats the hint bot plays, each on a sheet of its own on the device
    (:meth:`catch_up`) that claims only the stars it won at the table."""

    def __init__(
        self, match: MMMatch, names: Sequence[str], *, seed: int, bots: Iterable[int] = ()
    ) -> None:
        self.match, self.names = match, list(names)
        # paper sheets: claims are button presses (MM-5), also in a header journaled
        # before MM-13's automatic claims
        self.settings = replace(match.settings, star_claims="paper")
        self.bots: dict[int, MMMatch] = {
            seat: Match(MatheMeister(), self.settings, 1, seed=seed) for seat in bots
        }
        # virtual dice keyed by the seed and the round: the same dice after a crash
        self.dealer = KeyedDealer(seed, lambda: self.round)
        self.board = StarBoard(dict(match.settings.layout.star_values))
        self.round = 1
        self.rolls: list[tuple[int, int]] = []  # every round's dice so far
        self.dice_at: float | None = None  # seconds played when this round's dice came
        self.over = False
        self.bots_pressed: set[int] = set()  # bots whose press came this round
        self.dice_screen = ""  # the dice screen's mode while it is up ("" on the table's)

    @property
    def dice(self) -> tuple[int, int] | None:
        """This round's dice, once they are out."""
        return self.rolls[self.round - 1] if len(self.rolls) >= self.round else None

    def name(self, seat: int) -> str:
        return self.called(seat, self.names[seat])

    def standings(self) -> Result:
        points = [self.board.points_of(s) for s in range(len(self.names))]
        return standings_result(
            points, "Bonus Star points (the device does not see the paper sheets' totals)"
        )

    def lit(self) -> list[int]:
        return [p.seat for p in self.board.waiting]

    def checks(self) -> list[list[int]]:
        """The sums checked per seat: on a bot's sheet; the device sees none on paper."""
        return [
            sums_checked(self.bots[s].state.sheets[0], self.settings) if s in self.bots else [0, 0]
            for s in range(len(self.names))
        ]

    def bot_lines(self, seat: int) -> list[str]:
        """The free Bonus Stars of the lines ``seat``'s bot completed (its press claims)."""
        sheet = self.bots[seat].state.sheets[0]
        return [
            line
            for line in self.board.free_lines()
            if sheet.line_complete(line) and line not in sheet.stars
        ]

    def bot_presses(self, played: float) -> list[int]:
        """The bot seats pressed now, ``played`` seconds into the game: once a round,
        :data:`BOT_SECONDS` after its dice, each bot that completed a line whose star is
        free presses, at that time on the star board (MM-5)."""
        if self.dice is None or self.dice_at is None or played < self.dice_at + BOT_SECONDS:
            return []
        due = [seat for seat in self.bots if seat not in self.bots_pressed and self.bot_lines(seat)]
        for seat in due:
            self.bots_pressed.add(seat)
            self.board.press(seat, self.dice_at + BOT_SECONDS)
        return due

    def next_step(self) -> str:
        current = self.board.current
        if self.dice is None:  # what to do on the screen the children see
            where = self.dice_screen or "table"
            return child_message(f"mm.step.dice_{where}", round=self.round)
        if current is not None:  # the press is theirs to take back (Cancel) until then
            return child_message("mm.ui.choose_star", {"name": self.name(current.seat)})
        a, b = self.dice
        return child_message("mm.step.write_paper", a=a, b=b, next=self.next_label())

    def chooser_words(self) -> str:
        """Whose press chooses a star now: the first to press, or, once an earlier press
        this round chose its star, the next in line (MM-5); and how many more wait."""
        current = self.board.current
        assert current is not None  # shown only while a press waits
        more = len(self.board.waiting) - 1
        earlier = any(c.round == self.round and c.at <= current.at for c in self.board.claims)
        key = f"mm.ui.{'next' if earlier else 'first'}{'_more' if more else ''}"
        return child_message(key, name=self.name(current.seat), more=more)

    def can_undo(self) -> bool:
        return self.board.last_claim(self.round) is not None and not self.over

    def undo(self) -> None:
        """The teacher takes back the star chosen last this round (a star tapped by
        mistake, MM-5): it is free again."""
        claim = self.board.take_back(self.round)
        if claim is not None:
            self.say(child_message("mm.ui.star_taken_back", line=line_name(claim.line)))

    def next_label(self) -> str:
        return "Finish the game" if self.round >= ROUNDS else f"Start round {self.round + 1}"

    def rolled(self, dice: tuple[int, int], at: float) -> None:
        """This round's dice came, ``at`` seconds played (the bots press after them)."""
        self.rolls = [*self.rolls[: self.round - 1], dice]
        self.dice_at = at
        self.bots_pressed = set()

    def end_round(self) -> None:
        """The round is over: presses still waiting are dropped, and the next round
        begins (after the last one the game is over)."""
        self.board.waiting.clear()
        self.over = self.round >= ROUNDS
        if not self.over:
            self.round += 1
            self.dice_at = None
            self.bots_pressed = set()

    def record(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "dice": list(self.dice) if self.dice is not None else None,
            "rolls": [list(r) for r in self.rolls],
            "claims": [[c.round, c.line, c.seat, c.at] for c in self.board.claims],
            "waiting": [[p.seat, p.at] for p in self.board.waiting],
            "dice_at": self.dice_at,
            "pressed": sorted(self.bots_pressed),
            "over": self.over,
        }

    def catch_up(self) -> None:
        """Bring every bot's sheet up to the table (dice rolled, rounds ended)."""
        for seat, match in self.bots.items():
            self._catch_up(seat, match)

    def _catch_up(self, seat: int, match: MMMatch) -> None:
        """Play ``seat``'s sheet up to where the table is: each round the hint bot's
        writes for the round's dice, then (once the table has moved on) its claims of
        the stars it won, a swap if it pays, and the end of the round. Planned from the
        state the round's dice gave, so a sheet that stopped halfway goes on as it would
        have."""
        while not match.state.finished:
            k = match.state.round
            if match.state.dice is None and (
                k > len(self.rolls) or not tried(match, Roll(self.rolls[k - 1]))
            ):
                return
            start = round_start(match)
            plan = list(hint(match.steps[start - 1].state, 0).actions())
            # a bot that cannot finish its writes just stops writing
            if not all(tried(match, a) for a in plan[match.moves - start :]):
                return
            if k >= self.round and not self.over:
                return
            won = {c.line for c in self.board.claims if c.seat == seat and c.round == k}
            left = list(match.history[start + len(plan) :])
            for action in after_writes(match.steps[start - 1 + len(plan)].state, 0):
                if isinstance(action, ClaimStar) and action.line not in won:
                    continue
                if action in left:
                    left.remove(action)
                else:
                    tried(match, action)  # one the engine refuses is left out
            if match.state.round == k:
                return

    def carry_on(self, table: Mapping[str, Any]) -> None:
        """Put back what :meth:`record` kept."""
        self.round = int(table.get("round", 1))
        self.rolls = [(int(a), int(b)) for a, b in table.get("rolls", [])]
        for round_no, line, seat, played in table.get("claims", []):
            self.board.owners[str(line)] = int(seat)
            self.board.claims.append(StarClaim(int(round_no), str(line), int(seat), float(played)))
        for seat, played in table.get("waiting", []):
            self.board.press(int(seat), float(played))
        at = table.get("dice_at")
        self.dice_at = float(at) if at is not None else None
        self.bots_pressed = {int(s) for s in table.get("pressed", [])}
        self.over = bool(table.get("over", False))


def tried(match: MMMatch, action: Action) -> bool:
    """``action`` on a bot's sheet; False, and nothing changed, when it is refused."""
    try:
        match.apply(action)
    except (TabletopError, ValueError):
        return False
    return True


__all__ = ["BOT_SECONDS", "PaperPlay", "tried"]
