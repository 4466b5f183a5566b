"""The one results scene (issue 21): an engine's result in words, drawn the same way."""

from fractions import Fraction
from typing import Any

import pygame
import pytest

from tabletop.engine.protocol import Result
from tabletop.ui.results import GameResults, outcome_of, title_of, winner_line

NAMES = ["Ana", "Ben", "Cy"]


def result(scores: tuple[int, ...], places: tuple[int, ...]) -> Result:
    return Result(tuple(Fraction(s) for s in scores), places, "the deck ran out")


def test_results_one_winner_is_named() -> None:
    r = result((5, 9, 2), (2, 1, 3))
    assert winner_line(r, NAMES) == "winner: Ben"
    assert title_of(r, NAMES) == "Ben wins!"


def test_results_everybody_first_is_a_draw() -> None:
    r = result((4, 4, 4), (1, 1, 1))
    assert winner_line(r, NAMES) == "winner: draw"
    assert title_of(r, NAMES) == "It's a draw!"


def test_results_shared_first_place_names_both() -> None:
    r = result((4, 4, 1), (1, 1, 3))
    assert winner_line(r, NAMES) == "winner: Ana, Ben"
    assert title_of(r, NAMES) == "Ana and Ben share first place!"


def test_results_solo_winner_is_not_a_draw() -> None:
    r = Result((Fraction(3),), (1,), "done")
    assert winner_line(r, ["Ana"]) == "winner: Ana"


def test_results_rows_in_place_order_with_the_games_words() -> None:
    r = result((5, 9, 2), (2, 1, 3))
    out = outcome_of(r, NAMES, score=lambda s: f"{s} coins")
    assert [(row.name, row.place, row.score) for row in out.rows] == [
        ("Ben", 1, "9 coins"),
        ("Ana", 2, "5 coins"),
        ("Cy", 3, "2 coins"),
    ]
    assert out.reason == "The game ended because the deck ran out."


def test_results_scene_draws_at_both_sizes() -> None:
    from tabletop.ui.harness import offscreen

    for size in ((800, 480), (1280, 720)):
        ctx, window = offscreen(size, 1)
        scene = GameResults(ctx, outcome_of(result((5, 9, 2), (2, 1, 3)), NAMES), again=None)
        ctx.stack.push(scene)
        scene.draw(window)
        assert scene.target("again") is not None and not scene.target("again").enabled
        assert pygame.Rect((0, 0), size).contains(scene.target("home").rect)
    pygame.display.quit()


@pytest.mark.parametrize("size", [(800, 480), (1280, 720)])
def test_results_place_words_stand_clear_of_the_seat_chips(size: tuple[int, int]) -> None:
    """ "2nd" ended 1 px before its seat chip at 800x480 (issue 21: nothing touches)."""
    from tabletop.ui.harness import offscreen

    ctx, window = offscreen(size, 1)
    scene = GameResults(ctx, outcome_of(result((5, 9, 2), (2, 1, 3)), NAMES), again=None)
    ctx.stack.push(scene)
    painter, places, chips = ctx.painter, {}, []
    text, seat_chip = painter.text, painter.seat_chip

    def placed(surface: pygame.Surface, words: str, *args: Any, **kw: Any) -> pygame.Rect:
        places[words] = rect = text(surface, words, *args, **kw)
        return rect

    def chip(surface: pygame.Surface, rect: pygame.Rect, *args: Any, **kw: Any) -> None:
        chips.append(rect)
        seat_chip(surface, rect, *args, **kw)

    painter.text, painter.seat_chip = placed, chip  # type: ignore[method-assign]
    scene.draw(window)
    gap = ctx.metrics.u(6)
    assert len(chips) == 3
    for place, rect in zip(("1st", "2nd", "3rd"), chips, strict=True):
        assert places[place].right + gap <= rect.left, place
    pygame.display.quit()


@pytest.mark.parametrize("size", [(800, 480), (1280, 720)])
def test_results_long_name_is_whole_at_16px_or_more(size: tuple[int, int]) -> None:
    """ "1st Ana-Sofía Nú…  0 points" at 800x480 (a paper-table Mathe-Meister game): a
    name its row has no room for on one line goes on two, never cut, never under 16 px."""
    from tabletop.ui.harness import offscreen

    ctx, window = offscreen(size, 1)
    names = ["Ana-Sofía Núñez", "Player 2", "Player 3", "Player 4", "Bot 5"]
    r = result((0, 10, 0, 0, 20), (1, 2, 3, 3, 1))
    lines = [f"{name}: no stars" for name in names]
    scene = GameResults(ctx, outcome_of(r, names, score=lambda s: f"{s} points", lines=lines))
    ctx.stack.push(scene)
    drawn: list[tuple[str, int]] = []
    render = ctx.painter.fonts.render

    def rendering(words: str, px: int, *args: Any, **kw: Any) -> pygame.Surface:
        drawn.append((words, px))
        return render(words, px, *args, **kw)

    ctx.painter.fonts.render = rendering  # type: ignore[method-assign]
    scene.draw(window)
    name = [(w, px) for w, px in drawn if w.rstrip("…") and w.rstrip("…") in names[0]]
    assert " ".join(words for words, _ in name) == names[0]
    assert min(px for _, px in name) >= 16 * size[1] // 480
    pygame.display.quit()


