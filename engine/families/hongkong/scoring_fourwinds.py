"""Hong Kong Mah Jong as Four Winds 2 plays it (RULES.md `hk-fw2`, seed 003): faan, limit
hands, the settling table and the three insurance penalties.

The shapes, set readings and tile tests are Hong Kong Old Style's
(engine.families.hongkong.scoring_hkos); only the values, the limits and the settling differ.

Settling: base by faan 0→1, 1→2, 2→4, 3→8, 4–6→16, 7–9→32, 10 or more and limit hands →64. A
discard win: the discarder pays 2 × base and each other player base (`points`: "discarder" and
"others"); a self draw: each pays 2 × base ("each"). An insurance penalty makes the discarder pay
the others' share too: "discarder" 4 × base and "others" 0, and the result names the penalty as
a pattern of 0 faan (`insurance_classical`, `insurance_nine_tiles`, `insurance_last_five`).

Decisions where RULES.md leaves room:

- A limit hand scores `fan` 10 (the first faan count that pays the limit) and lists only its
  limit pattern(s), at 10 each; `limit` is true.
- `dragon_pung` is one pattern whose faan is the number of dragon pungs/kongs; a pung and a kong
  are the same set for every pattern.
- "Out on the last tile of the wall" and "out on the last discard" are one pattern `last_tile`
  (the request flag of that name, on a self draw or a discard). "Out on a supplement tile" is
  `kong_replacement` after a kong and `flower_replacement` after a flower or season.
- Hidden treasure needs a reading of four concealed pungs whose pair is the winning tile's kind.
- Jade, ruby and pearl dragon: every tile is either the dragon (held as a pung or kong) or of the
  dragon's suit (bamboo, characters, dots); no other honour.
- Robbing a kong is paid by the robbed player as a discard win (2 × base, the others base); the
  insurance penalties apply to discard wins only.
- Insurance: an exposed set is a claimed meld (chow, pung, exposed or added kong), never a
  concealed kong. *Nine tiles error* needs three exposed sets of one suit (honour sets not
  counted) and a one-suit hand (with honours or only). *Last five tiles error* needs
  `wall_left` ≤ 5 and `seen` 0; without those fields it does not apply. When several apply, the
  first of classical, nine tiles, last five is named (the payment is the same).
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.decompose import is_nine_gates, is_thirteen_orphans
from engine.families.hongkong.scoring_hkos import (
    Shape,
    count_in,
    is_seven_pairs,
    tile_suits,
    winning_shapes,
)
from engine.memo import Memo
from engine.preset import Preset
from engine.scoring.base import Pattern, Score, WinBy, WinContext, score_of_best
from engine.scoring.family import no_kong_payments, no_wall_draw_payments
from engine.settlement import Payment, Reason, from_each
from engine.tiles import (
    DRAGONS,
    FLOWERS,
    GREEN,
    RED,
    SEASONS,
    WHITE,
    WINDS,
    MeldKind,
    Tile,
    counts_of,
    is_terminal,
    suit_of,
)

FAAN: dict[str, int] = {
    "dragon_pung": 1,  # per dragon pung/kong
    "seat_wind": 1,
    "prevailing_wind": 1,
    "little_three_dragons": 4,  # on top of its two dragon pungs
    "chow_hand": 1,
    "pung_hand": 3,
    "one_suit_with_honours": 3,
    "one_suit_only": 6,
    "seven_pairs": 4,
    "all_honours": 7,
    "self_draw": 1,
    "last_tile": 1,
    "kong_replacement": 1,
    "flower_replacement": 1,
    "robbing_kong": 1,
    "no_bonus_tiles": 1,
    "own_flower": 1,
    "own_season": 1,
    "flower_set": 2,
    "season_set": 2,
}

LIMIT_FAAN = 10
LIMIT_PATTERNS = (
    "hidden_treasure",
    "three_great_scholars",
    "little_four_winds",
    "big_four_winds",
    "all_terminals",
    "nine_gates",
    "thirteen_orphans",
    "heavenly_hand",
    "earthly_hand",
    "jade_dragon",
    "ruby_dragon",
    "pearl_dragon",
)

# the precious dragons: the dragon and the one suit the rest of the hand is made of
PRECIOUS_DRAGONS = {
    "jade_dragon": (GREEN, "s"),
    "ruby_dragon": (RED, "m"),
    "pearl_dragon": (WHITE, "p"),
}

BASE = (1, 2, 4, 8, 16, 16, 16, 32, 32, 32, 64)  # by faan; 10 or more pays the last
INSURANCE_LIMIT_WALL = 5  # last five tiles error: at most this many tiles left in the wall
CIRCUMSTANCES = frozenset({"wall_left", "seen"})  # the insurance penalties read them

_REPLACES = {"flower_set": "own_flower", "season_set": "own_season"}


def score(preset: Preset, ctx: WinContext) -> Score:
    """Score an hk-fw2 win: limits, else the best reading's faan; the minimum; the settling."""

    def settle(
        patterns: tuple[Pattern, ...], fan: int
    ) -> tuple[tuple[Pattern, ...], dict[str, int]]:
        penalty = insurance(ctx, patterns)
        if penalty:
            patterns = (*patterns, Pattern(penalty, 0))
        return patterns, settling(fan, ctx.by, insured=bool(penalty))

    return score_of_best(preset, _best_reading(preset, ctx), "fourwinds", settle)


