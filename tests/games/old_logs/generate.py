"""How these logs were made, on the branch base before issue 22 (from the repository root:
``PYTHONPATH=$PWD python tests/games/old_logs/generate.py``). Kept for the record: the
tests only read the logs, and this script needs the old rules to make them again."""

import random
from collections.abc import Callable
from pathlib import Path

from tabletop.assets import mathe_meister_layout
from tabletop.bots.mathe_meister import after_writes, hint
from tabletop.bots.mecs import decide, random_legal
from tabletop.engine import Match, RngDealer
from tabletop.games import GAMES
from tabletop.games.mathe_meister import ClaimStar, MatheMeisterSettings
from tabletop.games.mecs import MecsSettings

out = Path("tests/games/old_logs")


def play(m: Match, dealer: RngDealer, turn: Callable[[Match], None], name: str) -> None:  # type: ignore[type-arg]
    """Deal chance, else let ``turn`` move, to the end; write the log as ``name``."""
    while m.result() is None:
        if m.pending.chance is not None:
            m.deal(dealer)
        else:
            turn(m)
    (out / name).write_text("\n".join(m.log_lines()) + "\n")
    print(name, m.result(), len(m.history))


def hint_bot(m: Match) -> None:  # type: ignore[type-arg]
    """1. The hint bot: in Black Hole it claims no star (the old rule let it)."""
    st = m.state
    for a in after_writes(st, 0) if st.turns[0].writes_done else hint(st, 0).actions():
        m.apply(a)


def claims_at_once(m: Match) -> None:  # type: ignore[type-arg]
    """2. A star claimed the moment its line completes (the old UI offered it then)."""
    if m.state.turns[0].writes_done:
        hint_bot(m)
        return
    for a in hint(m.state, 0).actions():
        m.apply(a)
        claims = [x for x in m.game.legal_actions(m.state, 0) if isinstance(x, ClaimStar)]
        if claims and not m.state.turns[0].writes_done:
            m.apply(claims[0])


rng = random.Random(5)


def mecs_seats(m: Match) -> None:  # type: ignore[type-arg]
    """3. The M.E.C.S. bot in seat 0 against two random players."""
    seat = min(m.pending.seats)
    m.apply(decide(m.state, seat) if seat == 0 else random_legal(m.state, seat, rng))


layout = mathe_meister_layout()
black_hole = MatheMeisterSettings(layout, ("black_hole", "fear_of_fours"))
play(
    Match(GAMES["mathe-meister"], black_hole, 1, seed=7),
    RngDealer(7),
    hint_bot,
    "mm_black_hole_before_mm13.jsonl",
)
freestyle = MatheMeisterSettings(layout, ("freestyle",))
play(
    Match(GAMES["mathe-meister"], freestyle, 1, seed=11),
    RngDealer(11),
    claims_at_once,
    "mm_solo_claim_mid_round_before_mm13.jsonl",
)
challenge = MecsSettings(mode="challenge")
play(
    Match(GAMES["mecs"], challenge, 3, seed=5),
    RngDealer(5),
    mecs_seats,
    "mecs_challenge_before_mecs9.jsonl",
)
