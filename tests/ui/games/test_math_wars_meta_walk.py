"""Math Wars Meta as a new table meets it (round 8's walk): what the instruction line,
the Score Cards and the verdict say after each step."""

from __future__ import annotations

import re
from typing import Any

import pygame
import pytest

from hardware.buttons import SeatPressed
from tabletop.classroom.rotation import start_rotation
from tabletop.engine import BadInput, Event
from tabletop.games.math_wars_meta import parse_code
from tabletop.ui.app import App
from tabletop.ui.games.math_wars_meta.table import MwmTable as TableScene
from tabletop.ui.games.math_wars_meta.verdict import say, signed
from tabletop.ui.scenes.form import FormScene
from tabletop.ui.scenes.rotation import RotationRunner
from tests.ui.game_scenery import form_seats, setup
from tests.ui.games.test_math_wars_meta import (
    CHILDREN_AND_BOT,
    answer,
    seats,
    show,
    start,
    tap,
    teacher,
    tied,
    type_number,
)
from tests.ui.scenery import SIZES, FakeClock, make_app
from tests.ui.test_rotation_screens import PLAN, T0
from tests.ui.test_rotation_strip import SMALLEST_TEXT, recording
from tests.ui.test_speech import listening


def cards_shown(
    app: App, first: tuple[str, str] = ("C10", "K+2"), second: tuple[str, str] = ("C4", "K+1")
) -> TableScene:
    """Two children with real cards and a bot; the children's cards read by the camera."""
    table = start(app, *CHILDREN_AND_BOT)
    show(app, 0, *first)
    show(app, 1, *second)
    return table


def full_table_verdict(app: App, wrong: int = 0) -> TableScene:
    """Seven children and a bot (MWM25), every child's division but 6 ÷ 3 leaving a
    remainder, all answered right (the first ``wrong`` wrong): the verdict on screen."""
    auto = setup(app, "math-wars-meta")
    form_seats(auto, 8, bots=(7,))
    auto.tap("start")
    table = app.stack.top
    assert isinstance(table, TableScene)
    for seat in range(7):
        show(app, seat, f"C{5 + seat}", f"K/{seat + 2}")
    for seat in range(7):
        answer(app, seat, table.play.answer_for(seat).solution + (seat < wrong))
    assert table.play.verdict is not None
    return table


def drawn_texts(table: TableScene) -> list[tuple[str, pygame.Rect]]:
    """Every text the table draws (its words and where), drawn once now."""
    drawn: list[tuple[str, pygame.Rect]] = []
    painter = table.ctx.painter
    text = painter.text

    def spy(surface: pygame.Surface, words: str, *args: Any, **kw: Any) -> pygame.Rect:
        rect = text(surface, words, *args, **kw)
        drawn.append((words, rect))
        return rect

    painter.text = spy  # type: ignore[method-assign]
    table.draw(pygame.Surface(table.ctx.metrics.size))
    del painter.text
    return drawn


def test_mwm_a_card_typed_in_clears_the_refusal_before_it() -> None:
    """A refusal (a bot's seat button pressed) is over once a child types a card in by
    touch: the instruction line shows the next step again, not the old refusal."""
    app = make_app()
    table = start(app, *CHILDREN_AND_BOT)
    show(app, 0, "C10", "K+2")
    app.seat_queue.put(SeatPressed(2, app.ctx.clock()))
    app.step()
    assert table.status() == "Bot 3 is a bot. It plays by itself."
    tap(app, "count.1")
    type_number(app, 4)
    assert "bot" not in table.status()
    assert table.status() == table.play.next_step() != ""


def test_mwm_score_card_foot_says_press_your_button_once_the_answer_is_typed() -> None:
    """The Score Card's last line follows the child: "your answer?" before, "press your
    button!" once typed (as the answer box and the instruction line say), "ready!" after."""
    app = make_app()
    table = cards_shown(app)
    assert table._foot(0)[0] == "your answer?"
    answer(app, 0, 12, press=False)
    assert table._foot(0)[0] == "press your button!"
    app.seat_queue.put(SeatPressed(0, app.ctx.clock()))
    app.step()
    assert table._foot(0)[0] == "ready!"


