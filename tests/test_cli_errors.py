"""The CLI contract for arguments argparse refuses (DESIGN.md: bad input is exit status 2
and one line on stderr naming the problem): the command, what is wrong, and where the
options are listed; no usage lines above it (r19-int printed argparse's usage first)."""

from __future__ import annotations

import argparse
from collections.abc import Callable

import pytest

import vision.bench
import vision.cli
from tabletop import cli
from tabletop.ui import bench as ui_bench


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (
            ["demo", "--game", "nope"],
            "tabletop demo: argument --game: invalid choice: 'nope' (choose from "
            "'mathe-meister', 'math-wars-meta', 'math-attack', 'mecs', 'math-arena', "
            "'bubbles'); see tabletop demo --help",
        ),
        (
            ["nope"],
            "tabletop: argument COMMAND: invalid choice: 'nope' (choose from 'demo', 'app', "
            "'buttons', 'check', 'print', 'report', 'teacher', 'fleet', 'replay', 'vision', "
            "'bench'); see tabletop --help",
        ),
        (
            ["app", "--size", "100x100"],
            "tabletop app: argument --size: 100x100 is too small: at least 320x240; "
            "see tabletop app --help",
        ),
        (
            ["fleet", "setup", "--host", "h"],
            "tabletop fleet setup: the following arguments are required: --stations, --out; "
            "see tabletop fleet setup --help",
        ),
        (
            ["print", "badges"],
            "tabletop print badges: the following arguments are required: ROSTER.csv; "
            "see tabletop print badges --help",
        ),
        (  # an argument a command does not know: that command's name and its --help
            ["demo", "--nope"],
            "tabletop demo: unrecognized arguments: --nope; see tabletop demo --help",
        ),
        (
            ["buttons", "test", "--seconds", "1", "extra"],
            "tabletop buttons test: unrecognized arguments: extra; "
            "see tabletop buttons test --help",
        ),
        (
            ["--nope"],
            "tabletop: unrecognized arguments: --nope; see tabletop --help",
        ),
        (
            ["bench", "--games", "many"],
            "tabletop bench: argument --games: invalid int value: 'many'; "
            "see tabletop bench --help",
        ),
    ],
)
def test_cli_errors_argparse_refusal_is_one_line_and_exit_2(
    argv: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as done:
        cli.main(argv)
    assert done.value.code == 2
    captured = capsys.readouterr()
    assert (captured.out, captured.err) == ("", said + "\n")


def test_cli_errors_help_still_prints_the_usage(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        cli.main(["demo", "--help"])
    assert done.value.code == 0
    assert capsys.readouterr().out.startswith("usage: tabletop demo [-h]")


@pytest.mark.parametrize(
    ("main", "argv", "said"),
    [
        (
            ui_bench.main,
            ["--frames", "x"],
            "python -m tabletop.ui.bench: argument --frames: invalid int value: 'x'; "
            "see python -m tabletop.ui.bench --help",
        ),
        (
            vision.cli.main,
            ["vision", "dice"],
            "python -m vision.cli vision: the following arguments are required: IMAGE; "
            "see python -m vision.cli vision --help",
        ),
        (
            vision.bench.main,
            ["--bogus"],
            "python -m vision.bench: unrecognized arguments: --bogus; "
            "see python -m vision.bench --help",
        ),
    ],
)
def test_cli_errors_module_tools_refuse_in_one_line_too(
    main: Callable[[list[str]], int], argv: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """The ``python -m`` tools keep the contract as ``tabletop`` does (r23-int:
    argparse's usage lines above the error)."""
    with pytest.raises(SystemExit) as done:
        main(argv)
    assert done.value.code == 2
    captured = capsys.readouterr()
    assert (captured.out, captured.err) == ("", said + "\n")


def bare_options(parser: argparse.ArgumentParser, command: str) -> list[str]:
    """Each option or argument of ``command`` and of the commands under it that has no
    help text, so ``--help`` lists it bare."""
    bare = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                bare += bare_options(sub, f"{command} {name}")
        elif not action.help:
            bare.append(f"{command} {max(action.option_strings, key=len, default=action.dest)}")
    return bare


def test_cli_errors_every_option_says_what_it_is() -> None:
    """Each option and argument of every ``tabletop`` command has help text (r23-int:
    bench-outage's --stations and --game-seconds had none; r25: `print`'s --paper,
    --edition, --seats and arguments and `report --paper` had none)."""
    assert bare_options(cli._parser(), "tabletop") == []
    assert bare_options(argparse.ArgumentParser(), "x") == []
    bare = argparse.ArgumentParser()
    bare.add_argument("--paper")
    assert bare_options(bare, "x") == ["x --paper"]


@pytest.mark.parametrize("file", ["not-json", "missing"])
def test_cli_errors_check_names_an_unknown_game_before_reading_the_file(
    tmp_path, capsys: pytest.CaptureFixture[str], file: str
) -> None:
    """``tabletop check nope FILE``: the game is the first thing wrong, so it is the one
    said, whatever the file holds or whether it exists (main: "not JSON ..." or "cannot
    read ..." about the file, and nothing about the game)."""
    path = tmp_path / "bad.json"
    if file == "not-json":
        path.write_bytes(b"\x00\x01 garbage")
    assert cli.main(["check", "nope", str(path)]) == 2
    err = capsys.readouterr().err
    assert err == f"tabletop check: unknown game 'nope': choose from {', '.join(cli.GAME_NAMES)}\n"
