"""Math Wars Meta as a new table meets it (round 8's walk): what the instruction line,
the Score Cards and the verdict say after each step."""

from __future__ import annotations

from hardware.buttons import SeatPressed
from tests.ui.games.test_math_wars_meta import (
    CHILDREN_AND_BOT,
    answer,
    show,
    start,
    tap,
    type_number,
)
from tests.ui.scenery import make_app


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
    table = start(app, *CHILDREN_AND_BOT)
    show(app, 0, "C10", "K+2")
    show(app, 1, "C4", "K+1")
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
