"""M.E.C.S. in the app: card pages, the table by camera and by touch, hacks and errors,
the teacher's undo, screenshots at both layouts, and whole games against the engine
(RULINGS MECS-2..MECS-7)."""

from __future__ import annotations

import io
import re
from fractions import Fraction
from pathlib import Path

import pygame
import pytest

from hardware.buttons import SeatPressed
from tabletop.classroom.roster import Roster
from tabletop.engine.errors import TabletopError
from tabletop.games.mecs import DECKS, Mecs, Observe, Refill, Trade, evaluate
from tabletop.games.mecs_equation import PLAY_CARDS
from tabletop.store import Journal
from tabletop.ui.autoplay import Autoplayer
from tabletop.ui.games import game_app
from tabletop.ui.games.mecs.cards import BLUE, RED, CardPageScene, card_pages, colour_of
from tabletop.ui.games.mecs.demo import Setup, play_demo, run_demo
from tabletop.ui.games.mecs.editor import AreaEditor
from tabletop.ui.games.mecs.table import BOT_SECONDS, MecsTable, coin_words
from tabletop.ui.harness import DemoRun
from tabletop.ui.input import CardSeen, CardsSeen, Tap
from tabletop.ui.results import GameResults
from tabletop.ui.scenes.form import FormScene
from tabletop.ui.scenes.pin import PinPad
from tabletop.ui.scenes.rules import ChoiceGrid, RulesScene
from tests.card import READ_ONLY, simulated_card
from tests.ui.game_scenery import form_seats
from tests.ui.scenery import SIZES, drawn_texts, is_undo_pad, make_app
from tests.ui.test_namesakes import CLASS, open_table

SHOTS = Path("/tmp/mecs_shots")
CJK = re.compile(r"[\u4e00-\u9fff]")


def seen(seat: int | None, *codes: str, area: str | None = "equation") -> CardsSeen:
    cards = tuple(CardSeen(c, seat, area) for c in codes)
    return CardsSeen(seat, area, cards, 1000.0)


def start(app, *, seats: int = 2, bots: tuple[int, ...] = (), cards: str = "virtual", **opts):
    """Home -> M.E.C.S. setup -> the table, by taps."""
    auto = Autoplayer(app)
    auto.tap("game.mecs")
    setup = app.stack.top
    assert isinstance(setup, FormScene)
    form_seats(auto, seats, bots)
    auto.tap("cards.real" if cards == "table" else "cards.virtual")
    for key, value in opts.items():
        if setup.options.get(key) != value:  # challenge has chosen the advanced deck
            auto.tap(f"{key}.{value}")
    auto.tap("start")
    table = app.stack.top
    assert isinstance(table, MecsTable)
    return auto, table


def post(app, event) -> None:
    app.post(event)
    app.step()


def shot(app, name: str) -> Path:
    size = app.ctx.metrics.size
    return app.screenshot(SHOTS / f"{name}_{size[0]}x{size[1]}.png")


# -- card pages ------------------------------------------------------------------------------


def test_mecs_every_card_of_both_decks_has_a_complete_page() -> None:
    """A page with a missing field is left out by :func:`card_pages`: every distinct card
    of either deck has one (the beginners' and the advanced deck)."""
    seen = {card for deck in DECKS.values() for card, _ in deck}
    cards = [c for c in PLAY_CARDS if c in seen]
    assert len(cards) == 21  # 10 digits, + - × ÷ ( ) =, and the 4 green cards (MECS-1)
    pages = card_pages()
    assert [c for c in cards if c not in pages] == []
    for code in cards:
        page = pages[code]
        for text in (page.name, page.tip, page.history, page.fun_fact):
            assert 2 < len(text) < 240, (code, text)
        assert set(page.names) >= {"en", "es", "fr", "de", "zh", "zh_pinyin"}
        assert CJK.search(page.names["zh"]), (code, page.names["zh"])
        assert not CJK.search(page.names["zh_pinyin"])
    assert "1557" in pages["EQ"].history and "Recorde" in pages["EQ"].history
    assert "Brahmagupta" in pages["0"].history
    assert "1489" in pages["+"].history and "Widmann" in pages["-"].history


def test_mecs_coin_words_explain_mecs3() -> None:
    assert coin_words(["9", "X", "7", "EQ", "6", "3"]) == "4 numbers × 1 + 2 signs × 1 = 6 coins"
    cards = ["LP", "2", "+", "3", "RP", "X", "4", "EQ", "2", "0"]
    assert coin_words(cards).endswith(f"= {evaluate(cards).coins} coins")


def test_mecs_a_card_held_up_alone_opens_its_page() -> None:
    app = make_app()
    auto, table = start(app, bots=(1,))
    post(app, seen(None, "MT1:MECS:SQRT", area=None))
    page = app.stack.top
    assert isinstance(page, CardPageScene) and page.code == "SQRT"
    auto.tap("page.names")
    assert page.section == "names"
    auto.tap("close")
    assert app.stack.top is table


# -- screenshots -------------------------------------------------------------------------------


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_mecs_screenshots_of_the_main_states(size: tuple[int, int]) -> None:
    """Every main screen drawn headless; the PNGs in /tmp/mecs_shots are for looking at."""
    app = make_app(size)
    auto = Autoplayer(app)
    auto.tap("game.mecs")
    auto.tap("seat.2")
    auto.tap("choice.child")
    auto.tap("mode.challenge")
    shots = [shot(app, "setup")]
    auto.tap("start")
    table = app.stack.top
    assert isinstance(table, MecsTable)
    assert table.play.state.objective is not None  # challenge mode: the objective is shown
    shots.append(shot(app, "table_challenge"))
    # the editor on the child's own area
    seat = table.play.pending_seat()
    auto.tap(f"area.{seat}")
    assert isinstance(app.stack.top, AreaEditor)
    auto.tap("gap.0")
    auto.tap("choice.0")
    shots.append(shot(app, "editor"))
    auto.tap("cancel")
    auto.tap("cards")
    auto.tap("choice.7")
    auto.tap("page.history")
    shots.append(shot(app, "card_page_history"))
    auto.tap("page.names")
    shots.append(shot(app, "card_page_names"))
    auto.tap("close")
    auto.tap("rules")
    assert isinstance(app.stack.top, RulesScene)
    shots.append(shot(app, "rules"))
    auto.tap("rules.prev")
    auto.tap("leave")
    auto.tap("yes")
    _, camera_table = start(app, seats=4, cards="table")
    assert camera_table.target("reveal.5") is not None  # who starts: show a number card
    shots.append(shot(app, "table_camera_reveal"))
    for img in shots:
        surface = pygame.image.load(str(img))
        assert surface.get_size() == size
        colours = {
            surface.get_at((x, y))[:3] for x in range(0, size[0], 37) for y in range(0, size[1], 23)
        }
        assert len(colours) > 4, f"{img.name} looks blank"


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_mecs_screenshots_of_a_whole_game(size: tuple[int, int], tmp_path: Path) -> None:
    run = DemoRun("mecs", seed=11, out_dir=tmp_path, out=io.StringIO(), size=size, data=None)
    driver = play_demo(run, Setup(seats=4))
    assert driver.line.startswith("winner: ")
    assert isinstance(run.top, GameResults)  # the one results scene
    names = sorted(p.name for p in tmp_path.glob("*.png"))
    assert {"final.png", "start.png", "card_page.png"} <= set(names)
    assert any("complete" in n for n in names)
    SHOTS.mkdir(parents=True, exist_ok=True)
    for n in names:
        (SHOTS / f"game_{size[0]}_{n}").write_bytes((tmp_path / n).read_bytes())
    run.end(driver.line)


