"""The kinds a preset names and its rule components read: a leaf module (it imports nothing of
ours), so `engine.presets` may build presets from `engine.rules` components while those read
these enums, without an import circle.

>>> MultiWin("head_bump") is MultiWin.HEAD_BUMP
True
"""

from __future__ import annotations

from enum import StrEnum


class MultiWin(StrEnum):
    HEAD_BUMP = "head_bump"  # only the first winner after the discarder, in turn order
    MULTIPLE = "multiple"  # all win, each paid separately


class AfterWin(StrEnum):
    END = "end"  # the hand ends at the first win
    LEAVE = "leave"  # blood battle: the winner leaves, the rest play on
    STAY = "stay"  # blood flow: the winner stays with a locked hand


class ConcealedRob(StrEnum):
    NEVER = "never"  # seed 004: a concealed kong cannot be robbed
    THIRTEEN_ORPHANS = "thirteen_orphans"  # Hong Kong: only thirteen orphans may rob it


class Rotation(StrEnum):
    """Who deals next (RULES.md "Who deals next"): each names a function of how a hand ended,
    `engine.rotation.ROTATIONS`."""

    HONG_KONG = "hong_kong"  # the dealer keeps the deal after winning or a hand with no win
    FOUR_WINDS = "four_winds"  # hk-fw2: the dealer keeps the deal only by winning
    WINNER_DEALS = "winner_deals"  # the first winner (or the discarder of a multiple win)
    # Riichi: the dealer keeps the deal after a dealer win, being ready at a wall draw, or an
    # abortive draw
    DEALER_READY = "dealer_ready"


class Opening(StrEnum):
    SWAP_THREE = "swap_three"
    DISCARD_THREE = "discard_three"
    VOID = "void"
