"""Math Wars Meta in the app: cards from the camera and by touch, answers on the number
pad and seat buttons, the device's rulings with their reasons (RULINGS MWM-1..MWM-8),
the teacher's undo and penalty card behind the PIN, whole games against the engine,
screenshots and the demo."""

from __future__ import annotations

import io
from fractions import Fraction
from pathlib import Path
from typing import Any

import pygame
import pytest

from hardware.buttons import SeatPressed
from tabletop.games.math_wars_meta import (
    CountDrawn,
    EnterSolution,
    MathWarsMeta,
    cards_conserved,
)
from tabletop.ui.app import App
from tabletop.ui.games.math_wars_meta import run_demo
from tabletop.ui.games.math_wars_meta.demo import TableBot
from tabletop.ui.games.math_wars_meta.play import MwmPlay
from tabletop.ui.games.math_wars_meta.table import MwmTable as TableScene
from tabletop.ui.games.math_wars_meta.verdict import questions_for
from tabletop.ui.harness import type_number as typed
from tabletop.ui.input import CardSeen, CardsSeen, Tap
from tabletop.ui.messages import CHILD_MESSAGES, child_message
from tabletop.ui.results import GameResults, winner_line
from tabletop.ui.scenes.form import FormScene
from tabletop.ui.scenes.numpad import NumPad, parse_typed
from tabletop.ui.scenes.rules import RulesScene
from tests.ui.scenery import Recorder, make_app

SHOTS = Path("/tmp/mwm_shots")
GAME = MathWarsMeta()


# -- helpers ------------------------------------------------------------------------------


def tap(app: App, name: str) -> None:
    button = app.stack.top.target(name)
    assert button is not None, f"no {name!r} on {type(app.stack.top).__name__}"
    app.post(Tap(button.rect.center, app.ctx.clock(), "touch"))
    app.step()


def setup(app: App, *names: str) -> FormScene:
    tap(app, "game.math-wars-meta")
    scene = app.stack.top
    assert isinstance(scene, FormScene)
    for name in names:
        tap(app, name)
    return scene


SOLO = ("mode.solo",)  # one child
CHILDREN_AND_BOT = ("seat.2", "choice.bot.bot")  # two children with real cards, a bot
TEAMS_OPTION_2 = ("mode.teams", "edition.MWM25", "more", "option.2", "lms.yes")


def seats(n: int, first: int) -> tuple[str, ...]:
    """The form's taps for children at seats ``first`` to ``n - 1``."""
    return tuple(t for seat in range(first, n) for t in (f"seat.{seat}", "choice.child"))


def won(play: Any) -> str:
    return winner_line(play.match.result(), [seat.name for seat in play.seats])


def start(app: App, *names: str) -> TableScene:
    setup(app, *names)
    tap(app, "start")
    scene = app.stack.top
    assert isinstance(scene, TableScene)
    return scene


def show(app: App, seat: int, *codes: str) -> None:
    """The camera's steady reading of seat ``seat`` (0-based here, 1-based on the wire)."""
    cards = tuple(CardSeen(code, seat + 1, "battle") for code in codes)
    app.post(CardsSeen(seat + 1, "battle", cards, app.ctx.clock()))
    app.step()


def type_number(app: App, value: int) -> None:
    typed(lambda name: tap(app, name), value)


def answer(app: App, seat: int, value: int, *, press: bool = True) -> None:
    tap(app, f"solve.{seat}")
    assert isinstance(app.stack.top, NumPad)
    type_number(app, value)
    if press:
        app.seat_queue.put(SeatPressed(seat, app.ctx.clock()))
        app.step()


def replayed(play: Any) -> Any:
    """The engine alone, fed the same actions from the start."""
    state = GAME.new_game(play.settings, len(play.seats))
    for action in play.match.history:
        state, _ = GAME.apply(state, action)
    return state


def shot(app: App, name: str) -> Path:
    path = app.screenshot(SHOTS / f"{name}_{app.ctx.metrics.width}.png")
    surface = pygame.image.load(str(path))
    colours = {
        surface.get_at((x, y))[:3]
        for x in range(0, surface.get_width(), 37)
        for y in range(0, surface.get_height(), 23)
    }
    assert len(colours) > 4, f"{name} looks blank"
    return path


# -- the number pad and card codes --------------------------------------------------------


def test_numpad_types_negative_numbers_and_fractions() -> None:
    assert parse_typed("-12") == -12
    assert parse_typed("3/4", fractions=True) == pytest.approx(0.75)
    assert parse_typed("3/4") is None and parse_typed("-") is None and parse_typed("") is None
    assert parse_typed("1/0", fractions=True) is None
    assert parse_typed("-6/3", fractions=True) == -2
    app = make_app()
    recorder = Recorder(app.ctx)
    app.stack.push(recorder)
    app.stack.push(NumPad(app.ctx, "Answer", fractions=True))
    assert not app.stack.top.target("ok").enabled
    tap(app, "ok")  # nothing typed: refused with a sentence, the pad stays
    assert isinstance(app.stack.top, NumPad) and "Type a number" in app.stack.top.message
    for key in ("num.3", "num.frac", "num.4", "num.minus"):
        tap(app, key)
    assert app.stack.top.typed == "-3/4"
    tap(app, "ok")
    assert recorder.results == [parse_typed("-3/4", fractions=True)]
    app.stack.push(NumPad(app.ctx, "Count", negative=False, max_digits=2))
    tap(app, "num.minus")
    assert app.stack.top.typed == "" and "below zero" in app.stack.top.message
    for key in ("num.1", "num.2", "num.3", "num.back"):
        tap(app, key)
    tap(app, "ok")
    assert recorder.results[-1] == 1
    app.stack.push(NumPad(app.ctx, "Count"))
    tap(app, "cancel")
    assert recorder.results[-1] is None


@pytest.mark.parametrize("name", ["", "Maximilian"])
def test_numpad_beside_the_cards_shows_its_whole_title(name: str) -> None:
    """Round 40's walk: three seats at 800x480, the pad for Player 2's COUNT META card
    kept beside their cards is narrow; its title was cut to "Player 2: COUNT META ca…"
    (with a longer name, "COUNT META" itself went). It goes on two lines instead, every
    word shown, at 16 px or more."""
    from tests.ui.game_scenery import form_seats, name_seats
    from tests.ui.game_scenery import setup as form
    from tests.ui.test_rotation_strip import SMALLEST_TEXT, recording

    app = make_app((800, 480), camera=True)
    auto = form(app, "math-wars-meta")
    form_seats(auto, 3)
    if name:
        name_seats(auto, ["Mia", name])
    auto.tap("start")
    tap(app, "count.1")
    pad = app.stack.top
    assert isinstance(pad, NumPad) and pad.title == f"{name or 'Player 2'}: COUNT META card"
    with recording(app) as drawn:
        app.draw()
    texts = [d for d in drawn if d.scene is pad and d.what == "text"]
    title = [d for d in texts if d.rect.top < pad.body().top]
    assert " ".join(d.words for d in title) == pad.title  # none dropped
    wide = app.ctx.painter.fonts.width
    assert all(d.rect.width == wide(d.words, d.size, True) for d in title)  # none cut ("…")
    assert min(d.size for d in title) >= SMALLEST_TEXT
    assert all(pad.panel.contains(d.rect) for d in title)
    assert max(d.rect.bottom for d in title) <= pad.display.top  # above the number shown


# -- hands at the table -----------------------------------------------------------------


