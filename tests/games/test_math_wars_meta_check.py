"""``tabletop check math-wars-meta FILE|-`` (DESIGN.md, "Commands"): one hand as JSON in,
results, winner and cards lost out; bad input exits 2 with one line on stderr naming the
problem, never a traceback."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from typing import Any

import pytest

from tabletop import cli


def run_check(
    data: Any, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> tuple[int, str, str]:
    text = data if isinstance(data, str) else json.dumps(data)
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))
    status = cli.main(["check", "math-wars-meta", "-"])
    out, err = capsys.readouterr()
    return status, out, err


def players(*hands: tuple[list[int], list[str]]) -> list[dict[str, Any]]:
    return [{"count": count, "crate": crate} for count, crate in hands]


EXAMPLE_1 = {
    "edition": "MWM25",
    "mode": "pvp",
    "players": players(([21], ["-5"]), ([15], ["+6"])),
}


def test_check_cli_example_1(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    status, out, err = run_check(EXAMPLE_1, capsys, monkeypatch)
    assert (status, err) == (0, "")
    result = json.loads(out)
    assert result["results"] == [16, 21]
    assert result["winner"] == 1
    assert result["cards_lost"] == [6, 0]
    assert result["war"] == []


def test_check_subprocess_example_2() -> None:
    """The real command line: ``python -m tabletop check math-wars-meta -``."""
    data = {"edition": "MWM100", "players": players(([6], ["-9"]), ([5], ["+7"]))}
    done = subprocess.run(
        [sys.executable, "-m", "tabletop", "check", "math-wars-meta", "-"],
        input=json.dumps(data),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["results"] == [-3, 12] and result["cards_lost"] == [16, 0]


def test_check_stops_at_a_tie_and_names_the_war(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    data = {
        "edition": "MWM25",
        "players": players(([5], ["x2"]), ([8], ["+2"]), ([4], ["+1"])),
    }
    status, out, _ = run_check(data, capsys, monkeypatch)
    assert status == 0
    result = json.loads(out)
    assert result["winner"] is None and result["war"] == [0, 1]
    assert result["cards_lost"] == [None, None, 6]
    assert result["differences"] == [None, None, 5]


def test_check_crate_faces_as_written(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Crate faces ``+6 -5 x3 /2`` (and ``X3``); a remainder uses the count alone."""
    data = {
        "edition": "MWM100",
        "players": players(([7], ["/2"]), ([3], ["X3"]), ([100], ["x10"])),
    }
    status, out, _ = run_check(data, capsys, monkeypatch)
    assert status == 0
    result = json.loads(out)
    assert result["results"] == [7, 9, 1000]
    assert result["cards_lost"] == [1 + 993, 1 + 991, 0]


