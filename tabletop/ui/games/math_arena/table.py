"""Math Arena's screens: the setup (the one setup form: seats, children or bots at one
level, real or virtual cards), the rules pages, and the table, which draws the round of
:class:`ArenaPlay` and routes input.

Touch targets: ``seat.<i>`` and ``ready.<i>`` (the seat button), ``card.<i>.<0|1>`` (a
card shown, tap to correct it), ``value.<i>`` (a seat's value, tap to say it),
``operator`` (the empty operator card, tap it in), ``deal``, ``score``, ``next``,
``unready.<i>`` ("Change": a ready child takes it back before the reveal), ``undo``
(behind the teacher's PIN), ``rules``, ``leave``; the hand picker's (a
:class:`ChoiceGrid`) ``hand.<CARD>``, ``put``, ``cancel``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

import pygame

from tabletop.engine.errors import TabletopError
from tabletop.engine.match import Match
from tabletop.engine.protocol import Result
from tabletop.engine.words import and_joined, plural
from tabletop.games.math_arena import (
    COURT_RANKS,
    OPERATION_WORDS,
    RANK_NAMES,
    RED_SUITS,
    TARGET,
    TARGETS,
    Action,
    MathArenaSettings,
    MathArenaState,
    Tournament,
    goal,
    operator_name,
    tournament_points,
)
from tabletop.store import SeatInfo
from tabletop.ui.app import Context, Scene
from tabletop.ui.games.math_arena.play import GAME, ArenaPlay, log
from tabletop.ui.messages import child_message
from tabletop.ui.results import Outcome, outcome_of
from tabletop.ui.saves import LABEL, GameSave, game_seed, one_write, seats_of
from tabletop.ui.scenes import form
from tabletop.ui.scenes.common import Confirm
from tabletop.ui.scenes.form import (
    CHILD,
    EMPTY,
    REAL,
    VIRTUAL,
    Cards,
    FormScene,
    FormSpec,
    FormValues,
    Preset,
    Seats,
)
from tabletop.ui.scenes.numpad import NumPad
from tabletop.ui.scenes.rules import ChoiceGrid, load_rules
from tabletop.ui.table import TableScene, corner_buttons
from tabletop.ui.theme import ORANGE, VERMILLION, Metrics
from tabletop.ui.widgets import Button, Painter, Print

RED_INK = (200, 30, 45)
CARD_BACK = (0, 90, 150)
# the rank's and the suit's (centre, size), in hundredths of the card's height; by ``big``
SPOTS = {False: ((32, 40), (72, 34)), True: ((34, 36), (66, 30))}
RULES = load_rules("math_arena")
SUIT_SYMBOLS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}


def card_label(card: str) -> str:
    """``10\u2665``: what a card button says."""
    return card[:-1] + SUIT_SYMBOLS[card[-1]]


def goal_words(operator: str) -> str:
    """``Lowest SUM wins!``: the operator's goal, large."""
    rule = OPERATION_WORDS[operator[:-1]].upper()
    return child_message("arena.table.goal", goal=goal(operator).capitalize(), rule=rule)


