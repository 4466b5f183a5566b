"""``tabletop demo --game mecs``: bots in every seat play a whole game in the app, offscreen.

The bots decide with :func:`tabletop.bots.mecs.decide`; what they do reaches the game
the way a child's move does: cards put down or hacked in are shown to the (simulated)
camera as a ``CardsSeen`` reading of that area, left to right; ending a turn, trading
and refilling are taps on the screen's buttons. One line is printed per turn, and the
last line is ``winner: NAMES`` (or ``winner: draw``).

With ``data`` the game is journaled in that folder as the app does (issue 10). Killed
and started again with the same arguments, the demo carries on through Home's "carry
on" offer and ends with the same last line: the bots decide from the state alone and
the virtual cards are keyed by the seed and the number of actions so far, so nothing
but the journal is needed. Nothing of the demo lives outside the app's match (the bots
play through its screens), so there is nothing to lay on the table again.

With ``child`` seat 1 is a guest child (issue 24, :class:`Driver`): it plays as the
bots do but tries the wrong hacks its own sums believe in, which the device refuses
and journals, so the journal makes a skills report. (Carried on after a kill in the
middle of the child's turn, it may try that turn's refused hack once more.)
"""

from __future__ import annotations

import os
import random
import tempfile
from pathlib import Path
from typing import Any, TextIO

from tabletop.bots.mecs import decide
from tabletop.games.mecs import EndTurn, Hack, Plant, Refill, Trade

MAX_MOVES = 4000
MAX_SHOTS = 8


class DemoError(RuntimeError):
    """The scripted game could not go on (a move the app refused)."""


class Driver:
    """Plays the bots' moves through the app's input: camera readings and taps.

    ``child``: the seat of the ``--child`` demo's guest child (issue 24), ``seed`` its
    model's seed. The child plays the bot's moves, but on its turn it first looks at the
    other areas as a child would: a hack of 1 or 2 of its cards (MECS-5) that makes an
    equation its own sums call right (:class:`~tabletop.classroom.mistakes.Child`,
    seeded) but that is wrong, it tries; the device refuses it and journals it with its
    question, and the child takes the cards back. A plant is never an answer (an area
    grows 2 cards a turn, MECS-4), so refused hacks are the child's only wrong answers:
    the other seats' bots play at the medium level, whose areas a child can read.
    """

    def __init__(self, app: Any, child: int | None = None, seed: int = 0) -> None:
        from tabletop.ui.autoplay import Autoplayer

        self.app = app
        self.auto = Autoplayer(app)
        self.moves = 0
        self.child = child
        self.seed = seed
        self.tried: set[tuple[int, tuple[str, ...]]] = set()  # (area seat, cards) answered

    @property
    def table(self) -> Any:
        from tabletop.ui.games.mecs.table import MecsTable

        for scene in reversed(list(self.app.stack)):
            if isinstance(scene, MecsTable):
                return scene
        raise DemoError("no M.E.C.S. table on the screen")

    def over(self) -> bool:
        from tabletop.ui.games.mecs.table import MecsResults

        return isinstance(self.app.stack.top, MecsResults)

    def show_area(self, seat: int, cards: tuple[str, ...]) -> None:
        """The camera's steady reading of ``seat``'s equation area (0-based seat)."""
        from tabletop.ui.input import CardSeen, CardsSeen

        at = self.app.ctx.clock()
        seen = tuple(CardSeen(f"MT1:MECS:{c}", seat + 1, "equation") for c in cards)
        self.app.post(CardsSeen(seat + 1, "equation", seen, at))
        self.app.step()

    def hold_up(self, code: str) -> None:
        """One card held up alone to the camera."""
        from tabletop.ui.input import CardSeen, CardsSeen

        at = self.app.ctx.clock()
        self.app.post(CardsSeen(None, None, (CardSeen(f"MT1:MECS:{code}"),), at))
        self.app.step()

    def play(self, action: Any) -> None:
        """Make ``action`` happen through the screen or the camera."""
        if isinstance(action, Plant):
            self.show_area(action.seat, action.area)
        elif isinstance(action, Hack):
            self.show_area(action.target, action.area)
        elif isinstance(action, EndTurn):
            self.auto.tap("end")
        elif isinstance(action, Refill):
            self.auto.tap(f"refill.{action.stack}")
        elif isinstance(action, Trade):
            self.auto.tap("trade")
            self.auto.tap(f"choice.{action.card}")
            self.auto.tap(f"choice.{action.draw_from}")
        else:
            raise DemoError(f"the demo cannot show {action!r}")

    def move(self) -> Any:
        """One bot decision, played through the app; returns it."""
        table = self.table
        seat = table.pending_seat()
        if seat is None:
            raise DemoError(f"nobody is to move ({table.state.phase})")
        before = len(table.match.history)
        if seat == self.child:
            self.child_hacks(seat)
        action = decide(table.state, seat, table.seats[seat].level)
        self.play(action)
        table = self.table
        if len(table.match.history) == before and not self.over():
            raise DemoError(f"the app refused {action!r}: {table.message[0]}")
        self.moves += 1
        return action

    def child_hacks(self, seat: int) -> int:
        """The child's hack that its own sums say is right but is not, tried now (see
        the class): 1 if it tried one, else 0."""
        from tabletop.classroom.mistakes import Child

        table = self.table
        state = table.state
        if state.phase != "plant" or state.active != seat:
            return 0
        child = Child(random.Random(f"mecs-child:{self.seed}:{len(table.match.history)}"))
        hand = state.players[seat].hand
        for target, player in enumerate(state.players):
            if target == seat or not player.area:
                continue
            for cards in child_believes(player.area, hand, child):
                if (target, cards) in self.tried:
                    continue
                self.tried.add((target, cards))
                self.show_area(target, cards)  # refused: journaled with its question
                self.show_area(target, player.area)  # the child takes its cards back
                return 1
        return 0


