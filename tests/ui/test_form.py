"""The one setup form (issue 21, :mod:`tabletop.ui.scenes.form`): every game's setup
screen is a spec; one scene lays it out, picks seats, presets a station's choices and
hands the values to the game."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace

import pygame
import pytest

from tabletop.classroom.rotation import Station
from tabletop.ui.app import App, Context, Scene
from tabletop.ui.autoplay import Autoplayer
from tabletop.ui.games import bubbles, math_arena, math_attack
from tabletop.ui.games.math_arena import ArenaScene
from tabletop.ui.games.math_attack import AttackScene
from tabletop.ui.games.mecs import setup as mecs_setup
from tabletop.ui.input import SeatPressed
from tabletop.ui.scenes.form import (
    BOT,
    CHILD,
    EMPTY,
    Cards,
    Choice,
    FormScene,
    FormSpec,
    FormValues,
    Link,
    OptionRow,
    Preset,
    Seats,
)
from tabletop.ui.scenes.names import NameScene
from tabletop.ui.scenes.rules import ChoiceGrid, RulesPage, RulesScene
from tests.ui.scenery import SIZES, make_app

RULES = (RulesPage("Play", "Take turns.", "Ann plays, then Bo."),)
HANDED: list[FormValues] = []


class Started(Scene):
    """What a test game's ``start`` opens."""


def _start(ctx: Context, values: FormValues) -> Scene:
    HANDED.append(values)
    return Started(ctx)


BIG = FormSpec(  # as much as a game may declare: 8 seats, cards, five option rows
    game="test",
    title="Every row",
    subtitle="A form with more rows than one screen holds.",
    rules=RULES,
    start=_start,
    seats=Seats(
        1,
        8,
        (CHILD, CHILD, BOT, EMPTY, EMPTY, EMPTY, EMPTY, EMPTY),
        levels=(("easy", "Easy"), ("medium", "Medium"), ("hard", "Hard")),
        level="medium",
    ),
    cards=Cards(),
    options=tuple(
        OptionRow(
            f"o{i}",
            f"Option {i}",
            (Choice("a", "First", "one"), Choice("b", "Second", "two"), Choice("c", "Third")),
            "a",
        )
        for i in range(5)
    ),
    modes=(("all-bots", Preset(seats=(BOT, BOT), cards="virtual")),),
    links=(Link("next-door", "Next door", lambda ctx: Started(ctx), "another screen"),),
)
SPECS = {
    "math-attack": math_attack.SETUP,
    "math-arena": math_arena.SETUP,
    "bubbles": bubbles.SETUP,
    "mecs": mecs_setup.SETUP,
    "big": BIG,
}


def form_app(spec: FormSpec, size: tuple[int, int] = (800, 480)) -> tuple[App, Autoplayer]:
    app = make_app(size)
    app.stack.push(FormScene(app.ctx, spec))
    app.step()
    HANDED.clear()
    return app, Autoplayer(app)


def pick(auto: Autoplayer, seat: int, choice: str) -> None:
    """Tap seat ``seat``'s tile, then ``choice`` in its picker."""
    auto.tap(f"seat.{seat}")
    auto.tap(f"choice.{choice}")


@contextmanager
def text_sizes(app: App) -> Iterator[list[int]]:
    """Every text size the painter renders while the block runs."""
    fonts = app.ctx.painter.fonts
    sizes: list[int] = []
    render = fonts.render

    def recording(text: str, size: int, *args: object, **kw: object) -> pygame.Surface:
        if text.strip():
            sizes.append(size)
        return render(text, size, *args, **kw)  # type: ignore[arg-type]

    fonts.render = recording  # type: ignore[method-assign]
    try:
        yield sizes
    finally:
        fonts.render = render  # type: ignore[method-assign]


