"""A table as the runtime holds it in memory: seats, session, the hand in play, its clocks."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field

from bot.mjai_engines import EngineCapError, EngineSeats, engine_levels, engine_seats_for
from bot.runtime.computers import STORED_LEVEL, Computer, computer_for
from bot.runtime.errors import TableError
from bot.runtime.recipe import HandRecipe
from data import Phase, RecordedHand, TableOptions
from data.rating import RATED_SEATS
from engine.actions import Action
from engine.hand import HandState
from engine.i18n import text
from engine.presets import PRESETS, TIME_CONTROLS, Preset, TimeControl
from engine.session import Seating, Session
from render.words import preset_text

log = logging.getLogger(__name__)

COMPUTER_PREFIX = "cpu:"


def seat_count_of(preset: Preset, options: TableOptions) -> int:
    """How many seats a table has: chosen when it was created and kept in its options (a
    table stored before seat counts were data seats the preset's first count, four)."""
    return int(options.extra.get("seat_count", preset.seat_counts[0]))


def rated_seats(preset: Preset) -> int:
    """The seats of a rated table of `preset`: RATED_SEATS (RULES.md: hubei-laizi's 2- and
    3-player tables are casual; a hand rated on its own seats four), or the preset's own count
    where it never seats that many and rates per finished game (sanma: three, its own rating)."""
    own = preset.seat_counts[0]
    if RATED_SEATS in preset.seat_counts or not preset.game.rates_per_game:
        return RATED_SEATS
    return own


def seat_count_for(preset: Preset, players: int | None, rated: bool) -> int:
    """The seats of a new table: `players` if the preset allows it (default: its first
    count); a rated table seats `rated_seats`."""
    count = preset.seat_counts[0] if players is None else players
    if count not in preset.seat_counts:
        *others, last = map(str, preset.seat_counts)
        allowed = text("runtime.one_of", others=", ".join(others), last=last) if others else last
        # a preset of the same family that seats them (riichi at 3: sanma)
        kin = [
            p.id for p in PRESETS.values() if p.family == preset.family and count in p.seat_counts
        ]
        raise TableError(
            text(
                "runtime.seat_counts_kin" if kin else "runtime.seat_counts",
                preset=preset_text(preset.id, preset.name),
                allowed=allowed,
                count=count,
                kin=", ".join(kin),
            )
        )
    if rated and count != rated_seats(preset):
        raise TableError(text("runtime.rated_seats", rated=rated_seats(preset), count=count))
    return count


@dataclass(slots=True)
class Seat:
    player_id: str  # a Discord user id in decimal, or "cpu:<n>" for a computer player
    name: str
    # read several times for every action: worked out once (a seat's player never changes)
    human: bool = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self.human = not self.player_id.startswith(COMPUTER_PREFIX)


@dataclass(eq=False)
class LiveTable:
    id: int
    preset: Preset
    options: TableOptions
    guild_id: int | None = None
    channel_id: int | None = None
    name: str = ""
    seats: list[Seat | None] = field(default_factory=list)  # empty: one per `seat_count_of`
    phase: Phase = Phase.LOBBY
    session: Session | None = None
    hand: HandState | None = None
    hand_id: int | None = None
    recipe: HandRecipe | None = None  # what `hand` was dealt from (a failed write replays it)
    # who sits where in `hand` (the session's seating when it was dealt: the session moves on
    # to the next dealer when the hand ends, the finished hand keeps its own)
    seating: Seating = field(default_factory=lambda: Seating(dealer=0, seat_count=0))
    ready: set[int] = field(default_factory=set)
    reserves: list[float] = field(default_factory=list)  # per player (seconds)
    decision_started: float = 0.0
    deadline: float | None = None  # the current decision's deadline
    clock_decision: int | None = None  # the decision (`decision_version`) `deadline` is for
    no_call_version: int | None = None  # the claim window whose no-call passes are due
    deal_deadline: float | None = None
    message_id: int | None = None
    lobby_version: int = 0  # moves on with every change of seats (lobby controls carry it)
    last_result: RecordedHand | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    # the run of actions applied since the last write (`_save` stores it as one append), and
    # the hand version the first of them was taken at; a tuple, so an emptied run is the one
    # empty tuple rather than a new list on every table for the collector to walk
    unsaved: tuple[Action, ...] = ()
    unsaved_from: int = 0
    saved_deadlines: dict[str, float] | None = None  # the clocks as last stored (None: unknown)
    # the timer jobs armed now: the decision's (deadline, decision version), the deal's hand
    armed_decision: tuple[float, int] | None = None
    armed_deal: int | None = None
    decision_key: str = field(init=False, repr=False)
    engines: EngineSeats | None = (
        None  # at an mjai engine's level, once its seats played  # the decision clock's timer key
    )

    def __post_init__(self) -> None:
        self.decision_key = f"decision:{self.id}"
        if not self.seats:
            self.seats = [None] * seat_count_of(self.preset, self.options)
        if not self.reserves:
            self.reserves = [0.0] * len(self.seats)
        if not self.seating.seat_count:
            self.seating = Seating(0, len(self.seats))

    # ------------------------------------------------------------------ seats

    @property
    def seat_count(self) -> int:
        return len(self.seats)

    @property
    def level(self) -> str:
        """The computer level of this table's computer seats and timeouts."""
        return str(self.options.extra.get("level", STORED_LEVEL))

    @property
    def computer(self) -> Computer:
        """The level's computer: time-outs and suggestions (for every seat)."""
        return computer_for(self.level)

    def suggestion(self, hand: HandState, seat: int) -> Action:
        """What a player is offered as the suggested move: the level's computer's choice, made
        plain for copying where the family says how (engine.computer.suggest)."""
        from engine.computer import suggest  # the strong computer's package, loaded on demand

        return suggest(hand, seat, self.computer)

    @property
    def seat_computer(self) -> Computer:
        """The computer playing the computer seats: at an mjai engine's level, the table's
        engines (started once, ended by `close_engines`); EngineCapError past the cap."""
        if self.level not in engine_levels(self.preset.id):
            return self.computer
        if self.engines is None:
            try:
                self.start_engines()
            except TableError as error:  # a table restored past the cap: strong plays its seats
                log.warning("table %d: %s", self.id, error)
                return self.computer
        assert self.engines is not None
        return self.engines

    def start_engines(self) -> None:
        """Reserve the table's engine processes (each started at its first decision); a
        TableError when this bot process runs as many as MAHJONG_MJAI_MAX_PROCESSES allows."""
        if self.engines is not None or self.level not in engine_levels(self.preset.id):
            return
        computers = sum(1 for seat in self.seats if seat is not None and not seat.human)
        move_limit = float(self.time_control.base) or None
        try:
            self.engines = engine_seats_for(
                self.level, computers, f"table {self.id}", move_limit, self.names()
            )
        except EngineCapError as error:
            raise TableError(str(error)) from None

    def close_engines(self) -> None:
        if self.engines is not None:
            self.engines.close()
            self.engines = None

    @property
    def time_control(self) -> TimeControl:
        return TIME_CONTROLS[self.options.time_control]

    @property
    def full(self) -> bool:
        return all(seat is not None for seat in self.seats)

    @property
    def humans(self) -> list[int]:
        return [i for i, seat in enumerate(self.seats) if seat is not None and seat.human]

    def player_of(self, player_id: str) -> int | None:
        """The player index (table seat from 0) of this account, or None."""
        for index, seat in enumerate(self.seats):
            if seat is not None and seat.player_id == player_id:
                return index
        return None

    def seat(self, player: int) -> Seat:
        seat = self.seats[player]
        if seat is None:
            raise ValueError(f"table {self.id} has nobody in seat {player}")
        return seat

    def names(self) -> list[str]:
        """Names by player index (empty seats named as such)."""
        return [seat.name if seat else "(empty)" for seat in self.seats]

    # ------------------------------------------------------------------ the hand in play

    @property
    def dealer(self) -> int:
        """The player who dealt the hand on the table."""
        return self.seating.dealer

    def hand_seat(self, player: int) -> int:
        return self.seating.hand_seat(player)

    def player_at(self, hand_seat: int) -> int:
        return self.seating.player_at(hand_seat)

    def names_by_hand_seat(self) -> list[str]:
        names = self.names()
        return [names[self.player_at(s)] for s in range(self.seat_count)]

    def points_by_hand_seat(self) -> list[int]:
        """Each seat's total: the session's points, plus the hand's while it is in play (once
        it ends, the session holds them already)."""
        assert self.session is not None and self.hand is not None
        totals = [self.session.points[self.player_at(s)] for s in range(len(self.hand.points))]
        if self.phase is not Phase.PLAYING:
            return totals
        return [total + delta for total, delta in zip(totals, self.hand.points, strict=True)]

    def players_to_act(self) -> list[int]:
        if self.hand is None or self.phase is not Phase.PLAYING:
            return []
        return [self.player_at(s) for s in self.hand.seats_to_act()]

    def humans_to_act(self) -> list[int]:
        """The people among `players_to_act`, in its order."""
        hand = self.hand
        if hand is None or self.phase is not Phase.PLAYING:
            return []
        seats, player_at = self.seats, self.seating.player_at
        found = []
        for hand_seat in hand.seats_to_act():
            player = player_at(hand_seat)
            seat = seats[player]
            if seat is None:
                raise ValueError(f"table {self.id} has nobody in seat {player}")
            if seat.human:
                found.append(player)
        return found

    def computer_to_act(self) -> int | None:
        """The hand seat of the first computer the hand waits for (in `players_to_act`'s
        order), None if it waits for people only, or for nobody."""
        hand = self.hand
        if hand is None or self.phase is not Phase.PLAYING:
            return None
        seats, player_at = self.seats, self.seating.player_at
        for hand_seat in hand.seats_to_act():
            seat = seats[player_at(hand_seat)]
            if seat is not None and not seat.human:
                return hand_seat
        return None

    def legal_for(self, player: int) -> tuple[Action, ...]:
        """What this player may do in the hand now (empty if nothing)."""
        if self.hand is None or self.phase is not Phase.PLAYING:
            return ()
        return self.hand.legal_actions(self.hand_seat(player))

    @property
    def hand_number(self) -> int:
        """The hand in play or just finished, counted from 1 (0 before the first deal)."""
        if self.session is None:
            return 0
        return self.session.hand_number + (1 if self.phase is Phase.PLAYING else 0)

    @property
    def version(self) -> int:
        return self.hand.version if self.hand is not None else 0
