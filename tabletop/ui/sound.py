"""Sound cues: short tones made with numpy, played through ``pygame.mixer``.

Cues: ``seen`` (the dice were read), ``good`` (a good move or a line that scores),
``wrong`` (a refused move), ``round`` (a round is over), ``star`` (a Bonus Star), and
``tap``. With no audio device, or muted, every cue is silently skipped.
"""

from __future__ import annotations

import logging

import numpy as np

log = logging.getLogger(__name__)

RATE = 22050
# Each cue: (frequency Hz, seconds) notes, played one after another.
CUES: dict[str, tuple[tuple[float, float], ...]] = {
    "tap": ((880.0, 0.03),),
    "seen": ((660.0, 0.07), (990.0, 0.09)),
    "good": ((523.3, 0.08), (659.3, 0.08), (784.0, 0.14)),
    "wrong": ((220.0, 0.12), (185.0, 0.2)),
    "round": ((523.3, 0.1), (784.0, 0.1), (1046.5, 0.1), (784.0, 0.1), (1046.5, 0.22)),
    "star": ((784.0, 0.06), (1046.5, 0.06), (1318.5, 0.06), (1568.0, 0.16)),
}


def tone(
    notes: tuple[tuple[float, float], ...], rate: int = RATE, volume: float = 0.35
) -> np.ndarray:
    """16-bit mono samples of the notes, each with a soft attack and decay (no clicks)."""
    parts = []
    for freq, seconds in notes:
        n = int(rate * seconds)
        t = np.arange(n) / rate
        wave = np.sin(2 * np.pi * freq * t) + 0.25 * np.sin(4 * np.pi * freq * t)
        envelope = np.minimum(1.0, np.minimum(t / 0.008, (seconds - t) / 0.03))
        parts.append(wave * np.clip(envelope, 0.0, 1.0))
    samples = np.concatenate(parts) * volume / 1.25 * 32767
    return samples.astype(np.int16)


class Sounds:
    """The cues, or silence. ``muted`` is the mute switch (kept in the settings)."""

    def __init__(self, *, enabled: bool = True, muted: bool = False) -> None:
        self.muted = muted
        self.available = False
        self.played: list[str] = []  # every cue asked for (tests read this)
        self._sounds: dict[str, object] = {}
        if enabled:
            self._load()

    def _load(self) -> None:
        try:
            import pygame

            if not pygame.mixer.get_init():
                pygame.mixer.init(frequency=RATE, size=-16, channels=1, buffer=512)
            init = pygame.mixer.get_init()
            if init is None:
                raise RuntimeError("the mixer did not start")
            freq, _, channels = init
            for name, notes in CUES.items():
                samples = tone(notes, freq)
                if channels > 1:
                    samples = np.repeat(samples[:, None], channels, axis=1)
                self._sounds[name] = pygame.sndarray.make_sound(np.ascontiguousarray(samples))
            self.available = True
        except Exception as exc:
            log.info("no sound: %s", exc)
            self._sounds.clear()

    def play(self, name: str) -> None:
        self.played.append(name)
        if self.muted or not self.available:
            return
        sound = self._sounds.get(name)
        if sound is not None:
            try:
                sound.play()  # type: ignore[attr-defined]
            except Exception as exc:
                log.info("sound %s: %s", name, exc)


__all__ = ["CUES", "Sounds", "tone"]
