"""Riichi's rule components (RULES.md "Riichi"): what `riichi` and `riichi-majsoul` add to the
shared loop, each as data plus a part on the loop's hooks (engine.parts' docstring).

- `Dora`: the indicators in the dead wall, turned at each platform's kan-dora timing.
- `KongLimit`: four kongs a hand at most, and only while a replacement tile is left.
- `Kuikae`: after a chi or pon, no discard of the called kind (nor a chi's other end).
- `RiichiDeclaration`: riichi with its discard (owned), the stick, ippatsu, double riichi, the
  locked hand (a kong only where waits and readings stay), four riichi aborting; it reports
  the win's circumstances to scoring.
- `Furiten`: own discards, a winning tile passed or called by another (to the own discard; yaku
  or not), riichi (to the end).
- `RiichiAborts`: nine terminals (owned declaration), four winds, four kongs (the discard after
  the fourth may only be ronned).
- `RiichiPayments`: a win's payments from the whole hand (honba and the pot to the first winner
  in turn, pao), a seat's formal tenpai without karaten.

The presets themselves live in engine.families.riichi.presets, outside the playable list.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import TYPE_CHECKING, ClassVar

from engine.actions import TILE_ACTIONS, Action, ActionKind, DeclaredKind, declare_kind
from engine.decompose import decompositions
from engine.events import Event, Phase, Termination
from engine.families.riichi.scoring import (
    RIICHI_RULES,
    STICK,
    Table,
    hand_of,
    nagashi,
    seat_payments,
    value_hand,
)
from engine.families.riichi.yaku_routes import open_yaku_route
from engine.i18n import Text
from engine.parts import Part, Rule
from engine.rules import kong_keeps_waits
from engine.scoring.base import WinBy
from engine.settlement import POT, Payment, Reason
from engine.table_facts import NO_FACTS, Indicators, TableFacts
from engine.tiles import (
    COPIES,
    DRAGONS,
    NUM_KINDS,
    ORPHANS,
    WINDS,
    Meld,
    MeldKind,
    Tile,
    counts_of,
    kind_of,
)

if TYPE_CHECKING:
    from engine.hand import HandState

RIICHI = declare_kind("riichi")
NINE_TERMINALS = declare_kind("nine_terminals")

_CALLS_BARRING = (MeldKind.CHOW, MeldKind.PUNG)
_CALLS_FROM_DISCARD = (MeldKind.CHOW, MeldKind.PUNG, MeldKind.KONG)


# ------------------------------------------------------------------------------- dora


class KanDora(StrEnum):
    """When an open or added kong's new indicator is turned (a concealed kong's: at once)."""

    BEFORE_DISCARD = "before_discard"  # Tenhou: after the replacement draw, before the discard
    AFTER_DISCARD = "after_discard"  # Mahjong Soul: once the discard is not won on


def dora_kind(indicator: Tile, kinds: frozenset[Tile]) -> Tile:
    """The dora an indicator points at: the next kind of its group that the tile set `kinds`
    holds (9 to 1 in each suit, N to E, Red to White), so sanma's 1m points at 9m.

    >>> dora_kind(0, frozenset(range(NUM_KINDS))), dora_kind(0, frozenset({0, 8}))
    (1, 8)
    >>> dora_kind(30, frozenset(WINDS)), dora_kind(33, frozenset(range(NUM_KINDS)))
    (27, 31)
    """
    kind = kind_of(indicator)
    start, size = (kind // 9 * 9, 9) if kind < 27 else (27, 4) if kind < 31 else (31, 3)
    for step in range(1, size + 1):
        found = start + (kind - start + step) % size
        if found in kinds:
            return found
    raise ValueError(f"no kind of {indicator}'s group in the tile set")


@dataclass(frozen=True, slots=True)
class Dora(Rule):
    """The dead wall's indicators: the first five of `WallPart.indicators()` are the dora
    indicators in the order turned, the five after them the ura indicators under them."""

    open_kong: KanDora = KanDora.BEFORE_DISCARD
    per_kind: int = 5  # indicator positions of each kind (dora, ura)


class DoraPart(Part):
    def __init__(self, rule: Dora, state: HandState) -> None:
        super().__init__(rule, state)
        self.turned = 1  # indicators turned: one at the deal, one more per kong
        self.waiting = 0  # open or added kongs whose indicator is not turned yet

    def after_deal(self) -> None:
        self.state.emit(Event("dora_indicator", tile=self.dora_indicators()[0]))

    def dora_indicators(self) -> tuple[Tile, ...]:
        return self.state.wall_part.indicators()[: self.turned]

    def dora_kinds(self) -> tuple[Tile, ...]:
        """The kinds the turned indicators make dora (one per indicator), in the preset's set."""
        kinds = self.state.preset.tile_kinds
        return tuple(dora_kind(t, kinds) for t in self.dora_indicators())

    def ura_indicators(self) -> tuple[Tile, ...]:
        per_kind = self.rule.per_kind
        return self.state.wall_part.indicators()[per_kind : per_kind + self.turned]

    def _turn(self, count: int = 1) -> None:
        for _ in range(count):
            self.turned += 1
            self.state.emit(Event("dora_indicator", tile=self.dora_indicators()[-1]))

    def _turn_waiting(self) -> None:
        waiting, self.waiting = self.waiting, 0
        self._turn(waiting)

    def after_call(self, seat: int, meld: Meld) -> None:
        self._turn_waiting()  # a kong's discard was called, or another kong follows it
        if meld.kind is MeldKind.CONCEALED_KONG:
            self._turn()
        elif meld.kind.is_kong:
            self.waiting += 1

    def on_discard(self, seat: int, tile: Tile) -> None:
        if self.rule.open_kong is KanDora.BEFORE_DISCARD:
            self._turn_waiting()

    def after_discard_passed(self, seat: int, tile: Tile) -> None:
        self._turn_waiting()

    def context(self, seat: int) -> dict[str, object]:
        return {"dora": self.dora_indicators(), "ura": self.ura_indicators()}

    def table_facts(self) -> TableFacts:
        """The indicators turned so far and the positions still face down; the ura indicators
        only once a seat in riichi has won (before, and for any other win, they stay hidden)."""
        face_down = max(0, self.rule.per_kind - self.turned)
        shown = [Indicators("dora", self.dora_indicators(), face_down)]
        riichi = self.state.part_of(RiichiPart)
        if riichi is not None and any(riichi.declared[w.seat] for w in self.state.wins):
            shown.append(Indicators("ura", self.ura_indicators()))
        return TableFacts(indicators=tuple(shown))


