"""Issue 25 item 9: a huge whole number anywhere in ``tabletop check GAME`` JSON is
answered with exit status 2 and one line naming it, for every game (on the old main:
``ValueError: Exceeds the limit (4300 digits)``, a traceback). Numbers and digit strings
just under the limit, put in every place of a good input, get an answer or one line."""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from typing import Any

import pytest

from tests.games.check_cli import check_stdin

EXAMPLES: dict[str, Any] = {
    "math-arena": {"operator": "KH", "plays": [["5S", "2D"], ["AS", "3H"], ["10C", "4C"]]},
    "math-attack": {"cards": ["+5", "-3", "CANCEL", "+N", "FLIP", "+D", "-H"]},
    "math-wars-meta": {
        "edition": "MWM25",
        "mode": "pvp",
        "players": [{"count": [21], "crate": ["-5"]}, {"count": [15], "crate": ["+6"]}],
    },
    "mathe-meister": {
        "grid": ["3+5+2x2", "+*+o-ox", "1x5-2x6", "-ox*+*+", "3-2x6+5", "+o-oxo-", "4+1+3x2"]
    },
    "mecs": {"cards": ["9", "X", "7", "EQ", "6", "3"]},
}
HUGE = "9" * 5000  # as JSON text (Python itself refuses to read it as a number)


def places(data: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """The path of every leaf (number or text) in ``data``."""
    if isinstance(data, dict):
        for key, value in data.items():
            yield from places(value, (*path, key))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            yield from places(value, (*path, i))
    else:
        yield path


def put(data: Any, path: tuple[Any, ...], value: Any) -> Any:
    out = copy.deepcopy(data)
    inner = out
    for key in path[:-1]:
        inner = inner[key]
    inner[path[-1]] = value
    return out


@pytest.mark.parametrize("game", sorted(EXAMPLES))
def test_check_refuses_a_5000_digit_number_in_one_line(
    game: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    for path in [("extra",), *places(EXAMPLES[game])]:  # a field of its own, or any known
        for huge in (HUGE, "-" + HUGE):
            text = json.dumps(put(EXAMPLES[game], path, "@@")).replace('"@@"', huge)
            status, out, err = check_stdin(game, text, capsys, monkeypatch)
            assert (status, out) == (2, ""), path
            assert err == (
                "tabletop check: a number with 5,000 digits is too long (at most 1,000 digits)\n"
            )


@pytest.mark.parametrize("game", sorted(EXAMPLES))
def test_check_big_numbers_in_every_place_get_one_line(
    game: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    example = EXAMPLES[game]
    for path in places(example):
        for value in (10**999, -(10**999), "9" * 999, "+" + "9" * 999, "9" * 5000):
            status, out, err = check_stdin(game, put(example, path, value), capsys, monkeypatch)
            assert status in (0, 2), (path, value)
            if status == 2:
                assert out == "" and err.count("\n") == 1, (path, err[:300])
