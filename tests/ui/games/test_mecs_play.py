"""M.E.C.S.'s controller without a display (issue 21): whose turn it is, what the device
waits for (the who-starts card, a refill, a trade), the sentences, the bots, undo and
the record kept beside the match (RULINGS MECS-4, MECS-5, MECS-6)."""

from __future__ import annotations

import re
import string
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import hypothesis
import pytest
from hypothesis import given
from hypothesis import strategies as st

from tabletop.bots.mecs import decide
from tabletop.engine.match import Match
from tabletop.engine.protocol import Event
from tabletop.games import GAMES
from tabletop.games.mecs import (
    CHANCE_TYPES,
    EndTurn,
    Mecs,
    MecsSettings,
    Observe,
    Plant,
    Refill,
    Trade,
)
from tabletop.games.mecs_equation import PLAY_CARDS, evaluate, render
from tabletop.store import SeatInfo
from tabletop.ui.games.mecs import play as play_module
from tabletop.ui.games.mecs.play import LABEL, MecsPlay, coin_words, seat_infos
from tabletop.ui.messages import CHILD_MESSAGES, FALLBACK, child_message
from tests.games.test_mecs_support import cards

NAMES = [("Ann", False), ("Bo", False)]


def new_play(seats=NAMES, *, cards: str = "virtual", seed: int = 4, **settings) -> MecsPlay:
    play = MecsPlay(seat_infos(seats), MecsSettings(play=cards, **settings), seed)
    play.settle()
    return play


def test_mecs_play_does_not_import_pygame() -> None:
    """The controller runs without a display: importing it loads no pygame."""
    source = Path(play_module.__file__).read_text()
    assert not re.search(r"^\s*(import|from)\s+pygame", source, re.M)
    code = "import sys, tabletop.ui.games.mecs.play; sys.exit('pygame' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code], check=False).returncode == 0


def test_mecs_play_camera_waits_for_the_who_starts_card_and_says_so() -> None:
    """Real cards: the device waits for each seat's who-starts card and says so, also
    when cards are put in an area too early (not "the cards are still being dealt")."""
    play = new_play(cards="camera")
    assert play.wants("reveal") == 0 and play.lit() == [0]
    assert play.next_step() == "Who starts? Ann: show one number card!"
    play.submit_area(0, ("7",), camera=True)
    text, kind = play.message, play.tone
    assert kind == "error" and "who starts" in text and "Ann, show one number card" in text
    assert "dealt" not in text and play.readings[0] == ("7",)
    play.press("reveal.8")
    assert play.next_step() == "Who starts? Bo: show one number card!"
    play.press("reveal.3")  # Ann shows 8, Bo 3: Ann starts
    assert play.wants("reveal") is None and play.state.active == 0
    assert play.next_step() == "Turn 1: Ann, put down 1 or 2 cards, or hack!"


def test_mecs_play_a_card_held_up_alone_is_the_who_starts_card_or_opens_its_page() -> None:
    """MECS-4 (the rule book: everyone shows one number card, the largest starts): while
    the device waits for who starts, a symbol card held up is not taken for a page the
    child did not ask for: the sentence says what to show; after it, a card's page."""
    play = new_play(cards="camera")
    assert play.cards_seen(None, None, ["5"]) is None  # Ann's who-starts card
    assert play.wants("reveal") == 1
    assert play.cards_seen(None, None, ["EQ"]) is None  # not a number: said, no page
    assert play.message == (
        "That is not a number card. To see who starts, Bo, show one number card."
    )
    assert play.tone == "error" and play.wants("reveal") == 1
    assert play.cards_seen(None, None, ["MT1:ATK:+5"]) is None
    assert "not from this game" in play.message and play.tone == "error"
    assert play.cards_seen(None, None, ["3"]) is None and play.wants("reveal") is None
    assert play.cards_seen(None, None, ["EQ"]) == "EQ"  # not waited for: its page


def test_mecs_play_instruction_names_the_next_step_through_a_turn() -> None:
    """Every phase names who the device waits for and what to do (issue 21)."""
    play = new_play(seats=[("Ann", False), ("Bo", True)])
    seen: set[str] = set()
    for _ in range(200):
        if play.finished:
            break
        step = play.next_step()
        seat = play.pending_seat()
        assert seat is not None and play.name(seat) in step, step
        seen.add(play.state.phase)
        if play.state.phase == "refill":  # a bot draws by itself (MECS-4)
            bot = play.is_scene_bot(seat)
            assert ("is drawing a card" if bot else "draw a number or a symbol") in step
        if play.bot_to_move() is not None:
            assert play.state.phase == "refill" or step.endswith("is thinking...")
            play.bot_step()
        elif play.state.phase == "refill":
            play.press("refill.numbers" if play.state.stack("numbers").size else "refill.symbols")
        else:
            assert "put down" in step
            play.perform(decide(play.state, seat, "easy"))
    assert {"plant", "refill"} <= seen


