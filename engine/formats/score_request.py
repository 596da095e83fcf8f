"""The logic behind `mahjong-bot score` (DESIGN.md "`score` contract"): JSON request in, JSON out.

A request that does not parse, or describes tiles or circumstances that cannot happen, raises
RequestError with one human sentence naming the bad field; a hand that is merely not a win (or
too cheap) is a normal result with "valid": false.

>>> score_request({"preset": "hkos-3-v1", "hand": "111222333m777p55s", "win": "5s"})["fan"]
4
>>> sichuan = {"preset": "sichuan-bb", "hand": "111222333m777p55p", "win": "5p", "void": "s"}
>>> score_request(sichuan)["patterns"], score_request(sichuan)["points"]
([{'id': 'all_pungs', 'fan': 1}], {'discarder': 2})
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from collections.abc import Iterable
from typing import IO, Any

from engine.formats.score_fields import (
    REQUIRED,
    RequestError,
    _choice,
    _count,
    _flags,
    _language,
    _melds,
    _one_tile,
    _said,
    _shown,
    _text,
    _tiles,
    check_circumstances,
    check_copies,
    check_fields,
    check_hand_size,
    checked_source,
    excerpt,
)
from engine.i18n import DEFAULT_LANGUAGE, LANGUAGES
from engine.i18n import text as catalogued  # `text` names the notation parsed, here
from engine.options import has_option
from engine.preset import Preset
from engine.presets import PRESETS, UnknownPresetError, find_preset, with_min_fan, with_options
from engine.rules import FixedKongs, Part, VoidSuit, Wilds, rules_of
from engine.scoring import circumstances, score, win_payments
from engine.scoring.base import Score, SeatFacts, WinBy, WinContext
from engine.set_aside import SetAsideSettlement
from engine.settlement import deltas_of
from engine.tiles import (
    GREEN,
    RED,
    SEAT_NAMES,
    WHITE,
    Meld,
    MeldKind,
    Tile,
    is_bonus,
    tile_name,
)

FIELDS = (
    "preset",
    "hand",
    "win",
    "melds",
    "bonus",
    "by",
    "seat",
    "round",
    "flags",
    "void",
    "from",
    "min_fan",
    "wall_left",
    "seen",
    "horse",
    "birds",
    "players",
    "wild",
    "special_kongs",
    "others",
    "lang",
)
SPECIAL_KONGS = {"red": RED, "green": GREEN}  # and "wild": the request's wild
# fields only some families read (their module's CIRCUMSTANCES), each with why it is refused
UNREAD_KEYS = {
    "wall_left": "fixups.score.unread",
    "seen": "fixups.score.unread",
    "wild": "fixups.score.unread_table",
    "special_kongs": "fixups.score.unread_table",
    "others": "fixups.score.unread_table",
}
VOID_SUITS = ("m", "p", "s")
MESSAGE_LIMIT = 300  # an error line's message at most (tile errors quote their whole text)


def score_request(request: object) -> dict[str, object]:
    """Score one DESIGN.md request dict and return the Score's JSON form (with the win's
    `deltas` per seat when the request names the discarder in `from`, or on a self draw)."""
    preset_id = request.get("preset") if isinstance(request, dict) else None
    named = PRESETS.get(preset_id) if isinstance(preset_id, str) else None
    if named is not None and named.score_reader is not None:
        # a family that reads its own fields (DESIGN.md "Riichi in the `score` contract")
        assert isinstance(request, dict)
        return named.score_reader(request)
    preset, ctx = parse_request(request)
    assert isinstance(request, dict)  # parse_request checked it
    language = _language(request)
    source = _source(ctx)
    shown = _set_aside_tiles(request, preset, ctx)
    try:
        result = score(preset, ctx)
    except ValueError as error:  # a circumstance the family cannot settle (a missing 'from')
        raise RequestError(_said(error)) from None
    # hubei-laizi's also gives every paying loser's fan (`losers`)
    answer = result.to_json(language)
    if result.valid and (source is not None or ctx.by is WinBy.SELF_DRAW):
        answer["deltas"] = win_deltas(preset, result, ctx, source, shown)
    return answer


def win_deltas(
    preset: Preset,
    result: Score,
    ctx: WinContext,
    source: int | None,
    shown: dict[SetAsideSettlement, list[Tile]],
) -> dict[str, int]:
    """The win's own settlement per seat in play (kong payments excluded), as the hand settles
    it: the family's win payments, then each settling rule of the preset — a set-aside tile
    the request shows (horse, birds), a dealer bonus, a cap. The other settling parts answer
    without a hand, so they read only their rule and the payments."""
    seats = range(ctx.players)
    paid = win_payments(preset, result, ctx.seat, ctx.by, source, seats)
    for rule in rules_of(preset):
        if isinstance(rule, SetAsideSettlement):
            if rule in shown:
                paid = rule.settle_shown(shown[rule], ctx.seat, ctx.by, paid, len(seats))
        elif rule.part.settle_win is not Part.settle_win:
            paid = rule.bind(None).settle_win(ctx.seat, ctx.by, source, paid)  # type: ignore[arg-type]
    return dict(zip(SEAT_NAMES, deltas_of(paid, len(seats)), strict=False))


def _source(ctx: WinContext) -> int | None:
    """`from` (`ctx.discarder`): the discarder's seat, or the robbed player's; none on a self
    draw."""
    return checked_source(ctx.discarder, ctx.by, ctx.seat)


def _set_aside_tiles(
    request: dict[str, Any], preset: Preset, ctx: WinContext
) -> dict[SetAsideSettlement, list[Tile]]:
    """The set-aside tiles a request names (`horse`, `birds`), each checked against the rule
    of the preset that reveals them."""
    rules = {r.request_field: r for r in rules_of(preset) if isinstance(r, SetAsideSettlement)}
    shown: dict[SetAsideSettlement, list[Tile]] = {}
    for field in ("horse", "birds"):
        if request.get(field) is None:
            continue
        rule = rules.get(field)
        if rule is None:
            raise RequestError(
                catalogued("fixups.score.set_aside_none", field=field, preset=preset.id)
            )
        tiles = _tiles(request, field)
        if len(tiles) != rule.count:
            raise RequestError(
                catalogued(
                    "fixups.score.set_aside_count",
                    field=field,
                    preset=preset.id,
                    count=rule.count,
                    got=len(tiles),
                )
            )
        for tile in tiles:
            _check_kind(preset, field, tile)
        shown[rule] = tiles
    used = [*ctx.concealed, *(t for m in ctx.melds for t in m.tiles)]
    used += [t for tiles in shown.values() for t in tiles]
    wall = Counter(preset.wall)
    for tile, count in sorted(Counter(used).items()):
        if count > wall[tile]:
            raise RequestError(
                catalogued(
                    "fixups.score.too_many_set_aside",
                    tile=tile_name(tile),
                    count=count,
                    preset=preset.id,
                    wall=wall[tile],
                )
            )
    return shown


def run_score_lines(lines: Iterable[str], out: IO[str], err: IO[str]) -> int:
    """Score JSON lines one by one, in order: each gets one result line, or one
    `{"error": ...}` line (and its line on `err`), in the request's `lang` when it names one;
    2 at the end if any line was bad, or with one line on `err` if no line held a request."""
    status = 0
    asked = False
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        asked = True
        request: object = None
        try:
            request = _loads(line)
            result = score_request(request)
        except RequestError as error:
            message = excerpt(error.in_language(_asked_language(request)), MESSAGE_LIMIT)
            err.write(f"error: line {number}: {message}\n")
            out.write(json.dumps({"error": message}) + "\n")
            status = 2
            continue
        out.write(json.dumps(result) + "\n")
    if not asked:
        err.write("error: no score request: give one JSON object a line, or --json '{...}'\n")
        return 2
    return status


def _asked_language(request: object) -> str:
    """The request's `lang` if it is one of ours (its errors are worded in it), else English."""
    language = request.get("lang") if isinstance(request, dict) else None
    return language if isinstance(language, str) and language in LANGUAGES else DEFAULT_LANGUAGE


