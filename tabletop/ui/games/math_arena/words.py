"""Math Arena's sentences and labels for children (no pygame): cards, goals, values,
the verdict worded from the engine's reveal event, names for the engine's "Seat 2"."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import Any

from tabletop.classroom.mistakes import OP_SKILLS, Question, question
from tabletop.engine.protocol import Event
from tabletop.games.math_arena import (
    OPERATION_WORDS,
    explain,
    goal,
    operator_name,
    pip_value,
    play_value,
)
from tabletop.ui.messages import names_joined

SUIT_SYMBOLS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}
HOW = {
    "K": "King: add the two cards.",
    "Q": "Queen: bigger \u00f7 smaller. The remainder counts.",
    "J": "Jack: the bigger card minus the smaller.",
}


def said_as(operator: str, cards: Sequence[str]) -> str:
    """The engine's ``5 - 2 = 3`` as the screen shows it, with a real minus sign."""
    return explain(operator, cards).replace(" - ", " \u2212 ")


def card_label(card: str) -> str:
    """``10♥``: what a card button says."""
    return card[:-1] + SUIT_SYMBOLS[card[-1]]


def goal_words(operator: str) -> str:
    """``Lowest SUM wins!``: the operator's goal, large."""
    return f"{goal(operator).capitalize()} {OPERATION_WORDS[operator[:-1]].upper()} wins!"


def rule_words(operator: str) -> str:
    """``Red King: the lowest sum wins.``"""
    rule = OPERATION_WORDS[operator[:-1]]
    return f"{cap(operator_name(operator))}: the {goal(operator)} {rule} wins."


def cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def with_names(text: str, names: Sequence[str]) -> str:
    """Engine sentences say "Seat 2" and "seats 1 and 3"; the screen says the names."""

    def one(m: re.Match[str]) -> str:
        seat = int(m.group(1)) - 1
        return names[seat] if 0 <= seat < len(names) else m.group(0)

    def many(m: re.Match[str]) -> str:
        seats = [int(x) - 1 for x in re.findall(r"\d+", m.group(1))]
        if not all(0 <= s < len(names) for s in seats):
            return m.group(0)
        return names_joined([names[s] for s in seats])

    text = re.sub(r"[Ss]eats ((?:\d+(?:, | and ))+\d+)", many, text)
    return re.sub(r"[Ss]eat (\d)", one, text)


def value_question(operator: str, cards: tuple[str, str]) -> Question:
    """The sum a value asks (issue 24), as :func:`explain` says it: the King adds, the
    Queen asks what is left when the smaller goes into the larger, the Jack takes away."""
    a, b = sorted((pip_value(c) for c in cards), reverse=True)
    op = {"K": "+", "Q": "/"}.get(operator[:-1], "-")
    return question(OP_SKILLS[op], [a, b], [op], right=Fraction(play_value(operator, cards)))


def verdict(
    reveal: Mapping[str, Any], won: Event | None, name: Callable[[int], str]
) -> tuple[str, list[int]]:
    """``Red King: the lowest sum wins. Ana has 3, the lowest, and takes the card!`` and
    the round's winners, from the engine's reveal event (and its round-won event)."""
    op, best, top, aim = reveal["operator"], reveal["best"], list(reveal["winners"]), reveal["goal"]
    head = rule_words(op)
    if len(top) == 1:
        taken = len(won.data["cards"]) if won is not None else 1
        cards = "the card" if taken <= 1 else f"{taken} cards (the pot too)"
        return f"{head} {name(top[0])} has {best}, the {aim}, and takes {cards}!", top
    names = names_joined([name(s) for s in top])
    if reveal["tie"] == "leftovers":
        return f"{head} {names} tie with {best}: their leftover cards decide.", []
    pot = f"the {operator_name(op)} goes into the pot for the next round's winner."
    return f"{head} {names} tie with {best}, so nobody takes it: {pot}", []
