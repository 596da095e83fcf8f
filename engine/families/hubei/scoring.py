"""hubei-laizi scoring and payment (RULES.md `hubei-laizi`, seed 002): the winner's fan, each
loser's fan, who pays base × 2^(winner fan + loser fan), the minimum, the caps, the robbed-kong
payment and liability, all as `Payment`s of one win.

Winner fan: big wins 1 each (full_flush, all_258, all_pungs, all_melded_single_wait), kong_bloom 1
(small win only), last_draw 1, hard_win 1, four_wilds 1 (big wins only), and the winner's own
kongs: red_kong / green_kong 1, wild_kong 2, exposed_kong 1, added_kong 1, concealed_kong 2.
Loser fan: its own kongs (the same values), discarder 1 (not on a small win), open hand 1 (the
robbed player's always: it was adding to a claimed pung, listed in `others` or not).

Decisions where RULES.md and seed 002 leave room:

- A hand is read twice: with the wilds as jokers and with every wild at face value; the face
  reading adds hard_win. The reading worth more winner fan counts (a tie: the face reading).
  Without a wild in hand the two are one reading, a hard win.
- Full flush and all 2-5-8 look at the tiles other than wilds (melds never hold a wild); white
  dragons (green_white tables) break a full flush and all 2-5-8.
- All pungs with wilds: the wilds fill the pungs and the pair (a pair of two wilds counts).
- A small win's "at most one wild" counts the wilds held, winning tile included, in either
  reading; the one wild may stand for a chow tile, a pung tile or the 2-5-8 pair.
- Kong bloom is any win on a kong replacement (red, green, wild, exposed, added or concealed
  kong); a big win does not add it. last_draw is a self draw in the last-draw phase: the
  contract's `last_tile` flag (`last_draw` is taken as an alias).
- The minimum (preset.min_fan, 3; 0 with no_minimum) is met when winner fan + loser fan reaches
  it for at least one paying loser, the robbed player on a robbed kong.
- Caps: silver first (no loser pays more than 30 × base); gold replaces it when every other
  player pays and each has winner fan + own fan ≥ 5 (open losers 40, closed 50; not on a
  2-player small win); diamond replaces gold when every loser is also open (60 each; never at
  2 players). Each cap is a `Reason.CAP` payment that moves the raw amount to the capped one.
- Liability (after caps; never on a robbed kong): the feeder of the winner's third claimed meld
  (melds in the order made; an added kong keeps its pung's feeder; a chow's is the preceding
  seat, whether or not a request names it; a pung naming nobody has no known feeder) pays
  back every other loser's payment (`Reason.LIABILITY`); the all-melded single wait's
  discarder does the same when not ready. When both apply, the feeder pays.
- Play (engine.families.hubei.rules): the wild is drawn with `random.Random(f"{seed}:wild")`
  from the live wall after the deal; "the next tile" for a red or green dragon is the next in
  wall order
  (wrapping round the live wall). A replacement drawn for any kong is a draw for the pass rules
  (it lifts the passing player's blocks), and a fixed kong is never a discard for them. A
  seat's fixed kongs stay beside it, out of hand, wall and ponds. The first dealer is drawn
  with `random.Random(f"{session_seed}:first_dealer")`.
- "Ready" (the single-wait liability) means one tile from a winning shape with the wilds as
  jokers (or all 2-5-8), holding no fixed kong tile; the open-hand rule and the minimum are not
  asked.
- A `score` request naming green or white dragons is scored as at a green_white table.
- `points` maps each paying seat's name to what it pays in the end; `losers` gives every
  paying loser's fan and payment; `deltas` the win's net per seat in play.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from engine.decompose import sets_per_component
from engine.families.hubei.rules import all_258, fixed_kong_kinds, is_258
from engine.i18n import Text
from engine.memo import Memo
from engine.preset import Preset
from engine.scoring.base import Pattern, Score, SeatFacts, WinBy, WinContext
from engine.scoring.family import no_kong_payments, no_wall_draw_payments
from engine.settlement import Payment, Reason, deltas_of
from engine.shapes import is_win
from engine.tiles import (
    GREEN,
    NUM_KINDS,
    RED,
    SEAT_NAMES,
    Meld,
    MeldKind,
    Tile,
    counts_of,
    is_suited,
    suit_of,
)

BASE = 1
SILVER, GOLD_OPEN, GOLD_CLOSED, DIAMOND = 30, 40, 50, 60
ROBBED, ROBBED_HARD = 40, 50

FAN: dict[str, int] = {
    "full_flush": 1,
    "all_258": 1,
    "all_pungs": 1,
    "all_melded_single_wait": 1,
    "kong_bloom": 1,
    "last_draw": 1,
    "hard_win": 1,
    "four_wilds": 1,
    "red_kong": 1,
    "green_kong": 1,
    "wild_kong": 2,
    "exposed_kong": 1,
    "added_kong": 1,
    "concealed_kong": 2,
    "discarder": 1,
    "open_hand": 1,
}
# the score request's fields this family reads (engine.scoring.circumstances)
CIRCUMSTANCES = frozenset({"wild", "special_kongs", "others"})
LAST_DRAW_FLAGS = frozenset({"last_tile", "last_draw"})  # the contract's flag and its alias
BIG_WINS = ("full_flush", "all_258", "all_pungs", "all_melded_single_wait")
_MELD_KONGS = {
    MeldKind.KONG: "exposed_kong",
    MeldKind.ADDED_KONG: "added_kong",
    MeldKind.CONCEALED_KONG: "concealed_kong",
}
_SPECIAL = {RED: "red_kong", GREEN: "green_kong"}
Found = tuple[str, int]  # a fan item's id and how many times it counts


@dataclass(frozen=True, slots=True)
class LoserPays:
    seat: int
    fan: int
    pays: int


@dataclass(frozen=True, slots=True)
class HubeiScore(Score):
    """A hubei-laizi score: the win's payments in hand seats, and every paying loser's fan."""

    losers: tuple[LoserPays, ...] = ()
    payments: tuple[Payment, ...] = ()
    players: int = 4

    def to_json(self, language: str = "en") -> dict[str, object]:
        out = Score.to_json(self, language)
        if self.valid:
            out["losers"] = {
                SEAT_NAMES[p.seat]: {"fan": p.fan, "pays": p.pays} for p in self.losers
            }
            deltas = deltas_of(self.payments, self.players)
            out["deltas"] = {SEAT_NAMES[s]: d for s, d in enumerate(deltas)}
        return out


def _patterns(found: Sequence[Found]) -> tuple[Pattern, ...]:
    return tuple(Pattern(pid, FAN[pid] * times) for pid, times in found if times)


def total(patterns: Sequence[Pattern]) -> int:
    return sum(p.fan for p in patterns)


def kong_patterns(melds: Sequence[Meld], special: Sequence[Tile], wild: Tile | None) -> list[Found]:
    """A seat's kong fan items: red/green/wild kongs set down, exposed/added/concealed kongs."""
    found: list[Found] = [(_SPECIAL[t], special.count(t)) for t in (RED, GREEN)]
    found.append(("wild_kong", sum(1 for t in special if t == wild and t not in _SPECIAL)))
    for kind, pid in _MELD_KONGS.items():
        found.append((pid, sum(1 for m in melds if m.kind is kind)))
    return found


