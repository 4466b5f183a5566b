"""Math Attack! in the app: camera readings of the number lines, touch entry, the bot,
refusals with their reasons, undo behind the teacher PIN, the results and the demo
(RULINGS ATK-1..ATK-6)."""

from __future__ import annotations

import io
from dataclasses import replace
from pathlib import Path

import pygame
import pytest

from hardware.buttons import SeatPressed
from tabletop.bots.math_attack import MathAttackBot
from tabletop.engine.dealers import RngDealer
from tabletop.engine.match import Match
from tabletop.games.math_attack import MathAttack, MathAttackSettings, Pass, running_totals
from tabletop.ui.autoplay import Autoplayer
from tabletop.ui.games import game_app
from tabletop.ui.games.math_attack import (
    BOT_SECONDS,
    RULES,
    AttackScene,
    label,
    run_demo,
)
from tabletop.ui.harness import cards_seen
from tabletop.ui.messages import child_message
from tabletop.ui.prefs import DEFAULT_PIN
from tabletop.ui.results import GameResults
from tabletop.ui.scenes.form import FormScene
from tabletop.ui.scenes.home import HomeScene
from tabletop.ui.scenes.rules import ChoiceGrid, RulesScene
from tests.ui.scenery import SIZES, is_undo_pad, make_app

GAME = MathAttack()
SHOTS = Path("/tmp/math_attack_shots")


def start(size=(800, 480), *, bot: str | None = None, first: int = 0):
    app = make_app(size)
    auto = Autoplayer(app)
    auto.tap("game.math-attack")
    assert isinstance(app.stack.top, FormScene)
    if bot is not None:
        auto.tap("seat.1")
        auto.tap(f"choice.bot.{bot}")
    auto.tap(f"first.{first}")
    auto.tap("start")
    scene = app.stack.top
    assert isinstance(scene, AttackScene)
    return app, auto, scene


def see(app, line: int, cards) -> None:
    """The camera's steady reading of ``line``'s zone."""
    app.post(cards_seen(line + 1, "line", cards, app.ctx.clock()))
    app.step()


def press_seat(app, seat: int) -> None:
    app.seat_queue.put(SeatPressed(seat, app.ctx.clock()))
    app.step()


def enter_pin(auto: Autoplayer, pin: str) -> None:
    for digit in pin:
        auto.tap(f"key.{digit}")


# -- the contract ---------------------------------------------------------------------------


def test_math_attack_app_is_registered_and_opens_its_setup() -> None:
    module = game_app("math-attack")
    assert module is not None
    assert callable(module.setup_scene) and callable(module.run_demo)
    app, _, scene = start()
    assert scene.state.settings.hidden_hands  # two players with real cards by default
    assert scene.state.phase == "play" and scene.state.turn == 0
    assert app.ctx.lamps.lit == {0}  # whose turn: that seat's LED


# -- camera play ----------------------------------------------------------------------------


def test_math_attack_one_card_left_in_a_hand_or_the_stack_is_one_card() -> None:
    """Late in a game a hand, and the stack, come down to one card: "1 card in hand" and
    "Stack: 1 card." (the drawn words, not "1 cards")."""
    app, _, scene = start()
    match = scene.play.match
    match.initial = replace(match.initial, hand_sizes=(1, 2), stack_size=1)
    fonts, texts = app.ctx.painter.fonts, []
    render = fonts.render

    def recording(text, *args, **kw):
        texts.append(text)
        return render(text, *args, **kw)

    fonts.render = recording
    try:
        app.step(force_draw=True)
    finally:
        fonts.render = render
    assert "1 card in hand" in texts and "2 cards in hand" in texts
    assert any(text.startswith("Stack: 1 card. ") for text in texts), texts


def test_math_attack_camera_new_card_is_a_play_with_running_totals() -> None:
    """ATK-2: multipliers use |total|, n/2 rounds down; the screen says what happened."""
    app, _, scene = start()
    see(app, 0, ["+7"])
    assert scene.state.lines == (("+7",), ())
    assert scene.state.turn == 1 and app.ctx.lamps.lit == {1}
    see(app, 0, ["+7", "+H"])  # seat 2 plays on seat 1's line: +|7/2| = +3
    assert scene.state.totals == (10, 0)
    assert "+3" in scene.message and "from 7 to 10" in scene.message
    assert "Player 2 plays" in scene.message and "take a card" in scene.message
    see(app, 0, ["+7", "+H"])  # the same reading again changes nothing
    assert len(scene.match.history) == 2


