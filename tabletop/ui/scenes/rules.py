"""Rules screens: a game's rules in plain words, a page at a time, each page with a
worked example (content, not code: :func:`load_rules`); and :class:`ChoiceGrid`, on which
a controller's question is shown (:func:`ask_dialog`)."""

from __future__ import annotations

import string
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, fields
from pathlib import Path

import pygame

from tabletop.assets import package_folder, read_toml
from tabletop.engine.errors import BadInput
from tabletop.ui.app import Context
from tabletop.ui.controller import Ask
from tabletop.ui.scenes.common import Confirm, Dialog, Screen, footer
from tabletop.ui.theme import Metrics
from tabletop.ui.widgets import Button, Paged, Painter, grid


@dataclass(frozen=True)
class RulesPage:
    """One page: a heading, the rule in a few short sentences, a worked example."""

    heading: str
    text: str
    example: str = ""


def load_rules(game: str, **blanks: object) -> tuple[RulesPage, ...]:
    """The rules pages of ``game`` (``"math_attack"``) from the package data
    ``tabletop/assets/rules/<game>.toml`` (one ``[[page]]`` per page), their ``{blanks}``
    filled (``{victory_cards}``: the engine's numbers, never copies).

    A missing file, no pages, a page without its heading or text, an unknown key, or a
    blank left unfilled is a :class:`BadInput` naming the file, the page and the key."""
    return rules_from_file(package_folder("tabletop.assets") / "rules" / f"{game}.toml", blanks)


def rules_from_file(path: Path, blanks: Mapping[str, object]) -> tuple[RulesPage, ...]:
    """The pages of one rules file (:func:`load_rules`), its blanks filled from ``blanks``."""
    data = read_toml(path)
    pages = data.get("page")
    if not isinstance(pages, list) or not pages or set(data) != {"page"}:
        raise BadInput("rules.pages", f"{path}: write the pages as [[page]] tables, and only them")
    keys = [f.name for f in fields(RulesPage)]
    return tuple(_page(path, n, page, keys, blanks) for n, page in enumerate(pages, 1))


def _page(
    path: Path, n: int, page: object, keys: list[str], blanks: Mapping[str, object]
) -> RulesPage:
    if not isinstance(page, dict):
        raise BadInput("rules.page", f"{path}: page {n} must be a [[page]] table")
    if unknown := sorted(set(page) - set(keys)):
        raise BadInput("rules.key", f"{path}: page {n} has the unknown key {unknown[0]!r}")
    words: dict[str, str] = {}
    for key in keys:
        value = page.get(key, "")
        if not isinstance(value, str) or (key != "example" and not value.strip()):
            raise BadInput("rules.missing", f"{path}: page {n} needs its {key} in quotes")
        try:
            words[key] = string.Formatter().vformat(value, (), blanks)
        except (KeyError, IndexError, AttributeError, ValueError) as exc:
            raise BadInput(
                "rules.blank",
                f"{path}: page {n}, {key}: the blank {exc} is not one the app fills "
                f"({', '.join(sorted(blanks)) or 'none for this game'})",
            ) from None
    return RulesPage(**words)


