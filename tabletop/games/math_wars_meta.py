"""Math Wars Meta: turn up a COUNT META card and a MATH CRATE card, do the math; the
highest result wins the hand and every loser gives up cards.

Rule book: ``shared/seeds/000_7f7288d9ce946775.txt``; rulings MWM-1..MWM-9.

A hand has stages. In the first every active player turns up a COUNT META card and a
MATH CRATE card; each card is a chance outcome (the camera, a touch, or a virtual
deck answers "which card came off that pile"), so no shuffle order is ever stored.
Then every player who turned cards up enters YOUR SOLUTION (and, in Team v Team, the
TEAM SOLUTION) at the same time; the engine checks each entry and records it. The
results decide the hand, or send the tied players (or teams) to a Math War: another
stage, with cards face down first. Under Option 2 a winning team whose best teammates
tie holds a Math War among themselves for who collects (MWM-7). Last, the losers give
up their battle piles and ``d`` more cards, each face-down card again a chance
outcome, unless they give up everything they have. A round ends when one player (or
team) is left; a game when one has the edition's number of VICTORY! cards.

Sections: constants, editions and card codes, the Answer Key, settings, state,
actions, hand arithmetic, the engine, the ``tabletop check`` arbiter, private helpers.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any, Literal

from tabletop.engine import places_from_scores
from tabletop.engine.errors import BadInput, IllegalMove, ImpossibleOutcome
from tabletop.engine.protocol import ChanceRequest, Event, Game, Pending, Result, Seat
from tabletop.engine.words import and_joined, plural

# -- constants -------------------------------------------------------------------------

MAX_SEATS = 8
CRATE_OPS = ("+", "-", "x", "/")
CRATE_NUMBERS = tuple(range(1, 11))
# MATH CRATE Volume 1 (MWM-1): +n, -n, xn, /n for n = 1..10; there is no /0 card.
CRATE_CARDS = tuple(f"{op}{n}" for op in CRATE_OPS for n in CRATE_NUMBERS)
OP_WORDS = {"+": "+", "-": "−", "x": "×", "/": "÷"}
QR_PREFIX = "MT1:MWM:"
VICTORY_CODE = QR_PREFIX + "VIC"
# MWM-4: the first Math War puts 3 cards face down, every later one 5 (then 1 face up).
FIRST_WAR_FACE_DOWN = 3
LATER_WAR_FACE_DOWN = 5

CountCard = tuple[int, int]  # (army 1..8, number on the card)
Mode = Literal["solo", "pvp", "teams"]
Phase = Literal["reveal", "solve", "pay"]
StageKind = Literal["hand", "war", "collect"]
Need = Literal["down", "up", "crate"]
RoundEnd = Literal["last_standing", "last_hand", "no_winner", "deck_empty", "splash"]


# -- editions and card codes -----------------------------------------------------------


@dataclass(frozen=True)
class Edition:
    """One edition's decks and goal (MWM-1): the COUNT META numbers every player owns,
    the MATH CRATE faces, and the VICTORY! cards that win the game."""

    name: str
    count_numbers: tuple[int, ...]
    crate_cards: tuple[str, ...]
    victory_cards: int


EDITIONS: dict[str, Edition] = {
    "MWM25": Edition("MWM25", tuple(range(1, 26)), CRATE_CARDS, 4),
    "MWM100": Edition("MWM100", tuple(range(1, 101)), CRATE_CARDS, 5),
}


@dataclass(frozen=True)
class TeamFormat:
    """A Team v Team format (MWM-7): players per team and how many teams may play."""

    name: str
    size: int
    teams: tuple[int, ...]


TEAM_FORMATS: dict[int, TeamFormat] = {
    2: TeamFormat("Duos", 2, (2, 3, 4)),
    3: TeamFormat("Trios", 3, (2,)),
    4: TeamFormat("Quads", 4, (2,)),
}


def parse_crate(text: str) -> str:
    """A MATH CRATE face as written for people or on a card code: ``+6``, ``-5``,
    ``x3`` (or ``X3``), ``/2`` -> the engine's face; ``BadInput`` if no such card."""
    face = text.strip()
    face = face[0].lower() + face[1:] if face else face
    if face not in CRATE_CARDS:
        raise BadInput(
            "mwm.no_such_crate",
            f"there is no MATH CRATE card {text!r}: the cards are +1..+10, -1..-10, "
            "x1..x10 and /1../10",
        )
    return face


def count_code(card: CountCard) -> str:
    """The QR payload of a COUNT META card: ``MT1:MWM:C17:3`` (number 17, army 3)."""
    army, number = card
    return f"{QR_PREFIX}C{number}:{army}"


def crate_code(face: str, army: int) -> str:
    """The QR payload of a MATH CRATE card: ``MT1:MWM:KX3:2`` for army 2's x3."""
    return f"{QR_PREFIX}K{face.upper()}:{army}"


@dataclass(frozen=True)
class CardCode:
    """A parsed MWM payload: ``kind`` is count, crate or victory."""

    kind: Literal["count", "crate", "victory"]
    army: int | None = None
    number: int | None = None
    face: str | None = None


def parse_code(payload: str, edition: str | None = "MWM100") -> CardCode:
    """Read a card's code: its QR payload (``MT1:MWM:C17:3``, ``MT1:MWM:KX3:2``,
    ``MT1:MWM:VIC``) or the short code a card prints or a person types (``C17:3``,
    ``C17``, ``K+6``, ``KX3:2``, ``+6``, ``x3``, ``VIC``: ``army`` None where the code
    names none). ``BadInput``: ``mwm.other_game`` for another game's card,
    ``mwm.not_in_edition`` for a COUNT META number ``edition`` has not (None: any
    number), ``mwm.bad_code`` for anything else (``?``: a QR code that is not ours)."""
    text = payload.strip().upper()
    if text.startswith("MT1:") and not text.startswith(QR_PREFIX):
        raise BadInput("mwm.other_game", f"{payload!r} is a card of another game")
    body, _, deck = text.removeprefix(QR_PREFIX).partition(":")
    army = int(deck) if re.fullmatch(f"0*[1-{MAX_SEATS}]", deck) else None
    if deck and army is None:
        raise BadInput("mwm.bad_code", f"{payload!r} has no army 1..{MAX_SEATS}")
    if body == "VIC":
        return CardCode("victory", army=army)
    if count := re.fullmatch("C([0-9]{1,9})", body):  # (a QR code may hold 7,000 digits)
        number = int(count[1])
        if edition is not None and number not in EDITIONS[edition].count_numbers:
            raise BadInput("mwm.not_in_edition", f"COUNT META {number} is not a card of {edition}")
        return CardCode("count", army, number=number)
    try:  # "" and "?" too
        return CardCode("crate", army, face=parse_crate(body.removeprefix("K")))
    except BadInput:
        raise BadInput("mwm.bad_code", f"{payload!r} is not a Math Wars Meta card") from None


def crate_label(face: str) -> str:
    """A MATH CRATE card's face as printed: ``x3`` -> ``×3``."""
    return f"{OP_WORDS[face[0]]}{face[1:]}"


# -- the Answer Key (MWM-9) ------------------------------------------------------------


def answer(count: int, crate: str) -> int | None:
    """``count (op) crate`` as the Answer Key prints it: ``None`` (a blank) where the
    division leaves a remainder (MWM-2, MWM-9)."""
    op, n = crate[0], int(crate[1:])
    if op == "+":
        return count + n
    if op == "-":
        return count - n
    if op == "x":
        return count * n
    if op == "/":
        return count // n if count % n == 0 else None
    raise ValueError(f"no MATH CRATE operation {op!r}")


@dataclass(frozen=True)
class AnswerRow:
    """One COUNT META card's page of the Answer Key: its answer with every MATH CRATE
    card, in ``CRATE_CARDS`` order (``None`` is printed blank)."""

    count: int
    answers: tuple[int | None, ...]

    def with_crate(self, crate: str) -> int | None:
        return self.answers[CRATE_CARDS.index(crate)]

    def page(self) -> tuple[tuple[str, ...], ...]:
        """The printed table: a header of the four operations, then rows n = 1..10, each
        cell the answer or blank."""
        header = ("n", *(OP_WORDS[op] for op in CRATE_OPS))
        rows = [header]
        for n in CRATE_NUMBERS:
            cells = [str(n)]
            for op in CRATE_OPS:
                value = self.with_crate(f"{op}{n}")
                cells.append("" if value is None else str(value))
            rows.append(tuple(cells))
        return tuple(rows)