def test_math_attack_a_card_on_a_third_line_is_told_not_ignored() -> None:
    """Round 35: two players have two number lines (ATK-2); a card the camera reads on a
    third seat's line is said to be on no line, in the sentence table's words, and
    nothing changes in the game."""
    app, _, scene = start()
    see(app, 2, ["+7"])
    assert scene.message == child_message("atk.ui.no_line")
    assert scene.play.tone == "error" and scene.state.lines == ((), ())
    assert scene.state.turn == 0 and scene.match.history == ()
    see(app, 2, [])  # taken away: nothing more to say
    see(app, 0, ["+7"])
    assert scene.state.lines == (("+7",), ())


def test_math_attack_illegal_camera_card_refused_with_reason_then_fixed_by_touch() -> None:
    """ATK-3: cancel only on a black or red card. The camera card is shown, refused with
    the reason, and the child corrects the reading by tapping it."""
    app, auto, scene = start()
    see(app, 0, ["FLIP"])
    see(app, 0, ["FLIP", "CANCEL"])
    assert scene.state.lines[0] == ("FLIP",) and scene.state.turn == 1
    assert "Cancel only goes on a + or \u2212 card" in scene.message
    assert "+/\u2212" in scene.message
    assert 0 in scene.play.ghosts and scene.play.tone == "error"
    auto.tap("seen.0")
    assert isinstance(app.stack.top, ChoiceGrid)
    auto.tap("choice.+4")  # it was really a +4
    assert scene.state.lines[0] == ("FLIP", "+4") and not scene.play.ghosts
    see(app, 0, ["FLIP", "CANCEL"])  # the camera still misreads it: the fix holds
    assert scene.state.lines[0] == ("FLIP", "+4") and scene.state.turn == 0


@pytest.mark.parametrize(
    ("code", "words"),
    [("C17", "not a Math Attack! card"), ("?", "cannot read the new card")],
)
def test_math_attack_camera_card_not_ours_or_unreadable(code: str, words: str) -> None:
    app, _, scene = start()
    see(app, 1, [code])
    assert words in scene.message
    assert scene.state.lines == ((), ()) and scene.play.ghosts[1].code == code


def test_math_attack_camera_moved_missing_and_extra_cards_are_refused() -> None:
    app, _, scene = start()
    see(app, 0, ["+5"])
    see(app, 0, ["+6"])
    assert "card 1 should be +5" in scene.message and 0 in scene.play.trouble
    see(app, 0, [])
    assert "missing" in scene.message
    see(app, 0, ["+5", "+2", "+3"])
    assert "Only one card per turn" in scene.message
    assert scene.state.lines == (("+5",), ()) and scene.state.turn == 1
    see(app, 0, ["+5"])  # put right
    assert 0 not in scene.play.trouble


def test_math_attack_camera_misreading_an_earlier_card_is_confirmed_by_touch() -> None:
    """The camera keeps reading the first card as +8 (it is +3): a child confirms the
    screen by touch, and the new card in the same reading then counts."""
    app, auto, scene = start()
    see(app, 1, ["+3"])
    see(app, 1, ["+8", "-2"])
    assert "card 1 should be +3" in scene.message and scene.state.lines[1] == ("+3",)
    auto.tap("line.1")
    auto.tap("yes")
    assert scene.state.lines[1] == ("+3", "-2") and not scene.play.trouble
    see(app, 1, ["+8", "-2", "+1"])
    assert scene.state.lines[1] == ("+3", "-2", "+1")


