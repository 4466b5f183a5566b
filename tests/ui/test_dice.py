"""The dice screen and the camera path: read, show the crop, correct by touch."""

from __future__ import annotations

import time

import numpy as np
import pytest

from tabletop.ui.camera import DiceCamera, PipelineCamera, as_die_seen, to_rgb
from tabletop.ui.input import DieSeen, Seen, Tap
from tabletop.ui.messages import CHILD_MESSAGES
from tabletop.ui.scenes.dice import DiceResult, DiceScene
from tests.ui.scenery import SIZES, make_app, photo_seen, start_solo
from tests.ui.test_speech import speaker

DICE_SAYS = [text for key, text in CHILD_MESSAGES.items() if key.startswith("dice.")]


def dice_app(seen: Seen | None = None):
    app = make_app(camera=True)
    app.ctx.camera.next = seen
    auto = start_solo(app)
    app.step()  # the reading arrives through the vision queue
    return app, auto


def test_dice_camera_reading_shows_crops_and_values() -> None:
    app, auto = dice_app(photo_seen("three_15"))
    scene = app.stack.top
    assert isinstance(scene, DiceScene) and scene.mode == "camera"
    assert scene.seen is not None and scene.seen.values == (3, 3)
    assert len(scene.crops) == 2 and scene.crops[0][0].get_width() == app.ctx.metrics.u(130)
    assert scene.target("use").label == "Use 3 and 3"
    assert "seen" in app.ctx.sounds.played
    auto.tap("use")
    game = app.stack.top
    assert game.state.dice == (3, 3) and game.play.dice_source == "camera"


def test_dice_screen_says_the_round_what_to_do_and_each_new_reading() -> None:
    """Walk 29 (Mathe-Meister alone): the dice screen was silent, so a child who cannot
    read could not check the camera's reading. As it opens, the game says the round and
    what to do on it, after what just happened (as the paper table's step does); the
    screen says the reading once (the same one read again is not said again), and what
    to do when it changes (That's wrong)."""
    app = make_app(camera=True)
    voice, _ = speaker()
    app.ctx.speaker = voice
    auto = start_solo(app)
    assert isinstance(app.stack.top, DiceScene)
    step = "Round 1: roll both dice under the camera."
    assert voice.said[-1] == f"Player 1, let's play Mathe-Meister (Freestyle)! {step}"
    for _ in range(2):
        app.ctx.camera.sink(photo_seen("three_15"))
        app.step()
    assert voice.said[-1] == "I read these dice: 3 and 3."
    assert voice.said.count("I read these dice: 3 and 3.") == 1
    auto.tap("wrong")
    assert voice.said[-1] == CHILD_MESSAGES["dice.fix"]
    auto.tap("ok")  # 3 and 3
    game = app.stack.top
    for name in ("die0", "cell.r0c0", "die1", "cell.r0c2", "op.+", "cell.r0c1", "op.+"):
        auto.tap(name)
    auto.tap("cell.r0c5")
    auto.tap("done")  # the next round's dice screen: after "Round 1 is over."
    assert isinstance(app.stack.top, DiceScene) and game is not app.stack.top
    assert voice.said[-1] == "Round 1 is over. Round 2: roll both dice under the camera."


def test_dice_each_modes_line_is_the_sentence_tables() -> None:
    """Round 36 (issue 21): the line under the title (how this screen gets the dice) was
    English in dice.py; it is the table's, shown and said the same."""
    app = make_app(camera=True)
    app.ctx.camera.next = None
    voice, _ = speaker()
    app.ctx.speaker = voice
    start_solo(app)
    scene = app.stack.top
    for mode in ("tap", "virtual", "camera"):
        scene.press(f"mode.{mode}")
        assert voice.said[-1].startswith(CHILD_MESSAGES[f"dice.how_{mode}"])  # then a reading
    assert CHILD_MESSAGES["dice.how_tap"] == "Tap what each die shows."


def test_dice_the_cameras_line_is_the_sentence_tables() -> None:
    """Round 36 (issue 21): what the camera's line says it sees (nothing yet, no dice,
    not two, a die it cannot read) was English in dice.py; it is the table's."""
    one = DieSeen(4, (0, 0, 10, 10))
    cases = {
        None: CHILD_MESSAGES["dice.looking"],
        Seen((), 1.0): CHILD_MESSAGES["dice.none_seen"],
        Seen((one,) * 3, 1.0): "I see 3 dice. I need exactly two.",
        Seen((one, DieSeen(None, (20, 0, 30, 10), 0.3)), 1.0): CHILD_MESSAGES["dice.tilted"],
    }
    for seen, words in cases.items():
        app, _ = dice_app(seen)
        assert app.stack.top.reading()[0] == words
    assert CHILD_MESSAGES["dice.looking"] == (
        "Roll both dice on the table under the camera. I am looking\u2026"
    )


