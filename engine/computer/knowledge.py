"""What the strong computer knows about each scoring family, as data read from the scoring tables.

The decision code (engine/computer/strong.py) is the same for every preset; it asks this table
what a flush, all pungs, seven pairs, a root, a valued honour pung or a self draw is worth, how a
fan total turns into points, and how quickly opponents get ready at such a table. Where a family
plays differently (wilds kept or set down as kongs, a hand that must be open to win, a passed
tile that cannot win, a win paid by more than one seat), the entry names a small hook or flag
that the decision code asks; a family without it plays as the others do.

`knowledge_for_table(preset)` is the entry for one table: a family whose minimum is a table
option may tune its entry to it (hk-fw2's 0-3, hubei-laizi's `no_minimum`). The values chosen
by measurement (`step`, `danger_share`, the call margins, `honour_hope`) were compared with
bench/strength.py.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from engine.families.hongkong import scoring_fourwinds as fourwinds
from engine.families.hongkong import scoring_hk3fan as hk3fan
from engine.families.hongkong import scoring_hkos as hkos
from engine.families.sichuan import scoring as sichuan
from engine.families.taiwan import scoring as taiwan
from engine.scoring.base import Score, WinBy, WinContext
from engine.tiles import Meld, Tile

if TYPE_CHECKING:
    from engine.presets import Preset
    from engine.seat_view import SeatView


@dataclass(frozen=True, slots=True)
class FamilyKnowledge:
    """Fan of the patterns a plan can aim for (0: the family has none) and the payment scale."""

    pure_flush: int
    half_flush: int  # one suit plus honours
    all_pungs: int
    seven_pairs: int
    root: int  # per four of a kind
    honour_pung: int  # per pung of a dragon, the seat wind or the prevailing wind
    self_draw: int
    pay: Callable[[int], tuple[int, int]]  # capped fan -> (discarder pays, each pays)
    bonus_fan: Callable[[tuple[Tile, ...], int], int]  # own bonus tiles and seat -> fan
    ready_per_discard: float  # how fast an opponent's chance of being ready grows per discard
    ready_per_meld: float
    opponent_value: float  # points a typical win on a discard costs the discarder
    flush_value: float  # the same when the opponent's hand looks like a flush
    step: float  # chance kept per further exchange a plan needs (engine/computer/strong.py)
    # chance that a likely-ready hand waits on one particular plausible tile; kept low where
    # folding on guesses costs more wins than it saves (measured with bench/strength.py)
    danger_share: float
    # value a hand one exchange from ready by scoring the ready hands it leads to (where a
    # minimum makes many of them worthless; elsewhere the plans' estimate is close and cheaper)
    exact_one_away: bool
    # --- what only some families have (the defaults: as the families above play)
    # a call gives up flexibility and shows the hand: it must gain this much
    call_margin: float = 1.15
    call_floor: float = 0.02  # and this much in points (a far hand gains little by a call)
    closed_hand: int = 0  # fan of a hand with no claimed melds (tw-16's closed hand)
    # chances that a valued honour pair (a single with two copies unseen) becomes its pung,
    # where honour pungs are much of a hand's value (None: a pair is counted at half a fan)
    honour_hope: tuple[float, float] | None = None
    no_wild: int = 0  # fan of a winning hand holding no wild (hubei's hard win, redwild's 4)
    # tiles whose discard is a kong that pays and draws again (hubei-laizi's red and green):
    # discarded at once, never kept (a hand holding one cannot win)
    free_kongs: frozenset[Tile] = frozenset()
    # fan a wild discarded as a wild kong brings (hubei-laizi); 0: a wild is never discarded
    # while another tile can go
    wild_kong_fan: int = 0
    # how many times the hand's worth with the wild kept a wild kong must bring (the kong's fan
    # also raises what the seat pays as a loser, and the wild no longer stands in)
    wild_kong_margin: float = 1.0
    # share of its worth a closed hand keeps where only an open hand may win (it must call)
    closed_share: float = 1.0
    # a tile a seat could have won on since its last discard, and did not, is safe against it
    # (tw-16 blocks that tile until the seat's next discard; elsewhere its hand has not changed)
    offered_safe: bool = False
    # what a win pays the winner in all, from its score (None: the discarder's payment on a
    # discard, each payer's times the payers on a self draw)
    gain: Callable[[Score, WinBy, int], float] | None = None
    # fan a seat with these melds holds beyond its tiles' patterns (hubei-laizi: its kongs,
    # melded and set down)
    seat_fan: Callable[[SeatView, tuple[Meld, ...]], int] | None = None
    # what a seat with these melds (and this much more fan set down) expects to pay others'
    # wins, where a loser's own fan raises its payment (hubei-laizi); None: it does not
    exposure: Callable[[SeatView, tuple[Meld, ...], int], float] | None = None
    # what a win of seat `other` on this seat's discard is expected to cost it, the bool saying
    # whether that seat's hand looks like a flush (hubei-laizi: by both seats' fan; 0 where that
    # seat cannot win on a discard); None: opponent_value, or flush_value for a flush
    deal_in: Callable[[SeatView, int, bool], float] | None = None
    # where a win ends the hand, a discard win is passed when the self draw it waits for is
    # expected to pay this many times more (None: never; where a winner leaves the hand,
    # engine/computer/strong.py always weighs the two)
    hold_margin: float | None = None
    # the fan a win of this seat needs (None: the preset's minimum)
    minimum: Callable[[SeatView], int] | None = None
    # further facts scoring needs to value a win of this seat, with tiles it is about to set
    # down as kongs (hubei-laizi: its kongs, the other seats)
    context: Callable[[SeatView, tuple[Tile, ...]], dict[str, Any]] | None = None
    # the entry as a table with these options plays it (a minimum chosen per table)
    tune: Callable[[FamilyKnowledge, Preset], FamilyKnowledge] | None = None
    # fan of a hand with none of a suit's terminals nor any honour (Riichi's tanyao): a plan
    all_simples: int = 0
    # fan that adds to a win's value but never makes its minimum (Riichi's dora): per kind the
    # fan of each copy held or melded, and a fixed fan (own red fives); None: there is none
    tile_fan: Callable[[SeatView], tuple[tuple[tuple[Tile, int], ...], int]] | None = None
    # per kind, the points a discard of it is expected to cost against seat `other` (the
    # unseen copies given), or None where the general guess stands (engine/computer/strong.py)
    danger: Callable[[SeatView, int, Sequence[int]], list[float] | None] | None = None
    # the circumstances a closed hand's win is valued with (Riichi's riichi: declared, or to be
    # declared once ready)
    closed_flags: frozenset[str] = frozenset()
    # whether to make the declaration offered with this discard (Riichi's riichi) instead of
    # the plain discard; None: a declaration with a discard is never made
    declare: Callable[[SeatView, Tile], bool] | None = None
    # a declaration offered on the own turn apart from any discard, by its kind's name (sanma's
    # nuki: a north set aside for a dora and a replacement draw), and whether to make it with
    # this tile now rather than choose a discard; None: the family has none
    set_aside: tuple[str, Callable[[SeatView, Tile], bool]] | None = None


def _hkos_pay(fan: int) -> tuple[int, int]:
    return hkos.PAYMENTS[min(max(fan, 3), hkos.LIMIT_FAAN)]


def _hkos_bonus_fan(bonus: tuple[Tile, ...], seat: int) -> int:
    ctx = WinContext(concealed=(), win_tile=0, bonus=bonus, seat=seat)
    return hkos.total_fan(hkos.replace_patterns(hkos.bonus_patterns(ctx)))


def _hk3fan_pay(fan: int) -> tuple[int, int]:
    points = 2 ** min(max(fan, 3), hk3fan.LIMIT_FAN)
    return points, points


def _sichuan_pay(fan: int) -> tuple[int, int]:
    points = 2 ** min(fan, 4)
    return points, points


def _guangdong_pay(fan: int) -> tuple[int, int]:
    points = 2 ** min(fan, 8)
    return 3 * points, points


# redwild: a base of 2 per payer, 4 without a red dragon (the `no_wild` fan), and four birds,
# each a hit (2 more) with a chance of 52 in 112: about 4 points per payer on every win
_REDWILD_BIRDS = 4


def _redwild_pay(fan: int) -> tuple[int, int]:
    points = 2 ** (min(fan, 1) + 1) + _REDWILD_BIRDS
    return 3 * points, points


def _fourwinds_pay(fan: int) -> tuple[int, int]:
    """A discard win: the discarder pays 2 x base and the two others base (4 x base in all)."""
    base = fourwinds.base_points(fan)
    return 4 * base, 2 * base


def _fourwinds_bonus_fan(bonus: tuple[Tile, ...], seat: int) -> int:
    ctx = WinContext(concealed=(), win_tile=0, bonus=bonus, seat=seat)
    # "no flowers or seasons" counts while none has come, as scoring a ready hand counts it
    return sum(p.fan for p in fourwinds.bonus_patterns(ctx))


def _fourwinds_gain(score: Score, by: WinBy, payers: int) -> float:
    points = score.points
    if by is WinBy.SELF_DRAW:
        return payers * points["each"]
    return points["discarder"] + (payers - 1) * points["others"]


# Without a minimum a chicken hand wins and every seat pays each win, so winning first counts
# more than a far flush: nearer plans. Measured with bench/strength.py at min_fan 0 (points per
# seat-hand against v1, seed 0): over 2,000 seat-hands 0.1 +0.35, 0.15 +0.55, 0.2 +0.50,
# 0.25 +0.44, 0.35 -0.65 (each +-0.95); over 8,000, 0.15 +0.99 (+0.52..+1.46), and on seed 1
# (not tuned on) +0.75 (+0.30..+1.20)
FOURWINDS_NO_MINIMUM_STEP = 0.15


def _fourwinds_tune(know: FamilyKnowledge, preset: Preset) -> FamilyKnowledge:
    """At a minimum of 2 or 3 a winning hand pays a base of 4 or more: dealing in costs more.
    Without one, near plans (`FOURWINDS_NO_MINIMUM_STEP`)."""
    if preset.min_fan >= 2:
        return replace(know, opponent_value=8.0, danger_share=0.002)
    if preset.min_fan == 0:
        return replace(know, step=FOURWINDS_NO_MINIMUM_STEP)
    return know


def _taiwan_pay(tai: int) -> tuple[int, int]:
    points = taiwan.BASE_POINTS + min(tai, 32)
    return points, points


def _taiwan_bonus_fan(bonus: tuple[Tile, ...], seat: int) -> int:
    ctx = WinContext(concealed=(), win_tile=0, bonus=bonus, seat=seat)
    return taiwan.total_tai(taiwan.bonus_patterns(ctx))


KNOWLEDGE: dict[str, FamilyKnowledge] = {
    "hkos": FamilyKnowledge(
        pure_flush=hkos.FAAN["pure_flush"],
        half_flush=hkos.FAAN["half_flush"],
        all_pungs=hkos.FAAN["all_pungs"],
        seven_pairs=0,
        root=0,
        honour_pung=hkos.FAAN["dragon_pung"],
        self_draw=hkos.FAAN["self_draw"],
        pay=_hkos_pay,
        bonus_fan=_hkos_bonus_fan,
        ready_per_discard=0.03,
        ready_per_meld=0.18,
        opponent_value=12.0,
        flush_value=40.0,
        # measured over 1000 seat-hands: 0.15 gained 4.0 with 12% dead hands, 0.2 6.1 and 10%,
        # 0.25 5.9 and 7%, 0.3 5.7 and 6% (a minimum makes far but valuable plans worth aiming at)
        step=0.25,
        danger_share=0.002,
        exact_one_away=True,
    ),
    # the 3-fan minimum makes it play like Old Style: far but valuable plans are worth aiming
    # at, and a call that leaves no line to 3 fan wastes the hand (the Old Style settings)
    "hk3fan": FamilyKnowledge(
        pure_flush=hk3fan.FAN["full_flush"],
        half_flush=hk3fan.FAN["half_flush"],
        all_pungs=hk3fan.FAN["all_pungs"],
        seven_pairs=hk3fan.FAN["seven_pairs"],
        root=0,
        honour_pung=hk3fan.FAN["dragon_pung"],
        self_draw=hk3fan.FAN["self_draw"],
        pay=_hk3fan_pay,
        bonus_fan=lambda bonus, seat: 0,
        ready_per_discard=0.03,
        ready_per_meld=0.18,
        opponent_value=10.0,
        flush_value=40.0,
        step=0.25,
        danger_share=0.002,
        exact_one_away=True,
    ),
    "sichuan": FamilyKnowledge(
        pure_flush=sichuan.FAN["full_flush"],
        half_flush=0,
        all_pungs=sichuan.FAN["all_pungs"],
        seven_pairs=sichuan.FAN["seven_pairs"],
        root=sichuan.FAN["root"],
        honour_pung=0,
        self_draw=sichuan.FAN["self_draw"],
        pay=_sichuan_pay,
        bonus_fan=lambda bonus, seat: 0,
        ready_per_discard=0.045,
        ready_per_meld=0.15,
        opponent_value=3.0,
        flush_value=8.0,
        step=0.15,
        danger_share=0.01,
        exact_one_away=False,
    ),
    "fourwinds": FamilyKnowledge(
        pure_flush=fourwinds.FAAN["one_suit_only"],
        half_flush=fourwinds.FAAN["one_suit_with_honours"],
        all_pungs=fourwinds.FAAN["pung_hand"],
        seven_pairs=fourwinds.FAAN["seven_pairs"],
        root=0,
        honour_pung=fourwinds.FAAN["dragon_pung"],
        self_draw=fourwinds.FAAN["self_draw"],
        pay=_fourwinds_pay,
        bonus_fan=_fourwinds_bonus_fan,
        ready_per_discard=0.03,
        ready_per_meld=0.18,
        # dealing in costs one base more than another seat's discard win (which every player
        # pays): the defence is light, firmer at a high minimum (`_fourwinds_tune`)
        opponent_value=4.0,
        flush_value=32.0,
        # payments double with each faan up to 3 and more: far but valuable plans are worth
        # aiming at as in Old Style, with or without the table's minimum (measured at 0 and 3)
        step=0.25,
        danger_share=0.0005,
        exact_one_away=True,
        offered_safe=True,
        honour_hope=(0.6, 0.3),
        call_floor=0.0,
        gain=_fourwinds_gain,
        tune=_fourwinds_tune,
    ),
    "taiwan": FamilyKnowledge(
        pure_flush=taiwan.TAI["full_flush"],
        half_flush=taiwan.TAI["half_flush"],
        all_pungs=taiwan.TAI["all_pungs"],
        seven_pairs=0,
        root=0,
        honour_pung=taiwan.TAI["dragon_pung"],
        self_draw=taiwan.TAI["self_draw"],
        pay=_taiwan_pay,
        bonus_fan=_taiwan_bonus_fan,
        ready_per_discard=0.025,
        ready_per_meld=0.15,
        opponent_value=4.0,
        flush_value=9.0,
        step=0.15,
        danger_share=0.01,
        exact_one_away=False,
        closed_hand=taiwan.TAI["closed_hand"],
        offered_safe=True,
        # honour pungs are most hands' tai; a win pays 1 + tai, so a quick call is worth its
        # cost (measured with bench/strength.py: these gained the most)
        honour_hope=(0.6, 0.3),
        call_margin=1.0,
        call_floor=0.0,
    ),
    # self draw only: no discard is ever dangerous, and the horse mirrors payments whatever
    # is played (it does not change play)
    "guangdong": FamilyKnowledge(
        pure_flush=sichuan.FAN["full_flush"],
        half_flush=0,
        all_pungs=sichuan.FAN["all_pungs"],
        seven_pairs=sichuan.FAN["seven_pairs"],
        root=sichuan.FAN["root"],
        honour_pung=0,
        self_draw=sichuan.FAN["self_draw"],
        pay=_guangdong_pay,
        bonus_fan=lambda bonus, seat: 0,
        ready_per_discard=0.0,
        ready_per_meld=0.0,
        opponent_value=0.0,
        flush_value=0.0,
        step=0.15,
        danger_share=0.0,
        exact_one_away=False,
        # the first self draw ends the hand: a call that speeds it up is taken
        call_margin=1.0,
        call_floor=0.0,
    ),
    # self draw only, the red dragons wild: kept (each is any tile), a win pays the same
    # whatever its shape, twice without a red dragon
    "redwild": FamilyKnowledge(
        pure_flush=0,
        half_flush=0,
        all_pungs=0,
        seven_pairs=0,
        root=0,
        honour_pung=0,
        self_draw=0,
        pay=_redwild_pay,
        bonus_fan=lambda bonus, seat: 0,
        ready_per_discard=0.0,
        ready_per_meld=0.0,
        opponent_value=0.0,
        flush_value=0.0,
        step=0.15,
        danger_share=0.0,
        exact_one_away=False,
        no_wild=1,
        call_margin=1.0,
        call_floor=0.0,
    ),
}


def _knowledge_hubei() -> FamilyKnowledge:
    from engine.families.hubei import advice  # it builds on this module's dataclass

    return advice.KNOWLEDGE


def _knowledge_riichi() -> FamilyKnowledge:
    from engine.families.riichi import advice  # it builds on this module's dataclass

    return advice.KNOWLEDGE


_FAMILY_MODULES: dict[str, Callable[[], FamilyKnowledge]] = {
    "hubei": _knowledge_hubei,
    "riichi": _knowledge_riichi,
}


def knows(family: str) -> bool:
    """Whether the strong computer has this scoring family's values (others play as easy)."""
    return family in KNOWLEDGE or family in _FAMILY_MODULES


def knowledge_for(family: str) -> FamilyKnowledge:
    found = KNOWLEDGE.get(family)
    if found is None:
        found = KNOWLEDGE[family] = _FAMILY_MODULES[family]()
    return found


_TABLES: dict[tuple[str, int], FamilyKnowledge] = {}


def knowledge_for_table(preset: Preset) -> FamilyKnowledge:
    """The family's knowledge as this table plays it (its minimum)."""
    key = (preset.family, preset.min_fan)
    found = _TABLES.get(key)
    if found is None:
        know = knowledge_for(preset.family)
        found = _TABLES[key] = know.tune(know, preset) if know.tune is not None else know
    return found
