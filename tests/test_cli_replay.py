"""``tabletop replay LOG`` (DESIGN.md: every game is a replayable log of actions): the
printed JSON proves the replay reached the recorded final state."""

from __future__ import annotations

import contextlib
import io
import json
import os
import random
import sys
import threading
from pathlib import Path

import pytest

from tabletop import cli
from tabletop.engine import Match, RngDealer
from tabletop.engine.codec import digest, encode
from tabletop.games import GAMES
from tabletop.games.mathe_meister import MatheMeisterSettings
from tests.mm_play import play_randomly


@pytest.fixture(scope="module")
def played() -> Match:  # type: ignore[type-arg]
    from tabletop.assets import mathe_meister_layout

    settings = MatheMeisterSettings(mathe_meister_layout(), ("twins",))
    match = Match(GAMES["mathe-meister"], settings, 3, seed=42)
    play_randomly(match, random.Random(42), RngDealer(42))
    assert match.result() is not None
    return match


def write_log(tmp_path: Path, lines: list[str]) -> str:
    path = tmp_path / "game.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


def test_replay_prints_the_final_digest(
    played: Match,
    tmp_path: Path,  # type: ignore[type-arg]
    capsys: pytest.CaptureFixture[str],
) -> None:
    status = cli.main(["replay", write_log(tmp_path, list(played.log_lines()))])
    out, err = capsys.readouterr()
    assert (status, err) == (0, "")
    assert out.count("\n") == 1
    data = json.loads(out)
    assert data["digest"] == digest(played.state)
    assert data["over"] is True
    assert data["game"] == "mathe-meister"
    assert data["actions"] == len(played.history)
    assert data["result"] == encode(played.result())
    assert data["state"] == encode(played.state)


