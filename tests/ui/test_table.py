"""Mathe-Meister at one device with paper sheets: the dice, the rounds and the Bonus Stars
claimed by seat buttons, first claimed, first owned (RULINGS MM-5)."""

from __future__ import annotations

import pytest

from hardware.buttons import SeatPressed
from tabletop.games.mathe_meister import StarBoard
from tabletop.ui.autoplay import Autoplayer
from tabletop.ui.games.mathe_meister.table import BOT_SECONDS, TableScene
from tabletop.ui.messages import CHILD_MESSAGES, child_message
from tabletop.ui.results import GameResults
from tests.ui.scenery import DICE, make_app, tap_at


def table_app(seats: int = 3, bots: tuple[int, ...] = (), size=(800, 480)):
    app = make_app(size)
    auto = Autoplayer(app)
    auto.tap("game.mathe-meister")
    for _ in range(seats - 1):
        auto.tap("players.+")
    for seat in bots:
        auto.tap(f"seat.{seat}")
        auto.tap("choice.bot.hint")
    auto.tap("start")
    auto.tap_dice(DICE[0])
    scene = app.stack.top
    assert isinstance(scene, TableScene)
    return app, auto, scene


def test_table_seat_button_press_claims_a_star() -> None:
    app, auto, scene = table_app()
    app.seat_queue.put(SeatPressed(2, app.ctx.clock() + 0.5))
    app.step()
    assert scene.play.board.current.seat == 2
    assert app.ctx.lamps.lit == {2}  # the waiting seat's LED is lit
    auto.tap("star.C3")
    assert scene.play.board.owners == {"C3": 2}
    assert app.ctx.lamps.lit == set()
    assert not scene.target("star.C3").enabled


def test_table_simultaneous_presses_first_claimed_first_owned() -> None:
    """Seat 3's press reaches the queue after seat 1's but happened 4 ms earlier."""
    app, auto, scene = table_app(4)
    now = app.ctx.clock()
    app.seat_queue.put(SeatPressed(0, now + 0.009))
    app.seat_queue.put(SeatPressed(2, now + 0.005))
    app.step()
    assert [p.seat for p in scene.play.board.waiting] == [2, 0]
    auto.tap("star.R2")  # seat 3 chooses first
    assert scene.play.board.current.seat == 0
    assert not scene.target("star.R2").enabled  # seat 1 cannot take it any more
    auto.tap("star.C1")
    assert scene.play.board.owners == {"R2": 2, "C1": 0}


def test_table_touch_on_a_seat_claims_with_its_time() -> None:
    app, auto, scene = table_app()
    tap_at(app, scene.target("ready.1").rect.center)
    assert scene.play.board.current.seat == 1
    auto.tap("cancel")
    assert scene.play.board.current is None


def test_table_keyboard_keys_stand_in_for_buttons() -> None:
    import pygame

    app, _, scene = table_app()
    pygame.event.post(
        pygame.event.Event(pygame.KEYDOWN, key=pygame.K_2, unicode="2", mod=0, scancode=0)
    )
    app.step()
    assert scene.play.board.current.seat == 1


def test_table_next_round_waits_for_a_choice() -> None:
    app, auto, scene = table_app()
    app.seat_queue.put(SeatPressed(0, app.ctx.clock()))
    app.step()
    assert not scene.target("next").enabled
    auto.tap("star.R1")
    auto.tap("next")
    assert scene.play.round == 2 and scene.play.dice is None
    assert type(app.stack.top).__name__ == "DiceScene"


def test_table_bot_presses_after_its_delay_and_children_can_be_faster() -> None:
    app, auto, scene = table_app(2, bots=(1,))
    for r in range(8):
        if r:
            auto.tap_dice(DICE[r])
        lines = scene.play.bot_lines(1)
        if lines:
            # a child presses first and takes the bot's line
            tap_at(app, scene.target("ready.0").rect.center)
            auto.tap(f"star.{lines[0]}")
            app.ctx.clock.advance(BOT_SECONDS + 1)
            app.step()
            if scene.play.bot_lines(1):
                play = scene.play
                assert any(c.round == play.round for c in play.board.claims if c.seat == 1)
            break
        auto.tap("next")
    else:
        pytest.fail("the bot never completed a line")
    assert lines[0] in scene.play.board.stars_of(0)


