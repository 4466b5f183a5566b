"""``tabletop print deck|sheet|mats|badges|answer-key``: make the PDF, say where it went."""

from __future__ import annotations

import argparse
from pathlib import Path

from tabletop.engine.errors import BadInput
from tabletop.engine.words import plural


def add_parser(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("print", help="printable PDFs: decks, the sheet, mats, badges, answer keys")
    what = p.add_subparsers(dest="what", metavar="WHAT", required=True)

    def common(q: argparse.ArgumentParser) -> None:
        q.add_argument("--paper", choices=("a4", "letter"), default="a4", help="paper size")
        q.add_argument("--out", type=Path, default=None, help="the PDF to write")

    q = what.add_parser("deck", help="a card deck, nine cards to a page with cut marks")
    q.add_argument("game", metavar="GAME", help="math-wars-meta, math-attack, mecs, math-arena")
    q.add_argument(
        "--edition", choices=("MWM25", "MWM100"), default="MWM25", help="Math Wars Meta edition"
    )
    q.add_argument("--army", type=int, default=1, help="Math Wars Meta army 1..8")
    common(q)
    q = what.add_parser("sheet", help="the Mathe-Meister tracking sheet")
    q.add_argument("game", metavar="GAME", choices=("mathe-meister",), help="mathe-meister")
    common(q)
    q = what.add_parser("mats", help="player mats with camera markers, and the shared board")
    q.add_argument(
        "game", metavar="GAME", help="mathe-meister, math-wars-meta, math-attack, mecs, math-arena"
    )
    q.add_argument("--seats", type=int, default=2, help="how many seat mats, 1..8")
    common(q)
    q = what.add_parser("badges", help="student badges from a roster CSV (id,name,group)")
    q.add_argument(
        "roster",
        metavar="ROSTER.csv",
        type=Path,
        help="a class list with ids, as the device saves it",
    )
    common(q)
    q = what.add_parser("answer-key", help="the Math Wars Meta Answer Key")
    q.add_argument(
        "edition", metavar="EDITION", choices=("MWM25", "MWM100"), help="MWM25 or MWM100"
    )
    common(q)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from tabletop.outfiles import out_files
    from tabletop.printables import pdf as pdfs

    out = args.out or Path(default_name(args))
    out_files([out], reads=[getattr(args, "roster", None)])  # before the work
    paper = args.paper
    if args.what == "deck":
        from tabletop.printables.decks import deck_faces

        faces = deck_faces(args.game, args.edition, args.army)
        doc = pdfs.new_pdf(paper, title=f"{args.game} deck")
        pdfs.card_pages(doc, faces, paper)
        detail = plural(len(faces), "card")
    elif args.what == "sheet":
        from tabletop.assets import mathe_meister_layout
        from tabletop.printables.sheet import sheet_pdf

        doc, detail = sheet_pdf(mathe_meister_layout(), paper), "1 page"
    elif args.what == "mats":
        from tabletop.printables.mats import mats_pdf

        doc = mats_pdf(args.game, args.seats, paper)
        detail = plural(doc.pages_count, "page")
    elif args.what == "badges":
        from tabletop.classroom.students import decode_csv, read_class_list
        from tabletop.printables.badges import badges_pdf

        try:
            data = args.roster.read_bytes()
        except OSError as exc:
            raise BadInput("print.roster", f"cannot read {args.roster}: {exc.strerror}") from None
        students, note = read_class_list(decode_csv(data, str(args.roster)))
        if not students[0].id:  # a list of names: the device makes up the ids
            raise BadInput(
                "print.roster",
                f"{args.roster} has no ids: import it into the class list first, then print "
                "badges from the list saved by the device or the dashboard"
                + (f". {note}" if note else ""),
            )
        doc, detail = badges_pdf(students, paper), plural(len(students), "badge")
    else:
        from tabletop.printables.answer_key import answer_key_pdf

        doc = answer_key_pdf(args.edition, paper)
        detail = plural(doc.pages_count, "page")
    print(f"wrote {pdfs.save(doc, out)} ({detail}, {paper.upper()})")
    return 0


def default_name(args: argparse.Namespace) -> str:
    """The file ``print`` writes when no ``--out`` is given (in the current folder)."""
    if args.what == "deck":
        army = f"-{args.edition.lower()}-army{args.army}" if args.game == "math-wars-meta" else ""
        return f"{args.game}{army}-deck.pdf"
    if args.what in ("sheet", "mats"):
        return f"{args.game}-{args.what}.pdf"
    if args.what == "answer-key":
        return f"answer-key-{args.edition.lower()}.pdf"
    return "badges.pdf"
