"""``tabletop demo --game math-wars-meta``: a whole game offscreen, bots in every seat.

As far as the device knows, the seats are children with real cards; a :class:`TableBot`
plays them through the app's input, printing a line per player's move and the demo a
line per hand; the last is ``winner: NAMES``. With ``data``, killed and started again
with the same arguments, the demo carries on through Home's "carry on" offer and ends as
an uninterrupted run: each choice is keyed by the seed and where the game is.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any, TextIO

from hardware.buttons import SeatPressed
from tabletop.bots.math_wars_meta import VirtualPlayer
from tabletop.classroom.mistakes import Child
from tabletop.games.math_wars_meta import (
    CountDrawn,
    correct_entry,
    count_code,
    crate_code,
    crate_label,
)
from tabletop.ui.games.math_wars_meta.table import MwmTable
from tabletop.ui.games.math_wars_meta.verdict import questions_for, signed
from tabletop.ui.harness import (
    SIZE,
    AutoplayError,
    DemoRun,
    Tapper,
    left_over_by,
    scene_of,
    type_number,
)
from tabletop.ui.saves import demo_seats

MISREAD_RATE = 0.04
SLIP_RATE = 0.08
CHILD_GAMES = 3  # games a --child demo plays
PLAYERS = 3
TABLE = {"edition": "MWM25", "players": PLAYERS, "discard_option": 1}  # the form's, 3 seats


class TableBot:
    """Plays every seat of the table on screen by events (also what the end-to-end tests
    drive): it lays the cards of the seat the device waits for under the "camera" (from
    the cards the engine knows are in that draw pile), so a card is used the moment it
    is read; now and then the camera misreads one and the bot corrects it by touch. It
    types answers on the number pad (slipping now and then; ``child``: seat 1 answers
    from the seeded model of :mod:`tabletop.classroom.mistakes`) and presses the seat
    button."""

    def __init__(
        self,
        app: Any,
        seed: int,
        *,
        misread_rate: float = MISREAD_RATE,
        say: Callable[[str], None] | None = None,
        child: bool = False,
        auto: Tapper | None = None,
    ) -> None:
        self.app, self.seed, self.misread_rate = app, seed, misread_rate
        self.auto = auto or Tapper(app)  # taps by name, counted
        self.say = say or (lambda _line: None)
        self.player = VirtualPlayer(random.Random(seed ^ 0xB07), SLIP_RATE)
        self.misreads = 0
        self.child_seat = 0 if child else None
        self.game = 0  # the demo's game number (0: the first, keyed as it always was)

    @property
    def play(self) -> Any:
        return scene_of(self.app, MwmTable).play

    def rng(self, *where: object) -> random.Random:
        """The luck of one choice, keyed by the seed and ``where`` the game is (and by
        the game's number after the first, so "Play again" plays another game)."""
        game = ("game", self.game) if self.game else ()
        return random.Random(":".join(map(str, (self.seed, *game, *where))))

    def pick(self, seat: int, state: Any, n: int) -> tuple[Any, Any, str | None]:
        """``seat``'s next cards in ``state`` (the match ``n`` actions long): (its COUNT
        META card, the card the camera reads, its MATH CRATE card)."""
        zone, rng = state.zones[seat], self.rng("up", seat, n)
        truth = shown = face = None
        if state.stage.up[seat] is None:
            pile = zone.draw or zone.spoils
            truth = shown = rng.choice(sorted(pile))
            others = [c for c in pile if c != truth]
            if others and rng.random() < self.misread_rate:
                shown = rng.choice(sorted(others))
        faces = zone.crate_draw or zone.crate_discard
        if state.stage.crates[seat] is None and faces:
            face = rng.choice(sorted(faces))
        return truth, shown, face

    def turn_up(self, seat: int) -> None:
        """Lay ``seat``'s next COUNT META and MATH CRATE cards under the camera, and
        correct a misread by touch."""
        play = self.play
        truth, shown, face = self.pick(seat, play.state, play.match.moves)
        codes = [count_code(shown)] if shown is not None else []
        codes += [crate_code(face, play.state.zones[seat].army)] if face is not None else []
        self.misreads += shown != truth
        self.auto.show(seat, "battle", codes)
        what = [f"COUNT META {truth[1]}"] if truth is not None else []
        what += [f"MATH CRATE {crate_label(face)}"] if face is not None else []
        how = ""
        if truth is not None and play.state.stage.up[seat] not in (None, truth):
            how = self.correct(seat, truth, shown)
        self.say(f"  {play.seats[seat].name} turns up {' and '.join(what)}{how}.")

    def correct(self, seat: int, truth: Any, shown: Any) -> str:
        """The screen shows a misread card: tap it and type the right number; the words
        for it."""
        self.auto.tap(f"count.{seat}")
        type_number(self.auto.tap, truth[1])
        return f" (the camera read {shown[1]}: corrected by touch)"

    def carry_on(self) -> None:
        """After a restart: correct a misread card this bot laid but had not corrected
        yet (its choice is found again from the journal)."""
        play = self.play
        for seat, up in enumerate(play.state.stage.up):
            if up is None or seat in play.ready:
                continue
            i = play.stage_card_index(seat, CountDrawn(seat, up))
            if i is None:
                continue
            truth, shown, _ = self.pick(seat, play.state_before(i), i)
            if truth is not None and shown == up != truth:
                how = self.correct(seat, truth, shown)
                self.say(f"  {play.seats[seat].name}'s COUNT META {truth[1]}{how}.")

    def answer(self, seat: int) -> None:
        """Type ``seat``'s answer (and its team's) and press its button."""
        play, n = self.play, self.play.match.moves
        self.player.rng = self.rng("entry", seat, n)
        entry = self.player.entry(play.state, seat)
        if seat == self.child_seat:  # the seeded model of a child's mistakes
            child, right = Child(self.rng("child", seat, n)), correct_entry(play.state, seat)
            own, team = questions_for(play.state, seat)
            entry = replace(
                entry,
                solution=right.solution if own is None else int(child.answer(own)),
                team_solution=right.team_solution if team is None else int(child.answer(team)),
            )
        self.auto.tap(f"solve.{seat}")
        for value in (entry.solution, entry.team_solution):
            if value is not None:
                type_number(self.auto.tap, value)
        if not play.solo:
            self.auto.post(SeatPressed(seat, self.app.ctx.clock()))
        self.say(f"  {play.seats[seat].name} answers {signed(entry.solution)}.")

    def mark_seats(self) -> None:
        """The journal's seats: every seat this bot plays is a bot, but the ``--child``
        demo's guest child."""
        demo_seats(scene_of(self.app, MwmTable).save, self.child_seat)

    def step(self) -> bool:
        """One thing a player does; False once the game is over."""
        play = self.play
        if play.finished:
            return False
        need = play.need()
        if play.verdict is not None:
            self.auto.tap("next")
        elif need is not None and need[0] in play.waiting_for_cards():
            self.turn_up(need[0])
        else:
            solving = [s for s in play.solving() if s not in play.ready]
            if not solving:
                raise AutoplayError(f"the table waits for nothing: phase {play.state.phase}")
            n = play.match.moves
            self.answer(self.rng("solve", n, *sorted(play.ready)).choice(solving))
        return True


def run_demo(
    *,
    seed: int | None = None,
    out_dir: Path | None = None,
    out: TextIO,
    size: tuple[int, int] = SIZE,
    data: Path | None = None,
    child: bool = False,
) -> str:
    """The demo (see the module); ``child``: seat 1 is a child making a child's mistakes,
    through :data:`CHILD_GAMES` games ("Play again") for a skills report."""
    run = DemoRun(
        "math-wars-meta",
        seed=seed,
        out_dir=out_dir,
        out=out,
        size=size,
        data=data,
        seat_queue=True,
        # this demo's unfinished game: the same seed (the session) and table
        left_over=left_over_by(
            "math-wars-meta",
            same_session=True,
            app=lambda app: all((app.get("choices") or {}).get(k) == v for k, v in TABLE.items()),
        ),
    )
    bot = TableBot(run.app, run.seed, say=run.say, child=child, auto=run)
    run.open_game()  # Home: carry on the journal's game, or the setup form
    if not run.resuming:
        run.fill_seats(range(2, PLAYERS), "child")
        run.tap("start")
    bot.mark_seats()
    state, actions = bot.play.state, bot.play.match.moves
    if run.resuming:
        run.carrying_on(f"round {state.round}, hand {state.hands + 1}, {actions} actions.")
        bot.carry_on()
    else:
        what = "{edition}, {players} players (bots, cards shown to a simulated camera), "
        what += "discard option {discard_option}, seed {seed}"
        run.intro("Math Wars Meta", what.format(**TABLE, seed=run.seed))
    run.shot("table_start")
    # the games this demo finished before (killed and carried on) count
    bot.game = done = sum(
        saved.game == "math-wars-meta"
        and saved.session == run.ctx.session
        and saved.status == "finished"
        for saved in (run.ctx.journal.matches() if child else ())
    )
    for game in range(done, max(done + 1, CHILD_GAMES if child else 1)):
        if game > done:
            bot.game = game
            run.tap("again")
            bot.mark_seats()
            run.say(f"Play again: game {game + 1} of {CHILD_GAMES}.")
        actions = _play_out(run, bot)
    run.shot("final")
    misreads = f"{bot.misreads} camera misreads corrected by touch,"
    return run.end(run.results().winner_line, f"{actions} actions, {misreads}")


def _play_out(run: DemoRun, bot: TableBot) -> int:
    """Play the table's game to its results screen, a line per hand; returns its length."""
    play, war_shot = bot.play, False
    told = run.narration(lambda at: f"Round {at[0]}, hand {at[1]}")

    def move() -> None:
        nonlocal war_shot
        if not bot.step():  # the game is over: Next shows the results
            run.tap("next")
            return
        told(play.story)
        verdict = play.verdict
        if verdict is None:
            return
        if verdict.round_over:
            run.shot(f"round_{verdict.round:02d}_end")
        elif verdict.war and not war_shot:
            run.shot("math_war")
            war_shot = True
        elif play.state.round == 1 and play.state.hands <= 1:
            run.shot("first_hand")

    run.play_out(move, 200_000)
    return len(play.match.history)


__all__ = ["TableBot", "run_demo"]
