"""A refused download opened in a real browser (the walk's classroom, see
``test_browser_walk``): a page the teacher can read, and a way back."""

from __future__ import annotations

import re
from typing import Any

from tests.teacher.test_browser import SHOTS, expect
from tests.teacher.test_browser_walk import Live, browser, live, open_page

__all__ = ["browser", "live", "open_page"]  # fixtures used by name


def test_browser_refused_download_typed_in_the_address_bar_is_a_page(
    live: Live, open_page: Any
) -> None:
    """``/report.pdf?paper=a3`` typed by hand: the sentence on a page, and its button back
    to the Reports tab (main: the raw ``{"error": ...}`` JSON, no way back but Back)."""
    page = open_page()
    response = page.goto(live.url + "/report.pdf?paper=a3")
    assert response.status == 400
    expect(page.locator("[role=alert]")).to_have_text("The paper must be a4 or letter, not 'a3'.")
    page.screenshot(path=str(SHOTS / "teacher-refused-download-1280x800.png"))
    page.click("text=Back to the dashboard")
    expect(page).to_have_url(re.compile(r"/#reports$"))
    expect(page.locator("#reports")).to_be_visible()
