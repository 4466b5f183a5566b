"""The dashboard's web app with aiohttp's test client: login, expiry, the lock, CSRF, the
API and its errors (the console runs without a broker: connect=False)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from aiohttp import ClientResponse, FormData
from aiohttp.test_utils import TestClient, TestServer

from tabletop import cli
from tabletop.classroom.fleet.config import provision
from tabletop.classroom.fleet.coordinator import Coordinator
from tabletop.classroom.fleet.messages import ResultMessage, SeatRecord
from tabletop.engine.errors import BadInput
from tabletop.teacher.app import make_app
from tabletop.teacher.auth import COOKIE, Gate, Locked, WrongPin

PIN = "4321"


class Clock:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


@pytest.fixture
def console(tmp_path: Path) -> Iterator[Coordinator]:
    files = provision(tmp_path / "fleet", ["station-1", "station-2"], port=1)
    c = Coordinator(files.teacher, tmp_path / "teacher").start(connect=False)
    yield c
    c.stop()


@pytest.fixture
def clock() -> Clock:
    return Clock()


Scenario = Callable[[TestClient], Awaitable[None]]


@pytest.fixture
def serve(console: Coordinator, clock: Clock) -> Callable[[Scenario], None]:
    def run(scenario: Scenario) -> None:
        async def main() -> None:
            gate = Gate(PIN, idle_minutes=60, clock=clock)
            async with TestClient(TestServer(make_app(console, gate))) as client:
                await scenario(client)

        asyncio.run(main())

    return run


def origin(client: TestClient) -> dict[str, str]:
    return {"Origin": f"http://{client.host}:{client.port}"}


async def log_in(client: TestClient, pin: str = PIN) -> ClientResponse:
    return await client.post(
        "/login", data={"pin": pin}, headers=origin(client), allow_redirects=False
    )


async def post(client: TestClient, path: str, body: Any) -> ClientResponse:
    return await client.post(path, json=body, headers=origin(client))


PLAN = {
    "stations": [{"game": "mecs"}, {"game": "math-arena", "mode": "virtual"}],
    "groups": ["Red", "Blue"],
    "minutes": 10,
    "transition": 1,
    "warning": 1,
}


def test_teacher_pages_need_a_login(serve: Callable[[Scenario], None]) -> None:
    async def scenario(client: TestClient) -> None:
        page = await client.get("/", allow_redirects=False)
        assert page.status == 303 and page.headers["Location"] == "/login"
        api = await client.get("/api/state")
        assert api.status == 401 and (await api.json()) == {"error": "Please log in again."}
        assert (await client.get("/report.csv", allow_redirects=False)).status == 303
        login = await client.get("/login")
        assert login.status == 200 and "Teacher PIN" in await login.text()
        assert "default-src 'self'" in login.headers["Content-Security-Policy"]

    serve(scenario)


def test_teacher_login_sets_a_strict_http_only_cookie(serve: Callable[[Scenario], None]) -> None:
    async def scenario(client: TestClient) -> None:
        wrong = await log_in(client, "1111")
        assert wrong.status == 401 and "That PIN is not right." in await wrong.text()
        right = await log_in(client)
        assert right.status == 303 and right.headers["Location"] == "/"
        cookie = right.cookies[COOKIE]
        assert cookie["httponly"] and cookie["samesite"] == "Strict" and len(cookie.value) >= 40
        page = await client.get("/")
        assert page.status == 200 and "Pause all" in await page.text()
        state = await (await client.get("/api/state")).json()
        assert state["stations"] == [] and state["plan"] is None
        assert {g["id"] for g in state["catalogue"]} >= {"mecs", "math-arena"}
        (mecs,) = [g for g in state["catalogue"] if g["id"] == "mecs"]
        assert mecs["options"] == [
            ["deck", "Deck", [["beginners", "Beginners"], ["advanced", "Advanced"]]],
            [  # MECS-12: the bots' level is planned like Math Attack!'s and Math Arena's
                "level",
                "Bots",
                [["easy", "Easy bots"], ["medium", "Medium bots"], ["hard", "Hard bots"]],
            ],
        ]
        out = await client.post("/logout", headers=origin(client), allow_redirects=False)
        assert out.status == 303
        client.session.cookie_jar.update_cookies({COOKIE: cookie.value})
        assert (await client.get("/api/state")).status == 401  # the token is dead

    serve(scenario)


def test_teacher_session_expires_when_idle(serve: Callable[[Scenario], None], clock: Clock) -> None:
    async def scenario(client: TestClient) -> None:
        await log_in(client)
        clock.t += 59 * 60
        assert (await client.get("/api/state")).status == 200  # use keeps it alive
        clock.t += 59 * 60
        assert (await client.get("/api/state")).status == 200
        clock.t += 60 * 60
        assert (await client.get("/api/state")).status == 401
        assert (await client.get("/", allow_redirects=False)).status == 303

    serve(scenario)


def test_teacher_login_locks_after_five_wrong_pins(
    serve: Callable[[Scenario], None], clock: Clock
) -> None:
    async def scenario(client: TestClient) -> None:
        for _ in range(4):
            assert (await log_in(client, "0000")).status == 401
        clock.t += 60
        locked = await log_in(client, "0000")
        assert locked.status == 429
        assert "Too many wrong PINs. Try again in 5 minutes." in await locked.text()
        clock.t += 60
        again = await log_in(client)  # even the right PIN waits
        assert again.status == 429 and "Try again in 3 minutes." in await again.text()
        clock.t += 181  # the first wrong PIN is 5 minutes old: one more try
        assert (await log_in(client)).status == 303

    serve(scenario)


def test_teacher_wrong_pins_from_many_addresses_pause_every_login(clock: Clock) -> None:
    """Thirty tablets guessing at once get no further than four: 20 wrong PINs in 5
    minutes from all addresses together pause every login; an open session stays open."""
    gate = Gate(PIN, clock=clock)
    teacher = gate.login("10.0.0.1", PIN)
    for n in range(19):
        clock.t += 1
        with pytest.raises(WrongPin):
            gate.login(f"10.0.1.{n}", "0000")  # each address far from its own lock
    clock.t += 1
    with pytest.raises(Locked) as last:
        gate.login("10.0.1.99", "0000")  # the 20th
    assert last.value.everyone and last.value.minutes == 5
    assert last.value.sentence == "Too many wrong PINs on this network. Try again in 5 minutes."
    with pytest.raises(Locked) as right:
        gate.login("10.0.0.2", PIN)  # even the right PIN waits, from a new address
    assert right.value.everyone
    assert gate.check(teacher)  # the teacher already logged in is not logged out
    clock.t += 300 - 19  # the first wrong PIN no longer counts: 19 left, logins open
    assert gate.login("10.0.0.2", PIN)
    with pytest.raises(Locked):  # ...until the 20th again
        gate.login("10.0.1.100", "0000")
    with pytest.raises(BadInput):
        Gate(PIN, attempts=6, everyone=5)


def test_teacher_posts_from_another_origin_are_refused(
    serve: Callable[[Scenario], None],
) -> None:
    async def scenario(client: TestClient) -> None:
        evil = {"Origin": "http://evil.example"}
        assert (await client.post("/login", data={"pin": PIN}, headers=evil)).status == 403
        await log_in(client)
        for headers in ({}, evil, {"Origin": "null"}, {"Referer": "http://evil.example/x"}):
            r = await client.post("/api/clock", json={"action": "pause"}, headers=headers)
            assert r.status == 403, headers
            assert "did not come from the dashboard" in (await r.json())["error"]
        referer = {"Referer": f"http://{client.host}:{client.port}/#stations"}
        r = await client.post("/api/plan/clear", json={}, headers=referer)
        assert r.status == 200

    serve(scenario)


def test_teacher_api_errors_are_plain_sentences(serve: Callable[[Scenario], None]) -> None:
    async def scenario(client: TestClient) -> None:
        await log_in(client)
        r = await post(client, "/api/clock", {"action": "pause"})
        assert r.status == 400
        assert (await r.json())["error"] == "No rotation is running: start one first."
        bad = dict(PLAN, warning=10)
        r = await post(client, "/api/plan", {"plan": bad, "stations": {}})
        assert r.status == 400
        assert (
            "warning" in (await r.json())["error"]
            and "make it shorter" in (await r.json())["error"]
        )
        r = await post(client, "/api/plan", {"plan": PLAN, "stations": {"station-1": 5}})
        assert r.status == 400 and "station 5" in (await r.json())["error"]
        long = dict(PLAN, stations=[{"game": "mecs", "name": "A very long name " * 3}])
        r = await post(client, "/api/plan", {"plan": long, "stations": {}})
        assert r.status == 400 and "at most 30 fit" in (await r.json())["error"]
        odd = dict(PLAN, stations=[{"game": "mecs", "options": {"deck": "purple"}}])
        r = await post(client, "/api/plan", {"plan": odd, "stations": {}})
        assert (await r.json())["error"] == (
            "M.E.C.S.'s deck cannot be 'purple': choose one of beginners, advanced."
        )
        r = await client.post(
            "/api/clock", data=b"{nope", headers={**origin(client), "Content-Type": "x"}
        )
        assert r.status == 400 and (await r.json())["error"] == "The request is not JSON."
        r = await post(client, "/api/clock", {"action": "explode"})
        assert r.status == 400
        r = await post(client, "/api/roster", {"op": "add", "name": "  "})
        assert (await r.json())["error"] == "The name must not be empty."

    serve(scenario)


def test_teacher_api_runs_the_rotation(serve: Callable[[Scenario], None]) -> None:
    async def scenario(client: TestClient) -> None:
        await log_in(client)
        r = await post(
            client,
            "/api/plan",
            {"plan": PLAN, "stations": {"station-1": 0, "station-2": 1}, "session": "Tue"},
        )
        assert r.status == 200 and (await r.json())["session"] == "Tue"
        assert (await (await post(client, "/api/clock", {"action": "pause"})).json()) == {"seq": 2}
        r = await post(client, "/api/clock", {"action": "extend", "station": 1, "minutes": 2})
        assert (await r.json())["seq"] == 3
        state = await (await client.get("/api/state")).json()
        assert [c["device"] for c in state["stations"]] == ["station-1", "station-2"]
        assert all(c["waiting"] and not c["online"] for c in state["stations"])
        assert [m["paused"] for m in state["moments"]] == [True, True]
        assert state["clocks"][1]["extensions"] == [[0, "play", 2]]
        latency = await (await client.get("/api/latency")).json()
        assert [r["action"] for r in latency] == ["start", "pause", "extend 2"]

    serve(scenario)


def test_teacher_api_edits_the_class_list(serve: Callable[[Scenario], None]) -> None:
    async def scenario(client: TestClient) -> None:
        await log_in(client)
        form = FormData()
        form.add_field(
            "file", "id;name;group\nS1;Émile;Red\nS2;Bo;Blue\n".encode("cp1252"), filename="c.csv"
        )
        r = await client.post("/api/roster/import", data=form, headers=origin(client))
        assert (await r.json()) == {"sentence": "2 added.", "total": 2}
        r = await post(client, "/api/roster", {"op": "add", "name": "Cy", "group": "Red"})
        assert (await r.json()) == {"id": "S3", "name": "Cy", "group": "Red"}
        await post(client, "/api/roster", {"op": "rename", "id": "S2", "name": "Bob"})
        await post(client, "/api/roster", {"op": "group", "id": "S2", "group": "Red"})
        await post(client, "/api/roster", {"op": "remove", "id": "s1"})
        roster = await (await client.get("/api/roster")).json()
        assert roster == {
            "students": [
                {"id": "S2", "name": "Bob", "group": "Red"},
                {"id": "S3", "name": "Cy", "group": "Red"},
            ],
            "groups": ["Red"],
        }
        csv = await client.get("/roster.csv")
        assert "attachment" in csv.headers["Content-Disposition"]
        assert (await csv.text()) == "\ufeffid,name,group\nS2,Bob,Red\nS3,Cy,Red\n"
        r = await client.post("/api/roster/import", data=b"S9,,Red\n", headers=origin(client))
        assert r.status == 400 and "Line 1: the id and the name" in (await r.json())["error"]

    serve(scenario)


def test_teacher_reports_list_and_download(
    serve: Callable[[Scenario], None], console: Coordinator
) -> None:
    result = ResultMessage(
        id="station-1:abc123",
        device="station-1",
        match={
            "game": "mecs",
            "header": "{}",
            "label": "app",
            "session": "Tue",
            "meta": {"checks": [[2, 1]]},
            "result": {"scores": ["15", "9"], "places": [1, 2], "winners": [0]},
            "reason": "end",
            "started": 1.0,
            "finished": 2.0,
            "elapsed": 120.0,
        },
        seats=(SeatRecord(0, "Ada", "S1", "Red"), SeatRecord(1, "Bot", None, "", "easy")),
    )
    assert console.run(console._store, result)

    async def scenario(client: TestClient) -> None:
        await log_in(client)
        listed = await (await client.get("/api/reports")).json()
        assert listed == [{"session": "Tue", "title": "Tue", "students": 1, "games": 1}]
        csv = await (await client.get("/report.csv", params={"session": "Tue"})).text()
        assert csv.splitlines()[1].startswith("Tue,Red,S1,Ada,mecs,1,1,15")
        pdf = await client.get("/report.pdf", params={"session": "Tue"})
        assert pdf.content_type == "application/pdf" and (await pdf.read()).startswith(b"%PDF")
        assert 'filename="report-Tue.pdf"' in pdf.headers["Content-Disposition"]

    serve(scenario)


def test_teacher_command_refuses_to_start_without_a_pin(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv("TABLETOP_TEACHER_PIN", raising=False)
    assert cli.main(["teacher", "--fleet", str(tmp_path / "teacher.toml")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [
        "tabletop teacher: no teacher PIN: give --pin, --pin-file FILE or set $TABLETOP_TEACHER_PIN"
    ]
    files = provision(tmp_path / "fleet", ["station-1"], port=1)
    station = files.folder / "station-1.toml"
    assert cli.main(["teacher", "--fleet", str(station), "--pin", "12"]) == 2
    assert "4 to 64 characters" in capsys.readouterr().err
    assert cli.main(["teacher", "--fleet", str(station), "--pin", "1234"]) == 2
    assert "teacher's fleet file" in capsys.readouterr().err


def test_teacher_console_keeps_its_journal_apart_from_the_station_app(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A coordinator that is also a station: the console's store is console/ inside the
    data folder, never the app's own journal (its games would count twice)."""
    import tabletop.classroom.fleet.coordinator as coordinator

    seen: list[Path] = []

    class Stop(Exception):
        pass

    def fake(config: Any, data: Any, **kwargs: Any) -> Any:
        seen.append(Path(data))
        raise Stop

    monkeypatch.setattr(coordinator, "Coordinator", fake)
    monkeypatch.setenv("TABLETOP_DATA", str(tmp_path / "data"))
    files = provision(tmp_path / "fleet", ["station-1"], port=1)
    teacher = str(files.folder / "teacher.toml")
    with pytest.raises(Stop):
        cli.main(["teacher", "--fleet", teacher, "--pin", "1234"])
    with pytest.raises(Stop):
        cli.main(["teacher", "--fleet", teacher, "--pin", "1234", "--data", str(tmp_path / "c")])
    assert seen == [tmp_path / "data" / "console", tmp_path / "c"]
