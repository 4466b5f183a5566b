"""The bubble game's pure model (RULINGS MECS-8): sticking, popping, exact answers,
reachable targets, the clock, undo."""

from __future__ import annotations

import random
import subprocess
import sys
from fractions import Fraction

import pytest

from tabletop.engine.errors import IllegalMove
from tabletop.games.bubbles import (
    DT,
    HEIGHT,
    RADIUS,
    WIDTH,
    Bubble,
    BubbleGame,
    BubbleSettings,
    Retargeted,
    Stuck,
    any_move,
    best_move,
    calculate,
    replay,
)


def field(*bubbles: Bubble, target: int = 7, seconds: float = 60.0) -> BubbleGame:
    """A game with exactly these bubbles (refills come from a seeded rng)."""
    game = BubbleGame(BubbleSettings(seconds=seconds), random.Random(3))
    game.bubbles = {b.id: b for b in bubbles}
    game._next_id = max(b.id for b in bubbles) + 1
    game.target = target
    return game


def stuck_pair(game: BubbleGame, number: int, operator: int) -> None:
    game.bubbles[number].partner = operator
    game.bubbles[operator].partner = number


def test_bubbles_blue_touching_red_sticks_and_both_stop_mecs8() -> None:
    red = Bubble(1, "number", 3, 300, 300, 60, 0)
    blue = Bubble(2, "operator", "+", 300 + 2 * RADIUS + 1, 300, -60, 0)
    game = field(red, blue)
    events = game.step()
    assert [(e.n, e.op) for e in events if isinstance(e, Stuck)] == [(3, "+")]
    assert red.partner == 2 and blue.partner == 1
    assert (red.vx, red.vy, blue.vx, blue.vy) == (0, 0, 0, 0)
    x = (red.x, blue.x)
    game.step()
    assert (red.x, blue.x) == x  # stopped


def test_bubbles_a_pair_that_makes_the_target_impossible_brings_a_new_one() -> None:
    game = field(
        Bubble(1, "number", 3, 300, 300, 60, 0),
        Bubble(2, "operator", "+", 300 + 2 * RADIUS + 1, 300, -60, 0),
        Bubble(3, "number", 4, 700, 300),
        target=12,  # 3 + 4 cannot be 12
    )
    events = game.step()
    assert [(e.old, e.new) for e in events if isinstance(e, Retargeted)] == [(12, 7)]
    assert game.target == 7
    assert "cannot" not in events[-1].reason and "12" in events[-1].reason


def test_bubbles_two_reds_bounce_instead_of_sticking() -> None:
    a = Bubble(1, "number", 3, 300, 300, 60, 0)
    b = Bubble(2, "number", 4, 300 + 2 * RADIUS + 1, 300, -60, 0)
    game = field(a, b)
    assert game.step() == []
    assert a.partner is None and b.partner is None
    assert a.vx < 0 < b.vx  # they swapped their speeds along the line


def test_bubbles_a_red_bounces_off_a_pair_without_joining_it() -> None:
    n = Bubble(1, "number", 3, 300, 300)
    op = Bubble(2, "operator", "x", 300 + 2 * RADIUS, 300)
    free = Bubble(3, "number", 5, 300, 300 + 2 * RADIUS + 1, 0, -60)
    game = field(n, op, free)
    stuck_pair(game, 1, 2)
    game.step()
    assert free.partner is None and free.vy > 0
    assert (n.x, n.y) == (300, 300)


def test_bubbles_stay_inside_the_field() -> None:
    game = BubbleGame.new(BubbleSettings(speed=(400, 600)), rng=random.Random(5))
    for _ in range(600):
        game.step()
        for b in game.bubbles.values():
            assert RADIUS - 1e-9 <= b.x <= WIDTH - RADIUS + 1e-9
            assert RADIUS - 1e-9 <= b.y <= HEIGHT - RADIUS + 1e-9


def test_bubbles_bubble_at_is_the_nearest_within_reach_held_or_not() -> None:
    """A finger's bubble: the nearest one whose edge (plus the slack) it is inside; the
    held one only when ``held`` (a drag's release looks under it)."""
    game = field(
        Bubble(1, "number", 3, 300, 300),
        Bubble(2, "number", 4, 300 + RADIUS * 1.5, 300),
        Bubble(3, "operator", "+", 700, 300),
    )
    assert game.bubble_at(300 + RADIUS * 0.7, 300).id == 1  # nearer 1 than 2
    assert game.bubble_at(300 + RADIUS * 0.8, 300).id == 2
    assert game.bubble_at(700 + RADIUS * 1.1, 300) is None
    assert game.bubble_at(700 + RADIUS * 1.1, 300, slack=RADIUS * 0.2).id == 3
    game.pick(1)
    assert game.bubble_at(300, 300).id == 1
    assert game.bubble_at(300, 300, RADIUS * 0.6, held=False).id == 2  # 2 within reach
    assert game.bubble_at(300 - RADIUS, 300, held=False) is None


def test_bubbles_drop_on_a_pair_pops_three_and_scores_the_target_mecs8() -> None:
    game = field(
        Bubble(1, "number", 3, 200, 200),
        Bubble(2, "operator", "+", 296, 200),
        Bubble(3, "number", 4, 600, 400),
    )
    stuck_pair(game, 1, 2)
    popped = game.play(3, 2)
    assert (popped.n, popped.op, popped.m, popped.answer) == (3, "+", 4, 7)
    assert popped.hit and game.score == 1
    assert not {1, 2, 3} & set(game.bubbles)
    assert popped.equation == "3 + 4 = 7"
    # a new target, different from the old one and makeable by the new field
    assert game.target != 7
    assert Fraction(game.target) in game.possible_answers()
    kinds = [b.kind for b in game.bubbles.values()]
    assert kinds.count("number") == 7 and kinds.count("operator") == 4


