"""The Stations tab's cards in a real browser (the walk's classroom: the app on loopback in
front of a console without a broker, see ``test_browser_walk``): a station with no device,
and a device whose station's clock has ended."""

from __future__ import annotations

import re
from typing import Any

from tabletop.classroom.fleet.messages import Standing, StatusMessage, encode
from tests.teacher.test_browser import SHOTS, expect
from tests.teacher.test_browser_walk import TOPICS, TWO_STATIONS, Live, browser, live, open_page

__all__ = ["browser", "live", "open_page"]  # fixtures used by name


def test_browser_cards_a_station_without_a_device_says_where_its_group_goes(
    live: Live, open_page: Any
) -> None:
    """A planned station the teacher gave no device has a card: its name, the group that
    belongs there, and what to do (r17: no card, so nothing said where Blue should be)."""
    live.status("station-1")
    live.plan(TWO_STATIONS, {"station-1": 0})
    page = open_page()
    cards = page.locator("#cards .card")
    expect(cards).to_have_count(2)
    bare = cards.nth(1)  # in station order, after Station 1's
    expect(bare.locator("h3")).to_have_text("Station 2 \u2014 Math Arena")
    expect(bare.locator(".state")).to_have_text("No device: choose one in Plan")
    expect(bare.locator(".group")).to_have_text("Group Blue")
    expect(bare.locator("button")).to_have_count(0)
    page.screenshot(path=str(SHOTS / "teacher-cards-no-device-1280x800.png"))
    live.clock.t += 11 * 60  # the next rotation: Red's turn there
    live.status("station-1")
    expect(bare.locator(".group")).to_have_text("Group Red")
    page.set_viewport_size({"width": 390, "height": 844})
    page.screenshot(path=str(SHOTS / "teacher-cards-no-device-390x844.png"), full_page=True)
    live.console.run(live.console.clock_action, "end", 1)
    expect(cards).to_have_count(1)  # its rotation is over: nothing left to say


def test_browser_cards_after_end_a_device_plays_free_play_without_clock_buttons(
    live: Live, open_page: Any
) -> None:
    """After End a station's device shows as free play, not under the station's name, and
    its card has no Pause, +1 min, Skip or End (r17: "Station 1 — M.E.C.S." over greyed
    buttons on every card)."""
    live.plan(TWO_STATIONS, {"station-1": 0, "station-2": 1})
    page = open_page()
    one, two = page.locator("#card-station-1"), page.locator("#card-station-2")
    expect(one.locator(".actions button")).to_have_count(4)
    live.console.run(live.console.clock_action, "end", 0)
    live.status("station-1", game="mecs")
    expect(one.locator("h3")).to_have_text("Free play")
    expect(one.locator(".state")).to_have_text("Free play")
    expect(one.locator(".game")).to_have_text("M.E.C.S.")
    expect(one.locator(".actions button")).to_have_count(0)
    expect(two.locator("h3")).to_have_text("Station 2 \u2014 Math Arena")
    expect(two.locator('button[data-act="pause"]')).to_be_enabled()
    expect(page.locator("#rotation")).to_have_text("Rotation 1 of 2: playing.")
    page.screenshot(path=str(SHOTS / "teacher-cards-ended-one-1280x800.png"))
    live.console.run(live.console.clock_action, "end", None)
    expect(page.locator("#rotation")).to_have_text("The rotation is finished.")
    expect(page.locator("#cards .card button")).to_have_count(0)
    expect(one.locator("h3")).to_have_text("Free play")
    # station-2 never came online: offline, it keeps its station's name (r19; r18 said
    # "Free play" over "Offline" here too)
    expect(two.locator("h3")).to_have_text("Station 2 \u2014 Math Arena")
    expect(two.locator(".group")).to_have_text("Station ended")
    page.screenshot(path=str(SHOTS / "teacher-cards-ended-all-1280x800.png"))


def offline(live: Live, device: str) -> None:
    """``device``'s will arrives: it dropped off (its last status is kept)."""
    message = StatusMessage(device, False, live.clock.t)
    live.console.run(live.console._received, TOPICS.status(device), encode(message), 0, 0)


def test_browser_cards_an_offline_device_whose_station_ended_says_both(
    live: Live, open_page: Any
) -> None:
    """A device offline after its station's End keeps the station's name and says it is
    offline and that the station ended: never "Free play", which it is not seen playing
    (r18: "Free play" over "Offline", read as a device in free play)."""
    live.plan(TWO_STATIONS, {"station-1": 0, "station-2": 1})
    page = open_page()
    one = page.locator("#card-station-1")
    live.status("station-1", station=0, phase="play", left=300.0, group="Red", game="mecs")
    live.console.run(live.console.clock_action, "end", 0)
    offline(live, "station-1")
    expect(one.locator(".state")).to_have_text(re.compile(r"^Offline · last seen "))
    expect(one.locator("h3")).to_have_text("Station 1 \u2014 M.E.C.S.")
    expect(one.locator(".group")).to_have_text("Station ended")
    expect(one).not_to_contain_text("Free play")
    expect(one.locator(".actions button")).to_have_count(0)
    page.screenshot(path=str(SHOTS / "teacher-cards-ended-offline-1280x800.png"))
    live.status("station-1", game="mecs")  # back, in free play
    expect(one.locator("h3")).to_have_text("Free play")
    expect(one.locator(".state")).to_have_text("Free play")