def test_hand_from_camera_remainder_ruling_and_losses_shown_with_reasons() -> None:
    """MWM-2: 7 ÷ 2 leaves a remainder, so 7 counts; MWM-3: the loser gives the battle
    card and the difference (15 - 7 = 8)."""
    app = make_app()
    table = start(app)
    play = table.play
    show(app, 1, "C12:2", "K+3:2")  # seat 2 first: kept until the engine asks
    assert play.state.stage.up[1] is None and play.record()["count"] == {"1": [12, 2]}
    show(app, 0, "MT1:MWM:C7:1", "MT1:MWM:K/2:1")
    assert play.state.phase == "solve"
    assert play.state.stage.up == ((1, 7), (2, 12))
    answer(app, 0, 7)
    assert play.verdict is None and app.ctx.lamps.lit == {0}  # seat 1 ready: LED lit
    answer(app, 1, 15)
    verdict = play.verdict
    assert verdict is not None and app.ctx.lamps.lit == set()
    text = " ".join(verdict.lines)
    assert "7 \u00f7 2 leaves a remainder, so only the COUNT META card counts: 7" in text
    assert "Player 2 wins the hand with 15!" in text
    assert (
        "Player 1 loses 9 cards: the battle pile (1) and 8 more from the draw pile, "
        "onto their own spoils pile." in text
    )
    assert verdict.difference == {0: 8} and verdict.lost == {0: 9}
    assert len(play.state.zones[0].draw) == 25 - 9
    assert "wins the hand" in table.status()
    tap(app, "why")
    assert "remainder" in app.stack.top.text
    tap(app, "close")
    tap(app, "next")
    assert play.verdict is None and play.state.hands == 1


def first_hand_settled(app: App) -> TableScene:
    """The table after a first hand of C9 K+1 against C3 K+1, its verdict on screen."""
    table = start(app)
    show(app, 0, "C9", "K+1")
    show(app, 1, "C3", "K+1")
    answer(app, 0, 10)
    answer(app, 1, 4)
    assert table.play.verdict is not None
    return table


def test_next_hands_cards_seen_before_next_wait_for_it() -> None:
    app = make_app()
    play = first_hand_settled(app).play
    show(app, 0, "C9", "K+1")  # the old cards, read again: nothing happens
    assert play.seen == {}
    show(app, 1, "C8", "K+2")  # the next hand's cards, laid down early
    assert play.state.stage.up[1] is None
    tap(app, "next")
    show(app, 0, "C4", "K+3")
    assert play.state.stage.up == ((1, 4), (2, 8)) and play.state.phase == "solve"


def test_mwm_card_not_in_the_edition_while_the_verdict_shows_is_refused_at_once() -> None:
    """A card read early (the verdict still on screen) that is not in the edition is
    refused with its reason at once, not kept to be refused later as "already played"."""
    app = make_app()
    table = first_hand_settled(app)
    show(app, 0, "C40")
    assert "no COUNT META 40 in MWM25" in table.message and table.play.seen == {}


def test_wrong_solution_is_shown_corrected() -> None:
    app = make_app()
    table = start(app)
    show(app, 0, "C9", "K-4")
    show(app, 1, "C3", "KX5")
    answer(app, 0, 6)  # 9 - 4 is 5
    answer(app, 1, 15)
    verdict = table.play.verdict
    assert "Player 1: 9 \u2212 4 = 5. (you typed 6, not quite)" in verdict.lines
    assert "Player 2: 3 \u00d7 5 = 15. Right!" in verdict.lines
    assert table.play.state.tallies[0].wrong == 1 and table.play.state.tallies[1].right == 1


def test_errors_foreign_cards_wrong_army_and_cards_already_played() -> None:
    app = make_app()
    table = start(app)
    play = table.play
    show(app, 0, "?")
    assert "cannot read" in table.message and play.match.history == ()
    show(app, 0, "MT1:ATK:+5")
    assert "another game" in table.message
    show(app, 0, "C5:3")
    assert "belongs to army 3" in table.message and play.seen == {}
    show(app, 0, "C40")
    assert "no COUNT META 40 in MWM25" in table.message
    show(app, 0, "C5", "K+1")
    show(app, 1, "C20", "K+1")
    answer(app, 0, 6)
    answer(app, 1, 21)
    tap(app, "next")
    before = len(play.match.history)
    show(app, 0, "C5", "K+2")  # C5 is on the spoils pile now
    assert "COUNT META 5 was already played this round" in table.message
    assert play.state.stage.up[0] is None
    # nothing went in: the crate card waits behind the count card in the engine's order
    assert len(play.match.history) == before and play.record()["crate"] == {"0": "+2"}
    show(app, 0, "C6", "K+2")
    assert play.state.stage.up[0] == (1, 6) and play.state.stage.crates[0] == "+2"


def test_mwm_a_victory_card_laid_on_the_battle_pile_is_told_not_ignored() -> None:
    """Round 35: a VICTORY! card read with a child's battle cards, more than their side
    has won, is no counter lying in the zone: the child is told to take it off (the
    sentence table's words), and the battle cards read with it still count."""
    app = make_app()
    table = start(app)
    play = table.play
    show(app, 0, "MT1:MWM:VIC", "C5", "K+1")
    assert table.message == child_message("mwm.ui.victory_card", name="Player 1")
    assert play.state.stage.up[0] == (1, 5) and play.state.stage.crates[0] == "+1"
    show(app, 1, "C9", "K+2")
    teacher(app)
    tap(app, "choice.award.1")  # MWM-10: Player 2 wins a VICTORY! card, a new round
    tap(app, "next")
    show(app, 0, "C4", "K+1")
    show(app, 1, "VIC:2", "C3", "K+3")  # the one VICTORY! card won lies there: fine
    assert play.state.stage.up[1] == (2, 3) and play.tone != "error"
    show(app, 1, "VIC:2", "VIC:2", "C3", "K+3")  # a second one was never won
    assert table.message == child_message("mwm.ui.victory_card", name="Player 2")


def test_buttons_in_the_wrong_phase_say_why() -> None:
    app = make_app()
    table = start(app)
    app.seat_queue.put(SeatPressed(0, app.ctx.clock()))
    app.step()
    assert "put your COUNT META and MATH CRATE cards" in table.message
    tap(app, "solve.0")
    assert isinstance(app.stack.top, TableScene) and "battle pile first" in table.message
    tap(app, "next")  # disabled: says what the table waits for, naming every seat (round 23)
    assert table.message == "Wait: Player 1 and Player 2 have not turned up their cards yet."
    show(app, 0, "C10", "K+2")
    show(app, 1, "C4", "K+1")
    app.seat_queue.put(SeatPressed(1, app.ctx.clock()))  # no answer typed yet: the pad opens
    app.step()
    assert isinstance(app.stack.top, NumPad)
    tap(app, "cancel")
    answer(app, 0, 12)
    answer(app, 1, 5)
    app.seat_queue.put(SeatPressed(0, app.ctx.clock()))  # the verdict is on screen
    app.step()
    assert "tap Next" in table.message
    tap(app, "count.0")
    assert "tap Next" in table.message and isinstance(app.stack.top, TableScene)


def test_mwm_a_seat_pressed_under_another_childs_pad_is_told_to_wait() -> None:
    """Round 35: Player 2's button while Player 1's number pad (opened by Player 1's
    button) is open says at once to wait for Player 1, and does nothing later: Player 2's
    pad does not open by itself once Player 1 taps OK (neither the rule book nor RULINGS
    says to queue it). Player 2 presses again, and their pad opens."""
    app = make_app()
    table = start(app)
    show(app, 0, "C10", "K+2")
    show(app, 1, "C4", "K+1")
    app.seat_queue.put(SeatPressed(0, app.ctx.clock()))
    app.step()
    pad = app.stack.top
    assert isinstance(pad, NumPad) and pad.title.startswith("Player 1")
    app.seat_queue.put(SeatPressed(1, app.ctx.clock()))
    app.step()
    words = child_message("mwm.ui.wait_pad", name="Player 2", other="Player 1")
    assert app.stack.top is pad and table.message == words and table.play.tone == "error"
    assert words in app.ctx.speaker.said  # aloud too
    type_number(app, 12)
    assert isinstance(app.stack.top, TableScene)  # no pad for Player 2 by itself
    assert table.play.typed[0].solution == 12 and 1 not in table.play.typed
    app.seat_queue.put(SeatPressed(1, app.ctx.clock()))
    app.step()
    assert isinstance(app.stack.top, NumPad) and app.stack.top.title.startswith("Player 2")


