"""Solo Mathe-Meister's controller (``ui/games/mathe_meister/play.py``), without a display
(issue 21): the taps of the solo screen by name, what the screen is asked to open, the
record for the report."""

from __future__ import annotations

import subprocess
import sys

from tabletop.assets import mathe_meister_layout
from tabletop.games.mathe_meister import ROUNDS, EndRound, cell_kind
from tabletop.ui.games.mathe_meister.paper import PaperPlay
from tabletop.ui.games.mathe_meister.play import SoloPlay, new_match, sums_checked
from tabletop.ui.messages import child_message


def solo(seed: int = 5) -> SoloPlay:
    return SoloPlay(
        new_match(mathe_meister_layout(), ("freestyle",), seed), player="Ana", seed=seed
    )


def cells(kind: str) -> list[tuple[int, int]]:
    return [(r, c) for r in range(7) for c in range(7) if cell_kind((r, c)) == kind]


def test_mm_play_has_no_pygame() -> None:
    """The controllers import without pygame (they are tested, and could run, headless)."""
    code = (
        "import sys; import tabletop.ui.games.mathe_meister.play; "
        "import tabletop.ui.games.mathe_meister.paper; "
        "sys.exit(1 if 'pygame' in sys.modules else 0)"
    )
    assert subprocess.run([sys.executable, "-c", code], check=False).returncode == 0


def test_mm_play_asks_for_the_dice_then_names_the_next_step() -> None:
    play = solo()
    play.welcome(resumed=False)
    assert play.asks == [("dice",)]
    assert "Get the dice" in play.next_step()
    play.rolled((3, 5), "tap")
    assert play.state.dice == (3, 5) and play.message.startswith("Round 1: write 3 and 5")
    assert play.dice_words() == "Dice tapped in"
    assert "Tap a die or a sign" in play.next_step()


def test_mm_play_die_then_box_writes_and_undo_takes_it_back() -> None:
    play = solo()
    play.rolled((3, 5), "tap")
    box = next(c for c in cells("operand"))
    play.press("die1")
    assert play.pen == ("die", 1, 5)
    play.press(f"cell.r{box[0]}c{box[1]}")
    assert play.sheet.at(box) == "5" and play.pen is None
    assert play.fresh() == {box}
    play.press("undo")
    assert play.sheet.at(box) != "5" and play.message == "Taken back: the 5."


def test_mm_play_refusals_are_the_childs_sentences_and_change_nothing() -> None:
    """A box tapped with nothing chosen, or before the dice, is refused in words."""
    play = solo()
    op_box = cells("operator")[0]
    play.press(f"cell.r{op_box[0]}c{op_box[1]}")
    assert (play.message, play.tone) == (child_message("mm.roll_first"), "error")
    assert play.sounds == ["wrong"]
    play.explain("done")  # Done tapped before the dice: the dice come first, not the writes
    assert (play.message, play.tone) == (child_message("mm.roll_first"), "error")
    play.rolled((2, 2), "tap")
    before = play.match.history
    play.press("done")  # not enabled yet on screen: the scene would explain instead
    assert play.match.history == before
    play.explain("done")
    assert (play.message, play.tone) == (child_message("mm.writes_missing"), "error")


def test_mm_play_a_whole_round_by_the_hint_then_done_asks_for_the_next_dice() -> None:
    from tabletop.bots.mathe_meister import after_writes, hint

    play = solo()
    play.rolled((4, 6), "virtual")
    for action in hint(play.state, 0).actions():
        assert play.perform(action)
    for action in after_writes(play.state, 0):
        if not isinstance(action, EndRound):
            assert play.perform(action)
    assert play.may_end()
    play.asks.clear()
    play.press("done")
    assert play.state.round == 2 and play.asks == [("dice",)]
    assert not play.in_round() and play.state.round <= ROUNDS
    checked, right = play.checks()[0]
    assert 0 <= right <= checked