# -- whole games -------------------------------------------------------------------------------


def test_mecs_scripted_game_through_events_matches_the_engine(tmp_path: Path) -> None:
    """Bots' cards reach the game as camera readings, refills and ends of turns as taps;
    the same actions through the bare engine give the same result (MECS-6)."""
    out = io.StringIO()
    run = DemoRun("mecs", seed=5, out_dir=tmp_path, out=out, data=None)
    driver = play_demo(run, Setup(seats=3))
    line = run.end(driver.line)
    table = driver.table
    history = table.match.history
    assert any(isinstance(a, Observe) for a in history)  # the camera path was used
    assert any(isinstance(a, Refill) for a in history)  # and the buttons
    game = Mecs()
    state = game.new_game(table.play.settings, len(table.play.seats))
    for action in history:
        state, _ = game.apply(state, action)
    engine = game.result(state)
    assert engine is not None and engine == game.result(table.play.state)
    winners = ", ".join(table.play.name(s) for s in sorted(engine.winners))
    assert line == f"winner: {winners}"
    assert max(engine.scores) >= 15 or "ran out" in engine.reason
    assert out.getvalue().rstrip().splitlines()[-1] == line
    assert "Turn 1:" in out.getvalue()


def test_mecs_run_demo_ends_with_a_winner_line(tmp_path: Path) -> None:
    out = io.StringIO()
    line = run_demo(seed=2, out_dir=tmp_path, out=out)
    last = out.getvalue().rstrip().splitlines()[-1]
    assert last == line
    assert re.fullmatch(r"winner: (draw|Bot \d(, Bot \d)*)", line)
    assert (tmp_path / "final.png").exists()


def test_mecs_run_demo_on_a_read_only_card_plays_as_on_a_writable_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """``demo --game mecs --data`` on a read-only card: the bar saying games are not
    being saved pushes the Deck row onto the form's next page; the demo opens "More
    options" as a child would, and plays the game a writable folder plays, saying so
    (main: AutoplayError: target 'deck.advanced' is missing on FormScene), then ends
    with the game not in the journal (``demo.not_saved``: exit 2 on the command line)."""
    writable = io.StringIO()
    line = run_demo(seed=2, out_dir=tmp_path / "w", out=writable, data=tmp_path / "w-data")
    simulated_card(monkeypatch).refuse = READ_ONLY
    out = io.StringIO()
    with pytest.raises(TabletopError) as refused:
        run_demo(seed=2, out_dir=tmp_path / "ro", out=out, data=tmp_path / "ro-data")
    assert refused.value.code == "demo.not_saved" and "read-only" in refused.value.message
    assert line in out.getvalue()
    turns = [t for t in out.getvalue().splitlines() if t.startswith(("Turn", "  "))]
    assert turns == [t for t in writable.getvalue().splitlines() if t.startswith(("Turn", "  "))]
    assert "games are not being saved" in caplog.text


def test_mecs_scene_bots_move_by_themselves_after_a_pause() -> None:
    app = make_app()
    _auto, table = start(app, seats=2, bots=(0, 1))
    before = len(table.match.history)
    app.step()
    assert len(table.match.history) == before  # waits so children can follow
    for _ in range(30):
        app.ctx.clock.advance(BOT_SECONDS + 0.1)
        app.step()
    assert len(table.match.history) > before + 10


# -- a child at the table, by touch and by camera ----------------------------------------------


def child_turn(app):
    """A virtual game: a child (seat 0) against a bot, waiting for the child's move."""
    auto, table = start(app, seats=2, bots=(1,))
    for _ in range(40):
        if table.play.pending_seat() == 0 and table.play.state.phase == "plant":
            break
        if table.play.pending_seat() == 0 and table.play.state.phase == "refill":
            auto.tap("refill.numbers")
            continue
        app.ctx.clock.advance(BOT_SECONDS + 0.1)
        app.step()
    assert table.play.pending_seat() == 0 and table.play.state.phase == "plant"
    return auto, table


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_mecs_the_card_taken_for_the_child_is_ringed_in_her_hand_mecs4(size) -> None:
    """The card the device took for the child from the next hand (MECS-4) has a ring
    round it in her hand, as the sentence says; the others have none."""
    app = make_app(size)
    _, table = child_turn(app)
    app.step(force_draw=True)
    assert "”, with a ring." in table.message
    ringed = [
        b.name
        for b in table.buttons
        if b.name.startswith("hand.")
        and tuple(app.canvas.get_at((b.rect.left - 2, b.rect.centery)))[:3]
        == app.ctx.painter.p.selected
    ]
    assert ringed == [f"hand.{table.play.taken()}"]


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_mecs_hand_label_keeps_a_long_namesakes_tag(tmp_path: Path, size) -> None:
    """Two "Mia Schmidt-Wolkenstein"s signed in: the label beside the hand names whose
    it is as the seat chips do, the name cut and its "(4a)" kept (Painter.ellipsis), at
    16 px or more; it was paged as "Mia Schmidt-W …", the tag lost."""
    journal = Journal(tmp_path / "j.sqlite3")
    Roster(journal).import_csv(CLASS.replace("Mia", "Mia Schmidt-Wolkenstein"))
    app = make_app(size, journal=journal)
    open_table(Autoplayer(app), "mecs", "S1", "S2")
    texts = drawn_texts(app.ctx.painter, lambda: app.step(force_draw=True))
    label = [(text, px) for text, px in texts if text.endswith("(4a)'s")]
    assert label and min(px for _, px in label) >= app.ctx.painter.least, texts
    assert ("hand", label[0][1]) in texts