def test_mwm_off_next_and_why_say_why_from_the_sentence_table(monkeypatch) -> None:
    """Next while the answers are missing, and Why? before a verdict: their sentences are
    the sentence table's (issue 21; r23-int wrote them in the table's code)."""
    assert child_message("mwm.ui.off_why") == "The reasons show up after each hand."
    app = make_app()
    table = start(app)
    show(app, 0, "C10", "K+2")
    show(app, 1, "C4", "K+1")
    monkeypatch.setitem(CHILD_MESSAGES, "mwm.ui.off_next", "Attendez!")
    monkeypatch.setitem(CHILD_MESSAGES, "mwm.ui.off_why", "Plus tard.")
    tap(app, "next")
    assert table.message == "Attendez!"
    tap(app, "why")
    assert table.message == "Plus tard."


def test_camera_misread_corrected_by_touch() -> None:
    app = make_app()
    table = start(app)
    play = table.play
    show(app, 0, "C18", "K+2")
    assert play.state.stage.up[0] == (1, 18)
    tap(app, "count.0")  # the card really is 16
    type_number(app, 16)
    assert play.state.stage.up[0] == (1, 16)
    assert (1, 18) in play.state.zones[0].draw and cards_conserved(play.state)
    tap(app, "crate.0")
    tap(app, "choice.x3")
    assert play.state.stage.crates[0] == "x3"
    show(app, 1, "C2", "K+1")
    answer(app, 0, 48)  # ready, not yet used (Player 2 works): the card can still be fixed
    tap(app, "count.0")  # (round 8: it said "already answered", see test_math_wars_meta_walk)
    assert isinstance(app.stack.top, NumPad)  # the pad, not a refusal


def tied(app: App) -> TableScene:
    """Two children whose first hand ties (10 + 2 and 6 × 2): its verdict is a war."""
    table = start(app)
    show(app, 0, "C10", "K+2")
    show(app, 1, "C6", "KX2")
    answer(app, 0, 12)
    answer(app, 1, 12)
    return table


def test_math_war_face_down_cards_swap_when_the_camera_sees_one() -> None:
    """MWM-4: a tie sends both to war, 3 face down and 1 up; the device picked the
    face-down cards, so a child turning up one of them swaps it (nobody saw them)."""
    app = make_app()
    table = tied(app)
    play = table.play
    assert play.verdict.war and "MATH WAR!" in " ".join(play.verdict.lines)
    tap(app, "next")
    down = [c for c in play.state.zones[0].battle if c != (1, 10)]
    assert len(down) == 3
    show(app, 0, f"C{down[0][1]}", "K+1")
    assert play.state.stage.up[0] == down[0]
    assert cards_conserved(play.state) and len(play.state.zones[0].battle) == 5
    assert "already" not in table.message


def test_mwm_card_given_up_turned_up_later_keeps_the_answers_after_it() -> None:
    """A card the device gave up from Player 2's draw pile (paid for a lost war) turns up
    two hands later: it is swapped where it was given up and every action after it,
    answers too, applied again; the answers kept as the match goes stay the whole
    rebuild's."""
    app = make_app()
    play = tied(app).play
    tap(app, "next")  # MATH WAR!
    show(app, 0, "C20", "K+1")
    show(app, 1, "C7", "K+1")
    battle = play.state.zones[1].battle
    answer(app, 0, 21)
    answer(app, 1, 1)
    tap(app, "next")  # Player 2 lost the war: paid 13 cards from the draw pile
    paid = [c for c in play.state.zones[1].spoils if c not in battle]
    assert len(paid) == 13 and play.answers == rebuilt_answers(play)
    show(app, 0, "C1", "K+3")
    show(app, 1, "C10", "K+5")
    answer(app, 0, 4)
    answer(app, 1, 15)
    tap(app, "next")
    steps = [n for n, *_ in play.answers]
    show(app, 0, "C2", "K+6")
    show(app, 1, f"C{paid[0][1]}", "K+7")
    assert play.state.stage.up[1] == paid[0] and cards_conserved(play.state)
    assert [n for n, *_ in play.answers] == steps and len(steps) == 6
    assert play.answers == rebuilt_answers(play)


def test_solo_round_records_accuracy_and_time() -> None:
    """MWM-8: a right answer discards the battle card and the result; time and accuracy
    per round."""
    app = make_app()
    table = start(app, *SOLO)
    play = table.play
    show(app, 0, "C3", "K+2")
    tap(app, "solve.0")
    type_number(app, 5)  # solo: OK is enough
    assert play.verdict is not None
    assert "Right!" in " ".join(play.verdict.lines)
    assert len(play.state.zones[0].draw) == 25 - 6
    tap(app, "next")
    app.ctx.clock.advance(30)
    show(app, 0, "C7", "K/2")  # remainder: both cards go, draw again
    assert "draw again" in table.message
    show(app, 0, "C8", "K-1")
    tap(app, "solve.0")
    type_number(app, 6)  # wrong: 7
    assert "Player 1: 8 \u2212 1 = 7. (you typed 6, not quite)" in play.verdict.lines
    assert play.verdict.lines[-1].endswith("Put only your battle card on your spoils pile.")
    bot = TableBot(app, 5)
    while not play.state.rounds:
        bot.step()
        app.ctx.clock.advance(5)
    tally = play.state.rounds[0].tallies[0]
    assert f"Round 1: {tally.right} of {tally.right + tally.wrong} answers right in " in (
        table.status()
    )
    while bot.step():
        app.ctx.clock.advance(5)
    record = play.state.rounds[0]
    assert record.how == "deck_empty" and record.tallies[0].wrong >= 1
    assert record.milliseconds is not None and record.milliseconds >= 30_000
    tap(app, "next")
    results = app.stack.top
    assert isinstance(results, GameResults)
    assert any("right (" in line and " min " in line for line in results.outcome.lines)


def test_solo_with_virtual_cards_needs_no_camera() -> None:
    app = make_app()
    table = start(app, *SOLO, "cards.virtual")
    play = table.play
    assert play.seats[0].virtual and play.state.phase == "solve"
    up, crate = play.state.stage.up[0], play.state.stage.crates[0]
    assert up is not None and crate is not None
    show(app, 0, "C1", "K+1")
    assert "virtual cards" in table.message  # the camera has nothing to say here
    right = play.answer_for(0).solution
    tap(app, "solve.0")
    type_number(app, right)
    assert "Right!" in " ".join(play.verdict.lines)


# -- the teacher ------------------------------------------------------------------------


def teacher(app: App, pin: str = "2468") -> None:
    tap(app, "teacher")
    for digit in pin:
        tap(app, f"key.{digit}")


def test_undo_behind_the_pin() -> None:
    app = make_app()
    table = start(app)
    play = table.play
    show(app, 0, "C10", "K+2")
    show(app, 1, "C4", "K+1")
    answer(app, 0, 12)
    answer(app, 1, 5)
    assert play.verdict is not None
    teacher(app, "1111")
    assert "not right" in app.stack.top.message
    tap(app, "cancel")
    assert play.verdict is not None
    teacher(app)
    tap(app, "choice.undo")
    assert play.verdict is None and play.state.phase == "solve"
    assert play.solving() == [1] and isinstance(play.match.history[-1], EnterSolution)
    answer(app, 1, 5)
    assert play.verdict is not None and play.state.zones[1].draw


