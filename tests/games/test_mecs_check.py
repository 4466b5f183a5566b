"""``tabletop check mecs FILE|-`` (DESIGN.md, "Commands"): ``{"cards": [...]}`` in,
``valid``, ``answer``, ``coins`` (and ``reason``) out. An invalid equation is a normal
answer (exit 0); input that is not a card sequence exits 2 with one line on stderr."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tabletop import cli
from tabletop.games.mecs import check


def run(
    stdin: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    status = cli.main(["check", "mecs", "-"])
    out, err = capsys.readouterr()
    return status, out, err


def answer(
    data: Any, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> dict[str, Any]:
    status, out, err = run(json.dumps(data), capsys, monkeypatch)
    assert (status, err) == (0, "")
    result: dict[str, Any] = json.loads(out)
    return result


# -- answers -----------------------------------------------------------------------------------


def test_check_rule_book_63_is_six_coins(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    out = answer({"cards": ["9", "X", "7", "EQ", "6", "3"]}, capsys, monkeypatch)
    assert out == {"valid": True, "answer": "63", "coins": 6, "equation": "9 × 7 = 63"}


@pytest.mark.parametrize(
    ("cards", "expected"),
    [
        (["7", "FRAC", "2", "EQ", "3", "DOT", "5"], "7/2"),
        (["2", "-", "4", "EQ", "0", "-", "2"], "-2"),
        (["SQRT", "4", "9", "EQ", "7"], "7"),
    ],
)
def test_check_answers_are_exact_text(
    cards: list[str],
    expected: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    out = answer({"cards": cards}, capsys, monkeypatch)
    assert out["valid"] is True and out["answer"] == expected


def test_check_invalid_equation_is_a_normal_answer(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    out = answer({"cards": ["2", "X", "3", "+", "4", "EQ", "1", "1"]}, capsys, monkeypatch)
    assert out == {
        "valid": False,
        "answer": None,
        "coins": 0,
        "equation": "2 × 3 + 4 = 11",
        "reason": "2 × 3 + 4 = 10, not 11",
    }


def test_check_qr_payloads_are_card_codes(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    payloads = [f"MT1:MECS:{c}" for c in ("9", "X", "7", "EQ", "6", "3")]
    assert answer({"cards": payloads}, capsys, monkeypatch)["answer"] == "63"


def test_check_objective_54_fails_63_meets(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The rule book's challenge example: 'an odd number larger than 50'."""
    out = answer(
        {"cards": ["9", "X", "7", "EQ", "6", "3"], "objective": "OBJ1"}, capsys, monkeypatch
    )
    assert out["objective"] == {"number": 1, "text": "an odd number greater than 50", "met": True}
    out = answer({"cards": ["9", "X", "6", "EQ", "5", "4"], "objective": 1}, capsys, monkeypatch)
    assert out["valid"] is True and out["objective"]["met"] is False


def test_check_from_a_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "eq.json"
    path.write_text(json.dumps({"cards": ["3", "SQ", "EQ", "9"]}), encoding="utf-8")
    assert cli.main(["check", "mecs", str(path)]) == 0
    assert json.loads(capsys.readouterr().out)["coins"] == 6


# -- bad input: exit 2, one line -----------------------------------------------------------------

BAD = [
    ("{not json", "not JSON"),
    ('["9", "X"]', "must be a JSON object"),
    ('{"cards": ["1"], "colour": "red"}', "unknown field 'colour'"),
    ("{}", "'cards' must be a list"),
    ('{"cards": "9 X 7"}', "'cards' must be a list"),
    ('{"cards": [9, "X"]}', "'cards' must be a list"),
    ('{"cards": ["9", "x", "7"]}', "card 2: 'x' is not an M.E.C.S. play card"),
    ('{"cards": ["9", "X", "7", "EQ", "63"]}', "card 5: '63' is not an M.E.C.S. play card"),
    ('{"cards": ["MT1:ATK:+5"]}', "card 1: 'MT1:ATK:+5' is not an M.E.C.S. play card"),
    ('{"cards": ["OBJ3", "EQ", "1"]}', "card 1: OBJ3 is an objective card"),
    ('{"cards": ["1"], "objective": "OBJ21"}', "'objective' must be OBJ1..OBJ20"),
    ('{"cards": ["1"], "objective": 0}', "numbered 1 to 20"),
    ('{"cards": ["1"], "objective": true}', "'objective' must be OBJ1..OBJ20"),
]