def _best_reading(preset: Preset, ctx: WinContext) -> tuple[tuple[Pattern, ...], int, bool] | None:
    """The limit patterns, else the patterns of the reading worth most, with the faan and
    whether it is a limit hand; None when the tiles do not win. Remembered under exactly what
    it reads (the winning tile only for a closed hand's hidden treasure): a computer player
    scores the same tiles as a discard win and as a self draw, and again on later discards."""
    key = (
        preset.sets,
        preset.shape_rules,
        ctx.concealed,
        ctx.melds,
        None if ctx.melds else ctx.win_tile,
        ctx.seat,
        ctx.round_wind,
        ctx.by,
        ctx.flags,
        ctx.bonus,
    )
    if key in _BEST_READINGS:
        return _BEST_READINGS[key]
    return _BEST_READINGS.keep(key, _work_out_best_reading(preset, ctx))


_BEST_READINGS: Memo[tuple[object, ...], tuple[tuple[Pattern, ...], int, bool] | None] = Memo()


def _work_out_best_reading(
    preset: Preset, ctx: WinContext
) -> tuple[tuple[Pattern, ...], int, bool] | None:
    counts = counts_of(ctx.concealed)
    shapes = winning_shapes(preset, ctx)
    closed = not ctx.melds
    pairs = is_seven_pairs(ctx, preset.shape_rules)
    orphans = preset.shape_rules.thirteen_orphans and closed and is_thirteen_orphans(counts)
    if not shapes and not pairs and not orphans:
        return None
    limits = limit_patterns(ctx, shapes, orphans)
    if limits:
        return limits, LIMIT_FAAN, True
    common = _tile_patterns(ctx) + win_patterns(ctx) + bonus_patterns(ctx)
    readings = [_shape_patterns(ctx, shape) + common for shape in shapes]
    if pairs:
        readings.append((Pattern("seven_pairs", FAAN["seven_pairs"]), *common))
    patterns = max(readings, key=_total)
    return patterns, _total(patterns), False


def base_points(fan: int) -> int:
    """The settling table's base for a faan count (10 or more, and limit hands: 64)."""
    return BASE[min(fan, len(BASE) - 1)]


def settling(fan: int, by: WinBy, *, insured: bool = False) -> dict[str, int]:
    """Who pays what: each 2 × base on a self draw; else the discarder 2 × base and each other
    player base, or the discarder all of it (4 × base) under an insurance penalty."""
    base = base_points(fan)
    if by is WinBy.SELF_DRAW:
        return {"each": 2 * base}
    if insured:
        return {"discarder": 4 * base, "others": 0}
    return {"discarder": 2 * base, "others": base}


def win_payments(
    preset: Preset,
    result: Score,
    winner: int,
    by: WinBy,
    discarder: int | None,
    in_play: Sequence[int],
) -> list[Payment]:
    """The settling hook: every other seat pays (the discarder its own share)."""
    points = result.points
    if by is WinBy.SELF_DRAW:
        return from_each(in_play, winner, points["each"], Reason.WIN)
    assert discarder is not None
    paid = [Payment(discarder, winner, points["discarder"], Reason.WIN)]
    if points["others"]:
        others = [seat for seat in in_play if seat != discarder]
        paid += from_each(others, winner, points["others"], Reason.WIN)
    return paid


def limit_patterns(ctx: WinContext, shapes: list[Shape], orphans: bool) -> tuple[Pattern, ...]:
    """The limit hands this winning hand is (each listed at LIMIT_FAAN)."""
    tiles = _all_tiles(ctx)
    closed = not ctx.melds
    found = {
        "hidden_treasure": closed and any(not s.chows and s.pair == ctx.win_tile for s in shapes),
        "three_great_scholars": any(count_in(s.pungs, DRAGONS) == 3 for s in shapes),
        "little_four_winds": any(count_in(s.pungs, WINDS) == 3 and s.pair in WINDS for s in shapes),
        "big_four_winds": any(count_in(s.pungs, WINDS) == 4 for s in shapes),
        "all_terminals": all(is_terminal(t) for t in tiles),
        "nine_gates": closed and is_nine_gates(counts_of(ctx.concealed)),
        "thirteen_orphans": orphans,
        "heavenly_hand": "heavenly" in ctx.flags,
        "earthly_hand": "earthly" in ctx.flags,
    }
    for pid, (dragon, suit) in PRECIOUS_DRAGONS.items():
        found[pid] = any(dragon in s.pungs for s in shapes) and all(
            t == dragon or suit_of(t) == suit for t in tiles
        )
    return tuple(Pattern(pid, LIMIT_FAAN) for pid in LIMIT_PATTERNS if found[pid])


