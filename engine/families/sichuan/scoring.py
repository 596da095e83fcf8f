"""Sichuan scoring (RULES.md "Seed 004 tables": the four Sichuan presets): the table fan with its
cap, kong payments at once, and the wall-draw checks (flower pig, not ready).

Fan: basic win 0; all pungs 1; seven pairs 2; full flush 2; each root 1; kong bloom 1; self draw 1.
Points per payer are 2^fan with the fan capped at `preset.fan_cap` (4).

Decisions where RULES.md and seed 004 leave room (each is what Sichuan tables play):

- A basic win lists no pattern: `patterns` is empty and the fan 0 (one point per payer).
- A root is four of one kind anywhere in the winning hand: a kong, a pung plus the fourth tile
  in the hand, four concealed tiles, or four of a kind read as two of the seven pairs.
- Seven pairs and all pungs never stack: a reading is either seven pairs or sets and a pair, and
  the reading worth the most fan counts (`11223344556677m` scores seven pairs, not chows).
- Robbing a kong has no fan of its own (the table fan has none); the robbed player pays as the
  discarder. `last_tile`, `heavenly` and `earthly` score nothing at these tables.
- `fan` is the capped fan; `patterns` list every pattern at full value, as in the other families;
  `limit` stays false (the table has no limit hands, only the cap).
- A tile of the declared void suit makes the tiles not a winning hand. Without a declared void
  (a `score` request that gives none) the hand must still lack a whole suit, since every player
  declares one.
- At a wall draw the checks cover the players who have not won (blood battle: still in; blood
  flow: not locked). A flower pig pays 16 to each of them who is not a pig, and pays nothing
  more; a clean player that is not ready pays each ready one that player's highest capped win,
  valued as a win on a discard (no self draw, no kong bloom) over all its waits.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from engine import shapes
from engine.decompose import decompositions
from engine.families.hongkong.scoring_hkos import is_seven_pairs
from engine.i18n import Text
from engine.kinds import Opening
from engine.memo import Memo
from engine.preset import Preset
from engine.rules import AfterWinPart, void_suit
from engine.scoring.base import Pattern, Score, WinBy, WinContext
from engine.scoring.family import NO_CIRCUMSTANCES, table_win_payments
from engine.settlement import Payment, Reason, from_each
from engine.tiles import MeldKind, Tile, counts_of, suit_of

if TYPE_CHECKING:
    from engine.hand import HandState

SUITS = "mps"

FAN: dict[str, int] = {
    "all_pungs": 1,
    "seven_pairs": 2,
    "full_flush": 2,
    "root": 1,  # per root
    "kong_bloom": 1,
    "self_draw": 1,
}

FLOWER_PIG_PAYS = 16  # to each clean player at a wall draw: 2^4, the capped win

# Kong payments at once: points from the discarder (exposed kong) or from each other active
# player (added and concealed kongs).
KONG_PAYMENTS: dict[MeldKind, int] = {
    MeldKind.KONG: 2,
    MeldKind.ADDED_KONG: 1,
    MeldKind.CONCEALED_KONG: 2,
}


def score(preset: Preset, ctx: WinContext) -> Score:
    """Score a Sichuan win: the best reading of the tiles, the table fan, the cap, 2^fan."""
    shapes_found = shape_patterns(preset, ctx)
    problem = void_problem(preset, ctx)
    if not shapes_found and not problem:
        pairs = preset.shape_rules.seven_pairs and preset.sets == 4
        key = "score.sichuan.not_winning_or_pairs" if pairs else "score.sichuan.not_winning"
        problem = Text(key, {"sets": preset.sets})
    if problem:
        return Score(valid=False, unit=preset.unit, reason="not_a_winning_hand", message=problem)
    extras = tile_patterns(ctx) + win_patterns(ctx)
    patterns = max((shape + extras for shape in shapes_found), key=total_fan)
    fan = min(total_fan(patterns), preset.fan_cap)
    return Score(
        valid=True, fan=fan, unit=preset.unit, patterns=patterns, points=payment(fan, ctx.by)
    )


def total_fan(patterns: tuple[Pattern, ...]) -> int:
    """Add up the fan of the patterns, before the cap."""
    return sum(p.fan for p in patterns)


def payment(fan: int, by: WinBy) -> dict[str, int]:
    """Who pays 2^fan (fan already capped): the discarder or robbed player, or each on self draw."""
    return {"each" if by is WinBy.SELF_DRAW else "discarder": 2**fan}


def void_problem(preset: Preset, ctx: WinContext) -> Text | None:
    """Why the hand breaks the void-suit rule, or None when it keeps it (or the preset has
    none)."""
    if Opening.VOID not in preset.openings:
        return None
    suits = {suit_of(t) for t in all_tiles(ctx)}
    if ctx.void_suit is None:
        return Text("score.sichuan.three_suits") if len(suits) > 2 else None
    if ctx.void_suit in suits:
        return Text("score.sichuan.void_held", {"suit": ctx.void_suit})
    return None


def all_tiles(ctx: WinContext) -> list[Tile]:
    """Every tile of the winning hand: the concealed ones (winning tile included) and the melds."""
    return list(ctx.concealed) + [t for m in ctx.melds for t in m.tiles]


def shape_patterns(preset: Preset, ctx: WinContext) -> list[tuple[Pattern, ...]]:
    """The shape pattern of each reading of the hand: () or all pungs, or seven pairs.

    An empty list means the tiles do not win; a basic win is one empty reading. Remembered per
    tiles: a computer player scores the same tiles as a discard win and as a self draw.
    """
    key = (preset.sets, preset.shape_rules, ctx.concealed, ctx.melds)
    found = _SHAPE_PATTERNS.get(key)
    if found is None:
        found = _SHAPE_PATTERNS.keep(key, tuple(_work_out_shape_patterns(preset, ctx)))
    return list(found)


_SHAPE_PATTERNS: Memo[tuple[object, ...], tuple[tuple[Pattern, ...], ...]] = Memo()


def _work_out_shape_patterns(preset: Preset, ctx: WinContext) -> list[tuple[Pattern, ...]]:
    if len(ctx.concealed) + 3 * len(ctx.melds) != 3 * preset.sets + 2:
        return []
    counts = counts_of(ctx.concealed)
    melds_pungs = all(m.kind is not MeldKind.CHOW for m in ctx.melds)
    readings: set[tuple[Pattern, ...]] = set()
    for reading in decompositions(counts):
        pungs = melds_pungs and all(kind is MeldKind.PUNG for kind, _ in reading.sets)
        readings.add(_patterns([("all_pungs", pungs)]))
    if is_seven_pairs(ctx, preset.shape_rules):
        readings.add(_patterns([("seven_pairs", True)]))
    return sorted(readings, key=total_fan)


def tile_patterns(ctx: WinContext) -> tuple[Pattern, ...]:
    """The patterns of the tiles whatever their reading: full flush and roots."""
    tiles = all_tiles(ctx)
    roots = sum(1 for count in counts_of(tiles) if count == 4)
    suits = {suit_of(t) for t in tiles}
    # one suit and no honours (an all-honours hand is no flush)
    full_flush = len(suits) == 1 and suits <= set(SUITS)
    return _patterns([("full_flush", full_flush), ("root", roots)])


def win_patterns(ctx: WinContext) -> tuple[Pattern, ...]:
    """The patterns of how the winning tile came: kong bloom and self draw."""
    self_draw = ctx.by is WinBy.SELF_DRAW
    return _patterns(
        [("kong_bloom", self_draw and "kong_replacement" in ctx.flags), ("self_draw", self_draw)]
    )


def _patterns(found: list[tuple[str, bool | int]]) -> tuple[Pattern, ...]:
    """Turn (id, present-or-count) pairs into Patterns worth FAN[id] per occurrence."""
    return tuple(Pattern(pid, FAN[pid] * int(times)) for pid, times in found if times)


# ------------------------------------------------------------------------------- settling hooks


def kong_payments(
    preset: Preset, kind: MeldKind, seat: int, discarder: int | None, in_play: Sequence[int]
) -> list[Payment]:
    """Kong payments at once: exposed 2 from its discarder; added 1 and concealed 2 from each
    other active player.

    >>> from engine.presets import find_preset
    >>> from engine.settlement import deltas_of
    >>> paid = kong_payments(find_preset("sichuan-bb"), MeldKind.CONCEALED_KONG, 1, None, (0, 1, 3))
    >>> deltas_of(paid, 4)
    [-2, 4, 0, -2]
    """
    if kind is MeldKind.KONG:
        assert discarder is not None, "an exposed kong is claimed from a discarder"
        payers = [discarder]
    else:
        payers = [other for other in in_play if other != seat]
    return from_each(payers, seat, KONG_PAYMENTS[kind], Reason.KONG)


def wall_draw_payments(preset: Preset, state: HandState) -> list[Payment]:
    """The checks at a wall draw among the players who have not won: flower pigs pay 16 to each
    clean player; a clean player that is not ready pays each ready one its highest capped win."""
    paid: list[Payment] = []
    locked = state.require(AfterWinPart).locked
    still = [s for s in state.seats_in_play() if not locked[s]]
    pigs = [s for s in still if is_flower_pig(state, s)]
    clean = [s for s in still if s not in pigs]
    for pig in pigs:
        paid += [Payment(pig, other, FLOWER_PIG_PAYS, Reason.FLOWER_PIG) for other in clean]
    values = {s: best_win(preset, state, s) for s in clean}
    ready = [s for s in clean if values[s]]
    for payer in clean:
        if not values[payer]:
            paid += [Payment(payer, other, values[other], Reason.NOT_READY) for other in ready]
    return paid


def is_flower_pig(state: HandState, seat: int) -> bool:
    """Whether the seat still holds a tile of its declared void suit."""
    void = void_suit(state, seat)
    return void is not None and any(suit_of(t) == void for t in state.hands[seat])


def best_win(preset: Preset, state: HandState, seat: int) -> int:
    """The seat's highest capped win (points per payer) over its waits, 0 when not ready."""
    hand = state.hands[seat]
    if len(hand) % 3 != 1:
        return 0
    best = 0
    for tile in shapes.waits(counts_of(hand), preset.shape_rules):
        ctx = WinContext(
            concealed=tuple(sorted([*hand, tile])),
            win_tile=tile,
            melds=tuple(state.melds[seat]),
            by=WinBy.DISCARD,
            seat=seat,
            void_suit=void_suit(state, seat),
        )
        result = score(preset, ctx)
        if result.valid:
            best = max(best, result.points["discarder"])
    return best


# the loop's hooks this family settles as the default does (engine.scoring.family)
CIRCUMSTANCES = NO_CIRCUMSTANCES
win_payments = table_win_payments