def check_page(app: App, form: FormScene) -> None:
    m = app.ctx.metrics
    screen = pygame.Rect(0, 0, *m.size)
    for b in form.buttons:
        assert screen.contains(b.rect), f"{b.name} is off screen at {m.size}"
        assert min(b.rect.size) >= m.touch, f"{b.name} is {b.rect.size} at {m.size}"
    for i, a in enumerate(form.buttons):
        for b in form.buttons[i + 1 :]:
            assert not a.rect.colliderect(b.rect), f"{a.name} overlaps {b.name} at {m.size}"
    if form.aside_rect is not None:
        assert screen.contains(form.aside_rect)
        assert not any(b.rect.colliderect(form.aside_rect) for b in form.buttons)
    label_room = min(b.rect.left for b in form.buttons if b.rect.bottom < form.message_rect.top)
    fonts = app.ctx.painter.fonts
    for label, *_ in form.words:  # a row's label ends before its buttons begin
        assert m.u(16) + fonts.width(label, m.text, True) + m.u(6) <= label_room, label
    with text_sizes(app) as sizes:
        app.step(force_draw=True)
    assert sizes
    if m.size == (800, 480):
        assert min(sizes) >= 16, f"text at {min(sizes)} px"


# -- layout -------------------------------------------------------------------------------------


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("name", sorted(SPECS))
def test_form_layout_fits_both_sizes_with_touch_size_targets(name, size) -> None:
    app, auto = form_app(SPECS[name], size)
    form = app.stack.top
    assert isinstance(form, FormScene)
    for page in range(form.pages):
        assert form.page == page
        check_page(app, form)
        if form.pages > 1:
            auto.tap("more")
    assert form.page == 0


def test_form_shows_the_empty_seats_that_fit_one_line_and_more_as_seats_fill() -> None:
    """A game for up to eight (M.E.C.S.) does not spend a second line on empty seats."""
    app = make_app()
    auto = Autoplayer(app)
    auto.tap("game.mecs")
    form = app.stack.top
    assert isinstance(form, FormScene) and len(form.filled) == 2
    assert [b.name for b in form.buttons if b.name.startswith("seat.")] == [
        f"seat.{i}" for i in range(5)
    ]
    for seat in range(2, 5):
        auto.tap(f"seat.{seat}")
        auto.tap("choice.child")
    assert len(form.filled) == 5 and form.target("seat.5") is not None
    assert form.target("seat.6") is None
    check_page(app, form)


def test_form_too_many_rows_turn_the_page_instead_of_shrinking() -> None:
    seven = (CHILD, CHILD, BOT, CHILD, CHILD, CHILD, CHILD, EMPTY)  # two lines of seat tiles
    assert BIG.seats is not None
    app, auto = form_app(replace(BIG, seats=replace(BIG.seats, start=seven)))
    form = app.stack.top
    assert form.pages == 3 and form.target("more").label == "More options"
    first = {b.name for b in form.buttons}
    assert {"seat.0", "seat.7", "cards.real", "o0.a"} <= first
    later: set[str] = set()
    for _ in range(form.pages - 1):
        auto.tap("more")
        later |= {b.name for b in form.buttons}
        assert {"back", "rules", "start"} <= later and "seat.0" not in later
    assert form.target("more").label == "Back to players"
    every = {r.key for r in BIG.options} | {"next-door"}
    assert every == {n.split(".")[0] for n in first | later if n.startswith(("o", "next"))}
    auto.tap("next-door")  # a link opens the screen next door, and comes back
    assert isinstance(app.stack.top, Started) and not HANDED
    app.stack.pop()
    assert app.stack.top is form


def test_form_rules_back_start_are_in_the_same_place_in_every_game() -> None:
    places = set()
    for name, spec in SPECS.items():
        app, auto = form_app(spec)
        form = app.stack.top
        places.add(tuple((n, tuple(form.target(n).rect)) for n in ("back", "rules", "start")))
        assert form.target("rules").label == "Rules", name
        auto.tap("rules")
        assert isinstance(app.stack.top, RulesScene) and app.stack.top.pages == spec.rules
    assert len(places) == 1


# -- seats --------------------------------------------------------------------------------------


def test_form_seat_picker_offers_child_name_bot_levels_and_nobody() -> None:
    app, auto = form_app(math_arena.SETUP)
    form = app.stack.top
    auto.tap("seat.2")  # a third seat filled (two is the fewest), so one may be emptied
    auto.tap("choice.child")
    auto.tap("seat.1")
    picker = app.stack.top
    assert isinstance(picker, ChoiceGrid)
    assert [key for key, _ in picker.choices] == [
        "child",
        "name",
        "bot.easy",
        "bot.hard",
        "empty",
    ]
    assert dict(picker.choices)["child"].endswith("\u2713")  # what the seat is now
    auto.tap("choice.bot.hard")
    assert app.stack.top is form
    assert form.target("seat.1").label == "Bot" and form.target("seat.1").caption == "Hard"
    assert form.values().bots == {1: "hard"}