Dora.part = DoraPart


# ------------------------------------------------------------------------------- kongs


@dataclass(frozen=True, slots=True)
class KongLimit(Rule):
    """At most `most` kongs in a hand, each while the dead wall has a replacement for it."""

    most: int = 4


class KongLimitPart(Part):
    def may_kong(self, seat: int, tile: Tile) -> bool:
        state = self.state
        return state.kongs_made < self.rule.most and state.wall_part.can_replace()

    def allows_call(self, seat: int, action: Action) -> bool:
        return action.kind is not ActionKind.KONG or self.may_kong(seat, action.tile)


KongLimit.part = KongLimitPart


# ------------------------------------------------------------------------------- kuikae


def barred_after(kind: MeldKind, tiles: Sequence[Tile], claimed: Tile) -> frozenset[Tile]:
    """The kinds a caller may not discard next: the called kind, and after a chi taken at one
    end of its run the kind beyond the other end (3-4 with 5 taken bars 2).

    >>> sorted(barred_after(MeldKind.CHOW, (2, 3, 4), 4))
    [1, 4]
    >>> sorted(barred_after(MeldKind.CHOW, (0, 1, 2), 1))
    [1]
    """
    # a red five is its five: the kinds are compared, whatever physical tiles the meld holds
    claimed, tiles = kind_of(claimed), [kind_of(t) for t in tiles]
    barred = {claimed}
    if kind is MeldKind.CHOW:
        low, high = min(tiles), max(tiles)
        if claimed == low and high % 9 != 8:
            barred.add(high + 1)
        elif claimed == high and low % 9 != 0:
            barred.add(low - 1)
    return frozenset(barred)


