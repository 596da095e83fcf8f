"""Taiwanese sixteen-tile scoring (RULES.md `tw-16`): tai, the 32-tai cap, 1 + tai per payer.

Tai: closed hand 1 · self draw 1 · dragon pung 1 each · seat wind pung 1 · round wind pung 1 ·
all pungs 4 · half flush 4 · full flush 8 · little/big three dragons 4/8 (replacing the dragon
pungs) · little/big four winds 8/16 (replacing the wind pungs) · own flower 1 and own season 1.
The dealer bonus is a settling rule (engine.families.taiwan.rules.DealerBonus), not a pattern: the
hand's reported tai leave it out, and each payment between the dealer and another seat carries it.
Kong payments at once are the seed-004 ones (engine.families.sichuan.scoring.kong_payments).

Decisions where RULES.md and seed 004 leave room:

- Pattern ids: `closed_hand`, `self_draw`, `dragon_pung` (one entry, 1 tai per dragon pung or
  kong), `seat_wind`, `prevailing_wind` (the round wind), `all_pungs`, `half_flush`,
  `full_flush`, `little_three_dragons`, `big_three_dragons`, `little_four_winds`,
  `big_four_winds`, `own_flower`, `own_season`.
- A kong is a pung for every pattern. A closed hand has no claimed melds: concealed kongs keep
  it closed, and winning on a discard (or a robbed kong) does not open it.
- Little three dragons is two dragon pungs and a dragon pair; little four winds three wind pungs
  and a wind pair. Four winds replace `seat_wind` and `prevailing_wind`.
- Half flush is one suit with at least one honour; full flush one suit and no honours; a hand of
  honours only has neither (the section lists no all-honours tai).
- Robbing a kong, a kong replacement, the last tile, heavenly and earthly hands score no tai
  (the section lists none); there is no minimum, so a hand of 0 tai wins and pays 1.
- Each own-seat bonus tile is 1 tai (flower n and season n + 4 belong to seat n); other bonus
  tiles and complete sets score nothing.
- Where several readings of the concealed tiles exist, the one worth the most tai counts.
- `fan` is the capped tai; `patterns` list every pattern at full value; `limit` is always false.
"""

from __future__ import annotations

from engine.families.hongkong.scoring_hkos import Shape, winning_shapes
from engine.families.sichuan.scoring import kong_payments
from engine.memo import Memo
from engine.preset import Preset
from engine.scoring.base import Pattern, Score, WinBy, WinContext, score_of_best
from engine.scoring.family import NO_CIRCUMSTANCES, no_wall_draw_payments, table_win_payments
from engine.tiles import DRAGONS, FLOWERS, SEASONS, WINDS, MeldKind, Tile, is_honour, suit_of

__all__ = ["CIRCUMSTANCES", "TAI", "kong_payments", "score", "wall_draw_payments", "win_payments"]

TAI: dict[str, int] = {
    "closed_hand": 1,
    "self_draw": 1,
    "dragon_pung": 1,  # per dragon pung
    "seat_wind": 1,
    "prevailing_wind": 1,
    "all_pungs": 4,
    "half_flush": 4,
    "full_flush": 8,
    "little_three_dragons": 4,
    "big_three_dragons": 8,
    "little_four_winds": 8,
    "big_four_winds": 16,
    "own_flower": 1,
    "own_season": 1,
}

_WIND_PUNGS = frozenset({"seat_wind", "prevailing_wind"})
REPLACES: dict[str, frozenset[str]] = {
    "little_three_dragons": frozenset({"dragon_pung"}),
    "big_three_dragons": frozenset({"dragon_pung"}),
    "little_four_winds": _WIND_PUNGS,
    "big_four_winds": _WIND_PUNGS,
}

BASE_POINTS = 1  # each payer pays 1 + tai


def score(preset: Preset, ctx: WinContext) -> Score:
    """Score a tw-16 win: the best reading of five sets and a pair, its tai, the cap, 1 + tai."""
    best = _best_reading(preset, ctx)
    capped = None if best is None else (best[0], min(best[1], preset.fan_cap), False)
    return score_of_best(preset, capped, "taiwan", lambda p, tai: (p, payment(tai, ctx.by)))