def test_mecs_child_plants_by_touch_and_trades() -> None:
    app = make_app()
    auto, table = child_turn(app)
    hand = table.play.state.players[0].hand
    area = table.play.state.players[0].area
    auto.tap("area.0")
    editor = app.stack.top
    assert isinstance(editor, AreaEditor)
    auto.tap(f"gap.{len(area)}")
    grid = app.stack.top
    assert isinstance(grid, ChoiceGrid)
    card = editor.available()[0]
    auto.tap("choice.0")
    auto.tap("done")
    assert table.play.state.players[0].area == (*area, card)
    assert table.play.state.phase in ("planted", "refill") or table.play.state.players[0].coins
    if table.play.state.phase == "planted":
        assert table.target("trade").enabled
        keep = table.play.state.players[0].hand
        auto.tap("trade")
        auto.tap(f"choice.{keep[0]}")
        auto.tap("choice.numbers")
        assert table.play.state.phase == "refill"
    assert len(hand) >= 1


def test_mecs_illegal_hack_is_refused_with_the_reason_shown() -> None:
    """MECS-5: a hack must make a valid equation at once; the reason is on screen, in the
    child's words (round 36: the checker's English stays in the log)."""
    app = make_app()
    _auto, table = child_turn(app)
    card = table.play.state.players[0].hand[0]
    target = table.play.state.players[1].area
    before = table.match.history
    post(app, seen(2, *target, card))
    assert table.match.history == before
    text, kind = table.message, table.play.tone
    assert kind == "error"
    assert text.startswith("A hack must finish the equation right away.")
    from tabletop.ui.games.mecs.play import why_not

    verdict = evaluate((*target, card))
    assert not verdict.valid and text.endswith(f" {why_not(verdict)}")


def test_mecs_camera_card_that_is_not_ours_is_refused() -> None:
    app = make_app()
    _auto, table = child_turn(app)
    before = table.match.history
    post(app, seen(1, "MT1:MECS:7", "MT1:ATK:+5"))
    assert table.match.history == before
    assert "not from this game" in table.message and table.play.tone == "error"
    post(app, seen(None, "MT1:MWM:C17", area=None))
    assert app.stack.top is table and "not from this game" in table.message


def test_mecs_camera_card_it_cannot_read_is_said_as_the_other_games_say_it() -> None:
    """Walk 30 (cards2.py): an unreadable card ("?") in an area was "not from this game.
    Please take it away. (Player 1's area)", the tail English outside the sentence
    table; MWM and Math Attack! say the camera cannot read it. Now so does M.E.C.S.,
    naming the area in the table's words, as for a card of another game."""
    app = make_app()
    _auto, table = start(app, cards="table")
    before = table.match.history
    post(app, seen(1, "MT1:MECS:7", "?"))
    said = "The camera cannot read a card in Player 1's area. Turn it face up, or tap the area."
    assert (table.message, table.play.tone) == (said, "error")
    post(app, seen(2, "MT1:ATK:+5"))
    said = "A card in Player 2's area is not from this game. Please take it away."
    assert table.message == said
    post(app, seen(None, "?", area=None))
    assert table.message == "The camera cannot read that card. Turn it face up."
    assert table.match.history == before


def test_mecs_camera_cards_laid_out_of_turn_say_whose_turn_it_is() -> None:
    """Walk 30 (cards2.py): Player 2 lays cards in their own area on Player 1's turn and
    was told only "A hack must finish the equation right away…" (for the engine, cards
    in another's area are the active player's hack, MECS-5); the seat button says "Not
    now: it is Player 1's turn." The turn is said first, then the engine's reason."""
    app = make_app()
    auto, table = start(app, cards="table")
    auto.tap("reveal.8")
    auto.tap("reveal.3")
    assert table.play.state.phase == "plant" and table.play.state.active == 0
    before = table.match.history
    post(app, seen(2, "MT1:MECS:3", "MT1:MECS:+"))
    assert table.message.startswith("Not now: it is Player 1's turn. A hack must finish")
    assert table.play.tone == "error" and table.match.history == before


def test_mecs_buttons_in_the_wrong_phase_say_why() -> None:
    app = make_app()
    _auto, table = child_turn(app)
    before = table.match.history
    assert not table.target("trade").enabled  # shown off, and a tap says why
    post(app, Tap(table.target("trade").rect.center, app.ctx.clock()))
    assert (table.message, table.play.tone) == (
        "You can only trade after putting down exactly 1 card.",
        "error",
    )
    post(app, Tap(table.target("end").rect.center, app.ctx.clock()))
    assert (table.message, table.play.tone) == (
        "Put down at least 1 card first, or hack someone.",
        "error",
    )
    post(app, SeatPressed(1, app.ctx.clock()))
    assert table.message == f"Not now: it is {table.play.name(0)}'s turn."
    assert table.match.history == before


def test_mecs_camera_play_reveal_plant_take_back_and_fix_a_reading() -> None:
    """Real cards: hands are counts; the reveal is tapped; the camera reads the area; a
    card taken back is refused (MECS-4); a wrong reading is fixed by touch."""
    app = make_app()
    auto, table = start(app, seats=2, cards="table")
    assert table.play.settings.play == "camera"
    assert table.play.state.queue and table.play.state.queue[0].purpose == "reveal"
    auto.tap("reveal.8")
    auto.tap("reveal.3")
    assert table.play.state.active == 0 and table.play.state.phase == "plant"
    assert app.ctx.lamps.lit == {0}
    post(app, seen(1, "MT1:MECS:7"))  # the child puts down a 1, the camera reads 7
    assert isinstance(table.match.history[-1], Observe)
    assert table.play.state.players[0].area == ("7",)
    post(app, seen(1))  # the card was lifted: cards never go back to a hand
    assert table.play.state.players[0].area == ("7",)
    assert table.message.startswith("Cards in an equation area stay there")
    assert table.play.readings[0] == ()  # what the camera sees is shown, marked as refused
    post(app, seen(1, "MT1:MECS:7"))  # the card is back
    assert 0 not in table.play.readings
    # fix the reading by touch: tap the area, the card, "Change", the right card
    auto.tap("area.0")
    auto.tap("card.0")
    auto.tap("change")
    auto.tap(f"choice.{PLAY_CARDS.index('1')}")
    auto.tap("done")
    assert table.play.state.players[0].area == ("1",)
    assert table.message.startswith("Fixed:")
    assert table.match.history[-1] == Observe(0, ("1",))


