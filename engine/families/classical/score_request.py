"""`mahjong-bot score` for `chinese-classical` (DESIGN.md "Wave 4: Chinese Classical, every hand
scored"): the winner's fields as for `hkos-3-v1`, plus `others` (every other seat's hand as it
stood) and `streak`; the answer scores every seat and says who pays whom.

>>> answer = score_classical({"preset": "chinese-classical", "hand": "123m456p789s234s55s",
...     "win": "1m", "seat": "N", "others": {"E": {"hand": "111z2345m678p888p"},
...     "S": {"hand": "123m456p789s1234s"}, "W": {"hand": "555z123m456p789s1s"}}})
>>> answer["scores"], answer["deltas"]
({'E': 48, 'S': 0, 'W': 16, 'N': 20}, {'E': 120, 'S': -132, 'W': -68, 'N': 80})
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from engine.families.classical.scoring import (
    EAST_SEAT,
    HandScore,
    SeatHand,
    TableScore,
    score_table,
)
from engine.formats.score_fields import (
    RequestError,
    _choice,
    _count,
    _flags,
    _language,
    _melds,
    _one_tile,
    _tiles,
    check_circumstances,
    check_copies,
    check_fields,
    check_hand_size,
    checked_source,
)
from engine.i18n import text as catalogued
from engine.i18n import worded
from engine.scoring.base import WinBy, WinContext
from engine.settlement import deltas_of
from engine.tiles import (
    BONUS,
    COPIES,
    NUM_KINDS,
    SEAT_NAMES,
    Meld,
    MeldKind,
    Tile,
    is_bonus,
    tile_name,
)

PRESET_ID = "chinese-classical"
FIELDS = (
    "preset",
    "hand",
    "win",
    "melds",
    "bonus",
    "by",
    "from",
    "seat",
    "round",
    "flags",
    "others",
    "streak",
    "lang",
)
OTHER_FIELDS = ("hand", "melds", "bonus")
FLAGS = frozenset({"kong_replacement", "last_tile", "heavenly", "earthly"})
SEATS = 4
SETS = 4
MOST_STREAK = 99  # a bound on nonsense, not a rule
# the set: four of each playing kind, one of each flower and season
WALL: Counter[Tile] = Counter(
    {**dict.fromkeys(range(NUM_KINDS), COPIES), **dict.fromkeys(BONUS, 1)}
)


def score_classical(request: dict[str, Any]) -> dict[str, object]:
    """Answer one Chinese Classical score request."""
    language = _language(request)
    ctx, others, streak = parse_classical(request)
    table = score_table(ctx, others, streak=streak)
    if table is None:
        message = worded(catalogued("score.classical.not_winning"), language)
        return {"valid": False, "reason": "not_a_winning_hand", "message": message}
    return answer(table)


def answer(table: TableScore) -> dict[str, object]:
    """The JSON answer: every seat's hand, the scores, the payments and each seat's change."""
    names = {seat: SEAT_NAMES[seat] for seat in table.hands}
    return {
        "valid": True,
        "unit": "points",
        "limit": table.hands[table.winner].limit,
        "hands": {names[seat]: hand_json(hand) for seat, hand in table.hands.items()},
        "scores": {names[seat]: score for seat, score in table.scores.items()},
        "payments": [
            {
                "from": SEAT_NAMES[p.payer],
                "to": SEAT_NAMES[p.payee],
                "amount": p.amount,
                "reason": p.reason.value,
            }
            for p in table.payments
        ],
        "deltas": dict(zip(SEAT_NAMES, deltas_of(table.payments, SEATS), strict=True)),
    }


def hand_json(hand: HandScore) -> dict[str, object]:
    out: dict[str, object] = {
        "points": [{"id": p.id, "points": p.fan} for p in hand.points],
        "doubles": [{"id": d.id, "doubles": d.fan} for d in hand.doubles],
        "raw": hand.raw,
        "score": hand.score,
        "limit": hand.limit,
    }
    if hand.capped:
        out["capped"] = True
    return out


def parse_classical(request: dict[str, Any]) -> tuple[WinContext, dict[int, SeatHand], int]:
    """Check a request field by field: the winner's hand, every other seat's, the streak."""
    check_fields(request, FIELDS)
    seat = _choice(request, "seat", "E", list(SEAT_NAMES), SEAT_NAMES.index)
    by = _choice(request, "by", "discard", [b.value for b in WinBy], WinBy)
    discarder = None
    if request.get("from") is not None:
        discarder = _choice(request, "from", "E", list(SEAT_NAMES), SEAT_NAMES.index)
    ctx = WinContext(
        concealed=tuple(_tiles(request, "hand")),
        win_tile=_one_tile(request, "win"),
        melds=_melds(request.get("melds", []), "melds"),
        bonus=tuple(_tiles(request, "bonus", "")),
        by=by,
        seat=seat,
        round_wind=_choice(request, "round", "E", list(SEAT_NAMES), SEAT_NAMES.index),
        flags=_flags(request, FLAGS),
        discarder=checked_source(discarder, by, seat),
    )
    others = _others(request.get("others"), seat)
    streak = _count(request, "streak", MOST_STREAK)
    if streak is not None and streak > 1 and seat != EAST_SEAT:
        raise RequestError(catalogued("fixups.classical.streak", seat=SEAT_NAMES[seat]))
    _check_tiles("", ctx.concealed, ctx.melds, ctx.bonus)
    check_hand_size(PRESET_ID, SETS, ctx.concealed, ctx.melds, ctx.win_tile)
    _check_sources("melds", seat, ctx.melds)
    check_circumstances(ctx)
    for other, hand in others.items():
        field = f"others.{SEAT_NAMES[other]}"
        _check_tiles(f"{field}.", hand.concealed, hand.melds, hand.bonus)
        counted = len(hand.concealed) + 3 * len(hand.melds)
        if counted != 3 * SETS + 1:
            raise RequestError(
                catalogued("fixups.classical.other_size", field=field, counted=counted)
            )
        _check_sources(f"{field}.melds", other, hand.melds)
    every: list[WinContext | SeatHand] = [ctx, *others.values()]
    seen = Counter(
        [t for hand in every for t in (*hand.concealed, *hand.bonus)]
        + [t for hand in every for m in hand.melds for t in m.tiles]
    )
    check_copies(PRESET_ID, WALL, seen)
    return ctx, others, streak or 1


def _others(value: object, winner: int) -> dict[int, SeatHand]:
    """`others`: every seat but the winner's, each with its `hand`, `melds` and `bonus`."""
    if not isinstance(value, dict) or not all(isinstance(v, dict) for v in value.values()):
        raise RequestError(catalogued("fixups.classical.others"))
    for key in value:
        if key not in SEAT_NAMES or SEAT_NAMES.index(key) == winner:
            raise RequestError(
                catalogued("fixups.classical.other_seat", seat=repr(key), winner=SEAT_NAMES[winner])
            )
    others = {}
    for seat, name in enumerate(SEAT_NAMES):
        if seat == winner:
            continue
        if name not in value:
            raise RequestError(catalogued("fixups.classical.seat_missing", seat=name))
        fields = value[name]
        check_fields(fields, OTHER_FIELDS, ("hand",))
        others[seat] = SeatHand(
            tuple(_tiles(fields, "hand")),
            _melds(fields.get("melds", []), f"others.{name}.melds"),
            tuple(_tiles(fields, "bonus", "")),
        )
    return others


