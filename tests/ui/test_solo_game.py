"""Solo Mathe-Meister on the touchscreen, played by taps (RULINGS MM-1..MM-12)."""

from __future__ import annotations

import json
from pathlib import Path

import pygame
import pytest

from tabletop import cli
from tabletop.games.mathe_meister import (
    LINES,
    ROUNDS,
    MatheMeisterState,
    WriteOperand,
    score_sheet,
)
from tabletop.ui.autoplay import Autoplayer
from tabletop.ui.games.mathe_meister.dialogs import CoinShop, StarPick
from tabletop.ui.games.mathe_meister.solo import MatheMeisterScene
from tabletop.ui.input import Tap
from tabletop.ui.messages import child_message
from tabletop.ui.results import GameResults
from tabletop.ui.scenes.dice import DiceScene
from tests.ui.scenery import DICE, SIZES, make_app, play_rounds, start_solo


def check_input(state: MatheMeisterState, sheet_index: int = 0) -> dict:
    """The ``tabletop check mathe-meister`` JSON of a seat's sheet (DESIGN.md)."""
    sheet = state.sheets[sheet_index]
    layout = state.settings.layout
    circled = [k for k, s in zip(layout.star_powers, sheet.powers) if s in ("circled", "used")]
    used = [k for k, s in zip(layout.star_powers, sheet.powers) if s == "used"]
    return {
        "modes": list(state.settings.modes),
        "grid": list(sheet.grid),
        "stars": sorted(sheet.stars),
        "star_powers": {"circled": circled, "used": used},
    }


def game_of(app) -> MatheMeisterScene:
    return next(s for s in app.stack if isinstance(s, MatheMeisterScene))


@pytest.mark.parametrize(
    "modes", [(), ("twins", "coinless"), ("black_hole", "fear_of_fours")], ids=str
)
def test_solo_end_to_end_score_matches_check(modes, capsys, tmp_path) -> None:
    """A whole game through synthetic taps; the results screen's score is what
    ``tabletop check mathe-meister`` says about the same sheet (MM-11)."""
    app = make_app()
    auto = start_solo(app, modes)
    dice = ((4, 4), (6, 2), (3, 4), (1, 6), (5, 5), (2, 3), (6, 6), (4, 1))
    play_rounds(auto, ROUNDS, dice)
    results = app.stack.top
    assert isinstance(results, GameResults)
    end = results.detail  # the solo game's own end (SoloEnd)
    state = end.match.state
    assert state.finished and state.round == ROUNDS
    sheet_file = tmp_path / "sheet.json"
    sheet_file.write_text(json.dumps(check_input(state)))
    assert cli.main(["check", "mathe-meister", str(sheet_file)]) == 0
    checked = json.loads(capsys.readouterr().out)
    assert checked["total"] == end.score == score_sheet(state.sheets[0], state.settings).total
    assert auto.taps > 8 * 6  # every move went through a tap
    assert end.recorded is not None and end.recorded.score == end.score


@pytest.fixture
def game():
    app = make_app()
    auto = start_solo(app)
    auto.tap_dice(DICE[0])  # 3 and 5
    return app, auto, game_of(app)


def message(game_scene: MatheMeisterScene) -> str:
    return game_scene.message


def test_solo_tap_die_then_box_writes_it(game) -> None:
    _, auto, scene = game
    auto.tap("die1")
    auto.tap("cell.r0c0")
    assert scene.state.sheets[0].at((0, 0)) == "5"
    assert scene.match.history[-1] == WriteOperand(0, (0, 0), 5, 1)


def test_solo_last_die_writes_without_picking_it(game) -> None:
    _, auto, scene = game
    auto.tap("die0")
    auto.tap("cell.r0c0")
    auto.tap("cell.r0c2")  # only die 1 is left: a tap on a white box writes it
    assert scene.state.sheets[0].grid[0][:3] == "3.5"


