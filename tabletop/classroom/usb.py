"""USB sticks: where a teacher's stick is mounted, to read a class list or write reports.

Raspberry Pi OS (and most desktops) mount a stick under ``/media/<user>/<label>``;
udisks2 uses ``/run/media/<user>/<label>``; some setups use ``/mnt``. A stick is a
mounted, writable folder under one of those roots whose filesystem is a removable kind
(FAT, exFAT, NTFS, ext*). Tests pass their own ``mounts`` text and roots. Beside them,
the file logic of the screens that use a stick: the class lists on it, a name to save
under.
"""

from __future__ import annotations

import itertools
import logging
import os
from collections.abc import Callable, Sequence
from pathlib import Path

log = logging.getLogger(__name__)

ROOTS = ("/media", "/run/media", "/mnt")
STICK_FILESYSTEMS = frozenset({"vfat", "exfat", "ntfs", "ntfs3", "fuseblk", "ext4", "ext3", "ext2"})


def _unescape(field: str) -> str:
    """/proc/mounts writes a space in a path as \\040 (octal escapes)."""
    out, i = [], 0
    while i < len(field):
        if field[i] == "\\" and field[i + 1 : i + 4].isdigit():
            out.append(chr(int(field[i + 1 : i + 4], 8)))
            i += 4
        else:
            out.append(field[i])
            i += 1
    return "".join(out)


def sticks(mounts: str | None = None, roots: Sequence[str] = ROOTS) -> list[Path]:
    """Mounted, writable USB sticks (their top folders), in a stable order."""
    if mounts is None:
        try:
            mounts = Path("/proc/mounts").read_text()
        except OSError:
            return []
    found: list[Path] = []
    for line in mounts.splitlines():
        parts = line.split()
        if len(parts) < 4:
            continue
        where, kind, options = _unescape(parts[1]), parts[2], parts[3].split(",")
        if kind not in STICK_FILESYSTEMS or "ro" in options:
            continue
        if not any(where == r or where.startswith(r.rstrip("/") + "/") for r in roots):
            continue
        path = Path(where)
        if path.is_dir() and os.access(path, os.W_OK):
            found.append(path)
    return sorted(set(found))


def mounted_sticks(find: Callable[[], Sequence[Path]], who: str) -> list[Path]:
    """The USB sticks ``find`` lists; none when looking fails (logged for ``who``)."""
    try:
        return list(find())
    except OSError as exc:
        log.warning("%s: cannot look for USB sticks: %s", who, exc)
        return []


def csv_files(sticks: Sequence[Path]) -> list[Path]:
    """The ``*.csv`` files at the top of each stick (no hidden ones), by name; a stick
    that cannot be listed is logged and left out."""
    found: list[Path] = []
    for stick in sticks:
        try:
            entries = sorted(stick.iterdir(), key=lambda p: p.name.casefold())
        except OSError as exc:
            log.warning("class list: cannot list %s: %s", stick, exc.strerror)
            continue
        csv = (p for p in entries if p.suffix.lower() == ".csv" and not p.name.startswith("."))
        found.extend(p for p in csv if p.is_file())
    return found


def free_name(folder: Path, stem: str) -> Path:
    """``stem.csv`` in ``folder``, or ``stem-2.csv``, ... : never a file already there."""
    names = (f"{stem}.csv" if n == 1 else f"{stem}-{n}.csv" for n in itertools.count(1))
    return next(folder / name for name in names if not (folder / name).exists())


__all__ = ["ROOTS", "csv_files", "free_name", "mounted_sticks", "sticks"]
