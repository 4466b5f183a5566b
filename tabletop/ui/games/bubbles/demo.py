"""``tabletop demo --game bubbles``: one 60 s round from Home (M.E.C.S.'s setup links
to the bubble game) with a bot that drags bubbles as a child would, on the one demo
harness (:class:`~tabletop.ui.harness.DemoRun`): pointer down on a red bubble, a drag
across the field in a few moves, and a release on the pair."""

from __future__ import annotations

from pathlib import Path
from typing import TextIO

from tabletop.games.bubbles import DT, any_move, best_move
from tabletop.ui.games.bubbles.scene import BubbleScene
from tabletop.ui.harness import SIZE, DemoClock, DemoRun
from tabletop.ui.input import Drag, Release, Tap

BOT_NAME = "Bubble Bot"
BOT_THINK = 0.8  # seconds between the bot's moves
BOT_PATIENCE = 6.0  # seconds without a target in reach before it clears a pair


def run_demo(
    *, seed: int | None, out_dir: Path | None, out: TextIO, size: tuple[int, int] = SIZE
) -> str:
    clock = DemoClock()
    run = DemoRun("bubbles", seed=seed, out_dir=out_dir, out=out, size=size, clock=clock)
    run.intro("Bubble game", f"one 60 s round, {BOT_NAME} drags the bubbles, seed {run.seed}")
    for name in ("game.mecs", "bubbles"):
        run.tap(name)
    run.shot("setup")
    run.tap("start")
    scene = run.scene(BubbleScene)
    game = scene.play.game
    run.say(f"First target: {game.target}")
    shots = told = 0
    next_move, waiting_since = clock.now + BOT_THINK, clock.now
    while not scene.finished:
        run.wait(1 / 30)
        for event in game.retargets[told:]:
            run.say(f"{event.at:5.1f} s: {event.reason}")
        told, now = len(game.retargets), clock.now
        if not scene.finished and now >= next_move:
            next_move = now + BOT_THINK
            move = best_move(game)
            if move is None and now - waiting_since >= BOT_PATIENCE:
                move = any_move(game)  # nothing makes the target: clear a pair
            if move is not None:
                waiting_since, pops = now, len(game.pops)
                drag(run, scene, clock, *move)
                if len(game.pops) > pops:
                    popped = game.pops[-1]
                    mark = "hit!" if popped.hit else "miss"
                    run.say(
                        f"{popped.at:5.1f} s: {popped.equation} (target {popped.target}): "
                        f"{mark} score {game.score}, target now {popped.new_target}"
                    )
                    if popped.hit and shots < 3:
                        shots += 1
                        run.shot(f"hit_{shots}")
        if game.steps in (round(5 / DT), round(30 / DT)):
            run.shot(f"round_{round(game.elapsed):02d}s")
    run.shot("name")
    for ch in BOT_NAME.upper():
        run.tap("key.space" if ch == " " else f"key.{ch}")
    run.tap("ok")
    results = run.results()
    run.shot("final")
    return run.end(results.winner_line, f"score: {scene.player} {game.score}.")


def drag(run: DemoRun, scene: BubbleScene, clock: DemoClock, number: int, onto: int) -> None:
    """A finger down on bubble ``number``, six moves, and up on bubble ``onto``."""
    bubbles = scene.play.game.bubbles
    (x0, y0), (x1, y1) = (scene.to_screen(bubbles[b].x, bubbles[b].y) for b in (number, onto))
    run.post(Tap((x0, y0), clock.now, "touch"))
    for i in range(1, 7):
        clock.advance(1 / 30)
        run.post(Drag((round(x0 + (x1 - x0) * i / 6), round(y0 + (y1 - y0) * i / 6)), clock.now))
    run.post(Release((x1, y1), clock.now))


__all__ = ["BOT_NAME", "run_demo"]
