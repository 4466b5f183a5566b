"""The four card decks as printed faces, built from the engines' own deck data.

A deck printed here is the deck the engine plays with, card for card: the counts come
from ``tabletop.games`` (MWM-1, ATK-1, MECS-1, ARENA-1), never from a second list.
"""

from __future__ import annotations

from collections import Counter

from tabletop.engine.errors import BadInput
from tabletop.games import math_arena, math_attack, math_wars_meta, mecs
from tabletop.printables.pdf import RGB, CardFace

# Colour-blind-safe-ish army colours (Okabe-Ito and friends), army 1..8.
ARMY_COLOURS: dict[int, RGB] = {
    1: (213, 94, 0),  # vermilion
    2: (0, 114, 178),  # blue
    3: (0, 140, 90),  # green
    4: (204, 121, 167),  # pink
    5: (110, 70, 160),  # purple
    6: (230, 159, 0),  # orange
    7: (86, 60, 40),  # brown
    8: (60, 60, 60),  # charcoal
}
ARMY_NAMES = {
    1: "Red",
    2: "Blue",
    3: "Green",
    4: "Pink",
    5: "Purple",
    6: "Orange",
    7: "Brown",
    8: "Grey",
}
BLACK: RGB = (20, 20, 20)
RED: RGB = (200, 30, 40)
GREEN: RGB = (0, 135, 70)
BLUE: RGB = (0, 90, 180)
YELLOW: RGB = (200, 150, 0)
DECK_GAMES = ("math-wars-meta", "math-attack", "mecs", "math-arena")


def deck_faces(game: str, edition: str = "MWM25", army: int = 1) -> list[CardFace]:
    """Every card of one deck, one face per physical card."""
    if game == "math-wars-meta":
        return mwm_faces(edition, army)
    if game == "math-attack":
        return atk_faces()
    if game == "mecs":
        return mecs_faces()
    if game == "math-arena":
        return arena_faces()
    raise BadInput("print.game", f"no deck for {game!r}: decks are {', '.join(DECK_GAMES)}")


def expected_payloads(faces: list[CardFace]) -> Counter[str]:
    return Counter(face.payload for face in faces)


# -- Math Wars Meta ----------------------------------------------------------------------


def mwm_faces(edition: str, army: int) -> list[CardFace]:
    """One army's COUNT META and MATH CRATE cards and its VICTORY! cards (MWM-1)."""
    if edition not in math_wars_meta.EDITIONS:
        raise BadInput("print.edition", f"unknown edition {edition!r}: MWM25 or MWM100")
    if army not in ARMY_COLOURS:
        raise BadInput("print.army", f"army must be 1 to 8, not {army}")
    spec = math_wars_meta.EDITIONS[edition]
    colour, name = ARMY_COLOURS[army], ARMY_NAMES[army]
    faces = [
        CardFace(
            math_wars_meta.count_code((army, n)),
            str(n),
            f"{edition} · {name} army {army}",
            colour,
            subtitle="COUNT META",
        )
        for n in spec.count_numbers
    ]
    for face in spec.crate_cards:
        op, number = face[0], face[1:]
        title = f"{math_wars_meta.OP_WORDS[op]}{number}"
        faces.append(
            CardFace(
                math_wars_meta.crate_code(face, army),
                title,
                f"MATH CRATE · {name} army {army}",
                colour,
                subtitle="MATH CRATE",
            )
        )
    faces += [
        CardFace(
            math_wars_meta.VICTORY_CODE,
            "VICTORY!",
            f"{edition}: win {spec.victory_cards} · {name} army {army}",
            colour,
        )
        for _ in range(spec.victory_cards)
    ]
    return faces


# -- Math Attack! ------------------------------------------------------------------------

ATK_TITLES = {
    "+H": "+|n÷2|",
    "+N": "+|n|",
    "+D": "+|n×2|",
    "-H": "−|n÷2|",
    "-N": "−|n|",
    "-D": "−|n×2|",
    "END": "=",
    "CANCEL": "CANCEL",
    "FLIP": "+/−",
    "BLOCK": "∅",
}


def atk_faces() -> list[CardFace]:
    """The 54-card pack (ATK-1): black adds, red subtracts, green is special."""
    faces = []
    for card in math_attack.CARDS:
        colour = {"black": BLACK, "red": RED, "green": GREEN}[math_attack.colour(card)]
        title = ATK_TITLES.get(card, card.replace("-", "−"))
        for _ in range(math_attack.COPIES[card]):
            faces.append(
                CardFace(
                    math_attack.PAYLOAD_PREFIX + card,
                    title,
                    f"Math Attack! · {math_attack.card_name(card)}",
                    colour,
                )
            )
    return faces


# -- M.E.C.S. --------------------------------------------------------------------------------

MECS_TITLES = {
    "X": "×",
    "DIV": "÷",
    "LP": "(",
    "RP": ")",
    "EQ": "=",
    "FRAC": "—",
    "SQRT": "√",
    "DOT": ".",
    "SQ": "x²",
}
MECS_NAMES = {
    "+": "plus",
    "-": "minus",
    "X": "times",
    "DIV": "divided by",
    "LP": "open bracket",
    "RP": "close bracket",
    "EQ": "equals",
    "FRAC": "fraction bar",
    "SQRT": "square root",
    "DOT": "decimal point",
    "SQ": "squared",
}


def mecs_faces() -> list[CardFace]:
    """The advanced deck's 200 play cards and the 20 objective cards (MECS-1, MECS-7)."""
    faces = []
    for card, copies in mecs.DECKS["advanced"]:
        if card.isdigit():
            colour, caption = RED, f"M.E.C.S. · number {card}"
        elif card in ("FRAC", "SQRT", "DOT", "SQ"):
            colour, caption = GREEN, f"M.E.C.S. · advanced · {MECS_NAMES[card]}"
        else:
            colour, caption = BLUE, f"M.E.C.S. · {MECS_NAMES[card]}"
        title = MECS_TITLES.get(card, card.replace("-", "−"))
        faces += [
            CardFace(mecs.PAYLOAD_PREFIX + card, title, caption, colour) for _ in range(copies)
        ]
    for objective in mecs.OBJECTIVES:
        faces.append(
            CardFace(
                mecs.PAYLOAD_PREFIX + objective.code,
                f"GOAL {objective.number}",
                "M.E.C.S. · objective card",
                YELLOW,
                subtitle=objective.text[0].upper() + objective.text[1:],
            )
        )
    return faces


# -- Math Arena --------------------------------------------------------------------------------

SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
ARENA_OPERATIONS = {"K": "add", "Q": "remainder", "J": "difference"}


def arena_faces() -> list[CardFace]:
    """A 52-card French deck; court cards say their operation and goal (ARENA-1)."""
    faces = []
    for card in (*math_arena.NUMBER_CARDS, *math_arena.OPERATOR_CARDS):
        rank, suit = card[:-1], card[-1]
        colour = RED if suit in math_arena.RED_SUITS else BLACK
        if math_arena.is_operator(card):
            words = ARENA_OPERATIONS[rank]
            caption = f"{math_arena.RANK_NAMES[rank]}: {words} · {math_arena.goal(card)} wins"
        else:
            caption = f"Math Arena · {math_arena.card_name(card)} = {math_arena.pip_value(card)}"
        faces.append(
            CardFace(
                math_arena.PAYLOAD_PREFIX + card, f"{rank}{SUIT_SYMBOLS[suit]}", caption, colour
            )
        )
    return faces
