"""``tabletop bench``: its help names every game it measures (BENCH_GAMES, the list the
command itself dispatches on), and a name it does not know is refused with that list."""

from __future__ import annotations

import importlib
import json
import re
from typing import Any

import pytest

from tabletop import cli


def test_cli_bench_help_lists_every_game_it_measures(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        cli.main(["bench", "--help"])
    assert done.value.code == 0
    text = " ".join(capsys.readouterr().out.split())
    listed = re.search(r"--game GAME (.*?) --games", text)
    assert listed is not None
    assert listed.group(1).split(", ") == list(cli.BENCH_GAMES)
    assert {*cli.GAME_NAMES, "vision", "printables"} == set(cli.BENCH_GAMES)


@pytest.mark.parametrize("game", cli.BENCH_GAMES)
def test_cli_bench_runs_every_listed_game(
    game: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Each listed name reaches its measurement (stood in for: the figures themselves
    are the bots', vision's and printables' own tests)."""

    def measured(*_: Any) -> dict[str, str]:
        return {"measured": game}

    for module, name in (
        ("tabletop.bench", "engine_figures"),
        ("vision.bench", "figures"),
        ("tabletop.printables.verify", "read_rates"),
        *((module, "bench") for module in cli.BENCH_MODULES.values()),
    ):
        monkeypatch.setattr(importlib.import_module(module), name, measured)
    assert cli.main(["bench", "--game", game, "--games", "1"]) == 0
    assert json.loads(capsys.readouterr().out) == {"measured": game}


def test_cli_bench_unknown_game_is_refused_with_the_list(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert cli.main(["bench", "--game", "chess"]) == 2
    err = capsys.readouterr().err
    assert err == (
        f"tabletop bench: unknown game 'chess': choose from {', '.join(cli.BENCH_GAMES)}\n"
    )
    assert "vision" in err and "printables" in err


@pytest.mark.parametrize("games", ["0", "-3"])
def test_cli_bench_no_games_is_refused_in_one_line(
    games: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--games 0`` measured nothing and ended in a traceback (the mean of no scores)."""
    assert cli.main(["bench", "--games", games]) == 2
    assert capsys.readouterr().err == f"tabletop bench: --games must be at least 1, not {games}\n"
