"""Riichi hand values and win settlement (RULES.md "Riichi": `riichi`, `riichi-majsoul`, `sanma`).

The finished hand's han, fu and yaku come from the PyPI `mahjong` package (2.1.x), set up in one
place, `RiichiRules.package_options`; everything around the hand value is ours: the limit's name,
the base points, who pays what (ron, self draw, sanma's tsumo loss), honba, the pot and pao.

>>> hand = RiichiHand(parse_tiles("234567m234p55s678s"), parse_tiles("8s")[0], by=WinBy.SELF_DRAW)
>>> value = value_hand(RIICHI_RULES["riichi"], hand)
>>> value.han, value.fu, [y.id for y in value.yaku]
(3, 20, ['menzen_tsumo', 'pinfu', 'tanyao'])
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING

from mahjong.constants import EAST as PACKAGE_EAST
from mahjong.hand_calculating.hand import HandCalculator
from mahjong.hand_calculating.hand_config import HandConfig, HandConstants, OptionalRules
from mahjong.meld import Meld as PackageMeld

from engine.i18n import Text
from engine.scoring.base import Pattern, Score, WinBy, WinContext
from engine.scoring.family import NO_CIRCUMSTANCES, no_kong_payments
from engine.settlement import Payment, Reason, deltas_of
from engine.tiles import (
    COPIES,
    DRAGONS,
    FIVES,
    NUM_KINDS,
    ORPHANS,
    WINDS,
    Meld,
    MeldKind,
    Tile,
    is_red,
    kind_of,
    parse_tiles,
    with_red_fives,
)

if TYPE_CHECKING:
    from engine.hand import HandState
    from engine.preset import Preset

YAKUMAN_HAN = 13  # a yakuman reports 13 han (a double yakuman 26)
STICK = 1000  # a riichi stick, paid into the pot and taken by the next winner
LIMIT_BASE = {"mangan": 2000, "haneman": 3000, "baiman": 4000, "sanbaiman": 6000, "yakuman": 8000}


class Limit(StrEnum):
    MANGAN = "mangan"
    HANEMAN = "haneman"
    BAIMAN = "baiman"
    SANBAIMAN = "sanbaiman"
    YAKUMAN = "yakuman"


@dataclass(frozen=True, slots=True)
class RiichiRules:
    """What a Riichi preset decides around the hand value, and its package switches."""

    id: str
    name: str
    players: int
    wall: tuple[Tile, ...]  # the physical tiles of a full set (red fives included)
    double_yakuman: bool  # package: a double yakuman counts twice
    pao_whole_hand: bool  # the liable player covers the whole hand, else its yakuman alone
    honba_ron: int  # per honba on a ron
    honba_each: int = 100  # per honba, from each payer of a self draw
    chi: bool = True
    nuki: bool = False  # sanma: norths set aside, each one dora

    def package_options(self) -> OptionalRules:
        """The `mahjong` package's rule switches for this preset: the one place they are set
        (RULES.md "Riichi": open tanyao, red fives, kazoe at 13, no kiriage, no renhou)."""
        return OptionalRules(
            has_open_tanyao=True,
            has_aka_dora=True,
            has_double_yakuman=self.double_yakuman,
            kazoe_limit=HandConstants.KAZOE_LIMITED,
            kiriage=False,
            renhou_as_yakuman=False,
            is_three_player=self.players == 3,
        )


def _full_set(kinds: Iterable[Tile], reds: str) -> tuple[Tile, ...]:
    return with_red_fives([k for k in kinds for _ in range(COPIES)], parse_tiles(reds))


_FOUR_PLAYER_SET = _full_set(range(NUM_KINDS), "0m0p0s")
_SANMA_SET = _full_set([k for k in range(NUM_KINDS) if not 1 <= k <= 7], "0p0s")  # no 2m-8m

# The per-preset table (RULES.md "Riichi"): Tenhou's four- and three-player games, Mahjong Soul's.
RIICHI_RULES: dict[str, RiichiRules] = {
    rules.id: rules
    for rules in (
        RiichiRules(
            "riichi",
            "Riichi as Tenhou plays it",
            players=4,
            wall=_FOUR_PLAYER_SET,
            double_yakuman=False,
            pao_whole_hand=True,
            honba_ron=300,
        ),
        RiichiRules(
            "riichi-majsoul",
            "Riichi as Mahjong Soul plays it",
            players=4,
            wall=_FOUR_PLAYER_SET,
            double_yakuman=True,
            pao_whole_hand=False,
            honba_ron=300,
        ),
        RiichiRules(
            "sanma",
            "Three-player Riichi as Tenhou plays it",
            players=3,
            wall=_SANMA_SET,
            double_yakuman=False,
            pao_whole_hand=True,
            honba_ron=200,
            chi=False,
            nuki=True,
        ),
    )
}


@dataclass(frozen=True, slots=True)
class RiichiHand:
    """A finished hand as the package needs it: concealed tiles with the winning tile, melds in
    the order made (claimed ones naming their source seat), and the circumstances."""

    concealed: Sequence[Tile]
    win: Tile
    melds: tuple[Meld, ...] = ()
    by: WinBy = WinBy.DISCARD
    seat: int = 0  # the winner; 0 is the dealer (East)
    round_wind: int = 0
    dora: tuple[Tile, ...] = ()  # indicators, in the order turned
    ura: tuple[Tile, ...] = ()
    flags: frozenset[str] = frozenset()
    nuki: int = 0


@dataclass(frozen=True, slots=True)
class Yaku:
    id: str
    han: int


@dataclass(frozen=True, slots=True)
class RiichiValue:
    """A hand's value: `reason` is None for a win, else `no_yaku` or `not_a_winning_hand`."""

    han: int = 0
    fu: int = 0
    yaku: tuple[Yaku, ...] = ()
    limit: Limit | None = None
    base: int = 0  # base points: fu x 2^(2 + han), or the limit's
    reason: str | None = None

    @property
    def valid(self) -> bool:
        return self.reason is None


