"""The result picture: one compact picture per hand, however many wins it had.

Wins by the same hand (a Blood Flow winner whose locked hand wins again) merge into one panel,
"wins ×3", with each winning tile shown; a panel is drawn only where the wins differ. Two
columns of panels when there are more than two. Below, one table says what each seat won or
paid, by kind (wins, kongs, wall-draw checks, horse or birds) and in total.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from PIL import Image

from engine.i18n import Number, separator, worded
from engine.scoring.names import pattern_name
from engine.tiles import Meld, Tile, sort_tiles
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
    fit_size,
    fit_text,
    line_height,
    paste_text,
    pill,
    rounded_box,
    text_width,
)
from render.tiles import Geometry, back_sprite, frame_sprite, tile_sprite
from render.views import HandScoreView, Label, ResultView, SetAside, TransferView, WinView
from render.words import say, value_text, wind_text

WIDTH = 800  # half size at 400 px
MARGIN = 12
PAD = 12
COLUMN_GAP = 10
TRANSFER_GAP = 32  # between the payments to the winner and the losers' settlement
HEADER = 62
TITLE_PX = 26
SUB_PX = 20
WINNER_PX = 26
PATTERN_PX = 20
PAY_PX = 22
ONE_COLUMN_TILE = 34  # hand tiles when panels span the width
CARD_TILE = 22  # hand tiles on the half-width cards of a many-win result
SET_ASIDE_TILE = 30
MAX_ONE_COLUMN = 2  # more different wins than this go on half-width cards
WIN = "win"  # the way of a win whose view does not say how it came
DISCARD_FROM = "discard from "  # a plain-text way naming its giver: merged into one part


@dataclass(slots=True)
class MergedWin:
    """Wins by one winner with the same hand and score: drawn once, 'wins ×N'."""

    first: WinView
    win_tiles: list[Tile] = field(default_factory=list)  # distinct winning tiles, in order
    ways: Counter[Label] = field(default_factory=Counter)
    count: int = 0


def _hand_key(win: WinView) -> tuple[object, ...]:
    return (
        win.winner,
        tuple(sorted(win.concealed)),
        tuple(_meld_key(m) for m in win.melds),
        win.patterns,
        win.total,
        win.limit,
    )


def _meld_key(meld: Meld) -> tuple[object, ...]:
    return (meld.kind, tuple(sorted(meld.tiles)))


def merge_wins(wins: tuple[WinView, ...]) -> list[MergedWin]:
    """Group repeated wins by the same hand, keeping the order of each group's first win."""
    merged: dict[tuple[object, ...], MergedWin] = {}
    for win in wins:
        group = merged.setdefault(_hand_key(win), MergedWin(win))
        group.count += 1
        if win.win_tile not in group.win_tiles:
            group.win_tiles.append(win.win_tile)
        group.ways[win.by or WIN] += 1
    return list(merged.values())


def render_result(view: ResultView, language: str = "en") -> Image.Image:
    """Draw the end of a hand in `language`: merged wins (or the draw), then payments by kind
    and seat.

    Up to two different wins get full-width panels; more get half-width cards, two a row, and
    an odd last card shares its row with the payments, so eight wins still fit about 4:3.
    """
    merged = merge_wins(view.wins)
    full = WIDTH - 2 * MARGIN
    half = (full - COLUMN_GAP) // 2
    if len(merged) <= MAX_ONE_COLUMN:
        cards = [_win_panel(view, group, full, ONE_COLUMN_TILE, language) for group in merged]
        columns = 1
    else:
        cards = [_win_panel(view, group, half, CARD_TILE, language) for group in merged]
        columns = 2
    if not cards:
        cards = [_draw_panel(view, full, language)]
    if view.set_aside:
        cards.append(_set_aside_panel(view.set_aside, full if columns == 1 else half, language))
    if view.hand_scores:
        cards.append(_hand_scores_panel(view, full if columns == 1 else half, language))
    payments_in_row = columns == 2 and len(cards) % 2 == 1
    payments = _payments_panel(view, half if payments_in_row else full, language)
    if payments_in_row:
        cards.append(payments)
    rows = [cards[i : i + columns] for i in range(0, len(cards), columns)]
    height = HEADER + sum(max(p.height for p in row) + COLUMN_GAP for row in rows) + MARGIN
    if not payments_in_row:
        height += payments.height
    else:
        height -= COLUMN_GAP
    canvas = Image.new("RGB", (WIDTH, height), FELT)
    _header(canvas, view, language)
    y = HEADER
    for row in rows:
        for column, card in enumerate(row):
            canvas.paste(card, (MARGIN + column * (half + COLUMN_GAP), y))
        y += max(p.height for p in row) + COLUMN_GAP
    if not payments_in_row:
        canvas.paste(payments, (MARGIN, y))
    return canvas


