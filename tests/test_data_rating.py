"""Rating maths (data/rating.py): multi-player Elo from one hand's placement."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from data import rating

ratings_st = st.floats(min_value=100, max_value=3000, allow_nan=False)
games_st = st.integers(min_value=0, max_value=50)
points_st = st.integers(min_value=-400, max_value=400)


def test_placements_share_tied_places() -> None:
    assert rating.placements([8, -8, 0, 0]) == [1, 4, 2, 2]
    assert rating.placements([0, 0, 0, 0]) == [1, 1, 1, 1]
    assert rating.placements([5, 5, -5, -5]) == [1, 1, 3, 3]


def test_equal_players_winner_gains_loser_loses_ties_share() -> None:
    # Established players (K=20), four equal ratings: winner beats 3 (each 1 - 0.5) -> +20*1.5/3.
    d = rating.elo_deltas([1500] * 4, [10] * 4, [32, -32, 0, 0])
    assert d == pytest.approx([10.0, -10.0, 0.0, 0.0])


def test_provisional_players_move_twice_as_far() -> None:
    established = rating.elo_deltas([1500, 1500], [10, 10], [1, -1])
    provisional = rating.elo_deltas([1500, 1500], [9, 9], [1, -1])
    assert established == pytest.approx([10.0, -10.0])
    assert provisional == pytest.approx([20.0, -20.0])
    assert rating.k_factor(9) == 40 and rating.k_factor(10) == 20
    assert rating.is_provisional(9) and not rating.is_provisional(10)


def test_expected_score_logistic() -> None:
    assert rating.expected_score(1500, 1500) == 0.5
    assert rating.expected_score(1900, 1500) == pytest.approx(1 / (1 + 10**-1))
    assert rating.expected_score(1500, 1900) + rating.expected_score(1900, 1500) == 1


def test_hand_value_against_hand_calculation() -> None:
    # A (1600, established) wins, B (1500, provisional) and C (1400, established) tie.
    ra, rb, rc = 1600.0, 1500.0, 1400.0
    d = rating.elo_deltas([ra, rb, rc], [30, 3, 12], [16, -8, -8])

    def e(x: float, y: float) -> float:
        return 1 / (1 + 10 ** ((y - x) / 400))

    assert d[0] == pytest.approx(20 / 2 * ((1 - e(ra, rb)) + (1 - e(ra, rc))))
    assert d[1] == pytest.approx(40 / 2 * ((0 - e(rb, ra)) + (0.5 - e(rb, rc))))
    assert d[2] == pytest.approx(20 / 2 * ((0 - e(rc, ra)) + (0.5 - e(rc, rb))))


def test_fewer_than_two_players_change_nothing() -> None:
    assert rating.elo_deltas([], [], []) == []
    assert rating.elo_deltas([1500], [0], [10]) == [0.0]
    with pytest.raises(ValueError):
        rating.elo_deltas([1500, 1500], [0], [1, 2])


def test_display_rounds_halves_up() -> None:
    assert rating.display(1502.5) == 1503
    assert rating.display(1503.5) == 1504
    assert rating.display(1499.49) == 1499


@given(st.lists(st.tuples(ratings_st, points_st), min_size=2, max_size=4), games_st)
def test_zero_sum_when_everyone_has_the_same_k(players: list[tuple[float, int]], games: int):
    rs = [r for r, _ in players]
    ps = [p for _, p in players]
    d = rating.elo_deltas(rs, [games] * len(rs), ps)
    assert math.fsum(d) == pytest.approx(0.0, abs=1e-9)


@given(st.lists(st.tuples(ratings_st, games_st, points_st), min_size=2, max_size=4))
def test_better_place_never_worse_change_at_equal_rating_and_k(
    players: list[tuple[float, int, int]],
) -> None:
    rs = [1500.0] * len(players)
    gs = [12] * len(players)
    ps = [p for _, _, p in players]
    d = rating.elo_deltas(rs, gs, ps)
    for i in range(len(ps)):
        for j in range(len(ps)):
            if ps[i] > ps[j]:
                assert d[i] > d[j]
            elif ps[i] == ps[j]:
                assert d[i] == pytest.approx(d[j])


@given(st.lists(st.tuples(ratings_st, games_st, points_st), min_size=2, max_size=4))
def test_bounded_by_k_and_first_place_never_loses(players: list[tuple[float, int, int]]) -> None:
    rs = [r for r, _, _ in players]
    gs = [g for _, g, _ in players]
    ps = [p for _, _, p in players]
    d = rating.elo_deltas(rs, gs, ps)
    for i, delta in enumerate(d):
        assert abs(delta) <= rating.k_factor(gs[i])
        if all(ps[i] > ps[j] for j in range(len(ps)) if j != i):
            assert delta > 0
        if all(ps[i] < ps[j] for j in range(len(ps)) if j != i):
            assert delta < 0


@given(st.lists(st.tuples(ratings_st, games_st, points_st), min_size=2, max_size=4))
def test_order_of_players_does_not_matter(players: list[tuple[float, int, int]]) -> None:
    d = rating.elo_deltas(*map(list, zip(*players, strict=True)))
    rev = rating.elo_deltas(*map(list, zip(*reversed(players), strict=True)))
    assert d == pytest.approx(list(reversed(rev)))
