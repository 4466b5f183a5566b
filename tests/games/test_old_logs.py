"""Games recorded before issue 22's rulings (``old_logs/``, made on the branch base by
``old_logs/generate.py``) still replay: to their end where the new rulings do not touch
them, else up to the changed rule, which the replay names in one clear line (exit 2),
never a traceback."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tabletop.engine import CorruptLog, Match
from tabletop.games import GAMES
from tests.games.check_cli import run_main

LOGS = Path(__file__).parent / "old_logs"


def lines(name: str) -> list[str]:
    return (LOGS / name).read_text(encoding="utf-8").splitlines()


def test_old_mecs_challenge_game_replays_to_its_end(capsys: pytest.CaptureFixture[str]) -> None:
    """MECS-9 changes nothing in this game (no waiting equation met a new objective)."""
    status, out, err = run_main(["replay", str(LOGS / "mecs_challenge_before_mecs9.jsonl")], capsys)
    assert (status, err) == (0, "")
    data = json.loads(out)
    assert data["over"] is True and data["actions"] == 713


@pytest.mark.parametrize(
    ("name", "line", "rule"),
    [
        ("mm_black_hole_before_mm13.jsonl", 11, "MM-14"),  # the old bot bought a 4
        ("mm_solo_claim_mid_round_before_mm13.jsonl", 39, "MM-13"),  # a star before the writes
    ],
)
def test_old_mathe_meister_games_stop_at_the_changed_rule_with_one_line(
    name: str, line: int, rule: str, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = run_main(["replay", str(LOGS / name)], capsys)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith(f"tabletop replay: line {line}: ")
    assert rule in err and "Traceback" not in err


def test_old_mathe_meister_game_replays_up_to_the_changed_rule() -> None:
    """The settings of an old log have no ``star_claims`` (MM-13's option): it is read
    as automatic, and a new option at its default is left out of the digests, so every
    recorded state before the changed rule is reached exactly."""
    old = lines("mm_solo_claim_mid_round_before_mm13.jsonl")
    assert "star_claims" not in old[0]
    match = Match.replay(old[:38], GAMES)
    assert match.settings.star_claims == "automatic" and len(match.history) == 37
    with pytest.raises(CorruptLog) as err:
        Match.replay(old, GAMES)
    assert err.value.code == "log.action" and "MM-13" in err.value.message
