"""``tabletop demo --game math-wars-meta``: a whole game offscreen, bots in every seat.

The app runs with SDL's dummy video driver and goes through its own screens: Home, the
setup, the table, the results. The seats are children as far as the device knows (real
cards); a :class:`TableBot` plays them. It turns up each seat's cards from the virtual
deck (the cards the engine knows are in that draw pile) and shows them to the
"camera" as ``CardsSeen`` events; now and then the camera misreads a card and the bot
corrects it by touch, as a child would. Answers are typed on the number pad (a bot
slips now and then: the device shows the right answer) and confirmed with the seat
button. One line is printed per hand and per round; the last is ``winner: NAMES``.
"""

from __future__ import annotations

import os
import random
import tempfile
import time
from pathlib import Path
from typing import Any, TextIO

SIZE = (800, 480)
MISREAD_RATE = 0.04
SLIP_RATE = 0.08


class DemoError(RuntimeError):
    """The scripted player found no enabled target it needed."""


class TableBot:
    """Plays every seat of the table on screen by events: cards to the camera, taps on
    the number pad, seat-button presses. Also what the end-to-end tests drive."""

    def __init__(
        self,
        app: Any,
        seed: int,
        *,
        misread_rate: float = MISREAD_RATE,
        slip_rate: float = SLIP_RATE,
    ) -> None:
        from tabletop.bots.math_wars_meta import VirtualPlayer

        self.app = app
        self.rng = random.Random(seed ^ 0xCA3D)
        self.player = VirtualPlayer(random.Random(seed ^ 0xB07), slip_rate)
        self.misread_rate = misread_rate
        self.misreads = 0
        self.taps = 0

    # -- the app ------------------------------------------------------------------------

    @property
    def top(self) -> Any:
        return self.app.stack.top

    def table(self) -> Any:
        from tabletop.ui.games.math_wars_meta.table import TableScene

        for scene in reversed(list(self.app.stack)):
            if isinstance(scene, TableScene):
                return scene
        raise DemoError("no Math Wars Meta table on the stack")

    def tap(self, name: str) -> None:
        from tabletop.ui.input import Tap

        button = self.top.target(name)
        if button is None or not button.enabled:
            state = "disabled" if button is not None else "missing"
            raise DemoError(f"target {name!r} is {state} on {type(self.top).__name__}")
        self.app.post(Tap(button.rect.center, self.app.ctx.clock(), "touch"))
        self.app.step()
        self.taps += 1

    def type_number(self, value: int) -> None:
        for digit in str(abs(value)):
            self.tap(f"num.{digit}")
        if value < 0:
            self.tap("num.minus")
        self.tap("ok")

    def show(self, seat: int, codes: tuple[str, ...]) -> None:
        """The camera's steady reading of ``seat``'s battle pile (seats 1-based there)."""
        from tabletop.ui.input import CardSeen, CardsSeen

        cards = tuple(CardSeen(code, seat + 1, "battle") for code in codes)
        self.app.post(CardsSeen(seat + 1, "battle", cards, self.app.ctx.clock()))
        self.app.step()

    def press(self, seat: int) -> None:
        from hardware.buttons import SeatPressed

        self.app.seat_queue.put(SeatPressed(seat, self.app.ctx.clock()))
        self.app.step()

    # -- playing ------------------------------------------------------------------------

    def turn_up(self, seat: int) -> None:
        """Lay ``seat``'s next COUNT META and MATH CRATE cards under the camera."""
        from tabletop.games.math_wars_meta import count_code, crate_code

        play = self.table().play
        zone = play.state.zones[seat]
        stage = play.state.stage
        codes: list[str] = []
        truth = None
        if stage.up[seat] is None:
            pile = zone.draw or zone.spoils
            truth = self.rng.choice(sorted(pile))
            shown = truth
            others = [c for c in pile if c != truth]
            if others and self.rng.random() < self.misread_rate:
                shown = self.rng.choice(sorted(others))
                self.misreads += 1
            codes.append(count_code(shown))
        if stage.crates[seat] is None:
            faces = zone.crate_draw or zone.crate_discard
            if faces:
                codes.append(crate_code(self.rng.choice(sorted(faces)), zone.army))
        self.show(seat, tuple(codes))
        if truth is not None and play.state.stage.up[seat] not in (None, truth):
            # the screen shows the misread card: tap it and type the right number
            self.tap(f"count.{seat}")
            self.type_number(truth[1])

    def answer(self, seat: int) -> None:
        table = self.table()
        entry = self.player.entry(table.play.state, seat)
        self.tap(f"solve.{seat}")
        self.type_number(entry.solution)
        if entry.team_solution is not None:
            self.type_number(entry.team_solution)
        if table.play.settings.mode != "solo":
            self.press(seat)

    def step(self) -> bool:
        """One thing a player does; False once the game is over."""
        table = self.table()
        play = table.play
        if play.finished:
            return False
        if play.verdict is not None:
            self.tap("next")
            return True
        waiting = play.waiting_for_cards()
        if waiting:
            self.turn_up(self.rng.choice(waiting))
            return True
        solving = [s for s in play.solving() if s not in play.ready]
        if solving:
            self.answer(self.rng.choice(solving))
            return True
        raise DemoError(f"the table waits for nothing: phase {play.state.phase}")