@pytest.mark.parametrize(
    ("taps", "code"),
    [
        (["cell.r0c0"], "ui.pick_die"),
        (["op.+", "cell.r0c3"], "mm.prefilled_operator"),
        (["die0", "cell.r0c1"], "mm.cell_kind"),
        (["op.+", "cell.r0c0"], "mm.cell_kind"),  # the engine judges the box: a sign
        (["die0", "cell.r0c3"], "mm.prefilled_operator"),  # a number on a printed sign
        (["cell.r1c1"], "ui.coin_cell"),
        (["cell.r0c1"], "ui.pick_operator"),
        (["star.R1"], "mm.star_unfinished"),
    ],
)
def test_solo_refused_moves_are_told_in_childrens_words(game, taps, code) -> None:
    app, auto, scene = game
    before = scene.match.history
    for name in taps:
        auto.tap(name)
    assert message(scene) == child_message(code)
    assert scene.play.tone == "error"
    assert scene.match.history == before
    assert app.ctx.sounds.played[-1] == "wrong"


def test_mm_solo_a_write_clears_the_line_for_the_next_step(game) -> None:
    """MM-8: a refusal (or "tap a box") does not stay on the line once the number or sign
    is written; the line shows the next step, and after the round's fourth write says to
    tap Done, as it is said aloud."""
    from tests.ui.test_speech import listening

    app, auto, scene = game
    voice, _ = listening(app)
    auto.tap("die0")
    auto.tap("cell.r0c1")  # a number in a grey box: refused
    assert scene.play.tone == "error"
    auto.tap("cell.r0c0")
    assert scene.message == "" and scene.status() == child_message("mm.step.write")
    for name in ("cell.r0c2", "op.+", "cell.r0c1", "op.x"):
        auto.tap(name)
    assert scene.message == child_message("mm.said.op_picked")
    auto.tap("cell.r1c0")
    done = child_message("mm.step.done", round=1)
    assert scene.message == "" and scene.status() == done and scene.target("done").enabled
    assert voice.said[-1] == done
    assert all(a != b for a, b in zip(voice.said, voice.said[1:]))


@pytest.mark.parametrize("modes", [(), ("black_hole", "twins")], ids=str)
def test_mm_solo_every_sentence_fits_its_line_at_800x480(modes) -> None:
    """Issue 21, MM-3, MM-13: a whole game by taps; every sentence and step on the line
    under the sheet fits it whole at 16 px or more on the 800x480 panel (a line sum, two
    lines completed at once, the stars the device claims, the last round's powers)."""
    from tests.ui.test_speech import listening

    app = make_app()
    auto = start_solo(app, modes)
    voice, _ = listening(app)
    scene, painter = game_of(app), app.ctx.painter
    play_rounds(auto, ROUNDS - 1)
    auto.tap_dice(DICE[ROUNDS - 1])
    shown: list[str] = []  # what the line said before the last Done (the results follow)
    auto.bot_round(before_done=lambda: shown.extend(voice.said))
    area = scene.message_rect.inflate(-scene.m.u(12), -scene.m.u(6))
    rows = area.height // painter.fonts.font(16).get_linesize()
    said = shown
    assert any("is complete" in text for text in said)
    for text in said:
        assert len(painter.wrap(text, 16, area.width, False)) <= rows, text


def test_solo_done_too_early_is_explained(game) -> None:
    app, _, scene = game
    done = scene.target("done")
    assert not done.enabled
    from tests.ui.scenery import tap_at

    tap_at(app, done.rect.center)
    assert message(scene) == child_message("mm.writes_missing")


def test_solo_a_written_box_is_full(game) -> None:
    _, auto, scene = game
    auto.tap("die0")
    auto.tap("cell.r0c0")
    auto.tap("die1")
    auto.tap("cell.r0c0")
    assert message(scene) == child_message("mm.cell_full")


def test_solo_undo_takes_back_moves_of_this_round_only(game) -> None:
    app, auto, scene = game
    auto.tap("die0")
    auto.tap("cell.r0c0")
    auto.tap("undo")
    assert scene.state.sheets[0].at((0, 0)) == "."
    assert "Taken back" in message(scene)
    assert not scene.target("undo").enabled  # back at the start of the round
    # finish the round, then nothing of it can be undone
    auto.bot_round()
    auto.tap_dice(DICE[1])
    assert not game_of(app).target("undo").enabled


