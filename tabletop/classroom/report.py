"""The teacher's report: per student and per group, what a lesson's games came to.

What counts, and how, is :mod:`tabletop.classroom.report_rows`'s (the rows, read from the
game journal); the PDF is :mod:`tabletop.classroom.report_pdf`'s. This module writes
the files (each name is imported from the module it lives in).

The CSV (:func:`write_csv`, columns in :data:`CSV_COLUMNS` and the README) and the PDF
(:func:`report_pdf`: a summary page, then per group a table and bar charts) are made
from the same rows; ``tabletop report`` (:func:`add_parser`) writes both.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import re
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from tabletop import csvsafe
from tabletop.classroom.report_pdf import report_pdf
from tabletop.classroom.report_rows import (
    ALL,
    LeftOut,
    Row,
    decimal_text,
    read_report,
    session_title,
    sessions,
)
from tabletop.engine.errors import BadInput, TabletopError
from tabletop.engine.words import plural
from tabletop.store import FILE_NAME, Journal

if TYPE_CHECKING:
    from fpdf import FPDF

# What the device checks in each game, for the "answers" column.
ANSWER_KINDS = {
    "mathe-meister": "sums",
    "math-wars-meta": "solutions",
    "mecs": "equations",
    "math-arena": "values",
    "math-attack": "answers",
}
CSV_COLUMNS = (
    "session",
    "group",
    "student_id",
    "name",
    "game",
    "games",
    "wins",
    "points",
    "points_exact",
    "answers",
    "checked",
    "right",
    "minutes",
)
FOLDER = "tabletop-reports"  # the folder on a USB stick


# -- CSV -------------------------------------------------------------------------------------


def csv_text(rows: Iterable[Row]) -> str:
    """The CSV: a header line (:data:`CSV_COLUMNS`), then one line per row."""
    out = io.StringIO()
    writer = csvsafe.writer(out, lineterminator="\r\n")
    writer.writerow(CSV_COLUMNS)
    for r in rows:
        writer.writerow(
            [
                r.session,
                r.group,
                r.student,
                r.name,
                r.game,
                r.games,
                r.wins,
                decimal_text(r.points),
                str(r.points),
                ANSWER_KINDS.get(r.game, "answers"),
                r.checked,
                r.right,
                r.minutes,
            ]
        )
    return out.getvalue()


def write_csv(rows: Iterable[Row], file: TextIO | Path | str) -> None:
    """Write the CSV to an open text file, or to a path (UTF-8 with a byte-order mark,
    so spreadsheet programs read accented names right)."""
    text = csv_text(rows)
    if isinstance(file, (str, Path)):
        _write_files({Path(file): _csv_file(text)})
    else:
        file.write(text)


def _csv_file(text: str) -> bytes:
    """A CSV file's bytes: UTF-8 with a byte-order mark (for spreadsheet programs)."""
    return ("\ufeff" + text).encode("utf-8")


# -- files -------------------------------------------------------------------------------------


def file_stem(session: str | None) -> str:
    """``report-<session>`` with only file-name-safe characters."""
    label = ALL if session is None else session or "no session"
    safe = re.sub(r"[^A-Za-z0-9._-]+", "-", label).strip("-.") or "session"
    return f"report-{safe}"


def save_report(
    rows: Sequence[Row],
    folder: Path,
    *,
    session: str | None,
    paper: str = "a4",
    left_out: Sequence[LeftOut] = (),
    skills: Any = None,
) -> tuple[Path, Path]:
    """Write ``report-<session>.csv`` and ``.pdf`` into ``folder`` (made if needed, and
    taken away again when the files cannot be written), both or neither, synced to disk
    before this returns (a USB stick may be pulled out right after)."""
    from tabletop.outfiles import CannotWrite

    stem = file_stem(session)
    csv_path, pdf_path = folder / f"{stem}.csv", folder / f"{stem}.pdf"
    made = not folder.exists()
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise CannotWrite("report.write", folder, exc.strerror or str(exc), exc.errno) from None
    pdf = report_pdf(rows, session=session, paper=paper, left_out=left_out, skills=skills)
    try:
        _write_files({csv_path: _csv_file(csv_text(rows)), pdf_path: bytes(pdf.output())})
    except CannotWrite:
        if made:
            with contextlib.suppress(OSError):
                folder.rmdir()  # only an empty one: a failed export leaves no folder
        raise
    return csv_path, pdf_path


def write_pdf(pdf: FPDF, path: Path) -> None:
    _write_files({path: bytes(pdf.output())})


def _write_files(files: dict[Path, bytes]) -> None:
    from tabletop.outfiles import write_files

    write_files(files, code="report.write")


# -- the command ---------------------------------------------------------------------------


