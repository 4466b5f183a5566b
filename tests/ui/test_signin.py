"""Sign-in at a station: badges under the camera, a tap on a name, guests, refusals."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pygame
import pytest

from hardware.buttons import SeatPressed
from tabletop.classroom.roster import Roster
from tabletop.classroom.students import badge_id
from tabletop.store import SeatInfo
from tabletop.ui.app import App
from tabletop.ui.autoplay import Autoplayer
from tabletop.ui.input import CardSeen, CardsSeen, Key, Tap
from tabletop.ui.scenes.roster import PickDialog
from tabletop.ui.scenes.signin import SAYS, SignInScene, needs_sign_in
from tests.ui.scenery import SIZES, Recorder, build, drawn_texts, long_name_on_two_lines, make_app

CLASS = """id,name,group
S1,Ada Lovelace,Red
S2,Alan Turing,Red
S3,Grace Hopper,Blue
S4,Emmy Noether,Blue
S5,Zoë Ørsted,Green
"""


class FakeRotation:
    """A running rotation as the app sees it: a group, a clock to update, a banner."""

    def __init__(self, group: str) -> None:
        self.group = group

    def update(self) -> bool:
        return False

    def draw(self, surface: Any, metrics: Any) -> None:
        pass


def open_sign_in(
    seats: int = 3,
    bots: dict[int, str] | None = None,
    size: tuple[int, int] = (800, 480),
    rotation: str | None = None,
    card_camera: Any = None,
) -> tuple[App, SignInScene, Recorder]:
    app = make_app(size)
    Roster(app.ctx.journal).import_csv(CLASS)
    if rotation is not None:
        app.ctx.rotation = FakeRotation(rotation)
    app.ctx.card_camera = card_camera
    catch = Recorder(app.ctx)
    app.stack.push(catch)
    defaults = [f"Player {i + 1}" for i in range(seats)]
    scene = SignInScene(app.ctx, defaults, bots)
    app.stack.push(scene)
    app.step()
    return app, scene, catch


def badge(app: App, *codes: str, seat: int | None = None) -> None:
    """The camera's steady reading of one zone with these codes in it."""
    cards = tuple(CardSeen(code, seat, None) for code in codes)
    app.post(CardsSeen(seat, None, cards, app.ctx.clock()))
    app.step()


def names(scene: SignInScene) -> list[tuple[str, str | None, bool]]:
    """Each seat's name, student id, and whether it plays as a guest."""
    guest = [d and s.student is None and s.bot is None for s, d in zip(scene.seats, scene.decided)]
    return [(s.name, s.student, g) for s, g in zip(scene.seats, guest, strict=True)]


def test_signin_badge_ids_from_camera_codes() -> None:
    assert badge_id("MT1:ID:S1") == "S1"
    assert badge_id("!MT1:ID:S1") == "S1"  # seen twice in one frame: still the badge
    for code in ("?", "MT1:MECS:7", "MT1:ID:", "MT1:ID:A B", "S1", ""):
        assert badge_id(code) is None


def test_signin_needed_only_with_a_class_list() -> None:
    app = make_app()
    assert not needs_sign_in(app.ctx)
    Roster(app.ctx.journal).add("Ada")
    assert needs_sign_in(app.ctx)


def test_signin_badge_in_a_seats_zone_signs_in_that_seat() -> None:
    app, scene, catch = open_sign_in(3)
    badge(app, "MT1:ID:S3", seat=2)
    assert names(scene) == [
        ("Player 1", None, False),
        ("Grace Hopper", "S3", False),
        ("Player 3", None, False),
    ]
    assert scene.message == "Hello, Grace Hopper! You sit at seat 2." and scene.good
    assert scene.active == 0  # the highlighted seat is still the first empty one
    badge(app, "MT1:ID:S1")  # no seat: the highlighted seat
    badge(app, "MT1:ID:S5", seat=None)
    assert [s.student for s in scene.seats if s.student] == ["S1", "S3", "S5"]
    assert scene.active is None
    Autoplayer(app).tap("done")
    assert catch.results == [
        [
            SeatInfo(0, "Ada Lovelace", "S1", "Red"),
            SeatInfo(1, "Grace Hopper", "S3", "Blue"),
            SeatInfo(2, "Zoë Ørsted", "S5", "Green"),
        ]
    ]


