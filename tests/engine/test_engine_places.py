"""``places_from_scores``: the one way every engine (and a game stopped by the rotation's
clock) turns scores into places: higher is better, equal scores share a place."""

from __future__ import annotations

import random
from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from tabletop.engine import places_from_scores

exact = st.one_of(st.integers(-50, 50), st.fractions(max_denominator=12))
scores = st.lists(exact, max_size=8)


@given(scores)
def test_engine_places_one_place_each_and_a_first(values: list[Fraction]) -> None:
    places = places_from_scores(values)
    assert len(places) == len(values)
    assert all(1 <= p <= len(values) for p in places)
    assert not values or min(places) == 1


@given(scores)
def test_engine_places_follow_the_scores(values: list[Fraction]) -> None:
    """Higher is better; equal scores, and only they, share a place."""
    places = places_from_scores(values)
    for a, pa in zip(values, places):
        for b, pb in zip(values, places):
            assert (a > b) == (pa < pb)
            assert (a == b) == (pa == pb)


@given(scores)
def test_engine_places_skip_after_a_shared_place(values: list[Fraction]) -> None:
    """Standard competition ranking: a place is 1 + how many scores beat it, so k seats
    sharing a place use up k places (10, 7, 7, 3 -> 1, 2, 2, 4)."""
    places = places_from_scores(values)
    for place in set(places):
        assert places.count(place) + place - 1 <= len(values)
        assert sum(1 for p in places if p < place) == place - 1


@given(st.lists(st.integers(-50, 50), max_size=8), st.randoms())
def test_engine_places_ignore_seat_order(values: list[int], rnd: random.Random) -> None:
    order = list(range(len(values)))
    rnd.shuffle(order)
    places = places_from_scores(values)
    assert places_from_scores([values[i] for i in order]) == tuple(places[i] for i in order)


@given(st.lists(st.integers(-50, 50), max_size=8))
def test_engine_places_exact_ints_and_fractions_agree(values: list[int]) -> None:
    assert places_from_scores([Fraction(v) for v in values]) == places_from_scores(values)


def test_engine_places_fractions_compare_exactly() -> None:
    third = Fraction(1, 3)
    assert places_from_scores([third, Fraction(2, 6), Fraction(333, 1000)]) == (1, 1, 3)


def test_engine_places_atk5_equal_totals_draw() -> None:
    """ATK-5: highest total wins, equal totals draw."""
    assert places_from_scores([12, 12]) == (1, 1)
    assert places_from_scores([-3, 12]) == (2, 1)


def test_engine_places_mecs6_equal_coins_share_a_place() -> None:
    """MECS-6: rank by coins (equal coins share a place)."""
    assert places_from_scores([15, 9, 15, 4]) == (1, 3, 1, 4)


def test_engine_places_arena5_equal_counts_share_the_place() -> None:
    """ARENA-5: most operator cards wins; equal counts share the place (the next seat
    is third, the ``standard`` ranking its tournament points read)."""
    assert places_from_scores([4, 4, 3, 1]) == (1, 1, 3, 4)


def test_engine_places_mm11_tie_breaks_then_the_tie_stands() -> None:
    """MM-11: ties on score go to most circled-but-unused Star Powers, then most claimed
    Bonus Stars, then most unspent coins, then the tie stands: the places of the tuple
    keys (score, unused powers, stars, coins) that ``tie_break_key`` builds."""
    keys = [(40, 2, 1, 3), (40, 2, 1, 5), (40, 3, 0, 0), (40, 2, 1, 5), (41, 0, 0, 0)]
    assert places_from_scores(keys) == (5, 3, 2, 3, 1)


def test_engine_places_mwm7_a_team_takes_one_place() -> None:
    """MWM-7: in Team v Team the sides are placed (a team's seats share its place and
    count once), not the seats: Duos of three teams with 3, 1 and 0 VICTORY! cards."""
    from dataclasses import replace

    from tests.games.test_math_wars_meta_play import GAME, Table, duos

    over = replace(Table(duos(3), 6).state, victories=(3, 1, 0), finished=True)
    result = GAME.result(over)
    assert result is not None
    assert result.places == (1, 1, 2, 2, 3, 3)
    assert result.scores == tuple(Fraction(v) for v in (3, 3, 1, 1, 0, 0))
