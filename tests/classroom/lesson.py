"""A lesson's journal for the report tests: real matches, results and answers known.

Two sessions. Every match is a real engine match with real actions, journaled the way
the app does it (``Journal.start`` with seats and session, ``sync`` with the seconds
played, ``finish`` with :func:`tabletop.ui.saves.result_record`). The results are set
here by hand (a rotation's clock stopping the game, or the game's own end), so the
tests can work every figure out from this file alone.

Session 2025-03-14 (S1):
  M1 mathe-meister  Ana (S01, Red) 31 | Ben (S02, Red) 24       time  600 s  checks 7/5, 6/6
  M2 math-arena     Ana (Red) 4 | Cai (S03, Blue) 4 | Bot 2     end   900 s  10/8, 10/9, 10/10
                    (a draw for first: Ana and Cai both win; the bot is left out)
  M3 math-attack    Cai (Blue) -5 | guest "Player 2" -8         end   300 s  (played to the end)
  M4 math-arena     Ana 7/2 | Ben 1 | Dee (S04, Blue) 0         time  450 s  4/3, 4/2, 3/3
  M5 mecs           Ben | Dee                                   abandoned    (left out)
  M6 mathe-meister  Ana | Ben                                   still playing (left out)
Session 2025-03-13 (S2), earlier:
  M0 math-wars-meta Ana (Red) 4 | Eve (S05, Green) 2            end  1200 s  12/10, 12/7
  a selfplay match with no seats (left out: nobody played it)
The class list calls S01 "Ana M." (she played as "Ana").
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

from tabletop.engine.match import Match
from tabletop.engine.protocol import Result
from tabletop.games import GAMES
from tabletop.selfplay import choose, default_settings
from tabletop.store import FILE_NAME, Journal, SeatInfo
from tabletop.ui.saves import result_record, standings_result

S1, S2 = "2025-03-14", "2025-03-13"


class Clock:
    """The journal's wall clock, a minute a call: newer matches start later."""

    def __init__(self) -> None:
        self.now = 1_741_900_000.0

    def __call__(self) -> float:
        self.now += 60
        return self.now


def ana(seat: int, group: str = "Red") -> SeatInfo:
    return SeatInfo(seat, "Ana", "S01", group)


def ben(seat: int) -> SeatInfo:
    return SeatInfo(seat, "Ben", "S02", "Red")


def cai(seat: int) -> SeatInfo:
    return SeatInfo(seat, "Cai", "S03", "Blue")


def dee(seat: int) -> SeatInfo:
    return SeatInfo(seat, "Dee", "S04", "Blue")


def played(game: str, seats: int, seed: int, actions: int | None) -> Match[Any, Any, Any]:
    """A real match: ``actions`` random legal actions, or to its end when None."""
    match = Match(GAMES[game], default_settings(game), seats, seed=seed)
    while not match.game.is_over(match.state) and (actions is None or len(match.history) < actions):
        match.apply(choose(match, seed))
    return match


def journal_match(
    journal: Journal,
    game: str,
    seats: list[SeatInfo],
    *,
    session: str,
    checks: list[list[int]],
    seconds: float,
    actions: int | None = 12,
    seed: int = 1,
) -> tuple[int, Match[Any, Any, Any]]:
    match = played(game, len(seats), seed, actions)
    match_id = journal.start(
        match, label="app", meta={"app": {}, "checks": checks}, seats=seats, session=session
    )
    journal.sync(match_id, match, elapsed=seconds)
    return match_id, match


def by_time(journal: Journal, match_id: int, scores: list[Fraction | int]) -> None:
    """The rotation's clock stopped the game: the standings are its result."""
    result = standings_result(scores, "time is up")
    journal.finish(match_id, result_record(result, reason="time"), reason="time")


def build(folder: Path) -> Path:
    """The lesson's journal file in ``folder``; returns its path."""
    path = folder / FILE_NAME
    journal = Journal(path, now=Clock())
    try:
        with journal.transaction() as db:
            db.execute(
                "INSERT INTO students (id, name, grp, added) VALUES ('S01', 'Ana M.', 'Red', 0)"
            )
        # S2 (earlier)
        m0, _ = journal_match(
            journal,
            "math-wars-meta",
            [ana(0), SeatInfo(1, "Eve", "S05", "Green")],
            session=S2,
            checks=[[12, 10], [12, 7]],
            seconds=1200,
        )
        result = Result((Fraction(4), Fraction(2)), (1, 2), "Ana wins with 4 VICTORY! cards")
        journal.finish(m0, result_record(result))
        selfplay = played("math-attack", 2, 5, 6)
        journal.finish(
            journal.start(selfplay, label="selfplay:math-attack:5", session=S2), {"places": [1, 2]}
        )
        # S1
        m1, _ = journal_match(
            journal,
            "mathe-meister",
            [ana(0), ben(1)],
            session=S1,
            checks=[[7, 5], [6, 6]],
            seconds=600,
        )
        by_time(journal, m1, [31, 24])
        m2, _ = journal_match(
            journal,
            "math-arena",
            [ana(0), cai(1), SeatInfo(2, "Bot 3", bot="easy")],
            session=S1,
            checks=[[10, 8], [10, 9], [10, 10]],
            seconds=900,
        )
        draw = Result((Fraction(4), Fraction(4), Fraction(2)), (1, 1, 3), "a draw")
        journal.finish(m2, result_record(draw))
        m3, attack = journal_match(
            journal,
            "math-attack",
            [cai(0), SeatInfo(1, "Player 2")],
            session=S1,
            checks=[[0, 0], [0, 0]],
            seconds=300,
            actions=None,
        )
        end = attack.result()
        assert end is not None and end.scores == (-5, -8) and end.places == (1, 2), end
        journal.finish(m3, result_record(end))
        m4, _ = journal_match(
            journal,
            "math-arena",
            [ana(0), ben(1), dee(2)],
            session=S1,
            checks=[[4, 3], [4, 2], [3, 3]],
            seconds=450,
        )
        by_time(journal, m4, [Fraction(7, 2), 1, 0])
        m5, _ = journal_match(
            journal,
            "mecs",
            [ben(0), dee(1)],
            session=S1,
            checks=[[5, 5], [5, 5]],
            seconds=200,
            actions=8,
        )
        journal.finish(
            m5, result_record(None, reason="abandoned"), reason="abandoned", status="abandoned"
        )
        journal_match(
            journal,
            "mathe-meister",
            [ana(0), ben(1)],
            session=S1,
            checks=[[3, 3], [3, 3]],
            seconds=100,
        )
    finally:
        journal.close()
    return path