def test_mwm7_a_wrong_team_solution_is_shown_corrected() -> None:
    """MWM-7: a child who types a wrong TEAM SOLUTION is told the right one in the
    verdict's reasons (Why?), as a wrong YOUR SOLUTION is; a right one is not remarked."""
    app = make_app()
    table = start(app, "mode.teams")
    play = table.play
    for seat in range(4):
        show(app, seat, f"C{5 + seat}", f"K+{seat + 1}")
    for seat in range(4):
        right = play.answer_for(seat)
        assert right.team_solution is not None
        answer(app, seat, right.solution, press=False)
        type_number(app, 1 if seat == 0 else right.team_solution)
        app.seat_queue.put(SeatPressed(seat, app.ctx.clock()))
        app.step()
    verdict = play.verdict
    assert verdict is not None and verdict.entries[0].team_solution == 1
    assert verdict.lines[0] == (
        "Player 1: 5 + 1 = 6. Right! TEAM SOLUTION 14 (you typed 1, not quite)."
    )
    assert verdict.lines[1] == "Player 2: 6 + 2 = 8. Right!"
    assert table.status().startswith("Player 1: the TEAM SOLUTION is 14, not 1. ")  # walk 29


def test_mwm2_many_remainder_rulings_leave_room_for_the_hands_winner() -> None:
    """MWM-2 at a full table: six divisions leave a remainder. The message box names
    them in one sentence, so the hand's winner and the next step still fit it at
    800x480 in letters a child reads (six sentences pushed them out of the box)."""
    app = make_app()
    table = full_table_verdict(app)
    status = table.status()
    assert status.startswith(
        "Player 1, Player 3, Player 4, Player 5, Player 6 and Player 7: your division "
        "leaves a remainder, so only your COUNT META card counts."
    )
    assert status.endswith("Player 7 wins the hand with 11! Tap Next hand.")
    fits(table, status)
    for wrong, told in (  # walk 29: the wrong answers are said too, more than 2 counted
        (2, "Player 1: it is 5, not 6. Player 2: it is 2, not 3."),
        (7, "7 answers are not right: see each SOLUTION box."),
    ):
        table = full_table_verdict(make_app(), wrong)
        status = table.status()
        assert told in status and status.endswith("wins the hand with 11! Tap Next hand.")
        fits(table, status)


def fits(table: TableScene, status: str) -> None:
    """The instruction line is whole in its box, in letters a child reads."""
    painter, m = table.ctx.painter, table.m
    area = table.message_rect.inflate(-m.u(14), -m.u(8))
    lines = painter.wrap(status, painter.least, area.width, False)
    assert len(lines) * painter.fonts.font(painter.least, False).get_linesize() <= area.height


def test_mwm2_one_remainder_ruling_names_the_sum() -> None:
    """MWM-2: a single division with a remainder keeps its own sentence, with the sum."""
    app = make_app()
    table = cards_shown(app, ("C7", "K/2"))
    answer(app, 0, 7)
    answer(app, 1, 5)
    assert table.status().startswith("Player 1: 7 \u00f7 2 leaves a remainder, so only 7 counts.")


@pytest.mark.parametrize("size", [(800, 480), (1280, 720)])
@pytest.mark.parametrize("press", [False, True])
def test_mwm_answer_box_above_a_ready_tile_keeps_its_mark_off_its_caption(
    size: tuple[int, int], press: bool
) -> None:
    """Three Score Cards: an answer typed (pressed or not) puts the I'm ready! tile under
    the answer box, which gets short. Its mark (••• or ✓) then sits beside the caption
    YOUR SOLUTION, not on it, and stays as big as a child reads (it was drawn over it)."""
    app = make_app(size)
    table = cards_shown(app)
    answer(app, 0, 12, press=press)
    drawn = drawn_texts(table)
    box, painter = table.place("solve", 0), table.ctx.painter
    inside = [(words, rect) for words, rect in drawn if words and box.contains(rect)]
    assert [words for words, _ in inside] == ["YOUR SOLUTION", "\u2713" if press else "\u2022" * 3]
    (_, caption), (_, mark) = inside
    assert not caption.colliderect(mark)
    assert mark.height >= painter.least


@pytest.mark.parametrize("size", [(800, 480), (1280, 720)], ids=["800x480", "1280x720"])
@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_mwm_answer_box_and_ready_tile_each_a_touch_at_every_table(
    size: tuple[int, int], players: int
) -> None:
    """However many children sit at the table, a seat whose answer waits for its button
    (pressed or not) has its answer box and its I'm ready! tile each at least a touch
    high and wide, on no other target, and the answer's mark as big as a child reads (a
    full table squeezed the answer box over the tile, to 3 px over the rotation's banner,
    and drew its ✓ at -5 px)."""
    app = make_app(size)
    table = start(app, *seats(players, 2))
    for seat in range(players):
        show(app, seat, f"C{seat + 3}", "K+2")
    answer(app, 0, 5)
    answer(app, 1, 6, press=False)
    drawn, painter = drawn_texts(table), table.ctx.painter
    for seat, mark in ((0, "\u2713"), (1, "\u2022" * 3)):
        for kind in ("solve", "ready"):
            rect = table.place(kind, seat)
            assert min(rect.size) >= table.m.touch, (kind, seat)
            others = [b.name for b in table.targets() if b.rect.colliderect(rect)]
            assert others == [f"{kind}.{seat}"]
        box = table.place("solve", seat)
        sizes = [rect.height for words, rect in drawn if words == mark and box.contains(rect)]
        assert sizes and sizes[0] >= painter.least


