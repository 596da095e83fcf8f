"""The hand picture sent by DM: whose hand, at which table, and the tiles to play from."""

from __future__ import annotations

from collections.abc import Callable

from PIL import Image

from engine.tiles import Tile, tile_name
from render.compose import TILE_GAP, Group, flow, meld_group, tile_row
from render.style import (
    BADGE_BROWN,
    FELT,
    FELT_DARK,
    GOLD,
    TEXT,
    TEXT_DIM,
    WIND_NAMES,
    fit_text,
    line_height,
    paste_text,
    pill,
    text_width,
)
from render.tiles import tile_sprite
from render.views import HandView

TILE = 60  # hand tile width: about 36 px on a 550 px wide Discord preview of a 14-tile hand
SMALL = 36  # bonus tiles and the seat-wind tile in the header
MARGIN = 20
DRAWN_GAP = 22  # sets the drawn tile apart
MELD_GAP = 16
HAND_MELD_GAP = 30
ROW_GAP = 12
MAX_WIDTH = 1200  # wider hands wrap their melds onto a second row
HEADER = 78
LABEL_PX = 18
TITLE_PX = 27
SUB_PX = 20


def sort_key(view: HandView) -> Callable[[Tile], tuple[int, int]]:
    """Suits then honours, with the preset's fixed-first kinds (fixed-kong tiles) in front."""

    def key(tile: Tile) -> tuple[int, int]:
        return (0 if tile in view.fixed_first else 1, tile)

    return key


def render_hand(view: HandView) -> Image.Image:
    """Draw a player's hand: concealed tiles sorted, the drawn tile apart, melds, bonus tiles."""
    concealed = sorted(view.concealed, key=sort_key(view))
    block = _hand_block(concealed, view.drawn, view.wild)
    melds = [meld_group(m, TILE, view.seat_wind, view.wild) for m in view.melds]
    if melds:
        block.width += HAND_MELD_GAP - MELD_GAP  # exposed sets stand clear of the hand
    # the hand stays on the first row; melds follow it and wrap when the picture gets too wide
    rows = flow([block, *melds], MAX_WIDTH - 2 * MARGIN, MELD_GAP)
    label_h = line_height(LABEL_PX) + 6
    width = max(max(r.width for r in rows), _header_min_width(view)) + 2 * MARGIN
    height = HEADER + sum(r.height for r in rows) + label_h + ROW_GAP * (len(rows) - 1) + MARGIN
    canvas = Image.new("RGB", (width, height), FELT)
    _header(canvas, view)
    y = HEADER
    for row in rows:
        base = y + row.height
        for group, gx in row.items:
            group.paste(canvas, MARGIN + gx, base)
        y = base + (label_h if row is rows[0] else ROW_GAP)
    _labels(canvas, HEADER + rows[0].height + 3, concealed, view.drawn)
    return canvas


def _hand_block(concealed: list[Tile], drawn: Tile | None, wild: frozenset[Tile]) -> Group:
    """The concealed tiles side by side and the drawn tile a little apart."""
    block = tile_row(concealed, TILE, wild)
    if drawn is not None:
        block.add(tile_sprite(drawn, TILE, wild=drawn in wild), _drawn_x(len(concealed)))
    return block


def _drawn_x(count: int) -> int:
    return count * (TILE + TILE_GAP) - TILE_GAP + DRAWN_GAP if count else 0


def _labels(canvas: Image.Image, y: int, concealed: list[Tile], drawn: Tile | None) -> None:
    """Each tile's notation under it, so players can match tiles to the discard controls."""
    places = [(MARGIN + i * (TILE + TILE_GAP), tile) for i, tile in enumerate(concealed)]
    if drawn is not None:
        places.append((MARGIN + _drawn_x(len(concealed)), drawn))
    for x, tile in places:
        paste_text(canvas, (x + TILE // 2, y), tile_name(tile), LABEL_PX, TEXT_DIM, align="c")


def _wind_label(view: HandView) -> str:
    return f"{WIND_NAMES[view.seat_wind]} seat"


def _header_min_width(view: HandView) -> int:
    left = max(text_width(view.table_name, TITLE_PX), text_width(_subtitle(view), SUB_PX))
    right = len(view.bonus) * (SMALL + 3) + SMALL + text_width(_wind_label(view), SUB_PX) + 60
    return min(left, 520) + right + 30


def _subtitle(view: HandView) -> str:
    who = f"{view.player_name}'s hand" if view.player_name else "Your hand"
    channel = f"#{view.channel_name.lstrip('#')}" if view.channel_name else ""
    return " · ".join(part for part in (who, channel) if part)


def _header(canvas: Image.Image, view: HandView) -> None:
    """Table and channel on the left (which game this DM is about), seat and bonus on the right."""
    canvas.paste(FELT_DARK, (0, 0, canvas.width, HEADER - 14))
    right = canvas.width - MARGIN
    wind_tile = tile_sprite(27 + view.seat_wind, SMALL)
    top = (HEADER - 14 - wind_tile.height) // 2
    right -= wind_tile.width
    canvas.paste(wind_tile, (right, top), wind_tile)
    label_w = text_width(_wind_label(view), SUB_PX) + SUB_PX
    right -= label_w + 8
    pill(
        canvas,
        (right, top + (wind_tile.height - line_height(SUB_PX)) // 2),
        _wind_label(view),
        SUB_PX,
        BADGE_BROWN,
        GOLD,
    )
    if view.bonus:
        right -= 18 + len(view.bonus) * (SMALL + TILE_GAP)
        tile_row(view.bonus, SMALL).paste(canvas, right, top + wind_tile.height)
    room = right - MARGIN - 16
    paste_text(canvas, (MARGIN, 6), fit_text(view.table_name, TITLE_PX, room), TITLE_PX, TEXT)
    paste_text(
        canvas,
        (MARGIN, 6 + line_height(TITLE_PX) - 4),
        fit_text(_subtitle(view), SUB_PX, room),
        SUB_PX,
        TEXT_DIM,
    )
