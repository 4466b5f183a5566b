"""Figures for the teacher's dashboard, as JSON: how fast a "pause" reaches every station,
and how fast the dashboard loads.

Everything runs on loopback: a provisioned mosquitto, ``tabletop teacher`` (a process),
and 8 ``tabletop fleet simulate`` processes (each its own device id and journal).

- **pause**: over ``--rounds`` pauses and resumes of every station, the time from the
  moment the teacher's HTTP POST is sent to the moment the console has a status from
  every station showing the new clock ``seq`` (the console's own receive times, same
  machine and clock); also from the POST's reply (accepted) and from the console's
  publish.
- **HTTPS** as an installed coordinator serves it (the broker's certificate from
  ``fleet setup``; ``--http``: plain HTTP), and MQTT over TLS.
- **page load**: a logged-in Chromium (Playwright, Debian's ``/usr/bin/chromium``) opens
  the dashboard ``--loads`` times: to the load event, and to the first live data (every
  station's card drawn).

    .venv/bin/python tools/fleet_pause.py [--stations 8] [--rounds 20] [--loads 10] [--http]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import ssl
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from aiohttp import ClientSession, CookieJar, TCPConnector  # noqa: E402

from tabletop.classroom.fleet.config import (  # noqa: E402
    CA_FILE,
    CERT_FILE,
    KEY_FILE,
    free_port,
    loopback_broker,
    wait_listening,
)
from tabletop.classroom.fleet.simulate import simulate_command  # noqa: E402
from tabletop.teacher.cli import teacher_command  # noqa: E402

PIN = "7531"
GAMES = ("mecs", "math-arena", "math-attack", "math-wars-meta", "mathe-meister")
CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def wait_port(port: int, timeout: float = 30.0) -> None:
    if not wait_listening(port, timeout=timeout):
        raise SystemExit(f"tabletop teacher did not listen on {port}")


def summary(values: list[float]) -> dict[str, float]:
    ms = [v * 1000 for v in values]
    return {
        "n": len(ms),
        "median_ms": round(statistics.median(ms), 1),
        "max_ms": round(max(ms), 1),
        "min_ms": round(min(ms), 1),
    }


async def pauses(
    url: str, devices: list[str], rounds: int, trust: ssl.SSLContext | None
) -> dict[str, Any]:
    origin = {"Origin": url}
    connector = TCPConnector(ssl=trust) if trust else None
    async with ClientSession(cookie_jar=CookieJar(unsafe=True), connector=connector) as http:
        r = await http.post(f"{url}/login", data={"pin": PIN}, headers=origin)
        assert r.status == 200, r.status  # followed the redirect to the dashboard
        plan = {
            "stations": [{"game": GAMES[i % len(GAMES)]} for i in range(len(devices))],
            "groups": [f"Group {i + 1}" for i in range(len(devices))],
            "minutes": 30,
            "transition": 1,
            "warning": 1,
        }
        stations = {d: i for i, d in enumerate(devices)}
        r = await http.post(
            f"{url}/api/plan", json={"plan": plan, "stations": stations}, headers=origin
        )
        assert r.status == 200, await r.text()

        async def everywhere(seq: int, timeout: float = 30.0) -> dict[str, Any]:
            deadline = time.monotonic() + timeout
            while time.monotonic() < deadline:
                records = await (await http.get(f"{url}/api/latency")).json()
                found = next((x for x in records if x["seq"] == seq), None)
                if found and found["everywhere"] is not None:
                    return dict(found)
                await asyncio.sleep(0.01)
            raise SystemExit(f"seq {seq} did not reach every station in {timeout} s")

        await everywhere(1)
        from_post, from_reply, from_publish = [], [], []
        for n in range(rounds):
            action = "pause" if n % 2 == 0 else "resume"
            sent = time.time()
            r = await http.post(f"{url}/api/clock", json={"action": action}, headers=origin)
            replied = time.time()
            seq = (await r.json())["seq"]
            record = await everywhere(seq)
            last = max(record["reached"].values())
            from_post.append(last - sent)
            from_reply.append(max(0.0, last - replied))
            from_publish.append(record["everywhere"])
            await asyncio.sleep(0.2)
    return {
        "rounds": rounds,
        "from_post_sent": summary(from_post),
        "from_post_accepted": summary(from_reply),
        "from_console_publish": summary(from_publish),
    }


def page_loads(url: str, devices: int, loads: int) -> dict[str, Any]:
    from playwright.sync_api import sync_playwright

    to_load, to_data = [], []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        # Chromium does not know the classroom's authority (a teacher's browser warns once).
        context = browser.new_context(
            viewport={"width": 1280, "height": 800}, ignore_https_errors=True
        )
        page = context.new_page()
        page.goto(f"{url}/login")
        page.fill("#pin", PIN)
        page.click("button[type=submit]")
        page.wait_for_selector(".card")
        for _ in range(loads):
            blank = context.new_page()
            start = time.perf_counter()
            blank.goto(f"{url}/", wait_until="load")
            loaded = time.perf_counter()
            blank.wait_for_function(
                f"document.querySelectorAll('.card.playing, .card.paused').length >= {devices}"
            )
            shown = time.perf_counter()
            to_load.append(loaded - start)
            to_data.append(shown - start)
            blank.close()
        browser.close()
    return {
        "loads": loads,
        "to_load_event": summary(to_load),
        "to_first_live_data": summary(to_data),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--stations", type=int, default=8)
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--loads", type=int, default=10)
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder")
    parser.add_argument("--http", action="store_true", help="the dashboard in plain HTTP")
    args = parser.parse_args()
    devices = [f"station-{n}" for n in range(1, args.stations + 1)]
    root = Path(tempfile.mkdtemp(prefix="fleet-pause-"))
    processes: list[subprocess.Popen[bytes]] = []
    try:
        with loopback_broker(root / "broker", devices) as broker:
            port = free_port()
            env = {**os.environ, "TABLETOP_TEACHER_PIN": PIN}
            folder = broker.provisioned.folder
            https = None if args.http else (folder / CERT_FILE, folder / KEY_FILE)
            trust = None if args.http else ssl.create_default_context(cafile=folder / CA_FILE)
            teacher = teacher_command(
                broker.provisioned.file("teacher"), root / "teacher", port, tls=https
            )
            processes.append(
                subprocess.Popen(
                    teacher, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
                )
            )
            for i, d in enumerate(devices):
                processes.append(
                    subprocess.Popen(
                        simulate_command(broker.provisioned.file(d), root / d, seed=i),
                        cwd=ROOT,
                        stdout=subprocess.DEVNULL,
                        stderr=subprocess.DEVNULL,
                    )
                )
            wait_port(port)
            url = f"{'http' if args.http else 'https'}://127.0.0.1:{port}"
            figures = {
                "stations": args.stations,
                "cpu_count": os.cpu_count(),
                "dashboard": url.split(":")[0],
                "mqtt": "TLS",
                "pause": asyncio.run(pauses(url, devices, args.rounds, trust)),
                "page": page_loads(url, args.stations, args.loads),
            }
    finally:
        for p in processes:
            p.terminate()
        for p in processes:
            try:
                p.wait(10)
            except subprocess.TimeoutExpired:
                p.kill()
        if not args.keep:
            shutil.rmtree(root, ignore_errors=True)
    print(json.dumps(figures, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
