"""What a hand knows of its table when it is dealt: one value from the session.

A hand used to receive only the prevailing wind. Rules that read the table (a stake needs the
seat's points, payments need the repeat count and the pot) read this value instead, and the
runtime stores it with the hand (beside its seed) so a replay rebuilds the same hand.

>>> setup = HandSetup(dealer=2, round_wind=1, honba=3, pot=1000, points=(100, 200, 300, 400))
>>> HandSetup.from_json(setup.to_json()) == setup
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class HandSetup:
    """The table as one hand starts: who deals (a player in seating order), the prevailing wind
    (0-3), the repeat count (honba), the points in the pot, and every hand seat's points (hand
    seat 0 is the dealer; empty when the table keeps no points, as in tests)."""

    dealer: int = 0
    round_wind: int = 0
    honba: int = 0
    pot: int = 0
    points: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if not 0 <= self.round_wind <= 3:
            raise ValueError(f"a prevailing wind is 0-3 (East to North), not {self.round_wind}")
        if self.dealer < 0 or self.honba < 0 or self.pot < 0:
            raise ValueError(f"dealer, honba and pot are never negative, got {self}")

    def __reduce__(self) -> tuple[type[HandSetup], tuple[object, ...]]:
        # by its fields, as a seat's view crossing to a decision worker carries it (a slotted
        # dataclass's own way is several times slower)
        return HandSetup, (self.dealer, self.round_wind, self.honba, self.pot, self.points)

    def to_json(self) -> dict[str, object]:
        return {
            "dealer": self.dealer,
            "round_wind": self.round_wind,
            "honba": self.honba,
            "pot": self.pot,
            "points": list(self.points),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> HandSetup:
        """Read a stored setup; a field it lacks keeps its default."""
        unknown = set(data) - {"dealer", "round_wind", "honba", "pot", "points"}
        if unknown:
            raise ValueError(f"a hand setup has no field {', '.join(sorted(unknown))}")
        return cls(
            dealer=int(data.get("dealer", 0)),
            round_wind=int(data.get("round_wind", 0)),
            honba=int(data.get("honba", 0)),
            pot=int(data.get("pot", 0)),
            points=tuple(int(p) for p in data.get("points", ())),
        )