def is_open(melds: Sequence[Meld]) -> bool:
    return any(m.kind is not MeldKind.CONCEALED_KONG for m in melds)


# ------------------------------------------------------------------------------- readings


def _pung_jokers(counts: Sequence[int]) -> int | None:
    """Fewest jokers making these counts pungs and one pair, or None when no number does.

    Every held kind but the pair needs 3 - count jokers (a kind held four times cannot be a pung
    and a pair: none does). The pair is two jokers, or a kind held once or twice that then needs
    2 - count: the same total, one less than its pung would have needed, whichever it is.
    """
    held = [count for count in counts[:NUM_KINDS] if count]
    if any(count > 3 for count in held):
        return None
    spare = sum(3 - count for count in held)
    return spare - 1 if any(count < 3 for count in held) else spare + 2


def _small_win(counts: list[int], jokers: int, melds: Sequence[Meld]) -> bool:
    """Sets and a 2-5-8 pair with at least one chow (in melds or the reading); `jokers` ≤ 1."""
    if jokers > 1:
        return False
    meld_chow = any(m.kind is MeldKind.CHOW for m in melds)
    stand_ins: Iterable[Tile | None] = _stand_ins(counts) if jokers else (None,)
    for tile in stand_ins:
        if tile is not None:
            counts[tile] += 1
        try:
            if _chow_reading_with_258_pair(counts, meld_chow):
                return True
        finally:
            if tile is not None:
                counts[tile] -= 1
    return False


