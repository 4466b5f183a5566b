"""The card camera: the real vision pipeline's card readings as ``CardsSeen`` events,
each zone named as the card games' scenes name it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from tabletop.ui.camera import CardCamera, seat_area
from tabletop.ui.input import CardsSeen


@pytest.mark.parametrize(
    ("game", "seat", "area", "expected"),
    [
        ("math-wars-meta", 2, "battle_pile", (2, "battle")),
        ("mecs", 3, "equation_area", (3, "equation")),
        ("math-arena", 1, "reveal_spot", (1, "reveal")),
        ("math-arena", 0, "operator_card", (None, "operator")),
        ("math-attack", 0, "number_line_a", (1, "line")),
        ("math-attack", 0, "number_line_b", (2, "line")),
        # without mats a seat's slice of the table is the game's one reading area
        ("math-wars-meta", 1, "table", (1, "battle")),
        ("math-attack", 2, "table", (2, "line")),
        ("mecs", 4, "table", (4, "equation")),
        ("math-arena", 2, "table", (2, "reveal")),
        ("mecs", 1, "hand", (1, "hand")),
    ],
)
def test_card_camera_names_zones_as_the_games_do(
    game: str, seat: int, area: str, expected: tuple[int | None, str | None]
) -> None:
    assert seat_area(game, seat, area) == expected


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        self.now += 0.05
        return self.now


def test_card_camera_reads_each_seats_cards_left_to_right_without_mats(
    tmp_path: Path,
) -> None:
    import cv2

    from vision.simulate import table_frame
    from vision.sources import ImageFolderSource

    # Two seats (left and right halves of the table), two M.E.C.S. cards in each.
    payloads = ["MT1:MECS:7", "MT1:MECS:+", "MT1:MECS:3", "MT1:MECS:="]
    frame, placed = table_frame(payloads, np.random.default_rng(3), (1920, 1080), "clean")
    cv2.imwrite(str(tmp_path / "table.png"), frame)
    events: list[Any] = []
    camera = CardCamera(
        lambda: ImageFolderSource(tmp_path, loop=True),
        events.append,
        game="mecs",
        seats=2,
        threaded=False,
        clock=Clock(),
        max_frames=12,
    )
    camera.start()
    assert camera.available, camera.error
    assert len(events) == 1 and isinstance(events[0], CardsSeen)
    seen = events[0]
    assert seen.area == "equation" and seen.seat in (1, 2)
    assert all(c.seat == seen.seat and c.area == "equation" for c in seen.cards)
    assert len(seen.crops) == len(seen.cards) >= 1
    # the zone's cards, left to right in the frame
    from vision.cards import parse_payload

    half = 1920 / 2
    mine = sorted(
        (p for p in placed if (p.centre[0] < half) == (seen.seat == 1)),
        key=lambda p: p.centre[0],
    )
    assert len(mine) == 2
    assert list(seen.codes) == [parse_payload(p.payload)[0].code for p in mine]  # type: ignore[union-attr]


def test_card_camera_that_cannot_open_says_so_and_sends_nothing() -> None:
    from tabletop.engine.errors import DeviceError

    def broken() -> Any:
        raise DeviceError("vision.camera_missing", "no camera at index 0")

    events: list[Any] = []
    camera = CardCamera(broken, events.append, game="math-arena", seats=2, threaded=False)
    camera.start()
    assert not camera.available and "no camera" in (camera.error or "")
    assert events == []


def test_card_camera_factory_with_no_camera_is_none() -> None:
    from tabletop.ui.launch import make_cameras

    assert make_cameras("none", lambda e: None, on_pi=False) == (None, None)


def test_card_camera_factory_over_a_photo_folder_builds_a_camera_per_game(tmp_path: Path) -> None:
    from tabletop.ui.camera import PipelineCamera
    from tabletop.ui.launch import make_cameras

    dice, factory = make_cameras(str(tmp_path), lambda e: None, on_pi=False)
    assert isinstance(dice, PipelineCamera) and factory is not None
    camera = factory("math-arena", 4)
    assert isinstance(camera, CardCamera) and (camera.game, camera.seats) == ("math-arena", 4)


class FakeCamera:
    def __init__(self, game: str, seats: int) -> None:
        self.game, self.seats = game, seats
        self.started = self.stopped = 0

    def start(self) -> None:
        self.started += 1

    def stop(self) -> None:
        self.stopped += 1


def card_table(ctx: Any, game: str, *, real: bool) -> Any:
    """Three children at ``game``'s table (two at Math Attack!), with real cards or not."""
    if game == "math-attack":
        from tabletop.ui.games.math_attack import AttackScene

        return AttackScene(ctx, seed=1, bot=None if real else "easy")
    if game == "math-arena":
        from tabletop.ui.games.math_arena import ArenaScene

        seats = [("Ana", False), ("Bo", False), ("Cy", False)]
        return ArenaScene(ctx, seats, {"cards": "table" if real else "virtual", "seed": 1})
    if game == "mecs":
        from tabletop.games.mecs import MecsSettings
        from tabletop.ui.games.mecs.table import MecsTable

        settings = MecsSettings(play="camera" if real else "virtual")
        return MecsTable(
            ctx, seats=[("Ana", False), ("Bo", False), ("Cy", False)], settings=settings
        )
    from tabletop.ui.games.math_wars_meta.setup import Choices, make_game

    who = ["real" if real else "virtual"] * 3 + ["real"] * 5
    return make_game(ctx, Choices(players=3, who=who), 1)


