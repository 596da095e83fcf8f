"""Chinese Classical scoring (RULES.md `chinese-classical`): every hand is scored, not only the
winner's; points, then doubles, score = points x 2^doubles, no rounding, the limit 1,000 per hand.

Decisions where RULES.md leaves room (each is what a classical table plays):

- Points and doubles of one id are one entry: two exposed simple pungs answer
  `pung_simples_exposed` 4, two dragon pungs `dragon_pung` 2.
- A limit hand answers its ids in `doubles` (each worth 0: the hand is 1,000 flat, not a doubling),
  no points, `raw` and `score` 1,000. Several limit ids may apply (a heavenly thirteen orphans).
- The winner's reading worth the most counts: which sets the concealed tiles make, and which set
  the winning tile completed (a pung completed by a discard is exposed; a winning tile that can
  sit in the pair earns the pair points) are both part of the reading.
- A loser's concealed tiles: every kind held three or four times is a concealed pung (a fourth
  tile never declared is loose), a dragon or valued wind held twice is a pair. Chows and partial
  sets score nothing, so no other reading can be worth more.
- `last_tile` in the flags with a self draw is `last_tile` (the wall's last tile), with a discard
  `last_discard`.
- `east_ninth_win` needs East as the winner and `streak` (his consecutive wins, this one included)
  at nine or more.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations

from engine.decompose import decompositions, is_nine_gates, is_thirteen_orphans
from engine.i18n import Text
from engine.preset import Preset
from engine.scoring.base import Pattern, Score, SeatScore, WinBy, WinContext
from engine.scoring.family import NO_CIRCUMSTANCES, no_kong_payments, no_wall_draw_payments
from engine.settlement import Payment, Reason
from engine.tiles import (
    COPIES,
    DRAGONS,
    FLOWERS,
    GREEN,
    NUM_KINDS,
    SEASONS,
    SEAT_NAMES,
    WINDS,
    Meld,
    MeldKind,
    Tile,
    counts_of,
    is_honour,
    is_terminal,
    kind_of,
    make_tile,
    suit_of,
)

LIMIT = 1_000
EAST_SEAT = 0
EAST_NINE_STREAK = 9
GOING_OUT = 10
SELF_DRAWN = 2
ONLY_PLACE = 2
BONUS_TILE = 4
VALUED_PAIR = 2
# the winning tile completes the pair: simples, terminals or honours
EYES = {False: 2, True: 4}
# a set's points: (kong?, terminal or honour?) -> (exposed, concealed)
SET_POINTS: dict[tuple[bool, bool], tuple[int, int]] = {
    (False, False): (2, 4),
    (False, True): (4, 8),
    (True, False): (8, 16),
    (True, True): (16, 32),
}
ONE_SUIT_WITH_HONOURS = 1
ONE_SUIT_ONLY = 3
GREEN_TILES = frozenset([*(make_tile(rank, "s") for rank in (2, 3, 4, 6, 8)), GREEN])
# every id a hand's points and doubles may carry (the catalogue names each, family `classical`)
POINT_IDS = (
    "going_out",
    "self_drawn",
    "only_place",
    "eyes",
    *(
        f"{set_}_{kind}_{state}"
        for set_ in ("pung", "kong")
        for kind in ("simples", "major")
        for state in ("exposed", "concealed")
    ),
    "pair_dragon",
    "pair_own_wind",
    "pair_prevailing_wind",
    "bonus_tile",
)
DOUBLE_IDS = (
    "dragon_pung",
    "own_wind_pung",
    "prevailing_wind_pung",
    "little_three_dragons",
    "three_concealed_pungs",
    "own_flower_and_season",
    "all_flowers",
    "all_seasons",
    "no_chows",
    "chow_hand",
    "fully_concealed",
    "one_suit_with_honours",
    "one_suit_only",
    "all_terminals_and_honours",
    "last_tile",
    "last_discard",
    "kong_replacement",
    "robbing_kong",
)
LIMIT_IDS = (
    "heavenly",
    "earthly",
    "thirteen_orphans",
    "nine_gates",
    "hidden_treasure",
    "three_great_scholars",
    "little_four_winds",
    "big_four_winds",
    "all_honours",
    "all_terminals",
    "four_kongs",
    "all_green",
    "concealed_one_suit",
    "east_ninth_win",
)


@dataclass(frozen=True, slots=True)
class SeatHand:
    """A seat's hand as it stood at the end: concealed tiles, declared sets, bonus tiles."""

    concealed: tuple[Tile, ...] = ()
    melds: tuple[Meld, ...] = ()
    bonus: tuple[Tile, ...] = ()


