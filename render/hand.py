"""The hand picture sent by DM: whose hand, at which table, and the tiles to play from."""

from __future__ import annotations

from collections.abc import Callable

from PIL import Image

from engine.i18n import worded
from engine.tiles import Tile, suit_of, tile_name, tile_order
from render.compose import TILE_GAP, Group, flow, meld_group, tile_row
from render.style import (
    BADGE_BLUE,
    BADGE_BROWN,
    BADGE_RED,
    FELT,
    FELT_DARK,
    GOLD,
    TEXT,
    TEXT_DIM,
    fit_text,
    line_height,
    paste_text,
    pill,
    text_width,
)
from render.tiles import back_sprite, tile_sprite
from render.views import HandView, SetAside
from render.words import say, suit_text, wind_text

VOID_BAR: tuple[int, int, int] = (90, 150, 255)  # under each tile of the void suit

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
        return (0 if tile in view.fixed_first else 1, tile_order(tile))

    return key


def render_hand(view: HandView, language: str = "en") -> Image.Image:
    """Draw a player's hand in `language`: concealed tiles sorted, the drawn tile apart, melds,
    bonus tiles."""
    concealed = sorted(view.concealed, key=sort_key(view))
    block = _hand_block(concealed, view.drawn, view.wild)
    melds = [meld_group(m, TILE, view.seat_wind, view.wild, view.seat_count) for m in view.melds]
    if melds:
        block.width += HAND_MELD_GAP - MELD_GAP  # exposed sets stand clear of the hand
    # the hand stays on the first row; melds follow it and wrap when the picture gets too wide
    rows = flow([block, *melds], MAX_WIDTH - 2 * MARGIN, MELD_GAP)
    label_h = line_height(LABEL_PX) + 6
    notes = _notes(view, language)
    notes_h = line_height(SUB_PX) + ROW_GAP if notes else 0
    width = max(max(r.width for r in rows), _header_min_width(view, language)) + 2 * MARGIN
    height = HEADER + sum(r.height for r in rows) + label_h + ROW_GAP * (len(rows) - 1) + MARGIN
    height += notes_h
    canvas = Image.new("RGB", (width, height), FELT)
    _header(canvas, view, language)
    y = HEADER
    for row in rows:
        base = y + row.height
        for group, gx in row.items:
            group.paste(canvas, MARGIN + gx, base)
        y = base + (label_h if row is rows[0] else ROW_GAP)
    _labels(canvas, HEADER + rows[0].height + 3, concealed, view.drawn, view.void_suit)
    x = MARGIN
    for text, fill in notes:  # void suit, wild, and what the player may not do now
        x += pill(canvas, (x, height - MARGIN - line_height(SUB_PX)), text, SUB_PX, fill) + 8
    return canvas


def _notes(view: HandView, language: str) -> list[tuple[str, tuple[int, int, int]]]:
    notes = []
    if view.void_suit:
        note = say(language, "hand.void_note", suit=suit_text(view.void_suit))
        notes.append((note, BADGE_BLUE))
    notes.extend((worded(text, language), BADGE_RED) for text in view.blocked)
    return notes


def _hand_block(concealed: list[Tile], drawn: Tile | None, wild: frozenset[Tile]) -> Group:
    """The concealed tiles side by side and the drawn tile a little apart."""
    block = tile_row(concealed, TILE, wild)
    if drawn is not None:
        block.add(tile_sprite(drawn, TILE, wild=drawn in wild), _drawn_x(len(concealed)))
    return block


def _drawn_x(count: int) -> int:
    return count * (TILE + TILE_GAP) - TILE_GAP + DRAWN_GAP if count else 0


