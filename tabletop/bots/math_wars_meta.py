"""Virtual Math Wars Meta players, and the teachers' figures (``tabletop bench``).

In Math Wars Meta nobody chooses a card: the decks decide. What a player does is work
out each result and enter it on the Score Card, so a virtual player is a child who
enters the right solution, or with probability ``wrong_rate`` a near miss. The decks
are virtual too: a seeded ``RngDealer`` answers every chance request.

``bench(games)`` plays seeded games for each edition and table (Solo, Player v Player
for 2, 4 and 8, Duos, Trios and Quads) and reports how many hands a round and a game
take (mean and 90th percentile) under discard Option 1 and Option 2, so a teacher can
plan a station's length.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from tabletop.engine.dealers import RngDealer
from tabletop.engine.protocol import Seat
from tabletop.games.math_wars_meta import (
    EDITIONS,
    EnterSolution,
    MathWarsMeta,
    MathWarsMetaSettings,
    MathWarsMetaState,
    correct_entry,
)

GAME = MathWarsMeta()
# Enough hands for any real game many times over: a game that gets here is a bug.
MAX_ACTIONS = 1_000_000
SOLO_WRONG_RATE = 0.1


@dataclass
class VirtualPlayer:
    """Enters every pending seat's solution: right, or (``wrong_rate``) off by 1 or 2."""

    rng: random.Random
    wrong_rate: float = 0.0

    def entry(self, state: MathWarsMetaState, seat: Seat) -> EnterSolution:
        right = correct_entry(state, seat)
        if self.wrong_rate <= 0 or self.rng.random() >= self.wrong_rate:
            return right
        miss = self.rng.choice((-2, -1, 1, 2))
        team = right.team_solution
        return replace(
            right,
            solution=right.solution + miss,
            team_solution=None if team is None else team + miss,
        )


@dataclass(frozen=True)
class Table:
    """One line of the teachers' table: a mode and how the seats form sides."""

    name: str
    mode: str
    seats: int
    teams: tuple[tuple[int, ...], ...] = ()

    def settings(self, edition: str, discard_option: int = 1) -> MathWarsMetaSettings:
        return MathWarsMetaSettings(
            edition,
            "solo" if self.mode == "solo" else "teams" if self.teams else "pvp",
            self.teams,
            discard_option=discard_option,
        )


def _teams(size: int, count: int) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(range(t * size, (t + 1) * size)) for t in range(count))


TABLES = (
    Table("Solo", "solo", 1),
    Table("2 players", "pvp", 2),
    Table("4 players", "pvp", 4),
    Table("8 players", "pvp", 8),
    Table("Duos, 2 teams", "teams", 4, _teams(2, 2)),
    Table("Duos, 4 teams", "teams", 8, _teams(2, 4)),
    Table("Trios", "teams", 6, _teams(3, 2)),
    Table("Quads", "teams", 8, _teams(4, 2)),
)


def play_game(
    settings: MathWarsMetaSettings, seats: int, seed: int, wrong_rate: float = 0.0
) -> MathWarsMetaState:
    """One seeded game to its end: the decks depend on the seed alone."""
    state = GAME.new_game(settings, seats)
    dealer = RngDealer(seed)
    player = VirtualPlayer(random.Random(seed ^ 0x5EED), wrong_rate)
    for _ in range(MAX_ACTIONS):
        if state.finished:
            return state
        pending = GAME.pending(state)
        if pending.chance is not None:
            state, _ = GAME.apply(state, dealer.deal(pending.chance))
            continue
        for seat in sorted(pending.seats):
            state, _ = GAME.apply(state, player.entry(state, seat))
    raise RuntimeError(f"game {seed} did not end in {MAX_ACTIONS} actions")


def hands(state: MathWarsMetaState) -> Iterator[int]:
    """Hands of each round played (splashed rounds included)."""
    return (record.hands for record in state.rounds)


def figures(table: Table, edition: str, games: int, discard_option: int = 1) -> dict[str, Any]:
    settings = table.settings(edition, discard_option)
    wrong = SOLO_WRONG_RATE if table.mode == "solo" else 0.0
    per_round: list[int] = []
    per_game: list[int] = []
    rounds: list[int] = []
    start = time.perf_counter()
    for seed in range(games):
        state = play_game(settings, table.seats, seed, wrong)
        counts = list(hands(state))
        per_round += counts
        per_game.append(sum(counts))
        rounds.append(len(counts))
    return {
        "edition": edition,
        "table": table.name,
        "players": table.seats,
        "discard_option": discard_option,
        "hands_per_round_mean": round(float(np.mean(per_round)), 1),
        "hands_per_round_p90": round(float(np.percentile(per_round, 90)), 1),
        "hands_per_game_mean": round(float(np.mean(per_game)), 1),
        "hands_per_game_p90": round(float(np.percentile(per_game, 90)), 1),
        "rounds_per_game_mean": round(float(np.mean(rounds)), 2),
        "seconds": round(time.perf_counter() - start, 2),
    }


def markdown(rows: list[dict[str, Any]]) -> list[str]:
    """The figures as a README table."""
    lines = [
        "| edition | table | players | discard option | hands per round: mean | p90 "
        "| hands per game: mean | p90 |",
        "|---|---|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        option = "-" if r["table"] == "Solo" else str(r["discard_option"])
        lines.append(
            f"| {r['edition']} | {r['table']} | {r['players']} | {option} "
            f"| {r['hands_per_round_mean']} | {r['hands_per_round_p90']} "
            f"| {r['hands_per_game_mean']} | {r['hands_per_game_p90']} |"
        )
    return lines


def bench(games: int) -> dict[str, Any]:
    """Figures for teachers: hands per round and per game over ``games`` seeded games
    per edition, table and discard option (Solo players answer 90% right)."""
    if games < 1:
        raise ValueError("bench needs at least one game")
    rows = [
        figures(table, edition, games, option)
        for edition in EDITIONS
        for option in (1, 2)
        for table in TABLES
        if option == 1 or table.mode != "solo"
    ]
    return {
        "game": "math-wars-meta",
        "games": games,
        "solo_wrong_rate": SOLO_WRONG_RATE,
        "figures": rows,
        "markdown": markdown(rows),
    }