def test_dice_the_cameras_reading_is_a_sentence_of_the_table(table_words) -> None:
    """Round 37 (issue 21): the reading's "I read these dice:" was English in dice.py, and
    no whole sentence; it is the table's, with the two values, drawn over the dice and said."""
    from tests.ui.scenery import drawn_texts

    table_words("dice.", {"read": "Dice {a}/{b}!"})
    app = make_app(camera=True)
    voice, _ = speaker()
    app.ctx.speaker = voice
    start_solo(app)
    app.ctx.camera.sink(photo_seen("three_15"))
    app.step()
    assert app.stack.top.reading()[0] == voice.said[-1] == "Dice 3/3!"
    drawn = [t for t, _ in drawn_texts(app.ctx.painter, lambda: app.step(force_draw=True))]
    assert "Dice 3/3!" in drawn, drawn


def test_dice_thats_wrong_lets_the_child_correct_it() -> None:
    app, auto = dice_app(photo_seen("three_15"))
    auto.tap("wrong")
    scene = app.stack.top
    assert scene.mode == "tap" and scene.picked == [3, 3]
    auto.tap("b.5")
    auto.tap("ok")
    game = app.stack.top
    assert game.state.dice == (3, 5) and game.play.dice_source == "corrected"


def test_dice_unreadable_die_cannot_be_used() -> None:
    seen = Seen(
        (DieSeen(4, (0, 0, 10, 10)), DieSeen(None, (20, 0, 30, 10), 0.3)),
        1.0,
        np.zeros((40, 40, 3), np.uint8),
    )
    app, auto = dice_app(seen)
    scene = app.stack.top
    assert scene.target("use") is None
    auto.tap("wrong")
    assert scene.picked == [4, None]
    assert not scene.target("ok").enabled


@pytest.mark.parametrize("values", [(0, 9), (7, -1), (3, 0)])
def test_dice_a_reading_outside_1_to_6_is_unreadable(values: tuple[int, int]) -> None:
    """Walk 30 (dice1.py): the camera's 0 and 9 were offered as "Use 0 and 9" and
    journaled. A die shows 1 to 6: any other value is unreadable, asked again, never
    offered, and "That's wrong" keeps only the real faces."""
    seen = Seen(tuple(DieSeen(v, (0, 0, 10, 10)) for v in values), 1.0)
    assert not seen.readable
    app, auto = dice_app(seen)
    scene = app.stack.top
    assert scene.target("use") is None and app.ctx.sounds.played[-1] == "wrong"
    assert scene.reading()[0].startswith("I can't read a die.")
    assert app.ctx.journal.db.execute("SELECT COUNT(*) FROM dice").fetchone() == (0,)
    auto.tap("wrong")
    assert scene.picked == [v if v in range(1, 7) else None for v in values]


def test_dice_three_dice_are_not_two() -> None:
    seen = Seen(tuple(DieSeen(v) for v in (1, 2, 3)), 1.0)
    app, _ = dice_app(seen)
    assert app.stack.top.target("use") is None
    assert app.ctx.sounds.played[-1] == "wrong"


def test_dice_without_a_camera_are_tapped() -> None:
    app = make_app(camera=False)
    app.ctx.prefs.prefs.dice_input = "camera"
    start_solo(app)
    scene = app.stack.top
    assert scene.mode == "tap" and "No camera" in scene.note
    assert not scene.target("mode.camera").enabled


def tap_off(app, name: str) -> None:
    """A tap on a button that is off (the autoplayer taps only those that are on)."""
    button = app.stack.top.target(name)
    assert button is not None and not button.enabled
    app.post(Tap(button.rect.center, 1.0, "touch"))
    app.step()


@pytest.mark.parametrize(
    ("camera", "name", "words"),
    [
        (False, "mode.camera", "No camera here: tap the dice."),
        (False, "ok", "Tap one face for each die, then OK."),
        (True, "wrong", "I have not read any dice yet: roll both dice under the camera first."),
    ],
)
def test_dice_off_buttons_say_why_they_are_off(camera: bool, name: str, words: str) -> None:
    """Camera with no camera, OK before both dice are chosen, "That's wrong" before a
    reading: a tap says why, with the refusal's sound, until the next tap."""
    app = make_app(camera=camera)
    if camera:
        app.ctx.camera.next = None
    auto = start_solo(app)
    scene = app.stack.top
    tap_off(app, name)
    assert scene.message == words and app.ctx.sounds.played[-1] == "wrong"
    auto.tap("mode.tap" if camera else "a.2")
    assert scene.message == ""


