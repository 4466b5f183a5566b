"""Math Attack!'s controller without a display (``ui/games/math_attack/play.py``): whose
turn, what the device waits for, the camera's readings, the child's free take-back, the
teacher's undo, the bot, and the record kept beside the match (RULINGS ATK-1..ATK-6);
then the screens' text sizes and a game journaled before the record existed."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from tabletop.engine.match import Match
from tabletop.games.math_attack import MathAttackSettings, Pass, Play
from tabletop.ui.games.math_attack.play import GAME, SILENT, Ask, AttackPlay, label

REPO = Path(__file__).resolve().parents[3]


def table(**kw: object) -> AttackPlay:
    """Two children with real cards (or ``bot=...``), dealt and ready."""
    play = AttackPlay(**{"names": ("Ana", "Ben"), "bot": None, "first": 0, "seed": 3, **kw})
    play.deal()
    return play


def at_state(bot: str | None, hands: tuple[tuple[str, ...], ...], **state: object) -> AttackPlay:
    """Ana (seat 0) to play in a game set to ``state``, holding ``hands[0]`` (Ben, or the
    bot, ``hands[1]``): the hands are the device's only against a bot."""
    virtual = bot is not None
    match = Match(GAME, MathAttackSettings(hidden_hands=not virtual), 2, seed=3)
    sizes = (len(hands[0]), len(hands[1]))
    match.initial = replace(
        match.initial, phase="play", hands=hands if virtual else ((), ()), hand_sizes=sizes, **state
    )
    return AttackPlay(names=("Ana", "Ben"), bot=bot, first=0, seed=3, match=match)


def test_math_attack_play_imports_no_pygame() -> None:
    code = "import sys; import tabletop.ui.games.math_attack.play; print('pygame' in sys.modules)"
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, check=True
    )
    assert done.stdout.strip() == "False"


def test_math_attack_play_camera_card_is_the_turns_play_and_next_step_names_who() -> None:
    """ATK-2, ATK-6: a new card at the end of a line is the play of the seat to play."""
    play = table()
    assert play.next_step() == "Ana: put one card on a number line (or tap a line)."
    play.cards_seen(1, "line", ("+7",))
    assert play.state.lines == (("+7",), ()) and play.state.turn == 1
    assert "Ana, take a card from the stack." in play.message
    assert play.next_step().startswith("Ben: put one card")
    play.cards_seen(1, "line", ("+7", "+H"))  # Ben plays +|7/2| on Ana's line
    assert play.state.totals == (10, 0)
    play.cards_seen(3, "line", ("+1",))  # no such zone: ignored
    play.cards_seen(1, "hand", ("+1",))
    assert len(play.match.history) == 2


def test_math_attack_play_refused_card_is_a_ghost_set_right_by_touch() -> None:
    """ATK-3: cancel only on a black or red card; the ghost asks which card it was."""
    play = table()
    play.cards_seen(1, "line", ("FLIP",))
    play.cards_seen(1, "line", ("FLIP", "CANCEL"))
    assert play.tone == "error" and "Cancel only goes on" in play.message
    assert "tap the card with “tap” under it" in play.next_step()
    ask = play.ghost_tapped(0)
    assert ask is not None and ask.key == "fix" and "cancel" in ask.title
    assert play.answered(ask, "+4") is None
    assert play.state.lines[0] == ("FLIP", "+4") and not play.ghosts
    play.cards_seen(1, "line", ("FLIP", "CANCEL"))  # still misread: the fix holds
    assert play.state.lines[0] == ("FLIP", "+4") and play.state.turn == 0


def test_math_attack_play_line_tapped_beside_its_red_card_sets_that_card_right() -> None:
    """A child taps the number line, not quite the red card the camera could not read:
    the card picked is that red card set right (not a second card after it), so the next
    reading of the same line is no "card changed" refusal; so too by the seat button."""
    play = table()
    play.cards_seen(1, "line", ("FLIP",))
    play.cards_seen(1, "line", ("FLIP", "?"))  # Ben's card: unreadable
    ask = play.tap_line(0)
    assert ask is not None and ask.key == "fix" and "cannot read" in ask.title
    play.answered(ask, "+4")
    assert play.state.lines[0] == ("FLIP", "+4") and not play.ghosts
    play.cards_seen(1, "line", ("FLIP", "?"))  # still unreadable: the fix holds
    assert not play.trouble and play.state.turn == 0 and play.tone != "error"
    play.cards_seen(2, "line", ("?",))  # Ana's card on Ben's line: unreadable
    which = play.answered(play.seat_pressed(0), "1")  # type: ignore[arg-type]
    assert which is not None and which.key == "card"
    play.answered(which, "-3")
    assert play.state.lines[1] == ("-3",) and not play.ghosts
    play.cards_seen(2, "line", ("?",))
    assert not play.trouble and play.state.turn == 1


