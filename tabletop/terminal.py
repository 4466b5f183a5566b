"""Mathe-Meister in a terminal: the sheet drawn in text, and the bot's demo game.

Until the touchscreen app lands, ``make run`` and ``tabletop demo`` play here.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import TextIO

from tabletop.assets import mathe_meister_layout
from tabletop.bots.mathe_meister import after_writes, hint
from tabletop.engine.dealers import RngDealer
from tabletop.engine.match import Match
from tabletop.engine.protocol import Event
from tabletop.games.mathe_meister import (
    COIN,
    EMPTY,
    MODE_NAMES,
    SIZE,
    SPENT,
    Action,
    MatheMeister,
    MatheMeisterSettings,
    MatheMeisterState,
    ScoreCard,
    Sheet,
    cell_kind,
    score_sheet,
)
from tabletop.outfiles import write_file

APP_NOTE = (
    "This is the terminal version (`tabletop demo --terminal`). The touchscreen app:\n"
    "`tabletop` (or `make run` on a machine with a display); `tabletop demo` plays it offscreen."
)


def render_sheet(sheet: Sheet, settings: MatheMeisterSettings, title: str = "") -> str:
    """The tracking sheet as text: the grid, line sums and points, supply, powers, coins."""
    card = score_sheet(sheet, settings)
    prefilled = settings.layout.prefilled_map
    out = [title] if title else []
    out.append("      " + "".join(f"C{j + 1:<5}" for j in range(4)))
    for r in range(SIZE):
        cells = []
        for c in range(SIZE):
            ch = sheet.at((r, c))
            kind = cell_kind((r, c))
            if kind == "coin":
                ch = {COIN: "o", SPENT: "*"}[ch]
            elif ch == EMPTY:
                ch = "_" if kind == "operand" else "."
            elif (r, c) in prefilled:
                ch = ch.upper() if ch == "x" else ch
            cells.append(f"{ch:^3}")
        label = f"R{r // 2 + 1}  " if r % 2 == 0 else "    "
        tail = ""
        if r % 2 == 0:
            tail = "  " + _line_tail(card, f"R{r // 2 + 1}", sheet, settings)
        out.append(f"  {label}" + "".join(cells) + tail)
    tails = [_line_tail(card, f"C{j + 1}", sheet, settings) for j in range(4)]
    out.append("  columns: " + " | ".join(f"C{j + 1} {t}" for j, t in enumerate(tails)))
    supply = "  ".join(f"{op} x{n}" for op, n in zip("+-x", sheet.supply))
    powers = " ".join(
        f"[{k}]" if state == "circled" else f"({k})" if state == "free" else " -- "
        for k, state in zip(settings.layout.star_powers, sheet.powers)
    )
    out.append(f"  operators left: {supply}    coins: {sheet.coins(settings.layout)}")
    out.append(f"  star powers ([circled] (free) -- used): {powers}")
    return "\n".join(out)


def _line_tail(card: ScoreCard, line: str, sheet: Sheet, settings: MatheMeisterSettings) -> str:
    ls = card.line(line)
    star = settings.layout.star_value(line)
    mark = f"*{star} yours" if line in sheet.stars else f"*{star}"
    if ls.total is None:
        return f"= ...     {mark}"
    flag = "" if ls.valid else " (not valid)"
    return f"= {ls.total:<5} {ls.points:+d}{flag}  {mark}"


def render_score(card: ScoreCard) -> str:
    """The END GAME SCORING table (MM-11)."""
    lines = ["END GAME SCORING"]
    lines += [f"  {name:<24}{value:>7}" for name, value in card.rows]
    lines.append(f"  {'Final Score':<24}{card.total:>7}")
    return "\n".join(lines)


def demo(
    seed: int | None = None,
    modes: tuple[str, ...] = ("freestyle",),
    log_path: Path | None = None,
    out: TextIO | None = None,
) -> int:
    """The bot plays a whole solo game with virtual dice, printing each round."""
    out = out or sys.stdout
    seed = random.SystemRandom().randrange(10**6) if seed is None else seed
    game = MatheMeister()
    settings = MatheMeisterSettings(mathe_meister_layout(), modes)
    match: Match[MatheMeisterSettings, MatheMeisterState, Action] = Match(
        game, settings, 1, seed=seed
    )
    dealer = RngDealer(seed)
    names = " + ".join(MODE_NAMES[m] for m in settings.modes)
    print(f"Mathe-Meister, solo, {names}, dice seed {seed}", file=out)
    while match.result() is None:
        state = match.state
        if state.dice is None:
            request = match.pending.chance
            assert request is not None
            for event in match.apply(dealer.deal(request)):
                print(f"\n{event.text}", file=out)
            continue
        advice = hint(state, 0)
        print(f"  The bot's plan: {advice.describe()}", file=out)
        for action in advice.actions():
            _tell(match.apply(action), out)
        for action in after_writes(match.state, 0):
            _tell(match.apply(action), out)
        if match.result() is None:
            print(render_sheet(match.state.sheets[0], settings), file=out)
    final = match.state.sheets[0]
    print(render_sheet(final, settings, "\nThe finished sheet:"), file=out)
    print(render_score(score_sheet(final, settings)), file=out)
    print(f"\n{APP_NOTE}", file=out)
    if log_path is not None:
        write_file(log_path, "\n".join(match.log_lines()) + "\n")
        print(f"The game log is in {log_path}: `tabletop replay {log_path}` replays it.", file=out)
    return 0


def _tell(events: tuple[Event, ...], out: TextIO) -> None:
    for event in events:
        if event.code in (
            "mm.line_complete",
            "mm.star_won",
            "mm.star_lost",
            "mm.die_changed",
            "mm.swapped",
        ):
            print(f"  {event.text}", file=out)


__all__ = ["demo", "render_score", "render_sheet"]
