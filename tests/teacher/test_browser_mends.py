"""Round 10's mends of the dashboard, in a real browser (the walk's classroom: the app on
loopback in front of a console without a broker, see ``test_browser_walk``)."""

from __future__ import annotations

import re
from typing import Any

from tabletop.classroom.fleet.messages import StatusMessage, encode
from tests.teacher.test_browser import SHOTS, expect
from tests.teacher.test_browser_walk import (
    TOPICS,
    TWO_STATIONS,
    Live,
    browser,
    live,
    open_page,
)

__all__ = ["browser", "live", "open_page"]  # fixtures used by name

REFUSED = (
    "station-2 sent a game's result this computer could not read, so that game is not in the"
    " reports. Check that the device runs the same version of Tabletop as this computer; the"
    " log says more."
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
