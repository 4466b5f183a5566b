"""USB sticks: where a teacher's stick is mounted, to read a class list or write reports.

Raspberry Pi OS (and most desktops) mount a stick under ``/media/<user>/<label>``;
udisks2 uses ``/run/media/<user>/<label>``; some setups use ``/mnt``. A stick is a
mounted, writable folder under one of those roots whose filesystem is a removable kind
(FAT, exFAT, NTFS, ext*). Tests pass their own ``mounts`` text and roots.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

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


__all__ = ["ROOTS", "sticks"]
