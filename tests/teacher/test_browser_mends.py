"""Round 10's mends of the dashboard, in a real browser (the walk's classroom: the app on
loopback in front of a console without a broker, see ``test_browser_walk``)."""

from __future__ import annotations

import re
from typing import Any

from tabletop.classroom.fleet.messages import ResultMessage, SeatRecord, StatusMessage, encode
from tests.teacher.test_app import RESULT_MATCH
from tests.teacher.test_browser import SHOTS, expect
from tests.teacher.test_browser_walk import (
    DEVICES,
    TOPICS,
    TWO_STATIONS,
    Live,
    browser,
    live,
    open_page,
)

__all__ = ["browser", "live", "open_page"]  # fixtures used by name

REFUSED = (
    "Device station-2 sent a game's result this computer could not read, so that game is not"
    " in the reports. Check that the device runs the same version of Tabletop as this computer;"
    " the log says more."
)


def refused(live: Live, n: int) -> None:
    """station-2's result ``n`` arrives, nested too deep to be read."""
    body = f'{{"device":"station-2","id":"station-2:{n:04d}","match":'.encode() + b"[" * 100
    live.console.run(live.console._received, TOPICS.result("station-2"), body, 1, 0)


def test_browser_mends_a_problem_seen_is_dismissed_until_it_happens_again(
    live: Live, open_page: Any
) -> None:
    """A teacher who has read a problem dismisses it; a new one is shown (main: no way to
    put one away, "Live, with problems" for the rest of the lesson)."""
    page = open_page()
    refused(live, 1)
    lines = page.locator("#problems li")
    expect(lines).to_have_text([f"{REFUSED}Dismiss"])
    expect(page.locator("#link")).to_have_text("Live, with problems (see Stations)")
    page.screenshot(path=str(SHOTS / "teacher-mends-problem-1280x800.png"))
    page.click(f'#problems button[aria-label="Dismiss: {REFUSED}"]')
    expect(page.locator("#problems")).to_be_hidden()
    expect(page.locator("#link")).to_have_text("Live")
    refused(live, 1)  # sent again: the same result, seen already
    refused(live, 2)
    expect(lines).to_have_count(1)
    assert sorted(live.console.run(lambda: live.console.refusals)) == [
        "station-2:0001",
        "station-2:0002",
    ]


def test_browser_mends_an_offline_device_in_no_station_is_dismissed(
    live: Live, open_page: Any
) -> None:
    """The card of a device gone offline that no station uses goes at the teacher's word,
    and is back once the device comes back (main: a grey card with its buttons off for the
    rest of the lesson)."""
    live.plan(TWO_STATIONS, {"station-1": 0, "station-2": 1})
    page = open_page()
    live.status("station-3")
    message = encode(StatusMessage("station-3", False, live.clock.t))  # its will
    live.console.run(live.console._received, TOPICS.status("station-3"), message, 0, 0)
    card = page.locator("#card-station-3")
    expect(card.locator(".state")).to_have_text(re.compile("^Offline"))
    expect(page.locator("#card-station-1 button", has_text="Dismiss")).to_have_count(0)
    card.locator("button", has_text="Dismiss").click()
    expect(card).to_have_count(0)
    live.clock.t += 30
    live.status("station-3")
    expect(card.locator(".state")).to_have_text("Waiting")


def test_browser_mends_a_broken_device_is_swapped_and_every_clock_goes_on(
    live: Live, open_page: Any
) -> None:
    """Mid-rotation the teacher gives Station 2 another device (its own broke): asked
    about the move, the rotation goes on, every clock as it was (main: the plan started
    again, every station's clock back to rotation 1 and the other stations' games ended)."""
    live.plan(TWO_STATIONS, {"station-1": 0, "station-2": 1})
    running = live.console.run(lambda: (live.console.plan.id, live.console.clocks))
    live.console.run(live.console.clock_action, "pause", 0)
    for device in DEVICES[:3]:
        live.status(device)
    live.clock.t += 120
    said: list[str] = []
    page = open_page(said=said)
    page.click("nav a[data-tab=plan]")
    page.select_option('.station-row[data-index="1"] select.device', "station-3")
    page.click("#plan-start")
    expect(page).to_have_url(re.compile(r"#stations$"))
    assert said == [
        "Move Station 2 to station-3? Its group carries on there, and every station's clock"
        " goes on."
    ]
    plan = live.console.run(lambda: live.console.plan)
    assert plan.id == running[0] and plan.stations == {"station-1": 0, "station-3": 1}
    clocks = live.console.run(lambda: live.console.clocks)
    assert clocks[1] == running[1][1] and clocks[0].paused(live.clock.t)
    expect(page.locator("#rotation")).to_have_text(
        "Rotation 1 of 2: playing (1 of 2 stations paused)."
    )


def test_browser_mends_the_plan_says_up_front_how_to_swap_a_broken_device(
    live: Live, open_page: Any
) -> None:
    """A teacher with a broken device opens the Plan: the way to swap it is said above
    the stations, before anything is pressed (main: only Start's question said it)."""
    live.plan(TWO_STATIONS, {"station-1": 0, "station-2": 1})
    page = open_page(said=(said := []))
    page.click("nav a[data-tab=plan]")
    line = page.locator("#plan-swap")
    expect(line).to_be_visible()
    expect(line).to_have_text(
        "A device broke? Give its station another Device and press Start: its group carries"
        " on there, every clock as it was."
    )
    first = page.locator(".station-row").first.bounding_box()
    assert line.bounding_box()["y"] < first["y"] and not said


def test_browser_mends_report_counts_follow_the_games_stored(live: Live, open_page: Any) -> None:
    """The Reports part counts a game the moment the console stores it (main: only after
    a reload), and a session's games listed stay listed, the new one with them."""
    seats = (SeatRecord(0, "Ada", "S1", "Red"), SeatRecord(1, "Bo", "S2", "Red"))

    def arrives(n: int) -> None:
        result = ResultMessage(f"station-1:live{n}", "station-1", RESULT_MATCH, seats)
        topic = TOPICS.result("station-1")
        live.console.run(live.console._received, topic, encode(result), 1, 0)

    arrives(1)
    page = open_page()
    page.click("nav a[data-tab=reports]")
    session = page.locator("#report-list > li").first
    expect(session).to_contain_text("1 game, 2 students")
    session.locator("button", has_text="Games…").click()
    expect(session.locator(".report-games li")).to_have_count(1)
    arrives(2)
    expect(session).to_contain_text("2 games, 2 students")
    expect(session.locator(".report-games li")).to_have_count(2)
