"""Every CSV the project writes goes through :func:`writer`: no cell becomes a formula.

A spreadsheet program opening a CSV runs a cell that begins with ``=``, ``+``, ``-`` or
``@`` as a formula (``=HYPERLINK(...)``, ``=cmd|' /C calc'!A0``), and a leading tab or
carriage return can hide one. So, as OWASP's "CSV injection" guidance says, such a cell
is written with a leading ``'``: the spreadsheet shows the text as typed (the quote is
not shown) and runs nothing. Names stay as typed everywhere else (screens, PDF, JSON).

One exception, chosen on purpose: a cell that is a plain number (``-3``, ``-2.5``, an
optional minus sign, digits, an optional decimal part) is written as it is. It cannot run
anything, and a quote would turn a negative score into text the spreadsheet cannot add
up. ``-7/2`` or ``+3`` are not plain numbers and get the quote.

:func:`unescape` undoes the quote for a CSV read back in (the class list exported and
imported again keeps its names).
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterable
from typing import Any

TRIGGERS = ("=", "+", "-", "@", "\t", "\r")
_PLAIN_NUMBER = re.compile(r"-?[0-9]+(\.[0-9]+)?")


def cell(value: Any) -> Any:
    """``value`` as it may go into a CSV: text that a spreadsheet would run as a formula
    gets a leading ``'``; numbers and other text are returned unchanged."""
    if not isinstance(value, str):
        return value
    if value.startswith(TRIGGERS) and not _PLAIN_NUMBER.fullmatch(value):
        return "'" + value
    return value


def unescape(text: str) -> str:
    """A cell read back from a CSV this project wrote: the ``'`` that :func:`cell` added
    is taken off (only before a character that made it needed)."""
    if text.startswith("'") and text[1:].startswith(TRIGGERS):
        return text[1:]
    return text


class SafeWriter:
    """:func:`csv.writer` with every cell passed through :func:`cell`."""

    def __init__(self, out: Any, **options: Any) -> None:
        self._writer = csv.writer(out, **options)

    def writerow(self, row: Iterable[Any]) -> Any:
        return self._writer.writerow([cell(v) for v in row])

    def writerows(self, rows: Iterable[Iterable[Any]]) -> None:
        for row in rows:
            self.writerow(row)


def writer(out: Any, **options: Any) -> SafeWriter:
    """The one CSV writer of the project (options as for :func:`csv.writer`)."""
    return SafeWriter(out, **options)


__all__ = ["TRIGGERS", "SafeWriter", "cell", "unescape", "writer"]
