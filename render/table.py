"""The table picture for the channel: a square table, each seat's pond before it.

The picture is 4:3 and 864 px wide, so Discord's embed (a 400 x 300 box) shows it at 400 px,
where a pond tile is 16-17 px wide. Seats sit round the table in turn order, East at the
bottom and the next seat to its right, as on every table and client; each seat is one panel
(a pinwheel round the centre): its pond and a card with name, points, clock, the count of its
hidden tiles, melds and flowers. The centre holds what everyone looks at: the latest discard,
large, and a gold arrow to the seat to act. All tiles stay upright so everyone reads every pond
the same way. Hidden hands are a count: the view holds no concealed tile, so none can be drawn.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

from PIL import Image, ImageDraw

from engine.i18n import Number, worded
from render.compose import TILE_GAP, Group, flow, meld_group, tile_row
from render.sticks import stick_sprite
from render.style import (
    BADGE_BLUE,
    BADGE_GREEN,
    BADGE_GREY,
    BADGE_RED,
    FELT,
    FELT_DARK,
    GOLD,
    MARK,
    PANEL,
    PANEL_TURN,
    RGB,
    TEXT,
    TEXT_DIM,
    fit_lines,
    fit_size,
    line_height,
    paste_text,
    pill,
    rounded_box,
    text_image,
    text_width,
)
from render.tiles import (
    Geometry,
    back_sprite,
    dimmed_sprite,
    frame_sprite,
    tile_sprite,
    turned_sprite,
)
from render.views import SeatView, SetAside, TableView
from render.words import say, suit_text, wind_text

CELL_W, CELL_H = 288, 216  # the table is a 3 x 3 grid of cells: 864 x 648, 4:3
POND = 36  # pond tiles: 16.7 px wide at 400 px
LATEST = 68  # the latest discard in the centre: 31 px at 400 px
MIN_LATEST = 54  # beside a long status: 25 px at 400 px
# melds and flowers: the first of these sizes at which a seat's card holds them; 40 is 18.5 px
# at 400 px, larger than a pond tile
MELD_SIZES = (40, 38, 36, 32, 28, 24)
SMALL = 24  # the hidden-count back, a locked winner's hand, wind tiles
SET_ASIDE = 32  # the table's set-aside tiles (wild, horse, birds): 15 px at 400 px
FLOWERS_A_ROW = 4
GAP = 8  # between panels
PAD = 8  # inside a panel
POND_PAD = 6
GROUP_GAP = 8
POND_COLUMNS = 6  # the usual six discards a row
NAME_PX = 28
INFO_PX = 22
SUB_PX = 20
TITLE_PX = 26
RIM = 4  # the gold rim of the seat to act

Box = tuple[int, int, int, int]

# (pond cells, card cells) per seat in grid units (column 0, row 0, column 1, row 1), seat order.
# East sits at the bottom, the next seat to its right, then across, then left (turn order runs
# counter-clockwise seen from above). Three seats leave the far side empty, for the header.
Place = tuple[Box, Box]
LAYOUTS: dict[int, tuple[tuple[Place, ...], Box, Box | None]] = {
    4: (
        (
            ((1, 2, 2, 3), (2, 2, 3, 3)),  # bottom
            ((2, 1, 3, 2), (2, 0, 3, 1)),  # right
            ((1, 0, 2, 1), (0, 0, 1, 1)),  # top
            ((0, 1, 1, 2), (0, 2, 1, 3)),  # left
        ),
        (1, 1, 2, 2),  # centre
        None,  # header
    ),
    3: (
        (
            ((1, 2, 2, 3), (2, 2, 3, 3)),
            ((2, 1, 3, 2), (2, 0, 3, 1)),
            ((0, 1, 1, 2), (0, 2, 1, 3)),
        ),
        (1, 1, 2, 2),
        (0, 0, 2, 1),
    ),
    2: (
        (
            ((0, 2, 2, 3), (2, 2, 3, 3)),
            ((1, 0, 3, 1), (0, 0, 1, 1)),
        ),
        (1, 1, 3, 2),
        (0, 1, 1, 2),
    ),
}
SIDES = {
    4: ("bottom", "right", "top", "left"),
    3: ("bottom", "right", "left"),
    2: ("bottom", "top"),
}


@dataclass(slots=True)
class SeatPlan:
    """Where one seat's panel and its parts go."""

    side: str  # 'bottom', 'right', 'top' or 'left': where the seat sits at the table
    box: Box  # the panel
    card: Box  # name, points, hidden count, melds, flowers
    groups: list[tuple[Group, int, int]] = field(default_factory=list)  # (group, x, base)
    count_at: tuple[int, int] | None = None  # top-left of the hidden-count back sprite
    pond: list[tuple[int, int, int]] = field(default_factory=list)  # (pond index, x, y)
    meld_size: int = MELD_SIZES[0]  # how wide its melds and flowers are drawn