def answer_key(edition: str) -> tuple[AnswerRow, ...]:
    """The whole Answer Key of an edition, one row per COUNT META card (MWM-9)."""
    if edition not in EDITIONS:
        raise BadInput("mwm.edition", f"unknown edition {edition!r}: choose MWM25 or MWM100")
    ed = EDITIONS[edition]
    return tuple(
        AnswerRow(count, tuple(answer(count, crate) for crate in ed.crate_cards))
        for count in ed.count_numbers
    )


# -- settings --------------------------------------------------------------------------


@dataclass(frozen=True)
class MathWarsMetaSettings:
    """Chosen before the game (RULINGS.md names every option):

    - ``edition``: MWM25 or MWM100 (MWM-1).
    - ``mode``: ``solo`` (MWM-8), ``pvp`` (2..8 players) or ``teams`` (MWM-7), whose
      ``teams`` list each team's seats (0-based): Duos, Trios or Quads.
    - ``discard_option``: 1 (default) or 2 (MWM-5); solo play has its own (MWM-8).
    - ``last_man_standing``: the team option of MWM-5 (Option 2 only).
    - ``enter_solutions``: players enter YOUR SOLUTION each stage (default); off, the
      device works out every result itself (solo always asks, MWM-8).
    """

    edition: str = "MWM25"
    mode: Mode = "pvp"
    teams: tuple[tuple[int, ...], ...] = ()
    discard_option: int = 1
    last_man_standing: bool = False
    enter_solutions: bool = True

    def __post_init__(self) -> None:
        if not isinstance(self.edition, str) or self.edition not in EDITIONS:
            raise BadInput(
                "mwm.edition", f"unknown edition {self.edition!r}: choose MWM25 or MWM100"
            )
        if self.mode not in ("solo", "pvp", "teams"):
            raise BadInput("mwm.mode", f"unknown mode {self.mode!r}: choose solo, pvp or teams")
        if self.discard_option not in (1, 2):
            raise BadInput(
                "mwm.option", f"discard_option must be 1 or 2, not {self.discard_option!r}"
            )
        if self.mode == "teams":
            team_format(self.teams)
        elif self.teams:
            raise BadInput("mwm.teams", f"teams are only for Team v Team, not {self.mode}")
        if self.last_man_standing and (self.mode != "teams" or self.discard_option != 2):
            raise BadInput(
                "mwm.option", "last_man_standing is a Team v Team rule for discard Option 2"
            )
        if self.mode == "solo" and not self.enter_solutions:
            raise BadInput("mwm.option", "Solo play always asks for YOUR SOLUTION (MWM-8)")

    @property
    def ed(self) -> Edition:
        return EDITIONS[self.edition]

    def side_of(self, seat: Seat) -> int:
        """The seat's side: its team in Team v Team, otherwise the seat itself."""
        if self.mode != "teams":
            return seat
        return next(i for i, team in enumerate(self.teams) if seat in team)

    def side_seats(self, side: int) -> tuple[Seat, ...]:
        return self.teams[side] if self.mode == "teams" else (side,)

    def side_name(self, side: int) -> str:
        if self.mode != "teams":
            return f"Seat {side + 1}"
        return f"Team {side + 1} (seats {_seat_list(self.teams[side])})"


def team_format(teams: Sequence[Sequence[int]]) -> TeamFormat:
    """The format the teams make (MWM-7); ``BadInput`` when they make none."""
    if not teams:
        raise BadInput("mwm.teams", "Team v Team needs its teams, e.g. [[0, 1], [2, 3]]")
    sizes = {len(team) for team in teams}
    seats = [seat for team in teams for seat in team]
    if sorted(seats) != list(range(len(seats))):
        raise BadInput(
            "mwm.teams",
            f"teams must list every seat 0..{len(seats) - 1} exactly once, not {list(seats)}",
        )
    if len(sizes) != 1 or sizes.pop() not in TEAM_FORMATS:
        raise BadInput("mwm.teams", "teams must all be Duos, all Trios or all Quads")
    fmt = TEAM_FORMATS[len(teams[0])]
    if len(teams) not in fmt.teams:
        allowed = " to ".join(str(n) for n in (fmt.teams[0], fmt.teams[-1]))
        if len(fmt.teams) == 1:
            allowed = str(fmt.teams[0])
        raise BadInput("mwm.teams", f"{fmt.name} play as {allowed} teams, not {len(teams)} (MWM-7)")
    return fmt


# -- state -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Zone:
    """One player zone, card by card (rule book, GAME SETUP). Piles are unordered:
    a card coming off a face-down pile is a chance outcome."""

    army: int
    draw: tuple[CountCard, ...]
    battle: tuple[CountCard, ...] = ()
    spoils: tuple[CountCard, ...] = ()
    crate_draw: tuple[str, ...] = ()
    crate_battle: tuple[str, ...] = ()
    crate_discard: tuple[str, ...] = ()
    out: bool = False

    def count_cards(self) -> tuple[CountCard, ...]:
        return (*self.draw, *self.battle, *self.spoils)

    def crate_cards(self) -> tuple[str, ...]:
        return (*self.crate_draw, *self.crate_battle, *self.crate_discard)


@dataclass(frozen=True)
class Stage:
    """One reveal of a hand: the first (``hand``, level 0), a Math War (``war``, level
    1, 2, ...) or a winning team's war for who collects (``collect``, MWM-7)."""

    kind: StageKind = "hand"
    level: int = 0
    seats: tuple[Seat, ...] = ()
    lacking: tuple[Seat, ...] = ()
    todo: tuple[tuple[Seat, Need], ...] = ()
    up: tuple[CountCard | None, ...] = ()
    crates: tuple[str | None, ...] = ()
    entered: tuple[Seat, ...] = ()
    right: tuple[Seat, ...] = ()

    @property
    def revealed(self) -> tuple[Seat, ...]:
        """The seats that turn cards up (a lacking seat has none and loses, MWM-4)."""
        return tuple(s for s in self.seats if s not in self.lacking)


@dataclass(frozen=True)
class HandState:
    """What the hand has decided so far."""

    results: tuple[int | None, ...]
    side_results: tuple[int | None, ...]
    losses: tuple[tuple[Seat, int], ...] = ()
    winner: int | None = None
    collector: Seat | None = None
    owed: tuple[int, ...] = ()


@dataclass(frozen=True)
class Tally:
    """Solutions entered: right and wrong, YOUR SOLUTION and TEAM SOLUTION."""

    right: int = 0
    wrong: int = 0
    team_right: int = 0
    team_wrong: int = 0


@dataclass(frozen=True)
class RoundRecord:
    """A finished round: who won it and how, its hands, each seat's right and wrong
    solutions, and the first and last solution times (ms) when the device gave them."""

    number: int
    winner: int | None
    how: RoundEnd
    hands: int
    tallies: tuple[Tally, ...]
    first_at: int | None = None
    last_at: int | None = None

    @property
    def milliseconds(self) -> int | None:
        if self.first_at is None or self.last_at is None:
            return None
        return self.last_at - self.first_at


@dataclass(frozen=True)
class MathWarsMetaState:
    settings: MathWarsMetaSettings
    zones: tuple[Zone, ...]
    victories: tuple[int, ...]
    stage: Stage
    hand: HandState
    phase: Phase = "reveal"
    round: int = 1
    hands: int = 0
    tallies: tuple[Tally, ...] = ()
    round_tallies: tuple[Tally, ...] = ()
    first_at: int | None = None
    last_at: int | None = None
    rounds: tuple[RoundRecord, ...] = ()
    finished: bool = False

    @property
    def seats(self) -> int:
        return len(self.zones)

    def teammates(self, seat: Seat) -> tuple[Seat, ...]:
        s = self.settings
        return s.side_seats(s.side_of(seat))


# -- actions -------------------------------------------------------------------------------


@dataclass(frozen=True)
class CountDrawn:
    """Chance: this COUNT META card came off ``seat``'s pile (face up, face down, or as
    one of the cards a loser gives up)."""

    seat: Seat
    card: CountCard


@dataclass(frozen=True)
class CrateDrawn:
    """Chance: this MATH CRATE card came off ``seat``'s crate draw pile."""

    seat: Seat
    crate: str


