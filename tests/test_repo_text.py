"""The checkout's own text files hold no leftovers of an unfinished merge: a README with
``<<<<<<< HEAD`` in it tells a new user two contradicting things (one did, on main)."""

from __future__ import annotations

import os
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MARKER = re.compile(r"^(<{7}|>{7}) |^={7}$", re.MULTILINE)
SKIP = {".venv", ".git", "build", "node_modules", "__pycache__"}
SUFFIXES = (".md", ".py", ".toml", ".txt", ".sh", ".cfg")


def text_files() -> list[Path]:
    """The project's text files, not walking into the venv, git's folder or builds."""
    found = []
    for folder, dirs, names in os.walk(ROOT):
        dirs[:] = [d for d in dirs if d not in SKIP and not d.endswith(".egg-info")]
        found += [Path(folder, n) for n in names if n.endswith(SUFFIXES) or n == "Makefile"]
    return found


def test_repo_no_merge_conflict_markers_in_text_files() -> None:
    files = text_files()
    assert any(p.name == "README.md" for p in files)
    left = [
        str(p.relative_to(ROOT)) for p in files if MARKER.search(p.read_text("utf-8", "replace"))
    ]
    assert left == []
