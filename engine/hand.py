"""One hand of mahjong as a state machine: seed + action log in, the whole table state out.

`legal_actions(seat)` says what a seat may do now; `apply(action)` is the only way state
changes; `outcome()` says whether the hand is over and who won. Replaying the same seed and log
rebuilds the same state (`HandState.replay`).

The loop here is the one every preset shares: deal, openings, turns, claims and robbing, what a
win does, the end. Everything a preset adds to it (void suits, leaving or locked winners, the
swap, pass rules, wilds, fixed kongs, a dead wall, last draws, ...) is one of its rule components
(`engine.parts`, `engine.rules`), asked at named hook points; every point that moves is a `Payment`
(`engine.settlement`). Seats are 0..seat_count-1 from the dealer (2, 3 or 4 seats).

>>> from engine.presets import find_preset
>>> state = HandState(find_preset("hkos-3-v1"), seed=7)
>>> state.phase, state.turn, len(state.hands[0]) + len(state.bonus[0]) >= 14
(<Phase.TURN: 'turn'>, 0, True)
"""

from __future__ import annotations

import copy
import weakref
from collections.abc import Iterable, Sequence
from itertools import compress
from typing import TypeVar

from engine import rules, scoring, shapes
from engine.actions import CLAIM_PRIORITY, Action, ActionKind, DeclaredKind
from engine.claims import ClaimWindow
from engine.events import Event, Phase, Termination
from engine.hand_ledger import HandLedger
from engine.hand_setup import HandSetup
from engine.hand_tables import (
    ADDED_KONG_ACTIONS,
    CONCEALED_KONG_ACTIONS,
    DISCARD_ACTIONS,
    DISCARD_EVENTS,
    DRAW_EVENTS,
    PASS_ACTIONS,
    SEATS_AFTER,
    WIN_ACTIONS,
    call_meld,
    shared_event,
    window_event,
)
from engine.hand_tiles import arranged_wall
from engine.hand_wins import WinChecks
from engine.kinds import MultiWin
from engine.outcome import WinRecord
from engine.parts import Part, hook_answerers, overrides, owners, parts_by_kind
from engine.preset import Preset
from engine.rules import AfterWinPart
from engine.scoring.base import Score, WinBy, WinContext
from engine.settlement import (
    Payment,
    deltas_of,
)
from engine.tiles import (
    COPIES,
    NUM_KINDS,
    Meld,
    MeldKind,
    Tile,
    format_tiles,
    is_bonus,
    kind_of,
    sort_tiles,
)
from engine.wall import WallPart


class IllegalActionError(ValueError):
    """An action that is not legal in the current state."""


# Enum members compared on every action. On Python 3.11 a lookup such as `Phase.TURN` costs
# about ten times a module global, so the per-action paths below use these aliases.
_TURN, _CLAIMS, _ROB, _OPENING = Phase.TURN, Phase.CLAIMS, Phase.ROB, Phase.OPENING
_OVER = Phase.OVER
_SELF_DRAW, _ON_DISCARD, _ROBBING_KONG = WinBy.SELF_DRAW, WinBy.DISCARD, WinBy.ROBBING_KONG
_WIN, _DISCARD, _PASS = ActionKind.WIN, ActionKind.DISCARD, ActionKind.PASS
_TIME_UP, _CONCEALED_KONG = ActionKind.TIME_UP, ActionKind.CONCEALED_KONG
_ADDED_KONG = ActionKind.ADDED_KONG


_P = TypeVar("_P", bound=Part)


_is_win = shapes.is_win  # asked on every discard for every other seat