def test_table_eight_rounds_then_results() -> None:
    app, auto, scene = table_app(3, bots=(2,))
    for r in range(8):
        if r:
            auto.tap_dice(DICE[r])
        app.ctx.clock.advance(BOT_SECONDS + 1)
        app.step()
        auto.tap("next")
    results = app.stack.top
    assert isinstance(results, GameResults)
    lines = results.outcome.lines
    assert len(results.outcome.rows) == len(lines) == 3 and "final score" in lines[2]
    bot = scene.play.bots[2]
    assert bot.state.finished  # the bot's own sheet played all eight rounds
    assert set(bot.state.sheets[0].stars) == set(scene.play.board.stars_of(2))
    auto.tap("home")
    assert type(app.stack.top).__name__ == "HomeScene"


def test_table_setup_allows_one_mode_and_no_solo_modes() -> None:
    app = make_app()
    auto = Autoplayer(app)
    auto.tap("game.mathe-meister")
    auto.tap("mode.twins")
    auto.tap("mode.coinless")
    from tabletop.ui.games.mathe_meister.setup import SOLO_ONLY, chosen_modes

    setup = app.stack.top
    assert chosen_modes(setup.values()) == ("twins", "coinless")  # solo: modes combine
    auto.tap("players.+")
    assert len(chosen_modes(setup.values())) == 1
    assert not setup.target("solo.black_hole").enabled
    tap_at(app, setup.target("solo.black_hole").rect.center)  # off: it says why
    assert setup.message == SOLO_ONLY
    auto.tap("mode.twins")
    assert chosen_modes(setup.values()) == ("twins",)


def test_table_ready_tiles_while_it_waits_for_the_seat_buttons() -> None:
    """Issue 21: every seat a child presses has a visible Ready tile ``ready.<seat>``
    while the device waits for presses; a bot's seat, and every seat before the dice,
    is a plain tile. A tap on the tile is the seat button."""
    app, auto, scene = table_app(3, bots=(2,))
    assert scene.target("ready.0").enabled and scene.target("ready.1").enabled
    assert scene.target("ready.2") is None and scene.target("seat.2") is not None
    tap_at(app, scene.target("ready.1").rect.center)
    assert scene.play.board.current.seat == 1 and 1 in app.ctx.lamps.lit
    auto.tap("star.R1")
    auto.tap("next")
    assert scene.play.dice is None and scene.target("ready.0") is None


def test_table_instruction_line_names_the_next_step() -> None:
    """Issue 21: the line under the seats always says what to do now, and who."""
    app, auto, scene = table_app(2)
    assert scene.status() == "Write 3 and 5 and two signs. Then tap 'Start round 2'."
    tap_at(app, scene.target("ready.0").rect.center)
    assert scene.status() == "Player 1: tap your line's star, or Cancel if pressed by mistake."
    auto.tap("star.R1")
    assert scene.status().startswith("Player 1: Row 1's star, +5. Circle a Star Power!")
    assert scene.status().endswith("Then tap 'Start round 2'.")
    auto.tap("next")  # the dice screen is up: the step is what to do on it
    assert scene.status() == "Round 2: roll the dice, then tap what each die shows."


def test_mm_table_a_star_won_says_only_what_is_new() -> None:
    """MM-5: a star chosen is said, then the step only when it is not the one said last;
    a press taken back likewise; a star said once is not said again with the next
    round's step, and no sentence is said twice in a row."""
    from tests.ui.test_speech import listening

    app, auto, scene = table_app(3)
    voice, _ = listening(app)
    write = "Write 3 and 5 and two signs. Then tap 'Start round 2'."
    app.seat_queue.put(SeatPressed(1, app.ctx.clock() + 0.002))
    app.seat_queue.put(SeatPressed(0, app.ctx.clock() + 0.001))
    app.step()
    assert voice.said == [scene.status()] and scene.status().startswith("Player 1: tap")
    auto.tap("star.R1")
    won = "Player 1: Row 1's star, +5. Circle a Star Power!"
    assert scene.status().startswith(won) and "Player 2" in scene.status()
    assert voice.said[1:] == [won, scene.status().removeprefix(won).strip()]
    auto.tap("cancel")
    assert voice.said[3:] == ["Player 2: your press is taken back.", write]
    auto.tap("next")
    assert voice.said[5:] == ["Round 2: roll the dice, then tap what each die shows."]
    assert all(a != b for a, b in zip(voice.said, voice.said[1:]))