def test_solo_completed_line_shows_sum_and_offers_its_star() -> None:
    """The sum shows at once; MM-13: the star is claimed by the device after the round's
    writes, the child picks its Star Power, and it is circled when the round ends."""
    app = make_app()
    auto = start_solo(app)
    play_rounds(auto, 6)
    auto.tap_dice(DICE[6])
    scene = game_of(app)
    from tabletop.bots.mathe_meister import hint
    from tabletop.ui.autoplay import taps_for

    offered = None
    completed = None
    for action in hint(scene.state, 0).actions():
        for name in taps_for(action, scene.state):
            auto.tap(name, settle=False)
            if "is complete" in message(scene) and completed is None:
                completed = message(scene)
            if isinstance(app.stack.top, StarPick):
                offered = app.stack.top.line
                break
        if offered:
            break
    assert offered is not None and completed is not None
    assert scene.state.turns[0].writes_done  # offered only after the writes (MM-13)
    card = score_sheet(scene.state.sheets[0], scene.settings)
    assert card.line(offered).total is not None  # the sum shows at once
    assert "device claims" in message(scene)  # "...it for you" or "...2 stars for you"
    coins = scene.state.sheets[0].powers_ready(scene.settings.layout, "coin")
    auto.tap("power.coin")
    assert [(c.line, c.power) for c in scene.state.claims if c.line == offered] == [
        (offered, "coin")
    ]
    assert scene.state.sheets[0].powers_ready(scene.settings.layout, "coin") == coins
    assert "next round" in message(scene) or isinstance(app.stack.top, StarPick)
    auto.settle()  # another line of this round's writes: its star, picked as the bot would
    new_coins = sum(1 for c in scene.state.claims if c.power == "coin")
    auto.tap("done")
    assert offered in scene.state.sheets[0].stars
    ready = scene.state.sheets[0].powers_ready(scene.settings.layout, "coin")
    assert ready == coins + new_coins


def test_mm13_star_pick_says_why_and_has_no_not_now() -> None:
    """MM-13 where the child plays: the offer of a star the device claimed explains
    itself ("Why?") and cannot be put off; the round cannot end before the choice."""
    from tabletop.ui.games.mathe_meister.dialogs import AUTO_CLAIM_WHY

    app = make_app()
    auto = start_solo(app, ("black_hole",))
    auto.tap_dice((3, 5))
    for name in ("die0", "cell.r0c0", "die1", "cell.r0c2", "op.+", "cell.r0c1", "op.x"):
        auto.tap(name)
    auto.tap("cell.r0c5")
    auto.tap("done")
    auto.tap_dice((2, 2))
    for name in ("die0", "cell.r0c4", "die1", "cell.r0c6", "op.-", "cell.r1c0", "op.+"):
        auto.tap(name, settle=False)
    assert not isinstance(app.stack.top, StarPick)  # complete, but the writes are not done
    auto.tap("cell.r1c2", settle=False)
    pick = app.stack.top
    assert isinstance(pick, StarPick) and pick.line == "R1" and pick.automatic
    assert pick.target("skip") is None and pick.target("why") is not None
    auto.tap("why", settle=False)
    assert pick.message == AUTO_CLAIM_WHY and app.stack.top is pick
    shot = app.screenshot(Path("/tmp/mm_shots/mm13_star_pick_why.png"))
    assert shot.exists()
    assert "device takes the star for you" in AUTO_CLAIM_WHY
    pick.stack.pop(None)  # the dialog closed without a choice (a back gesture)
    scene = game_of(app)
    done = scene.target("done")  # disabled: the star waits for its Star Power
    assert done is not None and not done.enabled
    app.post(Tap(done.rect.center, app.ctx.clock(), "touch"))
    app.step()
    assert message(scene) == child_message("mm.choose_power")
    assert isinstance(app.stack.top, StarPick)
    auto.tap("power.x")
    auto.tap("done")
    assert scene.state.sheets[0].stars == frozenset({"R1"})


def test_mm_solo_star_pick_in_the_last_round_says_only_a_coin_still_counts() -> None:
    """MM-6, MM-11, MM-13: a star claimed in round 8 circles a Star Power that can never
    be used; the dialog says so, and that a Coin is still worth 10 points."""
    from tests.ui.scenery import star_pick_in

    app = make_app()
    star_pick_in(app, ROUNDS)
    pick = app.stack.top
    assert isinstance(pick, StarPick) and game_of(app).state.round == ROUNDS
    assert "last round" in pick.note and "10 points" in pick.note


