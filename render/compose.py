"""Groups of sprites (a run of tiles, a meld) and a flow layout that wraps them into rows."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from PIL import Image

from engine.tiles import Meld, MeldKind, Tile
from render.tiles import Geometry, back_sprite, tile_sprite, turned_sprite
from render.views import MAX_SEATS

TILE_GAP = 1  # pixels between touching tiles of one group
ADDED_LIFT = 0.4  # an added kong's fourth tile sits this far (in tile widths) up the third


@dataclass(slots=True)
class Group:
    """Sprites placed relative to the group's bottom-left corner (dy <= 0 goes up)."""

    pieces: list[tuple[Image.Image, int, int]] = field(default_factory=list)
    width: int = 0
    height: int = 0

    def add(self, sprite: Image.Image, dx: int, bottom: int = 0) -> None:
        """Place a sprite with its left at dx and its bottom `bottom` pixels above the base."""
        self.pieces.append((sprite, dx, -bottom - sprite.height))
        self.width = max(self.width, dx + sprite.width)
        self.height = max(self.height, bottom + sprite.height)

    def append(self, sprite: Image.Image, gap: int = TILE_GAP) -> None:
        """Place a sprite after the last one, sitting on the base."""
        self.add(sprite, self.width + gap if self.pieces else 0)

    def paste(self, canvas: Image.Image, x: int, base: int) -> None:
        """Draw the group with its left edge at x and its base (bottom) at y = base."""
        for sprite, dx, dy in self.pieces:
            canvas.paste(sprite, (x + dx, base + dy), sprite)


def tile_row(tiles: Iterable[Tile], size: int, wild: frozenset[Tile] = frozenset()) -> Group:
    """Upright face-up tiles side by side."""
    group = Group()
    for tile in tiles:
        group.append(tile_sprite(tile, size, wild=tile in wild))
    return group


def _turn_index(meld: Meld, seat: int | None, seats: int) -> int:
    """Which position holds the turned (claimed) tile: it points at the seat it came from.

    From the left-hand player (the one before) it is first, from across it is second, from the
    right (the one after) it is last, the usual table convention. At three seats nobody sits
    across; at two the other player does. Unknown giver: first.
    """
    if meld.kind is MeldKind.CHOW or meld.from_seat is None or seat is None:
        return 0
    relative = (meld.from_seat - seat) % seats
    if seats > 2 and relative == seats - 1:
        return 0
    if seats > 2 and relative == 1:
        return meld.kind.size - 1
    return 1 if relative else 0


def meld_group(
    meld: Meld,
    size: int,
    seat: int | None = None,
    wild: frozenset[Tile] = frozenset(),
    seats: int = MAX_SEATS,
) -> Group:
    """An exposed meld with its claimed tile turned, or a concealed kong with two tiles down."""
    group = Group()
    if meld.kind is MeldKind.CONCEALED_KONG:
        tile = meld.tiles[0]
        for sprite in (back_sprite(size), None, None, back_sprite(size)):
            group.append(sprite or tile_sprite(tile, size, wild=tile in wild))
        return group
    shown = 3 if meld.kind is MeldKind.ADDED_KONG else meld.kind.size
    turn = min(_turn_index(meld, seat, seats), shown - 1)
    claimed = meld.claimed if meld.claimed is not None else meld.tiles[turn]
    rest = list(meld.tiles[:shown])
    if claimed in rest:
        rest.remove(claimed)
    else:  # a claimed tile outside the shown tiles: keep the count right
        rest.pop()
    order = [*rest[:turn], claimed, *rest[turn:]]
    for index, tile in enumerate(order):
        is_wild = tile in wild
        if index != turn:
            group.append(tile_sprite(tile, size, wild=is_wild))
            continue
        turned = turned_sprite(tile, size, wild=is_wild)
        left = group.width + TILE_GAP if group.pieces else 0
        group.add(turned, left)
        if meld.kind is MeldKind.ADDED_KONG:  # the added tile lies on the claimed one,
            added = meld.tiles[3]  # which shows below it: a stack no taller than a tile
            lift = round(size * ADDED_LIFT)
            group.add(turned_sprite(added, size, wild=added in wild), left, lift)
    return group


@dataclass(slots=True)
class Row:
    items: list[tuple[Group, int]] = field(default_factory=list)  # (group, x)
    width: int = 0
    height: int = 0


def flow(groups: Sequence[Group], max_width: int, gap: int) -> list[Row]:
    """Place groups left to right, wrapping to a new row when one would pass max_width."""
    rows = [Row()]
    for group in groups:
        row = rows[-1]
        x = row.width + gap if row.items else 0
        if row.items and x + group.width > max_width:
            row = Row()
            rows.append(row)
            x = 0
        row.items.append((group, x))
        row.width = x + group.width
        row.height = max(row.height, group.height)
    return rows


def tile_height(size: int) -> int:
    return Geometry(size).height