def test_mecs_play_refusals_say_why_and_change_nothing() -> None:
    play = new_play(seats=[("Ann", False), ("Bo", False)])
    before = play.match.history
    assert play.press("trade") is None  # nothing put down yet (MECS-4)
    assert (play.message, play.tone) == (
        "You can only trade after putting down exactly 1 card.",
        "error",
    )
    play.seat_pressed(1)
    assert play.message == "Not now: it is Ann's turn."
    play.press("refill.numbers")
    assert play.message == "Not now: hands are filled up after a turn."
    assert play.press("objective") is None and play.tone == "error"
    assert play.match.history == before


def test_mecs_play_a_plant_is_said_with_each_cards_name() -> None:
    """Walk 29: "Bot 1 planted (: the area reads + ÷ ().0455." (the engine's English, a
    bare symbol before a colon). The child's sentence names each card put down (MECS-4:
    1 or 2) in quotes, then what the area reads."""
    play = new_play()
    active = play.state.active
    name, hand = play.name(active), play.state.players[active].hand
    play.submit_area(active, hand[:2])
    first, second = (LABEL.get(c, c) for c in hand[:2])
    area = render(hand[:2])
    told = f"{name} put down “{first}” and “{second}”. The area reads {area}."
    assert play.message == told
    play = new_play(seed=5)
    active = play.state.active
    name, card = play.name(active), play.state.players[active].hand[0]
    play.submit_area(active, (card,))
    label = LABEL.get(card, card)
    told = f"{name} put down “{label}”. The area reads {render((card,))}."
    assert play.message == told


def test_mecs_play_a_reorder_and_a_trade_are_said_from_the_sentence_table() -> None:
    """Round 30: "Ann moved cards: the area reads 4 +." and "... put 4 under the numbers
    stack and draws from ..." were the engine's English on the child's line; now the
    sentence table's, by the event's code and facts (a card hidden in camera play)."""
    play = new_play()
    active = play.state.active
    name, hand = play.name(active), play.state.players[active].hand
    play.submit_area(active, hand[:2])
    play.submit_area(active, hand[:2][::-1])  # the same cards, moved (MECS-4)
    assert play.message == f"{name} moved cards. The area reads {render(hand[:2][::-1])}."
    play = new_play()
    planted, card = play.state.players[active].hand[:2]
    play.submit_area(active, (planted,))  # a trade comes after planting exactly 1 card
    ask = play.press("trade")
    assert ask is not None
    draw = play.answer(ask, card)
    assert draw is not None
    play.answer(draw, "symbols")
    under = "numbers" if card.isdigit() else "symbols"
    told = f"{name} put “{LABEL[card]}” under the {under} stack, then draws from the symbols stack."
    assert play.message == told
    camera = new_play(cards="camera")
    facts = {"card": "7", "under": "numbers", "draw_from": "symbols"}
    camera.told([Event("mecs.traded", "Player 1 put a card under ...", 0, facts)])
    name = camera.name(0)
    assert camera.message == (
        f"{name} put a card under the numbers stack, then draws from the symbols stack."
    )


