"""The pipeline reads a still scene once: later frames that show the same scene repeat
that reading; a change (a die rolled or nudged, a card laid) is read again once still.
Fake readers count the calls; frames are synthetic; no clock but a hand-driven one."""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np
import pytest

from vision.cards import SeenCode
from vision.dice import Die
from vision.pipeline import Pipeline
from vision.sources import Frame
from vision.stabilise import CHANGE_THRESHOLD, Stabiliser, change, motion
from vision.table import BOARD, Table, Zone, render_mat

SIZE = (1280, 720)


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        self.now += 1 / 30
        return self.now


class FakeDice:
    """A dice reader that returns what it is told and remembers what it was shown."""

    long_side = 640

    def __init__(self, dice: Sequence[Die] = ()) -> None:
        self.dice = list(dice)
        self.calls: list[tuple[tuple[int, ...], float | None]] = []

    def read(self, frame: np.ndarray, scale: float | None = None, skip: object = ()) -> list[Die]:
        self.calls.append((frame.shape, scale))
        return list(self.dice)


class FakeCards:
    def __init__(self) -> None:
        self.calls = 0

    def __call__(self, frame: np.ndarray) -> list[SeenCode]:
        self.calls += 1
        return []


class Nothing:
    def read(self) -> None:
        return None

    def close(self) -> None:
        pass

    def __enter__(self) -> Nothing:
        return self

    def __exit__(self, *exc: object) -> None:
        pass


def table_image(seed: int = 0) -> np.ndarray:
    """A textured grey-brown table, BGR, so that shifts and changes show."""
    rng = np.random.default_rng(seed)
    base = cv2.resize(rng.integers(110, 190, (45, 80), dtype=np.uint8), SIZE)
    return cv2.merge([base, base, base])


