"""Round 10's mends of the dashboard's API (aiohttp's test client; the console runs
without a broker): the tab's icon, a clock press that names no action, a device swapped
mid-rotation."""

from __future__ import annotations

import logging
from collections.abc import Callable

import pytest
from aiohttp.test_utils import TestClient

from tabletop.classroom.fleet.coordinator import Coordinator
from tests.teacher.test_app import PLAN, Scenario, clock, console, log_in, origin, post, serve

__all__ = ["clock", "console", "serve"]  # the dashboard tests' fixtures


def test_teacher_favicon_is_served_without_a_login(serve: Callable[[Scenario], None]) -> None:
    """The browser asks for /favicon.ico on every page, the login page too (main: 404)."""

    async def scenario(client: TestClient) -> None:
        r = await client.get("/favicon.ico")
        assert r.status == 200
        assert r.content_type == "image/svg+xml"
        body = await r.read()
        assert body.startswith(b"<svg") and len(body) < 2048
        for page in ("/login", "/"):
            await log_in(client)
            html = await (await client.get(page)).text()
            assert '<link rel="icon" href="/favicon.ico" type="image/svg+xml">' in html

    serve(scenario)


@pytest.mark.parametrize("body", [{"action": None}, {}, {"action": 3}, {"action": "explode"}])
def test_teacher_clock_without_an_action_is_said_in_words(
    serve: Callable[[Scenario], None], caplog: pytest.LogCaptureFixture, body: dict
) -> None:
    """A clock press that names no action (null, missing, not one of the five) gets a
    sentence the teacher can act on, and the log says exactly what came (main: "Unknown
    action None.", a word of Python's)."""

    async def scenario(client: TestClient) -> None:
        await log_in(client)
        stations = {"station-1": 0, "station-2": 1}
        assert (await post(client, "/api/plan", {"plan": PLAN, "stations": stations})).ok
        with caplog.at_level(logging.INFO, logger="tabletop.teacher.app"):
            r = await post(client, "/api/clock", body)
        assert r.status == 400
        assert (await r.json())["error"] == (
            "The dashboard did not say what the clock should do: reload the page and press"
            " the button again."
        )
        said = [r.getMessage() for r in caplog.records if r.name == "tabletop.teacher.app"]
        assert said == [
            f"teacher: POST /api/clock: 'action' is {body.get('action')!r},"
            " not one of pause, resume, extend, skip, end"
        ]

    serve(scenario)


def test_teacher_swap_moves_a_station_to_another_device_and_keeps_every_clock(
    serve: Callable[[Scenario], None], console: Coordinator
) -> None:
    """``"swap": true``: the running plan on other devices; its id, session and clocks go
    on, and only the station whose device changed must follow a new seq (main: the flag
    was not known, and the plan was started again with every clock). A plan changed as
    well is refused: only the devices may change."""

    async def scenario(client: TestClient) -> None:
        await log_in(client)
        body = {"plan": PLAN, "stations": {"station-1": 0, "station-2": 1}, "session": "Tue"}
        first = await (await post(client, "/api/plan", body)).json()
        await post(client, "/api/clock", {"action": "pause", "station": 0})
        before = console.run(lambda: console.clocks)
        swapped = {**body, "stations": {"station-1": 0, "station-3": 1}, "swap": True}
        r = await post(client, "/api/plan", swapped)
        assert r.status == 200 and (await r.json())["id"] == first["id"]
        assert console.run(lambda: console.clocks) == before
        (record,) = [r for r in await (await client.get("/api/latency")).json() if r["seq"] == 3]
        assert (record["action"], record["devices"]) == ("swap", ["station-3"])
        changed = {**swapped, "plan": dict(PLAN, minutes=12)}
        r = await post(client, "/api/plan", changed)
        assert r.status == 400 and (await r.json())["error"] == (
            "Only the devices may change while the rotation goes on: to change the plan too,"
            " clear it and start it again."
        )
        assert console.run(lambda: console.plan.plan.minutes) == PLAN["minutes"]

    serve(scenario)


def test_teacher_skills_dice_line_comes_as_a_sentence(serve: Callable[[Scenario], None]) -> None:
    """The dice's line is finished as a sentence by the app's one helper (main: the page
    capitalised it and added the stop itself, a second copy of that helper)."""

    async def scenario(client: TestClient) -> None:
        await log_in(client)
        view = await (await client.get("/api/skills", params={"session": "Tue"})).json()
        said = view["dice"]["sentence"]
        assert said[0].isupper() and said.endswith(".") and not said.endswith("..")
        page = await (await client.get("/static/app.js")).text()
        assert "toUpperCase" not in page

    serve(scenario)


@pytest.mark.parametrize(
    ("path", "body", "said"),
    [
        *[(p, "[" * 100_000, "The request is not JSON.") for p in ("/api/clock", "/api/plan")],
        *[(p, "[" * 100_000, "The request is not JSON.") for p in ("/api/dismiss", "/api/roster")],
        ("/api/results/hide", "[" * 100_000, "The request is not JSON."),
        ("/api/roster", {"op": []}, "Unknown change []."),
        ("/api/roster", {"op": {}}, "Unknown change {}."),
        (
            "/api/results/hide",
            {"match": 10**30},
            "Say which game (its number) and whether to hide it.",
        ),
    ],
)
def test_teacher_api_refuses_a_body_nested_too_deep_or_of_the_wrong_type(
    serve: Callable[[Scenario], None], path: str, body: object, said: str
) -> None:
    """A JSON body nested too deep raised RecursionError, an op that is a list or an
    object TypeError, a game number past SQLite's OverflowError: each was a 500."""

    async def scenario(client: TestClient) -> None:
        await log_in(client)
        if isinstance(body, str):
            headers = {**origin(client), "Content-Type": "application/json"}
            r = await client.post(path, data=body, headers=headers)
        else:
            r = await post(client, path, body)
        assert r.status == 400 and (await r.json())["error"] == said

    serve(scenario)