def test_math_attack_blocked_line_refused_with_reason() -> None:
    """ATK-4: after a block nobody may play on that line during the next turn."""
    app, auto, scene = start()
    see(app, 1, ["BLOCK"])  # seat 1 blocks seat 2's line
    assert (
        "blocked" in scene.message and "so Player 2 must play on Player 1's line" in scene.message
    )
    see(app, 1, ["BLOCK", "+9"])
    assert "Player 2's number line is blocked this turn" in scene.message
    assert scene.state.lines[1] == ("BLOCK",)
    auto.tap("line.1")  # by touch too
    assert "blocked" in scene.message and not isinstance(app.stack.top, ChoiceGrid)
    see(app, 1, ["BLOCK"])  # the card is taken away
    see(app, 0, ["-2"])
    assert scene.state.lines == (("-2",), ("BLOCK",)) and scene.state.blocked is None


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("played", [1, 9, 20])
def test_math_attack_blocked_words_never_cover_a_card(size, played: int) -> None:
    """ATK-4: a blocked line says so in words, beside its cards on a short line and in the
    corner of the hand's size on a long one: never over a card (they were drawn across
    the cards of a long line)."""
    from tabletop.ui.games.math_attack.table import line_geometry

    app, _, scene = start(size)
    cards = ["+1", "-2", "+3", "-4", "+5", "-6", "+7", "-8", "+9", "-10"] * 2
    for n in range(1, played + 1):
        see(app, 0, cards[:n])
    see(app, 0, [*cards[:played], "BLOCK"])
    assert scene.state.blocked == 0 and len(scene.state.lines[0]) == played + 1
    painter, drawn = app.ctx.painter, []
    text = painter.text

    def recording(surface, words, *args, **kw):
        drawn.append((words, rect := text(surface, words, *args, **kw)))
        return rect

    painter.text = recording  # type: ignore[method-assign]
    app.step(force_draw=True)
    geo = line_geometry(scene.m, scene.panels[0], played + 1)
    covered = [r for r in (*geo.slots[:-1], geo.stub) if r is not None]
    blocked = [r for words, r in drawn if "Blocked" in words]
    assert len(blocked) == 1 and scene.panels[0].contains(blocked[0])
    assert not [r for r in covered if r.colliderect(blocked[0])]


def test_math_attack_real_cards_can_t_play_asks_which_cards_are_shown() -> None:
    """ATK-6 by taps: Can't play, then the hand shown (two cancels), passes the turn."""
    from dataclasses import replace

    app = make_app()
    match = Match(GAME, MathAttackSettings(hidden_hands=True), 2, seed=3)
    match.initial = replace(
        match.initial,
        phase="play",
        lines=(("+4", "FLIP"), ("BLOCK",)),
        hand_sizes=(2, 3),
        stack_size=0,
    )
    scene = AttackScene(app.ctx, names=("Ana", "Ben"), seed=3, match=match)
    app.stack.push(scene)
    app.step()
    auto = Autoplayer(app)
    auto.tap("pass")
    assert isinstance(app.stack.top, ChoiceGrid)
    auto.tap("choice.CANCEL,CANCEL")
    assert app.stack.top is scene and scene.state.turn == 1
    assert scene.match.history == (Pass(0, ("CANCEL", "CANCEL")),)
    # said in a sentence that fits the instruction line (the engine's reasons, card by
    # card, ran past its foot and were cut off)
    assert scene.message == (
        "Ana has no card that can go on a number line, so they show their hand and pass."
    )
    assert status_fits(scene) == scene.m.text


def status_fits(scene: AttackScene) -> int | None:
    """The text size at which the instruction line fits its box (the painter shrinks it
    a little, to 3/4), or None where it is cut off."""
    m, painter = scene.m, scene.ctx.painter
    room = scene.message_rect.inflate(-m.u(16), -m.u(8))
    for size in range(m.text, int(m.text * 0.75) - 1, -1):
        lines = painter.wrap(scene.status(), size, room.width, scene.play.tone == "error")
        if len(lines) * painter.fonts.font(size, False).get_linesize() <= room.height:
            return size
    return None


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_math_attack_a_block_and_the_next_step_fit_with_long_names(size) -> None:
    """ATK-4: with long names the block's sentence pushed the next step off the
    instruction line; it says who blocked which line, and what the other player must do."""
    app = make_app(size)
    scene = AttackScene(app.ctx, names=("Alexandra", "Maximilian"), seed=3)
    app.stack.push(scene)
    app.step()
    see(app, 0, ["BLOCK"])
    assert scene.status() == (
        "Alexandra plays block on Alexandra's line. Alexandra, take a card from the stack. "
        "Alexandra's line is blocked, so Maximilian must play on their own line. "
        "Maximilian: put one card on a number line (or tap a line)."
    )
    assert status_fits(scene) is not None


def test_math_attack_card_that_cannot_be_in_a_hand() -> None:
    """Camera play: a card is legal only if a copy can still be in the hand."""
    app, _, scene = start()
    see(app, 0, ["+5"])
    see(app, 1, ["+5"])
    see(app, 0, ["+5", "+5"])
    assert "every +5 card is already on the number lines" in scene.message
    assert scene.state.lines == (("+5",), ("+5",))