def test_mecs_a_fix_that_takes_back_later_moves_waits_for_the_teacher_pin() -> None:
    """Real cards: seat 1's 1 card was read as 5 and they traded; they really put down 6 7, so
    the trade no longer fits. Fixing the reading by touch would take back the trade the
    device acted on, so it asks for the teacher's PIN (issue 21): cancelled, nothing
    changes; with the PIN, the fix is made and the trade taken back."""
    app = make_app()
    auto, table = start(app, seats=2, cards="table")
    auto.tap("reveal.8")
    auto.tap("reveal.3")
    post(app, seen(1, "MT1:MECS:5"))
    auto.tap("trade")
    auto.tap("choice.numbers")  # her card went under the numbers
    auto.tap("choice.numbers")  # and she drew a number card
    assert any(isinstance(a, Trade) for a in table.match.history)
    decided = len(table.match.history)

    def fix() -> None:
        auto.tap("area.0")
        auto.tap("card.0")
        auto.tap("change")
        auto.tap(f"choice.{PLAY_CARDS.index('6')}")
        auto.tap("gap.1")
        auto.tap(f"choice.{PLAY_CARDS.index('7')}")
        auto.tap("done")

    fix()
    pad = app.stack.top
    assert isinstance(pad, PinPad) and pad.purpose == "fix"
    assert "Ask your teacher" in table.message
    auto.tap("cancel")
    assert app.stack.top is table and len(table.match.history) == decided
    assert table.play.state.players[0].area == ("5",)
    assert table.message.startswith("Nothing was changed")
    fix()
    for digit in "2468":
        auto.tap(f"key.{digit}")
    assert app.stack.top is table and table.play.fix_waiting is None
    assert table.play.state.players[0].area == ("6", "7")
    assert table.message == "Fixed: Player 1's area reads 67. Taken back: 2 later moves."
    assert not any(isinstance(a, Trade) for a in table.match.history)


def refill_all(auto, table) -> None:
    while table.play.state.phase == "refill" and table.match.pending.chance is None:
        auto.tap("refill.numbers")


def test_mecs_hack_by_camera_flips_into_the_hackers_coins() -> None:
    """MECS-5: 1 or 2 cards added to another area, without moving its cards, so that it
    is a valid equation at once: the hacker takes its coins (MECS-3)."""
    app = make_app()
    auto, table = start(app, seats=2, cards="table")
    auto.tap("reveal.2")
    auto.tap("reveal.9")
    assert table.play.state.active == 1
    post(app, seen(2, "2", "X"))  # seat 2 plants 2 ×
    refill_all(auto, table)
    assert table.play.state.active == 0
    post(app, seen(1, "7"))
    auto.tap("end")
    refill_all(auto, table)
    post(app, seen(2, "2", "X", "EQ", "4"))  # seat 2: 2 × = 4, not finished
    assert "Not finished" in (table.play.area_status(1) or ("",))[0]
    refill_all(auto, table)
    assert table.play.state.active == 0 and table.play.state.phase == "plant"
    post(app, seen(2, "2", "X", "EQ", "4", "1"))  # not a valid equation: refused
    assert table.play.tone == "error" and table.play.state.players[1].area == ("2", "X", "EQ", "4")
    post(app, seen(2, "2", "X", "2", "EQ", "4"))  # seat 1 hacks: 2 × 2 = 4
    assert table.play.state.players[1].area == ()
    assert table.play.state.coins(0) == 5 and table.play.state.coins(1) == 0
    assert table.play.outcome_lines()[3] == "1 equation completed."  # not "1 equations"
    assert table.play.banner is not None and table.play.banner.title == "Hacked!"
    assert "+5 coins" in table.play.banner.text
    assert any("hacked" in line for _, line in table.play.story)
    post(app, seen(2, "2", "X", "2", "EQ", "4"))  # still there while being flipped: no error
    assert table.play.tone != "error"
    # equations the device checked for the report: seat 1's refused hack, then its hack
    assert table.save.checks == [[2, 1], [0, 0]]
    # issue 24: the hack's equation journaled with its question (the refused one reads
    # "2 × = 41", no sum worked out: counted, not journaled)
    (answer,) = app.ctx.journal.answers(table.save.id)
    assert (answer.seat, answer.skill, answer.question["ops"], answer.given) == (
        0,
        "equations",
        ["x"],
        "4",
    )


def test_mecs_undo_needs_the_teacher_pin() -> None:
    app = make_app()
    auto, table = child_turn(app)
    auto.tap("area.0")
    auto.tap("gap.0")
    auto.tap("choice.0")
    auto.tap("done")
    decided = len(table.match.history)
    auto.tap("undo")
    pad = app.stack.top
    assert is_undo_pad(pad)
    for digit in "1111":
        auto.tap(f"key.{digit}")
    assert app.stack.top is pad and "not right" in pad.message
    for digit in "2468":
        auto.tap(f"key.{digit}")
    assert app.stack.top is table
    assert len(table.match.history) < decided
    assert table.play.state.phase == "plant" and table.play.state.active == 0
    assert table.message.startswith("Taken back:")


def test_mecs_undo_at_the_start_is_refused_without_the_pin() -> None:
    """Nothing decided yet (only cards dealt): Undo says so at once, as Math Attack!'s
    and Math Arena's do, and does not call the teacher for nothing."""
    app = make_app()
    _, table = start(app, seats=2)
    assert not table.play.can_undo() and not table.target("undo").enabled  # greyed
    post(app, Tap(table.target("undo").rect.center, app.ctx.clock(), "touch"))
    assert app.stack.top is table and table.message == "There is nothing to take back."


