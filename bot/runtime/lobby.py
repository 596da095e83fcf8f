"""The runtime's lobby: tables made, joined, left and started, computers seated, invitations, Ready
between hands. Whether a request may be made is said by pure checks (`check_create`,
`check_join`, `check_add_computer`, `check_start`) that read only the table and the request: the
store is touched once a request has passed its check.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from bot.runtime.clocks import fixed_clock
from bot.runtime.computers import DEFAULT_LEVEL, check_level
from bot.runtime.conversions import preset_options, seat_rows, stored_options
from bot.runtime.errors import NoSuchTableError, StaleActionError, TableError, message_of
from bot.runtime.host import Host, Notices, seated
from bot.runtime.table import COMPUTER_PREFIX, LiveTable, Seat, seat_count_for
from bot.runtime.words import preset_name
from data import Phase, TableOptions
from engine.i18n import text
from engine.options import choose, parse_choices, unrated_choices, with_min_fan
from engine.presets import (
    PRESETS,
    TIME_CONTROLS,
    Preset,
    UnknownPresetError,
    find_preset,
)
from engine.session import Session


def playable(preset_id: str) -> Preset:
    """The preset, or a TableError whose message lists the playable ones."""
    try:
        return find_preset(preset_id)
    except UnknownPresetError:
        known = ", ".join(PRESETS)
        raise TableError(
            text("runtime.unknown_preset", preset=repr(preset_id), known=known)
        ) from None


@dataclass(frozen=True, slots=True)
class NewTable:
    """A create request as it passed its check: the preset with the table's choices, the
    number of seats and the clock's name."""

    preset: Preset
    seats: int
    time_control: str


def check_create(
    preset_id: str,
    *,
    visibility: str = "public",
    rated: bool = False,
    time_control: str | None = None,
    computers: int = 0,
    min_fan: int | None = None,
    players: int | None = None,
    level: str = DEFAULT_LEVEL,
    table_options: Sequence[str] = (),
) -> NewTable:
    """The table a create request asks for, or a TableError saying why it cannot be made
    (`Lobby.create_table` has the arguments' meaning); reads nothing but the request."""
    try:
        found = playable(preset_id)
        preset = with_min_fan(choose(found, parse_choices(found, table_options)), min_fan)
    except ValueError as error:
        raise TableError(message_of(error)) from None
    if rated and unrated_choices(preset):
        option = unrated_choices(preset)[0]
        raise TableError(text("runtime.unrated_option", option=option))
    if visibility not in ("public", "private"):
        raise TableError(text("runtime.bad_visibility", visibility=repr(visibility)))
    count = seat_count_for(preset, players, rated)
    if not 0 <= computers < count:
        raise TableError(
            text("runtime.computer_count", seats=count, most=count - 1, computers=computers)
        )
    check_level(level, preset.id)  # an unknown level, one this build lacks, an engine off Riichi
    if rated and computers:
        raise TableError(text("runtime.rated_no_computers"))
    fixed = fixed_clock(preset, rated)
    if fixed is not None and time_control not in (None, fixed):
        tc = TIME_CONTROLS[fixed]
        minutes = tc.deal_limit // 60
        raise TableError(
            text("runtime.fixed_clock", preset=preset_name(preset), base=tc.base, minutes=minutes)
        )
    if time_control is None:
        time_control = preset.rated_time_control if rated else preset.time_control
    if time_control not in TIME_CONTROLS:
        known = ", ".join(TIME_CONTROLS)
        control = repr(time_control)
        raise TableError(text("runtime.unknown_time_control", control=control, known=known))
    if rated and TIME_CONTROLS[time_control].untimed:
        raise TableError(text("runtime.rated_needs_clock"))
    return NewTable(preset, count, time_control)


def check_join(table: LiveTable, player_id: str, code: str | None = None) -> None:
    """A TableError if `player_id` may not take a seat at `table` (with join code `code`)."""
    if table.player_of(player_id) is not None:
        raise TableError(text("runtime.already_seated"))
    if table.phase is not Phase.LOBBY:
        raise TableError(text("runtime.already_started"))
    if table.full:
        raise TableError(text("runtime.table_full"))
    if table.options.visibility == "private":
        invited = player_id in table.options.extra.get("invited", [])
        if not invited and (code or "").upper() != table.options.invite_code:
            raise TableError(text("runtime.private_table"))