def test_mecs_play_a_score_a_turn_ended_and_a_draw_are_the_sentence_tables(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Round 30: "21 ÷ 3 = 7 is right! Cy flips 6 cards and wins 6 coins (now 14).", "Bo
    ends the turn." and "Bo drew a card from the symbols stack." were the engine's English
    on the child's line; each is now the sentence table's, by the event's code and facts."""
    from tabletop.ui.messages import CHILD_MESSAGES

    codes = {"mecs.completed": "completed", "mecs.turn_ended": "ended", "mecs.drew": "drew"}
    for key in codes.values():
        code = f"mecs.said.{key}"
        monkeypatch.setitem(CHILD_MESSAGES, code, f"{code}: {CHILD_MESSAGES[code]}")
    told = set()
    play = new_play(seats=[("Ann", False), ("Bo", False), ("Cy", False)], seed=2)
    while not play.finished and len(told) < len(codes):
        steps = len(play.match.steps)
        refill = play.state.phase == "refill"  # a trade's draw is not said (MECS-4)
        if refill:
            play.press("refill.numbers" if play.state.stack("numbers").size else "refill.symbols")
        else:
            play.perform(decide(play.state, play.pending_seat() or play.state.active, "hard"))
        events = [e for step in play.match.steps[steps:] for e in step.events]
        if events and events[-1].code in codes and (refill or events[-1].code != "mecs.drew"):
            code = codes[events[-1].code]
            assert play.message == f"mecs.said.{code}: {play.words(events[-1].text)}"
            told.add(code)
    assert told == set(codes.values())
    play.told([Event("mecs.turn_ended", "Player 1 passes: no card in hand.", 0, {"passed": True})])
    assert play.message == "Ann has no card left to put down, so the turn ends."


def test_mecs_play_trade_undo_and_sentences_with_names() -> None:
    play = new_play()
    active = play.state.active
    card = play.state.players[active].hand[0]
    play.submit_area(active, (card,))
    assert play.state.phase == "planted" and play.can_trade() and play.can_end()
    ask = play.press("trade")  # virtual play: which card of the hand goes back
    assert ask is not None and ask.key == "trade"
    draw = play.answer(ask, ask.choices[0][0])
    assert draw is not None and draw.choices  # then which stack the new card comes from
    assert play.answer(draw, draw.choices[0][0]) is None
    assert play.state.phase == "refill"
    assert any(play.name(active) in text for _, text in play.story)
    assert not any("Player " in text for _, text in play.story)  # names, never "Player N"
    play.undo()
    assert (
        play.state.phase == "planted"
        and play.message == f"Taken back: {play.name(active)}'s trade."
    )
    play.undo()
    assert play.state.players[active].area == () and play.state.phase == "plant"


def test_mecs_play_a_refill_says_who_drew_not_the_question_answered_mecs4() -> None:
    """MECS-4: after a child chose a stack and drew, the sentence says so; it no longer
    asks "which stack?" while the line names the next child to draw."""
    play = new_play()
    active = play.state.active
    play.submit_area(active, play.state.players[active].hand[:2])  # both must fill up
    assert play.state.phase == "refill" and play.match.pending.seats == {0, 1}
    play.seat_pressed(1)
    assert play.message == "Bo: which stack do you draw from?"
    play.press("refill.symbols")
    assert play.message == "Bo drew a card from the symbols stack."
    assert play.next_step() == "Fill hands up to 5 cards: Ann, draw a number or a symbol."
    assert not any("drew" in text for _, text in play.story)  # the turn log stays short


def test_mecs_play_bots_play_to_the_end_and_a_replayed_match_plays_on_the_same() -> None:
    """Never lose a game (issue 10): bots decide from the state alone and the device's
    cards are keyed by the seed, so a match replayed from its log plays on as before."""
    bots = [("Bot 1", True), ("Bot 2", True)]
    play = new_play(seats=bots, seed=9)
    for _ in range(40):
        play.bot_step()
    lines = list(play.match.log_lines())
    again = MecsPlay(seat_infos(bots), play.settings, 9, match=Match.replay(lines, GAMES))
    assert again.story == play.story  # what happened, told again
    for table in (play, again):
        for _ in range(3000):
            if table.finished:
                break
            table.bot_step()
    assert play.finished and again.state == play.state
    result = Mecs().result(play.state)
    assert result is not None and play.standings() == result
    assert play.outcome_lines()[:2] == ["Race to 15 coins.", "Advanced deck."]


def test_mecs_play_record_beside_the_match_carries_on() -> None:
    play = new_play(cards="camera")
    play.submit_area(1, ("2", "X"), camera=True)  # refused: the who-starts cards first
    play.refill_seat = 1
    record = play.record()
    assert record == {"readings": {"1": ["2", "X"]}, "refill": 1}
    again = MecsPlay(seat_infos(NAMES), play.settings, 4, match=play.match)
    again.carry_on(record)
    assert again.readings == {1: ("2", "X")} and again.refill_seat == 1
    again.carry_on(None)  # a journal from before the record
    assert again.readings == {} and again.refill_seat is None


def test_mecs_play_seats_from_the_journal_keep_their_bot_level() -> None:
    infos = seat_infos([("Ann", False), SeatInfo(1, "Bot 2", bot="medium"), ("Cy", True)])
    play = MecsPlay(infos, MecsSettings(), 1)
    assert [p.bot for p in play.seats] == [None, "medium", "hard"]


def test_mecs_play_seats_from_the_tables_own_rows_keep_their_bot_level() -> None:
    """A journal whose seats' rows were not written resumes from the table's own rows:
    (name, is a bot, level), the level missing before MECS-12 (then the hard bot)."""
    infos = seat_infos([["Ann", False, "hard"], ["Bot 2", True, "easy"], ["Cy", True]])
    assert [(s.seat, s.name, s.bot) for s in infos] == [
        (0, "Ann", None),
        (1, "Bot 2", "easy"),
        (2, "Cy", "hard"),
    ]


def play_on(play: MecsPlay, until: Callable[[MecsPlay], bool]) -> None:
    """Play on until ``until(play)``: the bots by themselves, a child's refill from the
    numbers (the symbols once they run out), a child's move as the easy bot's."""
    for _ in range(200):
        if until(play):
            return
        if play.bot_to_move() is not None:
            play.bot_step()
        elif play.state.phase == "refill":
            play.press("refill.numbers" if play.state.stack("numbers").size else "refill.symbols")
        else:
            play.perform(decide(play.state, play.pending_seat() or 0, "easy"))
    raise AssertionError("the game never got there")


def plants(seat: int) -> Callable[[MecsPlay], bool]:
    return lambda play: play.state.active == seat and play.state.phase == "plant"


def test_mecs_play_a_seat_button_ends_a_turn_with_no_card_left_to_put_down_mecs4() -> None:
    """MECS-4: a child with no card left in hand may end the turn without putting one
    down; the seat's button asks the engine (:func:`may_end_turn`), as "End my turn"
    does, and does not say "put down 1 or 2 cards" from the phase."""
    from tests.games.test_mecs_support import table

    play = MecsPlay(seat_infos(NAMES), MecsSettings(), 4)
    play.match.initial = table(["", "5 6 7 8 9"])  # Ann's turn to put cards down: none left
    play.seat_pressed(0)
    assert play.match.history == (EndTurn(0),) and play.tone != "error"
    assert play.message == "Ann has no card left to put down, so the turn ends."


def test_mecs_play_a_child_cannot_end_or_trade_for_a_bot() -> None:
    """While a bot (moved by the device) has its turn, End my turn and Trade say whose
    turn it is and do nothing."""
    play = new_play(seats=[("Bot 1", True), ("Bo", False)], seed=2)
    play_on(play, plants(0))
    card = play.state.players[0].hand[0]
    play.submit_area(0, (card,))  # the bot's card, as if its move were half done
    before = play.match.history
    play.press("end")
    assert (play.message, play.tone) == ("Not now: it is Bot 1's turn.", "error")
    assert play.press("trade") is None and play.match.history == before


def test_mecs_play_a_child_cannot_put_down_a_bots_cards_for_it() -> None:
    """Virtual play: while a bot has its turn, its area opens with no card to put down
    (the bot's hand is its own); a child's area during a child's turn offers the hand."""
    play = new_play(seats=[("Bot 1", True), ("Bo", False)], seed=2)
    play_on(play, plants(0))
    assert play.palette(0)[1] == [] and play.palette(1)[1] == []
    play.bot_step()
    play_on(play, plants(1))
    hand = sorted(play.state.players[1].hand)
    assert sorted(play.palette(1)[1]) == hand and sorted(play.palette(0)[1]) == hand


def test_mecs_play_undo_takes_back_the_childs_move_with_the_bots_after_it() -> None:
    """The teacher's undo against a bot: the bot's moves after the child's last decision
    go too (the bot would only play them again, so the child's move could never be taken
    back), as in Math Attack!; a game of bots alone has nothing to take back."""
    play = new_play(seats=[("Ann", False), ("Bot 2", True)])
    play_on(play, plants(0))
    play.submit_area(0, play.state.players[0].hand[:1])  # a card by touch
    play_on(play, lambda p: p.state.active == 1 and p.state.phase == "planted")  # the bot's
    history = play.match.history
    ann = [i for i, a in enumerate(history) if isinstance(a, Observe) or getattr(a, "seat", 1) == 0]
    last = ann[-1]  # Ann's last decision, then the bot's refill, its card taken, its plant
    assert any(isinstance(a, Plant) and a.seat == 1 for a in history[last:])
    play.undo()
    assert play.match.history == history[:last]
    assert play.message.startswith("Taken back:") and "Ann" in play.message
    bots = new_play(seats=[("Bot 1", True), ("Bot 2", True)])
    play_on(bots, lambda p: p.state.turn == 3)
    history = bots.match.history
    bots.undo()
    assert bots.match.history == history and bots.message == "There is nothing to take back."


def test_mecs_play_a_child_cannot_draw_a_bots_refill_mecs4() -> None:
    """MECS-4: each player fills their own hand. While a bot moved by the device is to
    draw, the line says so, Draw a number/symbol are off, and a tap on one says whose
    card it is and draws nothing (it drew the bot's card for it)."""
    play = new_play(seats=[("Ann", False), ("Bot 2", True)])
    play_on(play, lambda p: p.state.phase == "refill" and p.is_scene_bot(p.pending_seat() or 0))
    before = play.match.history
    assert play.next_step() == "Fill hands up to 5 cards: Bot 2 is drawing a card..."
    assert not play.can_refill("numbers") and not play.can_refill("symbols")
    assert play.press("refill.numbers") is None
    assert (play.message, play.tone) == ("Not now: Bot 2 draws its own card.", "error")
    play.seat_pressed(1)  # the bot's seat button: not "Bot 2: which stack do you draw from?"
    assert (play.message, play.refill_seat) == ("Not now: Bot 2 draws its own card.", None)
    assert play.match.history == before
    play.bot_step()  # the bot draws when its pause is over
    assert len(play.match.history) > len(before)


def test_mecs_play_a_refused_hack_says_what_is_wrong_from_the_engines_verdict() -> None:
    """MECS-5, MECS-6: a hack must make a true equation at once that meets the objective;
    the sentence names the mistake or the objective missed, and the hack is counted as
    a checked equation that was not right."""
    from dataclasses import replace

    from tabletop.games.mecs import objective
    from tests.games.test_mecs_support import table as engine_table

    settings = MecsSettings(mode="challenge")
    state = engine_table(["3 1 4", "5 5", ""], ["", "9 X 7 EQ 6", ""], settings=settings)
    match = Match(Mecs(), settings, 3, seed=3)
    match.initial = replace(state, objective=2)
    play = MecsPlay(
        seat_infos([("Ann", False), ("Bo", False), ("Cy", False)]), settings, 3, match=match
    )
    play.submit_area(1, ("9", "X", "7", "EQ", "6", "3"))  # true, but 63 misses objective 2
    text, kind = play.message, play.tone
    assert kind == "error" and text.startswith("That hack does not meet the objective card.")
    assert text.endswith(f"63 is not {objective(2).text}.")
    play.submit_area(1, ("9", "X", "7", "EQ", "6", "1"))  # 9 × 7 = 61: not true
    text, kind = play.message, play.tone
    assert text.startswith("A hack must finish the equation right away.") and "61" in text
    assert play.state.players[1].area == ("9", "X", "7", "EQ", "6")


def test_mecs_child_takes_back_cards_only_before_done_then_it_is_the_teachers() -> None:
    """Issue 21 and MECS-4 ("never take a card back"): a child's cards are theirs to
    change in the area editor until Done (nothing reaches the game before), and the
    device checks a plant at once (an equation may score), so after Done a card taken
    out is refused with the rule's sentence and nothing changes; the teacher's Undo
    (behind the PIN on screen) still takes the plant back."""
    play = new_play()
    active = play.state.active
    start, palette, any_card = play.palette(active)
    hand = play.state.players[active].hand
    assert start == () and not any_card and set(palette) <= set(hand)  # virtual: the hand
    card = hand[0]
    play.submit_area(active, (card,))
    assert play.state.players[active].area == (card,) and play.state.phase == "planted"
    start, _, any_card = play.palette(active)
    assert start == (card,) and not any_card  # the editor cannot take it out again
    play.submit_area(active, (), camera=True)  # a card lifted off the table after Done
    assert (play.message, play.tone) == (
        "Cards in an equation area stay there. You can't take one back.",
        "error",
    )
    assert play.state.players[active].area == (card,)
    play.undo()
    assert play.state.players[active].area == () and play.state.phase == "plant"


def test_mecs_play_a_fixed_reading_drops_the_later_moves_that_no_longer_fit() -> None:
    """Real cards (MECS-4): Ann's 1 card was read as 5 and she traded; fixed by touch to
    the 2 cards she really put down, the trade (allowed after exactly 1 card) no longer
    fits, so it and the card drawn for it are taken back, and said so. Taking back what
    the device acted on needs the teacher (issue 21), so the fix waits for the PIN."""
    play = new_play(cards="camera")
    play.press("reveal.8")
    play.press("reveal.3")
    play.submit_area(0, ("5",), camera=True)
    under = play.press("trade")  # real cards: which stack the card went under
    assert under is not None and under.key == "under"
    draw = play.answer(under, "numbers")
    assert draw is not None and play.answer(draw, "numbers") is None
    before = len(play.match.history)
    play.submit_area(0, ("6", "7"))  # by touch: a card that was there changed
    # the fix takes back the trade the device acted on: it waits for the teacher
    assert play.fix_waiting == (0, ("6", "7")) and len(play.match.history) == before
    assert "Ask your teacher" in play.message
    play.teacher_fix(True)  # the table's PIN pad: the teacher gave the PIN
    assert play.fix_waiting is None
    assert (play.message, play.tone) == (
        "Fixed: Ann's area reads 67. Taken back: 2 later moves.",
        "info",
    )
    assert len(play.match.history) == before - 2 and play.state.players[0].area == ("6", "7")
    assert not any(isinstance(a, Trade) for a in play.match.history)


def test_mecs_play_taps_for_names_the_targets_that_make_a_move() -> None:
    """What the demo taps for a bot's move: a trade asks the card back (with real cards,
    the stack it went under), then the stack drawn from (MECS-4); cards are shown."""
    play = new_play()
    seat = play.state.active
    planted, card = play.state.players[seat].hand[:2]
    play.submit_area(seat, (planted,))  # a trade comes after planting exactly 1 card
    ask = play.press("trade")
    assert ask is not None and card in dict(ask.choices)
    draw = play.answer(ask, card)
    assert draw is not None
    trade = Trade(seat, card, draw.choices[0][0])
    assert play.taps_for(trade) == ("trade", f"choice.{card}", f"choice.{trade.draw_from}")
    play.answer(draw, trade.draw_from)
    made = [a for a in play.match.history if not isinstance(a, CHANCE_TYPES)]
    assert made[-1] == trade  # those taps made it (then its card was drawn)
    real = Trade(seat, "?", "symbols", "numbers")
    assert play.taps_for(real) == ("trade", "choice.numbers", "choice.symbols")
    assert play.taps_for(EndTurn(seat)) == ("end",)
    assert play.taps_for(Refill(seat, "symbols")) == ("refill.symbols",)
    assert play.taps_for(Plant(seat, (card,))) == ()


def test_mecs_play_the_card_taken_for_a_child_is_named_and_marked_mecs4() -> None:
    """MECS-4: a turn begins with a random card from the next player's hand; in virtual
    play the device holds the hands, so it takes one for the child. The sentence names
    the card, and :meth:`MecsPlay.taken` says where it is in her hand (the scene rings
    it) while the take is the news; a bot's take is said as before, with no ring."""
    play = new_play(seats=[("Ann", False), ("Bo", True)])
    assert play.pending_seat() == 0 and play.state.phase == "plant"
    took = next(e for e in play.match.steps[-1].events if e.code == "mecs.took")
    card, hand = took.data["card"], play.state.players[0].hand
    face = play_module.LABEL[card]
    assert play.message == f"Ann took a card from Bo's hand: the card “{face}”, with a ring."
    assert play.taken() is not None and hand[play.taken()] == card
    play.submit_area(0, (card,) * hand.count(card))  # every such card put down
    assert card not in play.state.players[0].hand and play.taken() is None
    while play.pending_seat() != 1 or play.state.phase != "plant":
        if play.bot_to_move() is not None:
            play.bot_step()
        elif play.state.phase == "refill":
            play.press("refill.numbers")
        else:
            play.perform(EndTurn(0))
    assert play.message == "Bo took a card from Ann's hand."
    assert play.hand_owner() is None and play.taken() is None


def test_mecs_play_a_child_is_told_which_card_a_bot_took_from_her_hand_mecs4() -> None:
    """MECS-4: a bot's turn begins by taking a random card from the next player's hand,
    the child's. While her hand is on screen next (her refill, her turn's start) she is
    told which card she lost (:meth:`MecsPlay.lost`, beside her hand), until she moves;
    and the ring marks the card taken for her only while the take is the news: not
    through her refill, though the card is still in her hand."""
    play = new_play(seats=[("Ann", False), ("Bo", True)])
    kept = play.state.players[0].hand[play.taken() or 0]
    assert play.lost(0) == ""  # nothing taken from her yet
    others = [c for c in play.state.players[0].hand if c != kept]
    play.submit_area(0, tuple(others[:2]))  # not the one taken for her: 4 cards left
    assert play.taken() is None  # no longer the news
    play.perform(EndTurn(0))
    assert play.pending_seat() == 0 and play.state.phase == "refill"
    assert kept in play.state.players[0].hand and play.taken() is None  # no ring at refill
    told = []
    while play.pending_seat() != 0 or play.state.phase != "plant":
        if play.bot_to_move() is not None:
            play.bot_step()
        else:
            told.append(play.lost(0))
            play.press("refill.numbers")
    bo = next(
        e for s in play.match.steps for e in s.events if e.code == "mecs.took" and e.seat == 1
    )
    assert bo.data["from"] == 0
    lost = f"Bo took your card “{play_module.LABEL[bo.data['card']]}”."
    assert told[-1] == lost and play.lost(0) == lost  # at her refill, and as her turn starts
    assert play.message.startswith("Ann took a card from Bo's hand:") and play.taken() is not None
    me = play.state.players[0]
    play.submit_area(0, (*me.area, me.hand[0]))
    assert play.state.phase == "planted"
    assert play.lost(0) == ""  # she moved: no longer the news


def bots_told(seed: int, **settings: object) -> list[str]:
    """Three bots play a whole virtual game: every line the device says, with the
    engine's English of every event replaced by "ENGINE", so none of it can reach the
    child's line unseen."""
    from dataclasses import replace

    seats = [(f"Bot {s + 1}", True) for s in range(3)]
    play = MecsPlay(seat_infos(seats), MecsSettings(**settings), seed)  # type: ignore[arg-type]
    apply, said = play.match.apply, list[str]()
    play.match.apply = lambda action: tuple(replace(e, text="ENGINE") for e in apply(action))  # type: ignore[method-assign]
    play.say = lambda text, tone="info": said.append(text)  # type: ignore[method-assign]
    play.settle()
    while not play.finished:
        play.bot_step()
    return said


@pytest.mark.parametrize(("seed", "mode"), [(0, "normal"), (1, "challenge")])
def test_mecs_play_every_event_is_said_from_the_sentence_table(seed: int, mode: str) -> None:
    """Round 35: who starts, a tie to reveal again, whose turn it is, a bot's take, the
    cards running out were the engine's English ("Player 2's turn.") on the child's line;
    every line is the sentence table's now, with the names (MECS-4, MECS-6)."""
    from tabletop.ui.messages import FALLBACK

    said = bots_told(seed, mode=mode)
    assert said and not [s for s in said if "ENGINE" in s or s == FALLBACK or "None" in s]
    if seed == 1:
        assert said.index("Bot 2 and Bot 3 tie with 9. Show one more number card each!") < (
            said.index("Bot 2 has the largest number and starts!")
        )
        assert "Turn 1: it is Bot 2's turn." in said
        assert "Bot 2 took a card from Bot 3's hand." in said
        assert said[-1] == "No cards are left to play, so the game is over!"


def test_mecs_play_the_objective_cards_are_said_from_the_sentence_table_mecs6_mecs9() -> None:
    """MECS-6, MECS-9 (round 35): a new objective card, an equation already down that
    meets it, the objective met and a true equation that misses it were the engine's
    English ("New objective: ...", "Objective 2 of 5 is met.", "1 + 1 = 2 is right, but 2
    does not meet the objective (...)")."""
    from dataclasses import replace

    from tabletop.games.mecs import DrawFor, ShowObjective, objective
    from tests.games.test_mecs_support import table as engine_table

    settings = MecsSettings(mode="challenge")
    state = engine_table(["3 1 +", "1 2 X", "4 5"], ["", "9 X 6 EQ 5 4", ""], settings=settings)
    state = replace(state, queue=(DrawFor(0, "objectives", "objective"),), met=(1,))
    match = Match(Mecs(), settings, 3, seed=3)
    match.initial = state
    play = MecsPlay([("Ann", False), ("Bo", False), ("Cy", False)], settings, 3, match=match)
    said = list[str]()
    play.say = lambda text, tone="info": said.append(text)  # type: ignore[method-assign]
    assert play.perform(ShowObjective(13))  # "a whole number whose digits add up to 9"
    goal = objective(13).text
    assert said[0] == (
        f"Why? Bo's area already shows 9 × 6 = 54, and 54 is {goal}: it counts at once."
    )
    assert said[1] == f"New objective card: the answer must be {play.goal()}."
    events = [e.code for e in play.match.steps[0].events]
    assert events[-1] == "mecs.objective_met"
    met = play.match.steps[0].events[-1]
    assert play.name(met.seat or 0) == "Bo" and met.data["met"] == 2

    for number, told in ((13, f"2 is not {goal}, so the cards stay."), (2, "")):
        state = engine_table(["1 2", "4 5", "6"], ["1 + 1 EQ", "", ""], settings=settings)
        match = Match(Mecs(), settings, 3, seed=3)
        match.initial = replace(state, objective=number, met=(1,))
        play = MecsPlay([("Ann", False), ("Bo", False), ("Cy", False)], settings, 3, match=match)
        said.clear()
        play.say = lambda text, tone="info": said.append(f"{text} ({tone})")  # type: ignore[method-assign]
        assert play.perform(Plant(0, ("1", "+", "1", "EQ", "2")))
        if number == 13:  # 1 + 1 = 2 is true, but 2's digits do not add up to 9
            assert said == [f"{told} (error)"]
        else:  # "an even number less than 20": met, and the next objective card is out
            assert said[0] == "Objective 2 of 5 is met! (good)"
            assert said[1].startswith("New objective card: the answer must be")


@hypothesis.settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(PLAY_CARDS), max_size=14))
def test_mecs_play_any_cards_not_yet_an_equation_are_told_from_the_table_mecs2(
    seq: list[str],
) -> None:
    """Round 36: the checker's reasons are English for the log and the CLI; whatever the
    cards, a child is told why from the sentence table, every blank filled."""
    from tabletop.ui.games.mecs.play import why_not

    verdict = evaluate(seq)
    if not verdict.valid:
        template = CHILD_MESSAGES[str(verdict.code)]
        assert {f for _, f, _, _ in string.Formatter().parse(template) if f} == {
            k for k, _ in verdict.facts
        }
        assert why_not(verdict) == template.format(**dict(verdict.facts))


