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

from engine.hand import HandState, Outcome
from engine.hand_setup import HandSetup
from engine.presets import (
    Preset,
    Rotation,
    find_preset,
    min_fan_choices,
    table_options,
    with_min_fan,
    with_options,
)
from engine.rules import check_seat_count
from engine.scoring.base import WinBy


def next_dealer_seat(rotation: Rotation, outcome: Outcome) -> int:
    """The hand seat (0 = this hand's dealer) who deals the next hand (RULES "Who deals next").

    >>> from engine.hand import Termination
    >>> next_dealer_seat(Rotation.WINNER_DEALS, Outcome(Termination.WALL_DRAW, (), (0, 0, 0, 0)))
    0
    """
    wins = outcome.wins
    if rotation is Rotation.WINNER_DEALS:
        if not wins:
            return 0
        first = wins[0]
        if first.by is not WinBy.SELF_DRAW:
            # several winners on one discard (or one robbed kong): the discarder deals
            same_tile = [w for w in wins if w.at == first.at and w.discarder == first.discarder]
            if len(same_tile) > 1:
                assert first.discarder is not None
                return first.discarder
        return first.seat
    dealer_won = any(win.seat == 0 for win in wins)
    keeps = dealer_won or (rotation is Rotation.HONG_KONG and not wins)
    return 0 if keeps else 1


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

    def __post_init__(self) -> None:
        if not self.seat_count:
            self.seat_count = self.preset.seat_counts[0]
        check_seat_count(self.preset, self.seat_count)
        if not self.points:
            self.points = [self.preset.start_points] * self.seat_count
        if self.preset.random_first_dealer and self.hand_number == 0:
            # hubei-laizi: the first dealer drawn from the session seed (the same on a restore)
            first = random.Random(f"{self.seed}:first_dealer").randrange(self.seat_count)
            self.dealer = first if self.dealer == 0 else self.dealer

    def hand_seed(self, number: int | None = None) -> int:
        """The seed of hand `number` (default: the next one), derived from the session seed."""
        n = self.hand_number if number is None else number
        return random.Random(f"{self.seed}:hand:{n}").getrandbits(48)

    def hand_setup(self) -> HandSetup:
        """The table as the next hand starts (the session keeps no repeat count or pot yet)."""
        seating = self.seating
        points = tuple(self.points[seating.player_at(s)] for s in range(self.seat_count))
        return HandSetup(dealer=self.dealer, round_wind=self.round_wind, points=points)

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
        if dealer != self.dealer:
            self.dealer = dealer
            self.dealer_changes += 1
            # the prevailing wind moves on once every seat has dealt (four changes at four seats)
            if self.dealer_changes % self.seat_count == 0:
                self.round_wind = (self.round_wind + 1) % self.seat_count
        self.hand_number += 1
        return by_player

    def to_json(self) -> dict[str, object]:
        table = {"min_fan": self.preset.min_fan} if min_fan_choices(self.preset) else {}
        data: dict[str, object] = {
            **table,
            "preset": self.preset.id,
            "seed": self.seed,
            "dealer": self.dealer,
            "round_wind": self.round_wind,
            "dealer_changes": self.dealer_changes,
            "hand_number": self.hand_number,
            "points": list(self.points),
            "seat_count": self.seat_count,
        }
        if table_options(self.preset):  # hubei-laizi's green_white, no_minimum
            data["table_options"] = list(table_options(self.preset))
        return data

    @classmethod
    def from_json(cls, data: dict[str, object]) -> Session:
        points = [int(p) for p in data["points"]]  # type: ignore[attr-defined]
        return cls(
            # table options ride with the session (hk-fw2's minimum, hubei-laizi's options)
            preset=with_min_fan(
                with_options(
                    find_preset(str(data["preset"])),
                    [str(o) for o in data.get("table_options", ())],  # type: ignore[attr-defined]
                ),
                data.get("min_fan"),  # type: ignore[arg-type]
            ),
            seed=int(data["seed"]),  # type: ignore[call-overload]
            dealer=int(data["dealer"]),  # type: ignore[call-overload]
            round_wind=int(data["round_wind"]),  # type: ignore[call-overload]
            dealer_changes=int(data["dealer_changes"]),  # type: ignore[call-overload]
            hand_number=int(data["hand_number"]),  # type: ignore[call-overload]
            points=points,
            # sessions stored before seat counts were data seated one player per point total
            seat_count=int(data.get("seat_count", len(points))),  # type: ignore[call-overload]
        )