@dataclass(frozen=True, slots=True)
class HandScore:
    """One seat's score: its points and doubles (id, value), `raw` = points x 2^doubles, `score`
    after the limit; `limit` for a limit hand, `capped` for a hand cut to the limit."""

    points: tuple[Pattern, ...]
    doubles: tuple[Pattern, ...]
    raw: int
    score: int
    limit: bool = False
    capped: bool = False


@dataclass(frozen=True, slots=True)
class TableScore:
    """Every seat's score when someone goes out, and the payments they make."""

    winner: int
    hands: dict[int, HandScore]
    payments: tuple[Payment, ...]

    @property
    def scores(self) -> dict[int, int]:
        return {seat: hand.score for seat, hand in self.hands.items()}


@dataclass(frozen=True, slots=True)
class _Set:
    """A pung or kong as scored: its kind, whether a kong, exposed (for points), concealed (for
    hidden treasure and three concealed pungs: a kong claimed onto a concealed pung is both)."""

    tile: Tile
    kong: bool
    exposed: bool
    concealed: bool


@dataclass(frozen=True, slots=True)
class _Reading:
    """A hand read as sets: pungs and kongs, chows (their lowest tiles), valued pairs, and for a
    winner its one pair and whether the winning tile completed it."""

    sets: tuple[_Set, ...]
    chows: tuple[Tile, ...]
    pairs: tuple[Tile, ...]
    eyes: bool = False


def _meld_sets(melds: Iterable[Meld]) -> tuple[list[_Set], list[Tile]]:
    sets, chows = [], []
    for meld in melds:
        if meld.kind is MeldKind.CHOW:
            chows.append(meld.first)
            continue
        exposed = meld.kind is not MeldKind.CONCEALED_KONG
        # a kong claimed from a discard was a concealed pung before
        concealed = meld.kind in (MeldKind.CONCEALED_KONG, MeldKind.KONG)
        sets.append(_Set(meld.first, meld.kind.is_kong, exposed, concealed))
    return sets, chows


def _is_major(tile: Tile) -> bool:
    return is_honour(tile) or is_terminal(tile)


def _merged(found: Iterable[tuple[str, int]]) -> tuple[Pattern, ...]:
    """(id, value) pairs as patterns, one per id in first-seen order, values of an id added."""
    totals: dict[str, int] = {}
    for pid, value in found:
        if value:
            totals[pid] = totals.get(pid, 0) + value
    return tuple(Pattern(pid, value) for pid, value in totals.items())


def _set_points(one: _Set) -> tuple[str, int]:
    exposed, concealed = SET_POINTS[(one.kong, _is_major(one.tile))]
    name = "kong" if one.kong else "pung"
    kind = "major" if _is_major(one.tile) else "simples"
    state = "exposed" if one.exposed else "concealed"
    return f"{name}_{kind}_{state}", exposed if one.exposed else concealed


def _pair_points(pair: Tile, seat: int, round_wind: int) -> list[tuple[str, int]]:
    return [
        ("pair_dragon", VALUED_PAIR * (pair in DRAGONS)),
        ("pair_own_wind", VALUED_PAIR * (pair == WINDS[seat])),
        ("pair_prevailing_wind", VALUED_PAIR * (pair == WINDS[round_wind])),
    ]


def _is_valued_pair(pair: Tile, seat: int, round_wind: int) -> bool:
    return pair in DRAGONS or pair in (WINDS[seat], WINDS[round_wind])


def _every_hand(
    reading: _Reading, bonus: Sequence[Tile], seat: int, round_wind: int
) -> tuple[list[tuple[str, int]], list[tuple[str, int]]]:
    """The points and doubles every hand scores, the winner's and the losers'."""
    points = [_set_points(one) for one in reading.sets]
    for pair in reading.pairs:
        points += _pair_points(pair, seat, round_wind)
    points.append(("bonus_tile", BONUS_TILE * len(bonus)))
    kinds = [one.tile for one in reading.sets]
    dragons = sum(1 for t in kinds if t in DRAGONS)
    held = set(bonus)
    doubles = [
        ("dragon_pung", dragons),
        ("own_wind_pung", int(WINDS[seat] in kinds)),
        ("prevailing_wind_pung", int(WINDS[round_wind] in kinds)),
        ("little_three_dragons", int(dragons == 2 and any(p in DRAGONS for p in reading.pairs))),
        ("three_concealed_pungs", int(sum(1 for one in reading.sets if one.concealed) >= 3)),
        (
            "own_flower_and_season",
            int(FLOWERS[seat] in held and SEASONS[seat] in held),
        ),
        ("all_flowers", int(held.issuperset(FLOWERS))),
        ("all_seasons", int(held.issuperset(SEASONS))),
    ]
    return points, doubles