def test_mwm_a_press_while_the_verdict_shows_names_the_button_as_it_reads() -> None:
    """A seat button pressed while a verdict shows says to tap the button by the word on
    it ("Next hand", "Math War"), as the instruction line does, not a "Next" that is not
    on the screen."""
    app = make_app()
    table = cards_shown(app)
    answer(app, 0, 12)
    answer(app, 1, 5)
    assert table.play.verdict is not None and table.play.verdict.war  # Bot 3 has 12 too
    told = " ".join(table.play.verdict.summary)
    app.seat_queue.put(SeatPressed(0, app.ctx.clock()))
    app.step()
    assert table.status() == f"{told} Read what happened, then tap Math War."
    assert table.target("next").label == "Math War!"


def test_mwm_a_stray_press_keeps_the_verdict_on_the_line() -> None:
    """Walk 28: a child presses a seat button again just after the hand is decided (here
    the round's end): the verdict stays to read, the refusal after it; it was wiped."""
    app = make_app()
    table = start(app, "cards.virtual")
    for _ in range(2):
        for seat in (0, 1):
            answer(app, seat, table.play.answer_for(seat).solution)
        if not table.play.verdict.round_over:
            tap(app, "next")
    told = " ".join(table.play.verdict.summary)
    assert table.play.verdict.round_over and "VICTORY! card" in told
    app.seat_queue.put(SeatPressed(1, app.ctx.clock()))
    app.step()
    assert table.status() == f"{told} Read what happened, then tap Next round."
    assert table.play.tone == "error"  # the refusal shows as one


def test_mwm5_rules_pages_say_what_the_setups_last_man_option_does() -> None:
    """MWM-5: the setup offers Last man standing (teams, Option 2); the rules pages say
    what it does, and write a MATH CRATE multiplication as the card shows it (×2)."""
    from tabletop.ui.games.math_wars_meta.setup import SETUP, pages

    assert any(row.key == "lms" for row in SETUP.options)
    words = " ".join(f"{page.text} {page.example}" for page in pages())
    assert "Last man standing: nobody on a team shuffles until" in words
    assert re.search(r"\bx\d", words) is None and "\u00d72" in words


def test_mwm_a_card_fixed_after_ready_takes_the_answer_back_not_the_teacher() -> None:
    """A child who pressed ready and then sees the camera misread their card fixes the
    card (by the camera or a touch) while the others still work: the device has not used
    the answer, so the card is set right and the answer for the old card is taken back
    (type it again). It said to ask the teacher, whose undo takes back another seat's
    card."""
    app = make_app()
    table = start(app, *CHILDREN_AND_BOT)
    play = table.play
    show(app, 0, "C11", "K+2")  # the card is a 10
    show(app, 1, "C4", "K+1")
    answer(app, 0, 13)
    assert play.ready.keys() == {0} and app.ctx.lamps.lit == {0}
    tap(app, "count.0")
    type_number(app, 10)
    assert play.cards_up(0) == ((1, 10), "+2")
    assert 0 not in play.ready and 0 not in play.typed and app.ctx.lamps.lit == set()
    assert table.status().startswith("Player 1, Player 2: work it out")
    answer(app, 0, 12)
    answer(app, 1, 5)
    assert play.verdict is not None and play.verdict.entries[0].solution == 12


@pytest.mark.parametrize(
    "code",
    ["MT1:MWM:C" + "9" * 5000, "MT1:MWM:C17:" + "3" * 5000, "C\u0663"],  # ٣: not 0-9
    ids=["long-number", "long-army", "other-digits"],
)
def test_mwm_a_malformed_qr_payload_is_refused_with_the_childs_sentence(code: str) -> None:
    """A QR code with the game's prefix but a number no card has (a QR code holds up to
    7,000 digits, which Python will not read as a number) is a card that is not ours: the
    child is told to take it off, and the good card beside it in the reading still counts.
    It failed with the app's "something went wrong" and lost the reading."""
    with pytest.raises(BadInput) as problem:
        parse_code(code, edition=None)
    assert problem.value.code == "mwm.bad_code"
    app = make_app()
    table = start(app, *CHILDREN_AND_BOT)
    show(app, 0, code, "K+2")
    assert table.status() == (
        "The camera sees a card that is not a Math Wars Meta card. Take it off the battle pile."
    )
    assert table.play.cards_up(0) == (None, None) and table.play.seen[0, "crate"].face == "+2"


