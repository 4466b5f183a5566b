"""Setting up a Math Wars Meta game: edition, mode, players or teams, who is a bot, the
discard option, real or virtual cards, and the rules.

Touch targets: ``edition.MWM25``/``edition.MWM100``, ``mode.solo``/``mode.pvp``/
``mode.teams``, ``players.-``/``players.+`` (players, or teams in Team v Team),
``format.2``/``format.3``/``format.4`` (Duos, Trios, Quads), ``option.1``/``option.2``,
``lms`` (Last Man Standing), ``who.<s>`` (cycles child with real cards, child with
virtual cards, bot), ``rules``, ``back``, ``start``.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import pygame

from tabletop.engine.errors import TabletopError
from tabletop.engine.match import Match
from tabletop.games.math_wars_meta import TEAM_FORMATS, MathWarsMetaSettings
from tabletop.store import SeatInfo
from tabletop.ui.app import Context, Scene
from tabletop.ui.games.math_wars_meta.play import MwmPlay, SeatConfig
from tabletop.ui.input import Back, InputEvent, Tap
from tabletop.ui.scenes.common import header
from tabletop.ui.scenes.signin import SignInGate
from tabletop.ui.theme import SEAT_COLOURS, Metrics
from tabletop.ui.widgets import Button, hit

log = logging.getLogger(__name__)

WHO = ("real", "virtual", "bot")
WHO_CAPTION = {"real": "real cards", "virtual": "virtual cards", "bot": "bot"}


@dataclass
class Choices:
    """Everything the setup screen decides, as plain data."""

    edition: str = "MWM25"
    mode: str = "pvp"
    players: int = 2
    team_size: int = 2
    teams: int = 2
    discard_option: int = 1
    last_man_standing: bool = False
    who: list[str] = field(default_factory=lambda: ["real"] * 8)

    @property
    def seats(self) -> int:
        if self.mode == "solo":
            return 1
        if self.mode == "teams":
            return self.team_size * self.teams
        return self.players

    def settings(self) -> MathWarsMetaSettings:
        teams: tuple[tuple[int, ...], ...] = ()
        if self.mode == "teams":
            size = self.team_size
            teams = tuple(tuple(range(t * size, (t + 1) * size)) for t in range(self.teams))
        return MathWarsMetaSettings(
            self.edition,
            self.mode,  # type: ignore[arg-type]
            teams,
            discard_option=1 if self.mode == "solo" else self.discard_option,
            last_man_standing=self.last_man_standing
            and self.mode == "teams"
            and self.discard_option == 2,
        )

    def seat_configs(self, names: Sequence[str] | None = None) -> list[SeatConfig]:
        """Who sits where; ``names`` (signed-in children, a saved game's seats) replace
        the default names."""
        out = []
        for seat in range(self.seats):
            who = self.who[seat]
            if self.mode == "solo" and who == "bot":
                who = "real"
            name = f"Bot {seat + 1}" if who == "bot" else f"Player {seat + 1}"
            if names is not None and seat < len(names) and names[seat]:
                name = names[seat]
            out.append(SeatConfig(name, bot=who == "bot", virtual=who == "virtual"))
        return out

    def record(self) -> dict[str, Any]:
        """The choices as plain data (the saved game's ``app["choices"]``)."""
        return asdict(self)

    @classmethod
    def from_record(cls, data: Mapping[str, Any]) -> Choices:
        known = {k: v for k, v in data.items() if k in cls.__dataclass_fields__}
        choices = cls(**known)
        choices.who = [str(w) for w in choices.who] + ["real"] * (8 - len(choices.who))
        return choices


def make_game(
    ctx: Context,
    choices: Choices,
    seed: int | None = None,
    *,
    seats: Sequence[SeatInfo] | None = None,
    save: Any = None,
    match: Match[Any, Any, Any] | None = None,
) -> Scene:
    """The table for these choices (a fresh seed from the app's rng unless given).

    ``seats``: who signed in (names and student ids for the journal). ``save`` and
    ``match``: a game carried on from the journal (``resume_scene``)."""
    from tabletop.ui.games.math_wars_meta.table import TableScene
    from tabletop.ui.saves import GameSave

    seed = ctx.rng.randrange(10**9) if seed is None else seed
    if save is not None:
        seats = save.seats
    names = [s.name for s in seats] if seats else None
    play = MwmPlay(choices.settings(), choices.seat_configs(names), seed=seed, match=match)
    frozen = Choices(**{**choices.__dict__, "who": list(choices.who)})
    again_seats = list(seats) if seats else None
    if save is None:
        from tabletop.ui.games.math_wars_meta.table import table_seats

        save = GameSave(
            ctx,
            "math-wars-meta",
            again_seats or table_seats(play),
            {"choices": frozen.record(), "seed": seed},
        )
    else:
        play.carry_on(save.app.get("table"))
        save.played_before = max(save.played_before, float(save.app.get("played") or 0.0))
    return TableScene(
        ctx,
        play,
        again=lambda: make_game(ctx, frozen, seats=again_seats),
        save=save,
        resumed=match is not None,
    )


class SetupScene(Scene):
    def __init__(self, ctx: Context, choices: Choices | None = None) -> None:
        super().__init__(ctx)
        self.gate = SignInGate(replace=True)  # sign in first when there is a class list
        self.choices = choices or Choices()
        self.message = ""

    def layout(self, metrics: Metrics) -> None:
        m = metrics
        W, H = m.size
        c = self.choices
        margin = m.u(16)
        h = m.u(50)
        gap = m.u(8)
        b: list[Button] = []
        x0 = margin + m.u(120)
        y = m.u(64)
        self.row_labels = [("Edition", y)]
        for i, ed in enumerate(("MWM25", "MWM100")):
            b.append(
                Button(
                    f"edition.{ed}",
                    pygame.Rect(x0 + i * m.u(128), y, m.u(120), h),
                    ed,
                    kind="toggle",
                    selected=c.edition == ed,
                )
            )
        modes = (
            ("solo", "Solo", "just me"),
            ("pvp", "Players", "player v player"),
            ("teams", "Teams", "team v team"),
        )
        mx = x0 + 2 * m.u(128) + m.u(16)
        mw = (W - margin - mx - 2 * gap) // 3
        for i, (key, label, caption) in enumerate(modes):
            b.append(
                Button(
                    f"mode.{key}",
                    pygame.Rect(mx + i * (mw + gap), y, mw, h),
                    label,
                    caption=caption,
                    kind="toggle",
                    selected=c.mode == key,
                )
            )
        y += h + gap
        if c.mode == "pvp":
            self.row_labels.append(("Players", y))
            self._stepper(b, x0, y, h, str(c.players), c.players > 2, c.players < 8)
        elif c.mode == "teams":
            self.row_labels.append(("Teams", y))
            fmt = TEAM_FORMATS[c.team_size]
            self._stepper(
                b, x0, y, h, str(c.teams), c.teams > fmt.teams[0], c.teams < fmt.teams[-1]
            )
            fx = x0 + m.u(250)
            fw = (W - margin - fx - 2 * gap) // 3
            for i, size in enumerate((2, 3, 4)):
                b.append(
                    Button(
                        f"format.{size}",
                        pygame.Rect(fx + i * (fw + gap), y, fw, h),
                        TEAM_FORMATS[size].name,
                        kind="toggle",
                        selected=c.team_size == size,
                    )
                )
        if c.mode != "solo":
            y += h + gap
            self.row_labels.append(("Lost cards", y))
            ow = (W - margin - x0 - 2 * gap) // 3
            b.append(
                Button(
                    "option.1",
                    pygame.Rect(x0, y, ow, h),
                    "Option 1",
                    caption="own spoils",
                    kind="toggle",
                    selected=c.discard_option == 1,
                )
            )
            b.append(
                Button(
                    "option.2",
                    pygame.Rect(x0 + ow + gap, y, ow, h),
                    "Option 2",
                    caption="winner's spoils",
                    kind="toggle",
                    selected=c.discard_option == 2,
                )
            )
            if c.mode == "teams":
                b.append(
                    Button(
                        "lms",
                        pygame.Rect(x0 + 2 * (ow + gap), y, ow, h),
                        "Last man",
                        caption="standing",
                        kind="toggle",
                        selected=c.last_man_standing,
                        enabled=c.discard_option == 2,
                    )
                )
        y += h + gap + m.u(4)
        self.row_labels.append(("Seats", y))
        seats = c.seats
        cols = 4
        sw = (W - margin - x0 - (cols - 1) * gap) // cols
        sh = m.u(50)
        for seat in range(seats):
            r, col = divmod(seat, cols)
            rect = pygame.Rect(x0 + col * (sw + gap), y + r * (sh + gap), sw, sh)
            name = "Bot" if c.who[seat] == "bot" else "Player"
            b.append(
                Button(
                    f"who.{seat}",
                    rect,
                    f"{seat + 1}: {name}",
                    caption=WHO_CAPTION[c.who[seat]],
                    kind="toggle",
                )
            )
        bh = m.u(56)
        b.append(
            Button("back", pygame.Rect(margin, H - margin - bh, m.u(150), bh), "Back", kind="quiet")
        )
        b.append(
            Button(
                "rules",
                pygame.Rect(margin + m.u(166), H - margin - bh, m.u(150), bh),
                "Rules",
                kind="quiet",
            )
        )
        b.append(
            Button(
                "start", pygame.Rect(W - margin - m.u(220), H - margin - bh, m.u(220), bh), "Start"
            )
        )
        self.message_pos = (margin + m.u(334), H - margin - bh // 2)
        self.buttons = b

    def _stepper(
        self, b: list[Button], x: int, y: int, h: int, value: str, down: bool, up: bool
    ) -> None:
        m = self.m
        b.append(
            Button("players.-", pygame.Rect(x, y, m.u(64), h), "\u2212", kind="quiet", enabled=down)
        )
        b.append(
            Button(
                "players.+", pygame.Rect(x + m.u(150), y, m.u(64), h), "+", kind="quiet", enabled=up
            )
        )
        self.stepper_value = (value, (x + m.u(107), y + h // 2))

    def handle(self, event: InputEvent) -> None:
        if isinstance(event, Back):
            self.stack.pop(None)
        elif isinstance(event, Tap):
            button = hit(self.buttons, event.pos)
            if button is None:
                return
            if not button.enabled:
                self.ctx.sounds.play("wrong")
                self.message = (
                    "Last Man Standing is for Option 2."
                    if button.name == "lms"
                    else "That is as far as it goes."
                )
                return
            self.ctx.sounds.play("tap")
            self.press(button.name)

    def press(self, name: str) -> None:
        c = self.choices
        kind, _, arg = name.partition(".")
        self.message = ""
        if kind == "edition":
            c.edition = arg
        elif kind == "mode":
            c.mode = arg
        elif name == "players.-":
            if c.mode == "teams":
                c.teams -= 1
            else:
                c.players -= 1
        elif name == "players.+":
            if c.mode == "teams":
                c.teams += 1
            else:
                c.players += 1
        elif kind == "format":
            c.team_size = int(arg)
            c.teams = TEAM_FORMATS[c.team_size].teams[0]
        elif kind == "option":
            c.discard_option = int(arg)
            if c.discard_option == 1:
                c.last_man_standing = False
        elif name == "lms":
            c.last_man_standing = not c.last_man_standing
        elif kind == "who":
            seat = int(arg)
            order = WHO[:2] if c.mode == "solo" else WHO
            now = c.who[seat] if c.who[seat] in order else order[0]
            c.who[seat] = order[(order.index(now) + 1) % len(order)]
        elif name == "rules":
            from tabletop.ui.games.math_wars_meta.rules import rules_scene

            self.stack.push(rules_scene(self.ctx, c.edition))
            return
        elif name == "back":
            self.stack.pop(None)
            return
        elif name == "start":
            self.start()
            return
        self.layout(self.m)

    def start(self, seed: int | None = None) -> None:
        """Into the game (through sign-in when the device has a class list)."""
        from tabletop.ui.games.math_wars_meta.table import table_seats

        seed = self.ctx.rng.randrange(10**9) if seed is None else seed
        try:
            scene = make_game(self.ctx, self.choices, seed)
        except TabletopError as e:
            self.ctx.sounds.play("wrong")
            self.message = "These choices do not make a game. Check the players and teams."
            log.info("mwm setup refused: %s", e)
            return
        defaults = table_seats(scene.play)
        choices = self.choices

        def make(seats: list[SeatInfo]) -> Scene:
            return make_game(self.ctx, choices, seed, seats=seats)

        self.gate.start(
            self,
            "math-wars-meta",
            [s.name for s in defaults],
            {s.seat: s.bot for s in defaults if s.bot},
            make,
        )

    def resume(self, result: Any) -> None:
        self.gate.resume(self, result)
        self.layout(self.m)

    def draw(self, surface: pygame.Surface) -> None:
        painter, m, p = self.ctx.painter, self.m, self.ctx.painter.p
        surface.fill(p.background)
        header(self, surface, "Math Wars Meta")
        for label, y in self.row_labels:
            painter.text(
                surface,
                label,
                (m.u(16), y + m.u(25)),
                m.text,
                bold=True,
                anchor="midleft",
                max_width=m.u(118),
            )
        if self.choices.mode != "solo" and hasattr(self, "stepper_value"):
            value, pos = self.stepper_value
            painter.text(surface, value, pos, m.big, bold=True, anchor="center")
        painter.buttons(surface, self.buttons)
        c = self.choices
        for b in self.buttons:
            if b.name.startswith("who."):
                seat = int(b.name[4:])
                dot = pygame.Rect(
                    b.rect.left + m.u(4), b.rect.top + m.u(4), m.u(10), b.rect.height - m.u(8)
                )
                painter.box(surface, dot, SEAT_COLOURS[seat], None, radius=m.u(3))
                if c.mode == "teams":
                    team = seat // c.team_size + 1
                    painter.text(
                        surface,
                        f"T{team}",
                        (b.rect.right - m.u(6), b.rect.top + m.u(4)),
                        m.small - 6,
                        p.muted,
                        anchor="topright",
                    )
        if self.message:
            painter.text(
                surface,
                self.message,
                self.message_pos,
                m.small,
                p.bad,
                anchor="midleft",
                max_width=m.width - self.message_pos[0] - m.u(250),
            )


__all__ = ["Choices", "SetupScene", "make_game"]