def test_penalty_victory_card_behind_the_pin() -> None:
    """MWM-6: the splash vote gives a VICTORY! card and the round starts again; MWM-10:
    the menu offers it only to the player winning the hand (Player 1's 12 is the only
    result revealed)."""
    app = make_app()
    table = start(app)
    play = table.play
    show(app, 0, "C10", "K+2")
    teacher(app)
    offered = [b.name for b in app.stack.top.targets() if b.name.startswith("choice.award.")]
    assert offered == ["choice.award.0"]
    assert app.screenshot(Path("/tmp/mwm_shots/mwm10_teacher_menu.png")).exists()
    tap(app, "choice.award.0")
    assert play.state.victories == (1, 0) and play.state.round == 2
    assert play.verdict.round_over and "Player 1 wins round 1" in " ".join(play.verdict.lines)
    tap(app, "next")
    assert play.waiting_for_cards() == [0, 1]


def test_mwm10_no_penalty_card_offered_before_a_result_is_revealed() -> None:
    app = make_app()
    start(app)
    teacher(app)
    menu = app.stack.top
    assert not [b for b in menu.targets() if b.name.startswith("choice.award.")]
    assert "nobody is winning this hand yet" in menu.title
    assert app.screenshot(Path("/tmp/mwm_shots/mwm10_teacher_menu_nobody.png")).exists()


def test_mwm_teacher_menu_is_refused_once_the_game_is_over() -> None:
    """The controller's menu (undo, splash, a VICTORY! card) has nothing left to change
    after the end: the PIN then gets the child's refusal, and the result stands."""
    from tabletop.engine.errors import TabletopError
    from tabletop.ui.messages import child_message

    app = make_app()
    setup(app, *CHILDREN_AND_BOT)
    tap(app, "start")
    table = play_out(app, 11, misread_rate=0.3)
    result = table.play.match.result()
    with pytest.raises(TabletopError) as refused:
        table.play.teacher_menu()
    assert refused.value.code == "mwm.ui.game_over"
    table.asking = ("pin",)
    table.resume("ok")  # the right PIN, after the end
    assert table.play.tone == "error"
    assert table.message == child_message("mwm.ui.game_over", table.play.facts())
    assert table.play.match.result() == result and isinstance(app.stack.top, GameResults)


# -- whole games ------------------------------------------------------------------------


def play_out(app: App, seed: int, **kw: Any) -> TableScene:
    table = app.stack.top
    bot = TableBot(app, seed, **kw)
    while bot.step():
        pass
    tap(app, "next")
    assert isinstance(app.stack.top, GameResults)
    return table


def test_full_game_through_events_equals_the_engine() -> None:
    """Two children with camera cards (misreads fixed by touch, slips in answers) and a
    bot: the device's result is the engine's for the same actions."""
    app = make_app()
    setup(app, *CHILDREN_AND_BOT)
    assert [s.bot for s in app.stack.top.values().seats] == [None, None, "bot"]
    tap(app, "start")
    table = play_out(app, 11, misread_rate=0.3)
    play = table.play
    engine = replayed(play)
    assert engine.finished and engine == play.state
    assert GAME.result(engine) == play.match.result()
    best = max(engine.victories)
    assert best == 4 and engine.victories.count(best) == 1
    winner = engine.victories.index(best)
    assert won(play) == f"winner: {play.seats[winner].name}"
    real_ups = [
        a for i, a in enumerate(play.match.history) if play.real(i) and isinstance(a, CountDrawn)
    ]
    assert real_ups and all(a.seat in (0, 1) for a in real_ups)
    assert cards_conserved(engine)


def test_team_game_with_team_solutions_and_option_two() -> None:
    """MWM-7: Duos enter YOUR SOLUTION and the TEAM SOLUTION; Option 2 sends lost cards
    to the winning side."""
    app = make_app()
    setup(app, *TEAMS_OPTION_2)
    tap(app, "start")
    table = play_out(app, 4)
    play = table.play
    assert play.settings.mode == "teams" and play.settings.last_man_standing
    engine = replayed(play)
    assert engine == play.state and engine.finished
    entries = [a for a in play.match.history if isinstance(a, EnterSolution)]
    assert entries and all(a.team_solution is not None for a in entries if a.seat is not None)
    assert won(play).count(",") == 1  # a team of two


def test_run_demo_ends_with_a_winner_line(tmp_path: Path) -> None:
    out = io.StringIO()
    line = run_demo(seed=3, out_dir=tmp_path, out=out)
    lines = out.getvalue().strip().split("\n")
    assert lines[-1] == line and line.startswith("winner: Player ")
    assert any(line.startswith("Round 1, hand 1:") for line in lines)
    assert (tmp_path / "final.png").exists()


# -- screens ----------------------------------------------------------------------------


@pytest.mark.parametrize("size", [(800, 480), (1280, 720)])
def test_screenshots_of_the_main_states(size: tuple[int, int]) -> None:
    app = make_app(size)
    setup(app, "seat.2", "choice.child", "seat.3", "choice.bot.bot")
    shot(app, "setup")
    tap(app, "start")
    table = app.stack.top
    shot(app, "table_waiting")
    show(app, 0, "C21", "K-5")
    show(app, 1, "C15", "K+6")
    show(app, 2, "C7", "K/2")
    tap(app, "solve.0")
    type_number(app, 16)
    app.seat_queue.put(SeatPressed(0, app.ctx.clock()))
    app.step()
    tap(app, "solve.1")
    tap(app, "num.2")
    shot(app, "numpad")
    tap(app, "num.1")
    tap(app, "ok")
    shot(app, "table_answers")
    app.seat_queue.put(SeatPressed(1, app.ctx.clock()))
    app.step()
    answer(app, 2, 7)
    assert table.play.verdict is not None
    shot(app, "verdict")
    tap(app, "why")
    shot(app, "why")
    tap(app, "close")
    tap(app, "rules")
    assert isinstance(app.stack.top, RulesScene)
    for _ in range(3):
        tap(app, "rules.next")
    shot(app, "rules")
    app.stack.pop()
    play_out(app, 2)
    shot(app, "results")
    app8 = make_app(size)
    setup(app8, "mode.teams", *seats(8, 4), "more", "format.4")
    shot(app8, "setup_quads")
    tap(app8, "start")
    bot = TableBot(app8, 9)
    for _ in range(12):
        bot.step()
    shot(app8, "table_eight")


# -- never lose a game (issue 10) -----------------------------------------------------------


def journal_app(path: Path) -> App:
    from tabletop.store import Journal

    return make_app(journal=Journal(path))


def test_every_step_is_journaled_and_a_new_app_carries_on(tmp_path: Path) -> None:
    from tabletop.games import GAMES
    from tabletop.store import FILE_NAME, Journal
    from tabletop.ui.scenes.common import Confirm

    path = tmp_path / FILE_NAME
    app = journal_app(path)
    table = start(app, *CHILDREN_AND_BOT)  # two children with real cards, a bot
    play = table.play
    show(app, 0, "C10", "K+2")
    show(app, 1, "C4", "KX3")
    # what the screen shows is on disk: a second reader of the file sees the same match
    (saved,) = Journal(path).unfinished("app")
    assert Journal(path).load(saved.id, GAMES).state == play.state
    assert saved.meta["app"]["choices"]["players"] == 3 and saved.meta["app"]["seed"] == play.seed
    answer(app, 0, 12)  # ready, waiting for Player 2
    answer(app, 1, 11, press=False)  # typed, not yet pressed (4 × 3 is 12)
    # the device is unplugged; a new app on the same file offers the game
    again = journal_app(path)
    offer = again.stack.top
    assert isinstance(offer, Confirm) and "Math Wars Meta" in offer.detail
    assert "Player 1" in offer.detail and "Bot 3" in offer.detail
    tap(again, "yes")
    resumed = again.stack.top
    assert isinstance(resumed, TableScene) and resumed.resumed
    other = resumed.play
    assert other.state == play.state and other.match.history == play.match.history
    n = len(play.match.history)
    assert [other.real(i) for i in range(n)] == [play.real(i) for i in range(n)]
    assert other.entries == play.entries
    assert other.typed == play.typed and set(other.ready) == set(play.ready) == {0}
    assert resumed.message.startswith("Welcome back!")
    assert again.ctx.lamps.lit == {0}  # Player 1's LED is lit again
    # both carry on alike: the same answers settle the same hand, with the same payments
    for a in (app, again):
        a.seat_queue.put(SeatPressed(1, a.ctx.clock()))
        a.step()
    assert other.state == play.state and other.verdict is not None
    assert other.verdict.lines == play.verdict.lines
    # stopped with the verdict on screen: it shows again
    third = journal_app(path)
    tap(third, "yes")
    shown = third.stack.top.play
    assert shown.paused and shown.verdict is not None
    assert shown.verdict.lines == play.verdict.lines and shown.verdict.hand == 1
    for a in (app, third):
        tap(a, "next")
        show(a, 0, "C3", "K-1")
    assert shown.state == play.state and shown.verdict is None


