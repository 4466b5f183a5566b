"""Round 27's mends of the dashboard, in a real browser at a laptop's 1366x768 and a
tablet's 800x1280 (the walk's classroom: the app on loopback in front of a console
without a broker, see ``test_browser_walk``). Each test leaves its screenshots in SHOTS."""

from __future__ import annotations

from typing import Any

from tabletop.classroom.fleet.messages import ResultMessage, SeatRecord
from tests.teacher.test_app import RESULT_MATCH
from tests.teacher.test_browser import SHOTS, expect
from tests.teacher.test_browser_walk import Live, answered, browser, live, open_page

__all__ = ["browser", "live", "open_page"]  # fixtures used by name

SIZES = ((1366, 768), (800, 1280))
EIGHT = "id,name,group\n" + "".join(f"S{n},Child {n},4a\n" for n in range(1, 9))


def shots(open_page: Any, name: str, show: Any, **kw: Any) -> list[Any]:
    """A page at each of :data:`SIZES`, ``show(page)`` done on it, then its screenshot
    ``teacher-<name>-<size>.png``: the pages."""
    pages = []
    for width, height in SIZES:
        page = open_page(width, height, **kw)
        show(page)
        page.screenshot(path=str(SHOTS / f"teacher-{name}-{width}x{height}.png"), full_page=True)
        pages.append(page)
    return pages


def import_file(page: Any, text: str, replace: bool = False) -> None:
    """``text`` imported on the Class list tab (the whole list replaced, if ``replace``)."""
    page.set_input_files(
        "#import-file", {"name": "class.csv", "mimeType": "text/csv", "buffer": text.encode()}
    )
    page.set_checked("#import-replace", replace)
    page.click("#roster-import button[type=submit]")


def test_browser_walk26_replacing_the_list_asks_first_and_unticks(
    live: Live, open_page: Any
) -> None:
    """Item 2: "Replace the whole list" with a one-line file asks first, saying how many
    go, changes nothing when the teacher says no, and the box is unticked after the
    import (main: "Imported: 1 unchanged, 7 removed." without a question, still ticked)."""
    live.console.run(live.console.roster_change, "import_csv", text=EIGHT)
    said: list[str] = []
    page = open_page(1366, 768, said=said, answers=[False, True])
    page.click("nav a[data-tab=roster]")
    expect(page.locator("#roster-rows tr")).to_have_count(8)
    import_file(page, "id,name,group\nS1,Child 1,4a\n", replace=True)
    expect(page.locator("#roster-error")).to_have_text(
        "Nothing changed: the class list is as it was."
    )
    assert said == [
        "7 students not in the file will be removed (their games stay in the reports). "
        "Replace the whole list?"
    ]
    expect(page.locator("#roster-rows tr")).to_have_count(8)
    page.click("#roster-import button[type=submit]")
    expect(page.locator("#roster-done")).to_have_text("Imported: 1 unchanged, 7 removed.")
    expect(page.locator("#roster-rows tr")).to_have_count(1)
    expect(page.locator("#import-replace")).not_to_be_checked()
    assert len(said) == 2
    page.screenshot(path=str(SHOTS / "teacher-walk26-replace-1366x768.png"), full_page=True)
    # Nobody leaves: no question.
    import_file(page, "id,name,group\nS1,Child 1,4a\nS2,Bo,4a\n", replace=True)
    expect(page.locator("#roster-done")).to_have_text("Imported: 1 added, 1 unchanged.")
    assert len(said) == 2


THREE_STATIONS = {
    "stations": [{"game": "mecs"}, {"game": "math-arena"}, {"game": "mathe-meister"}],
    "groups": ["Red", "Blue"],
    "minutes": 10,
}


def test_browser_walk26_a_resting_station_says_so(live: Live, open_page: Any) -> None:
    """Item 10: three stations, two groups: station 3 rests in rotation 1; its card says
    "Resting this round" and which group comes next (main: "Playing", "No group")."""
    live.plan(THREE_STATIONS, {f"station-{n}": n - 1 for n in (1, 2, 3)})
    for n, group in ((1, "Red"), (2, "Blue"), (3, None)):
        live.status(f"station-{n}", station=n - 1, phase="play", left=540.0, group=group)

    def show(page: Any) -> None:
        card = page.locator("#card-station-3")
        expect(card.locator(".state")).to_have_text("Resting")
        expect(card.locator(".group")).to_have_text("Resting this round")
        expect(card.locator(".next")).to_have_text("Group Blue comes next")
        expect(page.locator("#card-station-1 .state")).to_have_text("Playing")
        expect(page.locator("#card-station-1 .group")).to_have_text("Group Red")

    shots(open_page, "walk26-resting", show)


