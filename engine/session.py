"""A table's run of hands: who deals, the prevailing wind, and points carried forward.

Players are numbered 0-3 in seating order for the whole session; within a hand, seat 0 is the
dealer (East), so hand seat s is player (dealer + s) % 4.

>>> session = Session(find_preset("hkos-3-v1"), seed=1)
>>> session.dealer, session.round_wind, session.points
(0, 0, [0, 0, 0, 0])
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from engine.hand import HandState, Outcome, Termination
from engine.presets import Preset, find_preset


@dataclass
class Session:
    preset: Preset
    seed: int
    dealer: int = 0  # the player who deals the current hand
    round_wind: int = 0  # 0-3: East, South, West, North
    dealer_changes: int = 0
    hand_number: int = 0  # hands finished so far
    points: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.points:
            self.points = [self.preset.start_points] * 4

    def hand_seed(self, number: int | None = None) -> int:
        """The seed of hand `number` (default: the next one), derived from the session seed."""
        n = self.hand_number if number is None else number
        return random.Random(f"{self.seed}:hand:{n}").getrandbits(48)

    def new_hand(self) -> HandState:
        return HandState(self.preset, self.hand_seed(), self.round_wind)

    def player_at(self, seat: int) -> int:
        return (self.dealer + seat) % 4

    def seat_of(self, player: int) -> int:
        return (player - self.dealer) % 4

    def finish_hand(self, outcome: Outcome) -> list[int]:
        """Carry the hand's points forward and move the deal; returns deltas per player."""
        by_player = [0] * 4
        for seat, delta in enumerate(outcome.deltas):
            by_player[self.player_at(seat)] += delta
        for player, delta in enumerate(by_player):
            self.points[player] += delta
        dealer_won = 0 in outcome.winners
        keeps = dealer_won or outcome.termination is not Termination.WIN or not outcome.wins
        if not keeps:
            self.dealer = (self.dealer + 1) % 4
            self.dealer_changes += 1
            if self.dealer_changes % 4 == 0:
                self.round_wind = (self.round_wind + 1) % 4
        self.hand_number += 1
        return by_player

    def to_json(self) -> dict[str, object]:
        return {
            "preset": self.preset.id,
            "seed": self.seed,
            "dealer": self.dealer,
            "round_wind": self.round_wind,
            "dealer_changes": self.dealer_changes,
            "hand_number": self.hand_number,
            "points": list(self.points),
        }

    @classmethod
    def from_json(cls, data: dict[str, object]) -> Session:
        return cls(
            preset=find_preset(str(data["preset"])),
            seed=int(data["seed"]),  # type: ignore[call-overload]
            dealer=int(data["dealer"]),  # type: ignore[call-overload]
            round_wind=int(data["round_wind"]),  # type: ignore[call-overload]
            dealer_changes=int(data["dealer_changes"]),  # type: ignore[call-overload]
            hand_number=int(data["hand_number"]),  # type: ignore[call-overload]
            points=[int(p) for p in data["points"]],  # type: ignore[attr-defined]
        )