# The package's yaku, by class name, as the Riichi community writes them (DESIGN.md).
YAKU_IDS = {
    "Riichi": "riichi",
    "DaburuRiichi": "double_riichi",
    "Ippatsu": "ippatsu",
    "Tsumo": "menzen_tsumo",
    "Pinfu": "pinfu",
    "Tanyao": "tanyao",
    "Iipeiko": "iipeikou",
    "Haitei": "haitei",
    "Houtei": "houtei",
    "Rinshan": "rinshan",
    "Chankan": "chankan",
    "Haku": "yakuhai_haku",
    "Hatsu": "yakuhai_hatsu",
    "Chun": "yakuhai_chun",
    "SeatWindEast": "yakuhai_seat_wind",
    "SeatWindSouth": "yakuhai_seat_wind",
    "SeatWindWest": "yakuhai_seat_wind",
    "SeatWindNorth": "yakuhai_seat_wind",
    "RoundWindEast": "yakuhai_round_wind",
    "RoundWindSouth": "yakuhai_round_wind",
    "RoundWindWest": "yakuhai_round_wind",
    "RoundWindNorth": "yakuhai_round_wind",
    "Chantai": "chanta",
    "Ittsu": "ittsu",
    "Sanshoku": "sanshoku",
    "SanshokuDoukou": "sanshoku_doukou",
    "Sanankou": "sanankou",
    "SanKantsu": "sankantsu",
    "Toitoi": "toitoi",
    "Chiitoitsu": "chiitoitsu",
    "Honroto": "honroutou",
    "Shosangen": "shousangen",
    "Honitsu": "honitsu",
    "Junchan": "junchan",
    "Ryanpeikou": "ryanpeikou",
    "Chinitsu": "chinitsu",
    "Dora": "dora",
    "AkaDora": "aka_dora",
    "UraDora": "ura_dora",
}
YAKUMAN_NAMES = {
    "KokushiMusou": "kokushi_musou",
    "DaburuKokushiMusou": "kokushi_musou_juusanmen",
    "Suuankou": "suuankou",
    "SuuankouTanki": "suuankou_tanki",
    "Daisangen": "daisangen",
    "Shousuushii": "shousuushii",
    "DaiSuushii": "daisuushii",
    "Tsuuiisou": "tsuuiisou",
    "Ryuuiisou": "ryuuiisou",
    "Chinroutou": "chinroutou",
    "ChuurenPoutou": "chuuren_poutou",
    "DaburuChuurenPoutou": "junsei_chuuren_poutou",
    "Suukantsu": "suukantsu",
    "Tenhou": "tenhou",
    "Chiihou": "chiihou",
}
YAKU_IDS.update(YAKUMAN_NAMES)
YAKUMAN_IDS = frozenset(YAKUMAN_NAMES.values())
# the yakuman a feeding player is liable for (pao), and the sets whose last one they fed
PAO_SETS = {"daisangen": frozenset(DRAGONS), "daisuushii": frozenset(WINDS)}