def test_browser_walk26_badges_and_reports_on_the_paper_chosen(live: Live, open_page: Any) -> None:
    """Item 11: the Class list tab prints badges; a paper choice beside the PDF links
    (both tabs) makes Letter pages (main: no badges, the report A4 only)."""
    live.console.run(live.console.roster_change, "import_csv", text=EIGHT)
    result = ResultMessage(
        id="station-1:p",
        device="station-1",
        match=RESULT_MATCH,
        seats=(SeatRecord(0, "Child 1", "S1", "4a"),),
    )
    assert live.console.run(live.console._store, result)

    def show(page: Any) -> None:
        page.click("nav a[data-tab=roster]")
        expect(page.locator("#badges-pdf")).to_have_attribute("href", "/badges.pdf?paper=a4")

    page = shots(open_page, "walk26-badges", show)[0]
    page.select_option("#roster select.paper", "letter")
    link = page.locator("#badges-pdf")
    expect(link).to_have_attribute("href", "/badges.pdf?paper=letter")
    pdf = page.request.get(live.url + link.get_attribute("href"))
    assert pdf.ok and b"/MediaBox [0 0 612.00 792.00]" in pdf.body()
    page.click("nav a[data-tab=reports]")
    expect(page.locator("#reports select.paper")).to_have_value("letter")  # chosen once, for both
    session = page.locator("#report-list > li a", has_text="PDF")
    expect(session).to_have_attribute("href", "/report.pdf?session=Tue&paper=letter")
    pdf = page.request.get(live.url + session.get_attribute("href"))
    assert pdf.ok and b"/MediaBox [0 0 612.00 792.00]" in pdf.body()
    expect(page.locator("#every-pdf")).to_have_attribute("href", "/report.pdf?paper=letter")
    page.screenshot(path=str(SHOTS / "teacher-walk26-reports-letter-1366x768.png"))


def test_browser_walk26_skills_group_rows_come_from_the_groups(live: Live, open_page: Any) -> None:
    """Item 13: guests' rows are children's rows, not group totals (main: every row bold
    on grey, chosen by an empty student id); a sum in the mistake stays on one line."""
    question = {"numbers": ["17", "5"], "ops": ["/"], "order": "precedence", "right": None}
    answers = [
        {"seat": seat, "skill": "division", "question": question, "given": "3", "answer": "17/5"}
        for seat in (0, 1)
    ] + [{**answered(0, "56"), "answer": "56"}]
    seats = (SeatRecord(0, "Player 1"), SeatRecord(1, "Player 2"))
    match = {**RESULT_MATCH, "meta": {"answers": answers}}
    result = ResultMessage(id="station-1:guests", device="station-1", match=match, seats=seats)
    assert live.console.run(live.console._store, result)

    def show(page: Any) -> None:
        page.click("nav a[data-tab=reports]")
        page.locator("#report-list > li button", has_text="Skills").click()
        expect(page.locator("#skills tr.group td:first-child")).to_have_text(
            ["Whole group", "Whole group"]
        )
        expect(page.locator("#skills tr:not(.group) td:first-child")).to_have_text(
            ["Player 1", "Player 1", "Player 2"]
        )
        sums = page.locator("#skills tr.group .math")
        expect(sums).to_have_text(["17 ÷ 5", "(17 ÷ 5 = 3 r 2)"])
        example = sums.nth(1)
        assert example.evaluate("(e) => getComputedStyle(e).whiteSpace") == "nowrap"
        box = example.bounding_box()
        assert box is not None and box["height"] < 40  # one line
        wide = page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
        assert wide[0] <= wide[1], wide  # nothing out of the window

    shots(open_page, "walk26-skills", show)


def test_browser_walk26_a_name_with_an_unquoted_comma_is_refused(
    live: Live, open_page: Any
) -> None:
    """Item 1: ``S1,Müller, Zoë,4a`` is refused on the Class list tab with the line and
    what to do, nothing imported (main: "Imported: 2 added.", the child "Müller" in
    group "Zoë")."""

    def show(page: Any) -> None:
        page.click("nav a[data-tab=roster]")
        import_file(page, "id,name,group\nS1,Müller, Zoë,4a\nS2,Bo,4a\n")
        expect(page.locator("#roster-error")).to_have_text(
            'Line 2: 4 cells but the header has 3: a name with a comma needs quotes ("Müller,'
            ' Zoë"). Fix the file and try again.'
        )
        expect(page.locator("#roster-rows tr")).to_have_count(0)

    shots(open_page, "walk26-comma", show)
