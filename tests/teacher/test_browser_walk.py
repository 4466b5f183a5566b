"""The dashboard as a teacher meets it, in a real browser (Chromium driven by Playwright):
the app served on loopback in this process, in front of a console without a broker whose
stations' statuses and results the tests hand it as the broker would (so every card, clock
and table is exactly known, and the console's clock is moved by hand)."""

from __future__ import annotations

import asyncio
import contextlib
import re
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web

from tabletop.classroom.fleet.config import free_port, provision, wait_listening
from tabletop.classroom.fleet.coordinator import Coordinator
from tabletop.classroom.fleet.messages import (
    ResultMessage,
    SeatRecord,
    Standing,
    StatusMessage,
    Topics,
    encode,
)
from tabletop.classroom.rotation import Plan
from tabletop.teacher.app import make_app
from tabletop.teacher.auth import Gate
from tests.teacher.test_app import RESULT_MATCH, Clock
from tests.teacher.test_browser import PIN, SHOTS, browser, expect

__all__ = ["browser"]  # a fixture used by name

DEVICES = tuple(f"station-{n}" for n in range(1, 6))
TOPICS = Topics()


@dataclass
class Live:
    url: str
    console: Coordinator
    clock: Clock

    def status(self, device: str, **fields: Any) -> None:
        """``device``'s status arrives (online, sent now), as the broker would hand it."""
        message = StatusMessage(device, True, self.clock.t, **fields)
        self.console.run(self.console._received, TOPICS.status(device), encode(message), 0, 0)

    def plan(self, plan: dict[str, Any], stations: dict[str, int]) -> None:
        self.console.run(self.console.start_plan, Plan.from_json(plan), stations, "Thu")


@pytest.fixture
def live(tmp_path: Path) -> Iterator[Live]:
    files = provision(tmp_path / "fleet", DEVICES, port=1)
    clock = Clock()
    console = Coordinator(files.teacher, tmp_path / "teacher", now=clock).start(connect=False)
    console.run(console._connected)  # as if the broker answered (nothing is published)
    port = free_port()
    loop = asyncio.new_event_loop()
    runner = web.AppRunner(make_app(console, Gate(PIN)), shutdown_timeout=1.0)

    def serve() -> None:
        asyncio.set_event_loop(loop)
        loop.run_until_complete(runner.setup())
        loop.run_until_complete(web.TCPSite(runner, "127.0.0.1", port).start())
        loop.run_forever()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    assert wait_listening(port, timeout=10)
    try:
        yield Live(f"http://127.0.0.1:{port}", console, clock)
    finally:
        asyncio.run_coroutine_threadsafe(runner.cleanup(), loop).result(10)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(10)
        console.stop()


def give_pin(page: Any, pin: str = PIN) -> None:
    page.fill("#pin", pin)
    page.click("button[type=submit]")


@pytest.fixture
def open_page(browser: Any, live: Live) -> Iterator[Callable[..., Any]]:
    """``open_page(width, height)``: a logged-in dashboard in a window of that size. Each
    question it asks goes into ``said``, and is answered OK (or as ``answers`` say)."""
    contexts = []

    def make(
        width: int = 1280,
        height: int = 800,
        said: list[str] | None = None,
        answers: list[bool] | None = None,
    ) -> Any:
        context = browser.new_context(viewport={"width": width, "height": height})
        context.set_default_timeout(10_000)
        contexts.append(context)
        page = context.new_page()

        def answer(dialog: Any) -> None:
            if said is not None:
                said.append(dialog.message)
            if answers and not answers.pop(0):
                dialog.dismiss()
            else:
                dialog.accept()

        page.on("dialog", answer)
        page.goto(live.url + "/login")
        give_pin(page)
        expect(page.locator("#link")).to_have_text("Live")
        return page

    yield make
    for context in contexts:
        context.close()


TWO_STATIONS = {
    "stations": [{"game": "mecs"}, {"game": "math-arena"}],
    "groups": ["Red", "Blue"],
    "minutes": 10,
}