def test_math_attack_wrong_seat_button_and_pass_when_a_card_can_be_played() -> None:
    app, auto, scene = start()
    press_seat(app, 1)
    assert scene.message == "Wait! It is Player 1's turn."
    auto.tap("pass")
    assert "You can still play a card" in scene.message
    assert scene.match.history == ()


def test_math_attack_seat_button_enters_a_card_by_touch() -> None:
    app, auto, scene = start()
    press_seat(app, 0)
    auto.tap("choice.1")  # on seat 2's line
    auto.tap("choice.-6")
    assert scene.state.lines == ((), ("-6",))


@pytest.mark.parametrize("second", ["where", "card"])
def test_math_attack_a_seat_pressed_again_under_its_own_question_is_one_press(second) -> None:
    """A child who presses their button again while the question their press opened is
    on the screen (which line? which card?) pressed once: the card they pick is said as
    played, not "Wait! It is Player 2's turn." in red; Cancel closes the question, it does
    not open it again (the press was kept and acted on after it, as another seat's is)."""
    app, auto, scene = start()
    press_seat(app, 0)
    if second == "card":
        auto.tap("choice.1")
    press_seat(app, 0)  # again, under the question its press opened
    if second == "where":
        auto.tap("choice.1")
    auto.tap("choice.-6")
    assert scene.state.lines == ((), ("-6",)) and app.stack.top is scene
    assert scene.message.startswith("Player 1 plays \u22126") and scene.play.tone == "good"
    press_seat(app, 1)
    if second == "card":
        auto.tap("choice.0")
    press_seat(app, 1)
    auto.tap("cancel")
    assert app.stack.top is scene and scene.state.lines == ((), ("-6",))


def test_math_attack_last_turn_after_equals_then_results() -> None:
    """ATK-5: after =, the other player has exactly one more turn."""
    app, auto, scene = start()
    see(app, 0, ["+8"])
    see(app, 1, ["+3"])
    see(app, 0, ["+8", "END"])
    assert "This is Player 2's last turn!" in scene.message
    auto.tap("line.1")
    auto.tap("choice.+D")
    results = app.stack.top
    assert isinstance(results, GameResults)
    assert scene.state.totals == (8, 9)
    assert results.winner_line == "winner: Player 2"
    assert results.outcome.title == "Player 2 wins!"
    assert app.ctx.lamps.lit == {1}  # the winner's lamp, lit on the results
    see(app, 0, ["+8", "END", "+1"])  # after the end, nothing changes
    assert scene.state.totals == (8, 9)
    auto.tap("home")
    assert type(app.stack.top).__name__ == "HomeScene"
    assert app.ctx.lamps.lit == set()


# -- undo: a child's own last card, else the teacher PIN -----------------------------------------


def test_math_attack_a_child_takes_back_their_own_last_card_without_the_pin() -> None:
    """Issue 21: a mis-tapped or misplaced card is the child's to take back until the
    device (or the next player) has acted on it."""
    app, auto, scene = start()
    assert not scene.target("undo").enabled
    see(app, 0, ["+5"])
    auto.tap("undo")
    assert app.stack.top is scene  # no PIN pad
    assert scene.state.lines == ((), ()) and scene.state.turn == 0
    assert "Take +5 off Player 1's line" in scene.status()
    see(app, 0, ["+5"])  # still on the table: not played again
    assert scene.state.lines == ((), ())
    see(app, 0, [])
    see(app, 0, ["+6"])
    assert scene.state.lines == (("+6",), ())


