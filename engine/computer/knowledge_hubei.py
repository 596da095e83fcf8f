"""What the strong computer knows about hubei-laizi (红中赖子杠, RULES.md `hubei-laizi`).

Every win is paid base x 2^(winner fan + loser fan), and most of that fan is kongs: a red (green)
dragon discarded is a kong worth 1 to its owner, a wild discarded 2, exposed and added kongs 1, a
concealed kong 2. So the computer sets red and green down at once (holding one cannot win
anyway), keeps its wilds while they make the hand, and sets one down as a wild kong when the
hand is worth more with the 2 fan than with the wild (engine/computer/strong.py weighs both).
Only an open hand may win, so a closed hand keeps a share of its worth until a call opens it.
The minimum (3, lifted by `no_minimum`) counts the winner's fan plus a paying loser's: the loser
fan the others already show (their kongs, an open hand) lowers what the computer needs. Every
fan counts both ways: a seat's kongs and open hand raise what it pays when another seat wins,
so each kong, wild kong and call is weighed against that `exposure` as well. The pass blocks
(a passed pung, a passed win) hold by themselves: a blocked call is never among the legal
actions, and the computer takes every win it is offered.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from engine.computer.knowledge import FamilyKnowledge
from engine.presets import Preset
from engine.scoring import hubei
from engine.scoring.base import Score, SeatFacts, WinBy
from engine.seat_view import SeatView
from engine.tiles import GREEN, RED, Meld, Tile

# a paying loser's fan the plans count on: an open hand (nearly every hand opens: only an open
# hand may win)
LOSER_FAN = 1


def _pay(fan: int) -> tuple[int, int]:
    points = min(hubei.SILVER, hubei.BASE * 2 ** (fan + LOSER_FAN))
    return points, points


def _wild(view: SeatView) -> Tile | None:
    return min(view.wilds) if view.wilds else None


def _kong_fan(view: SeatView, seat: int, melds: Sequence[Meld]) -> int:
    set_down = view.set_down[seat] if view.set_down else ()
    found = hubei.kong_patterns(melds, set_down, _wild(view))
    return sum(hubei.FAN[pid] * times for pid, times in found)


def seat_fan(view: SeatView, melds: tuple[Meld, ...]) -> int:
    """The fan this seat's kongs (set down, and melded in `melds`) bring to any win of its own."""
    return _kong_fan(view, view.seat, melds)


def loser_fan(view: SeatView, seat: int) -> int:
    """The fan another seat would add as a paying loser, from what it shows (a discarder's
    extra point on a big win aside)."""
    melds = view.melds[seat]
    return _kong_fan(view, seat, melds) + (1 if hubei.is_open(melds) else 0)


# others' wins, as a loser sees them: about one hand in three another seat wins and this one
# pays, a typical winner's fan is 2, and the silver cap stops the payment at 30
OTHERS_WIN = 0.2
WINNER_FAN = 2


def exposure(view: SeatView, melds: tuple[Meld, ...], set_down_fan: int) -> float:
    """What this seat expects to pay others' wins for the rest of the hand: each of its kongs
    (and an open hand) doubles that payment, so a kong or a call costs as well as it brings."""
    fan = _kong_fan(view, view.seat, melds) + set_down_fan + (1 if hubei.is_open(melds) else 0)
    payment = min(hubei.SILVER, hubei.BASE * 2 ** (WINNER_FAN + fan))
    dealt = view.preset.hand_size * view.seat_count + 1
    left = view.wall_left / max(1, len(view.preset.wall) - dealt)
    return OTHERS_WIN * payment * min(1.0, left)


def minimum(view: SeatView) -> int:
    """The winner fan a win needs: the table's minimum less the best loser fan in sight (at
    least the open hand every loser is likely to show by then)."""
    if not view.preset.min_fan:
        return 0
    others = [s for s in range(view.seat_count) if s != view.seat]
    best = max([LOSER_FAN, *(loser_fan(view, s) for s in others)])
    return max(0, view.preset.min_fan - best)


def context(view: SeatView, set_down: tuple[Tile, ...]) -> dict[str, Any]:
    """What scoring reads to value a win of this seat: the wild, its own set-down kongs (and
    `set_down`, about to be), the other seats' melds and kongs (never their tiles), and who
    would discard: the seat offering the tile now, else the seat before (whose discards this
    seat may also chow)."""
    seat, count = view.seat, view.seat_count
    discarder = (seat - 1) % count
    if view.phase in ("claims", "rob") and view.claim_from is not None:
        discarder = view.claim_from
    kongs = view.set_down or ((),) * count
    others = tuple(SeatFacts(s, view.melds[s], kongs[s]) for s in range(count) if s != seat)
    return {
        "wild": _wild(view),
        "special_kongs": (*kongs[seat], *set_down),
        "discarder": discarder,
        "players": count,
        "others": others,
    }


def gain(score: Score, by: WinBy, payers: int) -> float:
    """Everything the paying losers pay (a score names each payer's part)."""
    return float(sum(score.points.values()))


def _tune(know: FamilyKnowledge, preset: Preset) -> FamilyKnowledge:
    """Without the minimum every open hand wins: nearer plans, as at the tables without one."""
    if not preset.min_fan:
        return replace(know, step=0.15)
    return know


KNOWLEDGE = FamilyKnowledge(
    # a big win is paid by every other player even on a discard, the discarder adding 1 fan:
    # worth a fan more than its own to a plan
    pure_flush=hubei.FAN["full_flush"] + 1,
    half_flush=0,
    all_pungs=hubei.FAN["all_pungs"] + 1,
    seven_pairs=0,
    root=0,
    honour_pung=0,
    self_draw=0,
    pay=_pay,
    bonus_fan=lambda bonus, seat: 0,
    ready_per_discard=0.03,
    ready_per_meld=0.15,
    opponent_value=4.0,
    flush_value=12.0,
    step=0.25,
    danger_share=0.005,
    exact_one_away=False,
    no_wild=hubei.FAN["hard_win"],
    free_kongs=frozenset({RED, GREEN}),
    wild_kong_fan=hubei.FAN["wild_kong"],
    closed_share=0.5,
    offered_safe=True,
    gain=gain,
    seat_fan=seat_fan,
    exposure=exposure,
    minimum=minimum,
    context=context,
    tune=_tune,
)