def _labels(
    canvas: Image.Image, y: int, concealed: list[Tile], drawn: Tile | None, void: str | None
) -> None:
    """Each tile's notation under it, so players can match tiles to the discard controls.

    Tiles of the declared void suit get a blue bar and a blue label: they must go first.
    """
    places = [(MARGIN + i * (TILE + TILE_GAP), tile) for i, tile in enumerate(concealed)]
    if drawn is not None:
        places.append((MARGIN + _drawn_x(len(concealed)), drawn))
    for x, tile in places:
        in_void = void is not None and suit_of(tile) == void
        if in_void:
            canvas.paste(VOID_BAR, (x + 4, y - 2, x + TILE - 4, y + 2))
        colour = VOID_BAR if in_void else TEXT_DIM
        paste_text(canvas, (x + TILE // 2, y + 2), tile_name(tile), LABEL_PX, colour, align="c")


def _wind_label(view: HandView, language: str) -> str:
    return say(language, "hand.seat", wind=wind_text(view.seat_wind))


def _header_min_width(view: HandView, language: str) -> int:
    title = worded(view.table_name, language)
    left = max(text_width(title, TITLE_PX), text_width(_subtitle(view, language), SUB_PX))
    wind_w = text_width(_wind_label(view, language), SUB_PX)
    right = len(view.bonus) * (SMALL + 3) + SMALL + wind_w + 60
    right += sum(_set_aside_width(item, language) + 18 for item in view.set_aside)
    notes = sum(text_width(t, SUB_PX) + SUB_PX + 8 for t, _ in _notes(view, language))
    return max(min(left, 520) + right + 30, notes)


def _set_aside_width(item: SetAside, language: str) -> int:
    label = worded(item.label, language)
    return text_width(label, SUB_PX) + 6 + (len(item.tiles) + item.face_down) * (SMALL + 3)


def _subtitle(view: HandView, language: str = "en") -> str:
    name = view.player_name.strip()
    # the terminal names its player "You" (or 你): "You's hand" must read "Your hand"
    yours = name.casefold() in ("", "you", say(language, "hand.you").casefold())
    who = say(language, "hand.yours") if yours else say(language, "hand.whose", name=name)
    channel = f"#{view.channel_name.lstrip('#')}" if view.channel_name else ""
    return " · ".join(part for part in (who, channel) if part)


def _header(canvas: Image.Image, view: HandView, language: str) -> None:
    """Table and channel on the left (which game this DM is about), seat and bonus on the right."""
    canvas.paste(FELT_DARK, (0, 0, canvas.width, HEADER - 14))
    right = canvas.width - MARGIN
    wind_tile = tile_sprite(27 + view.seat_wind, SMALL)
    top = (HEADER - 14 - wind_tile.height) // 2
    right -= wind_tile.width
    canvas.paste(wind_tile, (right, top), wind_tile)
    wind_label = _wind_label(view, language)
    label_w = text_width(wind_label, SUB_PX) + SUB_PX
    right -= label_w + 8
    pill(
        canvas,
        (right, top + (wind_tile.height - line_height(SUB_PX)) // 2),
        wind_label,
        SUB_PX,
        BADGE_BROWN,
        GOLD,
    )
    if view.bonus:
        right -= 18 + len(view.bonus) * (SMALL + TILE_GAP)
        tile_row(view.bonus, SMALL).paste(canvas, right, top + wind_tile.height)
    for item in view.set_aside:  # e.g. the wild indicator: "Wild" and its tile
        right -= 18 + _set_aside_width(item, language)
        label = worded(item.label, language)
        x = right + paste_text(canvas, (right, top + 4), label, SUB_PX, TEXT_DIM) + 6
        for tile in item.tiles:
            sprite = tile_sprite(tile, SMALL, wild=tile in view.wild)
            canvas.paste(sprite, (x, top), sprite)
            x += SMALL + 3
        for _ in range(item.face_down):
            canvas.paste(back_sprite(SMALL), (x, top), back_sprite(SMALL))
            x += SMALL + 3
    room = right - MARGIN - 16
    title = fit_text(worded(view.table_name, language), TITLE_PX, room)
    paste_text(canvas, (MARGIN, 6), title, TITLE_PX, TEXT)
    paste_text(
        canvas,
        (MARGIN, 6 + line_height(TITLE_PX) - 4),
        fit_text(_subtitle(view, language), SUB_PX, room),
        SUB_PX,
        TEXT_DIM,
    )