def run_demo(
    *,
    seed: int | None = None,
    out_dir: Path | None = None,
    out: TextIO,
    size: tuple[int, int] = SIZE,
    edition: str = "MWM25",
    players: int = 3,
    discard_option: int = 1,
) -> str:
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    import queue

    import pygame

    from tabletop.assets import mathe_meister_layout
    from tabletop.highscores import HighScores
    from tabletop.ui.app import App, Context
    from tabletop.ui.games.math_wars_meta.results import ResultsScene, winner_line
    from tabletop.ui.prefs import PrefsFile
    from tabletop.ui.scenes.home import HomeScene
    from tabletop.ui.sound import Sounds
    from tabletop.ui.theme import metrics_for

    started = time.perf_counter()
    seed = random.SystemRandom().randrange(10**6) if seed is None else seed
    folder = out_dir or Path(tempfile.mkdtemp(prefix="tabletop-mwm-demo-"))
    folder.mkdir(parents=True, exist_ok=True)
    pygame.display.init()
    pygame.font.init()
    window = pygame.display.set_mode(size)
    ctx = Context(
        metrics=metrics_for(size),
        sounds=Sounds(enabled=False),
        highscores=HighScores(":memory:"),
        prefs=PrefsFile(None),
        layout=mathe_meister_layout(),
        rng=random.Random(seed),
    )
    app = App(ctx, window, seat_queue=queue.SimpleQueue(), flip=False)
    app.stack.push(HomeScene(ctx))
    app.step()
    bot = TableBot(app, seed)
    bot.tap("game.math-wars-meta")
    setup = app.stack.top
    if edition != setup.choices.edition:
        bot.tap(f"edition.{edition}")
    for _ in range(players - 2):
        bot.tap("players.+")
    if discard_option == 2:
        bot.tap("option.2")
    bot.tap("start")
    table = bot.table()
    play = table.play
    print(
        f"Math Wars Meta in the touchscreen app, offscreen ({size[0]}x{size[1]}): {edition}, "
        f"{players} players (bots, cards shown to a simulated camera), discard option "
        f"{discard_option}, seed {seed}",
        file=out,
    )
    app.screenshot(folder / "table_start.png")
    shots = {"war": False}
    rounds_seen = 0
    for _ in range(200_000):
        if not bot.step():
            break
        verdict = play.verdict
        if verdict is None:
            continue
        state = play.state
        what = " ".join(verdict.lines)
        if verdict.round_over:
            record = state.rounds[-1]
            print(f"Round {record.number}, hand {record.hands}: {what}", file=out)
            app.screenshot(folder / f"round_{record.number:02d}_end.png")
            rounds_seen += 1
        else:
            print(
                f"Round {state.round}, hand {state.hands + (1 if verdict.war else 0)}: {what}",
                file=out,
            )
            if verdict.war and not shots["war"]:
                app.screenshot(folder / "math_war.png")
                shots["war"] = True
            elif state.round == 1 and state.hands <= 1:
                app.screenshot(folder / "first_hand.png")
    else:
        raise DemoError("the demo game did not end")
    bot.tap("next")
    if not isinstance(app.stack.top, ResultsScene):
        raise DemoError("the game did not reach the results screen")
    app.screenshot(folder / "final.png")
    line = winner_line(play)
    seconds = time.perf_counter() - started
    print(
        f"{len(play.match.history)} actions, {bot.taps} taps, {bot.misreads} camera misreads "
        f"corrected by touch, {seconds:.1f} s. Screenshots are in {folder}",
        file=out,
    )
    print(line, file=out)
    pygame.display.quit()
    return line


__all__ = ["DemoError", "TableBot", "run_demo"]