def test_mecs_play_every_reason_the_checker_gives_is_a_childs_sentence_mecs2() -> None:
    """Round 36: the checker's reasons ("digits 0 7: a number cannot start with 0") reached
    the area's ruling, a refused hack and the editor as the engine's English. Each has a
    code now, with one sentence in the table: every reason pinned by the engine's tests
    (MECS-2) gets its sentence, and every sentence of ``mecs.eq`` is one of theirs."""
    from tabletop.ui.games.mecs.play import why_not
    from tests.games.test_mecs_equation import INVALID

    too_big = [["1"] * 1001 + ["EQ", "1"], ["LP"] * 40 + ["9"] + ["RP", "SQ"] * 40 + ["EQ", "1"]]
    codes = set()
    for seq, reason in [*((cards(t), r) for t, r in INVALID), *((s, None) for s in too_big)]:
        verdict = evaluate(seq)
        assert verdict.reason == reason or reason is None  # the English is kept for the log
        codes.add(verdict.code)
        assert why_not(verdict) != FALLBACK and "that" not in why_not(verdict).split()
    assert codes == {c for c in CHILD_MESSAGES if c.startswith("mecs.eq.")}
    assert why_not(evaluate(cards("2 X 3 + 4 EQ 1 1"))) == "2 × 3 + 4 makes 10, not 11."
    play = new_play(cards="camera")
    play.press("reveal.8")
    play.press("reveal.3")
    play.submit_area(0, ("0", "7"), camera=True)
    assert play.area_status(0) == (
        "Not finished yet. 07 is not a number: a number can't start with 0.",
        "muted",
        "Not finished yet.",
    )


