"""A journaled game played by random legal players, that resumes where it was killed.

``python -m tabletop.selfplay GAME SEED DATA_DIR`` plays one game of GAME with default
settings and random legal moves, journaling every action (:mod:`tabletop.store`), and
prints ``committed N`` after each action is on disk and ``winner: ...`` at the end.
Killed at any moment and started again with the same arguments, it finds its
unfinished match in the journal, replays it, and carries on (or, killed after storing
the finished game, prints its winner again). Every choice (a move, a
die, a card) is drawn from ``random.Random(f"{seed}:{n}")`` where ``n`` is the number
of actions so far, so a resumed game continues exactly as an uninterrupted one: the
crash-safety tests compare the two.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any, TextIO

from tabletop.engine.match import Match
from tabletop.games import GAMES
from tabletop.store import FILE_NAME, Journal

SEATS = {"mathe-meister": 2, "math-arena": 3}


def default_settings(game: str) -> Any:
    engine = GAMES[game]
    if game == "mathe-meister":
        from tabletop.assets import mathe_meister_layout

        return engine.settings_type(layout=mathe_meister_layout())
    return engine.settings_type()


def choose(match: Match[Any, Any, Any], seed: int) -> Any:
    """The next action: a chance outcome by its weights, or a random legal move."""
    rng = random.Random(f"{seed}:{match.moves}")
    pending = match.pending
    if pending.chance is not None:
        request = pending.chance
        weights = [request.weight_of(i) for i in range(len(request.outcomes))]
        return rng.choices(request.outcomes, weights=weights)[0]
    seat = min(pending.seats)
    return rng.choice(list(match.game.legal_actions(match.state, seat)))


def winner_line(match: Match[Any, Any, Any]) -> str:
    result = match.result()
    if result is None:
        return "winner: none"
    winners = sorted(result.winners)
    if len(winners) != 1:
        return "winner: draw"
    return f"winner: seat {winners[0] + 1}"


def play(game: str, seed: int, data: Path, out: TextIO, max_actions: int = 20000) -> str:
    journal = Journal(data / FILE_NAME)
    label = f"selfplay:{game}:{seed}"
    try:
        done = [m for m in journal.matches() if m.label == label and m.status == "finished"]
        if done and done[0].result and "winner" in done[0].result:
            # killed after the game was stored as finished, before it said so: say it now
            line = str(done[0].result["winner"])
            print(line, file=out, flush=True)
            return line
        saved = journal.unfinished(label)
        if saved:
            match_id = saved[0].id
            match = journal.load(match_id, GAMES)
            print(f"resumed {match.moves}", file=out, flush=True)
        else:
            engine = GAMES[game]
            match = Match(engine, default_settings(game), SEATS.get(game, 2), seed=seed)
            match_id = journal.start(match, label=label)
        while not match.game.is_over(match.state) and match.moves < max_actions:
            match.apply(choose(match, seed))
            journal.sync(match_id, match)
            print(f"committed {match.moves}", file=out, flush=True)
        line = winner_line(match)
        result = match.result()
        journal.finish(match_id, {"winner": line, "places": list(result.places) if result else []})
    finally:
        journal.close()
    print(line, file=out, flush=True)
    return line


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 3 or args[0] not in GAMES:
        print(f"usage: python -m tabletop.selfplay {{{','.join(GAMES)}}} SEED DATA_DIR")
        return 2
    play(args[0], int(args[1]), Path(args[2]), sys.stdout)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