def _chow_reading_with_258_pair(counts: list[int], meld_chow: bool) -> bool:
    """Whether some reading of the counts as sets and a 2-5-8 pair has a chow (or needs none).

    A reading takes one reading of each suit and of the honours, each on its own: one with a
    chow exists when a component has one and every component has some."""
    for pair in _PAIRS_258:
        if counts[pair] < 2:
            continue
        counts[pair] -= 2
        per_component = sets_per_component(counts)
        counts[pair] += 2
        if per_component is None:
            continue
        if meld_chow or any(
            kind is MeldKind.CHOW for own in per_component for sets in own for kind, _ in sets
        ):
            return True
    return False


_PAIRS_258 = tuple(t for t in range(NUM_KINDS) if is_258(t))


def _stand_ins(counts: Sequence[int]) -> Iterator[Tile]:
    """The tiles a wild may stand for in some reading of the counts, lowest first: a kind held,
    or a suited kind within two of one held in its suit. Any other would be alone, in no set
    and no pair, so the counts with it have no reading."""
    for tile in range(NUM_KINDS):
        if counts[tile]:
            yield tile
        elif is_suited(tile):
            low, high = tile - tile % 9, tile - tile % 9 + 9
            if any(counts[t] for t in range(max(low, tile - 2), min(high, tile + 3))):
                yield tile


def reading(
    ctx: WinContext, counts: list[int], jokers: int, held_wilds: int
) -> tuple[Found, ...] | None:
    """The win patterns of one reading (wilds as `jokers` in it), or None when it does not win."""
    melds = ctx.melds
    shape = is_win(counts, jokers=jokers)
    suits = {suit_of(t) for t in range(NUM_KINDS) if counts[t]}
    suits.update(suit_of(t) for m in melds for t in m.tiles)
    claimed = [m for m in melds if m.kind is not MeldKind.CONCEALED_KONG]
    no_chow = all(m.kind is not MeldKind.CHOW for m in melds)
    pungs = _pung_jokers(counts) if no_chow else None
    big = [
        ("full_flush", shape and len(suits) == 1 and suits <= {"m", "p", "s"}),
        ("all_258", all_258(counts, melds)),
        ("all_pungs", pungs is not None and pungs <= jokers),
        (
            "all_melded_single_wait",
            shape and len(claimed) == 4 and len(melds) == 4 and ctx.by is WinBy.DISCARD,
        ),
    ]
    found: list[Found] = [(pid, int(bool(present))) for pid, present in big]
    if any(times for _, times in found):
        return tuple(found)
    if shape and held_wilds <= 1 and _small_win(counts, jokers, melds):
        return ()
    return None


def winner_patterns(ctx: WinContext) -> tuple[Pattern, ...] | None:
    """The winner's fan items of the best reading, or None when the tiles do not win.

    Remembered under exactly what they read: a computer player scores the same hand for every
    discarder and as a self draw, and again on later discards."""
    key = (
        ctx.concealed,
        ctx.wild,
        ctx.melds,
        ctx.special_kongs,
        ctx.by,
        "kong_replacement" in ctx.flags,
        bool(LAST_DRAW_FLAGS & ctx.flags),
    )
    if key in _WINNER_PATTERNS:
        return _WINNER_PATTERNS[key]
    return _WINNER_PATTERNS.keep(key, _best_winner_patterns(ctx))


_WINNER_PATTERNS: Memo[tuple[object, ...], tuple[Pattern, ...] | None] = Memo()


def _best_winner_patterns(ctx: WinContext) -> tuple[Pattern, ...] | None:
    counts = counts_of(ctx.concealed)
    wild = ctx.wild
    held = counts[wild] if wild is not None else 0
    candidates: list[tuple[Pattern, ...]] = []
    if held:
        rest = list(counts)
        rest[wild] = 0  # type: ignore[index]
        found = reading(ctx, rest, held, held)
        if found is not None:
            candidates.append(_with_circumstances(ctx, found, held, hard=False))
    found = reading(ctx, counts, 0, held)
    if found is not None:
        candidates.append(_with_circumstances(ctx, found, held, hard=True))
    if not candidates:
        return None
    return max(reversed(candidates), key=total)


