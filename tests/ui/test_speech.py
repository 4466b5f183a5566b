"""Spoken prompts (issue 21): every sentence a child sees can be heard, one at a time."""

from __future__ import annotations

import json
import shutil

import pytest

from tabletop.ui.autoplay import Autoplayer
from tabletop.ui.messages import child_message
from tabletop.ui.prefs import PrefsFile
from tabletop.ui.speech import Speaker, make_speaker, render_espeak
from tests.ui.scenery import make_app


class FakeChannel:
    """A mixer channel: one clip at a time; ``finish()`` ends the one playing."""

    def __init__(self) -> None:
        self.playing: bytes | None = None
        self.played: list[bytes] = []
        self.stops = 0

    def play(self, clip: bytes) -> None:
        assert self.playing is None, "two clips at once"
        self.playing = clip
        self.played.append(clip)

    def stop(self) -> None:
        self.playing = None
        self.stops += 1

    def busy(self) -> bool:
        return self.playing is not None

    def finish(self) -> None:
        self.playing = None


def speaker(**kwargs: object) -> tuple[Speaker, FakeChannel]:
    channel = FakeChannel()
    rendered: list[str] = []

    def render(text: str) -> bytes:
        rendered.append(text)
        return text.encode()

    voice = Speaker(render, channel, threaded=False, **kwargs)  # type: ignore[arg-type]
    voice.rendered = rendered  # type: ignore[attr-defined]
    return voice, channel


def test_speech_says_one_sentence_at_a_time_in_order() -> None:
    voice, channel = speaker()
    voice.say("Roll the dice.")
    voice.then("Ana: write 3 and 5.")
    voice.update()
    assert channel.playing == b"Roll the dice."
    voice.update()  # still speaking: the next one waits, never overlaps
    assert channel.played == [b"Roll the dice."]
    channel.finish()
    voice.update()
    assert channel.playing == b"Ana: write 3 and 5."
    assert voice.spoken == ["Roll the dice.", "Ana: write 3 and 5."]


def test_speech_a_new_prompt_cuts_the_old_one_and_drops_what_waits() -> None:
    voice, channel = speaker()
    voice.say("Roll the dice.")
    voice.then("Then write them.")
    voice.update()
    voice.say("That box already has something in it.")
    assert channel.stops >= 1 and channel.playing is None  # cut at once
    voice.update()
    channel.finish()
    voice.update()
    assert voice.spoken == ["Roll the dice.", "That box already has something in it."]


def test_speech_the_same_prompt_again_is_not_restarted_and_clips_are_kept() -> None:
    voice, channel = speaker()
    voice.say("Wait for the others.")
    voice.update()
    voice.say("Wait for the others.")
    voice.update()
    assert channel.played == [b"Wait for the others."]
    channel.finish()
    voice.say("Wait for the others.")  # said again later: spoken again, rendered once
    voice.update()
    assert len(channel.played) == 2 and voice.rendered == ["Wait for the others."]  # type: ignore[attr-defined]


def test_speech_is_silent_when_off_muted_or_without_a_speaker() -> None:
    for voice, channel in (speaker(setting="off"), speaker(muted=True)):
        voice.say("Roll the dice.")
        voice.update()
        assert channel.played == [] and voice.said == ["Roll the dice."]
    silent = Speaker()  # no espeak-ng or no audio device: the app plays silently
    silent.say("Roll the dice.")
    silent.update()
    assert not silent.available and silent.said == ["Roll the dice."]
    assert not make_speaker("auto", sounds_available=False, muted=False).available


def test_speech_a_sentence_espeak_cannot_say_is_skipped() -> None:
    channel = FakeChannel()

    def broken(text: str) -> bytes:
        raise OSError("espeak-ng is gone")

    voice = Speaker(broken, channel, threaded=False)
    voice.say("Roll the dice.")
    voice.then("Write them.")
    voice.update()
    voice.update()
    assert channel.played == [] and voice.spoken == []


@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng is not installed")
def test_speech_espeak_ng_renders_a_wav_clip() -> None:
    clip = render_espeak(child_message("mm.cell_full"))
    assert clip[:4] == b"RIFF" and clip[8:12] == b"WAVE" and len(clip) > 10_000


def test_speech_a_refusal_on_screen_is_spoken_and_teacher_screens_are_not() -> None:
    """So is the next step the instruction line shows after it (Math Attack! shows one
    after every sentence): queued after the refusal, never over it."""
    app = make_app()
    voice, channel = speaker()
    app.ctx.speaker = voice
    auto = Autoplayer(app)
    auto.tap("game.math-attack")
    auto.tap("start")
    auto.tap("pass")  # a card can still be played: refused, with the reason
    scene = app.stack.top
    text = scene.message[0] if isinstance(scene.message, tuple) else scene.message
    step = scene.status().removeprefix(text).strip()
    assert text and step.startswith("Player 1:")
    assert voice.said[-2:] == [" ".join(text.split()), step]
    app.step()
    assert voice.spoken[-1] == voice.said[-2]  # the refusal first; the step waits its turn
    channel.finish()
    app.step()
    assert voice.spoken[-1] == step
    auto.tap("leave")
    auto.tap("yes")
    before = len(voice.said)
    auto.tap("settings")  # the teacher's PIN pad: a wrong PIN is shown, not said
    for digit in "1111":
        auto.tap(f"key.{digit}")
    assert app.stack.top.message and len(voice.said) == before


def test_speech_the_sound_setting_has_voice_sounds_only_and_off(tmp_path) -> None:
    app = make_app()
    voice, _ = speaker()
    app.ctx.speaker = voice
    app.ctx.prefs = PrefsFile(tmp_path / "settings.json")
    auto = Autoplayer(app)
    auto.tap("settings")
    for digit in "2468":
        auto.tap(f"key.{digit}")
    auto.tap("sound.only")
    assert not voice.on and not app.ctx.sounds.muted
    assert json.loads((tmp_path / "settings.json").read_text())["speech"] == "off"
    auto.tap("sound.voice")
    assert voice.on and PrefsFile(tmp_path / "settings.json").prefs.speech == "on"
    auto.tap("sound.off")
    assert not voice.on and app.ctx.sounds.muted