def child_believes(
    area: tuple[str, ...], hand: tuple[str, ...], child: Any
) -> list[tuple[str, ...]]:
    """The hacks of ``area`` with 1 or 2 cards of ``hand`` inserted anywhere (MECS-5)
    that make an equation the child believes (its answer to the question,
    :meth:`Child.answer`, is the value beside it) and that is wrong: the child's
    mistakes, in card order."""
    from tabletop.ui.games.mecs.table import equation_question

    beliefs: dict[str, Any] = {}  # one answer per question, as a child would give
    hacks: set[tuple[str, ...]] = set()
    for i, first in enumerate(hand):
        for at in range(len(area) + 1):
            one = (*area[:at], first, *area[at:])
            hacks.add(one)
            for j, second in enumerate(hand):
                if j != i:
                    hacks.update((*one[:k], second, *one[k:]) for k in range(len(one) + 1))
    out: list[tuple[str, ...]] = []
    for hacked in sorted(hacks):
        found = equation_question(hacked)
        if found is None:
            continue
        question, given = found
        if given == question.answer:
            continue
        if question.text not in beliefs:
            beliefs[question.text] = child.answer(question)
        if beliefs[question.text] == given:
            out.append(hacked)
    return out


def run_demo(
    *,
    seed: int | None,
    out_dir: Path | None,
    out: TextIO,
    size: tuple[int, int] = (800, 480),
    seats: int = 3,
    deck: str = "advanced",
    mode: str = "normal",
    data: Path | None = None,
    child: bool = False,
) -> str:
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    import pygame

    from tabletop.ui.app import App
    from tabletop.ui.offscreen import offscreen
    from tabletop.ui.scenes.home import HomeScene

    seed = random.SystemRandom().randrange(10**6) if seed is None else seed
    folder = out_dir or Path(tempfile.mkdtemp(prefix="tabletop-mecs-demo-"))
    folder.mkdir(parents=True, exist_ok=True)
    ctx, window = offscreen(size, seed, data)
    tag = demo_tag(seed, seats, deck, mode) + (":child" if child else "")
    carry_on = left_over(ctx.journal, tag)
    app = App(ctx, window, flip=False)
    app.stack.push(HomeScene(ctx, offer_resume=carry_on))
    app.step()
    try:
        line = play_demo(
            app,
            seed=seed,
            folder=folder,
            out=out,
            seats=seats,
            deck=deck,
            mode=mode,
            tag=tag,
            carry_on=data if carry_on else None,
            child=child,
            level="medium" if child else "hard",  # areas a child can read, and hack
        )
    finally:
        ctx.journal.close()
        pygame.display.quit()
    return line


def demo_tag(seed: int, seats: int, deck: str, mode: str) -> str:
    """What the demo writes in its game's ``save.app["demo"]``: a journaled game with the
    same tag is the one a run with the same arguments carries on."""
    return f"mecs:{seed}:{seats}:{deck}:{mode}"