def _loads(line: str) -> object:
    """One JSON value, or a RequestError saying in a few words why the line is not one."""
    try:
        return json.loads(line)
    except json.JSONDecodeError as error:
        raise RequestError(f"not valid JSON ({error.msg} at character {error.pos + 1})") from None
    except RecursionError:
        raise RequestError("not valid JSON (nested too deeply)") from None
    except ValueError:  # an integer of more digits than Python converts (4,300)
        raise RequestError(
            f"not valid JSON (a number of more than {sys.get_int_max_str_digits()} digits)"
        ) from None


def parse_request(request: object) -> tuple[Preset, WinContext]:
    """Check a request dict field by field and build its preset and WinContext."""
    if not isinstance(request, dict):
        raise RequestError("a score request must be a JSON object")
    check_fields(request, FIELDS, REQUIRED)
    try:
        preset = find_preset(_text(request, "preset"))
    except UnknownPresetError as error:
        raise RequestError(_said(error)) from None
    if request.get("min_fan") is not None:
        try:
            preset = with_min_fan(preset, _count(request, "min_fan", 13))
        except ValueError as error:
            detail = _said(error)
            raise RequestError(
                catalogued("fixups.score.field", field="min_fan", detail=detail)
            ) from None
    unread = [
        f for f in UNREAD_KEYS if request.get(f) is not None and f not in circumstances(preset)
    ]
    if unread:
        key = UNREAD_KEYS[unread[0]]
        raise RequestError(catalogued(key, field=unread[0], preset=preset.id))
    hand = _tiles(request, "hand")
    win = _one_tile(request, "win")
    melds = _melds(request.get("melds", []), "melds")
    bonus = _tiles(request, "bonus", "")
    preset, table = _table(request, preset, hand, melds)
    ctx = WinContext(
        concealed=tuple(hand),
        win_tile=win,
        melds=melds,
        bonus=tuple(bonus),
        by=_choice(request, "by", "discard", [b.value for b in WinBy], WinBy),
        seat=_choice(request, "seat", "E", list(SEAT_NAMES), SEAT_NAMES.index),
        round_wind=_choice(request, "round", "E", list(SEAT_NAMES), SEAT_NAMES.index),
        flags=_flags(request),
        void_suit=_void(request),
        wall_left=_count(request, "wall_left", len(preset.wall)),
        seen=_count(request, "seen", 3),
        **table,  # type: ignore[arg-type]
    )
    check_tiles(preset, ctx)
    check_rules(preset, ctx)
    check_circumstances(ctx)
    return preset, ctx


