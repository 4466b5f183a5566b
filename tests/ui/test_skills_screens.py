"""The skills view of the class report and the dice-fairness lesson screen (issue 24)."""

from __future__ import annotations

from tabletop.ui.scenes.dice_lesson import REFRESH, DiceLessonScene
from tabletop.ui.scenes.report import ReportScene
from tests.ui.scenery import make_app, skills_lesson

LESSON = "2025-05-08"


def report_app():
    app = make_app()
    skills_lesson(app.ctx.journal, LESSON)
    app.ctx.session = LESSON
    scene = ReportScene(app.ctx, sticks=lambda: [])
    app.stack.push(scene)
    app.step()
    return app, scene


def test_skills_screen_shows_each_childs_most_common_mistake() -> None:
    _, scene = report_app()
    assert scene.target("view").label == "Skills"
    scene.press("view")
    assert scene.view == "skills" and scene.target("view").label == "Games"
    lines = scene.lines()
    # each group's totals first (with the group's own trend), then each student
    assert lines[0] == [
        "Group Red",
        "Subtraction",
        "1 of 3",
        "practise",
        "0% \u2192 33%",
        "Sign (2 times): 5 - 9: answered 4, the opposite of -4",
    ]
    assert [line[0] for line in lines[:6]] == ["Group Red"] * 4 + ["Guests"] * 2
    assert lines[6] == [
        "Ana",
        "Multiplication",
        "4 of 5",
        "secure",
        "50% \u2192 80%",
        "Another operation: 7 x 8: answered 15, which is 7 + 8",
    ]
    ben = [line for line in lines if line[0] == "Ben" and line[1] == "Order of operations"]
    assert ben == [
        [
            "Ben",
            "Order of operations",
            "1 of 3",
            "practise",
            "33%",
            "Order of operations (2 times): 2 + 3 x 4: answered 20, working left to right; "
            "x and \u00f7 come first",
        ]
    ]
    guest = [line for line in lines if line[0] == "Player 3"]
    assert [line[1] for line in guest] == ["Addition", "Division"]
    assert scene.pages == 4
    scene.press("view")
    assert scene.view == "games" and scene.lines()[0][0] == "Group Red"


def test_skills_screen_opens_the_dice_lesson_which_grows_as_dice_are_read() -> None:
    app, scene = report_app()
    scene.press("dice")
    dice = app.stack.top
    assert isinstance(dice, DiceLessonScene)
    assert dice.result.counts == (18, 22, 17, 24, 19, 20) and dice.result.fair
    app.ctx.journal.add_dice([6, 6, 6], "tap", session=LESSON)
    app.ctx.journal.add_dice([1], "virtual", session=LESSON)  # the device's own: not counted
    assert not dice.update(app.ctx.clock())  # read again only every REFRESH seconds
    app.ctx.clock.advance(REFRESH)
    assert dice.update(app.ctx.clock())
    assert dice.result.counts == (18, 22, 17, 24, 19, 23)
    dice.press("which")
    assert dice.every and dice.target("which").label == "This lesson only"
    dice.press("back")
    assert app.stack.top is scene


def test_skills_dice_lesson_with_no_dice_says_so() -> None:
    app = make_app()
    scene = DiceLessonScene(app.ctx, session="empty")
    app.stack.push(scene)
    app.step()
    assert scene.result.rolls == 0
    assert scene.result.sentence().startswith("after 0 rolls it is too early to tell")


def test_skills_dice_lesson_counts_one_die_as_one_die() -> None:
    """One die read in a lesson: the subtitle says "1 die rolled", not "1 dice rolled"."""
    app = make_app()
    app.ctx.journal.add_dice([4], "tap", session="one")
    scene = DiceLessonScene(app.ctx, session="one")
    assert scene.subtitle == "1 die rolled \u00b7 lesson one"
    app.ctx.journal.add_dice([2], "tap", session="one")
    scene.load()
    assert scene.subtitle == "2 dice rolled \u00b7 lesson one"


def test_skills_mathe_meister_line_sums_journaled() -> None:
    """Issue 24: every line the device sums on a solo sheet is journaled (skill
    "line_sums", worked left to right, MM-3) with the rule it breaks, if any (MM-4); the
    skills report counts them as the class report counts the sums."""
    from tabletop.classroom.skills import gather_skills
    from tests.ui.scenery import play_rounds, start_solo

    app = make_app()
    auto = start_solo(app)
    play_rounds(auto, 8)
    (saved,) = app.ctx.journal.matches()
    answers = app.ctx.journal.answers(saved.id)
    assert answers and {a.skill for a in answers} == {"line_sums"}
    assert all(a.question["order"] == "left-to-right" for a in answers)
    checked, right = saved.meta["checks"][0]
    assert len(answers) == checked > 0  # a line is one answer, as in the report's sums
    assert all(a.seconds is not None for a in answers)  # since that round's dice
    broken = [a for a in answers if a.question.get("broken")]
    assert len(answers) - len(broken) >= right
    (row,) = gather_skills(app.ctx.journal)
    assert (row.skill, row.checked, row.right) == (
        "line_sums",
        len(answers),
        len(answers) - len(broken),
    )
    if broken:
        assert row.common == "rule" and "needs an" in row.examples["rule"]


def test_skills_mathe_meister_swapped_line_is_one_answer() -> None:
    """MM-3/MM-7: a completed line changed later by a Coin Shop swap stays one answer (as
    in the report's sums, which count each completed line once), journaled as it was
    first completed; its question was asked when that round's dice came."""
    from types import SimpleNamespace

    from tabletop.assets import mathe_meister_layout
    from tabletop.games.mathe_meister import MatheMeisterSettings, Roll, SwapOperands
    from tabletop.ui.games.mathe_meister.play import line_answers

    def grid(row: str) -> tuple[str, ...]:
        empty = "." * 7
        return (row, *(empty for _ in range(6)))

    def step(action: object, row: str) -> SimpleNamespace:
        sheet = SimpleNamespace(grid=grid(row))
        return SimpleNamespace(action=action, state=SimpleNamespace(sheets=[sheet]))

    swap = SwapOperands(0, (0, 0), (0, 2))
    match = SimpleNamespace(
        steps=[
            step(Roll((3, 5)), "......."),
            step(None, "3+5x2.."),
            step(Roll((2, 4)), "3+5x2.."),
            step(None, "3+5x2-4"),  # R1 complete: (3 + 5) x 2 - 4 = 12, even: right
            step(swap, "5+3x2-4"),  # the swap changes it: still the same one answer
        ]
    )
    settings = MatheMeisterSettings(mathe_meister_layout(), ())
    found = line_answers(match, settings)  # type: ignore[arg-type]
    assert [(done, seat, asked, q.text, int(given)) for done, seat, asked, q, given in found] == [
        (4, 0, 3, "3 + 5 x 2 - 4", 12)
    ]


def test_skills_dice_kept_with_their_game() -> None:
    """Issue 24: the dice a Mathe-Meister game read are kept with that game's journal
    row, so a station's result carries them to the console's dice lesson."""
    from tests.ui.scenery import start_solo

    app = make_app()
    auto = start_solo(app)
    auto.tap_dice((3, 5))
    (saved,) = app.ctx.journal.matches()
    rows = app.ctx.journal.db.execute("SELECT match_id, value, source FROM dice").fetchall()
    assert rows == [(saved.id, 3, "tap"), (saved.id, 5, "tap")]