def test_mm_play_a_round_done_leaves_no_box_marked_fresh() -> None:
    """The boxes marked as written this round (Undo takes them back) are the round's:
    once Done ends it, last round's writes are not marked while the next dice wait (the
    dice dialog let go with no dice shows the sheet), as after a game carried on there."""
    from tabletop.bots.mathe_meister import after_writes, hint

    play = solo()
    play.rolled((4, 6), "virtual")
    for action in hint(play.state, 0).actions():
        assert play.perform(action)
    assert len(play.fresh()) == 4 and play.round_start == 1
    for action in after_writes(play.state, 0):
        assert play.perform(action)
    assert play.state.round == 2 and play.state.dice is None
    assert play.fresh() == frozenset() and play.round_start == len(play.match.history)
    carried_on = SoloPlay(play.match, player="Ana", seed=5)
    assert carried_on.fresh() == play.fresh() and carried_on.round_start == play.round_start
    play.rolled((1, 2), "tap")
    assert play.round_start == len(play.match.history) and play.fresh() == frozenset()


def test_mm_play_virtual_dice_are_keyed_by_the_seed() -> None:
    assert solo(11).roll() == solo(11).roll()


def test_mm_play_paper_table_rolls_virtual_dice_keyed_by_the_seed_and_round() -> None:
    """The paper table's virtual dice are its controller's: a round's dice are the same
    for the same seed, also at a table carried on from its record after a crash."""

    def table(seed: int) -> PaperPlay:
        match = new_match(mathe_meister_layout(), ("freestyle",), seed)
        return PaperPlay(match, ["Ana", "Ben"], seed=seed)

    play, rolls = table(11), []
    for _ in range(ROUNDS):
        rolls.append(play.roll())
        assert all(1 <= d <= 6 for d in rolls[-1])
        play.rolled(rolls[-1], 1.0)
        play.end_round()
    assert len(set(rolls)) > 1  # keyed by the round: not one roll eight times
    again = table(11)
    again.carry_on({"round": 5, "rolls": [list(r) for r in rolls[:4]]})
    assert again.roll() == rolls[4]


def test_mm_play_paper_table_bot_sheet_follows_the_table_and_counts_its_sums() -> None:
    """A bot seat at the paper table plays its own sheet in the controller: the hint
    bot's writes once the round's dice are out, the rest of its round once the table's
    is over, claiming only the stars it won at the table (MM-5, also for a header from
    before MM-13's automatic claims). Its sums are the table's checks for its seat; the
    device sees none on paper."""
    match = new_match(mathe_meister_layout(), ("freestyle",), 3)  # automatic claims
    play = PaperPlay(match, ["Ana", "Bot"], seed=3, bots=[1])
    bot = play.bots[1]
    assert bot.settings.star_claims == "paper" and play.checks() == [[0, 0], [0, 0]]
    taken = []
    for r in range(ROUNDS):
        play.rolled(play.roll(), float(r))
        play.catch_up()
        assert bot.state.round == r + 1 and bot.state.dice == play.dice
        assert len(bot.history) > 1 + 5 * r  # its dice and writes, every round so far
        if lines := play.bot_lines(1):  # Ana presses first and takes the bot's line
            assert play.board.press(0, r + 0.5) and play.board.choose(lines[0], play.round) == 0
            assert lines[0] not in play.bot_lines(1)
            taken.append(lines[0])
        play.end_round()
        play.catch_up()
    assert bot.state.finished and play.over and taken
    assert not set(taken) & set(bot.state.sheets[0].stars)
    sums = sums_checked(bot.state.sheets[0], play.settings)
    assert play.checks() == [[0, 0], sums] and sums[0] > 0


def test_mathe_meister_child_takes_back_own_writes_until_the_round_is_done() -> None:
    """Issue 21: in solo every box written this round is the child's to take back with
    Undo (no PIN), one at a time, last first; once 'Done with round' is tapped the device
    has acted on the round (its stars, its end) and Undo says so instead."""
    from tabletop.bots.mathe_meister import after_writes, hint

    play = solo()
    play.rolled((4, 6), "virtual")
    start = len(play.match.history)
    actions = list(hint(play.state, 0).actions())
    for action in actions:
        assert play.perform(action)
    written = len(play.match.history)
    assert written > start and play.fresh()
    play.press("undo")
    assert play.message.startswith("Taken back:")
    assert len(play.match.history) == written - 1
    assert play.perform(actions[-1])  # written again
    for action in after_writes(play.state, 0):
        if not isinstance(action, EndRound):
            assert play.perform(action)
    play.press("done")
    assert play.state.round == 2 and play.asks[-1] == ("dice",)  # the screen asks at once
    play.rolled((2, 3), "virtual")
    before = play.match.history
    play.press("undo")
    assert play.match.history == before
    assert (play.message, play.tone) == (child_message("ui.undo_round"), "error")