@pytest.mark.parametrize("game", ["math-attack", "math-arena", "mecs", "math-wars-meta"])
def test_card_games_read_the_table_while_played_with_real_cards(game: str) -> None:
    """The game screen starts the card camera for its zones and stops it on leaving;
    with the cards on the screen there is no camera."""
    from tests.ui.scenery import make_app

    made: list[FakeCamera] = []

    def factory(g: str, seats: int) -> FakeCamera:
        made.append(FakeCamera(g, seats))
        return made[-1]

    ctx = make_app().ctx
    ctx.card_camera = factory
    ctx.stack.push(card_table(ctx, game, real=True))
    assert [(c.game, c.seats, c.started) for c in made] == [
        (game, 2 if game == "math-attack" else 3, 1)
    ]
    ctx.stack.pop()
    assert made[0].stopped == 1
    ctx.stack.push(card_table(ctx, game, real=False))
    ctx.stack.pop()
    assert len(made) == 1


CARD_GAMES = [  # a game started with real cards by taps, and a zone of its camera
    ("math-wars-meta", ("start",), 1, "battle", "MWM", "C10:1"),
    ("math-attack", ("first.0", "start"), 1, "line", "ATK", "+7"),
    ("mecs", ("seat.1", "choice.child", "cards.real", "start"), 1, "equation", "MECS", "3"),
    ("math-arena", ("cards.real", "start"), None, "operator", "ARENA", "KD"),
]


@pytest.mark.parametrize(("game", "taps", "seat", "area", "kind", "card"), CARD_GAMES)
def test_card_games_say_a_card_seen_twice_as_such(
    game: str, taps: tuple[str, ...], seat: int | None, area: str, kind: str, card: str
) -> None:
    """Walk 30 (cards2.py): the pipeline's "same card seen twice" flag ("!"+payload,
    DESIGN.md: flagged) was read as a card of another game ("…not a Math Wars Meta
    card. Take it off the battle pile." for its own card). Every card game says so in
    its own sentence, and nothing is played."""
    from tests.ui.game_scenery import setup, show_cards
    from tests.ui.scenery import make_app

    app = make_app()
    setup(app, game, *taps)
    table = app.stack.top
    before = table.match.history
    show_cards(app, seat, area, (f"!MT1:{kind}:{card}",))
    assert table.message.startswith("The camera sees the same card twice:")
    assert table.match.history == before and app.ctx.sounds.played[-1] == "wrong"


@pytest.mark.parametrize(("game", "taps", "seat", "area", "kind", "card"), CARD_GAMES)
def test_card_games_say_once_that_the_camera_stopped_and_came_back(
    game: str, taps: tuple[str, ...], seat: int | None, area: str, kind: str, card: str
) -> None:
    """Walk 30 (camdie.py): a card camera that fails on its own thread (``available``
    turns False) or never starts left the line unchanged and said nothing. The table
    says once that it stopped, with the game's way on by touch (Math Wars Meta: the
    COUNT META and MATH CRATE boxes), and says so when it works again."""
    from tabletop.ui.messages import CHILD_MESSAGES
    from tests.ui.game_scenery import setup, wait
    from tests.ui.scenery import make_app

    made: list[FakeCamera] = []
    app = make_app()
    app.ctx.card_camera = lambda g, seats: made.append(FakeCamera(g, seats)) or made[-1]
    setup(app, game, *taps)
    table = app.stack.top
    wait(app, 1.0)
    assert not table.message.startswith("The camera")
    made[-1].available = False  # type: ignore[attr-defined]
    wait(app, 2.0)
    assert table.message.startswith("The camera stopped. Tap ")
    off = CHILD_MESSAGES[table.camera_off]
    assert table.message == off
    assert table.play.tone == "error" and off in app.ctx.speaker.said
    assert "COUNT META" in off if game == "math-wars-meta" else True
    table.play.say("Something else happened.")
    wait(app, 2.0)  # said once, not every frame
    assert table.message == "Something else happened."
    assert app.ctx.speaker.said.count(off) == 1
    made[-1].available = True  # type: ignore[attr-defined]
    wait(app, 1.0)
    assert table.message == "The camera works again: it reads the cards on the table."


def test_card_game_whose_camera_never_starts_says_so() -> None:
    from tests.ui.game_scenery import setup
    from tests.ui.scenery import make_app

    def broken(game: str, seats: int) -> Any:
        raise OSError("no camera at index 0")

    app = make_app()
    app.ctx.card_camera = broken
    setup(app, "math-attack", "first.0", "start")
    app.step()
    assert app.stack.top.message == "The camera stopped. Tap a number line to put your card on it."