def test_mecs_play_a_hacks_banner_line_is_the_sentence_tables(monkeypatch) -> None:
    """Round 36: the hack's banner line ("Ann hacked Bo: 9 × 7 = 63  ·  Ann +6 coins
    (...)") was English written in Python; it is the table's, with the coins counted
    (MECS-3, MECS-5)."""
    from tests.games.test_mecs_support import table as engine_table

    monkeypatch.setitem(CHILD_MESSAGES, "mecs.won.hacked", "{name} HACKED {owner}: {equation}!")
    state = engine_table(["3 1 4", "5 5", ""], ["", "9 X 7 EQ 6", ""])
    match = Match(Mecs(), MecsSettings(), 3, seed=3)
    match.initial = state
    play = MecsPlay(seat_infos([("Ann", False), ("Bo", False), ("Cy", False)]), MecsSettings(), 3)
    play.match = match
    play.submit_area(1, ("9", "X", "7", "EQ", "6", "3"))  # Ann hacks Bo's area
    assert play.banner is not None and play.banner.title == "Hacked!"
    assert play.banner.text == "Ann HACKED Bo: 9 × 7 = 63!"
    monkeypatch.undo()
    assert child_message(
        "mecs.won.hacked",
        name="Ann",
        owner="Bo",
        equation="1 + 1 = 2",
        coins=5,
        why=coin_words(cards("1 + 1 EQ 2")),
    ) == ("Ann hacked Bo: 1 + 1 = 2  ·  Ann +5 coins (3 numbers × 1 + 2 signs × 1 = 5 coins).")


