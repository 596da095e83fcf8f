"""The engine's values as the store keeps them, and back: a table's preset and options, a hand's
result, a live table rebuilt from its stored rows (a hand's recipe: recipe.py).

The store counts players by table seat; the engine counts a hand's seats from its dealer. Every
crossing between the two happens here, through the table's one `Seating`.

Seat names live once, in the live table's `Seat`s; the store keeps them (and the seating's
version) inside the table's options, written by `stored_options` and read back by
`restored_table`.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace

from bot.runtime.clocks import restore_deadlines
from bot.runtime.computers import computer_for
from bot.runtime.recipe import HandRecipe, replay_hand
from bot.runtime.table import LiveTable, Seat
from data import (
    GameResult,
    GameStanding,
    HandResult,
    LoadedTable,
    Payment,
    Phase,
    SeatRow,
    StoredWin,
    TableOptions,
)
from engine.actions import Action, DeclaredKind
from engine.options import from_stored, stored
from engine.outcome import Outcome
from engine.presets import Preset, find_preset
from engine.session import Session

# what the stored options hold for the live table's own fields (names once, in its seats)
_SEATING_KEYS = ("names", "lobby_version")


def table_preset(preset: Preset, extra: Mapping[str, object]) -> Preset:
    """The preset as a table plays it, from the table options kept in its stored options
    (engine.options; tables stored before them read too). Every session and hand of the table
    is built from this one value."""
    return from_stored(preset, extra)


def preset_options(preset: Preset) -> dict[str, object]:
    """What a table stores to play `preset` (from `table_preset`) again after a restart."""
    return stored(preset)


def stored_options(
    options: TableOptions, seats: Sequence[Seat | None], lobby_version: int
) -> TableOptions:
    """A table's options as the store keeps them: with its seat names and seating version."""
    names = {s.player_id: s.name for s in seats if s is not None}
    return replace(options, extra={**options.extra, "names": names, "lobby_version": lobby_version})


def seat_rows(seats: Sequence[Seat | None]) -> list[SeatRow]:
    return [SeatRow(i, s.player_id, s.human) for i, s in enumerate(seats) if s is not None]


def hand_result(table: LiveTable, outcome: Outcome, by_player: Sequence[int]) -> HandResult:
    """A finished hand's result as the store records it: table seats, not hand seats."""
    seats = [table.seat(p) for p in range(table.seat_count)]
    at = table.seating.player_at
    wins = tuple(
        StoredWin(
            seat=at(win.seat),
            fan=win.score.fan,
            patterns=tuple((p.id, p.fan) for p in win.score.patterns),
            by=win.by.value,
            discarder=None if win.discarder is None else at(win.discarder),
        )
        for win in outcome.wins
    )
    payments = tuple(
        Payment(at(payer), at(win.seat), -delta)
        for win in outcome.wins
        for payer, delta in enumerate(win.deltas)
        if delta < 0
    )
    return HandResult(
        preset=table.preset.id,
        seats=tuple(s.player_id for s in seats),
        humans=tuple(s.human for s in seats),
        deltas=tuple(by_player),
        wins=wins,
        payments=payments,
        rated=table.options.rated,
        rates=not table.preset.game.rates_per_game,
        declared=declarations(table.hand.log if table.hand else (), at),
    )


def declarations(
    log: Iterable[Action], player_at: Callable[[int], int]
) -> tuple[tuple[int, str], ...]:
    """Each (table seat, kind) of a rule's declaration in a hand's log (riichi), once, in
    order: the per-hand facts the statistics count."""
    return tuple(
        sorted({(player_at(a.seat), a.kind.value) for a in log if isinstance(a.kind, DeclaredKind)})
    )


def game_result(table: LiveTable, session: Session) -> GameResult:
    """A finished game's final standings as the store records them (table seats: the
    session's players are the table's seats)."""
    standings = tuple(
        GameStanding(s.player, seat.player_id, seat.human, s.points, s.place, s.score)
        for s in session.standings()
        for seat in (table.seat(s.player),)
    )
    return GameResult(
        preset=table.preset.id,
        hands=session.hand_number,
        standings=standings,
        rated=table.options.rated,
        rates=table.preset.game.rates_per_game,
    )


def restored_table(item: LoadedTable, now: float) -> LiveTable:
    """A live table from its stored rows, with the hand in play replayed and its clocks;
    ValueError (or KeyError, IndexError, UnknownPresetError) if the rows do not make one."""
    row = item.table
    stored = row.options.extra
    names = stored.get("names", {})
    options = replace(
        row.options, extra={k: v for k, v in stored.items() if k not in _SEATING_KEYS}
    )
    table = LiveTable(
        id=row.id,
        preset=table_preset(find_preset(row.preset), stored),
        options=options,
        guild_id=row.guild_id,
        channel_id=row.channel_id,
        name=str(stored.get("name", f"Table {row.id}")),
        phase=row.phase,
        message_id=row.message_id,
        lobby_version=int(stored.get("lobby_version", 0)),
    )
    for seat in row.seats:
        table.seats[seat.seat] = Seat(seat.player_id, str(names.get(seat.player_id, "?")))
    if row.session_state:
        table.session = Session.from_json(json.loads(row.session_state))
    if row.phase is Phase.PLAYING and item.hand is not None:
        recipe = HandRecipe.stored(item.hand, table.preset)
        table.recipe, table.hand = recipe, replay_hand(recipe, item.hand.actions)
        table.session = recipe.dealt_session()
        table.seating = table.session.seating
        table.hand_id = item.hand.hand_id
        restore_deadlines(table, item.deadlines, now)
    elif row.phase is Phase.BETWEEN_HANDS:
        table.ready = {p for p, s in enumerate(table.seats) if s is not None and not s.human}
        pressed = stored.get("ready", {})
        if table.session is not None and pressed.get("hand") == table.session.hand_number:
            table.ready.update(p for p in pressed.get("players", []) if table.seats[p])
    if table.session is not None and table.session.seat_count != table.seat_count:
        raise ValueError(
            f"its session seats {table.session.seat_count}, the table {table.seat_count}"
        )
    computer_for(table.level)  # a level this build lacks sets the table aside, with why
    return table
