"""Test-only presets: small rule sets that prove each hook point of engine.rules.

They are not public presets (nothing registers them in engine.presets.PRESETS); the engine takes
any `Preset` value, so tests build these to play whole hands at 2 and 3 seats and with the
components the coming presets need.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from engine.actions import ActionKind
from engine.presets import HKOS, PRESETS, ConcealedRob, MultiWin, Preset
from engine.rules import FixedKongs, OpenHandToWin, Part, PassEnds, PassRule, Rule, Wilds
from engine.rules_selfdraw import mirror_seat
from engine.scoring.base import WinBy
from engine.settlement import Payment
from engine.tiles import COPIES, RED, parse_tile

_SUITS = tuple(t for t in range(27) for _ in range(COPIES))
_NO_FLOWERS = tuple(t for t in range(34) for _ in range(COPIES))

# Hong Kong Old Style at 4 (the default), 3 or 2 seats
SMALL_HK = replace(HKOS, id="test-small-hk", name="Small HK", seat_counts=(4, 3, 2))

# Sichuan Swap Three at three seats (the swap moves one or two seats on)
TRIO_BLOOD = replace(
    PRESETS["sichuan-swap3"], id="test-trio-blood", name="Trio blood battle", seat_counts=(3,)
)

# Sichuan blood flow with discard three at two seats
DUO_FLOW = replace(
    PRESETS["bloodflow-discard3"], id="test-duo-flow", name="Duo blood flow", seat_counts=(2,)
)

# a Taiwanese-style dead wall of 16 and a passed win blocking its tile kind to the own discard
DEAD_WALL = Preset(
    id="test-dead-wall",
    name="Dead wall",
    summary="",
    family="sichuan",
    wall=_NO_FLOWERS,
    multi_win=MultiWin.MULTIPLE,
    dead_wall=16,
    rules=(PassRule(ActionKind.WIN, PassEnds.OWN_DISCARD, block_kind_only=True),),
)

# the horse (guangdong) and birds (redwild): tiles set aside from the back at the deal
SET_ASIDE = replace(SMALL_HK, id="test-set-aside", set_aside=4, seat_counts=(4,))

# (the sichuan family scores every shape at 0 fan and up, so these tests' hands are wins)

# hubei-laizi's shape of play: red dragons are fixed kong tiles, 5p is wild, only an open hand
# may win, passing a pung blocks punging to the own next draw, the last 14 tiles are last draws
WILD_KONGS = Preset(
    id="test-wild-kongs",
    name="Wild kongs",
    summary="",
    family="sichuan",
    wall=_SUITS + (RED,) * COPIES,
    concealed_rob=ConcealedRob.NEVER,
    last_draws=14,
    seat_counts=(4, 3, 2),
    rules=(
        FixedKongs(frozenset({RED})),
        Wilds(frozenset({parse_tile("5p")})),
        OpenHandToWin(),
        PassRule(ActionKind.PUNG, PassEnds.OWN_DRAW, block_kind_only=False),
    ),
)


@dataclass(frozen=True, slots=True)
class MirrorSeat(Rule):
    """guangdong's horse in miniature: every win payment to or from `seat` is paid a second
    time with the dealer in its place (one between the dealer and the dealer vanishes)."""

    seat: int = 1


class MirrorSeatPart(Part):
    def settle_win(
        self, seat: int, by: WinBy, source: int | None, payments: list[Payment]
    ) -> list[Payment]:
        return mirror_seat(payments, self.rule.seat)


MirrorSeat.part = MirrorSeatPart

# Sichuan scoring without openings, seat 1 as the horse
HORSE = replace(
    PRESETS["sichuan-bb"],
    id="test-horse",
    openings=(),
    after_win=PRESETS["hkos-3-v1"].after_win,
    rules=(MirrorSeat(1),),
)

TEST_PRESETS = (SMALL_HK, TRIO_BLOOD, DUO_FLOW, DEAD_WALL, SET_ASIDE, WILD_KONGS, HORSE)
