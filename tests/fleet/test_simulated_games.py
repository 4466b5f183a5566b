"""The games a simulated station plays (``tabletop fleet simulate``): whole, seeded, and
set up as the teacher's plan sets up the station (its mode and preset options; an option
left to the group takes the game's setup-screen default)."""

from __future__ import annotations

import io
import threading
from pathlib import Path

import pytest

from tabletop.classroom.fleet import simulate
from tabletop.classroom.fleet.config import Broker
from tabletop.classroom.fleet.messages import PlanMessage, RosterMessage, RosterStudent
from tabletop.classroom.fleet.simulate import SimHost, play_bots
from tabletop.classroom.rotation import STATION_MODES, Plan, RotationClock, Station
from tabletop.games import GAMES
from tabletop.store import Journal
from tests.fleet.test_station import wait_for

EVERY_MODE = [Station(game, mode) for game, modes in STATION_MODES.items() for mode, _ in modes]


def test_every_game_has_its_modes_simulated() -> None:
    assert {station.game for station in EVERY_MODE} == set(GAMES)


@pytest.mark.parametrize("station", EVERY_MODE, ids=lambda s: f"{s.game}-{s.mode}")
def test_simulated_games_are_whole_and_seeded(station: Station) -> None:
    """Every game and mode a station can be planned for is played to its end by bots,
    and the same seed plays the same game."""
    played = play_bots(station, 11)
    match = played.match
    assert match.result() is not None and match.game.is_over(match.state)
    assert match.game.name == station.game
    assert len(played.bots) == match.seats
    assert play_bots(station, 11).match.history == match.history


def test_the_station_mode_sets_the_game_up() -> None:
    assert play_bots(Station("mathe-meister", "twins"), 1).match.settings.modes == ("twins",)
    solo = play_bots(Station("mathe-meister", "black_hole"), 1).match  # a solo mode: one seat
    assert solo.seats == 1 and solo.settings.modes == ("black_hole",)
    teams = play_bots(Station("math-wars-meta", "teams"), 1).match
    assert teams.seats == 4 and teams.settings.teams == ((0, 1), (2, 3))
    assert teams.settings.edition == "MWM25"  # the setup screen's default edition
    assert play_bots(Station("math-wars-meta", "solo"), 1).match.seats == 1
    challenge = play_bots(Station("mecs", "challenge"), 1).match
    # Challenge mode needs the advanced deck (MECS-6); the setup screen switches to it.
    assert (challenge.settings.mode, challenge.settings.deck) == ("challenge", "advanced")
    normal = play_bots(Station("mecs", "normal"), 1).match
    assert (normal.settings.mode, normal.settings.deck) == ("normal", "beginners")


@pytest.mark.slow
def test_the_station_options_set_the_game_up() -> None:
    assert (
        play_bots(Station("math-wars-meta", "pvp", {"edition": "MWM100"}), 2).match.settings.edition
        == "MWM100"
    )
    assert play_bots(Station("mecs", "normal", {"deck": "advanced"}), 2).match.settings.deck == (
        "advanced"
    )
    assert play_bots(Station("math-arena", "virtual", {"level": "hard"}), 2).bots == ("hard",) * 3
    assert play_bots(Station("math-arena", "cards"), 2).bots == ("easy",) * 3


def test_mecs12_station_plays_its_bots_at_the_planned_level() -> None:
    assert play_bots(Station("mecs", "normal", {"level": "medium"}), 2).bots == ("medium",) * 2
    assert play_bots(Station("mecs", "normal"), 2).bots == ("easy",) * 2  # as the setup starts


def test_math_attack_against_the_device_has_the_device_bot_at_the_planned_level() -> None:
    played = play_bots(Station("math-attack", "bot", {"level": "medium"}), 3)
    assert played.bots == ("easy", "medium")
    assert played.device == {1: "Bot (Medium)"}  # as the app names its bot
    assert play_bots(Station("math-attack", "bot"), 3).device == {1: "Bot (Easy)"}
    table = play_bots(Station("math-attack", "table"), 3)  # two children at the table
    assert table.bots == ("easy", "random") and table.device == {}


def test_a_simulated_station_journals_its_planned_game_and_seats(tmp_path: Path) -> None:
    """A station planned for Math Wars Meta in teams plays four seats, named after the
    group; one planned for Math Attack! against the device names the device's bot."""
    plan = Plan(
        (
            Station("math-attack", "bot", {"level": "hard"}),
            Station("math-wars-meta", "teams", {"edition": "MWM100"}),
        ),
        ("Red", "Blue"),
    )
    t0 = 1_700_000_000.0
    for station, seats in (
        (1, ["Blue A", "Blue B", "Blue C", "Blue D"]),
        (0, ["Red A", "Bot (Hard)"]),
    ):
        journal = Journal(tmp_path / f"station-{station}.sqlite3")
        host = SimHost(journal, seed=5, game_seconds=60, wall=lambda: t0 + 30)
        try:
            host.follow(PlanMessage("p1", "s1", plan, {}, t0), station, RotationClock(plan, t0))
            wait_for(lambda host=host: host.game is not None, host.tick)
            (saved,) = journal.matches()
            assert saved.game == plan.stations[station].game
            assert [seat.name for seat in journal.seats(saved.id)] == seats
            match = journal.load(saved.id, GAMES)
            if station == 1:
                assert match.settings.edition == "MWM100"
        finally:
            host.stop()
            journal.close()


def test_simulated_station_counts_one_student_in_words(tmp_path: Path) -> None:
    lines: list[str] = []
    journal = Journal(tmp_path / "station-1.sqlite3")
    host = SimHost(journal, say=lines.append)
    try:
        host.roster(RosterMessage((RosterStudent("s1", "Ana"),), 0.0))
    finally:
        host.stop()
        journal.close()
    assert lines == ["roster 1 student (not kept by a simulation)"]


def test_simulated_station_last_line_counts_one_game_and_one_result_in_words(
    broker: Broker, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The line a simulated station ends with, after one game whose result (here one
    unreadable result, ``--poison 1``) never reached the console: the broker is down."""
    stop = threading.Event()

    class OneGame(SimHost):
        def tick(self) -> None:
            self.finished = 1
            stop.set()

    monkeypatch.setattr(simulate, "SimHost", OneGame)
    config = broker.provisioned.config("station-1")
    broker.stop()
    out = io.StringIO()
    assert simulate.run_simulation(config, tmp_path / "sim", out=out, stop=stop, poison=1) == 0
    assert out.getvalue() == (
        "station-1: 1 game finished here, 1 result not yet stored by the console, 0 refused by it\n"
    )