@dataclass(frozen=True)
class EnterSolution:
    """The Score Card: YOUR SOLUTION, and in Team v Team the TEAM SOLUTION; ``at`` is the
    entry's time in milliseconds when the device knows it (MWM-8 records time)."""

    seat: Seat
    solution: int
    team_solution: int | None = None
    at: int | None = None


@dataclass(frozen=True)
class Splash:
    """Moderator: the table was "splashed", so the round is over and the next one starts
    from fresh decks (the rule book: "considered over ... reset"); ``award_to`` is
    the side (seat, or team index) the vote gave a penalty VICTORY! card (MWM-6), only
    the side winning the hand (``splash_leader``, MWM-10)."""

    award_to: int | None = None


Action = CountDrawn | CrateDrawn | EnterSolution | Splash
ACTION_TYPES: tuple[type[Any], ...] = (CountDrawn, CrateDrawn, EnterSolution, Splash)


# -- hand arithmetic -----------------------------------------------------------------------


def hand_result(count: int, crate: str | None) -> int:
    """MWM-2: count (op) crate; where the division leaves a remainder (or there is no
    crate card), the COUNT META card alone."""
    if crate is None:
        return count
    value = answer(count, crate)
    return count if value is None else value


def problem_text(count: int, crate: str | None) -> str:
    """The sum a COUNT META card and a MATH CRATE card make, as printed: ``21 − 5``
    (``21`` with no MATH CRATE card)."""
    return str(count) if crate is None else f"{count} {OP_WORDS[crate[0]]} {crate[1:]}"


def say_result(count: int, crate: str | None) -> str:
    """``21 − 5 = 16``, or why the count stands alone."""
    if crate is None:
        return f"{count} (no MATH CRATE card left)"
    value = answer(count, crate)
    sum_text = problem_text(count, crate)
    if value is None:
        return f"{sum_text} leaves a remainder, so only the {count} counts"
    return f"{sum_text} = {value}"


def war_face_down(level: int) -> int:
    """Cards face down in a Math War of this level (MWM-4): 3, then 5 every later tie."""
    return FIRST_WAR_FACE_DOWN if level == 1 else LATER_WAR_FACE_DOWN


def side_totals(results: Mapping[Seat, int], settings: MathWarsMetaSettings) -> dict[int, int]:
    """Each side's solution: a player's own result, or a team's sum of its players'
    results (the TEAM SOLUTION, MWM-7). Sides with no result are left out."""
    out: dict[int, int] = {}
    for seat, value in results.items():
        side = settings.side_of(seat)
        out[side] = out.get(side, 0) + value
    return out


# -- the engine ----------------------------------------------------------------------------


class MathWarsMeta(Game[MathWarsMetaSettings, MathWarsMetaState, Action]):
    name = "math-wars-meta"
    settings_type = MathWarsMetaSettings
    state_type = MathWarsMetaState
    action_types = ACTION_TYPES

    def new_game(self, settings: MathWarsMetaSettings, seats: int) -> MathWarsMetaState:
        s = settings
        if s.mode == "solo" and seats != 1:
            raise BadInput("mwm.seats", f"Solo is for one player, not {seats}")
        if s.mode == "pvp" and not 2 <= seats <= MAX_SEATS:
            raise BadInput("mwm.seats", f"Player v Player is for 2 to 8 players, not {seats}")
        if s.mode == "teams" and seats != sum(len(t) for t in s.teams):
            raise BadInput(
                "mwm.seats", f"the teams have {sum(len(t) for t in s.teams)} seats, not {seats}"
            )
        sides = len(s.teams) if s.mode == "teams" else seats
        state = MathWarsMetaState(
            settings=s,
            zones=tuple(Zone(seat + 1, ()) for seat in range(seats)),
            victories=(0,) * sides,
            stage=Stage(),
            hand=HandState((), ()),
            tallies=(Tally(),) * seats,
        )
        return _start_round(state, [])

    def pending(self, state: MathWarsMetaState) -> Pending[Action]:
        if state.finished:
            return Pending()
        if state.phase == "solve":
            stage = state.stage
            return Pending(seats=frozenset(s for s in stage.revealed if s not in stage.entered))
        seat, need, pile = _next_draw(state)
        zone = state.zones[seat]
        who = f"seat {seat + 1}"
        outcomes: tuple[Action, ...]
        if need == "crate":
            outcomes = tuple(map(_CRATE_OUTCOMES[seat].__getitem__, zone.crate_draw))
            return Pending(chance=ChanceRequest("crate", f"{who}'s top MATH CRATE card", outcomes))
        cards = zone.draw if pile == "draw" else zone.spoils
        outcomes = tuple(map(_COUNT_OUTCOMES[seat].__getitem__, cards))
        what = {
            "up": f"{who}'s top COUNT META card, face up",
            "down": f"{who}'s top COUNT META card, face down",
            "pay": f"a COUNT META card {who} gives up from the {pile} pile",
        }[need]
        return Pending(chance=ChanceRequest(need, what, outcomes))

    def legal_actions(self, state: MathWarsMetaState, seat: Seat) -> list[Action]:
        """In the solving step any whole number may be entered; these are the right
        entry and its nearest wrong ones. Draws are chance, not a seat's choice; the
        moderator's ``Splash`` is always possible and listed nowhere."""
        if seat not in self.pending(state).seats:
            return []
        right = correct_entry(state, seat)
        actions: list[Action] = [
            right,
            replace(right, solution=right.solution + 1),
            replace(right, solution=right.solution - 1),
        ]
        if right.team_solution is not None:
            actions.append(replace(right, team_solution=right.team_solution + 1))
        return actions

    def apply(
        self, state: MathWarsMetaState, action: Action
    ) -> tuple[MathWarsMetaState, tuple[Event, ...]]:
        if state.finished:
            raise IllegalMove("mwm.game_over", "the game is over: a VICTORY! goal was reached")
        events: list[Event] = []
        if isinstance(action, Splash):
            state = _splash(state, action, events)
        elif isinstance(action, CountDrawn | CrateDrawn):
            state = _drawn(state, action, events)
        elif isinstance(action, EnterSolution):
            state = _enter(state, action, events)
        else:
            raise IllegalMove("mwm.unknown_action", f"{action!r} is not a Math Wars Meta action")
        return state, tuple(events)

    def result(self, state: MathWarsMetaState) -> Result | None:
        if not state.finished:
            return None
        s = state.settings
        per_seat = [state.victories[s.side_of(seat)] for seat in range(state.seats)]
        side_places = places_from_scores(state.victories)  # a team counts once
        places = tuple(side_places[s.side_of(seat)] for seat in range(state.seats))
        best = max(state.victories)
        winners = [side for side, v in enumerate(state.victories) if v == best]
        reason = f"{s.side_name(winners[0])} wins with {plural(best, 'VICTORY! card')}"
        if s.mode == "solo":
            reason = f"all {best} rounds won"
        return Result(tuple(Fraction(v) for v in per_seat), places, reason)


def pending_card(state: MathWarsMetaState) -> tuple[Seat, str] | None:
    """The card the engine waits for in ``state``: (seat, up/down/crate/pay), or None
    (the game is over, or the seats are solving)."""
    if state.finished or state.phase == "solve":
        return None
    seat, need, _ = _next_draw(state)
    return seat, need


def standings(state: MathWarsMetaState) -> Result:
    """The result, or before the end the standings: VICTORY! cards per seat (a team's
    count for each of its seats); sides with as many are placed by the COUNT META cards
    they can still play this round (MWM-6: the last with cards wins the round)."""
    result = MathWarsMeta().result(state)
    if result is not None:
        return result
    s = state.settings
    usable = [0] * len(state.victories)
    for seat in range(state.seats):
        usable[s.side_of(seat)] += _usable(state, seat)
    sides = [s.side_of(seat) for seat in range(state.seats)]
    rank = [(state.victories[side], usable[side]) for side in sides]
    places = places_from_scores(rank)
    counts = ", ".join(f"{s.side_name(side)} {n}" for side, n in enumerate(state.victories))
    why = f"stopped with VICTORY! cards: {counts} (ties: more cards still to play)"
    return Result(tuple(Fraction(state.victories[side]) for side in sides), places, why)


def face_down(state: MathWarsMetaState, seat: Seat) -> int:
    """How many cards lie under ``seat``'s face-up COUNT META card on its battle pile
    (in a Math War: the earlier battle cards and the face-down ones); 0 in a hand."""
    battle = state.zones[seat].battle
    return max(0, len(battle) - 1) if state.stage.kind != "hand" or len(battle) > 1 else 0


