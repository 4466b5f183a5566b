"""Spoken prompts: every sentence a child reads can also be heard (issue 21).

A child who cannot read yet can still play. The words are the screen's own (the one
sentence table, ``tabletop.ui.messages``, and each game's prompts), spoken by
**espeak-ng** (Debian package ``espeak-ng``, installed by ``systemd/install.sh``) as WAV
clips played through ``pygame.mixer`` on a channel of their own, so speech never talks
over itself: a new prompt (:meth:`Speaker.say`) cuts the old one, the next step a table
shows (:meth:`Speaker.step`) waits its turn, a new step replaces the last one, and a
screen that leaves cuts what it was saying (:meth:`Speaker.left`). Clips
are rendered on a worker thread (the screen never waits for espeak-ng) and kept (the
same sentences come back all game).

The setting (``Prefs.speech``: ``auto``, ``on`` or ``off``) is on by default when the
device has a speaker; with no audio device or no espeak-ng the app plays silently, and
the sound switch mutes speech too.
"""

from __future__ import annotations

import io
import logging
import re
import shutil
import subprocess
from collections import OrderedDict, deque
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

import pygame

from tabletop.ui.prefs import SPEECH_SETTINGS

log = logging.getLogger(__name__)

VOICE = "en-gb"
WORDS_PER_MINUTE = 140  # a little slower than espeak-ng's 175: for 6-to-10-year-olds
CLIPS_KEPT = 200

Renderer = Callable[[str], bytes]

# The screen's symbols in the words espeak-ng should say (it reads "5 - 3 = -5" "five
# three equals five"); letters beside a sign (a word: "box", "seat-button") stay. Each
# rule by name; they run in this order, which matters where one rule's symbol is part
# of another's: the card "." first (before a rule leaves a space before a full stop),
# "∅" and "↵" before words in brackets ("(∅)" a pause), words in brackets before the brackets,
# "+/−" and "|n|" before "+", "/" and "−", an x that is a sign (between numbers, among
# signs: "+, - or x") before the letter x ("the x Star Power"), "1 ★" before "★", and
# the space before a stop last.
SPOKEN = {
    name: (re.compile(pattern), words)
    for name, pattern, words in (
        ("point", r"(?<![^\s“])\.(?![^\s:”])", " point "),  # the card "." alone
        ("empty set", r"∅", "empty set"),  # Math Attack!'s block card (ATK-1)
        ("cancel", r"↵", "cancel"),  # Math Attack!'s cancel card (ATK-1, ATK-3)
        ("words in brackets", r"\(([^()]*[A-Za-z]{2}[^()]*)\)", r", \1,"),  # a pause
        ("plus or minus", r"\+/[−-]", " plus or minus "),
        ("size", r"\|([^|]+)\|", r" the size of \1 "),
        ("number's", r"(?<=\d)['’]s\b", "s"),  # "2's" is heard "two", "2s" "twos"
        ("times", r"×|(?<=\d) ?[xX] ?(?=\d)|(?<=[+−-] )x\b|(?<=[+−-] or )x\b", " times "),
        ("ex", r"(?<![\w/-])x(?![\w/-])", " ex "),  # a letter, a Star Power; not "box", "x-ray"
        ("squared", r"²", " squared "),
        ("cubed", r"³", " cubed "),
        ("square root", r"√", " the square root of "),
        ("divided by", r"÷", " divided by "),
        ("over", r"(?<![A-Za-z])/(?![A-Za-z])", " over "),
        ("minus", r"−|(?<![A-Za-z])-|-(?![A-Za-z])", " minus "),
        ("plus", r"\+", " plus "),
        ("equals", r"=", " equals "),
        ("does not equal", r"≠", " does not equal "),
        ("open bracket", r"\(", " open bracket "),
        ("close bracket", r"\)", " close bracket "),
        ("one star", r"(?<=\b1) ?★", " star"),  # Math Wars Meta's VICTORY! cards
        ("stars", r"★", " stars"),
        ("no space before a stop", r"\s+(?=[.,:;!?](?!\S))", ""),  # "(2 + 3)." not "bracket ."
    )
}


def sentences(*pieces: str) -> str:
    """``pieces`` said one after another, each ended with a full stop unless it ends with
    one (``.!?…``) or leads on to the next (``:``, ``,``); empty ones left out."""
    pieces = tuple(filter(None, map(str.strip, pieces)))
    return " ".join(p if p[-1] in ".!?…:," else f"{p}." for p in pieces)