def test_solo_time_carries_on_across_a_restart(tmp_path: Path) -> None:
    """MWM-8's time per round counts seconds of play before and after the restart."""
    from tabletop.store import FILE_NAME

    path = tmp_path / FILE_NAME
    app = journal_app(path)
    start(app, *SOLO)
    show(app, 0, "C3", "K+2")
    app.ctx.clock.advance(40)
    tap(app, "solve.0")
    type_number(app, 5)  # the first answer, at 40 s of play
    tap(app, "next")
    app.ctx.clock.advance(25)
    show(app, 0, "C8", "K-1")  # 25 s later: the screen's record holds the time played
    again = journal_app(path)
    again.ctx.clock.advance(1000)  # a new process: its clock means nothing to the game
    tap(again, "yes")
    table = again.stack.top
    again.ctx.clock.advance(15)
    tap(again, "solve.0")
    type_number(again, 7)
    first, last = table.play.state.first_at, table.play.state.last_at
    assert first == 40_000 and last == 80_000  # 40 s, then 25 + 15 s more


def test_new_game_instead_keeps_the_old_one_as_abandoned(tmp_path: Path) -> None:
    from tabletop.store import FILE_NAME, Journal
    from tabletop.ui.scenes.home import HomeScene

    path = tmp_path / FILE_NAME
    app = journal_app(path)
    start(app)
    show(app, 0, "C10", "K+2")
    again = journal_app(path)
    tap(again, "no")
    tap(again, "yes")  # asked once more: the game has moves (round 28)
    assert isinstance(again.stack.top, HomeScene)
    (old,) = Journal(path).matches()
    assert old.status == "abandoned" and old.actions >= 2
    # leaving a game keeps it too, with the standings then: no VICTORY! card yet, so
    # whoever has more cards still to play is ahead
    table = start(again)
    assert table.standings().places == (1, 1)
    show(again, 0, "C10", "K+2")
    show(again, 1, "C4", "K+1")
    answer(again, 0, 12)
    answer(again, 1, 5)  # Player 2 loses the battle card and 7 more
    tap(again, "leave")
    tap(again, "yes")
    assert isinstance(again.stack.top, HomeScene)
    left = next(m for m in Journal(path).matches() if m.id != old.id)
    assert left.status == "abandoned" and left.result is not None
    assert left.result["scores"] == ["0", "0"] and left.result["places"] == [1, 2]
    assert table.standings().places == (1, 2)


def test_finished_game_is_stored_with_its_result_seats_and_checks(tmp_path: Path) -> None:
    from tabletop.store import FILE_NAME, Journal

    journal = Journal(tmp_path / FILE_NAME)
    app = make_app(journal=journal)
    setup(app, *CHILDREN_AND_BOT)
    tap(app, "start")
    table = play_out(app, 11, misread_rate=0.3)
    play = table.play
    (saved,) = journal.matches()
    result = play.match.result()
    assert result is not None and table.standings() == result
    assert saved.status == "finished" and saved.reason == "end"
    assert saved.result["winners"] == sorted(result.winners)
    assert saved.result["scores"] == [str(v) for v in result.scores]
    seats = journal.seats(saved.id)
    assert [s.name for s in seats] == ["Player 1", "Player 2", "Bot 3"]
    assert [s.bot for s in seats] == [None, None, "bot"]
    # the solutions the device checked per child, and how many were right (bots: none)
    checks = saved.meta["checks"]
    tallies = play.state.tallies
    assert checks[2] == [0, 0] and checks == play.checks()
    for seat in (0, 1):
        assert checks[seat] == [tallies[seat].right + tallies[seat].wrong, tallies[seat].right]
    assert checks[0][0] > 10 and any(c[1] < c[0] for c in checks[:2])  # slips are counted


def rebuilt_answers(play: Any) -> list[tuple[Any, ...]]:
    """Every answer the device checked for a child, worked out of the whole match (what
    the table rebuilt at every save before the controller kept them as the match goes)."""
    out: list[tuple[Any, ...]] = []
    asked = None
    for i, step in enumerate(play.match.steps):
        before = play.state_before(i)
        if before.phase != "solve":
            asked = i + 1 if step.state.phase == "solve" else asked
        action = step.action
        if not isinstance(action, EnterSolution) or play.seats[action.seat].bot:
            continue
        own, team = questions_for(before, action.seat)
        given = (own, action.solution), (team, action.team_solution)
        out += [
            (i + 1, action.seat, asked, q, Fraction(v))
            for q, v in given
            if q is not None and v is not None
        ]
    return out


@pytest.mark.parametrize(("taps", "seed"), [(CHILDREN_AND_BOT, 11), (TEAMS_OPTION_2, 4)])
def test_mwm_answers_kept_as_the_match_goes_equal_the_whole_rebuild(
    tmp_path: Path, taps: tuple[str, ...], seed: int
) -> None:
    """Issue 24's checked answers are kept as the match goes, not worked out of the whole
    match at every save: at every save (misreads set right by touch, an undo, war cards
    swapped) they equal the whole rebuild, a match replayed from the journal finds the
    same, and the journal holds them (bots' left out)."""
    from tabletop.games import GAMES
    from tabletop.store import FILE_NAME, Journal

    path = tmp_path / FILE_NAME
    app = journal_app(path)
    setup(app, *taps)
    tap(app, "start")
    table = app.stack.top
    play, saves, undone = table.play, [0], 0

    def checking_save() -> None:
        assert play.answers == rebuilt_answers(play)
        saves[0] += 1
        TableScene.save_table(table)

    table.save_table = checking_save
    bot = TableBot(app, seed, misread_rate=0.3)
    while bot.step():
        if (
            play.verdict is not None
            and undone < 3
            and play.answers[-1][0] == len(play.match.history)
        ):
            before = len(play.answers)
            play.undo()  # the teacher takes the last answer back: its answers go too
            table.after()
            assert len(play.answers) < before
            undone += 1
    answers = play.answers
    assert undone == 3 and saves[0] > 100 and len(answers) > 20
    assert {seat for _, seat, *_ in answers} == {s for s, c in enumerate(play.seats) if not c.bot}
    team_too = len({(n, seat) for n, seat, *_ in answers}) < len(answers)
    assert team_too == (play.settings.mode == "teams")  # a TEAM SOLUTION is a second answer
    (saved,) = Journal(path).matches()
    replayed_play = MwmPlay(
        play.settings, play.seats, seed=play.seed, match=Journal(path).load(saved.id, GAMES)
    )
    assert replayed_play.answers == answers
    journaled = [
        (a.step, a.seat, a.question["numbers"], a.given) for a in Journal(path).answers(saved.id)
    ]
    assert journaled == [
        (n, seat, [str(x) for x in q.numbers], str(v)) for n, seat, _, q, v in answers
    ]