def test_browser_walk_a_paused_station_keeps_its_time(live: Live, open_page: Any) -> None:
    """A paused station says its time left once and stays silent: its card must not count
    down from that status's age (main: 01:00 read 00:55 five seconds on, then jumped back)."""
    live.plan(TWO_STATIONS, {"station-1": 0, "station-2": 1})
    page = open_page()
    live.status("station-1", station=0, phase="play", paused=True, left=60.0, group="Red")
    left = page.locator("#card-station-1 .left")
    expect(left).to_have_text("01:00")
    live.clock.t += 5
    live.status("station-2", station=1, phase="play", left=300.0, group="Blue")  # a re-render
    expect(page.locator("#card-station-2 .left")).to_have_text("05:00")
    expect(left).to_have_text("01:00")
    page.screenshot(path=str(SHOTS / "teacher-walk-paused-1280x800.png"))


def test_browser_walk_standings_go_by_place(live: Live, open_page: Any) -> None:
    """A station sends its seats in seat order, each with its place: the card lists them
    by place and numbers each with it (main: seat order, numbered 1, 2, 3, so the child
    in 3rd place could read "1.")."""
    live.plan(TWO_STATIONS, {"station-1": 0, "station-2": 1})
    page = open_page()
    seats = (Standing("Ada", "3", 3), Standing("Bo", "7", 1), Standing("Cy", "7", 1))
    live.status("station-1", station=0, phase="play", left=300.0, group="Red", standings=seats)
    rows = page.locator("#card-station-1 ol.standings li")
    expect(rows).to_have_text(["Bo: 7", "Cy: 7", "Ada: 3"])
    assert rows.evaluate_all("(items) => items.map((li) => li.value)") == [1, 1, 3]


def answered(seat: int, given: str) -> dict[str, Any]:
    """A checked answer to 7 x 8 at ``seat``."""
    question = {"numbers": ["7", "8"], "ops": ["x"], "order": "precedence", "right": None}
    return {"seat": seat, "skill": "multiplication", "question": question, "given": given}


def test_browser_walk_skills_group_rows_stand_out(live: Live, open_page: Any) -> None:
    """Issue 24's skills table: a group's own row (its children together) is marked as
    one, so the teacher tells it from a child's (main: every row looked the same, and
    "Group Red" stood in the Student column like a child's name)."""
    answers = [{**answered(0, "15"), "answer": "56"}, {**answered(1, "56"), "answer": "56"}]
    seats = (SeatRecord(0, "Ada", "S1", "Red"), SeatRecord(1, "Bo", "S2", "Red"))
    match = {**RESULT_MATCH, "meta": {"checks": [[1, 1]], "answers": answers}}
    result = ResultMessage(id="station-1:walk1", device="station-1", match=match, seats=seats)
    assert live.console.run(live.console._store, result)
    page = open_page()
    page.click("nav a[data-tab=reports]")
    page.locator("#report-list > li button", has_text="Skills").click()
    rows = page.locator("#skills table tr")
    expect(rows).to_have_count(4)  # the heading, the group, Ada, Bo
    expect(page.locator("#skills tr.group")).to_have_count(1)
    expect(page.locator("#skills tr.group td").first).to_have_text("Whole group")
    expect(page.locator("#skills tr.group td").nth(1)).to_have_text("Group Red")
    expect(page.locator("#skills tr:not(.group) td:first-child")).to_have_text(["Ada", "Bo"])
    page.screenshot(path=str(SHOTS / "teacher-walk-skills-1280x800.png"), full_page=True)