@pytest.mark.parametrize(
    ("mode", "camera", "step"),
    [
        ("tap", False, "Round 1: roll the dice, then tap what each die shows."),
        ("camera", True, "Round 1: roll both dice under the camera."),
        ("camera", False, "Round 1: roll the dice, then tap what each die shows."),
        ("virtual", False, "Round 1: tap 'Roll the dice for me'."),
    ],
)
def test_mm_table_the_round_step_is_what_to_do_on_the_dice_screen(mode, camera, step) -> None:
    """The step said as a round's dice screen opens is what the children do on that
    screen (was: "tap 'Get the dice'", a button of the table's screen under it); back on
    the table's screen, its "Get the dice" button is the step, and it is said."""
    from tests.ui.test_speech import listening

    app = make_app(camera=camera)
    voice, _ = listening(app)
    app.ctx.prefs.prefs.dice_input = mode
    auto = Autoplayer(app)
    auto.tap("game.mathe-meister")
    auto.tap("players.+")
    auto.tap("start")
    dice = app.stack.top
    assert dice.mode == ("tap" if mode == "camera" and not camera else mode)
    assert voice.said == [step]
    dice.press("back")
    app.step()
    table = app.stack.top
    assert isinstance(table, TableScene) and table.target("dice") is not None
    assert voice.said == [step, "Round 1: roll the dice, then tap 'Get the dice'."]
    auto.tap("dice")
    assert app.stack.top is not table and voice.said[-1] == step


def test_mm_table_every_instruction_line_fits_at_800x480() -> None:
    """Issue 21, MM-5: a whole table game (two children, a bot) with the longest stars
    chosen, a press taken back and a star the teacher takes back: everything the line
    under the seats says fits it whole at 16 px or more on the 800x480 panel."""
    from tabletop.ui.prefs import DEFAULT_PIN
    from tests.ui.test_speech import listening

    app, auto, scene = table_app(3, bots=(2,))
    voice, _ = listening(app)
    shown: list[str] = []
    after = scene.after

    def showing() -> None:  # the line as it is drawn after every input
        after()
        shown.append(scene.status())

    scene.after = showing  # type: ignore[method-assign]
    for r in range(8):
        if r:
            auto.tap_dice(DICE[r])
        if free := scene.play.board.free_lines():
            for seat in (1, 0):
                tap_at(app, scene.target(f"ready.{seat}").rect.center)
            auto.tap(f"star.{free[-1]}")  # Column 4 first: the longest name, 10 points
            auto.tap("cancel")
        if r == 0:
            auto.tap("undo")
            for digit in DEFAULT_PIN:
                auto.tap(f"key.{digit}")
        app.ctx.clock.advance(BOT_SECONDS + 1)
        app.step()
        auto.tap("next")
    painter, area = app.ctx.painter, scene.message_rect
    rows = area.height // painter.fonts.font(16).get_linesize()
    lines = [*shown, *voice.said[:-2]]  # the last two said: the results' words, the places
    assert any("Column 4" in text for text in lines) and any("Taken back" in t for t in lines)
    for text in lines:
        assert len(painter.wrap(text, 16, area.width, False)) <= rows, text


def test_mm_table_a_bots_star_tells_the_children_to_cross_it_out() -> None:
    """MM-5, MM-6: a bot's star is said with what the children do on paper (cross it
    out), not "Circle a Star Power!" (the bot circles on its own sheet, on the device)."""
    app, auto, scene = table_app(2, bots=(1,))
    for r in range(1, 8):
        if scene.play.bot_lines(1):
            break
        auto.tap("next")
        auto.tap_dice(DICE[r])
    line = scene.play.bot_lines(1)[0]
    app.ctx.clock.advance(BOT_SECONDS + 1)
    app.step()
    app.step()
    assert scene.play.board.owners[line] == 1
    assert scene.message.endswith("Cross it out on your sheets.")
    assert "Circle a Star Power" not in scene.message