@dataclass(frozen=True, slots=True)
class Kuikae(Rule):
    """No swap-calling: after a chi or pon the next discard is not of a barred kind, and a call
    that would leave only barred kinds is not offered."""


class KuikaePart(Part):
    def __init__(self, rule: Kuikae, state: HandState) -> None:
        super().__init__(rule, state)
        self.barred: list[frozenset[Tile]] = [frozenset()] * state.seat_count

    def after_call(self, seat: int, meld: Meld) -> None:
        if meld.kind in _CALLS_BARRING and meld.claimed is not None:
            self.barred[seat] = barred_after(meld.kind, meld.tiles, meld.claimed)

    def on_discard(self, seat: int, tile: Tile) -> None:
        self.barred[seat] = frozenset()

    def discard_choices(self, seat: int) -> list[Tile] | None:
        barred = self.barred[seat]
        if not barred:
            return None
        counts = self.state.held_counts(seat)
        return [t for t in range(NUM_KINDS) if counts[t] and t not in barred] or None

    def allows_call(self, seat: int, action: Action) -> bool:
        if action.kind not in (ActionKind.CHOW, ActionKind.PUNG):
            return True
        assert self.state.claim_tile is not None
        claimed = kind_of(self.state.claim_tile)  # calls name kinds; a red five is its five
        counts = self.state.tile_counts(seat)
        if action.kind is ActionKind.CHOW:
            kinds = [kind_of(t) for t in action.tiles]  # a chow may name a red five
            kinds.remove(claimed)
            kind, used = MeldKind.CHOW, kinds
        else:  # a pung gives two of the claimed kind, whichever physical tiles it names
            kind, used = MeldKind.PUNG, [claimed, claimed]
        for tile in used:
            counts[tile] -= 1
        barred = barred_after(kind, action.tiles, claimed)
        return any(count and t not in barred for t, count in enumerate(counts))


Kuikae.part = KuikaePart


# ------------------------------------------------------------------------------- riichi


@dataclass(frozen=True, slots=True)
class RiichiDeclaration(Rule):
    """Riichi with a discard: a closed hand (concealed kongs allowed), ready after the
    discard, at least `stick` points and `least_wall` tiles left in the live wall. The stick goes
    into the pot once the discard is not won on; then the hand is locked. `riichi_abort` riichi
    stand: an abortive draw."""

    stick: int = STICK
    least_wall: int = 4
    riichi_abort: int = 4