def test_mm_play_hint_after_the_writes_never_errors() -> None:
    """Once both dice and two signs are written the hint says the round can end (the
    hint bot failed on no dice left: "That is not ready yet."); while a star the device
    claimed waits for its Star Power (MM-13, e.g. taken back with Undo) it says that and
    opens the choice."""
    from tabletop.bots.mathe_meister import hint

    play = solo()
    play.rolled((4, 6), "virtual")
    for action in hint(play.state, 0).actions():
        assert play.perform(action)
    play.press("hint")
    assert (play.message, play.tone) == (child_message("mm.hint.done"), "hint")
    for dice in [(6, 6), (5, 5), (6, 6), (5, 5), (6, 6), (5, 5)]:
        play.press("done")
        play.rolled(dice, "virtual")
        for action in hint(play.state, 0).actions():
            assert play.perform(action)
        if play.unchosen():
            break
    line = play.unchosen()[0]
    play.asks.clear()
    play.press("hint")
    assert (play.message, play.tone) == (child_message("mm.choose_power"), "hint")
    assert play.asks == [("star", line)]


def test_mm_play_paper_table_names_the_first_press_then_the_next_in_line() -> None:
    """MM-5: the press that came first chooses first and is told so; once it chose, the
    next press in line is told it is next (it was not first), with how many more wait;
    in a new round the first press is first again."""
    match = new_match(mathe_meister_layout(), ("freestyle",), 3)
    play = PaperPlay(match, ["Ana", "Ben", "Cleo"], seed=3)
    play.rolled((3, 5), 1.0)
    for seat, at in ((1, 2.0), (0, 1.5), (2, 2.5)):
        play.board.press(seat, at)
    assert play.chooser_words() == "Ana was first: tap your star (2 more waiting)."
    play.board.choose("R1", play.round)
    assert play.chooser_words() == "Ben is next: tap your star (1 more waiting)."
    play.board.choose("R2", play.round)
    assert play.chooser_words() == "Cleo is next: tap your star."
    play.board.cancel()
    play.end_round()
    play.rolled((6, 2), 9.0)
    play.board.press(2, 10.0)
    assert play.chooser_words() == "Cleo was first: tap your star."


def test_mm_play_paper_table_bot_presses_once_a_round_bot_seconds_after_the_dice() -> None:
    """MM-5 at the paper table: a bot seat that completed a line whose star is free
    presses ``BOT_SECONDS`` after the round's dice (at that time on the star board, so
    a child quicker than it comes first), once a round; none before the dice, none
    before its time, none for a bot with no line to claim."""
    from tabletop.ui.games.mathe_meister.paper import BOT_SECONDS

    match = new_match(mathe_meister_layout(), ("freestyle",), 3)
    play = PaperPlay(match, ["Ana", "Bot"], seed=3, bots=[1])
    assert play.bot_presses(100.0) == []  # no dice yet
    for r in range(ROUNDS):
        dice_at = 100.0 * (r + 1)
        play.rolled(play.roll(), dice_at)
        play.catch_up()
        if play.bot_lines(1):
            break
        assert play.bot_presses(dice_at + BOT_SECONDS) == []  # nothing to claim
        play.end_round()
        play.catch_up()
    else:
        raise AssertionError("the bot never completed a line")
    play.board.press(0, dice_at + 1.0)  # Ana, quicker
    assert play.bot_presses(dice_at + BOT_SECONDS - 0.5) == []
    assert play.bot_presses(dice_at + BOT_SECONDS + 3.0) == [1]
    assert [(p.seat, p.at) for p in play.board.waiting] == [
        (0, dice_at + 1.0),
        (1, dice_at + BOT_SECONDS),
    ]
    assert play.bot_presses(dice_at + 2 * BOT_SECONDS) == [] and play.bots_pressed == {1}


