"""`tabletop demo --game G --seed S --data DIR` killed at random moments (SIGKILL) and
started again with the same arguments carries on and ends with the same final line as
an uninterrupted run (issue 10: never lose a game)."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tabletop.games import GAMES
from tabletop.store import FILE_NAME, Journal

REPO = Path(__file__).resolve().parents[1]
# game -> a seed whose game is long enough to be killed many times
RESUMABLE_DEMOS = {"math-attack": 5, "mecs": 3, "math-wars-meta": 38, "math-arena": 21}


def demo(game: str, seed: int, data: Path, out: Path) -> list[str]:
    return [
        sys.executable,
        "-m",
        "tabletop",
        "demo",
        "--game",
        game,
        "--seed",
        str(seed),
        "--data",
        str(data),
        "--out",
        str(out),
    ]


def run(cmd: list[str], kill: tuple[int, float] | None = None) -> tuple[int, str]:
    """Run the demo; ``kill`` = (lines, seconds): SIGKILL it that long after it printed
    that many lines (mid-game, wherever it then is), if it is still running."""
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", PYTHONUNBUFFERED="1")
    proc = subprocess.Popen(
        cmd, cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
    )
    assert proc.stdout is not None
    lines: list[str] = []
    if kill is not None:
        for line in proc.stdout:
            lines.append(line)
            if len(lines) >= kill[0]:
                time.sleep(kill[1])
                proc.send_signal(signal.SIGKILL)
                break
    rest, _ = proc.communicate()
    return proc.returncode, "".join(lines) + rest


@pytest.mark.slow
@pytest.mark.parametrize("game", RESUMABLE_DEMOS)
def test_demo_killed_at_random_moments_ends_as_an_uninterrupted_run(
    game: str, tmp_path: Path
) -> None:
    seed = RESUMABLE_DEMOS[game]
    code, whole = run(demo(game, seed, tmp_path / "once", tmp_path / "shots"))
    assert code == 0, whole
    printed = len(whole.splitlines())
    final = whole.strip().splitlines()[-1]
    assert final.startswith("winner: ")

    rng = random.Random(f"{game}:{seed}")
    data = tmp_path / "killed"
    kills = resumed = 0
    for _ in range(8):
        kill = (rng.randrange(3, printed - 1), rng.uniform(0.0, 0.004))
        code, out = run(demo(game, seed, data, tmp_path / "shots"), kill)
        if "Carrying on" in out:
            resumed += 1
        if code == 0:
            break
        assert code == -signal.SIGKILL, out
        kills += 1
        # between runs, whatever the journal holds replays: nothing half-written
        journal = Journal(data / FILE_NAME)
        for saved in journal.unfinished():
            journal.load(saved.id, GAMES)
        journal.close()
    else:
        code, out = run(demo(game, seed, data, tmp_path / "shots"))
        resumed += "Carrying on" in out
    assert code == 0, out
    assert out.strip().splitlines()[-1] == final
    assert kills >= 3 and resumed >= 3, (kills, resumed)