@pytest.mark.parametrize("size", [(800, 480), (1280, 720)], ids=str)
def test_mm_solo_star_pick_why_in_the_last_round_agrees_with_its_note(size) -> None:
    """MM-6, MM-11, MM-13: in round 8 the "Why?" of a star the device claimed says, as
    the note under the powers does, that its Star Power cannot be used any more (was:
    "it works from the next round on"), and it is shown whole at 16 px or more."""
    from tests.ui.scenery import star_pick_in

    app = make_app(size)
    star_pick_in(app, ROUNDS)
    pick = app.stack.top
    assert isinstance(pick, StarPick) and pick.automatic
    Autoplayer(app).tap("why", settle=False)
    assert "next round" not in pick.message and "cannot be used" in pick.message
    assert pick.message.startswith("Why? A round goes step by step")
    painter, area = app.ctx.painter, pick.note_rect  # whole, at 16 px or more
    rows = area.height // painter.fonts.font(16).get_linesize()
    assert len(painter.wrap(pick.message, 16, area.width, False)) <= rows
    app.screenshot(Path(f"/tmp/mm_shots/mm13_last_round_why_{size[0]}.png"))


def test_solo_star_pick_a_star_power_with_none_left_is_off_and_says_why() -> None:
    """A Star Power whose every spot is circled cannot be circled again: its button is
    off, a tap on it says why, and the star waits for a power that is left."""
    from dataclasses import replace

    from tabletop.assets import mathe_meister_layout
    from tabletop.games.mathe_meister import MatheMeister, MatheMeisterSettings
    from tests.ui.scenery import Recorder

    layout = mathe_meister_layout()
    state = MatheMeister().new_game(MatheMeisterSettings(layout), 1)
    powers = tuple("circled" if k == "-" else "free" for k in layout.star_powers)
    state = replace(state, sheets=(replace(state.sheets[0], powers=powers),))
    app = make_app()
    under = Recorder(app.ctx)
    app.stack.push(under)
    app.stack.push(StarPick(app.ctx, "R1", state))
    app.step()
    minus, plus = (app.stack.top.target(f"power.{kind}") for kind in "-+")
    assert minus is not None and not minus.enabled and minus.caption == "0 left"
    app.post(Tap(minus.rect.center, app.ctx.clock(), "touch"))
    app.step()
    said = child_message("mm.star.none_left", power="\u2212")
    assert app.stack.top.message == said and under.results == []
    assert plus is not None and plus.enabled
    app.post(Tap(plus.rect.center, app.ctx.clock(), "touch"))
    app.step()
    assert under.results == ["+"]  # the Star Power circled


def test_solo_hint_shows_the_plan_on_the_sheet(game) -> None:
    _, auto, scene = game
    auto.tap("hint")
    assert scene.play.advice is not None
    assert message(scene).startswith("Hint:")
    planned = {w.cell for w in scene.play.advice.operands} | {
        o.cell for o in scene.play.advice.operators
    }
    assert set(scene.look.ghosts) == planned
    auto.tap("die0")
    auto.tap("cell.r0c0")
    assert scene.play.advice is None  # a move makes the hint stale


def test_solo_coin_shop_changes_a_die_and_undo_gives_coins_back(game) -> None:
    app, auto, scene = game
    layout = scene.settings.layout
    auto.tap("shop")
    assert isinstance(app.stack.top, CoinShop)
    auto.tap("d0.+2")
    auto.tap("close")
    assert scene.state.turns[0].dice == (5, 5)
    assert scene.state.sheets[0].coins(layout) == 7
    auto.tap("undo")
    assert scene.state.turns[0].dice == (3, 5)
    assert scene.state.sheets[0].coins(layout) == 9


def test_solo_shop_button_counts_one_coin_as_one_coin(game) -> None:
    """9 coins, 8 spent in the Coin Shop (MM-14): the Shop button's caption says "1 coin"."""
    _, auto, scene = game
    auto.tap("shop")
    for change in ("d0.+3", "d1.-3", "d0.-2"):
        auto.tap(change)
    auto.tap("close")
    assert scene.state.turns[0].dice == (4, 2)
    assert scene.state.sheets[0].coins(scene.settings.layout) == 1
    assert scene.target("shop").caption == "1 coin"