def _panel(width: int, height: int) -> Image.Image:
    block = Image.new("RGB", (width, height), FELT)
    rounded_box(block, (0, 0, width, height), 12, PANEL)
    return block


def _hand_groups(
    win: WinView, win_tiles: list[Tile], tile: int, wild: frozenset[Tile]
) -> tuple[list[Group], Group]:
    """Concealed tiles sorted; the winning tile(s) apart; melds; flowers."""
    win_group = tile_row(win_tiles, tile, wild)
    groups = [tile_row(sort_tiles(win.concealed), tile, wild), win_group]
    groups += [meld_group(m, tile, win.seat_wind, wild, win.seat_count) for m in win.melds]
    if win.bonus:
        groups.append(tile_row(win.bonus, round(tile * 0.75)))
    return groups, win_group


def pattern_line(win: WinView, family: str = "", language: str = "en") -> str:
    """'Little three dragons 5 · Dragon pung 1 ×2 · …': repeats counted, values kept; each name
    in the terms of the family that scored it (engine.scoring.names)."""
    counts = Counter(win.patterns)
    parts = []
    for pattern, value in dict.fromkeys(win.patterns):
        times = f" ×{counts[(pattern, value)]}" if counts[(pattern, value)] > 1 else ""
        # a pattern that is a limit of its own (a yakuman) is named by it, not counted
        worth = limit_words(win, language) if pattern in win.limit_patterns else value
        parts.append(f"{pattern_name(family, pattern, language)} {worth}{times}")
    return " · ".join(parts)


def limit_words(win: WinView, language: str) -> str:
    """The limit a win reached: by its name where the family names it ('Mangan'), else
    'Limit'."""
    return worded(win.limit_name, language) or say(language, "result.limit")


def total_words(win: WinView, unit: str, language: str) -> str:
    """'13 faan', '40 fu 3 han 5,200': the win's value, with its fu first and its own value in
    points after where the family counts fu (as Tenhou writes 40符3飜 5200点)."""
    total = value_text(win.total, unit, language)
    if not win.fu:
        return total
    points = f" {Number(win.value).in_language(language)}" if win.value else ""
    return f"{say(language, 'fu', fu=win.fu)} {total}{points}"


def _wrap(text: str, px: int, width: int, separator: str = " · ") -> list[str]:
    """Break a ' · '-joined line into lines that fit, between its parts."""
    lines: list[str] = []
    for part in text.split(separator):
        if lines and text_width(lines[-1] + separator + part, px) <= width:
            lines[-1] += separator + part
            continue
        words = part.split(" ")  # a part too long for a line breaks between words
        lines.append(words[0])
        for word in words[1:]:
            if text_width(f"{lines[-1]} {word}", px) <= width:
                lines[-1] += f" {word}"
            else:
                lines.append(word)
    return [fit_text(line, px, width) for line in lines]