def test_mm_table_teacher_takes_back_a_star_tapped_by_mistake(tmp_path) -> None:
    """MM-5: a star chosen by mistake (the device acted) is the teacher's to take back
    with the PIN, this round only: Undo shows, a wrong PIN changes nothing, the right one
    frees the star (journaled, said), and the child chooses again."""
    from tabletop.store import FILE_NAME, Journal
    from tabletop.ui.prefs import DEFAULT_PIN
    from tests.ui.scenery import is_undo_pad

    app = make_app(journal=Journal(tmp_path / FILE_NAME))
    auto = Autoplayer(app)
    auto.tap("game.mathe-meister")
    auto.tap("players.+")
    auto.tap("start")
    auto.tap_dice(DICE[0])
    scene = app.stack.top
    assert not scene.target("undo").enabled  # no star chosen yet: it says so
    tap_at(app, scene.target("undo").rect.center)
    assert scene.message == "There is nothing to take back."
    tap_at(app, scene.target("ready.1").rect.center)
    assert not scene.target("undo").enabled  # a press waits: Cancel is the child's own
    tap_at(app, scene.target("undo").rect.center)
    assert scene.message == "Wait: someone is choosing a star."
    auto.tap("star.R2")  # meant R1
    auto.tap("undo")
    assert is_undo_pad(app.stack.top)
    for digit in "1111":
        auto.tap(f"key.{digit}")
    assert "not right" in app.stack.top.message and scene.play.board.owners == {"R2": 1}
    for digit in DEFAULT_PIN:
        auto.tap(f"key.{digit}")
    assert app.stack.top is scene and scene.play.board.owners == {}
    assert scene.message == "Taken back: Row 2's star is free. Rub it out."
    assert scene.save.app["table"]["claims"] == [] and not scene.target("undo").enabled
    tap_at(app, scene.target("ready.1").rect.center)
    auto.tap("star.R1")
    assert scene.play.board.owners == {"R1": 1}
    auto.tap("next")  # a new round: round 1's star stays
    auto.tap_dice(DICE[1])
    assert not scene.target("undo").enabled and not scene.play.can_undo()


@pytest.mark.parametrize(
    "scene",
    [
        "mathe-meister-game",
        "mathe-meister-game-hint",
        "mathe-meister-star-pick",
        "mathe-meister-coin-shop",
        "mathe-meister-results",
        "mathe-meister-table",
        "mathe-meister-table-results",
    ],
)
def test_table_mathe_meister_texts_are_16_px_or_more_at_800x480(scene: str) -> None:
    """Issue 21: MM's small texts (row and column sums, star values, Star Power counts)
    are 16 px at the least on the 800x480 panel."""
    from tests.ui.scenery import build

    app = build(scene, (800, 480))
    painter = app.ctx.painter
    sizes: list[int] = []
    text = painter.text

    def spy(surface, words, pos, size=None, *args, **kwargs):
        rect = text(surface, words, pos, size, *args, **kwargs)
        fitted = size or app.ctx.metrics.text
        if kwargs.get("max_width") is not None:
            fitted = painter.fit_size(words, fitted, kwargs["max_width"], kwargs.get("bold", False))
        if str(words).strip():
            sizes.append(fitted)
        return rect

    painter.text = spy
    app.draw()
    assert sizes and min(sizes) >= 16