def _best_reading(preset: Preset, ctx: WinContext) -> tuple[tuple[Pattern, ...], int] | None:
    """The patterns of the reading worth most and their tai before the cap; None when the tiles
    do not win. Remembered under exactly what it reads: a computer player scores the same
    tiles as a discard win and as a self draw, and again on later discards."""
    key = (
        preset.sets,
        ctx.concealed,
        ctx.melds,
        ctx.seat,
        ctx.round_wind,
        ctx.by is WinBy.SELF_DRAW,
        ctx.bonus,
    )
    if key in _BEST_READINGS:
        return _BEST_READINGS[key]
    shapes = winning_shapes(preset, ctx)
    found = None
    if shapes:
        extras = win_patterns(ctx) + bonus_patterns(ctx)
        readings = [replace_patterns(hand_patterns(ctx, shape) + extras) for shape in shapes]
        patterns = max(readings, key=total_tai)
        found = (patterns, total_tai(patterns))
    return _BEST_READINGS.keep(key, found)


_BEST_READINGS: Memo[tuple[object, ...], tuple[tuple[Pattern, ...], int] | None] = Memo()


def total_tai(patterns: tuple[Pattern, ...]) -> int:
    """Add up the tai of the patterns, before the cap."""
    return sum(p.fan for p in patterns)


def payment(tai: int, by: WinBy) -> dict[str, int]:
    """Each payer pays 1 + tai (capped): the discarder or robbed player, or each on a self draw."""
    return {"each" if by is WinBy.SELF_DRAW else "discarder": BASE_POINTS + tai}


def hand_patterns(ctx: WinContext, shape: Shape) -> tuple[Pattern, ...]:
    """The patterns of the tiles for one reading, before replacements."""
    tiles = list(ctx.concealed) + [t for m in ctx.melds for t in m.tiles]
    suits = {suit_of(t) for t in tiles if not is_honour(t)}
    honours = any(is_honour(t) for t in tiles)
    dragons = _count_in(shape.pungs, DRAGONS)
    winds = _count_in(shape.pungs, WINDS)
    found: list[tuple[str, bool | int]] = [
        ("closed_hand", all(m.kind is MeldKind.CONCEALED_KONG for m in ctx.melds)),
        ("dragon_pung", dragons),
        ("seat_wind", WINDS[ctx.seat] in shape.pungs),
        ("prevailing_wind", WINDS[ctx.round_wind] in shape.pungs),
        ("all_pungs", not shape.chows),
        ("half_flush", len(suits) == 1 and honours),
        ("full_flush", len(suits) == 1 and not honours),
        ("little_three_dragons", dragons == 2 and shape.pair in DRAGONS),
        ("big_three_dragons", dragons == 3),
        ("little_four_winds", winds == 3 and shape.pair in WINDS),
        ("big_four_winds", winds == 4),
    ]
    return _patterns(found)


def win_patterns(ctx: WinContext) -> tuple[Pattern, ...]:
    """How the winning tile came: only a self draw scores."""
    return _patterns([("self_draw", ctx.by is WinBy.SELF_DRAW)])


def bonus_patterns(ctx: WinContext) -> tuple[Pattern, ...]:
    """The own-seat flower and season, 1 tai each."""
    bonus = set(ctx.bonus)
    return _patterns(
        [("own_flower", FLOWERS[ctx.seat] in bonus), ("own_season", SEASONS[ctx.seat] in bonus)]
    )


def replace_patterns(patterns: tuple[Pattern, ...]) -> tuple[Pattern, ...]:
    """Drop every pattern that a present pattern replaces."""
    present = {p.id for p in patterns}
    gone = set().union(*(REPLACES.get(pid, frozenset()) for pid in present))
    return tuple(p for p in patterns if p.id not in gone)


def _patterns(found: list[tuple[str, bool | int]]) -> tuple[Pattern, ...]:
    """Turn (id, present-or-count) pairs into Patterns worth TAI[id] per occurrence."""
    return tuple(Pattern(pid, TAI[pid] * int(times)) for pid, times in found if times)


def _count_in(tiles: tuple[Tile, ...], kinds: tuple[Tile, ...]) -> int:
    return sum(1 for t in tiles if t in kinds)


# the loop's hooks this family settles as the default does (engine.scoring.family)
CIRCUMSTANCES = NO_CIRCUMSTANCES
win_payments = table_win_payments
wall_draw_payments = no_wall_draw_payments