def test_bubbles_the_pair_is_n_op_m_in_that_order() -> None:
    game = field(
        Bubble(1, "number", 2, 200, 200),
        Bubble(2, "operator", "-", 296, 200),
        Bubble(3, "number", 9, 600, 400),
        target=5,
    )
    stuck_pair(game, 1, 2)
    popped = game.play(3, 1)  # dropped on the pair's number: the same pair
    assert popped.answer == -7 and popped.answer_text == "\u22127" and not popped.hit


def test_bubbles_division_is_exact_and_a_remainder_never_hits() -> None:
    assert calculate(7, "/", 2) == Fraction(7, 2)
    game = field(
        Bubble(1, "number", 7, 200, 200),
        Bubble(2, "operator", "/", 296, 200),
        Bubble(3, "number", 2, 600, 400),
        target=3,
    )
    stuck_pair(game, 1, 2)
    popped = game.play(3, 2)
    assert popped.answer_text == "7/2" and not popped.hit and game.score == 0
    assert "remainder" in popped.reason and "not a whole number" in popped.reason


def test_bubbles_division_by_zero_is_refused_and_nothing_pops() -> None:
    game = field(
        Bubble(1, "number", 6, 200, 200),
        Bubble(2, "operator", "/", 296, 200),
        Bubble(3, "number", 0, 600, 400),
    )
    stuck_pair(game, 1, 2)
    with pytest.raises(IllegalMove) as e:
        game.play(3, 2)
    assert e.value.code == "bubbles.divide_by_zero"
    assert set(game.bubbles) == {1, 2, 3} and game.held is None


@pytest.mark.parametrize(
    ("pick", "onto", "code"),
    [(2, 1, "bubbles.pick_operator"), (1, 3, "bubbles.pick_pair"), (3, 4, "bubbles.not_a_pair")],
)
def test_bubbles_illegal_moves_name_the_rule(pick: int, onto: int, code: str) -> None:
    game = field(
        Bubble(1, "number", 6, 200, 200),
        Bubble(2, "operator", "+", 296, 200),
        Bubble(3, "number", 1, 600, 400),
        Bubble(4, "number", 2, 800, 400),
    )
    stuck_pair(game, 1, 2)
    with pytest.raises(IllegalMove) as e:
        game.play(pick, onto)
    assert e.value.code == code
    assert game.score == 0 and len(game.bubbles) == 4


def test_bubbles_round_ends_after_its_seconds_and_refuses_moves() -> None:
    game = BubbleGame.new(BubbleSettings(seconds=10), rng=random.Random(1))
    while not game.over:
        game.step()
    assert game.steps == round(10 / DT) and game.time_left == 0
    assert game.step() == []
    number = game.free_numbers()[0].id
    with pytest.raises(IllegalMove) as e:
        game.pick(number)
    assert e.value.code == "bubbles.time_up"


def test_bubbles_undo_restores_the_field_score_and_target() -> None:
    game = BubbleGame.new(rng=random.Random(11))
    while best_move(game) is None:
        game.step()
    before = ({k: (b.value, b.x, b.y) for k, b in game.bubbles.items()}, game.target)
    game.play(*best_move(game))
    assert game.score == 1
    undone = game.undo()
    assert undone.hit and game.score == 0 and game.pops == []
    assert ({k: (b.value, b.x, b.y) for k, b in game.bubbles.items()}, game.target) == before
    with pytest.raises(IllegalMove):
        game.undo()
    for _ in range(40):
        game.step()
    again = replay(game.settings, random.Random(11), game.actions, game.steps)
    assert [a.kind for a in game.actions] == ["pick", "drop", "undo"]
    assert again.score == 0 and again.target == game.target
    assert {k: (b.x, b.y) for k, b in again.bubbles.items()} == {
        k: (b.x, b.y) for k, b in game.bubbles.items()
    }


@pytest.mark.parametrize("seed", range(12))
def test_bubbles_every_target_is_reachable_and_play_is_deterministic(seed: int) -> None:
    def run() -> tuple[int, list[str]]:
        nonlocal game
        game = BubbleGame.new(BubbleSettings(seconds=30), rng=random.Random(seed))
        while not game.over:
            whole = [a for a in game.possible_answers() if a.denominator == 1]
            assert game.reachable or not whole
            assert game.target in range(-100, 101)
            game.step()
            if game.steps % 10 == 0 and not game.over:
                move = best_move(game) or (any_move(game) if game.steps % 90 == 0 else None)
                if move is not None:
                    game.play(*move)
        return game.score, [p.equation for p in game.pops]

    game: BubbleGame | None = None
    first = run()
    assert first == run()
    assert first[0] >= 1
    assert game is not None
    again = replay(BubbleSettings(seconds=30), random.Random(seed), game.actions, game.steps)
    assert (again.score, [p.equation for p in again.pops]) == first


def test_bubbles_model_imports_only_the_standard_library() -> None:
    code = (
        "import sys, tabletop.games.bubbles; "
        "print(sorted(m for m in ('pygame', 'cv2', 'gpiozero', 'numpy') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_bubbles_settings_refuse_nonsense() -> None:
    with pytest.raises(ValueError):
        BubbleSettings(seconds=0)
    with pytest.raises(ValueError):
        BubbleSettings(ops=("^",))
