"""Setting up a Math Wars Meta game on the one setup form (:mod:`tabletop.ui.scenes.form`):
children and bots (1 to 8), real or virtual cards, the mode (Solo, MWM-8; Players; Teams
of Duos, Trios or Quads, MWM-7; each fills the seats it needs), the discard option and
Last Man Standing (MWM-5), the edition, whose rules pages the form and the table show.
What the form chose is journaled as :class:`Choices` (``app["choices"]``, as before the
form), so games journaled earlier still carry on.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from tabletop.engine.errors import TabletopError
from tabletop.engine.match import Match
from tabletop.engine.words import and_joined
from tabletop.games.math_wars_meta import EDITIONS, TEAM_FORMATS, MathWarsMetaSettings
from tabletop.store import SeatInfo
from tabletop.ui.app import Context, Scene
from tabletop.ui.games.math_wars_meta.play import MwmPlay, SeatConfig
from tabletop.ui.games.math_wars_meta.table import MwmTable
from tabletop.ui.messages import child_message
from tabletop.ui.saves import GameSave, game_seed, seat_infos
from tabletop.ui.scenes.form import (
    CHILD,
    EMPTY,
    REAL,
    Cards,
    Choice,
    FormScene,
    FormSpec,
    FormValues,
    OptionRow,
    Preset,
    Seats,
)
from tabletop.ui.scenes.rules import RulesPage, RulesScene, load_rules


def pages(edition: str = "MWM25") -> tuple[RulesPage, ...]:
    """The rules in plain words with the rule book's worked examples (MWM-1..MWM-8) for
    ``edition``, its numbers from the engine's edition data."""
    ed, victories = EDITIONS[edition], {name: e.victory_cards for name, e in EDITIONS.items()}
    facts = {"edition": edition, "victory_cards": ed.victory_cards, "top": ed.count_numbers[-1]}
    return load_rules("math_wars_meta", **facts, victories=victories)


def rules_scene(ctx: Context, edition: str) -> RulesScene:
    return RulesScene(ctx, "Math Wars Meta: the rules", pages(edition))


