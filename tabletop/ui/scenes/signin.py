"""Sign-in at a station: who sits at each seat, so results are kept per student.

:class:`SignInScene` pops with one :class:`tabletop.store.SeatInfo` per seat, or None
when cancelled. A human seat is filled by a badge under the card camera (``tabletop
print badges``: QR ``MT1:ID:<id>``; seen in seat k's zone it signs in seat k, elsewhere
the highlighted seat), by a tap on a name (the rotation's group shown first), or as a guest
(the seat's default name, no student). The highlighted seat (its LED lit) is the next
empty one; a tap on a seat, or its button, highlights it to change it. Bot seats are
filled already. What is refused is said in one sentence (the sentence table's
``signin.*``, :data:`SAYS`) and logged.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import pygame

from hardware.buttons import SeatPressed
from tabletop.classroom.roster import Roster
from tabletop.classroom.students import BADGE_PREFIX, badge_id, told_apart
from tabletop.store import SeatInfo
from tabletop.ui.app import Context
from tabletop.ui.input import CardsSeen, InputEvent
from tabletop.ui.messages import CHILD_MESSAGES, child_message
from tabletop.ui.saves import seat_infos, shown_seat_names
from tabletop.ui.scenes.common import Screen, foot
from tabletop.ui.scenes.roster import PAGE_KEYS, StudentGrid
from tabletop.ui.theme import SEAT_COLOURS, Metrics
from tabletop.ui.widgets import Button, grid

log = logging.getLogger(__name__)

CAMERA_GAME = "signin"  # the card camera's zones: seat slices, or whole mats
# what the sign-in says, by its key in the sentence table's [signin]
SAYS = {k[7:]: text for k, text in CHILD_MESSAGES.items() if k.startswith("signin.")}


def needs_sign_in(ctx: Any) -> bool:
    """True when the device has a class list (otherwise skip the sign-in screen)."""
    return len(Roster(ctx.journal)) > 0


class SignInScene(Screen):
    """See the module docstring."""

    back, keys = "cancel", PAGE_KEYS

    def __init__(
        self, ctx: Context, defaults: list[str], bots: dict[int, str] | None = None
    ) -> None:
        """A seat for each of ``defaults`` (its name for a guest); ``bots``: level by seat."""
        super().__init__(ctx)
        if not 1 <= len(defaults) <= len(SEAT_COLOURS):
            raise ValueError(f"seats must be 1 to {len(SEAT_COLOURS)}, not {len(defaults)}")
        self.defaults = list(defaults)
        self.seats = seat_infos(self.defaults, bots)  # who sits where now: what Play! pops
        self.decided = [s.bot is not None for s in self.seats]  # a bot's seat is filled
        self.roster = Roster(ctx.journal)
        here = getattr(ctx.rotation, "group", None)  # the grid opens on the rotation's group
        self.grid = StudentGrid(self.roster.students(), here if isinstance(here, str) else None)
        self.active: int | None = self._next_empty()
        self.camera: Any = None

    def enter(self) -> None:
        from tabletop.ui.games import start_card_camera

        self.camera = start_card_camera(self.ctx, CAMERA_GAME, len(self.seats))
        self._light()

    def exit(self) -> None:
        from tabletop.ui.games import stop_card_camera

        stop_card_camera(self.camera)
        self.camera = None
        self.ctx.lamps.light_only([])

    @property
    def camera_on(self) -> bool:
        return self.camera is not None and getattr(self.camera, "available", True)

    def layout(self, metrics: Metrics) -> None:
        m, painter = metrics, self.ctx.painter
        W, H = m.size
        margin, bh, top = m.u(16), m.u(56), m.u(74)
        foot_y = H - margin - bh
        left_w = m.u(300 if len(self.seats) <= 4 else 370)
        self.message_rect = pygame.Rect(margin, foot_y - m.u(8) - m.u(84), left_w, m.u(84))
        seat_area = pygame.Rect(margin, top, left_w, self.message_rect.top - m.u(8) - top)
        n, gap = len(self.seats), m.u(8)
        cols = 1 if n <= 4 else 2
        rows = -(-n // cols)
        h = min(m.u(80), (seat_area.height - (rows - 1) * gap) // rows)
        cells = grid(seat_area, n, cols, gap, h, rows=rows)
        b = [
            Button(f"seat.{i}", rect, s.name, selected=i == self.active, enabled=s.bot is None)
            for i, (rect, s) in enumerate(zip(cells, self.seats, strict=True))
        ]  # drawn by draw_seat
        names = pygame.Rect(seat_area.right + m.u(20), top, 0, foot_y - m.u(8) - top)
        names.width = W - margin - names.left
        seated = {s.student: i for i, s in enumerate(self.seats) if s.student is not None}
        which = told_apart(self.grid.students)
        b += self.grid.layout(
            names,
            m,
            columns=2,
            caption=lambda s: " · ".join(
                x
                for x in (f"seat {seated[s.id] + 1}" if s.id in seated else "", which.get(s.id, ""))
                if x
            ),
            enabled=lambda s: s.id not in seated,
            reads=lambda b: min(size for _, size, _ in painter.captioned(b)) >= painter.least,
        )
        b.append(Button("cancel", foot(m, 180), "Cancel", kind="quiet"))
        guest = pygame.Rect(0, foot_y, (W - 2 * margin - 2 * gap) // 3, bh)
        guest.centerx = W // 2
        waiting = self.active is not None  # a seat to fill
        b.append(Button("guest", guest, "Play as guest", kind="quiet", enabled=waiting))
        ready = all(self.decided)
        b.append(Button("done", foot(m, 240, "right"), "Play!", size=m.big, enabled=ready))
        self.buttons = b

    def handle(self, event: InputEvent) -> None:
        if isinstance(event, CardsSeen):
            self.seen(event)
        elif isinstance(event, SeatPressed):
            self.select(event.seat)
        else:
            super().handle(event)

    def refuse(self, name: str) -> None:
        """A tap on a button that is off: a name already seated says where it sits, a
        bot's seat that it needs no name; Play! names the seat still waiting, Play as
        guest says every seat has a player."""
        if StudentGrid.student_of(name) is not None or name.startswith("seat."):
            self.press(name)
        elif name == "done" and (waiting := self._next_empty()) is not None:
            self.say_no("waiting", seat=waiting + 1)
        elif name == "guest":
            self.say_no("full")

    def press(self, name: str) -> None:
        sid = StudentGrid.student_of(name)
        if name in ("done", "cancel"):
            if name == "cancel" or all(self.decided):
                self.stack.pop(list(self.seats) if name == "done" else None)
            return
        if sid is not None:
            self.sign_in(sid, None, how="tap")
        elif name.startswith("seat."):
            self.select(int(name[len("seat.") :]))
        elif name == "guest":
            self.play_as_guest()
        else:
            self.grid.press(name, self)
        self.layout(self.m)

    def seen(self, event: CardsSeen) -> None:
        """The camera's steady reading of one zone: sign in the badges there."""
        badges: list[tuple[int | None, str]] = []
        for card in event.cards:
            if (sid := badge_id(card.code)) is None:
                log.info("sign-in: %r is not a badge (seat %s)", card.code, card.seat)
            else:
                seat = self._zone_seat(event.seat if card.seat is None else card.seat)
                badges.append((seat, sid))
        fixed = [seat for seat, _ in badges if seat is not None]
        if event.cards and not badges:
            self.say_no("not_badge")
        elif len(fixed) != len(set(fixed)):
            log.info("sign-in: %d badges at once in seat %s's zone", len(badges), fixed[0] + 1)
            self.say_no("one")
        else:
            for seat, sid in badges:
                self.sign_in(sid, seat, how="badge")
        self.layout(self.m)

    def select(self, seat: int) -> None:
        if 0 <= seat < len(self.seats) and self.seats[seat].bot is not None:
            self.say_no("bot", name=self.seats[seat].name)
        elif 0 <= seat < len(self.seats):
            self.active = seat
            self._light()
            self.layout(self.m)

    def sign_in(self, sid: str, seat: int | None, *, how: str) -> None:
        """Put student ``sid`` at ``seat`` (None: the highlighted seat)."""
        student = self.roster.get(sid)
        if student is None:
            log.warning("sign-in: %s %s%s is not in the class list", how, BADGE_PREFIX, sid)
            self.say_no("unknown")
            return
        target = self.active if seat is None else seat
        where = next((i for i, s in enumerate(self.seats) if s.student == student.id), None)
        if where is not None and where != target:
            log.info("sign-in: %s (%s) is already at seat %d", student.id, how, where + 1)
            self.say_no("taken", name=student.name, seat=where + 1)
            return
        if target is None:
            log.info("sign-in: %s (%s) with every seat filled", student.id, how)
            self.say_no("full")
            return
        old = self.seats[target]  # a child signed in there before: told they are not now
        self.seats[target] = SeatInfo(target, student.name, student.id, student.group)
        self.decided[target] = True
        log.info("sign-in: %s (%s) at seat %d by %s", student.id, student.name, target + 1, how)
        key = "signin.instead" if old.student not in (None, student.id) else "signin.hello"
        self.say(child_message(key, name=student.name, seat=target + 1, old=old.name))
        self.ctx.sounds.play("good")
        self._advance()

    def play_as_guest(self) -> None:
        if self.active is None:
            return
        i = self.active
        self.seats[i], self.decided[i] = SeatInfo(i, self.defaults[i]), True
        log.info("sign-in: seat %d plays as a guest (%s)", i + 1, self.defaults[i])
        self.say(child_message("signin.guest", seat=self.active + 1))
        self._advance()

    def say_no(self, key: str, **values: Any) -> None:
        self.say(child_message(f"signin.{key}", values), good=False)

    def _zone_seat(self, seat: int | None) -> int | None:
        """A camera seat (1-based) as a human seat here (0-based), else None."""
        if seat is None or not 1 <= seat <= len(self.seats):
            return None
        return seat - 1 if self.seats[seat - 1].bot is None else None

    def _next_empty(self) -> int | None:
        return next((i for i, decided in enumerate(self.decided) if not decided), None)

    def _advance(self) -> None:
        self.active = self._next_empty()
        self._light()

    def _light(self) -> None:
        self.ctx.lamps.light_only([] if self.active is None else [self.active])

    def draw(self, surface: pygame.Surface) -> None:
        sub = "Tap your name, or play as a guest."
        if self.camera_on:
            sub = "Hold your badge under the camera, or tap your name."
        painter = self.backdrop(surface, "Who plays?", sub)
        for b in self.buttons:
            if b.name.startswith("seat."):
                self.draw_seat(surface, b, int(b.name[len("seat.") :]))
            else:
                painter.button(surface, b)
        self.grid.draw(surface, painter)
        self.draw_message(surface, self.message_rect, max_lines=3)

    def _short_name(self, i: int, shown: dict[int, str]) -> str:
        """Seat ``i``'s name cut for a narrow tile so it still reads apart from the other
        seats' (``shown``: as the tiles show them, a namesake's with its tag): its first
        word ("Mia"), else with its last word's initial ("Mia J."), else whole (the painter
        shrinks, then cuts it)."""
        words, seats = self.seats[i].name.split(), self.seats
        tags = [shown[j].replace(s.name, "", 1) for j, s in enumerate(seats)]
        others = [f"{s.name} " for j, s in enumerate(seats) if j != i and tags[j] == tags[i]]
        initial = f"{words[0]} {words[-1][0]}"
        for short, stem in ((words[0], f"{words[0]} "), (f"{initial}.", initial)):
            if not any(other.startswith(stem) for other in others):
                return short
        return self.seats[i].name

    def draw_seat(self, surface: pygame.Surface, b: Button, i: int) -> None:
        painter, m, p, seat = self.ctx.painter, self.m, self.ctx.painter.p, self.seats[i]
        fill = p.panel if seat.bot is None else p.quiet
        painter.box(surface, b.rect, fill, p.line, 2, m.u(8))
        if b.selected:
            pygame.draw.rect(surface, p.selected, b.rect.inflate(6, 6), m.u(4), m.u(8))
        chip = pygame.Rect(b.rect.left, b.rect.top, m.u(34), b.rect.height)
        painter.seat_chip(surface, chip, i, radius=m.u(8))
        inner = b.rect.width - chip.width - m.u(16)
        left = chip.right + m.u(8)
        caption_h = painter.fonts.font(m.small).get_linesize()
        # a tile too short for two captions (8 seats over the banner): both at 16 px
        small = m.small if b.rect.height >= 2 * caption_h + m.u(6) else painter.least
        room = b.rect.height - painter.fonts.font(small).get_linesize() - m.u(6)
        size = max(small, min(m.big, int(room * 0.8)))
        shown = shown_seat_names(self.seats)
        name = shown[i]  # a namesake's with what tells them apart
        if " " in seat.name and painter.fonts.width(name, int(size * 0.75), True) > inner:
            # a first name read big beats a whole name read small
            name = name.replace(seat.name, self._short_name(i, shown), 1)
        ink, at = p.ink if self.decided[i] else p.muted, (left, b.rect.top + m.u(3))
        painter.text(surface, name, at, size, ink, bold=True, max_width=inner)  # shrunk, then cut
        waiting = "guest" if self.decided[i] else "waiting\u2026"
        status = (
            f"bot ({seat.bot})" if seat.bot else "\u2713 signed in" if seat.student else waiting
        )
        status = painter.ellipsis(status, small, inner)
        ink, at = p.good if seat.student is not None else p.muted, (left, b.rect.bottom - m.u(3))
        painter.text(surface, status, at, small, ink, anchor="bottomleft")


def sign_in(
    setup: Screen,
    defaults: list[str],
    bots: dict[int, str] | None,
    play: Callable[[list[SeatInfo]], None],
) -> None:
    """A setup screen's way into its game: who sits where, then ``play(seats)``. With a
    class list, ``setup`` asks :class:`SignInScene` (Cancel: nothing plays); without
    one, the seats keep their default names at once."""
    if needs_sign_in(setup.ctx):
        setup.ask(SignInScene(setup.ctx, defaults, bots), play)
    else:
        play(seat_infos(defaults, bots))


__all__ = ["SAYS", "SignInScene", "needs_sign_in", "sign_in"]
