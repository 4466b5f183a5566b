"""Round 28: a console whose journal cannot write its file (the data folder is read-only,
or the disk fills up) tells no station that a result is stored: the station keeps it and
sends it again, the dashboard says so, and once the console can save again (its folder
writable again, or the console restarted on a good one) every result arrives exactly
once. Before, the console answered ``stored`` for results it kept only in memory, and a
restart lost them for good."""

from __future__ import annotations

from pathlib import Path

import pytest

from tabletop.classroom.fleet.config import Broker
from tabletop.classroom.fleet.coordinator import Coordinator
from tabletop.store import FILE_NAME, Journal
from tests.card import FULL, READ_ONLY, simulated_card
from tests.fleet.test_station import wait_for
from tests.fleet.test_station_outage import finished_ids, play_until, station


def file_results(folder: Path) -> tuple[list[str], int]:
    """The result ids in the console's file, and its number of games."""
    journal = Journal(folder / FILE_NAME)
    try:
        ids = [r[0] for r in journal.db.execute("SELECT id FROM fleet_results ORDER BY id")]
        games = journal.db.execute("SELECT COUNT(*) FROM matches").fetchone()[0]
    finally:
        journal.close()
    return ids, int(games)


@pytest.mark.parametrize(
    ("refuse", "when", "recovery", "why"),
    [
        (READ_ONLY, "start", "retry", "read-only"),  # the walk's read-only data folder
        (READ_ONLY, "start", "restart", "read-only"),  # ... restarted on a good folder
        (FULL, "later", "retry", "full"),  # the disk fills up while the classroom plays
    ],
)
def test_console_saving_no_result_is_answered_stored_while_the_journal_is_in_memory(
    broker: Broker,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    refuse: str,
    when: str,
    recovery: str,
    why: str,
) -> None:
    monkeypatch.setattr("tabletop.classroom.fleet.station.DRAIN_EVERY", 0.2)
    journal, outbox, link, host = station(broker, tmp_path)  # its file takes writes
    link.resend_after = 0.3
    card = simulated_card(monkeypatch)  # the console's file, opened from now on
    card.refuse = refuse if when == "start" else None
    data = tmp_path / "teacher"
    console = Coordinator(broker.provisioned.teacher, data).start()
    again: Coordinator | None = None
    try:
        wait_for(lambda: console.run(lambda: console.connected))
        card.refuse = refuse
        play_until(host, link, 2)
        sent = link.published
        # Both are sent again and again, never answered: they wait on the station.
        wait_for(lambda: link.published >= sent + 4 or outbox.count() < 2, link.poll)
        assert outbox.count() == 2 and link.delivered == 0
        problems = console.run(console.problems)
        said = [p for p in problems if p.startswith("The console cannot save results: ")]
        assert len(said) == 1 and f"the SD card is {why} ({data})" in said[0]
        assert "Results wait on the stations (2 so far)" in said[0]
        assert console.run(lambda: console.results) == 0
        card.refuse = None  # the folder takes writes again
        if recovery == "retry":
            assert console.journal is not None
            console.run(lambda: setattr(console.journal, "retry_every", 0.0))
            target, folder = console, data
        else:
            console.stop()
            folder = tmp_path / "good"
            again = target = Coordinator(broker.provisioned.teacher, folder).start()
        wait_for(lambda: outbox.count() == 0, link.poll)
        assert link.delivered == 2
        assert not any("cannot" in p for p in target.run(target.problems))
        assert target.run(lambda: target.results) == 2
        target.stop()
        assert file_results(folder) == (finished_ids(journal), 2)  # each once, on file
    finally:
        host.stop()
        link.close()
        journal.close()
        console.stop()
        if again is not None:
            again.stop()
