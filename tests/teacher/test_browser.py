"""The dashboard in a real browser: Debian's Chromium driven by Playwright, against
`tabletop teacher` (a real process on loopback) with a real mosquitto and three
`tabletop fleet simulate` stations (processes with their own device ids).

One browser and one classroom for the module; the tests run in order (the rotation the
first one starts is the one the others see)."""

from __future__ import annotations

import os
import re
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tabletop.classroom.fleet.config import Broker, free_port, loopback_broker
from tabletop.classroom.fleet.simulate import simulate_command
from tabletop.teacher.cli import teacher_command
from tests.teacher.serving import wait_port

playwright_api = pytest.importorskip("playwright.sync_api")
expect = playwright_api.expect

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
PIN = "2468"
DEVICES = ("station-1", "station-2", "station-3")
# 12 minutes to play: a few seconds in, and a minute more (no test takes 30 s).
BEFORE = re.compile(r"^(12:00|11:[3-5]\d)$")
EXTENDED = re.compile(r"^(13:00|12:[3-5]\d)$")
SHOTS = Path(os.environ.get("TABLETOP_SHOTS", "/tmp"))


@dataclass
class Classroom:
    url: str
    broker: Broker
    server: subprocess.Popen[bytes]
    stations: list[subprocess.Popen[bytes]]


@pytest.fixture(scope="module")
def classroom(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Classroom]:
    root = tmp_path_factory.mktemp("classroom")
    with loopback_broker(root / "broker", DEVICES) as broker:
        port = free_port()
        fleet = broker.provisioned.file("teacher")
        log = open(root / "teacher.log", "wb")  # noqa: SIM115 - closed below
        server = subprocess.Popen(
            teacher_command(fleet, root / "teacher", port, pin=PIN),
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        stations = []
        for i, device in enumerate(DEVICES):
            station_file = root / f"{device}.toml"
            # keepalive 2 s: the broker notices a killed station after ~3 s, not 15
            text = broker.provisioned.config(device).toml() + "keepalive = 2\n"
            station_file.write_text(text, encoding="utf-8")
            stations.append(
                subprocess.Popen(
                    simulate_command(station_file, root / device, seed=i),
                    stdout=log,
                    stderr=subprocess.STDOUT,
                )
            )
        try:
            wait_port(port, server)
            yield Classroom(f"http://127.0.0.1:{port}", broker, server, stations)
        finally:
            for process in (*stations, server):
                process.terminate()
            for process in (*stations, server):
                process.wait(10)
            log.close()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: sudo apt-get install -y chromium")
    with playwright_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


@pytest.fixture(scope="module")
def page(browser: Any, classroom: Classroom) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1280, "height": 800}, accept_downloads=True)
    context.set_default_timeout(10_000)
    page = context.new_page()
    page.on("dialog", lambda dialog: dialog.accept())
    yield page
    context.close()


def card(page: Any, device: str) -> Any:
    return page.locator(f"#card-{device}")


def test_browser_log_in_and_see_every_station(page: Any, classroom: Classroom) -> None:
    page.goto(classroom.url + "/")
    expect(page).to_have_url(re.compile(r"/login$"))
    page.fill("#pin", "0000")
    page.click("button[type=submit]")
    expect(page.locator("[role=alert]")).to_have_text("That PIN is not right.")
    page.fill("#pin", PIN)
    page.click("button[type=submit]")
    expect(page.locator(".card")).to_have_count(3)
    for device in DEVICES:  # no plan yet: the simulations play bot games in free play
        expect(card(page, device).locator(".state")).to_have_text(
            re.compile(r"^(Waiting|Free play)$")
        )
    expect(page.locator("#link")).to_have_text("Live")