_FLAGS = {  # request flag: HandConfig attribute
    "riichi": "is_riichi",
    "double_riichi": "is_daburu_riichi",
    "ippatsu": "is_ippatsu",
    "rinshan": "is_rinshan",
    "chankan": "is_chankan",
    "haitei": "is_haitei",
    "houtei": "is_houtei",
    "tenhou": "is_tenhou",
    "chiihou": "is_chiihou",
}
FLAGS = frozenset(_FLAGS)
_PACKAGE_MELDS = {
    MeldKind.CHOW: PackageMeld.CHI,
    MeldKind.PUNG: PackageMeld.PON,
    MeldKind.KONG: PackageMeld.KAN,
    MeldKind.ADDED_KONG: PackageMeld.SHOUMINKAN,
    MeldKind.CONCEALED_KONG: PackageMeld.KAN,
}


class _Copies:
    """Gives each physical tile a 136-format id: a red five copy 0 of its five (the package's
    red ids 16, 52, 88), plain tiles the other copies in turn."""

    def __init__(self) -> None:
        self.next = [0] * NUM_KINDS
        for five in FIVES:
            self.next[five] = 1  # copy 0 is the red one

    def ids(self, tiles: Iterable[Tile]) -> list[int]:
        out = []
        for tile in tiles:
            kind = kind_of(tile)
            if is_red(tile):
                out.append(kind * COPIES)
                continue
            out.append(kind * COPIES + self.next[kind])
            self.next[kind] += 1
        return out


def _indicator_ids(indicators: Iterable[Tile]) -> list[int]:
    """Indicators in 136-format: only their kind counts."""
    return [kind_of(t) * COPIES + (0 if is_red(t) else 1) for t in indicators]


def package_call(
    rules: RiichiRules, hand: RiichiHand
) -> tuple[list[int], int, list[PackageMeld], list[int], list[int], HandConfig]:
    """The arguments of `HandCalculator.estimate_hand_value` for this hand (tests call the
    package with them directly, to check our wiring against its own answer)."""
    copies = _Copies()
    concealed = copies.ids(hand.concealed)
    melds = []
    meld_ids: list[int] = []
    for meld in hand.melds:
        ids = copies.ids(meld.tiles)
        meld_ids += ids
        opened = meld.kind is not MeldKind.CONCEALED_KONG
        melds.append(PackageMeld(_PACKAGE_MELDS[meld.kind], ids, opened))
    win = concealed[list(hand.concealed).index(hand.win)]
    flags = {
        attribute: True
        for flag, attribute in _FLAGS.items()
        if flag in hand.flags or (flag == "chankan" and hand.by is WinBy.ROBBING_KONG)
    }
    if "double_riichi" in hand.flags:
        flags.pop("is_riichi", None)  # the package counts double riichi on its own
    config = HandConfig(
        is_tsumo=hand.by is WinBy.SELF_DRAW,
        player_wind=PACKAGE_EAST + hand.seat,
        round_wind=PACKAGE_EAST + hand.round_wind,
        options=rules.package_options(),
        num_nuki_dora=hand.nuki,
        **flags,
    )
    ura = _indicator_ids(hand.ura) if hand.flags & {"riichi", "double_riichi"} else []
    return concealed + meld_ids, win, melds, _indicator_ids(hand.dora), ura, config


