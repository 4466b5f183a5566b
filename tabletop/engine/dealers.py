"""Dealers answer chance requests: seeded virtual dice and decks, or a script.

The camera (``TableDealer``) and the touchscreen (``ManualDealer``) answer the same
requests from the app; these two serve practice games, bots, tests and benchmarks.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from typing import Any, Protocol

from tabletop.engine.errors import ImpossibleOutcome
from tabletop.engine.protocol import ChanceRequest


class Dealer(Protocol):
    def deal(self, request: ChanceRequest[Any]) -> Any:
        """An outcome from ``request.outcomes``."""


def pick(rng: random.Random, request: ChanceRequest[Any]) -> Any:
    """One outcome of ``request`` drawn with ``rng`` by its exact integer weights."""
    if not request.outcomes:
        raise ImpossibleOutcome(
            "dealer.no_outcome", f"nothing can appear for {request.description}"
        )
    if not request.weights:  # uniform: the same pick as walking weights of 1
        return request.outcomes[rng.randrange(len(request.outcomes))]
    left = rng.randrange(sum(request.weights))
    for i, outcome in enumerate(request.outcomes):
        left -= request.weight_of(i)
        if left < 0:
            return outcome
    raise AssertionError("unreachable: weights exhausted")


class RngDealer:
    """Virtual dice and decks from a seeded ``random.Random`` (exact integer weights)."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self._rng = random.Random(seed)

    def deal(self, request: ChanceRequest[Any]) -> Any:
        return pick(self._rng, request)


class KeyedDealer:
    """Virtual dice and decks whose every outcome is a function of the seed and where
    the match is: ``position()`` (usually the number of actions so far) keys the draw.

    So a match rebuilt from its journal deals on exactly as the uninterrupted one would
    have (nothing to save but the seed), and dealing again after an undo gives the same
    card rather than a second chance at luck.
    """

    def __init__(self, seed: int, position: Callable[[], int]) -> None:
        self.seed = seed
        self.position = position

    def deal(self, request: ChanceRequest[Any]) -> Any:
        return pick(random.Random(f"{self.seed}:{self.position()}"), request)


class ScriptedDealer:
    """Outcomes given in advance, in order (scripted deals with known results).

    Each scripted outcome must be one the game allows at that moment.
    """

    def __init__(self, outcomes: Iterable[Any]) -> None:
        self._outcomes = list(outcomes)
        self._next = 0

    @property
    def remaining(self) -> int:
        return len(self._outcomes) - self._next

    def deal(self, request: ChanceRequest[Any]) -> Any:
        if self._next >= len(self._outcomes):
            raise ImpossibleOutcome(
                "dealer.script_exhausted",
                f"the script has no outcome left for {request.description}",
            )
        outcome = self._outcomes[self._next]
        if outcome not in request.outcomes:
            raise ImpossibleOutcome(
                "engine.impossible_outcome",
                f"scripted outcome {outcome!r} cannot appear for {request.description}",
            )
        self._next += 1
        return outcome