def test_dice_camera_failing_later_falls_back_to_tapping() -> None:
    app, _ = dice_app(None)
    assert app.stack.top.mode == "camera"
    app.ctx.camera.available = False  # the camera thread gave up
    app.step()
    scene = app.stack.top
    assert scene.mode == "tap" and "camera is not working" in scene.note


def test_dice_camera_button_says_try_again_once_the_camera_failed() -> None:
    """Round 28: once the camera failed, its button no longer says "Camera" as if it
    worked: "Try the camera again?" (the line above says it is not working); a tap tries
    it again, and once it works it is "Camera" again."""
    app, auto = dice_app(None)
    scene = app.stack.top
    assert scene.target("mode.camera").label == "Camera"
    app.ctx.camera.available = False  # the camera thread gave up
    app.step()
    button = scene.target("mode.camera")
    assert button.label == "Try the camera again?" and button.enabled
    started, app.ctx.camera.available = app.ctx.camera.started, True  # the cable is back
    auto.tap("mode.camera")
    assert scene.mode == "camera" and app.ctx.camera.started == started + 1
    assert scene.target("mode.camera").label == "Camera"


def test_dice_virtual_roll_uses_the_devices_dice() -> None:
    app = make_app()
    auto = start_solo(app)
    auto.tap("mode.virtual")
    auto.tap("roll")
    game = app.stack.top
    assert game.play.dice_source == "virtual"
    assert all(1 <= v <= 6 for v in game.state.dice)


def test_dice_back_leaves_without_dice_and_asks_again() -> None:
    app = make_app()
    auto = start_solo(app)
    auto.tap("mode.virtual")
    from tabletop.ui.input import Back

    app.post(Back(1.0))
    app.step()
    game = app.stack.top
    assert game.state.dice is None and game.target("dice").enabled
    auto.tap("dice")
    assert isinstance(app.stack.top, DiceScene)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("mode", ["camera", "tap", "virtual"])
def test_dice_back_button_on_screen_leads_back_to_the_table(size, mode: str) -> None:
    """A child who opened the dice by mistake taps Back (no keyboard's Escape needed):
    at the top right, in the same place at both sizes and in every mode, clear of the
    title and the rest; the table is there again, no dice taken."""
    app = make_app(size, camera=True)
    app.ctx.camera.next = None
    auto = start_solo(app)
    auto.tap(f"mode.{mode}")
    scene, m = app.stack.top, app.ctx.metrics
    back = scene.target("back")
    assert back is not None and back.label == "Back" and back.kind == "quiet"
    assert (back.rect.right, back.rect.top) == (size[0] - m.u(16), m.u(8))
    assert back.rect.height >= m.touch
    fonts = app.ctx.painter.fonts
    assert m.u(16) + fonts.font(m.title, True).size(scene.title)[0] < back.rect.left
    lines = DICE_SAYS  # under the title: each mode's line (dice.how_*) among them
    assert max(m.u(18) + fonts.font(m.small, False).size(t)[0] for t in lines) < back.rect.left
    assert not any(back.rect.colliderect(b.rect) for b in scene.buttons if b is not back)
    auto.tap("back")
    game = app.stack.top
    assert not isinstance(game, DiceScene) and game.state.dice is None
    assert game.target("dice").enabled


def test_dice_camera_stops_when_the_screen_closes() -> None:
    app, auto = dice_app(photo_seen())
    camera = app.ctx.camera
    assert camera.started == 1
    auto.tap("use")
    assert camera.stopped >= 1


# -- the camera adapters -----------------------------------------------------------------


class RepeatFrame:
    """A frame source that returns one frame again and again (a photo on the table)."""

    def __init__(self, frame):
        self.frame = frame

    def read(self):
        return self.frame

    def close(self) -> None:
        pass


class Reader:
    def __init__(self, readings):
        self.readings = list(readings)

    def __call__(self, frame):
        return self.readings.pop(0) if len(self.readings) > 1 else self.readings[0]


