"""mjai's tile names: `1m`…`9m`, `1p`…`9p`, `1s`…`9s`, the honours `E S W N P F C` (white, green,
red dragon), the red fives `5mr 5pr 5sr`, and `?` for a tile the seat may not see.

>>> from engine.tiles import parse_tile
>>> tile_of("5pr") == parse_tile("0p"), name_of(parse_tile("7z"))
(True, 'C')
"""

from __future__ import annotations

from engine.tiles import NUM_KINDS, RED_FIVES, SUITS, Tile

UNKNOWN = "?"
HONOURS = "ESWNPFC"  # 1z-7z


class MjaiError(ValueError):
    """An mjai event that is malformed or impossible: the message names it."""


def _name(tile: Tile) -> str:
    if tile in RED_FIVES:
        return f"5{SUITS[RED_FIVES.index(tile)]}r"
    if tile >= 27:
        return HONOURS[tile - 27]
    return f"{tile % 9 + 1}{SUITS[tile // 9]}"


_NAMES: dict[Tile, str] = {tile: _name(tile) for tile in (*range(NUM_KINDS), *RED_FIVES)}
_TILES: dict[str, Tile] = {name: tile for tile, name in _NAMES.items()}


def name_of(tile: Tile) -> str:
    """A physical tile's mjai name (a Riichi tile: no flowers)."""
    try:
        return _NAMES[tile]
    except KeyError:
        raise MjaiError(f"tile {tile!r} has no mjai name") from None


def tile_of(name: object) -> Tile:
    """The physical tile an mjai name stands for; MjaiError for anything else (`?` included)."""
    if isinstance(name, str):
        found = _TILES.get(name)
        if found is not None:
            return found
    raise MjaiError(f"{name!r} is not an mjai tile")


def maybe_tile(name: object) -> Tile | None:
    """A tile, or None for `?` (a tile the seat may not see)."""
    return None if name == UNKNOWN else tile_of(name)