def _with_circumstances(
    ctx: WinContext, big: tuple[Found, ...], held: int, *, hard: bool
) -> tuple[Pattern, ...]:
    is_big = any(times for _, times in big)
    self_draw = ctx.by is WinBy.SELF_DRAW
    wild_kongs = sum(1 for t in ctx.special_kongs if t == ctx.wild)
    found: list[Found] = [
        *big,
        ("kong_bloom", int(not is_big and self_draw and "kong_replacement" in ctx.flags)),
        ("last_draw", int(self_draw and bool(LAST_DRAW_FLAGS & ctx.flags))),
        ("hard_win", int(hard)),
        ("four_wilds", int(is_big and ctx.wild is not None and held + wild_kongs == 4)),
    ]
    found += kong_patterns(ctx.melds, ctx.special_kongs, ctx.wild)
    return _patterns(found)


# ------------------------------------------------------------------------------- scoring


def _invalid(
    preset: Preset,
    reason: str,
    message: Text,
    patterns: tuple[Pattern, ...] = (),
    fan: int = 0,
) -> HubeiScore:
    return HubeiScore(
        valid=False, unit=preset.unit, reason=reason, message=message, patterns=patterns, fan=fan
    )


def loser_fan(other: SeatFacts, ctx: WinContext, big: bool) -> int:
    found = kong_patterns(other.melds, other.special_kongs, ctx.wild)
    # the robbed player's hand is open (the pung it adds to) whether or not the request lists it
    robbed = ctx.by is WinBy.ROBBING_KONG and other.seat == ctx.discarder
    found.append(("open_hand", int(robbed or is_open(other.melds))))
    discarded = ctx.by is WinBy.DISCARD and other.seat == ctx.discarder
    found.append(("discarder", int(discarded and big)))
    return total(_patterns(found))


def _fixed_kong_tiles(preset: Preset) -> frozenset[Tile]:
    """The tiles this preset's hands set down as fixed kongs (red, green with green_white),
    found once per preset object (its wall is read to find them)."""
    found = _FIXED_KONG_TILES.get(id(preset))
    if found is None or found[0] is not preset:
        if len(_FIXED_KONG_TILES) >= 64:  # presets made per table with its options
            _FIXED_KONG_TILES.clear()
        found = _FIXED_KONG_TILES[id(preset)] = (preset, fixed_kong_kinds(preset) | {RED})
    return found[1]


# per preset's id, the preset (kept, so that its id is not reused) and its fixed kong tiles
_FIXED_KONG_TILES: dict[int, tuple[Preset, frozenset[Tile]]] = {}


def score(preset: Preset, ctx: WinContext) -> HubeiScore:
    """Score a hubei-laizi win and settle it: the fan of the winner and of each paying loser."""
    if any(t in _fixed_kong_tiles(preset) for t in ctx.concealed):
        return _invalid(
            preset,
            "not_a_winning_hand",
            Text("score.hubei.fixed_kong_tile"),
        )
    if not is_open(ctx.melds):
        return _invalid(
            preset,
            "not_a_winning_hand",
            Text("score.hubei.open_hand"),
        )
    patterns = winner_patterns(ctx)
    if patterns is None:
        return _invalid(
            preset,
            "not_a_winning_hand",
            Text("score.hubei.not_winning"),
        )
    fan = total(patterns)
    big = any(p.id in BIG_WINS for p in patterns)
    given = {o.seat: o for o in ctx.others}
    others = tuple(given.get(s, SeatFacts(s)) for s in range(ctx.players) if s != ctx.seat)
    if ctx.by is WinBy.SELF_DRAW or (ctx.by is WinBy.DISCARD and big):
        payers = list(others)
    else:
        payers = [o for o in others if o.seat == ctx.discarder]
        if not payers:
            key = "discarded" if ctx.by is WinBy.DISCARD else "robbed"
            raise ValueError(Text(f"score.hubei.needs_{key}", {"by": ctx.by.value}))
    fans = {o.seat: loser_fan(o, ctx, big) for o in payers}
    if preset.min_fan and not any(fan + f >= preset.min_fan for f in fans.values()):
        return _invalid(
            preset,
            "below_minimum",
            Text("score.hubei.below_minimum", {"minimum": preset.min_fan}),
            patterns,
            fan,
        )
    payments = settle(ctx, patterns, payers, fans, big, ctx.players)
    paid = {o.seat: 0 for o in payers}
    for p in payments:
        if p.payer in paid:
            paid[p.payer] += p.amount
        if p.payee in paid:
            paid[p.payee] -= p.amount
    losers = tuple(LoserPays(o.seat, fans[o.seat], paid[o.seat]) for o in payers)
    return HubeiScore(
        valid=True,
        fan=fan,
        unit=preset.unit,
        patterns=patterns,
        points={SEAT_NAMES[s]: v for s, v in paid.items()},
        losers=losers,
        payments=tuple(payments),
        players=ctx.players,
    )


