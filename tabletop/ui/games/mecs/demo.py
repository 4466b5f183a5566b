"""``tabletop demo --game mecs``: bots in every seat play a whole game in the app,
offscreen, a line per turn. With ``data`` the game is journaled as the app does, and a
run killed and started again with the same arguments carries on through Home's offer
(issue 10): the bots decide from the state alone and the virtual cards are keyed by the
seed and the moves so far. With ``child`` seat 1 is a guest child (issue 24,
:class:`Driver`).
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO, cast

from tabletop.bots.mecs import decide
from tabletop.classroom.mistakes import Child
from tabletop.engine.words import plural
from tabletop.games.mecs import Hack, Plant, area_owner, insertions
from tabletop.ui.games.mecs.questions import equation_question
from tabletop.ui.games.mecs.table import MecsTable
from tabletop.ui.harness import AutoplayError, DemoClock, DemoRun, draw_seed, left_over_by
from tabletop.ui.results import GameResults
from tabletop.ui.saves import demo_seats

MAX_MOVES = 4000
MAX_SHOTS = 8


class Driver:
    """Plays the bots' moves through the app's input: cards put down as the camera's
    reading of their area, trades, refills and ends of turns as taps.

    ``child``: the seat of the ``--child`` demo's guest child, ``seed`` its model's seed.
    It plays the bot's moves, but on its turn first tries a hack that its own sums
    (:class:`~tabletop.classroom.mistakes.Child`) call right but that is wrong; the device
    refuses it and journals it with its question, and the child takes the cards back.
    A plant is never an answer (MECS-4), so refused hacks are the child's only wrong
    answers: the other bots play at the medium level, whose areas a child can read.
    """

    def __init__(self, run: DemoRun, table: MecsTable, child: int | None, seed: int) -> None:
        self.run, self.table, self.play = run, table, table.play
        self.child, self.seed = child, seed
        self.moves = 0
        self.tried: set[tuple[int, tuple[str, ...]]] = set()  # (area seat, cards) answered
        self.line = ""  # the winner line, once the game is over

    def show_area(self, seat: int, cards: tuple[str, ...]) -> None:
        self.run.show(seat, "equation", (f"MT1:MECS:{c}" for c in cards))

    def move(self) -> None:
        """One bot decision, played through the app."""
        play = self.play
        seat = play.pending_seat()
        if seat is None:
            raise AutoplayError(f"nobody is to move ({play.state.phase})")
        before = play.match.moves
        if seat == self.child:
            self.child_hacks(seat)
        action = decide(play.state, seat, play.level(seat))
        if isinstance(action, Plant | Hack):
            self.show_area(cast(int, area_owner(action)), action.area)  # always an owner
        elif taps := play.taps_for(action):
            for name in taps:
                self.run.tap(name)
        else:
            raise AutoplayError(f"the demo cannot show {action!r}")
        if play.match.moves == before and not isinstance(self.run.top, GameResults):
            raise AutoplayError(f"the app refused {action!r}: {play.message}")
        self.moves += 1

    def child_hacks(self, seat: int) -> None:
        """The child's wrong hack that its own sums call right, tried now (see the class)."""
        state = self.play.state
        if state.phase != "plant" or state.active != seat:
            return
        child = Child(random.Random(f"mecs-child:{self.seed}:{self.play.match.moves}"))
        for target, player in enumerate(state.players):
            if target == seat or not player.area:
                continue
            for cards in child_believes(player.area, state.players[seat].hand, child):
                if (target, cards) not in self.tried:
                    self.tried.add((target, cards))
                    self.show_area(target, cards)  # refused: journaled with its question
                    self.show_area(target, player.area)  # the child takes its cards back
                    return


def child_believes(
    area: tuple[str, ...], hand: tuple[str, ...], child: Child
) -> list[tuple[str, ...]]:
    """The hacks of ``area`` with 1 or 2 cards of ``hand`` (the engine's
    :func:`~tabletop.games.mecs.insertions`, MECS-5) that make a wrong equation the child
    believes (:meth:`Child.answer` to its question is the value beside it), in card
    order: the child's mistakes."""
    beliefs: dict[str, Any] = {}  # one answer per question, as a child would give
    out: list[tuple[str, ...]] = []
    for hacked in sorted(insertions(area, Counter(hand), 2)):
        found = equation_question(hacked)
        if found is None or found[1] == found[0].answer:
            continue
        question, given = found
        if question.text not in beliefs:
            beliefs[question.text] = child.answer(question)
        if beliefs[question.text] == given:
            out.append(hacked)
    return out