@pytest.mark.parametrize(("mode", "seed"), [("normal", 0), ("challenge", 9), ("challenge", 1)])
def test_mecs_play_the_results_lines_are_the_sentence_tables(mode: str, seed: int) -> None:
    """Round 36: why the game ended was the engine's English ("The game ended because
    Ann has 15 coins" from "Player 1 has 15 coins"; "because stopped with coins ..."),
    and the game's lines ("Race to 15 coins", "12 turns") were written in Python; they
    are the table's now: coins won (MECS-6), all objectives met or the cards run out
    (challenge), or a game stopped by the rotation's clock."""
    from tabletop.ui.games.mecs.table import MecsTable
    from tests.ui.scenery import make_app

    bots = [("Bot 1", True), ("Bot 2", True), ("Bot 3", True)]
    table = MecsTable(make_app().ctx, seats=bots, settings=MecsSettings(mode=mode), seed=seed)
    table.begin()
    assert table.outcome().reason == "The game stopped before its end: the most coins wins."
    while not table.play.finished:
        table.play.bot_step()
    out, last, play = table.outcome(), table.play.match.steps[-1].events[-1], table.play
    ended = {
        "mecs.completed": f"{play.name(last.seat or 0)} has {last.data.get('total')} coins",
        "mecs.objective_met": "All 5 objectives are met",
        "mecs.cards_out": "The cards ran out",
    }
    assert out.reason == f"{ended[last.code]}, so the game is over!"
    assert last.code == {0: "mecs.completed", 9: "mecs.objective_met", 1: "mecs.cards_out"}[seed]
    done = sum(e.code == "mecs.completed" for step in play.match.steps for e in step.events)
    equations = f"{done} equation{'s' * (done != 1)}"
    goal = "Race to 15 coins" if mode == "normal" else "Challenge"
    turns = f"{play.state.turn} turns."
    assert out.lines == [f"{goal}.", "Advanced deck.", turns, f"{equations} completed."]