def test_mwm_why_pages_a_full_tables_reasons_so_none_is_cut_off() -> None:
    """Why? at a full table (seven children and a bot, 800x480): sixteen reasons do not
    fit one dialog (the last losers' lines were cut off, the rest shrunk). Each page
    shows what fits at the body text size, More shows the next, the last has only OK;
    together they are every reason, in order."""
    from tabletop.ui.scenes.common import Choices

    app = make_app()
    table = full_table_verdict(app)
    play = table.play
    assert play.verdict is not None and len(play.verdict.lines) == 16
    tap(app, "why")
    pages = []
    while True:
        dialog = app.stack.top
        assert isinstance(dialog, Choices)
        painter, m, body = dialog.ctx.painter, dialog.m, dialog.body()
        room = dialog.buttons[0].rect.top - body.top
        rows = painter.wrap(dialog.text, m.text, body.width)
        assert len(rows) * painter.fonts.font(m.text).get_linesize() <= room
        pages.append(dialog.text)
        if dialog.target("more") is None:
            break
        tap(app, "more")
    assert len(pages) > 1 and "\n".join(pages) == "\n".join(play.verdict.lines)
    tap(app, "close")
    assert app.stack.top is table and play.verdict is not None


def test_mwm3_score_card_foot_keeps_the_cards_lost_when_the_numbers_are_big() -> None:
    """MWM-3 with MWM100's big results at four Score Cards (800x480): "diff 1009 · loses
    1010" does not fit the foot, so it shows what the seat loses ("loses 1010", the
    difference is in Why?), not "diff 1009 · loses…"; short ones stay whole."""
    app = make_app()
    auto = setup(app, "math-wars-meta", "edition.MWM100")
    form_seats(auto, 4)
    auto.tap("start")
    table = app.stack.top
    assert isinstance(table, TableScene)
    for seat, cards in enumerate((("C100", "KX10"), ("C1", "K-10"), ("C99", "K/9"), ("C5", "K+5"))):
        show(app, seat, *cards)
    for seat in range(4):
        answer(app, seat, table.play.answer_for(seat).solution)
    drawn = [words for words, _ in drawn_texts(table)]
    assert "loses 1010" in drawn and "wins the hand!" in drawn
    assert not any(words.startswith("diff 1009") for words in drawn)
    assert not any(words.startswith("diff") and words.endswith("\u2026") for words in drawn)


def test_mwm_the_teachers_undo_says_what_it_took_back_and_the_step_again() -> None:
    """The teacher's undo (behind the PIN) says which card or answer it took back and
    then the step to do again, naming who ("Do that step again" named neither)."""
    app = make_app()
    table = cards_shown(app, second=("C4", "KX3"))
    teacher(app)
    tap(app, "choice.undo")
    assert table.status() == (
        "Taken back: Player 2's MATH CRATE \u00d73. "
        "Player 2: turn up your COUNT META and MATH CRATE cards."
    )
    show(app, 1, "C4", "KX3")
    answer(app, 0, 12)
    answer(app, 1, 12)
    assert table.play.verdict is not None
    teacher(app)
    tap(app, "choice.undo")
    assert table.status().startswith("Taken back: Player 2's answer 12. Player 2: work it out")


def test_mwm_an_empty_seats_button_says_nobody_sits_there() -> None:
    """Seat 4's button at a table of three was silently ignored: the child hears why
    nothing happens; nothing is pressed for anyone."""
    app = make_app()
    table = start(app, *CHILDREN_AND_BOT)
    app.seat_queue.put(SeatPressed(3, app.ctx.clock()))
    app.step()
    assert table.status() == "Nobody sits at seat 4, so its button does nothing."
    assert table.play.ready == {}


# -- round 10's walk ----------------------------------------------------------------------


