"""The one controller base (issue 21): pygame-free, and what a table scene asks of it."""

from __future__ import annotations

import subprocess
import sys
from fractions import Fraction
from types import SimpleNamespace

import pytest

from tabletop.engine.protocol import Result
from tabletop.ui.controller import Ask, TableController


def test_controller_base_imports_no_pygame() -> None:
    code = "import sys, tabletop.ui.controller; assert 'pygame' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], check=True)


def test_controller_defaults_keep_nothing_and_light_nothing() -> None:
    play = TableController()
    assert play.next_step() == ""
    assert play.record() is None
    assert play.checks() is None
    assert list(play.lit()) == []
    with pytest.raises(NotImplementedError):
        play.standings()


def test_controller_record_stamp_names_its_match() -> None:
    """A record kept beside the match carries the match's moves and digest; one from
    another point of the match (the device stopped between the two writes) is not its."""
    from tabletop.engine.match import Match
    from tabletop.games.math_attack import MathAttack, MathAttackSettings

    play = TableController()
    play.match = Match(MathAttack(), MathAttackSettings(), 2, seed=7)
    record = {**play.stamp(), "kept": 1}
    assert record["n"] == 0 and isinstance(record["state"], str)
    assert play.own(record) == record
    assert play.own({**record, "n": 1}) is None
    assert play.own({**record, "state": "0" * 16}) is None
    assert play.own({"kept": 1}) is None  # a record from before the stamp
    assert play.own(None) is None and play.own([record]) is None


def test_controller_mm_paper_table_keeps_its_state_and_carries_it_on() -> None:
    """Mathe-Meister's paper table (MM-5) is a controller too: the round, its dice, the
    Bonus Stars and the presses waiting are its own, and its journal record puts them
    back exactly (the keys are the journal's: older games still carry on)."""
    from tabletop.assets import mathe_meister_layout
    from tabletop.ui.games.mathe_meister.paper import PaperPlay
    from tabletop.ui.games.mathe_meister.play import new_match

    def table() -> PaperPlay:
        return PaperPlay(
            new_match(mathe_meister_layout(), ["freestyle"], 7), ["Ana", "Ben"], seed=7
        )

    play = table()
    assert play.dice is None and play.next_step().startswith("Round 1: roll the dice")
    play.rolls, play.dice_at = [(3, 5)], 2.0
    assert play.board.press(1, 4.0) and play.board.press(0, 3.0)
    # MM-5: the first press in time chooses (Ana's, though it came in second)
    assert play.lit() == [0, 1] and "Ana" in play.next_step()
    line = play.board.free_lines()[0]
    assert play.board.choose(line, play.round) == 0
    play.bots_pressed = {1}
    assert play.standings().places == (1, 2)
    assert play.next_label() == "Start round 2"
    record = play.record()
    assert sorted(record) == sorted(
        ["round", "dice", "rolls", "claims", "waiting", "dice_at", "pressed", "over"]
    )
    again = table()
    again.carry_on(record)
    assert again.record() == record and again.board.owners == {line: 0}
    assert again.lit() == [1] and again.standings() == play.standings()


def test_controller_mm_paper_table_ends_rounds_and_the_eighth_ends_the_game() -> None:
    """The paper table's rounds are the controller's: the dice come (the bots' presses
    are counted from them), a round's end drops the presses still waiting and begins the
    next round, and the end of round 8 is the end of the game."""
    from tabletop.assets import mathe_meister_layout
    from tabletop.games.mathe_meister import ROUNDS
    from tabletop.ui.games.mathe_meister.paper import PaperPlay
    from tabletop.ui.games.mathe_meister.play import new_match

    play = PaperPlay(new_match(mathe_meister_layout(), ["freestyle"], 7), ["Ana", "Ben"], seed=7)
    play.rolled((3, 5), 2.0)
    assert play.dice == (3, 5) and play.dice_at == 2.0
    play.bots_pressed.add(1)
    assert play.board.press(0, 3.0) and play.lit() == [0]
    play.end_round()
    assert (play.round, play.dice, play.dice_at, play.over) == (2, None, None, False)
    assert play.lit() == [] and play.bots_pressed == set()
    play.rolled((6, 1), 9.0)
    play.rolled((2, 2), 9.5)  # the round's dice corrected: the round keeps the last
    assert play.rolls == [(3, 5), (2, 2)]
    for _ in range(ROUNDS - 2):
        play.end_round()
    assert play.round == ROUNDS and not play.over
    play.end_round()
    assert play.over and play.round == ROUNDS


def test_controller_every_game_has_one() -> None:
    from tabletop.ui.games.bubbles.play import BubblePlay
    from tabletop.ui.games.math_arena.play import ArenaPlay
    from tabletop.ui.games.math_attack.play import AttackPlay
    from tabletop.ui.games.math_wars_meta.play import MwmPlay
    from tabletop.ui.games.mathe_meister.paper import PaperPlay
    from tabletop.ui.games.mathe_meister.play import SoloPlay
    from tabletop.ui.games.mecs.play import MecsPlay

    for kind in (BubblePlay, ArenaPlay, AttackPlay, MwmPlay, SoloPlay, PaperPlay, MecsPlay):
        assert issubclass(kind, TableController), kind.__name__