@dataclass(frozen=True)
class Setup:
    """The demo's table as its setup form is filled in: ``seats`` seats, the ``deck`` and
    the ``mode`` (MECS-6); ``child``: seat 1 is a guest child (:class:`Driver`) and the
    bots play at the medium level (MECS-12)."""

    seats: int = 3
    deck: str = "advanced"
    mode: str = "normal"
    child: bool = False

    def tag(self, seed: int) -> str:
        """In the game's ``save.app["demo"]``: the game a run with the same arguments
        carries on."""
        return f"mecs:{seed}:{self.seats}:{self.deck}:{self.mode}{':child' * self.child}"


def run_demo(
    *,
    seed: int | None,
    out_dir: Path | None,
    out: TextIO,
    size: tuple[int, int] = (800, 480),
    seats: int = Setup.seats,
    deck: str = Setup.deck,
    mode: str = Setup.mode,
    data: Path | None = None,
    child: bool = Setup.child,
) -> str:
    seed, setup = draw_seed(seed), Setup(seats, deck, mode, child)
    run = DemoRun(
        "mecs",
        seed=seed,
        out_dir=out_dir,
        out=out,
        size=size,
        data=data,
        clock=DemoClock(),  # the coins of a still frame are in the air: the same every run
        left_over=left_over_by("mecs", app=lambda app: app.get("demo") == setup.tag(seed)),
    )
    driver = play_demo(run, setup)
    return run.end(driver.line, f"{driver.moves} moves,")


def play_demo(run: DemoRun, setup: Setup = Setup()) -> Driver:
    """Set the game up by taps (or carry on the journal's, when Home offers it) and play
    it to the end, printing one line per turn and the coins; returns the driver (its
    ``line``: the winner line). A new game is marked as this demo's (:meth:`Setup.tag`)."""
    run.open_game()
    child = setup.child
    if not run.resuming:
        form = run.top
        form.extra["bot_driver"] = "external"  # the demo moves the bots' cards itself
        level = "medium" if child else "hard"  # areas a child can read, and hack
        run.fill_seats(range(1 if child else 0, setup.seats), f"bot.{level}")  # seat 1: child
        run.tap(f"mode.{setup.mode}")
        if form.options["deck"] != setup.deck:  # challenge has chosen the advanced deck already
            if form.target(f"deck.{setup.deck}") is None:  # a warning bar pushed it on a page
                run.tap("more")
            run.tap(f"deck.{setup.deck}")
        run.tap("start")
    driver = Driver(run, run.scene(MecsTable), 0 if child else None, run.seed)
    table, play = driver.table, driver.play
    if run.resuming:  # Home: "A game of M.E.C.S. was not finished. Carry on with it?"
        run.carrying_on(f"turn {play.state.turn}, {play.match.moves} actions.")
    else:
        table.save.app["demo"] = setup.tag(run.seed)
        table.save.write_meta()
        if child:
            demo_seats(table.save, 0)
        names = ", ".join(s.name for s in play.seats)
        run.intro("M.E.C.S.", f"{names}; {setup.deck} deck, {setup.mode} mode, seed {run.seed}")
        run.say("Bots' cards reach the game as camera readings of their equation areas.")
    run.shot("start")
    run.show(None, None, ("MT1:MECS:EQ",))  # a card held up alone opens its page
    run.shot("card_page")
    run.tap("close")
    shots, last_banner = 2, None
    flush = run.narration(lambda t: "Start" if t == 0 else f"Turn {t}")

    def move() -> None:
        """The turns told before this one, then the next move (and a shot of a banner)."""
        nonlocal shots, last_banner
        flush(play.story, upto=play.state.turn)
        driver.move()
        banner = play.banner
        if banner is not None and banner is not last_banner and shots < MAX_SHOTS:
            run.shot(f"turn_{play.state.turn:03d}_{banner.title.rstrip('!').lower()}")
            shots += 1
        last_banner = banner

    driver.line = run.play_out(move, MAX_MOVES).winner_line
    flush(play.story)
    run.shot("final")
    for seat in range(len(play.seats)):
        run.say(f"  {play.name(seat)}: {plural(play.state.coins(seat), 'coin')}")
    return driver


__all__ = ["Driver", "Setup", "play_demo", "run_demo"]
