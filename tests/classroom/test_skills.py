"""The skills report (issue 24): answers journaled with their questions, per student and
skill, the most common kind of mistake, the trend, the CSV, and the demo child."""

from __future__ import annotations

import csv
import io
from fractions import Fraction
from pathlib import Path

import pytest

from tabletop.classroom.mistakes import classify, question
from tabletop.classroom.skills import (
    SKILLS_CSV_COLUMNS,
    answer_record,
    gather_skills,
    group_skills,
    question_of,
    row_trend,
    skills_csv_text,
    trend,
    trend_text,
    trends,
)
from tabletop.cli import main
from tabletop.store import FILE_NAME, Journal, SeatInfo
from tests.classroom.lesson import Clock, journal_match

A, B = "2025-05-01", "2025-05-08"


def lesson(path: Path) -> Journal:
    """Ana (S01, Red) and a guest answer hand-made questions in two sessions; a bot's
    answers and an unfinished game's are journaled too (and left out)."""
    journal = Journal(path, now=Clock())
    ana, guest, bot = (
        SeatInfo(0, "Ana", "S01", "Red"),
        SeatInfo(1, "Player 2"),
        SeatInfo(2, "Bot 3", bot="easy"),
    )
    mul, sub = question("multiplication", [7, 8], "x"), question("subtraction", [5, 9], "-")
    for session, log in (
        (A, [(0, mul, 15), (0, mul, 15), (0, mul, 56), (0, mul, 57), (1, sub, 4), (2, mul, 1)]),
        (B, [(0, mul, 56), (0, mul, 56), (0, mul, 15)]),
    ):
        m, _ = journal_match(
            journal, "math-arena", [ana, guest, bot], session=session, checks=[], seconds=60
        )
        journal.add_answers(
            m, [answer_record(seat, i, q, g, 2.5) for i, (seat, q, g) in enumerate(log)]
        )
        journal.finish(m, {"places": [1, 2, 3]})
    left, _ = journal_match(
        journal, "math-arena", [ana, guest, bot], session=B, checks=[], seconds=1
    )
    journal.add_answers(left, [answer_record(0, 1, mul, 1)])  # still playing: left out
    return journal


def test_skills_gather_per_student_and_skill(tmp_path: Path) -> None:
    journal = lesson(tmp_path / FILE_NAME)
    rows = gather_skills(journal, A)
    assert [(r.name, r.group, r.skill, r.checked, r.right) for r in rows] == [
        ("Ana", "Red", "multiplication", 4, 1),
        ("Player 2", "guests", "subtraction", 1, 0),
    ]
    ana = rows[0]
    assert ana.kinds == {"operation": 2, "off_by_one": 1}
    assert ana.common == "operation"
    assert ana.sentence() == "Another operation (2 of 3): 7 x 8: answered 15, which is 7 + 8"
    assert rows[1].common == "sign"
    every = gather_skills(journal)
    assert (every[0].session, every[0].checked, every[0].right) == ("all", 7, 3)


def test_skills_group_totals(tmp_path: Path) -> None:
    """Per group and skill: its students' answers, right and kinds added up."""
    from tabletop.classroom.skills import group_skills, row_trend

    journal = lesson(tmp_path / FILE_NAME)
    totals = group_skills(gather_skills(journal))
    assert [(t.name, t.skill, t.checked, t.right, t.total) for t in totals] == [
        ("Group Red", "multiplication", 7, 3, True),
        ("Guests", "subtraction", 1, 0, True),
    ]
    assert totals[0].kinds == {"operation": 3, "off_by_one": 1}
    assert totals[0].sentence() == "Another operation (3 of 4): 7 x 8: answered 15, which is 7 + 8"
    assert row_trend({}, totals[0]) == "—"  # no sessions given: no trend yet


def test_skills_trend_over_sessions(tmp_path: Path) -> None:
    journal = lesson(tmp_path / FILE_NAME)
    points = trend(journal, "S01", "Ana", "multiplication")
    assert points == [(A, 4, 1), (B, 3, 2)]
    assert trend_text(points) == "25% → 67%"
    assert trend(journal, "", "Player 2", "subtraction") == [(A, 1, 0)]
    assert trend_text([]) == "—"


def test_skills_group_rows_have_their_trend_too(tmp_path: Path) -> None:
    """Per group as per student: the trend over the group's answers, session by session."""
    journal = lesson(tmp_path / FILE_NAME)
    every = trends(journal)
    groups = {(r.group, r.skill): r for r in group_skills(gather_skills(journal, B))}
    assert row_trend(every, groups[("Red", "multiplication")]) == "25% → 67%"
    assert row_trend(every, next(r for r in gather_skills(journal, B))) == "25% → 67%"