def draw_card(
    painter: Painter,
    surface: pygame.Surface,
    rect: pygame.Rect,
    card: str | None,
    *,
    face: str = "up",
    bad: bool = False,
    big: bool = False,
) -> None:
    """A playing card: ``face`` up, down (its back) or empty (a ``?`` slot)."""
    m, p, w, h = painter.m, painter.p, rect.width, rect.height
    if face == "down":
        painter.card(surface, rect, (), p.ink, fill=CARD_BACK, edge=p.line)
        inner = rect.inflate(-w // 4, -h // 4)
        painter.box(surface, inner, None, (255, 255, 255), max(2, w // 20), max(4, w // 8))
    elif face == "empty" or card is None:
        painter.card(
            surface, rect, [Print("?", h // 2, h // 2)], p.muted, fill=p.quiet, edge=p.muted
        )
    else:
        rank, suit = card[:-1], card[-1]
        (rank_at, rank_size), (suit_at, suit_size) = SPOTS[big]
        prints = [
            Print(rank, h * rank_size // 100, h * rank_at // 100),
            Print(SUIT_SYMBOLS[suit], h * suit_size // 100, h * suit_at // 100, bold=False),
        ]
        if h * suit_size // 100 < painter.least:  # too short for two: ``10♥`` on one line
            prints = [Print(rank + SUIT_SYMBOLS[suit], h * 45 // 100, h // 2)]
        if big and rank in COURT_RANKS:  # the operator card's word, large
            prints.append(Print(RANK_NAMES[rank], m.small, h - m.u(6), anchor="midbottom"))
        ink = RED_INK if suit in RED_SUITS else p.ink
        edge, width = (VERMILLION, m.u(4)) if bad else (p.line, 2)
        painter.card(surface, rect, prints, ink, edge=edge, width=width)


def seat_text(painter: Painter, height: int) -> tuple[int, int, int]:
    """A seat row's name size, its count's size and their margin: the name above the
    count, smaller in a short row (five seats over the rotation's banner), never on top."""
    m = painter.m
    for size, count, pad in ((m.text, m.small + 2, 4), (m.text, m.small, 3), (m.small, m.small, 2)):
        lines = sum(painter.fonts.font(s, True).get_linesize() for s in (size, count))
        if lines + 2 * m.u(pad) <= height:
            break
    return size, count, m.u(pad)


class ArenaScene(TableScene):
    """One game of Math Arena at the device (the round: :mod:`.play`)."""

    game = GAME.name
    camera_off = "arena.ui.camera_off"
    rules = ("Math Arena: the rules", RULES)
    undo_pin = ("Teacher PIN to undo", None)
    step_after = property(lambda self: self.play.tone != "error")  # a refusal says what to do
    play: ArenaPlay
    save: GameSave  # always journaled

    def __init__(
        self,
        ctx: Context,
        seats: Sequence[tuple[str, bool] | SeatInfo],
        app: Mapping[str, Any],
        *,
        match: Match[MathArenaSettings, MathArenaState, Action] | None = None,
        save: GameSave | None = None,
    ) -> None:
        """``seats``: (name, is a bot) each, or the journal's ``SeatInfo`` of children who
        signed in (a bot's has its level). ``app``: the game as the journal keeps it, for
        a new game, the next of a tournament and one carried on alike: ``cards``,
        ``level``, ``seed`` and the ``tournament`` so far (none: a new one). ``match`` and
        ``save``: a game replayed from the journal, to carry on with."""
        level = str(app.get("level", "easy"))
        infos = seats_of(seats, level)
        self.play = play = ArenaPlay(
            [(s.name, s.bot is not None) for s in infos], cards=str(app.get("cards", "table")),
            level=level, seed=int(app["seed"]), match=match,
            tournament=Tournament.of(len(infos), app.get("tournament") or {}),
            clock=lambda: self.save.elapsed(), sound=ctx.sounds.play,
        )  # fmt: skip
        record = {
            "seats": [[name, bot] for name, bot in play.seats],
            "cards": play.cards,
            "level": level,
            "seed": play.seed,
            "tournament": play.tournament.journal(),
        }
        save = save or GameSave(ctx, GAME.name, infos, record)
        super().__init__(ctx, save, resumed=match is not None, again=self.next_game)

    # -- lifecycle ----------------------------------------------------------------------------

    def begin(self) -> None:
        if self.resumed:
            self.play.carry_on(self.save.app.get("table"))
        else:
            self.play.start()
            self.offer_tournament()

    def offer_tournament(self) -> None:
        """ARENA-5: these players' tournament to this target is not won yet (they went
        Home, or the device restarted, after a game): carry it on, or a new one?"""
        if (t := running_tournament(self.ctx, self.save, self.play.tournament)) is None:
            return
        names = (
            f"{self.shown(s, n)}: {plural(t.points[s], 'point')}"
            for s, (n, _) in enumerate(self.play.seats)
        )
        facts = {"games": t.games, "target": t.target, "points": ", ".join(names)}
        ask, detail = (child_message(f"arena.ui.tournament{w}", facts) for w in ("", "_detail"))
        yes = f"Carry on ({t.games} played)"
        self.ask(("tournament", t), Confirm(self.ctx, ask, yes, "New tournament", detail))

    def card_seats(self) -> int:
        return self.play.players if self.play.cards == "table" else 0

    def welcome(self) -> None:
        """The controller says its own (carrying on, :meth:`begin`)."""

    def update(self, now: float) -> bool:
        """The bots' presses and the countdown, on the app's clock; while one is to come,
        the seconds played reach the journal once a second (their moments resume)."""
        with one_write(self.match):
            changed = self.play.tick() | self.camera_news()
        if changed:
            self.after()
        played = float(self.save.app.get("played") or 0.0)
        timed = self.play.timed or changed
        if timed and not self.saved_end and (changed or self.save.elapsed() - played >= 1.0):
            self.save.app["played"] = self.save.elapsed()
            self.save.write_meta()
        return changed

    # -- input --------------------------------------------------------------------------------

    def seat_pressed(self, seat: int, at: float) -> None:
        """Virtual cards: the seat's hand, to tap two of them and then "Put down"."""
        play = self.play
        if play.press(seat, at):
            op, hand = play.state.operator or "", play.state.hands[seat]
            title = child_message("arena.table.pick", name=play.name(seat))
            picker = self.card_grid(
                title,
                hand,
                7,
                max(1, -(-len(hand) // 7)),
                prefix="hand.",
                pick=2,
                text=f"{operator_name(op, title=True)}: {goal_words(op)}",
                done=("put", "Put down"),
                off={"put": child_message("arena.ui.pick_two")},  # tapped before two: why
                cell=96,
            )
            self.ask(("pick", seat), picker)

    def press(self, name: str) -> None:
        play, kind, _, arg = self.play, *name.partition(".")
        if name == "operator" and (choices := play.operator_choices()) is not None:
            title = child_message("arena.table.which_operator")
            self.ask(("operator",), self.card_grid(title, choices, 6, 2))
        elif name == "deal":
            play.deal_operator()
        elif kind == "unready":
            play.unready(int(arg))
        elif name == "score":
            play.score()
        elif name == "next" and play.next_round():
            self.show_results()
        elif kind == "card":
            seat, slot = (int(x) for x in arg.split("."))
            if play.may_correct(seat, slot):
                which = "leftover" if play.phase == "leftover" else "card"
                title = child_message(
                    f"arena.table.which_{which}", name=play.name(seat), card=slot + 1
                )
                self.ask(("card", seat, slot), self.card_grid(title, play.candidates(seat), 8, 5))
        elif kind == "value" and (hint := play.ask_value(int(arg))) is not None:
            title = child_message("arena.table.your_value", name=play.name(int(arg)))
            pad = NumPad(self.ctx, title, negative=False, max_digits=2, hint=hint)
            self.ask(("value", int(arg)), pad)
        elif name in ("leave", "rules", "teacher", "undo"):
            super().press(name)

    def card_grid(
        self, title: str, cards: Sequence[str], columns: int, rows: int, **kw: Any
    ) -> ChoiceGrid:
        """A picker of ``cards``, drawn as cards (red ones red): the operator card, a card
        shown, a virtual hand (``kw``: more of the :class:`ChoiceGrid`'s options)."""
        labels = [(card, card_label(card)) for card in cards]
        return ChoiceGrid(self.ctx, title, labels, columns=columns, rows=rows, face=draw_card, **kw)

    def explain(self, name: str) -> None:
        """A disabled target (a row's value, Who wins?, undo): refused with the reason."""
        if name.startswith("value.") or name in ("score", "undo"):
            self.press(name)
        else:
            self.play.refuse("ui.not_ready", f"{name} is off")

    def answered(self, asking: tuple[Any, ...], result: Any) -> None:
        kind, play = asking[0], self.play
        if kind == "pick" and isinstance(result, tuple):
            play.pick(asking[1], (result[0], result[1]))
        elif kind == "card" and isinstance(result, str):
            play.set_card(asking[1], asking[2], result)
        elif kind == "tournament" and result == "yes":
            play.tournament = asking[1]
            self.save.app["tournament"] = play.tournament.journal()
            self.save.write_meta()
        elif kind == "operator" and isinstance(result, str):
            play.set_operator(result, "a tap")
        elif kind == "value" and isinstance(result, int):
            said = play.value_said(asking[1], result)
            if said is not None:  # counted for the teacher's report, with the round
                self.save.app["table"] = self.play.record()
                self.save.checked(said.seat, said.right)
                self.save.answered(said.seat, said.question, said.value, seconds=said.seconds)

    # -- the end ------------------------------------------------------------------------------

    def tournament_after(self) -> Tournament:
        """The tournament with this game's places counted (a new one after one is won)."""
        return self.play.tournament.after(self.play.standings())

    def outcome(self) -> Outcome:
        """Most operator cards wins (ARENA-5); the tournament's points on the right."""
        play, result = self.play, self.play.standings()
        names = [name for name, _ in play.seats]  # as the game has them: the closing line
        shown = [self.shown(s, name) for s, name in enumerate(names)]  # namesakes apart
        t, gained = self.tournament_after(), tournament_points(result.places)
        lines = [child_message("arena.table.tournament", target=t.target, games=t.games)]
        lines += [f"{shown[s]}: +{gained[s]} \u2192 {t.points[s]}" for s in range(play.players)]
        if t.over:
            won = and_joined([shown[s] for s in t.winners])
            lines.append(child_message("arena.table.tournament_won", names=won))
        best = [s for s, place in enumerate(result.places) if place == 1]
        facts = {"names": and_joined([shown[s] for s in best]), "count": result.scores[best[0]]}
        key = "most_shared" if len(best) > 1 else "most"
        out = outcome_of(result, names, score=lambda n: plural(n, "card"), lines=lines)
        return replace(out, reason=child_message(f"arena.table.{key}", facts))  # a sentence

    def next_game(self) -> Scene:
        """The next game of the tournament ("Play again"): the same seats, a new seed."""
        t = self.tournament_after()
        seed = game_seed(self.ctx, below=1 << 30)
        tournament = (t.afresh() if t.over else t).journal()  # a new one after one is won
        return ArenaScene(
            self.ctx, self.save.seats, {**self.save.app, "seed": seed, "tournament": tournament}
        )

    # -- layout and drawing -------------------------------------------------------------------

    def layout(self, metrics: Metrics) -> None:
        m, play = metrics, self.play
        W, H = m.size
        margin, bw, bh = m.u(16), m.u(104), m.u(48)
        b = corner_buttons(W - margin, m.u(8), (bw, bh), m.u(8), undo=play.can_undo())
        # the operator card, shorter when the goal and its "how" would not fit under it
        # above the instruction line (the screen is short over the rotation's banner)
        h = min(m.u(168), H - m.u(270) - 2 * m.small)
        self.op_rect = pygame.Rect(0, m.u(94), h * 124 // 168, h)
        self.op_rect.centerx = margin + m.u(116)
        table = play.phase == "operator" and play.cards == "table"
        if table:
            b.append(Button("operator", self.op_rect.copy(), "", kind="card"))
        top, left, bottom, gap, n = m.u(66), margin + m.u(250), H - m.u(104), m.u(6), play.players
        rh = min(m.u(78), (bottom - top - gap * (n - 1)) // n)
        cw = max((rh - m.u(8)) * 3 // 4, m.touch)  # a card, a finger wide in five rows
        self.rows = [
            pygame.Rect(left, top + s * (rh + gap), W - margin - left, rh) for s in range(n)
        ]
        self.card_right = left + m.u(196) + 2 * cw + m.u(12)
        for seat, row in enumerate(self.rows):
            seat_rect = pygame.Rect(row.left, row.top, m.u(190), rh)
            b.append(Button(f"seat.{seat}", seat_rect, play.name(seat), kind="seat"))
            for slot in range(2):  # the card is drawn inside its row-tall target
                rect = pygame.Rect(row.left + m.u(196) + slot * (cw + m.u(6)), row.top, cw, rh)
                b.append(Button(f"card.{seat}.{slot}", rect, "", kind="slot"))
            words = pygame.Rect(self.card_right, row.top, row.right - self.card_right, rh)
            if play.wants_press(seat):  # the seat button's touch twin, at the seat's edge
                tile = words.inflate(-m.u(8), -m.u(10))
                if play.can_change(seat):  # lit: its own small "Change" beside it
                    change = tile.copy()
                    change.width = min(m.u(96), tile.width // 2)
                    tile.width -= change.width + m.u(6)
                    change.right = words.right - m.u(4)
                    b.append(Button(f"unready.{seat}", change, "Change", kind="quiet",
                                    size=m.small))  # fmt: skip
                b.append(Button(f"ready.{seat}", tile, "", kind="ready"))
            else:  # the row's words: tap to say your value
                b.append(
                    Button(f"value.{seat}", words, "", kind="value", enabled=play.can_say(seat))
                )
        self.message_rect = pygame.Rect(margin, H - m.u(96), W - 3 * margin - m.u(240), m.u(86))
        action = pygame.Rect(W - margin - m.u(240), H - m.u(72), m.u(240), m.u(60))
        if table:
            b.append(Button("deal", action, "Deal one for us", kind="quiet"))
        elif play.phase == "result":
            b.append(Button("next", action, "See the results" if play.finished else "Next round"))
        else:
            ok = play.phase in ("reveal", "leftover") and not play.missing()
            b.append(Button("score", action, "Who wins?", enabled=ok))
        self.buttons = b

    def draw(self, surface: pygame.Surface) -> None:
        painter, m, p, play = self.ctx.painter, self.m, self.ctx.painter.p, self.play
        st = play.state
        surface.fill(p.background)
        painter.text(surface, "Math Arena", (m.u(16), m.u(12)), m.title, bold=True)
        (set_no, round_no), deal = play.round_label, st.deal
        label = f"Set {set_no} of {deal.sets} \u00b7 Round {round_no} of {deal.rounds}"
        painter.text(surface, label, (m.u(16), m.u(62)), m.small, p.muted, bold=True)
        op, rect = play.shown.operator, self.op_rect
        draw_card(painter, surface, rect, op, face="up" if op else "empty", big=True)
        under = (rect.centerx, rect.bottom + m.u(6))
        if op is None:
            asked = child_message("arena.table.operator_card")
            painter.text(surface, asked, under, m.text, bold=True, anchor="midtop")
        else:
            ink = RED_INK if op[-1] in RED_SUITS else p.ink
            words = pygame.Rect(m.u(8), under[1], m.u(246), m.u(56))  # one or two lines
            used = painter.paragraph(
                surface, goal_words(op), words, m.text, ink, bold=True, align="center"
            )
            how = pygame.Rect(m.u(16), under[1] + used + m.u(4), m.u(230), m.small * 2 + m.u(6))
            rule = child_message(f"arena.how.{op[:-1]}")
            painter.paragraph(surface, rule, how, m.small, p.ink, align="center")
        if st.pot:  # the pot: face-down operator cards beside the operator card
            for i in range(min(len(st.pot), 4)):
                back = pygame.Rect(m.u(14) + i * m.u(3), rect.top + i * m.u(5), m.u(34), m.u(48))
                draw_card(painter, surface, back, None, face="down")
            for text, y, size in (("Pot", 0, m.small), (str(len(st.pot)), m.small, m.big)):
                at = (m.u(33), rect.top + m.u(70) + y)
                painter.text(surface, text, at, size, ORANGE, bold=True, anchor="midtop")
        counting = play.phase == "countdown"  # the countdown in "Who wins?"'s place
        for b in self.buttons:
            if b.kind == "seat":
                self.draw_seat(surface, int(b.name[5:]))
            elif b.kind == "slot":
                self.draw_slot(surface, b)
            elif b.kind not in ("card", "value", "ready") and not (counting and b.name == "score"):
                painter.button(surface, b)
        self.draw_status(surface, self.message_rect, lit=play.tone == "error")
        if counting:
            self.draw_countdown(surface)

    def draw_seat(self, surface: pygame.Surface, seat: int) -> None:
        painter, m, p, play = self.ctx.painter, self.m, self.ctx.painter.p, self.play
        row = self.rows[seat]
        won = seat in play.winners and play.phase == "result"
        border, width = (p.selected, m.u(4)) if won else (p.line, 2)
        painter.box(surface, row, p.panel, border, width, m.u(8))
        chip = pygame.Rect(row.left + m.u(5), row.top + m.u(5), m.u(34), row.height - m.u(10))
        size, count_size, pad = seat_text(painter, row.height)
        top, name, x = row.top + pad, play.name(seat), chip.right + m.u(8)
        room = row.left + m.u(192) - x  # the name runs on to the cards; the LED is below
        count, at = f"{len(play.state.won[seat])} won", (x, row.bottom - pad)
        tall = at[1] - painter.fonts.font(count_size, True).get_height() - top
        painter.seat_name(
            surface, chip, seat, name, size, room, gap=8, y=top, anchor="topleft", tall=tall
        )
        count_rect = painter.text(
            surface, count, at, count_size, p.muted, bold=True, anchor="bottomleft"
        )
        led = (row.left + m.u(176), count_rect.centery)  # lit while the seat's button is
        if seat in play.lit():
            pygame.draw.circle(surface, p.selected, led, m.u(9))
        pygame.draw.circle(surface, p.line, led, m.u(9), 2)
        tile = self.target(f"ready.{seat}")
        if tile is not None:  # I'm ready! (lit once the seat pressed, like its LED)
            painter.ready_tile(surface, tile.rect, seat, bool(play.ready[seat]))
            return
        text, tone, bold = play.row_text(seat)
        words = pygame.Rect(self.card_right, row.top, row.right - m.u(8) - self.card_right, 0)
        size = m.text if painter.fonts.width(text, m.text, bold) <= words.width else m.small
        lines = len(painter.wrap(text, size, words.width, bold)[:2])  # two lines, not tiny
        words.height = lines * painter.fonts.font(size, bold).get_linesize()
        words.centery = row.centery
        painter.paragraph(surface, text, words, size, getattr(p, tone), bold=bold)

    def draw_slot(self, surface: pygame.Surface, b: Button) -> None:
        play, painter, rect = self.play, self.ctx.painter, b.rect.inflate(0, -self.m.u(8))
        seat, slot = (int(x) for x in b.name.split(".")[1:])
        if play.phase in ("ready", "countdown"):
            if play.ready[seat]:
                draw_card(painter, surface, rect, None, face="down")
        elif play.phase != "operator" and (
            play.phase != "leftover" or (seat in play.state.tied and slot == 0)
        ):
            card, bad = play.pairs[seat][slot], (seat, slot) in play.bad
            if card or play.phase != "result":  # a ruling shows just the cards it ruled on
                draw_card(painter, surface, rect, card, face="up" if card else "empty", bad=bad)

    def draw_countdown(self, surface: pygame.Surface) -> None:
        """The countdown where "Who wins?" is once the cards are turned over, beside the
        sentence: no seat's name or cards are under it."""
        painter, m, p = self.ctx.painter, self.m, self.ctx.painter.p
        area = self.message_rect.copy()
        area.width = m.u(240)
        area.right = m.width - m.u(16)
        painter.box(surface, area, p.panel, p.selected, m.u(5), m.u(16))
        left = max(1, self.play.countdown_left())
        at = (area.right - m.u(24), area.centery)
        painter.text(surface, str(left), at, m.u(64), p.ink, bold=True, anchor="midright")
        at = (area.left + m.u(16), area.centery)
        ready = child_message("arena.table.get_ready")
        painter.text(surface, ready, at, m.text, p.muted, anchor="midleft")


def resume_scene(
    ctx: Context, save: GameSave, match: Match[MathArenaSettings, MathArenaState, Action]
) -> Scene:
    """The game screen again around a match replayed from the journal (issue 10)."""
    return ArenaScene(ctx, save.seats_or(save.app.get("seats")), save.app, match=match, save=save)


def running_tournament(ctx: Context, save: GameSave, fresh: Tournament) -> Tournament | None:
    """The tournament to ``fresh``'s target the same players (names, bots) were playing
    in the Math Arena game journaled before ``save``'s, with its result counted, if
    nobody has won it yet (ARENA-5); None for a game of a tournament under way."""
    last = ctx.journal.newest(GAME.name, besides=save.id)
    if fresh.games or last is None or last.status == "playing" or last.label != LABEL:
        return None
    if [(s.name, s.bot is None) for s in ctx.journal.seats(last.id)] != [
        (s.name, s.bot is None) for s in save.seats
    ]:
        return None
    try:
        t = Tournament.of(fresh.players, (last.meta.get("app") or {}).get("tournament") or {})
        if places := (last.result or {}).get("places"):  # a game that ended (not left)
            t = t.after(Result((), tuple(int(p) for p in places), ""))
    except (TabletopError, TypeError, ValueError):  # a damaged record: a new tournament
        log.warning("math arena: journaled tournament of match %s unreadable", last.id)
        return None
    return t if t.games and not t.over and t.target == fresh.target else None


def _start(ctx: Context, values: FormValues) -> Scene:
    cards = "virtual" if values.virtual else "table"
    app = {
        "cards": cards,
        "level": values.level,
        "seed": game_seed(ctx, below=1 << 30),
        "tournament": {"target": int(values.options.get("target", TARGET))},
    }  # the tournament's target agreed on the setup (ARENA-5)
    return ArenaScene(ctx, values.seats, app)


SETUP = FormSpec(
    game=GAME.name,
    title="Math Arena",
    subtitle="Win the Kings, Queens and Jacks with two number cards.",
    rules=RULES,
    start=_start,
    seats=Seats(
        2,
        5,
        (CHILD, CHILD, EMPTY, EMPTY, EMPTY),
        levels=(("easy", "Easy"), ("hard", "Hard")),
        level="easy",
        shared_level=True,
    ),
    cards=Cards(),
    options=(
        form.OptionRow(
            "target",
            "Play to",
            tuple(form.Choice(str(n), f"{n} points") for n in TARGETS),
            str(TARGET),
        ),
    ),
    modes=(("cards", Preset(cards=REAL)), ("virtual", Preset(cards=VIRTUAL))),
    replace=True,
)


def setup_scene(ctx: Context) -> Scene:
    """The game's first screen (Home pushes it): the one setup"""
    return FormScene(ctx, SETUP)


__all__ = ["RULES", "SETUP", "ArenaScene", "draw_card", "resume_scene", "setup_scene"]
