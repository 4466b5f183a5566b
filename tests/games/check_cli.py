"""``tabletop check GAME`` run in this process, for the games' command-line tests."""

from __future__ import annotations

import io
import json
import sys
from typing import Any

import pytest

from tabletop import cli


def run_main(
    argv: list[str],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch | None = None,
    stdin: str = "",
) -> tuple[int, str, str]:
    """``tabletop ARGV`` with ``stdin`` as its input (given through ``monkeypatch``; a
    command that reads only files needs neither): (exit status, stdout, stderr)."""
    if monkeypatch is not None:
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    else:
        assert not stdin, "stdin is given through monkeypatch"
    status = cli.main(argv)
    out, err = capsys.readouterr()
    return status, out, err


def check_stdin(
    game: str, data: Any, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> tuple[int, str, str]:
    """``tabletop check GAME -`` fed ``data`` (JSON, or a string as it is)."""
    text = data if isinstance(data, str) else json.dumps(data)
    return run_main(["check", game, "-"], capsys, monkeypatch, text)