def test_results_title_and_reason_and_the_other_common_lines_are_the_sentence_tables() -> None:
    """Round 36 (issue 21): the results' title lines and "The game ended because ...",
    the teacher menu's title and the setup form's bot line were English in the app's
    modules; they are the sentence table's (the same words, checked here too)."""
    from tabletop.ui.messages import CHILD_MESSAGES, child_message
    from tabletop.ui.scenes.form import Cards
    from tabletop.ui.scenes.rotation import outcome_line
    from tests.ui.scenery import start_solo
    from tests.ui.test_rotation_screens import rotation_app

    assert title_of(result((5, 9, 2), (2, 1, 3)), NAMES) == child_message("ui.wins", name="Ben")
    assert title_of(result((4, 4, 4), (1, 1, 1)), NAMES) == CHILD_MESSAGES["ui.draw"]
    shared = child_message("ui.share_first", names="Ana and Ben")
    assert title_of(result((4, 4, 1), (1, 1, 3)), NAMES) == shared
    out = outcome_of(result((5, 9, 2), (2, 1, 3)), NAMES)
    assert out.reason == child_message("ui.ended_because", why="the deck ran out")
    assert outcome_line(out) == f"{child_message('ui.wins', name='Ben')} 2nd: Ana. 3rd: Cy."
    bot, real = CHILD_MESSAGES["setup.bot_cards"], CHILD_MESSAGES["setup.real_cards"]
    assert Cards().why_with_bot == f"{bot} {real}"
    assert Cards().why_with_bot.endswith("For real cards, tap the bot and choose a child.")
    app = rotation_app(station=0)[0]  # Mathe-Meister alone, a rotation running: the menu
    auto = start_solo(app)
    auto.tap_dice((3, 5))
    auto.tap("teacher")
    for digit in "2468":
        auto.tap(f"key.{digit}")
    assert auto.top.title == CHILD_MESSAGES["ui.teacher_menu"] == "Teacher: what do you want to do?"


def test_results_a_game_stopped_for_time_is_one_line_from_the_sentence_table() -> None:
    """Round 36 (issue 21): the station screen's line for a game stopped for time (the
    others' places, a child alone's score) was English in rotation.py; it is the table's."""
    from tabletop.ui.messages import child_message
    from tabletop.ui.scenes.rotation import outcome_line

    shared = outcome_of(result((4, 4, 1), (1, 1, 3)), NAMES)
    third = child_message("ui.station_place", place="3rd", name="Cy")
    assert outcome_line(shared) == f"Ana and Ben share first place! {third}" and third == "3rd: Cy."
    alone = outcome_of(result((23,), (1,)), ["Mia"], score=lambda s: f"{s} pts")
    assert outcome_line(alone) == child_message("ui.station_scored", name="Mia", score="23 pts")


@pytest.mark.parametrize("banner", [False, True], ids=["", "banner"])
@pytest.mark.parametrize("size", [(800, 480), (1280, 720)], ids=["800x480", "1280x720"])
def test_mm_results_a_lines_sum_and_points_keep_apart(size, banner: bool) -> None:
    """Mathe-Meister's results sheet: beside each line, its sum ("=186") over its points
    ("+186"); over the rotation banner at 800x480 the sheet is small and their digits ran
    into each other (walk r40). Their ink never meets, at either size, banner or not."""
    from tests.ui.test_rotation_strip import ink, texts_drawn

    texts = texts_drawn("mathe-meister-results", size, banner)
    sums = [d for d in texts if d.words.startswith("=") and d.words[1:].lstrip("-").isdigit()]
    assert len(sums) >= 7, "the complete lines show their sums"
    for total in sums:
        points = [
            d for d in texts if d.rect.top > total.rect.top and d.rect.centerx == total.rect.centerx
        ]
        under = min(points, key=lambda d: d.rect.top)
        gap = ink(under).top - ink(total).bottom
        assert gap >= 1, f"{total.words!r} and {under.words!r} meet ({gap} px) at {size}"