def correct_entry(state: MathWarsMetaState, seat: Seat) -> EnterSolution:
    """What ``seat`` should enter now: its result and, in a team stage, its team's sum
    (the Answer Key's job at the table, MWM-9)."""
    stage = state.stage
    up = stage.up[seat]
    if state.phase != "solve" or up is None:
        raise IllegalMove("mwm.not_solving", f"seat {seat + 1} has no solution to enter now")
    team = sum(team_parts(state, seat)) if _team_stage(state) else None
    return EnterSolution(seat, hand_result(up[1], stage.crates[seat]), team)


def team_parts(state: MathWarsMetaState, seat: Seat) -> tuple[int, ...]:
    """The results a TEAM SOLUTION adds up (MWM-7): those of ``seat``'s team that turned
    cards up in this stage, the seat's own among them."""
    stage = state.stage
    return tuple(_stage_result(stage, m) for m in state.teammates(seat) if m in stage.revealed)


def card_drawn(
    state: MathWarsMetaState, seat: Seat, card: CardCode, *, battle: bool = False
) -> CountDrawn | CrateDrawn:
    """The draw a card shown at ``seat`` means. A COUNT META card is its own army's (in
    the draw pile, or with ``battle`` on the battle pile too), unless the code says another
    army or (Option 2) only another army's card of that number is in the draw pile."""
    if card.kind == "crate":
        assert card.face is not None
        return CrateDrawn(seat, card.face)
    assert card.number is not None
    own, zone = (card.army or seat + 1, card.number), state.zones[seat]
    if card.army is not None or own in (*zone.draw, *(zone.battle if battle else ())):
        return CountDrawn(seat, own)
    return CountDrawn(seat, next((c for c in zone.draw if c[1] == card.number), own))


def cards_conserved(state: MathWarsMetaState) -> bool:
    """Every COUNT META and MATH CRATE card is in exactly one pile (MWM-1)."""
    edition = state.settings.ed
    count = sorted(card for zone in state.zones for card in zone.count_cards())
    expected = sorted((z.army, n) for z in state.zones for n in edition.count_numbers)
    crates_ok = all(sorted(z.crate_cards()) == sorted(edition.crate_cards) for z in state.zones)
    return count == expected and crates_ok


# -- the ``tabletop check`` arbiter --------------------------------------------------------


def check(data: Any) -> dict[str, Any]:
    """Arbitrate one hand given as ``tabletop check math-wars-meta`` JSON (DESIGN.md).

    Each player lists their face-up reveals: the first, then one per Math War they are in.
    Output: ``results`` (each seat's final result), ``winner`` (seat, or team index, or
    ``null`` when the input stops at a tie), ``war`` (the seats that must go to war then),
    ``cards_lost`` (battle-pile cards plus the difference, MWM-3/MWM-4; ``null`` while
    undecided) and ``differences``; ``team_solutions`` in Team v Team.
    """
    edition, mode, teams, players = _check_input(data)
    settings = MathWarsMetaSettings(edition, mode, teams)
    count, crate = players
    n = len(count)
    if mode == "solo":
        return _check_solo(edition, count[0][0], crate[0][0])
    used = [0] * n  # reveals used so far per seat
    battle = [0] * n
    latest: dict[Seat, int] = {}
    side_latest: dict[int, int] = {}
    losses: dict[Seat, int] = {}
    stage_seats = list(range(n))
    level = 0
    while True:
        results = {}
        for seat in stage_seats:
            results[seat] = hand_result(count[seat][used[seat]], crate[seat][used[seat]])
            battle[seat] += 1 if level == 0 else war_face_down(level) + 1
            used[seat] += 1
        latest.update(results)
        totals = side_totals(results, settings)
        side_latest.update(totals)
        highest = max(totals.values())
        top = sorted(side for side, v in totals.items() if v == highest)
        for seat in stage_seats:
            side = settings.side_of(seat)
            if side not in top:
                losses[seat] = highest - side_latest[side]
        stage_seats = [seat for seat in stage_seats if settings.side_of(seat) in top]
        if len(top) == 1:
            winner: int | None = top[0]
            break
        level += 1
        more = [seat for seat in stage_seats if len(count[seat]) > used[seat]]
        if not more:
            winner = None
            break
        if len(more) != len(stage_seats):
            lacking = next(seat for seat in stage_seats if seat not in more)
            raise BadInput(
                "mwm.war_reveals",
                f"players[{lacking}] is in the Math War but lists no reveal for it "
                "(every player in a Math War lists one)",
            )
    for seat in range(n):
        if len(count[seat]) > used[seat]:
            raise BadInput(
                "mwm.war_reveals",
                f"players[{seat}] lists {len(count[seat])} reveals but takes part in only "
                f"{used[seat]} (one first, one per Math War they are in)",
            )
    out: dict[str, Any] = {
        "edition": edition,
        "mode": mode,
        "results": [latest[seat] for seat in range(n)],
        "winner": winner,
        "war": [] if winner is not None else stage_seats,
        "differences": [losses.get(seat, 0 if winner is not None else None) for seat in range(n)],
        "cards_lost": [
            battle[seat] + losses[seat] if seat in losses else (0 if winner is not None else None)
            for seat in range(n)
        ],
    }
    if mode == "teams":
        out["team_solutions"] = [side_latest[side] for side in range(len(teams))]
    return out


def _check_solo(edition: str, count: int, crate: str) -> dict[str, Any]:
    """MWM-8: a remainder means draw again; a right solution discards the battle card and
    ``max(result, 0)`` more, a wrong one only the battle card."""
    value = answer(count, crate)
    return {
        "edition": edition,
        "mode": "solo",
        "results": [hand_result(count, crate)],
        "winner": 0,
        "war": [],
        "differences": [0],
        "cards_lost": [0],
        "draw_again": value is None,
        "discard_if_right": 1 if value is None else 1 + max(value, 0),
        "discard_if_wrong": 1,
    }


_CHECK_FIELDS = {"edition", "mode", "teams", "players"}


def _check_input(
    data: Any,
) -> tuple[str, Mode, tuple[tuple[int, ...], ...], tuple[list[list[int]], list[list[str]]]]:
    if not isinstance(data, dict):
        raise BadInput("mwm.shape", "the input must be a JSON object with 'edition' and 'players'")
    unknown = set(data) - _CHECK_FIELDS
    if unknown:
        raise BadInput("mwm.shape", f"unknown field {sorted(unknown)[0]!r}")
    edition = data.get("edition")
    if not isinstance(edition, str) or edition not in EDITIONS:
        raise BadInput("mwm.edition", f"unknown edition {edition!r}: choose MWM25 or MWM100")
    mode = data.get("mode", "pvp")
    if mode not in ("solo", "pvp", "teams"):
        raise BadInput("mwm.mode", f"unknown mode {mode!r}: choose solo, pvp or teams")
    players = data.get("players")
    if not isinstance(players, list) or not all(isinstance(p, dict) for p in players):
        raise BadInput(
            "mwm.shape", '\'players\' must be a list of {"count": [...], "crate": [...]}'
        )
    if mode == "solo" and len(players) != 1:
        raise BadInput("mwm.players", f"solo is one player, not {len(players)}")
    if mode == "pvp" and not 2 <= len(players) <= MAX_SEATS:
        raise BadInput("mwm.players", f"Player v Player needs 2 to 8 players, not {len(players)}")
    teams = _check_teams(mode, data.get("teams"), len(players))
    numbers = EDITIONS[edition].count_numbers
    counts: list[list[int]] = []
    crates: list[list[str]] = []
    for seat, player in enumerate(players):
        where = f"players[{seat}]"
        if set(player) - {"count", "crate"}:
            extra = sorted(set(player) - {"count", "crate"})[0]
            raise BadInput("mwm.shape", f"{where}: unknown field {extra!r}")
        count, crate = player.get("count"), player.get("crate")
        if not isinstance(count, list) or not isinstance(crate, list) or not count:
            raise BadInput("mwm.shape", f"{where}: 'count' and 'crate' must be non-empty lists")
        if len(count) != len(crate):
            raise BadInput(
                "mwm.shape",
                f"{where}: {len(count)} COUNT META cards but {len(crate)} MATH CRATE cards "
                "(one of each per reveal)",
            )
        if mode == "solo" and len(count) != 1:
            raise BadInput("mwm.solo_reveals", "solo has no Math War: list one reveal")
        for value in count:
            if isinstance(value, bool) or not isinstance(value, int) or value not in numbers:
                raise BadInput(
                    "mwm.not_in_edition",
                    f"{where}: COUNT META {value!r} is not a card of {edition} (1..{len(numbers)})",
                )
        faces = []
        for face in crate:
            if not isinstance(face, str):
                raise BadInput("mwm.no_such_crate", f"{where}: MATH CRATE {face!r} is not a card")
            faces.append(parse_crate(face))
        if len(set(faces)) != len(faces):
            raise BadInput(
                "mwm.card_twice", f"{where}: a MATH CRATE card cannot turn up twice in one hand"
            )
        counts.append(list(count))
        crates.append(faces)
    return edition, mode, teams, (counts, crates)