def test_math_attack_play_step_says_how_to_confirm_a_card_the_camera_misreads() -> None:
    """The camera reads an earlier card as another: the step says to put it back, or, if
    it is there already, to tap the line (the only way to say so, and nothing told it)."""
    play = table()
    play.cards_seen(1, "line", ("+7",))
    play.cards_seen(2, "line", ("-2",))
    play.cards_seen(1, "line", ("+1", "+3"))  # the +7 misread as +1
    assert play.next_step() == (
        "Ana's line: put +7 back as card 1. Is it there already? Tap the line."
    )
    ask = play.tap_line(0)
    assert ask is not None and ask.key == "misread"
    play.answered(ask, "yes")
    assert play.state.lines[0] == ("+7", "+3") and not play.trouble
    play.cards_seen(1, "line", ("+7",))  # a card missing: no misreading to confirm
    assert play.next_step() == "Ana's line: put the cards back to set it right."


@pytest.mark.parametrize(
    ("code", "title"),
    [
        ("?", "The camera cannot read this card. Which card is it?"),
        ("C17", "The camera read \u201cC17\u201d. Which card is it really?"),
    ],
)
def test_math_attack_play_card_picker_for_a_red_card_says_what_the_camera_saw(
    code: str, title: str
) -> None:
    """An unreadable card's picker says so in words (it quoted the camera's "?")."""
    play = table()
    play.cards_seen(1, "line", (code,))
    ask = play.ghost_tapped(0)
    assert ask is not None and ask.title == title


def test_math_attack_play_seat_button_asks_where_then_which_card() -> None:
    play = table()
    assert play.seat_pressed(1) is None and play.message == "Wait! It is Ana's turn."
    where = play.seat_pressed(0)
    lines = (("0", "Ana's line"), ("1", "Ben's line"))
    assert where == Ask("where", "Ana: on which line did you put your card?", lines, given=(0,))
    which = play.answered(where, "1")
    assert which is not None and which.key == "card" and which.given == (1,)
    assert ("-6", "\u22126") in which.choices and which.columns == 10
    play.answered(which, "-6")
    assert play.state.lines == ((), ("-6",))
    assert play.answered(which, None) is None  # a picker closed without a card


def test_math_attack_play_seat_button_skips_the_blocked_line() -> None:
    """ATK-4: with a line blocked this turn the seat button does not offer it (the child
    would pick a card from thirty, then hear the line was blocked): it asks at once which
    card went on the open line."""
    play = table()
    play.cards_seen(2, "line", ("BLOCK",))  # Ana blocks Ben's line: Ben plays on Ana's
    which = play.seat_pressed(1)
    assert which is not None and which.key == "card" and which.given == (0,)
    assert which.title == "Which card did Ben put on Ana's line?"
    play.answered(which, "-6")
    assert play.state.lines == (("-6",), ("BLOCK",)) and play.state.turn == 0
    where = play.seat_pressed(0)  # the block is over: both lines again
    assert where is not None and where.key == "where" and len(where.choices) == 2


def test_math_attack_play_blocked_line_and_pass_refused_by_the_engine() -> None:
    """ATK-4 and ATK-6: the engine says no, the child reads why."""
    play = table()
    play.cards_seen(2, "line", ("BLOCK",))
    assert play.tap_line(1) is None and "blocked" in play.message
    play.pass_turn()
    assert "You can still play a card" in play.message
    assert len([a for a in play.match.history if isinstance(a, (Play, Pass))]) == 1


@pytest.mark.parametrize("bot", [None, "easy"])
def test_math_attack_play_step_says_to_pass_when_no_card_can_go(bot: str | None) -> None:
    """ATK-6: near the end a child may hold only cards that cannot go anywhere (a cancel
    when both lines end in a green card; an empty hand): the instruction line says to tap
    Can't play, not to play a card."""
    hands = (("CANCEL",), ("+1",)) if bot else ((), ("+1",))
    play = at_state(bot, hands, lines=(("+4", "FLIP"), ("-2", "BLOCK")), stack_size=0)
    assert play.next_step() == "Ana: no card can go on a number line now. Tap Can't play."
    play.pass_turn()
    assert isinstance(play.match.history[-1], Pass) and play.state.turn == 1


