"""Station rotations: the plan, the clock driven by injected times, storing it."""

from __future__ import annotations

import json

import pytest

from tabletop.classroom.rotation import (
    STATION_MODES,
    STATION_OPTIONS,
    Plan,
    RotationClock,
    Station,
    last_plan,
    running_rotation,
    save_clock,
    start_rotation,
)
from tabletop.engine.errors import BadInput
from tabletop.games import GAMES
from tabletop.store import Journal

T0 = 1_700_000_000.0  # a wall-clock start (epoch seconds)
MIN = 60.0


def plan(**kw) -> Plan:
    stations = kw.pop(
        "stations",
        (
            Station("mathe-meister"),
            Station("math-wars-meta", "teams"),
            Station("math-arena"),
            Station("mecs", "challenge"),
        ),
    )
    groups = kw.pop("groups", ("Red", "Blue", "Green"))
    return Plan(stations, groups, **kw)


def state(clock: RotationClock, t: float) -> tuple[int, str, float]:
    m = clock.now(t)
    return m.rotation, m.phase, round(m.seconds_left, 6)


# -- the plan -------------------------------------------------------------------------------


def test_plan_defaults_are_15_1_1_and_one_rotation_per_station() -> None:
    p = plan()
    assert (p.minutes, p.transition, p.warning) == (15, 1, 1)
    assert p.count == 4
    assert plan(rotations=2).count == 2


def test_plan_station_defaults_name_and_mode() -> None:
    s = Station("math-wars-meta")
    assert s.name == "Math Wars Meta" and s.mode == "pvp" and s.mode_name == "Players"
    assert Station("mecs", "challenge", name="Table 4").name == "Table 4"
    assert set(STATION_MODES) == set(GAMES)


def test_plan_station_options_are_the_setup_screens_own() -> None:
    assert set(STATION_OPTIONS) == set(GAMES)
    s = Station("mecs", options={"deck": "beginners"})
    assert s.option_names == ["Deck: Beginners"]
    assert Station("math-arena", options={"level": "hard"}).option_names == ["Bots: Hard bots"]
    medium = Station("mecs", options={"level": "medium"})  # MECS-12
    assert medium.option_names == ["Bots: Medium bots"]
    assert Station.from_json(s.to_json()) == s
    with pytest.raises(BadInput, match=r"M\.E\.C\.S\. has no option 'edition': choose from deck"):
        Station("mecs", options={"edition": "MWM25"})
    with pytest.raises(BadInput, match="Mathe-Meister has no option 'deck': it has none"):
        Station("mathe-meister", options={"deck": "advanced"})
    with pytest.raises(BadInput, match="level cannot be 'expert': choose one of easy, medium"):
        Station("math-attack", "bot", options={"level": "expert"})
    with pytest.raises(BadInput, match="level is for the mode 'Against the device'"):
        Station("math-attack", "table", options={"level": "hard"})  # no bot to set
    with pytest.raises(BadInput, match="play it with the advanced deck") as err:  # MECS-6
        Station("mecs", "challenge", options={"deck": "beginners"})
    assert err.value.code == "rotation.options"


def test_rotation_plan_read_by_a_station_keeps_it_without_options_it_does_not_know() -> None:
    """A newer console may preset an option (or a value) this version does not know: read
    with an ``ignored`` list (a station), the plan is kept without it and its key listed
    by station; read without one (the dashboard's editor), it is refused as before. An
    option with a value of the wrong mode or deck is still refused (not a newer one)."""
    data = {
        "stations": [
            {"game": "mecs", "options": {"deck": "beginners"}},
            {"game": "math-arena", "options": {"level": "hard", "sparkle": "on", "target": "99"}},
            {"game": "math-attack", "options": {"level": ["hard"]}},
        ],
        "groups": ["Red"],
    }
    ignored: dict[int, list[str]] = {}
    read = Plan.from_json(data, ignored)
    assert [s.options for s in read.stations] == [{"deck": "beginners"}, {"level": "hard"}, {}]
    assert ignored == {0: [], 1: ["sparkle", "target"], 2: ["level"]}
    with pytest.raises(BadInput, match="Math Arena has no option 'sparkle'"):
        Plan.from_json(data)
    wrong_mode = {"stations": [{"game": "math-attack", "options": {"level": "hard"}}]}
    with pytest.raises(BadInput, match="level is for the mode 'Against the device'"):
        Plan.from_json({**wrong_mode, "groups": ["Red"]}, {})


def test_plan_station_name_is_tidied_and_must_fit_the_screen() -> None:
    assert Station("mecs", name="  Quiet   corner ").name == "Quiet corner"
    assert Station("mecs", name="   ").name == "M.E.C.S."
    assert Station("mecs", name="x" * 30).name == "x" * 30
    with pytest.raises(BadInput) as err:
        Station("mecs", name="The table by the window next to the door")
    assert err.value.code == "rotation.name"
    assert "40 letters long; at most 30 fit" in err.value.message