def check_rules(preset: Preset, ctx: WinContext) -> None:
    """Refuse what the preset's rules rule out: a chow where nobody may chow, a void suit where
    there is none. (A circumstance that can happen but scores nothing is accepted.)"""
    if not preset.chow:
        for index, meld in enumerate(ctx.melds):
            if meld.kind is MeldKind.CHOW:
                raise RequestError(
                    catalogued(
                        "fixups.score.no_chows", index=index, meld=str(meld), preset=preset.id
                    )
                )
    if ctx.by is WinBy.DISCARD and not preset.discard_wins:
        raise RequestError(catalogued("fixups.score.no_discard_wins", preset=preset.id))
    check_meld_sources(preset, ctx)
    check_unclaimable(preset, ctx)
    if ctx.void_suit is not None and not any(isinstance(r, VoidSuit) for r in rules_of(preset)):
        raise RequestError(catalogued("fixups.score.no_void", preset=preset.id))


def check_meld_sources(preset: Preset, ctx: WinContext) -> None:
    """Refuse a claimed meld from the winner's own seat or a seat not at the table, and a chow
    from any seat but the preceding one."""
    preceding = (ctx.seat - 1) % ctx.players
    for index, meld in enumerate(ctx.melds):
        source = meld.from_seat
        if source is None:
            continue
        if source == ctx.seat or source >= ctx.players:
            key = "own_seat" if source == ctx.seat else "no_such_seat"
            raise RequestError(
                catalogued(
                    f"fixups.score.meld_from_{key}",
                    index=index,
                    meld=str(meld),
                    seat=SEAT_NAMES[source],
                    players=ctx.players,
                )
            )
        if meld.kind is MeldKind.CHOW and source != preceding:
            raise RequestError(
                catalogued(
                    "fixups.score.chow_not_preceding",
                    index=index,
                    meld=str(meld),
                    seat=SEAT_NAMES[source],
                    preceding=SEAT_NAMES[preceding],
                    preset=preset.id,
                )
            )


