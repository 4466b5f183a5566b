"""A match: a game's state with its history, undo, and a JSON-lines log.

The log's first line holds the game, seats and settings; each later line one applied
action and the digest of the state it led to. Replaying a log re-applies every action
and checks each digest, so a replay that drifts from the recorded game is caught at the
first action that differs.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Generic

from tabletop.engine.codec import decode, decode_action, digest, encode, encode_action, loads
from tabletop.engine.dealers import Dealer
from tabletop.engine.errors import BadInput, CorruptLog, IllegalMove
from tabletop.engine.protocol import ActionT, Event, Game, Pending, Result, SettingsT, StateT

LOG_FORMAT = "tabletop-log"
LOG_VERSION = 1


@dataclass(frozen=True)
class Step(Generic[StateT, ActionT]):
    action: ActionT
    state: StateT
    events: tuple[Event, ...]


class Match(Generic[SettingsT, StateT, ActionT]):
    """A game in progress: apply actions, undo them, write and replay the log."""

    def __init__(
        self,
        game: Game[SettingsT, StateT, ActionT],
        settings: SettingsT,
        seats: int,
        *,
        seed: int | None = None,
    ) -> None:
        self.game = game
        self.settings = settings
        self.seats = seats
        self.seed = seed
        self.initial: StateT = game.new_game(settings, seats)
        self._steps: list[Step[StateT, ActionT]] = []
        # Called after every apply and undo, before they return: the app's journal
        # writes the change to disk here, so nothing is shown that is not saved.
        self.on_change: Callable[[Match[SettingsT, StateT, ActionT]], None] | None = None

    @property
    def state(self) -> StateT:
        return self._steps[-1].state if self._steps else self.initial

    @property
    def history(self) -> tuple[ActionT, ...]:
        return tuple(step.action for step in self._steps)

    @property
    def steps(self) -> tuple[Step[StateT, ActionT], ...]:
        """Every applied action with the state and events it led to."""
        return tuple(self._steps)

    @property
    def moves(self) -> int:
        """How many actions are applied: ``len(history)`` without building the history."""
        return len(self._steps)

    @property
    def last(self) -> Step[StateT, ActionT] | None:
        """The last step (None before the first): ``steps[-1]`` without building the
        steps. Each apply makes a new step and an undo never puts one back, so the same
        ``moves`` and ``last`` (by identity) mean the same steps."""
        return self._steps[-1] if self._steps else None

    def step(self, index: int) -> Step[StateT, ActionT]:
        """``steps[index]`` without building the steps (IndexError past the end)."""
        return self._steps[index]

    @property
    def pending(self) -> Pending[ActionT]:
        return self.game.pending(self.state)

    def result(self) -> Result | None:
        return self.game.result(self.state)

    def apply(self, action: ActionT) -> tuple[Event, ...]:
        """Apply one action; the match is unchanged if the action is refused."""
        state, events = self.game.apply(self.state, action)
        self._steps.append(Step(action, state, events))
        if self.on_change is not None:
            self.on_change(self)
        return events

    def deal(self, dealer: Dealer) -> tuple[Event, ...]:
        """Let ``dealer`` answer the pending chance request."""
        request = self.pending.chance
        if request is None:
            raise IllegalMove("engine.no_chance", "the game is not waiting for dice or cards now")
        return self.apply(dealer.deal(request))

    def undo(self) -> ActionT:
        """Take back the last action and return it."""
        if not self._steps:
            raise IllegalMove("engine.nothing_to_undo", "there is nothing to undo")
        action = self._steps.pop().action
        if self.on_change is not None:
            self.on_change(self)
        return action

    # -- the log -----------------------------------------------------------------------
    def header(self) -> dict[str, Any]:
        return {
            "format": LOG_FORMAT,
            "version": LOG_VERSION,
            "game": self.game.name,
            "seats": self.seats,
            "seed": self.seed,
            "settings": encode(self.settings),
        }

    def log_line(self, index: int) -> str:
        step = self._steps[index]
        record = {
            "n": index + 1,
            "action": encode_action(step.action),
            "digest": digest(step.state),
        }
        return json.dumps(record, sort_keys=True)

    def log_lines(self) -> Iterator[str]:
        yield json.dumps(self.header(), sort_keys=True)
        for i in range(len(self._steps)):
            yield self.log_line(i)

    @classmethod
    def replay(
        cls, lines: Iterable[str], games: Mapping[str, Game[Any, Any, Any]]
    ) -> Match[Any, Any, Any]:
        """Rebuild a match from its log, checking every recorded digest."""
        it = iter(enumerate(lines, start=1))
        try:
            _, first = next(it)
        except StopIteration:
            raise CorruptLog("log.empty", "the log is empty") from None
        header = _json_line(first, 1)
        if header.get("format") != LOG_FORMAT:
            raise CorruptLog("log.format", "line 1 is not a tabletop log header")
        if header.get("version") != LOG_VERSION:
            raise CorruptLog(
                "log.version", f"line 1: log version {header.get('version')!r} is not {LOG_VERSION}"
            )
        game = games.get(str(header.get("game")))
        if game is None:
            raise CorruptLog("log.game", f"line 1: unknown game {header.get('game')!r}")
        try:
            settings = decode(game.settings_type, header.get("settings"), "settings")
            match: Match[Any, Any, Any] = cls(
                game, settings, int(header["seats"]), seed=header.get("seed")
            )
        except (BadInput, KeyError, TypeError, ValueError) as exc:
            raise CorruptLog("log.header", f"line 1: {exc}") from exc
        for number, line in it:
            if not line.strip():
                continue
            record = _json_line(line, number)
            try:
                action = decode_action(game.action_types, record.get("action"), "action")
                match.apply(action)
            except (BadInput, IllegalMove, ValueError) as exc:
                raise CorruptLog("log.action", f"line {number}: {exc}") from exc
            expected = record.get("digest")
            if expected is not None and expected != digest(match.state):
                raise CorruptLog(
                    "log.digest",
                    f"line {number}: replay reached a different state than recorded "
                    "(a game recorded before a rule changed stops here)",
                )
        return match


def _json_line(line: str, number: int) -> dict[str, Any]:
    try:
        data = loads(line)
    except BadInput as exc:
        raise CorruptLog("log.json", f"line {number}: {exc.message}") from None
    except json.JSONDecodeError as exc:
        raise CorruptLog("log.json", f"line {number}: not JSON ({exc.msg})") from None
    except RecursionError:
        raise CorruptLog("log.json", f"line {number}: JSON nested too deeply") from None
    if not isinstance(data, dict):
        raise CorruptLog("log.json", f"line {number}: expected a JSON object")
    return data