def test_mwm10_teacher_menu_during_a_verdict_says_why_no_victory_card() -> None:
    """MWM-10: while a hand's verdict shows, a splash would end the next hand (nothing of
    it revealed) or the Math War (a tie): the menu says so, not "nobody is winning this
    hand yet" under a verdict that names the hand's winner."""
    from tests.ui.games.test_math_wars_meta import tied

    app = make_app()
    table = start(app)  # two children: 10 + 2 beats 4 + 1
    show(app, 0, "C10", "K+2")
    show(app, 1, "C4", "K+1")
    answer(app, 0, 12)
    answer(app, 1, 5)
    assert table.play.verdict is not None and not table.play.verdict.war
    teacher(app)
    menu = app.stack.top
    assert not [b for b in menu.targets() if b.name.startswith("choice.award.")]
    assert menu.title.endswith("(no VICTORY! card: the next hand has no card up)")
    tap(app, "cancel")
    app = make_app()
    table = tied(app)
    assert table.play.verdict is not None and table.play.verdict.war
    teacher(app)
    assert app.stack.top.title.endswith("(no VICTORY! card: a tie, so the Math War decides)")


def test_mwm8_solo_with_a_bot_says_the_bot_is_what_to_change() -> None:
    """MWM-8: Solo is one child. With a bot chosen the form names the bot and the two ways
    out (make its seat a child, or play Players); with two children, the old sentence."""
    app = make_app()
    setup(app, "math-wars-meta", "mode.solo", "seat.0", "choice.bot.bot", "start")
    form = app.stack.top
    assert isinstance(form, FormScene)
    assert form.message == (
        "Solo has no bot: tap the bot's seat and pick A child, or tap Players to play the bot."
    )
    tap(app, "seat.0")
    tap(app, "choice.child")
    tap(app, "seat.1")
    tap(app, "choice.child")
    tap(app, "start")
    assert form.message == "Solo is one child alone: tap Players to play with others."
    tap(app, "seat.1")
    tap(app, "choice.empty")
    tap(app, "start")
    assert isinstance(app.stack.top, TableScene)


def test_mwm8_virtual_cards_say_what_the_device_moved_not_what_to_move() -> None:
    """MWM-8, walk 28: with virtual cards the device moves every card, so the verdict
    says what it did (it told the child to put cards on the spoils pile and everybody to
    shuffle both decks, cards nobody holds); with real cards the words stay."""
    app = make_app()
    table = start(app, "mode.solo", "cards.virtual")
    tap(app, "solve.0")
    right = table.play.answer_for(0).solution
    type_number(app, right + 1)  # wrong
    assert table.status().startswith(f"Not right: the answer is {signed(right)}, not ")
    assert "The device put only your battle card on your spoils pile." in table.status()
    said = []
    while not table.play.verdict or not table.play.verdict.round_over:
        tap(app, "next")
        tap(app, "solve.0")
        type_number(app, table.play.answer_for(0).solution)
        said += table.play.verdict.lines
    assert "The device put the battle card and " in " ".join(said)
    assert "Round 2: the device shuffled both decks." in said
    assert not [line for line in said if "Put " in line or "shuffles" in line]
    app = make_app()
    table = start(app, "cards.virtual")  # two children, virtual cards: Why? says it too
    while not table.play.verdict or not table.play.verdict.round_over:
        if table.play.verdict:
            tap(app, "next")
        for seat in (0, 1):
            answer(app, seat, table.play.answer_for(seat).solution)
    assert "Round 2: the device shuffled both decks." in table.play.verdict.lines


def virtual_said(app: App, table: TableScene, until: tuple[str, ...]) -> str:
    """Every hand answered right until each of ``until`` was said: the instruction line
    after each step and the verdicts' sentences."""
    said: list[str] = []
    while not all(part in " ".join(said) for part in until) and not table.play.finished:
        if table.play.verdict:
            said += table.play.verdict.lines
            tap(app, "next")
            said.append(table.status())
        for seat in table.play.solving():
            if table.play.solo:
                tap(app, "solve.0")
                type_number(app, table.play.answer_for(0).solution)
            else:
                answer(app, seat, table.play.answer_for(seat).solution)
            said.append(table.status())
    return " ".join(said)


def test_mwm4_mwm5_virtual_cards_war_redraw_and_reshuffles_say_what_the_device_did() -> None:
    """MWM-4, MWM-5, MWM-8, walk 28: with virtual cards nobody holds a card, so a Solo
    redraw, a Math War and a reshuffle say what the device did (they told the children to
    draw again, put cards face down and shuffle piles); real cards keep their words."""
    app = make_app()
    said = virtual_said(app, start(app, "mode.solo", "cards.virtual"), ("counts.",))
    assert "counts. The device put both cards away and dealt you new ones." in said
    app = make_app()
    table = start(app, "cards.virtual", *seats(4, 2), "more", "option.2")
    said = virtual_said(app, table, ("MATH WAR!", "spoils pile ("))
    assert "The device deals each 3 cards down, 1 up and a MATH CRATE card." in said
    assert re.search(r"The device shuffled Player \d's spoils pile \(\d+ cards\)", said)
    for words in ("draw again", "Each puts", "shuffles"):
        assert words not in said
    crates = Event("mwm.crate_reshuffle", "Seat 2 shuffles the MATH CRATE discard pile.", 1)
    moved = "The device shuffled Player 2's MATH CRATE discard pile into a new deck."
    assert say(table.play, crates) == moved
    real = tied(make_app()).play
    assert say(real, crates) == "Player 2 shuffles the MATH CRATE discard pile."
    assert "Each puts 3 cards face down" in " ".join(real.verdict.lines)