def test_math_attack_play_real_cards_a_child_holding_two_cancels_shows_them_and_passes() -> None:
    """ATK-6 with real cards: a child may hold only cards that cannot go anywhere (two
    cancels, both lines ending in a green card) while the device, which cannot see the
    hand, still counts other cards as possible: Can't play asks which cards they show (it
    refused the pass, and the game could not go on); No says why they must play."""
    hands = (("CANCEL", "CANCEL"), ("+1", "+2", "+3"))
    play = at_state(None, hands, lines=(("+4", "FLIP"), ("BLOCK",)), stack_size=0)
    ask = play.pass_turn()
    assert ask is not None and ask.key == "show" and ask.given == (0,)
    assert ask.title == "Ana: show your cards to everyone. Which are they?"
    assert ask.choices == (("CANCEL,CANCEL", "cancel and cancel"), ("no", "No"))
    play.answered(ask, "no")
    assert play.tone == "error" and play.message.startswith("You can still play a card")
    assert play.state.turn == 0 and not play.match.history
    play.answered(ask, "CANCEL,CANCEL")
    assert play.match.history == (Pass(0, ("CANCEL", "CANCEL")),) and play.state.turn == 1
    assert "show their hand and pass" in play.message


def test_math_attack_play_foot_line_offers_to_take_back_a_pass() -> None:
    """After a pass the foot line's free take-back speaks of the pass, not "a wrong card"."""
    hands = ((), ("+1",))  # Ana's hand is empty
    play = at_state(None, hands, lines=(("+4",), ("-2",)), stack_size=0)
    play.pass_turn()
    assert play.take_back_hint() == "Passed by mistake, Ana? Tap Undo to take it back."


def test_math_attack_play_child_takes_back_own_card_once_then_the_teacher() -> None:
    """Issue 21: the child's own last move is theirs to take back until it is acted on."""
    play = table()
    assert not play.can_undo() and not play.own_last_move()
    play.cards_seen(1, "line", ("+5",))
    assert play.own_last_move()
    play.take_back()
    assert play.state.lines == ((), ()) and play.state.turn == 0
    assert play.next_step() == "Take +5 off Ana's line, then Ana plays again."
    play.cards_seen(1, "line", ("+5",))  # still on the table: not a new play
    assert play.state.lines == ((), ())
    play.cards_seen(1, "line", ())
    play.cards_seen(1, "line", ("+6",))
    play.cards_seen(2, "line", ("+3",))  # Ben played: Ana's +6 is acted on
    assert play.own_last_move()  # Ben's own card is still his
    play.take_back()
    assert not play.own_last_move() and play.can_undo()  # the rest is the teacher's
    play.undo()
    assert play.state.lines == ((), ()) and play.message == "That move was taken back."
    assert play.next_step() == "Take +3 off Ben's line and +6 off Ana's line, then Ana plays again."


def test_math_attack_play_a_card_taken_back_is_remembered_past_two_new_cards() -> None:
    """Issue 21: a card taken back but still on the line stays "taken back" while the
    camera also sees a second new card (refused: one card at a time), so that once
    the second goes, the first is not played again."""
    play = table()
    play.cards_seen(1, "line", ("+5",))
    play.take_back()
    play.cards_seen(1, "line", ("+5", "+6"))  # two new cards: refused
    refused = play.message
    assert play.state.lines == ((), ())
    play.cards_seen(1, "line", ("+5",))  # the +6 went; the +5 is still the one taken back
    assert play.state.lines == ((), ()) and play.message != refused and "+5" in play.next_step()
    play.cards_seen(1, "line", ())
    play.cards_seen(1, "line", ("+6",))
    assert play.state.lines[0] == ("+6",)