@dataclass
class Choices:
    """Everything the setup decides, as plain data (the journal's ``app["choices"]``)."""

    edition: str = "MWM25"
    mode: str = "pvp"
    players: int = 2
    team_size: int = 2
    teams: int = 2
    discard_option: int = 1
    last_man_standing: bool = False
    who: list[str] = field(default_factory=lambda: ["real"] * 8)

    def settings(self) -> MathWarsMetaSettings:
        size, teams = self.team_size, self.teams if self.mode == "teams" else 0
        lms = self.last_man_standing and self.mode == "teams" and self.discard_option == 2
        return MathWarsMetaSettings(
            self.edition,
            self.mode,  # type: ignore[arg-type]
            tuple(tuple(range(t * size, (t + 1) * size)) for t in range(teams)),
            discard_option=1 if self.mode == "solo" else self.discard_option,
            last_man_standing=lms,
        )

    def seat_configs(self, names: Sequence[str] | None = None) -> list[SeatConfig]:
        """Who sits where; ``names`` (the form's, who signed in, a saved game's seats)
        replace the default names."""
        n = {"solo": 1, "teams": self.team_size * self.teams}.get(self.mode, self.players)
        out = []
        for seat, who in enumerate((self.who + ["real"] * n)[:n]):
            bot = who == "bot" and self.mode != "solo"
            name = names[seat] if names and seat < len(names) and names[seat] else ""
            name = name or f"{'Bot' if bot else 'Player'} {seat + 1}"
            out.append(SeatConfig(name, bot=bot, virtual=who == "virtual"))
        return out

    @classmethod
    def from_record(cls, data: Mapping[str, Any]) -> Choices:
        known = {k: v for k, v in data.items() if k in cls.__dataclass_fields__}
        choices = cls(**known)
        choices.who = [str(w) for w in choices.who] + ["real"] * (8 - len(choices.who))
        return choices

    @classmethod
    def from_form(cls, values: FormValues) -> Choices:
        """The form's choices (Team v Team: as many teams as the seats make)."""
        options, n = values.options, len(values.seats)
        size = int(options["format"])
        who = ["bot" if s.bot is not None else values.cards or REAL for s in values.seats]
        return cls(
            edition=options["edition"],
            mode=options["mode"],
            players=n,
            team_size=size,
            teams=max(1, n // size),
            discard_option=int(options["option"]),
            last_man_standing=options["lms"] == "yes",
            who=who + [REAL] * (8 - n),
        )


def make_game(
    ctx: Context,
    choices: Choices,
    seed: int | None = None,
    *,
    seats: Sequence[SeatInfo] | None = None,
    save: GameSave | None = None,
    match: Match[Any, Any, Any] | None = None,
) -> Scene:
    """The table for these choices (a fresh seed from the app's rng unless given).

    ``seats``: who plays (names and student ids for the journal). ``save`` and
    ``match``: a game carried on from the journal (``resume_scene``)."""
    seed = game_seed(ctx, seed)
    seats = list(save.seats if save is not None else seats or []) or None
    names = [s.name for s in seats] if seats else None
    play = MwmPlay(choices.settings(), choices.seat_configs(names), seed=seed, match=match)
    if save is None:
        bots = {i: "bot" for i, seat in enumerate(play.seats) if seat.bot}
        infos = seats or seat_infos([seat.name for seat in play.seats], bots)
        save = GameSave(ctx, "math-wars-meta", infos, {"choices": asdict(choices), "seed": seed})
    else:
        play.carry_on(save.app.get("table"))

    def again() -> Scene:
        return make_game(ctx, choices, seats=seats)

    return MwmTable(ctx, play, save, again=again, resumed=match is not None)


def resume_scene(ctx: Context, save: GameSave, match: Match[Any, Any, Any]) -> Scene:
    """The table again around a match replayed from the journal (issue 10): the setup's
    choices and the seed from ``save.app``, then what the table held beyond the match."""
    choices = Choices.from_record(save.app.get("choices") or {})
    return make_game(ctx, choices, int(save.app["seed"]), save=save, match=match)


def _start(ctx: Context, values: FormValues) -> Scene:
    return make_game(ctx, Choices.from_form(values), seats=values.seats)


def _check(values: FormValues) -> str | None:
    """What keeps these choices from making a game, in a child's words."""
    choices, n = Choices.from_form(values), len(values.seats)
    if choices.mode == "solo" and values.bots:
        return child_message("setup.mwm.solo_bot")
    if choices.mode == "solo" and n != 1:
        return child_message("setup.mwm.solo")
    if choices.mode == "pvp" and n < 2:
        return child_message("setup.mwm.players")
    if choices.mode == "teams":
        fmt = TEAM_FORMATS[choices.team_size]
        counts = [fmt.size * t for t in fmt.teams]
        if n not in counts:
            need = and_joined([str(c) for c in counts], "or")
            return child_message("setup.mwm.team_size", teams=fmt.name, need=need)
    try:
        choices.settings()
    except TabletopError as e:
        return child_message("setup.mwm.no_game", why=e)
    return None


def _mode_is(mode: str) -> Callable[[FormValues], bool]:
    return lambda values: values.options.get("mode") == mode


def _lms_forced(options: Mapping[str, str]) -> str | None:
    return None if options.get("option") == "2" and options.get("mode") == "teams" else "no"


SETUP = FormSpec(
    game="math-wars-meta",
    title="Math Wars Meta",
    subtitle="Turn up your cards, do the math: the highest answer wins the hand.",
    rules=pages(),
    start=_start,
    seats=Seats(1, 8, (CHILD, CHILD) + (EMPTY,) * 6, levels=(("bot", "normal"),), level="bot"),
    cards=Cards(with_bot=None),
    options=(
        OptionRow(
            "mode",
            "Mode",
            (
                Choice("solo", "Solo", "just me"),
                Choice("pvp", "Players", "each alone"),
                Choice("teams", "Teams", "team v team"),
            ),
            "pvp",
        ),
        OptionRow(
            "edition",
            "Edition",
            (Choice("MWM25", "MWM25", "cards 1 to 25"), Choice("MWM100", "MWM100", "1 to 100")),
            "MWM25",
        ),
        OptionRow(
            "format",
            "Teams of",
            tuple(Choice(str(n), f.name, f"{n} each") for n, f in TEAM_FORMATS.items()),
            "2",
            shown=_mode_is("teams"),
        ),
        OptionRow(
            "option",
            "Lost cards",
            (Choice("1", "Option 1", "own spoils"), Choice("2", "Option 2", "winner's spoils")),
            "1",
            shown=lambda values: values.options.get("mode") != "solo",
        ),
        OptionRow(
            "lms",
            "Last man",
            (Choice("no", "Off"), Choice("yes", "On", "last man standing")),
            "no",
            shown=_mode_is("teams"),
            forced=_lms_forced,
            why=child_message("setup.mwm.last_man"),
        ),
    ),
    modes=tuple(  # a mode fills the seats it needs: two children, four, one
        (mode, Preset(seats=(CHILD,) * n, options=(("mode", mode),)))
        for mode, n in (("pvp", 2), ("teams", 4), ("solo", 1))
    ),
    check=_check,
)


class MwmSetup(FormScene):
    """The one setup form, whose Rules are the picked edition's (as the table's are)."""

    def rules(self) -> None:
        self.stack.push(rules_scene(self.ctx, self.options["edition"]))


def setup_scene(ctx: Context) -> FormScene:
    """The game's first screen (Home pushes it): the one setup form."""
    return MwmSetup(ctx, SETUP)


__all__ = ["SETUP", "Choices", "make_game", "pages", "resume_scene", "rules_scene", "setup_scene"]
