"""Hong Kong · Three Fan scoring (RULES.md "Seed 004 tables", `hk-3fan`).

Fan: seven pairs 4 · all pungs 3 · half flush 3 · full flush 6 · dragon pung 1 each · seat wind 1 ·
round wind 1 · self draw 1 · little three dragons 5 (replaces the dragon pungs). Limit hands score
the cap, 8. A win needs 3 fan; each payer pays 2^fan with the fan capped at 8. Kong payments are
paid at once as at every seed-004 table (`kong_payments`, shared with the Sichuan family).

The shapes, the set readings and the tile tests are Hong Kong Old Style's
(engine.families.hongkong.scoring_hkos), so both tables read a hand the same way and differ only in
the values.

Decisions where RULES.md leaves room:

- "The result names every pattern found with its value": a limit hand lists its limit pattern(s)
  at 8 *and* every other pattern it holds at its own value; the fan is the total capped at 8 and
  `limit` is true. A hand whose plain patterns add past 8 is capped but is not a limit hand.
- Big three dragons replaces the dragon pungs as little three dragons does (one dragon pattern).
- `prevailing_wind` is the pattern id of the round wind pung (the id every Hong Kong table uses).
- Seven pairs may hold four of a kind as two pairs (seed 004's common rule); it is a closed
  reading of its own, so it never stacks with all pungs; the reading worth the most counts.
- Robbing a kong, a kong replacement, the last tile and bonus tiles score nothing ("nothing else
  scores"); the robbed player pays as the discarder. A self draw on a kong replacement is a self
  draw (1).
- Heavenly and earthly hands are limits only when the tiles form a winning shape.
"""

from __future__ import annotations

from engine.decompose import is_nine_gates, is_thirteen_orphans
from engine.families.hongkong.scoring_hkos import (
    Shape,
    count_in,
    is_seven_pairs,
    tile_suits,
    winning_shapes,
)
from engine.families.sichuan.scoring import kong_payments
from engine.memo import Memo
from engine.preset import Preset
from engine.scoring.base import Pattern, Score, WinBy, WinContext, score_of_best
from engine.scoring.family import NO_CIRCUMSTANCES, no_wall_draw_payments, table_win_payments
from engine.tiles import DRAGONS, WINDS, counts_of, is_terminal

__all__ = [
    "CIRCUMSTANCES",
    "FAN",
    "LIMIT_PATTERNS",
    "kong_payments",
    "payment",
    "score",
    "wall_draw_payments",
    "win_payments",
]

FAN: dict[str, int] = {
    "seven_pairs": 4,
    "all_pungs": 3,
    "half_flush": 3,
    "full_flush": 6,
    "dragon_pung": 1,  # per dragon pung/kong
    "seat_wind": 1,
    "prevailing_wind": 1,
    "self_draw": 1,
    "little_three_dragons": 5,
}

LIMIT_FAN = 8
LIMIT_PATTERNS = (
    "thirteen_orphans",
    "nine_gates",
    "big_four_winds",
    "little_four_winds",
    "big_three_dragons",
    "all_honours",
    "all_terminals",
    "four_kongs",
    "heavenly_hand",
    "earthly_hand",
)

_REPLACES: dict[str, frozenset[str]] = {
    "little_three_dragons": frozenset({"dragon_pung"}),
    "big_three_dragons": frozenset({"dragon_pung"}),
}


def score(preset: Preset, ctx: WinContext) -> Score:
    """Score an hk-3fan win: the best reading, limits at the cap, the 3-fan minimum, 2^fan."""
    return score_of_best(
        preset, _best_reading(preset, ctx), "hk3fan", lambda p, fan: (p, payment(fan, ctx.by))
    )


def _best_reading(preset: Preset, ctx: WinContext) -> tuple[tuple[Pattern, ...], int, bool] | None:
    """The patterns of the reading worth most, its capped fan and whether it holds a limit;
    None when the tiles do not win. Remembered under exactly what it reads: a computer player
    scores the same tiles as a discard win and as a self draw, and again on later discards."""
    key = (
        preset.sets,
        preset.shape_rules,
        preset.fan_cap,
        ctx.concealed,
        ctx.melds,
        ctx.seat,
        ctx.round_wind,
        ctx.by is WinBy.SELF_DRAW,
        "heavenly" in ctx.flags,
        "earthly" in ctx.flags,
    )
    if key in _BEST_READINGS:
        return _BEST_READINGS[key]
    readings = _readings(preset, ctx)
    found = None
    if readings:
        patterns = max(readings, key=lambda found: (_capped(preset, found), _total(found)))
        limit = any(p.id in LIMIT_PATTERNS for p in patterns)
        found = (patterns, _capped(preset, patterns), limit)
    return _BEST_READINGS.keep(key, found)