@dataclass(slots=True)
class TablePlan:
    width: int
    height: int
    seats: list[SeatPlan]
    centre: Box
    header: Box | None


def seat_count(view: TableView) -> int:
    return len(view.seats)


def _columns_that_fit(cells_wide: int) -> int:
    return (cells_wide * CELL_W - GAP - 2 * POND_PAD + TILE_GAP) // (POND + TILE_GAP)


def pond_columns(view: TableView) -> int:
    """Six a row, up to seven past 24 discards; a two-seat table's ponds span two cells, so
    twelve a row, up to fifteen. Longer ponds than four rows of those add rows."""
    longest = max(len(seat.pond) for seat in view.seats)
    # a sideways tile (a riichi discard) widens its row by one tile's turn
    turned = any(seat.turned for seat in view.seats)
    if seat_count(view) == 2:
        return min(_columns_that_fit(2) - turned, max(2 * POND_COLUMNS, -(-longest // 4)))
    return min(_columns_that_fit(1) - turned, max(POND_COLUMNS, -(-longest // 4)))


def _turn_extra() -> int:
    """How much wider a sideways pond tile is than an upright one."""
    return Geometry(POND).face_h - POND


def _pond_step_y() -> int:
    return Geometry(POND).face_h  # a row hides the edge of the row behind it, as on a table


def _pond_height(rows: int) -> int:
    return (rows - 1) * _pond_step_y() + Geometry(POND).height


def _cells(view: TableView, columns: int) -> tuple[int, int]:
    """Cell sizes: 288 x 216, taller only for a pond past four full rows (the picture then
    passes 4:3, and an embed shows it a little smaller)."""
    rows = max(4, *(-(-len(seat.pond) // columns) for seat in view.seats))
    return CELL_W, max(CELL_H, _pond_height(rows) + GAP + 2 * POND_PAD)


def _grid_box(cells: Box, cell_w: int, cell_h: int) -> Box:
    c0, r0, c1, r1 = cells
    half = GAP // 2
    return (c0 * cell_w + half, r0 * cell_h + half, c1 * cell_w - half, r1 * cell_h - half)


def plan_table(view: TableView, language: str = "en") -> TablePlan:
    """Lay the table out without drawing: the renderer and the tests share these positions."""
    count = seat_count(view)
    places, centre, header = LAYOUTS[count]
    columns = pond_columns(view)
    cell_w, cell_h = _cells(view, columns)
    seats = []
    for index, (seat, (pond_cells, card_cells)) in enumerate(zip(view.seats, places, strict=True)):
        both = (
            min(pond_cells[0], card_cells[0]),
            min(pond_cells[1], card_cells[1]),
            max(pond_cells[2], card_cells[2]),
            max(pond_cells[3], card_cells[3]),
        )
        plan = SeatPlan(
            SIDES[count][index],
            _grid_box(both, cell_w, cell_h),
            _grid_box(card_cells, cell_w, cell_h),
        )
        _plan_pond(plan, seat, _grid_box(pond_cells, cell_w, cell_h), columns)
        _plan_card(plan, view, index, seat, language)
        seats.append(plan)
    return TablePlan(
        3 * cell_w,
        3 * cell_h,
        seats,
        _grid_box(centre, cell_w, cell_h),
        _grid_box(header, cell_w, cell_h) if header else None,
    )


def _plan_pond(plan: SeatPlan, seat: SeatView, box: Box, columns: int) -> None:
    """Discards in reading order, the block pushed towards the centre of the table."""
    step_x, step_y = POND + TILE_GAP, _pond_step_y()
    block_w = columns * step_x - TILE_GAP + (_turn_extra() if seat.turned else 0)
    rows = max(1, -(-len(seat.pond) // columns))
    block_h = _pond_height(rows)
    x0, y0, x1, y1 = box[0] + POND_PAD, box[1] + POND_PAD, box[2] - POND_PAD, box[3] - POND_PAD
    left = {"left": x1 - block_w, "right": x0}.get(plan.side, (x0 + x1 - block_w) // 2)
    steady = max(block_h, _pond_height(4))  # side ponds keep their place as they grow
    top = {"top": y1 - block_h, "bottom": y0}.get(plan.side, (y0 + y1 - steady) // 2)
    shift = 0  # a sideways tile earlier in the row pushes the rest of it along
    for i in range(len(seat.pond)):
        row, col = divmod(i, columns)
        if col == 0:
            shift = 0
        plan.pond.append((i, left + col * step_x + shift, top + row * step_y))
        if i in seat.turned:
            shift = _turn_extra()


def _count_group(count: int) -> Group:
    """One face-down tile and the number of hidden tiles: the count, not a row of backs."""
    group = Group()
    group.append(back_sprite(SMALL))
    label = text_image(f"×{count}", NAME_PX, TEXT)
    group.add(label, group.width + 4, (Geometry(SMALL).height - label.height) // 2)
    return group


def _set_aside_group(
    item: SetAside, wild: frozenset[int], language: str, size: int = SET_ASIDE
) -> Group:
    """A label then its tiles (face-down ones as backs); bird hits get a gold frame later."""
    group = Group()
    label = text_image(worded(item.label, language), SUB_PX, TEXT_DIM)
    group.add(label, 0, (Geometry(size).height - label.height) // 2)
    for tile in item.tiles:
        group.append(tile_sprite(tile, size, wild=tile in wild), 3)
    for _ in range(item.face_down):
        group.append(back_sprite(size), 3)
    return group


def _card_groups(
    view: TableView, index: int, seat: SeatView, language: str, size: int
) -> list[Group]:
    """The hidden count (or a finished hand face up), flowers, set-aside tiles, then melds;
    flowers and melds `size` px wide."""
    groups = []
    if seat.concealed_count:
        groups.append(_count_group(seat.concealed_count))
    for start in range(0, len(seat.revealed), 7):  # a locked winner's hand, in wrapping parts
        groups.append(tile_row(seat.revealed[start : start + 7], SMALL, view.wild))
    for start in range(0, len(seat.bonus), FLOWERS_A_ROW):
        groups.append(tile_row(seat.bonus[start : start + FLOWERS_A_ROW], size))
    groups.extend(_set_aside_group(item, view.wild, language, size) for item in seat.set_aside)
    seats = seat_count(view)
    groups.extend(meld_group(m, size, index, view.wild, seats) for m in seat.melds)
    return groups


def _info_bottom(card: Box) -> int:
    """Under the name and points lines (the points line's pills end here): two rows of 40 px
    melds fit below it."""
    return card[1] + PAD + line_height(NAME_PX) + line_height(INFO_PX) - 4


def _plan_card(plan: SeatPlan, view: TableView, index: int, seat: SeatView, language: str) -> None:
    """Flowers and melds as large as the card holds them (MELD_SIZES), in wrapping rows."""
    x0, _, x1, y1 = plan.card
    left = x0 + PAD
    top = _info_bottom(plan.card) + 4
    for size in MELD_SIZES:
        groups = _card_groups(view, index, seat, language, size)
        rows = flow(groups, x1 - PAD - left, GROUP_GAP)
        if top + sum(row.height + 6 for row in rows) - 6 <= y1 - PAD // 2:
            break
    plan.meld_size = size
    y = top
    count_group = groups[0] if seat.concealed_count else None
    for row in rows:
        base = y + row.height
        for group, gx in row.items:
            plan.groups.append((group, left + gx, base))
            if group is count_group:
                plan.count_at = (left + gx, base - Geometry(SMALL).height)
        y = base + 6


def render_table(view: TableView, language: str = "en") -> Image.Image:
    """Draw the public table in `language`: no concealed tile exists in the view, so none is
    drawn."""
    plan = plan_table(view, language)
    canvas = Image.new("RGB", (plan.width, plan.height), FELT_DARK)
    for index, (seat, seat_plan) in enumerate(zip(view.seats, plan.seats, strict=True)):
        _draw_seat(canvas, view, index, seat, seat_plan, language)
    _draw_centre(canvas, view, plan, language)
    if plan.header:
        _draw_header(canvas, view, plan.header, language)
    return canvas


def _draw_seat(
    canvas: Image.Image,
    view: TableView,
    index: int,
    seat: SeatView,
    plan: SeatPlan,
    language: str,
) -> None:
    box = plan.box
    turn = view.turn == index
    if turn:  # a gold rim and a lighter panel: whose turn it is, at a glance
        rim = (box[0] - RIM, box[1] - RIM, box[2] + RIM, box[3] + RIM)
        rounded_box(canvas, _clip(rim, canvas), 14, GOLD)
    rounded_box(canvas, box, 10, PANEL_TURN if turn else PANEL)
    _seat_info(canvas, view, index, plan, language)
    for group, x, base in plan.groups:
        group.paste(canvas, x, base)
    latest = view.latest[1] if view.latest and view.latest[0] == index else None
    wild = view.wild
    for i, x, y in plan.pond:
        _paste_pond_tile(canvas, seat, i, x, y, wild, dim=i in seat.claimed)
    if latest is not None and latest < len(plan.pond):  # drawn last: over the row in front
        _, x, y = plan.pond[latest]
        sprite = _paste_pond_tile(canvas, seat, latest, x, y, wild, dim=False)
        frame = frame_sprite(POND, MARK)
        if latest in seat.turned:
            frame = frame.rotate(90, expand=True)
            y += Geometry(POND).height - sprite.height
        offset = (frame.width - sprite.width) // 2
        canvas.paste(frame, (x - offset, y - offset), frame)


def _paste_pond_tile(
    canvas: Image.Image,
    seat: SeatView,
    index: int,
    x: int,
    y: int,
    wild: frozenset[int],
    *,
    dim: bool,
) -> Image.Image:
    """One pond tile at its place: upright, dimmed when claimed, or sideways (a riichi
    discard) with its foot on the row's line."""
    tile = seat.pond[index]
    if index in seat.turned:
        sprite = turned_sprite(tile, POND, wild=tile in wild)
        y += Geometry(POND).height - sprite.height
    else:
        sprite = (dimmed_sprite if dim else tile_sprite)(tile, POND, wild=tile in wild)
    canvas.paste(sprite, (x, y), sprite)
    return sprite


def _clip(box: Box, canvas: Image.Image) -> Box:
    return (max(0, box[0]), max(0, box[1]), min(canvas.width, box[2]), min(canvas.height, box[3]))


def _badges(seat: SeatView, language: str) -> list[tuple[str, RGB]]:
    badges = []
    if seat.void_suit:
        badges.append((say(language, "table.void", suit=suit_text(seat.void_suit)), BADGE_BLUE))
    if seat.won or seat.wins:
        won = say(language, "table.won_times", count=seat.wins) if seat.wins > 1 else None
        badges.append((won or say(language, "table.won"), BADGE_GREEN))
    return badges


def points_text(points: int, thousands: bool, language: str) -> str:
    """'Points 30', or at a table of thousands 'Points 25.0k': a seat's points as its card
    says them, with a true minus sign."""
    number = Number(points, thousands=thousands).in_language(language)
    if thousands:
        number = say(language, "table.thousands", points=number)
    return say(language, "table.points", points=number.replace("-", "−"))


def clock_text(seconds: int) -> str:
    return f"{seconds // 60}:{seconds % 60:02d}"


def _seat_info(
    canvas: Image.Image, view: TableView, index: int, plan: SeatPlan, language: str
) -> None:
    """Wind tile, name and dealer mark; then points, the clock and badges."""
    seat = view.seats[index]
    turn = view.turn == index
    x0, y0, x1, _ = plan.card
    x, y = x0 + PAD, y0 + PAD
    wind = tile_sprite(27 + seat.wind, SMALL)
    canvas.paste(wind, (x, y + 2), wind)
    right = x1 - PAD
    if seat.is_dealer:
        dealer = say(language, "table.dealer")
        width = text_width(dealer, INFO_PX) + INFO_PX
        right -= width
        pill(canvas, (right, y + 3), dealer, INFO_PX, BADGE_RED)
        right -= 6
    name_x = x + SMALL + 8
    name, size = fit_size(
        worded(seat.name, language), NAME_PX, right - name_x, round(NAME_PX * 0.7)
    )
    top = y - 3 + (NAME_PX - size) // 2
    paste_text(canvas, (name_x, top), name, size, GOLD if turn else TEXT)
    y += line_height(NAME_PX)
    points = points_text(seat.points, view.thousands, language)
    x += paste_text(canvas, (x, y), points, INFO_PX, TEXT) + 10
    if seat.staked:  # a riichi stick before the seat
        stick = stick_sprite(1000)
        canvas.paste(stick, (x, y + (line_height(INFO_PX) - stick.height) // 2), stick)
        x += stick.width + 10
    if seat.clock is not None:
        clock = clock_text(seat.clock)
        x += pill(canvas, (x, y), clock, INFO_PX, GOLD if turn else BADGE_GREY, FELT_DARK) + 6
    for text, fill in _badges(seat, language):
        if x + text_width(text, SUB_PX) + SUB_PX > x1 - PAD:
            break
        x += pill(canvas, (x, y + 2), text, SUB_PX, fill) + 6


# ----------------------------------------------------------------------------- the centre


def _arrow(canvas: Image.Image, tip: tuple[int, int], side: str, size: int) -> None:
    """A gold triangle pointing at `side` with its tip at `tip` (drawn 4x, reduced: smooth)."""
    s = 4
    big = Image.new("L", (size * s, size * s))
    n = size * s
    points = {
        "bottom": [(0, 0), (n, 0), (n // 2, n)],
        "top": [(0, n), (n, n), (n // 2, 0)],
        "left": [(n, 0), (n, n), (0, n // 2)],
        "right": [(0, 0), (0, n), (n, n // 2)],
    }[side]
    ImageDraw.Draw(big).polygon(points, fill=255)
    mask = big.reduce(s)
    tx, ty = tip
    at = {
        "bottom": (tx - size // 2, ty - size),
        "top": (tx - size // 2, ty),
        "left": (tx, ty - size // 2),
        "right": (tx - size, ty - size // 2),
    }[side]
    canvas.paste(GOLD, (*at, at[0] + size, at[1] + size), mask)


def _draw_centre(canvas: Image.Image, view: TableView, plan: TablePlan, language: str) -> None:
    """Round and wall on top; the latest discard, large; the arrow to the seat to act."""
    x0, y0, x1, y1 = plan.centre
    rounded_box(canvas, plan.centre, 12, FELT)
    cx = (x0 + x1) // 2
    wind = tile_sprite(27 + view.prevailing_wind, SMALL)
    round_label = worded(view.hand_label, language) or say(
        language, "table.round", wind=wind_text(view.prevailing_wind)
    )
    wall = say(language, "table.wall", count=view.wall_left)
    # a long hand name ('All Last (South 4), 2 honba') shrinks to stay within the centre
    room = x1 - x0 - 2 * PAD - wind.width - 6 - 14 - text_width(wall, INFO_PX)
    round_label, round_px = fit_size(round_label, INFO_PX, room, 13)
    line_w = wind.width + 6 + text_width(round_label, round_px) + 14 + text_width(wall, INFO_PX)
    x = cx - line_w // 2
    canvas.paste(wind, (x, y0 + PAD), wind)
    x += wind.width + 6
    label_y = y0 + PAD + (INFO_PX - round_px) // 2
    x += paste_text(canvas, (x, label_y), round_label, round_px, GOLD) + 14
    paste_text(canvas, (x, y0 + PAD), wall, INFO_PX, TEXT)
    arrow = 60
    middle_top = y0 + PAD + line_height(INFO_PX) + 4
    bottom = y1 - PAD
    latest_size = LATEST
    if plan.header is None and centre_items(view):  # no free side: a second line under the round
        box = (x0 + PAD, middle_top, x1 - PAD, bottom)
        _draw_set_aside(canvas, view, box, language, centred=True)
        middle_top += Geometry(SET_ASIDE).height + 6
        latest_size = LATEST - 8
    show_status = bool(view.status) and view.turn is None and plan.header is None
    status_text = worded(view.status, language) if show_status else ""  # else the arrow says it
    latest = _latest_tile(view)
    # honba and sticks sit beside the latest discard, or in a lower corner: there the status
    # (shown only with no arrow) keeps clear of them
    beside = _counters_width(view, language) if latest is None else 0
    room = x1 - x0 - 2 * PAD - (2 * (beside + 6) if beside else 0)
    stack = _stack_centre(bottom - middle_top, room, status_text, latest is not None, latest_size)
    y = middle_top + max(0, (bottom - middle_top - stack.height) // 2)
    counters_at = bottom  # the foot of the honba and sticks rows
    if latest is not None:
        seat, tile = latest
        size = stack.latest_size
        sprite = tile_sprite(tile, size, wild=tile in view.wild)
        top = y + 4  # inside its frame
        if view.turn is None:  # no arrow: the rows stand beside the tile, the status below
            counters_at = top + (sprite.height + 2 * line_height(SUB_PX)) // 2
        canvas.paste(sprite, (cx - size // 2, top), sprite)
        frame = frame_sprite(size, MARK, 4)
        offset = (frame.width - size) // 2
        canvas.paste(frame, (cx - size // 2 - offset, top - offset), frame)
        y = top + sprite.height + 4
        if stack.name:  # centred, clear of the arrow and of the honba and sticks rows
            room = x1 - x0 - 2 * (max(arrow, _counters_width(view, language)) + PAD + 6)
            who, px = fit_size(worded(view.seats[seat].name, language), SUB_PX, room, 15)
            paste_text(canvas, (cx, y + (SUB_PX - px) // 2), who, px, TEXT_DIM, align="c")
            y += line_height(SUB_PX) - 4
    if view.turn is not None:
        side = plan.seats[view.turn].side
        mid_y = (middle_top + bottom) // 2
        beside = (x1 - x0) // 2 - PAD - arrow // 2  # in a corner: clear of the discarder's name
        tip = {
            "bottom": (cx + beside, y1 - 6),
            "top": (cx - beside, middle_top),  # under the round line
            "left": (x0 + 6, mid_y),
            "right": (x1 - 6, mid_y),
        }[side]
        if side in ("bottom", "top") and seat_count(view) == 2:
            tip = (x1 - PAD - arrow, tip[1])
        _arrow(canvas, tip, side, arrow)
    for line in stack.status:
        paste_text(canvas, (cx, y), line, stack.status_px, GOLD, align="c")
        y += line_height(stack.status_px)
    turn_side = plan.seats[view.turn].side if view.turn is not None else ""
    corner = "right" if turn_side == "left" else "left"  # the corner the arrow leaves free
    _draw_counters(canvas, view, (x0, y0, x1, counters_at + PAD), corner, language)


def _counters(view: TableView, language: str) -> list[tuple[Image.Image, str]]:
    """(stick, label) rows: the honba, then the sticks in the pot, where the table has them."""
    rows = []
    if view.honba is not None:
        rows.append((stick_sprite(100), say(language, "table.honba", count=view.honba)))
    if view.sticks is not None:
        rows.append((stick_sprite(1000), say(language, "table.sticks", count=view.sticks)))
    return rows


def _counters_width(view: TableView, language: str) -> int:
    rows = _counters(view, language)
    return max((s.width + 6 + text_width(label, SUB_PX) for s, label in rows), default=0)


def _draw_counters(
    canvas: Image.Image, view: TableView, box: Box, corner: str, language: str
) -> None:
    """The honba (a hundred stick) and the riichi sticks in the pot (a thousand stick), two
    short rows ending at the foot of `box`, in its `corner` side."""
    rows = _counters(view, language)
    row_h = line_height(SUB_PX)
    y = box[3] - PAD - row_h * len(rows)
    for stick, label in rows:
        width = stick.width + 6 + text_width(label, SUB_PX)
        x = box[0] + PAD if corner == "left" else box[2] - PAD - width
        canvas.paste(stick, (x, y + (row_h - stick.height) // 2 + 2), stick)
        paste_text(canvas, (x + stick.width + 6, y), label, SUB_PX, TEXT)
        y += row_h


def _latest_tile(view: TableView) -> tuple[int, int] | None:
    """(seat, tile) of the latest discard, when there is one to show."""
    if view.latest is None:
        return None
    seat, index = view.latest
    pond = view.seats[seat].pond
    return (seat, pond[index]) if index < len(pond) else None


@dataclass(frozen=True, slots=True)
class CentreStack:
    """What the middle of the centre shows, top to bottom, and how tall that is."""

    latest_size: int  # 0: no latest discard
    name: bool  # the discarder's name under it
    status: list[str]
    status_px: int

    @property
    def height(self) -> int:
        tile = Geometry(self.latest_size).height + 8 if self.latest_size else 0
        name = line_height(SUB_PX) - 4 if self.name else 0
        return tile + name + len(self.status) * line_height(self.status_px)


def _stack_centre(
    height: int, width: int, status: str, latest: bool, latest_size: int
) -> CentreStack:
    """Fit the latest discard, its discarder's name and the status into `height`: the tile
    gives way first (down to MIN_LATEST), then the name (the pond's frame also says whose
    discard it is), then the status, to one smaller line. Words are wrapped, never cut."""
    lines, px = fit_lines(status, SUB_PX, width, 15) if status else ([], SUB_PX)
    stack = CentreStack(latest_size if latest else 0, latest, lines, px)
    while stack.height > height and stack.latest_size > MIN_LATEST:
        stack = dataclasses.replace(stack, latest_size=stack.latest_size - 2)
    if stack.height > height and stack.name:
        stack = dataclasses.replace(stack, name=False)
    for px in range(stack.status_px, 12, -1):  # a status line fits where its size does
        if stack.height <= height:
            break
        one, size = fit_lines(status, px, width, px, 1)
        stack = dataclasses.replace(stack, status=one, status_px=size)
    return stack


def centre_items(view: TableView) -> tuple[SetAside, ...]:
    """The tiles shown to everyone in the middle: set aside (horse, birds, wild), then the
    rules' indicators (dora)."""
    return view.set_aside + view.indicators


def _draw_set_aside(
    canvas: Image.Image, view: TableView, box: Box, language: str, *, centred: bool = False
) -> None:
    items = centre_items(view)
    groups = [_set_aside_group(item, view.wild, language) for item in items]
    x = box[0]
    if centred:
        total = sum(g.width for g in groups) + 14 * (len(groups) - 1)
        x = max(box[0], (box[0] + box[2] - total) // 2)
    for item, group in zip(items, groups, strict=True):
        if x + group.width > box[2]:
            break
        group.paste(canvas, x, box[1] + group.height)
        _frame_hits(canvas, item, group, x, box[1] + group.height)
        x += group.width + 14


def _frame_hits(canvas: Image.Image, item: SetAside, group: Group, x: int, base: int) -> None:
    """Bird hits wear a gold frame (pieces: the label, then the tiles in order)."""
    for i in item.hits:
        if i + 1 < len(group.pieces):
            _, dx, dy = group.pieces[i + 1]
            frame = frame_sprite(SET_ASIDE, GOLD, 2)
            offset = (frame.width - SET_ASIDE) // 2
            canvas.paste(frame, (x + dx - offset, base + dy - offset), frame)


def _draw_header(canvas: Image.Image, view: TableView, box: Box, language: str) -> None:
    """Where a seat is empty: which table, the preset, the status and set-aside tiles."""
    x0, y0, x1, y1 = box
    rounded_box(canvas, box, 12, FELT)
    x, y = x0 + PAD + 4, y0 + PAD
    room = x1 - x - PAD
    title, size = fit_size(worded(view.table_name, language), TITLE_PX, room, SUB_PX)
    paste_text(canvas, (x, y), title, size, TEXT)
    y += line_height(TITLE_PX)
    channel = f"#{view.channel_name.lstrip('#')}" if view.channel_name else ""
    parts = [p for p in (channel, worded(view.preset_name, language)) if p]
    # a long preset name wraps (or shrinks) rather than losing its end
    wrapped, size = fit_lines(" · ".join(parts), SUB_PX, room, 15)
    for line in wrapped:
        paste_text(canvas, (x, y), line, size, TEXT_DIM)
        y += line_height(size)
    y += 6
    if view.status:
        status, size = fit_lines(worded(view.status, language), INFO_PX, room, 15)
        for line in status:
            paste_text(canvas, (x, y), line, size, GOLD)
            y += line_height(size)
        y += 6
    if centre_items(view) and y + Geometry(SET_ASIDE).height <= y1 - PAD:
        _draw_set_aside(canvas, view, (x, y, x1 - PAD, y1 - PAD), language)
