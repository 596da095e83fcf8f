"""The `score` contract's field readers, shared by every request reader (engine/formats/
score_request.py for most presets, a family's own where it reads its own fields: Riichi's
engine/families/riichi/score_request.py): each field checked on its own, a bad one refused with one
sentence naming it (`RequestError`)."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any, TypeVar

from engine.i18n import DEFAULT_LANGUAGE, LANGUAGES, Text, WordedError
from engine.i18n import text as catalogued  # `text` names the notation parsed, here
from engine.scoring.base import FLAGS, WinBy, WinContext
from engine.tiles import (
    SEAT_NAMES,
    InvalidNotationError,
    Meld,
    Tile,
    parse_tile,
    parse_tiles,
    tile_name,
)

REQUIRED = ("preset", "hand", "win")
VALUE_LIMIT = 40  # characters of a bad value an error line echoes


T = TypeVar("T")


class RequestError(WordedError):
    """A score request that does not parse or cannot happen; the message is one sentence, a
    catalogue `Text` worded in the request's `lang` (`in_language`); `str()` is English."""


def _said(error: Exception) -> Text | str:
    """What an engine error says: its catalogue `Text` when it was raised with one."""
    said = error.args[0] if len(error.args) == 1 else None
    return said if isinstance(said, Text) else str(error)


def _language(request: dict[str, Any]) -> str:
    """`lang`: the language of the answer's `message` (en by default); ids stay English."""
    language = request.get("lang", DEFAULT_LANGUAGE)
    if language not in LANGUAGES:
        languages = ", ".join(LANGUAGES)
        raise RequestError(
            catalogued("fixups.score.lang", value=_shown(language), languages=languages)
        )
    return str(language)


def checked_source(source: int | None, by: WinBy, winner: int) -> int | None:
    """`from` as given, refused on a self draw or when it names the winner."""
    if source is None:
        return None
    if by is WinBy.SELF_DRAW:
        raise RequestError(catalogued("fixups.score.from_self_draw"))
    if source == winner:
        key = "discard" if by is WinBy.DISCARD else "robbed"
        raise RequestError(catalogued(f"fixups.score.from_own_seat_{key}", seat=SEAT_NAMES[source]))
    return source


def excerpt(text: str, limit: int = VALUE_LIMIT) -> str:
    """`text`, or its start and how long it was when it is longer than `limit`."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}… ({len(text):,} characters)"


def _shown(value: object) -> str:
    """A bad value as an error line echoes it (a string quoted, anything else as JSON), cut
    to a short excerpt."""
    if isinstance(value, str):
        return repr(excerpt(value))
    try:
        text = json.dumps(value, default=repr)
    except (RecursionError, ValueError):
        text = f"a {type(value).__name__}"
    return excerpt(text)


def check_fields(
    request: dict[str, Any], fields: Sequence[str], required: Sequence[str] = REQUIRED
) -> None:
    """Refuse a field the request may not have, or a missing one it must."""
    unknown = [key for key in request if key not in fields]
    if unknown:
        known = ", ".join(fields)
        raise RequestError(
            catalogued("fixups.score.unknown_field", value=_shown(unknown[0]), fields=known)
        )
    missing = [key for key in required if key not in request]
    if missing:
        raise RequestError(catalogued("fixups.score.missing", field=repr(missing[0])))


def check_copies(
    preset_id: str,
    wall: Counter[Tile],
    seen: Counter[Tile],
    key: str = "fixups.score.too_many",
    note: Callable[[Tile], dict[str, str]] = lambda tile: {},
) -> None:
    """Refuse a request that shows more of a tile than the preset's set holds (`key` words
    it, with `note`'s fields for the tile)."""
    for tile, count in sorted(seen.items()):
        if count > wall[tile]:
            fields = note(tile)
            raise RequestError(
                catalogued(
                    key,
                    tile=tile_name(tile),
                    count=count,
                    preset=preset_id,
                    wall=wall[tile],
                    **fields,
                )
            )


def check_hand_size(
    preset_id: str, sets: int, concealed: Sequence[Tile], melds: Sequence[Meld], win: Tile
) -> None:
    """Refuse a hand that is not `sets` sets and a pair in size (a meld counts 3, a kong too)
    or that lacks its winning tile."""
    expected = 3 * sets + 2
    counted = len(concealed) + 3 * len(melds)
    if counted != expected:
        raise RequestError(
            catalogued(
                "fixups.score.tile_count",
                concealed=len(concealed),
                melds=len(melds),
                counted=counted,
                preset=preset_id,
                expected=expected,
                sets=sets,
            )
        )
    if win not in concealed:
        raise RequestError(catalogued("fixups.score.win_not_in_hand", tile=tile_name(win)))


def _text(request: dict[str, Any], key: str, default: str | None = None) -> str:
    value = request.get(key, default)
    if not isinstance(value, str):
        raise RequestError(catalogued("fixups.score.not_string", field=key, value=_shown(value)))
    return value