def test_mm_play_star_powers_stars_and_the_coin_shop_in_the_tables_words() -> None:
    """Round 35: a Star Power circled (MM-6, MM-13: used from the next round on; in the
    last round a coin kept is 10 points, any other too late), a die the Coin Shop changed
    (MM-14) and the stars a round's end gives (MM-5) put the engine's English on the
    child's line (and in speech); each is now the sentence table's, from its facts."""
    from tabletop.bots.mathe_meister import after_writes, hint
    from tabletop.ui.games.mathe_meister.play import SPOKEN

    play, said = solo(), []
    dice = ((4, 6), (1, 3), (2, 5), (6, 6), (3, 3), (5, 1), (2, 2), (6, 4))
    while not play.state.finished:
        play.rolled(dice[play.state.round - 1], "tap")
        for plan in (lambda: hint(play.state, 0).actions(), lambda: after_writes(play.state, 0)):
            for action in plan():
                assert play.perform(action)
                for event in play.match.last.events:
                    assert event.text not in play.message
                    said += [play.message] * (event.code in SPOKEN)
    assert "Column 3's star gets the coin Star Power. Use it from the next round on." in said
    assert "Row 1's star gets a coin Star Power: 10 points at the end if you keep it." in said
    assert "Row 3's star gets the \u00d7 Star Power. It comes too late to use." in said
    assert "Column 3's Bonus Star is yours: 5 points and the coin Star Power." in said
    assert {"You paid 2 coins: die 1 is now 6.", "You paid 1 coin: die 2 is now 5."} <= set(said)


def test_mm_play_several_stars_a_rounds_end_gives_are_one_line_that_fits() -> None:
    """Round 36 (MM-5): the stars a round's end gives were one sentence each, all on the
    one line (six at the end of a game: 400 characters, cut off at 800x480); several are
    now one sentence of the table, a count and the stars' names."""
    import random

    from tabletop.bots.mathe_meister import after_writes, hint
    from tabletop.engine.words import and_joined
    from tabletop.games.mathe_meister import line_name

    rng, play, seen = random.Random(4), solo(4), 0
    while not play.state.finished:
        play.rolled((rng.randint(1, 6), rng.randint(1, 6)), "tap")
        for plan in (lambda: hint(play.state, 0).actions(), lambda: after_writes(play.state, 0)):
            for action in plan():
                assert play.perform(action)
                won = [e.data["line"] for e in play.match.last.events if e.code == "mm.star_won"]
                if len(won) > 1:
                    lines = and_joined([line_name(line) for line in won])
                    said = child_message("mm.said.stars_won", count=len(won), lines=lines)
                    assert play.message == said and len(said) <= 100, play.message
                    seen = max(seen, len(won))
    assert seen >= 3


def test_mm_play_stars_a_rounds_end_gives_are_said_with_the_round_over() -> None:
    """Done ends the round (MM-5): the Bonus Stars its end gives were said, then at once
    replaced by "Round N is over." (never seen nor heard before the next round's dice);
    now they stay on the line (the next round's step follows them there)."""
    import random

    from tabletop.bots.mathe_meister import after_writes, hint
    from tabletop.games.mathe_meister import EndRound

    rng, play, seen = random.Random(4), solo(4), 0
    while not play.state.finished:
        play.rolled((rng.randint(1, 6), rng.randint(1, 6)), "tap")
        for plan in (lambda: hint(play.state, 0).actions(), lambda: after_writes(play.state, 0)):
            for action in plan():
                if not isinstance(action, EndRound):
                    assert play.perform(action)
                    continue
                done = play.state.round
                play.press("done")
                won = [e for e in play.match.last.events if e.code == "mm.star_won"]
                over = child_message("mm.said.round_over", round=done)
                if won and not play.state.finished:
                    assert "Bonus Star" in play.message and over not in play.message
                    seen += 1
                elif not play.state.finished:
                    assert play.message == over
    assert seen >= 1
