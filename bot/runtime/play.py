"""The runtime's play: a player's decision, hands dealt, computers moving, each run of moves
stored before anyone hears of it (rebuilt from the log when a write fails), hands finished and
recorded, and a claim window's passes for the people with nothing to claim.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from functools import partial

from bot.runtime.automatic import automatic_move
from bot.runtime.clocks import arm_deadline, spend_clock, stored_deadlines
from bot.runtime.computers import Computer
from bot.runtime.conversions import game_result, hand_result
from bot.runtime.errors import NotYourDecisionError, StaleActionError, TableError, message_of
from bot.runtime.host import Host, Notices, seated
from bot.runtime.recipe import HandRecipe, replay_hand
from bot.runtime.snapshots import (
    PrivateSnapshot,
    PublicSnapshot,
    private_snapshot,
    public_moment,
    public_snapshot,
)
from bot.runtime.table import LiveTable
from data import Phase
from engine.actions import Action, ActionKind
from engine.hand import HandState
from engine.hand import Phase as HandPhase
from engine.i18n import text
from engine.session import Session
from engine.tiles import InvalidNotationError

# the engine's events after which a player's own view changes: the seat's, or everyone's
_CHANGES_ONE_HAND = frozenset({"draw", "discard", "call", "kong", "bonus", "win", "fixed_kong"})
_CHANGES_EVERY_HAND = frozenset({"opening_done", "swap"})
RESUME_AFTER_FAILURE = 5.0


def nothing_to_claim(table: LiveTable) -> list[int]:
    """The people still to answer an open claim window whose only answer is Pass."""
    hand = table.hand
    if hand is None or hand.phase not in (HandPhase.CLAIMS, HandPhase.ROB):
        return []
    return [player for player in table.humans_to_act() if len(table.legal_for(player)) == 1]


class Play(Host):
    """Hands in play (part of `Runtime`)."""

    no_call_wait: float
    _hand_factory: Callable[[Session], HandState] | None

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
        arrived = time.perf_counter()
        table = self.get(table_id)
        async with table.lock:
            player = seated(table, player_id)
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
            notices = Notices()
            self._apply(table, action, notices)
            await self._advance(table, notices)
        await self._notify(table, notices)
        if self.metrics is not None:
            self.metrics.answered(action.kind, time.perf_counter() - arrived)
        return table

    async def refresh(self, table_id: int, player_id: str) -> LiveTable:
        """Send a (returning) player their hand and any pending decision again."""
        table = self.get(table_id)
        player = seated(table, player_id)
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
        return private_snapshot(table, seated(table, player_id))

    async def _begin_hand(self, table: LiveTable) -> Notices:
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
        recipe = HandRecipe.dealt(table.session, hand, table.preset, arranged_wall=bool(factory))
        table.recipe = recipe
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
            setup=recipe.to_json(),
            deadlines=stored_deadlines(table),
            now=now,
        )
        table.saved_deadlines = stored_deadlines(table)
        notices = Notices(table=True, hands=set(range(len(table.seats))), dealt=True)
        await self._advance(table, notices)
        return notices

    def _apply(self, table: LiveTable, action: Action, notices: Notices) -> None:
        """Apply one action in memory and add it to the run `_save` writes to the log (the
        clock is armed once the run is over, by `_advance`)."""
        hand = table.hand
        assert hand is not None and table.hand_id is not None
        if not table.unsaved:
            table.unsaved_from = hand.version
        if notices.wins_before is None:
            notices.wins_before = len(hand.wins)
        events = hand.apply(action)
        if self.metrics is not None:
            self.metrics.applied(action.kind)
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

    async def _advance(self, table: LiveTable, notices: Notices) -> None:
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
                move = automatic_move(table)  # a person's move made without a click
                if move is None:
                    break
                self._apply(table, move, notices)
                continue
            if computer is None:
                computer = table.seat_computer
            action = await self._decide(table, computer, seat)
            self._apply(table, action, notices)
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

    async def play_automatic(self, table_id: int) -> None:
        """Make the move a person's toggles now answer (one just switched on), if any."""
        table = self.tables.get(table_id)
        if table is None:
            return
        async with table.lock:
            if table.phase is not Phase.PLAYING or automatic_move(table) is None:
                return
            notices = Notices()
            await self._advance(table, notices)
        await self._notify(table, notices)

    def _arm_no_call(self, table: LiveTable) -> None:
        """In a claim window, pass for the people with nothing to claim once the wait is over."""
        hand = table.hand
        if hand is not None and not hand.always_ask:
            return  # a window opens only for those who can claim: nobody's only answer is Pass
        key = f"nocall:{table.id}"
        if hand is None or not nothing_to_claim(table):
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
            notices = Notices()
            for player in nothing_to_claim(table):
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
        started = time.perf_counter()
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
        if self.metrics is not None:
            self.metrics.committed(time.perf_counter() - started)
        table.saved_deadlines = deadlines

    async def _rebuild_after_failure(self, table: LiveTable) -> None:
        assert table.recipe is not None and table.hand_id is not None
        stored = await self.store.hand_log(table.hand_id)
        table.hand = replay_hand(table.recipe, stored.actions)
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
        notices = Notices(table=True)
        async with table.lock:
            if table.phase is not Phase.PLAYING or table.hand is None or table.hand.is_over:
                return
            await self._advance(table, notices)
        await self._notify(table, notices)

    async def _finish_hand(self, table: LiveTable, notices: Notices) -> None:
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
            table.close_engines()
            table.phase = Phase.GAME_OVER
            table.ready = set()
            self.tables.pop(table.id, None)
            return
        table.phase = Phase.BETWEEN_HANDS
        table.ready = {p for p, seat in enumerate(table.seats) if seat and not seat.human}