def test_mathe_meister_table_child_takes_back_a_claim_before_a_star_is_chosen() -> None:
    """Issue 21, MM-5: a press (a seat button or its Ready tile) is the child's to take
    back with Cancel, no PIN, until a star is chosen for it (the device acts then); the
    line says so and then names the next step. A second press of the same button does
    not take it back, and the presses behind keep their order."""
    board = StarBoard({line: 5 for line in ("R1", "R2", "R3", "R4", "C1", "C2", "C3", "C4")})
    board.press(0, at=1.0)
    board.press(2, at=2.0)
    assert not board.press(0, at=3.0)  # pressed again: still waiting, same moment
    board.cancel()
    assert [p.seat for p in board.waiting] == [2] and board.owners == {}
    app, auto, scene = table_app(3)
    tap_at(app, scene.target("ready.0").rect.center)
    tap_at(app, scene.target("ready.0").rect.center)  # twice: still one claim
    assert [p.seat for p in scene.play.board.waiting] == [0] and 0 in app.ctx.lamps.lit
    assert "or Cancel if pressed by mistake." in scene.status()
    auto.tap("cancel")
    assert scene.play.board.waiting == [] and app.ctx.lamps.lit == set()
    assert scene.status() == (
        "Player 1: your press is taken back. Write 3 and 5 and two signs. Then tap 'Start round 2'."
    )
    tap_at(app, scene.target("ready.1").rect.center)
    auto.tap("star.R1")  # the device acted: the star is Player 2's, no Cancel any more
    assert scene.play.board.owners == {"R1": 1} and scene.target("cancel") is None


def test_table_mathe_meister_refusals_come_from_the_sentence_table(caplog) -> None:
    """Issue 21: every refusal on the paper table is a code of the one sentence table
    (``mm.ui.*``), in the same words as before; the precise line goes to the log."""
    from tabletop.ui.messages import CHILD_MESSAGES, child_message

    caplog.set_level("INFO", logger="tabletop.ui.table")
    app, auto, scene = table_app(3)
    said: list[str] = []

    def tap_off(target: str, code: str, words: str, **facts: str) -> None:
        assert code in CHILD_MESSAGES
        button = scene.target(target)
        assert button is not None and not button.enabled
        app.ctx.sounds.played.clear()
        tap_at(app, button.rect.center)
        assert scene.message == child_message(code, facts) == words
        assert app.ctx.sounds.played == ["wrong"]  # one buzz, not two
        said.append(code)

    tap_off("star.R1", "mm.ui.press_first", "Press your seat button first, then tap the star.")
    tap_at(app, scene.target("ready.0").rect.center)
    auto.tap("star.R1")
    tap_at(app, scene.target("ready.1").rect.center)
    tap_off(
        "star.R1",
        "mm.ui.star_belongs",
        "Row 1's star belongs to Player 1.",
        line="Row 1",
        name="Player 1",
    )
    tap_off("next", "mm.ui.someone_choosing", "Wait: someone is choosing a star.")
    scene.choose("R1")  # taken meanwhile (a star the screen still offered)
    assert scene.message == child_message("mm.ui.star_taken")
    assert scene.message == "That star is not free. Pick another one, or Cancel."
    assert scene.play.board.current.seat == 1 and scene.play.board.owners == {"R1": 0}
    auto.tap("cancel")
    auto.tap("next")
    app.stack.pop()  # the dice are not read yet
    app.step()
    assert app.stack.top is scene and scene.play.dice is None
    tap_off("next", "mm.ui.dice_first", "Get the dice first.")
    assert all(f"({code})" in caplog.text for code in said)
    assert "mathe-meister" in caplog.text


def test_table_mathe_meister_a_press_before_the_dice_says_what_comes_first() -> None:
    """Bad input gets a clear message: a seat button pressed before the round's dice
    says so (it used to do nothing), and claims nothing."""
    app, auto, scene = table_app(3)
    auto.tap("next")  # round 2: the dice are not read yet
    app.stack.pop()
    app.step()
    assert scene.play.dice is None
    app.ctx.sounds.played.clear()
    app.seat_queue.put(SeatPressed(1, app.ctx.clock()))
    app.step()
    assert scene.message == "Get the dice first."
    assert app.ctx.sounds.played == ["wrong"]
    assert scene.play.board.current is None and not scene.play.board.waiting


