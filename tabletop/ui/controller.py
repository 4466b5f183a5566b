"""The one base of every game's table controller: the pygame-free half of a table."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tabletop.engine.codec import digest
from tabletop.engine.match import Match
from tabletop.engine.protocol import Result


@dataclass(frozen=True)
class Ask:
    """A question a controller asks, for its scene to show
    (:meth:`~tabletop.ui.table.TableScene.ask_about`): ``choices`` are (key, label) pairs
    on a grid ``columns`` wide and ``rows`` high, a choice's ``captions`` line under its
    label; with ``yes_no`` the two choices are the labels of "yes" and "no"; with ``cards``
    they are cards, drawn as the table draws them. ``key`` says what the answer is for,
    ``given`` what it is about (a line, what was chosen before)."""

    key: str
    title: str
    choices: tuple[tuple[str, str], ...]
    columns: int = 2
    rows: int = 1
    given: tuple[Any, ...] = ()
    captions: tuple[tuple[str, str], ...] = ()
    yes_no: bool = False
    cards: bool = False


class TableController:
    """What every game's controller (``ui/games/<game>/play.py``) tells its table scene.

    A controller holds ``match``, the game being played, and all the device decides about
    the table that is not drawing: whose turn it is, what the device waits for, the
    sentences to say, what the bots do next, the record kept beside the match in the
    journal. Its scene (a :class:`~tabletop.ui.table.TableScene`) keeps it as ``play``
    and asks it through the names below; a controller overrides what its game keeps.
    Tested without a display: nothing here imports pygame."""

    match: Match[Any, Any, Any]
    message = ""  # what just happened, on the instruction line (the scene says it aloud)
    tone = "info"  # how it shows: "info", "good", "error" (a refusal) or "hint"
    sentences = 0  # how many were said: the scene speaks each new one
    narrated: tuple[tuple[Any, str], ...] = ()  # what :meth:`narrate` kept
    namer: Callable[[int, str], str] | None = None  # the scene's ``shown`` (:meth:`called`)

    def say(self, text: str, tone: str = "info") -> None:
        """``text`` is what just happened (``tone``: how it shows)."""
        self.message, self.tone, self.sentences = text, tone, self.sentences + 1

    def called(self, seat: int, name: str) -> str:
        """``name``, seat ``seat``'s as the game has it, as a sentence says it: as its table
        draws it (:attr:`namer`, :meth:`~tabletop.ui.table.TableScene.shown`), told apart
        from a namesake's ("Mia (4b)"). The game, the journal and the demos keep ``name``."""
        return name if self.namer is None else self.namer(seat, name)

    def narrate(self, round: object, line: str) -> None:
        """Keep ``line``, what happened in ``round`` (a turn, a hand...), in :attr:`story`."""
        self.narrated = (*self.narrated, (round, line))

    @property
    def story(self) -> Sequence[tuple[Any, str]]:
        """The game so far as the table tells it, a (round, line) pair a line, in order:
        what :meth:`narrate` kept, an undo taking nothing back (a game that rebuilds it
        from the match tells it again when carried on). The demos print their lines from
        it (:meth:`~tabletop.ui.harness.DemoRun.narration`)."""
        return self.narrated

    def standings(self) -> Result:
        """The result, or before the end the standings (for a game left unfinished)."""
        raise NotImplementedError

    def next_step(self) -> str:
        """What the device waits for now, naming who (the instruction line)."""
        return ""

    def record(self) -> dict[str, Any] | None:
        """The table's state that is not in the match (answers typed, cards read early),
        kept beside it in the journal; None when the game keeps none."""
        return None

    def stamp(self) -> dict[str, Any]:
        """The match a record belongs to, to keep in it: its moves ``n`` and its
        ``state``'s digest (the journal's keys)."""
        return {"n": self.match.moves, "state": digest(self.match.state)}

    def own(self, record: object) -> Mapping[str, Any] | None:
        """A journaled record with this very match's :meth:`stamp`, else None (the device
        stopped between the match's write and the record's: the match alone counts)."""
        stamp = self.stamp()
        if isinstance(record, Mapping) and all(record.get(k) == v for k, v in stamp.items()):
            return record
        return None

    def checks(self) -> Any:
        """The answers checked per seat, for the journal (None: none counted)."""
        return None

    def lit(self) -> Sequence[int]:
        """The seats whose lamps are lit now."""
        return ()

    def facts(self) -> dict[str, object]:
        """What a refusal's sentence may name now (whose turn...)."""
        return {}

    def seat_pressed(self, seat: int) -> Ask | None:
        """A seat's button (or its touch twin) was pressed; what it asks (the scene shows
        it), if anything."""
        return None

    def cards_seen(self, seat: int | None, area: str | None, codes: tuple[str, ...]) -> object:
        """The camera read ``codes`` in ``area`` (at ``seat``, when the area is a seat's)."""

    def can_undo(self) -> bool:
        """There is a step to take back (else Undo is refused before the teacher's PIN)."""
        return True

    def undo(self) -> object:
        """Take back a step (the teacher's menu, after the PIN)."""

    def teacher_menu(self) -> Ask | None:
        """The right PIN was typed (after "teacher" or "undo"): a game with more for the
        teacher than taking back a step asks which (the scene shows it); None: the scene
        takes back a step (:meth:`undo`). An
        :class:`~tabletop.engine.errors.TabletopError` raised here is refused."""
        return None

    def bot_due(self) -> bool:
        """A bot is to move now (the scene lets it after its pause)."""
        return False

    def bot_step(self) -> None:
        """Let the waiting bot make its move."""


__all__ = ["Ask", "TableController"]