def test_browser_walk_skills_tell_two_children_of_one_name_apart(
    live: Live, open_page: Any
) -> None:
    """Two "Zoé Müller" in group Red and one in Blue: the skills table shows Red's two
    with their ids and Blue's with her group (``students.shown_names``), so the teacher
    tells their rows apart (main: three rows read "Zoé Müller", two of them in "Red")."""
    answers = [{**answered(seat, "56"), "answer": "56"} for seat in range(3)]
    seats = (
        SeatRecord(0, "Zoé Müller", "S1", "Red"),
        SeatRecord(1, "Zoé Müller", "S2", "Red"),
        SeatRecord(2, "Zoé Müller", "S3", "Blue"),
    )
    match = {**RESULT_MATCH, "meta": {"answers": answers}}
    result = ResultMessage(id="station-1:zoe", device="station-1", match=match, seats=seats)
    assert live.console.run(live.console._store, result)
    page = open_page()
    page.click("nav a[data-tab=reports]")
    page.locator("#report-list > li button", has_text="Skills").click()
    expect(page.locator("#skills tr:not(.group) td:first-child")).to_have_text(
        ["Zoé Müller (Blue)", "Zoé Müller (S1)", "Zoé Müller (S2)"]
    )
    page.screenshot(path=str(SHOTS / "teacher-walk-namesakes-1280x800.png"), full_page=True)


def games_listed(live: Live, open_page: Any, *games: tuple[SeatRecord, ...]) -> Any:
    """Each of ``games`` (its seats) stored as station-1's result, then the dashboard open
    on the session's games (Reports, Games…): their lines."""
    for n, seats in enumerate(games):
        result = ResultMessage(
            id=f"station-1:g{n}", device="station-1", match=RESULT_MATCH, seats=seats
        )
        assert live.console.run(live.console._store, result)
    page = open_page()
    page.click("nav a[data-tab=reports]")
    page.locator("#report-list > li button", has_text="Games…").click()
    return page.locator(".report-games li span")


def test_browser_walk_games_tell_two_children_of_one_name_apart(live: Live, open_page: Any) -> None:
    """The session's games (Games…) name "Mia (4a)" and "Mia (4b)", who played apart,
    and leave Bo, who has no namesake, as he is (main: "Mia, Bo" in both games)."""
    four_a = (SeatRecord(0, "Mia", "S1", "4a"), SeatRecord(1, "Bo", "S3", "4a"))
    four_b = (SeatRecord(0, "Mia", "S2", "4b"), SeatRecord(1, "Bo", "S3", "4b"))
    games = games_listed(live, open_page, four_a, four_b)
    expect(games).to_have_text(
        [
            "Game 2: M.E.C.S. (from station-1), Mia (4b), Bo",
            "Game 1: M.E.C.S. (from station-1), Mia (4a), Bo",
        ]
    )
    games.page.screenshot(path=str(SHOTS / "teacher-walk-namesakes-games-1280x800.png"))


def test_browser_walk_the_plan_has_a_station_for_each_device(live: Live, open_page: Any) -> None:
    """Five devices on and a class of five groups: the plan opens with five stations, one
    device each (main: three, so Start said "5 groups but only 3 stations"), and a station
    added later gets a device that no station has yet (main: none, and its group had no
    table to go to while the dashboard showed no card for it)."""
    for device in DEVICES:
        live.status(device)
    page = open_page()
    page.click("nav a[data-tab=plan]")
    devices = page.locator("#plan-stations select.device")
    expect(devices).to_have_count(5)
    assert devices.evaluate_all("(all) => all.map((s) => s.value)") == list(DEVICES)
    page.click('.station-row[data-index="1"] button:text("Remove")')
    page.click('.station-row[data-index="3"] button:text("Remove")')
    page.select_option('.station-row[data-index="2"] select.device', "")  # chosen: none
    page.click("#add-station")
    expect(devices).to_have_count(4)
    chosen = devices.evaluate_all("(all) => all.map((s) => s.value)")
    assert chosen == ["station-1", "station-3", "", "station-2"]