def test_camera_reports_a_reading_once_it_is_steady() -> None:
    got: list[Seen] = []
    frame = np.zeros((20, 30, 3), np.uint8)
    frame[:, :, 0] = 255  # blue in BGR
    two = [
        {"value": 5, "box": [1, 1, 5, 5], "confidence": 0.9},
        {"value": 2, "box": [10, 1, 15, 5]},
    ]
    reader = Reader([[two[0]], two, two, two])
    camera = DiceCamera(lambda: RepeatFrame(frame), reader, got.append, threaded=False, steady=3)
    camera.start()
    assert len(got) == 1 and got[0].values == (5, 2)
    assert got[0].frame[0, 0].tolist() == [0, 0, 255]  # shown as RGB


def test_camera_thread_posts_to_the_sink() -> None:
    import queue

    q: queue.SimpleQueue[Seen] = queue.SimpleQueue()
    frame = np.zeros((20, 30, 3), np.uint8)
    camera = DiceCamera(
        lambda: RepeatFrame(frame),
        lambda f: [{"value": 1, "box": (0, 0, 2, 2)}, {"value": 6, "box": (3, 0, 5, 2)}],
        q.put,
        interval=0.001,
    )
    camera.start()
    seen = q.get(timeout=5)
    camera.stop()
    assert seen.values == (1, 6)


def test_camera_that_cannot_start_says_so() -> None:
    def broken():
        raise OSError("no camera at index 0")

    camera = DiceCamera(broken, lambda f: [], lambda s: None, threaded=False)
    camera.start()
    assert not camera.available and "no camera" in camera.error


def test_camera_reader_objects_and_dicts_both_work() -> None:
    class Die:
        value = None
        box = (1.4, 2.6, 10.0, 12.0)
        confidence = 0.4

    assert as_die_seen(Die()) == DieSeen(None, (1, 3, 10, 12), 0.4)
    assert as_die_seen({"value": 4, "box": [0, 0, 1, 1]}) == DieSeen(4, (0, 0, 1, 1), 1.0)
    with pytest.raises(ValueError):
        as_die_seen({"value": 4, "box": [0, 0, 1]})


def test_camera_pipeline_observations_become_seen() -> None:
    class Observation:
        key = ("dice", ("zone", 1))
        value = (2, None)
        crops = (np.zeros((8, 8, 3), np.uint8), np.zeros((8, 8), np.uint8))

    camera = PipelineCamera(lambda: None, lambda s: None, clock=lambda: 5.0)
    seen = camera.to_seen(Observation())
    assert seen is not None and seen.values == (2, None) and not seen.readable
    assert len(seen.crops) == 2 and seen.crops[1].shape == (8, 8, 3)

    class Cards(Observation):
        key = ("cards", ("zone", 1))

    class NoDice(Observation):
        value = ()  # the dice were taken away: nothing for the app

    assert camera.to_seen(Cards()) is None and camera.to_seen(NoDice()) is None


def test_camera_steady_vote() -> None:
    """The same dice (in any order) over ``steady`` frames in a row are reported once; a
    new reading is reported once it holds in turn; no dice are never reported."""
    got: list[Seen] = []
    frame = np.zeros((4, 4, 3), np.uint8)
    readings = [[1, 2], [2, 1], [2, 1], [3, 3], [], [], [3, 3], [3, 3]]
    reader = Reader([[{"value": v} for v in values] for values in readings])
    camera = DiceCamera(lambda: RepeatFrame(frame), reader, got.append, steady=2, interval=0)
    camera.start()
    deadline = time.monotonic() + 5
    while len(got) < 2 and time.monotonic() < deadline:
        time.sleep(0.01)
    camera.stop()
    assert [sorted(s.values) for s in got] == [[1, 2], [3, 3]]


def test_camera_bgr_to_rgb() -> None:
    image = np.zeros((1, 1, 3), np.uint8)
    image[0, 0] = (1, 2, 3)
    assert to_rgb(image)[0, 0].tolist() == [3, 2, 1]
    assert to_rgb(np.full((2, 2), 9, np.uint8)).shape == (2, 2, 3)


def test_dice_result_is_a_value() -> None:
    assert DiceResult((1, 2), "tap") == DiceResult((1, 2), "tap")


def test_dice_read_are_kept_with_their_source() -> None:
    """Issue 24: every die the device read is kept in the journal with its source (the
    dice-fairness lesson counts them)."""
    from tabletop.classroom.dice_lesson import read_dice

    app, auto = dice_app(photo_seen("three_15"))
    auto.tap("wrong")
    auto.tap("b.5")
    auto.tap("ok")
    rows = app.ctx.journal.db.execute("SELECT value, source FROM dice ORDER BY id").fetchall()
    assert rows == [(3, "corrected"), (5, "corrected")]
    assert read_dice(app.ctx.journal) == [3, 5]