def test_math_attack_play_a_card_set_right_by_touch_then_taken_back_is_still_that_card() -> None:
    """A card the camera could not read, set right by touch, then taken back: while it is
    still on the line the camera's reading of it is that card to take off (not a new red
    card, which a tap would play again), also after a restart; once it is gone, a new
    unreadable card there is new."""
    play = table()
    play.cards_seen(1, "line", ("?",))
    play.answered(play.ghost_tapped(0), "+4")  # type: ignore[arg-type]
    play.take_back()
    again = AttackPlay(names=("Ana", "Ben"), bot=None, first=0, seed=3, match=play.match)
    again.carry_on(play.record())  # the device restarted
    for p in (play, again):
        p.cards_seen(1, "line", ("?",))  # the +4, still unreadable, still there
        assert not p.ghosts and p.state.lines == ((), ()) and p.tone == "error"
        assert p.next_step() == "Take +4 off Ana's line, then Ana plays again."
        p.cards_seen(1, "line", ())  # taken off
        p.cards_seen(1, "line", ("?",))  # a new card the camera cannot read
        assert p.ghosts[0].card is None and p.state.lines == ((), ())


@pytest.mark.parametrize("bot", [None, "easy"])
def test_math_attack_play_last_turn_step_asks_for_one_card_not_the_last_one(
    bot: str | None,
) -> None:
    """ATK-5: after =, the other player's step asks for one card, any of the hand, as on
    every turn (it said "your last card", which reads as the one at the end of the hand;
    the top bar says "Last turn", and the sentence after = says whose)."""
    hands = (("+1", "+2", "-3", "FLIP", "END"), ("+5", "-5", "+6", "-6"))
    play = at_state(bot, hands, lines=((), ("END",)), stack_size=44, end_by=1)  # Ben played =
    steps = {
        None: "Ana: put one card on a number line (or tap a line).",
        "easy": "Ana: tap one card in your hand, then a number line.",
    }
    assert play.next_step() == steps[bot]


def test_math_attack_play_two_cards_taken_back_from_one_line_both_wait_to_go() -> None:
    """Ben takes back his card on Ana's line, then the teacher takes back Ana's card
    under it: both are still on her line, and the step names both (the second took the
    first's place, and the line then read as "2 new cards: one card per turn")."""
    play = table()
    play.cards_seen(1, "line", ("+5",))
    play.cards_seen(1, "line", ("+5", "+3"))  # Ben's +3 on Ana's line
    play.take_back()
    play.undo()  # the teacher's PIN: Ana's +5 too
    assert play.state.lines == ((), ()) and play.state.turn == 0
    both = "Take +3 and +5 off Ana's line, then Ana plays again."  # the last entered first
    assert play.next_step() == both
    copy = Match.replay(list(play.match.log_lines()), {GAME.name: GAME})
    again = AttackPlay(names=("Ana", "Ben"), bot=None, first=0, seed=3, match=copy)
    again.carry_on(play.record())  # the device restarted
    for p in (play, again):
        p.cards_seen(1, "line", ("+5", "+3"))  # both still there: not two new cards
        assert not p.trouble and p.next_step() == both and p.tone == "error"
        p.cards_seen(1, "line", ("+3",))  # the +5 went first: the +3 is no new card
        assert p.state.lines == ((), ()) and p.tone == "error"
        assert p.next_step() == "Take +3 off Ana's line, then Ana plays again."
        p.cards_seen(1, "line", ())
        p.cards_seen(1, "line", ("+6",))
        assert p.state.lines == (("+6",), ())
    old = AttackPlay(names=("Ana", "Ben"), bot=None, first=0, seed=3)
    old.carry_on({"undone": {"0": "+5"}})  # a record of the app before: one card a line
    assert old.undone == {0: ("+5",)}


def test_math_attack_play_bot_moves_and_the_child_picks_from_the_hand() -> None:
    play = table(bot="easy", first=1)
    assert play.bot_due() and play.next_step() == "Ben is thinking\u2026"
    assert not play.playing()
    play.bot_step()
    assert not play.bot_due() and play.state.turn == 0 and play.playing()
    play.tap_line(0)
    assert play.message.startswith("First tap one of your cards")
    play.pick(2)
    card = play.state.hands[0][2]
    assert play.next_step() == f"Ana: now tap the number line for your {label(card)}."
    play.cards_seen(1, "line", ("+5",))
    assert "cards are on the screen" in play.message
    play.tap_line(1)
    assert play.state.lines[1][-1] == card and play.bot_due()