class RiichiPart(Part):
    owns = frozenset({RIICHI})
    computer_declares = frozenset({RIICHI})  # a beginner declares whenever it may
    labels: ClassVar[Mapping[DeclaredKind, str]] = {RIICHI: "bot.declare.riichi"}
    with_discard = frozenset({RIICHI})  # the front ends ask which tile, offering these only

    def __init__(self, rule: RiichiDeclaration, state: HandState) -> None:
        super().__init__(rule, state)
        count = state.seat_count
        self.declared = [False] * count  # the stick is paid: the hand is locked
        self.double = [False] * count
        self.ippatsu = [False] * count
        self.declaring: int | None = None  # the seat whose riichi discard is open
        self.declaring_double = False
        self.discarded_at: list[int | None] = [None] * count  # the riichi discard's pond index
        self.aborted = False  # the last stick ended the hand (four riichi)

    def _closed(self, seat: int) -> bool:
        return all(m.kind is MeldKind.CONCEALED_KONG for m in self.state.melds[seat])

    def offer(self, seat: int) -> list[Action]:
        state, rule = self.state, self.rule
        if self.declared[seat] or state.drawn is None or not self._closed(seat):
            return []
        if state.wall_left < rule.least_wall:
            return []
        points = state.setup.points
        if points and points[seat] + state.points[seat] < rule.stick:
            return []
        hand = state.hands[seat]
        offered = []
        for tile in sorted(set(hand)):
            rest = list(hand)
            rest.remove(tile)
            if state.waits(rest):
                offered.append(Action(seat, RIICHI, (tile,)))
        return offered

    def refusal(self, seat: int) -> Text | None:
        """Why riichi is not offered now, the first reason `offer` meets (or, with every
        condition met, that no discard leaves the hand ready)."""
        state, rule = self.state, self.rule
        if self.declared[seat] or self.declaring == seat:
            key = "already"
        elif state.turn != seat or state.drawn is None:
            key = "not_your_turn"
        elif not self._closed(seat):
            key = "open"
        elif state.wall_left < rule.least_wall:
            key = "wall"
        elif state.setup.points and state.setup.points[seat] + state.points[seat] < rule.stick:
            key = "points"
        else:
            key = "not_ready"
        return Text(f"riichi.refusal.{key}", {"tiles": rule.least_wall, "stick": rule.stick})

    def apply_action(self, action: Action) -> None:
        state, seat = self.state, action.seat
        self.declaring = seat
        untouched = state.calls_made == 0 and state.kongs_made == 0
        self.declaring_double = untouched and not state.ponds[seat]
        self.discarded_at[seat] = len(state.ponds[seat])
        state.emit(Event("riichi", seat))
        state.discard(seat, action.tile)

    def _stands(self, seat: int) -> None:
        """The riichi discard was not won on: the stick is paid and the hand locked."""
        if self.declaring != seat:
            return
        state = self.state
        self.declaring = None
        self.declared[seat] = True
        self.double[seat] = self.declaring_double
        self.ippatsu[seat] = True
        state.pay([Payment(seat, POT, self.rule.stick, Reason.DEPOSIT)])
        if sum(self.declared) >= self.rule.riichi_abort:
            self.aborted = True
            state.end_hand(Termination.ABORTIVE_DRAW)

    def after_call(self, seat: int, meld: Meld) -> None:
        if self.declaring is not None and meld.from_seat == self.declaring:
            self._stands(self.declaring)
        self.ippatsu = [False] * len(self.ippatsu)  # any call breaks every ippatsu

    def after_interruption(self, seat: int) -> None:
        self.ippatsu = [False] * len(self.ippatsu)  # as a call does (sanma's nuki)

    def after_discard_passed(self, seat: int, tile: Tile) -> None:
        self._stands(seat)

    def on_discard(self, seat: int, tile: Tile) -> None:
        if self.declared[seat]:
            self.ippatsu[seat] = False

    def turn_actions(self, seat: int) -> list[Action] | None:
        """A locked hand discards its drawn tile, or makes a concealed kong of it that keeps
        its waits."""
        if not self.declared[seat]:
            return None
        state = self.state
        tile = state.drawn
        assert tile is not None, "a hand in riichi makes no calls: its turn starts with a draw"
        actions = [TILE_ACTIONS[ActionKind.DISCARD][seat][tile]]  # the physical tile drawn
        kind = kind_of(tile)  # a kong names its kind
        kong_part = state.part_of(KongLimitPart)
        if (
            state.wall_left > 0
            and state.held_counts(seat)[kind] == COPIES
            and (kong_part is None or kong_part.may_kong(seat, kind))
            and kong_keeps_waits(state, seat, kind)
            and self._keeps_readings(seat, kind)
        ):
            actions.append(TILE_ACTIONS[ActionKind.CONCEALED_KONG][seat][kind])
        return actions

    def _keeps_readings(self, seat: int, kind: Tile) -> bool:
        state = self.state
        hand = list(state.hands[seat])
        hand.remove(state.drawn)  # type: ignore[arg-type]
        return kong_keeps_readings(hand, kind, state.waits(hand))

    def may_claim(self, seat: int, tile: Tile) -> bool:
        return not self.declared[seat]  # a locked hand only wins

    def call_keeps_a_way(self, seat: int, call: Action) -> bool:
        """A call gives up riichi (and menzen tsumo, pinfu): the open hand needs a yaku of its
        own within reach (engine.families.riichi.yaku_routes)."""
        state = self.state
        tile = state.claim_tile
        assert tile is not None
        claimed = kind_of(tile)
        if call.kind is ActionKind.CHOW:
            meld = [kind_of(t) for t in call.tiles]
        else:  # a pung or an open kong names the claimed tile only
            meld = [claimed] * (COPIES if call.kind is ActionKind.KONG else 3)
        counts = state.tile_counts(seat)
        taken = list(meld)
        taken.remove(claimed)
        for kind in taken:
            counts[kind] -= 1
        melds = [list(m.kinds) for m in state.melds[seat]] + [meld]
        valued = {*DRAGONS, WINDS[seat], WINDS[state.round_wind]}
        return open_yaku_route(counts, melds, valued)

    def context(self, seat: int) -> dict[str, object]:
        state = self.state
        flags = set()
        if self.declared[seat]:
            flags.add("double_riichi" if self.double[seat] else "riichi")
        if self.ippatsu[seat]:
            flags.add("ippatsu")
        self_draw = state.phase is Phase.TURN and state.turn == seat
        untouched = state.calls_made == 0 and state.kongs_made == 0
        if self_draw and seat != 0 and untouched and not state.ponds[seat]:
            flags.add("chiihou")
        return {"rule_flags": frozenset(flags)}

    def table_facts(self) -> TableFacts:
        """The seats whose stick is down (until a win takes the pot), and each riichi discard
        turned sideways (when it was called, the seat's next discard instead, as Tenhou shows
        it)."""
        state = self.state
        turned = []
        for seat, at in enumerate(self.discarded_at):
            if at is None:
                continue
            while at in state.claimed[seat]:
                at += 1
            if at < len(state.ponds[seat]):
                turned.append((seat, at))
        staked = () if state.wins else self.declared  # a win took the sticks off the table
        return replace(
            declarations(state),
            stick=self.rule.stick,
            declared=tuple(s for s, stake in enumerate(staked) if stake),
            turned=tuple(turned),
            ending="four_riichi" if self.aborted else "",
        )