def test_mecs_play_a_hack_that_misses_the_objective_and_a_fixed_reading_are_the_tables(
    monkeypatch,
) -> None:
    """Round 36: "63 is not (the objective)." after a refused hack (MECS-6) and "Fixed:
    Ann's area reads 67. 2 later moves were taken back." were English written in Python;
    they are the table's."""
    from dataclasses import replace

    from tabletop.games.mecs import objective
    from tests.games.test_mecs_support import table as engine_table

    monkeypatch.setitem(CHILD_MESSAGES, "mecs.told.missed", "{answer} MISSES {goal}.")
    settings = MecsSettings(mode="challenge")
    state = engine_table(["3 1 4", "5 5", ""], ["", "9 X 7 EQ 6", ""], settings=settings)
    match = Match(Mecs(), settings, 3, seed=3)
    match.initial = replace(state, objective=2)
    play = MecsPlay(seat_infos([("Ann", False), ("Bo", False), ("Cy", False)]), settings, 3)
    play.match = match
    play.submit_area(1, ("9", "X", "7", "EQ", "6", "3"))  # true, but 63 misses objective 2
    assert play.message.endswith(f" 63 MISSES {objective(2).text}.")
    monkeypatch.setitem(CHILD_MESSAGES, "mecs.told.fixed", "{name} FIXED {cards}.")
    play = new_play(cards="camera")
    play.press("reveal.8")
    play.press("reveal.3")
    play.submit_area(0, ("5",), camera=True)
    play.submit_area(0, ("6",))  # by touch: the one card was read wrong; nothing after it
    assert play.message == "Ann FIXED 6."