def test_solo_standings_of_a_stopped_game_count_one_point(game, monkeypatch) -> None:
    """A game stopped early whose sheet scores 1 (all coins spent, one column = 1): the
    standings' reason says "1 point"."""
    from types import SimpleNamespace

    import tabletop.ui.games.mathe_meister.play as solo_play

    _, _, scene = game
    monkeypatch.setattr(solo_play, "score_sheet", lambda *_: SimpleNamespace(total=1))
    assert scene.play.standings().reason == "stopped in round 1 with 1 point"


def test_solo_a_line_worth_one_point_says_one_point(game) -> None:
    """MM-4: the words for a completed column whose sum is 1 end "+1 point." (the event
    the engine gives for 2 - 1 - 1 + 1, told as after the move)."""
    from tabletop.engine.protocol import Event

    _, _, scene = game
    data = {"line": "C1", "total": 1, "points": 1, "valid": True}
    scene.play._tell([Event("mm.line_complete", "", 0, data)])
    assert message(scene).startswith("Column 1 is complete: ")
    assert " = 1, +1 point. " in message(scene)


def test_solo_coin_shop_swap_two_numbers(game) -> None:
    _, auto, scene = game
    for name in (
        "die0",
        "cell.r0c0",
        "die1",
        "cell.r2c2",
        "op.+",
        "cell.r0c1",
        "op.-",
        "cell.r1c2",
    ):
        auto.tap(name)
    auto.tap("shop")
    auto.tap("swap.operands")
    auto.tap("cell.r0c0")
    auto.tap("cell.r2c2")
    sheet = scene.state.sheets[0]
    assert (sheet.at((0, 0)), sheet.at((2, 2))) == ("5", "3")
    assert sheet.coins(scene.settings.layout) == 4
    assert message(scene).startswith("You paid 5 coins and swapped the two numbers.")  # round 35


def test_solo_coinless_closes_the_shop() -> None:
    app = make_app()
    auto = start_solo(app, ("coinless",))
    auto.tap_dice(DICE[0])
    scene = game_of(app)
    assert not scene.target("shop").enabled


def test_solo_fear_of_fours_offers_three_or_five() -> None:
    app = make_app()
    auto = start_solo(app, ("fear_of_fours",))
    auto.tap_dice((4, 2))
    scene = game_of(app)
    assert scene.target("die0") is None
    auto.tap("die0.5")
    auto.tap("cell.r0c0")
    assert scene.state.sheets[0].at((0, 0)) == "5"


def test_mm_solo_fear_of_fours_never_says_to_write_a_four() -> None:
    """MM-10, MM-14: under Fear of Fours the round's sentence names a rolled 4 as the
    3 or 5 it may be written as, never "write 4"."""
    app = make_app()
    auto = start_solo(app, ("fear_of_fours",))
    auto.tap_dice((4, 2))
    scene = game_of(app)
    assert scene.message == "Round 1: write 3 or 5 and 2, and two signs."
    assert "write 4" not in scene.message


def test_solo_star_power_operand_replaces_a_die() -> None:
    """MM-6, MM-8: a circled operand Star Power writes its number instead of a die."""
    app = make_app()
    auto = start_solo(app)
    auto.tap_dice((3, 5))
    for name in (
        "die0",
        "cell.r0c0",
        "die1",
        "cell.r0c2",
        "op.+",
        "cell.r0c1",
        "op.x",
        "cell.r0c5",
        "done",
    ):
        auto.tap(name)
    auto.tap_dice((2, 2))
    for name in ("die0", "cell.r0c4", "die1"):
        auto.tap(name)
    auto.tap("cell.r0c6", settle=False)  # Row 1 is complete: its star comes after the
    assert not isinstance(app.stack.top, StarPick)  # round's writes (MM-13)
    # said in a 9-year-old's words (walk 29: "after this round's writes")
    assert message(game_of(app)).endswith(" Its star comes when this round's writing is done.")
    for name in ("op.-", "cell.r1c0", "op.+"):
        auto.tap(name)
    auto.tap("cell.r1c2", settle=False)
    assert isinstance(app.stack.top, StarPick) and app.stack.top.line == "R1"
    auto.tap("power.6")
    auto.tap("done")
    auto.tap_dice((1, 1))
    scene = game_of(app)
    index = scene.settings.layout.star_powers.index("6")
    assert scene.state.sheets[0].powers[index] == "circled"
    auto.tap(f"power.{index}")
    assert message(scene) == child_message("ui.pick_power_die")
    auto.tap("die1")
    auto.tap("cell.r2c0")
    assert scene.state.sheets[0].at((2, 0)) == "6"
    assert scene.state.sheets[0].powers[index] == "used"
    assert scene.state.turns[0].used == (False, True)


