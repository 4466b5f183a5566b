"""The bubble game in the app (RULINGS MECS-8): a timed round played by taps and drags
through synthetic events, refused moves explained, teacher-PIN undo, the name entry and
the scoreboard, screenshots at both layouts, and the demo."""

from __future__ import annotations

import io
import random
from pathlib import Path

import pygame
import pytest

from hardware.buttons import SeatPressed
from tabletop.games.bubbles import HEIGHT, RADIUS, any_move, best_move, replay
from tabletop.ui.autoplay import Autoplayer
from tabletop.ui.games import game_app
from tabletop.ui.games.bubbles import BubbleScene, best_scores, record_score, run_demo
from tabletop.ui.input import CardSeen, CardsSeen, Drag, Release, Tap
from tabletop.ui.messages import CHILD_MESSAGES
from tabletop.ui.results import GameResults, Standing
from tabletop.ui.scenes.form import FormScene
from tabletop.ui.scenes.home import HomeScene
from tabletop.ui.scenes.names import NameScene
from tabletop.ui.scenes.rules import RulesScene
from tabletop.ui.scenes.settings import TeacherScreen
from tabletop.ui.theme import BLUE, VERMILLION
from tests.card import FULL, simulated_card
from tests.ui.scenery import SIZES, is_undo_pad, make_app
from tests.ui.test_speech import speaker

SHOTS = Path("/tmp/bubbles_shots")


# -- helpers -----------------------------------------------------------------------------------


def bubble_app(size=(800, 480), seconds: int | None = None):
    app = make_app(size)
    setup = game_app("bubbles").setup_scene(app.ctx)
    assert isinstance(setup, FormScene)
    app.stack.push(setup)
    app.step()
    auto = Autoplayer(app)
    if seconds is not None:
        auto.tap(f"time.{seconds}")
    return app, auto


def start(size=(800, 480), seconds: int | None = None):
    app, auto = bubble_app(size, seconds)
    auto.tap("start")
    scene = app.stack.top
    assert isinstance(scene, BubbleScene)
    return app, auto, scene


def run_for(app, seconds: float, frame: float = 0.1) -> None:
    for _ in range(round(seconds / frame)):
        app.ctx.clock.advance(frame)
        app.step()


def until(app, scene: BubbleScene, found, limit: float = 20.0):
    """Let the bubbles fly until ``found(game)`` gives something."""
    waited = 0.0
    while waited < limit:
        move = found(scene.play.game)
        if move is not None:
            return move
        run_for(app, 0.1)
        waited += 0.1
    raise AssertionError("the field never offered that")


def shot(app, name: str) -> None:
    size = app.canvas.get_size()
    app.screenshot(SHOTS / f"{name}_{size[0]}x{size[1]}.png")


def message(scene: BubbleScene) -> str:
    return scene.message


# -- the contract --------------------------------------------------------------------------


def test_bubbles_app_module_is_registered_and_opens_its_setup() -> None:
    module = game_app("bubbles")
    assert module is not None and callable(module.run_demo)
    app, _ = bubble_app()
    assert isinstance(app.stack.top, FormScene)
    assert app.ctx.lamps.lit == {0}  # seat 1's button starts the round


