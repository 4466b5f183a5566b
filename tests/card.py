"""An SD card that fills up or turns read-only, for the journal's tests (issue 25).

Without mounts: :func:`simulated_card` makes every SQLite connection to a file refuse
writes with the error SQLite gives (``database or disk is full``, ``attempt to write a
readonly database``), reads still working, memory databases untouched. With mounts
(root, where ``mount`` is permitted): :func:`small_filesystem` and :func:`read_only_view`,
and :func:`fill` to fill a filesystem up.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sqlite3
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

FULL = "database or disk is full"
READ_ONLY = "attempt to write a readonly database"
_WRITES = ("BEGIN IMMEDIATE", "INSERT", "UPDATE", "DELETE", "CREATE", "PRAGMA JOURNAL_MODE")


class Card:
    """What the simulated card does now: ``None`` (takes writes), FULL or READ_ONLY."""

    def __init__(self) -> None:
        self.refuse: str | None = None
        self.refused = 0  # writes refused so far


def simulated_card(monkeypatch: pytest.MonkeyPatch) -> Card:
    """From now on (for this test) connections to a file refuse writes while
    ``card.refuse`` is set."""
    card = Card()
    real_connect = sqlite3.connect

    class OnCard(sqlite3.Connection):
        def __init__(self, database: Any, *args: Any, **kwargs: Any) -> None:
            super().__init__(database, *args, **kwargs)
            self.on_file = str(database) != ":memory:"

        def execute(self, sql: str, *args: Any) -> sqlite3.Cursor:
            if self.on_file and card.refuse and sql.lstrip().upper().startswith(_WRITES):
                card.refused += 1
                raise sqlite3.OperationalError(card.refuse)
            return super().execute(sql, *args)

    def connect(database: Any, *args: Any, **kwargs: Any) -> sqlite3.Connection:
        kwargs.setdefault("factory", OnCard)
        return real_connect(database, *args, **kwargs)

    monkeypatch.setattr(sqlite3, "connect", connect)
    return card


def _mount(*args: str) -> None:
    if os.geteuid() != 0 or shutil.which("mount") is None:
        pytest.skip("mounting a test filesystem needs root and mount(8)")
    done = subprocess.run(["mount", *args], capture_output=True, text=True)
    if done.returncode != 0:
        pytest.skip(f"mount is not permitted here: {done.stderr.strip()}")


def _unmount(where: Path) -> None:
    subprocess.run(["umount", "-l", str(where)], capture_output=True)


@contextlib.contextmanager
def small_filesystem(where: Path, size_kb: int = 768) -> Iterator[Path]:
    """A tmpfs of ``size_kb`` KiB mounted at ``where`` (skips where it cannot mount)."""
    where.mkdir(parents=True, exist_ok=True)
    _mount("-t", "tmpfs", "-o", f"size={size_kb}k", "tmpfs", str(where))
    try:
        yield where
    finally:
        _unmount(where)


@contextlib.contextmanager
def read_only_view(source: Path, where: Path) -> Iterator[Path]:
    """``source`` seen read-only at ``where`` (a read-only bind mount)."""
    where.mkdir(parents=True, exist_ok=True)
    _mount("--bind", str(source), str(where))
    try:
        _mount("-o", "remount,bind,ro", str(where))
        yield where
    finally:
        _unmount(where)


def fill(folder: Path) -> Path:
    """Fill the filesystem of ``folder`` to the last byte; the file that fills it."""
    filler = folder / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
    try:
        for block in (65536, 4096, 1):
            with contextlib.suppress(OSError):
                while os.write(fd, b"\0" * block):
                    pass
    finally:
        os.close(fd)
    return filler
