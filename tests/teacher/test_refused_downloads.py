"""A refused download (a PDF or CSV the console will not make) comes back to a browser
that opened it (the address bar, a link) as a small page that says what is wrong and links
back to the dashboard; a script asking for JSON (the dashboard's own fetches, ``Accept:
application/json``, or no preference) still gets ``{"error": sentence}``."""

from __future__ import annotations

import html
from collections.abc import Callable

from aiohttp import ClientResponse
from aiohttp.test_utils import TestClient

from tabletop.classroom.fleet.coordinator import Coordinator
from tests.teacher.test_app import Scenario, clock, console, log_in, origin, serve

__all__ = ["clock", "console", "serve"]  # the dashboard tests' fixtures

# What Chromium sends when the teacher types an address or follows a link.
BROWSER = {
    "Accept": "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,"
    "image/webp,image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7"
}
PAPER = "The paper must be a4 or letter, not 'a3'."
EMPTY = "The class list is empty: add students first."
STOPPED = "The console is not running."


async def page_says(r: ClientResponse, status: int, said: str, tab: str) -> None:
    assert (r.status, r.content_type) == (status, "text/html")
    assert r.headers["Content-Security-Policy"].startswith("default-src 'self'")
    assert "Content-Disposition" not in r.headers  # shown, not saved as badges.pdf
    text = await r.text()
    assert f'<p class="alert" role="alert">{html.escape(said)}</p>' in text
    assert f'<a class="button" href="/#{tab}">Back to the dashboard</a>' in text


def test_teacher_refused_download_is_a_page_for_a_browser(
    serve: Callable[[Scenario], None],
) -> None:
    """``/badges.pdf?paper=a3`` typed into the address bar, badges of an empty class list,
    ``/report.pdf?paper=a3``: a page with the sentence and a link back to the tab the
    download lives on (main: ``{"error": ...}`` shown as raw JSON)."""

    async def scenario(client: TestClient) -> None:
        await log_in(client)
        await page_says(await client.get("/badges.pdf", headers=BROWSER), 400, EMPTY, "roster")
        await client.post("/api/roster/import", data=b"S1,Ada,Red\n", headers=origin(client))
        for path, tab in (("/badges.pdf", "roster"), ("/report.pdf", "reports")):
            r = await client.get(path, params={"paper": "a3"}, headers=BROWSER)
            await page_says(r, 400, PAPER, tab)
            r = await client.get(path, params={"paper": "letter"}, headers=BROWSER)
            assert r.status == 200 and r.content_type == "application/pdf"

    serve(scenario)


def test_teacher_refused_download_of_a_stopped_console_is_a_page_for_a_browser(
    serve: Callable[[Scenario], None], console: Coordinator
) -> None:
    """Every download the console cannot make (here: its worker stopped) is a page with
    the sentence, status 500; an ``/api/`` call stays JSON, whatever it asks for."""

    async def scenario(client: TestClient) -> None:
        await log_in(client)
        console.stop()
        for path, tab in (
            ("/roster.csv", "roster"),
            ("/badges.pdf", "roster"),
            ("/report.csv", "reports"),
            ("/report.pdf", "reports"),
            ("/skills.csv", "reports"),
        ):
            await page_says(await client.get(path, headers=BROWSER), 500, STOPPED, tab)
        r = await client.get("/api/reports", headers=BROWSER)
        assert r.status == 500 and (await r.json()) == {"error": STOPPED}

    serve(scenario)


def test_teacher_refused_download_stays_json_for_a_script(
    serve: Callable[[Scenario], None],
) -> None:
    """No ``Accept`` preference (``*/*``, a script's or aiohttp's), ``application/json``
    (the dashboard's own fetches), or JSON weighed above HTML: ``{"error": sentence}``."""

    async def scenario(client: TestClient) -> None:
        await log_in(client)
        for accept in (
            "*/*",
            "application/json",
            "text/html;q=0.5, application/json",
            "text/html;q=0",
            "text/html;q=nonsense",
        ):
            r = await client.get("/report.pdf?paper=a3", headers={"Accept": accept})
            assert r.status == 400 and (await r.json()) == {"error": PAPER}, accept

    serve(scenario)