def test_signin_a_badge_in_a_signed_in_seats_zone_says_who_no_longer_sits_there() -> None:
    """Another child's badge in the zone of a seat a child signed in at takes the seat:
    the greeting says who sat there (they were unseated without a word), and that child
    can sign in again."""
    app, scene, _ = open_sign_in(2)
    badge(app, "MT1:ID:S1", seat=1)
    badge(app, "MT1:ID:S1", seat=1)  # the same badge again: a plain hello
    assert scene.message == "Hello, Ada Lovelace! You sit at seat 1."
    badge(app, "MT1:ID:S2", seat=1)
    assert scene.message == "Hello, Alan Turing! You sit at seat 1 now, not Ada Lovelace."
    assert names(scene)[0] == ("Alan Turing", "S2", False)
    seated = scene.target("student.S1")
    assert seated is not None and seated.enabled  # Ada may sign in again
    Autoplayer(app).tap("student.S1")
    assert names(scene)[1] == ("Ada Lovelace", "S1", False)


def test_signin_by_tapping_names_and_as_guest() -> None:
    app, scene, catch = open_sign_in(3, bots={1: "easy"}, rotation="Blue")
    auto = Autoplayer(app)
    assert not scene.target("done").enabled  # type: ignore[union-attr]
    assert not scene.target("seat.1").enabled  # type: ignore[union-attr]  (a bot's seat)
    auto.tap("student.S4")
    assert scene.active == 2  # the bot's seat is skipped
    auto.tap("guest")
    assert scene.message == "Seat 3 plays as a guest."
    auto.tap("done")
    assert catch.results == [
        [
            SeatInfo(0, "Emmy Noether", "S4", "Blue"),
            SeatInfo(1, "Player 2", None, "", "easy"),
            SeatInfo(2, "Player 3", None, "", None),  # a guest: no id, no group
        ]
    ]


def test_signin_a_seat_can_be_changed_by_tap_or_seat_button() -> None:
    app, scene, _ = open_sign_in(2)
    auto = Autoplayer(app)
    auto.tap("student.S1")
    auto.tap("student.S2")
    assert scene.active is None and app.ctx.lamps.lit == set()
    auto.tap("seat.0")
    assert scene.active == 0 and app.ctx.lamps.lit == {0}
    auto.tap("student.S3")  # Ada's seat is Grace's now
    assert names(scene)[0] == ("Grace Hopper", "S3", False)
    assert scene.target("student.S1").enabled  # type: ignore[union-attr]
    app.post(SeatPressed(1, app.ctx.clock()))
    app.step()
    assert scene.active == 1 and app.ctx.lamps.lit == {1}
    auto.tap("guest")  # a guest after all: the default name comes back
    assert names(scene)[1] == ("Player 2", None, True)


def test_signin_refuses_unknown_badges() -> None:
    app, scene, _ = open_sign_in(2)
    badge(app, "MT1:ID:S99", seat=1)
    assert (
        scene.message == SAYS["unknown"] == "This badge is not in the class list. Ask your teacher."
    )
    assert not scene.good and names(scene)[0] == ("Player 1", None, False)


def test_signin_refuses_a_badge_already_used_at_another_seat() -> None:
    app, scene, _ = open_sign_in(2)
    badge(app, "MT1:ID:S1", seat=1)
    badge(app, "MT1:ID:S1", seat=2)
    assert scene.message == "Ada Lovelace is already at seat 1." and not scene.good
    assert names(scene)[1] == ("Player 2", None, False)
    badge(app, "MT1:ID:S1", seat=1)  # the same badge at its own seat again: nothing new
    assert names(scene)[0][1] == "S1"


def test_signin_refuses_what_is_not_a_badge() -> None:
    app, scene, _ = open_sign_in(2)
    for codes in (("?",), ("MT1:MECS:7",), ("MT1:MECS:7", "?")):
        scene.message = ""
        badge(app, *codes, seat=1)
        assert scene.message == "That is not a name badge. Hold up your badge." and not scene.good
    scene.message = ""
    badge(app, seat=1)  # the cards were taken away: nothing to say
    assert scene.message == "" and names(scene)[0] == ("Player 1", None, False)
    badge(app, "?", "MT1:ID:S2", seat=1)  # a badge next to a stray card still counts
    assert names(scene)[0][1] == "S2"


def test_signin_refuses_two_badges_in_one_seats_zone() -> None:
    app, scene, _ = open_sign_in(2)
    badge(app, "MT1:ID:S1", "MT1:ID:S2", seat=1)
    assert scene.message == "Hold up one badge at a time." and not scene.good
    assert all(s.student is None for s in scene.seats)
    badge(app, "MT1:ID:S1", "MT1:ID:S2", seat=None)  # held up over no seat: in turn
    assert [s.student for s in scene.seats if s.student] == ["S1", "S2"]