def test_math_attack_play_record_carries_on_fixes_and_cards_taken_back() -> None:
    play = table()
    play.cards_seen(1, "line", ("?",))
    play.answered(play.ghost_tapped(0), "+4")  # type: ignore[arg-type]
    play.cards_seen(2, "line", ("+2",))
    play.take_back()
    record = play.record()
    assert record == {"took_back": True, "undone": {"1": ["+2"]}, "fixes": {"0": [[0, "?", "+4"]]}}
    again = AttackPlay(names=("Ana", "Ben"), bot=None, first=0, seed=3, match=play.match)
    again.carry_on(record)
    again.cards_seen(1, "line", ("?",))  # the camera still cannot read it: the fix holds
    assert not again.ghosts and again.state.lines[0] == ("+4",)
    again.cards_seen(2, "line", ("+2",))  # the card taken back is still there
    assert again.state.lines[1] == () and not again.own_last_move()
    fresh = AttackPlay(names=("Ana", "Ben"), bot=None, first=0, seed=3, match=play.match)
    fresh.carry_on(None)  # a game journaled before the record: nothing to put back
    assert fresh.record() == {"took_back": False, "undone": {}, "fixes": {}}


def test_math_attack_play_unknown_bot_level_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown bot level"):
        AttackPlay(names=("A", "B"), bot="grandmaster", first=0, seed=1)


def test_math_attack_play_standings_before_the_end_and_the_result_after() -> None:
    play = table()
    play.cards_seen(1, "line", ("+8",))
    assert play.standings().places == (1, 2) and play.match.result() is None
    play.cards_seen(1, "line", ("+8", "END"))
    play.cards_seen(2, "line", ("-4",))
    assert play.over and play.next_step() == "The game is over!"
    assert play.standings() == play.match.result()
    assert play.put(0, "+1") is not None and play.state.lines[0] == ("+8", "END")


# -- the screens (offscreen) ---------------------------------------------------------------------


def test_math_attack_screens_text_at_least_16_px_at_800x480() -> None:
    """Issue 21: no child-facing text under 16 px (card captions, names, notes)."""
    from tests.ui.game_scenery import GAME_SCENES as SCENES
    from tests.ui.scenery import make_app
    from tests.ui.test_form import text_sizes

    for name in [n for n in SCENES if n.startswith("math-attack-")]:
        app = make_app((800, 480))
        SCENES[name][0](app)
        with text_sizes(app) as sizes:
            app.step(force_draw=True)
        assert sizes and min(sizes) >= 16, (name, min(sizes))


def test_math_attack_game_journaled_before_the_record_carries_on(tmp_path: Path) -> None:
    """A game saved by the old screen (only names, bot, first and seed) resumes."""
    from tabletop.store import FILE_NAME, Journal, SeatInfo
    from tabletop.ui.autoplay import Autoplayer
    from tabletop.ui.games.math_attack import AttackScene
    from tests.ui.scenery import make_app

    journal = Journal(tmp_path / FILE_NAME)
    match = Match(GAME, MathAttackSettings(hidden_hands=True), 2, seed=9)
    old = AttackPlay(names=("Mia", "Ben"), bot=None, first=0, seed=9, match=match)
    old.deal()
    assert old.put(0, "+5") is None
    app_record = {"names": ["Mia", "Ben"], "bot": None, "first": 0, "seed": 9}
    seats = [SeatInfo(0, "Mia"), SeatInfo(1, "Ben")]
    journal.start(match, label="app", meta={"app": app_record, "checks": {}}, seats=seats)
    journal.close()
    app = make_app(journal=Journal(tmp_path / FILE_NAME))
    Autoplayer(app).tap("yes")
    scene = app.stack.top
    assert isinstance(scene, AttackScene)
    assert scene.state.lines == (("+5",), ()) and scene.names == ("Mia", "Ben")
    assert scene.message.startswith("Welcome back! It is Ben's turn.")


def test_math_attack_child_takes_back_is_said_on_the_table_until_acted_on() -> None:
    """Issue 21: the free take-back is said where the child looks (the table's foot line
    names who may tap Undo), and no longer once the next player has played on it."""
    play = table()
    assert play.take_back_hint() == ""  # nothing played yet
    play.cards_seen(1, "line", ("+5",))
    assert play.take_back_hint() == "Wrong card, Ana? Tap Undo to take it back."
    play.cards_seen(2, "line", ("+3",))  # Ben played: Ana's card is acted on, Ben's is his
    assert play.take_back_hint() == "Wrong card, Ben? Tap Undo to take it back."
    play.take_back()
    assert play.take_back_hint() == ""  # Ana's +5 is the teacher's now