def test_browser_walk_a_station_without_a_device_is_asked_about(live: Live, open_page: Any) -> None:
    """Start with a station that has no device: the dashboard asks first, as no table
    shows that station's groups their game and time (main: it started at once, and no
    card ever showed the station); Cancel starts nothing."""
    for device in DEVICES[:2]:
        live.status(device)
    said: list[str] = []
    page = open_page(said=said, answers=[False, True])
    page.click("nav a[data-tab=plan]")
    page.fill("#plan-groups", "Red\nBlue\nGreen")
    expect(page.locator("#plan-stations select.device")).to_have_count(2)
    page.click("#add-station")
    page.click("#plan-start")
    expect(page.locator("#plan-error")).to_have_text(
        "Station 3 has no device: choose one for it, or remove it."
    )
    assert said == [
        "Station 3 has no device: no table there will show its groups their game and"
        " their time. Start anyway?"
    ]
    assert live.console.run(lambda: live.console.plan) is None
    page.click("#plan-start")
    expect(page).to_have_url(re.compile(r"#stations$"))
    assert len(said) == 2
    assert live.console.run(lambda: live.console.plan.stations) == {
        "station-1": 0,
        "station-2": 1,
    }


def overflow(page: Any) -> int:
    """How many pixels the page is wider than its window (0: no sideways scrolling)."""
    return int(page.evaluate("document.documentElement.scrollWidth - window.innerWidth"))


def label_of(cell: Any) -> str:
    """The label a table cell shows before its value (a phone has no column headings)."""
    return str(cell.evaluate("(td) => getComputedStyle(td, '::before').content"))


def test_browser_walk_tables_on_a_phone_say_what_each_value_is(live: Live, open_page: Any) -> None:
    """On a phone (390 px) the class list and the skills table are cards with no column
    headings: each value is labelled (main: "Blue" alone, a name or a group?, and the
    skills headings stood as a card of their own), and nothing scrolls sideways (main: the
    import's file field was 9 px too wide)."""
    live.console.run(live.console.roster_change, "add", name="Ada", group="Red")
    answers = [{**answered(0, "15"), "answer": "56"}]
    match = {**RESULT_MATCH, "meta": {"checks": [[1, 1]], "answers": answers}}
    seats = (SeatRecord(0, "Ada", "S1", "Red"),)
    result = ResultMessage(id="station-1:walk2", device="station-1", match=match, seats=seats)
    assert live.console.run(live.console._store, result)
    page = open_page(390, 844)
    page.click("nav a[data-tab=roster]")
    row = page.locator('tr[data-id="S1"] td')
    expect(row).to_have_count(4)
    assert [label_of(row.nth(i)) for i in range(3)] == ['"Id"', '"Name"', '"Group"']
    assert overflow(page) == 0
    page.screenshot(path=str(SHOTS / "teacher-walk-roster-390x844.png"), full_page=True)
    page.click("nav a[data-tab=reports]")
    page.locator("#report-list > li button", has_text="Skills").click()
    expect(page.locator("#skills thead")).to_be_hidden()
    cells = page.locator("#skills tbody tr:not(.group) td")
    expect(cells).to_have_count(7)
    assert [label_of(cells.nth(i)) for i in range(1, 7)] == [
        '"Group"',
        '"Skill"',
        '"Right"',
        '"Level"',
        '"Most common mistake"',
        '"Trend"',
    ]
    assert overflow(page) == 0
    page.screenshot(path=str(SHOTS / "teacher-walk-skills-390x844.png"), full_page=True)


def test_browser_walk_a_refused_class_list_change_clears_the_last_done_line(
    live: Live, open_page: Any
) -> None:
    """The class list says what the last change did: a refused import replaces the line
    of the one before (main: "Imported: 1 added." stayed beside "The file is not a text
    file.", as if both had happened)."""
    page = open_page()
    page.click("nav a[data-tab=roster]")
    upload = {"name": "class.csv", "mimeType": "text/csv", "buffer": b"S1,Ada,Red\n"}
    page.set_input_files("#import-file", files=[upload])
    page.click("#roster-import button[type=submit]")
    expect(page.locator("#roster-done")).to_have_text("Imported: 1 added.")
    page.set_input_files("#import-file", files=[{**upload, "buffer": b"S\x00,\x00A\x00"}])
    page.click("#roster-import button[type=submit]")
    expect(page.locator("#roster-error")).to_have_text(
        'The file is not a text file. Save it from the spreadsheet as "CSV UTF-8" and try again.'
    )
    expect(page.locator("#roster-done")).to_have_text("")