def check_unclaimable(preset: Preset, ctx: WinContext) -> None:
    """Refuse what nobody may claim used as if claimed: a wild (the preset's, or the request's
    turned wild) or a fixed kong tile in a meld, or won on a discard or a robbed kong; and a
    turned wild that is a fixed kong tile (the next tile is turned instead)."""
    rules = rules_of(preset)
    fixed = frozenset(t for r in rules if isinstance(r, FixedKongs) for t in r.kinds)
    wilds = frozenset(t for r in rules if isinstance(r, Wilds) for t in r.kinds)
    if ctx.wild is not None:
        if ctx.wild in fixed:
            raise RequestError(
                catalogued(
                    "fixups.score.wild_fixed_kong", tile=tile_name(ctx.wild), preset=preset.id
                )
            )
        wilds |= {ctx.wild}
    for index, meld in enumerate(ctx.melds):
        for kinds, key in ((wilds, "wild_in_meld"), (fixed, "fixed_kong_in_meld")):
            if kinds & set(meld.tiles):
                raise RequestError(
                    catalogued(f"fixups.score.{key}", index=index, meld=str(meld), preset=preset.id)
                )
    if ctx.by is not WinBy.SELF_DRAW and ctx.win_tile in wilds | fixed:
        key = "wild" if ctx.win_tile in wilds else "fixed_kong"
        raise RequestError(
            catalogued(
                f"fixups.score.claimed_{key}",
                tile=tile_name(ctx.win_tile),
                by=ctx.by.value,
                preset=preset.id,
            )
        )


def check_tiles(preset: Preset, ctx: WinContext) -> None:
    """Refuse tiles the preset lacks, more copies than its wall holds, and wrong tile counts."""
    meld_tiles = [t for m in ctx.melds for t in m.tiles]
    for field, tiles in (("hand", ctx.concealed), ("melds", meld_tiles), ("bonus", ctx.bonus)):
        for tile in tiles:
            _check_kind(preset, field, tile)
    wall = Counter(preset.wall)
    # red, green and wild kongs set down, one tile each, by the winner and the other seats
    set_down = [*ctx.special_kongs, *(t for other in ctx.others for t in other.special_kongs)]
    seen = Counter([*ctx.concealed, *meld_tiles, *ctx.bonus, *set_down])
    check_copies(preset.id, wall, seen)
    check_hand_size(preset.id, preset.sets, ctx.concealed, ctx.melds, ctx.win_tile)


def _check_kind(preset: Preset, field: str, tile: Tile) -> None:
    """Refuse a tile the preset's wall lacks, or a bonus tile outside/inside `bonus`."""
    name = tile_name(tile)
    if field == "bonus" and not is_bonus(tile):
        raise RequestError(catalogued("fixups.score.bonus_not_flower", tile=name))
    if field != "bonus" and is_bonus(tile):
        raise RequestError(catalogued("fixups.score.bonus_elsewhere", field=field, tile=name))
    if tile not in preset.tile_kinds:
        raise RequestError(
            catalogued("fixups.score.tile_unused", field=field, preset=preset.id, tile=name)
        )


def _seat(request: dict[str, Any], key: str, players: int) -> int | None:
    if request.get(key) is None:
        return None
    return _choice(request, key, "E", list(SEAT_NAMES[:players]), SEAT_NAMES.index)