def test_solo_round_end_asks_for_the_next_dice(game) -> None:
    app, auto, _ = game
    auto.bot_round()
    assert isinstance(app.stack.top, DiceScene)
    assert "Round 2" in app.stack.top.title
    assert app.ctx.sounds.played.count("round") >= 1


def test_solo_leave_asks_first(game) -> None:
    from tabletop.ui.scenes.home import HomeScene

    app, auto, scene = game
    auto.tap("leave")
    auto.tap("no")
    assert app.stack.top is scene
    auto.tap("leave")
    auto.tap("yes")
    assert isinstance(app.stack.top, HomeScene)


def test_solo_results_show_the_high_score_for_the_modes() -> None:
    from tabletop.highscores import HighScores

    scores = HighScores(":memory:")
    scores.record("mathe-meister", "Player 1", ["freestyle"], 10_000)
    app = make_app(highscores=scores)
    auto = start_solo(app)
    play_rounds(auto, ROUNDS)
    results = app.stack.top
    assert isinstance(results, GameResults)
    end = results.detail
    assert end.recorded.previous_best == 10_000 and not end.recorded.is_new_best
    assert "10000" in results.outcome.lines[-1]
    assert results.outcome.winner_line == f"final score: {end.score}"
    auto.tap("again")
    assert isinstance(app.stack.top, DiceScene)


def test_mm_solo_namesakes_signed_in_read_their_own_best(tmp_path) -> None:
    """Mia Jones of 4b (S2) plays first; Mia Jones of 4a (S1), signed in, finishes her
    first game: that is her first best, not the other Mia's ("Your best score for
    Freestyle: 2034." she read). "Play again" keeps her signed in."""
    from tabletop.classroom.roster import Roster
    from tabletop.highscores import HighScores
    from tabletop.store import Journal

    journal = Journal(tmp_path / "j.sqlite3")
    Roster(journal).import_csv("id,name,group\nS1,Mia Jones,4a\nS2,Mia Jones,4b\n")
    scores = HighScores(":memory:")
    app = make_app(highscores=scores, journal=journal)
    ends, auto = [], None
    for student, dice in (("S2", DICE), ("S1", ((1, 1),) * ROUNDS)):
        if auto is not None:
            auto.tap("home")
        auto = start_solo(app)
        auto.tap(f"student.{student}")
        auto.tap("done")
        play_rounds(auto, ROUNDS, dice)
        assert isinstance(app.stack.top, GameResults)
        ends.append(app.stack.top.detail)
    first, second = ends
    assert second.recorded.previous_best is None and second.recorded.is_new_best
    assert app.stack.top.outcome.lines[-1] == child_message(
        "mm.said.first_high", modes="Freestyle", goal="best"
    )
    assert scores.best("mathe-meister", "Mia Jones", ["freestyle"], student="S2") == first.score
    auto.tap("again")
    assert game_of(app).save.seats[0].student == "S1"


@pytest.mark.parametrize(("roster", "kept"), [("S2,Leo,4a\n", True), ("S2,Mia Jones,4b\n", False)])
def test_mm_solo_signed_in_child_keeps_the_best_her_name_kept(tmp_path, roster, kept) -> None:
    """A high-score file from before scores were kept by id (version 1) holds Mia Jones's
    2034. Mia Jones of 4a signs in: with no other Mia Jones on the class list her first
    game is measured against it ("high", not "your first best"); with a namesake it is
    not known to be hers, so the game is her first best (r22-int: always her first)."""
    from tabletop.classroom.roster import Roster
    from tabletop.highscores import FILE_NAME, HighScores
    from tabletop.store import Journal
    from tests.ui.test_highscores import old_store

    old_store(tmp_path / FILE_NAME)
    scores = HighScores(tmp_path / FILE_NAME)
    journal = Journal(tmp_path / "j.sqlite3")
    Roster(journal).import_csv("id,name,group\nS1,Mia Jones,4a\n" + roster)
    app = make_app(highscores=scores, journal=journal)
    auto = start_solo(app)
    auto.tap("student.S1")
    auto.tap("done")
    play_rounds(auto, ROUNDS, ((1, 1),) * ROUNDS)
    end = app.stack.top.detail
    assert end.score < 2034 and end.recorded.previous_best == (2034 if kept else None)
    said = ("high", {"before": 2034, "best": 2034}) if kept else ("first_high", {})
    assert app.stack.top.outcome.lines[-1] == child_message(
        f"mm.said.{said[0]}", modes="Freestyle", goal="best", **said[1]
    )