def test_signin_with_every_seat_filled_says_so() -> None:
    app, scene, _ = open_sign_in(1)
    auto = Autoplayer(app)
    auto.tap("student.S1")
    badge(app, "MT1:ID:S2")
    assert scene.message == SAYS["full"] and names(scene)[0][1] == "S1"
    assert not scene.target("guest").enabled  # type: ignore[union-attr]
    seated = scene.target("student.S1")
    assert seated is not None and not seated.enabled and seated.caption == "seat 1"
    app.post(Tap(seated.rect.center, app.ctx.clock(), "touch"))  # a child taps it anyway
    app.step()
    assert scene.message == "Ada Lovelace is already at seat 1."


def test_signin_greyed_play_and_guest_say_why() -> None:
    """A tap on the greyed Play! names the seat still waiting, on the greyed Play as
    guest says every seat has a player; both only buzzed."""
    app, scene, catch = open_sign_in(2)
    auto = Autoplayer(app)
    auto.tap("student.S1")
    tap_off(app, scene, "done")
    assert scene.message == "Seat 2 has no player yet: tap a name, or tap Play as guest."
    assert scene.good is False and catch.results == []
    auto.tap("student.S2")
    tap_off(app, scene, "guest")
    assert scene.message == SAYS["full"]
    auto.tap("done")
    assert [s.student for s in catch.results[0]] == ["S1", "S2"]


def tap_off(app: App, scene: SignInScene, name: str) -> None:
    button = scene.target(name)
    assert button is not None and not button.enabled
    app.post(Tap(button.rect.center, app.ctx.clock(), "touch"))
    app.step()


def test_signin_a_bots_seat_tapped_says_it_needs_no_name() -> None:
    """A tap on a bot's (greyed) seat tile, or a press of its seat button, says it is a
    bot, by the name its tile shows; the highlighted seat stays."""
    app, scene, _ = open_sign_in(3, bots={1: "easy"})
    tap_off(app, scene, "seat.1")
    assert scene.message == "Player 2 is a bot: it needs no name." and scene.good is False
    assert scene.active == 0 and app.ctx.sounds.played[-1] == "wrong"
    scene.message = ""
    app.post(SeatPressed(1, app.ctx.clock()))
    app.step()
    assert scene.message == "Player 2 is a bot: it needs no name." and scene.active == 0


def test_signin_badge_in_a_bots_zone_fills_the_highlighted_seat() -> None:
    app, scene, _ = open_sign_in(2, bots={1: "hard"})
    badge(app, "MT1:ID:S2", seat=2)
    assert names(scene)[0][1] == "S2" and scene.seats[1].bot == "hard"
    badge(app, "MT1:ID:S3", seat=7)  # a mat beyond this game's seats: the same
    assert scene.message == SAYS["full"]


def test_signin_cancel_and_back_pop_with_none() -> None:
    app, _, catch = open_sign_in(2)
    Autoplayer(app).tap("cancel")
    assert catch.results == [None]
    from tabletop.ui.input import Back

    app.stack.push(SignInScene(app.ctx, ["A", "B"]))
    app.post(Back(app.ctx.clock()))
    app.step()
    assert catch.results == [None, None]


def test_signin_opens_on_the_rotations_group_and_picks_groups() -> None:
    """At a rotation's station the names offered are the group's (the banner's "Station
    1 · Green"), not everyone's with the group sorted first; "Everyone" is one tap away
    and lists the group first."""
    app, scene, _ = open_sign_in(2, rotation="Green")
    assert [s.id for s in scene.grid.shown()] == ["S5"]
    assert scene.target("group").label == "Green"  # type: ignore[union-attr]
    assert scene.target("student.S1") is None
    auto = Autoplayer(app)
    auto.tap("group")
    assert isinstance(app.stack.top, PickDialog)
    assert [label for _, label in app.stack.top.choices] == ["Everyone", "Green", "Blue", "Red"]
    auto.tap("choice.0")
    assert [s.id for s in scene.grid.shown()] == ["S5", "S4", "S3", "S1", "S2"]
    auto.tap("group")
    auto.tap("choice.3")
    assert [s.id for s in scene.grid.shown()] == ["S1", "S2"]
    assert scene.target("student.S3") is None
    auto.tap("group")
    auto.tap("cancel")  # cancelled: still Red
    assert scene.grid.group == "Red"


def test_signin_long_names_take_two_lines_at_16px_or_more() -> None:
    """A name over about 21 letters shrank to 13 px at 800x480 (issue 21): it takes two
    lines of whole words."""
    app, scene, _ = open_sign_in()
    long_name_on_two_lines(app, scene)


