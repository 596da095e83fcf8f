"""The table runtime: lobbies, hands under the clock, computer players, persistence, restore.

Every change happens under the table's lock, is checked by the engine, is written through
`data.Store` and only then announced to the front end (after the lock is released, so a front
end may call back in).
"""

from __future__ import annotations

import json
import logging
import secrets
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import partial

from bot.runtime.clocks import arm_deadline, fixed_clock, spend_clock, stored_deadlines
from bot.runtime.computers import DEFAULT_LEVEL, Computer, computer_for
from bot.runtime.conversions import (
    game_result,
    hand_result,
    hand_setup,
    preset_options,
    replay_stored,
    restored_table,
    seat_rows,
    stored_options,
)
from bot.runtime.errors import (
    NoSuchTableError,
    NotSeatedError,
    NotYourDecisionError,
    StaleActionError,
    TableError,
    message_of,
)
from bot.runtime.events import FrontEnd, NullFrontEnd
from bot.runtime.quickplay import QueueEntry, QuickPlay
from bot.runtime.quickplay import quickplay_seats as quickplay_seats  # the lobby's import
from bot.runtime.snapshots import (
    PrivateSnapshot,
    PublicSnapshot,
    preset_name,
    private_snapshot,
    public_moment,
    public_snapshot,
)
from bot.runtime.table import COMPUTER_PREFIX, LiveTable, Seat, seat_count_for
from bot.runtime.timers import ManualTimers, Timers
from data import Phase, QuarantinedTable, RecordedHand, Shards, Store, TableOptions
from engine.actions import Action, ActionKind
from engine.events import Event
from engine.events import Phase as HandPhase
from engine.hand import HandState
from engine.i18n import text
from engine.options import choose, parse_choices, unrated_choices
from engine.presets import (
    PLANNED_PRESETS,
    PRESETS,
    TIME_CONTROLS,
    Preset,
    UnknownPresetError,
    find_preset,
    with_min_fan,
)
from engine.session import Session
from engine.tiles import InvalidNotationError

# called by others from here: the terminal and the options (seat_count_for, fixed_clock), the
# replay (replay_stored)
__all__ = ["Runtime", "fixed_clock", "quickplay_seats", "replay_stored", "seat_count_for"]

log = logging.getLogger(__name__)

EXPIRY_CHECK_SECONDS = 600.0
# the engine's events after which a player's own view changes: the seat's, or everyone's
_CHANGES_ONE_HAND = frozenset({"draw", "discard", "call", "kong", "bonus", "win", "fixed_kong"})
_CHANGES_EVERY_HAND = frozenset({"opening_done", "swap"})
RESUME_AFTER_FAILURE = 5.0


@dataclass(slots=True)
class _Notices:
    """What to tell the front end once the change is stored and the lock released.

    One is alive for every action waiting on its commit, and the collector walks each of them
    (bot/pauses.py): no field holds an object it does not need (`timeouts` is a list only
    where the clock plays)."""

    table: bool = False
    hands: set[int] = field(default_factory=set)
    decisions: bool = False
    ended: bool = False
    closed: str | None = None
    dealt: bool = False  # a new hand was dealt
    events: list[Event] = field(default_factory=list)  # the engine's events of this change
    wins_before: int | None = None  # wins the hand held before the first of `events`
    timeouts: Sequence[Action] = ()  # what the clock played for people


def _playable(preset_id: str) -> Preset:
    """The preset, or a TableError whose message lists the playable ones."""
    try:
        return find_preset(preset_id)
    except UnknownPresetError:
        known = ", ".join(PRESETS)
        key = "runtime.planned_preset" if preset_id in PLANNED_PRESETS else "runtime.unknown_preset"
        raise TableError(text(key, preset=repr(preset_id), known=known)) from None


def _nothing_to_claim(table: LiveTable) -> list[int]:
    """The people still to answer an open claim window whose only answer is Pass."""
    hand = table.hand
    if hand is None or hand.phase not in (HandPhase.CLAIMS, HandPhase.ROB):
        return []
    return [player for player in table.humans_to_act() if len(table.legal_for(player)) == 1]