def test_math_attack_instruction_line_says_each_step_once() -> None:
    """The sentence and the step beside it do not say the same thing twice (on screen
    and aloud): a move taken back, its card still on the table, an unreadable card."""
    app, auto, scene = start()
    see(app, 0, ["+5"])
    auto.tap("undo")
    assert scene.status() == (
        "That move was taken back. Take +5 off Player 1's line, then Player 1 plays again."
    )
    see(app, 0, ["+5"])  # still there
    assert scene.status().count("+5") == 1 and scene.play.tone == "error"
    see(app, 0, [])
    see(app, 1, ["?"])
    assert scene.status() == (
        "The camera cannot read the new card on Player 2's line. "
        "Player 2's line: tap the card with “tap” under it to set it right."
    )
    assert scene.heard == "Player 2's line: tap the card with “tap” under it to set it right."


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_math_attack_ghost_step_names_the_card_as_it_is_drawn(size) -> None:
    """A card the device did not take (here a green cancel card on a green card) is drawn
    as it is, with a ring and "tap" under it; the instruction line points at it by that
    word, not by a colour: it said "tap the red card" beside a hand of red minus cards
    (the walk, round 20)."""
    from tests.ui.test_rotation_strip import recording

    app, _auto, scene = start(size)
    see(app, 1, ["FLIP"])
    see(app, 1, ["FLIP", "CANCEL"])
    assert scene.play.ghosts  # the cancel card was not taken
    with recording(app) as drawn:
        app.draw()
    assert "tap" in [d.words for d in drawn if d.what == "text"]  # under the ghost
    step = scene.play.next_step()
    assert step == "Player 2's line: tap the card with \u201ctap\u201d under it to set it right."
    assert scene.status().endswith(step)
    assert not {"red", "green", "black"} & set(step.lower().replace(".", " ").split())


def test_math_attack_undo_needs_the_teacher_pin_once_the_next_player_played() -> None:
    app, auto, scene = start()
    see(app, 0, ["+5"])
    see(app, 1, ["+3"])
    see(app, 0, ["+5", "+2"])  # Player 1 played after Player 2: Player 2's card is acted on
    auto.tap("undo")
    assert app.stack.top is scene and scene.state.lines == (("+5",), ("+3",))  # Player 1's own
    auto.tap("undo")
    assert is_undo_pad(app.stack.top)
    enter_pin(auto, "1111")
    assert "not right" in app.stack.top.message and scene.state.lines == (("+5",), ("+3",))
    enter_pin(auto, DEFAULT_PIN)
    assert app.stack.top is scene
    assert scene.state.lines == (("+5",), ()) and scene.state.turn == 1
    assert scene.status() == (  # both cards taken back are still on the table
        "That move was taken back. "
        "Take +2 off Player 1's line and +3 off Player 2's line, then Player 2 plays again."
    )


def test_math_attack_undo_with_nothing_to_take_back() -> None:
    app, _, scene = start()
    scene.press("undo")
    assert scene.message == "There is nothing to take back."
    assert app.stack.top is scene


# -- against a bot (virtual cards) -------------------------------------------------------------


def test_math_attack_bot_game_refusals() -> None:
    app, auto, scene = start(bot="easy", first=1)
    assert scene.play.virtual and len(scene.state.hands[0]) == 5
    assert not scene.target("hand.0").enabled  # the bot plays first
    scene.press("line.0")
    assert scene.message.startswith("Wait: it is the bot's turn")
    press_seat(app, 1)
    assert "bot's seat" in scene.message
    see(app, 0, ["+5"])
    assert "cards are on the screen" in scene.message
    app.ctx.clock.advance(BOT_SECONDS + 0.1)
    app.step()
    app.ctx.clock.advance(BOT_SECONDS + 0.1)
    app.step()
    assert scene.state.turn == 0 and len(scene.match.history) > 10
    auto.tap("line.1")
    assert scene.message.startswith("First tap one of your cards")


def test_math_attack_picking_a_card_clears_the_refusal_it_answers() -> None:
    """Against the bot: "First tap one of your cards" goes once a card is tapped; the
    instruction line then says the real next step, in its usual colour, and says it aloud."""
    _, auto, scene = start(bot="easy", first=0)
    auto.tap("line.0")
    assert scene.play.tone == "error" and scene.status().startswith("First tap one")
    auto.tap("hand.2")
    card = label(scene.state.hands[0][2])
    assert scene.status() == f"Player 1: now tap the number line for your {card}."
    assert scene.play.tone != "error" and scene.heard == scene.status()