def _check_teams(mode: str, teams: Any, players: int) -> tuple[tuple[int, ...], ...]:
    if mode != "teams":
        if teams is not None:
            raise BadInput("mwm.teams", f"'teams' are only for mode teams, not {mode}")
        return ()
    if teams is None:
        raise BadInput("mwm.teams", "Team v Team needs its 'teams', e.g. [[0, 1], [2, 3]]")
    if (
        not isinstance(teams, list)
        or not all(isinstance(t, list) for t in teams)
        or not all(isinstance(s, int) and not isinstance(s, bool) for t in teams for s in t)
    ):
        raise BadInput(
            "mwm.teams", "'teams' must be a list of lists of seats, e.g. [[0, 1], [2, 3]]"
        )
    out = tuple(tuple(t) for t in teams)
    team_format(out)
    if sum(len(t) for t in out) != players:
        raise BadInput(
            "mwm.teams", f"the teams have {sum(len(t) for t in out)} seats but {players} players"
        )
    return out


# -- private helpers -----------------------------------------------------------------------


class _Outcomes(dict[Any, Any]):
    """One seat's chance outcomes, built once each: a draw lists every card of a pile,
    so the same action values are asked for again and again."""

    def __init__(self, seat: Seat, kind: type[CountDrawn] | type[CrateDrawn]) -> None:
        super().__init__()
        self.seat, self.kind = seat, kind

    def __missing__(self, key: Any) -> Any:
        action = self[key] = self.kind(self.seat, key)
        return action


_COUNT_OUTCOMES = [_Outcomes(seat, CountDrawn) for seat in range(MAX_SEATS)]
_CRATE_OUTCOMES = [_Outcomes(seat, CrateDrawn) for seat in range(MAX_SEATS)]


def _seat_list(seats: Sequence[Seat]) -> str:
    return and_joined([str(s + 1) for s in seats])


def _stage_result(stage: Stage, seat: Seat) -> int:
    up = stage.up[seat]
    assert up is not None
    return hand_result(up[1], stage.crates[seat])


def _with_zone(state: MathWarsMetaState, seat: Seat, zone: Zone) -> MathWarsMetaState:
    return replace(state, zones=(*state.zones[:seat], zone, *state.zones[seat + 1 :]))


def _without(pile: tuple[Any, ...], item: Any) -> tuple[Any, ...]:
    i = pile.index(item)
    return pile[:i] + pile[i + 1 :]


def _fresh_zone(state: MathWarsMetaState, seat: Seat) -> Zone:
    edition = state.settings.ed
    army = seat + 1
    return Zone(
        army,
        draw=tuple((army, n) for n in edition.count_numbers),
        crate_draw=edition.crate_cards,
    )


# -- who may do what ---------------------------------------------------------------------


def _may_reshuffle(state: MathWarsMetaState, seat: Seat) -> bool:
    """Option 2: spoils go back into play once the draw pile is empty (MWM-5); with
    Last Man Standing only when every teammate still in the round is out of draw cards."""
    s = state.settings
    if s.discard_option != 2 or s.mode == "solo":
        return False
    if not s.last_man_standing:
        return True
    return all(
        not state.zones[mate].draw
        for mate in state.teammates(seat)
        if mate != seat and not state.zones[mate].out
    )


def _usable(state: MathWarsMetaState, seat: Seat) -> int:
    """COUNT META cards the seat can turn up this hand."""
    zone = state.zones[seat]
    if zone.out:
        return 0
    return len(zone.draw) + (len(zone.spoils) if _may_reshuffle(state, seat) else 0)


def _holdings(state: MathWarsMetaState, seat: Seat) -> int:
    """Cards a player can still give up or play: the draw pile, plus the spoils under
    Option 2 (MWM-6)."""
    zone = state.zones[seat]
    spoils = len(zone.spoils) if state.settings.discard_option == 2 else 0
    return len(zone.draw) + spoils


def _next_draw(state: MathWarsMetaState) -> tuple[Seat, str, str]:
    """The pending chance draw: (seat, up/down/crate/pay, the pile it comes from)."""
    if state.phase == "reveal":
        seat, need = state.stage.todo[0]
        return seat, need, "crate" if need == "crate" else "draw"
    seat = next(s for s, owed in enumerate(state.hand.owed) if owed > 0)
    return seat, "pay", "draw" if state.zones[seat].draw else "spoils"


# -- rounds, hands and stages --------------------------------------------------------------


def _start_round(state: MathWarsMetaState, events: list[Event]) -> MathWarsMetaState:
    """Each round starts from full, shuffled decks; VICTORY! cards carry over (MWM-6)."""
    zones = tuple(_fresh_zone(state, seat) for seat in range(state.seats))
    state = replace(
        state,
        zones=zones,
        hands=0,
        round_tallies=(Tally(),) * state.seats,
        first_at=None,
        last_at=None,
    )
    events.append(
        Event(
            "mwm.round_start",
            f"Round {state.round}! Everybody shuffles both decks.",
            data={"round": state.round},
        )
    )
    return _start_hand(state, events)


def _start_hand(state: MathWarsMetaState, events: list[Event]) -> MathWarsMetaState:
    n, sides = state.seats, len(state.victories)
    hand = HandState(results=(None,) * n, side_results=(None,) * sides, owed=(0,) * n)
    state = replace(state, hand=hand)
    active = [seat for seat in range(n) if _usable(state, seat) > 0]
    return _start_stage(state, "hand", 0, active, events)


def _start_stage(
    state: MathWarsMetaState,
    kind: StageKind,
    level: int,
    seats: Sequence[Seat],
    events: list[Event],
) -> MathWarsMetaState:
    todo: list[tuple[Seat, Need]] = []
    lacking: list[Seat] = []
    for seat in seats:
        usable = _usable(state, seat)
        if usable == 0:
            lacking.append(seat)
            events.append(
                Event(
                    "mwm.no_cards_for_war",
                    f"Seat {seat + 1} has no COUNT META card left for the Math War and loses it.",
                    seat,
                )
            )
            continue
        down = 0
        if level > 0:
            down = min(war_face_down(level), usable - 1)
            if down < war_face_down(level):
                events.append(
                    Event(
                        "mwm.short_for_war",
                        f"Seat {seat + 1} has only {plural(usable, 'card')}: "
                        f"{down} face down and 1 face up.",
                        seat,
                        {"cards": usable},
                    )
                )
        down_todo: list[tuple[Seat, Need]] = [(seat, "down")] * down
        todo += [*down_todo, (seat, "up"), (seat, "crate")]
    n = state.seats
    stage = Stage(kind, level, tuple(seats), tuple(lacking), tuple(todo), (None,) * n, (None,) * n)
    state = replace(state, stage=stage, phase="reveal")
    return _advance(state, events)


