"""Math Wars Meta's controller (``tabletop.ui.games.math_wars_meta.play``) without a
display: a child's own take-back of a typed answer (issue 21)."""

from __future__ import annotations

from tabletop.games.math_wars_meta import MathWarsMetaSettings
from tabletop.ui.games.math_wars_meta.play import MwmPlay, SeatConfig


def solving_table() -> MwmPlay:
    """Two children with virtual cards: the device deals, both are to answer."""
    seats = [SeatConfig("Ana", virtual=True), SeatConfig("Ben", virtual=True)]
    play = MwmPlay(MathWarsMetaSettings(), seats, seed=5)
    play.pump()
    assert play.solving() == [0, 1]
    return play


def test_math_wars_meta_child_takes_back_a_typed_answer_until_every_seat_is_in() -> None:
    """A child who typed an answer and pressed ready types it again (no PIN) while the
    others still work: the device has not used it, so the new answer counts and the seat
    must press again. A second press keeps the first press's moment. Once every seat is
    in the device rules, and changing it is the teacher's undo (``mwm.ui.wait_next``)."""
    play = solving_table()
    right = play.answer_for(0).solution
    play.type_solution(0, right + 1)  # a mistyped number
    assert play.press(0, 10.0) == "ready" and play.ready == {0: 10.0}
    assert play.is_ready_words(0) == "Ana is ready (to change it, tap your answer box)."
    assert play.press(0, 12.0) == "ready" and play.ready == {0: 10.0}  # the first moment
    assert play.refusal(0, "solution") is None  # the answer box still opens the pad
    play.type_solution(0, right)  # taken back: typed again
    assert play.ready == {} and play.typed[0].solution == right and not play.entries
    assert play.wants_press(0) and play.press(0, 13.0) == "ready"
    assert play.verdict is None and not play.entries  # Ben is not in yet
    play.type_solution(1, play.answer_for(1).solution)
    assert play.press(1, 14.0) == "ready"
    assert play.verdict is not None  # every seat is in: the device ruled
    assert play.verdict.entries[0].solution == right  # the answer typed again counts
    assert play.verdict.entries[0].at == 13000  # the press after it, in milliseconds
    assert play.refusal(0, "solution") == "mwm.ui.wait_next"


def test_math_wars_meta_cards_up_are_the_settled_stages_while_its_verdict_shows() -> None:
    """The cards lying on the table (what the Score Cards show and a card read again is
    matched against): this stage's; while a verdict shows, the stage it settled; after a
    splash (its verdict has no stage), this stage's again, none turned up yet."""
    play = solving_table()
    dealt = [play.cards_up(seat) for seat in (0, 1)]
    assert all(up is not None for up, _ in dealt) and play.table_stage is play.state.stage
    for seat in (0, 1):
        play.type_solution(seat, play.answer_for(seat).solution)
        play.press(seat, 1.0 + seat)
    assert play.verdict is not None and play.table_stage is play.verdict.stage
    assert [play.cards_up(seat) for seat in (0, 1)] == dealt
    assert play.state.stage.up != play.verdict.stage.up  # the engine is at the next hand
    play.next_hand()
    assert play.table_stage is play.state.stage and play.cards_up(0) != dealt[0]
    play.splash(None)
    assert play.verdict is not None and play.table_stage is play.state.stage
    assert play.cards_up(0) == play.cards_up(1) == (None, None)


def test_math_wars_meta_controller_plays_by_its_matchs_settings() -> None:
    """The settings are kept once, in the match: a match carried on from the journal
    brings its own (Option 2 here), whatever the controller was built with."""
    from tabletop.engine.match import Match
    from tabletop.ui.games.math_wars_meta.play import GAME

    option_2 = MathWarsMetaSettings(discard_option=2)
    match = Match(GAME, option_2, 2, seed=5)
    seats = [SeatConfig("Ana", virtual=True), SeatConfig("Ben", virtual=True)]
    play = MwmPlay(MathWarsMetaSettings(), seats, seed=5, match=match)
    assert play.settings is match.settings and play.settings.discard_option == 2
