"""The dashboard's Reports when only bots played (the README's "Try it on one computer":
every simulated station's players are bots), in a real browser (the walk's classroom: the
app on loopback in front of a console without a broker, see ``test_browser_walk``)."""

from __future__ import annotations

from typing import Any

from tabletop.classroom.fleet.messages import ResultMessage, SeatRecord, encode
from tests.teacher.test_app import RESULT_MATCH
from tests.teacher.test_browser import expect
from tests.teacher.test_browser_walk import TOPICS, Live, browser, live, open_page

__all__ = ["browser", "live", "open_page"]  # fixtures used by name


def arrives(live: Live, n: int, *seats: SeatRecord) -> None:
    """station-1's result ``n`` arrives with ``seats``, as the broker would hand it."""
    match = {**RESULT_MATCH, "started": float(n), "finished": n + 1.0}
    result = ResultMessage(f"station-1:bots{n}", "station-1", match, seats)
    live.console.run(live.console._received, TOPICS.result("station-1"), encode(result), 1, 0)


def test_browser_reports_say_why_games_only_bots_played_are_not_there(
    live: Live, open_page: Any
) -> None:
    """Games came in, each with only bots at the table: the empty Reports say so and why
    (r19-int: "No finished games yet." while the station cards said "All results sent",
    and the teacher could not tell why), and a game a child played then comes into the
    list at once (r19-int: the empty list's line broke each reload of the list, "Cannot
    read properties of null", until the page was loaded again)."""
    page = open_page()
    page.click("nav a[data-tab=reports]")
    listed = page.locator("#report-list > li")
    expect(listed).to_have_text(["No finished games yet."])
    bots = (SeatRecord(0, "Bot 1", None, "", "easy"), SeatRecord(1, "Bot 2", None, "", "hard"))
    arrives(live, 1, *bots)
    arrives(live, 2, *bots)
    expect(listed).to_have_text(
        [
            "No finished games with a child playing yet: the 2 games that came in since the "
            "console started had only bots at the table, and reports leave bots out."
        ]
    )
    arrives(live, 3, SeatRecord(0, "Ada", "S1", "Red"), bots[1])
    expect(listed.first).to_contain_text("1 game, 1 student")
    expect(page.locator("#alert")).to_be_hidden()  # no error said on the way