def test_signin_pages_through_a_long_class_list() -> None:
    app = make_app()
    roster = Roster(app.ctx.journal)
    for i in range(25):
        roster.add(f"Child {chr(65 + i)}", "Red")
    scene = SignInScene(app.ctx, ["A", "B"])
    app.stack.push(scene)
    app.step()
    auto = Autoplayer(app)
    first = {b.name for b in scene.targets() if b.name.startswith("student.")}
    assert scene.grid.pages > 1 and len(first) < 25
    seen = set(first)
    for _ in range(scene.grid.pages - 1):
        auto.tap("page.next")
        seen |= {b.name for b in scene.targets() if b.name.startswith("student.")}
    assert len(seen) == 25
    auto.tap("page.next")  # round to the first page
    assert scene.grid.page == 0
    app.post(Key("left", "", app.ctx.clock()))  # the arrow keys turn the pages too
    app.step()
    assert scene.grid.page == scene.grid.pages - 1


class FakeCardCamera:
    available = True

    def __init__(self, game: str, seats: int) -> None:
        self.game, self.seats = game, seats
        self.started = self.stopped = 0

    def start(self) -> None:
        self.started += 1

    def stop(self) -> None:
        self.stopped += 1


def test_signin_runs_the_card_camera_while_it_is_up() -> None:
    cameras: list[FakeCardCamera] = []

    def factory(game: str, seats: int) -> FakeCardCamera:
        cameras.append(FakeCardCamera(game, seats))
        return cameras[-1]

    app, scene, _ = open_sign_in(3, card_camera=factory)
    assert [(c.game, c.seats, c.started, c.stopped) for c in cameras] == [("signin", 3, 1, 0)]
    assert scene.camera_on
    Autoplayer(app).tap("cancel")
    assert cameras[0].stopped == 1


def test_signin_reads_real_badges_through_the_card_camera(tmp_path: Path) -> None:
    """The real pipeline (no mats: each seat's slice of the table) reads a badge."""
    import cv2

    from tabletop.ui.camera import CardCamera
    from vision.simulate import table_frame
    from vision.sources import ImageFolderSource

    frame, _ = table_frame(["MT1:ID:S4"], np.random.default_rng(5), (1920, 1080), "clean")
    events: list[Any] = []

    def factory(game: str, seats: int) -> CardCamera:
        return CardCamera(
            lambda: ImageFolderSource(tmp_path, loop=True),
            events.append,
            game=game,
            seats=seats,
            threaded=False,
            clock=Tick(),
            max_frames=12,
        )

    # the badge on the right half of the table: seat 2's slice
    cv2.imwrite(str(tmp_path / "table.png"), np.roll(frame, 960, axis=1))
    app, scene, _ = open_sign_in(2, card_camera=factory)
    assert [type(e) for e in events] == [CardsSeen], scene.camera
    assert events[0].seat == 2 and events[0].codes == ("MT1:ID:S4",)
    app.post(events[0])
    app.step()
    assert names(scene)[1] == ("Emmy Noether", "S4", False)


class Tick:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        self.now += 0.05
        return self.now


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("seats", [3, 8])
def test_signin_screenshots(size: tuple[int, int], seats: int, tmp_path: Path) -> None:
    """Rendered at both layouts (looked at while building: see ``$TMPDIR/signin_*``)."""
    app, scene, _ = open_sign_in(seats, bots={seats - 1: "easy"}, size=size, rotation="Blue")
    badge(app, "MT1:ID:S5", seat=2)
    badge(app, "MT1:ID:S99", seat=1)
    path = app.screenshot(tmp_path / f"signin_{seats}_{size[0]}x{size[1]}.png")
    image = pygame.surfarray.array3d(pygame.image.load(str(path)))
    assert image.shape[:2] == size
    assert len(np.unique(image.reshape(-1, 3), axis=0)) > 50  # not blank
    # every touch target on the canvas, and none of them overlap
    canvas = pygame.Rect((0, 0), size)
    targets = scene.targets()
    assert all(canvas.contains(b.rect) for b in targets)
    for i, a in enumerate(targets):
        for b in targets[i + 1 :]:
            assert not a.rect.colliderect(b.rect), (a.name, b.name)
    # names big enough to read at arm's length
    assert all(b.rect.height >= app.ctx.metrics.touch for b in targets)