@pytest.mark.parametrize(("stdin", "message"), BAD)
def test_check_bad_input_exits_2_with_one_line(
    stdin: str, message: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    status, out, err = run(stdin, capsys, monkeypatch)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("tabletop check: ")
    assert message in err
    assert "Traceback" not in err


def test_check_missing_file_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["check", "mecs", str(tmp_path / "nope.json")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cannot read" in err


def test_check_function_matches_the_command() -> None:
    assert check({"cards": []}) == {
        "valid": False,
        "answer": None,
        "coins": 0,
        "equation": "",
        "reason": "there are no cards",
    }


def test_check_as_a_real_process() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "tabletop", "check", "mecs", "-"],
        input='{"cards": ["9", "X", "7", "EQ", "6", "3"]}',
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["coins"] == 6
    bad = subprocess.run(
        [sys.executable, "-m", "tabletop", "check", "mecs", "-"],
        input='{"cards": ["Q"]}',
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and bad.stdout == ""


# -- MECS-11: card lists the deck cannot hold ---------------------------------------------------


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"cards": ["1"] * 13 + ["EQ", "1"]}, "the deck has only 10 '1' cards, not 14 (MECS-11)"),
        (
            {"cards": [c for i in range(12) for c in (str(i % 9 + 1), "+")] + ["1", "EQ", "1"]},
            "only 10 '+' cards, not 12",
        ),
        ({"cards": ["2", *(c for i in range(21) for c in ("EQ", str(i % 9)))]}, "not 21"),
        ({"cards": ["SQ"] * 6 + ["1", "EQ", "1"]}, "only 5 '²' cards, not 6"),
        (
            {"cards": ["SQRT", "4", "EQ", "2"], "deck": "beginners"},
            "the beginners' deck has no '√' card (MECS-11)",
        ),
        ({"cards": ["1"], "deck": "huge"}, "'deck' must be 'beginners' or 'advanced'"),
    ],
)
def test_mecs11_check_refuses_cards_the_deck_cannot_hold(
    data: Any,
    message: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    status, out, err = run(json.dumps(data), capsys, monkeypatch)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and message in err


def test_mecs11_full_counts_are_accepted_and_the_beginners_deck_by_name(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    ten = answer({"cards": ["1"] * 10 + ["EQ", "2", "X", "3"]}, capsys, monkeypatch)
    assert ten["valid"] is False  # an answer, not a refusal: ten 1s fit in the deck
    basic = answer(
        {"cards": ["9", "X", "7", "EQ", "6", "3"], "deck": "beginners"}, capsys, monkeypatch
    )
    assert basic["valid"] is True and basic["coins"] == 6


def test_mecs11_4301_digit_cards_exit_2_with_one_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 25: 4,301 digit cards made a traceback (Python's limit on reading long
    numbers); the deck holds ten of each digit, so the check refuses the list."""
    status, out, err = run(json.dumps({"cards": ["1"] * 4301 + ["EQ", "1"]}), capsys, monkeypatch)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and "MECS-11" in err and "Traceback" not in err


def test_mecs11_evaluator_refuses_a_number_too_long_to_read() -> None:
    """Below the check (the camera, a hack search): a run of digits longer than any
    deck holds is 'too big to check', never a ValueError from Python's int limit."""
    from tabletop.games.mecs_equation import evaluate

    verdict = evaluate(["1"] * 4301 + ["EQ", "1"])
    assert not verdict.valid and "too big to check" in (verdict.reason or "")


def test_mecs10_check_reads_root_two_squared_as_two(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """MECS-10: the square binds before the root: √2² = 2, √(1 + 1)² = 2."""
    plain = answer({"cards": ["SQRT", "2", "SQ", "EQ", "2"]}, capsys, monkeypatch)
    assert plain == {"valid": True, "answer": "2", "coins": 9, "equation": "√2² = 2"}
    group = answer(
        {"cards": ["SQRT", "LP", "1", "+", "1", "RP", "SQ", "EQ", "2"]}, capsys, monkeypatch
    )
    assert group["valid"] is True and group["answer"] == "2"
    four = answer({"cards": ["SQRT", "2", "SQ", "EQ", "4"]}, capsys, monkeypatch)
    assert four["valid"] is False
