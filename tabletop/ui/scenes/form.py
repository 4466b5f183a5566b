"""The one setup screen (issue 21): every game's setup is a :class:`FormSpec`, data.

A teacher teaches one pattern. Every game's first screen has, top to bottom:

* the title and one line on the game;
* **Who plays**: the seat row. Each seat tile says who sits there: a child (signed in at
  Start when the device has a class list, or named), a bot with its level, or nobody.
  A tap on a tile opens a small picker (:class:`~tabletop.ui.scenes.rules.ChoiceGrid`)
  with what this seat may be: "A child", "Type a name", "Bot: <level>", "Nobody". The
  filled seats are always seats 1..n (the seat buttons and LEDs of the table): emptying
  a seat moves the ones after it up, and a player added on an empty tile takes the
  first free seat;
* **Cards**: real or virtual cards, chosen here and nowhere else; a choice the seats
  rule out (bots play with virtual cards) is off and says why when tapped;
* the game's option rows (``<key>.<value>`` toggles, as a station rotation presets them);
* the footer: Back, Rules, Start, always in the same places with the same names.

When the rows do not fit the screen the form does not shrink them: it turns the page
("More options" / "Back to players" in the footer).

Start goes through sign-in when the device has a class list
(:func:`~tabletop.ui.scenes.signin.sign_in`), then calls the game's
``start(ctx, values)`` with a :class:`FormValues` and pushes the scene it returns.

Touch targets: ``seat.<i>`` (0-based), in the seat picker ``choice.child``,
``choice.name``, ``choice.bot.<level>``, ``choice.empty``; ``cards.real``,
``cards.virtual``; ``<key>.<value>`` per option; ``more``, ``back``, ``rules``,
``start``; a link's own key; ``players.-`` ``players.+`` where the seats have a stepper.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any

import pygame

from tabletop.store import SeatInfo
from tabletop.ui.app import Context, Scene
from tabletop.ui.input import CardsSeen, InputEvent, SeatPressed
from tabletop.ui.messages import child_message
from tabletop.ui.saves import folded
from tabletop.ui.scenes.common import Item, Row, Screen, spread, toggles
from tabletop.ui.scenes.names import NameScene
from tabletop.ui.scenes.rules import ChoiceGrid, RulesPage, RulesScene
from tabletop.ui.scenes.signin import sign_in
from tabletop.ui.speech import sentences
from tabletop.ui.theme import SEAT_COLOURS, Metrics
from tabletop.ui.widgets import Button, Paged

log = logging.getLogger(__name__)

CHILD, BOT, EMPTY = "child", "bot", "empty"
REAL, VIRTUAL = "real", "virtual"
NAME_LENGTH = 16


# -- the declaration --------------------------------------------------------------------------


@dataclass(frozen=True)
class Choice:
    """One choice of an option row: its value, its label and a short caption.

    ``label`` may name the seats: ``"{0}"`` is seat 1's name (for "Who starts")."""

    value: str
    label: str
    caption: str = ""


@dataclass(frozen=True)
class OptionRow:
    """A row of toggles ``<key>.<value>``, one of them chosen (``default`` at first).

    ``shown(values)``: whether the row means something now (None: always).
    ``forced(options)``: the one value the other options leave (None: any), with ``why``
    the sentence a tap on another choice gets (M.E.C.S.'s challenge needs the advanced
    deck).

    ``pick(values, choice)``: the row's value after a tap on ``choice`` (``""``: after
    the seats changed), for a row whose value may join several choices with ``+``
    (Mathe-Meister's modes); ``off(values, choice)``: why ``choice`` is off now (``""``:
    it is on)."""

    key: str
    label: str
    choices: tuple[Choice, ...]
    default: str
    shown: Callable[[FormValues], bool] | None = None
    forced: Callable[[Mapping[str, str]], str | None] | None = None
    why: str = ""
    pick: Callable[[FormValues, str], str] | None = None
    off: Callable[[FormValues, str], str] | None = None

    def __post_init__(self) -> None:
        if self.default not in {c.value for c in self.choices}:
            raise ValueError(f"option {self.key}: the default {self.default!r} is no choice")


