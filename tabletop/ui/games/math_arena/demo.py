"""``tabletop demo --game math-arena``: bots in every seat, on the one demo harness.

The camera is simulated from the virtual deal (``CardsSeen``), one card is misread once
per set and corrected by touch; screenshots of every round. ``--child``: seat 1 is a
guest child (issue 24) who picks two cards on the screen and says its value on the
number pad from the seeded model of :mod:`tabletop.classroom.mistakes` (an answer the
pad cannot take, below 0 or over 99, is said right). ``--data``: journaled as the app
does; killed and started again with the same arguments, the demo carries on through
Home's offer and ends as an uninterrupted run does (the deal, the bots' and the child's
picks are keyed by the seed and the number of actions; the demo reads the table from
where the round is).
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import TextIO

from tabletop.classroom.mistakes import Child
from tabletop.engine.words import sentence
from tabletop.games.math_arena import NUMBER_CARDS
from tabletop.ui.games.math_arena.play import BOT_STAGGER, COUNTDOWN, GAME, value_question
from tabletop.ui.games.math_arena.table import ArenaScene
from tabletop.ui.harness import DemoClock, DemoRun, cards_seen, draw_seed, left_over_by, type_number


def run_demo(
    *,
    seed: int | None,
    out_dir: Path | None,
    out: TextIO,
    size: tuple[int, int] = (800, 480),
    data: Path | None = None,
    child: bool = False,
) -> str:
    seed = draw_seed(seed)
    players, clock = 2 + seed % 4, DemoClock()
    # this demo's unfinished game: its seed is the session, and as many seats
    mine = left_over_by(
        GAME.name, same_session=True, app=lambda app: len(app.get("seats") or ()) == players
    )
    run = DemoRun(GAME.name, seed=seed, out_dir=out_dir, out=out, size=size, data=data,
                  clock=clock, left_over=mine)  # fmt: skip
    run.open_game()
    if not run.resuming:  # hard bots (seat 1 a child with --child), the other seats empty
        run.fill_seats(range(1 if child else 0, players), "bot.hard")
        run.fill_seats(reversed(range(players, len(run.top.filled))), "empty")
        run.tap("start")
    scene = run.scene(ArenaScene)
    game = scene.play
    if run.resuming:
        (set_no, round_no), phase = game.round_label, game.phase
        run.carrying_on(f"set {set_no} round {round_no}, {phase}.")
    else:
        what = f"{players} hard bots, virtual deal, seed {seed}"
        run.intro("Math Arena", f"{what}; the camera is simulated from the deal.")
    rng = random.Random(seed)
    misread_round = {s: rng.randrange(1, game.state.deal.rounds + 1) for s in (1, 2, 3)}
    misread = 1 if child else 0  # the seat whose card the camera misreads once a set
    shots, read = 0, None  # the round whose pairs the camera read (again after a restart)
    announced = {s for s in range(players) if game.ready[s]}  # "is ready" lines printed
    told = run.narration(lambda at: f"set {at[0]} round {at[1]}")

    def move() -> None:
        nonlocal shots, read, announced
        st, phase = game.state, game.phase
        label = f"set {game.round_label[0]} round {game.round_label[1]}"
        key = f"{len(game.match.history)}:{game.round_label}"  # the child's picks and answers
        if phase == "ready" and child and not game.ready[0]:  # the child picks on screen
            run.tap("seat.0")
            if not game.ready[0]:  # else the last two cards went down at once
                pick = random.Random(f"{seed}:child-pick:{key}").sample(sorted(st.hands[0]), 2)
                for card in pick:
                    run.tap(f"hand.{card}")
                run.tap("put")
        elif phase == "ready":  # the bots press their buttons
            run.wait(BOT_STAGGER)
            for seat in sorted(set(s for s in range(players) if game.ready[s]) - announced):
                announced.add(seat)
                run.say(f"  {game.name(seat)} is ready.")
        elif phase == "countdown":  # the countdown runs, "Reveal!"
            run.wait(1.0)
            if shots < 2:
                shots += 1
                run.shot(f"countdown_{shots}")
            run.wait(COUNTDOWN)
        elif phase == "reveal" and read != game.round_label:
            read = game.round_label  # the camera reads every pair, misreading one a set
            for seat in range(players):
                pair = list(game.picks[seat])
                if st.round == misread_round.get(st.set_number) and seat == misread:
                    other = st.hands[1 - misread]
                    pair[1] = next(c for c in NUMBER_CARDS if c in st.played or c in other)
                run.app.post(cards_seen(seat + 1, "reveal", pair, clock.now))
            run.step()
            run.say("  Reveal! The camera reads every pair.")
        elif phase == "reveal" and game.pairs[misread] != list(game.picks[misread]):
            truth, wrong = game.picks[misread][1], game.pairs[misread][1]
            run.tap("score")
            name = game.name(misread)
            run.say(f"{label}: the camera misread {name}'s {truth} as {wrong}: {game.message}")
            run.shot(f"set{st.set_number}_misread")
            run.tap(f"card.{misread}.1")
            run.tap(f"choice.{truth}")
        elif phase == "reveal" and child and game.can_say(0):  # the child says its value
            op, (a, b) = st.operator, game.pairs[0]
            assert op is not None and a is not None and b is not None
            q = value_question(op, (a, b))
            value = int(Child(random.Random(f"{seed}:child-says:{key}")).answer(q))
            value = value if 0 <= value <= 99 else int(q.answer)
            run.tap("value.0")
            type_number(run.tap, value)
            run.say(f"  {game.name(0)} says {value}: {game.message}")
        elif phase == "reveal":  # virtual cards: the device shows tied seats' leftover cards
            run.tap("score")
        elif phase == "result":
            told(game.story)
            run.shot(f"set{game.round_label[0]}_round{game.round_label[1]:02d}")
            announced = set()
            run.tap("next")
        else:
            raise RuntimeError(f"{label}: the demo does not know phase {phase}")

    results = run.play_out(move, 100_000)
    run.shot("results")
    counts = ", ".join(f"{game.name(s)} {len(game.state.won[s])}" for s in range(players))
    run.say(f"Operator cards: {counts}. {sentence(game.names(game.standings().reason))}")
    return run.end(results.winner_line)


__all__ = ["run_demo"]
