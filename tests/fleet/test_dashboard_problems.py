"""Issue 25 on the teacher's dashboard: a refused result is said in a sentence on the
Stations part (and "Live" says there are problems), and a class list larger than the
stations take is refused by ``POST /api/roster`` and the import with a sentence naming
the limit. The console runs without a broker (the dashboard tests' fixtures)."""

from __future__ import annotations

import json
import logging
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest
from aiohttp import FormData
from aiohttp.test_utils import TestClient

from tabletop.classroom.fleet.config import provision
from tabletop.classroom.fleet.coordinator import Coordinator
from tabletop.classroom.fleet.messages import MAX_STUDENTS, StatusMessage, Topics, encode
from tabletop.classroom.rotation import Plan
from tests.teacher.test_app import Clock, Scenario, clock, console, log_in, origin, post, serve

__all__ = ["clock", "console", "serve"]  # the dashboard tests' fixtures

T = Topics()
UNREADABLE = (  # round 10: in the teacher's words (main: "... (NaN is not a number ...)")
    "Device {} sends messages this computer cannot read, so its card may be out of date."
    " Check that the device runs the same version of Tabletop as this computer; the log"
    " says more."
)


def _class_list(count: int) -> bytes:
    rows = "".join(f"S{n},Student {n},Group {n % 5}\n" for n in range(1, count + 1))
    return ("id,name,group\n" + rows).encode()