def _hand_score(points: tuple[Pattern, ...], doubles: tuple[Pattern, ...]) -> HandScore:
    raw = sum(p.fan for p in points) * 2 ** sum(d.fan for d in doubles)
    return HandScore(points, doubles, raw, min(raw, LIMIT), capped=raw > LIMIT)


def _limit_score(ids: Iterable[str]) -> HandScore:
    return HandScore((), tuple(Pattern(pid, 0, limit=True) for pid in ids), LIMIT, LIMIT, True)


def score_loser(hand: SeatHand, seat: int, round_wind: int) -> HandScore:
    """A losing hand as it stood: its declared sets, the concealed pungs and valued pairs its
    tiles hold (read to its best advantage), its flowers and their doubles."""
    sets, chows = _meld_sets(hand.melds)
    pairs = []
    for kind, count in enumerate(counts_of(hand.concealed)):
        if count >= 3:
            sets.append(_Set(kind, kong=False, exposed=False, concealed=True))
        elif count == 2 and _is_valued_pair(kind, seat, round_wind):
            pairs.append(kind)
    reading = _Reading(tuple(sets), tuple(chows), tuple(pairs))
    points, doubles = _every_hand(reading, hand.bonus, seat, round_wind)
    return _hand_score(_merged(points), _merged(doubles))


def _winner_readings(ctx: WinContext) -> list[_Reading]:
    """Every reading of a winning hand: the concealed sets, and each place the winning tile can
    have filled (a pung completed by a discard is exposed; the pair is the `eyes`)."""
    meld_sets, meld_chows = _meld_sets(ctx.melds)
    win = kind_of(ctx.win_tile)
    by_discard = ctx.by is not WinBy.SELF_DRAW
    readings = []
    for reading in decompositions(counts_of(ctx.concealed)):
        pungs = [t for kind, t in reading.sets if kind is MeldKind.PUNG]
        chows = [t for kind, t in reading.sets if kind is MeldKind.CHOW]
        # where the winning tile sits: None (a chow, or no difference), a pung's index, the pair
        places: list[int | str | None] = []
        if any(t <= win <= t + 2 and suit_of(t) == suit_of(win) for t in chows):
            places.append(None)
        places += [i for i, t in enumerate(pungs) if t == win]
        if reading.pair == win:
            places.append("pair")
        for place in dict.fromkeys(places):
            sets = [
                _Set(
                    t,
                    kong=False,
                    exposed=by_discard and place == i,
                    concealed=not (by_discard and place == i),
                )
                for i, t in enumerate(pungs)
            ]
            readings.append(
                _Reading(
                    tuple(meld_sets + sets),
                    tuple(meld_chows + chows),
                    (reading.pair,),
                    eyes=place == "pair",
                )
            )
    return readings


def winning_kinds(concealed: Sequence[Tile], melds: Sequence[Meld]) -> list[Tile]:
    """The kinds that would complete these tiles (13 less three a set), a kind whose four copies
    the hand already holds (concealed and declared) not counting as a way."""
    counts = counts_of(concealed)
    held = counts_of([*concealed, *(t for m in melds for t in m.tiles)])
    found = []
    for kind in range(NUM_KINDS):
        if held[kind] >= COPIES:
            continue
        counts[kind] += 1
        if decompositions(counts) or (not melds and is_thirteen_orphans(counts)):
            found.append(kind)
        counts[kind] -= 1
    return found


def _all_tiles(ctx: WinContext) -> list[Tile]:
    """The winner's tiles as kinds, concealed and declared."""
    return [*map(kind_of, ctx.concealed), *(t for m in ctx.melds for t in m.kinds)]