def test_browser_walk_a_plan_time_left_empty_is_asked_for(live: Live, open_page: Any) -> None:
    """The plan's minutes are needed: left empty, the browser asks for them before anything
    is sent (main: the console answered "... must be a whole number from 1 to 90, not
    None.", a word of Python's)."""
    live.status("station-1")
    page = open_page()
    page.click("nav a[data-tab=plan]")
    page.fill("#plan-groups", "Red")
    for field in ("#plan-minutes", "#plan-transition", "#plan-warning"):
        page.fill(field, "")
        page.click("#plan-start")
        assert page.locator(field).evaluate("(input) => input.validity.valueMissing")
        expect(page.locator(f"{field}:invalid")).to_have_count(1)
        page.fill(field, "1")
    page.fill("#plan-minutes", "5")
    page.click("#plan-start")
    expect(page).to_have_url(re.compile(r"#stations$"))
    expect(page.locator("#plan-error")).to_be_hidden()


def test_browser_walk_while_changing_stations_the_card_names_the_group_coming(
    live: Live, open_page: Any
) -> None:
    """While the groups change stations a station's status names the group arriving
    (``Moment.group_at``): its card says it is the next one (main: "Group Blue" while
    Red still packed up there, as if Blue were playing)."""
    live.plan(TWO_STATIONS, {"station-1": 0, "station-2": 1})
    page = open_page()
    live.status("station-1", station=0, phase="transition", left=60.0, group="Blue")
    live.status("station-2", station=1, phase="play", left=60.0, group="Blue")
    expect(page.locator("#card-station-1 .group")).to_have_text("Next: Group Blue")
    expect(page.locator("#card-station-2 .group")).to_have_text("Group Blue")


def test_browser_walk_the_rotation_line_says_how_many_stations_are_paused(
    live: Live, open_page: Any
) -> None:
    """The line above the cards speaks for every station: one station paused is said as
    one (main: "(paused)" when station 1 alone was, nothing when another one alone was)."""
    live.plan(TWO_STATIONS, {"station-1": 0, "station-2": 1})
    page = open_page()
    line = page.locator("#rotation")
    expect(line).to_have_text("Rotation 1 of 2: playing.")
    live.console.run(live.console.clock_action, "pause", 0)
    expect(line).to_have_text("Rotation 1 of 2: playing (1 of 2 stations paused).")
    live.console.run(live.console.clock_action, "pause", 1)
    expect(line).to_have_text("Rotation 1 of 2: playing (paused).")
    live.console.run(live.console.clock_action, "resume", 0)
    expect(line).to_have_text("Rotation 1 of 2: playing (1 of 2 stations paused).")


