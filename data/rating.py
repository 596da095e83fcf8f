"""Rating maths: a multi-player Elo from one hand's placement. Pure functions, no I/O.

RULES.md ("Table play around the hand"): each preset has its own rating, 1,500 to start, the
first 10 games provisional; rated tables settle per completed hand by that hand's points, ties
sharing the place.

The model: a four-player hand is scored as every pair of rated players playing one game against
each other. For a pair (a, b) the expected score of a is 1 / (1 + 10^((Rb - Ra) / 400)) and the
actual score is 1 if a placed above b, 0.5 on a tie, 0 below. A player's change is
K / (n - 1) * sum over opponents of (actual - expected), so a hand moves a rating about as much
as one two-player game would, whatever the table size. K is 40 while the player is provisional
(fewer than 10 games before this hand) and 20 after. With equal K the changes sum to zero;
a provisional player's larger K moves only their own rating, not their opponents'.

Only human players are rated: computer seats are left out of the pairs entirely (they neither
gain nor lose, and beating a computer is worth nothing). A hand with fewer than two humans
changes nothing.

Ratings are kept as floats (the database stores floats, so rounding never accumulates); they
are rounded only for display (`display`).

>>> [round(d, 2) for d in elo_deltas([1500, 1500, 1500, 1500], [10, 10, 10, 10], [8, 0, 0, -8])]
[10.0, 0.0, 0.0, -10.0]
"""

from __future__ import annotations

import math
from collections.abc import Sequence

# RULES.md: rated tables seat four (hubei-laizi's 2- and 3-player tables are casual)
RATED_SEATS = 4
START_RATING = 1500.0
PROVISIONAL_GAMES = 10
K_PROVISIONAL = 40.0
K_ESTABLISHED = 20.0


def is_provisional(games: int) -> bool:
    """True while a player has played fewer than PROVISIONAL_GAMES rated hands."""
    return games < PROVISIONAL_GAMES


def k_factor(games: int) -> float:
    """K for a player who has `games` rated hands behind them (before this hand)."""
    return K_PROVISIONAL if is_provisional(games) else K_ESTABLISHED


def expected_score(rating: float, opponent: float) -> float:
    """The logistic expectation of `rating` against `opponent` (0..1)."""
    return 1.0 / (1.0 + 10.0 ** ((opponent - rating) / 400.0))


def placements(points: Sequence[float]) -> list[int]:
    """1-based places by points, highest first; ties share the place ("1224" ranking).

    >>> placements([8, -8, 0, 0])
    [1, 4, 2, 2]
    """
    return [1 + sum(1 for other in points if other > mine) for mine in points]


def actual_score(points: float, opponent_points: float) -> float:
    """1 for a better place, 0.5 for a shared one, 0 for a worse one."""
    if points > opponent_points:
        return 1.0
    if points < opponent_points:
        return 0.0
    return 0.5


def elo_deltas(
    ratings: Sequence[float], games: Sequence[int], points: Sequence[float]
) -> list[float]:
    """Rating changes for the players of one hand (all rated humans, in any order).

    `ratings` and `games` are each player's values before the hand, `points` their points in
    this hand. Fewer than two players: no change.
    """
    n = len(ratings)
    if not (len(games) == len(points) == n):
        raise ValueError("ratings, games and points must have one entry per player")
    if n < 2:
        return [0.0] * n
    deltas = []
    for i in range(n):
        total = 0.0
        for j in range(n):
            if i != j:
                total += actual_score(points[i], points[j]) - expected_score(ratings[i], ratings[j])
        deltas.append(k_factor(games[i]) / (n - 1) * total)
    return deltas


def display(rating: float) -> int:
    """A rating as players see it: the nearest integer, halves rounded up.

    Not round(): banker's rounding would show 1502.5 as 1502 but 1503.5 as 1504.
    """
    return math.floor(rating + 0.5)
