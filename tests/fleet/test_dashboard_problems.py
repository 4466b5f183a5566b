"""Issue 25 on the teacher's dashboard: a refused result is said in a sentence on the
Stations part (and "Live" says there are problems), and a class list larger than the
stations take is refused by ``POST /api/roster`` and the import with a sentence naming
the limit. The console runs without a broker (the dashboard tests' fixtures)."""

from __future__ import annotations

from collections.abc import Callable

from aiohttp import FormData
from aiohttp.test_utils import TestClient

from tabletop.classroom.fleet.coordinator import Coordinator
from tabletop.classroom.fleet.messages import MAX_STUDENTS, StatusMessage, Topics, encode
from tests.teacher.test_app import Scenario, clock, console, log_in, origin, post, serve

__all__ = ["clock", "console", "serve"]  # the dashboard tests' fixtures

T = Topics()


def _class_list(count: int) -> bytes:
    rows = "".join(f"S{n},Student {n},Group {n % 5}\n" for n in range(1, count + 1))
    return ("id,name,group\n" + rows).encode()


def test_dashboard_says_which_station_sent_a_result_that_could_not_be_read(
    console: Coordinator, serve: Callable[[Scenario], None]
) -> None:
    deep = b'{"device":"station-2","id":"station-2:0001","match":' + b"[" * 50_000
    console.run(console._received, T.result("station-2"), deep, 1, 0)

    async def scenario(client: TestClient) -> None:
        await log_in(client)
        state = await (await client.get("/api/state")).json()
        assert state["problems"] == [
            "station-2 sent a result that could not be read (nested 50001 deep, more than 16)."
        ]
        page = await (await client.get("/static/app.js")).text()
        assert "Live, with problems" in page

    serve(scenario)


def test_dashboard_refuses_a_class_list_larger_than_the_stations_take(
    console: Coordinator, serve: Callable[[Scenario], None]
) -> None:
    async def scenario(client: TestClient) -> None:
        await log_in(client)
        form = FormData()
        form.add_field("file", _class_list(10_000), filename="big.csv")
        r = await client.post("/api/roster/import", data=form, headers=origin(client))
        error = (await r.json())["error"]
        assert r.status == 400
        assert f"at most {MAX_STUDENTS}" in error and "Nothing was changed" in error
        r = await client.post(
            "/api/roster/import", data=_class_list(MAX_STUDENTS), headers=origin(client)
        )
        assert r.status == 200 and (await r.json())["total"] == MAX_STUDENTS
        r = await post(client, "/api/roster", {"op": "add", "name": "One More"})
        assert r.status == 400 and f"at most {MAX_STUDENTS}" in (await r.json())["error"]
        roster = await (await client.get("/api/roster")).json()
        assert len(roster["students"]) == MAX_STUDENTS

    serve(scenario)


def test_dashboard_a_bad_status_is_said_once_per_station(console: Coordinator, caplog) -> None:
    for _ in range(3):
        console.run(console._received, T.status("station-4"), b'{"v": 1, "kind": NaN}', 1, 0)
    assert console.run(console.problems) == [
        "station-4 sent a status that could not be read (NaN is not a number a message may hold)."
    ]
    assert console.run(lambda: console.refused) == {"fleet.number": 3}
    assert sum("refused a status" in r.getMessage() for r in caplog.records) == 1


def test_dashboard_a_bad_status_is_gone_once_the_station_sends_a_good_one(
    console: Coordinator,
) -> None:
    """One unreadable status from station-4 is said until station-4's next good status
    (main: said for as long as the console ran, "Live, with problems" with it, though the
    station was well again); another station's fault stays."""
    for device in ("station-4", "station-5"):
        console.run(console._received, T.status(device), b'{"v": 1, "kind": NaN}', 1, 0)
    good = encode(StatusMessage("station-4", True, 1000.0))
    console.run(console._received, T.status("station-4"), good, 1, 0)
    assert console.run(console.problems) == [
        "station-5 sent a status that could not be read (NaN is not a number a message may hold)."
    ]
    assert console.run(lambda: console.refused) == {"fleet.number": 2}  # still counted
