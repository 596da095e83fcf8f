"""Hong Kong Old Style scoring (RULES.md `hkos-3-v1`): faan patterns, 3-faan minimum, half laak.

Decisions where RULES.md leaves room (each is what HK tables play):

- `dragon_pung` is ONE pattern entry whose fan is the number of dragon pungs/kongs (2 for two).
- A pung and a kong are the same set for every pattern (dragon, wind, all pungs, four winds).
- `all_chows` needs four chows, claimed ones included, and any pair (an honour pair too);
  the winning wait and flowers do not matter.
- `half_flush` needs one suit and at least one honour; an all-honour hand is `all_honours` only.
- `all_terminals` is suited 1s and 9s only; terminals mixed with honours score no ten-faan.
- Limit hands score 13 flat, whatever else the hand has. If several limit patterns apply (a
  heavenly thirteen orphans), each is listed at 13 and the hand is still worth 13.
- `limit` in the result is true only for those limit hands; a hand whose patterns add up past
  13 lists them all at full value and is capped to 13 faan, but is not a limit hand.
- Where several readings of the concealed tiles exist, the one worth the most faan counts.
- `kong_replacement` and the other win patterns come from `ctx.by` and `ctx.flags` as given;
  whether the circumstances are possible is checked before scoring
  (engine/formats/score_request.py).
- Heavenly and earthly hands are limits only when the tiles form a winning shape.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.decompose import decompositions, is_nine_gates, is_thirteen_orphans
from engine.memo import Memo
from engine.preset import Preset
from engine.scoring.base import Pattern, Reading, Score, WinBy, WinContext, score_of_best
from engine.scoring.family import (
    NO_CIRCUMSTANCES,
    no_kong_payments,
    no_wall_draw_payments,
    table_win_payments,
)
from engine.shapes import ShapeRules
from engine.tiles import (
    DRAGONS,
    FLOWERS,
    SEASONS,
    WINDS,
    MeldKind,
    Tile,
    counts_of,
    is_honour,
    is_terminal,
    suit_of,
)

FAAN: dict[str, int] = {
    # hand patterns (fan per occurrence for dragon_pung)
    "all_chows": 1,
    "dragon_pung": 1,
    "seat_wind": 1,
    "prevailing_wind": 1,
    "all_pungs": 3,
    "half_flush": 3,
    "little_three_dragons": 5,
    "pure_flush": 7,
    "big_three_dragons": 8,
    "little_four_winds": 10,
    "all_honours": 10,
    "all_terminals": 10,
    # win patterns
    "self_draw": 1,
    "kong_replacement": 1,
    "robbing_kong": 1,
    "last_tile": 1,
    # bonus-tile patterns
    "no_bonus_tiles": 1,
    "own_flower": 1,
    "own_season": 1,
    "flower_set": 2,
    "season_set": 2,
    "all_bonus_tiles": 8,
}

LIMIT_FAAN = 13
LIMIT_PATTERNS = (
    "thirteen_orphans",
    "nine_gates",
    "big_four_winds",
    "four_kongs",
    "heavenly_hand",
    "earthly_hand",
)

# Ten-faan patterns swallow the hand's component patterns, never win or bonus-tile ones.
_TEN_FAAN_REPLACES = frozenset(
    {
        "half_flush",
        "pure_flush",
        "seat_wind",
        "prevailing_wind",
        "dragon_pung",
        "little_three_dragons",
        "big_three_dragons",
        "all_pungs",
    }
)

REPLACES: dict[str, frozenset[str]] = {
    "little_three_dragons": frozenset({"dragon_pung"}),
    "big_three_dragons": frozenset({"dragon_pung"}),
    "little_four_winds": _TEN_FAAN_REPLACES,
    "all_honours": _TEN_FAAN_REPLACES,
    "all_terminals": _TEN_FAAN_REPLACES,
    "flower_set": frozenset({"own_flower"}),
    "season_set": frozenset({"own_season"}),
    "all_bonus_tiles": frozenset({"own_flower", "own_season", "flower_set", "season_set"}),
}

# Half laak: faan -> (the discarder pays, each of the three pays on a self draw).
PAYMENTS: dict[int, tuple[int, int]] = {
    3: (8, 4),
    4: (16, 8),
    5: (24, 12),
    6: (32, 16),
    7: (48, 24),
    8: (64, 32),
    9: (96, 48),
    10: (128, 64),
    11: (192, 96),
    12: (256, 128),
    13: (384, 192),
}


@dataclass(frozen=True, slots=True)
class Shape:
    """A whole winning hand read as sets: pungs (kongs included), chows and the pair."""

    pungs: tuple[Tile, ...]
    chows: tuple[Tile, ...]
    pair: Tile
    kongs: int = 0


@dataclass(frozen=True, slots=True)
class _TileReading:
    """What the tiles of a win decide, apart from how it came and the bonus tiles: its readings,
    thirteen orphans, the limits of the tiles and the hand patterns of the reading worth most.

    A hand pattern replaces only hand patterns and the win and bonus-tile patterns are the same
    for every reading, so the reading worth the most with them is the one worth most without:
    the first of those, as `max` picks it over the readings with them."""

    shapes: tuple[Shape, ...]  # remembered and shared: never changed
    orphans: bool
    limits: tuple[Pattern, ...]
    best_hand: tuple[Pattern, ...]  # after replacements; empty without shapes
    best_hand_fan: int


def _tile_reading(preset: Preset, ctx: WinContext) -> _TileReading:
    """The tiles' reading, remembered: a computer player scores the same tiles as a discard win
    and as a self draw, and other seats' hands again on every discard."""
    rules = preset.shape_rules
    key = (preset.sets, rules.thirteen_orphans, ctx.concealed, ctx.melds, ctx.seat, ctx.round_wind)
    found = _TILE_READINGS.get(key)
    if found is None:
        counts = counts_of(ctx.concealed)
        shapes = tuple(winning_shapes(preset, ctx))
        orphans = rules.thirteen_orphans and not ctx.melds and is_thirteen_orphans(counts)
        limits = _tile_limits(ctx, shapes, orphans) if shapes or orphans else ()
        hands = [replace_patterns(hand_patterns(ctx, shape)) for shape in shapes]
        best_hand = max(hands, key=total_fan) if hands else ()
        found = _TILE_READINGS.keep(
            key, _TileReading(shapes, orphans, limits, best_hand, total_fan(best_hand))
        )
    return found