def test_mecs_play_no_objective_yet_and_the_coins_sum_are_the_tables_words(table_words) -> None:
    """Round 37 (issue 21): a right equation while no objective card is shown (challenge
    mode, MECS-6) was ruled "2 is not the next objective" (a fallback in Python), and the
    coins' sum's words ("4 numbers × 1 + 2 signs × 1 = 6 coins", MECS-3) were Python's:
    both are the sentence table's, the sum still a sum."""
    from dataclasses import replace

    from tests.games.test_mecs_support import table as engine_table

    table_words("mecs.area.", {"waiting": "{answer} waits.", "waiting_short": "Wait."})
    words = {"number": "{count} N×{each}.", "sign_one": "{count} S×{each}.", "": "{sum}: {coins}."}
    table_words("mecs.won.coins", {f"_{k}" if k else k: v for k, v in words.items()})
    assert coin_words(cards("9 X 7 EQ 6 3")) == "4 N×1 + 2 signs × 1: 6"
    assert coin_words(cards("1 + 1")) == "2 N×1 + 1 S×1: 3"
    settings = MecsSettings(mode="challenge")
    state = engine_table(["1 2", "4 5", "6"], ["1 + 1 EQ", "", ""], settings=settings)
    match = Match(Mecs(), settings, 3, seed=3)
    match.initial = replace(state, objective=None, met=(1,))
    play = MecsPlay([("Ann", False), ("Bo", False), ("Cy", False)], settings, 3, match=match)
    said = list[str]()
    play.say = lambda text, tone="info": said.append(text)  # type: ignore[method-assign]
    assert play.perform(Plant(0, ("1", "+", "1", "EQ", "2")))
    assert said == ["2 waits."]
    assert play.area_status(0) == ("2 waits.", "bad", "Wait.")