@pytest.mark.parametrize("size", SIZES, ids=str)
def test_mm_results_sheet_sums_and_points_touch_no_star(size) -> None:
    """The finished sheet on the results: every line's sum and points (a column's
    "+625" is wider than its box at 16 px) are 16 px or more and touch no Bonus Star
    (was: at 800x480 a column's points ran into the star beside them); the END GAME
    SCORING lines beside the sheet are shown whole, none cut off."""
    app = make_app(size)
    play_rounds(start_solo(app), ROUNDS)
    results, painter = app.stack.top, app.ctx.painter
    assert isinstance(results, GameResults)
    texts: list[tuple[str, int, pygame.Rect]] = []
    stars: list[pygame.Rect] = []
    paragraphs: list[tuple[str, pygame.Rect, int]] = []
    text, star, paragraph = painter.text, painter.star, painter.paragraph

    def spy_text(surface, words, pos, size=None, *args, **kwargs):
        rect = text(surface, words, pos, size, *args, **kwargs)
        texts.append((words, size or 0, rect))
        return rect

    def spy_star(surface, centre, radius, *args, **kwargs):
        stars.append(pygame.Rect(centre[0] - radius, centre[1] - radius, 2 * radius, 2 * radius))
        return star(surface, centre, radius, *args, **kwargs)

    def spy_paragraph(surface, words, rect, size=None, *args, **kwargs):
        paragraphs.append((words, rect, size or 0))
        return paragraph(surface, words, rect, size, *args, **kwargs)

    painter.text, painter.star, painter.paragraph = spy_text, spy_star, spy_paragraph
    app.draw()
    assert len(stars) == len(LINES)
    sums = [(w, s, r) for w, s, r in texts if w[:1] in "=+-\u22120" and w.strip("=+-0")]
    assert any(w == "+625" for w, _, _ in sums)  # a column's points wider than its box
    for words, px, rect in sums:
        if not any(box.collidepoint(rect.center) for box in stars):  # not a star's value
            assert px >= 16 and not any(rect.colliderect(box) for box in stars), words
    [(lines, area, px)] = paragraphs
    height = painter.fonts.font(16).get_linesize()
    assert px >= 16 and len(painter.wrap(lines, 16, area.width, False)) * height <= area.height


def test_solo_every_line_scores_in_the_table() -> None:
    app = make_app()
    auto = start_solo(app)
    play_rounds(auto, ROUNDS)
    card = app.stack.top.detail.card
    assert all(card.line(line).total is not None for line in LINES)


def test_solo_autoplayer_refuses_missing_targets(game) -> None:
    from tabletop.ui.autoplay import AutoplayError

    app, _, _ = game
    with pytest.raises(AutoplayError):
        Autoplayer(app).tap("no-such-target")