def test_replay_of_a_game_in_progress(
    played: Match,
    tmp_path: Path,  # type: ignore[type-arg]
    capsys: pytest.CaptureFixture[str],
) -> None:
    lines = list(played.log_lines())[:30]
    again = Match.replay(lines, GAMES)
    assert cli.main(["replay", write_log(tmp_path, lines)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["over"] is False and data["result"] is None
    assert data["actions"] == 29
    assert data["digest"] == digest(again.state) != digest(played.state)


@pytest.mark.parametrize("damage", ["digest", "json", "action", "header"])
def test_replay_corrupt_log_exits_2_with_one_line(
    played: Match,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],  # type: ignore[type-arg]
    damage: str,
) -> None:
    lines = list(played.log_lines())
    if damage == "digest":
        record = json.loads(lines[12])
        record["digest"] = "f" * 16
        lines[12] = json.dumps(record)
    elif damage == "json":
        lines[12] = lines[12][:-5]
    elif damage == "action":
        record = json.loads(lines[12])
        record["action"] = {"type": "Roll", "dice": [9, 9]}
        lines[12] = json.dumps(record)
    else:
        lines[0] = json.dumps({**json.loads(lines[0]), "game": "ludo"})
    status = cli.main(["replay", write_log(tmp_path, lines)])
    out, err = capsys.readouterr()
    assert (status, out) == (2, "")
    assert err.count("\n") == 1 and err.startswith("tabletop replay: ")
    assert ("line 1" if damage == "header" else "line 13") in err
    assert "Traceback" not in err


def test_replay_missing_or_binary_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["replay", str(tmp_path / "none.jsonl")]) == 2
    assert capsys.readouterr().err.count("\n") == 1
    binary = tmp_path / "bin.jsonl"
    binary.write_bytes(b"\xff\xfe\x00garbage")
    assert cli.main(["replay", str(binary)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "UTF-8" in err
    empty = tmp_path / "empty.jsonl"
    empty.write_text("", encoding="utf-8")
    assert cli.main(["replay", str(empty)]) == 2
    assert "empty" in capsys.readouterr().err


def test_replay_refuses_a_5000_digit_number_in_one_line(
    played: Match,  # type: ignore[type-arg]
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Issue 25 item 9: a 5,000-digit whole number in the header or an action line is
    exit status 2 and one line naming the line (the old main: a ValueError traceback)."""
    lines = list(played.log_lines())
    huge = "9" * 5000  # as JSON text: Python itself refuses to read it as a number
    header = lines[0].replace('"seed": 42', f'"seed": {huge}')
    action = json.loads(lines[3])
    action["n"] = "@@"
    cases = {
        1: [header, *lines[1:]],
        4: [*lines[:3], json.dumps(action).replace('"@@"', "-" + huge), *lines[4:]],
    }
    for number, changed in cases.items():
        assert changed != lines
        status = cli.main(["replay", write_log(tmp_path, changed)])
        out, err = capsys.readouterr()
        assert (status, out) == (2, "")
        assert err == (
            f"tabletop replay: line {number}: a number with 5,000 digits is too long "
            "(at most 1,000 digits)\n"
        )
    # Numbers that can be read but make no sense (1,000 digits) in every place of the
    # header and the first action: one line too, never a traceback.
    for number in (0, 1):
        record = json.loads(lines[number])
        for path in _places(record):
            for value in (10**999, -(10**999), "9" * 999):
                changed = list(lines)
                changed[number] = json.dumps(_put(record, path, value))
                status = cli.main(["replay", write_log(tmp_path, changed)])
                out, err = capsys.readouterr()
                assert status in (0, 2), path
                if status == 2:
                    assert out == "" and err.count("\n") == 1, (path, err[:300])


def _places(data: object, path: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
    if isinstance(data, dict):
        return [p for key, value in data.items() for p in _places(value, (*path, key))]
    if isinstance(data, list):
        return [p for i, value in enumerate(data) for p in _places(value, (*path, i))]
    return [path]


def _put(data: object, path: tuple[object, ...], value: object) -> object:
    out = json.loads(json.dumps(data))
    inner = out
    for key in path[:-1]:
        inner = inner[key]
    inner[path[-1]] = value
    return out


def test_replay_and_check_refuse_a_device_or_a_file_past_the_cap(
    played: Match,  # type: ignore[type-arg]
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Both read the whole file first: a 300 MB file took 610 MB of memory and /dev/zero
    never returned. A file past the cap, or one that is not a regular file (a device, a
    folder), is one line and exit 2; stdin past the cap too."""
    for name in ("/dev/null", str(tmp_path)):
        for argv in (["replay", name], ["check", "mecs", name]):
            assert cli.main(argv) == 2
            assert capsys.readouterr().err == f"tabletop {argv[0]}: {name} is not a file\n"
    assert cli.MAX_INPUT >= 50 * 200_000  # a long game's log (cli.py) with a big margin
    monkeypatch.setattr(cli, "MAX_INPUT", 4096)
    big = write_log(tmp_path, list(played.log_lines()))
    assert Path(big).stat().st_size > 4096
    for argv in (["replay", big], ["check", "mecs", big]):
        assert cli.main(argv) == 2
        assert capsys.readouterr().err == f"tabletop {argv[0]}: {big} is larger than 4,096 bytes\n"
    monkeypatch.setattr(sys, "stdin", io.StringIO("[" + " " * 5000 + "]"))
    assert cli.main(["check", "mecs", "-"]) == 2
    assert capsys.readouterr().err == "tabletop check: - is larger than 4,096 bytes\n"


def test_replay_and_check_read_a_pipe_up_to_the_cap(
    played: Match,  # type: ignore[type-arg]
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`tabletop replay <(cat game.log)` and `/dev/stdin` hand over a pipe (FIFO), not a
    regular file: it is read like one, and the cap still holds (round 31)."""
    text = "\n".join(played.log_lines()) + "\n"

    def through_pipe(argv: list[str], data: str) -> int:
        fifo = tmp_path / "fifo"
        fifo.unlink(missing_ok=True)
        os.mkfifo(fifo)

        def write() -> None:
            with contextlib.suppress(BrokenPipeError):  # the reader stops at the cap
                fifo.write_text(data, encoding="utf-8")

        writer = threading.Thread(target=write)
        writer.start()
        try:
            return cli.main([*argv, str(fifo)])
        finally:
            writer.join(timeout=10)
            if writer.is_alive():  # the pipe was never opened: free the writer
                os.close(os.open(fifo, os.O_RDONLY | os.O_NONBLOCK))
                writer.join()

    assert through_pipe(["replay"], text) == 0
    assert json.loads(capsys.readouterr().out)["digest"] == digest(played.state)
    assert through_pipe(["check", "mecs"], "[]") == 2  # read, then judged: not a state
    assert "is not a file" not in capsys.readouterr().err
    monkeypatch.setattr(cli, "MAX_INPUT", 4096)
    assert through_pipe(["replay"], text) == 2
    assert capsys.readouterr().err.endswith(" is larger than 4,096 bytes\n")
