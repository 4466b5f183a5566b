"""``tabletop demo``, ``tabletop`` / ``tabletop app``, and the display probe."""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
from pathlib import Path

import pygame
import pytest

from tabletop import cli
from tabletop.engine.match import Match
from tabletop.games import GAMES
from tabletop.ui import launch
from tabletop.ui.games.mathe_meister.demo import load_samples


def test_demo_plays_a_whole_game_and_ends_with_the_final_score(tmp_path, capsys) -> None:
    out = tmp_path / "shots"
    log = tmp_path / "game.jsonl"
    assert cli.main(["demo", "--seed", "5", "--out", str(out), "--log", str(log)]) == 0
    printed = capsys.readouterr().out
    lines = printed.strip().splitlines()
    final = re.fullmatch(r"final score: (-?\d+)", lines[-1])
    assert final is not None
    assert "read by" in printed and printed.count("\nRound ") == 8
    assert str(out) in printed
    shots = sorted(p.name for p in out.iterdir())
    assert shots == sorted(
        [f"round_{r:02d}.png" for r in range(1, 9)]
        + [f"round_{r:02d}_dice.png" for r in range(1, 9)]
        + ["final.png"]
    )
    result = Match.replay(log.read_text().splitlines(), GAMES).result()
    assert result is not None and str(result.scores[0]) == final.group(1)


def test_demo_photos_have_two_labelled_dice_and_a_licence() -> None:
    samples = load_samples()
    assert 8 <= len(samples) <= 16
    assert all(len(s.truth) == 2 and all(1 <= v <= 6 for v in s.truth) for s in samples)
    folder = samples[0].path.parent
    assert (folder / "LICENSE").read_text().startswith("Copyright (c) 2021 Matteo")
    assert sum(p.stat().st_size for p in folder.iterdir()) < 1_500_000


def test_app_starts_draws_and_stops(monkeypatch, capsys) -> None:
    monkeypatch.setattr(launch, "is_raspberry_pi", lambda: False)
    assert cli.main(["app", "--windowed", "--frames", "3", "--camera", "none", "--timing"]) == 0
    assert re.search(r"first frame: \d+ ms after start", capsys.readouterr().err)


def test_app_with_mock_seat_buttons(monkeypatch) -> None:
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    monkeypatch.setattr(launch, "is_raspberry_pi", lambda: False)
    options = launch.AppOptions(frames=2, camera="none", buttons=True, size=(1280, 720))
    assert launch.run_app(options) == 0


def test_app_keeps_its_journal_in_the_data_folder_and_restores_a_rotation(
    monkeypatch, tmp_path
) -> None:
    # issue 10: games, the class list and a running rotation live in --data's journal;
    # a rotation running when the device stopped is carried on at start
    from tabletop.classroom.rotation import Plan, Station, start_rotation
    from tabletop.store import FILE_NAME, Journal
    from tabletop.ui.app import App

    journal = Journal(tmp_path / FILE_NAME)
    plan = Plan((Station("math-attack", "", {}, "Attack"),), ("Blue",))
    start_rotation(journal, plan, 0, session="lesson 3")
    journal.close()
    seen = {}
    original = App.run

    def run(self, *, max_frames=None):
        seen["session"], seen["rotation"] = self.ctx.session, self.ctx.rotation
        return original(self, max_frames=max_frames)

    monkeypatch.setattr(App, "run", run)
    monkeypatch.setattr(launch, "is_raspberry_pi", lambda: False)
    assert cli.main(["app", "--frames", "2", "--camera", "none", "--data", str(tmp_path)]) == 0
    assert seen["session"] == "lesson 3" and seen["rotation"] is not None
    assert seen["rotation"].stored.session == "lesson 3"