def test_mm_table_a_bots_seat_tile_or_button_says_the_bot_plays_by_itself() -> None:
    """A tap on a bot's seat tile (or a press of its button) was silently ignored: the
    child hears why nothing happens, and no claim waits."""
    app, _, scene = table_app(3, bots=(2,))
    bot = f"{scene.play.name(2)} is a bot. It plays by itself."
    tap_at(app, scene.target("seat.2").rect.center)
    assert scene.status().startswith(bot) and scene.play.board.current is None
    scene.message = ""
    app.seat_queue.put(SeatPressed(2, app.ctx.clock()))
    app.step()
    assert scene.status().startswith(bot) and scene.play.board.current is None


def test_mm_table_a_refusal_shows_in_red_bold_as_on_every_table() -> None:
    """A refusal on the paper table's instruction line is drawn in the palette's ``bad``
    colour, bold, as the other tables show theirs (it was plain ink); the next step
    after it is plain ink again."""
    import pygame

    app, _, scene = table_app(3)
    bad = app.ctx.painter.p.bad

    def red_pixels() -> int:
        app.draw()
        line = app.canvas.subsurface(scene.message_rect)
        return int((pygame.surfarray.pixels3d(line) == bad).all(axis=2).sum())

    assert red_pixels() == 0
    tap_at(app, scene.target("star.R1").rect.center)  # no press waits: refused
    assert scene.message == "Press your seat button first, then tap the star."
    assert red_pixels() > 100
    tap_at(app, scene.target("ready.0").rect.center)
    assert red_pixels() == 0


def test_mm_table_write_step_comes_from_the_sentence_table() -> None:
    """The step once the dice are out is the sentence table's ``mm.step.write_paper``
    (it was English written in the code), in the same words."""
    from tabletop.ui.messages import CHILD_MESSAGES, child_message

    _, _, scene = table_app(2)
    assert "mm.step.write_paper" in CHILD_MESSAGES
    step = child_message("mm.step.write_paper", a=3, b=5, next="Start round 2")
    assert scene.play.next_step() == step
    assert step == "Write 3 and 5 and two signs. Then tap 'Start round 2'."


def test_mm_table_the_dice_step_is_the_dice_screens_own_mode() -> None:
    """The round's step is what to do on the dice screen as it opened: the dice screen
    alone decides its mode (taps for a mode it does not know, as for a camera that is
    not there); the table used to guess it beforehand, and for a mode the dice screen
    does not know it said the fallback sentence instead of the step."""
    from tabletop.ui.messages import FALLBACK
    from tabletop.ui.scenes.dice import DiceScene
    from tests.ui.test_speech import listening

    app = make_app()
    voice, _ = listening(app)
    app.ctx.prefs.prefs.dice_input = "sideways"  # a mode of another version
    auto = Autoplayer(app)
    auto.tap("game.mathe-meister")
    auto.tap("players.+")
    auto.tap("start")
    dice = app.stack.top
    assert isinstance(dice, DiceScene) and dice.mode == "tap"
    assert voice.said == ["Round 1: roll the dice, then tap what each die shows."]
    assert FALLBACK not in voice.said


def rules_opened_and_closed(app, auto: Autoplayer, scene) -> None:
    """``scene``'s Rules button opens Mathe-Meister's rules pages; closing them comes
    back to ``scene``."""
    from tabletop.ui.games.mathe_meister.table import RULES
    from tabletop.ui.scenes.rules import RulesScene

    auto.tap("rules")
    rules = app.stack.top
    assert isinstance(rules, RulesScene) and list(rules.pages) == list(RULES)
    app.stack.pop()
    app.step()
    assert app.stack.top is scene


def test_mm_table_rules_button_with_leave_and_undo_like_every_table() -> None:
    """The paper table has the tools every table has, Rules, Undo and Leave in the top
    right corner (the base's ``corner_buttons``): Rules opens Mathe-Meister's rules
    pages and comes back to the game as it was."""
    app, auto, scene = table_app(3)
    tools = [scene.target(name) for name in ("rules", "undo", "leave")]
    assert all(b is not None for b in tools)
    assert [b.rect.right for b in tools] == sorted(b.rect.right for b in tools)
    assert tools[2].rect.right == app.ctx.metrics.width - app.ctx.metrics.u(16)
    dice = scene.play.dice
    rules_opened_and_closed(app, auto, scene)
    assert scene.play.dice == dice and scene.play.round == 1