def test_skills_guests_and_no_group_rows_have_their_trend(tmp_path: Path) -> None:
    """The "Whole group" rows of guests and of students in no group show their trend as
    each of their children's rows does (main: "—" always, the trend kept under the
    stored group "" while the rows say "guests" and "no group")."""
    journal = lesson(tmp_path / FILE_NAME)
    mul = question("multiplication", [7, 8], "x")
    m, _ = journal_match(
        journal, "mathe-meister", [SeatInfo(0, "Bea", "S02")], session=B, checks=[], seconds=1
    )
    journal.add_answers(m, [answer_record(0, 0, mul, 56), answer_record(0, 1, mul, 15)])
    journal.finish(m, {"places": [1]})
    every = trends(journal)
    groups = {(r.group, r.skill): r for r in group_skills(gather_skills(journal))}
    assert row_trend(every, groups[("guests", "subtraction")]) == "0%"
    assert row_trend(every, groups[("no group", "multiplication")]) == "50%"
    guest = next(r for r in gather_skills(journal) if r.group == "guests")
    assert row_trend(every, guest) == "0%"


def test_skills_csv_columns_and_rows(tmp_path: Path) -> None:
    journal = lesson(tmp_path / FILE_NAME)
    text = skills_csv_text(gather_skills(journal, A))
    rows = list(csv.reader(io.StringIO(text)))
    assert tuple(rows[0]) == SKILLS_CSV_COLUMNS
    assert (
        ",".join(rows[0])
        == "session,group,student_id,name,skill,checked,right,error_kind,count,example"
    )
    ana = [A, "Red", "S01", "Ana", "multiplication", "4", "1"]
    assert rows[1:] == [
        [*ana, "operation", "2", "7 x 8: answered 15, which is 7 + 8"],
        [*ana, "off_by_one", "1", "7 x 8: answered 57, one more than 56"],
        [
            A,
            "guests",
            "",
            "Player 2",
            "subtraction",
            "1",
            "0",
            "sign",
            "1",
            "5 - 9: answered 4, the opposite of -4",
        ],
    ]


def test_skills_no_mistakes_is_one_row(tmp_path: Path) -> None:
    journal = Journal(tmp_path / FILE_NAME, now=Clock())
    m, _ = journal_match(
        journal, "mathe-meister", [SeatInfo(0, "Ana", "S01")], session=A, checks=[], seconds=1
    )
    journal.add_answers(m, [answer_record(0, 1, question("addition", [2, 2], "+"), 4)])
    journal.finish(m, {"places": [1]})
    rows = list(csv.reader(io.StringIO(skills_csv_text(gather_skills(journal)))))
    assert rows[1] == ["all", "no group", "S01", "Ana", "addition", "1", "1", "", "0", ""]


