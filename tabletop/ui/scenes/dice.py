"""Getting the round's two dice: from the camera, tapped in, or rolled by the device.

Camera: the screen shows each die it read, cut out of the picture, with its value, and
"That's wrong" lets the child tap the right values instead. Without a camera the child
taps the two values, or lets the device roll virtual dice. The scene pops with a
:class:`DiceResult` (or ``None`` if the child went back).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pygame

from tabletop.engine.errors import TabletopError
from tabletop.engine.words import plural
from tabletop.ui.app import Context
from tabletop.ui.input import InputEvent, Seen
from tabletop.ui.messages import child_message
from tabletop.ui.scenes.common import Screen
from tabletop.ui.speech import sentences
from tabletop.ui.theme import Color, Metrics
from tabletop.ui.widgets import Button, grid

log = logging.getLogger(__name__)

CAMERA_FAILED = child_message("dice.camera_failed")
MODES = {"camera": "Camera", "tap": "Tap the dice", "virtual": "Roll for me"}  # the buttons


@dataclass(frozen=True)
class DiceResult:
    """The two dice of a round, and how the device got them."""

    values: tuple[int, int]
    source: str  # camera | corrected | tap | virtual


class DiceScene(Screen):
    def __init__(
        self,
        ctx: Context,
        *,
        title: str,
        mode: str,
        roll: Callable[[], tuple[int, int]],
        match_id: int | None,
    ) -> None:
        super().__init__(ctx)
        self.title = title
        self.match_id = match_id  # the journaled game the dice are for (issue 24)
        # "Roll for me": the game's own virtual dice (keyed by the game's seed and step,
        # so a game carried on from the journal rolls what it would have).
        self.roll = roll
        camera_ok = ctx.camera is not None  # it may have failed before: it gets another try
        self.mode = mode if mode in MODES and (mode != "camera" or camera_ok) else "tap"
        self.note = "" if mode != "camera" or camera_ok else child_message("dice.no_camera")
        self.seen: Seen | None = None
        self.crops: list[tuple[pygame.Surface, int | None, float]] = []
        self.picked: list[int | None] = [None, None]
        self.corrected = False
        self.heard: tuple[str, ...] = ()  # what the screen showed when last said (voice)

    # -- lifecycle -------------------------------------------------------------------------

    def enter(self) -> None:
        self._switch(self.mode)

    def resume(self, result: object) -> None:
        self._switch(self.mode)

    def pause(self) -> None:
        self._camera(False)

    exit = pause

    def _camera(self, on: bool) -> None:
        camera = self.ctx.camera
        if camera is not None:
            (camera.start if on else camera.stop)()

    def _switch(self, mode: str) -> None:
        self.mode = mode
        self._camera(mode == "camera")
        if not self.update(0.0):  # a camera that cannot start: tapping, said
            self.layout(self.m)

    # -- layout ------------------------------------------------------------------------------

    def layout(self, metrics: Metrics) -> None:
        m = metrics
        W, H = m.size
        bottom = pygame.Rect(m.u(16), H - m.u(64), W - m.u(32), m.u(56))
        camera, on = self.ctx.camera, {"camera": self.ctx.camera is not None}
        failed = camera is not None and not camera.available  # it gets another try, said
        again = {"camera": child_message("dice.camera_again")} if failed else {}
        cells = grid(bottom, len(MODES), len(MODES), m.u(12))
        self.buttons = [  # name, rect, label, enabled, kind, selected
            Button(
                f"mode.{k}", rect, again.get(k, label), on.get(k, True), "toggle", k == self.mode
            )
            for rect, (k, label) in zip(cells, MODES.items(), strict=True)
        ]  # Back at the top right, where the table has Leave
        back = pygame.Rect(W - m.u(16) - m.u(88), m.u(8), m.u(88), m.u(50))
        self.buttons.append(Button("back", back, "Back", kind="quiet"))
        self.content = pygame.Rect(m.u(16), m.u(96), W - m.u(32), bottom.top - m.u(108))
        c = self.content
        if self.mode == "tap":
            face, gap = m.u(64), m.u(14)  # two rows of six faces: die 1 (a.1-a.6), die 2
            rows = pygame.Rect(c.left + m.u(110), c.top + m.u(8), 6 * face + 5 * gap, face)
            for i, rect in enumerate(grid(rows, 12, 6, gap, down=m.u(28))):
                row, v = divmod(i, 6)
                picked = self.picked[row] == v + 1
                name = f"{'ab'[row]}.{v + 1}"
                self.buttons.append(Button(name, rect, str(v + 1), kind="face", selected=picked))
            ok = pygame.Rect(rows.right + gap + m.u(12), rows.top, 0, 2 * face + m.u(28))
            ok.width = c.right - ok.left
            both = None not in self.picked
            label = f"OK: {self.picked[0]} and {self.picked[1]}" if both else "OK"
            self.buttons.append(Button("ok", ok, label, enabled=both))
        elif self.mode == "virtual":
            rect = pygame.Rect(0, 0, m.u(360), m.u(96))
            rect.center = c.center
            self.buttons.append(Button("roll", rect, "Roll the dice for me", size=m.big))
        else:
            right = pygame.Rect(c.right - m.u(280), c.top + m.u(20), m.u(280), m.u(72))
            if self.seen is not None and self.seen.readable:
                a, b = self.seen.values
                self.buttons.append(Button("use", right, f"Use {a} and {b}", size=m.big))
            wrong = right.move(0, right.height + m.u(24))
            wrong.height = m.u(60)
            self.buttons.append(
                Button("wrong", wrong, "That's wrong", kind="quiet", enabled=self.seen is not None)
            )
        self.voice()

    def voice(self) -> None:
        """Say what is new on the screen since it opened (the game's step said what to do
        then): what to do now (another mode, the camera failed) and the camera's reading,
        so a child who cannot read can check it; a reading once, not again while the
        camera sees the same."""
        told = (self.title, self.note or child_message(f"dice.how_{self.mode}"), self.reading()[0])
        new = [t for t, old in zip(told, self.heard or told, strict=True) if t and t != old]
        self.heard = told
        self.speak(sentences(*new))

    # -- input ---------------------------------------------------------------------------------

    def handle(self, event: InputEvent) -> None:
        if isinstance(event, Seen):
            if self.mode == "camera":
                self._read(event)
        else:
            super().handle(event)

    def refuse(self, name: str) -> None:
        """An off button tapped: say why it is off."""
        why = {"ok": "pick_both", "mode.camera": "no_camera", "wrong": "nothing_read"}
        if name in why:
            self.say(child_message(f"dice.{why[name]}"), good=False)

    def press(self, name: str) -> None:
        self.message = ""  # a refusal holds until the next tap
        if name == "back":
            self.stack.pop(None)
        elif name.startswith("mode."):
            self._switch(name[5:])
        elif name[:2] in ("a.", "b."):
            self.picked["ab".index(name[0])] = int(name[2:])
            self.layout(self.m)
        elif name == "ok" and None not in self.picked:
            source = "corrected" if self.corrected else "tap"
            self._done((self.picked[0], self.picked[1]), source)  # type: ignore[arg-type]
        elif name == "roll":
            self._done(self.roll(), "virtual")
        elif name == "use" and self.seen is not None and self.seen.readable:
            a, b = self.seen.values
            self._done((a, b), "camera")  # type: ignore[arg-type]
        elif name == "wrong":
            values = (*self.seen.values, None, None)[:2] if self.seen else (None, None)
            self.picked = [v if v in range(1, 7) else None for v in values]
            self.corrected = True
            self.note = child_message("dice.fix")
            self._switch("tap")

    def _done(self, values: tuple[int, int], source: str) -> None:
        self.ctx.sounds.play("seen")
        try:  # for the dice-fairness lesson (issue 24), with the game they were read for
            self.ctx.journal.add_dice(
                values, source, match_id=self.match_id, session=self.ctx.session
            )
        except TabletopError as exc:  # the game goes on: its journaled actions hold the dice
            log.error("journal: %s: %s (dice %s not kept)", exc.code, exc.message, values)
        self.stack.pop(DiceResult(values, source))

    def _read(self, seen: Seen) -> None:
        self.seen = seen
        self.crops = []
        size = self.m.u(130)
        for i, die in enumerate(seen.dice[:4]):
            surface = None
            if i < len(seen.crops):
                surface = _picture(seen.crops[i], size)
            elif seen.frame is not None and die.box is not None:
                surface = _crop(seen.frame, die.box, size)
            if surface is not None:
                self.crops.append((surface, die.value, die.confidence))
        self.ctx.sounds.play("seen" if seen.readable else "wrong")
        self.layout(self.m)

    def update(self, now: float) -> bool:
        camera = self.ctx.camera
        if self.mode == "camera" and camera is not None and not camera.available:
            # the camera failed (to start, or on its own thread): tapping, and say so
            self.note = CAMERA_FAILED
            self._switch("tap")
            return True
        return False

    # -- drawing ---------------------------------------------------------------------------------

    def draw(self, surface: pygame.Surface) -> None:
        subtitle = self.message or self.note or child_message(f"dice.how_{self.mode}")
        painter = self.backdrop(surface, self.title, subtitle, bad=bool(self.message))
        m, p = self.m, painter.p
        for b in self.buttons:
            if b.kind == "face":
                if b.selected:
                    painter.box(
                        surface, b.rect.inflate(m.u(10), m.u(10)), p.button, None, radius=m.u(10)
                    )
                painter.die(surface, b.rect, int(b.label))
            else:
                painter.button(surface, b)
        c = self.content
        if self.mode == "tap":  # each die's name, left of its row of faces
            rows = [b.rect.centery for b in self.buttons if b.name in ("a.1", "b.1")]
            for n, y in enumerate(rows, start=1):
                painter.text(surface, f"Die {n}", (c.left, y), m.text, bold=True, anchor="midleft")
        elif self.mode == "camera":
            self._draw_camera(surface)

    def reading(self) -> tuple[str, int, Color]:
        """The camera's line (camera mode): what it reads, at its size, in its colour."""
        m, p = self.m, self.ctx.painter.p
        if self.mode != "camera":
            return "", m.text, p.ink
        if self.seen is None:
            return child_message("dice.looking"), m.big, p.ink
        n = len(self.seen.dice)
        if n != 2:
            many = child_message("dice.not_two", dice=plural(n, "die", "dice"))
            return child_message("dice.none_seen") if n == 0 else many, m.text, p.bad
        if not self.seen.readable:
            return child_message("dice.tilted"), m.small, p.bad
        a, b = self.seen.values
        return child_message("dice.read", a=a, b=b), m.text, p.ink

    def _draw_camera(self, surface: pygame.Surface) -> None:
        painter, m, p = self.ctx.painter, self.m, self.ctx.painter.p
        c = self.content
        text, size, colour = self.reading()
        if self.seen is None:
            box = pygame.Rect(c.left, c.top, c.width - m.u(300), c.height)
            painter.box(surface, box, p.panel, p.line, 2, m.u(10))
            painter.paragraph(surface, text, box.inflate(-m.u(32), -m.u(40)), size, align="center")
            return
        room = c.width - m.u(300)  # left of the buttons
        painter.text(surface, text, c.topleft, size, colour, bold=True, max_width=room)
        size = m.u(130)
        for i, (crop, value, confidence) in enumerate(self.crops[:4]):
            rect = pygame.Rect(c.left + i * (size + m.u(20)), c.top + m.u(40), size, size)
            surface.blit(crop, rect)
            pygame.draw.rect(surface, p.line, rect, 2)
            text = str(value) if value in range(1, 7) else "?"
            at = (rect.centerx, rect.bottom + m.u(6))
            painter.text(surface, text, at, m.title, bold=True, anchor="midtop")
            if confidence < 0.6:
                at = (rect.centerx, rect.bottom + m.u(8) + m.title)
                painter.text(surface, "not sure", at, m.small, p.muted, anchor="midtop")


def _picture(image: np.ndarray, size: int) -> pygame.Surface | None:
    if image.ndim != 3 or image.shape[0] == 0 or image.shape[1] == 0:
        return None
    surface = pygame.surfarray.make_surface(np.ascontiguousarray(image[:, :, :3].swapaxes(0, 1)))
    return pygame.transform.smoothscale(surface, (size, size))


def _crop(frame: np.ndarray, box: tuple[int, int, int, int], size: int) -> pygame.Surface | None:
    h, w = frame.shape[:2]
    x0, y0, x1, y1 = box
    pad = max(4, int(0.15 * max(x1 - x0, y1 - y0)))
    x0, y0, x1, y1 = max(0, x0 - pad), max(0, y0 - pad), min(w, x1 + pad), min(h, y1 + pad)
    return _picture(frame[y0:y1, x0:x1], size) if x1 > x0 and y1 > y0 else None


__all__ = ["DiceResult", "DiceScene"]
