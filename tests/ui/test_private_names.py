"""Rules are decided once, in the engines (issue 21): the screens ask an engine through its
public names and never reach into an engine's, or ``Match``'s, private ones."""

from __future__ import annotations

import ast
from pathlib import Path

import tabletop.ui

UI = Path(tabletop.ui.__file__).parent
ENGINE_PACKAGES = ("tabletop.games", "tabletop.engine", "tabletop.bots")
# names that hold an engine's objects in the UI code: a private attribute read on one of
# them is a rule worked out again on screen
ENGINE_HOLDERS = {"match", "state", "settings", "game", "GAME", "engine", "deal", "stage"}


def private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def holder(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def offences(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith(ENGINE_PACKAGES):
            found += [
                f"{path.name}:{node.lineno}: imports {node.module}.{alias.name}"
                for alias in node.names
                if private(alias.name)
            ]
        elif (
            isinstance(node, ast.Attribute)
            and private(node.attr)
            and holder(node.value) in ENGINE_HOLDERS
        ):
            found.append(f"{path.name}:{node.lineno}: reads {holder(node.value)}.{node.attr}")
    return found


def test_ui_uses_no_private_engine_names() -> None:
    found = [o for path in sorted(UI.rglob("*.py")) for o in offences(path)]
    assert not found, "\n".join(found)


def test_ui_private_name_check_finds_an_offence(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("from tabletop.games.mecs import _coin\nx = self.match._steps\ny = self._mine\n")
    assert offences(bad) == [
        "bad.py:1: imports tabletop.games.mecs._coin",
        "bad.py:2: reads match._steps",
    ]
