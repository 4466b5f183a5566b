"""The outbox: a finished game's result is queued in the same transaction as the finish
(never one without the other), acknowledged ones are marked sent, and a result is what
the console will accept."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from tabletop.bots.math_attack import GAME, MathAttackBot
from tabletop.classroom.fleet.messages import ResultMessage, Topics, parse
from tabletop.classroom.fleet.outbox import Outbox, result_message
from tabletop.engine.dealers import RngDealer
from tabletop.engine.errors import TabletopError
from tabletop.engine.match import Match
from tabletop.games.math_attack import MathAttackSettings
from tabletop.store import Journal, SeatInfo

TOPICS = Topics()


def played(seed: int = 3) -> Match:
    match = Match(GAME, MathAttackSettings(first_player=0), 2, seed=seed)
    dealer, bots = RngDealer(seed), (MathAttackBot("easy", seed), MathAttackBot("random", seed))
    while match.result() is None:
        if match.pending.chance is not None:
            match.deal(dealer)
        else:
            match.apply(bots[match.state.turn].choose(match.state, match.state.turn))
    return match


def record(match: Match, reason: str = "end") -> dict:
    r = match.result()
    return {
        "scores": [str(s) for s in r.scores],
        "places": list(r.places),
        "winners": sorted(r.winners),
        "why": r.reason,
        "reason": reason,
    }


@pytest.fixture
def journal(tmp_path: Path) -> Journal:
    j = Journal(tmp_path / "station.sqlite3", now=lambda: 1_700_000_000.0)
    yield j
    j.close()


@pytest.fixture
def outbox(journal: Journal) -> Outbox:
    box = Outbox(journal.db, "station-4", TOPICS, now=lambda: 1_700_000_100.0)
    journal.on_finished = box.on_finished
    return box


SEATS = [SeatInfo(0, "Ada", "A1", "Red"), SeatInfo(1, "Bot", None, "", "easy")]


def test_outbox_finish_queues_one_result_the_console_accepts(journal, outbox) -> None:
    match = played()
    mid = journal.start(match, label="app", seats=SEATS, session="lesson")
    journal.finish(mid, record(match), reason="end")
    (item,) = outbox.pending()
    assert item.id.startswith("station-4:") and item.topic == TOPICS.result("station-4")
    message = parse(TOPICS, item.topic, item.body)
    assert isinstance(message, ResultMessage)
    assert message.match["game"] == "math-attack" and message.match["session"] == "lesson"
    assert message.match["result"]["scores"] == [str(s) for s in match.result().scores]
    assert [s.name for s in message.seats] == ["Ada", "Bot"] and message.seats[0].student == "A1"
    assert outbox.count() == 1 and outbox.queued == 1


def test_outbox_abandoned_games_are_not_sent(journal, outbox) -> None:
    mid = journal.start(played(), label="app", seats=SEATS)
    journal.finish(mid, None, reason="abandoned", status="abandoned")
    assert outbox.total() == 0


def test_outbox_a_failing_queue_rolls_back_the_finish(journal, outbox) -> None:
    match = played()
    mid = journal.start(match, label="app", seats=SEATS)

    def broken(db: sqlite3.Connection, match_id: int) -> None:
        outbox.on_finished(db, match_id)  # queued inside the transaction ...
        raise sqlite3.OperationalError("disk I/O error")  # ... then the disk fails

    journal.on_finished = broken
    with pytest.raises(TabletopError):
        journal.finish(mid, record(match))
    (status,) = journal.db.execute("SELECT status FROM matches WHERE id = ?", (mid,)).fetchone()
    assert status == "playing"  # not finished without its result
    assert outbox.total() == 0  # and no result without the finish
    journal.on_finished = outbox.on_finished
    journal.finish(mid, record(match))  # the next try does both
    assert outbox.count() == 1


def test_outbox_waits_for_the_consoles_answer_not_the_brokers(journal, outbox) -> None:
    """Issue 25 #1: the broker's PUBACK marks a result sent, but it stays pending until
    the console answers: stored (delivered) or refused for good."""
    ids = []
    for seed in (1, 2, 3):
        match = played(seed)
        mid = journal.start(match, label="app", seats=SEATS)
        journal.finish(mid, record(match, "time"), reason="time")
        ids.append(outbox.pending()[-1].id)
    assert [p.id for p in outbox.pending()] == ids
    assert outbox.mark_sent(ids[1]) is True
    assert outbox.mark_sent(ids[1]) is False
    assert [p.id for p in outbox.pending()] == ids and outbox.count() == 3  # still waiting
    assert outbox.mark_delivered(ids[1]) is True
    assert outbox.mark_delivered(ids[1]) is False
    assert outbox.mark_refused(ids[2], "too deep") is True
    assert outbox.mark_delivered(ids[2]) is False  # a refused one stays refused
    assert [p.id for p in outbox.pending()] == [ids[0]] and outbox.count() == 1
    assert outbox.refused() == [(ids[2], "too deep")]
    # Another connection (a process without the app) sees the same rows.
    other = Outbox.open(journal.path, "station-4", TOPICS)
    try:
        assert other.count() == 1
    finally:
        other.close()


def test_outbox_an_older_outbox_is_upgraded_and_keeps_what_waits(journal) -> None:
    """A journal written before the console's answers existed: rows the broker took
    count as delivered (as that version took them), unsent ones still wait."""
    columns = {r[1] for r in journal.db.execute("PRAGMA table_info(outbox)")}
    assert "delivered" not in columns  # the journal's own schema: the older outbox
    journal.db.executemany(
        "INSERT INTO outbox (id, topic, body, created, sent) VALUES (?, ?, '{}', ?, ?)",
        [
            ("station-4:old-sent", TOPICS.result("station-4"), 1.0, 2.0),
            ("station-4:old-unsent", TOPICS.result("station-4"), 3.0, None),
        ],
    )
    box = Outbox(journal.db, "station-4", TOPICS)
    assert [p.id for p in box.pending()] == ["station-4:old-unsent"]
    assert box.mark_delivered("station-4:old-sent") is False  # delivered already
    again = Outbox(journal.db, "station-4", TOPICS)  # a second open changes nothing
    assert again.count() == 1


def test_outbox_result_without_seat_rows_names_players_from_the_scores(journal) -> None:
    match = played()
    mid = journal.start(match, label="app")
    journal.finish(mid, record(match))
    message = result_message(journal.db, mid, "station-4")
    assert [s.name for s in message.seats] == ["Player 1", "Player 2"]
    body = json.loads(json.dumps(message.to_json()))
    assert parse(TOPICS, TOPICS.result("station-4"), json.dumps(body).encode())


def test_outbox_a_row_that_makes_no_valid_result_is_logged_not_queued(
    journal, outbox, caplog
) -> None:
    match = played()
    mid = journal.start(match, label="app", seats=[SeatInfo(i, f"P{i}") for i in range(9)])
    journal.finish(mid, record(match))  # 9 seats: more than a result may hold
    assert outbox.total() == 0
    (status,) = journal.db.execute("SELECT status FROM matches WHERE id = ?", (mid,)).fetchone()
    assert status == "finished"  # the game itself is kept
    assert any("is not sent" in r.getMessage() for r in caplog.records)