def test_dashboard_says_which_station_sent_a_result_that_could_not_be_read(
    console: Coordinator, serve: Callable[[Scenario], None], caplog: pytest.LogCaptureFixture
) -> None:
    """Said in the teacher's words, what happened and what to do; the technical reason is
    in the log (round 10 changed the words: main showed "(nested 50001 deep, more than
    16)" to the teacher)."""
    deep = b'{"device":"station-2","id":"station-2:0001","match":' + b"[" * 50_000
    console.run(console._received, T.result("station-2"), deep, 1, 0)
    assert any(
        "nested 50001 deep, more than 16 (fleet.depth)" in r.getMessage() for r in caplog.records
    )

    async def scenario(client: TestClient) -> None:
        await log_in(client)
        state = await (await client.get("/api/state")).json()
        assert state["problems"] == [
            {
                "keys": ["refused:station-2:0001"],
                "sentence": "Device station-2 sent a game's result this computer could not"
                " read, so that game is not in the reports. Check that the device runs the same"
                " version of Tabletop as this computer; the log says more.",
            }
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
    assert console.run(console.problems) == [UNREADABLE.format("station-4")]
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
    assert console.run(console.problems) == [UNREADABLE.format("station-5")]
    assert console.run(lambda: console.refused) == {"fleet.number": 2}  # still counted


BAD_STATUS = b'{"v": 1, "kind": NaN}'


def _deep(device: str, n: int) -> bytes:
    return f'{{"device":"{device}","id":"{device}:{n:04d}","match":'.encode() + b"[" * 100


def _status(console: Coordinator, device: str, online: bool, t: float) -> None:
    console.run(console._received, T.status(device), encode(StatusMessage(device, online, t)), 1, 0)


def _restart(console: Coordinator, tmp_path: Path, clock: Clock) -> Coordinator:
    console.stop()
    return Coordinator(console.config, tmp_path / "teacher", now=clock).start(connect=False)


def test_dashboard_a_dismissed_problem_is_hidden_until_it_happens_again(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The teacher dismisses what they have seen (main: every problem stayed on the
    dashboard for as long as the console ran, and came back after a restart): a status
    that cannot be read is back once it happens again after a good one, a result refused
    is hidden for good (a new one is shown); the journal and the log keep each."""
    caplog.set_level(logging.INFO, logger="tabletop.classroom.fleet.coordinator")
    files = provision(tmp_path / "fleet", ["station-1", "station-2"], port=1)
    clock = Clock()
    console = Coordinator(files.teacher, tmp_path / "teacher", now=clock).start(connect=False)
    try:
        console.run(console._received, T.status("station-1"), BAD_STATUS, 1, 0)
        console.run(console._received, T.result("station-2"), _deep("station-2", 1), 1, 0)
        shown = console.run(console.open_problems)
        assert len(shown) == 2
        console.run(console.dismiss, [k for p in shown for k in p.keys])
        assert console.run(console.problems) == []
        assert "console: the teacher dismissed refused:station-2:0001" in caplog.messages
        clock.t += 5
        console.run(console._received, T.status("station-1"), BAD_STATUS, 1, 0)  # the same fault
        console.run(console._received, T.result("station-2"), _deep("station-2", 1), 1, 0)
        assert console.run(console.problems) == []
        console = _restart(console, tmp_path, clock)  # the teacher's "seen" is kept
        assert list(console.run(lambda: console.refusals)) == ["station-2:0001"]  # the record
        console.run(console._received, T.result("station-2"), _deep("station-2", 2), 1, 0)
        _status(console, "station-1", True, clock.t)  # well again...
        clock.t += 5
        console.run(console._received, T.status("station-1"), BAD_STATUS, 1, 0)  # ...and not
        assert console.run(console.problems) == [
            UNREADABLE.format("station-1"),
            "Device station-2 sent a game's result this computer could not read, so that game"
            " is not in the reports. Check that the device runs the same version of Tabletop as"
            " this computer; the log says more.",
        ]
    finally:
        console.stop()


def test_dashboard_an_offline_device_outside_the_plan_may_be_dismissed(tmp_path: Path) -> None:
    """A device gone offline that no station uses (the broken one a teacher swapped out)
    may be put out of sight; it is back when it comes back and goes again (main: its grey
    card stayed for the rest of the lesson). A station of the plan keeps its card."""
    files = provision(tmp_path / "fleet", ["station-1", "station-2"], port=1)
    clock = Clock()
    console = Coordinator(files.teacher, tmp_path / "teacher", now=clock).start(connect=False)

    def cards() -> dict[str, tuple[str | None, bool]]:
        snap = console.run(console.snapshot)
        return {c["device"]: (c["dismiss"], c["dismissed"]) for c in snap["stations"]}

    try:
        plan = Plan.from_json({"stations": [{"game": "mecs"}], "groups": ["Red"]})
        console.run(console.start_plan, plan, {"station-1": 0})
        for device in ("station-1", "station-2"):
            _status(console, device, True, clock.t)
            _status(console, device, False, clock.t)
        (key, _), plan_card = cards()["station-2"], cards()["station-1"]
        assert key is not None and plan_card == (None, False)
        console.run(console.dismiss, [key])
        assert cards()["station-2"] == (key, True)
        clock.t += 60
        _status(console, "station-2", True, clock.t)
        assert cards()["station-2"] == (None, False)
        _status(console, "station-2", False, clock.t)
        assert cards()["station-2"][1] is False
    finally:
        console.stop()


def test_dashboard_dismiss_refuses_what_is_not_a_list_of_keys(
    console: Coordinator, serve: Callable[[Scenario], None]
) -> None:
    async def scenario(client: TestClient) -> None:
        await log_in(client)
        for body in ({}, {"keys": "refused:x"}, {"keys": [3]}):
            r = await post(client, "/api/dismiss", body)
            assert r.status == 400
            assert (await r.json())["error"] == (
                "The dashboard did not say which problem to dismiss: reload the page and try again."
            )
        r = await post(client, "/api/dismiss", {"keys": ["refused:gone"]})  # gone already
        assert r.status == 200

    serve(scenario)


def test_dashboard_problem_sentences_start_with_a_capital_without_a_plan(
    console: Coordinator,
) -> None:
    """With no plan a problem named the device first ("station-2 sent ...", a sentence in
    lower case); it starts with a capital now, the device's id as it is."""
    console.run(console._received, T.status("station-4"), BAD_STATUS, 1, 0)
    console.run(console._received, T.result("station-2"), _deep("station-2", 1), 1, 0)
    problems = console.run(console.problems)
    assert [p.split(" sen")[0] for p in problems] == ["Device station-4", "Device station-2"]
    assert all(p[0].isupper() for p in problems)


def test_dashboard_says_which_station_plays_without_a_setting_or_has_not_taken_the_plan(
    tmp_path: Path,
) -> None:
    """Across versions (main: the dashboard said nothing, the card read "Waiting ·
    updating…" for the whole lesson): a station that plays the plan without a setting it
    does not know, and one that talks but has not taken the plan 30 s after it was sent
    (an older version refused it), are each named with what to do. A station that
    follows, or has had no time yet, or is offline, is no problem."""
    devices = ["station-1", "station-2", "station-3"]
    files = provision(tmp_path / "fleet", devices, port=1)
    clock = Clock()
    console = Coordinator(files.teacher, tmp_path / "teacher", now=clock).start(connect=False)

    def status(device: str, **fields: object) -> None:
        message = StatusMessage(device, True, clock.t, **fields)  # type: ignore[arg-type]
        console.run(console._received, T.status(device), encode(message), 1, 0)

    try:
        arena = {"game": "math-arena", "options": {"target": "15"}}
        plan = Plan.from_json({"stations": [{"game": "mecs"}, arena], "groups": ["Red"]})
        sent = console.run(console.start_plan, plan, {"station-1": 1, "station-2": 0})
        ours = {"plan": sent.id, "clock_seq": 1}
        status("station-1", station=1, ignored=("target",), **ours)
        status("station-2")  # has not taken it yet: no time has passed
        status("station-3")  # outside the plan
        ignoring = (
            "Station 2 (station-1) runs an older version of Tabletop: it does not know the "
            'Math Arena setting "Play to" you chose, so the group chooses it there. Update it '
            "to this computer's version of Tabletop."
        )
        assert console.run(console.problems) == [ignoring]
        clock.t += 31
        status("station-2")
        status("station-3")
        refusing = (
            "Station 1 (station-2) has not started this rotation. It may run an older "
            "version of Tabletop that cannot read a setting you chose: update it to this "
            "computer's version, or start the rotation again with every setting left at "
            '"the group chooses".'
        )
        assert console.run(console.problems) == [refusing, ignoring]  # in station order
        status("station-2", station=0, **ours)  # updated: it follows
        status("station-1", station=1, **ours)
        assert console.run(console.problems) == []
        status("station-2")
        _status(console, "station-2", False, clock.t)  # offline: its card says so
        assert console.run(console.problems) == []
    finally:
        console.stop()


def test_dashboard_says_which_presets_a_restored_newer_plan_lost(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The console restarts on a plan a newer version saved, with presets this version
    does not know (a new option, a new value of a known one): it carries on without them,
    as a station does, and the log and the dashboard name them and say what to do (main:
    dropped without a word). A new plan started here has nothing to say."""
    caplog.set_level(logging.INFO, logger="tabletop.classroom.fleet.coordinator")
    files = provision(tmp_path / "fleet", ["station-1", "station-2"], port=1)
    plan = Plan.from_json({"stations": [{"game": "mecs"}, {"game": "math-arena"}], "groups": ["A"]})
    with Coordinator(files.teacher, tmp_path / "teacher").start(connect=False) as first:
        first.run(first.start_plan, plan, {"station-1": 0, "station-2": 1})
        path = first.path
    with sqlite3.connect(path) as db:  # as a newer console would have saved it
        (body,) = db.execute("SELECT body FROM fleet_state WHERE key = 'plan'").fetchone()
        saved = json.loads(body)
        saved["plan"]["stations"][1]["options"] = {"level": "easy", "rounds": "5", "target": "7"}
        db.execute("UPDATE fleet_state SET body = ? WHERE key = 'plan'", (json.dumps(saved),))
    console = Coordinator(files.teacher, tmp_path / "teacher").start(connect=False)
    try:
        restored = console.run(lambda: console.plan)
        assert restored is not None and restored.id == saved["id"]
        assert dict(restored.plan.stations[1].options) == {"level": "easy"}
        sentence = (
            "The saved rotation plan comes from a newer version of Tabletop: this computer "
            'does not know the Math Arena setting "rounds" and "Play to" of station 2, so the '
            "stations play without it and the group chooses it there. Update this computer's "
            "Tabletop, then start the rotation again."
        )
        assert console.run(console.problems) == [sentence]
        assert [p["sentence"] for p in console.run(console.snapshot)["problems"]] == [sentence]
        assert (
            "console: the saved plan's station 2 has options this version does not know, "
            "left out: rounds, target"
        ) in caplog.messages
        console.run(console.start_plan, plan, {"station-1": 0, "station-2": 1})
        assert console.run(console.problems) == []
    finally:
        console.stop()