def spoken(text: str) -> str:
    """``text`` as it is said: its symbols in words (:data:`SPOKEN`), the rest as shown."""
    for pattern, words in SPOKEN.values():
        text = pattern.sub(words, text)
    return " ".join(text.split())


def render_espeak(text: str, program: str = "espeak-ng") -> bytes:
    """``text`` spoken as a WAV file (bytes). Raises OSError or CalledProcessError."""
    done = subprocess.run(
        [program, "--stdout", "-v", VOICE, "-s", str(WORDS_PER_MINUTE), "--", text],
        capture_output=True,
        timeout=20,
        check=True,
    )
    return done.stdout


class MixerChannel:
    """The player: one ``pygame.mixer`` channel kept for speech (cues use the others)."""

    def __init__(self) -> None:
        if pygame.mixer.get_init() is None:
            raise RuntimeError("the mixer did not start")
        pygame.mixer.set_reserved(1)
        self._channel = pygame.mixer.Channel(0)

    def play(self, clip: bytes) -> None:
        self._channel.play(pygame.mixer.Sound(file=io.BytesIO(clip)))

    def stop(self) -> None:
        self._channel.stop()

    def busy(self) -> bool:
        return bool(self._channel.get_busy())


class Speaker:
    """Speech for the app. ``renderer`` turns a sentence into a clip; ``player`` plays one
    clip at a time (``play``/``stop``/``busy``). With either missing it is silent but
    still records what it was asked to say (``said``), which the tests read."""

    def __init__(
        self,
        renderer: Renderer | None = None,
        player: Any = None,
        *,
        setting: str = "auto",
        muted: bool = False,
        threaded: bool = True,
    ) -> None:
        self.renderer = renderer
        self.player = player
        self.setting = setting if setting in SPEECH_SETTINGS else "auto"
        self.muted = muted
        self.said: list[str] = []  # every sentence asked for, spoken or not
        self.spoken: list[str] = []  # every sentence whose clip started playing
        self._clips: OrderedDict[str, Future[bytes | None]] = OrderedDict()  # by sentence
        self._waiting: deque[str] = deque()  # sentences in order, after the current one
        self._current: str | None = None
        self._ended: OrderedDict[str, None] = OrderedDict()  # said to their end since asked
        # for (the last CLIPS_KEPT, as the clips: a sentence is not kept all the app's life)
        self._step: str | None = None  # the last step asked for since the last prompt
        self._by: dict[str, object] = {}  # who asked for each sentence said or waiting
        self._leaving: set[str] = set()  # theirs, cut at the next frame (:meth:`left`)
        # one worker thread, started on the first sentence (None: render on the caller's)
        self._pool = ThreadPoolExecutor(1, "speech") if threaded else None

    # -- what it can do ------------------------------------------------------------------

    @property
    def available(self) -> bool:
        """A voice and a speaker are both there."""
        return self.renderer is not None and self.player is not None

    @property
    def on(self) -> bool:
        """Speaking now: available, switched on (``auto`` counts as on), not muted."""
        return self.available and self.setting != "off" and not self.muted

    # -- asking it to speak ---------------------------------------------------------------

    def say(self, text: str, *, after: bool = False, by: object = None) -> None:
        """Speak ``text`` now: cut what is being said and drop what waits; ``after``: once
        what is being said and the prompts that wait are said (a game's last move before
        its results), dropping only the step that waits; ``by``: who asks (:meth:`left`)."""
        self._ask(text, cut=True, after=after, by=by)

    def left(self, by: object) -> None:
        """``by`` (a scene) left the screen: what it is saying and what it left waiting are
        cut at the next frame, unless a prompt that asks to come ``after`` them (the
        results after a game's last move) comes first."""
        self._leaving |= {text for text, who in self._by.items() if who is by}

    def step(self, text: str, *, by: object = None) -> None:
        """Speak ``text``, the next step, after what is being said and what waits; it
        replaces the last step asked for since the last prompt, cut if it is being said,
        dropped if it waits (a prompt is never cut by a step: what replaces a prompt the
        screen no longer shows is a prompt, :meth:`~tabletop.ui.table.TableScene.voice`)."""
        old, self._step = self._step, " ".join(text.split())
        if self.on and old is not None:
            if old in self._waiting:
                self._waiting.remove(old)
            elif old == self._current and self._busy():
                self._current = None
                self.player.stop()
        self._ask(text, cut=False, by=by)

    def _ask(self, text: str, *, cut: bool, after: bool = False, by: object = None) -> None:
        text = " ".join(text.split())
        if not text:
            return
        self._leaving = set() if after else self._leaving - {text}
        kept = {self._current, *self._waiting}  # who asked for what is said or waits
        self._by = {t: who for t, who in self._by.items() if t in kept}
        self._by[text] = by
        self.said.append(text)
        self._ended.pop(text, None)
        step = self._step  # the step waiting, if any: a prompt drops it (below)
        if cut:
            self._step = None
        if not self.on:
            return
        if cut:
            if text == self._current and not self._waiting and self._busy():
                return  # the same prompt again while it is being said: let it finish
            if not after:
                self.stop()
            elif step is not None and step in self._waiting:
                self._waiting.remove(step)
        self._waiting.append(text)
        self._want(text)

    def finished(self, text: str) -> bool:
        """``text``, the last time it was asked for, was said to its end (not cut, not
        dropped, not silent): a child heard it all."""
        self._settle()
        return " ".join(text.split()) in self._ended

    def stop(self) -> None:
        """Silence, now: the sound switched off (a screen that leaves: :meth:`left`)."""
        self._settle()
        self._waiting.clear()
        self._leaving.clear()
        self._current = None
        if self.player is not None:
            self.player.stop()

    # -- once per frame, on the display thread -----------------------------------------------

    def update(self) -> None:
        """Start the next sentence once its clip is rendered and the last one has ended;
        one that cannot be rendered is skipped (logged)."""
        self._settle()
        if self._leaving:  # what a screen that left was saying (:meth:`left`)
            self._waiting = deque(t for t in self._waiting if t not in self._leaving)
            if self._current in self._leaving and self._busy():
                self._current = None
                self.player.stop()
            self._leaving.clear()
        while self.on and self._waiting and not self._busy():
            text = self._waiting[0]
            job = self._clips.get(text) or self._want(text)  # gone from the kept ones: again
            if not job.done():
                return  # still rendering
            self._waiting.popleft()
            clip = job.result()
            if clip is None:
                continue
            try:
                self.player.play(clip)
                self._current = text
                self.spoken.append(text)
            except Exception as exc:  # a clip the mixer cannot take: silence, never a crash
                log.warning("speech: could not play %r: %s", text, exc)
            return

    def close(self) -> None:
        self.stop()
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)

    # -- rendering ------------------------------------------------------------------------

    def _busy(self) -> bool:
        return self.player is not None and bool(self.player.busy())

    def _settle(self) -> None:
        """The sentence being said has ended (not cut: :meth:`stop` settles first)."""
        if self._current is not None and not self._busy():
            self._ended[self._current] = None
            self._current = None
            while len(self._ended) > CLIPS_KEPT:
                self._ended.popitem(last=False)

    def _want(self, text: str) -> Future[bytes | None]:
        """The clip of ``text``, rendered or rendering: kept, the most recently wanted
        last (the oldest beyond :data:`CLIPS_KEPT` go); one that failed is tried again."""
        job = self._clips.get(text)
        if job is None or (job.done() and job.result() is None):
            if self._pool is not None:
                job = self._pool.submit(self._render, text)
            else:
                job = Future()
                job.set_result(self._render(text))
            self._clips[text] = job
            while len(self._clips) > CLIPS_KEPT:
                self._clips.popitem(last=False)
        self._clips.move_to_end(text)
        return job

    def _render(self, text: str) -> bytes | None:
        assert self.renderer is not None
        try:
            clip = self.renderer(spoken(text))
        except (OSError, subprocess.SubprocessError) as exc:
            log.warning("speech: espeak-ng could not say %r: %s", text, exc)
            return None
        return clip or None


def make_speaker(setting: str, *, sounds_available: bool, muted: bool) -> Speaker:
    """The app's speaker: espeak-ng through the mixer where both exist, else silent."""
    program = shutil.which("espeak-ng") or shutil.which("espeak")
    if setting == "off" or program is None or not sounds_available:
        if program is None and setting != "off":
            log.info("speech: no espeak-ng here; prompts are shown, not spoken")
        return Speaker(setting=setting, muted=muted)
    try:
        player = MixerChannel()
    except Exception as exc:
        log.info("speech: no channel for speech: %s", exc)
        return Speaker(setting=setting, muted=muted)
    return Speaker(lambda text: render_espeak(text, program), player, setting=setting, muted=muted)


__all__ = [
    "MixerChannel",
    "Speaker",
    "make_speaker",
    "render_espeak",
    "sentences",
    "spoken",
]
