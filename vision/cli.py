"""``tabletop vision dice|cards IMAGE...``: read photos, print one JSON line per image.

The contract (DESIGN.md, "Commands")::

    {"image": PATH, "dice": [{"value": 1-6, "box": [x0, y0, x1, y1], "confidence": 0..1}], "ms": T}
    {"image": PATH, "cards": [{"payload": TEXT, "card": "MT1:..." or null,
                               "corners": [[x, y] x4]}], "ms": T}

in the order given; ``ms`` is the processing time of that image, not counting loading
it. A die that is unreadable (tilted, half out of view, unsure) has ``"value": null``.
Every QR code found is listed, ours or not (``card`` is null when it is not one of
our valid cards). An image that cannot be read gives ``{"image": PATH, "error": ...}``
and the exit status is 2 once every image has been tried.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any, TextIO

from tabletop.engine.errors import BadInput

KINDS = ("dice", "cards")


def add_parser(sub: Any) -> None:
    """Add ``vision`` to the ``tabletop`` command's subparsers."""
    p = sub.add_parser("vision", help="read dice or QR cards in photos: one JSON line per image")
    p.add_argument("kind", choices=KINDS, help="what to read")
    p.add_argument("images", nargs="+", metavar="IMAGE", help="photos (JPEG, PNG, WebP...)")
    p.add_argument(
        "--backend",
        choices=("zxing", "pyzbar", "both"),
        default="both",
        help="cards: QR decoder (default: zxing-cpp, then pyzbar for what it missed)",
    )
    p.set_defaults(run=lambda args: run(args.kind, args.images, backend=args.backend))


def run(kind: str, paths: list[str], *, backend: str = "both", out: TextIO | None = None) -> int:
    """Read every image and print its JSON line; 2 if any image could not be read."""
    if kind not in KINDS:
        raise BadInput("vision.kind", f"unknown kind {kind!r}: choose dice or cards")
    out = out or sys.stdout
    read = _dice_reader() if kind == "dice" else _card_reader(backend)
    status = 0
    for path in paths:
        image = _load(path)
        if isinstance(image, str):
            line: dict[str, Any] = {"image": path, "error": image}
            status = 2
        else:
            start = time.perf_counter()
            found = read(image)
            ms = (time.perf_counter() - start) * 1000
            line = {"image": path, kind: found, "ms": round(ms, 2)}
        out.write(json.dumps(line) + "\n")
        out.flush()
    return status


def _load(path: str) -> Any:
    """The image as BGR, or a one-line reason it cannot be read (a picture past
    :data:`vision.images.MAX_PIXELS` is refused before it is decoded)."""
    from vision.images import load_picture  # here, so that `tabletop` starts without OpenCV

    return load_picture(Path(path))


def _dice_reader() -> Any:
    from vision.dice import default_reader

    reader = default_reader()  # loaded before the first image, so ms excludes it
    return lambda image: [d.as_json() for d in reader.read(image)]


def _card_reader(backend: str) -> Any:
    from vision.cards import read_cards

    if backend not in ("zxing", "pyzbar", "both"):
        raise BadInput("vision.backend", f"unknown QR backend {backend!r}: zxing, pyzbar or both")
    return lambda image: [c.as_json() for c in read_cards(image, backend)]  # type: ignore[arg-type]


def main(argv: list[str] | None = None) -> int:
    from tabletop.cliparse import OneLineParser

    parser = OneLineParser(prog="python -m vision.cli")
    add_parser(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    code: int = args.run(args)
    return code


if __name__ == "__main__":
    raise SystemExit(main())
