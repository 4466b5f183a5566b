"""``tabletop demo --game math-attack``: two bots play a whole game with "real" cards
from a virtual deck (a second engine that knows both hands), on the one demo harness
(:class:`~tabletop.ui.harness.DemoRun`, imported when the demo runs: this module brings
no pygame in, so a refused ``--child`` prints its one line alone): each play reaches the
app as a camera reading of its line (once unreadable, set right by touch), and the app's
engine must agree with the deck's at every turn. The last line is ``winner: NAMES`` or
``winner: draw``. ``data``: journal there (the app's game and the deck); killed and
started again, the demo carries on through Home's offer and ends as an uninterrupted
run does (every draw and bot choice is keyed by the seed and the number of actions so
far)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any, TextIO

from tabletop.bots.math_attack import LEVEL_NAMES, MathAttackBot
from tabletop.engine.match import Match
from tabletop.games import GAMES
from tabletop.games.math_attack import END, MathAttackSettings, Pass, Play
from tabletop.ui.games.math_attack.play import GAME
from tabletop.ui.messages import seats_named
from tabletop.ui.saves import DemoTable, demo_seats, keyed_dealer

MISREAD_TURN = 3  # the camera cannot read this turn's card: the demo sets it right by touch


def run_demo(
    *,
    seed: int | None = None,
    out_dir: Path | None = None,
    out: TextIO,
    size: tuple[int, int] = (800, 480),
    bots: tuple[str, str] = ("hard", "medium"),
    rollouts: int = 200,
    data: Path | None = None,
) -> str:
    from tabletop.ui.games.math_attack.table import AttackScene
    from tabletop.ui.harness import DemoRun, draw_seed

    seed = draw_seed(seed)
    kept: dict[str, Any] = {}

    def left_over(ctx: Any) -> bool:
        kept["table"] = DemoTable(ctx, GAME.name, seed)
        kept["deck"] = kept["table"].open(GAMES)
        return kept["deck"] is not None

    run = DemoRun(
        GAME.name, seed=seed, out_dir=out_dir, out=out, size=size, data=data, left_over=left_over
    )
    table: DemoTable = kept["table"]
    deck: Match[Any, Any, Any] | None = kept["deck"]
    run.open_game()
    if deck is None:
        for seat, level in enumerate(bots):
            run.top.name_seat(seat, f"{LEVEL_NAMES[level]} bot")
        run.tap(f"first.{seed % 2}")
        run.tap("start")
        deck = Match(GAME, MathAttackSettings(first_player=seed % 2), 2, seed=seed)
        table.start(deck)
    scene = run.scene(AttackScene)
    demo_seats(scene.save)  # the demo's bots are never in a report
    names, dealer = scene.names, keyed_dealer(seed, deck)
    players = tuple(MathAttackBot(level, seed + i, rollouts) for i, level in enumerate(bots))
    turn = sum(1 for a in deck.history if isinstance(a, (Play, Pass)))
    before = [deck.initial, *(step.state for step in deck.steps)]
    for state, action in zip(before, deck.history, strict=False):
        if isinstance(action, (Play, Pass)):  # the bots remember how the other seat plays
            players[action.seat].recall(state, action)
    if table.saved is None:
        run.intro("Math Attack!", f"{names[0]} v {names[1]}, seed {seed}")
        run.say(
            "Cards: a virtual deck; every play reaches the app as a camera reading of its "
            "number line."
        )
    else:
        run.carrying_on(f"after turn {turn}.")
        # The table is as the deck says: a play the app had not seen yet is read again.
        for line in (0, 1):
            if scene.state.lines[line] != deck.state.lines[line]:
                run.show(line, "line", deck.state.lines[line])
        last = deck.history[-1] if deck.history else None
        if isinstance(last, Pass) and scene.state.turn == last.seat and not scene.over:
            run.tap("pass")
    run.shot(f"turn_{turn:02d}")
    while deck.pending.chance is not None:
        deck.deal(dealer)
    told = run.narration(lambda t: f"Turn {t}", len(scene.play.story))  # read again: told
    while deck.state.phase != "over":
        turn, seat = turn + 1, deck.state.turn
        # each choice keyed by the seed and the actions so far: a resumed demo plays on
        # exactly as an uninterrupted one
        players[seat].rng = random.Random(f"{seed}:{seat}:{len(deck.history)}")
        action = players[seat].choose(deck.state, seat)
        deck.apply(action)
        if isinstance(action, Play):  # under the camera; once unreadable: set right by touch
            cards, misread = deck.state.lines[action.line], turn == MISREAD_TURN
            run.show(action.line, "line", [*cards[:-1], "?" if misread else cards[-1]])
            if misread:
                run.shot(f"turn_{turn:02d}_misread")
                run.tap(f"seen.{action.line}")
                run.tap(f"choice.{action.card}")
        else:
            run.tap("pass")
        while deck.pending.chance is not None:
            deck.deal(dealer)
        over, seen, now = deck.state.phase == "over", scene.state, deck.state
        if not over and (seen.lines, seen.turn) != (now.lines, now.turn):
            raise RuntimeError(f"turn {turn}: the app and the virtual deck disagree")
        told(scene.play.story)
        if not over and (turn % 5 == 0 or (isinstance(action, Play) and action.card == END)):
            run.shot(f"turn_{turn:02d}")
    results = run.results()
    if scene.state.lines != deck.state.lines:
        raise RuntimeError("the app's final number lines differ from the virtual deck's")
    run.shot("final")
    expected, got = GAME.result(deck.state), scene.match.result()
    if expected is None or got is None or expected.places != got.places:
        raise RuntimeError("the app's result differs from the engine's")
    t0, t1 = deck.state.totals
    run.say(f"\nFinal totals: {names[0]} {t0}, {names[1]} {t1} ({seats_named(got.reason, names)}).")
    table.finish(deck)
    return run.end(results.winner_line)


__all__ = ["run_demo"]