def test_mecs_setup_options_and_bubble_button() -> None:
    app = make_app()
    auto = Autoplayer(app)
    auto.tap("game.mecs")
    setup = app.stack.top
    assert isinstance(setup, FormScene)
    auto.tap("mode.challenge")
    assert setup.options["deck"] == "advanced" and not setup.target("deck.beginners").enabled
    post(app, Tap(setup.target("deck.beginners").rect.center, app.ctx.clock(), "touch"))
    assert "needs the advanced deck" in setup.message
    assert not setup.target("cards.real").enabled  # a bot plays: virtual cards
    form_seats(auto, 2)  # two children
    auto.tap("cards.real")
    assert setup.values().cards == "real" and not setup.values().bots
    assert setup.target("bubbles").enabled == (game_app("bubbles") is not None)
    auto.tap("rules")
    assert isinstance(app.stack.top, RulesScene)
    auto.tap("rules.prev")
    assert app.stack.top is setup


def test_mecs_results_name_the_winner_and_offer_another_game(tmp_path: Path) -> None:
    """The one results scene: places by coins (equal coins share a place, MECS-6), the
    engine's reason in names, and "Play again" opens a fresh table."""
    run = DemoRun("mecs", seed=8, out_dir=tmp_path, out=io.StringIO(), data=None)
    driver = play_demo(run, Setup(seats=2))
    table, results = driver.table, run.top
    assert isinstance(results, GameResults)
    result = table.play.standings()
    names = [table.play.name(s) for s in sorted(result.winners)]
    assert results.winner_line in (f"winner: {', '.join(names)}", "winner: draw")
    assert [row.score for row in results.outcome.rows] == [
        f"{result.scores[row.seat]} coins" for row in results.outcome.rows
    ]
    assert "Player" not in results.outcome.reason and results.outcome.reason.endswith(
        ", so the game is over!"
    )
    run.tap("again")
    fresh = run.top
    assert isinstance(fresh, MecsTable) and fresh is not table
    assert fresh.play.settings == table.play.settings and not fresh.resumed
    run.end(driver.line)


# -- never lose a game (issue 10) ------------------------------------------------------------


def test_mecs_every_move_is_journaled_and_a_new_app_carries_on(tmp_path: Path) -> None:
    from tabletop.games import GAMES
    from tabletop.store import FILE_NAME, Journal
    from tabletop.ui.scenes.common import Confirm

    path = tmp_path / FILE_NAME
    app = make_app(journal=Journal(path))
    auto, table = child_turn(app)  # the bot has played; the child is to put cards down
    area = table.play.state.players[0].area
    auto.tap("area.0")
    auto.tap(f"gap.{len(area)}")
    auto.tap("choice.0")
    auto.tap("done")
    assert len(table.play.state.players[0].area) == len(area) + 1 or table.play.state.coins(0)
    # what the screen shows is on disk: a second reader of the file sees the same match
    (saved,) = Journal(path).unfinished("app")
    assert Journal(path).load(saved.id, GAMES).state == table.play.state
    assert saved.meta["app"]["seed"] == table.play.seed
    # the device is unplugged; a new app on the same file offers the game
    again = make_app(journal=Journal(path))
    offer = again.stack.top
    assert isinstance(offer, Confirm) and "M.E.C.S." in offer.detail
    Autoplayer(again).tap("yes")
    resumed = again.stack.top
    assert isinstance(resumed, MecsTable) and resumed.resumed
    assert resumed.play.state == table.play.state and resumed.match.history == table.match.history
    assert [(p.name, p.bot) for p in resumed.play.seats] == [
        (p.name, p.bot) for p in table.play.seats
    ]
    assert (
        resumed.play.settings == table.play.settings
        and resumed.play.pending_seat() == table.play.pending_seat()
    )
    assert resumed.message.startswith("Welcome back!")
    assert resumed.play.story == table.play.story  # the turn log, told again
    # it deals on exactly as the first app would have: end the turn, fill the hands
    for scene in (table, resumed):
        if scene.play.state.phase == "planted":
            scene.press("end")
        while scene.play.state.phase == "refill" and scene.match.pending.chance is None:
            if scene.play.bot_to_move() is not None:  # a bot draws its own card (MECS-4)
                scene.play.bot_step()
            else:
                scene.press("refill.numbers")
    assert resumed.play.state == table.play.state and resumed.play.state.phase == "plant"


def test_mecs_new_game_instead_keeps_the_old_one_as_abandoned(tmp_path: Path) -> None:
    from tabletop.store import FILE_NAME, Journal
    from tabletop.ui.scenes.home import HomeScene

    path = tmp_path / FILE_NAME
    app = make_app(journal=Journal(path))
    start(app, seats=3, bots=(1,))
    again = make_app(journal=Journal(path))
    Autoplayer(again).tap("no")
    Autoplayer(again).tap("yes")  # asked once more: the game has moves (round 28)
    assert isinstance(again.stack.top, HomeScene)
    (old,) = Journal(path).matches()
    assert old.status == "abandoned" and old.actions > 0
    # leaving a game is the same: kept, abandoned, with the coins then as its standings
    auto, table = start(again, seats=2)
    auto.tap("leave")
    auto.tap("yes")
    assert isinstance(again.stack.top, HomeScene)
    left = Journal(path).matches()[0]
    assert left.id == table.save.id and left.status == "abandoned"
    assert left.result is not None and left.result["scores"] == ["0", "0"]


def test_mecs_finished_game_is_stored_with_its_result_seats_and_checks() -> None:
    app = make_app()
    _auto, table = start(app, seats=2, bots=(0, 1))
    for _ in range(3000):
        if isinstance(app.stack.top, GameResults):
            break
        app.ctx.clock.advance(BOT_SECONDS + 0.1)
        app.step()
    assert isinstance(app.stack.top, GameResults)
    journal = app.ctx.journal
    (saved,) = journal.matches()
    result = Mecs().result(table.play.state)
    assert result is not None and table.standings() == result
    assert saved.status == "finished" and saved.reason == "end"
    assert saved.result is not None and saved.result["winners"] == sorted(result.winners)
    assert saved.result["scores"] == [str(table.play.state.coins(s)) for s in (0, 1)]
    assert [s.name for s in journal.seats(saved.id)] == ["Bot 1", "Bot 2"]
    assert [s.bot for s in journal.seats(saved.id)] == ["easy", "easy"]  # the level (MECS-12)
    assert saved.actions == len(table.match.history)
    # equations checked: every equation completed (normal mode: each one scores)
    done = [0, 0]
    for step in table.match.steps:
        for event in step.events:
            if event.code == "mecs.completed":
                done[event.seat] += 1
    assert saved.meta["checks"] == [[n, n] for n in done] and sum(done) > 0