def _circumstance_patterns(ctx: WinContext) -> tuple[tuple[Pattern, ...], int]:
    """The win and bonus-tile patterns after replacements, and their faan, remembered: they
    come in few kinds."""
    key = (ctx.by, ctx.flags, ctx.bonus, ctx.seat)
    found = _CIRCUMSTANCES.get(key)
    if found is None:
        patterns = replace_patterns(win_patterns(ctx) + bonus_patterns(ctx))
        found = _CIRCUMSTANCES.keep(key, (patterns, total_fan(patterns)))
    return found


_TILE_READINGS: Memo[tuple[object, ...], _TileReading] = Memo()
_CIRCUMSTANCES: Memo[tuple[object, ...], tuple[tuple[Pattern, ...], int]] = Memo()


def score(preset: Preset, ctx: WinContext) -> Score:
    """Score a Hong Kong Old Style win: the best reading, replacements, minimum, cap, payment."""
    return score_of_best(
        preset, _best_reading(preset, ctx), "hkos", lambda p, fan: (p, payment(fan, ctx.by))
    )


def _best_reading(preset: Preset, ctx: WinContext) -> Reading | None:
    """A limit hand at the limit, else the reading worth most with the circumstances' patterns,
    capped; None when the tiles do not win."""
    reading = _tile_reading(preset, ctx)
    if not reading.shapes and not reading.orphans:
        return None
    limits = reading.limits + _flag_limits(ctx)
    if limits:
        return limits, LIMIT_FAAN, True
    extras, extras_fan = _circumstance_patterns(ctx)
    return (
        reading.best_hand + extras,
        min(reading.best_hand_fan + extras_fan, preset.fan_cap),
        False,
    )


def total_fan(patterns: tuple[Pattern, ...]) -> int:
    """Add up the fan of the patterns, before any cap."""
    return sum(p.fan for p in patterns)


def payment(fan: int, by: WinBy) -> dict[str, int]:
    """Look up who pays: the discarder (a robbed player counts as one), or each on self draw."""
    discarder, each = PAYMENTS[min(fan, max(PAYMENTS))]
    if by is WinBy.SELF_DRAW:
        return {"each": each}
    return {"discarder": discarder}


def winning_shapes(preset: Preset, ctx: WinContext) -> list[Shape]:
    """List every reading of concealed tiles plus declared melds as `preset.sets` sets + a pair."""
    if len(ctx.concealed) + 3 * len(ctx.melds) != 3 * preset.sets + 2:
        return []
    meld_pungs = tuple(m.first for m in ctx.melds if m.kind is not MeldKind.CHOW)
    meld_chows = tuple(m.first for m in ctx.melds if m.kind is MeldKind.CHOW)
    kongs = sum(1 for m in ctx.melds if m.kind.is_kong)
    shapes = []
    for reading in decompositions(counts_of(ctx.concealed)):
        pungs = tuple(t for kind, t in reading.sets if kind is MeldKind.PUNG)
        chows = tuple(t for kind, t in reading.sets if kind is MeldKind.CHOW)
        shapes.append(Shape(meld_pungs + pungs, meld_chows + chows, reading.pair, kongs))
    return shapes


def limit_patterns(ctx: WinContext, shapes: list[Shape], orphans: bool) -> tuple[Pattern, ...]:
    """List the 13-faan limit patterns of a hand already known to be a winning shape."""
    return _tile_limits(ctx, shapes, orphans) + _flag_limits(ctx)


def _tile_limits(ctx: WinContext, shapes: Sequence[Shape], orphans: bool) -> tuple[Pattern, ...]:
    """The limit patterns the tiles decide, in LIMIT_PATTERNS order."""
    found = {
        "thirteen_orphans": orphans,
        "nine_gates": not ctx.melds and is_nine_gates(counts_of(ctx.concealed)),
        "big_four_winds": any(count_in(s.pungs, WINDS) == 4 for s in shapes),
        "four_kongs": any(s.kongs == 4 for s in shapes),
    }
    return _in_limit_order(found)


