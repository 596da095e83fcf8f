"""The result picture: each winning hand with its patterns and total, then every seat's payment."""

from __future__ import annotations

from PIL import Image

from render.compose import Group, flow, meld_group, tile_row
from render.style import (
    BADGE_BROWN,
    BADGE_RED,
    FELT,
    FELT_DARK,
    GOLD,
    MINUS,
    PANEL,
    PLUS,
    TEXT,
    TEXT_DIM,
    fit_text,
    line_height,
    paste_text,
    pill,
    rounded_box,
    text_width,
)
from render.tiles import Geometry, frame_sprite
from render.views import ResultView, WinView, pretty_pattern

WIDTH = 900
TILE = 44
MARGIN = 16
PAD = 14
HEADER = 70
TITLE_PX = 25
SUB_PX = 19
WINNER_PX = 26
PATTERN_PX = 20
PAY_PX = 22
PATTERN_ROW = 28
COLUMNS = 2


def render_result(view: ResultView) -> Image.Image:
    """Draw the end of a hand: wins (or the draw), pattern values, totals and payments."""
    blocks = [_win_block(view, win) for win in view.wins] or [_draw_block(view)]
    if view.other_payments:
        blocks.append(_other_block(view))
    payments = _payments_block(view)
    height = HEADER + sum(b.height + 10 for b in blocks) + payments.height + MARGIN
    canvas = Image.new("RGB", (WIDTH, height), FELT)
    _header(canvas, view)
    y = HEADER
    for block in blocks:
        canvas.paste(block, (0, y))
        y += block.height + 10
    canvas.paste(payments, (0, y))
    return canvas


def _value(value: int, unit: str) -> str:
    return f"{value} {unit}".strip()


def _hand_groups(win: WinView, wild: frozenset[int]) -> tuple[list[Group], Group]:
    """Concealed tiles sorted, the winning tile apart (returned too, to frame it), melds, bonus."""
    win_group = tile_row([win.win_tile], TILE, wild)
    groups = [tile_row(sorted(win.concealed), TILE, wild), win_group]
    groups += [meld_group(m, TILE, win.seat_wind, wild) for m in win.melds]
    if win.bonus:
        groups.append(tile_row(win.bonus, round(TILE * 0.75)))
    return groups, win_group