def test_skills_unreadable_question_counts_as_other(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A journaled answer whose question was damaged is still counted (wrong, "other"),
    with a line in the log; nothing is lost and nothing raises."""
    journal = Journal(tmp_path / FILE_NAME, now=Clock())
    m, _ = journal_match(
        journal, "mathe-meister", [SeatInfo(0, "Ana", "S01")], session=A, checks=[], seconds=1
    )
    journal.add_answers(m, [answer_record(0, 1, question("addition", [2, 2], "+"), 5)])
    with journal.transaction() as db:
        db.execute('UPDATE answers SET question = \'{"numbers": "x"}\'')
    journal.finish(m, {"places": [1]})
    (row,) = gather_skills(journal)
    assert (row.checked, row.right, row.common) == (1, 0, "other")
    assert "cannot read" in caplog.text
    with pytest.raises(ValueError, match="not a question"):
        question_of("addition", {})


def test_skills_answers_taken_back_by_undo(tmp_path: Path) -> None:
    journal = Journal(tmp_path / FILE_NAME, now=Clock())
    m, _ = journal_match(
        journal, "mathe-meister", [SeatInfo(0, "Ana", "S01")], session=A, checks=[], seconds=1
    )
    q = question("addition", [2, 2], "+")
    journal.add_answers(m, [answer_record(0, 3, q, 4), answer_record(0, 7, q, 5)])
    journal.take_back_answers(m, 5)
    assert [a.step for a in journal.answers(m)] == [3]
    assert journal.answers(m)[0].question["numbers"] == ["2", "2"]
    assert Fraction(journal.answers(m)[0].given) == 4


def test_skills_demo_child_report_end_to_end(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`tabletop demo --game math-wars-meta --child --data D` then `tabletop report --data D
    --all --skills S.csv`: rows for the guest child with kinds of mistake, none for a bot."""
    data, out, sheet = tmp_path / "d", tmp_path / "o", tmp_path / "S.csv"
    assert (
        main(
            [
                "demo",
                "--game",
                "math-wars-meta",
                "--seed",
                "4",
                "--child",
                "--data",
                str(data),
                "--out",
                str(out),
            ]
        )
        == 0
    )
    assert main(["report", "--data", str(data), "--all", "--skills", str(sheet)]) == 0
    rows = list(csv.DictReader(io.StringIO(sheet.read_text(encoding="utf-8-sig"))))
    assert rows and {r["name"] for r in rows} == {"Player 1"}
    assert {r["group"] for r in rows} == {"guests"}
    kinds = {r["error_kind"] for r in rows} - {""}
    assert len(kinds) >= 3
    assert all(r["example"] for r in rows if r["error_kind"])
    journal = Journal(data / FILE_NAME)
    try:  # every answer journaled with the seconds it took, and only the child's
        answers = [a for m in journal.matches() for a in journal.answers(m.id)]
        assert answers and all(a.seconds is not None and a.seat == 0 for a in answers)
    finally:
        journal.close()
    assert "wrote" in capsys.readouterr().out


def test_skills_demo_child_in_math_arena(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`demo --game math-arena --child`: seat 1 picks on the screen and says its values
    from the seeded model; the skills CSV has the child's rows and mistakes, no bot's."""
    data, sheet = tmp_path / "d", tmp_path / "S.csv"
    assert (
        main(
            [
                "demo",
                "--game",
                "math-arena",
                "--seed",
                "5",
                "--child",
                "--data",
                str(data),
                "--out",
                str(tmp_path / "o"),
            ]
        )
        == 0
    )
    assert "Player 1 says" in capsys.readouterr().out
    assert main(["report", "--data", str(data), "--all", "--skills", str(sheet)]) == 0
    rows = list(csv.DictReader(io.StringIO(sheet.read_text(encoding="utf-8-sig"))))
    assert {r["name"] for r in rows} == {"Player 1"}
    assert {r["skill"] for r in rows} <= {"addition", "subtraction", "division"}
    assert {r["error_kind"] for r in rows} - {""}


def test_skills_arena1_mwm2_journaled_before_read_as_the_rules(tmp_path: Path) -> None:
    """ARENA-1, MWM-2: answers journaled before the questions said what they ask (a
    Queen, and an MWM division that leaves a remainder, both ``"ops": ["/"]`` with the
    game's right answer) are read from their numbers and right answer: the report names
    the rule's mistake (on the old main: "dropping the remainder" for both)."""
    from tabletop.store import AnswerRecord

    journal = Journal(tmp_path / FILE_NAME, now=Clock())
    seats = [SeatInfo(0, "Ana", "S01", "Red"), SeatInfo(1, "Bot 2", bot="easy")]
    for game, numbers, right, given in (
        ("math-arena", ["9", "4"], "1", "2"),  # the Queen: the quotient, not the remainder
        ("math-wars-meta", ["5", "10"], "5", "0"),  # MWM-2: 5 counts, the child divided
    ):
        m, _ = journal_match(journal, game, seats, session=A, checks=[], seconds=60)
        stored = {"numbers": numbers, "ops": ["/"], "order": "precedence", "right": right}
        journal.add_answers(m, [AnswerRecord(0, 1, "division", stored, given, right, 3.0)])
        journal.finish(m, {"places": [1, 2]})
    rows = gather_skills(journal, A)
    journal.close()
    assert [(r.skill, r.checked, r.right, dict(r.kinds)) for r in rows] == [
        ("division", 2, 0, {"remainder": 2})
    ]
    assert rows[0].examples["remainder"] == (
        "remainder of 9 ÷ 4: answered 2, the quotient, not the remainder (2 r 1)"
    )
    csv_text = skills_csv_text(rows)
    assert "dropping the remainder" not in csv_text


def test_skills_arena1_mwm2_demo_report_says_the_rule(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """ARENA-1, MWM-2: `demo --game math-arena` and `--game math-wars-meta` (seed 7,
    `--child --data D`), then `report --skills`: the Queen's and MWM-2's divisions are
    named as the rules ask them. On the old main the CSV said "10 ÷ 3: answered 3,
    dropping the remainder" (the Queen asks the remainder 1: 3 is the quotient) and
    "3 ÷ 7: answered 4, one more than 3" (as if 3 ÷ 7 were 3)."""
    data, sheet = tmp_path / "d", tmp_path / "S.csv"
    for game in ("math-arena", "math-wars-meta"):
        args = ["demo", "--game", game, "--seed", "7", "--child", "--data", str(data)]
        assert main([*args, "--out", str(tmp_path / "o")]) == 0
    assert main(["report", "--data", str(data), "--all", "--skills", str(sheet)]) == 0
    rows = list(csv.DictReader(io.StringIO(sheet.read_text(encoding="utf-8-sig"))))
    examples = {r["error_kind"]: r["example"] for r in rows if r["skill"] == "division"}
    assert examples["remainder"] == (
        "remainder of 10 ÷ 3: answered 3, the quotient, not the remainder (3 r 1)"
    )
    assert examples["off_by_one"] == (
        "3 ÷ 7 leaves a remainder, so 3 counts: answered 4, one more than 3"
    )
    assert "dropping the remainder" not in sheet.read_text(encoding="utf-8-sig")
    capsys.readouterr()
    journal = Journal(data / FILE_NAME)
    try:  # every MWM-2 remainder mistake is the child dividing where the count stays
        for m in journal.matches():
            for a in journal.answers(m.id):
                q = question_of(a.skill, dict(a.question))
                found = classify(q, Fraction(a.given))
                if m.game == "math-wars-meta" and found and found.kind == "remainder":
                    assert "counts: answered" in found.example
                    assert "dividing anyway" in found.example or "remainder (" in found.example
    finally:
        journal.close()


@pytest.mark.parametrize(
    ("game", "why"), [("bubbles", "not journaled"), ("math-attack", "checks no answers")]
)
def test_skills_demo_child_refused_where_no_answer_is_checked(
    game: str, why: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """The bubble game is not journaled and Math Attack! checks no answers: `--child`
    is refused with one line saying so (exit status 2)."""
    assert main(["demo", "--game", game, "--child", "--seed", "1"]) == 2
    err = capsys.readouterr().err
    assert "no --child" in err and why in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize(
    ("game", "skills", "kinds"),
    [
        ("mecs", {"equations", "order"}, {"remainder"}),
        ("mathe-meister", {"line_sums"}, {"rule"}),
    ],
)
def test_skills_demo_child_in_mecs_and_mathe_meister(
    game: str, skills: set[str], kinds: set[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`demo --game mecs|mathe-meister --child --data D` then `report --data D --all
    --skills S.csv`: rows for the guest child only (no bot), with kinds of mistake, and
    every answer journaled with the seconds it took."""
    data, sheet = tmp_path / "d", tmp_path / "S.csv"
    args = ["demo", "--game", game, "--seed", "1", "--child", "--data", str(data)]
    assert main([*args, "--out", str(tmp_path / "o")]) == 0
    assert main(["report", "--data", str(data), "--all", "--skills", str(sheet)]) == 0
    rows = list(csv.DictReader(io.StringIO(sheet.read_text(encoding="utf-8-sig"))))
    assert rows and {r["name"] for r in rows} == {"Player 1"}
    assert {r["group"] for r in rows} == {"guests"}
    assert {r["skill"] for r in rows} <= skills
    assert {r["error_kind"] for r in rows} - {""} >= kinds
    assert all(r["example"] for r in rows if r["error_kind"])
    journal = Journal(data / FILE_NAME)
    try:
        answers = [a for m in journal.matches() for a in journal.answers(m.id)]
        assert answers and all(a.seconds is not None and a.seat == 0 for a in answers)
        seats = [s for m in journal.matches() for s in journal.seats(m.id)]
        assert [s.seat for s in seats if not s.bot] == [0]  # the child; the rest are bots
    finally:
        journal.close()
    assert "wrote" in capsys.readouterr().out


@pytest.mark.parametrize("game", ["math-attack", "math-wars-meta", "mathe-meister"])
def test_skills_demo_bots_never_in_report(
    game: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A demo's players are bots: `demo --data` journals them as bots, so a report of
    the demo's journal has no rows (on the old main they showed as guests)."""
    data = tmp_path / "d"
    assert (
        main(
            [
                "demo",
                "--game",
                game,
                "--seed",
                "5",
                "--data",
                str(data),
                "--out",
                str(tmp_path / "o"),
            ]
        )
        == 0
    )
    capsys.readouterr()
    assert main(["report", "--data", str(data), "--all", "--csv", str(tmp_path / "r.csv")]) == 2
    assert "nothing written" in capsys.readouterr().err
    assert not (tmp_path / "r.csv").exists()
    journal = Journal(data / FILE_NAME)
    try:
        seats = [s for m in journal.matches() for s in journal.seats(m.id)]
        assert seats and all(s.bot for s in seats)
    finally:
        journal.close()


def test_skills_mecs_equation_as_question() -> None:
    """MECS-2: an equation of cards that reads as a sum worked out is a question and an
    answer (one side numbers and + - x ÷, the other one number); other shapes are not."""
    from tabletop.classroom.mistakes import classify
    from tabletop.ui.games.mecs.questions import equation_question

    found = equation_question(["2", "+", "3", "X", "4", "EQ", "2", "0"])
    assert found is not None
    q, given = found
    assert (q.skill, q.text, q.answer, given) == ("order", "2 + 3 x 4", 14, 20)
    mistake = classify(q, given)
    assert mistake is not None and mistake.kind == "order"
    swapped = equation_question(["6", "3", "EQ", "9", "X", "7"])
    assert swapped is not None and swapped[0].skill == "equations" and swapped[1] == 63
    for cards in ("LP 2 RP EQ 2", "2 EQ 2", "4 DIV 0 EQ 1", "2 X EQ 4 1", "1 + 1"):
        assert equation_question(cards.split()) is None


def test_skills_pdf_pages_grid_mistakes_and_dice(tmp_path: Path) -> None:
    """The printed report ends with the skills grid (a level word in every coloured
    cell), each student's most common mistake per skill, and the dice-fairness page."""
    from tabletop.classroom.report import write_pdf
    from tabletop.classroom.report_pdf import report_pdf
    from tabletop.classroom.report_rows import gather
    from tabletop.classroom.skills import skills_pages
    from tests.classroom.test_report import pdf_text
    from tests.ui.scenery import skills_lesson

    journal = Journal(":memory:")
    skills_lesson(journal, "L2")
    pdf = report_pdf(gather(journal, "L2"), session="L2", skills=skills_pages(journal, "L2"))
    assert pdf.pages_count == 1 + 2 + 2  # summary, two groups, skills, dice
    path = tmp_path / "r.pdf"
    write_pdf(pdf, path)
    text = pdf_text(path)
    assert "Skills: what each child found hard" in text
    assert "secure" in text and "practise" in text and "growing" in text
    assert "Another operation: 7 x 8: answered 15, which is 7 + 8" in text
    assert "Are our dice fair?" in text
    assert "After 120 rolls these dice look fair" in text


def test_skills_report_command_writes_skills_pages(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`tabletop report --pdf` adds the skills and dice pages; `--skills` alone writes
    only the skills CSV."""
    from tests.ui.scenery import skills_lesson

    data = tmp_path / "d"
    data.mkdir()
    journal = Journal(data / FILE_NAME)
    skills_lesson(journal, "L2")
    journal.close()
    assert (
        main(["report", "--data", str(data), "--session", "L2", "--pdf", str(tmp_path / "r.pdf")])
        == 0
    )
    assert "5 pages" in capsys.readouterr().out
    assert main(["report", "--data", str(data), "--all", "--skills", str(tmp_path / "s.csv")]) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["d", "r.pdf", "s.csv"]


def test_skills_station_result_carries_its_answers(tmp_path: Path) -> None:
    """A station's result message carries the match's answers to the teacher's console."""
    from tabletop.classroom.fleet.outbox import result_message

    journal = lesson(tmp_path / FILE_NAME)
    first = min(m.id for m in journal.matches())
    message = result_message(journal.db, first, "station-1")
    answers = message.match["meta"]["answers"]
    assert len(answers) == 6 and answers[0] == {
        "seat": 0,
        "step": 0,
        "skill": "multiplication",
        "question": {"numbers": ["7", "8"], "ops": ["x"], "order": "precedence", "right": None},
        "given": "15",
        "answer": "56",
        "seconds": 2.5,
    }


def test_skills_station_result_carries_its_games_dice(tmp_path: Path) -> None:
    """Issue 24: a station's result carries the dice read for that game (per source and
    face), not another game's or a die read for no game, and the console's bounds take it."""
    from tabletop.classroom.fleet.messages import Topics, encode, parse
    from tabletop.classroom.fleet.outbox import result_message

    journal = lesson(tmp_path / FILE_NAME)
    first, second = sorted(m.id for m in journal.matches())[:2]
    journal.add_dice([6, 6, 1], "camera", match_id=first, session=A)
    journal.add_dice([3], "corrected", match_id=first, session=A)
    journal.add_dice([2], "camera", match_id=second, session=B)
    journal.add_dice([4], "tap", session=A)  # read for no journaled game: stays home
    message = result_message(journal.db, first, "station-1")
    assert message.match["meta"]["dice"] == {
        "camera": [1, 0, 0, 0, 0, 2],
        "corrected": [0, 0, 1, 0, 0, 0],
    }
    topics = Topics()
    parsed = parse(topics, topics.result("station-1"), encode(message))
    assert parsed.match["meta"]["dice"] == message.match["meta"]["dice"]  # type: ignore[union-attr]
    other = result_message(journal.db, second, "station-1")
    assert other.match["meta"]["dice"] == {"camera": [0, 1, 0, 0, 0, 0]}


def test_skills_csv_that_cannot_be_written_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A skills CSV the report cannot write: exit status 2 and one line on stderr."""
    from tests.ui.scenery import skills_lesson

    data = tmp_path / "d"
    data.mkdir()
    journal = Journal(data / FILE_NAME)
    skills_lesson(journal, "L2")
    journal.close()
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    assert main(["report", "--data", str(data), "--all", "--skills", str(blocker / "s.csv")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "cannot write" in err[0]


def test_skills_leave_out_a_game_the_teacher_hid(tmp_path: Path) -> None:
    """Hiding a game from reports (issue 25) hides its answers from the skills too."""
    from tabletop.classroom.report_rows import hide

    journal = lesson(tmp_path / FILE_NAME)
    (match,) = {r[0] for r in journal.db.execute("SELECT id FROM matches WHERE session = ?", (A,))}
    assert gather_skills(journal, A)
    hide(journal, match)
    assert gather_skills(journal, A) == []
    assert trend(journal, "S01", "Ana", "multiplication") == [(B, 3, 2)]
    hide(journal, match, hidden=False)
    assert len(gather_skills(journal, A)) == 2


def test_skills_most_common_mistake_as_the_report_and_screen_show_it(tmp_path: Path) -> None:
    """One sentence for the PDF report and the skills screen: the kind, how often when
    more than once, and its first example; "No mistakes." without one."""
    from tabletop.classroom.skills import SkillRow

    ana, guest = gather_skills(lesson(tmp_path / FILE_NAME), A)
    assert ana.mistake() == "Another operation (2 times): 7 x 8: answered 15, which is 7 + 8"
    assert guest.mistake() == f"Sign: {guest.examples['sign']}"
    assert SkillRow("", "Bo", "Red", "addition", A, checked=3, right=3).mistake() == "No mistakes."


def test_skills_pdf_grid_puts_a_namesakes_long_group_under_the_name(tmp_path: Path) -> None:
    """In the printed skills grid a name that does not fit with what tells it apart goes
    on two lines, "Zoé Müller-Lüdenscheidt" over "(Hedgehogs class 4a)", each at a size
    to read (r19: one line shrunk to 4 pt, unreadable on paper)."""
    from tabletop.classroom.report import write_pdf
    from tabletop.classroom.report_pdf import report_pdf
    from tabletop.classroom.report_rows import gather
    from tabletop.classroom.skills import skills_pages
    from tests.classroom.test_report import one_answer_each, pdf_text

    journal = Journal(tmp_path / FILE_NAME)
    zoe = "Zoé Müller-Lüdenscheidt"
    seats = [(zoe, "S1", "Sunflowers 4b"), (zoe, "S2", "Hedgehogs class 4a")]
    one_answer_each(journal, seats, "x", 15, {"scores": ["1", "2"], "places": [2, 1]})
    pdf = report_pdf(gather(journal, "x"), session="x", skills=skills_pages(journal, "x"))
    write_pdf(pdf, tmp_path / "r.pdf")
    grid = pdf_text(tmp_path / "r.pdf").split("\f")[-2].split("Student", 1)[1]
    lines = [" ".join(line.split()) for line in grid.splitlines()]
    assert any(line.startswith("(Hedgehogs class 4a)") for line in lines), lines
    assert any(line.startswith("(Sunflowers 4b)") for line in lines), lines
    journal.close()


def test_skills_pdf_mistakes_put_a_long_group_under_the_name(tmp_path: Path) -> None:
    """In the printed list of most common mistakes, "Zoé Müller-Lüdenscheidt (Group
    Hedgehogs class 4a)" goes on two lines as in the skills grid (``pdf.text_lines``), the name
    over its "(Group …)", each at a size to read on A4 (r19: one line shrunk to 4.5 pt)."""
    from tabletop.classroom.report import write_pdf
    from tabletop.classroom.report_pdf import report_pdf
    from tabletop.classroom.report_rows import gather
    from tabletop.classroom.skills import skills_pages
    from tests.classroom.test_report import one_answer_each, pdf_text

    journal = Journal(tmp_path / FILE_NAME)
    zoe = "Zoé Müller-Lüdenscheidt"
    seats = [(zoe, "S1", "Sunflowers 4b"), (zoe, "S2", "Hedgehogs class 4a"), ("Mia", "S3", "Red")]
    one_answer_each(journal, seats, "x", 15, {"scores": ["1", "2", "3"], "places": [3, 2, 1]})
    pdf = report_pdf(gather(journal, "x"), session="x", skills=skills_pages(journal, "x"))
    write_pdf(pdf, tmp_path / "r.pdf")
    journal.close()
    listed = pdf_text(tmp_path / "r.pdf").split("\f")[-2].split("the last lessons", 1)[1]
    lines = [" ".join(line.split()) for line in listed.split("Kinds of")[0].splitlines()]
    assert "(Group Hedgehogs class 4a)" in lines, lines
    assert "(Group Sunflowers 4b)" in lines, lines
    assert "Mia (Group Red) Multiplication 0 of 1 right trend 0%" in lines, lines  # it fits
    sizes = last_page_sizes(tmp_path / "r.pdf", "lessons")
    for word in ("Zoé", "Müller-Lüdenscheidt", "(Group", "Hedgehogs", "Sunflowers", "4a)"):
        assert min(size for w, size in sizes if w == word) >= 8.0, (word, sizes)


def test_skills_pdf_breaks_a_namesakes_long_name_before_it_goes_below_8pt(
    tmp_path: Path,
) -> None:
    """A namesake's name wider than its column even at 8 pt takes a further line, broken
    between words or after its hyphen ("Zoé Müller-" over "Lüdenscheidt" over
    "(Hedgehogs class 4a)"), in the skills grid and the list of mistakes alike (r25: the
    grid printed "Zoé Müller-Lüdenscheidt" at 7.5 pt, "Maximilian Alexander von
    Hohenberg" at 4.5 pt)."""
    from tabletop.printables.pdf import new_pdf, text_lines

    zoe, max_ = "Zoé Müller-Lüdenscheidt", "Maximilian Alexander von Hohenberg"
    seats = [(zoe, "S1", "4b"), (zoe, "S2", "Hedgehogs class 4a")]
    seats += [(max_, "S3", "Red"), (max_, "S4", "Blue")]
    _, n = skills_report(tmp_path, seats)
    grid = last_page_sizes(tmp_path / "r.pdf", "Student", "secure:", page=n)
    listed = last_page_sizes(tmp_path / "r.pdf", "lessons", page=n)
    words = {*zoe.split(), *max_.split(), "Müller-", "Lüdenscheidt"}
    for sizes in (grid, listed):
        names = [(w, size) for w, size in sizes if w in words]
        assert len(names) >= 12 and min(size for _, size in names) >= 8.0, names
    assert ("Lüdenscheidt", 10.0) in [(w, round(size, 1)) for w, size in grid], grid
    narrow = new_pdf()
    _, lines = text_lines(narrow, f"{zoe} (Hedgehogs class 4a)", 33, size=10, least=8)
    assert lines == ["Zoé Müller-", "Lüdenscheidt", "(Hedgehogs class 4a)"]
    _, lines = text_lines(narrow, f"{zoe} (4b)", 40, size=10, least=8)
    assert lines == [zoe, "(4b)"]  # it fits at 8 pt
    _, lines = text_lines(narrow, "Group Hedgehogs class 4a", 30, size=9, least=8)
    assert lines == ["Group Hedgehogs", "class 4a"]


def test_skills_pdf_prints_each_name_at_one_size_never_below_8pt(tmp_path: Path) -> None:
    """The skills grid wraps a long name as the report's tables, cards and badges do
    (``pdf.text_lines``, one way): every line of it at one size, 8 pt or more, its "(…)"
    on a line of its own (main: ``tag_lines`` printed "Bartholomew" at 10 pt over
    "Featherstonehaugh-Smythe" shrunk to 6 pt, "Group" over "Sunflowers 4b" at 7 pt)."""
    bart, zoe = "Bartholomew Featherstonehaugh-Smythe", "Zoé Müller-Lüdenscheidt"
    seats = [(bart, "S1", "Sunflowers 4b"), (zoe, "S2", "Hedgehogs class 4a")]
    pages, n = skills_report(tmp_path, [*seats, (zoe, "S3", "Sunflowers 4b")])
    groups = last_page_sizes(tmp_path / "r.pdf", "Group", "Student", page=n)
    grid = last_page_sizes(tmp_path / "r.pdf", "Student", "secure:", page=n)
    for words, drawn in (
        ({"Sunflowers", "4b"}, groups),
        ({"Bartholomew", "Featherstonehaugh-", "Featherstonehaugh-Smythe", "Smythe"}, grid),
        ({"(Hedgehogs", "class", "4a)"}, grid),
    ):
        sizes = {round(size, 1) for w, size in drawn if w in words}
        assert len(sizes) == 1 and min(sizes) >= 8.0, (words, sizes)
    lines = [" ".join(line.split()) for line in pages[n - 1].splitlines()]
    assert [line for line in lines if "(Hedgehogs" in line] == ["(Hedgehogs class 4a) practise"]


def skills_report(tmp_path: Path, seats: list[tuple[str, str, str]]) -> tuple[list[str], int]:
    """``tmp_path / "r.pdf"``: the report of a game of ``seats`` (name, id, group), each of
    whom answered 7 x 8 once (wrongly), with its skills pages; its pages' text, and the
    number of the skills grid's page."""
    from tabletop.classroom.report import write_pdf
    from tabletop.classroom.report_pdf import report_pdf
    from tabletop.classroom.report_rows import gather
    from tabletop.classroom.skills import skills_pages
    from tests.classroom.test_report import one_answer_each, pdf_text

    journal = Journal(tmp_path / FILE_NAME)
    places = list(range(len(seats), 0, -1))
    scores = [str(i + 1) for i in range(len(seats))]
    one_answer_each(journal, seats, "x", 15, {"scores": scores, "places": places})
    pdf = report_pdf(gather(journal, "x"), session="x", skills=skills_pages(journal, "x"))
    write_pdf(pdf, tmp_path / "r.pdf")
    journal.close()
    pages = pdf_text(tmp_path / "r.pdf").split("\f")
    return pages, 1 + next(
        i for i, text in enumerate(pages) if "what each child found hard" in text
    )


def last_page_sizes(
    path: Path, after: str, before: str = "", page: int = 0
) -> list[tuple[str, float]]:
    """The words on ``path``'s last page (or ``page``) below the word ``after`` (and above
    the word ``before``), each with its font size: a word's box is about 1.16 times its
    size."""
    import re
    import subprocess

    from tests.classroom.test_report import pdf_text

    n = str(page or pdf_text(path).count("\f"))
    boxes = subprocess.run(
        ["pdftotext", "-bbox", "-f", n, "-l", n, str(path), "-"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    words = re.findall(r'yMin="([\d.]+)" xMax="[\d.]+" yMax="([\d.]+)">([^<]+)<', boxes)
    top = next(float(y0) for y0, _, word in words if word == after)
    end = next((float(y0) for y0, _, word in words if word == before and float(y0) > top), 1e9)
    return [(w, (float(y1) - float(y0)) / 1.16) for y0, y1, w in words if top < float(y0) < end]


def test_skills_pdf_group_grid_puts_a_long_group_on_two_lines(tmp_path: Path) -> None:
    """The skills grid's rows per group: "Group Hedgehogs class 4a" (no "(…)" to split
    at) goes on two lines between words, "Group Hedgehogs" over "class 4a", at a size to
    read on A4 (r20: one line shrunk to about 6.5 pt)."""
    from tabletop.classroom.report import write_pdf
    from tabletop.classroom.report_pdf import report_pdf
    from tabletop.classroom.report_rows import gather
    from tabletop.classroom.skills import skills_pages
    from tests.classroom.test_report import one_answer_each, pdf_text

    journal = Journal(tmp_path / FILE_NAME)
    seats = [("Ann", "S1", "Hedgehogs class 4a"), ("Bo", "S2", "Red")]
    one_answer_each(journal, seats, "x", 15, {"scores": ["1", "2"], "places": [2, 1]})
    pdf = report_pdf(gather(journal, "x"), session="x", skills=skills_pages(journal, "x"))
    write_pdf(pdf, tmp_path / "r.pdf")
    journal.close()
    grid = pdf_text(tmp_path / "r.pdf").split("\f")[-2].split("Student", 1)[0]
    lines = [" ".join(line.split()) for line in grid.splitlines()]
    assert any(line.startswith("Group Hedgehogs 0 of 1") for line in lines), lines
    assert any(line.startswith("class 4a") for line in lines), lines
    sizes = last_page_sizes(tmp_path / "r.pdf", "hard", "Student")
    for word in ("Hedgehogs", "class", "4a", "Red"):
        assert min(size for w, size in sizes if w == word) >= 8.0, (word, sizes)