def test_form_a_bot_sits_only_where_the_game_allows_and_seats_stay_in_range() -> None:
    app, auto = form_app(math_attack.SETUP)
    form = app.stack.top
    auto.tap("seat.0")  # Math Attack!: seat 1 is always a child, and nobody leaves
    assert [k for k, _ in app.stack.top.choices] == ["child", "name"]
    auto.tap("cancel")
    auto.tap("seat.1")
    assert [k for k, _ in app.stack.top.choices] == [
        "child",
        "name",
        "bot.easy",
        "bot.medium",
        "bot.hard",
    ]
    auto.tap("choice.bot.medium")
    assert form.values().names == ("Player 1", "Bot (Medium)")


def test_form_emptying_a_seat_moves_the_later_ones_up_and_adding_fills_the_first_free() -> None:
    app, auto = form_app(math_arena.SETUP)
    form = app.stack.top
    pick(auto, 2, "child")  # three players: one may leave
    pick(auto, 1, "bot.easy")
    pick(auto, 0, "empty")  # seat 1 leaves: the bot is seat 1 now, Player 3 seat 2
    assert [s.kind for s in form.seats] == [BOT, CHILD, EMPTY, EMPTY, EMPTY]
    assert form.values().names == ("Bot 1", "Player 2")
    auto.tap("seat.1")
    assert "empty" not in dict(app.stack.top.choices)  # Math Arena needs two players
    auto.tap("cancel")
    auto.tap("seat.4")  # an empty tile: the new player takes seat 3
    assert app.stack.top.title == "Seat 5: add a player"
    auto.tap("choice.child")
    assert [s.kind for s in form.seats] == [BOT, CHILD, CHILD, EMPTY, EMPTY]
    assert form.target("seat.3").label == "Nobody"


def test_form_names_a_child_with_the_name_screen() -> None:
    app, auto = form_app(math_attack.SETUP)
    form = app.stack.top
    pick(auto, 0, "name")
    assert isinstance(app.stack.top, NameScene)
    for ch in "MIA":
        auto.tap(f"key.{ch}")
    auto.tap("ok")
    assert app.stack.top is form and form.target("seat.0").label == "Mia"
    assert form.target("first.0").label == "Mia"  # "Who starts" names the seats
    pick(auto, 0, "name")
    auto.tap("cancel")  # no name typed: the seat keeps its name
    assert form.values().names[0] == "Mia"


def test_form_refuses_a_name_another_seat_has_and_asks_again() -> None:
    """Seat 2 may not be "Mi A" (or "MIA") with "Mia" at seat 1: the same name, capitals
    and spaces aside. The name pad opens again on it, saying which seat has it; a letter
    more makes it a name of its own."""
    app, auto = form_app(math_attack.SETUP)
    form = app.stack.top
    for seat, letters in ((0, "MIA"), (1, "MI A")):
        pick(auto, seat, "name")
        for ch in letters:
            auto.tap("key.space" if ch == " " else f"key.{ch}")
        auto.tap("ok")
    pad = app.stack.top
    assert isinstance(pad, NameScene) and pad.name == "Mi A" and pad.title == "Name for seat 2"
    assert pad.message == "Seat 1 is called Mia already: add a letter."
    assert form.values().names[1] == "Player 2"
    auto.tap("key.S")
    auto.tap("ok")
    assert app.stack.top is form and form.values().names[:2] == ("Mia", "Mi As")


def test_form_shared_bot_level_sets_every_bot() -> None:
    app, auto = form_app(math_arena.SETUP)
    form = app.stack.top
    pick(auto, 1, "bot.hard")
    pick(auto, 2, "bot.easy")
    assert form.values().bots == {1: "easy", 2: "easy"} and form.values().level == "easy"


# -- cards --------------------------------------------------------------------------------------


