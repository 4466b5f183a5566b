"""Never lose a game of Mathe-Meister (issue 10): the solo sheet and the table of paper
sheets are journaled before each change shows, carried on by a new app from Home's offer
exactly where they were, and stored with their results, seats and the sums the device
checked; `tabletop demo --data` killed at random moments ends as an uninterrupted run."""

from __future__ import annotations

import random
import signal
from pathlib import Path

import pytest

from hardware.buttons import SeatPressed
from tabletop.bots.mathe_meister import hint
from tabletop.games import GAMES
from tabletop.store import FILE_NAME, Journal
from tabletop.ui.autoplay import Autoplayer
from tabletop.ui.games.mathe_meister.dialogs import StarPick
from tabletop.ui.games.mathe_meister.play import sums_checked
from tabletop.ui.games.mathe_meister.solo import MatheMeisterScene
from tabletop.ui.games.mathe_meister.table import BOT_SECONDS, SHEET_LABEL, TableScene
from tabletop.ui.messages import child_message
from tabletop.ui.results import GameResults
from tabletop.ui.scenes.common import Confirm
from tabletop.ui.scenes.dice import DiceScene
from tabletop.ui.scenes.home import HomeScene
from tests.ui.scenery import DICE, make_app, play_rounds, star_pick_in, start_solo


def carry_on(path: Path):
    """A new app on the journal file (the device was unplugged): it offers the game;
    the children carry on with it."""
    app = make_app(journal=Journal(path))
    offer = app.stack.top
    assert isinstance(offer, Confirm) and "Mathe-Meister" in offer.detail
    auto = Autoplayer(app)
    auto.tap("yes")
    return app, auto


# -- solo --------------------------------------------------------------------------------------


def test_mm_solo_every_move_is_journaled_and_a_new_app_carries_on(tmp_path: Path) -> None:
    path = tmp_path / FILE_NAME
    app = make_app(journal=Journal(path))
    auto = start_solo(app, ("twins",))
    play_rounds(auto, 2)
    auto.tap_dice(DICE[2])
    game = auto.game()
    for action in hint(game.state, 0).actions()[:2]:  # halfway through round 3
        auto.play(action)
    # what the screen shows is on disk: a second reader of the file sees the same match
    (saved,) = Journal(path).unfinished("app")
    assert Journal(path).load(saved.id, GAMES).state == game.state
    assert saved.meta["app"]["screen"] == "solo" and saved.meta["checks"] == [
        sums_checked(game.state.sheets[0], game.settings)
    ]
    again, auto2 = carry_on(path)
    resumed = again.stack.top
    assert isinstance(resumed, MatheMeisterScene) and resumed.resumed
    assert resumed.state == game.state and resumed.match.history == game.match.history
    assert resumed.settings.modes == ("twins",) and resumed.play.player == game.play.player
    assert (
        resumed.play.round_start == game.play.round_start
    )  # Undo reaches back to the round's dice
    assert resumed.message.startswith("Welcome back")
    # both play on alike, and "Roll for me" rolls the same virtual dice in both
    for auto_ in (auto, auto2):
        auto_.bot_round()
        auto_.tap("mode.virtual")
        auto_.tap("roll")
    assert resumed.state == game.state and resumed.state.round == 4
    assert resumed.state.dice is not None and resumed.play.dice_source == "virtual"


@pytest.mark.parametrize("mode", ["tap", "virtual"])
def test_mm_solo_resumed_shows_how_its_dice_came(tmp_path: Path, mode: str) -> None:
    """ "Dice tapped in" read just "Dice" after a resume: the journal's dice say how."""
    path = tmp_path / FILE_NAME
    app = make_app(journal=Journal(path))
    auto = start_solo(app)
    auto.tap(f"mode.{mode}")
    if mode == "virtual":
        auto.tap("roll")
    else:
        auto.tap_dice(DICE[0])
    game = auto.game()
    assert game.state.dice is not None and game.play.dice_source == mode
    again, _ = carry_on(path)
    resumed = again.stack.top
    assert isinstance(resumed, MatheMeisterScene) and resumed.state == game.state
    assert resumed.play.dice_words() == game.play.dice_words() != "Dice"


