"""How these logs were made, on the branch base before issue 22 (from the repository root:
``PYTHONPATH=$PWD python tests/games/old_logs/generate.py``). Kept for the record: the
tests only read the logs, and this script needs the old rules to make them again."""

import random
from pathlib import Path

from tabletop.assets import mathe_meister_layout
from tabletop.bots.mathe_meister import after_writes, hint
from tabletop.bots.mecs import decide, random_legal
from tabletop.engine import Match, RngDealer
from tabletop.games import GAMES
from tabletop.games.mathe_meister import ClaimStar, EndRound, MatheMeisterSettings
from tabletop.games.mecs import MecsSettings

out = Path("tests/games/old_logs")

# 1. Mathe-Meister solo, Black Hole + Fear of Fours, the hint bot: it claims no star (old rule)
settings = MatheMeisterSettings(mathe_meister_layout(), ("black_hole", "fear_of_fours"))
m = Match(GAMES["mathe-meister"], settings, 1, seed=7)
dealer = RngDealer(7)
while m.result() is None:
    if m.pending.chance is not None:
        m.deal(dealer)
        continue
    st = m.state
    acts = after_writes(st, 0) if st.turns[0].writes_done else list(hint(st, 0).actions())
    for a in acts:
        m.apply(a)
(out / "mm_black_hole_before_mm13.jsonl").write_text("\n".join(m.log_lines()) + "\n")
print("mm bh", m.result())

# 2. Mathe-Meister solo freestyle: a star claimed the moment its line completes (old UI)
settings = MatheMeisterSettings(mathe_meister_layout(), ("freestyle",))
m = Match(GAMES["mathe-meister"], settings, 1, seed=11)
dealer = RngDealer(11)
while m.result() is None:
    if m.pending.chance is not None:
        m.deal(dealer)
        continue
    st = m.state
    if st.turns[0].writes_done:
        for a in after_writes(st, 0):
            m.apply(a)
        continue
    for a in hint(st, 0).actions():
        m.apply(a)
        if isinstance(a, EndRound):
            break
        claims = [x for x in m.game.legal_actions(m.state, 0) if isinstance(x, ClaimStar)]
        if claims and not m.state.turns[0].writes_done:
            m.apply(claims[0])
(out / "mm_solo_claim_mid_round_before_mm13.jsonl").write_text("\n".join(m.log_lines()) + "\n")
print("mm solo", m.result())

# 3. M.E.C.S. challenge mode, the bot in seat 0 against two random players
g = GAMES["mecs"]
m = Match(g, MecsSettings(mode="challenge"), 3, seed=5)
dealer, rng = RngDealer(5), random.Random(5)
while m.result() is None:
    p = m.pending
    if p.chance is not None:
        m.deal(dealer)
        continue
    seat = min(p.seats)
    m.apply(decide(m.state, seat) if seat == 0 else random_legal(m.state, seat, rng))
(out / "mecs_challenge_before_mecs9.jsonl").write_text("\n".join(m.log_lines()) + "\n")
print("mecs", m.result(), len(m.history))
