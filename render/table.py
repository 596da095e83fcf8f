"""The table picture for the channel: four seats in turn order, with ponds, melds and counts.

Every seat is a band read left to right, top to bottom in turn order, with all tiles upright
so anyone in the channel reads every pond the same way. Hidden hands are tile backs and a
count: the view holds no concealed tile, so none can be drawn.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from PIL import Image

from render.compose import TILE_GAP, Group, back_row, flow, meld_group, tile_row
from render.style import (
    BADGE_BLUE,
    BADGE_BROWN,
    BADGE_GOLD,
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
    SUIT_NAMES,
    TEXT,
    TEXT_DIM,
    WIND_NAMES,
    fit_size,
    fit_text,
    line_height,
    paste_text,
    pill,
    rounded_box,
    text_width,
)
from render.tiles import Geometry, dimmed_sprite, frame_sprite, tile_sprite
from render.views import SeatView, TableView

WIDTH = 940
TILE = 36  # ponds and melds
SMALL = 28  # hidden backs and bonus tiles
MARGIN = 14
PAD = 12  # inside a seat band
BAND_GAP = 8
INFO_W = 166  # name, points and badges left of the tiles
COLUMN_GAP = 10
GROUP_GAP = 12
HEADER = 74
NAME_PX = 22
INFO_PX = 18
TITLE_PX = 27
SUB_PX = 19


@dataclass(slots=True)
class SeatPlan:
    """Where one seat's band and its parts go."""

    top: int
    height: int
    groups: list[tuple[Group, int, int]] = field(default_factory=list)  # (group, x, base)
    backs: list[tuple[int, int]] = field(default_factory=list)  # top-left of each back sprite
    count_at: tuple[int, int] | None = None  # where the hidden count label goes
    pond: list[tuple[int, int, int]] = field(default_factory=list)  # (pond index, x, y)


@dataclass(slots=True)
class TablePlan:
    width: int
    height: int
    seats: list[SeatPlan]


def pond_columns() -> int:
    return (WIDTH - 2 * MARGIN - 2 * PAD - INFO_W - COLUMN_GAP) // (TILE + TILE_GAP)