def _shape_patterns(ctx: WinContext, shape: Shape) -> tuple[Pattern, ...]:
    """The set patterns of one reading as four sets and a pair."""
    dragons = count_in(shape.pungs, DRAGONS)
    seat_wind, round_wind = WINDS[ctx.seat], WINDS[ctx.round_wind]
    valued_pair = shape.pair in DRAGONS or shape.pair in (seat_wind, round_wind)
    return _patterns(
        [
            ("dragon_pung", dragons),
            ("seat_wind", seat_wind in shape.pungs),
            ("prevailing_wind", round_wind in shape.pungs),
            ("little_three_dragons", dragons == 2 and shape.pair in DRAGONS),
            ("chow_hand", not shape.pungs and not valued_pair),
            ("pung_hand", not shape.chows),
        ]
    )


def _tile_patterns(ctx: WinContext) -> tuple[Pattern, ...]:
    """The suit patterns of the tiles, whatever their reading."""
    suits, honours = tile_suits(ctx)
    return _patterns(
        [
            ("one_suit_with_honours", len(suits) == 1 and honours),
            ("one_suit_only", len(suits) == 1 and not honours),
            ("all_honours", not suits),
        ]
    )


def win_patterns(ctx: WinContext) -> tuple[Pattern, ...]:
    """The patterns of how the winning tile came."""
    return _patterns(
        [
            ("self_draw", ctx.by is WinBy.SELF_DRAW),
            ("last_tile", "last_tile" in ctx.flags),
            ("kong_replacement", "kong_replacement" in ctx.flags),
            ("flower_replacement", "flower_replacement" in ctx.flags),
            ("robbing_kong", ctx.by is WinBy.ROBBING_KONG),
        ]
    )


def bonus_patterns(ctx: WinContext) -> tuple[Pattern, ...]:
    """Flowers and seasons: own 1 each, a complete set 2 (replacing that own point), none 1."""
    bonus = set(ctx.bonus)
    found = _patterns(
        [
            ("no_bonus_tiles", not bonus),
            ("own_flower", FLOWERS[ctx.seat] in bonus),
            ("own_season", SEASONS[ctx.seat] in bonus),
            ("flower_set", bonus.issuperset(FLOWERS)),
            ("season_set", bonus.issuperset(SEASONS)),
        ]
    )
    gone = {_REPLACES[p.id] for p in found if p.id in _REPLACES}
    return tuple(p for p in found if p.id not in gone)


def insurance(ctx: WinContext, patterns: tuple[Pattern, ...]) -> str:
    """The insurance penalty this discard win carries ('' for none): the discarder then pays
    for every loser (RULES.md `hk-fw2` "Insurance penalties")."""
    if ctx.by is not WinBy.DISCARD:
        return ""
    ids = {p.id for p in patterns}
    exposed = [m for m in ctx.melds if m.kind is not MeldKind.CONCEALED_KONG]
    exposed_sets = [m.first for m in exposed if m.kind is not MeldKind.CHOW]
    win = ctx.win_tile
    scholars = "three_great_scholars" in ids and count_in(tuple(exposed_sets), DRAGONS) >= 2
    four_winds = "big_four_winds" in ids and count_in(tuple(exposed_sets), WINDS) >= 3
    if (scholars and win in DRAGONS) or (four_winds and win in WINDS):
        return "insurance_classical"
    suited = [suit_of(m.first) for m in exposed if m.first < 27]
    suits, _ = tile_suits(ctx)
    if len(suits) == 1 and any(suited.count(suit) >= 3 for suit in set(suited)):
        return "insurance_nine_tiles"
    late = ctx.wall_left is not None and ctx.wall_left <= INSURANCE_LIMIT_WALL
    if late and ctx.seen == 0:
        return "insurance_last_five"
    return ""


def _all_tiles(ctx: WinContext) -> list[Tile]:
    return list(ctx.concealed) + [t for m in ctx.melds for t in m.tiles]


def _total(patterns: tuple[Pattern, ...]) -> int:
    return sum(p.fan for p in patterns)


def _patterns(found: list[tuple[str, bool | int]]) -> tuple[Pattern, ...]:
    return tuple(Pattern(pid, FAAN[pid] * int(times)) for pid, times in found if times)


# the loop's hooks this family settles as the default does (engine.scoring.family)
kong_payments = no_kong_payments
wall_draw_payments = no_wall_draw_payments