@dataclass(frozen=True)
class Seats:
    """The seat row: ``low..high`` players; ``start`` gives each of the ``high`` seats
    its kind at first (``child``, ``bot``, ``empty``: the empty ones last).

    ``levels``: the bots' levels as (id, name), none when no bot may play; ``level`` a new
    bot's level; ``bot_seats``: the seats (0-based) a bot may take (None: any);
    ``shared_level``: every bot plays at the same level (choosing one sets them all);
    ``bot_name``: a bot's name, with ``{seat}`` (1-based) and ``{level}`` (its name);
    ``stepper``: "-" and "+" beside the tiles take away the last player or add a child;
    ``recent(ctx)``: names that played here before, offered by the seat picker
    (``choice.recent.<i>``), the first of them seat 1's name at first."""

    low: int
    high: int
    start: tuple[str, ...]
    levels: tuple[tuple[str, str], ...] = ()
    level: str = ""
    bot_seats: tuple[int, ...] | None = None
    shared_level: bool = False
    bot_name: str = "Bot {seat}"
    stepper: bool = False
    recent: Callable[[Context], Sequence[str]] | None = None

    def __post_init__(self) -> None:
        if not 1 <= self.low <= self.high <= len(SEAT_COLOURS):
            raise ValueError(f"seats {self.low}..{self.high} are not 1..{len(SEAT_COLOURS)}")
        if len(self.start) != self.high or any(k not in (CHILD, BOT, EMPTY) for k in self.start):
            raise ValueError(f"seats: start must give {self.high} kinds of child, bot, empty")
        filled = [k for k in self.start if k != EMPTY]
        if self.start[: len(filled)] != tuple(filled) or not self.low <= len(filled):
            raise ValueError("seats: the first seats are filled, the empty ones come last")
        if BOT in self.start and not self.levels:
            raise ValueError("seats: a bot seat needs bot levels")
        if self.levels and self.level not in dict(self.levels):
            raise ValueError(f"seats: {self.level!r} is not one of the bot levels")

    def bot_allowed(self, seat: int) -> bool:
        return bool(self.levels) and (self.bot_seats is None or seat in self.bot_seats)


@dataclass(frozen=True)
class Cards:
    """Real or virtual cards: ``default`` at first; ``with_bot`` is forced while a bot
    plays, ``without_bot`` while none does (None: free), each with the sentence that
    says why the other is off."""

    default: str = REAL
    with_bot: str | None = VIRTUAL
    without_bot: str | None = None
    why_with_bot: str = sentences(
        child_message("setup.bot_cards"), child_message("setup.real_cards")
    )
    why_without_bot: str = ""
    real_caption: str = "camera or touch"
    virtual_caption: str = "the device deals"


@dataclass(frozen=True)
class Link:
    """A button to a screen next door (M.E.C.S. opens the bubble game): ``open(ctx)``
    is pushed on a tap on the button ``key``."""

    key: str
    label: str
    open: Callable[[Context], Scene]
    caption: str = ""


@dataclass(frozen=True)
class Preset:
    """What a station rotation's mode sets on the form (None: leaves it); ``options``:
    option rows it chooses, as (key, value)."""

    seats: tuple[str, ...] | None = None
    cards: str | None = None
    options: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class FormSpec:
    """One game's setup screen, as data; see the module docstring.

    ``game``: the game's name (the journal's, the logs'); ``start(ctx, values)``: the
    game's scene; ``modes``: what each station-rotation mode (``STATION_MODES``) sets;
    ``replace``: the game takes the setup's place on the stack; ``intro``: a sentence
    under the rows when there is nothing else to say; ``aside(scene, surface, rect,
    values)``: draws a panel at the right (a scoreboard); ``seat_button_starts``: seat
    1's button (lit) starts too; ``cards_seen(event)``: what to say about cards the
    camera sees on this screen; ``links``: buttons to screens next door, in the last
    row ("Also"); ``check(values)``: what is wrong with the choices, in a child's words,
    said at Start instead of starting (None: nothing)."""

    game: str
    title: str
    subtitle: str
    rules: tuple[RulesPage, ...]
    start: Callable[[Context, FormValues], Scene]
    seats: Seats | None = None
    cards: Cards | None = None
    options: tuple[OptionRow, ...] = ()
    modes: tuple[tuple[str, Preset], ...] = ()
    replace: bool = False
    intro: str = ""
    aside: Callable[[Scene, pygame.Surface, pygame.Rect, FormValues], None] | None = None
    seat_button_starts: bool = False
    cards_seen: Callable[[CardsSeen], str] | None = None
    links: tuple[Link, ...] = ()
    check: Callable[[FormValues], str | None] | None = None

    def __post_init__(self) -> None:
        if not self.rules:
            raise ValueError(f"{self.title}: a setup needs its rules")
        keys = [o.key for o in self.options] + [link.key for link in self.links]
        if len(keys) != len(set(keys)) or {"seat", "cards", "choice"} & set(keys):
            raise ValueError(f"{self.title}: option keys must be new and different: {keys}")


