"""Virtual Math Wars Meta players and the teachers' figures (``tabletop bench --game
math-wars-meta``): seeded, complete games; the figures have the issue's shape."""

from __future__ import annotations

import io
import json
import random
import sys

import pytest

from tabletop import cli
from tabletop.bots.math_wars_meta import (
    TABLES,
    VirtualPlayer,
    bench,
    figures,
    markdown,
    play_game,
)
from tabletop.games.math_wars_meta import MathWarsMetaSettings, correct_entry
from tests.games.test_math_wars_meta_play import Table


def test_bot_virtual_player_right_or_near_miss() -> None:
    t = Table(MathWarsMetaSettings("MWM25", "teams", ((0, 1), (2, 3))), 4)
    t.reveal({0: (10, "+2"), 1: (3, "+1"), 2: (5, "+5"), 3: (2, "x2")})
    right = correct_entry(t.state, 0)
    assert VirtualPlayer(random.Random(1)).entry(t.state, 0) == right
    always_wrong = VirtualPlayer(random.Random(1), wrong_rate=1.0)
    for _ in range(20):
        entry = always_wrong.entry(t.state, 0)
        assert entry.solution != right.solution and abs(entry.solution - right.solution) <= 2
        assert entry.team_solution is not None and entry.team_solution != right.team_solution


def test_bot_games_are_seeded_and_complete() -> None:
    settings = MathWarsMetaSettings("MWM25", "pvp")
    a = play_game(settings, 3, seed=7)
    b = play_game(settings, 3, seed=7)
    assert a == b and a.finished and max(a.victories) == 4
    c = play_game(settings, 3, seed=8)
    assert c.rounds != a.rounds


def test_bot_solo_wrong_answers_make_rounds_longer() -> None:
    """MWM-8: a wrong solution discards only the battle card, so a child who misses often
    needs more hands (over the same decks)."""
    settings = MathWarsMetaSettings("MWM25", "solo")
    right = sum(sum(r.hands for r in play_game(settings, 1, s).rounds) for s in range(10))
    wrong = sum(sum(r.hands for r in play_game(settings, 1, s, 0.8).rounds) for s in range(10))
    assert wrong > right


def test_bot_figures_shape_and_sense() -> None:
    row = figures(TABLES[1], "MWM25", 6)
    assert row["players"] == 2 and row["edition"] == "MWM25"
    assert 1 <= row["hands_per_round_mean"] <= row["hands_per_game_mean"]
    assert row["hands_per_round_p90"] >= 1
    assert row["rounds_per_game_mean"] >= 4
    lines = markdown([row])
    assert lines[0].startswith("| edition |") and "| MWM25 | 2 players | 2 | 1 |" in lines[2]


def test_bot_tables_cover_the_issue() -> None:
    names = {t.name for t in TABLES}
    assert {"2 players", "4 players", "8 players", "Quads"} <= names
    assert any(n.startswith("Duos") for n in names)
    for table in TABLES:
        settings = table.settings("MWM100")
        assert settings.mode in ("solo", "pvp", "teams")


def test_bot_bench_through_the_cli(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    status = cli.main(["bench", "--game", "math-wars-meta", "--games", "1"])
    out, err = capsys.readouterr()
    assert (status, err) == (0, "")
    data = json.loads(out)
    assert data["game"] == "math-wars-meta" and data["games"] == 1
    rows = 2 * (2 * len(TABLES) - 1)  # both editions; Solo has no discard option
    assert len(data["figures"]) == rows
    assert {r["edition"] for r in data["figures"]} == {"MWM25", "MWM100"}
    assert {r["discard_option"] for r in data["figures"]} == {1, 2}
    assert len(data["markdown"]) == 2 + rows
    with pytest.raises(ValueError):
        bench(0)