def test_a_typed_answer_has_an_im_ready_tile_and_the_next_step_names_who() -> None:
    """Issue 21: "press your button" has a visible touch twin at the seat (not only the
    small seat badge), and the instruction line names who the device waits for next."""
    app = make_app()
    table = start(app)
    show(app, 0, "C10:1", "K+2:1")
    show(app, 1, "C4:2", "K+1:2")
    assert table.target("ready.0") is None  # nothing typed yet: the box opens the pad
    answer(app, 0, 12, press=False)
    tile = table.target("ready.0")
    assert tile is not None and min(tile.rect.size) >= app.ctx.metrics.touch
    assert table.target("ready.1") is None
    tap(app, "solve.0")  # the answer box still reopens the pad: a mistyped number is fixed
    assert isinstance(app.stack.top, NumPad)
    type_number(app, 12)
    tap(app, "ready.0")  # as seat 1's button would
    assert 0 in table.play.ready
    assert table.status() == (
        "Player 1 is ready (to change it, tap your answer box). Player 2: work it out, tap "
        "your answer box, type it, then press your button."
    )


# -- issue 21: one framework ------------------------------------------------------------------


def test_mwm_controller_modules_import_no_pygame() -> None:
    """The controller (play) and the verdict words are pygame-free."""
    import ast

    from tabletop.ui.games.math_wars_meta import play, verdict

    for module in (play, verdict):
        tree = ast.parse(Path(module.__file__).read_text())
        names = [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names]
        names += [n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)]
        assert not [n for n in names if n.startswith("pygame") or n == "tabletop.ui.app"]


@pytest.mark.parametrize("size", [(800, 480), (1280, 720)])
@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_mwm_number_pad_leaves_the_cards_it_asks_about_in_view(size, players) -> None:
    """Issue 21: the pad for YOUR SOLUTION (and for a card) never covers that seat's
    COUNT META and MATH CRATE cards, for any seat; its keys stay touch-sized."""
    app = make_app(size)
    taps = SOLO if players == 1 else seats(players, 2)
    start(app, *taps)
    table = app.stack.top
    for seat in range(players):
        show(app, seat, f"C{seat + 3}", "K+1")
    for seat in range(players):
        for target in (f"solve.{seat}", f"count.{seat}"):
            tap(app, target)
            pad = app.stack.top
            assert isinstance(pad, NumPad)
            assert not pad.panel.colliderect(table.cards_of(seat)), (target, players)
            assert all(min(b.rect.size) >= app.ctx.metrics.touch for b in pad.buttons)
            tap(app, "cancel")


def words_shown(scene: Any) -> list[str]:
    """The texts ``scene`` draws, as they show (cut short where they do not fit)."""
    painter, shown = scene.ctx.painter, []
    ellipsis = painter.ellipsis

    def spy(*args: Any) -> str:
        shown.append(ellipsis(*args))
        return shown[-1]

    painter.ellipsis = spy
    scene.draw(pygame.Surface(scene.ctx.metrics.size))
    del painter.ellipsis
    return shown


@pytest.mark.parametrize("fmt", [(), ("more", "format.4")], ids=["duos", "quads"])
def test_mwm_team_chips_at_eight_seats_keep_names_like_maximilian_whole(fmt, monkeypatch) -> None:
    """Team v Team at 8 seats, 800x480: the team's tag and stars sit left of its rows,
    so a seat's name has its chip to the chip's end, and a name of up to 96 px at 16 px
    bold ("Maximilian"; "Konstantin" is 98) is whole, at 16 px or more, clear of the cards; the
    chip kept room for the team word the tag now has, and cut it ("Maximil…"). A name of
    sixteen wide letters (the form's most, 192 px) does not fit beside the cards at all:
    it is cut with "…", never broken inside (walk 28)."""
    from tests.ui.game_scenery import form_seats, name_seats
    from tests.ui.game_scenery import setup as form

    app = make_app((800, 480))
    names = ("Maximilian", "Alexander", "Elisabeth", "Charlotte")
    auto = form(app, "math-wars-meta", "mode.teams")
    form_seats(auto, 8)
    name_seats(auto, names)
    for name in (*fmt, "start"):
        auto.tap(name)
    table = app.stack.top
    assert isinstance(table, TableScene) and table.bands
    painter, drawn = app.ctx.painter, []
    render, text = painter.fonts.render, painter.text

    def rendering(words: str, size: int, *args: Any) -> pygame.Surface:
        drawn.append([words, size, None])
        return render(words, size, *args)

    def texting(*args: Any, **kw: Any) -> pygame.Rect:
        drawn[-1][2] = rect = text(*args, **kw)
        return rect

    monkeypatch.setattr(painter.fonts, "render", rendering)
    monkeypatch.setattr(painter, "text", texting)
    app.draw()
    shown = {words: (px, at) for words, px, at in drawn}
    for seat, name in enumerate(names):
        assert name in shown, f"{name} is cut: {[w for w in shown if w[:3] == name[:3]]}"
        size, rect = shown[name]
        assert size >= painter.least and rect.right <= table.cards_of(seat).left, name


@pytest.mark.parametrize("size", [(800, 480), (1280, 720)])
@pytest.mark.parametrize(("players", "per_team"), [(4, 2), (8, 2), (6, 3), (8, 4)])
def test_mwm_team_pad_leaves_the_teammates_cards_in_view(size, players, per_team) -> None:
    """MWM-7 (walks 28, 29): the TEAM SOLUTION is the team's sum, so its pad keeps the
    whole team's COUNT META and MATH CRATE cards in view, with touch-sized keys that
    do not overlap: beside them at 4 seats; above or below them, across the screen, where
    the team spans it (Duos at 8 seats, Trios, Quads). It covered a teammate's cards in
    Trios and Quads, and the child's own at 8 seats; then Trios' team 2's names (whose
    cards they are), and now none, with keys no smaller than 68 px at 800x480."""
    app = make_app(size)
    fmt = () if per_team == 2 else ("more", f"format.{per_team}")
    table = start(app, "mode.teams", *seats(players, 4), *fmt)
    for seat in range(players):
        show(app, seat, f"C{seat + 3}", "K+1")
    settings = table.play.settings
    for seat in range(players):
        tap(app, f"solve.{seat}")
        type_number(app, seat + 4)
        pad = app.stack.top
        assert isinstance(pad, NumPad) and pad.hint == "TEAM SOLUTION"
        team = settings.side_seats(settings.side_of(seat))
        assert len(team) == per_team
        assert not [o for o in team if pad.panel.colliderect(table.cards_of(o))], seat
        # nor their chips: their names (and, when compact, their last lines)
        assert pad.panel.collidelist([table.place("seat", o) for o in team]) < 0, seat
        assert all(min(b.rect.size) >= app.ctx.metrics.u(68) for b in pad.buttons)
        parts = [pad.display, *(b.rect for b in pad.buttons)]
        assert all(
            pad.panel.contains(r) and r.collidelist(parts[i + 1 :]) < 0 for i, r in enumerate(parts)
        )
        tap(app, "num.1")  # the child's own answer stays in the title, whole, while typing
        shown = words_shown(pad)
        assert f"Player {seat + 1}: {seat + 4} + your team's" in shown and "1" in shown
        tap(app, "cancel")


def test_mwm_instruction_line_names_the_next_step_after_a_hand() -> None:
    """The verdict's sentences end with what to tap next; before, who is to do what."""
    app = make_app()
    table = start(app)
    assert table.status() == "Player 1, Player 2: turn up your COUNT META and MATH CRATE cards."
    show(app, 0, "C9", "K+1")
    show(app, 1, "C3", "K+1")
    answer(app, 0, 10)
    answer(app, 1, 4)
    assert table.status().endswith("Tap Next hand.")