def test_math_attack_full_game_against_the_bot_by_taps_matches_the_engine() -> None:
    app, auto, scene = start(bot="easy", first=0)
    me = MathAttackBot("easy", seed=3)
    taps = 0
    while not scene.over:
        state = scene.state
        if state.turn == 1:
            app.ctx.clock.advance(BOT_SECONDS + 0.1)
            app.step()
            app.ctx.clock.advance(BOT_SECONDS + 0.1)
            app.step()
            continue
        action = me.choose(state, 0)
        if isinstance(action, Pass):
            auto.tap("pass")
        else:
            auto.tap(f"hand.{state.hands[0].index(action.card)}")
            auto.tap(f"line.{action.line}")
        taps += 1
        assert taps < 60
    results = app.stack.top
    assert isinstance(results, GameResults)
    # the same actions through the engine alone give the same result
    replay = GAME.new_game(scene.match.settings, 2)
    for action in scene.match.history:
        replay, _ = GAME.apply(replay, action)
    assert GAME.result(replay) == scene.match.result()
    assert replay.lines == scene.state.lines
    result = GAME.result(replay)
    winners = sorted(result.winners)
    names = scene.names
    expected = "draw" if len(winners) == 2 else names[winners[0]]
    assert results.winner_line == f"winner: {expected}"


# -- a whole game with real cards ----------------------------------------------------------------


@pytest.mark.parametrize("seed", [11, 23])
def test_math_attack_full_table_game_matches_the_engine(seed: int) -> None:
    """Two children with real cards, dealt from a virtual deck: plays arrive by camera,
    by tapping a line, and by the seat button; the app (which sees only the number lines)
    ends with the engine's result for the same game."""
    app, auto, scene = start(first=seed % 2)
    deck = Match(GAME, MathAttackSettings(first_player=seed % 2), 2, seed=seed)
    dealer = RngDealer(seed)
    bots = (MathAttackBot("easy", seed), MathAttackBot("medium", seed + 1))
    turn = 0
    while True:
        while deck.pending.chance is not None:
            deck.deal(dealer)
        if deck.state.phase == "over":
            break
        seat = deck.state.turn
        assert scene.state.turn == seat
        action = bots[seat].choose(deck.state, seat)
        deck.apply(action)
        if isinstance(action, Pass):
            auto.tap("pass")
        elif turn % 3 == 0:
            see(app, action.line, deck.state.lines[action.line])
        elif turn % 3 == 1:
            auto.tap(f"line.{action.line}")
            auto.tap(f"choice.{action.card}")
        else:
            press_seat(app, seat)
            auto.tap(f"choice.{action.line}")
            auto.tap(f"choice.{action.card}")
        turn += 1
        assert scene.state.lines == deck.state.lines
    assert scene.over
    assert scene.match.result() == GAME.result(deck.state)
    results = app.stack.top
    assert isinstance(results, GameResults)
    t0, t1 = deck.state.totals
    expected = "draw" if t0 == t1 else scene.names[0 if t0 > t1 else 1]
    assert results.winner_line == f"winner: {expected}"
    assert scene.state.totals == deck.state.totals
    scores = {row.seat: row.score for row in results.outcome.rows}
    assert scores == {
        seat: str(running_totals(cards)[-1] if cards else 0).replace("-", "\u2212")
        for seat, cards in enumerate(deck.state.lines)
    }


# -- rules ---------------------------------------------------------------------------------------


def test_math_attack_rules_in_plain_words_with_examples() -> None:
    app = make_app()
    auto = Autoplayer(app)
    auto.tap("game.math-attack")
    auto.tap("rules")
    rules = app.stack.top
    assert isinstance(rules, RulesScene) and len(rules.pages) == len(RULES)
    assert all(page.example for page in RULES)
    for _ in RULES:
        auto.tap("rules.next")
    assert isinstance(app.stack.top, FormScene)


# -- screenshots ---------------------------------------------------------------------------------


def _shots(size):
    """The main states, drawn headless; returns {name: surface copy}."""
    out = {}
    app = make_app(size)
    auto = Autoplayer(app)
    auto.tap("game.math-attack")
    out["setup"] = app.canvas.copy()
    auto.tap("start")
    scene = app.stack.top
    for i, (line, cards) in enumerate(
        [
            (0, ["+5"]),
            (1, ["-3"]),
            (0, ["+5", "+D"]),
            (1, ["-3", "CANCEL"]),
            (0, ["+5", "+D", "FLIP"]),
        ]
    ):
        see(app, line, cards)
        assert len(scene.match.history) == i + 1
    see(app, 1, ["-3", "CANCEL", "BLOCK"])
    see(app, 1, ["-3", "CANCEL", "BLOCK", "?"])
    app.draw()
    out["table"] = app.canvas.copy()
    auto.tap("undo")
    out["pin"] = app.canvas.copy()
    app2, auto2, _ = start(size, bot="medium")
    auto2.tap("hand.2")
    out["bot"] = app2.canvas.copy()
    return out, app2


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_math_attack_screenshots(size) -> None:
    out, _ = _shots(size)
    app3, _, _ = start(size)
    see(app3, 0, ["+8"])
    see(app3, 0, ["+8", "END"])
    see(app3, 1, ["-4"])
    out["results"] = app3.canvas.copy()
    SHOTS.mkdir(parents=True, exist_ok=True)
    for name, surface in out.items():
        assert surface.get_size() == size
        pygame.image.save(surface, str(SHOTS / f"{name}_{size[0]}x{size[1]}.png"))
        colours = pygame.transform.average_color(surface)
        assert colours != (0, 0, 0, 255)