# -- MECS-12: bot levels -------------------------------------------------------------------------


def test_mecs12_setup_chooses_the_bots_level_and_the_table_plays_it(tmp_path: Path) -> None:
    from tabletop.store import FILE_NAME, Journal
    from tabletop.ui.games.mecs import resume_scene
    from tabletop.ui.saves import GameSave

    app = make_app(journal=Journal(tmp_path / FILE_NAME))
    auto = Autoplayer(app)
    auto.tap("game.mecs")
    setup = app.stack.top
    assert isinstance(setup, FormScene) and setup.level == "easy"  # as the other games start
    assert setup.seats[1].kind == "bot" and setup.seats[1].level == "easy"
    auto.tap("seat.1")  # the seat picker offers the three levels (MECS-12)
    assert {"choice.bot.easy", "choice.bot.medium", "choice.bot.hard"} <= {
        b.name for b in app.stack.top.buttons
    }
    auto.tap("choice.bot.medium")
    assert setup.level == "medium" and setup.seats[1].level == "medium"
    auto.tap("start")
    table = app.stack.top
    assert isinstance(table, MecsTable)
    assert table.play.seats[1].bot == "medium"
    assert table.save.seats[1].bot == "medium"  # journaled with the seat
    assert table.save.app["seats"][1] == ["Bot 2", True, "medium"]
    # a journal from before the levels ("standard" bot, seats as [name, bot]) is the hard bot
    old = GameSave.__new__(GameSave)
    old.app = {"seats": [["Ann", False], ["Bot 2", True]], "seed": 5}
    old.seats = []
    resumed = resume_scene(app.ctx, old, table.match)
    assert [p.bot for p in resumed.play.seats] == [None, "hard"]


def test_mecs12_real_cards_turn_the_bots_and_their_level_off_with_the_reason() -> None:
    app = make_app()
    auto = Autoplayer(app)
    auto.tap("game.mecs")
    setup = app.stack.top
    button = setup.target("cards.real")
    assert not button.enabled  # seat 2 is a bot
    post(app, Tap(button.rect.center, app.ctx.clock(), "touch"))
    assert setup.level == "easy" and "tap the bot and choose a child" in setup.message
    auto.tap("seat.1")
    auto.tap("choice.child")
    auto.tap("cards.real")
    assert setup.values().cards == "real" and not setup.values().bots


# -- MECS-9: an equation already waiting meets the new objective -------------------------------


def table_at(app, state) -> MecsTable:
    """Ann, Bo and Cy at a table in ``state`` (a three-seat engine state)."""
    from tabletop.engine.match import Match

    match = Match(Mecs(), state.settings, 3, seed=3)
    match.initial = state
    return MecsTable(
        app.ctx,
        seats=[("Ann", False), ("Bo", False), ("Cy", False)],
        settings=state.settings,
        match=match,
    )


def test_mecs9_the_table_says_why_a_waiting_equation_counted(size=(800, 480)) -> None:
    from dataclasses import replace

    from tabletop.games.mecs import DrawFor, MecsSettings, ShowObjective
    from tests.games.test_mecs_support import table as engine_table

    app = make_app(size)
    settings = MecsSettings(mode="challenge")
    state = engine_table(["3 1 +", "1 2 X", "4 5"], ["", "9 X 6 EQ 5 4", ""], settings=settings)
    state = replace(state, queue=(DrawFor(0, "objectives", "objective"),), met=(1,))
    scene = table_at(app, state)
    assert scene.play.perform(ShowObjective(13))  # "a whole number whose digits add up to 9"
    assert scene.play.state.coins(1) == 6 and scene.play.state.players[1].area == ()
    assert scene.play.banner is not None and scene.play.banner.title == "Objective met!"
    assert scene.play.banner.text.startswith("Bo's area already shows 9 × 6 = 54")
    assert "it counts at once" in scene.play.banner.text and "MECS-9" not in scene.play.banner.text
    assert any("it counts at once" in text for _, text in scene.play.story)  # the turn log
    assert scene.play.state.objective is not None  # the next card is already out
    app.stack.push(scene)
    app.step()
    assert shot(app, "mecs9_objective_met").exists()


def test_mecs_every_checked_equation_is_journaled_with_its_question() -> None:
    """Issue 24: a refused hack with brackets (MECS-2, MECS-5) and a true equation that
    misses the challenge objective (MECS-6) are journaled with their questions, the kind
    of mistake and the seconds since the turn began, as well as counted."""
    from dataclasses import replace

    from tabletop.classroom.mistakes import classify
    from tabletop.classroom.skills import question_of
    from tabletop.games.mecs import MecsSettings
    from tests.games.test_mecs_support import table as engine_table

    app = make_app()
    settings = MecsSettings(mode="challenge")
    state = engine_table(
        ["1 3 4", "5 5", ""], ["9 X 7 EQ 6", "LP 2 + 3 RP X 4 EQ", ""], settings=settings
    )
    scene = table_at(app, replace(state, objective=2))
    app.stack.push(scene)
    app.step()
    app.ctx.clock.advance(7.5)
    hack = ("LP", "2", "+", "3", "RP", "X", "4", "EQ", "1", "4")  # 14: brackets left out
    scene.play.submit_area(1, hack)
    assert scene.play.tone == "error"
    app.ctx.clock.advance(2.0)
    scene.play.submit_area(0, ("9", "X", "7", "EQ", "6", "3"))  # true; 63 misses objective 2
    assert scene.save.checks[0] == [2, 0]
    answers = app.ctx.journal.answers(scene.save.id)
    assert [(a.seat, a.skill, a.given, a.answer) for a in answers] == [
        (0, "order", "14", "20"),
        (0, "equations", "63", "63"),
    ]
    assert [a.seconds for a in answers] == [7.5, 9.5]
    kinds = []
    for a in answers:
        q = question_of(a.skill, a.question)
        found = classify(q, Fraction(a.given))
        assert found is not None
        kinds.append((found.kind, found.example))
    assert kinds[0] == (
        "order",
        "(2 + 3) x 4: answered 14, leaving out the brackets; they come first",
    )
    assert kinds[1][0] == "objective" and kinds[1][1].startswith("9 x 7 = 63: the objective is")


