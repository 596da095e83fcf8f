"""The hand picture sent by DM: whose hand, at which table, and the tiles to play from."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

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
    fit_lines,
    line_height,
    paste_text,
    pill,
    text_width,
)
from render.tiles import Geometry, back_sprite, tile_sprite
from render.views import HandView, SetAside
from render.words import say, suit_text, wind_text

VOID_BAR: tuple[int, int, int] = (90, 150, 255)  # under each tile of the void suit

TILE = 60  # hand tile width
SMALL = 36  # bonus tiles and the seat-wind tile in the header
MARGIN = 16
DRAWN_GAP = 22  # sets the drawn tile apart
MELD_GAP = 16
HAND_MELD_GAP = 30
ROW_GAP = 12
HEADER = 78
LABEL_PX = 26  # tile names under the tiles: 12 px or more at Discord's 400 px
LABEL_GAP = 2
TITLE_PX = 27
SUB_PX = 20
SHOWN_BOX = (400, 300)  # how Discord shows a picture inline: never larger than this box
MIN_SHOWN = 28  # a hand tile at least this wide as shown, hence:
MAX_WIDTH = TILE * SHOWN_BOX[0] // MIN_SHOWN  # melds wrap before the picture gets wider
MAX_ROWS = 3  # of concealed tiles


def sort_key(view: HandView) -> Callable[[Tile], tuple[int, int]]:
    """Suits then honours, with the preset's fixed-first kinds (fixed-kong tiles) in front."""

    def key(tile: Tile) -> tuple[int, int]:
        return (0 if tile in view.fixed_first else 1, tile_order(tile))

    return key


@dataclass(slots=True)
class HandPlan:
    """Where everything goes for one choice of rows: the renderer draws it, tests measure it."""

    width: int
    height: int
    header: int  # header height: one band, or two when the seat and bonus tiles go below
    stacked: bool  # seat, bonus and set-aside tiles on their own line under the title
    tiles: list[tuple[Tile, int, int]]  # concealed tiles then the drawn one: (tile, x, top)
    labels_at: list[int]  # each tile row's label line (top y), in row order
    melds: list[tuple[Group, int, int]]  # (group, x, base)
    notes_y: int

    def shown_tile(self) -> float:
        """A hand tile's width as Discord shows the picture."""
        return TILE * min(1.0, SHOWN_BOX[0] / self.width, SHOWN_BOX[1] / self.height)


def render_hand(view: HandView, language: str = "en") -> Image.Image:
    """Draw a player's hand in `language`: concealed tiles sorted, the drawn tile apart, melds,
    bonus tiles; in as many rows as make the tiles largest where Discord shows it."""
    plan = plan_hand(view, language)
    canvas = Image.new("RGB", (plan.width, plan.height), FELT)
    _header(canvas, view, language, plan)
    for tile, x, y in plan.tiles:
        sprite = tile_sprite(tile, TILE, wild=tile in view.wild)
        canvas.paste(sprite, (x, y), sprite)
    for group, x, base in plan.melds:
        group.paste(canvas, x, base)
    _labels(canvas, plan, view.void_suit)
    x = MARGIN
    for text, fill in _notes(view, language):  # void suit, wild, and what the player may not do
        x += pill(canvas, (x, plan.notes_y), text, SUB_PX, fill) + 8
    return canvas


def plan_hand(view: HandView, language: str = "en") -> HandPlan:
    """The first layout whose tiles Discord shows at least MIN_SHOWN px wide, trying one to
    three rows of concealed tiles, each with the header on one band and then on two; when none
    does, the one that shows them largest."""
    concealed = sorted(view.concealed, key=sort_key(view))
    count = len(concealed) + (view.drawn is not None)
    plans = [
        _plan(view, language, concealed, rows, stacked)
        for rows in range(1, min(MAX_ROWS, max(1, count)) + 1)
        for stacked in (False, True)
    ]
    readable = [plan for plan in plans if plan.shown_tile() >= MIN_SHOWN]
    return readable[0] if readable else max(plans, key=HandPlan.shown_tile)


def _rows_of(concealed: list[Tile], rows: int) -> list[list[Tile]]:
    """Balanced rows, the longer first (the drawn tile ends the last)."""
    size, extra = divmod(len(concealed), rows)
    out, start = [], 0
    for row in range(rows):
        end = start + size + (row < extra)
        out.append(concealed[start:end])
        start = end
    return out