def _check_tiles(
    prefix: str, concealed: Sequence[Tile], melds: Sequence[Meld], bonus: Sequence[Tile]
) -> None:
    """Refuse a tile the set lacks (a red five), a flower outside `bonus`, a suit tile in it."""
    meld_tiles = [t for m in melds for t in m.tiles]
    for field, tiles in (("hand", concealed), ("melds", meld_tiles), ("bonus", bonus)):
        for tile in tiles:
            name = tile_name(tile)
            where = prefix + field
            if field == "bonus" and not is_bonus(tile):
                raise RequestError(catalogued("fixups.score.bonus_not_flower", tile=name))
            if field != "bonus" and is_bonus(tile):
                raise RequestError(
                    catalogued("fixups.score.bonus_elsewhere", field=where, tile=name)
                )
            if tile not in WALL:
                raise RequestError(
                    catalogued("fixups.score.tile_unused", field=where, preset=PRESET_ID, tile=name)
                )


def _check_sources(field: str, seat: int, melds: Sequence[Meld]) -> None:
    """Refuse a claimed set from the seat's own seat, and a chow from any seat but the left."""
    left = (seat - 1) % SEATS
    for index, meld in enumerate(melds):
        source = meld.from_seat
        if source is None:
            continue
        if source == seat:
            raise RequestError(
                catalogued(
                    "fixups.classical.own_seat",
                    field=f"{field}[{index}]",
                    meld=str(meld),
                    seat=SEAT_NAMES[source],
                )
            )
        if meld.kind is MeldKind.CHOW and source != left:
            raise RequestError(
                catalogued(
                    "fixups.classical.chow_source",
                    field=f"{field}[{index}]",
                    meld=str(meld),
                    seat=SEAT_NAMES[source],
                    left=SEAT_NAMES[left],
                )
            )