def value_hand(rules: RiichiRules, hand: RiichiHand) -> RiichiValue:
    """The hand's han, fu, yaku (our ids), limit and base points, from the package."""
    tiles, win, melds, dora, ura, config = package_call(rules, hand)
    response = HandCalculator.estimate_hand_value(
        tiles, win, melds=melds, dora_indicators=dora, config=config, ura_dora_indicators=ura
    )
    if response.error == HandCalculator.ERR_NO_YAKU:
        return RiichiValue(reason="no_yaku")
    if response.error == HandCalculator.ERR_HAND_NOT_WINNING:
        return RiichiValue(reason="not_a_winning_hand")
    if response.error is not None:  # a circumstance the request checks let through
        raise ValueError(f"the mahjong package refused the hand: {response.error}")
    assert response.han is not None and response.fu is not None and response.yaku is not None
    is_open = response.is_open_hand
    yaku = []
    for item in response.yaku:
        name = type(item).__name__
        if name not in YAKU_IDS:
            raise ValueError(f"a yaku the scoring does not name: {name}")
        han = item.han_open if is_open and item.han_open else item.han_closed
        yaku.append(Yaku(YAKU_IDS[name], han))
    yaku = _split_nuki(yaku, hand.nuki)
    yakuman = sum(y.han for y in yaku if y.id in YAKUMAN_IDS) // YAKUMAN_HAN
    limit, base = limit_of(response.han, response.fu, yakuman)
    return RiichiValue(response.han, response.fu, tuple(yaku), limit, base)


def _split_nuki(yaku: list[Yaku], nuki: int) -> list[Yaku]:
    """The package counts the norths set aside with the dora; name them `nuki_dora` (one a
    north), the rest (a north indicated, the other tiles) stays `dora`."""
    if not nuki:
        return yaku
    out = []
    for item in yaku:
        if item.id == "dora":
            if item.han > nuki:
                out.append(Yaku("dora", item.han - nuki))
            out.append(Yaku("nuki_dora", nuki))
        else:
            out.append(item)
    return out


def limit_of(han: int, fu: int, yakuman: int = 0) -> tuple[Limit | None, int]:
    """The limit a hand reaches (None below mangan) and its base points: `yakuman` named
    yakuman (a double one counting two) pay 8,000 each, a counted 13 han one; no kiriage.

    >>> limit_of(4, 30), limit_of(4, 40)
    ((None, 1920), (<Limit.MANGAN: 'mangan'>, 2000))
    >>> limit_of(13, 40)[1], limit_of(26, 0, yakuman=2)[1]
    (8000, 16000)
    """
    if yakuman or han >= YAKUMAN_HAN:
        return Limit.YAKUMAN, LIMIT_BASE["yakuman"] * max(yakuman, 1)
    for least, limit in ((11, Limit.SANBAIMAN), (8, Limit.BAIMAN), (6, Limit.HANEMAN)):
        if han >= least:
            return limit, LIMIT_BASE[limit.value]
    base = fu * 2 ** (2 + han)
    if han >= 5 or base > LIMIT_BASE["mangan"]:
        return Limit.MANGAN, LIMIT_BASE["mangan"]
    return None, base


