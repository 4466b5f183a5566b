"""Scripted Math Wars Meta play for the MWM tests (no tests here: a helper module, named
for the game so it lives with its tests).

``Table`` drives the engine through its public surface only: it answers each chance
draw with the card a test scripts (COUNT META numbers and MATH CRATE faces of the
seat's own army unless a full ``(army, number)`` is given), enters solutions, and
collects the events, as the camera, the touchscreen and the children would.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from tabletop.engine.protocol import Event
from tabletop.games.math_wars_meta import (
    CountDrawn,
    CrateDrawn,
    EnterSolution,
    MathWarsMeta,
    MathWarsMetaSettings,
    MathWarsMetaState,
    correct_entry,
)

GAME = MathWarsMeta()
Reveal = tuple[int, str]  # (COUNT META number, MATH CRATE face)


def card(seat: int, number: int) -> tuple[int, int]:
    """A seat's own COUNT META card (army = seat + 1)."""
    return (seat + 1, number)


@dataclass
class Table:
    settings: MathWarsMetaSettings
    seats: int
    state: MathWarsMetaState = field(init=False)
    events: list[Event] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.state = GAME.new_game(self.settings, self.seats)

    # -- low level ----------------------------------------------------------------------
    def act(self, action: Any) -> list[Event]:
        self.state, events = GAME.apply(self.state, action)
        self.events.extend(events)
        return list(events)

    def rig(self, seat: int, draw: Iterable[int], crate_draw: Iterable[str] | None = None) -> None:
        """Test set-up: keep only these numbers of the seat's own cards in its draw pile,
        the rest of its draw and spoils going to the spoils (cards stay conserved);
        likewise for the MATH CRATE draw pile and discard. Use it before the draws of
        a stage are answered, or before the last solution of a hand."""
        zone = self.state.zones[seat]
        keep = {card(seat, n) for n in draw}
        pool = [*zone.draw, *zone.spoils]
        zone = replace(
            zone,
            draw=tuple(c for c in pool if c in keep),
            spoils=tuple(c for c in pool if c not in keep),
        )
        if crate_draw is not None:
            faces = set(crate_draw)
            crates = [*zone.crate_draw, *zone.crate_discard]
            zone = replace(
                zone,
                crate_draw=tuple(f for f in crates if f in faces),
                crate_discard=tuple(f for f in crates if f not in faces),
            )
        zones = list(self.state.zones)
        zones[seat] = zone
        self.state = replace(self.state, zones=tuple(zones))

    def codes(self) -> list[str]:
        return [e.code for e in self.events]

    def zone(self, seat: int) -> Any:
        return self.state.zones[seat]

    # -- a stage ------------------------------------------------------------------------
    def reveal(
        self,
        reveals: Mapping[int, Reveal | tuple[tuple[int, int], str]],
        down: Mapping[int, Sequence[int]] | None = None,
    ) -> list[Event]:
        """Answer every draw of the current stage: each seat's face-up card and crate;
        face-down cards as listed in ``down`` or else the lowest in the pile that no
        reveal of this stage needs."""
        down_left = {seat: list(cards) for seat, cards in (down or {}).items()}
        reserved = {(seat, _as_card(seat, r[0])) for seat, r in reveals.items()}
        out: list[Event] = []
        assert self.state.phase == "reveal", f"not revealing but {self.state.phase}"
        for _ in range(len(self.state.stage.todo)):
            request = GAME.pending(self.state).chance
            assert request is not None
            seat, need = self.state.stage.todo[0]
            if need == "crate":
                out += self.act(CrateDrawn(seat, reveals[seat][1]))
            elif need == "up":
                out += self.act(CountDrawn(seat, _as_card(seat, reveals[seat][0])))
            else:
                queue = down_left.get(seat)
                if queue:
                    chosen = _as_card(seat, queue.pop(0))
                else:
                    options = sorted(
                        a.card for a in request.outcomes if (seat, a.card) not in reserved
                    )
                    chosen = options[0]
                out += self.act(CountDrawn(seat, chosen))
        return out

    def solve(self, entries: Mapping[int, int] | None = None, **team: int) -> list[Event]:
        """Every pending seat enters: ``entries[seat]`` if given, else the right answer
        (and the right TEAM SOLUTION)."""
        out: list[Event] = []
        for seat in sorted(GAME.pending(self.state).seats):
            right = correct_entry(self.state, seat)
            action = right
            if entries and seat in entries:
                action = EnterSolution(seat, entries[seat], right.team_solution)
            out += self.act(action)
        return out

    def pay(self, picks: Mapping[int, Iterable[int]] | None = None) -> list[Event]:
        """Answer every give-up draw: the listed numbers, else the lowest card."""
        left = {seat: list(cards) for seat, cards in (picks or {}).items()}
        out: list[Event] = []
        while self.state.phase == "pay" and not self.state.finished:
            request = GAME.pending(self.state).chance
            assert request is not None and request.kind == "pay"
            seat = request.outcomes[0].seat
            queue = left.get(seat)
            chosen = (
                _as_card(seat, queue.pop(0)) if queue else min(a.card for a in request.outcomes)
            )
            out += self.act(CountDrawn(seat, chosen))
        return out

    def hand(
        self,
        reveals: Mapping[int, Reveal],
        *wars: Mapping[int, Reveal],
        pay: Mapping[int, Iterable[int]] | None = None,
    ) -> list[Event]:
        """A whole hand: the first reveal, each Math War's face-up pairs, right answers,
        then the give-ups."""
        out = self.reveal(reveals)
        out += self.solve()
        for war in wars:
            out += self.reveal(war)
            out += self.solve()
        out += self.pay(pay)
        return out


def _as_card(seat: int, value: Any) -> tuple[int, int]:
    if isinstance(value, tuple):
        return (int(value[0]), int(value[1]))
    return card(seat, int(value))


def pvp(edition: str = "MWM25", **options: Any) -> MathWarsMetaSettings:
    return MathWarsMetaSettings(edition, "pvp", **options)


def duos(teams: int = 2, **options: Any) -> MathWarsMetaSettings:
    return MathWarsMetaSettings(
        options.pop("edition", "MWM25"),
        "teams",
        tuple((2 * t, 2 * t + 1) for t in range(teams)),
        **options,
    )