def _advance(state: MathWarsMetaState, events: list[Event]) -> MathWarsMetaState:
    """Do what needs no outside answer: reshuffles, whole-pile give-ups, settling a
    stage, ending the hand, the round or the game; stop where a card or a seat is awaited."""
    while not state.finished:
        if state.phase == "solve":
            if set(state.stage.revealed) <= set(state.stage.entered):
                state = _settle(state, events)
                continue
            return state
        if state.phase == "reveal":
            if not state.stage.todo:
                state = _stage_revealed(state, events)
                continue
            seat, need = state.stage.todo[0]
            zone = state.zones[seat]
            if need == "crate" and not zone.crate_draw:
                if not zone.crate_discard:
                    # every crate card is on the battle pile: the count stands alone
                    state = replace(state, stage=replace(state.stage, todo=state.stage.todo[1:]))
                    continue
                state = _with_zone(
                    state, seat, replace(zone, crate_draw=zone.crate_discard, crate_discard=())
                )
                events.append(
                    Event(
                        "mwm.crate_reshuffle",
                        f"Seat {seat + 1} shuffles the MATH CRATE discard pile into a new deck.",
                        seat,
                    )
                )
            elif need != "crate" and not zone.draw:
                state = _reshuffle_spoils(state, seat, events)
            return state
        # the pay phase
        payer = next((s for s, owed in enumerate(state.hand.owed) if owed > 0), None)
        if payer is None:
            state = _end_hand(state, events)
            continue
        seat = payer
        owed, zone = state.hand.owed[seat], state.zones[seat]
        dest = _destination(state, seat)
        pool = len(zone.draw) + (
            len(zone.spoils) if state.settings.discard_option == 2 and dest != seat else 0
        )
        if owed >= pool:
            state = _give_all(state, seat, dest, owed, events)
            continue
        if not zone.draw and _may_reshuffle(state, seat):
            state = _reshuffle_spoils(state, seat, events)
        return state
    return state


def _reshuffle_spoils(
    state: MathWarsMetaState, seat: Seat, events: list[Event]
) -> MathWarsMetaState:
    """Option 2: an empty draw pile takes the shuffled spoils pile (MWM-5)."""
    zone = state.zones[seat]
    events.append(
        Event(
            "mwm.spoils_reshuffle",
            f"Seat {seat + 1} shuffles the spoils pile ({len(zone.spoils)} cards) "
            "into a new draw pile.",
            seat,
            {"cards": len(zone.spoils)},
        )
    )
    return _with_zone(state, seat, replace(zone, draw=zone.spoils, spoils=()))


def _destination(state: MathWarsMetaState, seat: Seat) -> Seat:
    """Where a loser's cards go (MWM-5): their own spoils (Option 1, or a hand with no
    winner), or the spoils of the hand's winner or collecting teammate (Option 2)."""
    collector = state.hand.collector
    if state.settings.discard_option == 2 and collector is not None:
        return collector
    return seat


def _give_all(
    state: MathWarsMetaState, seat: Seat, dest: Seat, owed: int, events: list[Event]
) -> MathWarsMetaState:
    """A loser who owes at least what they hold gives it all up (MWM-6)."""
    zone = state.zones[seat]
    moved = zone.draw
    if state.settings.discard_option == 2 and dest != seat:
        moved = (*moved, *zone.spoils)
        zone = replace(zone, spoils=())
    zone = replace(zone, draw=())
    if dest == seat:
        zone = replace(zone, spoils=(*zone.spoils, *moved))
        state = _with_zone(state, seat, zone)
    else:
        state = _with_zone(state, seat, zone)
        target = state.zones[dest]
        state = _with_zone(state, dest, replace(target, spoils=(*target.spoils, *moved)))
    owed_all = list(state.hand.owed)
    owed_all[seat] = 0
    state = replace(state, hand=replace(state.hand, owed=tuple(owed_all)))
    if state.settings.mode != "solo":
        events.append(
            Event(
                "mwm.gave_everything",
                f"Seat {seat + 1} owed {owed} more cards and gives up all {len(moved)} they have.",
                seat,
                {"owed": owed, "given": len(moved)},
            )
        )
    return state


def _stage_revealed(state: MathWarsMetaState, events: list[Event]) -> MathWarsMetaState:
    """Every card of the stage is up: solo remainders draw again (MWM-8); otherwise the
    players solve, or the device settles at once when solutions are not entered."""
    stage = state.stage
    if state.settings.mode == "solo":
        up, crate = stage.up[0], stage.crates[0]
        assert up is not None
        if crate is not None and answer(up[1], crate) is None:
            events.append(
                Event(
                    "mwm.solo_redraw",
                    f"{say_result(up[1], crate)}. Both cards go: draw again!",
                    0,
                )
            )
            state = _clear_battle(state, owed={})
            return replace(state, phase="pay")
    if state.settings.enter_solutions and stage.revealed:
        events.append(
            Event(
                "mwm.solve",
                "Work it out and enter YOUR SOLUTION"
                + (" and the TEAM SOLUTION." if _team_stage(state) else "."),
                data={"seats": list(stage.revealed)},
            )
        )
        return replace(state, phase="solve")
    return _settle(replace(state, phase="solve"), events)


def _team_stage(state: MathWarsMetaState) -> bool:
    return state.settings.mode == "teams" and state.stage.kind != "collect"


def _settle(state: MathWarsMetaState, events: list[Event]) -> MathWarsMetaState:
    """All solutions are in: decide the stage (MWM-3, MWM-4, MWM-7, MWM-8)."""
    s, stage = state.settings, state.stage
    results = {seat: _stage_result(stage, seat) for seat in stage.revealed}
    for seat, value in results.items():
        up = stage.up[seat]
        assert up is not None
        events.append(
            Event(
                "mwm.result",
                f"Seat {seat + 1}: {say_result(up[1], stage.crates[seat])}.",
                seat,
                {"result": value},
            )
        )
    if s.mode == "solo":
        return _settle_solo(state, results[0], events)
    if stage.kind == "collect":
        return _settle_collect(state, results, events)
    hand = state.hand
    seat_results = list(hand.results)
    for seat, value in results.items():
        seat_results[seat] = value
    totals = side_totals(results, s)
    side_results = list(hand.side_results)
    for side, value in totals.items():
        side_results[side] = value
    if s.mode == "teams":
        for side, value in sorted(totals.items()):
            events.append(
                Event(
                    "mwm.team_solution",
                    f"{s.side_name(side)}: TEAM SOLUTION {value}.",
                    data={"team": side, "solution": value},
                )
            )
    losses = list(hand.losses)
    if not totals:
        # nobody in the war could turn a card up: the hand has no winner
        losses += [(seat, 0) for seat in stage.seats]
        events.append(Event("mwm.no_winner", "Nobody had a card for the Math War: no winner."))
        hand = replace(
            hand,
            results=tuple(seat_results),
            side_results=tuple(side_results),
            losses=tuple(losses),
        )
        return _finish_hand(replace(state, hand=hand), events)
    highest = max(totals.values())
    top = sorted(side for side, v in totals.items() if v == highest)
    for seat in stage.seats:
        side = s.side_of(seat)
        if side not in top:
            mine = side_results[side]
            losses.append((seat, max(0, highest - (mine if mine is not None else highest))))
    hand = replace(
        hand,
        results=tuple(seat_results),
        side_results=tuple(side_results),
        losses=tuple(losses),
    )
    state = replace(state, hand=hand)
    if len(top) > 1:
        war_seats = [seat for seat in stage.seats if s.side_of(seat) in top]
        names = " and ".join(s.side_name(side) for side in top)
        level = stage.level + 1
        events.append(
            Event(
                "mwm.math_war",
                f"MATH WAR! {names} tie with {highest}. Put {war_face_down(level)} cards "
                "face down, 1 face up, and a new MATH CRATE card.",
                data={"seats": war_seats, "level": level, "tied": highest},
            )
        )
        return _start_stage(state, "war", level, war_seats, events)
    winner = top[0]
    events.append(
        Event(
            "mwm.hand_won",
            f"{s.side_name(winner)} wins the hand with {highest}!",
            data={"winner": winner, "highest": highest},
        )
    )
    hand = replace(hand, winner=winner)
    state = replace(state, hand=hand)
    if s.mode != "teams":
        return _finish_hand(replace(state, hand=replace(hand, collector=winner)), events)
    if s.discard_option != 2:
        return _finish_hand(state, events)
    # MWM-7: the winning teammate with the highest own result collects; ties hold a war.
    mates = [seat for seat in stage.revealed if s.side_of(seat) == winner]
    best = max(results[seat] for seat in mates)
    tied = [seat for seat in mates if results[seat] == best]
    if len(tied) == 1:
        return _finish_hand(replace(state, hand=replace(hand, collector=tied[0])), events)
    events.append(
        Event(
            "mwm.collect_war",
            f"Seats {_seat_list(tied)} tie for the team's best ({best}): a Math War "
            "between teammates decides who collects.",
            data={"seats": tied},
        )
    )
    return _start_stage(state, "collect", 1, tied, events)