def test_mm_solo_round_caught_before_its_dice_asks_for_them(tmp_path: Path) -> None:
    path = tmp_path / FILE_NAME
    app = make_app(journal=Journal(path))
    play_rounds(start_solo(app), 1)
    assert isinstance(app.stack.top, DiceScene)  # round 2's dice are not in yet
    again, _ = carry_on(path)
    assert isinstance(again.stack.top, DiceScene) and "Round 2" in again.stack.top.title
    game = Autoplayer(again).game()
    assert game.state == Autoplayer(app).game().state
    assert game.play.round_start == len(game.match.history)


def test_mm_solo_welcome_back_says_the_next_step(tmp_path: Path) -> None:
    """A game carried on mid-round says where it is and what to do now: the line is
    the real next step."""
    path = tmp_path / FILE_NAME
    app = make_app(journal=Journal(path))
    auto = start_solo(app)
    auto.tap_dice(DICE[0])
    auto.tap("die0")
    auto.tap("cell.r0c0")
    again, _ = carry_on(path)
    game = Autoplayer(again).game()
    back = "Welcome back, Player 1! This is round 1."
    assert game.message == f"{back} {child_message('mm.step.write')}"


@pytest.mark.parametrize("size", [(800, 480), (1280, 720)])
def test_mm_solo_restart_while_a_star_power_waits_asks_for_it_again(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    """MM-13: a restart while "Pick a Star Power" is open (the device claimed the stars
    as it stopped) opens the dialog again, one star after the other, and the line says
    so; then the round can be ended. It came back with no dialog, "Tap a die or a sign",
    Done greyed and the only way on a tap on the star nothing told of."""
    path = tmp_path / FILE_NAME
    app = make_app(size, journal=Journal(path))
    star_pick_in(app, 7)
    waiting = [c.line for c in Autoplayer(app).game().state.claims if not c.power]
    assert waiting
    again = make_app(size, journal=Journal(path))
    auto = Autoplayer(again)
    auto.tap("yes", settle=False)
    game = auto.game()
    assert game.message.endswith(child_message("mm.choose_power"))
    for line in waiting:
        pick = again.stack.top
        assert isinstance(pick, StarPick) and pick.line == line
        auto.tap("power.coin", settle=False)
    assert again.stack.top is game and not game.play.unchosen()
    assert game.target("done").enabled


def test_mm_solo_new_game_or_leaving_keeps_the_old_one_as_abandoned(tmp_path: Path) -> None:
    path = tmp_path / FILE_NAME
    app = make_app(journal=Journal(path))
    play_rounds(start_solo(app), 1)
    again = make_app(journal=Journal(path))
    Autoplayer(again).tap("no")
    Autoplayer(again).tap("yes")  # asked once more: the game has moves (round 28)
    assert isinstance(again.stack.top, HomeScene)
    (old,) = Journal(path).matches()
    assert old.status == "abandoned" and old.actions > 0
    auto = start_solo(again)
    play_rounds(auto, 2)
    auto.tap_dice(DICE[2])
    score = auto.game().standings().scores[0]
    auto.tap("leave")
    auto.tap("yes")
    left = Journal(path).matches()[0]
    assert left.status == "abandoned" and left.reason == "abandoned"
    assert left.result is not None and left.result["scores"] == [str(score)]


def test_mm_solo_finished_game_is_stored_with_its_result_seats_and_sums(tmp_path: Path) -> None:
    app = make_app()
    auto = start_solo(app)
    game = auto.game()
    play_rounds(auto, 8)
    assert isinstance(app.stack.top, GameResults)
    journal = app.ctx.journal
    (saved,) = journal.matches()
    result = game.match.result()
    assert result is not None and game.standings() == result
    assert saved.status == "finished" and saved.reason == "end"
    assert saved.result == {
        "scores": [str(app.stack.top.detail.score)],
        "places": [1],
        "winners": [0],
        "why": result.reason,
        "reason": "end",
    }
    assert [s.name for s in journal.seats(saved.id)] == [game.play.player]
    # the sums checked: each completed line, right when its parity is the line's
    checked, right = saved.meta["checks"][0]
    card_lines = [ls for ls in app.stack.top.detail.card.lines if ls.complete]
    assert checked == len(card_lines) == 8
    wanted = {"R": 0, "C": 1}  # rows want even sums, columns odd (MM-4)
    assert right == sum(ls.total % 2 == wanted[ls.line[0]] and ls.valid for ls in card_lines)


def test_mm_solo_undo_takes_back_a_checked_sum(tmp_path: Path) -> None:
    from tabletop.bots.mathe_meister import after_writes

    app = make_app()
    auto = start_solo(app)
    game = auto.game()
    for r in range(8):  # the bot plays until a round's writes complete a line
        auto.tap_dice(DICE[r])
        before = list(game.save.checks[0])
        for action in hint(game.state, 0).actions():
            auto.play(action)
        if game.save.checks[0][0] > before[0]:
            break
        for action in after_writes(game.state, 0):
            auto.play(action)
    else:
        pytest.fail("no line was completed")
    while len(game.match.history) > game.play.round_start:
        auto.tap("undo")
    assert game.save.checks[0] == before
    assert app.ctx.journal.matches()[0].meta["checks"] == [before]


def test_mm_solo_answers_at_every_save_follow_the_match_and_a_replay(tmp_path: Path) -> None:
    """Issue 24's line sums, worked out of the whole match at every save since issue 21
    round 4 (:func:`line_answers`): at every save of a whole game (rounds taken back by
    Undo and played again) the journal is given one answer per completed line, in the
    order the lines were completed, none from a move an undo took back; a match replayed
    from the journal finds the same, and the journal holds them."""
    from tabletop.bots.mathe_meister import after_writes
    from tabletop.games.mathe_meister import LINES
    from tabletop.ui.games.mathe_meister.play import SoloPlay

    path = tmp_path / FILE_NAME
    app = make_app(journal=Journal(path))
    auto = start_solo(app)
    game = auto.game()
    play, save, saves, undone = game.play, game.save, [0], 0
    journal_answers = save.answers_from_match

    def checking(found: list) -> None:  # type: ignore[type-arg]
        steps = [step for step, *_ in found]
        assert steps == sorted(steps) and len(found) <= len(LINES)  # a line answers once
        assert all(1 <= step <= len(play.match.steps) for step in steps)  # none undone
        saves[0] += 1
        journal_answers(found)

    save.answers_from_match = checking  # type: ignore[method-assign]
    for r in range(8):
        auto.tap_dice(DICE[r])
        before = len(play.answers())
        for action in hint(game.state, 0).actions():
            auto.play(action)
        if len(play.answers()) > before and undone < 3:
            while len(play.match.history) > play.round_start:
                auto.tap("undo")  # the round's lines go with its writes
            assert len(play.answers()) == before
            undone += 1
            for action in hint(game.state, 0).actions():
                auto.play(action)
        for action in after_writes(game.state, 0):
            auto.play(action)
    answers = play.answers()
    assert undone == 3 and saves[0] > 50 and len(answers) >= 6
    assert isinstance(app.stack.top, GameResults)
    (saved,) = Journal(path).matches()
    replayed = SoloPlay(Journal(path).load(saved.id, GAMES), player="Ana", seed=play.match.seed)
    assert replayed.answers() == answers
    journaled = [(a.step, a.seat, a.question["numbers"]) for a in Journal(path).answers(saved.id)]
    assert journaled == [(n, 0, [str(v) for v in q.numbers]) for n, _, _, q, _ in answers]


# -- the table of paper sheets -------------------------------------------------------------------


def table(path: Path, seats: int = 3, bots: tuple[int, ...] = (2,)):
    app = make_app(journal=Journal(path))
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


def test_mm_journal_app_record_keys_are_the_same_for_solo_and_table(tmp_path: Path) -> None:
    """Issue 10: both screens start their journal row on the one Mathe-Meister base with
    the keys a game journaled before reads back (``screen``, the solo ``player``,
    ``dice_mode``, ``seed``: the scene's own), the paper table's record beside them."""
    solo_app = make_app(journal=Journal(tmp_path / "solo.db"))
    game = start_solo(solo_app).game()
    (saved,) = Journal(tmp_path / "solo.db").unfinished("app")
    assert list(saved.meta["app"]) == ["screen", "player", "dice_mode", "seed"]
    assert saved.meta["app"] == {
        "screen": "solo",
        "player": game.play.player,
        "dice_mode": game.dice_mode,
        "seed": game.match.seed,
    }
    *_, scene = table(tmp_path / "table.db")
    (saved,) = Journal(tmp_path / "table.db").unfinished("app")
    assert list(saved.meta["app"])[:3] == ["screen", "dice_mode", "seed"]
    assert saved.meta["app"]["table"] == scene.play.record()
    assert (saved.meta["app"]["screen"], saved.meta["app"]["seed"]) == ("table", scene.match.seed)


def press(app, seat: int) -> None:
    app.seat_queue.put(SeatPressed(seat, app.ctx.clock()))
    app.step()


def to_a_round_the_bot_can_claim(app, auto, scene) -> None:
    """Rounds go by (seat 1 claims a star in round 1) until the bot has a line."""
    press(app, 0)
    auto.tap("star.R1")
    for r in range(1, 8):
        if scene.play.bot_lines(2):
            return
        auto.tap("next")
        auto.tap_dice(DICE[r])
    pytest.fail("the bot never completed a line")


def test_mm_table_is_journaled_and_a_new_app_carries_on(tmp_path: Path) -> None:
    path = tmp_path / FILE_NAME
    app, auto, scene = table(path)
    to_a_round_the_bot_can_claim(app, auto, scene)
    app.ctx.clock.advance(5.0)
    press(app, 1)  # seat 2 is choosing its star when the power goes
    assert 2 not in scene.play.bots_pressed and scene.play.board.current.seat == 1
    waits = scene.play.dice_at + BOT_SECONDS - scene.save.elapsed()  # till the bot presses
    rows = Journal(path).matches()
    assert {r.label for r in rows} == {"app", SHEET_LABEL} and len(rows) == 2
    again, auto2 = carry_on(path)
    resumed = again.stack.top
    assert isinstance(resumed, TableScene) and resumed.resumed
    assert (resumed.play.round, resumed.play.dice, resumed.play.rolls) == (
        scene.play.round,
        scene.play.dice,
        scene.play.rolls,
    )
    assert resumed.play.board.owners == scene.play.board.owners
    assert [(c.round, c.line, c.seat) for c in resumed.play.board.claims] == [
        (c.round, c.line, c.seat) for c in scene.play.board.claims
    ]
    assert [p.seat for p in resumed.play.board.waiting] == [1]
    assert again.ctx.lamps.lit == {1}  # seat 2's LED is lit again
    assert resumed.play.names == scene.play.names and list(resumed.play.bots) == [2]
    seats = [(s.name, s.bot) for s in scene.save.seats]
    assert [(s.name, s.bot) for s in resumed.save.seats] == seats and seats[2][1] == "hint"
    assert resumed.play.bots[2].history == scene.play.bots[2].history
    # the bot presses as long after the dice as it would have
    assert 2 not in resumed.play.bots_pressed and resumed.play.bot_lines(2)
    assert resumed.play.dice_at + BOT_SECONDS - resumed.save.elapsed() == pytest.approx(waits)
    assert resumed.message.startswith("Welcome back!")
    # both carry on alike: seat 2 chooses, the bot presses and takes its line, next round
    bot_lines = scene.play.bot_lines(2)
    line = next(x for x in scene.play.board.free_lines() if x not in bot_lines)
    for a, au in ((app, auto), (again, auto2)):
        au.tap(f"star.{line}")
        a.ctx.clock.advance(BOT_SECONDS)
        a.step()
        au.tap("next")
        au.tap("mode.virtual")
        au.tap("roll")
    owners = resumed.play.board.owners
    assert owners == scene.play.board.owners and 2 in owners.values()
    assert resumed.play.bots[2].history == scene.play.bots[2].history
    assert resumed.play.dice == scene.play.dice  # virtual dice keyed by the seed and the round


@pytest.mark.parametrize("lost", [1, 3])
def test_mm_table_bot_sheet_behind_the_table_catches_up_exactly(tmp_path: Path, lost: int) -> None:
    """The power went after the table's state was written and before the bot's sheet
    followed it: the bot's sheet catches up to what it would have been."""
    path = tmp_path / FILE_NAME
    app, auto, scene = table(path)
    to_a_round_the_bot_can_claim(app, auto, scene)
    app.ctx.clock.advance(BOT_SECONDS + 1)
    app.step()  # the bot claims its star
    auto.tap("next")  # the bot's sheet: claims, maybe a swap, the end of its round
    journal = Journal(path)
    sheet = next(s for s in journal.unfinished(SHEET_LABEL))
    kept = sheet.actions - lost
    journal.db.execute("DELETE FROM actions WHERE match_id = ? AND n > ?", (sheet.id, kept))
    again, _ = carry_on(path)
    resumed = again.stack.top
    assert isinstance(resumed, DiceScene)
    table_again = next(s for s in again.stack if isinstance(s, TableScene))
    assert table_again.play.bots[2].history == scene.play.bots[2].history
    assert Journal(path).load(sheet.id, GAMES).history == scene.play.bots[2].history


def test_mm_table_finished_is_stored_once_for_the_report(tmp_path: Path) -> None:
    from tabletop.classroom.report_rows import gather, group_totals

    path = tmp_path / FILE_NAME
    app, auto, scene = table(path)
    press(app, 0)
    auto.tap("star.R1")
    for r in range(8):
        if r:
            auto.tap_dice(DICE[r])
        app.ctx.clock.advance(BOT_SECONDS + 1)
        app.step()
        auto.tap("next")
    assert isinstance(app.stack.top, GameResults)
    journal = Journal(path)
    lead = next(s for s in journal.matches() if s.label == "app")
    sheet = next(s for s in journal.matches() if s.label == SHEET_LABEL)
    assert lead.status == sheet.status == "finished"
    points = [scene.play.board.points_of(s) for s in range(3)]
    assert lead.result is not None and lead.result["scores"] == [str(p) for p in points]
    assert lead.result["winners"] == [s for s in range(3) if points[s] == max(points)]
    assert [s.bot for s in journal.seats(lead.id)] == [None, None, "hint"]
    bot = scene.play.bots[2]
    assert bot.state.finished and sheet.result is not None
    assert sheet.result["scores"] == [str(bot.result().scores[0])]
    # sums: the device sees none on paper, all of the bot's
    assert lead.meta["checks"] == [[0, 0], [0, 0], sums_checked(bot.state.sheets[0], bot.settings)]
    # the report counts the table once, with both children
    rows = gather(journal)
    assert sorted(r.name for r in rows) == ["Player 1", "Player 2"]
    assert [t.games for t in group_totals(rows)] == [1]


def test_mm_table_leave_keeps_it_as_abandoned_with_its_sheets(tmp_path: Path) -> None:
    path = tmp_path / FILE_NAME
    app, auto, _ = table(path)
    auto.tap("leave")
    auto.tap("yes")
    assert isinstance(app.stack.top, HomeScene)
    assert {s.status for s in Journal(path).matches()} == {"abandoned"}
    # a table whose row was abandoned from Home leaves no bot sheet playing either
    table(path)
    again = make_app(journal=Journal(path))
    Autoplayer(again).tap("no")
    table(path)  # a new table starts
    playing = Journal(path).unfinished()
    assert [s.label for s in playing] == [SHEET_LABEL, "app"]


# -- the demo, killed -------------------------------------------------------------------------


@pytest.mark.slow
def test_mm_demo_killed_at_random_moments_ends_as_an_uninterrupted_run(tmp_path: Path) -> None:
    from tests.test_demo_resume import demo, run

    seed = 3
    command = demo("mathe-meister", seed, tmp_path / "once", tmp_path / "shots")
    code, whole = run(command)
    assert code == 0, whole
    printed = len(whole.splitlines())
    final = whole.strip().splitlines()[-1]
    assert final.startswith("final score: ")
    rng = random.Random(f"mathe-meister:{seed}")
    data = tmp_path / "killed"
    kills = resumed = 0
    for _ in range(8):
        kill = (rng.randrange(3, printed - 1), rng.uniform(0.0, 0.004))
        code, out = run(demo("mathe-meister", seed, data, tmp_path / "shots"), kill)
        resumed += "Carrying on" in out
        if code == 0:
            break
        assert code == -signal.SIGKILL, out
        kills += 1
        journal = Journal(data / FILE_NAME)
        for saved in journal.unfinished():
            journal.load(saved.id, GAMES)
        journal.close()
    else:
        code, out = run(demo("mathe-meister", seed, data, tmp_path / "shots"))
        resumed += "Carrying on" in out
    assert code == 0, out
    assert out.strip().splitlines()[-1] == final
    assert kills >= 3 and resumed >= 3, (kills, resumed)


def test_mm_demo_carries_on_from_any_step_of_its_journal(tmp_path: Path) -> None:
    """What a kill leaves is a journal cut after some action: the demo carries on from
    there (a round caught halfway is taken back to its dice and played again) and ends
    with the same game, move for move."""
    import io

    from tabletop.games.mathe_meister import Roll
    from tabletop.ui.games.mathe_meister.demo import run_demo

    data = tmp_path / "data"
    whole = run_demo(seed=3, out_dir=tmp_path / "shots", out=io.StringIO(), data=data)
    assert whole.startswith("final score: ")  # the demo's closing line
    journal = Journal(data / FILE_NAME)
    (saved,) = journal.matches()
    history = journal.load(saved.id, GAMES).history
    rolls = [i for i, action in enumerate(history) if isinstance(action, Roll)]
    cuts = {
        "after round 3's dice": rolls[2] + 1,
        "halfway through round 5": rolls[4] + 3,
        "before round 7's dice": rolls[6],
        "after the last move": len(history),
    }
    for where, cut in cuts.items():
        journal.db.execute("DELETE FROM actions WHERE match_id = ? AND n > ?", (saved.id, cut))
        journal.db.execute(
            "UPDATE matches SET status = 'playing', result = NULL, reason = NULL WHERE id = ?",
            (saved.id,),
        )
        text = io.StringIO()
        assert run_demo(seed=3, out_dir=tmp_path / "shots", out=text, data=data) == whole, where
        told = text.getvalue()
        assert "Carrying on" in told and told.strip().endswith(whole), where
        assert ("Undo: 2 moves" in told) == (where == "halfway through round 5"), where
        (again,) = journal.matches()
        assert again.status == "finished", where
        # the same moves (a star claimed at another moment of the clock is the same claim)
        assert untimed(journal.load(saved.id, GAMES).history) == untimed(history), where


def test_mm_demo_files_its_game_under_the_seeds_session(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """As the card games' demos do: ``tabletop demo --game mathe-meister --seed 7 --data
    DIR`` journals its game in the session "demo 7", which ``tabletop report`` names; a
    demo game journaled before, with no session, still carries on to the same end."""
    import io

    from tabletop import cli
    from tabletop.ui.games.mathe_meister.demo import run_demo

    data = tmp_path / "data"
    whole = run_demo(seed=7, out_dir=tmp_path / "shots", out=io.StringIO(), data=data, child=True)
    journal = Journal(data / FILE_NAME)
    (saved,) = journal.matches()
    assert saved.session == "demo 7"
    capsys.readouterr()
    assert cli.main(["report", "--data", str(data), "--csv", str(tmp_path / "r.csv")]) == 0
    assert "demo 7" in capsys.readouterr().out
    rows = (tmp_path / "r.csv").read_text(encoding="utf-8-sig").splitlines()
    assert rows[1].startswith("demo 7,guests,,Player 1,mathe-meister,1,")
    # the journal of an older demo: no session, killed halfway through its game
    cut = len(journal.load(saved.id, GAMES).history) // 2
    journal.db.execute("DELETE FROM actions WHERE match_id = ? AND n > ?", (saved.id, cut))
    journal.db.execute(
        "UPDATE matches SET status = 'playing', result = NULL, reason = NULL, session = ''"
        " WHERE id = ?",
        (saved.id,),
    )
    text = io.StringIO()
    again = run_demo(seed=7, out_dir=tmp_path / "shots", out=text, data=data, child=True)
    assert again == whole and "Carrying on" in text.getvalue()
    (older,) = journal.matches()
    assert older.status == "finished" and older.session == ""
    journal.close()


def untimed(history):
    from dataclasses import replace

    from tabletop.games.mathe_meister import ClaimStar

    return [replace(a, at=0) if isinstance(a, ClaimStar) else a for a in history]