def test_plan_who_is_where_every_group_visits_every_station() -> None:
    p = plan()
    # rotation 0: Red at 1, Blue at 2, Green at 3, station 4 rests
    assert [p.group_at(s, 0) for s in range(4)] == ["Red", "Blue", "Green", None]
    assert [p.group_at(s, 1) for s in range(4)] == [None, "Red", "Blue", "Green"]
    for g in p.groups:
        assert sorted(p.station_of(g, r) for r in range(p.count)) == [0, 1, 2, 3]
    for r in range(p.count):
        for g in p.groups:
            assert p.group_at(p.station_of(g, r), r) == g
    assert p.group_at(0, 4) is None and p.station_of("Red", 4) is None
    assert p.station_title(2) == "Station 3 \u2014 Math Arena"


@pytest.mark.parametrize(
    ("kw", "code", "words"),
    [
        ({"stations": ()}, "rotation.no_stations", "no stations"),
        ({"groups": ()}, "rotation.no_groups", "no groups"),
        ({"groups": ("A", "B", "C", "D", "E")}, "rotation.too_many_groups", "add a station"),
        ({"groups": ("A", "A")}, "rotation.group_twice", "'A'"),
        ({"groups": ("A", " ")}, "rotation.group_name", "needs a name"),
        ({"minutes": 0}, "rotation.minutes", "from 1 to 90"),
        ({"minutes": 91}, "rotation.minutes", "not 91"),
        ({"minutes": 2.5}, "rotation.minutes", "whole number"),
        ({"transition": -1}, "rotation.transition", "change stations"),
        ({"warning": 11}, "rotation.warning", "warning"),
        ({"minutes": 2, "warning": 2}, "rotation.warning", "before the end"),
        ({"rotations": 5}, "rotation.rotations", "from 1 to 4"),
        ({"rotations": 0}, "rotation.rotations", "not 0"),
    ],
)
def test_plan_validation_says_what_is_wrong(kw, code, words) -> None:
    with pytest.raises(BadInput) as err:
        plan(**kw)
    assert err.value.code == code
    assert words in err.value.message


def test_plan_unknown_game_and_mode_are_refused() -> None:
    with pytest.raises(BadInput, match="unknown game 'chess'") as err:
        Station("chess")
    assert "math-arena" in err.value.message
    with pytest.raises(BadInput, match="no mode 'teams'"):
        Station("mecs", "teams")
    with pytest.raises(BadInput, match="JSON"):
        Station("mecs", options={"x": object()})


def test_plan_json_round_trip() -> None:
    p = plan(
        stations=(
            Station("mecs", "challenge", {"deck": "advanced"}, "Equations"),
            Station("math-attack"),
        ),
        groups=("Red", "Blue"),
        minutes=12,
        transition=2,
        warning=3,
        rotations=1,
    )
    text = json.dumps(p.to_json())
    again = Plan.from_json(json.loads(text))
    assert again == p
    assert again.stations[0].options == {"deck": "advanced"}


def test_plan_from_bad_json_is_bad_input() -> None:
    for data in ([], {"stations": "x", "groups": []}, {"stations": [{}], "groups": ["A"]}):
        with pytest.raises(BadInput):
            Plan.from_json(data)


# -- the clock ------------------------------------------------------------------------------


def test_clock_phases_play_warning_transition_done() -> None:
    c = RotationClock(plan(), T0)
    assert state(c, T0) == (0, "play", 14 * MIN)
    assert c.now(T0).play_left == 15 * MIN
    assert c.now(T0).countdown() == "15:00"
    assert state(c, T0 + 13 * MIN + 59) == (0, "play", 1)
    assert state(c, T0 + 14 * MIN) == (0, "warning", 60)
    assert c.now(T0 + 14 * MIN + 30.5).countdown() == "00:30"
    assert state(c, T0 + 15 * MIN) == (0, "transition", 60)
    assert state(c, T0 + 16 * MIN) == (1, "play", 14 * MIN)
    # 4 rotations of 15 min with 3 transitions of 1 min: done at 63 min
    assert state(c, T0 + 62 * MIN) == (3, "warning", 60)
    assert c.now(T0 + 63 * MIN).phase == "done"
    assert c.now(T0 + 500 * MIN).done
    assert state(c, T0 - 100) == (0, "play", 14 * MIN)  # before the start: not started


def test_clock_no_warning_and_no_transition() -> None:
    c = RotationClock(plan(warning=0, transition=0, rotations=2, minutes=5), T0)
    assert state(c, T0 + 4 * MIN + 59) == (0, "play", 1)
    assert state(c, T0 + 5 * MIN) == (1, "play", 5 * MIN)
    assert c.now(T0 + 10 * MIN).done


