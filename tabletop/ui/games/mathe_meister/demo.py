"""``tabletop demo``: a whole solo Mathe-Meister game in the app, offscreen.

Each round one photo from ``tabletop/assets/samples/`` lies "under the camera": the real
vision pipeline reads its dice, and a wrong reading is corrected with "That's wrong" as a
child would (the photo's label file is the truth). The hint bot then plays the round by
taps. Each round is printed, with a screenshot of its dice screen and sheet; the last
line is ``final score: N``. With ``data``, a demo killed and started again with the same
arguments carries on through Home's offer and ends the same: each round's photo is fixed
by the seed, and a round caught halfway is taken back with Undo to its dice.
"""

from __future__ import annotations

import queue
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import partial
from pathlib import Path
from typing import Any, TextIO

from tabletop.assets import assets_dir
from tabletop.bots.mathe_meister import hint
from tabletop.classroom.mistakes import LEFT_TO_RIGHT, Child, question
from tabletop.engine.errors import TabletopError
from tabletop.engine.words import plural
from tabletop.games.mathe_meister import (
    LINES,
    ROUNDS,
    MatheMeister,
    Roll,
    WriteOperator,
    line_name,
    line_parts,
    lines_of,
    score_sheet,
    sum_wanted,
)
from tabletop.outfiles import write_file
from tabletop.terminal import render_score
from tabletop.ui.games.mathe_meister.play import modes_named

SIZE = (800, 480)


@dataclass(frozen=True)
class Sample:
    """A photo of two dice and the values its label file says they show."""

    path: Path
    truth: tuple[int, ...]
    boxes: tuple[tuple[int, ...], ...]


def load_samples(folder: Path | None = None) -> list[Sample]:
    """The photos (the bundled samples, 640x480) that have YOLO label files."""
    from vision.datasets import yolo_dice

    out = []
    for photo in sorted((folder or assets_dir() / "samples").glob("*.jpg")):
        if (label := photo.with_suffix(".txt")).exists():
            dice = yolo_dice(label)
            boxes = tuple(tuple(map(round, d.box)) for d in dice)
            out.append(Sample(photo, tuple(d.value for d in dice), boxes))
    return out


def pick_camera(sample: Callable[[], Sample], sink: Callable[[Any], None]) -> tuple[Any, str]:
    """A camera on the photo ``sample()`` names: the vision pipeline where its dice
    reader loads, else one whose reader is the photos' label files; and its name."""
    from tabletop.ui.camera import DiceCamera, PipelineCamera, vision_pipeline_ready
    from vision import dice
    from vision.sources import ImageFolderSource

    def photo() -> ImageFolderSource:
        return ImageFolderSource([sample().path], loop=True)

    if vision_pipeline_ready():
        # The sample photos are 640x480 snapshots, not 1920x1080 camera frames: the dice
        # detector sees them at its own default scale, as `tabletop vision dice` does.
        options = {"dice_long_side": dice.DETECT_LONG_SIDE}
        return PipelineCamera(photo, sink, threaded=False, options=options), "the vision pipeline"

    def labels(frame: Any) -> list[dict[str, Any]]:
        s = sample()
        return [{"value": v, "box": b, "confidence": 1.0} for v, b in zip(s.truth, s.boxes)]

    camera = DiceCamera(photo, labels, sink, threaded=False)
    return camera, "the photos' label files (the vision dice reader is not available)"


def run_demo(
    *,
    out_dir: Path | None = None,
    seed: int | None = None,
    modes: tuple[str, ...] = ("freestyle",),
    samples: Path | None = None,
    out: TextIO,
    size: tuple[int, int] = SIZE,
    log_path: Path | None = None,
    data: Path | None = None,
    child: bool = False,
) -> str:
    """Play the demo game (see the module); returns its last line. ``log_path``: write
    the game log; ``child``: a guest child plays, by :func:`childs_choice` (issue 24)."""
    from tabletop.ui.games.mathe_meister.autoplay import MatheMeisterRun
    from tabletop.ui.games.mathe_meister.setup import mode_target
    from tabletop.ui.harness import draw_seed, left_over_by
    from tabletop.ui.results import GameResults
    from tabletop.ui.saves import demo_seats

    photos = load_samples(samples)
    if not photos:
        raise ValueError(f"no sample photos with labels in {samples or assets_dir() / 'samples'}")
    given, seed = seed is not None, draw_seed(seed)  # a drawn seed carries nothing on
    picked = random.Random(seed).sample(range(max(ROUNDS, len(photos))), ROUNDS)
    order = [photos[i % len(photos)] for i in picked]  # each round's photo
    under = [order[0]]  # the photo under the camera now
    vision_queue: queue.SimpleQueue[Any] = queue.SimpleQueue()
    camera, reader_name = pick_camera(lambda: under[0], vision_queue.put)
    tag = f"mathe-meister:{seed}:{'+'.join(modes)}{':child' if child else ''}"
    mine = left_over_by("mathe-meister", app=lambda app: app.get("demo") == tag)
    run = MatheMeisterRun(
        "mathe-meister",
        seed=seed,
        out_dir=out_dir,
        out=out,
        size=size,
        data=data,
        left_over=mine if given else None,
        vision_queue=vision_queue,
        camera=camera,
    )
    run.ctx.prefs.prefs.dice_input = "camera"
    run.open_game()  # Home: the game's setup, or "Carry on?" (yes)
    if not run.resuming:
        run.intro("Mathe-Meister", f"solo, {modes_named(modes)}, seed {seed}")
        run.say(f"Dice: photos from tabletop/assets/samples/, read by {reader_name}.")
        for mode in modes:
            if mode != "freestyle":
                run.tap(mode_target(mode))
        run.tap("start")
        run.game().save.app["demo"] = tag
        run.game().save.write_meta()
    elif isinstance(run.top, GameResults):  # it had played its last move
        run.carrying_on("the game is over.")
    else:
        game = run.game()
        run.carrying_on(f"round {game.state.round}.")
        for n in range(1, game.state.round):  # the story so far, from the journal
            _tell_round(run, game.match, n, order[n - 1], None)
        taken = len(game.match.history) - game.play.round_start
        if game.state.dice is not None and taken > 0:
            while len(game.match.history) > game.play.round_start:
                run.tap("undo")
            moves = plural(taken, "move")
            run.say(f"  Undo: {moves} of round {game.state.round} taken back, to play it again.")
    first = ROUNDS + 1 if isinstance(run.top, GameResults) else run.game().state.round
    if first <= ROUNDS:  # the hint bot plays: never in a report; the demo child is a guest
        demo_seats(run.game().save, 0 if child else None)
    for r in range(first, ROUNDS + 1):
        under[0] = order[r - 1]
        how = None if run.game().state.dice is not None else _dice_round(run, r, order[r - 1])

        def before_done(r: int = r) -> None:
            run.shot(f"round_{r:02d}")
            under[0] = order[min(r, ROUNDS - 1)]  # the next dice screen opens at "done"

        choose = partial(childs_choice, Child(random.Random(seed * 100 + r))) if child else None
        match = run.game().match  # the game's scene is gone after its last round
        run.bot_round(before_done=before_done, choose=choose)
        _tell_round(run, match, r, order[r - 1], how)
    end = run.results().detail
    run.shot("final")
    run.say("\n" + render_score(end.card))
    if log_path is not None:
        write_file(log_path, "\n".join(end.match.log_lines()) + "\n")
        run.say(f"The game log is in {log_path}: `tabletop replay {log_path}` replays it.")
    return run.end(f"final score: {end.score}", "\nOne screenshot a round, and the end.")