def ways_text(group: MergedWin, language: str = "en") -> str:
    """'self draw ×2 · on discards from Bob, Dai': how the merged wins came, counted; then
    what the losers paid (hubei-laizi)."""
    parts, givers = [], []
    for way, n in group.ways.items():
        if isinstance(way, str) and way.startswith(DISCARD_FROM) and len(group.ways) > 1:
            givers.append(way.removeprefix(DISCARD_FROM) + (f" ×{n}" if n > 1 else ""))
        else:
            words = say(language, "win.way") if way == WIN else worded(way, language)
            parts.append(f"{words} ×{n}" if n > 1 else words)
    if givers:
        parts.append(say(language, "win.discards_from", givers=separator(language).join(givers)))
    parts += [worded(note, language) for note in group.first.notes]
    return " · ".join(parts)


def winner_words(win: WinView, language: str) -> str:
    """'Carol (South)': the winner's name and, when the view knows it, the seat's wind."""
    name = worded(win.winner, language)
    if win.seat_wind is None or win.seat_wind >= win.seat_count:
        return name
    return say(language, "win.seat", name=name, wind=wind_text(win.seat_wind))


def _win_panel(
    view: ResultView, group: MergedWin, width: int, tile: int, language: str
) -> Image.Image:
    """Who won (×N) and how, the total, the hand, and the patterns on wrapping lines."""
    win = group.first
    inner = width - 2 * PAD
    groups, win_group = _hand_groups(win, group.win_tiles, tile, view.wild)
    rows = flow(groups, inner, max(8, tile // 3))
    ways, patterns = ways_text(group, language), pattern_line(win, view.family, language)
    shared = f"{ways}  ·  {patterns}" if ways and patterns else ""
    if shared and text_width(shared, PATTERN_PX) <= inner:  # how and what share one line
        ways_lines, lines = [], [""]
    else:
        lines = _wrap(patterns, PATTERN_PX, inner) if patterns else []
        ways_lines = _wrap(ways, PATTERN_PX, inner) if ways else []
    title_h = line_height(WINNER_PX)
    tiles_h = sum(max(r.height, Geometry(tile).height) + 6 for r in rows)
    text_h = (len(lines) + len(ways_lines)) * line_height(PATTERN_PX)
    block = _panel(width, PAD + title_h + tiles_h + 4 + text_h + PAD - 4)
    x0, y = PAD, PAD - 4
    total = total_words(win, view.unit, language)
    right = width - PAD
    total_w = paste_text(block, (right, y), total, WINNER_PX, GOLD, align="r")
    if win.limit:
        limit = limit_words(win, language)
        limit_w = text_width(limit, SUB_PX) + SUB_PX
        pill(block, (right - total_w - limit_w - 8, y + 5), limit, SUB_PX, BADGE_RED)
        total_w += limit_w + 8
    title = say(language, "result.wins", winner=winner_words(win, language))
    title += f" ×{group.count}" if group.count > 1 else ""
    title, size = fit_size(title, WINNER_PX, inner - total_w - 12, 18)
    paste_text(block, (x0, y + (WINNER_PX - size) // 2), title, size, TEXT)
    y = PAD + title_h
    for row in rows:
        base = y + max(row.height, Geometry(tile).height)
        for piece, gx in row.items:
            piece.paste(block, x0 + gx, base)
            if piece is win_group:  # the winning tiles wear a gold frame
                frame = frame_sprite(tile, GOLD)
                offset = (frame.width - tile) // 2
                for _, dx, dy in piece.pieces:
                    block.paste(frame, (x0 + gx + dx - offset, base + dy - offset), frame)
        y = base + 6
    y += 2
    for line in ways_lines:
        paste_text(block, (x0, y), line, PATTERN_PX, TEXT_DIM)
        y += line_height(PATTERN_PX)
    if lines == [""]:
        x = x0 + paste_text(block, (x0, y), f"{ways}  ·  ", PATTERN_PX, TEXT_DIM)
        paste_text(block, (x, y), patterns, PATTERN_PX, TEXT)
        return block
    for line in lines:
        paste_text(block, (x0, y), line, PATTERN_PX, TEXT)
        y += line_height(PATTERN_PX)
    return block


def _draw_panel(view: ResultView, width: int, language: str) -> Image.Image:
    """No winner: say so plainly, with the reason when there is one, then the details (who
    was ready, a nagashi mangan), then each ready hand laid open under its owner's name."""
    lines = [(worded(view.note, language) or say(language, "result.wall_ran_out"), TEXT_DIM)]
    lines += [(worded(detail, language), TEXT) for detail in view.details]
    inner = width - 2 * PAD
    hands = [
        (worded(name, language), flow(_open_groups(tiles, melds, view.wild), inner, 8))
        for name, tiles, melds in view.ready_hands
    ]
    tile_h = Geometry(ONE_COLUMN_TILE).height
    hands_h = sum(line_height(PATTERN_PX) + len(rows) * (tile_h + 6) for _, rows in hands)
    text_h = len(lines) * line_height(PATTERN_PX)
    height = PAD + line_height(WINNER_PX) + text_h + hands_h + PAD - 4
    block = _panel(width, height)
    paste_text(block, (PAD, PAD - 4), say(language, "result.nobody_won"), WINNER_PX, TEXT)
    y = PAD - 4 + line_height(WINNER_PX)
    for line, colour in lines:
        paste_text(block, (PAD, y), fit_text(line, PATTERN_PX, inner), PATTERN_PX, colour)
        y += line_height(PATTERN_PX)
    for name, rows in hands:
        paste_text(block, (PAD, y), fit_text(name, PATTERN_PX, inner), PATTERN_PX, TEXT_DIM)
        y += line_height(PATTERN_PX)
        for row in rows:
            y += tile_h
            for piece, gx in row.items:
                piece.paste(block, PAD + gx, y)
            y += 6
    return block


def _open_groups(
    tiles: tuple[Tile, ...], melds: tuple[Meld, ...], wild: frozenset[Tile]
) -> list[Group]:
    """A hand laid open: its concealed tiles in order, then its melds."""
    groups = [tile_row(sort_tiles(tiles), ONE_COLUMN_TILE, wild)]
    return groups + [meld_group(m, ONE_COLUMN_TILE, None, wild) for m in melds]


def _set_aside_panel(items: tuple[SetAside, ...], width: int, language: str) -> Image.Image:
    """The horse or birds revealed at the end; hits framed in gold."""
    size = SET_ASIDE_TILE
    height = PAD + Geometry(size).height + PAD
    block = _panel(width, height)
    x = PAD
    for item in items:
        x += paste_text(block, (x, PAD), worded(item.label, language), PATTERN_PX, TEXT_DIM) + 8
        sprites = [tile_sprite(t, size) for t in item.tiles]
        sprites += [back_sprite(size)] * item.face_down
        for index, sprite in enumerate(sprites):
            block.paste(sprite, (x, PAD), sprite)
            if index in item.hits:
                frame = frame_sprite(size, GOLD)
                offset = (frame.width - size) // 2
                block.paste(frame, (x - offset, PAD - offset), frame)
            x += size + 3
        if item.hits:
            hits = say(language, "result.hits", count=len(item.hits))
            x += 6 + paste_text(block, (x + 6, PAD), hits, PATTERN_PX, GOLD)
        x += 24
    return block


def payment_rows(view: ResultView, language: str = "en") -> list[tuple[str, list[int]]]:
    """(kind, per-seat deltas): wins first (what the totals leave after the other kinds), then
    the other settlements as given, then the total; just the total when there is nothing else.
    """
    names = [name for name, _ in view.payments]
    totals = [delta for _, delta in view.payments]
    others = []
    for label, deltas in view.other_payments:
        by_name = dict(deltas)
        others.append((worded(label, language), [by_name.get(name, 0) for name in names]))
    total = say(language, "result.total")
    if not others:
        return [(total, totals)]
    wins = [t - sum(row[i] for _, row in others) for i, t in enumerate(totals)]
    first = [(say(language, "result.row_wins"), wins)] if view.wins or any(wins) else []
    return [*first, *others, (total, totals)]


def _amount(delta: int, language: str) -> str:
    """A payment as the reader writes numbers, with a true minus sign; nothing paid is 0."""
    return Number(delta, signed=True).in_language(language).replace("-", "−") if delta else "0"


def _payments_panel(view: ResultView, width: int, language: str) -> Image.Image:
    """A small table: a column per seat, a row per kind of payment, the total in colour."""
    rows = payment_rows(view, language)
    names = [name for name, _ in view.payments]
    label_w = max([text_width(label, PATTERN_PX) for label, _ in rows] + [60]) + 16
    seats = max(1, len(names))
    column_w = (width - 2 * PAD - label_w) // seats
    row_h = line_height(PAY_PX) + 2
    block = _panel(width, PAD + row_h * (len(rows) + 1) + PAD - 6)
    y = PAD - 4
    paste_text(block, (PAD, y + 2), say(language, "result.points"), PATTERN_PX, TEXT_DIM)
    for index, name in enumerate(names):
        x = PAD + label_w + index * column_w + column_w - 8
        label, size = fit_size(worded(name, language), PAY_PX, column_w - 12, 16)
        paste_text(block, (x, y + (PAY_PX - size) // 2), label, size, TEXT, align="r")
    for number, (label, deltas) in enumerate(rows, 1):
        y += row_h
        is_total = number == len(rows)
        paste_text(block, (PAD, y + 2), label, PATTERN_PX, TEXT if is_total else TEXT_DIM)
        for index, delta in enumerate(deltas):
            x = PAD + label_w + index * column_w + column_w - 8
            colour = PLUS if delta > 0 else MINUS if delta < 0 else TEXT_DIM
            if not is_total and delta:
                colour = TEXT
            paste_text(block, (x, y), _amount(delta, language), PAY_PX, colour, align="r")
    return block


def score_cells(hand: HandScoreView, language: str) -> tuple[str, str, str]:
    """A seat's points, doubles and score as its row says them: a limit hand has no points or
    doubles to show; a hand at the limit says so beside its score."""
    score = Number(hand.score).in_language(language)
    if hand.limit or hand.capped:
        score = f"{say(language, 'result.limit')} {score}"
    if hand.limit:
        return "—", "—", score
    return str(hand.points), str(hand.doubles), score


def transfer_words(transfer: TransferView, language: str) -> tuple[str, str]:
    """('Bob → Carol', '384 (×2)'): who paid whom, and how much (East's double in it said)."""
    who = say(
        language,
        "every_hand.pays",
        payer=worded(transfer.payer, language),
        payee=worded(transfer.payee, language),
    )
    amount = Number(transfer.amount).in_language(language)
    if transfer.times > 1:
        amount += say(language, "every_hand.times", times=transfer.times)  # its own spacing
    return who, amount


def _hand_scores_panel(view: ResultView, width: int, language: str) -> Image.Image:
    """Every hand scored: each seat's points, doubles and score (score = points x 2^doubles),
    then who paid whom, read from the payments: to the winner, and the losers' settlement."""
    inner = width - 2 * PAD
    row_h = line_height(PAY_PX) + 2
    heads = [say(language, f"every_hand.{k}") for k in ("points", "doubles", "score")]
    cells = [score_cells(hand, language) for hand in view.hand_scores]
    number_w = max(text_width(h, PATTERN_PX) for h in heads[:2]) + 16
    score_w = max([text_width(heads[2], PATTERN_PX)] + [text_width(c[2], PAY_PX) for c in cells])
    score_w += 16
    rights = [inner - score_w - number_w, inner - score_w, inner]  # each column's right edge
    to_winner = [t for t in view.transfers if not t.settlement]
    settled = [t for t in view.transfers if t.settlement]
    pay_rows = max(len(to_winner), len(settled))
    notes = [say(language, "every_hand.formula")]
    if any(t.times > 1 for t in view.transfers):
        notes.append(say(language, "every_hand.east_double"))
    note_lines = _wrap(" · ".join(notes), PATTERN_PX, inner)
    height = PAD + row_h * (len(view.hand_scores) + 1) + 4
    height += line_height(PATTERN_PX) * len(note_lines)
    if view.transfers:
        height += 8 + row_h * (pay_rows + 1)
    block = _panel(width, height + PAD - 6)
    y = PAD - 4
    paste_text(block, (PAD, y + 2), say(language, "every_hand.hands"), PATTERN_PX, TEXT_DIM)
    for right, head in zip(rights, heads, strict=True):
        paste_text(block, (PAD + right, y + 2), head, PATTERN_PX, TEXT_DIM, align="r")
    for hand, row in zip(view.hand_scores, cells, strict=True):
        y += row_h
        name = worded(hand.name, language)
        if hand.seat_wind is not None:
            name = say(language, "win.seat", name=name, wind=wind_text(hand.seat_wind))
        name, size = fit_size(name, PAY_PX, rights[0] - number_w - 8, 14)
        colour = GOLD if hand.won else TEXT
        paste_text(block, (PAD, y + (PAY_PX - size) // 2), name, size, colour)
        for right, cell in zip(rights, row, strict=True):
            paste_text(block, (PAD + right, y), cell, PAY_PX, colour, align="r")
    y += row_h + 4
    for line in note_lines:
        paste_text(block, (PAD, y), line, PATTERN_PX, TEXT_DIM)
        y += line_height(PATTERN_PX)
    if not view.transfers:
        return block
    y += 8
    column_w = (inner - TRANSFER_GAP) // 2
    heads = [say(language, "every_hand.to_winner"), say(language, "result.row_settlement")]
    for column, (head, rows) in enumerate(zip(heads, (to_winner, settled), strict=True)):
        x = PAD + column * (column_w + TRANSFER_GAP)
        paste_text(block, (x, y + 2), fit_text(head, PATTERN_PX, column_w), PATTERN_PX, TEXT_DIM)
        for number, transfer in enumerate(rows, 1):
            who, amount = transfer_words(transfer, language)
            amount_w = text_width(amount, PAY_PX)
            who, size = fit_size(who, PAY_PX, column_w - amount_w - 12, 14)
            line_y = y + number * row_h
            paste_text(block, (x, line_y + (PAY_PX - size) // 2), who, size, TEXT)
            paste_text(block, (x + column_w, line_y), amount, PAY_PX, TEXT, align="r")
    return block


def _badge(view: ResultView, language: str) -> str:
    if view.is_draw:
        return say(language, "result.badge_draw")
    if len(view.wins) == 1:
        return say(language, "result.badge_win")
    return say(language, "result.badge_wins", count=len(view.wins))


def _header(canvas: Image.Image, view: ResultView, language: str) -> None:
    canvas.paste(FELT_DARK, (0, 0, canvas.width, HEADER - 10))
    label = _badge(view, language)
    pill_w = text_width(label, SUB_PX) + SUB_PX
    room = WIDTH - 3 * MARGIN - pill_w
    named = (worded(view.table_name, language), worded(view.hand_name, language))
    title, size = fit_size(" · ".join(p for p in named if p), TITLE_PX, room, SUB_PX)
    paste_text(canvas, (MARGIN, 0), title, size, TEXT)
    channel = f"#{view.channel_name.lstrip('#')}" if view.channel_name else ""
    preset = worded(view.preset_name, language)
    sub = " · ".join(p for p in (channel, preset, say(language, "result.subtitle")) if p)
    sub_y = line_height(TITLE_PX) - 8
    paste_text(canvas, (MARGIN, sub_y), fit_text(sub, SUB_PX, room), SUB_PX, TEXT_DIM)
    fill = BADGE_RED if view.is_draw else BADGE_BROWN
    pill(canvas, (WIDTH - MARGIN - pill_w, 14), label, SUB_PX, fill, GOLD)