def test_math_attack_play_story_tells_each_move_and_a_card_set_right_by_touch() -> None:
    """The game's story, a line a move (the demo prints it): who played what on whose
    line and its total now; a card the camera could not read, set right by touch, says so."""
    play = table()
    play.cards_seen(1, "line", ("?",))
    play.answered(play.ghost_tapped(0), "+4")  # type: ignore[arg-type]
    play.cards_seen(1, "line", ("+4", "+7"))
    touch = " (the camera could not read it: corrected by touch)"
    assert play.story == (
        (1, f"Ana plays {label('+4')} on Ana's line{touch}: Ana now 4."),
        (2, f"Ben plays {label('+7')} on Ana's line: Ana now 11."),
    )


def test_math_attack_play_engine_sentence_writes_minus_as_the_cards_do() -> None:
    """ATK-1: the sentence after a play writes a minus as the card and the line under it
    show it (it said "-10" beside the card's "\u221210"); the engine's own English is unchanged."""
    play = table()
    play.cards_seen(2, "line", ("-10",))
    said = "Ana plays \u221210 on Ben's number line: the total goes from 0 to \u221210."
    assert play.message.startswith(said) and "-" not in play.message
    assert "-10" in play.match.steps[-1].events[0].text  # the log's and the CLI's words
    play.cards_seen(2, "line", ("-10", "FLIP"))
    assert "plays +/\u2212 on their own" in play.message and "from \u221210 to 10" in play.message