def _flag_limits(ctx: WinContext) -> tuple[Pattern, ...]:
    """The limit patterns the win's circumstances decide, in LIMIT_PATTERNS order."""
    if not ctx.flags:
        return ()
    return _in_limit_order(
        {"heavenly_hand": "heavenly" in ctx.flags, "earthly_hand": "earthly" in ctx.flags}
    )


def _in_limit_order(found: dict[str, bool]) -> tuple[Pattern, ...]:
    return tuple(Pattern(pid, LIMIT_FAAN) for pid in LIMIT_PATTERNS if found.get(pid))


def hand_patterns(ctx: WinContext, shape: Shape) -> tuple[Pattern, ...]:
    """List the patterns of the tiles themselves for one reading, before replacements."""
    tiles = list(ctx.concealed) + [t for m in ctx.melds for t in m.tiles]
    suits = {suit_of(t) for t in tiles if not is_honour(t)}
    honours = any(is_honour(t) for t in tiles)
    dragons = count_in(shape.pungs, DRAGONS)
    winds = count_in(shape.pungs, WINDS)
    found: list[tuple[str, bool | int]] = [
        ("all_chows", not shape.pungs),
        ("dragon_pung", dragons),
        ("seat_wind", WINDS[ctx.seat] in shape.pungs),
        ("prevailing_wind", WINDS[ctx.round_wind] in shape.pungs),
        ("all_pungs", not shape.chows),
        ("half_flush", len(suits) == 1 and honours),
        ("little_three_dragons", dragons == 2 and shape.pair in DRAGONS),
        ("pure_flush", len(suits) == 1 and not honours),
        ("big_three_dragons", dragons == 3),
        ("little_four_winds", winds == 3 and shape.pair in WINDS),
        ("all_honours", not suits),
        ("all_terminals", all(is_terminal(t) for t in tiles)),
    ]
    return _patterns(found)


def win_patterns(ctx: WinContext) -> tuple[Pattern, ...]:
    """List the patterns of how the winning tile came."""
    return _patterns(
        [
            ("self_draw", ctx.by is WinBy.SELF_DRAW),
            ("kong_replacement", "kong_replacement" in ctx.flags),
            ("robbing_kong", ctx.by is WinBy.ROBBING_KONG),
            ("last_tile", "last_tile" in ctx.flags),
        ]
    )


def bonus_patterns(ctx: WinContext) -> tuple[Pattern, ...]:
    """List the flower and season patterns, before replacements."""
    bonus = set(ctx.bonus)
    return _patterns(
        [
            ("no_bonus_tiles", not bonus),
            ("own_flower", FLOWERS[ctx.seat] in bonus),
            ("own_season", SEASONS[ctx.seat] in bonus),
            ("flower_set", bonus.issuperset(FLOWERS)),
            ("season_set", bonus.issuperset(SEASONS)),
            ("all_bonus_tiles", bonus.issuperset(FLOWERS + SEASONS)),
        ]
    )


def replace_patterns(patterns: tuple[Pattern, ...]) -> tuple[Pattern, ...]:
    """Drop every pattern that a present pattern replaces (RULES.md's replacement rules)."""
    gone: set[str] = set()
    for p in patterns:
        replaced = REPLACES.get(p.id)
        if replaced:
            gone |= replaced
    return tuple(p for p in patterns if p.id not in gone) if gone else patterns


def _patterns(found: list[tuple[str, bool | int]]) -> tuple[Pattern, ...]:
    """Turn (id, present-or-count) pairs into Patterns worth FAAN[id] per occurrence."""
    return tuple(Pattern(pid, FAAN[pid] * int(times)) for pid, times in found if times)


def count_in(tiles: tuple[Tile, ...], kinds: tuple[Tile, ...]) -> int:
    return sum(1 for t in tiles if t in kinds)


def tile_suits(ctx: WinContext) -> tuple[set[str], bool]:
    """The suits of the hand's suited tiles (melds included), and whether it holds an honour."""
    tiles = list(ctx.concealed) + [t for m in ctx.melds for t in m.tiles]
    return {suit_of(t) for t in tiles if not is_honour(t)}, any(is_honour(t) for t in tiles)


def is_seven_pairs(ctx: WinContext, rules: ShapeRules) -> bool:
    """Seven pairs where the rules allow them: a closed hand of 14 tiles all in pairs (four of a
    kind as two if allowed)."""
    if not rules.seven_pairs or ctx.melds or len(ctx.concealed) != 14:
        return False
    allowed = (0, 2, 4) if rules.kong_as_two_pairs else (0, 2)
    return all(c in allowed for c in counts_of(ctx.concealed))


# the loop's hooks this family settles as the default does (engine.scoring.family)
CIRCUMSTANCES = NO_CIRCUMSTANCES
win_payments = table_win_payments
kong_payments = no_kong_payments
wall_draw_payments = no_wall_draw_payments
