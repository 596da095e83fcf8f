"""Games that end: a preset's game rule says when a session is over and how it ranks.

A `GameRule` is data: after how many hands or rounds a game ends, a points target it waits for
(extending by some rounds at most), a bust line, the last dealer's stop, how ties are placed and
a final score with uma. The presets without an end (every Chinese-family preset) play hand
after hand with `ENDLESS`, as before.

>>> rule = GameRule(hands=2, ties=Ties.SEAT_ORDER)
>>> game_over(rule, GameProgress(hands=2, dealer_changes=1, points=(5, -5, 0, 0)))
True
>>> [s.place for s in standings(rule, (0, 5, 0, -5), first_dealer=1)]
[3, 1, 2, 4]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum


class Ties(StrEnum):
    """How equal points are placed."""

    SHARED = "shared"  # equal points share the place ("1224")
    SEAT_ORDER = "seat_order"  # the earlier seat from the first dealer places higher (Riichi)


class Rounding(StrEnum):
    """How a final score's points become a score."""

    FIVE_SIX = "five_six"  # whole units: a remainder of `round_from` or more away from zero
    TENTHS = "tenths"  # to one decimal (Mahjong Soul)


@dataclass(frozen=True, slots=True)
class FinalScore:
    """A game's score by placement: (points - `base`) / `per`, rounded, plus `uma` by place;
    with `first_takes_rest` first place takes minus the others' sum (its oka)."""

    base: int = 0
    per: int = 1
    uma: tuple[int, ...] = ()
    rounding: Rounding = Rounding.FIVE_SIX
    round_from: int = 0  # FIVE_SIX: the remainder that rounds away from zero (0: exact)
    first_takes_rest: bool = False

    def __post_init__(self) -> None:
        if self.per <= 0:
            raise ValueError(f"a final score divides by a positive unit, not {self.per}")

    def scores(self, points: Sequence[int], places: Sequence[int]) -> list[float]:
        """Each player's score (by player), from their points and 1-based places.

        >>> tenhou = FinalScore(30000, 1000, (20, 10, -10, -20), round_from=600,
        ...                     first_takes_rest=True)
        >>> tenhou.scores([42600, 28400, 19600, 9400], [1, 2, 3, 4])
        [53.0, 8.0, -20.0, -41.0]
        """
        pairs = zip(points, places, strict=True)
        values = [self._scaled(p) + self._uma(place) for p, place in pairs]
        if self.first_takes_rest:
            firsts = [i for i, place in enumerate(places) if place == 1]
            if len(firsts) == 1:
                first = firsts[0]
                values[first] = -sum(v for i, v in enumerate(values) if i != first)
        return [round(v, 1) + 0.0 for v in values]

    def _uma(self, place: int) -> int:
        return self.uma[place - 1] if place <= len(self.uma) else 0

    def _scaled(self, points: int) -> float:
        over = points - self.base
        if self.rounding is Rounding.TENTHS:
            return round(over / self.per, 1)
        whole, rest = divmod(abs(over), self.per)
        if self.round_from and rest >= self.round_from:
            whole += 1
        elif not self.round_from and rest:
            return over / self.per  # exact: nothing to round
        return float(whole if over >= 0 else -whole)


@dataclass(frozen=True, slots=True)
class RepeatCount:
    """How a table counts repeats (honba) from hand to hand: one more after a hand in which
    the dealer keeps the deal (`after_keep`) or nobody wins (`after_no_win`), back to 0 after
    any other hand (a win that passes the deal on). Riichi's count is the default.

    >>> RepeatCount().next(2, dealer_kept=False, won=False), RepeatCount().next(2, False, True)
    (3, 0)
    """

    after_keep: bool = True
    after_no_win: bool = True

    def next(self, honba: int, dealer_kept: bool, won: bool) -> int:
        """The count the next hand is dealt with."""
        if (dealer_kept and self.after_keep) or (not won and self.after_no_win):
            return honba + 1
        return 0


