"""The dashboard's reports in a real browser (Chromium driven by Playwright, against a
real `tabletop teacher` process): a stored result that cannot be reported is named under
its session, and the teacher hides a game and shows it again (issue 25, item 3)."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tabletop.classroom.fleet.config import free_port, loopback_broker
from tabletop.engine.match import Match
from tabletop.games import GAMES
from tabletop.selfplay import default_settings
from tabletop.store import FILE_NAME, Journal, SeatInfo
from tabletop.teacher.cli import teacher_command
from tests.teacher.serving import wait_port
from tests.teacher.test_browser import PIN, SHOTS, browser, expect

__all__ = ["browser"]  # a fixture used by name


def seeded(path: Path) -> None:
    """Session Tue: game 1 reported, game 2 with answers checked ``[[Infinity, 1]]``."""
    journal = Journal(path)
    match = Match(GAMES["mecs"], default_settings("mecs"), 2, seed=1)
    for checks in ([[2, 1]], [[1e999, 1]]):
        seats = [SeatInfo(0, "Ada", "S1", "Red"), SeatInfo(1, "Bo", "S2", "Red")]
        match_id = journal.start(match, seats=seats, session="Tue", meta={"checks": checks})
        journal.finish(match_id, {"scores": ["15", "9"], "places": [1, 2], "winners": [0]})
    journal.close()


@pytest.fixture(scope="module")
def dashboard(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    root = tmp_path_factory.mktemp("reports")
    seeded(root / "teacher" / FILE_NAME)
    with loopback_broker(root / "broker", ()) as broker:
        port = free_port()
        with open(root / "teacher.log", "wb") as log:
            server = subprocess.Popen(
                teacher_command(
                    broker.provisioned.file("teacher"), root / "teacher", port, pin=PIN
                ),
                stdout=log,
                stderr=subprocess.STDOUT,
            )
            try:
                wait_port(port, server)
                yield f"http://127.0.0.1:{port}"
            finally:
                server.terminate()
                server.wait(10)


def test_browser_reports_name_a_bad_result_and_hide_a_game(browser: Any, dashboard: str) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    context.set_default_timeout(10_000)
    page = context.new_page()
    page.goto(dashboard + "/login")
    page.fill("#pin", PIN)
    page.click("button[type=submit]")
    page.click("nav a[data-tab=reports]")
    session = page.locator("#report-list > li").first
    expect(session).to_contain_text("1 game, 2 students")
    expect(session.locator(".report-notes li")).to_have_text(
        "Game 2 (M.E.C.S., Tue) is left out: its answers checked [Infinity, 1] are not counts."
        "Hide from reports"
    )
    session.locator("button", has_text="Games…").click()
    games = session.locator(".report-games li")
    expect(games).to_have_count(1)  # game 2 is named in the note above, not again
    expect(games.first).to_have_text("Game 1: M.E.C.S., Ada, BoHide from reports")
    games.first.locator("button", has_text="Hide from reports").click()
    session = page.locator("#report-list > li").first
    expect(session).to_contain_text("0 games, 0 students")
    expect(session.locator(".report-notes li").nth(1)).to_contain_text(
        "Game 1 (M.E.C.S., Tue) is hidden by the teacher."
    )
    # Each game once, with one button (main: the hidden game listed again under Games…,
    # "Game 1: M.E.C.S., Ada, Bo (hidden)", with a second "Show again").
    expect(games).to_have_text(["No other games: each is named above."])
    expect(session.locator("button", has_text="Show again")).to_have_count(1)
    expect(session.locator("button", has_text="Hide from reports")).to_have_count(1)
    page.reload()  # and so after a reload
    page.click("nav a[data-tab=reports]")
    session = page.locator("#report-list > li").first
    session.locator("button", has_text="Games…").click()
    expect(session.locator(".report-games li")).to_have_text(
        ["No other games: each is named above."]
    )
    expect(session.locator("button", has_text="Show again")).to_have_count(1)
    page.screenshot(path=str(SHOTS / "teacher-reports-hidden-1280x800.png"), full_page=True)
    session.locator(".report-notes li").nth(1).locator("button", has_text="Show again").click()
    expect(page.locator("#report-list > li").first).to_contain_text("1 game, 2 students")
    context.close()