def _table(
    request: dict[str, Any], preset: Preset, hand: list[Tile], melds: tuple[Meld, ...]
) -> tuple[Preset, dict[str, object]]:
    """The wave-2 table fields: players, the discarder, the wild, fixed kongs and the other
    seats (hubei-laizi reads them all; the minimum is `with_min_fan`'s)."""
    players = request.get("players", preset.seat_counts[0])
    if not isinstance(players, int) or players not in preset.seat_counts:
        allowed = ", ".join(map(str, preset.seat_counts))
        raise RequestError(
            catalogued(
                "fixups.score.players", value=_shown(players), allowed=allowed, preset=preset.id
            )
        )
    meld_tiles = [t for m in melds for t in m.tiles]
    if has_option(preset, "green_white") and {GREEN, WHITE} & {
        *hand,
        *meld_tiles,
    }:
        preset = with_options(preset, ["green_white"])  # a hand with green or white dragons
    wild = _one_tile(request, "wild") if request.get("wild") is not None else None
    if wild is not None:
        _check_kind(preset, "wild", wild)
    others: list[SeatFacts] = []
    given = request.get("others", {})
    if not isinstance(given, dict):
        raise RequestError(catalogued("fixups.score.others_not_object", value=_shown(given)))
    for name, facts in given.items():
        if name not in SEAT_NAMES[:players]:
            raise RequestError(
                catalogued("fixups.score.others_seat", value=_shown(name), players=players)
            )
        if not isinstance(facts, dict):
            raise RequestError(
                catalogued("fixups.score.not_object", field=f"others.{name}", value=_shown(facts))
            )
        unknown = [k for k in facts if k not in ("melds", "special_kongs", "ready")]
        if unknown:
            raise RequestError(
                catalogued(
                    "fixups.score.unknown_field_of",
                    field=f"others.{name}",
                    value=_shown(unknown[0]),
                )
            )
        ready = facts.get("ready")
        if ready is not None and not isinstance(ready, bool):
            raise RequestError(
                catalogued(
                    "fixups.score.not_bool", field=f"others.{name}.ready", value=_shown(ready)
                )
            )
        others.append(
            SeatFacts(
                SEAT_NAMES.index(name),
                _melds(facts.get("melds", []), f"others.{name}.melds"),
                _special_kongs(
                    facts.get("special_kongs", {}), f"others.{name}.special_kongs", wild
                ),
                ready,
            )
        )
    return preset, {
        "wild": wild,
        "special_kongs": _special_kongs(request.get("special_kongs", {}), "special_kongs", wild),
        "discarder": _seat(request, "from", players),
        "players": players,
        "others": tuple(others),
    }


def _special_kongs(value: object, key: str, wild: Tile | None) -> tuple[Tile, ...]:
    if not isinstance(value, dict):
        raise RequestError(
            catalogued("fixups.score.special_kongs_object", field=key, value=_shown(value))
        )
    tiles: list[Tile] = []
    for name, count in value.items():
        if name not in (*SPECIAL_KONGS, "wild"):
            raise RequestError(
                catalogued("fixups.score.special_kong_name", field=key, value=_shown(name))
            )
        if not isinstance(count, int) or isinstance(count, bool) or not 0 <= count <= 4:
            raise RequestError(
                catalogued(
                    "fixups.score.special_kong_count", field=f"{key}.{name}", value=_shown(count)
                )
            )
        if name == "wild" and wild is None and count:
            raise RequestError(catalogued("fixups.score.wild_kong", field=key))
        tile = wild if name == "wild" else SPECIAL_KONGS[name]
        tiles += [tile] * count  # type: ignore[list-item]
    return tuple(tiles)


def _void(request: dict[str, Any]) -> str | None:
    if request.get("void") is None:
        return None
    value = _text(request, "void")
    if value not in VOID_SUITS:
        allowed = ", ".join(VOID_SUITS)
        raise RequestError(
            catalogued("fixups.score.choice", field="void", value=_shown(value), allowed=allowed)
        )
    return value