def test_mwm8_solo_wrong_answer_says_what_was_wrong_and_what_to_do() -> None:
    """MWM-8: a wrong solo answer discards only the battle card. The message box says the
    answer was not right, the right one, and what to put on the spoils pile (it said
    "(you typed 6, not quite) Only your battle card goes on the spoils pile."); a right
    answer below 1 says why only the battle card goes too."""
    app = make_app()
    table = start(app, "mode.solo")
    show(app, 0, "C8", "K-1")
    tap(app, "solve.0")
    type_number(app, 6)
    assert table.status() == (
        "Not right: the answer is 7, not 6. Put only your battle card on your spoils pile."
        " Tap Next hand."
    )
    assert "Player 1: 8 \u2212 1 = 7. (you typed 6, not quite)" in table.play.verdict.lines
    tap(app, "next")
    show(app, 0, "C3", "K-5")
    tap(app, "solve.0")
    type_number(app, -2)
    assert table.status() == (
        "Right! \u22122 is less than 1, so put only your battle card on your spoils pile."
        " Tap Next hand."
    )


@pytest.mark.parametrize("size", [(800, 480), (1280, 720)], ids=["800x480", "1280x720"])
def test_mwm_six_seats_caption_both_cards_whole_inside_their_borders(size: tuple[int, int]) -> None:
    """At six seats COUNT lost its caption (its card too narrow for the word inside its
    thick border) while CRATE kept its own: both cards say what they are now, at the
    smallest size a child reads (16 px at 800x480), inside the card's edge."""
    app = make_app(size)
    table = start(app, *seats(6, 2))
    for seat in range(6):
        show(app, seat, f"C{seat + 3}", "K+2")
    painter = table.ctx.painter
    drawn = drawn_texts(table)
    for caption, kind in (("COUNT", "count"), ("CRATE", "crate")):
        rects = [rect for words, rect in drawn if words == caption]
        assert len(rects) == 6, caption
        for seat, rect in enumerate(rects):
            assert rect.width == painter.fonts.width(caption, painter.least)  # not shrunk
            assert table.place(kind, seat).inflate(-4, 0).contains(rect), (caption, seat)
    assert len([words for words, _ in drawn if words == "SOLUTION"]) == 6


def test_mwm_solo_score_card_foot_names_the_step_while_a_verdict_shows() -> None:
    """Issue 21: while a verdict shows, the Score Card's last line named the NEXT hand's
    wait ("cards, please!") beside "Tap Next hand."; it names the step now."""
    app = make_app()
    table = start(app, "mode.solo")
    show(app, 0, "C8", "K-1")
    tap(app, "solve.0")
    type_number(app, 7)
    words = [text for text, _ in drawn_texts(table)]
    assert "Tap Next hand!" in words
    assert "cards, please!" not in words
    tap(app, "next")
    assert "cards, please!" in [text for text, _ in drawn_texts(table)]


def test_mwm_a_child_with_cards_up_is_told_who_has_not_turned_up_theirs() -> None:
    """Round 20's walk: seat 1 has turned up 10 and +2 and taps her answer box (or
    presses her button) while seat 2 has not: the table names seat 2 as the one it waits
    for, not seat 1 as the one to turn up cards; seat 2 pressing is still told to turn
    up hers. The Next button tapped meanwhile says it the same one way (round 23), not
    "Player 2: put your cards… first", naming the first seat it waits for only."""
    app = make_app()
    table = start(app, *seats(3, 2))  # three children
    show(app, 0, "C10", "K+2")
    for target in ("solve.0", "next"):
        table.message = ""
        tap(app, target)
        assert table.message == "Wait: Player 2 and Player 3 have not turned up their cards yet."
    show(app, 2, "C4", "K+1")
    app.seat_queue.put(SeatPressed(0, app.ctx.clock()))
    app.step()
    assert table.message == "Wait: Player 2 has not turned up their cards yet."
    tap(app, "next")
    assert table.message == "Wait: Player 2 has not turned up their cards yet."
    app.seat_queue.put(SeatPressed(1, app.ctx.clock()))
    app.step()
    assert table.message.startswith("Player 2: put your COUNT META and MATH CRATE cards")


