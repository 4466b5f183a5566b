"""``tabletop check math-arena FILE|-`` (DESIGN.md, "Commands"): one round in,
``values`` and ``winners`` out; a round that cannot happen exits 2 with exactly one line
on stderr, never a traceback."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.games.check_cli import check_stdin, run_main

# -- good input --------------------------------------------------------------------------


def test_check_stdin_values_and_winners(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    data = {"operator": "KH", "plays": [["5S", "2D"], ["AS", "3H"], ["10C", "4C"]]}
    status, out, err = check_stdin("math-arena", data, capsys, monkeypatch)
    assert (status, err) == (0, "")
    assert out.count("\n") == 1
    assert json.loads(out) == {"values": [7, 4, 14], "winners": [1], "goal": "lowest"}


def test_check_tie_lists_every_best_seat(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    data = {"operator": "JS", "plays": [["AS", "10S"], ["AH", "10H"], ["5C", "6C"]]}
    status, out, _ = check_stdin("math-arena", data, capsys, monkeypatch)
    assert status == 0 and json.loads(out)["winners"] == [0, 1]


def test_check_file_and_qr_payloads(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "round.json"
    data = {
        "operator": "MT1:ARENA:QS",
        "plays": [["MT1:ARENA:5S", "MT1:ARENA:2D"], ["MT1:ARENA:9H", "MT1:ARENA:7H"]],
    }
    path.write_text(json.dumps(data), encoding="utf-8")
    status, out, err = run_main(["check", "math-arena", str(path)], capsys, monkeypatch)
    assert (status, err) == (0, "")
    assert json.loads(out) == {"values": [1, 2], "winners": [1], "goal": "highest"}


def test_check_subprocess() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "tabletop", "check", "math-arena", "-"],
        input=json.dumps({"operator": "JD", "plays": [["AS", "10D"], ["4S", "6H"]]}),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["values"] == [9, 2]


# -- rejections: exit 2, one line ----------------------------------------------------------

TWO = [["5S", "2D"], ["AS", "3H"]]
REJECTIONS: list[tuple[str, Any, str]] = [
    ("not JSON", "{operator: KH}", "not JSON"),
    ("not an object", [["5S", "2D"]], "JSON object"),
    ("unknown field", {"operator": "KH", "plays": TWO, "pot": 1}, "'pot'"),
    ("operator missing", {"plays": TWO}, "'operator' must be a court card"),
    ("operator not text", {"operator": 13, "plays": TWO}, "'operator' must be a court card"),
    ("unknown operator", {"operator": "KX", "plays": TWO}, "'KX' is not a card"),
    ("pip card as operator", {"operator": "5H", "plays": TWO}, "5 of hearts is a number card"),
    ("ace as operator", {"operator": "AS", "plays": TWO}, "Ace of spades is a number card"),
    ("plays missing", {"operator": "KH"}, "'plays' must be a list"),
    ("plays not a list", {"operator": "KH", "plays": "5S 2D"}, "'plays' must be a list"),
    ("no players", {"operator": "KH", "plays": []}, "'plays' has 0"),
    ("one player", {"operator": "KH", "plays": [["5S", "2D"]]}, "'plays' has 1"),
    (
        "six players",
        {"operator": "KH", "plays": [[f"{n}S", f"{n}H"] for n in range(2, 8)]},
        "'plays' has 6",
    ),
    ("a play not a list", {"operator": "KH", "plays": [["5S", "2D"], "AS"]}, "play 1: must"),
    ("a card not text", {"operator": "KH", "plays": [["5S", 2], ["AS", "3H"]]}, "play 0: must"),
    ("one card", {"operator": "KH", "plays": [["5S"], ["AS", "3H"]]}, "not 1"),
    ("three cards", {"operator": "KH", "plays": [["5S", "2D", "3D"], ["AS", "3H"]]}, "not 3"),
    ("unknown card", {"operator": "KH", "plays": [["5S", "11D"], ["AS", "3H"]]}, "'11D'"),
    ("ace as 1", {"operator": "KH", "plays": [["5S", "1D"], ["AS", "3H"]]}, "'1D'"),
    (
        "court card as number",
        {"operator": "KH", "plays": [["5S", "QD"], ["AS", "3H"]]},
        "Queen of diamonds is an operator card",
    ),
    (
        "the operator as a number",
        {"operator": "KH", "plays": [["5S", "KH"], ["AS", "3H"]]},
        "King of hearts is an operator card",
    ),
    (
        "same card twice in a play",
        {"operator": "KH", "plays": [["5S", "5S"], ["AS", "3H"]]},
        "5 of spades is played twice",
    ),
    (
        "same card in two plays",
        {"operator": "KH", "plays": [["5S", "2D"], ["AS", "5S"]]},
        "5 of spades is played by play 0 too",
    ),
]


@pytest.mark.parametrize(("name", "data", "words"), REJECTIONS, ids=[r[0] for r in REJECTIONS])
def test_check_rejections_exit_2_with_one_line(
    name: str,
    data: Any,
    words: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    status, out, err = check_stdin("math-arena", data, capsys, monkeypatch)
    assert status == 2
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("tabletop check: ")
    assert "Traceback" not in err
    assert words in err