def test_math_attack_play_camera_sentences_come_from_the_sentence_table(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The question about a misread card, the thanks for the answer and a line back as
    it was are the sentence table's (they were written in play.py)."""
    from tabletop.ui.messages import CHILD_MESSAGES

    for code in ("atk.ask.misread", "atk.line.confirmed", "atk.line.back"):
        assert code in CHILD_MESSAGES
        monkeypatch.setitem(CHILD_MESSAGES, code, f"{code}: {CHILD_MESSAGES[code]}")
    play = table()
    play.cards_seen(1, "line", ("+5",))
    play.cards_seen(2, "line", ("+3",))
    play.cards_seen(1, "line", ("+8",))  # the camera reads the +5 as +8
    ask = play.tap_line(0)
    assert ask is not None and ask.title == "atk.ask.misread: Is card 1 really +5?"
    play.answered(ask, "yes")
    assert play.message == "atk.line.confirmed: Thanks! Card 1 on Ana's line is +5."
    play.cards_seen(1, "line", ("+8", "?"))  # a new card the camera cannot read
    assert play.ghosts and play.state.lines[0] == ("+5",)
    play.cards_seen(1, "line", ("+8",))  # it went
    assert play.message == "atk.line.back: Ana's line is back as it was."


def test_math_attack_play_what_binds_the_turn_is_the_sentence_tables(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """ATK-4, ATK-5: a blocked line and the last turn after = were the engine's English
    (turn_words) on the child's line; now the sentence table's, by the engine's code."""
    from tabletop.ui.messages import CHILD_MESSAGES

    for code in ("atk.said.bound", "atk.said.bound_own", "atk.said.final_turn"):
        monkeypatch.setitem(CHILD_MESSAGES, code, f"{code}: {CHILD_MESSAGES[code]}")
    play = table()
    play.cards_seen(2, "line", ("BLOCK",))  # Ana blocks Ben's line: Ben plays on Ana's
    assert play.message.endswith(
        "atk.said.bound: Ben's line is blocked, so Ben must play on Ana's line."
    )
    hands = (("+1", "+2", "-3", "FLIP", "BLOCK"), ("+5", "-5", "+6", "END"))
    play = at_state(None, hands, turn=1, stack_size=44)
    play.deal()
    play.cards_seen(2, "line", ("END",))  # Ben plays = on his own line
    assert play.message.endswith("atk.said.final_turn: This is Ana's last turn!")
    play = at_state(None, hands, turn=0, stack_size=44)
    play.deal()
    play.cards_seen(1, "line", ("BLOCK",))  # Ana blocks her own line: Ben plays on his
    assert play.message.endswith(
        "atk.said.bound_own: Ana's line is blocked, so Ben must play on their own line."
    )


def test_math_attack_play_what_a_card_did_is_the_sentence_tables(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """ATK-2, ATK-3: a number card, a multiplier, +/- and cancel were said in the engine's
    English; now the sentence table's, by the event's code and facts (the same words, but
    a cancel says the total in its one sentence: short enough for the line)."""
    from tabletop.ui.messages import CHILD_MESSAGES

    for key in ("played", "played_by", "flipped", "cancelled"):
        code = f"atk.said.{key}_own"
        monkeypatch.setitem(CHILD_MESSAGES, code, f"{code}: {CHILD_MESSAGES[code]}")
    play = table()
    said = []
    for seat, cards in ((1, "+5"), (2, "+3"), (1, "+5 +D"), (2, "+3 FLIP"), (1, "+5 +D CANCEL")):
        play.cards_seen(seat, "line", tuple(cards.split()))
        said.append(play.message.split(". ")[0])
    assert said == [
        "atk.said.played_own: Ana plays +5 on their own number line: the total goes from 0 to 5",
        "atk.said.played_own: Ben plays +3 on their own number line: the total goes from 0 to 3",
        "atk.said.played_by_own: Ana plays +|n×2| on their own number line: that is +10, so "
        "the total goes from 5 to 15",
        "atk.said.flipped_own: Ben plays +/\u2212 on their own number line: the total flips "
        "from 3 to \u22123",
        "atk.said.cancelled_own: Ana cancels the +|n×2| on their own number line: the total "
        "goes from 15 to 5",
    ]


@pytest.mark.parametrize("bot", [None, "easy"])
def test_math_attack_play_last_turn_said_once_after_equals(bot: str | None) -> None:
    """ATK-5: the sentence after = says once whose last turn comes (it said "Ana gets one
    more turn, then the game ends" and then "This is Ana's last turn!")."""
    hands = (("+1", "+2", "-3", "FLIP", "END"), ("+5", "-5", "+6", "END"))
    play = at_state(bot, hands, turn=1, stack_size=44)
    play.deal()
    if bot is None:
        play.cards_seen(2, "line", ("END",))  # Ben plays = on his own line
    else:
        play.perform(Play(1, "END", 1))
    assert play.state.end_by == 1 and play.state.turn == 0
    assert play.message.count("last turn") == 1 and "one more turn" not in play.message
    assert play.message.startswith("Ben puts the = card on their own number line.")
    assert play.message.endswith("This is Ana's last turn!")


def test_math_attack_play_equals_on_the_other_line_names_the_card_and_the_line() -> None:
    """ATK-5, walk 29: "Hard bot plays = on Medium bot's number line." said little to a
    child; the sentence names the = card and whose line it went on."""
    hands = (("+1", "+2", "-3", "FLIP", "END"), ("+5", "-5", "+6", "END"))
    play = at_state(None, hands, turn=0, stack_size=44)
    play.deal()
    play.cards_seen(2, "line", ("END",))  # Ana puts = on Ben's line
    assert play.state.end_by == 0
    assert play.message.startswith("Ana puts the = card on Ben's number line. ")


def test_math_attack_play_card_by_touch_waits_for_a_line_missing_a_card() -> None:
    """A card entered by touch on a line the camera sees missing a card is refused until
    the line is as the game has it (it was played as a new card, and the line stayed
    "missing" under it: the card named could be the one put back); the other line takes
    one, and the camera then reads the line with the new card as the play."""
    play = table()
    play.cards_seen(1, "line", ("+5",))
    play.cards_seen(1, "line", ("+5", "+3"))  # Ben's +3 on Ana's line
    play.cards_seen(1, "line", ("+5",))  # the +3 is gone from the camera's view
    first = "First put Ana's line back as it was. Then add your card to it."
    assert play.tap_line(0) is None and play.message == first and play.tone == "error"
    where = play.seat_pressed(0)
    assert where is not None and where.key == "where"
    assert play.answered(where, "0") is None and play.message == first
    assert play.state.lines == (("+5", "+3"), ()) and play.state.turn == 0
    ask = play.answered(where, "1")  # Ben's line is fine
    assert ask is not None and ask.key == "card" and ask.given == (1,)
    play.cards_seen(1, "line", ("+5", "+3", "+7"))  # the +3 back, and Ana's +7
    assert play.state.lines == (("+5", "+3", "+7"), ()) and not play.trouble


def test_math_attack_play_cards_taken_back_leave_lowest_first_a_touch_fix_holds() -> None:
    """Two cards taken back from Ana's line, the top one set right by touch: the step
    names the last entered first (it comes off the line's end; it named the lowest
    first), and when the lowest goes first, the one left, still unreadable, is the card
    taken back (it was taken for a new card the camera cannot read: a red card to set
    right, that a tap would play again)."""
    play = table()
    play.cards_seen(1, "line", ("+5",))
    play.cards_seen(1, "line", ("+5", "?"))  # Ben's card on Ana's line: unreadable
    play.answered(play.ghost_tapped(0), "+3")  # type: ignore[arg-type]
    play.take_back()
    play.undo()  # the teacher's PIN: Ana's +5 too
    assert play.next_step() == "Take +3 and +5 off Ana's line, then Ana plays again."
    play.cards_seen(1, "line", ("?",))  # the +5 went first: the +3 slid to its place
    assert not play.ghosts and play.state.lines == ((), ())
    assert play.next_step() == "Take +3 off Ana's line, then Ana plays again."
    play.cards_seen(1, "line", ())
    assert play.next_step() == "Ana: put one card on a number line (or tap a line)."


def test_math_attack_play_a_card_taken_back_is_known_by_its_place_not_its_code_alone() -> None:
    """A card taken back that the camera misread (set right by touch) is that card where
    it lies, or lower once a card under it went, never at another place: a second card
    on the line read the same (Ben's real cancel under it) is that card, not the one
    taken back (it was: "card 2 has changed", until the line could never be right)."""
    play = table()
    play.cards_seen(1, "line", ("+5",))
    play.cards_seen(1, "line", ("+5", "CANCEL"))  # Ben's cancel on Ana's line
    play.cards_seen(1, "line", ("+5", "CANCEL", "CANCEL"))  # Ana's +4, read as a cancel
    play.answered(play.ghost_tapped(0), "+4")  # type: ignore[arg-type]
    play.take_back()
    take_off = "Take +4 off Ana's line, then Ana plays again."
    play.cards_seen(1, "line", ("+5", "CANCEL", "CANCEL"))  # the +4 is still there
    assert not play.trouble and not play.misread and play.next_step() == take_off
    play.cards_seen(1, "line", ("+5", "CANCEL"))  # taken off
    assert not play.trouble and play.state.lines == (("+5", "CANCEL"), ())
    assert play.next_step() == "Ana: put one card on a number line (or tap a line)."
    play.cards_seen(1, "line", ("+5", "CANCEL", "+2"))
    assert play.state.lines[0] == ("+5", "CANCEL", "+2")


@pytest.mark.parametrize(
    ("bot", "hint"),
    [
        (None, "Any card but cancel can go on Ana's line."),
        ("easy", "Your +3 can go on Ana's line."),
    ],
    ids=["real-cards", "virtual"],
)
def test_math_attack_play_pass_refused_names_a_play_in_whole_sentences(
    bot: str | None, hint: str
) -> None:
    """ATK-6: a refused pass says which play the engine allows, its words from the one
    sentence table (the hint was glued together in code: "+3 can go on Ana's line")."""
    play = at_state(bot, (("+3",), ("+1",)), lines=((), ()), stack_size=0)
    assert play.play_hint() == hint
    if (ask := play.pass_turn()) is not None:  # real cards: "no", they hold a card to play
        play.answered(ask, "no")
    assert play.message == f"You can still play a card. {hint} So you cannot pass."
    assert not play.match.history


def test_math_attack_play_every_event_is_said_in_the_tables_words() -> None:
    """Round 35: an event the sentence table had no sentence for went to the child's line
    in the engine's English (atk.start, told from the deal; a pass with no card left to
    show, ATK-6). Every event of a whole game against the bot, the deal's included, is
    the table's, never the engine's text and never the fallback of a code it lost."""
    from tabletop.ui.messages import CHILD_MESSAGES, FALLBACK

    play = table(bot="hard")
    while not play.over:
        legal = GAME.legal_actions(play.state, play.state.turn)
        play.bot_step() if play.bot_due() else play.perform(legal[0])
    told = [(s.action, e) for s in play.match.steps for e in s.events if e.code not in SILENT]
    assert {"atk.start", "atk.played"} <= {e.code for _, e in told}
    for action, event in told:  # the engine's text marked: it must not come through
        assert play.sentence(action, replace(event, text="ENGINE")) not in ("ENGINE", FALLBACK)
    assert play.sentence(*told[0]) == "Ana goes first!"
    empty = at_state(None, ((), ("+1",)), lines=(("+4",), ("-2",)), stack_size=0)
    empty.pass_turn()
    (passed,) = (last := empty.match.steps[-1]).events
    assert empty.sentence(last.action, replace(passed, text="ENGINE")) == (
        CHILD_MESSAGES["atk.said.passed_empty"].format(seat=1)
    )
    assert empty.message.startswith("Ana has no cards left, so they pass.")