def test_controller_a_scene_asks_its_play() -> None:
    """A table scene passes nothing on by hand: the base asks ``play``."""
    from tabletop.ui.table import TableScene

    class Play(TableController):
        def standings(self) -> Result:
            return Result((Fraction(2),), (1,), "counted")

        def next_step(self) -> str:
            return "Ana: roll the dice."

        def lit(self) -> list[int]:
            return [0]

    scene = TableScene.__new__(TableScene)
    scene.play = Play()
    assert scene.status() == "Ana: roll the dice."
    assert scene.standings().reason == "counted"  # what the rotation and the fleet ask
    for hook in ("next_step", "record", "checks", "lit"):  # asked of ``play`` only
        assert not hasattr(scene, hook), hook


def test_controller_defaults_have_no_bot_no_cards_no_undo() -> None:
    play = TableController()
    assert not play.bot_due()
    play.bot_step()
    assert play.seat_pressed(0) is None
    assert play.cards_seen(1, "line", ("+5",)) is None
    assert play.undo() is None


def test_controller_a_scene_forwards_its_hooks_to_play() -> None:
    """The input hooks and the teacher's "take back a step" reach ``play`` through the
    base (the bots' turn too: ``update`` asks ``play.bot_due`` and ``play.bot_step``, as
    every game's bot tests show); the Rules screen comes from the class's ``rules``."""
    from tabletop.ui.harness import cards_seen
    from tabletop.ui.table import TableScene

    heard: list[tuple[object, ...]] = []

    where = Ask("where", "On which line?", (("0", "Ana's line"), ("1", "Ben's line")))

    class Play(TableController):
        def seat_pressed(self, seat: int) -> Ask | None:
            heard.append(("seat", seat))
            return where if seat == 1 else None

        def cards_seen(self, seat: int | None, area: str | None, codes: tuple[str, ...]) -> None:
            heard.append(("cards", seat, area, codes))

        def undo(self) -> None:
            heard.append(("undo",))

    scene = TableScene.__new__(TableScene)
    scene.play, scene.save, scene.bot_at, scene.held = Play(), None, 3.0, {}
    scene.ctx = SimpleNamespace(rotation=None)  # no rotation: no menu (round 28)
    scene.ask_about = lambda ask: heard.append(("ask", ask))  # type: ignore[method-assign]
    scene.after = lambda: None  # type: ignore[method-assign]
    scene.seat_pressed(2, 0.5)
    scene.seat_pressed(1, 0.5)  # what the controller asks, the scene shows
    scene.cards_seen(cards_seen(1, "line", ["+5"], 0.0))
    scene.asking = ("pin",)
    scene.resume("ok")  # the teacher's PIN: the default menu takes back a step
    assert heard == [
        ("seat", 2),
        ("ask", None),
        ("seat", 1),
        ("ask", where),
        ("cards", 1, "line", ("+5",)),
        ("undo",),
    ]
    assert scene.bot_at is None  # a bot waits its pause again
    assert TableScene.rules == ("", ())


def test_controller_keeps_the_message_once_and_the_scene_says_each_new_one() -> None:
    """The scene's ``message`` is the controller's; each sentence said is spoken once (the
    same refusal twice: twice), an empty one not at all."""
    from tabletop.ui.table import TableScene

    spoken: list[str] = []
    scene = TableScene.__new__(TableScene)
    speaker = SimpleNamespace(
        say=lambda text, after=False, by=None: spoken.append(text),
        finished=lambda text: False,  # cannot tell
    )
    scene.ctx = SimpleNamespace(speaker=speaker, stack=[])  # not pushed yet: it speaks
    scene.play, scene.spoken = TableController(), 0
    scene.message = "Welcome back!"  # the base's sentence goes to the controller, said now
    assert scene.play.message == "Welcome back!" and spoken == ["Welcome back!"]
    scene.play.say("Not now.", "error")  # the controller's: said after the input
    scene.play.say("Not now.", "error")
    assert scene.message == "Not now." and scene.play.tone == "error"
    scene.voice()
    scene.voice()
    assert spoken == ["Welcome back!", "Not now."]
    scene.play.say("Not now.", "error")
    scene.voice()
    scene.play.say("")
    scene.voice()
    assert spoken == ["Welcome back!", "Not now.", "Not now."] and scene.message == ""


def test_controller_status_is_the_message_then_with_step_after_the_next_step() -> None:
    from tabletop.ui.table import TableScene

    class Play(TableController):
        def next_step(self) -> str:
            return "Ana: tap a line."

    scene = TableScene.__new__(TableScene)
    scene.play = Play()
    assert scene.status() == "Ana: tap a line."  # nothing happened yet: the next step
    scene.play.say("Ben played +5.")
    assert scene.status() == "Ben played +5."
    scene.step_after = True
    assert scene.status() == "Ben played +5. Ana: tap a line."
    scene.play.say("Ben played +5. Ana: tap a line.")  # says it already: not twice
    assert scene.status() == "Ben played +5. Ana: tap a line."


def test_controller_names_seats_in_sentences_as_its_scene_shows_them() -> None:
    """Without a scene a sentence says the game's name; on the table, the name its scene
    shows (``namer``: a namesake told apart); the game keeps its own names."""
    from tabletop.ui.games.math_attack.play import AttackPlay

    play = AttackPlay(names=("Mia", "Mia"), bot=None, first=0, seed=7)
    assert play.called(1, "Mia") == "Mia" and play.facts(1)["owner"] == "Mia"
    play.namer = lambda seat, name: f"{name} ({'ab'[seat]})"
    assert play.facts(1)["turn"] == "Mia (a)" and play.facts(1)["owner"] == "Mia (b)"
    assert play.names == ("Mia", "Mia")