def with_die(image: np.ndarray, x: int, y: int, pips: int = 3) -> np.ndarray:
    """The image with a white 34 px die (17 px on the lores stream) at (x, y)."""
    out = image.copy()
    cv2.rectangle(out, (x, y), (x + 34, y + 34), (235, 235, 235), -1)
    for i in range(pips):
        cv2.circle(out, (x + 7 + 10 * (i % 3), y + 8 + 9 * (i // 3)), 3, (20, 20, 20), -1)
    return out


def frame_of(image: np.ndarray, index: int = 0) -> Frame:
    lores = cv2.resize(
        cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), (640, 360), interpolation=cv2.INTER_AREA
    )
    return Frame(image, lores, index, 0.0)


def pipeline(dice: FakeDice, cards: FakeCards | None = None, **options: object) -> Pipeline:
    return Pipeline(
        Nothing(),
        table=Table(seats=1),
        stabiliser=Stabiliser(3, clock=Clock()),
        dice_reader=dice,  # type: ignore[arg-type]
        cards=cards is not None,
        card_reader=cards,
        **options,  # type: ignore[arg-type]
    )


def run(pipe: Pipeline, images: Sequence[np.ndarray]) -> list[tuple[bool, tuple[str, ...]]]:
    """(still, kinds read afresh) per frame."""
    out = []
    for i, img in enumerate(images):
        seen = pipe.look(frame_of(img, i))
        out.append((seen.still, seen.read))
    return out


def test_reuse_an_unchanged_scene_is_read_once() -> None:
    dice, cards = FakeDice([Die(3, (600.0, 300.0, 634.0, 334.0), 0.99)]), FakeCards()
    pipe = pipeline(dice, cards)
    scene = with_die(table_image(), 600, 300)
    seen = [pipe.look(frame_of(scene, i)) for i in range(30)]
    assert not seen[0].still and seen[0].read == ()  # no frame before: moving
    # cards first, so that the dice reading skips their QR codes
    assert [s.read for s in seen[1:4]] == [("cards",), ("dice",), ()]
    assert len(dice.calls) == 1 and cards.calls == 1 and pipe.reads == {"dice": 1, "cards": 1}
    # Every still frame still carries the reading, for the stabiliser's vote.
    assert all(s.still and s.dice and s.dice[0].value == 3 for s in seen[2:])
    assert all(s.cards == () for s in seen[1:])


def test_reuse_a_rolled_die_is_read_again_once_still() -> None:
    dice = FakeDice([Die(3, (600.0, 300.0, 634.0, 334.0), 0.99)])
    pipe = pipeline(dice)
    before = with_die(table_image(), 600, 300)
    hands = []
    for i in range(3):  # a hand sweeping over the table, picking the die up and rolling it
        hand = before.copy()
        cv2.rectangle(hand, (300 + 150 * i, 100), (700 + 150 * i, 600), (120, 150, 200), -1)
        hands.append(hand)
    after = with_die(table_image(), 200, 500, pips=5)
    got = run(pipe, [before] * 5 + hands + [after] * 5)
    assert [read for _, read in got] == [(), ("dice",), (), (), ()] + [()] * 3 + [
        (),  # the die landed: this frame still differs from the last
        ("dice",),  # still: read once
        (),
        (),
        (),
    ]
    assert [still for still, _ in got[5:9]] == [False] * 4
    assert pipe.reads["dice"] == 2 and pipe.partial_reads == 1
    # The second reading looked only where the die was and where it landed: two small
    # parts of the frame (a die and a half around each), at the whole frame's scale.
    assert dice.calls[0] == ((720, 1280, 3), None)
    assert [call[1] for call in dice.calls[1:]] == [0.5, 0.5]
    assert all(shape[0] < 200 and shape[1] < 200 for shape, _ in dice.calls[1:])
    # A hand that rests still over the table is a still scene: read once, then repeated.
    resting = pipeline(FakeDice())
    run(resting, [before] * 3 + [hands[0]] * 4)
    assert resting.reads["dice"] == 2


def test_reuse_one_die_nudged_without_a_hand_is_read_again() -> None:
    # One die moving on a still table changes under 1% of the frame: the mean motion
    # misses it, the local change does not.
    dice = FakeDice()
    pipe = pipeline(dice)
    table = table_image()
    a, b = with_die(table, 600, 300), with_die(table, 612, 306)
    assert motion(frame_of(a).lores, frame_of(b).lores) < 4.0
    got = run(pipe, [a] * 4 + [b] * 4)
    assert got[4] == (False, ())  # the nudge counts as moving: no reading of a moving die
    assert got[5] == (True, ("dice",)) and len(dice.calls) == 2


def test_reuse_a_die_turned_over_in_place_is_read_again() -> None:
    dice = FakeDice()
    pipe = pipeline(dice)
    table = table_image()
    got = run(pipe, [with_die(table, 600, 300, 2)] * 3 + [with_die(table, 600, 300, 3)] * 3)
    assert got[3] == (False, ()) and got[4] == (True, ("dice",))
    assert len(dice.calls) == 2


def test_reuse_a_slow_drift_is_caught_against_the_frame_that_was_read() -> None:
    # Each step is under the change threshold; the sum of them is not.
    dice = FakeDice()
    pipe = pipeline(dice)
    table = table_image()
    steps = []
    for level in range(0, 150, 8):
        img = table.copy()
        cv2.rectangle(img, (600, 300), (640, 340), (level, level, level), -1)
        steps.append(img)
    got = run(pipe, [steps[0]] * 2 + steps)
    assert all(still for still, _ in got[1:])  # no step moves on its own
    assert len(dice.calls) >= 2
    assert sum(1 for _, read in got if read) == len(dice.calls)


def test_reuse_light_changing_over_the_whole_table_is_no_change() -> None:
    dice = FakeDice()
    pipe = pipeline(dice)
    scene = with_die(table_image(), 600, 300)
    brighter = cv2.add(scene, np.full_like(scene, 3))
    got = run(pipe, [scene] * 3 + [brighter] * 3)
    assert all(still for still, _ in got[1:]) and len(dice.calls) == 1


def test_reuse_off_reads_every_still_frame() -> None:
    dice = FakeDice()
    pipe = pipeline(dice, reuse=False)
    run(pipe, [table_image()] * 6)
    assert len(dice.calls) == 5


def test_reuse_the_stabiliser_still_reports_after_n_frames() -> None:
    dice = FakeDice([Die(3, (600.0, 300.0, 634.0, 334.0), 0.99)])
    pipe = pipeline(dice)
    scene = with_die(table_image(), 600, 300)
    reported = [[o.value for o in pipe.process(frame_of(scene, i))] for i in range(6)]
    # Frame 0 moves; frames 1-3 are three still votes for (3,): reported at frame 3, once.
    assert reported == [[], [], [], [(3,)], [], []]
    assert len(dice.calls) == 1


def test_reuse_change_measure() -> None:
    table = cv2.cvtColor(table_image(), cv2.COLOR_BGR2GRAY)
    lores = cv2.resize(table, (640, 360), interpolation=cv2.INTER_AREA)
    die = lores.copy()
    die[100:117, 200:217] = 235  # one 17 px die
    rng = np.random.default_rng(1)
    noisy = np.clip(lores + rng.normal(0, 4, lores.shape), 0, 255).astype(np.uint8)
    assert change(None, lores) == float("inf")
    assert change(lores, lores) == 0.0
    assert change(lores, die) > 3 * CHANGE_THRESHOLD
    assert change(lores, cv2.add(lores, np.full_like(lores, 20))) < 1.0  # exposure
    assert change(lores, noisy) < CHANGE_THRESHOLD / 2  # sensor noise

    # A very noisy camera (sigma 12 on every lores pixel, every frame): still no change,
    # and a die still is one.
    def grainy() -> np.ndarray:
        return np.clip(lores + rng.normal(0, 12, lores.shape), 0, 255).astype(np.uint8)

    assert max(change(grainy(), grainy()) for _ in range(5)) < CHANGE_THRESHOLD
    with_a_die = grainy()
    with_a_die[100:117, 200:217] = 235
    assert change(grainy(), with_a_die) > 3 * CHANGE_THRESHOLD


# -- dice only in the tray -------------------------------------------------------------

TRAY = {"roll_the_dice_here": (38.0, 36.0, 201.0, 150.0)}
PX = 2.0  # mat pixels per mm


def board_frame() -> tuple[np.ndarray, tuple[int, int]]:
    """A frame with the dice-tray board mat at (x, y) (its top-left corner, unturned)."""
    frame = table_image()
    mat = render_mat(BOARD, PX)
    x, y = 700, 200
    frame[y : y + mat.shape[0], x : x + mat.shape[1]] = mat[..., None]
    return frame, (x, y)


def test_reuse_table_dice_region_is_the_tray_and_its_margin() -> None:
    frame, (x, y) = board_frame()
    table = Table(board_areas=TRAY)
    assert table.dice_region() is None  # not calibrated: the whole frame
    table.calibrate(frame)
    region = table.dice_region(margin_mm=10.0)
    assert region is not None
    want = (x + 28 * PX, y + 26 * PX, x + 249 * PX, y + 196 * PX)
    assert region == pytest.approx(want, abs=3)
    # Mats without a dice area, or no mats: dice are looked for everywhere.
    table = Table(board_areas={"pot": (150.0, 42.0, 66.0, 91.0)})
    table.calibrate(frame)
    assert table.mats and table.dice_region() is None
    table = Table()
    table.calibrate(table_image())
    assert table.dice_region() is None


def test_reuse_dice_are_read_only_in_the_tray() -> None:
    frame, _ = board_frame()
    # Dice at the crop's own coordinates: one inside, one cut by the crop's left edge.
    dice = FakeDice(
        [
            Die(4, (100.0, 100.0, 134.0, 134.0), 0.99),
            Die(None, (0.0, 200.0, 20.0, 234.0), 0.5, "half out of view"),
        ]
    )
    pipe = Pipeline(
        Nothing(),
        table=Table(board_areas=TRAY),
        stabiliser=Stabiliser(2, clock=Clock()),
        dice_reader=dice,  # type: ignore[arg-type]
        cards=False,
    )
    seen = [pipe.look(frame_of(frame, i)) for i in range(2)][1]
    region = pipe.table.dice_region()
    assert region is not None
    x0, y0, x1, y1 = region
    assert dice.calls == [((y1 - y0, x1 - x0, 3), pytest.approx(640 / 1280))]
    assert seen.dice is not None
    inside, cut = seen.dice
    assert inside.box == pytest.approx((x0 + 100, y0 + 100, x0 + 134, y0 + 134))
    assert inside.value == 4 and inside.reason is None
    assert cut.value is None and cut.reason == "half out of the tray"
    zone = pipe.table.locate(
        ((inside.box[0] + inside.box[2]) / 2, (inside.box[1] + inside.box[3]) / 2)
    )
    assert zone is not None and zone[0] == Zone(BOARD, "roll_the_dice_here")


def test_reuse_without_mats_dice_are_read_in_the_whole_frame() -> None:
    dice = FakeDice()
    pipe = pipeline(dice)
    run(pipe, [table_image()] * 2)
    assert dice.calls == [((720, 1280, 3), None)]


def test_reuse_a_synthetic_minute_is_read_once_per_settled_scene() -> None:
    from vision.bench import table_minute

    rng = np.random.default_rng(3)
    photo = np.full((480, 640, 3), 200, np.uint8)
    for x in rng.integers(40, 560, 3).tolist():  # three white dice on a light table
        cv2.rectangle(photo, (x, 200), (x + 62, 262), (250, 250, 250), -1)
        cv2.circle(photo, (x + 31, 231), 7, (20, 20, 20), -1)
    dice, cards = FakeDice(), FakeCards()
    pipe = pipeline(dice, cards)
    shots = list(
        table_minute((960, 540), [photo, photo[:, ::-1].copy()], mats=True, seconds=20, seed=0)
    )
    events = [s.event for s in shots]
    assert len(shots) == 600 and {"still", "card", "roll"} <= set(events)
    stills = [pipe.look(Frame(s.main, s.lores, s.index, 0.0)).still for s in shots]
    # A hand moving or dice tumbling is never still; long still spells are.
    moving = [i for i, e in enumerate(events) if e in ("card", "roll")]
    assert sum(stills[i] for i in moving) < len(moving) / 4
    assert sum(stills) > 0.8 * events.count("still")
    # Each event is read again once still (more when a hand pauses or dice slow down),
    # never once per still frame.
    settles = sum(1 for i in range(1, len(events)) if events[i] == "still" != events[i - 1])
    assert settles + 1 <= len(dice.calls) <= 3 * (settles + 1)
    assert len(dice.calls) < sum(stills) / 10


# -- reading only the parts that changed ------------------------------------------------


class BlobDice:
    """A dice reader that really looks: white squares are dice, dark dots their pips
    (a white patch cut by the edge of what it is shown is no die)."""

    long_side = 640

    def __init__(self) -> None:
        self.shapes: list[tuple[int, ...]] = []

    def read(self, frame: np.ndarray, scale: float | None = None, skip: object = ()) -> list[Die]:
        self.shapes.append(frame.shape)
        grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
        white = (grey > 215).astype(np.uint8)
        n, _, stats, _ = cv2.connectedComponentsWithStats(white)
        h, w = grey.shape
        dice = []
        for x, y, bw, bh, _ in stats[1:n].tolist():
            if not 20 <= max(bw, bh) <= 60:
                continue
            box = (float(x), float(y), float(x + bw), float(y + bh))
            if x == 0 or y == 0 or x + bw == w or y + bh == h:
                continue  # cut by the edge (or a piece of a mat marker)
            pips = cv2.connectedComponents((grey[y : y + bh, x : x + bw] < 80).astype(np.uint8))[0]
            dice.append(Die(pips - 1, box, 0.99))
        return sorted(dice, key=lambda d: d.box[0])


def values(seen_dice: Sequence[Die] | None) -> list[tuple[int | None, int, int]]:
    return [(d.value, round(d.box[0]), round(d.box[1])) for d in seen_dice or ()]


def test_reuse_only_the_rolled_die_is_read_again() -> None:
    reader = BlobDice()
    pipe = pipeline(reader)  # type: ignore[arg-type]
    table = table_image()
    before = with_die(with_die(table, 300, 300, 2), 900, 400, 5)
    after = with_die(with_die(table, 300, 300, 2), 700, 150, 3)  # the 5 rolled: now a 3
    seen = [pipe.look(frame_of(img, i)) for i, img in enumerate([before] * 3 + [after] * 3)]
    assert values(seen[1].dice) == [(2, 300, 300), (5, 900, 400)]
    assert values(seen[4].dice) == [(2, 300, 300), (3, 700, 150)]
    assert pipe.partial_reads == 1 and reader.shapes[0] == (720, 1280, 3)
    # The die that stayed was not looked at again: the parts read hold no pixel of it.
    assert all(shape[0] * shape[1] < 0.1 * 720 * 1280 for shape in reader.shapes[1:])


def test_reuse_a_die_beside_a_change_is_read_once() -> None:
    # A card laid against a die that is turned over at the same time: the die touches
    # the change, so it is read again (its new face), once, whole.
    reader = BlobDice()
    pipe = pipeline(reader)  # type: ignore[arg-type]
    table = table_image()
    before = with_die(with_die(table, 600, 300, 4), 200, 500, 1)
    laid = with_die(with_die(table, 600, 300, 5), 200, 500, 1)
    cv2.rectangle(laid, (520, 260), (597, 380), (40, 40, 200), -1)
    seen = [pipe.look(frame_of(img, i)) for i, img in enumerate([before] * 3 + [laid] * 3)]
    assert values(seen[1].dice) == [(1, 200, 500), (4, 600, 300)]
    assert values(seen[4].dice) == [(1, 200, 500), (5, 600, 300)]
    assert all(d.reason is None for d in seen[4].dice or ())
    assert pipe.partial_reads == 1


def test_reuse_a_big_change_reads_the_whole_area() -> None:
    reader = BlobDice()
    pipe = pipeline(reader)  # type: ignore[arg-type]
    a = with_die(table_image(0), 300, 300, 2)
    b = with_die(table_image(1), 700, 300, 6)  # the whole table looks different
    seen = [pipe.look(frame_of(img, i)) for i, img in enumerate([a] * 3 + [b] * 3)]
    assert values(seen[4].dice) == [(6, 700, 300)]
    assert pipe.partial_reads == 0 and reader.shapes == [(720, 1280, 3)] * 2


def test_reuse_a_change_outside_the_tray_reads_no_dice() -> None:
    frame, (x, y) = board_frame()
    tray = (x + round(38 * PX), y + round(36 * PX), x + round(239 * PX), y + round(186 * PX))
    cv2.rectangle(frame, tray[:2], tray[2:], (120, 120, 120), -1)  # a grey tray: dice show
    frame = with_die(frame, x + 200, y + 150, 3)
    reader = BlobDice()
    pipe = Pipeline(
        Nothing(),
        table=Table(board_areas=TRAY),
        stabiliser=Stabiliser(2, clock=Clock()),
        dice_reader=reader,  # type: ignore[arg-type]
        cards=False,
    )
    laid = frame.copy()
    cv2.rectangle(laid, (100, 500), (230, 680), (40, 40, 200), -1)  # a card off the mat
    seen = [pipe.look(frame_of(img, i)) for i, img in enumerate([frame] * 3 + [laid] * 3)]
    assert values(seen[4].dice) == values(seen[1].dice) == [(3, x + 200, y + 150)]
    assert len(reader.shapes) == 1 and pipe.reads["dice"] == 2 and pipe.partial_reads == 1
    # The mats are not looked for again either: the change lay off the mat.
    assert pipe.calibrations == 1


def test_reuse_mats_are_found_again_when_they_move_or_are_laid() -> None:
    frame, _ = board_frame()
    pipe = pipeline(FakeDice())
    pipe.table = Table(board_areas=TRAY)
    bare = table_image()
    moved = table_image()
    mat = render_mat(BOARD, PX)
    moved[300 : 300 + mat.shape[0], 100 : 100 + mat.shape[1]] = mat[..., None]
    images = [bare] * 3 + [frame] * 3 + [moved] * 3
    regions = []
    for i, img in enumerate(images):
        pipe.look(frame_of(img, i))
        regions.append(pipe.table.dice_region())
    assert regions[2] is None  # no mat yet: dice everywhere
    assert regions[4] is not None and regions[4][0] > 700  # the mat laid, found where it lies
    assert regions[7] is not None and regions[7][0] < 300  # the mat moved: found again
    assert pipe.calibrations == 3
