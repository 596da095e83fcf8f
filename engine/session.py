"""A table's run of hands: who deals, the prevailing wind, and points carried forward.

Players are numbered 0..seat_count-1 in seating order for the whole session; within a hand, seat
0 is the dealer (East), so hand seat s is player (dealer + s) % seat_count.

>>> session = Session(find_preset("hkos-3-v1"), seed=1)
>>> session.dealer, session.round_wind, session.points, session.seat_count
(0, 0, [0, 0, 0, 0], 4)
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from engine.game import GameEnd, GameProgress, Standing, game_end, standings
from engine.hand import HandState
from engine.hand_setup import HandSetup
from engine.options import from_stored, stored
from engine.outcome import Outcome
from engine.presets import Preset, find_preset
from engine.rotation import next_dealer_seat
from engine.rules import check_seat_count

# the rotation is read from here too (engine.rotation plays every preset's)
__all__ = ["Seating", "Session", "next_dealer_seat"]


@dataclass(frozen=True, slots=True)
class Seating:
    """Who sits where in one hand: hand seat 0 is its dealer, hand seat s is player
    (dealer + s) % seat_count. The one mapping between players and hand seats.

    >>> Seating(dealer=1, seat_count=4).player_at(3), Seating(1, 4).hand_seat(0)
    (0, 3)
    """

    dealer: int
    seat_count: int

    def player_at(self, seat: int) -> int:
        return (self.dealer + seat) % self.seat_count

    def hand_seat(self, player: int) -> int:
        return (player - self.dealer) % self.seat_count


@dataclass
class Session:
    preset: Preset
    seed: int
    dealer: int = 0  # the player who deals the current hand
    round_wind: int = 0  # 0-3: East, South, West, North
    dealer_changes: int = 0
    hand_number: int = 0  # hands finished so far
    points: list[int] = field(default_factory=list)
    seat_count: int = 0  # players at the table (0: the preset's first allowed count)
    over: bool = False  # the preset's game rule ended the game after the last hand
    honba: int = 0  # the repeat count the next hand is dealt with (the game rule's `repeats`)
    pot: int = 0  # points in the pot (stakes no win has taken yet), carried to the next hand
    # why the game ended, known to the session that played its last hand (not stored, nor
    # compared: a restored session that is over says only `over`)
    end: GameEnd | None = field(default=None, compare=False)
    # the pot left when the game ended, given to the leader (`GameRule.pot_to_leader`): (player,
    # points), known as `end` is, for the last result to say and count (not stored)
    pot_to_leader: tuple[int, int] | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        if not self.seat_count:
            self.seat_count = self.preset.seat_counts[0]
        check_seat_count(self.preset, self.seat_count)
        if not self.points:
            self.points = [self.preset.start_points] * self.seat_count
        if self.preset.random_first_dealer and self.hand_number == 0:
            self.dealer = self.first_dealer if self.dealer == 0 else self.dealer

    @property
    def first_dealer(self) -> int:
        """The player who dealt the first hand: seat order's first, except where the preset
        draws them from the session seed (hubei-laizi; the same on a restore)."""
        if not self.preset.random_first_dealer:
            return 0
        return random.Random(f"{self.seed}:first_dealer").randrange(self.seat_count)

    def hand_seed(self, number: int | None = None) -> int:
        """The seed of hand `number` (default: the next one), derived from the session seed."""
        n = self.hand_number if number is None else number
        return random.Random(f"{self.seed}:hand:{n}").getrandbits(48)

    def hand_setup(self) -> HandSetup:
        """The table as the next hand starts: dealer, wind, repeat count, pot and points."""
        seating = self.seating
        points = tuple(self.points[seating.player_at(s)] for s in range(self.seat_count))
        return HandSetup(
            dealer=self.dealer,
            round_wind=self.round_wind,
            honba=self.honba,
            pot=self.pot,
            points=points,
        )

    def new_hand(self) -> HandState:
        return HandState(
            self.preset, self.hand_seed(), self.hand_setup(), seat_count=self.seat_count
        )

    @property
    def seating(self) -> Seating:
        """Who sits where in the hand this session deals now (the next one between hands)."""
        return Seating(self.dealer, self.seat_count)

    def player_at(self, seat: int) -> int:
        return self.seating.player_at(seat)

    def finish_hand(self, outcome: Outcome) -> list[int]:
        """Carry the hand's points forward and move the deal; returns deltas per player."""
        by_player = [0] * self.seat_count
        for seat, delta in enumerate(outcome.deltas):
            by_player[self.player_at(seat)] += delta
        for player, delta in enumerate(by_player):
            self.points[player] += delta
        dealer = self.player_at(next_dealer_seat(self.preset.rotation, outcome))
        kept = dealer == self.dealer
        if not kept:
            self.dealer = dealer
            self.dealer_changes += 1
            # the prevailing wind moves on once every seat has dealt (four changes at four seats)
            if self.dealer_changes % self.seat_count == 0:
                self.round_wind = (self.round_wind + 1) % self.seat_count
        self.hand_number += 1
        rule = self.preset.game
        if rule.repeats is not None:
            self.honba = rule.repeats.next(self.honba, kept, bool(outcome.wins))
        self.pot += outcome.pot  # what the hand paid in less what a winner took out
        self.end = game_end(rule, self._progress(kept))
        self.over = self.end is not None
        if self.over and self.pot and rule.pot_to_leader:
            leader = next(s.player for s in self.standings() if s.place == 1)
            self.points[leader] += self.pot  # in the final points, not in the hand's deltas
            self.pot_to_leader = (leader, self.pot)
            self.pot = 0
        return by_player

    def _progress(self, dealer_kept: bool) -> GameProgress:
        return GameProgress(
            hands=self.hand_number,
            dealer_changes=self.dealer_changes,
            points=tuple(self.points),
            dealer=self.dealer,
            dealer_kept=dealer_kept,
            first_dealer=self.first_dealer,
        )

    def standings(self) -> tuple[Standing, ...]:
        """Every player's place and final score as the points stand (by player): the final
        standings once the game is `over`."""
        return standings(self.preset.game, self.points, self.first_dealer)

    def to_json(self) -> dict[str, object]:
        data: dict[str, object] = {
            **stored(self.preset),  # the table's options, where the preset has any
            "preset": self.preset.id,
            "seed": self.seed,
            "dealer": self.dealer,
            "round_wind": self.round_wind,
            "dealer_changes": self.dealer_changes,
            "hand_number": self.hand_number,
            "points": list(self.points),
            "seat_count": self.seat_count,
        }
        if self.over:
            data["over"] = True
        # stored where a game rule keeps them (a session stored without them reads 0)
        if self.honba:
            data["honba"] = self.honba
        if self.pot:
            data["pot"] = self.pot
        return data

    @classmethod
    def from_json(cls, data: dict[str, object]) -> Session:
        points = [int(p) for p in data["points"]]  # type: ignore[attr-defined]
        return cls(
            # table options ride with the session (in the form stored before them too)
            preset=from_stored(find_preset(str(data["preset"])), data),
            seed=int(data["seed"]),  # type: ignore[call-overload]
            dealer=int(data["dealer"]),  # type: ignore[call-overload]
            round_wind=int(data["round_wind"]),  # type: ignore[call-overload]
            dealer_changes=int(data["dealer_changes"]),  # type: ignore[call-overload]
            hand_number=int(data["hand_number"]),  # type: ignore[call-overload]
            points=points,
            # sessions stored before seat counts were data seated one player per point total
            seat_count=int(data.get("seat_count", len(points))),  # type: ignore[call-overload]
            over=bool(data.get("over", False)),
            honba=int(data.get("honba", 0)),  # type: ignore[call-overload]
            pot=int(data.get("pot", 0)),  # type: ignore[call-overload]
        )
