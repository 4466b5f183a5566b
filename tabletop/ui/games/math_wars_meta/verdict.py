"""Math Wars Meta's rulings in a child's words: the sentence for each engine event, the
:class:`Verdict` of a settled stage, the questions a stage asks (for the skills report)
and the results screen's lines."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import TYPE_CHECKING

from tabletop.classroom.mistakes import OP_SKILLS, Question
from tabletop.engine.protocol import Event
from tabletop.engine.words import and_joined, plural
from tabletop.games.math_wars_meta import (
    Action,
    CountDrawn,
    CrateDrawn,
    EnterSolution,
    MathWarsMetaState,
    RoundRecord,
    Splash,
    Stage,
    answer,
    correct_entry,
    crate_label,
    hand_result,
    pending_card,
    problem_text,
    team_parts,
    war_face_down,
)
from tabletop.ui.messages import CHILD_MESSAGES, child_message, seats_named

if TYPE_CHECKING:
    from tabletop.ui.games.math_wars_meta.play import MwmPlay


@dataclass
class Verdict:
    """A settled stage for the screen: each seat's cards, answer and entry, and the
    sentences of what the device decided (with the reason)."""

    stage: Stage
    entries: dict[int, EnterSolution]
    answers: dict[int, EnterSolution]
    lines: list[str]
    summary: list[str] = field(default_factory=list)
    highest: int | None = None
    lost: dict[int, int] = field(default_factory=dict)
    difference: dict[int, int] = field(default_factory=dict)
    war: bool = False
    round: int = 1
    hand: int = 1
    round_over: bool = False
    decks: dict[int, int] | None = None  # a round's end: the draw piles left, but the out


def signed(value: int) -> str:
    """A number with a real minus sign: ``−3``."""
    return f"\u2212{-value}" if value < 0 else str(value)


def card_words(action: CountDrawn | CrateDrawn) -> str:
    """The card drawn: ``MATH CRATE ×3``, ``COUNT META 17``."""
    if isinstance(action, CrateDrawn):
        return f"MATH CRATE {crate_label(action.crate)}"
    return f"COUNT META {action.card[1]}"


def card_sentence(code: str, name: str, action: CountDrawn | CrateDrawn) -> str:
    """Why a child's card was refused (the engine's ``code``)."""
    sentence = "mwm.ui.played" if code == "mwm.not_in_pile" else "mwm.ui.unusable"
    return child_message(sentence, {"name": name, "card": card_words(action)})


def taken_back(play: MwmPlay, action: Action) -> str:
    """The teacher's undo took back ``action`` (a child's card or answer, or a splash):
    that, and the step to do again."""
    if isinstance(action, Splash):
        what = "the splash"
    elif isinstance(action, EnterSolution):
        what = f"{play.name(action.seat)}'s answer {signed(action.solution)}"
    else:
        what = f"{play.name(action.seat)}'s {card_words(action)}"
    return f"Taken back: {what}. {play.next_step()}".strip()


def seat_list(play: MwmPlay, seats: Sequence[int]) -> str:
    return and_joined([play.name(s) for s in seats])


# the engine's events that say their own sentence, the seats named (the others' are in
# the sentence table, ``[mwm]``)
NAMED = frozenset(
    {"mwm.spoils_reshuffle", "mwm.crate_reshuffle", "mwm.short_for_war"}
    | {"mwm.no_cards_for_war", "mwm.no_winner", "mwm.splash"}
)


def say(play: MwmPlay, event: Event) -> str | None:
    """The sentence a child reads for an engine event (None: not worth showing)."""
    d, seat, code = event.data, event.seat, event.code
    device = code.replace("mwm.", "mwm.said.virtual_")  # what the device did instead
    device = device if device in CHILD_MESSAGES and virtual(play) else ""
    if code == "mwm.solo_redraw":
        text = event.text.replace("only the", "only the COUNT META card")
        return text.replace("Both cards go: draw again!", child_message(device)) if device else text
    if code in NAMED and not device:
        return seats_named(event.text, [play.name(s) for s in range(len(play.seats))])
    if code == "mwm.game_won" and play.solo:
        return child_message("mwm.said.solo_won")
    if not (device or code in CHILD_MESSAGES) or (code == "mwm.round_start" and d["round"] <= 1):
        return None
    code = device or code
    facts = {**d, "name": play.name(seat) if seat is not None else ""}
    facts |= {k: play.side_name(d[k]) for k in ("team", "winner") if d.get(k) is not None}
    if "seats" in d:
        facts["seats"] = seat_list(play, d["seats"])
    if "highest" in d:
        facts["highest"] = signed(d["highest"])
    if "level" in d:
        facts["down"] = war_face_down(d["level"])
    if "cards" in d:
        facts["more"] = d["cards"] - 1
    if "to" in d:
        total = d["battle"] + d["difference"]
        to = "their own" if d["to"] == seat else f"{play.name(d['to'])}'s"
        facts |= {"total": total, "s": "s" * (total != 1), "to": to}
    return child_message(code, facts)


def reason(count: int, crate: str | None) -> str:
    """Why a result is what it is, for a child: ``21 − 5 = 16`` or the remainder rule."""
    if crate is None:
        return f"{count}: no MATH CRATE card, so the COUNT META card counts"
    value = answer(count, crate)
    problem = problem_text(count, crate)
    if value is None:
        return f"{problem} leaves a remainder, so only the COUNT META card counts: {count}"
    return f"{problem} = {signed(value)}"


def last_verdict(play: MwmPlay) -> Verdict | None:
    """The verdict of the stage the last actions settled (an answer, then only the
    device's payments; or a splash), rebuilt from the match; None otherwise."""
    steps = play.match.steps
    last = len(steps) - 1
    while last >= 0 and not play.real(last):
        need = pending_card(play.state_before(last))
        if need is None or need[1] != "pay":
            break
        last -= 1
    if last < 0:
        return None
    action, before, after = steps[last].action, play.state_before(last), steps[last].state
    where = (before.round, before.hands + 1)
    if isinstance(action, Splash):
        said = [line for line in (say(play, e) for e in steps[last].events) if line]
        return Verdict(Stage(), {}, {}, said, round=where[0], hand=where[1], round_over=True)
    if not isinstance(action, EnterSolution) or not (after.finished or after.phase != "solve"):
        return None
    stage = replace(before.stage, entered=(*before.stage.entered, action.seat))
    verdict = Verdict(stage, {}, {}, [], round=where[0], hand=where[1])
    for i in range(last - len(before.stage.entered), last + 1):  # this stage's answers
        given = steps[i].action
        assert isinstance(given, EnterSolution)
        verdict.entries[given.seat] = given
        verdict.answers[given.seat] = correct_entry(play.state_before(i), given.seat)
    lines = verdict.lines
    events = [e for step in steps[last:] for e in step.events]
    for seat in stage.revealed:
        up, entry, right = stage.up[seat], verdict.entries.get(seat), verdict.answers.get(seat)
        if up is None:
            continue
        mark = ""
        if entry is not None and right is not None:
            ok = entry.solution == right.solution
            mark = " Right!" if ok else f" (you typed {signed(entry.solution)}, not quite)"
            team, typed = right.team_solution, entry.team_solution
            if team is not None and typed is not None and typed != team:
                mark += f" TEAM SOLUTION {signed(team)} (you typed {signed(typed)}, not quite)."
        lines.append(f"{play.name(seat)}: {reason(up[1], stage.crates[seat])}.{mark}")
    lines += [text for text in (say(play, event) for event in events) if text]
    for event in events:
        d = event.data
        if event.code == "mwm.hand_won":
            verdict.highest = d["highest"]
        elif event.code == "mwm.math_war":
            verdict.war, verdict.highest = True, d["tied"]
        elif event.code == "mwm.lost_hand" and event.seat is not None:
            verdict.lost[event.seat] = d["battle"] + d["difference"]
            verdict.difference[event.seat] = d["difference"]
    codes = {event.code for event in events}
    battle = play.solo and "mwm.solo_discard" not in codes
    if battle:  # its sentence says why, so Solo's message box starts there
        lines.append(_solo_battle(verdict, virtual(play)))
    solo = lines[-1:] if battle else lines[-2:]
    if play.solo and play.state.rounds and "mwm.round_won" in codes:
        solo = [*solo[-1:], solo_round_text(play.state.rounds[-1])]
        lines.append(solo[-1])
    verdict.summary = solo if play.solo else _summary(play, verdict, events)
    verdict.round_over = bool(codes & {"mwm.round_won", "mwm.round_void"})
    if verdict.round_over:
        end = len(steps) - 1
        was, act = play.state_before(end), steps[end].action  # before the new decks
        gone = {event.seat for event in events if event.code == "mwm.knocked_out"}
        verdict.decks = {
            seat: len(zone.draw) - (isinstance(act, CountDrawn) and act.seat == seat)
            for seat, zone in enumerate(was.zones)
            if not zone.out and seat not in gone
        }
    return verdict


def _solo_battle(verdict: Verdict, virtual: bool) -> str:
    """MWM-8: only the battle card goes on the spoils pile: why (a wrong answer, the right
    one with the sum beside it; a result below 1), and what to do (``virtual``: what the
    device did)."""
    entry, right = verdict.entries[0].solution, verdict.answers[0].solution
    key = f"mwm.said.{'virtual_' * virtual}solo_{'battle' if entry == right else 'wrong'}"
    return child_message(key, typed=signed(entry), right=signed(right))


def virtual(play: MwmPlay) -> bool:
    """The device deals and moves every seat's cards (virtual cards, bots)."""
    return all(seat.auto_cards for seat in play.seats)


SUMMARY_CODES = (
    "mwm.team_solution",
    "mwm.hand_won",
    "mwm.math_war",
    "mwm.collect_war",
    "mwm.collector",
    "mwm.no_winner",
    "mwm.round_won",
    "mwm.round_void",
    "mwm.game_won",
)


def _summary(play: MwmPlay, verdict: Verdict, events: Sequence[Event]) -> list[str]:
    """The few sentences for the message box: remainder rulings (their reason is not on
    the cards), each wrong answer with the right one, the hand's winner or war, who is
    out (before the round's winner), the round and the game."""
    out: list[str] = []
    stage = verdict.stage
    cut = []  # (seat, count, crate) of each division that leaves a remainder
    for seat in stage.revealed:
        up, crate = stage.up[seat], stage.crates[seat]
        if up is not None and crate is not None and answer(up[1], crate) is None:
            cut.append((seat, up[1], crate))
    if len(cut) == 1:
        seat, count, crate = cut[0]
        facts = {"name": play.name(seat), "problem": problem_text(count, crate)}
        out.append(child_message("mwm.said.remainder", facts, count=count))
    elif cut:  # one sentence for them all, so the hand's winner still fits the box
        names = seat_list(play, [seat for seat, _, _ in cut])
        out.append(child_message("mwm.said.remainders", names=names))
    wrong = []  # a sentence for each wrong answer, with the right one
    for seat, entry in sorted(verdict.entries.items()):
        right = verdict.answers[seat]
        for key, typed, value in (
            ("wrong", entry.solution, right.solution),
            ("wrong_team", entry.team_solution, right.team_solution),
        ):
            if typed is not None and value is not None and typed != value:
                facts = {"name": play.name(seat), "typed": signed(typed), "right": signed(value)}
                wrong.append(child_message(f"mwm.said.{key}", facts))
    if len(wrong) <= 2:
        out += wrong
    else:  # one short sentence for them all, so the hand's winner still fits the box
        out.append(child_message("mwm.said.wrongs", count=len(wrong)))
    knocked = [e.seat for e in events if e.code == "mwm.knocked_out" and e.seat is not None]
    for event in events:
        if event.code == "mwm.round_won" and knocked:
            out.append(_out(play, knocked, "", event))
            knocked = []
        text = say(play, event) if event.code in SUMMARY_CODES else None
        if text:
            out.append(text)
    if knocked:
        out.append(_out(play, knocked, "_round"))
    return out


def _out(play: MwmPlay, knocked: Sequence[int], end: str, won: Event | None = None) -> str:
    """Who is out (``end`` "_round": of this round); "everybody else", not five names in
    two pages, where several go as ``won``'s side is the last standing (MWM-6)."""
    side, d = play.settings.side_of, won.data if won else {}
    others = d.get("how") == "last_standing" and d["winner"] not in map(side, knocked)
    if others and len(knocked) > 1:
        return child_message("mwm.said.others_out")
    out = "mwm.said.out" if len(knocked) == 1 else "mwm.said.all_out"
    return child_message(out + end, names=seat_list(play, knocked))


def _solo_figures(record: RoundRecord) -> tuple[int, int, str]:
    """A solo round's right answers, all answers and time taken ("" when not known)."""
    tally, ms = record.tallies[0], record.milliseconds
    seconds = None if ms is None else round(ms / 1000)
    time = "" if seconds is None else f"{seconds // 60} min {seconds % 60} s"
    return tally.right, tally.right + tally.wrong, time


def solo_round_text(record: RoundRecord) -> str:
    """MWM-8's record of a solo round: accuracy, and time from first to last answer."""
    right, total, time = _solo_figures(record)
    facts = {"round": record.number, "right": right, "total": total, "time": time}
    return child_message("mwm.said.solo_round_timed" if time else "mwm.said.solo_round", facts)


def questions_for(state: MathWarsMetaState, seat: int) -> tuple[Question | None, Question | None]:
    """The sums ``seat`` is asked in the solve stage of ``state``: YOUR SOLUTION (the
    COUNT META card with the MATH CRATE card, MWM-2's right answer: a division with a
    remainder leaves the count alone; None with no MATH CRATE card) and the TEAM
    SOLUTION (the sum of the teammates' results; None when not asked). With no MATH
    CRATE card left the child still types a solution the device checks, the COUNT META
    card alone (MWM-2): a question of one number, skill "count"."""
    stage = state.stage
    up, crate = stage.up[seat], stage.crates[seat]
    own = team = None
    if up is not None:
        right = Fraction(hand_result(up[1], crate))
        if crate is None:
            own = Question("count", (Fraction(up[1]),), (), right=right)
        else:
            numbers = (Fraction(up[1]), Fraction(int(crate[1:])))
            own = Question(OP_SKILLS[crate[0]], numbers, (crate[0],), right=right)
    team_solution = correct_entry(state, seat).team_solution
    parts = [Fraction(part) for part in team_parts(state, seat)]
    if team_solution is not None and len(parts) >= 2:
        signs = ("+",) * (len(parts) - 1)
        team = Question("addition", tuple(parts), signs, Fraction(team_solution))
    return own, team


HOW = {"last_hand": "last hand", "no_winner": "nobody left", "splash": "splash"}


def round_line(play: MwmPlay, record: RoundRecord) -> str:
    """A round on the results screen: who won it in how many hands (and how, when not
    as the last one left); in Solo the accuracy and time of MWM-8."""
    hands = plural(record.hands, "hand")
    if not play.solo:
        who = "no winner" if record.winner is None else play.side_name(record.winner)
        how = f", {HOW[record.how]}" if record.how in HOW else ""
        return f"Round {record.number}: {who}, {hands}{how}"
    right, total, time = _solo_figures(record)
    text = f"Round {record.number}: {hands}"
    if total:
        text += f", {right} of {total} right ({round(100 * right / total)}%)"
    return text + (f", {time}" if time else "")


def results_lines(play: MwmPlay) -> list[str]:
    """The results screen's lines: every round, and in Solo the whole game's accuracy."""
    out = [round_line(play, record) for record in play.state.rounds]
    tally = play.state.tallies[0]
    total = tally.right + tally.wrong
    if play.solo and total:
        out.append(child_message("mwm.said.solo_game", right=tally.right, total=total))
    return out


__all__ = [
    "Verdict",
    "card_sentence",
    "last_verdict",
    "questions_for",
    "results_lines",
    "say",
    "signed",
]