def add_parser(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "report",
        help="the teacher's report of a session: CSV and a printable PDF",
        description=(
            "Per student and game: games, wins, points, answers checked and right, minutes. "
            "With neither --csv nor --pdf, both are written to the current folder."
        ),
    )
    p.add_argument("--data", type=Path, default=None, help="the data folder (as for the app)")
    which = p.add_mutually_exclusive_group()
    which.add_argument("--session", default=None, help="the session (default: the newest)")
    which.add_argument("--all", action="store_true", help="every session together")
    p.add_argument("--csv", type=Path, default=None, help="write the CSV here")
    p.add_argument("--pdf", type=Path, default=None, help="write the PDF here")
    p.add_argument("--paper", choices=("a4", "letter"), default="a4", help="the PDF's paper size")
    p.add_argument(
        "--skills",
        type=Path,
        default=None,
        help="write the skills CSV here: per student and skill, answers checked and right "
        "and each kind of mistake with an example",
    )
    p.set_defaults(run=run)


NOTHING = "nothing written (play a game first, or give --data the folder the app saves in)"


def run(args: argparse.Namespace) -> int:
    """``tabletop report``. No finished games: nothing written, status 2 and one line (the
    files asked for, named or by default, are not made: a script must not think so). An
    unknown ``--session``: status 2 and the sessions there are. The journal is only read
    (a read-only or full card is fine; a damaged journal is status 2, left as it is).
    Each game left out (see :func:`read_report`) is one line on stderr. The files are
    written all or none (:func:`~tabletop.outfiles.write_files`)."""
    from tabletop.outfiles import out_files
    from tabletop.store import data_dir

    folder = data_dir(args.data)
    path = folder / FILE_NAME
    out_files([args.csv, args.pdf, args.skills], journal=path)  # before the work
    if not folder.is_dir():
        raise BadInput("report.data", f"no folder {folder}")
    if not path.exists():
        raise TabletopError("report.empty", f"no games saved in {folder} yet: {NOTHING}")
    journal = Journal.read_only(path)
    files: dict[Path, bytes] = {}  # written at the end, all or none
    said: list[str] = []
    try:
        known = sessions(journal)
        session: str | None
        if args.all:
            session = None
        elif args.session is not None:
            if args.session not in known:
                there = ", ".join(session_title(s) for s in known) or "none yet"
                raise BadInput(
                    "report.session", f"no games in session {args.session!r}; sessions: {there}"
                )
            session = args.session
        elif known:
            session = known[0]
        else:
            session = None
        csv_out, pdf_out = args.csv, args.pdf
        if csv_out is None and pdf_out is None and args.skills is None:
            stem = file_stem(session)  # the files named for the session, checked as well
            csv_out, pdf_out = Path(f"{stem}.csv"), Path(f"{stem}.pdf")
            out_files([csv_out, pdf_out], journal=path)
        found = read_report(journal, session)
        rows = found.rows
        extra = None
        if pdf_out is not None:
            from tabletop.classroom.skills import skills_pages

            extra = skills_pages(journal, session)
        if args.skills is not None and rows:
            from tabletop.classroom.skills import gather_skills, skills_csv_text

            skill_rows = gather_skills(journal, session)
            files[args.skills] = _csv_file(skills_csv_text(skill_rows))
            said.append(f"wrote {args.skills} ({plural(len(skill_rows), 'student skill')})")
    finally:
        journal.close()
    for game in found.left_out:
        print(f"tabletop report: {game.sentence()}", file=sys.stderr)
    if found.hidden:
        numbers = ", ".join(str(g.match) for g in found.hidden)
        print(f"tabletop report: hidden by the teacher: game {numbers}", file=sys.stderr)
    if not rows:
        raise TabletopError("report.empty", f"no finished games in {path} yet: {NOTHING}")
    groups = len({r.group for r in rows})
    if csv_out is not None:
        files[csv_out] = _csv_file(csv_text(rows))
        said.append(f"wrote {csv_out} ({plural(len(rows), 'row')}, {session_title(session)})")
    if pdf_out is not None:
        pdf = report_pdf(
            rows, session=session, paper=args.paper, left_out=found.left_out, skills=extra
        )
        files[pdf_out] = bytes(pdf.output())
        said.append(
            f"wrote {pdf_out} ({plural(pdf.pages_count, 'page')}, "
            f"{plural(groups, 'group')}, {args.paper.upper()})"
        )
    _write_files(files)
    print("\n".join(said))
    return 0


__all__ = [
    "ANSWER_KINDS",
    "CSV_COLUMNS",
    "FOLDER",
    "NOTHING",
    "add_parser",
    "csv_text",
    "file_stem",
    "run",
    "save_report",
    "write_csv",
    "write_pdf",
]