class HandState(WinChecks, HandLedger):
    """The mutable state of one hand. Seats are 0..seat_count-1 counted from the dealer (seat
    winds E S W N). Rules beyond the shared loop live in the preset's components (`parts`)."""

    def __init__(
        self,
        preset: Preset,
        seed: int,
        setup: HandSetup | None = None,
        *,
        wall: Sequence[Tile] | None = None,
        seat_count: int | None = None,
        always_ask: Iterable[int] = (),
    ) -> None:
        self.preset = preset
        self.seed = seed
        # the table as this hand starts (engine.hand_setup): stored with the hand for replays
        self.setup = HandSetup() if setup is None else setup
        self.round_wind = self.setup.round_wind
        count = preset.seat_counts[0] if seat_count is None else seat_count
        rules.check_seat_count(preset, count)
        self.seat_count = count
        # seats asked on every claim window even with nothing to claim (their only answer is
        # Pass): where calls are public, whether a window opens must not tell who can call
        self.always_ask = frozenset(always_ask)
        self.version = 0
        self.log: list[Action] = []
        super().__init__(preset, seed, count, wall)
        # preset values read on every discard's claim checks, bound once for the hand
        self._discard_wins = preset.discard_wins
        self._shapes = preset.shape_rules
        self._chow = preset.chow
        self.points = [0] * count  # this hand's running point changes: the sum of `payments`
        self.pot_change = 0  # the pot's running change: paid in less taken out
        self.payments: list[Payment] = []
        self.wins: list[WinRecord] = []
        self.phase = Phase.TURN
        self.turn = 0
        self.drawn: Tile | None = None
        self.after_kong = False  # the tile in hand was a kong replacement
        self.after_bonus = False  # the drawn tile replaced a flower or season
        self.discards_made = 0
        self.kongs_made = 0
        self.calls_made = 0
        self.last_discard: tuple[int, int] | None = None  # (seat, pond index)
        # the answers awaited now (a claim window's or the decisions made at once), None until given
        self.pending: dict[int, Action | None] = {}
        # the claim window open now, or the last one (engine.claims)
        self.window: ClaimWindow | None = None
        # the part whose decisions every seat makes at once (Phase.OPENING), while they last
        self._decider: Part | None = None
        self._termination: Termination | None = None
        self._ready: tuple[int, ...] = ()
        self._legal_cache: dict[int, tuple[Action, ...]] = {}
        self._scores: dict[WinContext, Score] = {}  # see _score
        self._events: list[Event] = []
        self._bind_rules()
        self._deal()

    def _bind_rules(self) -> None:
        """Make each rule component's part for this hand, and list who answers which hook."""
        components = rules.rules_of(self.preset)
        self.parts: list[Part] = [rule.bind(self) for rule in components]
        # part_of's answers for every kind a part is (the first such part): the parts are fixed
        # for the hand, and the computer players ask on every decision
        parts = self.parts
        self._part_by_kind = parts_by_kind(parts)
        self._robbing = next(r for r in components if isinstance(r, rules.Robbing))
        self._conditions = next(r for r in components if isinstance(r, rules.WinConditions))
        self._wall_part = self.require(WallPart)
        # the tiles left in the wall when the live wall ends (the wall part's dead wall)
        self._dead_wall: int = self._wall_part.rule.left_in_wall
        # a kong's replacement spends a dead-wall tile for good where the wall is not replenished
        self._dead_wall_spent = 0 if self._wall_part.rule.replenished else 1
        self._after_win = self.require(AfterWinPart)
        self._owners = owners(parts, self.preset.id)
        # the words of every declaration a rule owns (kind name: catalogue key), and those
        # made with a discard: what the front ends show
        self.declaration_labels = {k.value: key for part in parts for k, key in part.labels.items()}
        self.declared_with_discard = frozenset(k.value for part in parts for k in part.with_discard)
        # advice the computer players read (engine.parts: not rules, the loop never asks)
        self.computer_declares = frozenset(k for part in parts for k in part.computer_declares)
        self.computer_takes = frozenset(k for part in parts for k in part.computer_takes)
        self._wilds = self.part_of(rules.WildsPart)
        # the per-seat list the seat loops read on every discard, shared with its owner
        self._left = self._after_win.left

        answering = hook_answerers(parts)
        self._turn_rules = answering["turn_actions"]
        self._offer_rules = answering["offer"]
        self._discard_rules = answering["discard_choices"]
        self._kong_rules = answering["may_kong"]
        self._win_rules = answering["may_win"]
        self._shape_rules = answering["win_shape"]
        self._standard_shapes = not self._shape_rules
        self._claim_rules = answering["may_claim"]
        self._call_rules = answering["allows_call"]
        self._kong_discards = answering["discard_is_kong"]
        self._pass_rules = answering["on_pass"]
        self._draw_rules = answering["on_draw"]
        self._discard_watchers = answering["on_discard"]
        self._call_watchers = answering["after_call"]
        self._interruption_watchers = answering["after_interruption"]
        self._passed_watchers = answering["after_discard_passed"]
        self._ready_rules = answering["ready"]
        self._context_rules = answering["context"]
        self._settle_rules = answering["settle_win"]
        self.call_advisers = answering["call_keeps_a_way"]

    def __deepcopy__(self, memo: dict[int, object]) -> HandState:
        clone = HandState.__new__(HandState)
        memo[id(self)] = clone
        for key, value in vars(self).items():
            setattr(clone, key, copy.deepcopy(value, memo))
        for part in clone.parts:
            part.state = weakref.proxy(clone)
        return clone

    def reading_copy(self) -> HandState:
        """A copy for a player to rework (engine.computer.on_kinds), sharing what no player
        changes: the preset (frozen, with its wall and rules: most of a copy's cost), the log of
        frozen actions and the events told. It works out its legal actions afresh."""
        shared = (self.preset, self.log, self._events)
        copied = copy.deepcopy(self, {id(value): value for value in shared})
        copied._legal_cache.clear()
        return copied

    def part_of(self, kind: type[_P]) -> _P | None:
        """This hand's part of the given kind, if the preset plays that rule."""
        return self._part_by_kind.get(kind)  # type: ignore[return-value]

    def require(self, kind: type[_P]) -> _P:
        """This hand's part of a kind every preset plays (the wall, what a win does)."""
        part = self.part_of(kind)
        assert part is not None, f"every preset plays {kind.__name__}"
        return part

    # ----------------------------------------------------------------- construction

    @classmethod
    def replay(
        cls,
        preset: Preset,
        seed: int,
        actions: Iterable[Action | str],
        setup: HandSetup | None = None,
        *,
        wall: Sequence[Tile] | None = None,
        seat_count: int | None = None,
        always_ask: Iterable[int] = (),
    ) -> HandState:
        """Rebuild a hand from its seed (or arranged wall), its setup and its action log (parsed
        once the hand's rules are bound: a rule's module declares the kinds it owns)."""
        state = cls(preset, seed, setup, wall=wall, seat_count=seat_count, always_ask=always_ask)
        for action in actions:
            state.apply(Action.parse(action) if isinstance(action, str) else action)
        return state

    @classmethod
    def arranged(
        cls,
        preset: Preset,
        hands: Sequence[str],
        draws: str = "",
        replacements: str = "",
        setup: HandSetup | None = None,
    ) -> HandState:
        """A hand with chosen deals, front draws and back replacements (for tests and examples).

        `hands` gives each seat's dealt tiles (the dealer's with its 14th last); `draws` the
        tiles drawn from the front in order; `replacements` the tiles taken from the back in
        order (a dead wall's indicators set apart at the deal first: `WallRule.indicators`).
        The rest of the wall is filled with the remaining tiles in a fixed order.
        """
        wall = arranged_wall(preset, hands, draws, replacements)
        return cls(preset, 0, setup, wall=wall, seat_count=len(hands))

    def _deal(self) -> None:
        self._wall_part.take_set_aside()
        self._deal_tiles(self.preset.hand_size)
        self.drawn = self.hands[0][-1]
        for seat in self.seats:
            self._replace_bonus(seat)
        self.after_bonus = False  # a replacement in the deal is no supplement tile
        for part in self.parts:
            part.after_deal()

    # ----------------------------------------------------------------- the parts' API
    # What a rule component may do to the hand (engine.parts): parts change the hand only
    # through these, never through the loop's private state (tests/test_part_api.py keeps it so).

    def emit(self, event: Event) -> None:
        """Add an event to what the current action returns."""
        self._events.append(event)

    @property
    def wall_part(self) -> WallPart:
        """The part that owns the wall: set-aside tiles, the dead wall, the last draws."""
        return self._wall_part

    def draw_replacement(self, seat: int) -> None:
        """`seat` draws a replacement (from the wall part's back positions) and plays on."""
        self._draw(seat, replacement=True)

    def draw_next(self, after: int) -> None:
        """The turn passes on: the first seat in play after `after` draws (or the wall ends)."""
        self._next_draw(self._next_seat(after))

    def begin_decisions(self, decider: Part, label: str) -> None:
        """Every seat decides at once (Phase.OPENING): `decider` offers the choices
        (`decision_actions`), times them out (`decision_default`) and carries out the answers
        (`decide`), then gives the turn back with `resume_turn`."""
        self._decider = decider
        self.phase = Phase.OPENING
        self._events.append(Event("opening", detail=label))

    def resume_turn(self, seat: int, drawn: Tile | None) -> None:
        """Back to `seat`'s turn after decisions made at once, `drawn` standing for its draw."""
        self._decider = None
        self.phase = Phase.TURN
        self.turn = seat
        self.drawn = drawn

    def open_rob_window(self, declared: Action, tile: Tile, by: WinBy = _ROBBING_KONG) -> None:
        """Offer `tile` of a declaration to robbing wins, counted as `by` (as robbing a kong;
        a ron on sanma's north set aside counts as on a discard); when nobody robs it, the
        owner of the declaration's kind carries it out (`Part.commit`)."""
        self._open_window(Phase.ROB, tile, declared.seat, declared, by)

    def interrupt(self, seat: int) -> None:
        """`seat` made a declaration that interrupts the go-around as a call does, with no meld
        (sanma's nuki): it counts as a call for the first-turn facts (`calls_made`: double
        riichi, the first-draw wins, nine terminals), and the parts hear it (ippatsu ends)."""
        self.calls_made += 1
        for part in self._interruption_watchers:
            part.after_interruption(seat)

    def _replace_bonus(self, seat: int) -> None:
        """Expose bonus tiles and draw their replacements from the back, repeatedly."""
        hand = self.hands[seat]
        # bonus tiles sort after every playing tile but the red fives, so max() tells whether
        # any can be held
        while hand and max(hand) >= NUM_KINDS:
            bonus = [t for t in hand if is_bonus(t)]
            if not bonus:  # only red fives
                return
            for tile in bonus:
                self._remove(seat, tile)
                self.bonus[seat].append(tile)
                self._events.append(shared_event("bonus", seat, tile))
                if self.wall_left == 0:
                    if self.drawn is not None and is_bonus(self.drawn):
                        self.drawn = None
                    continue
                replacement = self._wall_part.take_replacement()
                self._add(seat, replacement)
                if self.drawn is not None and self.drawn == tile and seat == self.turn:
                    self.drawn = replacement
                    self.after_bonus = True

    # ----------------------------------------------------------------- queries

    @property
    def claim_tile(self) -> Tile | None:
        """The tile of the claim window open now (or of the last one: see engine.claims)."""
        window = self.window
        return None if window is None else window.tile

    @property
    def claim_from(self) -> int | None:
        """The seat whose tile the claim window open now (or the last one) offers."""
        window = self.window
        return None if window is None else window.source

    @property
    def wall_left(self) -> int:
        """Tiles still to be drawn (a dead wall is never drawn and not counted)."""
        return self.back - self.front - self._dead_wall

    @property
    def is_over(self) -> bool:
        return self.phase is _OVER

    @property
    def set_aside(self) -> list[Tile]:
        """Tiles set aside face down at the deal (a horse, birds), out of play."""
        return self._wall_part.set_aside

    def private_facts(self, seat: int) -> tuple[str, ...]:
        """What the rules know about `seat` that only its player may be told ("furiten"):
        names whose words are `pictures.fact.<name>`; never for a public view."""
        return tuple(
            fact
            for part in self.parts
            if overrides(part, "private_facts")
            for fact in part.private_facts(seat)
        )

    def sets_down(self, tile: Tile) -> bool:
        """Whether discarding `tile` sets it down as a kong instead (a fixed kong kind, a turned
        wild): for the words of a menu, not for play."""
        return any(part.sets_down(tile) for part in self._kong_discards)

    @property
    def decision_version(self) -> int:
        """The version at which the current decision opened.

        Every answer in a claim window (or an opening stage) moves `version` on while the window
        stays open for the others, so an answer made for any version from this one on still
        answers the same decision.
        """
        phase = self.phase
        if phase is _CLAIMS or phase is _ROB or phase is _OPENING:
            return self.version - sum(1 for answer in self.pending.values() if answer is not None)
        return self.version

    def active(self, seat: int) -> bool:
        return not self._left[seat]

    def seats_to_act(self) -> list[int]:
        """The seats whose decision the hand waits for now."""
        if self.phase is _TURN:
            return [self.turn]
        if self.phase in (_CLAIMS, _ROB):
            return [seat for seat, answer in self.pending.items() if answer is None]
        if self.phase is _OPENING:
            return [seat for seat in self.seats if not self._opening_done(seat)]
        return []

    def legal_actions(self, seat: int) -> tuple[Action, ...]:
        """Every action `seat` may take now (empty when it is not this seat's decision).

        A tuple: the answer is cached until the next action, so no caller may change it.
        """
        cached = self._legal_cache.get(seat)
        if cached is None:
            cached = self._legal_cache[seat] = tuple(self._compute_legal(seat))
        return cached

    def is_legal(self, action: Action) -> bool:
        if action.kind is _TIME_UP:
            return not self.is_over and action == Action(0, _TIME_UP)
        if not 0 <= action.seat < self.seat_count:
            return False
        legal = self.legal_actions(action.seat)
        # callers mostly pass back an offered action itself: identity is the quick check
        for offered in legal:
            if offered is action:
                return True
        return action in legal

    def _compute_legal(self, seat: int) -> list[Action]:
        if self.phase is _TURN and seat == self.turn:
            return self._turn_actions(seat)
        if self.phase in (_CLAIMS, _ROB) and seat in self.pending:
            if self.pending[seat] is not None:
                return []
            window = self.window
            assert window is not None
            options = window.options.get(seat)
            if options is None:
                options = self._claim_options(seat, self._next_seat(window.source))
            return [PASS_ACTIONS[seat], *options]
        if self.phase is _OPENING and not self._opening_done(seat):
            assert self._decider is not None
            return self._decider.decision_actions(seat)
        return []

    # ----------------------------------------------------------------- legal actions

    def _turn_actions(self, seat: int) -> list[Action]:
        counts = self._counts[seat]
        actions: list[Action] = []
        drawn = self.drawn
        if (
            drawn is not None
            # the standard shapes asked first, as in _claim_options: most hands are not complete
            and (not self._standard_shapes or _is_win(counts, self._shapes))
            and self._win_score(seat, drawn, _SELF_DRAW)
        ):
            actions.append(WIN_ACTIONS[seat])
        for part in self._turn_rules:  # a locked hand, the last-draw phase
            replaced = part.turn_actions(seat)
            if replaced is not None:
                return self._offered(seat, actions + replaced)
        restricted = None
        for part in self._discard_rules:  # the void suit goes first
            restricted = part.discard_choices(seat)
            if restricted:
                break
        discards = DISCARD_ACTIONS[seat]
        if self.has_red_fives:  # each physical tile held of the kinds allowed
            kinds = restricted or [kind for kind in range(NUM_KINDS) if counts[kind]]
            actions += [discards[t] for kind in kinds for t in self._held_ids(seat, kind)]
        elif restricted:
            actions.extend(map(discards.__getitem__, restricted))
        else:  # the concealed hand holds no bonus tiles here: its kinds are the counted ones
            actions.extend(compress(discards, counts))
        if self.drawn is not None and self.back - self.front > self._dead_wall:  # wall_left > 0
            if 4 in counts:  # rare: skip the scan of every kind
                actions += [
                    CONCEALED_KONG_ACTIONS[seat][t]
                    for t in range(NUM_KINDS)
                    if counts[t] == 4 and all(p.may_kong(seat, t) for p in self._kong_rules)
                ]
            if self.melds[seat]:
                actions += [
                    ADDED_KONG_ACTIONS[seat][meld.first]
                    for meld in self.melds[seat]
                    if meld.kind is MeldKind.PUNG
                    and counts[meld.first]
                    and all(p.may_kong(seat, meld.first) for p in self._kong_rules)
                ]
        return self._offered(seat, actions) if self._offer_rules else actions

    def _offered(self, seat: int, actions: list[Action]) -> list[Action]:
        """The turn's actions and the declarations rules offer beside them."""
        for part in self._offer_rules:
            actions += part.offer(seat)
        return actions

    def _opening_done(self, seat: int) -> bool:
        return self.pending.get(seat) is not None

    # ----------------------------------------------------------------- applying actions

    def apply(self, action: Action) -> list[Event]:
        """Apply a legal action and return what happened. Raises IllegalActionError otherwise."""
        if not self.is_legal(action):
            raise IllegalActionError(
                f"illegal action {str(action)!r} in phase {self.phase} at version {self.version} "
                f"(legal for seat {action.seat}: "
                f"{', '.join(str(a) for a in self.legal_actions(action.seat)) or 'none'})"
            )
        self._events = []
        self.version += 1
        self._legal_cache.clear()
        self.log.append(action)
        if action.kind is _TIME_UP:
            self.end_hand(Termination.DEAL_LIMIT)
            return self._events
        if self.phase is _TURN:
            self._apply_turn(action)
        elif self.phase is _OPENING:
            self._apply_opening(action)
        else:  # a claim or robbing window: the only other phases with legal actions
            self._apply_answer(action)
        return self._events

    def _apply_turn(self, action: Action) -> None:
        seat = action.seat
        kind = action.kind
        if kind is _WIN:
            tile = self.drawn
            assert tile is not None
            self._settle_wins([(seat, _SELF_DRAW)], tile, None)
        elif kind is _DISCARD:
            self.discard(seat, action.tile)
        elif kind is _CONCEALED_KONG or kind is _ADDED_KONG:
            self._events.append(shared_event("kong_declared", seat, action.tile, kind.value))
            # an added kong offers the physical tile it adds to robbing wins
            tile = self._held_id(seat, action.tile) if kind is _ADDED_KONG else action.tile
            self._open_window(Phase.ROB, tile, seat, action)
        else:  # a kind a rule owns: keeping the last draws, a declaration
            self._owner(kind).apply_action(action)

    def _owner(self, kind: ActionKind | DeclaredKind) -> Part:
        owner = self._owners.get(kind)
        if owner is None:
            raise IllegalActionError(f"no rule of {self.preset.id} plays {kind.value!r}")
        return owner

    def discard(self, seat: int, tile: Tile) -> None:
        """`seat` discards `tile` (a part's declaration made with a discard does it too)."""
        self._remove(seat, tile)
        for part in self._kong_discards:  # fixed kong tiles: set down, replaced, play on
            if part.discard_is_kong(seat, tile):
                self._events.append(shared_event("fixed_kong", seat, tile))
                self.kongs_made += 1
                self._draw(seat, replacement=True)
                return
        self.ponds[seat].append(tile)
        self.last_discard = (seat, len(self.ponds[seat]) - 1)
        self.drawn = None
        self.after_kong = False
        self.discards_made += 1
        for part in self._discard_watchers:
            part.on_discard(seat, tile)
        self._events.append(DISCARD_EVENTS[seat][tile])
        self._open_window(_CLAIMS, tile, seat, None)

    def _open_window(
        self,
        phase: Phase,
        tile: Tile,
        seat: int,
        declared: Action | None,
        rob_by: WinBy = _ROBBING_KONG,
    ) -> None:
        """Offer `tile` to every other active seat; skip the window when nobody can claim
        (nobody of `always_ask` either: those are asked whatever they hold). A rob window
        holds the declaration it may rob (a kong, a rule's), carried out when nobody does,
        and `rob_by` says how a win on it counts."""
        self.phase = phase
        window: dict[int, list[Action]] = {}
        self.window = ClaimWindow(tile, seat, declared, rob_by, window)
        pending: dict[int, Action | None] = {}
        self.pending = pending
        after = self._seats_after(seat)
        always_ask = self.always_ask
        for other in after:
            options = self._claim_options(other, after[0])
            if options or other in always_ask:
                pending[other] = None
                window[other] = options
        self._legal_cache.clear()
        if pending:
            self._events.append(window_event(seat, tile, tuple(pending)))
        elif phase is _CLAIMS:  # the common case, a discard nobody can claim: the next draws
            self._discard_passed(seat, tile)
            if self.phase is not _OVER:
                self._next_draw(after[0] if after else seat)
        else:
            self._close_window()

    def _discard_passed(self, seat: int, tile: Tile) -> None:
        """Nobody claimed `seat`'s discard: the parts that watch hear it before the next draw
        (they may end the hand)."""
        for part in self._passed_watchers:
            part.after_discard_passed(seat, tile)

    def _apply_answer(self, action: Action) -> None:
        window = self.window
        assert window is not None
        self.pending[action.seat] = action
        if action.kind is _PASS:
            for part in self._pass_rules:
                part.on_pass(action.seat, window.options.get(action.seat, ()))
        if all(answer is not None for answer in self.pending.values()):
            self._close_window()

    def _close_window(self) -> None:
        answers = [a for a in self.pending.values() if a is not None]
        window = self.window
        assert window is not None
        tile, source, options = window.tile, window.source, window.options
        self.pending = {}
        winners = [a.seat for a in answers if a.kind is _WIN]
        if winners:
            by = window.rob_by if self.phase is _ROB else _ON_DISCARD
            order = self._seats_after(source)
            winners.sort(key=order.index)
            if self.preset.multi_win is MultiWin.HEAD_BUMP:
                winners = winners[:1]
            if self._pass_rules:
                self._unmade_claims_pass(answers, winners, options)
            aborts = self.preset.winners_abort
            if aborts and len(winners) >= aborts:  # as many winners as abort the hand
                self.end_hand(Termination.ABORTIVE_DRAW)
                return
            if self.phase is _ROB:
                self._remove(source, self._held_id(source, tile))
            else:
                self.claimed[source].add(len(self.ponds[source]) - 1)
            self._settle_wins([(w, by) for w in winners], tile, source)
            return
        if self.phase is _ROB:
            declared = window.declared
            assert declared is not None
            if declared.kind is _CONCEALED_KONG or declared.kind is _ADDED_KONG:
                self._commit_kong(source, tile, declared.kind)
            else:
                self._owner(declared.kind).commit(declared)
            return
        # mostly nobody could claim: no answers to weigh
        best = max(answers, key=lambda a: CLAIM_PRIORITY[a.kind]) if answers else None
        if best is None or best.kind is _PASS:
            self._discard_passed(source, tile)
            if self.phase is not _OVER:
                self._next_draw(self._next_seat(source))
        else:
            if self._pass_rules:
                self._unmade_claims_pass(answers, [best.seat], options)
            self._call(best, source)

    def _unmade_claims_pass(
        self, answers: list[Action], made: list[int], options: dict[int, list[Action]]
    ) -> None:
        """A claim that a higher one beat (a chow under a pung, a win that a head bump left out)
        passes the seat's offered calls as much as a pass does (pass rules count it)."""
        for answer in answers:
            if answer.kind is not _PASS and answer.seat not in made:
                for part in self._pass_rules:
                    part.on_pass(answer.seat, options.get(answer.seat, ()))

    def _call(self, claim: Action, source: int) -> None:
        seat, tile = claim.seat, self.claim_tile
        assert tile is not None
        self.claimed[source].add(len(self.ponds[source]) - 1)
        self.calls_made += 1
        meld, event = call_meld(claim, tile, source)
        taken = self.call_tiles(seat, claim, tile)  # the claimed tile comes from the pond
        for given in taken:
            self._remove(seat, given)
        if self.has_red_fives:  # the meld holds the physical tiles: the hand's, the claimed one
            physical = tuple(sort_tiles([*taken, tile]))
            if physical != meld.tiles:
                meld = Meld(meld.kind, physical, tile, source)
                event = shared_event("call", seat, tile, str(meld))
        self.melds[seat].append(meld)
        self._events.append(event)
        self.turn = seat
        self.phase = Phase.TURN
        self.drawn = None
        self.after_kong = False
        if claim.kind is ActionKind.KONG:
            self.kongs_made += 1
            kong = scoring.kong_payments(
                self.preset, MeldKind.KONG, seat, source, self.seats_in_play()
            )
            self.pay(kong)
        for part in self._call_watchers:
            part.after_call(seat, meld)
        if claim.kind is ActionKind.KONG and self.phase is not _OVER:
            self._draw(seat, replacement=True)

    def _commit_kong(self, seat: int, tile: Tile, declared: ActionKind | DeclaredKind) -> None:
        if declared is _ADDED_KONG:  # `tile` is the physical tile added
            self._remove(seat, tile)
            kind = kind_of(tile)
            index = next(
                i
                for i, m in enumerate(self.melds[seat])
                if m.kind is MeldKind.PUNG and m.first == kind
            )
            old = self.melds[seat][index]
            tiles = tuple(sort_tiles((*old.tiles, tile)))
            meld = Meld(MeldKind.ADDED_KONG, tiles, old.claimed, old.from_seat)
            self.melds[seat][index] = meld
        else:  # all four tiles of the kind, a red five among them
            taken = self._remove_kinds(seat, [tile] * COPIES)
            meld = Meld(MeldKind.CONCEALED_KONG, tuple(sort_tiles(taken)))
            self.melds[seat].append(meld)
        self.kongs_made += 1
        self._events.append(shared_event("kong", seat, tile, str(meld)))
        self.pay(scoring.kong_payments(self.preset, meld.kind, seat, None, self.seats_in_play()))
        self.turn = seat
        self.phase = Phase.TURN
        for part in self._call_watchers:
            part.after_call(seat, meld)
        if self.phase is not _OVER:
            self._draw(seat, replacement=True)

    def _next_draw(self, seat: int) -> None:
        if self.back - self.front == self._dead_wall:  # wall_left, without the property's call
            self.end_hand(Termination.WALL_DRAW)
            return
        self._draw(seat, replacement=False)

    def _draw(self, seat: int, *, replacement: bool) -> None:
        self.turn = seat
        self.phase = _TURN
        if replacement:
            tile = self._wall_part.take_replacement()
            self._dead_wall -= self._dead_wall_spent
        else:
            tile = self._take(front=True)
        self._add(seat, tile)
        self.drawn = tile
        self.after_kong = replacement
        self.after_bonus = False
        for part in self._draw_rules:
            part.on_draw(seat)
        if tile >= NUM_KINDS:  # the hand held no bonus tile before: only the drawn one can be
            self._replace_bonus(seat)
        drawn = self.drawn
        if drawn is None:
            self._events.append(Event("draw", seat, None, private=True))
        else:
            self._events.append(DRAW_EVENTS[seat][drawn])
        if self.drawn is None:  # the wall ran out while replacing bonus tiles
            self.end_hand(Termination.WALL_DRAW)

    def _apply_opening(self, action: Action) -> None:
        self.pending[action.seat] = action
        if not all(self._opening_done(seat) for seat in self.seats):
            return
        answers = [self.pending[seat] for seat in self.seats]
        self.pending = {}
        decider = self._decider
        assert decider is not None
        decider.decide([a for a in answers if a is not None])

    # ----------------------------------------------------------------- wins and settling

    def _settle_wins(
        self, winners: list[tuple[int, WinBy]], tile: Tile, source: int | None
    ) -> None:
        for seat, by in winners:
            hand = list(self.hands[seat])
            if by is not WinBy.SELF_DRAW:
                hand.append(tile)
            result = self._score(self._win_context(seat, hand, tile, by))
            paid = scoring.win_payments(self.preset, result, seat, by, source, self.seats_in_play())
            for part in self._settle_rules:  # a horse, a dealer bonus, liability, caps
                paid = part.settle_win(seat, by, source, paid)
            self.pay(paid)
            self.wins.append(
                WinRecord(
                    seat,
                    by,
                    tile,
                    source,
                    result,
                    tuple(deltas_of(paid, self.seat_count)),
                    tuple(sorted(hand)),
                    tuple(self.melds[seat]),
                    self.discards_made,
                )
            )
            self._events.append(shared_event("win", seat, tile, by.value))
        self._after_win.after_wins([seat for seat, _ in winners], tile, source)

    def seats_in_play(self) -> tuple[int, ...]:
        """The seats still in the hand (winners who left are not)."""
        left = self._left
        return tuple(seat for seat in self.seats if not left[seat])

    def end_by_deal_limit(self) -> list[Event]:
        """End the hand with no further winner: the table clock's deal limit ran out."""
        return self.apply(Action(0, ActionKind.TIME_UP))

    def end_hand(self, termination: Termination) -> None:
        """End the hand now: a wall draw settles its checks; an abortive draw moves no point."""
        if termination is Termination.WALL_DRAW:
            self._ready = tuple(seat for seat in self.seats_in_play() if self.is_ready(seat))
            self.pay(scoring.wall_draw_payments(self.preset, self))
            if self.wins:
                termination = Termination.WIN
        self.phase = Phase.OVER
        self.pending = {}
        self._termination = termination
        self._legal_cache.clear()
        self._events.append(shared_event("hand_over", detail=termination.value))

    # ----------------------------------------------------------------- seats

    def _next_seat(self, seat: int) -> int:
        """The first seat after `seat` still in the hand (`seat` itself when it is alone)."""
        left = self._left
        for other in SEATS_AFTER[self.seat_count][seat]:
            if not left[other]:
                return other
        return seat

    def _seats_after(self, seat: int) -> tuple[int, ...]:
        """The other seats still in the hand, in turn order from `seat`."""
        after = SEATS_AFTER[self.seat_count][seat]
        left = self._left
        if True in left:  # only where winners leave the hand
            return tuple(other for other in after if not left[other])
        return after

    # ----------------------------------------------------------------- policy and checks

    def default_action(self, seat: int) -> Action | None:
        """The timeout policy: take a win, pass optional calls, discard the drawn (or last) tile."""
        legal = self.legal_actions(seat)
        if not legal:
            return None
        for action in legal:
            if action.kind is ActionKind.WIN:
                return action
        if self.phase in (Phase.CLAIMS, Phase.ROB):
            return Action(seat, ActionKind.PASS)
        if self.phase is Phase.OPENING:
            assert self._decider is not None
            return self._decider.decision_default(seat, legal)
        discards = [a for a in legal if a.kind is ActionKind.DISCARD]
        if not discards:  # the last-draw phase: keep the tile
            return legal[0]
        for action in discards:
            if action.tile == self.drawn:
                return action
        last = self.hands[seat][-1]
        return next((a for a in discards if a.tile == last), discards[-1])

    def describe(self) -> str:
        """A one-line summary for errors and logs."""
        hands = " ".join(format_tiles(self.concealed(s)) for s in self.seats)
        return f"v{self.version} {self.phase} turn={self.turn} wall={self.wall_left} [{hands}]"