class Runtime:
    """All live tables of one process."""

    def __init__(
        self,
        store: Store,
        front: FrontEnd | None = None,
        timers: Timers | None = None,
        *,
        quickplay_fill_after: float = 60.0,
        seed_source: Callable[[], int] | None = None,
        hand_factory: Callable[[Session], HandState] | None = None,
        no_call_wait: float = 0.0,
        shards: Shards | None = None,
    ) -> None:
        self.store = store
        # several processes on one database: this one's tables are its shards' guilds' only
        self.shards = shards
        self.front: FrontEnd = front or NullFrontEnd()
        self.timers: Timers = timers or ManualTimers()
        self.tables: dict[int, LiveTable] = {}
        self.quickplay_fill_after = quickplay_fill_after
        self._seed_source = seed_source or (lambda: secrets.randbits(48))
        # tests and demos deal chosen walls; the wall is then stored with the hand
        self._hand_factory = hand_factory
        # where calls are public (Discord), every discard opens a claim window for the people
        # at the table, and one with nothing to claim passes after this many seconds: how
        # long a window stays open then does not tell whether anyone could call. 0: nobody
        # watches (the terminal, tests), windows open only for those who can claim.
        self.no_call_wait = no_call_wait
        self._quickplay = QuickPlay(self)

    # ------------------------------------------------------------------ lifecycle

    async def open(self) -> list[QuarantinedTable]:
        """Restore every open table from the database, re-arm its clocks, start the timers."""
        loaded, quarantined = await self.store.load_active_tables(shards=self.shards)
        for item in loaded:
            try:
                table = restored_table(item, self.timers.now())
            except (ValueError, KeyError, IndexError, UnknownPresetError) as error:
                log.error("table %s could not be restored: %s", item.table.id, error)
                quarantined.append(QuarantinedTable(item.table.id, str(error)))
                continue
            self.tables[table.id] = table
        self.timers.start()
        # before the tables carry on: the caller marks the restored tables once open() returns,
        # and an await after their last notices would let their DMs go out unmarked first
        await self._quickplay.resume()
        for table in list(self.tables.values()):
            try:
                await self._carry_on(table)
            except Exception:  # one table failing to move on must not keep the others down
                log.exception("table %s could not carry on after the restore", table.id)
        self._schedule_expiry()
        return quarantined

    async def _carry_on(self, table: LiveTable) -> None:
        """Finish what the log implies after a restart, and show the table as it stands.

        A kill may fall between two commits: a hand stored but its computer dealer's first
        move not, a hand's last move stored but not its result, all four ready but the next
        hand not dealt. Each is carried on here (results are recorded exactly once by the
        store); then clocks are armed and whoever must decide is asked again.
        """
        notices = _Notices(table=True, decisions=True)
        async with table.lock:
            if table.phase is Phase.PLAYING and table.hand is not None:
                if table.deadline is None:
                    arm_deadline(table, self.timers.now())
                else:  # the stored deadline is this decision's: answers in it keep it
                    table.clock_decision = table.hand.decision_version
                await self._advance(table, notices)
            elif table.phase is Phase.BETWEEN_HANDS:
                await self._show_last_hand(table)
                if table.full and len(table.ready) == len(table.seats):
                    notices = await self._begin_hand(table)
        await self._notify(table, notices)

    async def _show_last_hand(self, table: LiveTable) -> None:
        """Between hands: the finished hand and its recorded result, for the table message."""
        last = await self.store.last_hand(table.id)
        if last is None:
            return
        if "session" not in json.loads(last.setup or "{}"):
            return
        start, table.hand = replay_stored(table.preset, last)
        table.seating = start.seating
        table.hand_id = last.hand_id
        record = await self.store.hand_record(last.hand_id)
        if record is not None:
            table.last_result = RecordedHand(last.hand_id, False, record.rating_changes)

    async def close(self) -> None:
        self.timers.shutdown()

    # ------------------------------------------------------------------ queries

    def get(self, table_id: int) -> LiveTable:
        table = self.tables.get(table_id)
        if table is None:
            raise NoSuchTableError(text("runtime.no_such_table", table=table_id))
        return table

    def public_tables(self, guild_id: int | None) -> list[LiveTable]:
        return [
            t
            for t in self.tables.values()
            if t.guild_id == guild_id and t.options.visibility == "public"
        ]

    def tables_of(self, player_id: str) -> list[LiveTable]:
        return [t for t in self.tables.values() if t.player_of(player_id) is not None]

    # ------------------------------------------------------------------ the lobby

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
        try:
            found = _playable(preset_id)
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
        computer_for(level)  # refuses an unknown level, or one this build lacks
        if rated and computers:
            raise TableError(text("runtime.rated_no_computers"))
        fixed = fixed_clock(preset, rated)
        if fixed is not None and time_control not in (None, fixed):
            tc = TIME_CONTROLS[fixed]
            minutes = tc.deal_limit // 60
            raise TableError(
                text(
                    "runtime.fixed_clock", preset=preset_name(preset), base=tc.base, minutes=minutes
                )
            )
        if time_control is None:
            time_control = preset.rated_time_control if rated else preset.time_control
        if time_control not in TIME_CONTROLS:
            known = ", ".join(TIME_CONTROLS)
            control = repr(time_control)
            raise TableError(text("runtime.unknown_time_control", control=control, known=known))
        if rated and TIME_CONTROLS[time_control].untimed:
            raise TableError(text("runtime.rated_needs_clock"))
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
        await self._notify(table, _Notices(table=True))
        return table

    async def join(
        self, table_id: int, player_id: str, name: str, code: str | None = None
    ) -> LiveTable:
        table = self.get(table_id)
        async with table.lock:
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
            table.seats[table.seats.index(None)] = Seat(player_id, name)
            await self._save_seats(table)
        await self._notify(table, _Notices(table=True))
        return table

    async def join_by_code(self, code: str, player_id: str, name: str) -> LiveTable:
        for table in self.tables.values():
            if table.options.invite_code and table.options.invite_code == code.upper():
                return await self.join(table.id, player_id, name, code)
        raise NoSuchTableError(text("runtime.no_table_with_code", code=repr(code)))

    async def leave(self, table_id: int, player_id: str) -> None:
        table = self.get(table_id)
        async with table.lock:
            player = self._seated(table, player_id)
            if table.phase is Phase.PLAYING:
                raise TableError(text("runtime.leave_in_play"))
            table.seats[player] = None
            table.ready.discard(player)
            notices = _Notices(table=True)
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
            self._seated(table, by_id)
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
            self._seated(table, by_id)
            if lobby_version is not None and lobby_version != table.lobby_version:
                raise StaleActionError(text("runtime.seats_changed"))
            if table.phase is not Phase.LOBBY:
                raise TableError(text("runtime.computers_in_lobby"))
            if table.options.rated:
                raise TableError(text("runtime.rated_no_computers"))
            if table.full:
                raise TableError(text("runtime.table_full"))
            taken = {s.player_id for s in table.seats if s is not None}
            n = next(n for n in range(1, table.seat_count) if f"{COMPUTER_PREFIX}{n}" not in taken)
            table.seats[table.seats.index(None)] = Seat(f"{COMPUTER_PREFIX}{n}", f"Computer {n}")
            await self._save_seats(table)
        await self._notify(table, _Notices(table=True))
        return table

    async def start_table(self, table_id: int, by_id: str) -> LiveTable:
        table = self.get(table_id)
        async with table.lock:
            self._seated(table, by_id)
            if table.phase is not Phase.LOBBY:
                raise TableError(text("runtime.already_started"))
            if not table.full:
                missing = table.seats.count(None)
                raise TableError(text("runtime.players_missing", missing=missing))
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
            self._seated(table, by_id)
            await self.store.close_table(table.id, reason, now=self.timers.now())
            self._drop(table)
        await self._notify(table, _Notices(closed=reason))

    # ------------------------------------------------------------------ playing

    async def act(
        self,
        table_id: int,
        player_id: str,
        action: Action | str,
        version: int,
        hand_number: int | None = None,
        moment: int | None = None,
    ) -> LiveTable:
        """Apply a player's decision, made for state `version` of hand `hand_number` (the
        current hand if None) at public moment `moment` (a control's stamp, if it names one);
        refused if stale, not offered to the player, or illegal.

        The stamp is checked here, under the table's lock, and not only by the front end
        before it: a click that waited for the lock while an earlier one moved the hand on
        (or a restore rebuilt it) is judged by the hand as it is when its turn comes."""
        table = self.get(table_id)
        async with table.lock:
            player = self._seated(table, player_id)
            if table.phase is not Phase.PLAYING or table.hand is None:
                raise StaleActionError(text("runtime.no_hand_in_play"))
            if hand_number is not None and hand_number != table.hand_number:
                raise StaleActionError(text("runtime.earlier_hand"))
            if not table.hand.decision_version <= version <= table.hand.version:
                raise StaleActionError(text("runtime.earlier_moment"))
            if moment is not None and moment != public_moment(table.hand):
                raise StaleActionError(text("runtime.earlier_moment"))
            if isinstance(action, str):
                try:
                    action = Action.parse(action)
                except InvalidNotationError as error:
                    raise TableError(message_of(error)) from None
            seat = table.hand_seat(player)
            if action.seat != seat:
                raise NotYourDecisionError(text("runtime.not_your_control"))
            # only what the player was offered: the clock alone plays time-outs (TIME_UP)
            offered = table.hand.legal_actions(seat)
            if action not in offered:
                if not offered:
                    raise NotYourDecisionError(text("runtime.not_your_decision"))
                raise TableError(text("runtime.not_allowed", action=str(action)))
            spend_clock(table, player, self.timers.now())
            notices = _Notices()
            self._apply(table, action, notices)
            await self._advance(table, notices)
        await self._notify(table, notices)
        return table

    async def refresh(self, table_id: int, player_id: str) -> LiveTable:
        """Send a (returning) player their hand and any pending decision again."""
        table = self.get(table_id)
        player = self._seated(table, player_id)
        if table.phase is Phase.PLAYING:
            await self.front.hand_changed(private_snapshot(table, player))
        return table

    async def message_posted(self, table_id: int, message_id: int) -> None:
        """A front end posted the table's message: remember where it is (across restarts)."""
        table = self.tables.get(table_id)
        if table is not None:
            table.message_id = message_id
        await self.store.set_message_id(table_id, message_id)

    def public_view(self, table_id: int) -> PublicSnapshot:
        """The table's public snapshot as it stands (e.g. to redraw its message after a restart)."""
        return public_snapshot(self.get(table_id))

    def private_view(self, table_id: int, player_id: str) -> PrivateSnapshot:
        """A seated player's own snapshot as it stands (their hand, their decision if any)."""
        table = self.get(table_id)
        return private_snapshot(table, self._seated(table, player_id))

    async def ready(
        self, table_id: int, player_id: str, hand_number: int | None = None
    ) -> LiveTable:
        """Ready for the next hand; `hand_number` is the finished hand the press was made
        after (a Ready button from an earlier hand's result is refused)."""
        table = self.get(table_id)
        async with table.lock:
            player = self._seated(table, player_id)
            if table.phase is not Phase.BETWEEN_HANDS:
                raise TableError(text("runtime.nothing_to_ready"))
            if hand_number is not None and hand_number != table.hand_number:
                raise StaleActionError(text("runtime.earlier_ready"))
            table.ready.add(player)
            notices = _Notices(table=True)
            # kept with the table: a restart between presses loses none of them
            pressed = {"hand": table.hand_number, "players": sorted(table.ready)}
            await self._set_extra(table, ready=pressed)
            if table.full and len(table.ready) == len(table.seats):
                notices = await self._begin_hand(table)
            else:
                await self.store.touch(table.id, now=self.timers.now())
        await self._notify(table, notices)
        return table

    # ------------------------------------------------------------------ quick play

    async def quickplay(
        self,
        preset_id: str,
        player_id: str,
        name: str,
        *,
        guild_id: int | None = None,
        channel_id: int | None = None,
        rated: bool = False,
    ) -> LiveTable | None:
        """Queue for a table; returns the table once a table's worth of players are found
        (else None: queued)."""
        entry = QueueEntry(player_id, name, guild_id, channel_id)
        return await self._quickplay.join(_playable(preset_id), entry, rated)

    async def quickplay_waiting(self, preset_id: str, rated: bool = False) -> int:
        """How many people wait in the queue, on every process sharing the database."""
        return await self._quickplay.waiting(preset_id, rated)

    async def leave_queue(self, player_id: str) -> bool:
        return await self._quickplay.leave(player_id)

    # ------------------------------------------------------------------ internals: hands

    async def _begin_hand(self, table: LiveTable) -> _Notices:
        assert table.session is not None
        now = self.timers.now()
        factory = self._hand_factory
        hand = factory(table.session) if factory else table.session.new_hand()
        table.hand = hand
        table.seating = table.session.seating
        if self.no_call_wait > 0:  # before the first action: the log replays with the same
            hand.always_ask = frozenset(
                table.hand_seat(p) for p, seat in enumerate(table.seats) if seat and seat.human
            )
        table.phase = Phase.PLAYING
        table.ready = set()
        table.last_result = None
        table.reserves = [float(table.time_control.reserve)] * table.seat_count
        limit = table.time_control.deal_limit
        table.deal_deadline = now + limit if limit else None
        table.deadline = None
        table.clock_decision = None
        arm_deadline(table, now)
        table.hand_id = await self.store.start_hand(
            table.id,
            table.session.hand_number,
            hand.seed,
            setup=hand_setup(table.session, hand, arranged_wall=factory is not None),
            deadlines=stored_deadlines(table),
            now=now,
        )
        table.saved_deadlines = stored_deadlines(table)
        notices = _Notices(table=True, hands=set(range(len(table.seats))), dealt=True)
        await self._advance(table, notices)
        return notices

    def _apply(self, table: LiveTable, action: Action, notices: _Notices) -> None:
        """Apply one action in memory and add it to the run `_save` writes to the log (the
        clock is armed once the run is over, by `_advance`)."""
        hand = table.hand
        assert hand is not None and table.hand_id is not None
        if not table.unsaved:
            table.unsaved_from = hand.version
        if notices.wins_before is None:
            notices.wins_before = len(hand.wins)
        events = hand.apply(action)
        table.unsaved += (action,)
        notices.events.extend(events)
        notices.table = True
        hands = notices.hands
        for event in events:
            kind = event.kind
            if kind in _CHANGES_ONE_HAND:
                if event.seat is not None:
                    hands.add(table.player_at(event.seat))
            elif kind in _CHANGES_EVERY_HAND:
                hands.update(range(len(table.seats)))

    async def _advance(self, table: LiveTable, notices: _Notices) -> None:
        """Let computers act until a human must decide or the hand ends; then arm the clock.

        The clock is armed once, after the run: the computers answer at once, so the decision
        it waits for is the one the run ends on (a person's window that stays open through
        computers' answers keeps its deadline, as `arm_deadline` keeps a running decision's).
        """
        hand = table.hand
        assert hand is not None
        computer: Computer | None = None  # looked up once a computer is to act
        while not hand.is_over:
            seat = table.computer_to_act()
            if seat is None:
                break
            if computer is None:
                computer = table.computer
            self._apply(table, computer(hand, seat), notices)
        arm_deadline(table, self.timers.now())
        await self._save(table)
        hand = table.hand
        assert hand is not None
        if hand.is_over:
            await self._finish_hand(table, notices)
            return
        notices.decisions = True
        self._arm_timers(table)
        self._arm_no_call(table)

    def _arm_no_call(self, table: LiveTable) -> None:
        """In a claim window, pass for the people with nothing to claim once the wait is over."""
        hand = table.hand
        if hand is not None and not hand.always_ask:
            return  # a window opens only for those who can claim: nobody's only answer is Pass
        key = f"nocall:{table.id}"
        if hand is None or not _nothing_to_claim(table):
            self.timers.cancel(key)
            return
        version = hand.decision_version
        if table.no_call_version == version:
            return  # this window's passes are already due
        table.no_call_version = version
        self.timers.schedule(
            key, self.timers.now() + self.no_call_wait, partial(self._on_no_call, table.id, version)
        )

    async def _on_no_call(self, table_id: int, version: int) -> None:
        table = self.tables.get(table_id)
        if table is None:
            return
        async with table.lock:
            hand = table.hand
            if table.phase is not Phase.PLAYING or hand is None or hand.decision_version != version:
                return  # the window has closed
            notices = _Notices()
            for player in _nothing_to_claim(table):
                self._apply(table, Action(table.hand_seat(player), ActionKind.PASS), notices)
            await self._advance(table, notices)
        await self._notify(table, notices)

    async def _save(self, table: LiveTable) -> None:
        """Write the run of actions applied since the last write, with the clocks after it, as
        one append (it shares its commit with other tables' appends); on a failed write,
        rebuild the hand from what the log holds (memory never runs ahead of the database) and
        re-raise. Nothing of the run is confirmed to anyone before this returns."""
        run, table.unsaved = table.unsaved, ()
        if not run:
            return
        assert table.hand_id is not None
        deadlines = stored_deadlines(table)
        changed = None if deadlines == table.saved_deadlines else deadlines
        try:
            await self.store.append_actions(
                table.id,
                table.hand_id,
                run,
                table.unsaved_from,
                changed,
                now=self.timers.now(),
                stored_deadlines=table.saved_deadlines,
            )
        except Exception as failure:
            table.saved_deadlines = None  # the store kept what it had: write them next time
            await self._rebuild_after_failure(table)
            raise failure
        table.saved_deadlines = deadlines

    async def _rebuild_after_failure(self, table: LiveTable) -> None:
        hand = table.hand
        assert hand is not None and table.hand_id is not None
        stored = await self.store.hand_log(table.hand_id)
        table.hand = HandState.replay(
            table.preset,
            hand.seed,
            stored.actions,
            hand.setup,
            wall=hand.wall,
            seat_count=hand.seat_count,
            always_ask=hand.always_ask,
        )
        table.clock_decision = None
        arm_deadline(table, self.timers.now())
        # computers may be next: try again shortly, and the clocks run from the stored state
        self.timers.schedule(
            f"resume:{table.id}",
            self.timers.now() + RESUME_AFTER_FAILURE,
            lambda: self._resume(table.id),
        )

    async def _resume(self, table_id: int) -> None:
        """Carry on a hand after a failed write: computers move, clocks are armed again."""
        table = self.tables.get(table_id)
        if table is None:
            return
        notices = _Notices(table=True)
        async with table.lock:
            if table.phase is not Phase.PLAYING or table.hand is None or table.hand.is_over:
                return
            await self._advance(table, notices)
        await self._notify(table, notices)

    async def _finish_hand(self, table: LiveTable, notices: _Notices) -> None:
        hand, session = table.hand, table.session
        assert hand is not None and session is not None and table.hand_id is not None
        outcome = hand.outcome()
        assert outcome is not None
        by_player = session.finish_hand(outcome)
        result = hand_result(table, outcome, by_player)
        # the hand that ends the preset's game ends it in the same commit (the store keeps the
        # standings, settles per-game ratings and closes the table)
        game = game_result(table, session) if session.over else None
        table.last_result = await self.store.record_hand_result(
            table.id,
            table.hand_id,
            result,
            session_state=json.dumps(session.to_json()),
            deadlines={},
            now=self.timers.now(),
            game=game,
        )
        self._cancel_timers(table)
        table.deadline = None
        notices.ended = True
        notices.table = True
        if game is not None:  # game over: the final standings are shown, nothing is left to do
            table.phase = Phase.GAME_OVER
            table.ready = set()
            self.tables.pop(table.id, None)
            return
        table.phase = Phase.BETWEEN_HANDS
        table.ready = {p for p, seat in enumerate(table.seats) if seat and not seat.human}

    # ------------------------------------------------------------------ internals: clocks

    def _arm_timers(self, table: LiveTable) -> None:
        """The timer jobs of the table's clocks; a job is (re)made only when its deadline
        changes (answers inside one claim window keep the window's job).

        A job's callback is a `partial`, not a lambda: a lambda's closure made cells for this
        function's variables on every call, armed or not, and a job's closure kept the table
        and three more objects alive for the collector to walk (bot/pauses.py)."""
        decision = table.clock_decision
        deadline = table.deadline
        if deadline is not None and decision is not None:
            armed = table.armed_decision
            if armed is None or armed[0] != deadline or armed[1] != decision:
                table.armed_decision = (deadline, decision)
                self.timers.schedule(
                    table.decision_key, deadline, partial(self._on_timeout, table.id, decision)
                )
        elif table.armed_decision is not None:
            table.armed_decision = None
            self.timers.cancel(table.decision_key)
        if table.deal_deadline is not None and table.armed_deal != table.hand_id:
            hand_id = table.armed_deal = table.hand_id
            self.timers.schedule(
                f"deal:{table.id}",
                table.deal_deadline,
                partial(self._on_deal_limit, table.id, hand_id),
            )

    def _cancel_timers(self, table: LiveTable) -> None:
        table.armed_decision = table.armed_deal = None
        self.timers.cancel(table.decision_key)
        self.timers.cancel(f"deal:{table.id}")

    async def _on_timeout(self, table_id: int, decision: int) -> None:
        """A decision clock ran out: play the timeout policy for everyone still to decide."""
        table = self.tables.get(table_id)
        if table is None:
            return
        async with table.lock:
            hand = table.hand
            if table.armed_decision is not None and table.armed_decision[1] == decision:
                table.armed_decision = None  # this job has fired
            if table.phase is not Phase.PLAYING or hand is None:
                return
            if hand.decision_version != decision or table.clock_decision != decision:
                return  # a timer from a decision that has passed
            timeouts: list[Action] = []
            notices = _Notices(timeouts=timeouts)
            # everyone still to decide shares this decision (one turn, or one claim window);
            # RULES.md: the seed-004 table clock lets the computer player decide, every other
            # clock plays "Table play around the hand" (a win taken, calls passed, the drawn
            # tile discarded, Sichuan openings as it says)
            for player in table.players_to_act():
                seat = table.hand_seat(player)
                action: Action | None
                if table.time_control.computer_on_timeout:
                    action = table.computer(hand, seat)
                else:
                    action = hand.default_action(seat)
                if action is None:
                    continue
                if hand.phase is HandPhase.TURN:
                    table.reserves[player] = 0.0
                timeouts.append(action)
                self._apply(table, action, notices)
            await self._advance(table, notices)
        await self._notify(table, notices)

    async def _on_deal_limit(self, table_id: int, hand_id: int | None) -> None:
        table = self.tables.get(table_id)
        if table is None:
            return
        async with table.lock:
            if table.armed_deal == hand_id:
                table.armed_deal = None  # this job has fired
            if table.phase is not Phase.PLAYING or table.hand is None or table.hand_id != hand_id:
                return
            notices = _Notices()
            self._apply(table, Action.parse("0 time_up"), notices)
            await self._advance(table, notices)
        await self._notify(table, notices)

    # ------------------------------------------------------------------ internals: expiry

    def _schedule_expiry(self) -> None:
        async def check() -> None:
            await self.expire_idle_tables()

        self.timers.schedule("expiry", self.timers.now() + EXPIRY_CHECK_SECONDS, check)

    async def expire_idle_tables(self) -> list[int]:
        """Close tables with no game action for 24 hours (no rating change); re-arm the check."""
        closed = await self.store.expire_idle(now=self.timers.now(), shards=self.shards)
        for table_id in closed:
            table = self.tables.get(table_id)
            if table is not None:
                self._drop(table)
                await self._notify(table, _Notices(closed="expired after 24 hours idle"))
        self._schedule_expiry()
        return closed

    # ------------------------------------------------------------------ internals: misc

    def _seated(self, table: LiveTable, player_id: str) -> int:
        player = table.player_of(player_id)
        if player is None:
            raise NotSeatedError(text("runtime.not_seated"))
        return player

    def _drop(self, table: LiveTable) -> None:
        self._cancel_timers(table)
        table.phase = Phase.CLOSED
        self.tables.pop(table.id, None)

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

    async def _notify(self, table: LiveTable, notices: _Notices) -> None:
        """Tell the front end about a stored change: one public snapshot of the table, and one
        private snapshot for each player whose own view changed (their hand, their decision)."""
        front = self.front
        if isinstance(front, NullFrontEnd):
            return  # nobody looks: build nothing
        players: set[int] = set(notices.hands)
        if notices.ended or notices.closed is not None:
            players.update(table.humans)
        elif notices.decisions and table.phase is Phase.PLAYING:
            players.update(table.players_to_act())
        calls: list[Awaitable[None]] = []
        # each player first hears what happened to them (the clock played for them), then
        # what the table saw
        for player in sorted(players):
            seat = table.seats[player]
            if seat is not None and seat.human:
                private = private_snapshot(table, player, notices.events, notices.timeouts)
                calls.append(front.hand_changed(private))
        if notices.table or notices.ended or notices.closed is not None:
            public = public_snapshot(
                table,
                notices.events,
                wins_before=notices.wins_before or 0,
                ended=notices.ended,
                dealt=notices.dealt,
                closed=notices.closed,
            )
            calls.append(front.table_changed(public))
        for call in calls:
            try:
                await call
            except Exception:  # a front end failing must not break the table
                log.exception("front end failed on table %s", table.id)