def test_app_display_probe(monkeypatch) -> None:
    monkeypatch.setattr(launch, "is_raspberry_pi", lambda: False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    monkeypatch.setenv("DISPLAY", ":0")
    monkeypatch.delenv("SDL_VIDEODRIVER", raising=False)
    assert launch.has_display()
    monkeypatch.delenv("DISPLAY")
    assert not launch.has_display() or launch.sys.platform in ("darwin", "win32")
    monkeypatch.setenv("DISPLAY", ":0")
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    assert not launch.has_display()
    monkeypatch.delenv("DISPLAY")
    monkeypatch.setenv("SDL_VIDEODRIVER", "kmsdrm")  # a console: SDL is told which driver
    assert launch.has_display()


def test_app_bad_size_is_one_line(capsys) -> None:
    try:
        cli.main(["app", "--size", "big"])
    except SystemExit as exc:
        assert exc.code == 2
    assert "WIDTHxHEIGHT" in capsys.readouterr().err


def test_ui_bench_measures_frames() -> None:
    from tabletop.ui.bench import scene_figures

    figures = scene_figures(3, (800, 480))
    for scene in ("home", "game"):
        assert figures[scene]["fps"] > 0 and figures[scene]["cpu_ms_per_frame"] >= 0


def test_ui_bench_frames_include_the_display_flip(monkeypatch, tmp_path) -> None:
    """Each measured frame is shown, as the app shows it; a demo's run does not flip."""
    from tabletop.ui.bench import scene_figures
    from tabletop.ui.harness import DemoRun

    flips: list[int] = []
    monkeypatch.setattr(pygame.display, "flip", lambda: flips.append(1))
    scene_figures(3, (800, 480))
    assert len(flips) >= 2 * (5 + 3)  # each scene: 5 frames to warm up, 3 measured
    flips.clear()
    run = DemoRun("bubbles", seed=7, out_dir=tmp_path, out=io.StringIO())
    try:
        run.app.step(force_draw=True)
        assert flips == []
    finally:
        run.end("winner: nobody")


def test_ui_bench_a_bad_size_is_one_line_and_status_2(capsys) -> None:
    from tabletop.ui.bench import main

    with pytest.raises(SystemExit) as exc:
        main(["--size", "800by480"])
    assert exc.value.code == 2 and "WIDTHxHEIGHT" in capsys.readouterr().err


def test_app_without_a_display_says_so_in_one_line(monkeypatch, capsys) -> None:
    monkeypatch.setattr(launch, "is_raspberry_pi", lambda: False)
    assert cli.main([]) == 2  # bare `tabletop`, SDL's dummy driver: no screen to show
    err = capsys.readouterr().err
    assert err.startswith("tabletop app: no display here") and err.count("\n") == 1


@pytest.mark.parametrize(
    ("option", "said"),
    [
        ("--pins", "tabletop app: cannot read pin map {}: No such file or directory"),
        ("--fleet", "tabletop app: the fleet file {} cannot be read: "),
    ],
)
def test_app_a_missing_file_is_named_before_the_display(
    option, said, monkeypatch, tmp_path, capsys
) -> None:
    """A file named on the command line is read before the display is looked for: a
    missing one is what the line says (it said "no display here")."""
    monkeypatch.setattr(launch, "is_raspberry_pi", lambda: False)
    missing = tmp_path / "missing.toml"
    assert cli.main(["app", option, str(missing)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(said.format(missing)) and err.count("\n") == 1


def test_app_fleet_file_is_read_once_and_the_one_checked_is_used(monkeypatch, tmp_path) -> None:
    """``--fleet F`` is read before the display (to refuse a bad one) and that reading is
    the one the app joins with: F changed while the window opens changes nothing (main:
    read again, so the file now broken left the station on its own, though it was
    checked)."""
    from tabletop.classroom.fleet.config import FleetConfig, free_port
    from tabletop.ui import app as ui_app

    fleet = tmp_path / "fleet.toml"
    fleet.write_text(FleetConfig("station-4", "127.0.0.1", free_port()).toml(), encoding="utf-8")
    opened = ui_app.open_window

    def open_window(*args, **kwargs):
        fleet.write_text("device = \n", encoding="utf-8")  # changed after the check
        return opened(*args, **kwargs)

    seen = {}
    original = ui_app.App.run

    def run(self, *, max_frames=None):
        seen["fleet"] = self.ctx.fleet
        return original(self, max_frames=max_frames)

    monkeypatch.setattr(ui_app, "open_window", open_window)
    monkeypatch.setattr(ui_app.App, "run", run)
    monkeypatch.setattr(launch, "is_raspberry_pi", lambda: False)
    argv = ["app", "--frames", "2", "--camera", "none", "--data", str(tmp_path)]
    assert cli.main([*argv, "--fleet", str(fleet)]) == 0
    assert seen["fleet"] is not None and seen["fleet"].link.device == "station-4"


@pytest.mark.skipif(launch.is_raspberry_pi(), reason="a Pi's console is a display")
@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["app"], "tabletop app: no display here (no DISPLAY, WAYLAND_DISPLAY or Raspberry Pi"),
        (["app", "--fleet", "missing.toml"], "tabletop app: the fleet file missing.toml "),
        (["demo", "--game", "mecs", "--log", "x.jsonl"], "tabletop demo: the mecs demo "),
    ],
)
def test_app_without_a_display_prints_its_one_line_alone(argv, said, tmp_path) -> None:
    """No pygame banner on stdout, no SDL "XDG_RUNTIME_DIR is invalid" line on stderr:
    the command's own line is all there is (a fresh process, with no display at all)."""
    done = fresh_tabletop(argv, tmp_path)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.startswith(said) and done.stderr.count("\n") == 1