def test_check_teams_and_solo(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    teams = {
        "edition": "MWM25",
        "mode": "teams",
        "teams": [[0, 2], [1, 3]],
        "players": players(([10], ["+2"]), ([5], ["+5"]), ([3], ["+1"]), ([2], ["x2"])),
    }
    status, out, _ = run_check(teams, capsys, monkeypatch)
    assert status == 0
    result = json.loads(out)
    assert result["winner"] == 0 and result["team_solutions"] == [16, 14]
    assert result["cards_lost"] == [0, 3, 0, 3]
    solo = {"edition": "MWM25", "mode": "solo", "players": players(([7], ["/2"]))}
    status, out, _ = run_check(solo, capsys, monkeypatch)
    result = json.loads(out)
    assert status == 0 and result["draw_again"] is True and result["results"] == [7]
    solo["players"] = players(([5], ["x3"]))
    status, out, _ = run_check(solo, capsys, monkeypatch)
    result = json.loads(out)
    assert result["discard_if_right"] == 16 and result["discard_if_wrong"] == 1


BAD_INPUTS: list[tuple[Any, str]] = [
    ("{not json", "not JSON"),
    ("[]", "JSON object"),
    ({**EXAMPLE_1, "colour": "red"}, "unknown field 'colour'"),
    ({**EXAMPLE_1, "edition": "MWM50"}, "unknown edition"),
    ({**EXAMPLE_1, "edition": ["MWM25"]}, "unknown edition"),
    ({**EXAMPLE_1, "mode": ["pvp"]}, "unknown mode"),
    ({**EXAMPLE_1, "players": [{"count": [[1]], "crate": ["+1"]}] * 2}, "players[0]: COUNT META"),
    ({**EXAMPLE_1, "players": [{"count": [1], "crate": [{}]}] * 2}, "players[0]: MATH CRATE"),
    ({**EXAMPLE_1, "players": [[1], ["+1"]]}, "'players' must be a list"),
    ({"players": EXAMPLE_1["players"]}, "unknown edition"),
    ({**EXAMPLE_1, "mode": "coop"}, "unknown mode"),
    ({**EXAMPLE_1, "players": "two"}, "'players' must be a list"),
    (
        {**EXAMPLE_1, "players": players(([26], ["-5"]), ([15], ["+6"]))},
        "26 is not a card of MWM25",
    ),
    ({**EXAMPLE_1, "players": players(([0], ["-5"]), ([15], ["+6"]))}, "0 is not a card"),
    ({**EXAMPLE_1, "players": players(([True], ["-5"]), ([15], ["+6"]))}, "True is not a card"),
    ({**EXAMPLE_1, "players": players(([21], ["/0"]), ([15], ["+6"]))}, "no MATH CRATE card '/0'"),
    ({**EXAMPLE_1, "players": players(([21], ["+11"]), ([15], ["+6"]))}, "no MATH CRATE card"),
    ({**EXAMPLE_1, "players": players(([21], [6]), ([15], ["+6"]))}, "MATH CRATE 6 is not"),
    ({**EXAMPLE_1, "players": players(([21], ["-5"]))}, "needs 2 to 8 players, not 1"),
    ({**EXAMPLE_1, "players": players(*[([1], ["+1"])] * 9)}, "not 9"),
    ({**EXAMPLE_1, "players": players(([21, 3], ["-5"]), ([15], ["+6"]))}, "2 COUNT META cards"),
    ({**EXAMPLE_1, "players": players(([], []), ([15], ["+6"]))}, "non-empty lists"),
    ({**EXAMPLE_1, "players": [{"count": [1], "crate": ["+1"], "x": 1}] * 2}, "unknown field 'x'"),
    ({**EXAMPLE_1, "players": players(([21, 4], ["-5", "+1"]), ([15], ["+6"]))}, "takes part in"),
    (
        {**EXAMPLE_1, "players": players(([5, 4], ["x2", "+1"]), ([8], ["+2"]))},
        "players[1] is in the Math War but lists no reveal",
    ),
    (
        {**EXAMPLE_1, "players": players(([5, 4], ["x2", "x2"]), ([8, 1], ["+2", "+1"]))},
        "cannot turn up twice",
    ),
    ({**EXAMPLE_1, "teams": [[0], [1]]}, "only for mode teams"),
    ({**EXAMPLE_1, "mode": "teams"}, "needs its 'teams'"),
    ({**EXAMPLE_1, "mode": "teams", "teams": [[0, 2], [1, 1]]}, "every seat 0..3 exactly once"),
    ({**EXAMPLE_1, "mode": "teams", "teams": [[0, 1]]}, "Duos play as 2 to 4 teams"),
    ({**EXAMPLE_1, "mode": "teams", "teams": "[[0],[1]]"}, "list of lists of seats"),
    (
        {
            "edition": "MWM25",
            "mode": "teams",
            "teams": [[0, 1], [2, 3]],
            "players": players(*[([1], ["+1"])] * 5),
        },
        "the teams have 4 seats but 5 players",
    ),
    (
        {
            "edition": "MWM25",
            "mode": "teams",
            "teams": [[0, 1, 2], [3, 4]],
            "players": players(*[([1], ["+1"])] * 5),
        },
        "teams must all be Duos, all Trios or all Quads",
    ),
    ({**EXAMPLE_1, "mode": "solo"}, "solo is one player, not 2"),
    (
        {"edition": "MWM25", "mode": "solo", "players": players(([1, 2], ["+1", "+2"]))},
        "solo has no Math War",
    ),
]


@pytest.mark.parametrize(("data", "words"), BAD_INPUTS)
def test_check_rejection_exits_2_with_one_line(
    data: Any, words: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    status, out, err = run_check(data, capsys, monkeypatch)
    assert status == 2
    assert out == ""
    assert err.count("\n") == 1, err
    assert err.startswith("tabletop check: ")
    assert words in err
    assert "Traceback" not in err