def test_bubbles_play_is_pygame_free_and_plays_in_field_units() -> None:
    """The round's controller (issue 21) imports no pygame and nothing of the app but
    the controller base and the sentence table: a finger's pick, let go, drop and a
    refused release, in field units, and paused time."""
    import ast
    import inspect

    from tabletop.engine.errors import IllegalMove
    from tabletop.games.bubbles import BubbleSettings
    from tabletop.ui.games.bubbles import play as play_module

    tree = ast.parse(inspect.getsource(play_module))
    imported = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    imported |= {n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    # the one controller base is pygame-free too (tests/ui/test_controller.py), and so is
    # the sentence table every controller says its words from
    imported -= {"tabletop.ui.controller", "tabletop.ui.messages"}
    assert not [m for m in imported if m.startswith(("pygame", "tabletop.ui"))]
    now = [0.0]
    play = play_module.BubblePlay(BubbleSettings(seconds=60), 0.25, lambda: now[0])
    game = play.game
    while any_move(game) is None:
        now[0] += 0.1
        play.advance(now[0])
    number, onto = any_move(game)
    red, pair = game.bubbles[number], game.bubbles[onto]
    play.touch(red.x, red.y)
    assert (play.message, play.tone) == (
        f"You have {red.label}. Now tap a pair (or drag it there).",
        "info",
    )
    play.touch(red.x, red.y)
    assert (play.message, play.tone) == (f"You let go of {red.label}.", "info")  # taps only
    assert game.held is None
    play.touch(red.x, red.y)
    play.touch(pair.x, pair.y)
    text, tone, popped = play.message, play.tone, game.pops[-1]
    assert tone == ("good" if popped.hit else "miss") and popped.reason in text
    assert play.flash is not None and play.flash.hit == popped.hit
    red = game.free_numbers()[0]
    free = next(b for b in game.free_numbers() + game.free_operators() if b.id != red.id)
    play.touch(red.x, red.y)
    play.drag(free.x, free.y)
    with pytest.raises(IllegalMove) as refused:
        play.release(free.x, free.y)
    assert refused.value.code == "bubbles.not_a_pair" and game.held is None
    left = game.time_left
    play.last = None  # paused (the rules were open)
    play.advance(now[0] + 5)
    assert game.time_left == left


# -- a whole round -------------------------------------------------------------------------


def test_bubbles_scripted_round_by_taps_matches_the_model_replay_mecs8() -> None:
    """A 30 s round: the child taps a red bubble and then a pair whenever the target can
    be made (and clears a pair now and then); the result equals the pure model's replay
    of the same actions from the same seed."""
    app, auto, scene = start(seconds=30)
    assert scene.play.game.settings.seconds == 30
    hits = misses = 0
    idle = 0.0
    while not scene.finished:
        app.ctx.clock.advance(0.1)
        app.step()
        if scene.finished:
            break
        idle += 0.1
        move = best_move(scene.play.game) or (any_move(scene.play.game) if idle > 4 else None)
        if move is None:
            continue
        idle = 0.0
        number, onto = move
        target = scene.play.game.target
        auto.tap(f"bubble.{number}")
        assert scene.play.game.held is not None and scene.play.game.held.id == number
        auto.tap(f"bubble.{onto}")
        popped = scene.play.game.pops[-1]
        assert popped.hit == (popped.answer == target)
        hits += popped.hit
        misses += not popped.hit
        assert popped.reason in message(scene)  # the ruling, with its reason, on screen
    assert hits >= 2
    game = scene.play.game
    expected = replay(scene.play.settings, random.Random(scene.play.seed), game.actions, game.steps)
    assert expected.over and expected.score == game.score == hits
    assert [p.equation for p in expected.pops] == [p.equation for p in game.pops]
    # the name for the scoreboard
    assert isinstance(app.stack.top, NameScene)
    for key in ("key.M", "key.I", "key.A"):
        auto.tap(key)
    auto.tap("ok")
    results = app.stack.top
    assert isinstance(results, GameResults)  # the one results scene
    out = results.outcome
    points = f"{hits} point{'' if hits == 1 else 's'}"
    assert out.rows == [Standing(0, "Mia", 1, points)] and results.winner_line == "winner: Mia"
    assert out.reason == "On the scoreboard: the best score!"
    # every hit is listed, not only the last few
    assert out.lines[:2] == [
        f"Hits: {hits}",
        ", ".join(p.equation.replace(" ", "") for p in game.pops if p.hit),
    ]
    assert best_scores(app.ctx.highscores, 30) == [("Mia", hits)]
    assert app.ctx.highscores.best("bubbles", "Mia", ["30s"]) == hits
    auto.tap("again")
    assert isinstance(app.stack.top, BubbleScene) and app.stack.top.seconds == 30


def test_bubbles_drag_and_release_pop_the_pair() -> None:
    app, _, scene = start()
    number, onto = until(app, scene, any_move)
    game = scene.play.game
    start_pos = scene.to_screen(game.bubbles[number].x, game.bubbles[number].y)
    end = scene.to_screen(game.bubbles[onto].x, game.bubbles[onto].y)
    app.post(Tap(start_pos, app.ctx.clock()))
    app.post(Release(start_pos, app.ctx.clock()))  # a plain tap: still held
    app.step()
    assert game.held is not None and game.held.id == number
    middle = ((start_pos[0] + end[0]) // 2, (start_pos[1] + end[1]) // 2)
    app.post(Drag(middle, app.ctx.clock()))  # no finger down on it: nothing moves
    app.step()
    assert scene.to_screen(game.bubbles[number].x, game.bubbles[number].y) == start_pos
    app.post(Tap(start_pos, app.ctx.clock()))  # finger down on the held bubble, and drag
    app.post(Drag(middle, app.ctx.clock()))
    app.step()
    x, y = scene.to_field(middle)
    assert abs(game.bubbles[number].x - x) < 2 and abs(game.bubbles[number].y - y) < 2
    app.post(Drag(end, app.ctx.clock()))
    app.post(Release(end, app.ctx.clock()))
    app.step()
    assert len(game.pops) == 1 and number not in game.bubbles and onto not in game.bubbles


def test_bubbles_released_away_from_pairs_is_let_go_where_it_is() -> None:
    app, _, scene = start()
    game = scene.play.game
    b = game.free_numbers()[0]
    app.post(Tap(scene.to_screen(b.x, b.y), app.ctx.clock()))
    app.step()
    assert game.held is b
    spot = (scene.field.left + 2, scene.field.bottom - 2)  # the corner: clamped inside
    app.post(Drag(spot, app.ctx.clock()))
    app.post(Release(spot, app.ctx.clock()))
    app.step()
    assert game.held is None and game.pops == []
    assert (b.x, b.y) == (RADIUS, HEIGHT - RADIUS) and b.moving


def test_bubbles_tapping_the_held_bubble_lets_go_with_or_without_release_events() -> None:
    app, _, scene = start()
    game = scene.play.game
    b = game.free_numbers()[0]
    pos = scene.to_screen(b.x, b.y)
    for with_release in (False, True):
        app.post(Tap(pos, app.ctx.clock()))
        if with_release:
            app.post(Release(pos, app.ctx.clock()))
        app.step()
        assert game.held is b  # picked up (a plain tap keeps it in the finger)
        app.post(Tap(pos, app.ctx.clock()))
        if with_release:
            app.post(Release(pos, app.ctx.clock()))
        app.step()
        assert game.held is None
        assert message(scene) == f"You let go of {b.label}."


def test_bubbles_a_drag_from_a_button_does_not_move_the_held_bubble() -> None:
    app, auto, scene = start()
    game = scene.play.game
    b = game.free_numbers()[0]
    auto.tap(f"bubble.{b.id}")
    where = (b.x, b.y)
    app.post(Tap(scene.buttons[0].rect.center, app.ctx.clock()))  # Leave: a dialog opens
    app.post(Drag(scene.field.center, app.ctx.clock()))
    app.step()
    auto.tap("no")
    assert (b.x, b.y) == where and game.held is b


def test_bubbles_timer_pauses_while_the_rules_are_open() -> None:
    app, auto, scene = start()
    run_for(app, 2.0)
    left = scene.play.game.time_left
    auto.tap("rules")
    assert isinstance(app.stack.top, RulesScene)
    run_for(app, 5.0)
    auto.tap("rules.prev")  # "Close" on the first page
    assert app.stack.top is scene
    run_for(app, 1.0)
    assert left - 1.1 <= scene.play.game.time_left <= left - 0.9


# -- refused moves ------------------------------------------------------------------------


def test_bubbles_a_blue_bubble_cannot_be_picked() -> None:
    _app, auto, scene = start()
    op = next(b for b in scene.play.game.bubbles.values() if b.kind == "operator")
    auto.tap(f"bubble.{op.id}")
    assert scene.play.game.held is None
    assert message(scene) == CHILD_MESSAGES["bubbles.pick_operator"]


def test_bubbles_dropping_on_a_lone_bubble_is_refused_with_the_reason() -> None:
    app, auto, scene = start()
    game = scene.play.game
    number = until(app, scene, lambda g: g.free_numbers()[0].id if g.free_operators() else None)
    auto.tap(f"bubble.{number}")
    op = game.free_operators()[0]
    app.post(Tap(scene.to_screen(op.x, op.y), app.ctx.clock()))
    app.step()
    assert message(scene) == CHILD_MESSAGES["bubbles.not_a_pair"]
    assert game.pops == [] and game.held is not None  # still in the finger: try again


def test_bubbles_a_pair_cannot_be_picked_up() -> None:
    app, auto, scene = start()
    pair = until(app, scene, lambda g: g.pairs()[0] if g.pairs() else None)
    auto.tap(f"bubble.{pair[0].id}")
    assert scene.play.game.held is None
    assert message(scene) == CHILD_MESSAGES["bubbles.pick_pair"]


def test_bubbles_sharing_by_zero_is_refused_and_nothing_pops() -> None:
    app, auto, scene = start()
    game = scene.play.game
    n, op = until(app, scene, lambda g: g.pairs()[0] if g.pairs() else None)
    op.value = "/"
    zero = game.free_numbers()[0]
    zero.value = 0
    auto.tap(f"bubble.{zero.id}")
    auto.tap(f"bubble.{op.id}")
    assert message(scene) == CHILD_MESSAGES["bubbles.divide_by_zero"]
    assert game.pops == [] and {n.id, op.id, zero.id} <= set(game.bubbles)
    assert game.held is None


def test_bubbles_seat_button_starts_on_setup_but_rests_during_the_round() -> None:
    app, _ = bubble_app()
    app.seat_queue.put(SeatPressed(0, app.ctx.clock()))
    app.step()
    scene = app.stack.top
    assert isinstance(scene, BubbleScene)  # the right moment: Start
    app.seat_queue.put(SeatPressed(2, app.ctx.clock()))
    app.step()
    assert message(scene) == CHILD_MESSAGES["bubbles.buttons_resting"]
    assert scene.play.game.pops == [] and app.stack.top is scene


def test_bubbles_camera_cards_are_not_used_and_a_stranger_card_is_named() -> None:
    app, auto, scene = start()
    before = {k: b.value for k, b in scene.play.game.bubbles.items()}
    app.vision_queue.put(CardsSeen(1, "equation", (CardSeen("?", 1, "equation"),), 1.0))
    app.step()
    assert message(scene) == CHILD_MESSAGES["bubbles.not_our_card"]
    scene.say("3 + 4 = 7. That is the target: 1 point!", "good")
    app.vision_queue.put(CardsSeen(None, None, (CardSeen("MT1:MWM:C7"),), 1.0))
    app.step()  # round 35: a real card of another game is told, not ignored
    assert message(scene) == CHILD_MESSAGES["bubbles.no_cards"]
    assert scene.play.tone == "error"
    app.vision_queue.put(CardsSeen(1, "equation", (CardSeen("7"), CardSeen("X")), 1.0))
    app.step()
    assert message(scene) == CHILD_MESSAGES["bubbles.no_cards"]
    scene.say("3 + 4 = 7. That is the target: 1 point!", "good")
    app.vision_queue.put(CardsSeen(1, "equation", (), 1.0))
    app.step()
    assert message(scene).startswith("3 + 4 = 7")  # cards taken away: nothing to say
    assert {k: b.value for k, b in scene.play.game.bubbles.items()} == before
    auto.tap("leave")
    auto.tap("yes")
    assert isinstance(app.stack.top, HomeScene)  # Leave always goes Home
    app, auto = bubble_app((800, 480), None)
    setup = app.stack.top
    assert isinstance(setup, FormScene)
    app.vision_queue.put(CardsSeen(1, "equation", (CardSeen("7"),), 1.0))
    app.step()
    assert setup.message == CHILD_MESSAGES["bubbles.no_cards"]


def test_bubbles_undo_with_nothing_to_take_back_asks_no_pin() -> None:
    app, auto, scene = start()
    auto.tap("undo")
    assert app.stack.top is scene
    assert message(scene) == CHILD_MESSAGES["engine.nothing_to_undo"]


def test_bubbles_undo_takes_back_the_last_pop_behind_the_teacher_pin() -> None:
    app, auto, scene = start()
    game = scene.play.game
    number, onto = until(app, scene, any_move)
    field_before = {k: b.value for k, b in game.bubbles.items()}
    score, target = game.score, game.target
    auto.tap(f"bubble.{number}")
    auto.tap(f"bubble.{onto}")
    assert len(game.pops) == 1
    auto.tap("undo")
    assert is_undo_pad(app.stack.top)
    for d in "1111":
        auto.tap(f"key.{d}")
    assert is_undo_pad(app.stack.top) and app.stack.top.message
    assert len(game.pops) == 1  # a wrong PIN takes nothing back
    for d in "2468":
        auto.tap(f"key.{d}")
    assert app.stack.top is scene
    assert game.pops == [] and (game.score, game.target) == (score, target)
    assert {k: b.value for k, b in game.bubbles.items()} == field_before
    assert "Took back" in message(scene)


def test_bubbles_leaving_asks_first() -> None:
    app, auto, scene = start()
    auto.tap("leave")
    auto.tap("no")
    assert app.stack.top is scene
    auto.tap("leave")
    auto.tap("yes")
    assert isinstance(app.stack.top, HomeScene)  # Leave always goes Home


def test_bubbles_a_round_without_a_name_is_not_saved() -> None:
    app, auto, _scene = start(seconds=30)
    run_for(app, 30.5, frame=0.5)
    assert isinstance(app.stack.top, NameScene)
    auto.tap("cancel")
    results = app.stack.top
    assert isinstance(results, GameResults)
    assert results.outcome.reason == "Not saved on the scoreboard (no name)."
    assert best_scores(app.ctx.highscores, 30) == []


def test_bubbles_a_score_the_file_cannot_take_yet_is_on_the_board_and_saved_later(
    tmp_path, monkeypatch
) -> None:
    """Walk 30 (hs3.py): on a full card the board kept only the old score, yet the
    results said "On the scoreboard: the best score!". Now the board keeps it in memory,
    the results tell its place there, and it reaches the file once the card takes
    writes again (r40-keep 1): nothing a child scored is lost."""
    from tabletop.highscores import HighScores

    app, auto, _scene = start(seconds=30)
    card = simulated_card(monkeypatch)
    path = tmp_path / "highscores.sqlite3"
    app.ctx.highscores = HighScores(path, retry_every=0)
    assert record_score(app.ctx.highscores, "Ana", 30, 5) == 1
    card.refuse = FULL
    run_for(app, 30.5, frame=0.5)
    for key in ("key.B", "key.E", "key.N"):
        auto.tap(key)
    auto.tap("ok")
    results = app.stack.top
    assert isinstance(results, GameResults)
    assert results.outcome.reason == "On the scoreboard: place 2."
    assert best_scores(app.ctx.highscores, 30) == [("Ana", 5), ("Ben", 0)]
    assert best_scores(HighScores(path), 30) == [("Ana", 5)]  # the file: not yet
    card.refuse = None
    assert record_score(app.ctx.highscores, "Ben", 30, 9) == 1
    assert best_scores(HighScores(path), 30) == [("Ben", 9), ("Ana", 5), ("Ben", 0)]


def test_bubbles_the_name_screen_says_its_question_when_it_opens() -> None:
    """Walk 29: "Time is up! 29 points. Your name?" was shown, never said. The name
    screen says its title as it opens; over a teacher's screen (which does not speak)
    it stays silent too."""
    app, _auto, _scene = start(seconds=30)
    voice, _ = speaker()
    app.ctx.speaker = voice
    run_for(app, 30.5, frame=0.5)
    asked = app.stack.top
    assert isinstance(asked, NameScene) and voice.said[-1] == asked.title
    assert asked.title.startswith("Time is up!")
    quiet = TeacherScreen(app.ctx)
    app.stack.push(quiet)
    heard = len(voice.said)
    app.stack.push(NameScene(app.ctx, title="The group's name"))
    assert voice.said[heard:] == []


def test_bubbles_one_hit_is_one_point_when_the_time_is_up() -> None:
    """The name screen after a round with one hit says "1 point", not "1 points"."""
    app, auto, scene = start(seconds=30)
    number, onto = until(app, scene, best_move)
    auto.tap(f"bubble.{number}")
    auto.tap(f"bubble.{onto}")
    assert scene.play.game.score == 1
    while not scene.finished:
        run_for(app, 0.5, frame=0.5)
    asked = app.stack.top
    assert isinstance(asked, NameScene) and asked.title == "Time is up! 1 point. Your name?"


def test_bubbles_scoreboard_keeps_scores_in_a_file(tmp_path) -> None:
    from tabletop.highscores import HighScores

    first = HighScores(tmp_path / "highscores.sqlite3")
    assert record_score(first, "Mia", 60, 4) == 1
    assert record_score(first, "Leo", 60, 7) == 1
    assert record_score(first, "Ana", 60, 5) == 2
    assert record_score(first, "Tom", 30, 9) == 1
    again = HighScores(tmp_path / "highscores.sqlite3")
    assert best_scores(again, 60) == [("Leo", 7), ("Ana", 5), ("Mia", 4)]
    assert best_scores(again, 30) == [("Tom", 9)]
    assert again.best("bubbles", "Leo", ["60s"]) == 7


def test_bubbles_scoreboard_equal_scores_share_a_place_earlier_first() -> None:
    from tabletop.highscores import HighScores

    board = HighScores(":memory:")
    assert record_score(board, "Mia", 60, 4) == 1
    assert record_score(board, "Leo", 60, 4) == 1
    assert record_score(board, "Ana", 60, 2) == 3
    assert best_scores(board, 60) == [("Mia", 4), ("Leo", 4), ("Ana", 2)]


# -- screenshots ---------------------------------------------------------------------------


def _pixel(app, pos) -> tuple[int, int, int]:
    return tuple(app.canvas.get_at(pos))[:3]


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_bubbles_screens_at_both_layouts(size) -> None:
    app, auto = bubble_app(size)
    shot(app, "setup")
    auto.tap("rules")
    auto.tap("rules.next")
    shot(app, "rules")
    auto.tap("rules.prev")
    auto.tap("rules.prev")
    auto.tap("start")
    scene = app.stack.top
    assert isinstance(scene, BubbleScene)
    number, onto = until(app, scene, any_move)
    auto.tap(f"bubble.{number}")
    app.draw()
    shot(app, "held")
    # each bubble is painted where the model says, in its colour
    r = round(RADIUS * scene.scale)
    for b in scene.play.game.bubbles.values():
        if b.held:
            continue
        x, y = scene.to_screen(b.x, b.y)
        colour = VERMILLION if b.kind == "number" else BLUE
        assert _pixel(app, (x, y + r * 3 // 4)) == colour or any(
            other is not b and abs(other.x - b.x) < 2 * RADIUS and abs(other.y - b.y) < 2 * RADIUS
            for other in scene.play.game.bubbles.values()
        )
    assert r >= (34 if size[0] == 800 else 50)  # digits big enough at arm's length
    auto.tap(f"bubble.{onto}")
    shot(app, "popped")
    # the top bar's buttons stay on screen and apart
    rects = [b.rect for b in scene.buttons]
    assert all(app.canvas.get_rect().contains(rc) for rc in rects)
    assert not any(a.colliderect(b) for i, a in enumerate(rects) for b in rects[i + 1 :])
    assert all(not rc.colliderect(scene.field) for rc in rects)
    op = next(b for b in scene.play.game.bubbles.values() if b.kind == "operator")
    auto.tap(f"bubble.{op.id}")
    shot(app, "refused")
    auto.tap("undo")
    shot(app, "undo_pin")
    auto.tap("cancel")
    run_for(app, 61, frame=1.0)
    for key in ("key.L", "key.E", "key.O"):
        auto.tap(key)
    shot(app, "name")
    auto.tap("ok")
    shot(app, "results")
    assert isinstance(app.stack.top, GameResults)
    assert app.canvas.get_size() == size


# -- the demo ------------------------------------------------------------------------------


def test_bubbles_demo_plays_a_round_and_names_the_winner(tmp_path) -> None:
    out = io.StringIO()
    line = run_demo(seed=4, out_dir=tmp_path, out=out)
    lines = out.getvalue().strip().split("\n")
    assert line == lines[-1] == "winner: Bubble Bot"
    score = int(lines[-2].removeprefix("score: Bubble Bot ").split(".")[0])
    hits = [ln for ln in lines if "hit!" in ln]
    assert score == len(hits) >= 1
    assert {"setup.png", "name.png", "final.png"} <= {p.name for p in tmp_path.iterdir()}
    pygame.display.init()  # the demo closed the display; later tests open their own