def test_mwm_after_an_undo_an_answer_still_in_the_game_shows_in_its_box() -> None:
    """Round 20's walk: the teacher undid seat 2's answer; seat 1's answer 13 is still in
    the game, so her box shows it ready (and her lamp is lit), and a tap on it says it
    is in, not that the others are still working."""
    app = make_app()
    table = cards_shown(app)
    answer(app, 0, 13)
    answer(app, 1, 5)
    teacher(app)
    tap(app, "choice.undo")
    play = table.play
    assert 0 in play.entries and play.lit() == [0]
    box = table.place("solve", 0)
    assert [words for words, rect in drawn_texts(table) if box.contains(rect)][-2:] == [
        "\u2713",
        "ready",
    ]
    tap(app, "solve.0")
    assert table.message.startswith("Player 1 already answered with these cards.")
    answer(app, 1, 5)  # the others answer: the hand is settled with both
    assert play.verdict is not None and play.verdict.entries[0].solution == 13


def test_mwm_round_end_feet_show_the_decks_as_the_hand_left_them() -> None:
    """Walk 28: at a round's end the state already holds the next round's full decks; the
    Score Cards' feet show each draw pile as the deciding hand left it, and none for a
    child who is out (Player 2's said "deck 25")."""
    app = make_app()
    table = start(app, "cards.virtual")
    play = table.play
    while play.verdict is None or not play.verdict.round_over:
        if play.verdict is not None:
            tap(app, "next")
        left = [len(zone.draw) for zone in play.state.zones]  # all cards up: the hand's
        for seat in (0, 1):
            answer(app, seat, play.answer_for(seat).solution)
    winner = play.state.rounds[-1].winner
    assert winner is not None and play.state.zones[1 - winner].draw  # new decks
    decks = [words for words, _ in drawn_texts(table) if words.startswith("deck ")]
    assert decks == [f"deck {left[winner]}"]


def test_mwm_round_end_keeps_a_child_who_is_out_greyed_and_out() -> None:
    """Walk 28: at a round's end a child knocked out earlier in the round keeps the grey
    Score Card and "OUT of this round" they had during it (the card read the next
    round's fresh state: a normal card, its foot "Tap Next round!")."""
    app = make_app()
    table = start(app, "cards.virtual", *seats(3, 2))
    play, quiet = table.play, table.ctx.painter.p.quiet
    gone: list[int] = []
    while not gone:  # a round's end, a child out before its last hand
        if play.verdict is not None:
            tap(app, "next")
        for seat in play.solving():
            answer(app, seat, play.answer_for(seat).solution)
        decks, last = (play.verdict.decks, play.verdict.stage.seats) if play.verdict else (None, ())
        gone = [seat for seat in range(3) if decks is not None and seat not in (*decks, *last)]
    assert not any(zone.out for zone in play.state.zones)  # the next round's fresh decks
    fills: dict[tuple[int, ...], object] = {}
    box = table.ctx.painter.box

    def spy(surface: pygame.Surface, rect: pygame.Rect, fill: Any, *a: Any, **kw: Any) -> None:
        fills.setdefault(tuple(rect), fill)
        box(surface, rect, fill, *a, **kw)

    table.ctx.painter.box = spy  # type: ignore[method-assign]
    texts = [words for words, _ in drawn_texts(table)]
    del table.ctx.painter.box
    assert [fills[tuple(table.panels[seat])] == quiet for seat in gone] == [True] * len(gone)
    assert texts.count("OUT of this round") == len(gone)


def test_mwm_a_refusal_after_the_verdict_is_said_and_the_verdict_not_again() -> None:
    """Walk 28: a stray press after the hand's verdict keeps the verdict on the line, the
    refusal after it; aloud, only the refusal (the verdict was said when it came; it was
    queued again after the refusal)."""
    app = make_app()
    table = start(app)
    voice, _ = listening(app)
    show(app, 0, "C9", "K+1")
    show(app, 1, "C3", "K+1")
    answer(app, 0, 10)
    answer(app, 1, 4)
    assert voice.said[-1] == table.status() == "Player 1 wins the hand with 10! Tap Next hand."
    heard = len(voice.said)
    app.seat_queue.put(SeatPressed(0, app.ctx.clock()))
    app.step()
    assert table.status().startswith("Player 1 wins the hand with 10! Read what happened")
    assert voice.said[heard:] == ["Read what happened, then tap Next hand."]