def _winner_items(ctx: WinContext, reading: _Reading, only_place: bool) -> HandScore:
    points, doubles = _every_hand(reading, ctx.bonus, ctx.seat, ctx.round_wind)
    self_drawn = ctx.by is WinBy.SELF_DRAW
    pair = reading.pairs[0]
    points += [
        ("going_out", GOING_OUT),
        ("self_drawn", SELF_DRAWN * self_drawn),
        ("only_place", ONLY_PLACE * only_place),
        ("eyes", EYES[_is_major(pair)] * reading.eyes),
    ]
    kinds = _all_tiles(ctx)
    suits = {suit_of(t) for t in kinds if not is_honour(t)}
    honours = any(is_honour(t) for t in kinds)
    exposed = any(one.exposed for one in reading.sets) or _claimed_chow(ctx)
    last = "last_tile" in ctx.flags
    doubles += [
        ("no_chows", int(not reading.chows)),
        (
            "chow_hand",
            int(len(reading.chows) == 4 and not _is_valued_pair(pair, ctx.seat, ctx.round_wind)),
        ),
        ("fully_concealed", int(self_drawn and not exposed)),
        ("one_suit_with_honours", ONE_SUIT_WITH_HONOURS * (len(suits) == 1 and honours)),
        ("one_suit_only", ONE_SUIT_ONLY * (len(suits) == 1 and not honours)),
        ("all_terminals_and_honours", int(all(_is_major(t) for t in kinds))),
        ("last_tile", int(last and self_drawn)),
        ("last_discard", int(last and not self_drawn)),
        ("kong_replacement", int("kong_replacement" in ctx.flags)),
        ("robbing_kong", int(ctx.by is WinBy.ROBBING_KONG)),
    ]
    return _hand_score(_merged(points), _merged(doubles))


def _claimed_chow(ctx: WinContext) -> bool:
    return any(m.kind is MeldKind.CHOW for m in ctx.melds)


def _limits(
    ctx: WinContext, readings: Sequence[_Reading], streak: int, east_nine: bool
) -> list[str]:
    counts = counts_of(ctx.concealed)
    kinds = _all_tiles(ctx)
    self_drawn = ctx.by is WinBy.SELF_DRAW
    suits = {suit_of(t) for t in kinds if not is_honour(t)}
    open_set = any(m.kind is not MeldKind.CONCEALED_KONG for m in ctx.melds)

    def any_reading(test: Callable[[_Reading], bool]) -> bool:
        return any(test(r) for r in readings)

    def sets_in(r: _Reading, group: tuple[Tile, ...]) -> int:
        return sum(1 for one in r.sets if one.tile in group)

    found = {
        "heavenly": "heavenly" in ctx.flags,
        "earthly": "earthly" in ctx.flags,
        "thirteen_orphans": not ctx.melds and is_thirteen_orphans(counts),
        "nine_gates": not ctx.melds and is_nine_gates(counts),
        "hidden_treasure": self_drawn
        and any_reading(lambda r: sum(1 for one in r.sets if one.concealed) == 4),
        "three_great_scholars": any_reading(lambda r: sets_in(r, DRAGONS) == 3),
        "little_four_winds": any_reading(lambda r: sets_in(r, WINDS) == 3 and r.pairs[0] in WINDS),
        "big_four_winds": any_reading(lambda r: sets_in(r, WINDS) == 4),
        "all_honours": all(is_honour(t) for t in kinds),
        "all_terminals": all(is_terminal(t) for t in kinds),
        "four_kongs": sum(1 for m in ctx.melds if m.kind.is_kong) == 4,
        "all_green": all(t in GREEN_TILES for t in kinds),
        "concealed_one_suit": self_drawn
        and not open_set
        and len(suits) == 1
        and not any(is_honour(t) for t in kinds),
        "east_ninth_win": east_nine and ctx.seat == EAST_SEAT and streak >= EAST_NINE_STREAK,
    }
    return [pid for pid in LIMIT_IDS if found[pid]]


def score_winner(ctx: WinContext, *, streak: int = 1, east_nine: bool = True) -> HandScore | None:
    """The winner's score, its best reading; None when the tiles are not a winning hand (four
    sets and a pair, or thirteen orphans: no seven pairs here)."""
    if len(ctx.concealed) + 3 * len(ctx.melds) != 14:
        return None
    readings = _winner_readings(ctx)
    orphans = not ctx.melds and is_thirteen_orphans(counts_of(ctx.concealed))
    if not readings and not orphans:
        return None
    limits = _limits(ctx, readings, streak, east_nine)
    if limits:
        return _limit_score(limits)
    before = list(ctx.concealed)
    before.remove(ctx.win_tile)
    only_place = len(winning_kinds(before, ctx.melds)) == 1
    return max(
        (_winner_items(ctx, reading, only_place) for reading in readings), key=lambda h: h.raw
    )