def childs_choice(child: Any, state: Any, plan: Sequence[Any]) -> Any:
    """The ``--child`` demo's decision for ``plan[0]``, the hint bot's next move (the
    rest: the round's later writes), so the seeded child's arithmetic mistakes become
    lines that break their rule, the one kind of mistake a sheet shows (issue 24). The
    bot's move, but for an operator: the first of the bot's and then + - x that the
    engine takes and for which the child believes every line through its cell complete
    by the round's end keeps its rule (the child's own sums, :meth:`Child.answer`); else
    the first the engine takes."""
    action = plan[0]
    if not isinstance(action, WriteOperator):
        return action
    game = MatheMeister()
    legal = []
    for op in (action.op, *(o for o in ("+", "-", "x") if o != action.op)):
        choice = replace(action, op=op)
        try:
            after, _ = game.apply(state, choice)
        except TabletopError:
            continue
        legal.append(choice)
        for later in plan[1:]:  # the rest of the round as planned, where it still fits
            try:
                after, _ = game.apply(after, later)
            except TabletopError:
                continue
        sheet = after.sheets[action.seat]
        believed_ok = True
        for line in lines_of(action.cell):
            if not sheet.line_complete(line):
                continue
            operands, ops = line_parts(sheet.grid, line)
            q = question("line_sums", [int(n) for n in operands], ops, order=LEFT_TO_RIGHT)
            said = Fraction(child.answer(q))
            believed_ok &= said.denominator == 1 and sum_wanted(line, said.numerator)
        if believed_ok:
            return choice
    return legal[0] if legal else action


def _tell_round(run: Any, match: Any, n: int, sample: Sample, how: str | None) -> None:
    """Round ``n`` of ``match`` told: its photo, how its dice came (``None``: from the
    journal), the bot's plan, the lines it completed and the score then."""
    steps = match.steps
    rolled = [i for i, step in enumerate(steps) if isinstance(step.action, Roll)]
    start = steps[rolled[n - 1]].state
    end = steps[rolled[n] - 1].state if n < len(rolled) else match.state
    if how is None:
        how = f"the dice {start.dice[0]} and {start.dice[1]}, from the journal"
    run.say(f"\nRound {n}: {sample.path.name}: {how}.")
    run.say(f"  The bot's plan: {hint(start, 0).describe()}")
    before, sheet = start.sheets[0], end.sheets[0]
    card = score_sheet(sheet, end.settings)
    for line in LINES:
        ls = card.line(line)
        if ls.total is not None and not before.line_complete(line):
            star = " and its Bonus Star" if line in sheet.stars else ""
            points = plural(ls.points, "point", signed=True)
            run.say(f"  {line_name(line)} is complete: = {ls.total}, {points}{star}.")
    run.say(f"  Score now: {card.total}")


def _dice_round(run: Any, r: int, sample: Sample) -> str:
    """Round ``r``'s dice: the camera's reading of the photo, used or corrected by
    touch; returns how, in words."""
    from tabletop.ui.scenes.dice import DiceScene

    run.step()  # the dice screen takes the camera's reading off the queue
    dice = run.top
    if not isinstance(dice, DiceScene):
        raise RuntimeError("the dice screen did not open")
    run.shot(f"round_{r:02d}_dice")
    seen = dice.seen
    read = (
        "nothing"
        if seen is None
        else " and ".join("?" if v is None else str(v) for v in seen.values) or "no dice"
    )
    truth = (sample.truth[0], sample.truth[1])
    if seen is not None and seen.readable and sorted(seen.values) == sorted(truth):  # type: ignore[type-var]
        run.tap("use")
        return f"the camera read {read}"
    if seen is not None and dice.mode == "camera":
        run.tap("wrong")
    run.tap_dice(truth)
    return f"the camera read {read}; corrected by touch to {truth[0]} and {truth[1]}"


__all__ = ["Sample", "load_samples", "run_demo"]