RiichiDeclaration.part = RiichiPart


def declarations(state: HandState) -> TableFacts:
    """Per seat, the pond index of its riichi discard (-1: none) and the tiles others discarded
    since (read back from the log: a riichi is declared with its discard); none before a
    declaration."""
    count = state.seat_count
    at = [-1] * count
    after: list[list[Tile]] = [[] for _ in range(count)]
    discards = [0] * count
    declared = False
    for action in state.log:
        kind = action.kind
        if kind == RIICHI:  # by name: a deep copy of the hand copies the kind too
            at[action.seat] = discards[action.seat]
            declared = True
        elif kind is not ActionKind.DISCARD:
            continue
        discards[action.seat] += 1
        for seat in range(count):
            if at[seat] >= 0 and seat != action.seat:
                after[seat].append(kind_of(action.tiles[0]))
    if not declared:
        return NO_FACTS
    return TableFacts(declared_at=tuple(at), after_declared=tuple(tuple(t) for t in after))


def kong_keeps_readings(hand: Sequence[Tile], kind: Tile, waits: Sequence[Tile]) -> bool:
    """Whether `kind` is a triplet in every reading of the ready `hand` completed by each of its
    `waits` (Tenhou: a locked hand's kong may not change what the hand means, even where the
    waits stay: 1112344m reads 11 + 123 + 444 with a 4m, so 1m may not be set aside).

    >>> from engine.tiles import parse_tile, parse_tiles
    >>> kong_keeps_readings(parse_tiles("1112344m567p234s"), 0, parse_tiles("1m4m"))
    False
    >>> kong_keeps_readings(parse_tiles("111z234m567p345s9s"), parse_tile("1z"), [parse_tile("9s")])
    True
    """
    kinds = [kind_of(t) for t in hand]
    triplet = (MeldKind.PUNG, kind)
    for wait in waits:
        readings = decompositions(counts_of([*kinds, kind_of(wait)]))
        if any(triplet not in reading.sets for reading in readings):
            return False
    return True