def test_clock_who_is_where_now() -> None:
    c = RotationClock(plan(), T0)
    m = c.now(T0 + 60)
    assert m.group_at(1) == "Blue" and m.next_station("Blue") == 2
    assert m.seated == 0
    t = c.now(T0 + 15 * MIN + 10)  # transition: the arriving group
    assert t.phase == "transition" and t.group_at(1) == "Red"
    assert (t.rotation, t.seated) == (0, 1)  # the groups at the stations: the coming ones
    last = c.now(T0 + 50 * MIN)
    assert last.rotation == 3 and last.next_station("Red") is None
    assert c.now(T0 + 99 * MIN).group_at(1) is None


def test_clock_pause_stops_the_countdown_and_resume_carries_on() -> None:
    c = RotationClock(plan(), T0)
    p = c.pause(T0 + 5 * MIN)
    assert p.now(T0 + 5 * MIN).paused
    assert state(p, T0 + 30 * MIN) == (0, "play", 9 * MIN)  # frozen at 10:00 left
    assert p.now(T0 + 30 * MIN).countdown() == "10:00"
    r = p.resume(T0 + 30 * MIN)
    assert not r.now(T0 + 30 * MIN).paused
    assert state(r, T0 + 31 * MIN) == (0, "play", 8 * MIN)
    assert state(r, T0 + 40 * MIN) == (0, "transition", 60)  # 25 min pause pushed it back
    # pausing twice, resuming twice: no change
    assert p.pause(T0 + 6 * MIN) is p
    assert r.resume(T0 + 35 * MIN) is r
    assert c.resume(T0) is c


def test_clock_pause_during_transition_and_several_pauses() -> None:
    c = RotationClock(plan(), T0)
    c = c.pause(T0 + MIN).resume(T0 + 2 * MIN).pause(T0 + 15.5 * MIN)
    c = c.resume(T0 + 20 * MIN)
    # 1 min paused in play, then the pause at 15.5 (active 14.5: still in the warning)
    assert state(c, T0 + 20 * MIN) == (0, "warning", 30)
    assert state(c, T0 + 20.5 * MIN) == (0, "transition", 60)


def test_clock_extend_adds_a_minute_to_the_running_phase() -> None:
    c = RotationClock(plan(), T0)
    e = c.extend(T0 + 14.5 * MIN)  # in the warning: 1.5 min left now, so back to play
    assert state(e, T0 + 14.5 * MIN) == (0, "play", 30)
    assert e.now(T0 + 14.5 * MIN).countdown() == "01:30"
    assert state(e, T0 + 16 * MIN) == (0, "transition", 60)
    e2 = e.extend(T0 + 16.5 * MIN, minutes=2)  # in the transition: 2 more minutes to move
    assert state(e2, T0 + 16.5 * MIN) == (0, "transition", 150)
    assert state(e2, T0 + 19 * MIN) == (1, "play", 14 * MIN)
    with pytest.raises(BadInput):
        c.extend(T0, minutes=0)
    with pytest.raises(BadInput):
        c.extend(T0, minutes=31)


def test_clock_extend_while_paused() -> None:
    c = RotationClock(plan(), T0).pause(T0 + 10 * MIN).extend(T0 + 12 * MIN)
    assert c.now(T0 + 12 * MIN).countdown() == "06:00"
    c = c.resume(T0 + 20 * MIN)
    assert c.now(T0 + 26 * MIN).phase == "transition"


def test_clock_skip_ends_the_phase_now() -> None:
    c = RotationClock(plan(), T0)
    s = c.skip(T0 + 3 * MIN)  # time is up at 3 min
    assert state(s, T0 + 3 * MIN) == (0, "transition", 60)
    assert state(s, T0 + 4 * MIN) == (1, "play", 14 * MIN)
    s2 = s.skip(T0 + 3.5 * MIN)  # skip the transition too
    assert state(s2, T0 + 3.5 * MIN) == (1, "play", 14 * MIN)
    assert s2.now(T0 + 3.5 * MIN + 15 * MIN).phase == "transition"
    # a skip while paused ends the phase where the pause stopped it
    p = c.pause(T0 + 2 * MIN).skip(T0 + 5 * MIN).resume(T0 + 6 * MIN)
    assert state(p, T0 + 6 * MIN) == (0, "transition", 60)
    # skipping the last rotation ends it all
    last = c.skip(T0 + 49 * MIN)
    assert last.now(T0 + 49 * MIN).done


def test_clock_end_stops_everything() -> None:
    c = RotationClock(plan(), T0).end(T0 + 20 * MIN)
    assert c.now(T0 + 19 * MIN).rotation == 1
    assert c.now(T0 + 20 * MIN).done
    assert c.end(T0 + 30 * MIN) is c
    assert c.pause(T0 + 30 * MIN) is c
    assert c.skip(T0 + 30 * MIN) is c
    assert c.extend(T0 + 30 * MIN) is c