# -- the demo ------------------------------------------------------------------------------------


def test_math_attack_demo_ends_with_the_winner(tmp_path: Path) -> None:
    buf = io.StringIO()
    line = run_demo(seed=4, out_dir=tmp_path, out=buf, rollouts=40)
    lines = buf.getvalue().strip().splitlines()
    assert lines[-1] == line and line.startswith("winner: ")
    assert line in ("winner: Hard bot", "winner: Medium bot", "winner: draw")
    assert lines[2].startswith("Turn 1: ")
    assert any("corrected by touch" in x for x in lines)
    assert (tmp_path / "final.png").exists()


def test_label_uses_a_real_minus() -> None:
    assert label("-D") == "\u2212|n\u00d72|" and label("+5") == "+5"


def test_math_attack_a_card_laid_while_a_dialog_is_open_is_read_when_it_closes() -> None:
    """The camera tells a zone's change once: a card laid while Leave's question (or Rules,
    or the teacher's PIN) is open is read when the table is on top again; it was lost,
    and the next reading of that line counted two new cards."""
    app, auto, scene = start()
    auto.tap("leave")
    see(app, 0, ["+5"])  # read once, under the question
    see(app, 0, ["+7"])  # taken back and another laid: the latest reading counts
    assert scene.state.lines == ((), ()) and app.stack.top is not scene
    auto.tap("no")
    assert app.stack.top is scene and scene.state.lines == (("+7",), ())
    assert scene.state.turn == 1 and scene.held == {}
    auto.tap("leave")
    see(app, 0, ["+7", "+H"])
    auto.tap("yes")  # left: what the camera saw under the question goes with the game
    assert isinstance(app.stack.top, HomeScene) and scene.state.lines == (("+7",), ())


def test_math_attack_an_empty_seats_button_says_nobody_sits_there() -> None:
    """A device wired for more seats: the button of a seat nobody sits at says so (it was
    silently ignored); the game is as it was."""
    app, _, scene = start()
    press_seat(app, 4)
    assert "Nobody sits at seat 5" in scene.message
    assert scene.match.moves == 0 and scene.state.turn == 0


def test_math_attack_leave_asks_first_and_play_again_swaps_who_starts() -> None:
    app, auto, scene = start()
    auto.tap("leave")
    auto.tap("no")
    assert app.stack.top is scene
    see(app, 0, ["END"])
    see(app, 0, ["END", "-1"])
    auto.tap("again")
    again = app.stack.top
    assert isinstance(again, AttackScene) and again is not scene
    assert again.state.turn == 1 and again.match.history == ()
    auto.tap("leave")
    auto.tap("yes")
    assert isinstance(app.stack.top, HomeScene) and app.ctx.lamps.lit == set()  # Leave goes Home


# -- never lose a game (issue 10) ------------------------------------------------------------