_BEST_READINGS: Memo[tuple[object, ...], tuple[tuple[Pattern, ...], int, bool] | None] = Memo()


def payment(fan: int, by: WinBy) -> dict[str, int]:
    """2^fan (fan already capped) from the discarder or robbed player, or from each on self draw."""
    return {"each" if by is WinBy.SELF_DRAW else "discarder": 2**fan}


def _total(patterns: tuple[Pattern, ...]) -> int:
    return sum(p.fan for p in patterns)


def _capped(preset: Preset, patterns: tuple[Pattern, ...]) -> int:
    return min(_total(patterns), preset.fan_cap)


def _readings(preset: Preset, ctx: WinContext) -> list[tuple[Pattern, ...]]:
    """The patterns of every reading of the hand (sets and a pair, seven pairs, thirteen
    orphans), each with the circumstances' patterns; empty when the tiles do not win."""
    counts = counts_of(ctx.concealed)
    closed = not ctx.melds
    common = _circumstance_patterns(ctx)
    readings = [
        _replace(_shape_patterns(ctx, shape) + common) for shape in winning_shapes(preset, ctx)
    ]
    if is_seven_pairs(ctx, preset.shape_rules):
        readings.append(_replace(_seven_pairs_patterns(ctx) + common))
    if preset.shape_rules.thirteen_orphans and closed and is_thirteen_orphans(counts):
        readings.append((Pattern("thirteen_orphans", LIMIT_FAN), *common))
    if readings and closed and is_nine_gates(counts):
        readings = [(Pattern("nine_gates", LIMIT_FAN), *found) for found in readings]
    return readings


def _tile_patterns(ctx: WinContext) -> list[tuple[str, bool | int]]:
    """Suit and terminal patterns of the tiles, whatever their reading."""
    suits, honours = tile_suits(ctx)
    tiles = list(ctx.concealed) + [t for m in ctx.melds for t in m.tiles]
    return [
        ("half_flush", len(suits) == 1 and honours),
        ("full_flush", len(suits) == 1 and not honours),
        ("all_honours", not suits),
        ("all_terminals", all(is_terminal(t) for t in tiles)),
    ]


def _shape_patterns(ctx: WinContext, shape: Shape) -> tuple[Pattern, ...]:
    dragons = count_in(shape.pungs, DRAGONS)
    winds = count_in(shape.pungs, WINDS)
    found: list[tuple[str, bool | int]] = [
        ("all_pungs", not shape.chows),
        ("dragon_pung", dragons),
        ("seat_wind", WINDS[ctx.seat] in shape.pungs),
        ("prevailing_wind", WINDS[ctx.round_wind] in shape.pungs),
        ("little_three_dragons", dragons == 2 and shape.pair in DRAGONS),
        ("big_three_dragons", dragons == 3),
        ("little_four_winds", winds == 3 and shape.pair in WINDS),
        ("big_four_winds", winds == 4),
        ("four_kongs", shape.kongs == 4),
        *_tile_patterns(ctx),
    ]
    return _patterns(found)


def _seven_pairs_patterns(ctx: WinContext) -> tuple[Pattern, ...]:
    return _patterns([("seven_pairs", True), *_tile_patterns(ctx)])


def _circumstance_patterns(ctx: WinContext) -> tuple[Pattern, ...]:
    return _patterns(
        [
            ("self_draw", ctx.by is WinBy.SELF_DRAW),
            ("heavenly_hand", "heavenly" in ctx.flags),
            ("earthly_hand", "earthly" in ctx.flags),
        ]
    )


def _replace(patterns: tuple[Pattern, ...]) -> tuple[Pattern, ...]:
    present = {p.id for p in patterns}
    gone = set().union(*(_REPLACES.get(pid, frozenset()) for pid in present))
    return tuple(p for p in patterns if p.id not in gone)


def _patterns(found: list[tuple[str, bool | int]]) -> tuple[Pattern, ...]:
    """(id, present-or-count) pairs as Patterns: limits at the cap, the rest at FAN[id] each."""
    return tuple(
        Pattern(pid, LIMIT_FAN if pid in LIMIT_PATTERNS else FAN[pid] * int(times))
        for pid, times in found
        if times
    )


# the loop's hooks this family settles as the default does (engine.scoring.family)
CIRCUMSTANCES = NO_CIRCUMSTANCES
win_payments = table_win_payments
wall_draw_payments = no_wall_draw_payments