def test_browser_cards_a_device_not_at_its_running_station_yet_says_so(
    live: Live, open_page: Any
) -> None:
    """A device the plan names for a running station that still plays free play (the plan
    on its way) says it is not at its station yet, under the station's name (r18: "Free
    play" alone there, as if the station had ended)."""
    live.plan(TWO_STATIONS, {"station-1": 0, "station-2": 1})
    page = open_page()
    live.status("station-1", game="mecs")
    live.status("station-2")
    one, two = page.locator("#card-station-1"), page.locator("#card-station-2")
    expect(one.locator("h3")).to_have_text("Station 1 \u2014 M.E.C.S.")
    expect(one.locator(".state")).to_have_text("Free play: not at its station yet")
    expect(two.locator(".state")).to_have_text("Not at its station yet")
    expect(one).to_have_class(re.compile(r"\bwaiting\b"))
    page.screenshot(path=str(SHOTS / "teacher-cards-not-there-yet-1280x800.png"))


def test_browser_cards_an_offline_device_shows_its_running_station_time(
    live: Live, open_page: Any
) -> None:
    """A device that drops off while its station runs: its card shows the station's time
    on the console's clock (the plan's, which the device only shows), counting down and
    frozen only while the console's clock is paused (r19: the last status's "time left",
    frozen until the page redrew, read as a paused station)."""
    live.plan(TWO_STATIONS, {"station-1": 0, "station-2": 1})
    page = open_page()
    one = page.locator("#card-station-1")
    live.clock.t += 4 * 60  # six minutes of ten left on the console's clock
    live.status("station-1", station=0, phase="play", left=360.0, group="Red", game="mecs")
    offline(live, "station-1")
    expect(one.locator(".state")).to_have_text(re.compile(r"^Offline · last seen "))
    left = one.locator(".left")
    expect(left).to_have_text(re.compile(r"^(06:00|05:5\d)$"))
    shown = left.text_content()
    page.wait_for_timeout(2500)  # no new state: the card counts on its own
    page.screenshot(path=str(SHOTS / "teacher-cards-offline-running-1280x800.png"))
    assert left.text_content() != shown
    live.console.run(live.console.clock_action, "pause", 0)  # the console's clock stops
    expect(left).to_have_text("06:00")
    expect(one.locator("button[data-act]").first).to_have_text("Resume")  # not the device's
    page.wait_for_timeout(1500)
    expect(left).to_have_text("06:00")
    live.clock.t += 60
    live.console.run(live.console.clock_action, "resume", 0)
    live.clock.t += 60  # a minute played since: the station's, not the device's last word
    live.status("station-2", station=1, phase="play", left=300.0, group="Blue")  # a redraw
    expect(left).to_have_text(re.compile(r"^(05:00|04:5\d)$"))
    expect(one.locator(".group")).to_have_text("Group Red")


def test_browser_cards_an_offline_card_says_its_figures_are_as_last_seen(
    live: Live, open_page: Any
) -> None:
    """What an offline card knows only from the device's last status (its game, scores and
    results to send) says it is from then (r19: "All results sent" beside "Offline", read
    as now, while the device may have finished games since)."""
    live.plan(TWO_STATIONS, {"station-1": 0, "station-2": 1})
    page = open_page()
    one, two = page.locator("#card-station-1"), page.locator("#card-station-2")
    seats = (Standing("Ada", "3", 2), Standing("Bo", "7", 1))
    for device, station, outbox in (("station-1", 0, 0), ("station-2", 1, 2)):
        status = {"station": station, "phase": "play", "left": 600.0, "outbox": outbox}
        live.status(device, game="mecs", standings=seats, **status)
    expect(one.locator(".meta")).to_have_text("All results sent · updating…")
    expect(one.locator(".game")).to_have_text("M.E.C.S.")
    offline(live, "station-1")
    offline(live, "station-2")
    expect(one.locator(".meta")).to_have_text("All results sent when last seen")
    expect(two.locator(".meta")).to_have_text("2 results to send when last seen")
    expect(one.locator(".game")).to_have_text("Last seen playing M.E.C.S.")
    expect(one.locator("ol.standings")).to_have_attribute("aria-label", "standings when last seen")
    expect(one.locator("ol.standings li")).to_have_text(["Bo: 7", "Ada: 3"])
    page.screenshot(path=str(SHOTS / "teacher-cards-offline-last-seen-1280x800.png"))
    live.status("station-1", station=0, phase="play", left=540.0, game="mecs", standings=seats)
    expect(one.locator(".meta")).to_have_text("All results sent · updating…")
    expect(one.locator(".game")).to_have_text("M.E.C.S.")