def _settle_collect(
    state: MathWarsMetaState, results: dict[Seat, int], events: list[Event]
) -> MathWarsMetaState:
    """The winning teammates' Math War (MWM-7): the best result collects."""
    stage = state.stage
    if not results:
        collector = min(stage.seats)
    else:
        best = max(results.values())
        tied = sorted(seat for seat, v in results.items() if v == best)
        if len(tied) > 1:
            level = stage.level + 1
            events.append(
                Event(
                    "mwm.collect_war",
                    f"Seats {_seat_list(tied)} tie again with {best}: "
                    f"{war_face_down(level)} face down, 1 face up.",
                    data={"seats": tied, "level": level},
                )
            )
            return _start_stage(state, "collect", level, tied, events)
        collector = tied[0]
    events.append(
        Event(
            "mwm.collector",
            f"Seat {collector + 1} collects the losers' cards for the team.",
            collector,
        )
    )
    return _finish_hand(replace(state, hand=replace(state.hand, collector=collector)), events)


def _settle_solo(state: MathWarsMetaState, result: int, events: list[Event]) -> MathWarsMetaState:
    """MWM-8: a right solution discards the battle card and max(result, 0) more; a
    wrong one only the battle card."""
    owed = max(result, 0) if 0 in state.stage.right else 0
    if owed:
        events.append(
            Event(
                "mwm.solo_discard",
                f"Discard the battle card and {owed} more from your draw pile.",
                0,
                {"cards": owed + 1},
            )
        )
    state = _clear_battle(state, owed={0: owed})
    return replace(state, phase="pay")


def _finish_hand(state: MathWarsMetaState, events: list[Event]) -> MathWarsMetaState:
    """Battle piles go where they belong and the losers owe their ``d`` (MWM-3..MWM-5)."""
    owed: dict[Seat, int] = {}
    for seat, d in state.hand.losses:
        owed[seat] = owed.get(seat, 0) + d
        battle = len(state.zones[seat].battle)
        dest = _destination(state, seat)
        to = "" if dest == seat else f" to seat {dest + 1}"
        events.append(
            Event(
                "mwm.lost_hand",
                f"Seat {seat + 1} loses {battle + d} cards{to}: the battle pile ({battle}) "
                f"and {d} more.",
                seat,
                {"battle": battle, "difference": d, "to": dest},
            )
        )
    return replace(_clear_battle(state, owed), phase="pay")


def _clear_battle(state: MathWarsMetaState, owed: Mapping[Seat, int]) -> MathWarsMetaState:
    """Every battle pile to a spoils pile (a loser's per ``_destination``), every MATH
    CRATE battle card to its owner's discard; ``owed`` cards are still to give."""
    zones = list(state.zones)
    losers = {seat for seat, _ in state.hand.losses}
    for seat, zone in enumerate(zones):
        zones[seat] = replace(
            zone,
            crate_battle=(),
            crate_discard=(*zone.crate_discard, *zone.crate_battle),
        )
    for seat in range(len(zones)):
        battle = zones[seat].battle
        if not battle:
            continue
        dest = _destination(state, seat) if seat in losers else seat
        zones[seat] = replace(zones[seat], battle=())
        zones[dest] = replace(zones[dest], spoils=(*zones[dest].spoils, *battle))
    owed_all = tuple(owed.get(seat, 0) for seat in range(len(zones)))
    return replace(state, zones=tuple(zones), hand=replace(state.hand, owed=owed_all))


def _end_hand(state: MathWarsMetaState, events: list[Event]) -> MathWarsMetaState:
    """Knock-outs, then the round's end (MWM-6) or the next hand."""
    s = state.settings
    state = replace(state, hands=state.hands + 1)
    if s.mode == "solo":
        if not state.zones[0].draw:
            return _round_won(state, 0, "deck_empty", events)
        return _start_hand(state, events)
    zones = list(state.zones)
    for seat, zone in enumerate(zones):
        if not zone.out and _holdings(state, seat) == 0:
            zones[seat] = replace(zone, out=True)
            events.append(
                Event(
                    "mwm.knocked_out",
                    f"Seat {seat + 1} has no COUNT META cards left and is out of the round.",
                    seat,
                )
            )
    state = replace(state, zones=tuple(zones))
    left = sorted({s.side_of(seat) for seat, zone in enumerate(zones) if not zone.out})
    if len(left) == 1:
        return _round_won(state, left[0], "last_standing", events)
    if not left:
        if state.hand.winner is None:
            return _round_won(state, None, "no_winner", events)
        return _round_won(state, state.hand.winner, "last_hand", events)
    return _start_hand(state, events)


def _round_won(
    state: MathWarsMetaState, side: int | None, how: RoundEnd, events: list[Event]
) -> MathWarsMetaState:
    s = state.settings
    record = RoundRecord(
        state.round,
        side,
        how,
        state.hands,
        state.round_tallies,
        state.first_at,
        state.last_at,
    )
    victories = list(state.victories)
    if side is not None:
        victories[side] += 1
        events.append(
            Event(
                "mwm.round_won",
                f"{s.side_name(side)} wins round {state.round} and a VICTORY! card "
                f"({victories[side]} of {s.ed.victory_cards}).",
                data={"winner": side, "round": state.round, "how": how},
            )
        )
    else:
        events.append(
            Event(
                "mwm.round_void",
                f"Round {state.round} has no winner. Nobody gets a VICTORY! card.",
                data={"round": state.round, "how": how},
            )
        )
    state = replace(state, victories=tuple(victories), rounds=(*state.rounds, record))
    if side is not None and victories[side] >= s.ed.victory_cards:
        events.append(
            Event(
                "mwm.game_won",
                f"{s.side_name(side)} has {victories[side]} VICTORY! cards and wins the game!"
                if s.mode != "solo"
                else f"You won all {victories[side]} rounds. You win the game!",
                data={"winner": side},
            )
        )
        return replace(state, finished=True)
    return _start_round(replace(state, round=state.round + 1), events)


# -- applying actions ----------------------------------------------------------------------


def _drawn(
    state: MathWarsMetaState, action: CountDrawn | CrateDrawn, events: list[Event]
) -> MathWarsMetaState:
    if state.phase == "solve":
        raise IllegalMove(
            "mwm.solutions_first", "every player enters YOUR SOLUTION before more cards turn up"
        )
    seat, need, pile = _next_draw(state)
    deck = "MATH CRATE" if need == "crate" else "COUNT META"
    if isinstance(action, CrateDrawn) != (need == "crate") or action.seat != seat:
        raise IllegalMove(
            "mwm.not_that_card", f"the game waits for seat {seat + 1}'s {deck} card now"
        )
    zone = state.zones[seat]
    if isinstance(action, CrateDrawn):
        if action.crate not in CRATE_CARDS:
            raise ImpossibleOutcome(
                "mwm.no_such_crate", f"there is no MATH CRATE card {action.crate!r}"
            )
        if action.crate not in zone.crate_draw:
            raise ImpossibleOutcome(
                "mwm.not_in_pile",
                f"MATH CRATE {action.crate} is not in seat {seat + 1}'s crate draw pile",
            )
        zone = replace(
            zone,
            crate_draw=_without(zone.crate_draw, action.crate),
            crate_battle=(*zone.crate_battle, action.crate),
        )
        stage = state.stage
        crates = (*stage.crates[:seat], action.crate, *stage.crates[seat + 1 :])
        stage = replace(stage, crates=crates, todo=stage.todo[1:])
        events.append(
            Event(
                "mwm.crate_up",
                f"Seat {seat + 1} turns up MATH CRATE {crate_label(action.crate)}.",
                seat,
                {"crate": action.crate},
            )
        )
        return _advance(replace(_with_zone(state, seat, zone), stage=stage), events)
    card = action.card
    army, number = card
    if not 1 <= army <= state.seats or number not in state.settings.ed.count_numbers:
        raise ImpossibleOutcome(
            "mwm.not_in_edition",
            f"COUNT META {number} of army {army} is not a card of this {state.settings.edition} "
            f"game",
        )
    source = zone.draw if pile == "draw" else zone.spoils
    if card not in source:
        raise ImpossibleOutcome(
            "mwm.not_in_pile",
            f"COUNT META {number} (army {army}) is not in seat {seat + 1}'s {pile} pile",
        )
    if need == "pay":
        return _pay_one(state, seat, card, pile, events)
    zone = replace(zone, draw=_without(zone.draw, card), battle=(*zone.battle, card))
    stage = replace(state.stage, todo=state.stage.todo[1:])
    if need == "up":
        stage = replace(stage, up=(*stage.up[:seat], card, *stage.up[seat + 1 :]))
        events.append(
            Event(
                "mwm.count_up",
                f"Seat {seat + 1} turns up COUNT META {number}.",
                seat,
                {"card": list(card)},
            )
        )
    else:
        events.append(Event("mwm.count_down", f"Seat {seat + 1} puts a card face down.", seat))
    return _advance(replace(_with_zone(state, seat, zone), stage=stage), events)