@contextlib.contextmanager
def busy(live: Live, device: str, station: int) -> Iterator[None]:
    """``device`` sends a status every 0.1 s (its time left changing), as a classroom of
    stations keeps the dashboard drawing its cards again."""
    stop = threading.Event()

    def send() -> None:
        left = 600.0
        while not stop.wait(0.1):
            left -= 0.1
            live.status(device, station=station, phase="play", left=round(left, 1), group="Blue")

    thread = threading.Thread(target=send, daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join(5)


def pressed(live: Live, seq: int) -> None:
    """Wait until the console has had ``seq`` clock changes (a press reached it)."""
    deadline = time.monotonic() + 10
    while live.console.run(lambda: live.console.seq) < seq:
        assert time.monotonic() < deadline, f"the console is still at seq {live.console.seq}"
        time.sleep(0.05)


def test_browser_walk_a_card_button_pressed_while_statuses_arrive_works(
    live: Live, open_page: Any
) -> None:
    """A teacher's press takes a moment between finger down and up; statuses arriving
    meanwhile must not swap the button under the finger (main: every status drew the
    cards anew, so the press was lost when one came before the finger lifted)."""
    live.plan(TWO_STATIONS, {"station-1": 0, "station-2": 1})
    page = open_page()
    live.status("station-1", station=0, phase="play", left=600.0, group="Red")
    card = page.locator("#card-station-1")
    # its status drawn (offline, its card showed its station's 10:00 already: r20)
    expect(card.locator(".state")).to_have_text("Playing")
    expect(card.locator(".left")).to_have_text("10:00")
    with busy(live, "station-2", 1):
        for n in range(3):
            card.locator('button[data-act="pause"]').click(delay=400)
            pressed(live, 2 + 2 * n)
            live.status("station-1", station=0, phase="play", paused=True, left=600.0)
            card.locator('button[data-act="resume"]').click(delay=400)
            pressed(live, 3 + 2 * n)
            live.status("station-1", station=0, phase="play", left=600.0, group="Red")


def test_browser_walk_the_plans_device_lists_stay_while_statuses_arrive(
    live: Live, open_page: Any
) -> None:
    """The plan's device lists are made again only when the devices or their being on
    change (main: with every status, several a second in a classroom, under a teacher
    choosing from one)."""
    for device in DEVICES[:2]:
        live.status(device)
    page = open_page()
    page.click("nav a[data-tab=plan]")
    first = page.locator('.station-row[data-index="0"] select.device option').nth(1)
    expect(first).to_have_text("station-1")
    first.evaluate("(option) => { option.marked = true; }")
    live.status("station-2", outbox=3)  # shown on its card; the same devices
    expect(page.locator("#card-station-2 .meta")).to_have_text("3 results to send")
    assert first.evaluate("(option) => option.marked === true")
    message = StatusMessage("station-2", False, live.clock.t)  # its will: it dropped off
    live.console.run(live.console._received, TOPICS.status("station-2"), encode(message), 0, 0)
    options = page.locator('.station-row[data-index="0"] select.device option')
    expect(options).to_have_text(["(no device)", "station-1", "station-2 (offline)"])


def test_browser_walk_saving_one_child_keeps_the_edits_of_the_others(
    live: Live, open_page: Any
) -> None:
    """A teacher moves two children to another group and saves the first: the second
    child's edit is still there to save (main: the list was drawn again from the console
    and the unsaved edit was gone without a word)."""
    for name in ("Ada", "Bo", "Cy"):
        live.console.run(live.console.roster_change, "add", name=name, group="Red")
    page = open_page()
    page.click("nav a[data-tab=roster]")
    group = 'tr[data-id="{}"] input[aria-label^="Group"]'
    page.fill(group.format("S1"), "Blue")
    page.fill(group.format("S2"), "Green")
    listed = re.compile(r"/api/roster$")
    with page.expect_response(lambda r: bool(listed.search(r.url)) and r.request.method == "GET"):
        page.locator('tr[data-id="S1"] button', has_text="Save").click()
    expect(page.locator("#roster-done")).to_have_text("S1 saved.")
    page.wait_for_timeout(300)  # the list drawn from that answer
    expect(page.locator(group.format("S1"))).to_have_value("Blue")
    expect(page.locator(group.format("S2"))).to_have_value("Green")
    expect(page.locator(group.format("S3"))).to_have_value("Red")
    page.locator('tr[data-id="S2"] button', has_text="Save").click()
    expect(page.locator("#roster-done")).to_have_text("S2 saved.")
    groups = [s.group for s in live.console.run(lambda: live.console.roster().students())]
    assert sorted(groups) == ["Blue", "Green", "Red"]


def test_browser_walk_a_sessions_games_name_their_device_once(live: Live, open_page: Any) -> None:
    """A session's games say which device sent each, by its name (main: "(station
    station-1)", as `fleet setup` names devices station-1, station-2, ...)."""
    seats = (SeatRecord(0, "Ada", "S1", "Red"), SeatRecord(1, "Bo", "S2", "Red"))
    expect(games_listed(live, open_page, seats)).to_have_text(
        "Game 1: M.E.C.S. (from station-1), Ada, Bo"
    )


def test_browser_walk_a_game_only_bots_played_says_so(live: Live, open_page: Any) -> None:
    """A game where only bots sat (a simulated station's, or bots left to play) is in the
    session's games but in no report: its line says so (r15-int: "..., " and nothing, a
    bare comma where the children's names go)."""
    child = (SeatRecord(0, "Ada", "S1", "Red"), SeatRecord(1, "Bot", None, "", "easy"))
    bots = (SeatRecord(0, "Bot 1", None, "", "easy"), SeatRecord(1, "Bot 2", None, "", "hard"))
    expect(games_listed(live, open_page, child, bots)).to_have_text(
        [
            "Game 2: M.E.C.S. (from station-1), bots only, in no report",
            "Game 1: M.E.C.S. (from station-1), Ada",
        ]
    )


def test_browser_walk_start_asks_before_it_replaces_a_running_rotation(
    live: Live, open_page: Any
) -> None:
    """Start while a rotation runs starts every station again from rotation 1: it asks
    first, as Skip, End and Clear do (main: one press on the big green button, perhaps
    only to look at the plan, and the lesson's clocks began again); Cancel keeps it."""
    live.plan(TWO_STATIONS, {"station-1": 0, "station-2": 1})
    running = live.console.run(lambda: live.console.plan.id)
    said: list[str] = []
    page = open_page(said=said, answers=[False, True])
    page.click("nav a[data-tab=plan]")
    page.click("#plan-start")
    expect(page.locator("#plan-error")).to_have_text("Nothing changed: the rotation goes on.")
    assert said == [
        "A rotation is running: start this plan in its place? Every station starts again"
        " from rotation 1."
    ]
    assert live.console.run(lambda: live.console.plan.id) == running
    page.click("#plan-start")
    expect(page).to_have_url(re.compile(r"#stations$"))
    assert len(said) == 2
    assert live.console.run(lambda: live.console.plan.id) != running


def test_browser_walk_the_skills_a_teacher_asks_for_come_into_view(
    live: Live, open_page: Any
) -> None:
    """Skills under one of several sessions: the table is drawn below every session, so
    it is brought into view (main: on a phone nothing seemed to happen, the table drawn
    out of sight)."""
    seats = (SeatRecord(0, "Ada", "S1", "Red"),)
    for n, day in enumerate(("Mon", "Tue", "Wed", "Thu", "Fri")):
        answers = [{**answered(0, "56"), "answer": "56"}]
        match = {**RESULT_MATCH, "session": day, "meta": {"checks": [[1, 1]], "answers": answers}}
        result = ResultMessage(id=f"station-1:day{n}", device="station-1", match=match, seats=seats)
        assert live.console.run(live.console._store, result)
    page = open_page(390, 844)
    page.click("nav a[data-tab=reports]")
    page.locator("#report-list > li", has_text="Mon").locator("button", has_text="Skills").click()
    expect(page.locator("#skills h3").first).to_have_text("Skills: Mon")
    expect(page.locator("#skills h3").first).to_be_in_viewport()


def test_browser_walk_one_device_for_two_stations_is_refused(live: Live, open_page: Any) -> None:
    """A device can be only one station: chosen for two, Start says which and starts
    nothing (main: the plan started with the first of them quietly left without a
    device, its groups with no table)."""
    for device in DEVICES[:2]:
        live.status(device)
    page = open_page()
    page.click("nav a[data-tab=plan]")
    page.fill("#plan-groups", "Red\nBlue")
    page.select_option('.station-row[data-index="1"] select.device', "station-1")
    page.click("#plan-start")
    expect(page.locator("#plan-error")).to_have_text(
        "station-1 is chosen for Station 1 and Station 2: a device can be one station only."
    )
    assert live.console.run(lambda: live.console.plan) is None
    page.select_option('.station-row[data-index="1"] select.device', "station-2")
    page.click("#plan-start")
    expect(page).to_have_url(re.compile(r"#stations$"))


def test_browser_walk_the_plan_opens_with_the_running_rotations_session(
    live: Live, open_page: Any
) -> None:
    """The plan editor opens with the running rotation's session, as with its stations
    and times (main: empty, so a plan started again, say with a minute more, filed the
    rest of the lesson's games under another session: today's date)."""
    live.plan(TWO_STATIONS, {"station-1": 0, "station-2": 1})
    page = open_page(answers=[True])
    page.click("nav a[data-tab=plan]")
    expect(page.locator("#plan-session")).to_have_value("Thu")
    page.fill("#plan-minutes", "11")
    page.click("#plan-start")
    expect(page).to_have_url(re.compile(r"#stations$"))
    assert live.console.run(lambda: live.console.plan.session) == "Thu"


def test_browser_walk_a_device_in_free_play_says_so(live: Live, open_page: Any) -> None:
    """A device outside the rotation where children play anyway: its card says "Free
    play" with the game and the standings (main: "Waiting", as if nobody were there)."""
    page = open_page()
    seats = (Standing("Ada", "4", 2), Standing("Bo", "9", 1))
    live.status("station-1", game="mecs", standings=seats)
    live.status("station-2")
    card = page.locator("#card-station-1")
    expect(card.locator(".state")).to_have_text("Free play")
    expect(card.locator(".game")).to_have_text("M.E.C.S.")
    expect(card.locator("ol.standings li")).to_have_text(["Bo: 9", "Ada: 4"])
    expect(page.locator("#card-station-2 .state")).to_have_text("Waiting")


def test_browser_walk_a_bookmarked_part_survives_the_login(browser: Any, live: Live) -> None:
    """A teacher's bookmark of the Reports part leads there once the PIN is given, a
    wrong PIN first too (main: to Stations, the part asked for lost at the login)."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    context.set_default_timeout(10_000)
    try:
        page = context.new_page()
        page.goto(live.url + "/#reports")
        expect(page).to_have_url(re.compile(r"/login#reports$"))
        give_pin(page, "0000")
        expect(page.locator("[role=alert]")).to_have_text("That PIN is not right.")
        give_pin(page)
        expect(page).to_have_url(re.compile(r"/#reports$"))
        expect(page.locator("#reports")).to_be_visible()
    finally:
        context.close()


def test_browser_walk_a_finished_rotations_buttons_are_off(live: Live, open_page: Any) -> None:
    """A station whose rotation is over has nothing to pause, extend or skip: its buttons
    are gone (round 18; they were off before), and the bar's are off once every station
    is over (main: on, and a press did nothing that could be seen)."""
    live.plan(TWO_STATIONS, {"station-1": 0, "station-2": 1})
    page = open_page()
    ended = page.locator("#card-station-1 .actions button")
    expect(ended).to_have_count(4)
    live.console.run(live.console.clock_action, "end", 0)
    expect(ended).to_have_count(0)
    expect(page.locator('#card-station-2 button[data-act="pause"]')).to_be_enabled()
    expect(page.locator("#all-pause")).to_be_enabled()
    live.console.run(live.console.clock_action, "end", None)
    expect(page.locator("#rotation")).to_have_text("The rotation is finished.")
    for act in ("pause", "resume", "extend", "skip", "end"):
        expect(page.locator(f"#all-{act}")).to_be_disabled()
    expect(page.locator('#card-station-2 button[data-act="pause"]')).to_have_count(0)
