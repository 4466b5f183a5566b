"""``tabletop check math-attack FILE|-`` (DESIGN.md, "Commands"): ``{"cards": [...]}`` in,
``total`` and ``cancelled`` (0-based positions) out; a line that breaks the rules exits 2
with exactly one line on stderr, never a traceback."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.games.check_cli import check_stdin, run_main

# -- good input --------------------------------------------------------------------------


def test_check_stdin_total_and_cancelled(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    data = {"cards": ["+5", "-3", "CANCEL", "+N", "FLIP", "BLOCK", "+D", "CANCEL", "-H"]}
    status, out, err = check_stdin("math-attack", data, capsys, monkeypatch)
    assert (status, err) == (0, "")
    assert out.count("\n") == 1
    result = json.loads(out)
    # 5, (-3 cancelled) 5, +5 -> 10, flip -> -10, block, (+20 cancelled), -5 -> -15
    assert result["total"] == -15
    assert result["cancelled"] == [1, 6]
    assert result["running"] == [5, 5, 5, 10, -10, -10, -10, -10, -15]


def test_check_file_and_qr_payloads(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "line.json"
    path.write_text(json.dumps({"cards": ["MT1:ATK:+7", "MT1:ATK:+H"]}), encoding="utf-8")
    status, out, err = run_main(["check", "math-attack", str(path)], capsys, monkeypatch)
    assert (status, err) == (0, "")
    assert json.loads(out) == {"total": 10, "cancelled": [], "running": [7, 10]}


def test_check_empty_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    status, out, _ = check_stdin("math-attack", {"cards": []}, capsys, monkeypatch)
    assert status == 0 and json.loads(out) == {"total": 0, "cancelled": [], "running": []}


def test_check_subprocess() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "tabletop", "check", "math-attack", "-"],
        input=json.dumps({"cards": ["-10", "-2", "+D"]}),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["total"] == 12


# -- rejections: exit 2, one line ----------------------------------------------------------

REJECTIONS: list[tuple[str, Any, str]] = [
    ("not JSON", "{cards: [+5]}", "not JSON"),
    ("not an object", ["+5"], "JSON object"),
    ("unknown field", {"cards": [], "line": 1}, "'line'"),
    ("cards missing", {}, "'cards' must be a list"),
    ("cards not a list", {"cards": "+5 -3"}, "'cards' must be a list"),
    ("a card not text", {"cards": ["+5", 3]}, "'cards' must be a list"),
    ("unknown card", {"cards": ["+5", "+11"]}, "card 1: '+11' is not a Math Attack! card"),
    ("lower case", {"cards": ["cancel"]}, "'cancel' is not"),
    ("another game's payload", {"cards": ["MT1:MWM:K+1"]}, "is not a Math Attack! card"),
    ("three +5 cards", {"cards": ["+5", "+5", "+5"]}, "only two +5 cards"),
    ("two +|n x2|", {"cards": ["+1", "+D", "+D"]}, "only one +|n×2| card"),
    ("cancel first", {"cards": ["CANCEL", "+5"]}, "card 0: cancel cannot go on an empty"),
    ("cancel on cancel", {"cards": ["+5", "CANCEL", "CANCEL"]}, "card 2: cancel only goes"),
    ("cancel on =", {"cards": ["+5", "END", "CANCEL"]}, "not on ="),
    ("cancel on +/-", {"cards": ["+5", "FLIP", "CANCEL"]}, "not on +/-"),
    ("cancel on block", {"cards": ["+5", "BLOCK", "CANCEL"]}, "not on block"),
]


@pytest.mark.parametrize(("name", "data", "words"), REJECTIONS, ids=[r[0] for r in REJECTIONS])
def test_check_rejections_exit_2_with_one_line(
    name: str,
    data: Any,
    words: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    status, out, err = check_stdin("math-attack", data, capsys, monkeypatch)
    assert status == 2
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("tabletop check: ")
    assert "Traceback" not in err
    assert words in err