def test_mwm_a_wrong_answer_is_said_with_the_right_one_in_the_verdict() -> None:
    """Walk 29: the seat showed "✗ not 6" but the line and the voice only said who won the
    hand; the verdict now says who was wrong and the right answer (MWM-2: 9 − 4 = 5), a
    right answer nothing more."""
    app = make_app()
    table = start(app)
    voice, _ = listening(app)
    show(app, 0, "C9", "K-4")
    show(app, 1, "C3", "KX5")
    answer(app, 0, 6)
    answer(app, 1, 15)
    told = "Player 1: it is 5, not 6. Player 2 wins the hand with 15! Tap Next hand."
    assert table.status() == told and voice.said[-1] == told
    assert "Player 2: not" not in told


def with_banner(app: App) -> None:
    """A station rotation running (its banner at the foot of the screen)."""
    app.ctx.wall = FakeClock(T0 + 60)
    stored = start_rotation(app.ctx.journal, PLAN, 1, session="lesson", now=lambda: T0)
    app.ctx.rotation = RotationRunner(app.ctx, stored)
    app.step()


def eight_settled(app: App, teams: bool) -> TableScene:
    """Eight seats (MWM25) with every card up and every answer in, some wrong: the
    verdict on screen; in Team v Team (``teams``) four seats are knocked out by it and
    the next hand shows (they are OUT of this round)."""
    auto = setup(app, "math-wars-meta", *(("mode.teams",) if teams else ()))
    form_seats(auto, 8, bots=() if teams else (7,))
    auto.tap("start")
    table = app.stack.top
    assert isinstance(table, TableScene)
    for seat in range(8):
        show(app, seat, f"C{5 + seat}", ("K+2", "Kx3", "K-9", "K/2")[seat % 4])
    for seat in range(8 if teams else 7):
        right = table.play.answer_for(seat)
        tap(app, f"solve.{seat}")
        type_number(app, right.solution + (0 if teams else seat % 3 * 7))
        if right.team_solution is not None:
            type_number(app, right.team_solution)
        app.seat_queue.put(SeatPressed(seat, app.ctx.clock()))
        app.step()
    if teams:
        tap(app, "next")
        assert sum(zone.out for zone in table.play.state.zones) == 4
    else:
        assert table.play.verdict is not None
    return table


def drawn_settled(size: tuple[int, int], banner: bool, teams: bool) -> tuple[Any, ...]:
    """:func:`eight_settled` drawn once: the table, what it drew, and the words it cut."""
    app = make_app(size)
    if banner:
        with_banner(app)
    table = eight_settled(app, teams)
    cut: list[str] = []
    painter = table.ctx.painter
    ellipsis = painter.ellipsis

    def spy(text: str, *args: Any, **kw: Any) -> str:
        shown = ellipsis(text, *args, **kw)
        cut.extend([f"{text!r} shows {shown!r}"] if shown != text else [])
        return shown

    painter.ellipsis = spy  # type: ignore[method-assign]
    with recording(app) as drawn:
        app.draw()
    del painter.ellipsis
    return table, [d for d in drawn if d.what == "text" and d.scene is table and d.rect], cut


@pytest.mark.parametrize("banner", [False, True], ids=["", "banner"])
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_mwm_eight_seats_answer_boxes_and_feet_show_whole_words(
    size: tuple[int, int], banner: bool
) -> None:
    """Round 20 saw and left: at 7-8 seats the verdict's "\u2713 right" showed "\u2713 rig\u2026"
    over the answer (and the mark lay on its caption), and "OUT of this round" did not
    fit a Team v Team chip. Every Score Card's words show whole (or their short form:
    "right", "not 25", "OUT"), none on another in an answer box, >= 16 px at 800x480,
    with and without the rotation's banner."""
    for teams in (False, True):
        table, texts, cut = drawn_settled(size, banner, teams)
        assert not cut, cut
        feet = [d.words for d in texts if d.words in ("OUT", "OUT of this round")]
        assert len(feet) == (4 if teams else 0)
        for seat in range(8):
            box = table.place("solve", seat)
            inside = [d for d in texts if box.contains(d.rect)]
            assert inside, f"seat {seat + 1}: nothing in its answer box"
            for i, a in enumerate(inside):
                assert size != SIZES[0] or a.size >= SMALLEST_TEXT, a
                for b in inside[i + 1 :]:
                    assert not a.rect.inflate(0, -6).colliderect(b.rect.inflate(0, -6)), (a, b)