def settle(
    ctx: WinContext,
    patterns: tuple[Pattern, ...],
    payers: list[SeatFacts],
    fans: dict[int, int],
    big: bool,
    players: int,
) -> list[Payment]:
    """One win's payments: 2^(fan) each, the caps, liability; a robbed kong pays a fixed sum."""
    winner = ctx.seat
    fan = total(patterns)
    if ctx.by is WinBy.ROBBING_KONG:
        hard = any(p.id == "hard_win" for p in patterns)
        return [
            Payment(payers[0].seat, winner, BASE * (ROBBED_HARD if hard else ROBBED), Reason.WIN)
        ]
    raw = {o.seat: BASE * 2 ** (fan + fans[o.seat]) for o in payers}
    capped = {seat: min(amount, SILVER * BASE) for seat, amount in raw.items()}
    every_other = len(payers) == players - 1
    gold = every_other and all(fan + f >= 5 for f in fans.values())
    if gold and not (players == 2 and not big):
        opened = {o.seat: is_open(o.melds) for o in payers}
        if players != 2 and all(opened.values()):
            capped = {seat: DIAMOND * BASE for seat in capped}
        else:
            capped = {s: (GOLD_OPEN if opened[s] else GOLD_CLOSED) * BASE for s in capped}
    payments = [Payment(seat, winner, amount, Reason.WIN) for seat, amount in raw.items()]
    for seat, amount in capped.items():
        if amount < raw[seat]:
            payments.append(Payment(winner, seat, raw[seat] - amount, Reason.CAP))
        elif amount > raw[seat]:
            payments.append(Payment(seat, winner, amount - raw[seat], Reason.CAP))
    liable = liable_seat(ctx, patterns, payers)
    if liable is not None:
        payments += [
            Payment(liable, seat, amount, Reason.LIABILITY)
            for seat, amount in capped.items()
            if seat != liable
        ]
    return payments


def liable_seat(
    ctx: WinContext, patterns: tuple[Pattern, ...], payers: list[SeatFacts]
) -> int | None:
    """Who pays for all: the feeder of the third claimed meld on a full flush or all 2-5-8, else
    the not-ready discarder of an all-melded single wait."""
    ids = {p.id for p in patterns}
    paying = {o.seat for o in payers}
    if ids & {"full_flush", "all_258"}:
        claimed = [m for m in ctx.melds if m.kind is not MeldKind.CONCEALED_KONG]
        if len(claimed) >= 3 and feeder(claimed[2], ctx) in paying:
            return feeder(claimed[2], ctx)
    if "all_melded_single_wait" in ids and ctx.discarder in paying:
        discarder = next(o for o in payers if o.seat == ctx.discarder)
        if discarder.ready is False:
            return discarder.seat
    return None


def feeder(meld: Meld, ctx: WinContext) -> int | None:
    """The seat whose discard made a claimed meld: as named, and for a chow the preceding seat
    (a score request may leave it out); None when a pung or kong names nobody."""
    if meld.kind is MeldKind.CHOW:
        return (ctx.seat - 1) % ctx.players
    return meld.from_seat


# ------------------------------------------------------------------------------- settling hook


def win_payments(
    preset: Preset,
    result: Score,
    winner: int,
    by: WinBy,
    discarder: int | None,
    in_play: Sequence[int],
) -> list[Payment]:
    """The payments `score` worked out (hand seats are the score's seats)."""
    assert isinstance(result, HubeiScore)
    return list(result.payments)


# the loop's hooks this family settles as the default does (engine.scoring.family)
kong_payments = no_kong_payments
wall_draw_payments = no_wall_draw_payments