def check_add_computer(table: LiveTable, by_id: str, lobby_version: int | None = None) -> None:
    """A TableError if `by_id` may not seat a computer now; a StaleActionError if the seating
    changed since the press (`lobby_version`)."""
    seated(table, by_id)
    if lobby_version is not None and lobby_version != table.lobby_version:
        raise StaleActionError(text("runtime.seats_changed"))
    if table.phase is not Phase.LOBBY:
        raise TableError(text("runtime.computers_in_lobby"))
    if table.options.rated:
        raise TableError(text("runtime.rated_no_computers"))
    if table.full:
        raise TableError(text("runtime.table_full"))


def check_start(table: LiveTable, by_id: str) -> None:
    """A TableError if `by_id` may not start `table` now."""
    seated(table, by_id)
    if table.phase is not Phase.LOBBY:
        raise TableError(text("runtime.already_started"))
    if not table.full:
        missing = table.seats.count(None)
        raise TableError(text("runtime.players_missing", missing=missing))


class Lobby(Host):
    """Tables before and between hands (part of `Runtime`)."""

    _seed_source: Callable[[], int]

    async def create_table(
        self,
        preset_id: str,
        *,
        creator_id: str,
        creator_name: str,
        guild_id: int | None = None,
        channel_id: int | None = None,
        visibility: str = "public",
        rated: bool = False,
        time_control: str | None = None,
        computers: int = 0,
        name: str = "",
        min_fan: int | None = None,
        players: int | None = None,
        level: str = DEFAULT_LEVEL,
        table_options: Sequence[str] = (),
    ) -> LiveTable:
        """A new table of `players` seats (default: the preset's first count) in the lobby
        with its creator seated (and `computers` computer seats of `level`); `table_options`
        the preset's options as people type them (engine.options: `green_white`, `min_fan=2`),
        `min_fan` the table's minimum where the preset lets tables choose one (hk-fw2, or
        hubei-laizi's no_minimum at 0)."""
        checked = check_create(
            preset_id,
            visibility=visibility,
            rated=rated,
            time_control=time_control,
            computers=computers,
            min_fan=min_fan,
            players=players,
            level=level,
            table_options=table_options,
        )
        preset, count, time_control = checked.preset, checked.seats, checked.time_control
        code = secrets.token_hex(3).upper() if visibility == "private" else None
        seats = [Seat(creator_id, creator_name)]
        seats += [Seat(f"{COMPUTER_PREFIX}{n}", f"Computer {n}") for n in range(1, computers + 1)]
        options = TableOptions(
            visibility=visibility,
            rated=rated,
            time_control=time_control,
            invite_code=code,
            extra={
                "name": name,
                "invited": [],
                **preset_options(preset),
                "seat_count": count,
                "level": level,
            },
        )
        now = self.timers.now()
        table_id = await self.store.create_table(
            preset.id,
            guild_id=guild_id,
            channel_id=channel_id,
            options=stored_options(options, seats, lobby_version=0),
            seats=seat_rows(seats),
            now=now,
        )
        table = LiveTable(
            table_id, preset, options, guild_id, channel_id, name or f"Table {table_id}"
        )
        table.seats[: len(seats)] = seats
        self.tables[table_id] = table
        await self._notify(table, Notices(table=True))
        return table

    async def join(
        self, table_id: int, player_id: str, name: str, code: str | None = None
    ) -> LiveTable:
        table = self.get(table_id)
        async with table.lock:
            check_join(table, player_id, code)
            table.seats[table.seats.index(None)] = Seat(player_id, name)
            await self._save_seats(table)
        await self._notify(table, Notices(table=True))
        return table

    async def join_by_code(self, code: str, player_id: str, name: str) -> LiveTable:
        for table in self.tables.values():
            if table.options.invite_code and table.options.invite_code == code.upper():
                return await self.join(table.id, player_id, name, code)
        raise NoSuchTableError(text("runtime.no_table_with_code", code=repr(code)))

    async def leave(self, table_id: int, player_id: str) -> None:
        table = self.get(table_id)
        async with table.lock:
            player = seated(table, player_id)
            if table.phase is Phase.PLAYING:
                raise TableError(text("runtime.leave_in_play"))
            table.seats[player] = None
            table.ready.discard(player)
            notices = Notices(table=True)
            if not table.humans:
                await self.store.close_table(table.id, "everyone left", now=self.timers.now())
                self._drop(table)
                notices.closed = "everyone left"
            else:
                if table.phase is Phase.BETWEEN_HANDS:
                    table.phase = Phase.LOBBY
                    await self.store.set_phase(table.id, Phase.LOBBY, now=self.timers.now())
                await self._save_seats(table)
        await self._notify(table, notices)

    async def invite(self, table_id: int, by_id: str, invitee_id: str) -> str | None:
        """Let `invitee_id` join a private table; returns the table's join code."""
        table = self.get(table_id)
        async with table.lock:
            seated(table, by_id)
            invited = list(table.options.extra.get("invited", []))
            if invitee_id not in invited:
                invited.append(invitee_id)
            await self._set_extra(table, invited=invited)
        return table.options.invite_code

    async def add_computer(
        self, table_id: int, by_id: str, lobby_version: int | None = None
    ) -> LiveTable:
        """Seat a computer; `lobby_version` is the seating the press was made on (a second
        press of the same button, e.g. a double click, then adds nothing)."""
        table = self.get(table_id)
        async with table.lock:
            check_add_computer(table, by_id, lobby_version)
            taken = {s.player_id for s in table.seats if s is not None}
            n = next(n for n in range(1, table.seat_count) if f"{COMPUTER_PREFIX}{n}" not in taken)
            table.seats[table.seats.index(None)] = Seat(f"{COMPUTER_PREFIX}{n}", f"Computer {n}")
            await self._save_seats(table)
        await self._notify(table, Notices(table=True))
        return table

    async def start_table(self, table_id: int, by_id: str) -> LiveTable:
        table = self.get(table_id)
        async with table.lock:
            check_start(table, by_id)
            table.start_engines()  # past the engine cap: refused here, with why
            if table.session is None:
                table.session = Session(
                    table.preset, self._seed_source(), seat_count=table.seat_count
                )
            notices = await self._begin_hand(table)
        await self._notify(table, notices)
        return table

    async def close_table(self, table_id: int, by_id: str, reason: str = "closed") -> None:
        table = self.get(table_id)
        async with table.lock:
            seated(table, by_id)
            await self.store.close_table(table.id, reason, now=self.timers.now())
            self._drop(table)
        await self._notify(table, Notices(closed=reason))

    async def ready(
        self, table_id: int, player_id: str, hand_number: int | None = None
    ) -> LiveTable:
        """Ready for the next hand; `hand_number` is the finished hand the press was made
        after (a Ready button from an earlier hand's result is refused)."""
        table = self.get(table_id)
        async with table.lock:
            player = seated(table, player_id)
            if table.phase is not Phase.BETWEEN_HANDS:
                raise TableError(text("runtime.nothing_to_ready"))
            if hand_number is not None and hand_number != table.hand_number:
                raise StaleActionError(text("runtime.earlier_ready"))
            table.ready.add(player)
            notices = Notices(table=True)
            # kept with the table: a restart between presses loses none of them
            pressed = {"hand": table.hand_number, "players": sorted(table.ready)}
            await self._set_extra(table, ready=pressed)
            if table.full and len(table.ready) == len(table.seats):
                notices = await self._begin_hand(table)
            else:
                await self.store.touch(table.id, now=self.timers.now())
        await self._notify(table, notices)
        return table

    async def _save_seats(self, table: LiveTable) -> None:
        table.lobby_version += 1
        await self._set_extra(table)
        await self.store.set_seats(table.id, seat_rows(table.seats), now=self.timers.now())

    async def _set_extra(self, table: LiveTable, **values: object) -> None:
        options = replace(table.options, extra={**table.options.extra, **values})
        await self.store.set_options(
            table.id, stored_options(options, table.seats, table.lobby_version)
        )
        table.options = options
