"""``tabletop demo --game bubbles``: one 60 s round from Home (M.E.C.S.'s setup links
to the bubble game) with a bot that drags bubbles as a child would, on the one demo
harness (:class:`~tabletop.ui.harness.DemoRun`)."""

from __future__ import annotations

from pathlib import Path
from typing import TextIO

from tabletop.games.bubbles import DT, Popped, any_move, best_move
from tabletop.ui.games.bubbles.scene import BubbleScene
from tabletop.ui.harness import SIZE, DemoClock, DemoRun
from tabletop.ui.input import Drag, Release, Tap

BOT_NAME = "Bubble Bot"
BOT_THINK = 0.8  # seconds between the bot's moves
BOT_PATIENCE = 6.0  # seconds without a target in reach before it clears a pair


def run_demo(
    *, seed: int | None, out_dir: Path | None, out: TextIO, size: tuple[int, int] = SIZE
) -> str:
    """One round with a bot that drags bubbles (see :mod:`tabletop.ui.games`)."""
    clock = DemoClock()
    run = DemoRun("bubbles", seed=seed, out_dir=out_dir, out=out, size=size, clock=clock)
    run.intro("Bubble game", f"one 60 s round, {BOT_NAME} drags the bubbles, seed {run.seed}")
    run.tap("game.mecs")
    run.tap("bubbles")
    run.shot("setup")
    run.tap("start")
    scene = run.scene(BubbleScene)
    game = scene.play.game
    bot = DemoBot(run, scene, clock)
    run.say(f"First target: {game.target}")
    shots = told = 0
    while not scene.finished:
        run.wait(1 / 30)
        for event in game.retargets[told:]:
            run.say(f"{event.at:5.1f} s: {event.reason}")
        told = len(game.retargets)
        popped = None if scene.finished else bot.think()
        if popped is not None:
            mark = "hit!" if popped.hit else "miss"
            run.say(
                f"{popped.at:5.1f} s: {popped.equation} (target {popped.target}): {mark} "
                f"score {game.score}, target now {popped.new_target}"
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


class DemoBot:
    """Plays a round as a child would: pointer down on a red bubble, a drag across the
    field in a few moves, and a release on the pair (``Drag``/``Release`` events)."""

    def __init__(self, run: DemoRun, scene: BubbleScene, clock: DemoClock) -> None:
        self.run = run
        self.scene = scene
        self.clock = clock
        self.next_move = clock.now + BOT_THINK
        self.waiting_since = clock.now

    def think(self) -> Popped | None:
        now = self.clock.now
        game = self.scene.play.game
        if now < self.next_move or game.over:
            return None
        self.next_move = now + BOT_THINK
        move = best_move(game)
        if move is None:
            if now - self.waiting_since < BOT_PATIENCE:
                return None
            move = any_move(game)
            if move is None:
                return None
        self.waiting_since = now
        pops = len(game.pops)
        self.drag(*move)
        return game.pops[-1] if len(game.pops) > pops else None

    def drag(self, number: int, onto: int) -> None:
        scene, run = self.scene, self.run
        game = scene.play.game
        start = scene.to_screen(game.bubbles[number].x, game.bubbles[number].y)
        end = scene.to_screen(game.bubbles[onto].x, game.bubbles[onto].y)
        run.post(Tap(start, self.clock.now, "touch"))
        for i in range(1, 7):
            self.clock.advance(1 / 30)
            pos = (
                round(start[0] + (end[0] - start[0]) * i / 6),
                round(start[1] + (end[1] - start[1]) * i / 6),
            )
            run.post(Drag(pos, self.clock.now))
        run.post(Release(end, self.clock.now))


__all__ = ["BOT_NAME", "DemoBot", "run_demo"]
