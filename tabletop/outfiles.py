"""The files and folders a command writes where it is told (``--out``, ``--pdf``,
``--csv``, ``--log``): checked before the work, so a whole game is not played for a log
that cannot be kept, and any failure one line, "cannot write X: why" (the CLI's exit
status 2, never a traceback).

Every command does as ``cp`` and ``mkdir`` do: the folder a file goes into must be
there already (a mistyped path makes no tree of folders); a folder named for a command's
output (``demo --out`` and ``--data``, ``fleet setup --out``) is made, its parent must be there. No
output may be a file the command reads, the game journal, or another of its outputs
(:func:`apart`). A file is written whole or not at all (:func:`write_files`).
"""

from __future__ import annotations

import os
import secrets
import stat
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager, suppress
from errno import EROFS
from pathlib import Path

from tabletop.engine.errors import TabletopError


class CannotWrite(TabletopError):
    """A file or folder that cannot be written: "cannot write PATH: WHY", and ``why``
    alone (often the system's words) and the system's ``errno`` (where it gave one:
    ``ENOSPC`` a full disk, ``EROFS`` a read-only one) for a screen's own sentence."""

    def __init__(self, code: str, path: Path, why: str, errno: int | None = None) -> None:
        super().__init__(code, f"cannot write {path}: {why}")
        self.why, self.errno = why, errno


def _cannot(path: Path, why: str, errno: int | None = None) -> CannotWrite:
    return CannotWrite("out.path", path, why, errno)


@contextmanager
def _said(path: Path) -> Iterator[None]:
    """An ``OSError`` while ``path`` is looked at or made (a name too long, a folder
    that cannot be made) as the one line, "cannot write X: why"."""
    try:
        yield
    except OSError as exc:
        raise _cannot(path, exc.strerror or str(exc), exc.errno) from None


def _into(path: Path) -> Path:
    """The folder ``path`` goes into, refused unless it is there and writable."""
    parent = path.absolute().parent
    if not parent.is_dir():
        if parent.exists():
            raise _cannot(path, f"{parent} is a file, not a folder: name another place")
        raise _cannot(path, f"the folder {parent} does not exist: make it first, or name another")
    if not os.access(parent, os.W_OK | os.X_OK):
        mounted_ro = os.statvfs(parent).f_flag & os.ST_RDONLY
        raise _cannot(path, f"the folder {parent} is read-only", EROFS if mounted_ro else None)
    return parent


def out_file(path: Path) -> Path:
    """``path``, once it is known that a file can be written there (else a one-line
    ``TabletopError``): not a folder, in a folder that is there and writable, not a
    read-only file."""
    with _said(path):
        if path.is_dir():
            raise _cannot(path, "it is a folder: name a file in it")
        _into(path)
        if path.exists() and not os.access(path, os.W_OK):
            raise _cannot(path, "the file is read-only")
    return path


def out_folder(path: Path) -> Path:
    """``path``, a folder to write files in: there and writable, or made now (in a
    folder that is there); else a one-line ``TabletopError``."""
    with _said(path):
        if path.exists() and not path.is_dir():
            raise _cannot(path, "it is a file, not a folder: name a folder")
        if not path.exists():
            _into(path)
            path.mkdir()
        if not os.access(path, os.W_OK | os.X_OK):
            raise _cannot(path, "the folder is read-only")
    return path


def apart(
    outputs: Iterable[Path | None],
    *,
    reads: Iterable[Path | None] = (),
    journal: Path | None = None,
) -> None:
    """Refuse, in one line before the work, an output (a file or a folder; None: not
    asked for) that is a file the command reads (``reads``), the game ``journal`` or a
    file SQLite keeps beside it, or another of ``outputs``: the same place once links
    and ``..`` are resolved (so also a file not made yet), or the same file by another
    name (a hard link)."""
    from tabletop.store_file import SIDES

    taken = [(p, "this command reads it") for p in reads if p is not None]
    if journal is not None:
        taken.append((journal, "it is the game journal"))
        taken += [
            (journal.with_name(journal.name + s), f"it is part of the game journal {journal}")
            for s in SIDES
        ]
    for out in (o for o in outputs if o is not None):
        with _said(out):
            for other, why in taken:
                if _same(out, other):
                    raise _cannot(out, f"{why}: name another file")
        taken.append((out, "another output of this command goes there too"))