def test_browser_start_pause_all_pause_one_and_extend(page: Any, classroom: Classroom) -> None:
    page.click("nav a[data-tab=plan]")
    expect(page.locator(".station-row")).to_have_count(3)
    page.select_option('.station-row[data-index="1"] select.game', "math-arena")
    page.select_option('.station-row[data-index="1"] select.option[data-key="level"]', "hard")
    page.fill("#plan-groups", "Red\nBlue\nGreen\nYellow")
    page.click("#plan-start")
    expect(page.locator("#plan-error")).to_contain_text("4 groups but only 3 stations")
    page.screenshot(path=str(SHOTS / "teacher-plan-1280x800.png"), full_page=True)
    page.fill("#plan-groups", "Red\nBlue\nGreen")
    page.fill('.station-row[data-index="2"] input.name', "  Quiet corner ")
    page.fill("#plan-minutes", "12")
    for i, device in enumerate(DEVICES):
        page.select_option(f'.station-row[data-index="{i}"] select.device', device)
    page.click("#plan-start")
    expect(page).to_have_url(re.compile(r"#stations$"))
    expect(page.locator(".card.playing")).to_have_count(3)
    expect(card(page, "station-2")).to_contain_text("Group Blue")
    expect(card(page, "station-2")).to_contain_text("Math Arena")
    expect(card(page, "station-3")).to_contain_text("Station 3 \u2014 Quiet corner")
    stations = page.evaluate("latest.plan.plan.stations")
    assert [s["options"] for s in stations] == [{}, {"level": "hard"}, {}]
    assert stations[2]["name"] == "Quiet corner"
    expect(page.locator("#rotation")).to_have_text("Rotation 1 of 3: playing.")
    expect(card(page, "station-1").locator(".left")).to_have_text(BEFORE)

    page.click("#all-pause")
    expect(page.locator(".card.paused")).to_have_count(3)
    for device in DEVICES:
        expect(card(page, device).locator(".state")).to_have_text("Paused")
    page.click("#all-resume")
    expect(page.locator(".card.paused")).to_have_count(0)

    card(page, "station-2").locator('button[data-act="pause"]').click()
    expect(card(page, "station-2").locator(".state")).to_have_text("Paused")
    expect(page.locator(".card.paused")).to_have_count(1)

    card(page, "station-1").locator('button[data-act="extend"]').click()
    expect(card(page, "station-1").locator(".left")).to_have_text(EXTENDED)
    expect(card(page, "station-3").locator(".left")).to_have_text(BEFORE)

    page.screenshot(path=str(SHOTS / "teacher-dashboard-1280x800.png"))
    page.set_viewport_size({"width": 390, "height": 844})
    page.screenshot(path=str(SHOTS / "teacher-dashboard-390x844.png"), full_page=True)
    page.set_viewport_size({"width": 1280, "height": 800})


def test_browser_edit_the_class_list_and_download_it(page: Any, classroom: Classroom) -> None:
    page.click("nav a[data-tab=roster]")
    page.set_input_files(
        "#import-file",
        files=[
            {"name": "class.csv", "mimeType": "text/csv", "buffer": b"S1,Ada,Red\nS2,Bo,Blue\n"}
        ],
    )
    page.click("#roster-import button[type=submit]")
    expect(page.locator("#roster-done")).to_have_text("Imported: 2 added.")
    page.fill("#add-name", "Cy Young")
    page.fill("#add-group", "Green")
    page.click("#roster-add button[type=submit]")
    expect(page.locator("#roster-done")).to_have_text("Cy Young added as S3.")
    # the list is drawn again after the add: edit the row of the new list, not the old
    expect(page.locator('tr[data-id="S3"]')).to_have_count(1)
    row = page.locator('tr[data-id="S2"]')
    row.locator("input").first.fill("Bob")
    expect(row.locator("input").first).to_have_value("Bob")
    row.locator("button", has_text="Save").click()
    expect(page.locator("#roster-done")).to_have_text("S2 saved.")
    page.locator('tr[data-id="S1"] button', has_text="Remove").click()
    expect(page.locator("#roster-rows tr")).to_have_count(2)
    with page.expect_download() as download:
        page.click("#roster-download")
    text = Path(download.value.path()).read_text(encoding="utf-8-sig")
    assert text == "id,name,group\nS2,Bob,Blue\nS3,Cy Young,Green\n"
    page.screenshot(path=str(SHOTS / "teacher-roster-1280x800.png"), full_page=True)


def test_browser_a_station_that_drops_off_shows_offline(page: Any, classroom: Classroom) -> None:
    page.click("nav a[data-tab=stations]")
    expect(card(page, "station-3")).not_to_have_class(re.compile("offline"))
    classroom.stations[2].kill()  # no goodbye: the broker publishes its will
    classroom.stations[2].wait(10)
    expect(card(page, "station-3")).to_have_class(re.compile("offline"), timeout=15_000)
    expect(card(page, "station-3").locator(".state")).to_have_text(
        re.compile(r"^Offline · last seen \d\d:\d\d:\d\d")
    )
    expect(page.locator(".card.offline")).to_have_count(1)
    page.screenshot(path=str(SHOTS / "teacher-offline-1280x800.png"))
