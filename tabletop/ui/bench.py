"""UI figures: frames per second and CPU per frame, offscreen, and time to first frame.

``python -m tabletop.ui.bench [--frames N] [--size 800x480]`` prints JSON:

* ``scenes``: for the home screen and a game in progress (round 5 of a solo game, with
  a die picked), every frame fully redrawn and shown (the display flipped, as the app
  does; the app itself redraws only when something changed): ``fps`` (wall clock) and
  ``cpu_ms_per_frame`` (process CPU time);
* ``first_frame_ms``: from the start of a fresh ``tabletop app`` process to its first
  frame on screen (median of three runs, SDL's dummy video driver).
"""

from __future__ import annotations

import json
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from tabletop.cliparse import OneLineParser
from tabletop.ui.commands import window_size


def measure(app: Any, frames: int) -> dict[str, float]:
    for _ in range(5):  # warm the text cache
        app.step(force_draw=True)
    wall, cpu = time.perf_counter(), time.process_time()
    for _ in range(frames):
        app.step(force_draw=True)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    return {
        "fps": round(frames / wall, 1),
        "cpu_ms_per_frame": round(cpu / frames * 1000, 2),
        "wall_ms_per_frame": round(wall / frames * 1000, 2),
    }


def scene_figures(frames: int, size: tuple[int, int]) -> dict[str, Any]:
    from tabletop.ui.games.mathe_meister.autoplay import MatheMeisterRun

    with tempfile.TemporaryDirectory() as shots:
        run = MatheMeisterRun(
            "mathe-meister", seed=1, out_dir=Path(shots), out=sys.stdout, size=size, flip=True
        )
        run.ctx.prefs.prefs.dice_input = "tap"
        out = {"home": measure(run.app, frames)}
        run.open_game()
        run.tap("start")
        rng = random.Random(3)
        for _ in range(4):
            run.tap_dice((rng.randint(1, 6), rng.randint(1, 6)))
            run.bot_round()
        run.tap_dice((3, 5))
        run.tap("die0")
        out["game"] = measure(run.app, frames)
    return out


def first_frame_ms(runs: int = 3) -> dict[str, Any]:
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    times = []
    with tempfile.TemporaryDirectory() as data:
        env["TABLETOP_DATA"] = data
        app = "-m tabletop app --windowed --frames 1 --timing --camera none --no-buttons"
        command = [sys.executable, *app.split()]
        for _ in range(runs):
            done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=120)
            found = re.search(r"first frame: (\d+) ms", done.stderr)
            if found:
                times.append(int(found.group(1)))
    return {"median": statistics.median(times) if times else None, "runs": times}


def main(argv: list[str] | None = None) -> int:
    parser = OneLineParser(prog="python -m tabletop.ui.bench")
    parser.add_argument("--frames", type=int, default=300)
    parser.add_argument("--size", type=window_size, default=(800, 480))
    args = parser.parse_args(argv)
    figures = {
        "size": "{}x{}".format(*args.size),
        "frames": args.frames,
        "scenes": scene_figures(args.frames, args.size),
        "first_frame_ms": first_frame_ms(),
    }
    print(json.dumps(figures, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
