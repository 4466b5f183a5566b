"""``tabletop check mathe-meister FILE|-`` (DESIGN.md, "Commands"): JSON in, JSON out;
bad input exits 2 with one line on stderr naming the problem, never a traceback."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tabletop.assets import mathe_meister_layout
from tabletop.engine import BadInput
from tabletop.games.mathe_meister import check
from tests.games.check_cli import run_main
from tests.mm_play import BLANK, ROW_PAD, grid_with

ROW1 = grid_with(ROW_PAD, ["3+5+2x2", *BLANK[1:]])  # MM-12: row 1 = 20 (MM-15 padding)
FULL = [
    "2+3+4x1",
    "+*+o-ox",
    "1x5-2x6",
    "-ox*+*+",
    "3-2x6+5",
    "+o-oxo-",
    "4+1+3x2",
]  # rows 9 18 11 16, columns 4 15 24 9, 6 unspent coins (see the golden tests)
FULL_UNSPENT = [row.replace("*", "o") for row in FULL]
BREAKDOWN_FIELDS = {
    "row_even_sums",
    "column_odd_sums",
    "unspent_coins_x10",
    "stars",
    "row_odd_sums",
    "column_even_sums",
}


def run_process(args: list[str], stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tabletop", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def check_file(tmp_path: Path, data: Any) -> str:
    path = tmp_path / "sheet.json"
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return str(path)


# -- good input --------------------------------------------------------------------------


def test_check_cli_file_output_fields(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = {
        "modes": ["freestyle"],
        "grid": FULL,
        "stars": ["R2", "C2"],
        "star_powers": {"circled": ["coin", "+"], "used": ["+"]},
    }
    status, out, err = run_main(["check", "mathe-meister", check_file(tmp_path, data)], capsys)
    assert (status, err) == (0, "")
    assert out.count("\n") == 1
    result = json.loads(out)
    assert {"rows", "columns", "total", "breakdown"} <= set(result)
    assert result["rows"] == [9, 18, 11, 16]
    assert result["columns"] == [4, 15, 24, 9]
    assert set(result["breakdown"]) == BREAKDOWN_FIELDS
    assert result["breakdown"]["unspent_coins_x10"] == 70
    assert result["total"] == 100


def test_check_cli_stdin(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    status, out, err = run_main(
        ["check", "mathe-meister", "-"], capsys, monkeypatch, json.dumps({"grid": ROW1})
    )
    assert (status, err) == (0, "")
    result = json.loads(out)
    assert result["rows"] == [20, None, None, None]
    assert result["total"] == 110


def test_check_subprocess_stdin() -> None:
    """The real command line: ``python -m tabletop check mathe-meister -``."""
    done = run_process(["check", "mathe-meister", "-"], json.dumps({"grid": FULL}))
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    result = json.loads(done.stdout)
    assert result["rows"] == [9, 18, 11, 16] and result["columns"] == [4, 15, 24, 9]
    # no stars: 34 + 24 + 60 - 20 - 28
    assert result["total"] == 70
    assert result["breakdown"] == {
        "row_even_sums": 34,
        "column_odd_sums": 24,
        "unspent_coins_x10": 60,
        "stars": 0,
        "row_odd_sums": 20,
        "column_even_sums": 28,
    }


def test_check_partial_sheet_nulls_and_zeros(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """MM-4: unfinished lines are null and score 0; only coins count on a blank sheet."""
    status, out, _ = run_main(
        ["check", "mathe-meister", check_file(tmp_path, {"grid": BLANK})], capsys
    )
    assert status == 0
    result = json.loads(out)
    assert result["rows"] == [None] * 4 and result["columns"] == [None] * 4
    assert result["total"] == 90
    assert result["breakdown"] == {
        "row_even_sums": 0,
        "column_odd_sums": 0,
        "unspent_coins_x10": 90,
        "stars": 0,
        "row_odd_sums": 0,
        "column_even_sums": 0,
    }
    assert "null" in out


def test_check_dots_mean_as_printed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """'.' in a prefilled cell is the printed operator; '.' in a coin cell an unspent coin;
    writing the printed operator or 'o' explicitly is the same sheet."""
    dotted = grid_with(ROW_PAD, ["3+5.2x2", *BLANK[1:]])
    explicit = grid_with(
        {(1, 1): "o", (3, 3): "o", (3, 0): "-", **ROW_PAD}, ["3+5+2X2", *BLANK[1:]]
    )
    outs = []
    for grid in (dotted, explicit):
        status, out, _ = run_main(
            ["check", "mathe-meister", check_file(tmp_path, {"grid": grid})], capsys
        )
        assert status == 0
        outs.append(json.loads(out))
    assert outs[0] == outs[1]
    assert outs[0]["rows"][0] == 20 and outs[0]["total"] == 110


def test_check_spent_coins_and_options(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    grid = grid_with(
        {(1, 1): "*", (5, 5): "*", **ROW_PAD},
        ["1x1-6-1" if i == 2 else r for i, r in enumerate(BLANK)],
    )
    data = {"grid": grid, "negative_sums": "signed", "modes": ["Small to Big"]}
    status, out, _ = run_main(["check", "mathe-meister", check_file(tmp_path, data)], capsys)
    assert status == 0
    result = json.loads(out)
    # R2 = ((1 x 1) - 6) - 1 = -6, even row; signed: +(-6); invalid (1 1 6 1) keeps -6.
    assert result["rows"] == [None, -6, None, None]
    assert result["total"] == 70 - 6
    assert result["modes"] == ["small_to_big"]


# -- rejections --------------------------------------------------------------------------

REJECTIONS: list[tuple[str, Any, str]] = [
    ("not an object", [1, 2, 3], "JSON object"),
    ("unknown field", {"grid": BLANK, "colour": "red"}, "colour"),
    ("grid not a list", {"grid": "3+5+2x2"}, "7 strings"),
    ("grid missing", {"modes": ["twins"]}, "7 strings"),
    ("six rows", {"grid": BLANK[:6]}, "7 strings"),
    ("row of eight", {"grid": ["3+5+2x21", *BLANK[1:]]}, "7 strings"),
    ("row not text", {"grid": [list("3+5+2x2"), *BLANK[1:]]}, "7 strings"),
    ("operator in operand cell", {"grid": grid_with({(0, 0): "+"})}, "r0c0"),
    ("coin in operand cell", {"grid": grid_with({(2, 2): "o"})}, "r2c2"),
    ("digit in operator cell", {"grid": grid_with({(0, 1): "3"})}, "r0c1"),
    ("coin in operator cell", {"grid": grid_with({(1, 0): "o"})}, "r1c0"),
    ("digit in coin cell", {"grid": grid_with({(1, 1): "3"})}, "r1c1"),
    ("operator in coin cell", {"grid": grid_with({(5, 5): "x"})}, "r5c5"),
    ("seven", {"grid": grid_with({(4, 4): "7"})}, "r4c4"),
    ("zero", {"grid": grid_with({(6, 6): "0"})}, "r6c6"),
    ("changed prefilled operator", {"grid": grid_with({(0, 3): "x"})}, "r0c3"),
    ("changed prefilled column operator", {"grid": grid_with({(3, 2): "+"})}, "r3c2"),
    (
        "a 4 under Fear of Fours",
        {"modes": ["fear_of_fours"], "grid": grid_with({(2, 4): "4"})},
        "Fear of Fours",
    ),
    (
        "a spent coin under Coinless",
        {"modes": ["coinless"], "grid": grid_with({(3, 3): "*"})},
        "Coinless",
    ),
    (
        "a spent coin power under Coinless",
        {
            "modes": ["coinless"],
            "grid": FULL_UNSPENT,
            "stars": ["R2"],
            "star_powers": {"circled": ["coin"], "used": ["coin"]},
        },
        "Coinless",
    ),
    ("star on an unfinished line", {"grid": ROW1, "stars": ["R2"]}, "R2"),
    ("star on an unfinished column", {"grid": ROW1, "stars": ["C1"]}, "C1"),
    ("unknown star", {"grid": ROW1, "stars": ["R5"]}, "R5"),
    ("star twice", {"grid": ROW1, "stars": ["R1", "r1"]}, "R1"),
    (
        "more circled powers than stars",
        {"grid": ROW1, "stars": ["R1"], "star_powers": {"circled": ["coin", "+"], "used": []}},
        "circled",
    ),
    ("circled powers with no star", {"grid": BLANK, "star_powers": {"circled": ["x"]}}, "circled"),
    (
        "used power not circled",
        {"grid": ROW1, "stars": ["R1"], "star_powers": {"circled": ["coin"], "used": ["+"]}},
        "never circled",
    ),
    ("unknown power", {"grid": ROW1, "stars": ["R1"], "star_powers": {"circled": ["7"]}}, "7"),
    (
        "too many x without a power",
        {
            "grid": grid_with(
                {
                    (0, 1): "x",
                    (0, 5): "x",
                    (2, 1): "x",
                    (2, 5): "x",
                    (4, 1): "x",
                    (4, 5): "x",
                    (6, 1): "x",
                }
            )
        },
        "'x'",
    ),
    ("unknown mode", {"modes": ["speedy"], "grid": BLANK}, "speedy"),
    ("modes not a list", {"modes": "twins", "grid": BLANK}, "modes"),
    ("bad negative_sums", {"grid": BLANK, "negative_sums": "sideways"}, "negative_sums"),
    ("bad operator_supply", {"grid": BLANK, "operator_supply": True}, "operator_supply"),
    ("not JSON", "{grid: [}", "not JSON"),
    ("empty input", "", "not JSON"),
]


@pytest.mark.parametrize(("case", "data", "words"), REJECTIONS, ids=[r[0] for r in REJECTIONS])
def test_check_rejection_exits_2_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], case: str, data: Any, words: str
) -> None:
    status, out, err = run_main(["check", "mathe-meister", check_file(tmp_path, data)], capsys)
    assert status == 2, case
    assert out == ""
    assert err.endswith("\n") and err.count("\n") == 1, err
    assert err.startswith("tabletop check: ")
    assert "Traceback" not in err
    assert words in err


def test_check_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "nope.json"
    status, out, err = run_main(["check", "mathe-meister", str(missing)], capsys)
    assert (status, out) == (2, "")
    assert err.count("\n") == 1 and "nope.json" in err


@pytest.mark.parametrize(("game", "words"), [("chess", "unknown game"), ("Mathe", "unknown game")])
def test_check_unknown_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], game: str, words: str
) -> None:
    status, out, err = run_main(["check", game, check_file(tmp_path, {"grid": BLANK})], capsys)
    assert (status, out) == (2, "")
    assert err.count("\n") == 1 and words in err and game in err


@pytest.mark.parametrize(
    ("args", "stdin", "words"),
    [
        (["check", "mathe-meister", "-"], "not json at all", "not JSON"),
        (["check", "mathe-meister", "-"], json.dumps({"grid": grid_with({(0, 3): "-"})}), "r0c3"),
        (["check", "mathe-meister", "-"], json.dumps({"grid": BLANK[:6]}), "7 strings"),
        (["check", "mathe-meister", "/no/such/file.json"], "", "file.json"),
        (["check", "chess", "-"], "{}", "chess"),
    ],
)
def test_check_subprocess_rejections(args: list[str], stdin: str, words: str) -> None:
    done = run_process(args, stdin)
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1, done.stderr
    assert "Traceback" not in done.stderr
    assert words in done.stderr


def test_check_directory_instead_of_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = run_main(["check", "mathe-meister", str(tmp_path)], capsys)
    assert (status, out) == (2, "")
    assert err.count("\n") == 1 and str(tmp_path) in err


def test_check_non_utf8_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "latin1.json"
    path.write_bytes(b'{"grid": "\xe9"}')
    status, out, err = run_main(["check", "mathe-meister", str(path)], capsys)
    assert (status, out) == (2, "")
    assert err.count("\n") == 1 and "UTF-8" in err


def test_check_deeply_nested_json_is_one_line(tmp_path: Path) -> None:
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000, encoding="utf-8")
    done = run_process(["check", "mathe-meister", str(path)])
    assert "Traceback" not in done.stderr
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1


def test_check_uses_the_sheet_file(tmp_path: Path) -> None:
    """MM-2: the layout is data: with TABLETOP_ASSETS pointing at another sheet file
    (R1's middle operator x), '.' in r0c3 means x and row 1 = ((3 + 5) x 2) x 2 = 32."""
    import os
    import shutil

    from tabletop.assets import assets_dir

    assets = tmp_path / "assets"
    shutil.copytree(assets_dir() / "mathe_meister", assets / "mathe_meister")
    toml = assets / "mathe_meister" / "sheet.toml"
    text = toml.read_text(encoding="utf-8")
    assert 'rows = ["+", "-", "x", "+"]' in text
    toml.write_text(
        text.replace('rows = ["+", "-", "x", "+"]', 'rows = ["x", "-", "x", "+"]'), encoding="utf-8"
    )
    grid = grid_with(ROW_PAD, ["3+5.2x2", *BLANK[1:]])
    done = subprocess.run(
        [sys.executable, "-m", "tabletop", "check", "mathe-meister", "-"],
        input=json.dumps({"grid": grid}),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env={**os.environ, "TABLETOP_ASSETS": str(assets)},
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["rows"][0] == 32
    explicit = ["3+5+2x2", *BLANK[1:]]
    done = subprocess.run(
        [sys.executable, "-m", "tabletop", "check", "mathe-meister", "-"],
        input=json.dumps({"grid": explicit}),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env={**os.environ, "TABLETOP_ASSETS": str(assets)},
    )
    assert done.returncode == 2
    assert "r0c3" in done.stderr and done.stderr.count("\n") == 1


# -- MM-15: impossible sheets -----------------------------------------------------------------

LAYOUT = mathe_meister_layout()

OPERANDS = [(r, c) for r in range(0, 7, 2) for c in range(0, 7, 2)]
FREE_OPERATORS = [
    (r, c)
    for r in range(7)
    for c in range(7)
    if (r % 2 == 0) != (c % 2 == 0)
    and (r, c) not in {(0, 3), (2, 3), (4, 3), (6, 3)}
    and (r, c) not in {(3, 0), (3, 2), (3, 4), (3, 6)}
]


def sheet_of(operands: int, operators: int) -> list[str]:
    """A sheet with the first ``operands`` operand cells written (1) and the first
    ``operators`` free operator cells written (+ - x in turn)."""
    cells: dict[tuple[int, int], str] = {c: "1" for c in OPERANDS[:operands]}
    cells.update({c: "+-x"[i % 3] for i, c in enumerate(FREE_OPERATORS[:operators])})
    return grid_with(cells)


@pytest.mark.parametrize(
    ("operands", "operators"), [(15, 16), (16, 0), (3, 3), (4, 2), (2, 4), (16, 14)]
)
def test_mm15_check_refuses_sheets_no_game_can_make(
    operands: int, operators: int, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """The issue's sheets (15 operands and 16 free operators; 16 and none) and others:
    every round writes two operands and two operators, so the numbers are equal and
    even. Exit 2, one line naming the rule."""
    data = {"grid": sheet_of(operands, operators), "operator_supply": 6}
    status, out, err = run_main(["check", "mathe-meister", check_file(tmp_path, data)], capsys)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and "MM-15" in err
    assert f"{operands} operands and {operators} free operators" in err


@pytest.mark.parametrize(("operands", "operators"), [(0, 0), (2, 2), (8, 8), (16, 16)])
def test_mm15_check_scores_sheets_a_game_can_make(operands: int, operators: int) -> None:
    assert "total" in check({"grid": sheet_of(operands, operators)}, LAYOUT)


def test_mm15_short_supply_allows_fewer_operators_only_when_it_ran_out() -> None:
    """MM-7 with operator_supply 2: six operators in all, so a full sheet shows 16
    operands and 6 free operators; with 5 of them one is still in the supply."""
    full = {c: "1" for c in OPERANDS}
    ops = dict(zip(FREE_OPERATORS, "++--xx"))
    assert "total" in check({"grid": grid_with({**full, **ops}), "operator_supply": 2}, LAYOUT)
    five = dict(list(ops.items())[:5])
    with pytest.raises(BadInput) as err:
        check({"grid": grid_with({**full, **five}), "operator_supply": 2}, LAYOUT)
    assert err.value.code == "mm.impossible_sheet"


def test_mm15_a_used_star_power_must_show_on_the_sheet() -> None:
    """A 6 Star Power used (MM-6) but no 6 written: swaps move values, never remove one."""
    powers = {"circled": ["6"], "used": ["6"]}
    assert "total" in check({"grid": FULL, "stars": ["R2"], "star_powers": powers}, LAYOUT)
    no_six = [row.replace("6", "5") for row in FULL]
    with pytest.raises(BadInput) as err:
        check({"grid": no_six, "stars": ["R2"], "star_powers": powers}, LAYOUT)
    assert err.value.code == "mm.impossible_sheet" and "MM-15" in str(err.value)


@pytest.mark.parametrize(
    ("stars", "circled", "code", "words"),
    [
        ([], ["x"], "mm.powers_over_stars", "1 Star Power is circled but only 0 stars are claimed"),
        (
            ["R1"],
            ["coin", "+"],
            "mm.powers_over_stars",
            "2 Star Powers are circled but only 1 star is claimed",
        ),
        (["R1", "R2"], ["x", "x"], "mm.power_gone", "the sheet has only 1 x Star Power"),
        (["R1", "R2", "R3"], ["+"] * 3, "mm.power_gone", "the sheet has only 2 + Star Powers"),
    ],
)
def test_check_star_power_counts_read_right(
    stars: list[str],
    circled: list[str],
    code: str,
    words: str,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    """The counts in the Star Power rejections agree with their nouns and verbs ("1 Star
    Power is", "1 star is"), on the CLI line and in the engine's message; the code stays."""
    data = {"grid": FULL, "stars": stars, "star_powers": {"circled": circled}}
    with pytest.raises(BadInput) as err:
        check(data, LAYOUT)
    assert err.value.code == code and str(err.value).endswith(words)
    status, out, line = run_main(["check", "mathe-meister", check_file(tmp_path, data)], capsys)
    assert status == 2 and out == "" and line == f"tabletop check: {words}\n"