def test_mm14_coin_shop_refuses_a_four_under_fear_of_fours_and_says_why() -> None:
    """MM-14 where the child plays: the shop tells before (a note) and after (the
    refusal's reason) that it cannot make a 4; nothing is paid."""
    from tabletop.ui.games.mathe_meister.dialogs import CoinShop

    app = make_app()
    auto = start_solo(app, ("fear_of_fours",))
    auto.tap_dice((3, 2))
    scene = game_of(app)
    auto.tap("shop")
    shop = app.stack.top
    assert isinstance(shop, CoinShop) and not shop.note
    app.screenshot(Path("/tmp/mm_shots/mm14_shop_note.png"))
    coins = scene.state.sheets[0].coins(scene.settings.layout)
    auto.tap("d0.+1")  # 3 + 1 = 4
    assert app.stack.top is shop
    assert shop.note == child_message("mm.fear_of_fours_shop")
    assert message(scene) == child_message("mm.fear_of_fours_shop")
    assert scene.state.turns[0].dice == (3, 2)
    assert scene.state.sheets[0].coins(scene.settings.layout) == coins
    assert app.screenshot(Path("/tmp/mm_shots/mm14_shop_refused.png")).exists()
    auto.tap("d0.+2")  # 5 is fine, and the note goes
    assert scene.state.turns[0].dice == (5, 2) and not shop.note


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_solo_played_to_the_end_with_a_rotation_running(size: tuple[int, int]) -> None:
    """A group at a station rotation's Mathe-Meister station plays a whole solo game by
    taps above the banner's strip: every round's "Done with round N" is on the screen,
    over the strip, and its tap ends the round (a tap on the strip would go nowhere)."""
    from tabletop.ui.scenes.rotation import StationScene
    from tests.ui.test_rotation_screens import rotation_app

    app, _wall, runner = rotation_app(size, station=0)  # Group Red at Mathe-Meister
    strip = runner.strip(app.screen)
    assert strip and app.ctx.metrics.height == app.screen.height - strip
    app.stack.push(StationScene(app.ctx, runner))
    auto = Autoplayer(app)
    auto.tap("start")  # the station's game: Mathe-Meister's form
    auto.tap("start")
    seen: list[str] = []

    def done_is_there() -> None:
        done = auto.game().target("done")
        assert done is not None and done.enabled
        assert done.rect.bottom <= app.ctx.metrics.height  # above the strip
        seen.append(done.label)

    for r in range(ROUNDS):
        auto.tap_dice(DICE[r])
        auto.bot_round(before_done=done_is_there)
    assert seen == [f"Done with round {r}" for r in range(1, ROUNDS + 1)]
    results = app.stack.top
    assert isinstance(results, GameResults) and results.detail.match.state.finished
    assert app.ctx.rotation is runner and runner.banner(app.screen) is not None


def test_mm_solo_rules_button_opens_the_rules_and_comes_back() -> None:
    """Solo play has a Rules button too (every game has one during play; here it is
    the sheet's fourth tool): it opens Mathe-Meister's rules pages (the game had none to
    show), and closing them comes back to the sheet as it was."""
    from tests.ui.test_table import rules_opened_and_closed

    app = make_app()
    auto = start_solo(app)
    auto.tap_dice(DICE[0])
    game = game_of(app)
    moves = game.match.moves
    rules_opened_and_closed(app, auto, game)
    assert game.match.moves == moves


def test_mm_solo_star_pick_and_coin_shop_words_are_the_sentence_tables(table_words) -> None:
    """Round 36 (issue 21): the star dialog's title, line, note and "Why?" (MM-13) and the
    Coin Shop's die lines and swap note (MM-14) were English in the dialogs' code; they
    are the sentence table's."""
    from tabletop.ui.games.mathe_meister.dialogs import CoinShop
    from tabletop.ui.messages import CHILD_MESSAGES
    from tests.ui.scenery import drawn_texts, star_pick_in

    words = {
        "star.title_auto": "Done: {line}, {points}!",
        "star.claimed": "Yours.",
        "star.powers": "Pick one.",
        "shop.die": "D{die} is {value}.",
        "shop.die_written": "D{die} used.",
        "shop.swaps_after": "Swaps later.",
    }
    table_words("mm.", words)
    app = make_app()
    star_pick_in(app, 7)
    pick = app.stack.top
    assert isinstance(pick, StarPick)
    assert (pick.title, pick.text, pick.note) == ("Done: Row 1, 5!", "Yours.", "Pick one.")
    for key in ("why", "why_device", "why_choose", "why_next"):
        assert CHILD_MESSAGES[f"mm.star.{key}"] in pick.why
    app = make_app()
    auto = start_solo(app)
    auto.tap_dice((3, 2))
    for name in ("die0", "cell.r0c0", "shop"):
        auto.tap(name)
    assert isinstance(app.stack.top, CoinShop)
    drawn = [text for text, _ in drawn_texts(app.ctx.painter, lambda: app.step(force_draw=True))]
    assert {"D1 used.", "D2 is 2.", "Swaps later."} <= set(drawn), drawn