# ------------------------------------------------------------------------------- furiten


@dataclass(frozen=True, slots=True)
class Furiten(Rule):
    """No win on another's tile while a wait is in the own discards, after a winning tile went
    by since the own last discard (passed, or called by another seat; with or without a yaku),
    or (in riichi) after one went by at all."""


class FuritenPart(Part):
    def __init__(self, rule: Furiten, state: HandState) -> None:
        super().__init__(rule, state)
        count = state.seat_count
        self.passed = [False] * count  # to the own next discard
        self.for_the_hand = [False] * count  # a winning tile passed in riichi

    def _missed(self, seat: int) -> None:
        riichi = self.state.part_of(RiichiPart)
        if riichi is not None and riichi.declared[seat]:
            self.for_the_hand[seat] = True
        else:
            self.passed[seat] = True

    def on_pass(self, seat: int, offered: Sequence[Action]) -> None:
        if any(a.kind is ActionKind.WIN for a in offered):
            self._missed(seat)

    def _went_by(self, tile: Tile, *skipped: int) -> None:
        """A discard that completes a seat's shape went by it, a win offered or not (Tenhou: the
        tile is among the waits, yaku or no yaku)."""
        state = self.state
        for other in state.seats:
            if other in skipped:
                continue
            counts = state.tile_counts(other)
            counts[kind_of(tile)] += 1
            if state.is_win_counts(counts):
                self._missed(other)

    def after_discard_passed(self, seat: int, tile: Tile) -> None:
        self._went_by(tile, seat)

    def after_call(self, seat: int, meld: Meld) -> None:
        """A discard another seat called went by every seat but the caller's and its own (an
        added kong keeps its pung's claimed tile: that tile went by when it was called)."""
        if meld.kind in _CALLS_FROM_DISCARD and meld.from_seat is not None:
            assert meld.claimed is not None
            self._went_by(meld.claimed, seat, meld.from_seat)

    def on_discard(self, seat: int, tile: Tile) -> None:
        self.passed[seat] = False

    def is_furiten(self, seat: int) -> bool:
        """Whether `seat` may not win on another's tile now (its owner's view says so)."""
        if self.passed[seat] or self.for_the_hand[seat]:
            return True
        state = self.state
        hand = state.hands[seat]
        if len(hand) % 3 != 1:
            return False
        pond = set(state.ponds[seat])
        return any(wait in pond for wait in state.waits(hand))

    def may_win(self, seat: int, counts: list[int], tile: Tile, by: WinBy) -> bool:
        return by is WinBy.SELF_DRAW or not self.is_furiten(seat)

    def private_facts(self, seat: int) -> tuple[str, ...]:
        return ("furiten",) if self.is_furiten(seat) else ()  # the owner's hand says so


Furiten.part = FuritenPart


# ------------------------------------------------------------------------------- abortive draws


@dataclass(frozen=True, slots=True)
class RiichiAborts(Rule):
    """Abortive draws: nine different terminals and honours in a first draw with no call before
    (declared, not forced), the same wind as all four first discards with no call (`four_winds`),
    four kongs by two or more players once the discard after the fourth passes."""

    nine_kinds: int = 9
    four_winds: bool = True
    kongs: int = 4


