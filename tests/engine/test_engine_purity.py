"""Engines are pure (DESIGN.md: "games/ one module per game, pure and I/O-free"; chance
comes from dealers): importing them pulls in no display, camera, GPIO or numpy, and no
game module reads files, clocks, the environment or the global random generator."""

from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
from pathlib import Path

import tabletop.games

GAMES_DIR = Path(tabletop.games.__file__).resolve().parent
HEAVY = ("pygame", "cv2", "gpiozero", "numpy")
FORBIDDEN_MODULES = {"random", "time", "datetime", "os", "pathlib"}


def _game_modules() -> list[str]:
    out = []
    for path in sorted(GAMES_DIR.rglob("*.py")):
        rel = path.relative_to(GAMES_DIR.parent.parent).with_suffix("")
        parts = list(rel.parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out.append(".".join(parts))
    return out


def test_purity_game_modules_are_found() -> None:
    modules = _game_modules()
    assert "tabletop.games" in modules
    assert "tabletop.games.mathe_meister" in modules


def test_purity_importing_engines_loads_no_heavy_library() -> None:
    modules = ["tabletop.engine", "tabletop.games", *_game_modules()]
    code = (
        "import importlib, json, sys\n"
        f"for name in {modules!r}:\n"
        "    importlib.import_module(name)\n"
        f"print(json.dumps(sorted(m for m in {list(HEAVY)!r} if m in sys.modules)))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == []


def _impurities(source: str) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [a.name for a in node.names if a.name.split(".")[0] in FORBIDDEN_MODULES]
        elif isinstance(node, ast.ImportFrom) and node.module:
            if node.module.split(".")[0] in FORBIDDEN_MODULES:
                found.append(node.module)
        elif isinstance(node, ast.Call):
            func = node.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
            if name in ("open", "__import__", "input", "print"):
                found.append(f"{name}(")
    return found


def test_purity_detector_catches_what_it_should() -> None:
    """The static check itself: each forbidden thing is found, pure code is not."""
    bad = "import os\nfrom time import monotonic\nimport random as r\nx = open('f')\n"
    assert _impurities(bad) == ["os", "time", "random", "open("]
    assert _impurities("import datetime.timezone\nfrom pathlib import Path\n") == [
        "datetime.timezone",
        "pathlib",
    ]
    assert _impurities("import itertools\nfrom fractions import Fraction\n") == []


def test_purity_no_game_module_does_io_or_reads_clocks() -> None:
    problems = {}
    for path in sorted(GAMES_DIR.rglob("*.py")):
        source = path.read_text(encoding="utf-8")
        found = _impurities(source)
        if re.search(r"(?<![\w.])open\(", source) and "open(" not in found:
            found.append("open( in text")
        if found:
            problems[str(path.relative_to(GAMES_DIR))] = found
    assert problems == {}