def test_clock_json_round_trip_keeps_every_operation() -> None:
    p = plan()
    c = (
        RotationClock(p, T0)
        .pause(T0 + MIN)
        .resume(T0 + 2 * MIN)
        .extend(T0 + 3 * MIN, 2)
        .skip(T0 + 4 * MIN)
        .pause(T0 + 4.5 * MIN)
    )
    text = json.dumps(c.to_json())
    assert "stations" not in text  # the plan travels on its own
    again = RotationClock.from_json(json.loads(text), Plan.from_json(p.to_json()))
    assert again == c
    for t in range(0, 80 * 60, 37):
        assert again.now(T0 + t) == c.now(T0 + t)
    with pytest.raises(BadInput):
        RotationClock.from_json({"pauses": []}, p)
    with pytest.raises(BadInput):
        RotationClock.from_json({"started_at": T0, "skips": [[0, "lunch", T0]]}, p)


# -- storing --------------------------------------------------------------------------------


def test_store_round_trip_survives_a_new_journal(tmp_path) -> None:
    path = tmp_path / "tabletop.sqlite3"
    journal = Journal(path)
    assert running_rotation(journal) is None
    stored = start_rotation(journal, plan(), 1, session="2024-05-02", now=lambda: T0)
    clock = stored.clock.pause(T0 + 5 * MIN).resume(T0 + 7 * MIN).extend(T0 + 8 * MIN)
    save_clock(journal, stored.id, clock)
    journal.close()

    again = running_rotation(Journal(path))  # the device rebooted
    assert again is not None
    assert (again.id, again.station, again.session) == (stored.id, 1, "2024-05-02")
    assert again.plan == plan()
    assert again.clock == clock
    assert again.clock.now(T0 + 17 * MIN).countdown() == "01:00"
    assert last_plan(Journal(path)) == plan()


def test_store_finished_rotation_is_not_running(tmp_path) -> None:
    journal = Journal(tmp_path / "j.sqlite3")
    stored = start_rotation(journal, plan(), 0, now=lambda: T0)
    save_clock(journal, stored.id, stored.clock.end(T0 + 1), status="finished")
    assert running_rotation(journal) is None


def test_store_new_rotation_stops_the_old_one(tmp_path) -> None:
    journal = Journal(tmp_path / "j.sqlite3")
    first = start_rotation(journal, plan(), 0, now=lambda: T0)
    second = start_rotation(journal, plan(minutes=10), 2, now=lambda: T0 + 5)
    found = running_rotation(journal)
    assert found is not None and found.id == second.id != first.id
    assert found.plan.minutes == 10 and found.station == 2


def test_store_station_outside_the_plan_is_refused(tmp_path) -> None:
    with pytest.raises(BadInput, match="cannot be station 5"):
        start_rotation(Journal(":memory:"), plan(), 4)


def test_store_unreadable_row_is_marked_broken(tmp_path) -> None:
    journal = Journal(tmp_path / "j.sqlite3")
    stored = start_rotation(journal, plan(), 0, now=lambda: T0)
    with journal.transaction() as db:
        db.execute("UPDATE rotations SET clock = '{\"nope\": 1}' WHERE id = ?", (stored.id,))
    assert running_rotation(journal) is None
    (status,) = journal.db.execute(
        "SELECT status FROM rotations WHERE id = ?", (stored.id,)
    ).fetchone()
    assert status == "broken"


def test_rotation_one_station_is_one_station_not_stations() -> None:
    with pytest.raises(BadInput, match="there are 2 groups but only 1 station: add a station"):
        plan(stations=(Station("mathe-meister"),), groups=("A", "B"))
    one = plan(stations=(Station("mathe-meister"),), groups=("A",))
    with pytest.raises(BadInput, match=r"the plan has 1 station$"):
        start_rotation(Journal(":memory:"), one, 1)


@pytest.mark.parametrize(
    ("field", "words"),
    [
        ("minutes", "minutes per rotation is empty: put in a whole number from 1 to 90"),
        ("transition", "minutes to change stations is empty: put in a whole number from 0 to 10"),
        ("warning", "warning minutes is empty: put in a whole number from 0 to 10"),
    ],
)
def test_rotation_plan_field_posted_as_null_says_which_is_empty(field, words) -> None:
    """The dashboard posts an emptied number box as null: name the box, never "not None"."""
    body = plan().to_json() | {field: None}
    with pytest.raises(BadInput) as err:
        Plan.from_json(body)
    assert err.value.code == f"rotation.{field}"
    assert err.value.message == words
    clock = RotationClock(plan(), T0)
    with pytest.raises(BadInput, match="the extra minutes is empty: put in a whole number"):
        clock.extend(T0, None)  # type: ignore[arg-type]
