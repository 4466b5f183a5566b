"""The game-agnostic core: protocol, errors, dealers, codec and matches."""

from tabletop.engine.dealers import Dealer, KeyedDealer, RngDealer, ScriptedDealer
from tabletop.engine.errors import (
    BadInput,
    CorruptLog,
    DeviceError,
    IllegalMove,
    ImpossibleOutcome,
    TabletopError,
)
from tabletop.engine.match import Match
from tabletop.engine.protocol import (
    ChanceRequest,
    Event,
    Game,
    Pending,
    Result,
    Seat,
    places_from_scores,
)

__all__ = [
    "BadInput",
    "ChanceRequest",
    "CorruptLog",
    "Dealer",
    "DeviceError",
    "Event",
    "Game",
    "IllegalMove",
    "ImpossibleOutcome",
    "KeyedDealer",
    "Match",
    "Pending",
    "Result",
    "RngDealer",
    "ScriptedDealer",
    "Seat",
    "TabletopError",
    "places_from_scores",
]
