"""The values scoring takes and gives, shared by every family module."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING

from engine.i18n import Text, has, worded
from engine.tiles import Meld, Tile

if TYPE_CHECKING:
    from engine.preset import Preset

FLAGS = frozenset(
    {"kong_replacement", "flower_replacement", "last_tile", "heavenly", "earthly", "last_draw"}
)


class WinBy(StrEnum):
    DISCARD = "discard"
    SELF_DRAW = "self_draw"
    ROBBING_KONG = "robbing_kong"


@dataclass(frozen=True, slots=True)
class SeatFacts:
    """What a win's scoring needs about another seat (hubei-laizi: loser fan and liability;
    chinese-classical: every loser's hand as it stands, scored too)."""

    seat: int
    melds: tuple[Meld, ...] = ()
    special_kongs: tuple[Tile, ...] = ()  # tiles set down as fixed kongs (red, green, wild)
    ready: bool | None = None  # one tile from a win (asked only where liability reads it)
    concealed: tuple[Tile, ...] = ()  # its concealed tiles (given only where scoring reads them)
    bonus: tuple[Tile, ...] = ()  # its flowers and seasons (likewise)


@dataclass(frozen=True, slots=True)
class WinContext:
    """A winning hand and the circumstances of the win.

    `concealed` holds the concealed tiles including the winning tile; `seat` and `round_wind`
    are 0-3 (East, South, West, North); `flags` is a subset of FLAGS.
    """

    concealed: tuple[Tile, ...]
    win_tile: Tile
    melds: tuple[Meld, ...] = ()
    bonus: tuple[Tile, ...] = ()
    by: WinBy = WinBy.DISCARD
    seat: int = 0
    round_wind: int = 0
    flags: frozenset[str] = frozenset()
    void_suit: str | None = None  # Sichuan: the declared missing suit (m, p or s)
    # hk-fw2 insurance: tiles left in the wall when the winning discard came, and the copies of
    # that tile visible before it was discarded (None: not known, no last-five penalty)
    wall_left: int | None = None
    seen: int | None = None
    # hubei-laizi: the hand's wild, the winner's fixed kongs, the seat that discarded (or was
    # robbed), the players at the table and the other seats' facts
    wild: Tile | None = None
    special_kongs: tuple[Tile, ...] = ()
    discarder: int | None = None
    players: int = 4
    others: tuple[SeatFacts, ...] = ()
    # Riichi: the dora and ura indicators turned, and the circumstances a rule part reports
    # beside `flags` (riichi, double_riichi, ippatsu, chiihou)
    dora: tuple[Tile, ...] = ()
    ura: tuple[Tile, ...] = ()
    rule_flags: frozenset[str] = frozenset()
    nuki: int = 0  # sanma: the winner's norths set aside (each one dora)
    # chinese-classical: the dealer's consecutive hands kept, this one included (east_nine)
    streak: int = 1


@dataclass(frozen=True, slots=True)
class Pattern:
    id: str
    fan: int
    limit: bool = False  # a limit hand of its own (a yakuman): named as the limit it is


@dataclass(frozen=True, slots=True)
class SeatScore:
    """One seat's own score where every hand is scored (chinese-classical): its points and
    doubles, each summed, and `score` = points x 2^doubles cut to the limit; `limit` for a limit
    hand (scored flat), `capped` for a hand cut to the limit."""

    seat: int
    points: int
    doubles: int
    score: int
    limit: bool = False
    capped: bool = False


@dataclass(frozen=True, slots=True)
class Score:
    """The value of a hand. `points` maps a payer role ('discarder', 'each') to points paid."""

    valid: bool
    fan: int = 0
    unit: str = "faan"
    limit: bool = False
    patterns: tuple[Pattern, ...] = ()
    points: dict[str, int] = field(default_factory=dict)
    reason: str | None = None  # not_a_winning_hand or below_minimum when not valid
    message: Text | str = ""  # why it is not valid, worded per reader
    fu: int = 0  # Riichi: the hand's fu (0 where a family counts none)
    # the limit the hand reached by name (Riichi: mangan ... yakuman, kazoe for a counted
    # yakuman); '' where a family names none
    limit_name: str = ""
    # the deal passes after this win whatever the rotation (chinese-classical: East's ninth win)
    passes_deal: bool = False
    # every seat's own score, the winner's among them, where every hand is scored (else empty)
    hands: tuple[SeatScore, ...] = ()

    def to_json(self, language: str = "en") -> dict[str, object]:
        """The answer of `score`; `message` in `language` (pattern ids stay English)."""
        if not self.valid:
            out: dict[str, object] = {
                "valid": False,
                "reason": self.reason,
                "message": worded(self.message, language),
            }
            if self.reason == "below_minimum":
                out["fan"] = self.fan
                out["patterns"] = [{"id": p.id, "fan": p.fan} for p in self.patterns]
            return out
        return {
            "valid": True,
            "fan": self.fan,
            "unit": self.unit,
            "limit": self.limit,
            "patterns": [{"id": p.id, "fan": p.fan} for p in self.patterns],
            "points": dict(self.points),
        }


# a reading's patterns, its fan (capped) and whether it is a limit hand
Reading = tuple[tuple[Pattern, ...], int, bool]


def score_of_best(
    preset: Preset,
    best: Reading | None,
    words: str,
    settle: Callable[[tuple[Pattern, ...], int], tuple[tuple[Pattern, ...], dict[str, int]]],
) -> Score:
    """A win scored from its best reading (the Hong Kong and Taiwanese families): no reading
    is no winning hand (worded `score.<words>.not_winning`), one below the table's minimum is
    refused, else the win with the patterns and payments `settle` gives for its fan (it may add
    a pattern: hk-fw2's insurance penalty)."""
    if best is None:
        return Score(
            valid=False,
            unit=preset.unit,
            reason="not_a_winning_hand",
            message=Text(f"score.{words}.not_winning", {"sets": preset.sets}),
        )
    patterns, fan, limit = best
    if fan < preset.min_fan:
        return below_minimum(preset, fan, patterns)
    patterns, points = settle(patterns, fan)
    return Score(
        valid=True, fan=fan, unit=preset.unit, limit=limit, patterns=patterns, points=points
    )


def below_minimum(preset: Preset, fan: int, patterns: tuple[Pattern, ...]) -> Score:
    """The answer for a winning shape worth less than the table's minimum."""
    unit = preset.unit
    return Score(
        valid=False,
        fan=fan,
        unit=unit,
        patterns=patterns,
        reason="below_minimum",
        message=Text(
            "score.below_minimum",
            {"fan": fan, "unit": unit_text(unit), "minimum": preset.min_fan},
        ),
    )


def unit_text(unit: str) -> Text | str:
    """faan, fan, tai or points, worded per reader; another unit as it is."""
    key = f"score.unit.{unit}"
    return Text(key) if has(key) else unit
