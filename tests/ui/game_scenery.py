"""The card games' and the bubble game's screens, reached through the app for the
reference screenshots (``tests/ui/scenery.py`` lists them with Mathe-Meister's).

Each builder starts on Home and gets to its screen the way a table of children would:
taps on named targets (:class:`~tabletop.ui.autoplay.Autoplayer`), seat buttons and
camera readings posted as events, the fake clock moved by hand. Nothing here reads the
clock of the machine or global randomness, so every build draws the same picture.

This module imports nothing from ``tests.ui.scenery`` (which imports it), and the
games' tests under ``tests/ui/games`` keep their own helpers; the few event helpers
the screenshots and the tap counts (``tests/ui/test_taps.py``) share live here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from hardware.buttons import SeatPressed
from tabletop.ui.app import App
from tabletop.ui.autoplay import Autoplayer
from tabletop.ui.harness import cards_seen
from tabletop.ui.harness import type_number as typed

# -- events a table sends ------------------------------------------------------------------


def form_seats(auto: Autoplayer, players: int, bots: tuple[int, ...] = (), level: str = "") -> None:
    """On the one setup form (:mod:`tabletop.ui.scenes.form`), by taps: ``players``
    seats filled, the seats ``bots`` bots at ``level`` (or the form's), the rest children."""
    setup = auto.top
    while len(setup.filled) > players:
        auto.tap(f"seat.{len(setup.filled) - 1}")
        auto.tap("choice.empty")
    while len(setup.filled) < players:
        auto.tap(f"seat.{len(setup.filled)}")
        auto.tap("choice.child")
    for seat in range(players):
        kind = setup.seats[seat].kind
        if seat in bots and (kind != "bot" or (level and setup.seats[seat].level != level)):
            auto.tap(f"seat.{seat}")
            auto.tap(f"choice.bot.{level or setup.level}")
        elif seat not in bots and kind != "child":
            auto.tap(f"seat.{seat}")
            auto.tap("choice.child")


def name_seats(auto: Autoplayer, names: Sequence[str]) -> None:
    """On the setup form, by taps: the first seats named ``names``, typed on the name pad
    (a name longer than the pad takes as the class list's come: the seat picker's)."""
    from tabletop.ui.scenes.names import MAX_LENGTH

    for seat, name in enumerate(names):
        if len(name) > MAX_LENGTH:
            auto.top.name_seat(seat, name)
            continue
        auto.tap(f"seat.{seat}")
        auto.tap("choice.name")
        for letter in name:
            auto.tap("key.space" if letter == " " else f"key.{letter.upper()}")
        auto.tap("ok")


# names as long as the name pad takes, in wide letters (issue 21: whole, or paged, at 16 px)
LONG_NAMES = ("Bartholomewson", "Christophersen", "Wilhelmina-Ann")
# five names as long as the setup form takes (``NAME_LENGTH``), one word each, wide letters
FULL_NAMES = (
    "Bartholomewsonny",
    "Maximilianmorrow",
    "Wilhelminamorgan",
    "Montgomerywalker",
    "Mwangiwamboweyoh",
)


def press_seat(app: App, seat: int) -> None:
    """Seat ``seat``'s button (0-based), pressed now."""
    app.seat_queue.put(SeatPressed(seat, app.ctx.clock()))  # type: ignore[union-attr]
    app.step()


def show_cards(app: App, seat: int | None, area: str | None, codes: Sequence[str]) -> None:
    """The camera's steady reading of one zone (``seat`` 1-based as the camera reports
    it, None: the middle of the table)."""
    app.post(cards_seen(seat, area, codes, app.ctx.clock()))
    app.step()


def wait(app: App, seconds: float, frame: float = 0.5) -> None:
    """Let ``seconds`` pass on the fake clock, a frame at a time."""
    for _ in range(round(seconds / frame)):
        app.ctx.clock.advance(frame)  # type: ignore[attr-defined]
        app.step()


def type_number(auto: Autoplayer, value: int) -> None:
    """A number on the number pad, then OK."""
    typed(auto.tap, value)


def setup(app: App, game: str, *taps: str) -> Autoplayer:
    """Home -> ``game``'s setup, then ``taps`` on it."""
    auto = Autoplayer(app)
    auto.tap(f"game.{game}")
    for name in taps:
        auto.tap(name)
    return auto


# -- Math Wars Meta --------------------------------------------------------------------------


def _mwm_setup(app: App) -> None:
    setup(app, "math-wars-meta", "seat.2", "choice.bot.bot")  # two children, a bot


def _mwm_table_camera(app: App) -> None:
    """Two children with real cards: both battle piles read, Player 1's answer in."""
    auto = setup(app, "math-wars-meta", "start")
    show_cards(app, 1, "battle", ("C10", "K+2"))
    show_cards(app, 2, "battle", ("C4", "K+1"))
    auto.tap("solve.0")
    type_number(auto, 12)
    press_seat(app, 0)


def _mwm_table_touch(app: App) -> None:
    """The camera misses Player 2's COUNT META card: a child taps it in."""
    auto = setup(app, "math-wars-meta", "start")
    show_cards(app, 1, "battle", ("C10", "K+2"))
    auto.tap("count.1")


def _mwm_table_virtual(app: App) -> None:
    """Solo with virtual cards: the device turns the cards up."""
    setup(app, "math-wars-meta", "mode.solo", "cards.virtual", "start")


def _mwm_table_full(app: App) -> None:
    """A full table of six children at the end of round 6: the verdict says whose
    division leaves a remainder, who wins the hand, that everybody else is out and who
    wins the round (the longest line of a plain game, in one page at 800x480)."""
    from tabletop.ui.games.math_wars_meta.demo import TableBot

    auto = setup(app, "math-wars-meta")
    form_seats(auto, 6)
    auto.tap("start")
    bot = TableBot(app, 6)
    while "wins round 6" not in auto.top.status():  # type: ignore[attr-defined]
        bot.step()


def _mwm_eight(app: App, *taps: str, names: Sequence[str] = ()) -> Autoplayer:
    """Eight children at the table (the chips left of the cards: the form's ``taps``, the
    first seats named ``names``), every battle pile read."""
    auto = setup(app, "math-wars-meta", *taps)
    form_seats(auto, 8)
    name_seats(auto, names)
    auto.tap("start")
    for seat, crate in enumerate(("K+2", "K+1", "Kx3", "K-5", "K+4", "Kx2", "K+5", "K-1")):
        show_cards(app, seat + 1, "battle", (f"C{(10, 4, 7, 12, 9, 3, 25, 18)[seat]}", crate))
    return auto


def _mwm_table_ready(app: App) -> None:
    """A full table of eight mid-hand: three answers in and pressed (their I'm ready!
    tiles lit), one typed and waiting for its button, four still to answer."""
    auto = _mwm_eight(app)
    for seat, answer in ((0, 12), (2, 21), (3, 7), (4, 13)):
        auto.tap(f"solve.{seat}")
        type_number(auto, answer)
        if seat != 4:
            press_seat(app, seat)


def _mwm_table_teams(app: App) -> None:
    """Team v Team at eight seats, four teams of two (a team a row: its tag and stars
    once, left of it): seat 1 answered with its team's sum and pressed, seat 3 typed and
    waiting for its button; long names on the chips."""
    auto = _mwm_eight(app, "mode.teams", names=("Alexander", "Maximilian", "Emilia"))
    for seat, answer, team in ((0, 12, 16), (2, 21, 14)):
        auto.tap(f"solve.{seat}")
        type_number(auto, answer)
        type_number(auto, team)  # the TEAM SOLUTION
        if seat == 0:
            press_seat(app, seat)


def _mwm_results(app: App) -> None:
    from tabletop.ui.games.math_wars_meta.demo import TableBot

    auto = setup(app, "math-wars-meta", "start")
    bot = TableBot(app, 2)
    while bot.step():
        pass
    auto.tap("next")


# -- Math Attack! ------------------------------------------------------------------------------


def _attack_setup(app: App) -> None:
    setup(app, "math-attack")


def _attack_table_camera(app: App) -> None:
    """Real cards on the number lines: two plays read, then a refused one shown."""
    setup(app, "math-attack", "first.0", "start")
    for line, cards in ((0, ["+7"]), (0, ["+7", "+H"]), (1, ["FLIP"]), (1, ["FLIP", "CANCEL"])):
        app.post(cards_seen(line + 1, "line", cards, app.ctx.clock()))
        app.step()


def _attack_table_touch(app: App) -> None:
    """A child presses their button and picks the card by touch."""
    auto = setup(app, "math-attack", "first.0", "start")
    press_seat(app, 0)
    auto.tap("choice.1")


def _attack_table_virtual(app: App) -> None:
    """Against the bot with virtual cards: a card of the hand picked."""
    setup(app, "math-attack", "seat.1", "choice.bot.medium", "first.0", "start", "hand.2")


def _attack_results(app: App) -> None:
    setup(app, "math-attack", "first.0", "start")
    for line, cards in ((0, ["+8"]), (0, ["+8", "END"]), (1, ["-4"])):
        app.post(cards_seen(line + 1, "line", cards, app.ctx.clock()))
        app.step()


# -- M.E.C.S. ----------------------------------------------------------------------------------


def _mecs_until_child(app: App, auto: Autoplayer) -> None:
    """Bots play until the child at seat 1 is to plant."""
    from tabletop.ui.games.mecs.table import BOT_SECONDS

    table = auto.top
    for _ in range(40):
        play = table.play  # type: ignore[attr-defined]
        if play.pending_seat() == 0 and play.state.phase == "plant":
            return
        if play.pending_seat() == 0 and play.state.phase == "refill":
            auto.tap("refill.numbers")
            continue
        wait(app, BOT_SECONDS + 0.1, BOT_SECONDS + 0.1)
    raise AssertionError("the child never got a turn")


def _mecs_setup(app: App) -> None:
    setup(app, "mecs", "seat.2", "choice.child")  # a child, a bot and a child


def _mecs_table_camera(app: App) -> None:
    """Real cards: who starts is shown, then Player 1's equation read by the camera."""
    auto = setup(app, "mecs", "seat.1", "choice.child", "cards.real", "start")
    auto.tap("reveal.8")  # Player 1 shows an 8, Player 2 a 3: Player 1 starts
    auto.tap("reveal.3")
    show_cards(app, 1, "equation", ("MT1:MECS:3", "MT1:MECS:+"))


def _mecs_table_touch(app: App) -> None:
    """A child edits their area by touch: a card put in the first gap."""
    auto = setup(app, "mecs", "start")  # a child and a bot, virtual cards
    _mecs_until_child(app, auto)
    auto.tap("area.0")
    auto.tap("gap.0")
    auto.tap("choice.0")  # the first card of the hand


def _mecs_table_virtual(app: App) -> None:
    """Virtual cards against a bot: the child's hand on screen, their turn."""
    auto = setup(app, "mecs", "start")
    _mecs_until_child(app, auto)


def _mecs_results(app: App) -> None:
    from tabletop.ui.games.mecs.table import BOT_SECONDS
    from tabletop.ui.results import GameResults

    setup(app, "mecs", "seat.0", "choice.bot.easy", "start")  # seat 2 is a bot already
    for _ in range(3000):
        if isinstance(app.stack.top, GameResults):
            return
        wait(app, BOT_SECONDS + 0.1, BOT_SECONDS + 0.1)
    raise AssertionError("the bots' game never ended")


# -- Math Arena -------------------------------------------------------------------------------


def _arena_setup(app: App) -> None:
    setup(app, "math-arena")


def _arena_reveal(app: App, operator: str, pairs: Sequence[tuple[str, str]]) -> None:
    from tabletop.ui.games.math_arena import COUNTDOWN

    show_cards(app, None, "operator", (operator,))
    for seat in range(len(pairs)):
        press_seat(app, seat)
    wait(app, COUNTDOWN + 0.1, COUNTDOWN + 0.1)
    for seat, pair in enumerate(pairs):
        show_cards(app, seat + 1, "reveal", pair)


def _arena_table_camera(app: App) -> None:
    """Real cards, three children: the operator and the pairs read, the round scored."""
    auto = setup(app, "math-arena")
    form_seats(auto, 3)  # three children with real cards
    auto.tap("cards.real")
    auto.tap("start")
    _arena_reveal(app, "JC", [("9S", "2S"), ("8H", "AH"), ("4D", "3D")])
    auto.tap("score")


def _arena_table_touch(app: App) -> None:
    """The camera reads one card twice: a child taps it to put it right."""
    auto = setup(app, "math-arena")
    form_seats(auto, 2)
    auto.tap("cards.real")
    auto.tap("start")
    _arena_reveal(app, "KD", [("5S", "2D"), ("7H", "7H")])
    auto.tap("card.1.1")


def _arena_table_virtual(app: App) -> None:
    """Against a bot with virtual cards: the child's hand, two cards picked."""
    auto = setup(app, "math-arena")
    form_seats(auto, 2, bots=(1,))
    auto.tap("start")
    press_seat(app, 0)
    hand = [t.name for t in auto.top.targets() if t.name.startswith("hand.")]
    auto.tap(hand[0])
    auto.tap(hand[3])


def _arena_last_round(app: App, names: Sequence[str], pairs: Sequence[tuple[str, str]]) -> None:
    """Children with real cards (the first seats named ``names``) to the last round of
    set 1 (black Jack), its ``pairs`` (hearts) shown and scored: the rounds before of
    the other suits."""
    from tabletop.games.math_arena import NUMBER_CARDS

    auto = setup(app, "math-arena")
    form_seats(auto, len(pairs))
    name_seats(auto, names)
    auto.tap("cards.real")
    auto.tap("start")
    used = iter(card for card in NUMBER_CARDS if card[-1] != "H")
    operators = iter(("KS", "KC", "QS", "QC", "JS"))
    while auto.top.play.round_label[1] < auto.top.play.state.deal.rounds:  # type: ignore[attr-defined]
        _arena_reveal(app, next(operators), [(next(used), next(used)) for _ in pairs])
        auto.tap("score")
        auto.tap("next")
    _arena_reveal(app, "JC", pairs)
    auto.tap("score")


def _arena_table_tie(app: App) -> None:
    """Five children with names as long as the setup form takes tie with 1 in the last
    round of set 1 (ARENA-4: their leftover cards decide): the instruction line names all
    five, twice; on the seats, each name cut with "…" as every game's seats cut one too long."""
    hearts = [("AH", "2H"), ("3H", "4H"), ("5H", "6H"), ("7H", "8H"), ("9H", "10H")]
    _arena_last_round(app, FULL_NAMES, hearts)


def _arena_welcome_back(app: App) -> None:
    """Three children with long names tie in the last round of set 1 (ARENA-4: their
    leftover cards decide); the device restarts there and Home carries the game on."""
    from tabletop.ui.scenes.home import HomeScene

    _arena_last_round(app, LONG_NAMES, [("AH", "5H"), ("2H", "6H"), ("3H", "7H")])  # 4s
    app.stack.unwind_to(HomeScene)
    app.stack.top.offer_resume()  # type: ignore[union-attr]
    app.step()
    Autoplayer(app).tap("yes")


def _arena_results(app: App) -> None:
    from tabletop.ui.games.math_arena import BOT_SECONDS, COUNTDOWN
    from tabletop.ui.results import GameResults

    auto = setup(app, "math-arena")
    form_seats(auto, 2, bots=(0, 1))
    auto.tap("start")
    while not isinstance(app.stack.top, GameResults):
        wait(app, BOT_SECONDS + 3, BOT_SECONDS + 3)
        wait(app, COUNTDOWN + 0.1, COUNTDOWN + 0.1)
        auto.tap("score")
        auto.tap("next")


# -- the bubble game --------------------------------------------------------------------------


def _bubbles_setup(app: App) -> None:
    setup(app, "mecs", "bubbles")


def _bubbles_game(app: App) -> None:
    """A red number bubble held over the field."""
    from tabletop.games.bubbles import any_move

    auto = setup(app, "mecs", "bubbles", "start")
    scene = auto.top
    for _ in range(200):
        move = any_move(scene.play.game)  # type: ignore[attr-defined]
        if move is not None:
            auto.tap(f"bubble.{move[0]}")
            return
        wait(app, 0.1, 0.1)
    raise AssertionError("the field never offered a move")


def _bubbles_results(app: App) -> None:
    """A 30 s round: the child pops a pair whenever the target can be made."""
    from tabletop.games.bubbles import best_move

    auto = setup(app, "mecs", "bubbles", "time.30", "start")
    scene = auto.top
    while not scene.finished:  # type: ignore[attr-defined]
        move = best_move(scene.play.game)  # type: ignore[attr-defined]
        if move is not None:
            auto.tap(f"bubble.{move[0]}")
            auto.tap(f"bubble.{move[1]}")
        wait(app, 0.2, 0.2)
    for key in ("key.L", "key.E", "key.O", "ok"):
        auto.tap(key)


GAME_SCENES: dict[str, tuple[Callable[[App], None], bool]] = {
    "math-wars-meta-setup": (_mwm_setup, False),
    "math-wars-meta-table-camera": (_mwm_table_camera, False),
    "math-wars-meta-table-touch": (_mwm_table_touch, False),
    "math-wars-meta-table-virtual": (_mwm_table_virtual, False),
    "math-wars-meta-table-full": (_mwm_table_full, False),
    "math-wars-meta-table-ready": (_mwm_table_ready, False),
    "math-wars-meta-table-teams": (_mwm_table_teams, False),
    "math-wars-meta-results": (_mwm_results, False),
    "math-attack-setup": (_attack_setup, False),
    "math-attack-table-camera": (_attack_table_camera, False),
    "math-attack-table-touch": (_attack_table_touch, False),
    "math-attack-table-virtual": (_attack_table_virtual, False),
    "math-attack-results": (_attack_results, False),
    "mecs-setup": (_mecs_setup, False),
    "mecs-table-camera": (_mecs_table_camera, False),
    "mecs-table-touch": (_mecs_table_touch, False),
    "mecs-table-virtual": (_mecs_table_virtual, False),
    "mecs-results": (_mecs_results, False),
    "math-arena-setup": (_arena_setup, False),
    "math-arena-table-camera": (_arena_table_camera, False),
    "math-arena-table-touch": (_arena_table_touch, False),
    "math-arena-table-virtual": (_arena_table_virtual, False),
    "math-arena-table-tie": (_arena_table_tie, False),
    "math-arena-welcome-back": (_arena_welcome_back, False),
    "math-arena-results": (_arena_results, False),
    "bubbles-setup": (_bubbles_setup, False),
    "bubbles-game": (_bubbles_game, False),
    "bubbles-results": (_bubbles_results, False),
}
