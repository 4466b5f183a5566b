"""The one sentence table: what the screen (and the speaker) says to children, one short
sentence a 9-year-old gets, for every game: why a move is refused, what to do next, what
just happened.

Engines raise errors with stable codes (``"mm.cell_full"``, ``"atk.blocked"``); the app's
own refusals and sentences have codes too (``"arena.ui.face_down"``, ``"mecs.step.plant"``).
This table turns each code into words for children; ``facts`` fill its blanks
(``{owner}``). The engine's exact English message goes to the log and the CLI, never to the
screen, and nothing on screen is ever a traceback.

The words are content, not code: they live in ``tabletop/assets/sentences.toml`` (package
data), where a teacher or a translator reads and edits them, and are loaded once, here.
"""

from __future__ import annotations

import logging
import re
import string
from collections import defaultdict
from collections.abc import Mapping, Sequence
from pathlib import Path

from tabletop.assets import package_folder, read_toml
from tabletop.engine.errors import BadInput
from tabletop.engine.words import and_joined

log = logging.getLogger(__name__)

SENTENCES = "sentences.toml"


def load_sentences(path: Path) -> dict[str, str]:
    """The sentence table from its TOML file: the key ``cell_full`` in the table ``[mm]``
    is the code ``"mm.cell_full"``. A missing file, broken TOML, or an entry that is not
    one sentence with well-formed ``{name}`` blanks is a :class:`BadInput` that names the
    file and the key."""
    table: dict[str, str] = {}
    _collect(read_toml(path), "", path, table)
    if not table:
        raise BadInput("messages.empty", f"{path}: there are no sentences in it")
    return table


def _collect(data: Mapping[str, object], prefix: str, path: Path, table: dict[str, str]) -> None:
    for key, value in data.items():
        code = prefix + key
        if isinstance(value, dict) and value:
            _collect(value, code + ".", path, table)
            continue
        if not isinstance(value, str) or not value.strip():
            raise BadInput(
                "messages.entry",
                f"{path}: the entry {code!r} must be one sentence in quotes, not {value!r}",
            )
        try:
            blanks = [f for _, f, _, _ in string.Formatter().parse(value) if f is not None]
        except ValueError as exc:
            broken = str(exc)
        else:
            broken = next((repr(f) for f in blanks if not f.isidentifier()), "")
        if broken:
            raise BadInput(
                "messages.blank",
                f"{path}: the entry {code!r} has a broken blank ({broken}): "
                "write a blank as {name}, and a brace alone as {{ or }}",
            )
        table[code] = value


CHILD_MESSAGES: dict[str, str] = load_sentences(package_folder("tabletop.assets") / SENTENCES)

FALLBACK = "You can't do that right now. Try something else."


def child_message(code: str, facts: Mapping[str, object] | None = None, **named: object) -> str:
    """The child's sentence ``code``: a refusal, an instruction, what just happened;
    ``facts`` and ``named`` fill its blanks (one with no fact says "that")."""
    template = CHILD_MESSAGES.get(code)
    if template is None:
        log.warning("no child message for error code %r", code)
        return FALLBACK
    given = {**(facts or {}), **named}
    return template.format_map(defaultdict(lambda: "that", {k: str(v) for k, v in given.items()}))


def seats_named(text: str, names: Sequence[str]) -> str:
    """An engine sentence's "Seat 2" and "seats 1 and 3" as the seats' names."""

    def one(m: re.Match[str]) -> str:
        seat = int(m.group(1)) - 1
        return names[seat] if 0 <= seat < len(names) else m.group(0)

    def many(m: re.Match[str]) -> str:
        seats = [int(x) - 1 for x in re.findall(r"\d+", m.group(1))]
        if not all(0 <= s < len(names) for s in seats):
            return m.group(0)
        return and_joined([names[s] for s in seats])

    text = re.sub(r"\b[Ss]eats ((?:\d+(?:, | and ))+\d+)\b", many, text)
    return re.sub(r"\b[Ss]eat (\d+)\b", one, text)


__all__ = [
    "CHILD_MESSAGES",
    "FALLBACK",
    "SENTENCES",
    "child_message",
    "load_sentences",
    "seats_named",
]