def left_over(journal: Any, tag: str) -> bool:
    """True if the journal holds this demo's unfinished game (its newest unfinished game
    of any kind, so Home offers it). Anything else left unfinished is marked abandoned:
    the demo then starts again from the seed, which plays the same."""
    from tabletop.ui.saves import keep_one_unfinished

    def mine(saved: Any) -> bool:
        return saved.game == "mecs" and saved.meta.get("app", {}).get("demo") == tag

    return keep_one_unfinished(journal, mine) is not None


def play_demo(
    app: Any,
    *,
    seed: int,
    folder: Path,
    out: TextIO,
    seats: int = 3,
    deck: str = "advanced",
    mode: str = "normal",
    tag: str | None = None,
    carry_on: Path | None = None,
    level: str = "hard",
    child: bool = False,
) -> str:
    """Set the game up by taps and play it to the end; prints and returns the winner line.

    ``carry_on``: Home is offering this demo's journaled game (from that folder): carry
    on with it instead of setting a new one up. ``tag`` marks a new game as this demo's.
    ``level``: the bots' level (MECS-12), hard (the strongest) unless told. ``child``:
    seat 1 is a guest child (:class:`Driver`), journaled as a child, never as a bot.
    """
    driver = Driver(app, child=0 if child else None, seed=seed)
    auto = driver.auto
    if carry_on is not None:
        auto.tap("yes")  # Home: "A game of M.E.C.S. was not finished. Carry on with it?"
        table = driver.table
        print(
            f"Carrying on from the journal in {carry_on}: turn {table.state.turn}, "
            f"{len(table.match.history)} actions.",
            file=out,
        )
    else:
        auto.tap("game.mecs")
        setup = app.stack.top
        setup.extra["bot_driver"] = "external"  # the demo moves the bots' cards itself
        for seat in range(seats):  # every seat a bot at the level (seat 1 the child's)
            if child and seat == 0:
                continue
            auto.tap(f"seat.{seat}")
            auto.tap(f"choice.bot.{level}")
        auto.tap(f"mode.{mode}")
        if setup.options["deck"] != deck:  # challenge has chosen the advanced deck already
            auto.tap(f"deck.{deck}")
        auto.tap("start")
        table = driver.table
        if tag is not None:
            table.save.app["demo"] = tag
            table.save.write_meta()
        if child:
            from tabletop.ui.saves import demo_seats

            demo_seats(table.save, 0)
        names = ", ".join(s.name for s in table.seats)
        print(
            f"M.E.C.S. in the touchscreen app, offscreen ({app.ctx.metrics.width}x"
            f"{app.ctx.metrics.height}): {names}; {deck} deck, {mode} mode, seed {seed}",
            file=out,
        )
        print("Bots' cards reach the game as camera readings of their equation areas.", file=out)
    app.screenshot(folder / "start.png")
    shots = 1
    printed = 0
    turn = table.state.turn
    last_banner = None

    def flush(upto: int | None = None) -> None:
        nonlocal printed
        lines = driver.table.turns.lines
        group: dict[int, list[str]] = {}
        order: list[int] = []
        end = len(lines)
        for t, text in lines[printed:end]:
            if upto is not None and t >= upto:
                end = printed + len([1 for tt, _ in lines[printed:] if tt < upto])
                break
            if t not in group:
                group[t] = []
                order.append(t)
            group[t].append(text)
        for t in order:
            label = "Start" if t == 0 else f"Turn {t}"
            print(f"{label}: {' '.join(group[t])}", file=out)
        printed = end

    while not driver.over():
        if driver.moves >= MAX_MOVES:
            raise DemoError(f"no winner after {MAX_MOVES} moves")
        table = driver.table
        if table.state.turn != turn:
            flush(upto=table.state.turn)
            turn = table.state.turn
        driver.move()
        table = driver.table
        banner = table.banner
        if banner is not None and banner is not last_banner and shots < MAX_SHOTS:
            app.screenshot(
                folder / f"turn_{table.state.turn:03d}_{banner.title.rstrip('!').lower()}.png"
            )
            shots += 1
        last_banner = banner
    flush()
    results = app.stack.top
    app.screenshot(folder / "final.png")
    table = driver.table
    for seat in range(len(table.seats)):
        print(f"  {table.name(seat)}: {table.state.coins(seat)} coins", file=out)
    # one card held up alone opens its page, as the QR code promises
    results.stack.pop()  # back to the table for a moment
    driver.hold_up("EQ")
    app.screenshot(folder / "card_page.png")
    print(f"\nScreenshots are in {folder}", file=out)
    line = results.winner_line()
    print(line, file=out)
    return line


__all__ = ["DemoError", "Driver", "play_demo", "run_demo"]
