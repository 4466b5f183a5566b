"""Round 28's mends of the dashboard, in a real browser (the walk's classroom: the app on
loopback in front of a console without a broker, see ``test_browser_walk``)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from tests.teacher.test_browser import SHOTS, expect
from tests.teacher.test_browser_walk import Live, browser, live, open_page

__all__ = ["browser", "live", "open_page"]  # fixtures used by name


def test_browser_walk28_a_plan_the_console_refuses_asks_nothing_about_devices(
    live: Live, open_page: Any
) -> None:
    """Start on a fresh console (no devices, no groups): the console's own check comes
    first and says what is wrong, with no question about devices (main: "Station 1, 2 and
    3 have no device... Start anyway?", and after OK "The plan has no groups")."""
    said: list[str] = []
    page = open_page(said=said)
    page.click("nav a[data-tab=plan]")
    expect(page.locator("#plan-stations .station-row")).to_have_count(3)
    page.click("#plan-start")
    expect(page.locator("#plan-error")).to_have_text("The plan has no groups: add at least one.")
    page.screenshot(path=str(SHOTS / "teacher-walk28-plan-no-groups-1280x800.png"))
    assert said == [] and live.console.run(lambda: live.console.plan) is None
    page.fill("#plan-groups", "Red")  # a plan it takes: now the devices are asked about
    page.click("#plan-start")
    expect(page).to_have_url(re.compile(r"#stations$"))
    assert said == [
        "Station 1, Station 2 and Station 3 have no device: no table there will show their"
        " groups their game and their time. Start anyway?"
    ]
    assert live.console.run(lambda: live.console.plan.stations) == {}


def test_browser_walk28_a_refused_download_says_why_on_the_page(live: Live, open_page: Any) -> None:
    """The class list's files are saved from their links; Badges to print after the list
    was emptied from another tab: the console's sentence is on the page (main: the link
    got JSON back, the browser dropped the download and nothing was said), and is gone
    once a file is saved again."""
    page = open_page(1366, 768)
    page.click("nav a[data-tab=roster]")
    page.fill("#add-name", "Ada")
    page.fill("#add-group", "Red")
    page.click("#roster-add button[type=submit]")
    expect(page.locator("#roster-rows tr")).to_have_count(1)

    def saved(link: str, name: str, starts: bytes) -> None:
        with page.expect_download() as got:
            page.click(link)
        assert got.value.suggested_filename == name
        assert Path(got.value.path()).read_bytes().startswith(starts)

    saved("#badges-pdf", "badges.pdf", b"%PDF")
    live.console.run(live.console.roster_change, "remove", sid="S1")  # another tab
    page.click("#badges-pdf")
    expect(page.locator("#alert")).to_have_text("The class list is empty: add students first.")
    expect(page.locator("#alert")).to_be_in_viewport()
    page.screenshot(path=str(SHOTS / "teacher-walk28-refused-download-1366x768.png"))
    saved("#roster-download", "class-list.csv", "\ufeffid,name,group".encode())
    expect(page.locator("#alert")).to_be_hidden()