@pytest.mark.parametrize("size", [(800, 480), (1280, 720)], ids=str)
def test_mm_results_star_values_fit_inside_their_stars(size) -> None:
    """The finished sheet on the results (MM-5's star values, 5 and 10): each value is
    16 px or more and every pixel of it lies inside its star, off the outline; at
    800x480 the "10"s stuck out over their stars' arms."""
    import pygame

    from tests.ui.scenery import build

    app = build("mathe-meister-results", size)
    painter = app.ctx.painter
    stars: list[tuple[tuple[int, int], int, int]] = []
    labels: list[tuple[str, tuple[int, int], int, str]] = []
    star, text = painter.star, painter.text

    def star_spy(surface, centre, radius, fill, outline=None, width=2):
        stars.append((centre, radius, width))
        return star(surface, centre, radius, fill, outline, width)

    def text_spy(surface, words, pos, size=None, *args, **kwargs):
        if str(words).isdigit():
            labels.append((str(words), pos, size, kwargs.get("anchor", "topleft")))
        return text(surface, words, pos, size, *args, **kwargs)

    painter.star, painter.text = star_spy, text_spy
    app.draw()
    assert len(stars) == 8
    for centre, radius, width in stars:
        words, pos, px, anchor = min(
            labels, key=lambda t: abs(t[1][0] - centre[0]) + abs(t[1][1] - centre[1])
        )
        assert words in ("5", "10") and px >= 16
        inside = pygame.Surface(app.canvas.get_size())
        star(inside, centre, radius, (255, 255, 255), (0, 0, 0), width)
        image = painter.fonts.render(words, px, (0, 0, 0), True)
        rect = image.get_rect(**{anchor: pos})
        alpha = pygame.surfarray.array_alpha(image)
        for x, y in zip(*alpha.nonzero()):
            assert inside.get_at((rect.x + x, rect.y + y))[:3] == (255, 255, 255), (words, centre)


def test_mm_table_a_press_under_a_dialog_claims_when_it_closes() -> None:
    """MM-5: a seat's press while Leave's question is open was lost; it is kept (pressed
    again: still one press, at its first time) and claims once the table is on top."""
    app, auto, scene = table_app(3)
    auto.tap("leave")
    pressed_at = app.ctx.clock()
    app.seat_queue.put(SeatPressed(1, pressed_at))
    app.step()
    app.ctx.clock.advance(2.0)
    app.seat_queue.put(SeatPressed(1, app.ctx.clock()))
    app.step()
    assert scene.play.board.current is None and app.stack.top is not scene
    auto.tap("no")
    assert app.stack.top is scene and [p.seat for p in scene.play.board.waiting] == [1]
    assert scene.play.board.current.at == pytest.approx(scene.save.elapsed() - 2.0, abs=0.01)


def test_mm_table_a_press_on_the_dice_screen_claims_nothing_and_says_so() -> None:
    """A press made before the round's dice claims nothing (MM-5: a star is claimed for a
    line completed with them): one made while the dice screen is open was lost without a
    word; once the dice are in, the table says it did not count."""
    app, auto, scene = table_app(3)
    auto.tap("next")
    assert type(app.stack.top).__name__ == "DiceScene"
    app.seat_queue.put(SeatPressed(2, app.ctx.clock()))
    app.step()
    app.ctx.clock.advance(1.0)
    auto.tap_dice(DICE[1])
    assert app.stack.top is scene and scene.play.dice is not None
    assert scene.play.board.current is None and not scene.play.board.waiting
    said = f"{scene.play.name(2)}: you pressed before the dice, so it did not count."
    assert scene.status().startswith(said)


def test_mm_table_an_empty_seats_button_says_nobody_sits_there() -> None:
    """Three children at a device wired for more seats: seat 4's button says nobody sits
    there, as in every game (it was silently ignored); no claim waits."""
    app, _, scene = table_app(3)
    app.seat_queue.put(SeatPressed(3, app.ctx.clock()))
    app.step()
    assert scene.status().startswith("Nobody sits at seat 4, so its button does nothing.")
    assert scene.play.board.current is None and app.ctx.sounds.played[-1] == "wrong"