@dataclass(frozen=True, slots=True)
class GameRule:
    """When a session's game is over and how its players rank (RULES.md "The game")."""

    hands: int = 0  # the game ends after this many hands (0: no count)
    rounds: int = 0  # ... after this many rounds of the deal (0: none; tonpuu 1, hanchan 2)
    target: int = 0  # the rounds end only once someone has this many points (0: no target)
    extension: int = 0  # rounds the game may extend while nobody has the target
    bust_below: int | None = None  # the game ends when someone's points fall below this
    leader_stop: bool = False  # the last dealer keeping the deal as leader, at the target, stops
    ties: Ties = Ties.SHARED
    score: FinalScore | None = None  # None: the game's score is its points
    rates_per_game: bool = False  # ratings settle once per finished game, not per hand
    repeats: RepeatCount | None = None  # the honba count (None: a table that keeps none, 0)
    pot_to_leader: bool = False  # the pot left when the game ends goes to the first placed

    @property
    def ends(self) -> bool:
        """Whether games under this rule end at all."""
        return bool(self.hands or self.rounds or self.bust_below is not None)


ENDLESS = GameRule()  # hand after hand, points carried forward, no final round


@dataclass(frozen=True, slots=True)
class GameProgress:
    """Where a session stands after a hand: what `game_over` reads."""

    hands: int  # hands finished
    dealer_changes: int
    points: tuple[int, ...]  # by player
    dealer: int = 0  # the player who deals next
    dealer_kept: bool = False  # the last hand's dealer keeps the deal
    first_dealer: int = 0

    @property
    def seat_count(self) -> int:
        return len(self.points)


class GameEnd(StrEnum):
    """Why a game ended."""

    BUST = "bust"  # someone's points fell below the bust line
    LENGTH = "length"  # the game's hands or rounds were played (its target reached, if any)
    EXTENSION = "extension"  # in the rounds beyond the length: the target reached, or the last
    LEADER_STOP = "leader_stop"  # the last dealer kept the deal as the leader at the target


def game_over(rule: GameRule, progress: GameProgress) -> bool:
    """Whether the game ends after the hand just finished."""
    return game_end(rule, progress) is not None


def game_end(rule: GameRule, progress: GameProgress) -> GameEnd | None:
    """Why the game ends after the hand just finished; None while it goes on.

    >>> hanchan = GameRule(rounds=2, target=30000, extension=1)
    >>> game_end(hanchan, GameProgress(9, 9, (31000, 29000, 20000, 20000)))
    <GameEnd.EXTENSION: 'extension'>
    """
    if not rule.ends:
        return None
    points = progress.points
    if rule.bust_below is not None and min(points) < rule.bust_below:
        return GameEnd.BUST
    if rule.hands and progress.hands >= rule.hands:
        return GameEnd.LENGTH
    if not rule.rounds:
        return None
    seats = progress.seat_count
    rounds_done = progress.dealer_changes // seats
    reached = max(points) >= rule.target
    if rounds_done >= rule.rounds and (reached or rounds_done >= rule.rounds + rule.extension):
        # the length's last hand passed the deal on to the first hand beyond it; any later hand
        # (a kept deal there included) was played in the extension
        last_of_length = progress.dealer_changes == rule.rounds * seats and not progress.dealer_kept
        return GameEnd.LENGTH if last_of_length else GameEnd.EXTENSION
    on_last_hand = progress.dealer_changes == rule.rounds * seats - 1
    if rule.leader_stop and progress.dealer_kept and on_last_hand and reached:
        first = placements(rule, points, progress.first_dealer).index(1)
        if first == progress.dealer:
            return GameEnd.LEADER_STOP
    return None


def placements(rule: GameRule, points: Sequence[int], first_dealer: int = 0) -> list[int]:
    """1-based places by points, highest first (by player); ties as the rule places them.

    >>> placements(GameRule(), [8, 0, 0, -8])
    [1, 2, 2, 4]
    >>> placements(GameRule(ties=Ties.SEAT_ORDER), [8, 0, 0, -8], first_dealer=2)
    [1, 3, 2, 4]
    """
    n = len(points)
    if rule.ties is Ties.SHARED:
        return [1 + sum(1 for other in points if other > mine) for mine in points]
    order = sorted(range(n), key=lambda p: (-points[p], (p - first_dealer) % n))
    places = [0] * n
    for place, player in enumerate(order, start=1):
        places[player] = place
    return places


@dataclass(frozen=True, slots=True)
class Standing:
    """One player's place at the end of a game."""

    player: int
    points: int
    place: int
    score: float  # the final score (the points where the rule has no final score)


def standings(rule: GameRule, points: Sequence[int], first_dealer: int = 0) -> tuple[Standing, ...]:
    """Every player's final place and score, by player."""
    places = placements(rule, points, first_dealer)
    scores = rule.score.scores(points, places) if rule.score else [float(p) for p in points]
    return tuple(
        Standing(player, p, place, score)
        for player, (p, place, score) in enumerate(zip(points, places, scores, strict=True))
    )
