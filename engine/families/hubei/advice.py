"""What the strong computer knows about hubei-laizi (红中赖子杠, RULES.md `hubei-laizi`).

Every win is paid base x 2^(winner fan + loser fan), and most of that fan is kongs: a red (green)
dragon discarded is a kong worth 1 to its owner, a wild discarded 2, exposed and added kongs 1, a
concealed kong 2. So the computer sets red and green down at once (holding one cannot win
anyway) and keeps its wilds while they make the hand: it sets one down as a wild kong only where
the hand is all but worthless with it (engine/computer/strong.py weighs both by
`wild_kong_margin`). Only an open hand may win, so a closed hand keeps a share of its worth until
a call opens it. The minimum (3, lifted by `no_minimum`) counts the winner's fan plus a paying
loser's: the loser fan the others already show (their kongs, an open hand) lowers what the
computer needs. Every fan counts both ways: a seat's kongs and open hand raise what it pays when
another seat wins, so each kong, wild kong and call is weighed against that `exposure` as well.
The same fan prices a deal-in (`deal_in`): an opponent's kongs and this seat's own make it
dearer, while a closed opponent, or a win below the minimum, threatens nothing. A small win on a
discard is paid by the discarder alone, a self draw by every other seat: where the others' fan
makes the self draw pay enough more, the discard win is passed (the hand stays ready; the pass
blocks only discard wins until the next draw). The other pass block (a passed pung) holds by
itself: a blocked call is never among the legal actions.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from engine.advice import FamilyKnowledge
from engine.families.hubei import scoring as hubei
from engine.preset import Preset
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


# of wins on a discard, the share that are big wins (every other seat pays, the discarder adds
# 1 fan), and where the winner's hand looks like a flush; a small win is soft or hard (0 or 1 fan)
BIG_SHARE = 0.25
FLUSH_BIG_SHARE = 0.8


def deal_in(view: SeatView, other: int, flush: bool) -> float:
    """What a win of `other` on this seat's discard is expected to cost it: 2^(fan of both),
    the winner's kongs and this seat's kongs and open hand included, so a seat with kongs down
    defends harder. A closed hand cannot win at all, and a win below the minimum is not made."""
    melds = view.melds[other]
    if not hubei.is_open(melds):
        return 0.0
    both = _kong_fan(view, other, melds) + loser_fan(view, view.seat)
    big = FLUSH_BIG_SHARE if flush else BIG_SHARE
    cost = 0.0
    # a soft small win, a hard small win, a big win (its fan and the discarder's)
    for share, fan in (((1 - big) / 2, both), ((1 - big) / 2, both + 1), (big, both + 2)):
        if fan >= view.preset.min_fan:
            cost += share * min(hubei.SILVER, hubei.BASE * 2**fan)
    return cost


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


# measured with bench/hubei_points.py (2,000 seat-hands each, the noise about +-1.3 at four
# players, +-1.7 at two): a discard win passed for a self draw paying 1.5 times more gained most
# (+1.1 at four players; 1.0 about the same, 3 +0.9, never +0.5); a wild kong made only where it
# brings ten times the hand's worth with the wild kept, i.e. where that hand is all but dead (at
# four players 10 +1.0, 2 +1.1, 4 +0.3 and always when worth more +0.3 without the hold; at two
# players 10 -1.1, 2 -3.1, never +0.3, but a hand that cannot win with its wild must set it
# down); the danger share of the defence (0.005 to 0.15) changed little: most deal-ins come from
# a ready hand, which plays on
HOLD_MARGIN = 1.5
WILD_KONG_MARGIN = 10.0
DANGER_SHARE = 0.02
# the chance kept per further exchange a plan needs (engine/computer/strong.py): high, as at the
# 3-fan minimum most near shapes are worth nothing and a win's fan doubles what every loser pays,
# so a far line to a big win or more kongs is worth aiming at. Measured with bench/strength.py
# (points per seat-hand against v1 over 2,000 seat-hands, seed 0, four players; each +-1.2 or
# so): 0.15 +0.0, 0.25 +0.95, 0.35 +1.46, 0.45 +1.34, 0.55 +2.93, 0.6 +3.40, 0.65 +3.63,
# 0.7 +3.49, 0.85 +0.65; the middle of the plateau, re-checked on seeds 1 and 2 (not tuned on):
# +2.15 (+0.88..+3.43) and +2.19 (+0.81..+3.57); at three players +4.63 (+2.91..+6.35), at two
# +5.30 (+3.63..+6.98), seed 0
STEP = 0.6


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
    opponent_value=4.0,  # (a deal-in is priced by `deal_in`)
    flush_value=12.0,
    step=STEP,
    danger_share=DANGER_SHARE,
    exact_one_away=False,
    no_wild=hubei.FAN["hard_win"],
    free_kongs=frozenset({RED, GREEN}),
    wild_kong_fan=hubei.FAN["wild_kong"],
    wild_kong_margin=WILD_KONG_MARGIN,
    closed_share=0.5,
    offered_safe=True,
    gain=gain,
    seat_fan=seat_fan,
    exposure=exposure,
    deal_in=deal_in,
    hold_margin=HOLD_MARGIN,
    minimum=minimum,
    context=context,
    tune=_tune,
)