def _tiles(request: dict[str, Any], key: str, default: str | None = None) -> list[Tile]:
    try:
        return parse_tiles(_text(request, key, default))
    except InvalidNotationError as error:
        raise RequestError(
            catalogued("fixups.score.field", field=key, detail=_said(error))
        ) from None


def _one_tile(request: dict[str, Any], key: str) -> Tile:
    try:
        return parse_tile(_text(request, key))
    except InvalidNotationError as error:
        raise RequestError(
            catalogued("fixups.score.field", field=key, detail=_said(error))
        ) from None


def _melds(texts: object, key: str) -> tuple[Meld, ...]:
    """Melds in the order made; a claimed one may name its discarder: 'pung 555z from W'."""
    if not isinstance(texts, list):
        raise RequestError(catalogued("fixups.score.not_list", field=key, value=_shown(texts)))
    melds = []
    for index, text in enumerate(texts):
        if not isinstance(text, str):
            field = f"{key}[{index}]"
            raise RequestError(
                catalogued("fixups.score.not_string", field=field, value=_shown(text))
            )
        try:
            melds.append(_meld(text))
        except InvalidNotationError as error:
            field = f"{key}[{index}]"
            raise RequestError(
                catalogued("fixups.score.field", field=field, detail=_said(error))
            ) from None
    return tuple(melds)


def _choice(
    request: dict[str, Any], key: str, default: str, allowed: list[str], convert: Callable[[str], T]
) -> T:
    value = _text(request, key, default)
    if value not in allowed:
        raise RequestError(
            catalogued(
                "fixups.score.choice", field=key, value=_shown(value), allowed=", ".join(allowed)
            )
        )
    return convert(value)


def _flags(request: dict[str, Any], allowed: frozenset[str] = FLAGS) -> frozenset[str]:
    flags = request.get("flags", [])
    if not isinstance(flags, list) or not all(isinstance(f, str) for f in flags):
        raise RequestError(catalogued("fixups.score.not_list", field="flags", value=_shown(flags)))
    for flag in flags:
        if flag not in allowed:
            known = ", ".join(sorted(allowed))
            raise RequestError(
                catalogued("fixups.score.unknown_flag", value=_shown(flag), flags=known)
            )
    return frozenset(flags)


def _count(request: dict[str, Any], key: str, most: int) -> int | None:
    """A whole number 0..most, or None when the field is absent or null."""
    value = request.get(key)
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= most:
        raise RequestError(
            catalogued("fixups.score.count", field=key, most=most, value=_shown(value))
        )
    return value


def _meld(text: str) -> Meld:
    """A meld, optionally naming where it came from: 'pung 555z from W'."""
    words = text.split()
    if len(words) == 4 and words[2] == "from":
        if words[3] not in SEAT_NAMES:
            seats = ", ".join(SEAT_NAMES)
            raise InvalidNotationError(
                catalogued("fixups.score.meld_from_seat", seats=seats, given=repr(text))
            )
        meld = Meld.parse(" ".join(words[:2]))
        if meld.is_concealed:
            raise InvalidNotationError(
                catalogued("fixups.score.concealed_kong_from", given=repr(text))
            )
        return replace(meld, from_seat=SEAT_NAMES.index(words[3]))
    return Meld.parse(text)


def check_circumstances(ctx: WinContext) -> None:
    """Refuse flags and `by` values that contradict each other or the hand."""
    # a red, green or wild kong set down draws a replacement too
    has_kong = any(m.kind.is_kong for m in ctx.melds) or bool(ctx.special_kongs)
    if "kong_replacement" in ctx.flags and not (ctx.by is WinBy.SELF_DRAW and has_kong):
        raise RequestError(catalogued("fixups.score.kong_replacement"))
    if "heavenly" in ctx.flags and (ctx.seat != 0 or ctx.by is not WinBy.SELF_DRAW or ctx.melds):
        raise RequestError(catalogued("fixups.score.heavenly"))
    if "earthly" in ctx.flags and (ctx.seat == 0 or ctx.by is not WinBy.DISCARD or ctx.melds):
        raise RequestError(catalogued("fixups.score.earthly"))
    if "flower_replacement" in ctx.flags and not (ctx.by is WinBy.SELF_DRAW and ctx.bonus):
        raise RequestError(catalogued("fixups.score.flower_replacement"))
    if {"heavenly", "earthly"} <= ctx.flags:
        raise RequestError(catalogued("fixups.score.heavenly_and_earthly"))
    if ctx.by is WinBy.ROBBING_KONG:
        held = ctx.concealed.count(ctx.win_tile) + sum(
            m.tiles.count(ctx.win_tile) for m in ctx.melds
        )
        if held != 1:
            raise RequestError(
                catalogued("fixups.score.robbing_held", tile=tile_name(ctx.win_tile), held=held)
            )