@pytest.mark.parametrize("banner", [False, True], ids=["", "banner"])
def test_mwm_round_won_by_the_last_standing_fits_one_page_at_800x480(banner: bool) -> None:
    """MWM-6: six children, the last hand of round 6 knocks the other five out; the line
    said "Player 1, Player 2, Player 3, Player 4 and Player 6 are out." before the round's
    winner, in two pages that turned every few seconds (walk r40). The others go unnamed
    now, "Everybody else is out.": one page at 800x480, with the rotation's banner too.
    Children out while the round goes on are still named."""
    from tests.ui.scenery import build
    from tests.ui.test_rotation_strip import with_rotation

    app = with_rotation("math-wars-meta-table-full", (800, 480))[0] if banner else None
    app = app or build("math-wars-meta-table-full", (800, 480))
    table = app.stack.top
    assert isinstance(table, TableScene)
    line, m = table.status(), table.m
    won = "Player 5 wins the hand with 57! Everybody else is out. Player 5 wins round 6"
    assert won in line and "are out" not in line
    box = table.message_rect.inflate(-m.u(14), -m.u(8))  # as draw_status has it
    assert len(app.ctx.painter.pages(line, box, m.text)[1]) == 1


def test_mwm_setup_mode_fills_the_seats_and_refuses_what_makes_no_game() -> None:
    """Solo is one child, Teams four; Duos with five players and Solo with a bot say
    what to change, and nothing starts."""
    app = make_app()
    form = setup(app, "mode.teams")
    assert len(form.filled) == 4 and form.values().options["mode"] == "teams"
    tap(app, "seat.4")
    tap(app, "choice.child")
    tap(app, "start")
    assert app.stack.top is form and "Duos need 4, 6 or 8 players" in form.message
    tap(app, "mode.solo")
    assert len(form.filled) == 1
    tap(app, "seat.0")
    tap(app, "choice.bot.bot")
    tap(app, "start")
    assert app.stack.top is form and "Solo has no bot" in form.message
    tap(app, "mode.pvp")
    tap(app, "start")
    assert isinstance(app.stack.top, TableScene)


@pytest.mark.parametrize("edition", ["MWM25", "MWM100"])
def test_mwm_setup_rules_show_the_picked_editions_pages(edition: str) -> None:
    """The setup form's Rules show the picked edition's pages (its goal: MWM25 4
    VICTORY! cards of COUNT META 1 to 25, MWM100 5 of 1 to 100), as the table's Rules
    do, not MWM25's whatever was picked."""
    from tabletop.ui.games.math_wars_meta.setup import pages

    app = make_app()
    setup(app, "edition.MWM100", f"edition.{edition}")
    tap(app, "rules")
    shown = app.stack.top
    assert isinstance(shown, RulesScene) and shown.title == "Math Wars Meta: the rules"
    assert shown.pages == tuple(pages(edition))
    top = "1 to 100" if edition == "MWM100" else "1 to 25"
    assert f"{edition}: COUNT META cards {top}" in shown.pages[0].text
    app.stack.pop()
    tap(app, "start")  # the table's Rules: the same pages
    table = app.stack.top
    assert isinstance(table, TableScene)
    assert table.rules_scene().pages == shown.pages


def test_mwm_game_journaled_by_the_old_setup_carries_on(tmp_path: Path) -> None:
    """A game the old setup journaled (its ``choices``: seats of real cards, virtual
    cards and a bot mixed) carries on as it was."""
    from tabletop.store import FILE_NAME
    from tabletop.ui.games.math_wars_meta.setup import Choices, make_game

    path = tmp_path / FILE_NAME
    app = journal_app(path)
    old = Choices(players=3, who=["real", "virtual", "bot"] + ["real"] * 5)
    table = make_game(app.ctx, old, 5)
    app.stack.push(table)
    app.step()
    show(app, 0, "C10", "K+2")
    again = journal_app(path)
    tap(again, "yes")
    resumed = again.stack.top
    assert isinstance(resumed, TableScene) and resumed.play.seats == table.play.seats
    assert [(s.virtual, s.bot) for s in resumed.play.seats] == [
        (False, False),
        (True, False),
        (False, True),
    ]
    assert resumed.play.state == table.play.state


@pytest.mark.parametrize("size", [(800, 480), (1280, 720)])
@pytest.mark.parametrize("seats", range(1, 9))
def test_mwm_table_seat_chips_are_touch_sized_at_every_seat_count(seats, size) -> None:
    """A seat's chip (``seat.<s>``, the seat button's touch twin) is a child's finger
    high (48 px at 800x480, 64 at 1280x720) on every Score Card, roomy or full, and the
    card under it keeps its cards and answer box."""
    from tests.ui.game_scenery import form_seats, setup

    app = make_app(size, camera=True)
    if seats == 1:
        auto = setup(app, "math-wars-meta", "mode.solo", "cards.virtual")
    else:
        auto = setup(app, "math-wars-meta")
        form_seats(auto, seats)
    auto.tap("start")
    scene = app.stack.top
    assert isinstance(scene, TableScene)
    touch = app.ctx.metrics.touch
    for seat in range(seats):
        chip = scene.place("seat", seat)
        assert min(chip.size) >= touch, f"seat.{seat} is {chip.size} at {size}"
        panel = scene.panels[seat]
        for kind in ("count", "crate", "solve"):
            assert panel.contains(scene.place(kind, seat)), f"{kind}.{seat} leaves its card"


@pytest.mark.parametrize("size", [(800, 480), (1280, 720)])
def test_mwm_card_numbers_keep_clear_of_their_caption_over_the_banner(size) -> None:
    """On a full table squeezed over the station rotation's banner, every card's big
    number (COUNT META, MATH CRATE) ends a few pixels above the COUNT or CRATE caption
    under it: their ink never meets."""
    from tabletop.ui.theme import Fonts
    from tests.ui.test_rotation_strip import frame

    shot = frame("math-wars-meta-table-full", size)
    texts = [d for d in shot.drawn if d.what == "text" and d.scene is not None]
    fonts = Fonts()

    def ink(words: str, size: int, at: pygame.Rect, bold: bool) -> pygame.Rect:
        return fonts.render(words, size, (0, 0, 0), bold).get_bounding_rect().move(at.topleft)

    captions = [d for d in texts if d.words in ("COUNT", "CRATE")]
    assert len(captions) == 12, "every card shows its caption"
    for caption in captions:
        under = ink(caption.words, caption.size, caption.rect, False)
        over = [
            d
            for d in texts
            if d.rect.top < caption.rect.top and under.left <= d.rect.centerx <= under.right
        ]
        number = max(over, key=lambda d: d.rect.top)  # the card's number, right above
        gap = under.top - ink(number.words, number.size, number.rect, True).bottom
        assert gap >= 3, f"{number.words!r} is {gap} px above its {caption.words} at {size}"


@pytest.mark.parametrize("size", [(800, 480), (1280, 720)])
def test_mwm_eight_seats_cards_show_captions_and_numbers_off_the_border(size) -> None:
    """A table of eight (the scenery's ``math-wars-meta-table-ready``, over the banner):
    every COUNT and CRATE card shows its caption inside it, and its number's ink keeps
    clear of the card's thick border."""
    from tabletop.ui.theme import Fonts
    from tests.ui.test_rotation_strip import frame

    shot = frame("math-wars-meta-table-ready", size)
    texts = [d for d in shot.drawn if d.what == "text" and isinstance(d.scene, TableScene)]
    scene = texts[0].scene
    assert len(scene.play.seats) == 8
    fonts, clear = Fonts(), scene.m.u(5) + 2  # the COUNT card's border, and 2 px
    for seat in range(8):
        for kind, caption in (("count", "COUNT"), ("crate", "CRATE")):
            card = scene.place(kind, seat)
            shown = [d for d in texts if card.contains(d.rect)]
            assert caption in [d.words for d in shown], f"{kind}.{seat} has no {caption}"
            number = next(d for d in shown if d.words != caption)
            box = fonts.render(number.words, number.size, (0, 0, 0), True).get_bounding_rect()
            ink = box.move(number.rect.topleft)
            assert card.inflate(-2 * clear, -2 * clear).contains(ink), f"{kind}.{seat}"