def test_form_a_bot_forces_virtual_cards_and_says_why() -> None:
    app, auto = form_app(math_attack.SETUP)
    form = app.stack.top
    assert form.values().cards == "real" and not form.target("cards.virtual").enabled
    tap_off(app, form, "cards.virtual")
    assert form.message == math_attack.SETUP.cards.why_without_bot
    pick(auto, 1, "bot.easy")
    assert form.values().cards == "virtual" and form.target("cards.virtual").selected
    assert not form.target("cards.real").enabled
    tap_off(app, form, "cards.real")
    assert form.message.startswith("A bot plays with cards on the screen.")
    assert "tap the bot: choose a child" in form.message  # and what to do for real cards
    pick(auto, 1, "child")
    assert form.values().cards == "real"


def tap_off(app: App, form: FormScene, name: str) -> None:
    from tabletop.ui.input import Tap

    button = form.target(name)
    assert button is not None and not button.enabled
    app.post(Tap(button.rect.center, app.ctx.clock(), "touch"))
    app.step()


def test_form_the_players_stepper_at_its_end_says_why() -> None:
    """The "-" with the fewest players, the "+" with every seat filled: a tap says why
    nothing changed (it only buzzed)."""
    from tabletop.ui.games.mathe_meister.setup import SETUP

    app, auto = form_app(SETUP)
    form = app.stack.top
    assert SETUP.seats is not None and len(form.filled) == SETUP.seats.low == 1
    tap_off(app, form, "players.-")
    assert form.message == "No fewer players: this game needs 1 at least."
    for _ in range(SETUP.seats.high - 1):
        auto.tap("players.+")
    tap_off(app, form, "players.+")
    assert form.message == "No more players: this game has 8 seats."
    auto.tap("players.-")
    assert form.message == "" and len(form.filled) == 7


def test_form_cards_free_without_bots_are_chosen_once() -> None:
    app, auto = form_app(math_arena.SETUP)
    form = app.stack.top
    auto.tap("cards.virtual")
    assert form.values().cards == "virtual"
    auto.tap("cards.real")
    assert form.values().cards == "real" and form.target("cards.real").selected


# -- presets (station rotation) -----------------------------------------------------------------


def test_form_station_rotation_presets_mode_and_options(caplog) -> None:
    app, auto = form_app(math_attack.SETUP)
    form = app.stack.top
    station = Station("math-attack", "bot", {"level": "hard"})
    form.preset(station.mode, station.options)  # as the station screen sets it up
    assert form.values().bots == {1: "hard"} and form.values().cards == "virtual"
    assert form.target("seat.1").caption == "Hard" and form.target("cards.virtual").selected
    auto.tap("seat.1")  # the group may still change it
    auto.tap("choice.child")
    assert form.values().bots == {} and form.values().cards == "real"

    app, _ = form_app(bubbles.SETUP)
    form = app.stack.top
    form.preset("", {})  # nothing to preset: as it was
    form.preset("", {"time": "90"})
    assert form.target("time.90").selected and form.values().options["time"] == "90"
    with caplog.at_level(logging.WARNING):
        form.preset("race", {"time": "45", "deck": "advanced"})
    assert form.values().options["time"] == "90"  # a wrong preset changes nothing
    assert "no mode 'race'" in caplog.text and "time='45'" in caplog.text


def test_form_preset_of_all_bots_forces_virtual_cards() -> None:
    app, _ = form_app(BIG)
    form = app.stack.top
    form.preset("all-bots", {"level": "hard", "o2": "c"})
    assert [s.kind for s in form.seats] == [BOT, BOT] + [EMPTY] * 6
    assert form.values().bots == {0: "hard", 1: "hard"} and form.values().cards == "virtual"
    assert form.values().options["o2"] == "c"


# -- start --------------------------------------------------------------------------------------


def test_form_start_hands_the_values_to_the_game() -> None:
    app, auto = form_app(BIG)
    form = app.stack.top
    pick(auto, 2, "bot.hard")
    auto.tap("more")
    auto.tap("o4.b")
    auto.tap("start")
    assert isinstance(app.stack.top, Started) and form in app.stack
    (values,) = HANDED
    assert values.names == ("Player 1", "Player 2", "Bot 3")
    assert [(s.seat, s.bot) for s in values.seats] == [(0, None), (1, None), (2, "hard")]
    assert values.cards == "virtual" and values.virtual
    assert values.options == {"o0": "a", "o1": "a", "o2": "a", "o3": "a", "o4": "b"}


