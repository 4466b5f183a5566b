"""The one demo harness's shared pieces (issue 21): what the six demos did each on their
own (the seed, camera readings, the number pad, the journal's left-over game, the clock,
the results check) is :mod:`tabletop.ui.harness`'s."""

from __future__ import annotations

import io
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tabletop.engine.errors import TabletopError
from tabletop.ui.harness import (
    DemoClock,
    DemoRun,
    cards_seen,
    draw_seed,
    left_over_by,
    scene_of,
    type_number,
)


@dataclass
class FakeSaved:
    id: int
    game: str
    session: str
    meta: dict[str, Any] = field(default_factory=dict)


class FakeJournal:
    """Unfinished games newest first, what was marked abandoned, and which games do not
    replay."""

    def __init__(self, *saved: FakeSaved, broken: tuple[int, ...] = ()) -> None:
        self.saved = list(saved)
        self.abandoned: list[int] = []
        self.broken = broken

    def unfinished(self, label: str) -> list[FakeSaved]:
        return list(self.saved)

    def load(self, match_id: int, games: Any) -> object:
        if match_id in self.broken:
            raise TabletopError("journal.broken", f"game {match_id} does not replay")
        return object()

    def finish(self, match_id: int, result: Any, *, reason: str, status: str) -> None:
        assert (reason, status) == ("abandoned", "abandoned")
        self.abandoned.append(match_id)


@dataclass
class FakeCtx:
    journal: FakeJournal
    session: str = "demo 7"


def test_harness_draw_seed_keeps_a_given_seed_and_draws_one_when_none() -> None:
    assert draw_seed(7) == 7
    assert draw_seed(0) == 0
    assert 0 <= draw_seed(None) < 10**6


def test_harness_cards_seen_reads_the_codes_left_to_right_in_the_zone() -> None:
    seen = cards_seen(2, "line", ["C3", "C9"], 12.5)
    assert (seen.seat, seen.area, seen.codes, seen.at) == (2, "line", ("C3", "C9"), 12.5)
    assert all((c.seat, c.area) == (2, "line") for c in seen.cards)
    alone = cards_seen(None, None, ("EQ",), 0.0)  # a card held up alone
    assert (alone.seat, alone.area, alone.codes) == (None, None, ("EQ",))


@pytest.mark.parametrize(
    ("value", "taps"),
    [
        (0, ["num.0", "ok"]),
        (42, ["num.4", "num.2", "ok"]),
        (-13, ["num.1", "num.3", "num.minus", "ok"]),
    ],
)
def test_harness_type_number_taps_digits_then_minus_then_ok(value: int, taps: list[str]) -> None:
    tapped: list[str] = []
    type_number(tapped.append, value)
    assert tapped == taps


def test_harness_left_over_keeps_the_demos_game_and_abandons_the_rest() -> None:
    journal = FakeJournal(
        FakeSaved(5, "mecs", "demo 7", {"app": {"demo": "other"}}),
        FakeSaved(4, "mecs", "demo 7", {"app": {"demo": "mine"}}),
        FakeSaved(3, "mecs", "demo 7", {"app": {"demo": "mine"}}),  # older: abandoned
        FakeSaved(2, "bubbles", "demo 7", {"app": {"demo": "mine"}}),  # another game
        FakeSaved(1, "mecs", "demo 7", {"app": None}),  # no app record at all
    )
    kept = left_over_by("mecs", app=lambda app: app.get("demo") == "mine")(FakeCtx(journal))
    assert kept is not None and kept.id == 4
    assert journal.abandoned == [5, 3, 2, 1]


def test_harness_left_over_that_does_not_replay_starts_the_demo_again() -> None:
    journal = FakeJournal(FakeSaved(3, "mecs", "demo 7"), FakeSaved(2, "mecs", "x"), broken=(3,))
    assert left_over_by("mecs")(FakeCtx(journal)) is None
    assert journal.abandoned == [2]


def test_harness_left_over_same_session_wants_the_demos_session() -> None:
    journal = FakeJournal(FakeSaved(2, "math-arena", "demo 8"), FakeSaved(1, "math-arena", "x"))
    find = left_over_by("math-arena", same_session=True)
    assert find(FakeCtx(journal, session="demo 9")) is None
    assert journal.abandoned == [2, 1]
    journal = FakeJournal(FakeSaved(2, "math-arena", "demo 8"), FakeSaved(1, "math-arena", "x"))
    assert find(FakeCtx(journal, session="demo 8")).id == 2


def test_harness_demo_run_waits_on_its_clock_and_says_its_lines(tmp_path: Path) -> None:
    clock, out = DemoClock(), io.StringIO()
    run = DemoRun("bubbles", seed=7, out_dir=tmp_path, out=out, data=tmp_path, clock=clock)
    try:
        run.wait(2.5)
        assert clock() == 1002.5
        run.intro("Bubble game", "one round")
        run.carrying_on("round 2.")
        assert out.getvalue().splitlines() == [
            "Bubble game in the touchscreen app, offscreen (800x480): one round",
            f"Carrying on from the journal in {tmp_path}: round 2.",
        ]
    finally:
        run.end("winner: nobody")


def test_harness_results_and_scene_of_say_what_is_not_on_the_screen(tmp_path: Path) -> None:
    from tabletop.ui.results import GameResults

    run = DemoRun("bubbles", seed=7, out_dir=tmp_path, out=io.StringIO())
    try:
        with pytest.raises(RuntimeError, match="did not reach the results screen"):
            run.results()  # Home is on the screen
        with pytest.raises(RuntimeError, match="no GameResults on the screen"):
            scene_of(run.app, GameResults)
        with pytest.raises(AssertionError, match="DemoClock"):
            run.wait(1.0)  # a run without a DemoClock cannot move time on
    finally:
        run.end("winner: nobody")


def test_harness_loads_no_games_bot() -> None:
    """Every game's demo imports the harness: it taps, and leaves playing Mathe-Meister
    by its hint bot to that game's own tapper (ui/games/mathe_meister/autoplay.py)."""
    code = "import sys, tabletop.ui.harness; print(sorted(m for m in sys.modules if 'bots' in m))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.splitlines()[-1] == "[]"
