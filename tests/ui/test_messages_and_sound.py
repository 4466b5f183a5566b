"""Children's sentences for every refused move; the sound cues and the mute switch."""

from __future__ import annotations

import ast
import inspect
import re
import string
from pathlib import Path

import numpy as np
import pytest

from tabletop import ui
from tabletop.games import mathe_meister
from tabletop.ui.messages import CHILD_MESSAGES, FALLBACK, child_message
from tabletop.ui.sound import CUES, RATE, Sounds, tone


def engine_codes() -> set[str]:
    """Every code the Mathe-Meister engine raises for a move (not the check scorer)."""
    source = inspect.getsource(mathe_meister.MatheMeister)
    source += inspect.getsource(mathe_meister._check_empty)
    source += inspect.getsource(mathe_meister._spend)
    return set(re.findall(r'(?:IllegalMove|ImpossibleOutcome)\(\s*"(mm\.[a-z_]+)"', source))


def test_messages_every_engine_code_has_a_childs_sentence() -> None:
    codes = engine_codes()
    assert len(codes) >= 25
    missing = sorted(codes - set(CHILD_MESSAGES))
    assert not missing, missing


def blanks(code: str) -> dict[str, str]:
    """Every blank of the code's sentence filled as the app fills it: a name, a card."""
    names = {f for _, f, _, _ in string.Formatter().parse(CHILD_MESSAGES[code]) if f}
    fills = {"op": "+", "what": "wait for the next turn."}
    return {name: fills.get(name, "Ana") for name in names}


@pytest.mark.parametrize("code", sorted(CHILD_MESSAGES))
def test_messages_are_short_plain_sentences(code: str) -> None:
    """One table for every game (issue 21): each sentence short enough to stay big on
    screen at 800x480, a whole sentence, never a code or a traceback."""
    text = child_message(code, blanks(code))
    assert len(text) <= (80 if code.startswith(("mm.", "ui.", "engine.")) else 100), text
    assert text[0].isupper() and text.rstrip().endswith((".", "!", "?", "\u2026"))
    for word in ("Traceback", "Error", "exception", "None", "mm.", "r0c", "{"):
        assert word not in text


def test_messages_unknown_code_gets_a_gentle_fallback(caplog) -> None:
    assert child_message("zz.never") == FALLBACK
    assert "zz.never" in caplog.text


def test_messages_fill_in_the_blanks() -> None:
    assert child_message("mm.supply_empty", {"op": "×"}) == "You have no × left. Pick another sign."
    assert child_message("mm.supply_empty") == "You have no that left. Pick another sign."


def test_messages_fill_in_the_blanks_by_keyword() -> None:
    """A controller names its facts as keywords; a keyword fills over a given fact."""
    said = child_message("mecs.step.plant", name="Ann", turn=3)
    assert said == "Turn 3: Ann, put down 1 or 2 cards, or hack!"
    assert child_message("mm.supply_empty", {"op": "+"}, op="−") == (
        "You have no − left. Pick another sign."
    )


def test_messages_every_code_the_app_names_is_in_the_table() -> None:
    """The screens' sentences come from the one table (issue 21): every code the app
    names, ``child_message("mecs.ask.page")``, is in it, and so is some sentence of every
    family it names, ``child_message(f"mecs.step.{step}")``: none falls back to the
    gentle sentence for a code it lost."""
    source = "\n".join(p.read_text("utf-8") for p in Path(ui.__file__).parent.rglob("*.py"))
    codes = set(re.findall(r'child_message\(\s*"([a-z_.]+)"', source))
    families = set(re.findall(r'child_message\(\s*f"([a-z_.]+)\{', source))
    assert len(codes) >= 60 and {"mecs.step.", "atk.step.", "arena.step."} <= families
    assert not sorted(codes - set(CHILD_MESSAGES))
    assert not [f for f in sorted(families) if not any(c.startswith(f) for c in CHILD_MESSAGES)]


def code_strings(path: Path) -> list[str]:
    """The strings a module's code holds (an f-string's pieces), not its docstrings."""
    tree = ast.parse(path.read_text("utf-8"))
    documented = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)
    docs = {
        id(n.body[0].value)
        for n in ast.walk(tree)
        if isinstance(n, documented) and ast.get_docstring(n)
    }
    return [
        n.value
        for n in ast.walk(tree)
        if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in docs
    ]


def test_messages_the_apps_own_words_are_the_tables() -> None:
    """Round 34: the saves' notices, the seat buttons' and the fleet file's, the teacher's
    help line and "Welcome back!" were written in the app's code beside the one table:
    they are the table's, and no sentence of it is written out again in the app's own
    modules (the top-level ``tabletop/ui/*.py``)."""
    from tabletop.ui import saves, table

    words = (saves.SAVE_FAILED, saves.NOT_SAVING, saves.SAVING_AGAIN, table.TEACHER_HELP)
    keys = ("save_failed", "not_saving", "saving_again", "teacher_help")
    assert words == tuple(CHILD_MESSAGES[f"ui.{key}"] for key in keys)
    written = [w for p in Path(ui.__file__).parent.glob("*.py") for w in code_strings(p)]
    assert len(written) > 500
    for code, sentence in CHILD_MESSAGES.items():
        for piece, *_ in string.Formatter().parse(sentence):
            piece = piece.strip()
            assert len(piece) < 12 or not any(piece in w for w in written), (code, piece)


def test_sound_tones_are_short_clean_16_bit() -> None:
    for name, notes in CUES.items():
        samples = tone(notes)
        assert samples.dtype == np.int16
        seconds = len(samples) / RATE
        assert 0.02 <= seconds <= 0.8, name
        assert abs(int(samples[0])) < 2000 and abs(int(samples[-1])) < 2000  # no clicks
        assert np.abs(samples).max() < 32767


def test_sound_cues_play_and_mute() -> None:
    sounds = Sounds()  # SDL's dummy audio driver
    sounds.play("good")
    sounds.muted = True
    sounds.play("wrong")
    assert sounds.played == ["good", "wrong"]


def test_sound_without_an_audio_device_is_silent(monkeypatch) -> None:
    import pygame

    def no_device(*args, **kwargs):
        raise pygame.error("no available audio device")

    monkeypatch.setattr(pygame.mixer, "get_init", lambda: None)
    monkeypatch.setattr(pygame.mixer, "init", no_device)
    sounds = Sounds()
    assert not sounds.available
    sounds.play("round")  # nothing happens, nothing breaks
    assert sounds.played == ["round"]


def test_sound_game_cues_follow_the_play() -> None:
    from tests.ui.scenery import DICE, make_app, play_rounds, start_solo

    app = make_app()
    auto = start_solo(app)
    play_rounds(auto, 8, DICE)
    played = set(app.ctx.sounds.played)
    assert {"seen", "good", "round", "tap"} <= played