def fresh_tabletop(argv: list[str], cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """``tabletop ARGV`` in a fresh process with no display (none of the variables that
    name one, no pygame settings), but for those in ``env``."""
    hidden = ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER", "XDG_RUNTIME_DIR")
    kept = {k: v for k, v in os.environ.items() if k not in hidden and "PYGAME" not in k}
    kept |= {"PYTHONPATH": str(Path(cli.__file__).parents[1]), **env}
    return subprocess.run(
        [sys.executable, "-m", "tabletop", *argv],
        cwd=cwd,
        env=kept,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.skipif(sys.platform != "linux", reason="X11's sockets, as on a Pi")
def test_app_display_set_with_no_x_answering_prints_its_one_line_alone(tmp_path) -> None:
    """``DISPLAY`` names an X server that does not run (a desktop's DISPLAY in an SSH
    session, a stopped X): the app's own line, what to do, and nothing from SDL (main:
    SDL's "XDG_RUNTIME_DIR is invalid" line first, as it tried Wayland, then "SDL's
    'offscreen' video driver")."""
    sockets = {p.name for p in Path("/tmp/.X11-unix").glob("X*")}
    number = next(n for n in range(87, 200) if f"X{n}" not in sockets)
    done = fresh_tabletop(["app", "--camera", "none"], tmp_path, DISPLAY=f":{number}")
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == (
        f"tabletop app: no display here (no X on DISPLAY=:{number}: start X or fix DISPLAY):"
        " `tabletop demo` plays without one\n"
    )


@pytest.mark.slow
def test_demo_mecs_challenge_mode_is_played(capsys) -> None:
    """`demo --game mecs --modes challenge` sets the challenge mode up (MECS-6) instead of
    quietly playing the normal one."""
    assert cli.main(["demo", "--game", "mecs", "--modes", "challenge", "--seed", "7"]) == 0
    out = capsys.readouterr().out
    assert "challenge mode" in out and "New objective:" in out
    assert out.strip().splitlines()[-1].startswith("winner:")


@pytest.mark.parametrize(
    ("game", "modes"),
    [("math-attack", "twins"), ("mecs", "twins"), ("mecs", "normal,challenge")],
)
def test_demo_modes_a_game_does_not_have_are_one_line_and_status_2(game, modes, capsys) -> None:
    """A mode the game's demo cannot play is refused in one line, never ignored."""
    assert cli.main(["demo", "--game", game, "--modes", modes, "--seed", "1"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "has no mode" in err and game in err


@pytest.mark.parametrize("game", ["math-attack", "math-wars-meta", "mecs", "math-arena", "bubbles"])
def test_demo_log_for_a_demo_without_one_is_one_line_and_status_2(game, tmp_path, capsys) -> None:
    """``--log`` for a demo that writes no game log is refused like ``--data`` and
    ``--child``, never ignored (the file was never written and the status was 0)."""
    log = tmp_path / "game.jsonl"
    assert cli.main(["demo", "--game", game, "--log", str(log), "--seed", "7"]) == 2
    captured = capsys.readouterr()
    assert (
        captured.err
        == f"tabletop demo: the {game} demo writes no game log: --log is for mathe-meister\n"
    )
    assert captured.out == "" and not log.exists()


def test_demo_data_that_cannot_be_written_ends_in_one_line_and_status_2(
    tmp_path, capsys, caplog, monkeypatch
) -> None:
    """A demo told to journal its game in ``--data`` that could not (a card that takes no
    writes; a folder that cannot be made is refused before the game: test_cli_outputs)
    played in memory and ended with status 0, and ``report`` then found no games. It
    still plays and prints, then says so in one line, status 2."""
    from tests.card import READ_ONLY, simulated_card

    simulated_card(monkeypatch).refuse = READ_ONLY
    data = tmp_path / "data"
    assert cli.main(["demo", "--game", "math-attack", "--seed", "1", "--data", str(data)]) == 2
    captured = capsys.readouterr()
    assert captured.out.splitlines()[-1].startswith("winner: ")
    assert captured.err == (
        f"tabletop demo: the game is not in the journal {data / 'tabletop.sqlite3'}: the SD "
        "card is read-only: games are not being saved\n"
    )


@pytest.mark.parametrize(
    ("extra", "words"),
    [
        (["--game", "mecs"], "no --game mecs"),
        (["--game", "bubbles"], "no --game bubbles"),
        (["--child"], "no --child"),
        (["--data", "/tmp/nowhere"], "no --data"),
    ],
)
def test_demo_terminal_refuses_what_the_text_game_cannot_do(extra, words, capsys) -> None:
    """``--terminal`` is the text Mathe-Meister: another game, ``--child`` or ``--data``
    is refused in one line (it played Mathe-Meister and said nothing)."""
    assert cli.main(["demo", "--terminal", "--seed", "1", *extra]) == 2
    captured = capsys.readouterr()
    err = captured.err.strip()
    assert len(err.splitlines()) == 1 and words in err and "--terminal" in err
    assert captured.out == ""