def out_files(
    outputs: list[Path | None],
    *,
    reads: Iterable[Path | None] = (),
    journal: Path | None = None,
) -> None:
    """A command's output files (None: not asked for), checked in one line before the
    work: :func:`apart`, then :func:`out_file` for each."""
    apart(outputs, reads=reads, journal=journal)
    for out in (o for o in outputs if o is not None):
        out_file(out)


def _same(a: Path, b: Path) -> bool:
    if os.path.realpath(a) == os.path.realpath(b):
        return True
    try:
        return os.path.samefile(a, b)
    except OSError:  # one is not there (yet)
        return False


def write_file(path: Path, data: bytes | str, *, code: str = "out.write") -> Path:
    """Write ``data`` to ``path``: :func:`write_files` with one file."""
    write_files({path: data}, code=code)
    return path


def write_files(files: Mapping[Path, bytes | str], *, code: str = "out.write") -> None:
    """Write ``files`` (each place, checked by :func:`out_file`, and its bytes; text as
    UTF-8) all or none, as a full USB stick may refuse any: each is written whole to a
    new file beside its place and synced to disk; only when all are does each take its
    place (``os.replace``; through a link, the file it names), the old file there kept
    as it was until then; then the folder is synced (a stick may be pulled out right
    after). A failure is one line, "cannot write X: why" (``code``: the log's name for a
    failed write) that, with several files, says which were written. A place there that
    is not a regular file (a pipe, ``/dev/stdout``) is written as it is."""
    for path in files:
        out_file(path)
    new: dict[Path, tuple[Path, Path]] = {}  # a file -> its new copy and its place
    written: list[Path] = []
    try:
        for path, data in files.items():
            new[path] = _beside(path, data.encode("utf-8") if isinstance(data, str) else data)
        for path, (copy, place) in new.items():
            if copy != place:
                os.replace(copy, place)
            written.append(path)
    except OSError as exc:
        why = exc.strerror or str(exc)
        if len(files) > 1:
            left = ", ".join(str(p) for p in files if p not in written)
            why += (
                f" (written: {', '.join(map(str, written))}; not: {left})"
                if written
                else " (none written)"
            )
        raise CannotWrite(code, path, why, exc.errno) from None
    finally:
        for path, (copy, place) in new.items():
            if path not in written and copy != place:
                with suppress(OSError):
                    copy.unlink()
    for folder in {place.parent for _, place in new.values()}:
        with suppress(OSError):  # where the system syncs a folder: the new names on disk
            fd = os.open(folder, os.O_RDONLY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)


def _beside(path: Path, data: bytes) -> tuple[Path, Path]:
    """``data`` in a new file in the folder of ``path`` (a link: of the file it names),
    with the mode of the file there, synced; and that place. A ``path`` that is there
    and not a regular file (a pipe) is written into: it is both."""
    try:
        mode: int | None = os.stat(path).st_mode
    except FileNotFoundError:
        mode = None
    if mode is not None and not stat.S_ISREG(mode):
        with open(path, "wb") as f:
            f.write(data)
        return path, path
    place = Path(os.path.realpath(path))
    copy = place.with_name(f".tabletop-{secrets.token_hex(4)}.tmp")
    fd = os.open(copy, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        with open(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        if mode is not None:
            with suppress(OSError):  # a FAT stick keeps no modes
                os.chmod(copy, stat.S_IMODE(mode))
    except OSError:
        with suppress(OSError):
            copy.unlink()
        raise
    return copy, place


__all__ = [
    "CannotWrite",
    "apart",
    "out_file",
    "out_files",
    "out_folder",
    "write_file",
    "write_files",
]