def test_math_attack_every_play_is_journaled_and_a_new_app_carries_on(tmp_path: Path) -> None:
    from tabletop.games import GAMES
    from tabletop.store import FILE_NAME, Journal
    from tabletop.ui.scenes.common import Confirm

    path = tmp_path / FILE_NAME
    app = make_app(journal=Journal(path))
    auto = Autoplayer(app)
    auto.tap("game.math-attack")
    auto.tap("seat.1")
    auto.tap("choice.bot.easy")
    auto.tap("start")
    scene = app.stack.top
    assert isinstance(scene, AttackScene)
    for _ in range(3):  # the child plays, the bot answers
        seat = scene.state.turn
        play = next(a for a in GAME.legal_actions(scene.state, seat) if not isinstance(a, Pass))
        assert scene.play.perform(play) is None
        app.ctx.clock.advance(BOT_SECONDS + 1)  # type: ignore[attr-defined]
        app.step()
    # what the screen shows is on disk: a second reader of the file sees the same match
    (saved,) = Journal(path).unfinished("app")
    assert Journal(path).load(saved.id, GAMES).state == scene.state
    assert saved.meta["app"]["bot"] == "easy"
    # the device is unplugged; a new app on the same file offers the game
    again = make_app(journal=Journal(path))
    offer = again.stack.top
    assert isinstance(offer, Confirm) and "Math Attack!" in offer.detail
    Autoplayer(again).tap("yes")
    resumed = again.stack.top
    assert isinstance(resumed, AttackScene)
    assert resumed.state == scene.state and resumed.match.history == scene.match.history
    assert resumed.names == scene.names and resumed.play.bot_level == "easy"
    assert resumed.resumed and ("Welcome back" in resumed.message or "thinking" in resumed.message)
    # it deals on exactly as the first app would have
    for s in (scene, resumed):
        s.play.deal()
    assert resumed.state == scene.state


def test_math_attack_new_game_instead_keeps_the_old_one_as_abandoned(tmp_path: Path) -> None:
    from tabletop.store import FILE_NAME, Journal
    from tabletop.ui.scenes.home import HomeScene

    path = tmp_path / FILE_NAME
    app = make_app(journal=Journal(path))
    Autoplayer(app).tap("game.math-attack")
    Autoplayer(app).tap("start")
    again = make_app(journal=Journal(path))
    Autoplayer(again).tap("no")
    assert isinstance(again.stack.top, HomeScene)
    (old,) = Journal(path).matches()
    assert old.status == "abandoned" and old.actions >= 0


def test_math_attack_finished_game_is_stored_with_its_result(tmp_path: Path) -> None:
    from tabletop.store import Journal

    journal = Journal(tmp_path / "j.sqlite3")
    app = make_app(journal=journal)
    auto = Autoplayer(app)
    auto.tap("game.math-attack")
    auto.tap("seat.1")
    auto.tap("choice.bot.easy")
    auto.tap("start")
    scene = app.stack.top
    assert isinstance(scene, AttackScene)
    for _ in range(200):
        if scene.over:
            break
        if scene.play.is_bot(scene.state.turn):
            app.ctx.clock.advance(BOT_SECONDS + 1)  # type: ignore[attr-defined]
            app.step()
            continue
        move = next(iter(GAME.legal_actions(scene.state, scene.state.turn)))
        if isinstance(move, Pass):
            auto.tap("pass")
        else:
            auto.tap(f"hand.{scene.state.hands[0].index(move.card)}")
            auto.tap(f"line.{move.line}")
    assert scene.over
    (saved,) = journal.matches()
    result = scene.match.result()
    assert saved.status == "finished" and saved.reason == "end"
    assert saved.result is not None and saved.result["winners"] == sorted(result.winners)
    assert saved.result["scores"] == [str(t) for t in scene.state.totals]
    assert [s.name for s in journal.seats(saved.id)] == list(scene.names)
    assert journal.seats(saved.id)[1].bot == "easy"
    assert scene.standings() == result


def test_math_attack_with_a_class_list_children_sign_in_and_their_games_are_theirs(
    tmp_path: Path,
) -> None:
    # issue 10: with a class list, the setup's Start goes through sign-in; the journal
    # keeps who sat where (student id and group), which the report reads
    from tabletop.classroom.roster import Roster
    from tabletop.store import Journal
    from tabletop.ui.scenes.signin import SignInScene

    journal = Journal(tmp_path / "j.sqlite3")
    Roster(journal).import_csv("id,name,group\nS1,Ada,Blue\nS2,Alan,Red\n")
    app = make_app(journal=journal)
    auto = Autoplayer(app)
    auto.tap("game.math-attack")
    auto.tap("start")
    assert isinstance(app.stack.top, SignInScene)
    auto.tap("student.S2")
    auto.tap("student.S1")
    auto.tap("done")
    scene = app.stack.top
    assert isinstance(scene, AttackScene)
    assert scene.names == ("Alan", "Ada")
    (saved,) = journal.unfinished("app")
    seats = journal.seats(saved.id)
    assert [(s.name, s.student, s.group) for s in seats] == [
        ("Alan", "S2", "Red"),
        ("Ada", "S1", "Blue"),
    ]