def test_mecs_an_objective_card_is_tapped_in_by_its_words_mecs7() -> None:
    """Real cards, challenge mode: the card the camera did not read is chosen by what it
    asks (MECS-7), each choice's words 16 px or more at 800x480, ten to a page."""
    from tabletop.games.mecs import objective

    app = make_app((800, 480))
    auto, table = start(app, seats=2, cards="table", mode="challenge")
    auto.tap("reveal.8")
    auto.tap("reveal.3")
    auto.tap("objective")
    grid, m = app.stack.top, app.ctx.metrics
    assert isinstance(grid, ChoiceGrid)
    choices = [b for b in grid.buttons if b.name.startswith("choice.")]
    assert [b.caption for b in choices] == [objective(n).text for n in range(1, 11)]
    for b in choices:
        assert app.ctx.painter.fit_size(b.caption, m.small, b.rect.width - m.u(10)) >= 16
    auto.tap("more")
    auto.tap("choice.OBJ13")
    assert table.play.goal() == objective(13).text == "a whole number whose digits add up to 9"


def test_mecs_child_facing_text_is_at_least_16px_at_800x480() -> None:
    """Issue 21: every word a child reads on the table (names, coins, the instruction,
    the message, the hand's tip, the reveal) and on the results is 16 px or more at
    800x480 (card faces are cards, not text)."""
    app = make_app((800, 480))
    fonts = app.ctx.painter.fonts
    texts: list[tuple[int, str]] = []
    render = fonts.render

    def recording(text, size, *args, **kw):
        if len(text.strip()) > 2:
            texts.append((size, text))
        return render(text, size, *args, **kw)

    fonts.render = recording
    try:
        auto, table = child_turn(app)  # the hand and its tip on screen
        app.step(force_draw=True)
        assert any("coins" in text for _, text in texts)
        auto.tap("leave")
        auto.tap("yes")
        auto, table = start(app, seats=8, cards="table", mode="challenge")  # who starts
        post(app, seen(1, "MT1:MECS:7"))  # too early: the who-starts card comes first
        assert "who starts" in table.message
        app.step(force_draw=True)
        assert any("show one number card" in text for _, text in texts)
    finally:
        fonts.render = render
    small = sorted({(size, text) for size, text in texts if size < 16})
    assert not small, small


def test_mecs_editor_moves_a_card_left_and_right_but_not_past_the_ends() -> None:
    """◀ Move and Move ▶ swap the selected card with its neighbour and keep it selected;
    at either end of the area the card stays where it is."""
    app = make_app()
    editor = AreaEditor(app.ctx, title="Edit", cards=["1", "2", "3"], palette=[], any_card=False)
    app.stack.push(editor)
    auto = Autoplayer(app)
    auto.tap("card.0")
    auto.tap("left")  # already first
    assert editor.cards == ["1", "2", "3"] and editor.selected == 0
    auto.tap("right")
    assert editor.cards == ["2", "1", "3"] and editor.selected == 1
    auto.tap("right")
    auto.tap("right")  # now last
    assert editor.cards == ["2", "3", "1"] and editor.selected == 2
    auto.tap("left")
    assert editor.cards == ["2", "1", "3"] and editor.selected == 1


def test_mecs_editor_a_card_just_put_is_removed_again_not_one_already_down() -> None:
    """A child's own undo of a mis-tapped card (MECS-4): in virtual play a card added in
    this edit is removed again and goes back to the hand, without cancelling the edit; a
    card that was already down stays, and Remove says why."""
    app = make_app()
    editor = AreaEditor(app.ctx, title="Edit", cards=["3", "+"], palette=["4", "5"], any_card=False)
    app.stack.push(editor)
    auto = Autoplayer(app)
    auto.tap("gap.2")
    auto.tap("choice.1")  # a 5, meant to be a 4
    assert editor.cards == ["3", "+", "5"] and editor.available() == ["4"]
    auto.tap("card.2")
    auto.tap("remove")
    assert editor.cards == ["3", "+"] and editor.available() == ["4", "5"]
    auto.tap("card.0")
    remove = editor.target("remove")
    assert remove is not None and not remove.enabled
    post(app, Tap(remove.rect.center, app.ctx.clock()))
    assert editor.cards == ["3", "+"] and editor.note.startswith("That card was already down")
    auto.tap("gap.2")
    auto.tap("choice.0")
    assert editor.note == "" and editor.cards == ["3", "+", "4"]


def test_mecs_a_refused_touch_edit_comes_back_with_its_cards_and_why_mecs4() -> None:
    """MECS-4: at most 2 cards a turn. Three put down by touch are refused; the editor
    opens again with the child's three cards and the reason (nothing is lost), one is
    removed and Done puts the two down."""
    app = make_app()
    auto, table = child_turn(app)
    area = table.play.state.players[0].area
    auto.tap("area.0")
    for gap in range(len(area), len(area) + 3):
        auto.tap(f"gap.{gap}")
        auto.tap("choice.0")
    tried = list(app.stack.top.cards)
    auto.tap("done")
    editor = app.stack.top
    assert isinstance(editor, AreaEditor) and editor.cards == tried
    assert editor.note == table.message == "You can put down at most 2 cards in one turn."
    assert table.play.state.players[0].area == area
    auto.tap(f"card.{len(tried) - 1}")
    auto.tap("remove")
    auto.tap("done")
    assert app.stack.top is table and table.play.state.players[0].area == tuple(tried[:-1])