class RulesScene(Screen):
    """Pages of rules with Back / Next; "Done" on the last page pops the scene."""

    back = "rules.close"

    def __init__(self, ctx: Context, title: str, pages: Sequence[RulesPage]) -> None:
        super().__init__(ctx)
        if not pages:
            raise ValueError("a rules screen needs at least one page")
        self.title, self.pages, self.index = title, tuple(pages), 0

    def layout(self, metrics: Metrics) -> None:
        m = metrics
        prev = "Close" if self.index == 0 else "Back"
        nxt = "Done" if self.index == len(self.pages) - 1 else "Next"
        self.buttons = footer(m, ("rules.prev", prev), ("rules.next", nxt, 180))
        self.text_rect = pygame.Rect(m.u(24), m.u(80) + m.title, m.width - m.u(48), 0)
        self.bottom = self.buttons[0].rect.top - m.u(12)

    def press(self, name: str) -> None:
        """Back and Next turn the page; Back on the first page (Close), Next on the last
        (Done) and the Back key leave."""
        page = self.index + {"rules.prev": -1, "rules.next": 1}.get(name, len(self.pages))
        if not 0 <= page < len(self.pages):
            self.stack.pop(None)
            return
        self.index = page
        self.layout(self.m)

    def draw(self, surface: pygame.Surface) -> None:
        m, page = self.m, self.pages[self.index]
        painter = self.backdrop(surface, self.title, f"Page {self.index + 1} of {len(self.pages)}")
        p = painter.p
        x, width = self.text_rect.left, self.text_rect.width
        y = m.u(76)
        painter.text(surface, page.heading, (x, y), m.title, bold=True, max_width=width)
        y += m.title + m.u(12)
        split = y + (self.bottom - y) * 55 // 100 if page.example else self.bottom
        y += painter.paragraph(surface, page.text, pygame.Rect(x, y, width, split - y), m.text)
        if page.example:
            box = pygame.Rect(x, max(y, split) + m.u(4), width, 0)
            box.height = self.bottom - box.top
            painter.box(surface, box, p.panel, p.line, 2, m.u(10))
            inner = box.inflate(-m.u(24), -m.u(16))
            painter.text(surface, "Example", inner.topleft, m.small, bold=True)
            body = pygame.Rect(inner.left, inner.top + m.small + m.u(6), inner.width, 0)
            body.height = inner.bottom - body.top
            painter.paragraph(surface, page.example, body, m.text)
        painter.buttons(surface, self.buttons)


Face = Callable[[Painter, pygame.Surface, pygame.Rect, str], None]


