"""The engine protocol every game follows.

A game is a set of pure functions over immutable states. Whatever the world must supply
(dice, the top card of a deck) is a *chance* decision: the state's ``pending`` names the
request and the outcomes that can legally appear, and a dealer answers it with an action.
Several seats may be pending at once (simultaneous writing or reveals).
"""

from __future__ import annotations

import abc
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Generic, Protocol, TypeVar

SettingsT = TypeVar("SettingsT")
StateT = TypeVar("StateT")
ActionT = TypeVar("ActionT")

Seat = int


class Ordered(Protocol):
    """A score that compares exactly: an int, a Fraction, or a tuple of them."""

    def __gt__(self, other: Any, /) -> bool: ...


OrderedT = TypeVar("OrderedT", bound=Ordered)


@dataclass(frozen=True)
class ChanceRequest(Generic[ActionT]):
    """What the game waits for from the world, and every outcome that can appear.

    ``weights`` are whole numbers (uniform when all are 1), so a dealer samples exactly.
    """

    kind: str
    description: str
    outcomes: tuple[ActionT, ...]
    weights: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if self.weights and len(self.weights) != len(self.outcomes):
            raise ValueError("weights must match outcomes one for one")

    def weight_of(self, index: int) -> int:
        return self.weights[index] if self.weights else 1


@dataclass(frozen=True)
class Pending(Generic[ActionT]):
    """Who must act now: a chance request, or one or more seats deciding at once."""

    seats: frozenset[Seat] = frozenset()
    chance: ChanceRequest[ActionT] | None = None

    @property
    def is_chance(self) -> bool:
        return self.chance is not None

    @property
    def is_nobody(self) -> bool:
        return self.chance is None and not self.seats


@dataclass(frozen=True)
class Event:
    """Something that happened, told in words a child can read.

    ``code`` is stable for the UI (sounds, animations); ``data`` carries the figures.
    """

    code: str
    text: str
    seat: Seat | None = None
    data: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Result:
    """The end of a game as a value: scores, places (1 = first) and why."""

    scores: tuple[Fraction, ...]
    places: tuple[int, ...]
    reason: str

    @property
    def winners(self) -> frozenset[Seat]:
        return frozenset(seat for seat, place in enumerate(self.places) if place == 1)


def places_from_scores(scores: Sequence[OrderedT]) -> tuple[int, ...]:
    """Each score's place, higher is better: 1 + how many scores beat it. Equal scores
    share a place and the places after them are skipped (7, 9, 7, 3 -> 2, 1, 2, 4).
    A tie-break is a tuple key: (score, first tie-break, ...) compares in that order."""
    return tuple(1 + sum(1 for other in scores if other > mine) for mine in scores)


class Game(abc.ABC, Generic[SettingsT, StateT, ActionT]):
    """One game's engine. Implementations are stateless; all state is in ``StateT``."""

    name: str
    settings_type: type[SettingsT]
    state_type: type[StateT]
    action_types: tuple[type[Any], ...]

    @abc.abstractmethod
    def new_game(self, settings: SettingsT, seats: int) -> StateT:
        """The state before anything has happened."""

    @abc.abstractmethod
    def pending(self, state: StateT) -> Pending[ActionT]:
        """Who must act now."""

    @abc.abstractmethod
    def legal_actions(self, state: StateT, seat: Seat) -> Sequence[ActionT]:
        """Every action ``seat`` may take now (empty when it is not pending)."""

    @abc.abstractmethod
    def apply(self, state: StateT, action: ActionT) -> tuple[StateT, tuple[Event, ...]]:
        """The new state and what happened; raises ``IllegalMove`` for a forbidden action
        and ``ImpossibleOutcome`` for a chance outcome that cannot appear."""

    @abc.abstractmethod
    def result(self, state: StateT) -> Result | None:
        """The result once the game is over, otherwise ``None``."""

    def is_over(self, state: StateT) -> bool:
        return self.result(state) is not None

    def check_outcome(self, state: StateT, action: ActionT) -> None:
        """Raise ``ImpossibleOutcome`` unless ``action`` answers the chance request."""
        from tabletop.engine.errors import ImpossibleOutcome

        request = self.pending(state).chance
        if request is None:
            raise ImpossibleOutcome("engine.no_chance", "the game is not waiting for chance now")
        if action not in request.outcomes:
            raise ImpossibleOutcome(
                "engine.impossible_outcome",
                f"{action!r} cannot appear now: the game waits for {request.description}",
            )