def payments(scores: Mapping[int, int], winner: int) -> tuple[Payment, ...]:
    """Who pays whom: each loser pays the winner's score, then the losers settle pairwise (the
    lower pays the higher the difference); x2 whenever East is one of the two."""

    def doubled(a: int, b: int) -> int:
        return 2 if EAST_SEAT in (a, b) else 1

    losers = sorted(seat for seat in scores if seat != winner)
    paid = [
        Payment(seat, winner, scores[winner] * doubled(seat, winner), Reason.WIN)
        for seat in losers
        if scores[winner]
    ]
    for a, b in combinations(losers, 2):
        if scores[a] == scores[b]:
            continue
        low, high = (a, b) if scores[a] < scores[b] else (b, a)
        amount = (scores[high] - scores[low]) * doubled(a, b)
        paid.append(Payment(low, high, amount, Reason.SETTLEMENT))
    return tuple(paid)


def score_table(
    ctx: WinContext,
    others: Mapping[int, SeatHand],
    *,
    streak: int = 1,
    east_nine: bool = True,
) -> TableScore | None:
    """Every seat's score when `ctx.seat` goes out, and the payments; None when the winner's
    tiles are not a winning hand."""
    won = score_winner(ctx, streak=streak, east_nine=east_nine)
    if won is None:
        return None
    hands = {ctx.seat: won}
    for seat, hand in others.items():
        hands[seat] = score_loser(hand, seat, ctx.round_wind)
    ordered = dict(sorted(hands.items()))
    return TableScore(
        ctx.seat, ordered, payments({s: h.score for s, h in ordered.items()}, ctx.seat)
    )


# ----------------------------------------------------------------- the scoring family's hooks
# (engine/scoring/family.py): the loop's win scores every seat through `others` (the family's
# EveryHand part reports them) and pays through `win_payments`

CIRCUMSTANCES = NO_CIRCUMSTANCES
kong_payments = no_kong_payments
wall_draw_payments = no_wall_draw_payments
EAST_NINE = "east_nine"  # the table option (on unless a table turns it off)


def score(preset: Preset, ctx: WinContext) -> Score:
    """The winner's score, with every seat's score in `points` by seat name (what the payments
    read); a seat the context does not report scores nothing."""
    others = {f.seat: SeatHand(f.concealed, f.melds, f.bonus) for f in ctx.others}
    east_nine = dict(preset.chosen).get(EAST_NINE, True) is True
    table = score_table(ctx, others, streak=ctx.streak, east_nine=east_nine)
    if table is None:
        return Score(
            valid=False,
            unit=preset.unit,
            reason="not_a_winning_hand",
            message=Text("score.classical.not_winning"),
        )
    won = table.hands[ctx.seat]
    return Score(
        valid=True,
        fan=won.score,
        unit=preset.unit,
        limit=won.limit,
        patterns=won.points + won.doubles,
        points={SEAT_NAMES[seat]: value for seat, value in table.scores.items()},
        passes_deal=any(d.id == "east_ninth_win" for d in won.doubles),
        hands=tuple(seat_score(seat, hand) for seat, hand in table.hands.items()),
    )


def seat_score(seat: int, hand: HandScore) -> SeatScore:
    """A seat's score as the words and pictures say it: points x 2^doubles = score."""
    return SeatScore(
        seat,
        points=sum(p.fan for p in hand.points),
        doubles=sum(d.fan for d in hand.doubles),
        score=hand.score,
        limit=hand.limit,
        capped=hand.capped,
    )


def win_payments(
    preset: Preset,
    result: Score,
    winner: int,
    by: WinBy,
    discarder: int | None,
    in_play: Sequence[int],
) -> list[Payment]:
    """Each loser pays the winner, then the losers settle (however the winning tile came)."""
    scores = {SEAT_NAMES.index(name): value for name, value in result.points.items()}
    return list(payments({seat: scores.get(seat, 0) for seat in in_play}, winner))