def _win_block(view: ResultView, win: WinView) -> Image.Image:
    """A panel: who won and how, the total, the hand, and the patterns in columns."""
    inner = WIDTH - 2 * MARGIN - 2 * PAD
    groups, win_group = _hand_groups(win, view.wild)
    rows = flow(groups, inner, 18)
    patterns = win.patterns
    pattern_rows = -(-len(patterns) // COLUMNS)
    title_h = line_height(WINNER_PX) + 6
    tiles_h = sum(max(r.height, Geometry(TILE).height) + 8 for r in rows)
    paid_h = PATTERN_ROW if win.paid_by else 0
    height = PAD + title_h + tiles_h + 8 + pattern_rows * PATTERN_ROW + paid_h + 4 + PAD
    block = Image.new("RGB", (WIDTH, height), FELT)
    rounded_box(block, (MARGIN, 0, WIDTH - MARGIN, height), 12, PANEL)
    x0, y = MARGIN + PAD, PAD
    total = f"Total {_value(win.total, view.unit)}"
    total_w = text_width(total, WINNER_PX)
    right = WIDTH - MARGIN - PAD
    paste_text(block, (right, y - 4), total, WINNER_PX, GOLD, align="r")
    if win.limit:
        width = text_width("Limit", SUB_PX) + SUB_PX
        pill(block, (right - total_w - width - 10, y + 4), "Limit", SUB_PX, BADGE_RED)
        total_w += width + 10
    name_w = paste_text(
        block, (x0, y - 4), fit_text(f"{win.winner} wins", WINNER_PX, 420), WINNER_PX, TEXT
    )
    if win.by:
        room = right - total_w - x0 - name_w - 30
        paste_text(
            block,
            (x0 + name_w + 10, y + 4),
            fit_text(f"by {win.by}", PATTERN_PX, room),
            PATTERN_PX,
            TEXT_DIM,
        )
    y += title_h
    for row in rows:
        base = y + max(row.height, Geometry(TILE).height)
        for group, gx in row.items:
            group.paste(block, x0 + gx, base)
            if group is win_group:  # the winning tile wears a gold frame
                frame = frame_sprite(TILE, GOLD)
                offset = (frame.width - TILE) // 2
                block.paste(frame, (x0 + gx - offset, base - group.height - offset), frame)
        y = base + 8
    _patterns(block, view, win, x0, y + 6, inner)
    if win.paid_by:
        paid = " · ".join(f"{name}: {points:,}" for name, points in win.paid_by)
        top = y + 6 + pattern_rows * PATTERN_ROW
        paste_text(
            block, (x0, top), fit_text(f"Paid by {paid}", PATTERN_PX, inner), PATTERN_PX, TEXT_DIM
        )
    return block


def _patterns(
    block: Image.Image, view: ResultView, win: WinView, x0: int, y: int, inner: int
) -> None:
    """Pattern names with their values, filling columns top to bottom."""
    column_w = inner // COLUMNS
    per_column = -(-len(win.patterns) // COLUMNS)
    for index, (name, value) in enumerate(win.patterns):
        column, row = divmod(index, per_column)
        x = x0 + column * column_w
        top = y + row * PATTERN_ROW
        label = _value(value, view.unit)
        value_w = text_width(label, PATTERN_PX)
        right = x + column_w - 24
        text = fit_text(pretty_pattern(name), PATTERN_PX, column_w - value_w - 40)
        paste_text(block, (x, top), text, PATTERN_PX, TEXT)
        paste_text(block, (right, top), label, PATTERN_PX, GOLD, align="r")


def _draw_block(view: ResultView) -> Image.Image:
    """No winner: say so plainly, with the reason when there is one."""
    height = PAD + line_height(WINNER_PX) + line_height(PATTERN_PX) + PAD + 6
    block = Image.new("RGB", (WIDTH, height), FELT)
    rounded_box(block, (MARGIN, 0, WIDTH - MARGIN, height), 12, PANEL)
    x = MARGIN + PAD
    paste_text(block, (x, PAD - 4), "Draw — nobody won", WINNER_PX, TEXT)
    note = view.note or "The wall ran out."
    note = fit_text(note, PATTERN_PX, WIDTH - 2 * x)
    paste_text(block, (x, PAD + line_height(WINNER_PX)), note, PATTERN_PX, TEXT_DIM)
    return block


def _other_block(view: ResultView) -> Image.Image:
    """Settlements besides the wins, one line each (e.g. kongs paid at once, wall-draw checks)."""
    height = PAD + len(view.other_payments) * PATTERN_ROW + PAD - 6
    block = Image.new("RGB", (WIDTH, height), FELT)
    rounded_box(block, (MARGIN, 0, WIDTH - MARGIN, height), 12, PANEL)
    x = MARGIN + PAD
    for row, (label, deltas) in enumerate(view.other_payments):
        amounts = " · ".join(f"{name} {delta:+,}".replace("-", "−") for name, delta in deltas)
        text = fit_text(f"{label}: {amounts}", PATTERN_PX, WIDTH - 2 * x)
        paste_text(block, (x, PAD - 4 + row * PATTERN_ROW), text, PATTERN_PX, TEXT)
    return block


def _payments_block(view: ResultView) -> Image.Image:
    """One card per seat: name and what they won (green) or paid (red)."""
    cards = max(1, len(view.payments))
    card_w = (WIDTH - 2 * MARGIN - (cards - 1) * 10) // cards
    card_h = line_height(SUB_PX) + line_height(PAY_PX) + 14
    height = line_height(SUB_PX) + 4 + card_h
    block = Image.new("RGB", (WIDTH, height), FELT)
    paste_text(block, (MARGIN + 4, 0), "Payments", SUB_PX, TEXT_DIM)
    top = line_height(SUB_PX) + 4
    for index, (name, delta) in enumerate(view.payments):
        x = MARGIN + index * (card_w + 10)
        rounded_box(block, (x, top, x + card_w, top + card_h), 10, PANEL)
        paste_text(block, (x + 12, top + 6), fit_text(name, SUB_PX, card_w - 24), SUB_PX, TEXT)
        colour = PLUS if delta > 0 else MINUS if delta < 0 else TEXT_DIM
        amount = f"{delta:+,}".replace("-", "−") if delta else "0"
        paste_text(block, (x + 12, top + 4 + line_height(SUB_PX)), amount, PAY_PX, colour)
    return block


def _header(canvas: Image.Image, view: ResultView) -> None:
    canvas.paste(FELT_DARK, (0, 0, canvas.width, HEADER - 12))
    paste_text(
        canvas, (MARGIN, 4), fit_text(view.table_name, TITLE_PX, WIDTH - 260), TITLE_PX, TEXT
    )
    channel = f"#{view.channel_name.lstrip('#')}" if view.channel_name else ""
    sub = " · ".join(p for p in (channel, view.preset_name, "hand result") if p)
    paste_text(
        canvas,
        (MARGIN, line_height(TITLE_PX)),
        fit_text(sub, SUB_PX, WIDTH - 2 * MARGIN),
        SUB_PX,
        TEXT_DIM,
    )
    label = "Draw" if view.is_draw else ("Win" if len(view.wins) == 1 else f"{len(view.wins)} wins")
    width = text_width(label, SUB_PX) + SUB_PX
    pill(
        canvas,
        (WIDTH - MARGIN - width, 14),
        label,
        SUB_PX,
        BADGE_RED if view.is_draw else BADGE_BROWN,
        GOLD,
    )