def test_form_start_opens_each_game_with_its_choices() -> None:
    app, auto = form_app(math_attack.SETUP)
    pick(auto, 1, "bot.hard")
    auto.tap("first.1")
    auto.tap("start")
    game = app.stack.top
    assert isinstance(game, AttackScene)
    assert game.play.bot_level == "hard" and game.play.virtual
    assert game.state.settings.first_player == 1 and game.state.turn == 1
    assert game.names == ("Player 1", "Bot (Hard)")

    app, auto = form_app(math_arena.SETUP)
    pick(auto, 2, "bot.hard")
    auto.tap("start")
    game = app.stack.top
    assert isinstance(game, ArenaScene)
    assert not any(isinstance(s, FormScene) for s in app.stack)  # the game took its place
    assert game.play.seats == [("Player 1", False), ("Player 2", False), ("Bot 3", True)]
    assert game.play.level == "hard" and game.play.cards == "virtual"


def test_form_seat_button_starts_the_bubble_game() -> None:
    app, _ = form_app(bubbles.SETUP)
    assert app.ctx.lamps.lit == {0}
    app.seat_queue.put(SeatPressed(0, app.ctx.clock()))
    app.step()
    assert isinstance(app.stack.top, bubbles.BubbleScene)
    assert app.stack.top.seconds == 60


def test_form_back_leaves_the_setup() -> None:
    app, auto = form_app(math_arena.SETUP)
    below = len(app.stack)
    auto.tap("back")
    assert len(app.stack) == below - 1


# -- a spec that cannot work is refused when it is written --------------------------------------


@pytest.mark.parametrize(
    "make,words",
    [
        (lambda: Seats(0, 2, (CHILD, CHILD)), "are not 1.."),
        (lambda: Seats(2, 3, (CHILD, CHILD)), "must give 3 kinds"),
        (lambda: Seats(1, 3, (CHILD, EMPTY, CHILD)), "empty ones come last"),
        (lambda: Seats(2, 3, (CHILD, EMPTY, EMPTY)), "empty ones come last"),
        (lambda: Seats(1, 2, (CHILD, BOT)), "needs bot levels"),
        (lambda: Seats(1, 2, (CHILD, CHILD), (("easy", "Easy"),), "hard"), "not one of"),
        (lambda: OptionRow("x", "X", (Choice("a", "A"),), "b"), "is no choice"),
        (lambda: FormSpec("g", "G", "", (), _start), "needs its rules"),
        (
            lambda: FormSpec(
                "g",
                "G",
                "",
                RULES,
                _start,
                options=(OptionRow("seat", "S", (Choice("a", "A"),), "a"),),
            ),
            "option keys",
        ),
    ],
)
def test_form_spec_refuses_what_cannot_work(make, words) -> None:
    with pytest.raises(ValueError, match=words):
        make()


def test_form_empty_seat_tile_beside_four_players_is_16px_or_more() -> None:
    """Mathe-Meister with four players: five tiles and the stepper share the row, and the
    empty tile's "tap to add" takes two lines rather than 15 px (issue 21)."""
    from tabletop.ui.games.mathe_meister.setup import SETUP

    app, auto = form_app(SETUP)
    for _ in range(3):
        auto.tap("players.+")
    form = app.stack.top
    assert isinstance(form, FormScene) and form.target("seat.4").caption == "tap to add"
    check_page(app, form)


def test_form_real_cards_refused_with_a_bot_say_what_to_do() -> None:
    """ "Bots play with virtual cards." said why Real cards is off, not what to do; the
    way it says works: the bot's seat given to a child, real cards can be chosen."""
    app, auto = form_app(math_arena.SETUP)
    form = app.stack.top
    assert isinstance(form, FormScene)
    pick(auto, 1, "bot.easy")
    tap_off(app, form, "cards.real")
    assert form.message.endswith("For real cards, tap the bot and choose a child.")
    assert form.message.startswith("A bot can't hold real cards")
    pick(auto, 1, "child")
    auto.tap("cards.real")
    assert form.values().cards == "real"