@pytest.mark.parametrize("banner", [False, True], ids=["", "banner"])
@pytest.mark.parametrize("size", [(800, 480), (1280, 720)])
@pytest.mark.parametrize("players", [7, 8])
def test_mwm_full_table_a_seat_at_its_ready_tile_keeps_its_name_readable(
    players, size, banner
) -> None:
    """Issue 21, 7-8 seats (the chips left of the cards): a seat whose answer waits for
    its button, or was pressed, shows its name whole on its Ready tile, at 16 px or more
    at 800x480 (beside a tile of its own it was cut to "P…", its last line to "press
    b…"), the tile's words under it; the tile is a finger high, the answer box stays to
    be tapped and the answer typed again (a child takes back their own entry), and no
    target lies on another, with the rotation's banner or without."""
    from tests.ui.game_scenery import form_seats, show_cards
    from tests.ui.game_scenery import setup as form
    from tests.ui.test_rotation_strip import recording

    app = make_app(size, camera=True)
    auto = form(app, "math-wars-meta")
    form_seats(auto, players)
    auto.tap("start")
    for seat in range(players):
        show_cards(app, seat + 1, "battle", (f"C{seat + 3}", "K+1"))
    answer(app, 0, 4)
    answer(app, 1, 5, press=False)
    if banner:
        from tabletop.classroom.rotation import start_rotation
        from tabletop.ui.scenes.rotation import RotationRunner
        from tests.ui.scenery import FakeClock
        from tests.ui.test_rotation_screens import PLAN, T0

        app.ctx.wall = FakeClock(T0 + 60)
        stored = start_rotation(app.ctx.journal, PLAN, 1, session="lesson", now=lambda: T0)
        app.ctx.rotation = RotationRunner(app.ctx, stored)
        app.step()
    table = app.stack.top
    with recording(app) as drawn:
        app.draw()
    least, touch = app.ctx.painter.least, app.ctx.metrics.touch
    for seat, words in ((0, "Ready \u2713"), (1, "I'm ready!")):
        tile = table.target(f"ready.{seat}")
        assert tile is not None and min(tile.rect.size) >= touch, f"ready.{seat}"
        on = {
            (d.words, d.size >= least)
            for d in drawn
            if d.what == "text" and d.rect and tile.rect.contains(d.rect)
        }
        assert {(table.play.name(seat), True), (words, True)} <= on, f"seat {seat}: {on}"
    targets = table.targets()
    assert not [
        (a.name, b.name)
        for i, a in enumerate(targets)
        for b in targets[i + 1 :]
        if a.rect.colliderect(b.rect)
    ]
    tap(app, "solve.1")  # the answer typed again
    assert isinstance(app.stack.top, NumPad)
    type_number(app, 9)
    tap(app, "ready.1")
    assert {0, 1} <= set(table.play.ready)


@pytest.mark.parametrize("banner", [False, True], ids=["", "banner"])
@pytest.mark.parametrize("size", [(800, 480), (1280, 720)])
def test_mwm_teams_at_eight_seats_show_each_name_and_each_team_once(size, banner) -> None:
    """Team v Team at eight seats (the scenery's ``math-wars-meta-table-teams``): every
    seat's chip showed "Play…", its team's "T1 ★0" taking the room (issue 21). Each
    team's tag and stars show once, left of its row or rows, and each chip its child's
    name at 16 px or more at 800x480: whole, or a long one's first five letters and "…";
    the chips still double as the seats' Ready tiles."""
    from tests.ui.scenery import build
    from tests.ui.test_rotation_strip import recording, with_rotation

    name = "math-wars-meta-table-teams"
    app = with_rotation(name, size)[0] if banner else build(name, size)
    table = app.stack.top
    assert isinstance(table, TableScene) and table.play.settings.mode == "teams"
    with recording(app) as drawn:
        app.draw()
    texts = [d for d in drawn if d.what == "text" and d.scene is table and d.rect]
    least = app.ctx.painter.least
    for seat in range(8):
        chip, child = table.place("seat", seat), table.play.name(seat)
        shown = [d.words for d in texts if chip.contains(d.rect) and d.size >= least]
        cut = [w for w in shown if w.endswith("\u2026") and child.startswith(w[:-1])]
        assert child in shown or (cut and len(cut[0]) > 5), f"seat {seat + 1}: {shown}"
    tags = [(d.words, d.rect) for d in texts if d.words[0] in "T\u2605" and d.words[1:].isdigit()]
    assert sorted(w for w, _ in tags) == ["T1", "T2", "T3", "T4"] + ["\u26050"] * 4
    assert not [w for w, at in tags if any(p.colliderect(at) for p in table.panels)]
    waiting = table.target("ready.2")  # typed, not pressed: the chip is its tile
    assert waiting is not None and waiting.rect == table.place("seat", 2)
    assert "I'm ready!" in [d.words for d in texts if waiting.rect.contains(d.rect)]
    tap(app, "ready.2")
    assert 2 in table.play.ready


def test_mwm_teams_at_eight_seats_each_seats_last_line_shows_whole() -> None:
    """Beside the teams' tags the chips are narrower (issue 21): a seat's last line that
    does not fit in bold at 16 px ("wins the hand!" at 800x480) shows whole in regular
    weight rather than cut."""
    from tests.ui.game_scenery import form_seats
    from tests.ui.game_scenery import setup as form
    from tests.ui.scenery import drawn_texts

    app = make_app()
    auto = form(app, "math-wars-meta", "mode.teams")
    form_seats(auto, 8)
    auto.tap("start")
    table, bot = app.stack.top, TableBot(app, 8)
    while table.play.verdict is None:
        bot.step()
    words = {t for t, size in drawn_texts(app.ctx.painter, app.draw) if size >= 16}
    feet = [table._foot(seat)[0] for seat in range(8)]
    assert "wins the hand!" in feet
    assert all(f in words or f.rpartition(" \u00b7 ")[2] in words for f in feet), feet


def test_mwm_a_bots_answer_box_says_ready_while_the_children_solve() -> None:
    """Round 28: a bot answers at once; its YOUR SOLUTION box showed nothing, so the
    children could not tell whether it had answered. It shows "✓ ready" as a child's
    box does once in, never the bot's answer before the verdict, which then shows it."""
    from tests.ui.game_scenery import form_seats, setup, show_cards, type_number
    from tests.ui.test_rotation_strip import recording

    app = make_app()
    auto = setup(app, "math-wars-meta")
    form_seats(auto, 3, bots=(1,))
    auto.tap("start")
    table = app.stack.top
    for seat, cards in ((0, ("C10", "K+2")), (2, ("C7", "Kx3"))):
        show_cards(app, seat + 1, "battle", cards)
    assert table.play.solving() == [0, 2] and 1 in table.play.entries  # the bot answered

    def in_box() -> list[str]:
        with recording(app) as drawn:
            app.draw()
        box = table.place("solve", 1)
        return [d.words for d in drawn if d.what == "text" and d.rect and box.contains(d.rect)]

    answer = str(table.play.entries[1].solution)
    assert "\u2713" in in_box() and "ready" in in_box() and answer not in in_box()
    for seat, value in ((0, 12), (2, 21)):
        auto.tap(f"solve.{seat}")
        type_number(auto, value)
        app.seat_queue.put(SeatPressed(seat, app.ctx.clock()))
        app.step()
    assert table.play.verdict is not None and "ready" not in in_box()