def test_signin_two_children_with_one_name_are_told_apart() -> None:
    """Two children of the same name (a class list may hold them) get two name buttons
    that read differently: their group under the name, or their id where they share the
    group too; a name nobody else has keeps its plain button."""
    app = make_app()
    Roster(app.ctx.journal).import_csv(
        "id,name,group\nS1,Ada Lovelace,Red\nS2,Alan Turing,Red\n"
        "S6,Ada Lovelace,Blue\nS7,Ada Lovelace,Blue\n"
    )
    scene = SignInScene(app.ctx, ["Player 1", "Player 2"], None)
    app.stack.push(scene)
    app.step()
    shown = [b for b in scene.buttons if b.name.startswith("student.")]
    captions = {b.name[len("student.") :]: b.caption for b in shown}
    assert {"S1", "S6", "S7"} < set(captions) and len(captions) > 3
    assert captions.pop("S1") == "Red"
    assert (captions.pop("S6"), captions.pop("S7")) == ("S6", "S7")
    assert set(captions.values()) == {""}  # the other names: no caption
    Autoplayer(app).tap("student.S1")
    assert scene.target("student.S1").caption == "seat 1 · Red"  # type: ignore[union-attr]


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_signin_a_long_name_and_its_caption_read_beside_eight_seats(size: tuple[int, int]) -> None:
    """Beside eight seats the name grid has half the screen: "Mia Schmidt-Wolkenstein"
    over "seat 1 · 4a" went down to 12 px at 800x480, cut (issue 21). The grid takes
    fewer names a page, in one column where need be, so each reads whole at 16 px or
    more; a class of shorter names keeps its two columns."""
    app = build("app-signin-crowd", size)
    scene = app.stack.top
    assert isinstance(scene, SignInScene)
    got = drawn_texts(app.ctx.painter, lambda: app.step(force_draw=True))
    assert "Mia Schmidt-Wolkenstein seat 1 · 4a" in " ".join(t for t, _ in got)  # whole
    assert min(s for t, s in got if t.strip()) >= app.ctx.painter.least
    short = open_sign_in(8, size=size)[1]
    assert len([b for b in short.buttons if b.name.startswith("student.")]) == 5  # one page
    assert len({b.rect.left for b in short.buttons if b.name.startswith("student.")}) == 2


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_signin_a_narrow_seat_tile_cuts_a_name_only_as_far_as_it_still_reads_apart(
    size: tuple[int, int],
) -> None:
    """Beside eight seats a long name is cut to its first word ("Alexander"), but not where
    another seat's name starts with that word: "Mia Jonesborough" and "Mia Schulzenberg"
    (not namesakes: no tag) once both read "Mia". Then "Mia S.", or, where the initial
    is shared too, the whole name as the painter cuts it."""
    app = make_app(size)
    Roster(app.ctx.journal).import_csv(
        "id,name,group\nS1,Mia Jonesborough,4a\nS2,Mia Schulzenberg,4a\n"
        "S3,Mia Johnsonville,4a\nS4,Alexander Hamilton,4a\n"
    )
    scene = SignInScene(app.ctx, [f"Player {i + 1}" for i in range(8)], None)
    app.stack.push(scene)
    for sid in ("S1", "S2", "S3", "S4"):
        Autoplayer(app).tap(f"student.{sid}")
    got = [t for t, _ in drawn_texts(app.ctx.painter, lambda: app.step(force_draw=True))]
    assert "Mia S." in got and "Alexander" in got and "Mia" not in got
    assert len({t for t in got if t.startswith("Mia Jo") and len(t) < 14}) == 2  # cut apart


@pytest.mark.parametrize("banner", [False, True], ids=["", "banner"])
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_signin_a_seat_tiles_name_keeps_clear_of_its_status(size, banner: bool) -> None:
    """Eight seats to sign in: each tile's name over its status ("waiting…", "✓ signed
    in"). Over the rotation's banner at 800x480 the tiles are 41 px high, and "Player 2"
    at 18 px ran into "waiting…" under it (walk r40): a tile that short has both at
    16 px. Their ink never meets, in the tile, at 16 px or more."""
    from tests.ui.test_rotation_strip import ink, texts_drawn

    texts = texts_drawn("app-signin-crowd", size, banner)
    scene = texts[0].scene
    assert isinstance(scene, SignInScene)
    tiles = [b for b in scene.buttons if b.name.startswith("seat.")]
    assert len(tiles) == 8
    for tile in tiles:
        name, status = [d for d in texts if tile.rect.contains(d.rect) and d.size < 40][-2:]
        inks = [ink(name), ink(status, bold=False)]
        assert inks[1].top - inks[0].bottom >= 1, f"{name.words!r} meets {status.words!r}"
        assert min(name.size, status.size) >= 16