def _up(points: int) -> int:
    """Rounded up to a hundred, as every payment is."""
    return -(-points // 100) * 100


@dataclass(frozen=True, slots=True)
class Table:
    """Around the hand: who dealt in, the honba and the sticks on the table."""

    discarder: int | None = None  # the discarder, or the robbed kong's owner; None on tsumo
    honba: int = 0
    sticks: int = 0


def points_of(rules: RiichiRules, value: RiichiValue, hand: RiichiHand) -> dict[str, int]:
    """The hand's price without honba: `discarder` on a ron; on a self draw `each` for a
    dealer winner, else `dealer` and `others`."""
    base = value.base
    if hand.by is not WinBy.SELF_DRAW:
        return {"discarder": _up(base * (6 if hand.seat == 0 else 4))}
    if hand.seat == 0:
        return {"each": _up(base * 2)}
    return {"dealer": _up(base * 2), "others": _up(base)}


def liable_seat(hand: RiichiHand, value: RiichiValue) -> tuple[int, str] | None:
    """Pao: the seat that fed the call completing big three dragons (the third dragon set) or
    big four winds (the fourth wind set), with that yakuman's id, when the hand scores it."""
    scored = {y.id for y in value.yaku}
    for yakuman, kinds in PAO_SETS.items():
        if yakuman not in scored:
            continue
        sets = [m for m in hand.melds if m.first in kinds and m.kind is not MeldKind.CHOW]
        if len(sets) == len(kinds):
            last = sets[-1]
            if last.kind is not MeldKind.CONCEALED_KONG and last.from_seat not in (None, hand.seat):
                return last.from_seat, yakuman
    return None


def seat_payments(
    rules: RiichiRules, value: RiichiValue, hand: RiichiHand, table: Table
) -> list[Payment]:
    """Every seat-to-seat payment of the win (honba included; the pot is not a seat's):
    ron, self draw (sanma's missing seat pays nothing: tsumo loss), and pao."""
    seats = range(rules.players)
    winner, dealer = hand.seat, hand.seat == 0
    pao = liable_seat(hand, value)
    covered = 0  # base points the liable seat answers for
    if pao is not None:
        yakuman = next(y for y in value.yaku if y.id == pao[1]).han // YAKUMAN_HAN
        covered = value.base if rules.pao_whole_hand else LIMIT_BASE["yakuman"] * yakuman
    rest = value.base - covered
    ron_rate = 6 if dealer else 4
    paid: list[Payment] = []

    def pay(payer: int, amount: int, reason: Reason = Reason.WIN) -> None:
        if amount:
            paid.append(Payment(payer, winner, amount, reason))

    if hand.by is WinBy.SELF_DRAW:
        for payer in seats:
            if payer != winner:
                rate = 2 if dealer or payer == 0 else 1
                honba = 0 if pao else table.honba * rules.honba_each
                pay(payer, _up(rest * rate) + honba)
        if pao:  # the liable seat pays all of its part, as if it had dealt in, and the honba
            pay(pao[0], _up(covered * ron_rate) + table.honba * rules.honba_ron, Reason.LIABILITY)
        return paid
    assert table.discarder is not None
    discarder = table.discarder
    if pao is None:
        pay(discarder, _up(value.base * ron_rate) + table.honba * rules.honba_ron)
        return paid
    half = _up(covered * ron_rate) // 2
    pay(discarder, _up(rest * ron_rate) + half)
    pay(pao[0], half + table.honba * rules.honba_ron, Reason.LIABILITY)
    return paid


def win_deltas(rules: RiichiRules, value: RiichiValue, hand: RiichiHand, table: Table) -> list[int]:
    """Each seat's change from the win: its payments plus the pot to the winner."""
    deltas = deltas_of(seat_payments(rules, value, hand, table), rules.players)
    deltas[hand.seat] += table.sticks * STICK
    return deltas


# ------------------------------------------------------------------------------- the loop's family
# `engine.scoring`'s interface for the Riichi presets played on the shared loop: a win's value
# (`score`), its plain price (`win_payments`; engine.families.riichi.rules.RiichiPayments settles
# the honba, the pot and pao from the whole hand) and the wall draw's tenpai payments.

TENPAI_TOTAL = {4: 3000, 3: 2000}  # what the noten seats pay the tenpai seats in all


def hand_of(ctx: WinContext) -> RiichiHand:
    """The loop's win as the package's hand: the loop's circumstances named as Riichi names
    them (a replacement win is rinshan and never haitei too; the last tile is haitei or houtei;
    the dealer's dealt win tenhou); riichi, ippatsu and chiihou come from the rule parts, the
    norths set aside from sanma's nuki part."""
    flags = set(ctx.rule_flags)
    if "kong_replacement" in ctx.flags:
        flags.add("rinshan")
    elif "last_tile" in ctx.flags and ctx.by is not WinBy.ROBBING_KONG:
        flags.add("haitei" if ctx.by is WinBy.SELF_DRAW else "houtei")
    if "heavenly" in ctx.flags:
        flags.add("tenhou")
    return RiichiHand(
        ctx.concealed,
        ctx.win_tile,
        ctx.melds,
        ctx.by,
        ctx.seat,
        ctx.round_wind,
        ctx.dora,
        ctx.ura,
        frozenset(flags),
        ctx.nuki,
    )


def score(preset: Preset, ctx: WinContext) -> Score:
    """A win's value on the loop: invalid without a yaku (`no_yaku`)."""
    rules = RIICHI_RULES[preset.id]
    hand = hand_of(ctx)
    value = value_hand(rules, hand)
    if not value.valid:
        key = "score.riichi.no_yaku" if value.reason == "no_yaku" else "score.riichi.not_winning"
        return Score(valid=False, reason=value.reason, message=Text(key))
    return Score(
        valid=True,
        fan=value.han,
        unit="han",
        limit=value.limit is not None,
        patterns=tuple(Pattern(y.id, y.han, y.id in YAKUMAN_IDS) for y in value.yaku),
        points=points_of(rules, value, hand),
        fu=value.fu,
        limit_name=limit_name(value),
    )


KAZOE = "kazoe"  # a yakuman reached by counting 13 han, not by a yakuman hand


def limit_name(value: RiichiValue) -> str:
    """The limit's name as the result says it: 'kazoe' for a counted yakuman.

    >>> limit_name(RiichiValue(han=13, fu=30, limit=Limit.YAKUMAN, yaku=(Yaku("dora", 13),)))
    'kazoe'
    """
    if value.limit is None:
        return ""
    counted = not any(y.id in YAKUMAN_IDS for y in value.yaku)
    return KAZOE if value.limit is Limit.YAKUMAN and counted else value.limit.value


def win_payments(
    preset: Preset,
    result: Score,
    winner: int,
    by: WinBy,
    discarder: int | None,
    in_play: Sequence[int],
) -> list[Payment]:
    """A win's plain price (no honba, pot or pao): the discarder pays all; a self draw takes
    the dealer's share and the others' (a dealer's from each)."""
    points = result.points
    if by is not WinBy.SELF_DRAW:
        assert discarder is not None
        return [Payment(discarder, winner, points["discarder"], Reason.WIN)]
    return [
        Payment(
            payer,
            winner,
            points["each" if winner == 0 else "dealer" if payer == 0 else "others"],
            Reason.WIN,
        )
        for payer in in_play
        if payer != winner
    ]


def nagashi(state: HandState, seat: int) -> bool:
    """Nagashi mangan: every discard of the seat a terminal or honour, none of them called."""
    pond = state.ponds[seat]
    return bool(pond) and not state.claimed[seat] and all(t in ORPHANS for t in pond)


def wall_draw_payments(preset: Preset, state: HandState) -> list[Payment]:
    """An exhaustive draw: each nagashi mangan paid as a mangan self draw (no honba), else the
    noten seats pay the tenpai seats (formal tenpai counts; all or none tenpai: nothing)."""
    rules = RIICHI_RULES[preset.id]
    seats = list(state.seats)
    mangan = RiichiValue(base=LIMIT_BASE["mangan"], limit=Limit.MANGAN)
    found = [s for s in seats if nagashi(state, s)]
    if found:
        return [
            payment
            for seat in found
            for payment in seat_payments(
                rules, mangan, RiichiHand((), 0, by=WinBy.SELF_DRAW, seat=seat), Table()
            )
        ]
    ready = [s for s in seats if state.is_ready(s)]
    noten = [s for s in seats if s not in ready]
    if not ready or not noten:
        return []
    share = TENPAI_TOTAL[len(seats)] // len(noten) // len(ready)
    return [Payment(payer, payee, share, Reason.NOT_READY) for payer in noten for payee in ready]


# the loop's hooks this family settles as the default does (engine.scoring.family)
CIRCUMSTANCES = NO_CIRCUMSTANCES
kong_payments = no_kong_payments