# -- what the form hands over ----------------------------------------------------------------


@dataclass(frozen=True)
class SeatChoice:
    """One seat on the form: its kind, a child's name (typed or default), a bot's level."""

    kind: str
    name: str = ""
    level: str = ""


@dataclass(frozen=True)
class FormValues:
    """What the form chose: the filled seats in order (after sign-in, who signed in),
    the cards (``real``/``virtual``, or None when the game has no such choice), the
    options by key, and the bots' level (the one a new bot gets); ``extra``: what code
    (not a child) set on the form for the game (the M.E.C.S. demo drives the bots)."""

    seats: tuple[SeatInfo, ...]
    cards: str | None
    options: Mapping[str, str] = field(default_factory=dict)
    level: str = ""
    extra: Mapping[str, Any] = field(default_factory=dict)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(s.name for s in self.seats)

    @property
    def bots(self) -> dict[int, str]:
        return {s.seat: s.bot for s in self.seats if s.bot is not None}

    @property
    def virtual(self) -> bool:
        return self.cards == VIRTUAL


# -- the screen ------------------------------------------------------------------------------


class FormScene(Paged, Screen):
    """The setup screen of ``spec``; see the module docstring."""

    good = False  # its one sentence says what is wrong

    def __init__(self, ctx: Context, spec: FormSpec) -> None:
        super().__init__(ctx)
        self.spec, seats = spec, spec.seats
        self.level = seats.level if seats else ""
        self.seats = [self._new(i, kind) for i, kind in enumerate(seats.start)] if seats else []
        self.recent = list(seats.recent(ctx))[:4] if seats and seats.recent else []
        if self.recent and self.seats[0].kind == CHILD:
            self.seats[0] = SeatChoice(CHILD, self.recent[0][:NAME_LENGTH])
        self.cards = spec.cards.default if spec.cards else None
        self.option_rows = {o.key: o for o in spec.options}
        self.options = {o.key: o.default for o in spec.options}
        self.message = ""
        self.extra: dict[str, Any] = {}  # handed to the game as FormValues.extra

    # -- the choices ---------------------------------------------------------------------

    def _new(self, seat: int, kind: str, level: str = "") -> SeatChoice:
        if kind == BOT:
            return SeatChoice(BOT, level=level or self.level)
        return SeatChoice(kind, f"Player {seat + 1}" if kind == CHILD else "")

    @property
    def filled(self) -> list[SeatChoice]:
        return [s for s in self.seats if s.kind != EMPTY]

    def seat_name(self, seat: int) -> str:
        choice, spec = self.seats[seat], self.spec.seats
        if choice.kind == BOT and spec is not None:
            level = dict(spec.levels).get(choice.level, choice.level)
            return spec.bot_name.format(seat=seat + 1, level=level)
        return choice.name if choice.kind == CHILD else "Nobody"

    def forced_cards(self) -> str | None:
        """The cards the seats leave no choice about (None: either)."""
        cards = self.spec.cards
        if cards is None:
            return None
        return cards.with_bot if any(s.kind == BOT for s in self.seats) else cards.without_bot

    def values(self) -> FormValues:
        """The choices now (seats named as on the form: sign-in comes at Start)."""
        seats = tuple(
            SeatInfo(i, self.seat_name(i), bot=s.level if s.kind == BOT else None)
            for i, s in enumerate(self.seats)
            if s.kind != EMPTY
        )
        cards = self.forced_cards() or self.cards
        return FormValues(seats, cards, dict(self.options), self.level, dict(self.extra))

    def set_seat(self, seat: int, kind: str, level: str = "") -> None:
        """Seat ``seat`` becomes ``kind``; the filled seats stay seats 1..n."""
        spec = self.spec.seats
        assert spec is not None
        if kind == EMPTY:
            if len(self.filled) <= spec.low or self.seats[seat].kind == EMPTY:
                return
            del self.seats[seat]
            self.seats = [  # seat numbers moved: default names follow them
                replace(s, name=f"Player {i + 1}") if s.name.startswith("Player ") else s
                for i, s in enumerate([*self.seats, SeatChoice(EMPTY)])
            ]
        else:
            seat = min(seat, len(self.filled)) if self.seats[seat].kind == EMPTY else seat
            if kind == CHILD and self.seats[seat].kind == CHILD:
                return
            self.seats[seat] = self._new(seat, kind, level)
        if kind == BOT and level and spec.shared_level:
            self.bots_at(level)
        elif kind == BOT and level:
            self.level = level
        cards = self.spec.cards
        self._force(cards.why_with_bot if cards is not None and kind == BOT else "")

    def bots_at(self, level: str) -> None:
        """Every bot, and every bot added, plays at ``level``."""
        self.level = level
        self.seats = [replace(s, level=level) if s.kind == BOT else s for s in self.seats]

    def seat_choices(self, seat: int) -> list[tuple[str, str]]:
        """What the seat picker offers for ``seat``: (key, label)."""
        spec = self.spec.seats
        assert spec is not None
        here = self.seats[seat]
        target = len(self.filled) if here.kind == EMPTY else seat
        out = [(CHILD, "A child"), ("name", "Type a name")]
        out += [(f"recent.{i}", name) for i, name in enumerate(self.recent)]
        if spec.bot_allowed(target):
            out += [(f"bot.{level}", f"Bot: {name}") for level, name in spec.levels]
        if here.kind != EMPTY and len(self.filled) > spec.low:
            out.append((EMPTY, "Nobody"))
        now = CHILD if here.kind == CHILD else f"bot.{here.level}"
        return [(key, f"{label} \u2713" if key == now else label) for key, label in out]

    def preset(self, mode: str, options: Mapping[str, Any]) -> None:
        """A station rotation's mode and options, chosen before the group arrives (they
        may still change them). ``level`` sets the bots' level."""
        preset = dict(self.spec.modes).get(mode)
        if mode and preset is None:
            log.warning("form: %s has no mode %r", self.spec.title, mode)
        self.preset_seats(preset)
        if preset is not None and preset.cards is not None:
            self.cards = preset.cards
        levels = dict(self.spec.seats.levels) if self.spec.seats else {}
        chosen = {**dict(preset.options if preset is not None else ()), **options}
        for key, value in chosen.items():
            value = str(value)
            row = self.option_rows.get(key)
            if row is not None and value in {c.value for c in row.choices}:
                self.options[key] = value
            elif key == "level" and value in levels:
                self.bots_at(value)
            else:
                log.warning("form: %s has no option %s=%r", self.spec.title, key, value)
        if self._force():
            log.warning("form: %s plays %s cards with these seats", self.spec.title, self.cards)
        self.layout(self.m)

    def preset_seats(self, preset: Preset | None) -> None:
        """The seats ``preset`` names (if it names any), the rest empty."""
        if preset is not None and preset.seats is not None and self.spec.seats is not None:
            self.seats = [
                self._new(i, k) for i, k in enumerate(preset.seats + (EMPTY,) * len(self.seats))
            ][: len(self.seats)]

    def forced_option(self, row: OptionRow) -> str | None:
        """The value the other options leave this row (None: any)."""
        return row.forced(self.options) if row.forced is not None else None

    def _force(self, why_cards: str = "") -> bool:
        """The cards and options the other choices leave no choice about, saying
        ``why_cards`` (else the row's ``why``) when they change; whether the cards did."""
        forced = self.forced_cards()
        cards_changed = forced is not None and forced != self.cards
        if cards_changed:
            self.cards = forced
            self.message = why_cards or self.message
        for row in self.spec.options:
            if row.pick is not None:
                self.options[row.key] = row.pick(self.values(), "")
            forced = self.forced_option(row)
            if forced is not None and self.options[row.key] != forced:
                self.options[row.key] = forced
                self.message = row.why or self.message
        return cards_changed

    # -- layout --------------------------------------------------------------------------

    def row_specs(self) -> list[Row]:
        """The rows in order, as :func:`~tabletop.ui.scenes.common.spread` lays them out
        (the seat row lays out its tiles itself)."""
        m, spec, values = self.m, self.spec, self.values()
        rows: list[Row] = []
        if spec.seats is not None:
            rows.append(Row("Who plays", height=m.u(62), build=self._seat_tiles))
        if (cards := spec.cards) is not None:
            forced = self.forced_cards()
            real = (REAL, "Real cards", cards.real_caption)
            virtual = (VIRTUAL, "Virtual cards", cards.virtual_caption)
            on = partial(_free, forced, None, values)
            items = toggles("cards.", (real, virtual), {forced or self.cards}, on=on)
            rows.append(Row("Cards", items, m.u(58), 2, gap=8, most=220))
        names = [self.seat_name(i) for i in range(len(self.seats))]
        for o in spec.options:
            if o.shown is None or o.shown(values):
                choices = [(c.value, c.label.format(*names), c.caption) for c in o.choices]
                on = partial(_free, self.forced_option(o), o.off, values)
                h = m.u(58 if any(c.caption for c in o.choices) else 54)
                items = toggles(f"{o.key}.", choices, self.options[o.key].split("+"), on=on)
                rows.append(Row(o.label, items, h, len(items), gap=8, most=220))
        if spec.links:
            links = [Item(k.key, k.label, caption=k.caption) for k in spec.links]
            rows.append(Row("Also", links, m.u(54), len(links), gap=8, most=220))
        return rows

    def layout(self, metrics: Metrics) -> None:
        m, (W, H) = metrics, metrics.size
        margin, gap, bh, top = m.u(16), m.u(12), m.u(56), m.u(72)
        foot, right = H - margin - bh, W - margin
        self.aside_rect: pygame.Rect | None = None
        if self.spec.aside is not None:
            aside_w = int(W * 0.38)
            self.aside_rect = pygame.Rect(right - aside_w, top, aside_w, foot - m.u(12) - top)
            right = self.aside_rect.left - m.u(16)
        message_top = foot - m.u(10) - m.u(30)
        self.message_rect = pygame.Rect(margin, message_top, right - margin, m.u(30))
        rows = self.row_specs()  # pages of them, a new page where the next does not fit
        lines = 1 if self.tiles_shown() <= 5 else 2  # the seat row's
        high = [r.height if r.build is None else lines * (r.height + m.u(8)) - m.u(8) for r in rows]
        pages = self.fitting(rows, [h + gap for h in high], message_top - m.u(6) - top + gap)
        # one link alone on a page of its own goes in the footer, where "More" would be
        if in_footer := len(pages) == 2 and pages[-1] == [rows[-1]] and len(self.spec.links) == 1:
            pages.pop()
        area = pygame.Rect(margin, top, right - margin, 0)
        b, self.words = spread(m, area, self.page_of(pages), label=158, gap=12)
        self.intro_top = max((button.rect.bottom for button in b), default=top - gap) + gap
        for i, (key, label) in enumerate((("back", "Back"), ("rules", "Rules"))):
            rect = pygame.Rect(margin + i * m.u(152), foot, m.u(140), bh)
            b.append(Button(key, rect, label, kind="quiet"))
        start = pygame.Rect(W - margin - m.u(220), foot, m.u(220), bh)
        slot = pygame.Rect(start.left - m.u(12) - m.u(190), foot, m.u(190), bh)  # left of Start
        if self.pages > 1:
            more = "Back to players" if self.page == self.pages - 1 else "More options"
            b.append(Button("more", slot, more, kind="quiet"))
        if in_footer:
            link = self.spec.links[0]
            b.append(Button(link.key, slot, link.label, kind="quiet"))
        b.append(Button("start", start, "Start", size=m.big))
        self.buttons = b

    def tiles_shown(self) -> int:
        """How many seat tiles the row shows: every filled seat and the empty ones after
        them, but of the empty ones only what fits one line of five (a game for up to
        eight shows more as its seats fill)."""
        spare = 1 if self.spec.seats and self.spec.seats.stepper else 5  # "+" adds the rest
        return min(len(self.seats), max(spare, len(self.filled) + 1))

    def _seat_tiles(self, rect: pygame.Rect) -> list[Button]:
        m, spec = self.m, self.spec.seats
        assert spec is not None
        n, gap, out = self.tiles_shown(), m.u(8), []
        per_line = n if n <= 5 else -(-n // 2)
        if spec.stepper:  # "-" and "+" at the row's end, the tiles in what is left
            filled = len(self.filled)
            for i, (sign, on) in enumerate((("-", filled > spec.low), ("+", filled < spec.high))):
                x = rect.right - (2 - i) * m.u(56) - (1 - i) * gap
                box = pygame.Rect(x, rect.top, m.u(56), m.u(62))
                label = sign.replace("-", "\u2212")
                out.append(Button(f"players.{sign}", box, label, size=m.big, enabled=on))
            rect = rect.inflate(-2 * m.u(64), 0).move(-m.u(64), 0)
        w, h = min(m.u(220), (rect.width - (per_line - 1) * gap) // per_line), m.u(62)
        levels = dict(spec.levels)
        for i, seat in enumerate(self.seats[:n]):
            line, col = divmod(i, per_line)
            tile = pygame.Rect(rect.left + col * (w + gap), rect.top + line * (h + gap), w, h)
            if seat.kind == BOT:
                label, caption = "Bot", levels.get(seat.level, seat.level)
            elif seat.kind == CHILD:
                label, caption = seat.name, "child"
            else:
                label, caption = "Nobody", "tap to add"
            out.append(Button(f"seat.{i}", tile, label, kind="choice", caption=caption))
        return out

    # -- input ---------------------------------------------------------------------------

    def enter(self) -> None:
        self._lamps(True)

    def exit(self) -> None:
        self._lamps(False)

    pause = exit

    def _lamps(self, on: bool) -> None:
        if self.spec.seat_button_starts:
            self.ctx.lamps.light_only([0] if on else [])

    def handle(self, event: InputEvent) -> None:
        if isinstance(event, SeatPressed):
            if self.spec.seat_button_starts:
                self.press("start")
        elif isinstance(event, CardsSeen):
            if self.spec.cards_seen is not None:
                self.message = self.spec.cards_seen(event)
        else:
            super().handle(event)

    def refuse(self, name: str) -> None:
        """A tap on a choice that is off: say why."""
        self.ctx.sounds.play("wrong")
        key, _, value = name.partition(".")
        cards = self.spec.cards
        if cards is not None and key == "cards":
            bots = any(s.kind == BOT for s in self.seats)
            self.message = cards.why_with_bot if bots else cards.why_without_bot
        if key == "players" and (seats := self.spec.seats) is not None:  # the stepper's end
            which = "fewest" if value == "-" else "most"
            self.message = child_message(f"setup.{which}", low=seats.low, high=seats.high)
        if (row := self.option_rows.get(key)) is not None:
            off = row.off(self.values(), value) if row.off is not None else ""
            self.message = off or row.why or self.message

    def press(self, name: str) -> None:
        self.message = ""
        key, _, value = name.partition(".")
        links = {link.key: link for link in self.spec.links}
        if key == "seat":
            seat = int(value)
            here = "add a player" if self.seats[seat].kind == EMPTY else "who plays here?"
            title, choices = f"Seat {seat + 1}: {here}", self.seat_choices(seat)
            picker = ChoiceGrid(self.ctx, title, choices, columns=2, rows=3)
            self.ask(picker, partial(self.picked, seat))
        elif name in links:
            self.stack.push(links[name].open(self.ctx))
        elif name in ("rules", "back", "start"):
            act: dict[str, Callable[[], object]]
            act = {"rules": self.rules, "back": self.stack.pop, "start": self.start}
            act[name]()
        else:
            if key == "cards":
                self.cards = value
            elif key == "players":
                filled = len(self.filled)
                self.set_seat(filled - (value == "-"), EMPTY if value == "-" else CHILD)
            elif name == "more":
                self.turn_page(1)
            elif (row := self.option_rows.get(key)) is not None:
                self.options[key] = row.pick(self.values(), value) if row.pick else value
                if key == "mode":  # the seats as the mode's preset names them (if it does)
                    self.preset_seats(dict(self.spec.modes).get(value))
                self._force()
            self.layout(self.m)

    def rules(self) -> None:
        self.stack.push(RulesScene(self.ctx, f"{self.spec.title}: the rules", self.spec.rules))

    def start(self) -> None:
        """The game, through sign-in; or what its ``check`` finds wrong with the choices."""
        spec, values = self.spec, self.values()
        if problem := spec.check(values) if spec.check is not None else None:
            self.say(problem, good=False)
            log.info("form: %s refused to start: %s", spec.game, problem)
            return

        def play(seats: Sequence[SeatInfo]) -> None:
            game = spec.start(self.ctx, replace(values, seats=tuple(seats)))
            (self.stack.replace if spec.replace else self.stack.push)(game)

        if spec.seats is None:  # no seats, no sign-in
            play(())
        else:
            sign_in(self, list(values.names), values.bots, play)

    def resume(self, result: Any) -> None:
        self._lamps(True)
        super().resume(result)  # the seat picker's, the name pad's or the sign-in's answer

    def name_seat(self, seat: int, name: str) -> None:
        """A child named ``name`` (trimmed, at most 16 letters) sits at ``seat``; a name
        another seat has (whatever its capitals and spaces) opens the name pad again on
        it, saying which seat has it."""
        name = name.strip()[:NAME_LENGTH]
        same = (i for i, s in enumerate(self.seats) if s.kind == CHILD and i != seat)
        other = next((i for i in same if folded(self.seats[i].name) == folded(name)), None)
        if name and other is not None:
            said = self.seats[other].name
            self.ask_name(seat, name, child_message("setup.same_name", seat=other + 1, name=said))
        elif name:
            self.seats[seat] = SeatChoice(CHILD, name)
            self.layout(self.m)

    def ask_name(self, seat: int, name: str, why: str = "") -> None:
        """The name pad for ``seat``, on ``name``, ``why`` (a refusal) under it."""
        pad = NameScene(self.ctx, name, f"Name for seat {seat + 1}")
        pad.message = why
        self.ask(pad, partial(self.name_seat, seat))

    def picked(self, seat: int, choice: str) -> None:
        """What the seat picker answered for ``seat``."""
        if self.seats[seat].kind == EMPTY and choice != EMPTY:
            seat = len(self.filled)
        kind, _, arg = choice.partition(".")  # child, empty, name, recent.<i>, bot.<level>
        self.set_seat(
            seat, CHILD if kind in ("name", "recent") else kind, arg if kind == BOT else ""
        )
        if kind == "name":
            self.ask_name(seat, self.seats[seat].name)
        elif kind == "recent":
            self.name_seat(seat, self.recent[int(arg)])
        self.layout(self.m)

    # -- drawing -------------------------------------------------------------------------

    def draw(self, surface: pygame.Surface) -> None:
        painter, m = self.backdrop(surface, self.spec.title, self.spec.subtitle), self.m
        painter.buttons(surface, self.buttons)
        for b in self.buttons:
            if b.name.startswith("seat."):
                seat = int(b.name[len("seat.") :])
                if self.seats[seat].kind != EMPTY:
                    strip = pygame.Rect(b.rect.left, b.rect.top, b.rect.width, m.u(7))
                    painter.box(surface, strip, SEAT_COLOURS[seat], None, radius=m.u(4))
        # what is wrong, else the game's intro: under the rows, wrapped, never off screen
        top = min(self.intro_top, self.message_rect.top)
        note = pygame.Rect(m.u(16), top, self.message_rect.width, self.message_rect.bottom - top)
        self.draw_message(surface, note, self.spec.intro if self.page == 0 else "")
        if self.aside_rect is not None and self.spec.aside is not None:
            self.spec.aside(self, surface, self.aside_rect, self.values())


def _free(
    forced: str | None,
    off: Callable[[FormValues, str], str] | None,
    values: FormValues,
    value: str,
) -> bool:
    """Whether a row's ``value`` may be chosen: none is ``forced`` or it is, and ``off``
    (if any) has nothing against it."""
    return forced in (None, value) and not (off and off(values, value))


__all__ = [
    "BOT",
    "CHILD",
    "EMPTY",
    "REAL",
    "VIRTUAL",
    "Cards",
    "Choice",
    "FormScene",
    "FormSpec",
    "FormValues",
    "Link",
    "OptionRow",
    "Preset",
    "SeatChoice",
    "Seats",
]