def test_mecs_card_pickers_draw_the_cards_as_the_table_does() -> None:
    """The card-page picker and the editor's "Which card goes here?" showed black labels
    on white buttons, while the table draws cards coloured (numbers red, operators blue):
    their choices are drawn with the table's card face now."""

    def colour(name: str) -> tuple[int, int, int]:
        app.draw()
        rect = app.stack.top.target(name).rect
        return tuple(pygame.surfarray.array3d(app.canvas.subsurface(rect))[5, rect.height // 2])

    app = make_app()
    auto, _ = child_turn(app)
    auto.tap("cards")
    assert isinstance(app.stack.top, ChoiceGrid) and app.stack.top.face is not None
    assert colour("choice.0") == RED and colour("choice.+") == BLUE
    auto.tap("cancel")
    auto.tap("area.0")
    editor = app.stack.top
    auto.tap("gap.0")
    first = editor.available()[0]
    assert colour("choice.0") == colour_of(first)


def test_mecs_an_empty_seats_button_says_nobody_sits_there() -> None:
    """Two children at a device wired for eight: seat 6's button says nobody sits there
    (it was silently ignored); the game is as it was."""
    app = make_app()
    _, table = start(app)
    before = table.match.moves
    post(app, SeatPressed(5, app.ctx.clock()))
    assert "Nobody sits at seat 6" in table.message
    assert table.match.moves == before


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_mecs_area_rulings_at_eight_seats_are_whole_and_16px(size: tuple[int, int]) -> None:
    """Eight seats (two columns): an area's ruling was cut with "…" after a few words.
    Where the sentence with its reason does not fit, the area says the ruling in a few
    words from the sentence table (tapping it opens the editor, which gives the reason):
    an objective missed (MECS-6), a reading refused, equations not finished."""
    app = make_app(size)
    auto, table = start(app, seats=8, cards="table", mode="challenge")
    play = table.play
    for seat in range(8):
        auto.tap(f"reveal.{9 - seat}")  # Player 1 starts
    post(app, seen(None, "MT1:MECS:OBJ6", area=None))  # exactly 24
    for turn, card in enumerate(("+", "-", "X")):
        for seat in range(8 if turn < 2 else 1):
            cards = (("9", "X"), ("7", "EQ"), ("6", "3"))[turn] if seat == 0 else (str(seat), card)
            post(app, seen(seat + 1, *play.state.players[seat].area, *cards))
            refill_all(auto, table)
    assert play.state.active == 1
    post(app, seen(2, *play.state.players[1].area, "4", "5", "6"))  # 3 cards: refused
    rulings = [play.area_status(seat) for seat in range(8)]
    assert rulings[0] == (
        "63 is not exactly 24, so the cards stay.",
        "bad",
        "Misses the objective.",
    )
    assert rulings[1] is not None and rulings[1][2] == "Not allowed: tap to fix it."
    assert {r[2] for r in rulings[2:] if r is not None} == {"Not finished yet."}
    fonts, drawn = app.ctx.painter.fonts, []
    render = fonts.render

    def recording(text, size, *args, **kw):
        drawn.append((text, size))
        return render(text, size, *args, **kw)

    fonts.render = recording
    try:
        app.step(force_draw=True)
    finally:
        fonts.render = render
    for ruling in rulings:
        assert ruling is not None
        sizes = [size for text, size in drawn if text in (ruling[0], ruling[2])]
        assert sizes and min(sizes) >= app.ctx.painter.least, ruling
    assert not [text for text, _ in drawn if text.endswith("\u2026")]


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_mecs_real_cards_tell_the_child_to_take_a_card_mecs4(size) -> None:
    """MECS-4 with real cards: a turn begins with a card taken from the next player's
    hand, which the device cannot do; the line tells the child to take it and put cards
    down (tapping the area where no camera reads it), 16 px or more at 800x480. It said
    "Player 1 took a card from Player 2's hand." as if done. The journal keeps the
    engine's words."""
    from tabletop.ui.messages import child_message

    app = make_app(size)
    auto, table = start(app, seats=2, cards="table")
    auto.tap("reveal.8")
    auto.tap("reveal.3")
    take = child_message("mecs.said.take", name="Player 1", giver="Player 2")
    assert table.message == take and "Player 1: take a card" in take
    texts = drawn_texts(app.ctx.painter, lambda: app.step(force_draw=True))
    assert any(size_ >= 16 for text, size_ in texts if "take a card" in text)
    post(app, seen(1, "MT1:MECS:7"))  # Player 1 puts down a 7, and ends the turn
    auto.tap("end")
    while table.play.state.phase == "refill":
        auto.tap("refill.numbers")
    assert table.play.state.active == 1
    assert table.message == child_message("mecs.said.take", name="Player 2", giver="Player 1")
    took = [e.text for s in table.match.steps for e in s.events if e.code == "mecs.took"]
    assert took == [
        "Player 1 took a card from Player 2's hand.",
        "Player 2 took a card from Player 1's hand.",
    ]


def test_mecs_editor_says_its_lines_from_the_sentence_table(monkeypatch) -> None:
    """Round 36: the editor's how-to line, its refusals ("Tap a card first.", "You have no
    card to put down here."), its questions and "9 × 7 = 63: a complete equation!" were
    English written in Python; they are the sentence table's (``mecs.edit``)."""
    from tabletop.ui.messages import CHILD_MESSAGES

    for key in ("how", "pick_first", "no_card", "which", "complete"):
        monkeypatch.setitem(CHILD_MESSAGES, f"mecs.edit.{key}", f"EDIT {key} {{equation}}.")
    app = make_app()
    editor = AreaEditor(app.ctx, title="Edit", cards=["3", "+"], palette=["4"], any_card=False)
    app.stack.push(editor)
    auto = Autoplayer(app)
    texts = [t for t, _ in drawn_texts(app.ctx.painter, lambda: app.step(force_draw=True))]
    assert "EDIT how that." in texts
    post(app, Tap(editor.target("remove").rect.center, app.ctx.clock()))  # type: ignore[union-attr]
    assert editor.note == "EDIT pick_first that."
    auto.tap("gap.2")
    assert app.stack.top.title == "EDIT which that."  # type: ignore[attr-defined]
    auto.tap("choice.0")
    auto.tap("gap.3")  # the only 4 is down: none left to put
    assert editor.note == "EDIT no_card that."
    editor.cards += ["EQ", "7"]
    editor.note = ""
    texts = [t for t, _ in drawn_texts(app.ctx.painter, lambda: app.step(force_draw=True))]
    assert "EDIT complete 3 + 4 = 7." in " ".join(texts)


def test_mecs_an_objective_cards_page_is_the_sentence_tables(monkeypatch) -> None:
    """Round 36: the objective card's page ("For challenge mode. The answer of your
    equation must be ...", MECS-6) was English written in Python; it is the table's."""
    from tabletop.games.mecs import objective
    from tabletop.ui.messages import CHILD_MESSAGES

    monkeypatch.setitem(CHILD_MESSAGES, "mecs.page.objective", "PAGE {goal}.")
    page = CardPageScene(make_app().ctx, "OBJ2")
    assert page.words() == ("Objective card 2", "", f"PAGE {objective(2).text}.")
