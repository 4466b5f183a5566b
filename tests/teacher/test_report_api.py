"""The dashboard's reports with a stored result that cannot be reported, hiding a result,
and the CSVs it serves (issue 25, items 3 and 6)."""

from __future__ import annotations

import csv
import io
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient

from tabletop.classroom.fleet.config import provision
from tabletop.classroom.fleet.coordinator import Coordinator
from tabletop.classroom.fleet.messages import ResultMessage, SeatRecord
from tabletop.store import FILE_NAME, Journal
from tests.card import simulated_card
from tests.teacher.test_app import (
    RESULT_MATCH,
    Scenario,
    clock,
    console,
    log_in,
    post,
    serve,
)

__all__ = ["clock", "console", "serve"]  # fixtures used by name


def stored(console: Coordinator, n: int, **match: Any) -> int:
    """Store result ``n`` as the console does; the journal's number of the game."""
    result = ResultMessage(
        id=f"station-1:r{n}",
        device="station-1",
        match={**RESULT_MATCH, **match},
        seats=(SeatRecord(0, "=cmd|' /C calc'!A0", "S1", "Red"), SeatRecord(1, "Bo", "S2", "Red")),
    )
    assert console.run(console._store, result)
    assert console.journal is not None
    (match_id,) = console.journal.db.execute(
        "SELECT match_id FROM fleet_results WHERE id = ?", (result.id,)
    ).fetchone()
    return int(match_id)


def test_teacher_reports_survive_a_result_that_cannot_be_reported(
    serve: Callable[[Scenario], None], console: Coordinator
) -> None:
    """Item 3: ``"checks": [[1e999, 1]]`` and ``"scores": ["1e30", "0"]`` stored: the
    reports answer (main: HTTP 500), naming each game left out, and the teacher can hide
    one (behind the PIN session); the game is still in the journal."""
    good = stored(console, 1)
    checks = stored(console, 2, meta={"checks": [[1e999, 1]]})
    scores = stored(console, 3, result={"scores": ["1e30", "0"], "places": [1, 2]})

    async def scenario(client: TestClient) -> None:
        r = await post(client, "/api/results/hide", {"match": scores, "hidden": True})
        assert r.status == 401  # the PIN first
        await log_in(client)
        r = await client.get("/report.csv", params={"session": "Tue"})
        assert r.status == 200  # main: 500
        assert len((await r.text()).splitlines()) == 1 + 2  # the good game's two players
        pdf = await client.get("/report.pdf", params={"session": "Tue"})
        assert pdf.status == 200 and (await pdf.read()).startswith(b"%PDF")
        everything = await client.get("/report.csv")
        assert everything.status == 200
        (listed,) = await (await client.get("/api/reports")).json()
        assert (listed["games"], listed["hidden"]) == (1, [])
        assert [g["match"] for g in listed["left_out"]] == [checks, scores]
        assert listed["left_out"][1]["sentence"] == (
            f'Game {scores} (M.E.C.S., Tue, from station-1) is left out: a score "1e30"'
            " is not an exact number in range."
        )
        games = await (await client.get("/api/results", params={"session": "Tue"})).json()
        assert [(g["match"], g["hidden"], g["station"]) for g in games] == [
            (scores, False, "station-1"),
            (checks, False, "station-1"),
            (good, False, "station-1"),
        ]
        r = await post(client, "/api/results/hide", {"match": scores, "hidden": True})
        assert (await r.json()) == {"match": scores, "hidden": True}
        (listed,) = await (await client.get("/api/reports")).json()
        assert [g["match"] for g in listed["left_out"]] == [checks]
        assert [g["match"] for g in listed["hidden"]] == [scores]
        await post(client, "/api/results/hide", {"match": good, "hidden": True})
        (listed,) = await (await client.get("/api/reports")).json()
        assert listed["games"] == 0
        await post(client, "/api/results/hide", {"match": good, "hidden": False})
        (listed,) = await (await client.get("/api/reports")).json()
        assert listed["games"] == 1
        r = await post(client, "/api/results/hide", {"match": 999})
        assert r.status == 400 and "no finished game number 999" in (await r.json())["error"]
        r = await post(client, "/api/results/hide", {"match": "1"})
        assert r.status == 400

    serve(scenario)
    assert console.journal is not None
    (n,) = console.journal.db.execute("SELECT COUNT(*) FROM matches").fetchone()
    assert n == 3  # hiding deletes nothing


def test_teacher_csvs_run_no_formulas(
    serve: Callable[[Scenario], None], console: Coordinator
) -> None:
    """Item 6: a name added as ``=cmd|' /C calc'!A0`` is quoted in ``/roster.csv`` and
    ``/report.csv`` and stays as typed in the JSON."""
    stored(console, 1)

    async def scenario(client: TestClient) -> None:
        await log_in(client)
        name = '=HYPERLINK("http://x.example","Ann")'
        r = await post(client, "/api/roster", {"op": "add", "name": name, "group": "+Red"})
        assert (await r.json())["name"] == name
        roster = list(csv.reader(io.StringIO(await (await client.get("/roster.csv")).text())))
        assert roster[1:] == [["S3", "'" + name, "'+Red"]]
        report = await (await client.get("/report.csv", params={"session": "Tue"})).text()
        rows = list(csv.reader(io.StringIO(report.lstrip("\ufeff"))))
        assert [r[3] for r in rows[1:]] == ["'=cmd|' /C calc'!A0", "Bo"]

    serve(scenario)


def test_teacher_state_says_when_the_console_cannot_save(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The console's journal on a full disk: the dashboard's state says so precisely (the
    page shows it under the header), and results are kept in memory meanwhile."""
    from tabletop.teacher.app import _state

    card = simulated_card(monkeypatch)
    card.refuse = "database or disk is full"
    files = provision(tmp_path / "fleet", ["station-1"], port=1)
    console = Coordinator(files.teacher, tmp_path / "teacher").start(connect=False)
    try:
        assert console.run(_state, console)["saving"] == (
            "The SD card is full: games are not being saved."
        )
        stored(console, 1)  # kept in memory
        card.refuse = None
        assert console.journal is not None and console.run(console.journal.retry)
        assert console.run(_state, console)["saving"] is None
    finally:
        console.stop()
    journal = Journal(tmp_path / "teacher" / FILE_NAME)
    assert journal.db.execute("SELECT COUNT(*) FROM fleet_results").fetchone()[0] == 1
    journal.close()