def _plan(
    view: HandView, language: str, concealed: list[Tile], rows: int, stacked: bool
) -> HandPlan:
    header = _stacked_top() + Geometry(SMALL).height + 20 if stacked else HEADER
    tile_h = Geometry(TILE).height
    label_h = line_height(LABEL_PX) + LABEL_GAP
    tiles: list[tuple[Tile, int, int]] = []
    labels_at = []
    y = header
    block_w = 0
    parts = _rows_of(concealed, rows)
    for index, row in enumerate(parts):
        x = MARGIN
        for tile in row:
            tiles.append((tile, x, y))
            x += TILE + TILE_GAP
        if index == rows - 1 and view.drawn is not None:
            x += DRAWN_GAP - TILE_GAP if row else -TILE_GAP
            tiles.append((view.drawn, x, y))
            x += TILE + TILE_GAP
        block_w = max(block_w, x - TILE_GAP - MARGIN)
        labels_at.append(y + tile_h + LABEL_GAP)
        y += tile_h + label_h + (ROW_GAP if index < rows - 1 else 0)
    block = Group(width=block_w + (HAND_MELD_GAP - MELD_GAP if view.melds else 0))
    block.height = y - header
    melds = [meld_group(m, TILE, view.seat_wind, view.wild, view.seat_count) for m in view.melds]
    # melds follow the tiles and wrap rather than widen the picture past MAX_WIDTH
    flowed = flow([block, *melds], MAX_WIDTH - 2 * MARGIN, MELD_GAP)
    placed: list[tuple[Group, int, int]] = []
    top = header
    for line in flowed:
        for group, gx in line.items:
            if group is not block:  # melds sit on the first tile row's base
                first = line is flowed[0]
                placed.append((group, MARGIN + gx, top + (tile_h if first else line.height)))
        top += line.height + ROW_GAP
    notes = _notes(view, language)
    notes_y = top - ROW_GAP + (ROW_GAP if notes else 0)
    height = notes_y + (line_height(SUB_PX) if notes else 0) + MARGIN
    content = max(line.width for line in flowed)
    width = max(content, _header_min_width(view, language, stacked), _notes_width(notes))
    return HandPlan(width + 2 * MARGIN, height, header, stacked, tiles, labels_at, placed, notes_y)


def _stacked_top() -> int:
    """Where the seat, bonus and set-aside tiles go when they are under the subtitle."""
    return 6 + line_height(TITLE_PX) - 4 + line_height(SUB_PX) + 4


def _notes(view: HandView, language: str) -> list[tuple[str, tuple[int, int, int]]]:
    notes = []
    if view.void_suit:
        note = say(language, "hand.void_note", suit=suit_text(view.void_suit))
        notes.append((note, BADGE_BLUE))
    notes.extend((worded(text, language), BADGE_RED) for text in view.blocked)
    return notes + ready_notes(view, language)


def ready_notes(view: HandView, language: str) -> list[tuple[str, tuple[int, int, int]]]:
    """The riichi standing and, once the hand is ready, its waits (the picture's pills, the
    terminal's hand line)."""
    notes = [(say(language, "hand.declared"), BADGE_RED)] if view.declared else []
    if view.waits:
        waits = " ".join(tile_name(t) for t in sorted(view.waits, key=tile_order))
        notes.append((say(language, "hand.waits", tiles=waits), BADGE_BLUE))
    return notes


def _labels(canvas: Image.Image, plan: HandPlan, void: str | None) -> None:
    """Each tile's notation under it, so players can match tiles to the discard controls.

    Tiles of the declared void suit get a blue bar and a blue label: they must go first.
    """
    for tile, x, y in plan.tiles:
        label_y = y + Geometry(TILE).height + LABEL_GAP
        in_void = void is not None and suit_of(tile) == void
        if in_void:
            canvas.paste(VOID_BAR, (x + 4, label_y - 2, x + TILE - 4, label_y + 2))
        colour = VOID_BAR if in_void else TEXT_DIM
        paste_text(canvas, (x + TILE // 2, label_y), tile_name(tile), LABEL_PX, colour, align="c")


def _notes_width(notes: list[tuple[str, tuple[int, int, int]]]) -> int:
    return sum(text_width(t, SUB_PX) + SUB_PX + 8 for t, _ in notes)


def _wind_label(view: HandView, language: str) -> str:
    return say(language, "hand.seat", wind=wind_text(view.seat_wind))


def _header_min_width(view: HandView, language: str, stacked: bool) -> int:
    """Title and subtitle beside the seat and bonus tiles, or (stacked) above them."""
    title = worded(view.table_name, language)
    left = max(text_width(title, TITLE_PX), text_width(_subtitle(view, language), SUB_PX))
    return (
        max(min(left, 520), _right_width(view, language))
        if stacked
        else (min(left, 520) + _right_width(view, language) + 30)
    )


def _right_width(view: HandView, language: str) -> int:
    wind_w = text_width(_wind_label(view, language), SUB_PX)
    right = len(view.bonus) * (SMALL + TILE_GAP) + SMALL + wind_w + SUB_PX + 8
    if view.bonus:
        right += 18
    return right + sum(_set_aside_width(item, language) + 18 for item in view.set_aside)


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


def _header(canvas: Image.Image, view: HandView, language: str, plan: HandPlan) -> None:
    """Table and channel on the left (which game this DM is about), seat and bonus on the right
    (or, stacked, on a line of their own under them)."""
    band = HEADER - 14
    canvas.paste(FELT_DARK, (0, 0, canvas.width, plan.header - 14))
    right = canvas.width - MARGIN
    wind_tile = tile_sprite(27 + view.seat_wind, SMALL)
    top = _stacked_top() if plan.stacked else (band - wind_tile.height) // 2
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
    room = (canvas.width if plan.stacked else right) - 2 * MARGIN
    title, size = fit_lines(worded(view.table_name, language), TITLE_PX, room, SUB_PX, 1)
    paste_text(canvas, (MARGIN, 6 + (TITLE_PX - size) // 2), title[0], size, TEXT)
    subtitle, sub_size = fit_lines(_subtitle(view, language), SUB_PX, room, 15, 1)
    paste_text(canvas, (MARGIN, 6 + line_height(TITLE_PX) - 4), subtitle[0], sub_size, TEXT_DIM)