class ChoiceGrid(Paged, Dialog):
    """Pick one of many (a card, a seat, an operator), or ``pick`` of them; pops with the
    key, the keys (a tuple, in the order tapped), or None on Cancel.

    ``choices`` are (key, label) pairs, shown as a grid of buttons ``columns`` wide (at
    most ``cell`` base units high; 0: as high as ``rows`` fill), a page at a time with
    "More" when they do not fit. Button names are ``prefix`` + key (``choice.KEY``).
    ``captions``: a small line under a choice's label (a card's word under its symbol);
    ``face``: draws each choice instead of a button (a playing card), a ring when picked.
    ``text``: a line above the grid; ``note``: small words under it, where ``off`` (the
    choices that are off, each with the sentence that says why) and the ``why`` button's
    words show. ``done``: the foot's right-hand button, (name, label): with ``pick`` > 1
    it pops the keys once that many are picked (another tap after that drops the first
    one picked), else it pops its name. ``cancel``: the foot's Cancel button.
    """

    def __init__(
        self,
        ctx: Context,
        title: str,
        choices: Sequence[tuple[str, str]],
        *,
        columns: int = 6,
        rows: int = 4,
        captions: Mapping[str, str] | None = None,
        prefix: str = "choice.",
        pick: int = 1,
        off: Mapping[str, str] | None = None,
        text: str = "",
        note: str = "",
        why: str = "",
        done: tuple[str, str] | None = None,
        cancel: bool = True,
        face: Face | None = None,
        cell: int = 0,
        size: tuple[int, int] = (760, 440),
    ) -> None:
        super().__init__(ctx, title, size=size)
        if not choices:
            raise ValueError("a choice grid needs at least one choice")
        self.choices, self.columns, self.rows = tuple(choices), columns, rows
        self.captions, self.off = dict(captions or {}), dict(off or {})
        self.prefix, self.pick = prefix, pick
        self.picked: list[str] = []
        self.text, self.note, self.why, self.message = text, note, why, ""
        self.done, self.cancel, self.face, self.cell = done, cancel, face, cell
        self.note_rect = pygame.Rect(0, 0, 0, 0)

    def layout(self, metrics: Metrics) -> None:
        super().layout(metrics)
        m, body, foot, gap = metrics, self.body(), metrics.u(56), metrics.u(8)
        top = body.top + (m.text + gap if self.text else 0)
        area = pygame.Rect(body.left, top, body.width, body.bottom - foot - gap - top)
        h = (area.height - gap * (self.rows - 1)) // self.rows
        page = self.paged(self.choices, self.columns * self.rows)
        cells = grid(area, len(page), self.columns, gap, min(h, m.u(self.cell)) if self.cell else h)
        self.buttons = [
            Button(self.prefix + key, rect, label, key not in self.off, "choice",
                   selected=key in self.picked, caption=self.captions.get(key, ""))
            for rect, (key, label) in zip(cells, page, strict=True)
        ]  # fmt: skip
        low = max(rect.bottom for rect in cells) + gap
        self.note_rect = pygame.Rect(body.left, low, body.width, body.bottom - foot - gap - low)
        right = pygame.Rect(body.right, body.bottom - foot, 0, foot)
        if self.cancel:
            cancel = pygame.Rect(body.left, body.bottom - foot, m.u(160), foot)
            self.buttons.append(Button("cancel", cancel, "Cancel", kind="quiet"))
        if self.done is not None or self.why:
            name, label = self.done or ("why", "Why?")
            right = pygame.Rect(body.right - m.u(230), right.top, m.u(230), foot)
            ready = self.pick == 1 or len(self.picked) == self.pick
            self.buttons.append(
                Button(name, right, label, ready, "quiet" if self.pick == 1 else "primary")
            )
        if self.pages > 1:
            more = pygame.Rect(
                right.left - m.u(160 + 8 * bool(right.width)), right.top, m.u(160), foot
            )
            self.buttons.append(Button("more", more, "More"))

    def refuse(self, name: str) -> None:
        """A choice that is off: say why (in the note's place)."""
        if (why := self.off.get(name.removeprefix(self.prefix))) is not None:
            self.ctx.sounds.play("wrong")
            self.message = why

    def choose(self, name: str) -> None:
        key = name.removeprefix(self.prefix) if name.startswith(self.prefix) else None
        self.message = self.why if name == "why" else ""  # a refusal's words go at a tap
        if name == "more":
            self.turn_page(1)
        elif key is not None and self.pick > 1:
            picked = [k for k in self.picked if k != key]
            self.picked = picked if len(picked) < len(self.picked) else [*picked, key][-self.pick :]
        elif self.pick > 1 and self.done is not None and name == self.done[0]:
            self.stack.pop(tuple(self.picked))
            return
        elif name != "why":
            self.stack.pop(None if name == "cancel" else key or name)
            return
        self.layout(self.m)

    def draw(self, surface: pygame.Surface) -> None:
        painter, m, body = self.ctx.painter, self.m, self.body()
        self.draw_frame(surface)
        if self.text:
            at, width = (body.centerx, body.top), body.width
            painter.line(surface, self.text, at, m.text, width, bold=True, anchor="midtop")
        for b in self.buttons:
            if self.face is None or not b.name.startswith(self.prefix):
                painter.button(surface, b)
                continue
            self.face(painter, surface, b.rect, b.name.removeprefix(self.prefix))
            if b.selected:
                pygame.draw.rect(surface, painter.p.selected, b.rect.inflate(6, 6), m.u(5), m.u(8))
        words, ink = self.message or self.note, painter.p.muted
        if self.message:
            ink = painter.p.ink if self.message == self.why else painter.p.bad
        if words and self.note_rect.height > 0:
            painter.paragraph(surface, words, self.note_rect, m.small, ink)


def ask_dialog(ctx: Context, ask: Ask, face: Face | None = None) -> Dialog:
    """The dialog that shows ``ask``: a :class:`Confirm` for a yes/no question, else its
    choices on a :class:`ChoiceGrid` (cards drawn by ``face``); either pops with the key
    chosen, or None."""
    if ask.yes_no:
        (_, yes), (_, no) = ask.choices
        return Confirm(ctx, ask.title, yes, no)
    columns, rows, captions = ask.columns, ask.rows, dict(ask.captions)
    face = face if ask.cards else None
    return ChoiceGrid(
        ctx, ask.title, ask.choices, columns=columns, rows=rows, captions=captions, face=face
    )


__all__ = ["ChoiceGrid", "RulesPage", "RulesScene", "ask_dialog"]