def test_table_instruction_line_too_long_turns_its_pages() -> None:
    """Issue 21: an instruction line too long for its box at 16 px (Math Arena, a five-way
    tie of long names that no leftover card decides, ARENA-4) shows a page at a time: the
    first when its words change, the next every PAGE_SECONDS (the screen drawn again
    then), round again; every word is on a page. (It was the three-way tie's welcome
    back, which fits one page since round 40.)"""
    from tabletop.ui.widgets import PAGE_SECONDS
    from tests.ui.scenery import build, drawn_texts

    app = build("math-arena-table-tie", (800, 480))
    scene, painter = app.stack.top, app.ctx.painter
    words = scene.status()
    box = scene.message_rect.inflate(-app.ctx.metrics.u(14), -app.ctx.metrics.u(8))
    _, pages = painter.pages(words, box, app.ctx.metrics.text)
    assert len(pages) == 2 and words.startswith("Black Jack:")
    lines, shown = {line for page in pages for line in page}, []
    for _ in range(3):
        got = drawn_texts(painter, lambda: app.step(force_draw=True))
        shown.append([text for text, _ in got if text in lines])
        assert not painter.turned(app.ctx.clock() + PAGE_SECONDS / 2)  # not yet
        app.ctx.clock.advance(PAGE_SECONDS)
        assert painter.turned(app.ctx.clock())  # time for the next page: draw again
    assert shown == [pages[0], pages[1], pages[0]]


@pytest.mark.parametrize("size", [(800, 480), (1280, 720)], ids=str)
@pytest.mark.parametrize("seats", range(2, 9))
def test_mm_table_every_part_has_its_room_over_the_banner(seats: int, size) -> None:
    """Issue 21: on the whole screen and over the rotation's banner (its strip at the
    bottom), for two to eight seats, the star tiles, the claim line with its Cancel, the
    seat tiles, the instruction line and the next step's button each have their room:
    inside the screen, on none of the others, every target a finger wide (five seats
    over the banner put the instruction line on the fifth seat's tile)."""
    from dataclasses import replace

    import pygame

    from tabletop.ui.app import STRIP
    from tests.ui.scenery import drawn_texts

    app, _, scene = table_app(seats, size=size)
    app.seat_queue.put(SeatPressed(0, app.ctx.clock()))
    app.step()  # seat 1's claim waits: the claim line shows its Cancel
    whole = app.ctx.metrics
    for metrics in (whole, replace(whole, size=(whole.width, whole.height - whole.u(STRIP)))):
        app.ctx.set_metrics(metrics)
        app.stack.relayout(metrics)
        screen = pygame.Rect((0, 0), metrics.size)
        boxes = {b.name: b.rect for b in scene.targets()}
        assert len([n for n in boxes if n.startswith(("ready.", "seat."))]) == seats
        assert "cancel" in boxes and scene.claim_rect.contains(boxes.pop("cancel"))
        boxes |= {"claim line": scene.claim_rect, "instruction line": scene.message_rect}
        for name, rect in boxes.items():
            assert screen.contains(rect), (name, rect, metrics.size)
            if name not in ("claim line", "instruction line"):
                assert min(rect.size) >= metrics.touch, (name, rect)
            others = [n for n, r in boxes.items() if n != name and r.colliderect(rect)]
            assert not others, (name, rect, others, metrics.size)
        if metrics.size[0] == 800:
            got = drawn_texts(app.ctx.painter, lambda: scene.draw(app.canvas))
            assert min(px for _, px in got) >= 16, got


def test_table_results_title_and_reason_come_from_the_sentence_table(monkeypatch) -> None:
    """Issue 21: the paper table's results title and reason were written in code; they
    are the sentence table's (a teacher or a translator edits them there)."""
    assert child_message("mm.said.over") == "The game is over!"
    _, _, scene = table_app(2)
    monkeypatch.setitem(CHILD_MESSAGES, "mm.said.over", "Fin!")
    monkeypatch.setitem(CHILD_MESSAGES, "mm.said.places", "Places by stars.")
    outcome = scene.outcome()
    assert (outcome.title, outcome.reason) == ("Fin!", "Places by stars.")
