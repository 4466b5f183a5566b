"""``tabletop demo --game mecs``: bots in every seat play a whole game in the app, offscreen.

The bots decide with :func:`tabletop.bots.mecs.decide`; what they do reaches the game
the way a child's move does: cards put down or hacked in are shown to the (simulated)
camera as a ``CardsSeen`` reading of that area, left to right; ending a turn, trading
and refilling are taps on the screen's buttons. One line is printed per turn, and the
last line is ``winner: NAMES`` (or ``winner: draw``). The app, the screenshots and the
closing lines are the one demo harness's (:class:`~tabletop.ui.harness.DemoRun`).

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

import random
from pathlib import Path
from typing import Any, TextIO

from tabletop.bots.mecs import decide
from tabletop.games.mecs import EndTurn, Hack, Plant, Refill, Trade
from tabletop.ui.harness import DemoRun, draw_seed, left_over_by

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

    def __init__(self, run: DemoRun, child: int | None = None, seed: int = 0) -> None:
        self.run = run
        self.moves = 0
        self.child = child
        self.seed = seed
        self.tried: set[tuple[int, tuple[str, ...]]] = set()  # (area seat, cards) answered
        self.last: Any = None  # the table last seen (the results replace it at the end)
        self.line = ""  # the winner line, once the game is over

    @property
    def table(self) -> Any:
        from tabletop.ui.games.mecs.table import MecsTable

        if not self.over():
            self.last = self.run.scene(MecsTable)
        return self.last

    @property
    def play(self) -> Any:
        return self.table.play

    def over(self) -> bool:
        from tabletop.ui.results import GameResults

        return isinstance(self.run.top, GameResults)

    def show_area(self, seat: int, cards: tuple[str, ...]) -> None:
        """The camera's steady reading of ``seat``'s equation area (0-based seat)."""
        self.run.show(seat, "equation", (f"MT1:MECS:{c}" for c in cards))

    def hold_up(self, code: str) -> None:
        """One card held up alone to the camera."""
        self.run.show(None, None, (f"MT1:MECS:{code}",))

    def perform(self, action: Any) -> None:
        """Make ``action`` happen through the screen or the camera."""
        if isinstance(action, Plant):
            self.show_area(action.seat, action.area)
        elif isinstance(action, Hack):
            self.show_area(action.target, action.area)
        elif isinstance(action, EndTurn):
            self.run.tap("end")
        elif isinstance(action, Refill):
            self.run.tap(f"refill.{action.stack}")
        elif isinstance(action, Trade):
            self.run.tap("trade")
            self.run.tap(f"choice.{action.card}")
            self.run.tap(f"choice.{action.draw_from}")
        else:
            raise DemoError(f"the demo cannot show {action!r}")

    def move(self) -> Any:
        """One bot decision, played through the app; returns it."""
        play = self.play
        seat = play.pending_seat()
        if seat is None:
            raise DemoError(f"nobody is to move ({play.state.phase})")
        before = len(play.match.history)
        if seat == self.child:
            self.child_hacks(seat)
        action = decide(play.state, seat, play.seats[seat].level)
        self.perform(action)
        play = self.play
        if len(play.match.history) == before and not self.over():
            raise DemoError(f"the app refused {action!r}: {play.message[0]}")
        self.moves += 1
        return action

    def child_hacks(self, seat: int) -> int:
        """The child's hack that its own sums say is right but is not, tried now (see
        the class): 1 if it tried one, else 0."""
        from tabletop.classroom.mistakes import Child

        play = self.play
        state = play.state
        if state.phase != "plant" or state.active != seat:
            return 0
        child = Child(random.Random(f"mecs-child:{self.seed}:{len(play.match.history)}"))
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
    from tabletop.ui.games.mecs.questions import equation_question

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
    seed = draw_seed(seed)
    tag = demo_tag(seed, seats, deck, mode) + (":child" if child else "")
    run = DemoRun(
        "mecs",
        seed=seed,
        out_dir=out_dir,
        out=out,
        size=size,
        data=data,
        # this demo's unfinished game: the one with the same tag
        left_over=left_over_by("mecs", app=lambda app: app.get("demo") == tag),
    )
    level = "medium" if child else "hard"  # areas a child can read, and hack
    driver = play_demo(run, seats=seats, deck=deck, mode=mode, tag=tag, level=level, child=child)
    return run.end(driver.line, f"{driver.moves} moves,")


def demo_tag(seed: int, seats: int, deck: str, mode: str) -> str:
    """What the demo writes in its game's ``save.app["demo"]``: a journaled game with the
    same tag is the one a run with the same arguments carries on."""
    return f"mecs:{seed}:{seats}:{deck}:{mode}"


def play_demo(
    run: DemoRun,
    *,
    seats: int = 3,
    deck: str = "advanced",
    mode: str = "normal",
    tag: str | None = None,
    level: str = "hard",
    child: bool = False,
) -> Driver:
    """Set the game up by taps (or carry on the journal's, when Home offers it) and play
    it to the end, printing one line per turn and the coins; returns the driver (its
    table, and its ``line``: the winner line).

    ``tag`` marks a new game as this demo's. ``level``: the bots' level (MECS-12), hard
    (the strongest) unless told. ``child``: seat 1 is a guest child (:class:`Driver`),
    journaled as a child, never as a bot.
    """
    driver = Driver(run, child=0 if child else None, seed=run.seed)
    run.open_game()
    if run.resuming:  # Home: "A game of M.E.C.S. was not finished. Carry on with it?"
        play = driver.play
        run.carrying_on(f"turn {play.state.turn}, {len(play.match.history)} actions.")
    else:
        setup = run.top
        setup.extra["bot_driver"] = "external"  # the demo moves the bots' cards itself
        # every seat a bot at the level (seat 1 the child's)
        run.fill_seats(range(1 if child else 0, seats), f"bot.{level}")
        run.tap(f"mode.{mode}")
        if setup.options["deck"] != deck:  # challenge has chosen the advanced deck already
            run.tap(f"deck.{deck}")
        run.tap("start")
        table = driver.table
        if tag is not None:
            table.save.app["demo"] = tag
            table.save.write_meta()
        if child:
            from tabletop.ui.saves import demo_seats

            demo_seats(table.save, 0)
        names = ", ".join(s.name for s in table.play.seats)
        run.intro("M.E.C.S.", f"{names}; {deck} deck, {mode} mode, seed {run.seed}")
        run.say("Bots' cards reach the game as camera readings of their equation areas.")
    run.shot("start")
    driver.hold_up("EQ")  # one card held up alone opens its page, as the QR code promises
    run.shot("card_page")
    run.tap("close")
    shots, printed = 2, 0
    turn = driver.play.state.turn
    last_banner = None

    def flush(upto: int | None = None) -> None:
        nonlocal printed
        lines = driver.play.turns[printed:]
        if upto is not None:
            lines = [(t, text) for t, text in lines if t < upto]
        printed += len(lines)
        for t in dict.fromkeys(t for t, _ in lines):
            label = "Start" if t == 0 else f"Turn {t}"
            run.say(f"{label}: {' '.join(text for tt, text in lines if tt == t)}")

    while not driver.over():
        if driver.moves >= MAX_MOVES:
            raise DemoError(f"no winner after {MAX_MOVES} moves")
        play = driver.play
        if play.state.turn != turn:
            flush(upto=play.state.turn)
            turn = play.state.turn
        driver.move()
        play = driver.play
        banner = play.banner
        if banner is not None and banner is not last_banner and shots < MAX_SHOTS:
            run.shot(f"turn_{play.state.turn:03d}_{banner.title.rstrip('!').lower()}")
            shots += 1
        last_banner = banner
    flush()
    run.shot("final")
    play = driver.play
    for seat in range(len(play.seats)):
        run.say(f"  {play.name(seat)}: {play.state.coins(seat)} coins")
    driver.line = run.top.winner_line
    return driver


__all__ = ["DemoError", "Driver", "play_demo", "run_demo"]