def _pay_one(
    state: MathWarsMetaState, seat: Seat, card: CountCard, pile: str, events: list[Event]
) -> MathWarsMetaState:
    zone = state.zones[seat]
    if pile == "draw":
        zone = replace(zone, draw=_without(zone.draw, card))
    else:
        zone = replace(zone, spoils=_without(zone.spoils, card))
    dest = _destination(state, seat)
    if dest == seat:
        zone = replace(zone, spoils=(*zone.spoils, card))
        state = _with_zone(state, seat, zone)
    else:
        state = _with_zone(state, seat, zone)
        target = state.zones[dest]
        state = _with_zone(state, dest, replace(target, spoils=(*target.spoils, card)))
    owed = list(state.hand.owed)
    owed[seat] -= 1
    state = replace(state, hand=replace(state.hand, owed=tuple(owed)))
    return _advance(state, events)


def _enter(
    state: MathWarsMetaState, action: EnterSolution, events: list[Event]
) -> MathWarsMetaState:
    seat = action.seat
    if not 0 <= seat < state.seats:
        raise IllegalMove("mwm.no_such_seat", f"there is no seat {seat + 1} in this game")
    if state.phase != "solve":
        raise IllegalMove(
            "mwm.not_solving", "solutions are entered once every card of the stage is up"
        )
    stage = state.stage
    if seat not in stage.revealed:
        raise IllegalMove(
            "mwm.not_in_stage", f"seat {seat + 1} turned no cards up in this part of the hand"
        )
    if seat in stage.entered:
        raise IllegalMove("mwm.already_entered", f"seat {seat + 1} has already entered a solution")
    right = correct_entry(state, seat)
    if right.team_solution is None and action.team_solution is not None:
        raise IllegalMove(
            "mwm.no_team_solution", "only a Team v Team hand has a TEAM SOLUTION to enter"
        )
    if right.team_solution is not None and action.team_solution is None:
        raise IllegalMove(
            "mwm.team_solution_missing", "enter the TEAM SOLUTION too (MWM-7): your team's sum"
        )
    up = stage.up[seat]
    assert up is not None
    own_ok = action.solution == right.solution
    team_ok = right.team_solution is None or action.team_solution == right.team_solution
    tally = state.round_tallies[seat]
    game_tally = state.tallies[seat]
    delta = Tally(
        right=int(own_ok),
        wrong=int(not own_ok),
        team_right=int(right.team_solution is not None and team_ok),
        team_wrong=int(not team_ok),
    )
    tallies = list(state.tallies)
    tallies[seat] = _add(game_tally, delta)
    round_tallies = list(state.round_tallies)
    round_tallies[seat] = _add(tally, delta)
    if own_ok:
        text = f"Right! {say_result(up[1], stage.crates[seat])}."
    else:
        text = (
            f"Not quite: {say_result(up[1], stage.crates[seat])}, "
            f"so YOUR SOLUTION is {right.solution}, not {action.solution}."
        )
    if right.team_solution is not None:
        text += (
            " TEAM SOLUTION right!"
            if team_ok
            else f" The TEAM SOLUTION is {right.team_solution}, not {action.team_solution}."
        )
    events.append(
        Event(
            "mwm.solution_right" if own_ok and team_ok else "mwm.solution_wrong",
            text,
            seat,
            {
                "entered": action.solution,
                "answer": right.solution,
                "team_entered": action.team_solution,
                "team_answer": right.team_solution,
            },
        )
    )
    first_at = state.first_at
    if action.at is not None and first_at is None:
        first_at = action.at
    last_at = action.at if action.at is not None else state.last_at
    state = replace(
        state,
        tallies=tuple(tallies),
        round_tallies=tuple(round_tallies),
        stage=replace(
            stage,
            entered=(*stage.entered, seat),
            right=(*stage.right, seat) if own_ok else stage.right,
        ),
        first_at=first_at,
        last_at=last_at,
    )
    return _advance(state, events)


def splash_leader(state: MathWarsMetaState) -> int | None:
    """MWM-10: the side (seat, or team) winning the hand when it is splashed, the only
    one a penalty VICTORY! card may go to: the hand's winner once decided, else the
    highest result revealed (a Math War's new reveals decide among the tied sides); None
    when no result is revealed or the highest is tied."""
    s, stage, hand = state.settings, state.stage, state.hand
    if s.mode == "solo":
        return None
    if hand.winner is not None:
        return hand.winner
    shown = {
        seat: _stage_result(stage, seat)
        for seat in stage.revealed
        if seat < len(stage.up)
        and stage.up[seat] is not None
        and seat < len(stage.crates)
        and stage.crates[seat] is not None
    }
    totals: Mapping[int, int | None] = side_totals(shown, s) if shown else {}
    if not totals:
        totals = {side: v for side, v in enumerate(hand.side_results) if v is not None}
    if not totals:
        return None
    values = [v for v in totals.values() if v is not None]
    highest = max(values)
    top = [side for side, v in totals.items() if v == highest]
    return top[0] if len(top) == 1 else None


def _splash(state: MathWarsMetaState, action: Splash, events: list[Event]) -> MathWarsMetaState:
    """The rule book's "splash": the round is over at once, the next one starts from
    fresh decks (so the round count goes on, as after a round won); a vote may give the
    hand's winner a penalty VICTORY! card, which can win the game (MWM-6)."""
    s = state.settings
    side = action.award_to
    if side is not None:
        if s.mode == "solo":
            raise IllegalMove("mwm.solo_no_vote", "in Solo there is nobody to vote a VICTORY! card")
        if not 0 <= side < len(state.victories):
            what = "team" if s.mode == "teams" else "seat"
            raise IllegalMove("mwm.no_such_side", f"there is no {what} {side + 1} to award")
        leader = splash_leader(state)
        if side != leader:
            why = (
                "no result was revealed this hand, so nobody was winning"
                if leader is None
                else f"{s.side_name(leader)} was winning this hand"
            )
            raise IllegalMove(
                "mwm.splash_not_winner",
                f"a penalty VICTORY! card goes only to the hand's winner (MWM-10): {why}",
            )
    events.append(
        Event(
            "mwm.splash",
            f"Splash! The cards are all over the table: round {state.round} is over.",
            data={"round": state.round},
        )
    )
    if side is None:
        record = RoundRecord(
            state.round,
            None,
            "splash",
            state.hands,
            state.round_tallies,
            state.first_at,
            state.last_at,
        )
        state = replace(state, rounds=(*state.rounds, record), round=state.round + 1)
        return _start_round(state, events)
    return _round_won(state, side, "splash", events)


def _add(a: Tally, b: Tally) -> Tally:
    return Tally(
        a.right + b.right,
        a.wrong + b.wrong,
        a.team_right + b.team_right,
        a.team_wrong + b.team_wrong,
    )


__all__ = [
    "ACTION_TYPES",
    "CRATE_CARDS",
    "EDITIONS",
    "OP_WORDS",
    "QR_PREFIX",
    "TEAM_FORMATS",
    "Action",
    "AnswerRow",
    "CardCode",
    "CountDrawn",
    "CrateDrawn",
    "Edition",
    "EnterSolution",
    "HandState",
    "MathWarsMeta",
    "MathWarsMetaSettings",
    "MathWarsMetaState",
    "RoundRecord",
    "Splash",
    "Stage",
    "Tally",
    "TeamFormat",
    "Zone",
    "answer",
    "answer_key",
    "card_drawn",
    "cards_conserved",
    "check",
    "correct_entry",
    "count_code",
    "crate_code",
    "crate_label",
    "face_down",
    "hand_result",
    "parse_code",
    "parse_crate",
    "pending_card",
    "problem_text",
    "side_totals",
    "splash_leader",
    "standings",
    "team_format",
    "team_parts",
]