def plan_table(view: TableView) -> TablePlan:
    """Lay the table out without drawing: the renderer and the tests share these positions.

    Every band gets as many pond rows as the longest pond needs, so the seats line up.
    """
    columns = pond_columns()
    pond_rows = max(1, *(-(-len(seat.pond) // columns) for seat in view.seats))
    seats = []
    top = HEADER
    for index, seat in enumerate(view.seats):
        plan = _plan_seat(view, index, seat, top, pond_rows)
        seats.append(plan)
        top += plan.height + BAND_GAP
    return TablePlan(WIDTH, top - BAND_GAP + MARGIN, seats)


def _hand_groups(view: TableView, index: int, seat: SeatView) -> list[Group]:
    """Hidden tiles as backs (and any revealed tiles face up), then melds, then bonus tiles."""
    groups = []
    if seat.revealed:
        groups.append(tile_row(seat.revealed, SMALL, view.wild))
    if seat.concealed_count:
        groups.append(back_row(seat.concealed_count, SMALL))
    groups.extend(meld_group(m, TILE, index, view.wild) for m in seat.melds)
    if seat.bonus:
        groups.append(tile_row(seat.bonus, SMALL))
    return groups


def _plan_seat(view: TableView, index: int, seat: SeatView, top: int, pond_rows: int) -> SeatPlan:
    """The info column on the left; on the right the hand row(s), then the pond."""
    plan = SeatPlan(top, 0)
    left = MARGIN + PAD + INFO_W + COLUMN_GAP
    count_w = text_width("×00", NAME_PX) + 8
    groups = _hand_groups(view, index, seat)
    rows = flow(groups, WIDTH - MARGIN - PAD - left - count_w, GROUP_GAP)
    back_group = groups[1 if seat.revealed else 0] if seat.concealed_count else None
    y = top + PAD
    for row in rows:
        base = y + max(row.height, Geometry(TILE).height)
        shift = 0
        for group, gx in row.items:
            x = left + gx + shift
            plan.groups.append((group, x, base))
            if group is back_group:
                plan.backs = [(x + dx, base + dy) for _, dx, dy in group.pieces]
                plan.count_at = (x + group.width + 6, base - group.height // 2)
                shift = count_w  # room for the count after the backs
        y = base + 8
    step_y = Geometry(TILE).height + 3
    columns = pond_columns()
    for i in range(len(seat.pond)):
        row, col = divmod(i, columns)
        plan.pond.append((i, left + col * (TILE + TILE_GAP), y + row * step_y))
    bottom = max(y + pond_rows * step_y - 3, top + PAD + _info_height(view, index, seat))
    plan.height = bottom + PAD - top
    return plan


def render_table(view: TableView) -> Image.Image:
    """Draw the public table: no concealed tile exists in the view, so none is drawn."""
    plan = plan_table(view)
    canvas = Image.new("RGB", (plan.width, plan.height), FELT)
    _header(canvas, view)
    for index, (seat, seat_plan) in enumerate(zip(view.seats, plan.seats, strict=True)):
        _draw_seat(canvas, view, index, seat, seat_plan)
    return canvas


def _draw_seat(
    canvas: Image.Image, view: TableView, index: int, seat: SeatView, plan: SeatPlan
) -> None:
    box = (MARGIN, plan.top, WIDTH - MARGIN, plan.top + plan.height)
    turn = view.turn == index
    if turn:  # a gold rim and a lighter band: whose turn it is, at a glance
        rounded_box(canvas, (box[0] - 3, box[1] - 3, box[2] + 3, box[3] + 3), 13, GOLD)
    rounded_box(canvas, box, 10, PANEL_TURN if turn else PANEL)
    _seat_info(canvas, view, index, plan)
    for group, x, base in plan.groups:
        group.paste(canvas, x, base)
    if plan.count_at:
        x, y = plan.count_at
        paste_text(
            canvas, (x, y - line_height(NAME_PX) // 2), f"×{seat.concealed_count}", NAME_PX, TEXT
        )
    latest = view.latest[1] if view.latest and view.latest[0] == index else None
    wild = view.wild
    for i, x, y in plan.pond:
        tile = seat.pond[i]
        sprite = (dimmed_sprite if i in seat.claimed else tile_sprite)(
            tile, TILE, wild=tile in wild
        )
        canvas.paste(sprite, (x, y), sprite)
        if i == latest:
            frame = frame_sprite(TILE, MARK)
            offset = (frame.width - TILE) // 2
            canvas.paste(frame, (x - offset, y - offset), frame)


def _badges(view: TableView, index: int, seat: SeatView) -> list[tuple[str, RGB]]:
    badges = []
    if seat.is_dealer:
        badges.append(("Dealer", BADGE_RED))
    if seat.void_suit:
        badges.append((f"Void {SUIT_NAMES[seat.void_suit]}", BADGE_BLUE))
    if seat.won:
        badges.append(("Won", BADGE_GREEN))
    if view.turn == index:
        badges.append(("To play", BADGE_GOLD))
    return badges


def _badge_places(badges: list[tuple[str, RGB]]) -> list[tuple[int, int]]:
    """(dx, dy) of each badge below the name and points, wrapping inside the info column."""
    places, dx, dy = [], 0, 0
    for text, _ in badges:
        width = text_width(text, INFO_PX) + INFO_PX
        if dx and dx + width > INFO_W:
            dx, dy = 0, dy + line_height(INFO_PX) + 4
        places.append((dx, dy))
        dx += width + 5
    return places


def _info_height(view: TableView, index: int, seat: SeatView) -> int:
    places = _badge_places(_badges(view, index, seat))
    badge_rows = places[-1][1] + line_height(INFO_PX) if places else 0
    return line_height(NAME_PX) + line_height(INFO_PX) + badge_rows


def _seat_info(canvas: Image.Image, view: TableView, index: int, plan: SeatPlan) -> None:
    """Wind tile and name, points, then badges: dealer, void suit, won, to play."""
    seat = view.seats[index]
    x, y = MARGIN + PAD, plan.top + PAD
    wind = tile_sprite(27 + seat.wind, SMALL)
    canvas.paste(wind, (x, y), wind)
    name, size = fit_size(seat.name, NAME_PX, INFO_W - SMALL - 12, round(NAME_PX * 0.75))
    colour = GOLD if view.turn == index else TEXT
    paste_text(canvas, (x + SMALL + 8, y - 4 + (NAME_PX - size) // 2), name, size, colour)
    y += line_height(NAME_PX) - 2
    points = f"{seat.points:,} pts".replace("-", "−")
    paste_text(canvas, (x + SMALL + 8, y), points, INFO_PX, TEXT_DIM)
    y += line_height(INFO_PX) + 2
    badges = _badges(view, index, seat)
    for (text, fill), (dx, dy) in zip(badges, _badge_places(badges), strict=True):
        pill(canvas, (x + dx, y + dy), text, INFO_PX, fill)


def _header(canvas: Image.Image, view: TableView) -> None:
    """Which table (name, channel, preset), the round's wind, the wall, and the status line."""
    canvas.paste(FELT_DARK, (0, 0, canvas.width, HEADER - 8))
    right = canvas.width - MARGIN
    y = 10
    wall = f"Wall {view.wall_left}"
    right -= pill(
        canvas, (right - text_width(wall, SUB_PX) - SUB_PX, y + 4), wall, SUB_PX, BADGE_GREY
    )
    round_label = f"{WIND_NAMES[view.prevailing_wind]} round"
    width = text_width(round_label, SUB_PX) + SUB_PX
    right -= width + 8
    pill(canvas, (right, y + 4), round_label, SUB_PX, BADGE_BROWN, GOLD)
    wind = tile_sprite(27 + view.prevailing_wind, SMALL - 4)
    right -= wind.width + 6
    canvas.paste(wind, (right, y), wind)
    room = right - MARGIN - 12
    paste_text(canvas, (MARGIN, 4), fit_text(view.table_name, TITLE_PX, room), TITLE_PX, TEXT)
    channel = f"#{view.channel_name.lstrip('#')}" if view.channel_name else ""
    sub = " · ".join(p for p in (channel, view.preset_name) if p)
    sub_y = 4 + line_height(TITLE_PX) - 4
    sub_w = paste_text(canvas, (MARGIN, sub_y), fit_text(sub, SUB_PX, 420), SUB_PX, TEXT_DIM)
    if view.status:
        room = canvas.width - 2 * MARGIN - sub_w - 24
        status = fit_text(view.status, SUB_PX, room)
        paste_text(canvas, (canvas.width - MARGIN, sub_y), status, SUB_PX, TEXT, align="r")
