"""Dealers answer chance requests: seeded virtual dice and decks, or a script.

The camera (``TableDealer``) and the touchscreen (``ManualDealer``) answer the same
requests from the app; these two serve practice games, bots, tests and benchmarks.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any, Protocol

from tabletop.engine.errors import ImpossibleOutcome
from tabletop.engine.protocol import ChanceRequest


class Dealer(Protocol):
    def deal(self, request: ChanceRequest[Any]) -> Any:
        """An outcome from ``request.outcomes``."""


class RngDealer:
    """Virtual dice and decks from a seeded ``random.Random`` (exact integer weights)."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self._rng = random.Random(seed)

    def deal(self, request: ChanceRequest[Any]) -> Any:
        if not request.outcomes:
            raise ImpossibleOutcome(
                "dealer.no_outcome", f"nothing can appear for {request.description}"
            )
        if not request.weights:  # uniform: the same pick as walking weights of 1
            return request.outcomes[self._rng.randrange(len(request.outcomes))]
        total = sum(request.weights)
        pick = self._rng.randrange(total)
        for i, outcome in enumerate(request.outcomes):
            pick -= request.weight_of(i)
            if pick < 0:
                return outcome
        raise AssertionError("unreachable: weights exhausted")


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