class RiichiAbortsPart(Part):
    owns = frozenset({NINE_TERMINALS})
    labels: ClassVar[Mapping[DeclaredKind, str]] = {NINE_TERMINALS: "bot.declare.nine_terminals"}

    def __init__(self, rule: RiichiAborts, state: HandState) -> None:
        super().__init__(rule, state)
        self.ended = ""  # the abortive draw's kind, once this rule ended the hand

    def _abort(self, kind: str) -> None:
        self.ended = kind
        self.state.end_hand(Termination.ABORTIVE_DRAW)

    def table_facts(self) -> TableFacts | None:
        return TableFacts(ending=self.ended) if self.ended else None

    def _untouched(self) -> bool:
        state = self.state
        return state.calls_made == 0 and state.kongs_made == 0

    def offer(self, seat: int) -> list[Action]:
        state = self.state
        if state.drawn is None or state.ponds[seat] or not self._untouched():
            return []
        counts = state.held_counts(seat)
        if sum(1 for t in ORPHANS if counts[t]) < self.rule.nine_kinds:
            return []
        return [Action(seat, NINE_TERMINALS)]

    def apply_action(self, action: Action) -> None:
        self.state.emit(Event("nine_terminals", action.seat))
        self._abort("nine_terminals")

    def _four_kongs_shared(self) -> bool:
        state = self.state
        if state.kongs_made < self.rule.kongs:
            return False
        owners = [s for s in state.seats if any(m.kind.is_kong for m in state.melds[s])]
        return len(owners) >= 2

    def may_claim(self, seat: int, tile: Tile) -> bool:
        """The discard after a fourth kong by two or more players may only be won on: the hand
        ends when it passes (Tenhou: no call comes between)."""
        return not self._four_kongs_shared()

    def after_discard_passed(self, seat: int, tile: Tile) -> None:
        state = self.state
        if state.is_over:
            return
        seats = state.seat_count
        if self.rule.four_winds and state.discards_made == seats and self._untouched():
            firsts = {pond[0] for pond in state.ponds if len(pond) == 1}
            if len(firsts) == 1 and firsts <= set(WINDS):
                self._abort("four_winds")
                return
        if self._four_kongs_shared():
            self._abort("four_kongs")


RiichiAborts.part = RiichiAbortsPart


# ------------------------------------------------------------------------------- payments


@dataclass(frozen=True, slots=True)
class RiichiPayments(Rule):
    """A win's payments valued from the whole hand: honba and the pot (the table's and this
    hand's sticks) to the first winner in turn, pao; at a wall draw, a wait on a kind the seat
    holds all four of (karaten) is not tenpai."""


class RiichiPaymentsPart(Part):
    def settle_win(
        self, seat: int, by: WinBy, source: int | None, payments: list[Payment]
    ) -> list[Payment]:
        state = self.state
        rules = RIICHI_RULES[state.preset.id]
        tile = state.drawn if by is WinBy.SELF_DRAW else state.claim_tile
        assert tile is not None
        hand = hand_of(state.win_context(seat, tile, by))
        value = value_hand(rules, hand)
        first = not state.wins
        paid = seat_payments(rules, value, hand, Table(source, state.setup.honba if first else 0))
        pot = state.setup.pot + state.pot_change
        if first and pot:
            paid.append(Payment(POT, seat, pot, Reason.POT))
        return paid

    def ready(self, seat: int) -> bool | None:
        state = self.state
        hand = state.hands[seat]
        if len(hand) % 3 != 1:
            return None
        counts = state.tile_counts(seat)
        for meld in state.melds[seat]:
            for tile in meld.tiles:
                counts[kind_of(tile)] += 1
        return any(counts[kind_of(wait)] < COPIES for wait in state.waits(hand))

    def table_facts(self) -> TableFacts:
        """The honba and the pot (the table's and this hand's sticks); once the hand is over,
        what the honba added to the first win, and at a wall draw the nagashi mangan paid or
        else who was tenpai (tenpai is paid)."""
        state = self.state
        rules = RIICHI_RULES[state.preset.id]
        honba = state.setup.honba
        facts = TableFacts(honba=honba, pot=state.setup.pot + state.pot_change)
        outcome = state.outcome()
        if outcome is None:
            return facts
        if state.wins:
            first = state.wins[0]
            ron = first.by is not WinBy.SELF_DRAW
            paid = rules.honba_ron if ron else rules.honba_each * (state.seat_count - 1)
            return replace(facts, honba_paid=honba * paid)
        if outcome.termination is not Termination.WALL_DRAW:
            return facts
        found = tuple(s for s in state.seats if nagashi(state, s))
        return replace(facts, nagashi=found) if found else replace(facts, ready=outcome.ready)


RiichiPayments.part = RiichiPaymentsPart
