"""Riichi's rule components (RULES.md "Riichi"): what `riichi` and `riichi-majsoul` add to the
shared loop, each as data plus a part on the loop's hooks (engine.rules' docstring).

- `Dora`: the indicators in the dead wall, turned at each platform's kan-dora timing.
- `KongLimit`: four kongs a hand at most, and only while a replacement tile is left.
- `Kuikae`: after a chi or pon, no discard of the called kind (nor a chi's other end).
- `RiichiDeclaration`: riichi with its discard (owned), the stick, ippatsu, double riichi, the
  locked hand, four riichi aborting; it reports the win's circumstances to scoring.
- `Furiten`: own discards, a passed winning tile (to the own discard), riichi (to the end).
- `RiichiAborts`: nine terminals (owned declaration), four winds, four kongs.
- `RiichiPayments`: a win's payments from the whole hand (honba and the pot to the first winner
  in turn, pao), a seat's formal tenpai without karaten.

The presets themselves live in engine.presets_riichi, outside the playable list.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import ClassVar

from engine.actions import TILE_ACTIONS, Action, ActionKind, DeclaredKind, declare_kind
from engine.events import Event, Termination
from engine.hand import HandState, Phase
from engine.rules import Part, Rule, kong_keeps_waits
from engine.scoring.base import WinBy
from engine.scoring.riichi import (
    RIICHI_RULES,
    STICK,
    Table,
    hand_of,
    seat_payments,
    value_hand,
)
from engine.settlement import POT, Payment, Reason
from engine.tiles import COPIES, NUM_KINDS, ORPHANS, WINDS, Meld, MeldKind, Tile, kind_of

RIICHI = declare_kind("riichi")
NINE_TERMINALS = declare_kind("nine_terminals")

_CALLS_BARRING = (MeldKind.CHOW, MeldKind.PUNG)


# ------------------------------------------------------------------------------- dora


class KanDora(StrEnum):
    """When an open or added kong's new indicator is turned (a concealed kong's: at once)."""

    BEFORE_DISCARD = "before_discard"  # Tenhou: after the replacement draw, before the discard
    AFTER_DISCARD = "after_discard"  # Mahjong Soul: once the discard is not won on


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
            kind, used = MeldKind.CHOW, [t for t in action.tiles if t != claimed]
        else:  # a pung's action names the claimed tile only
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

    def apply_action(self, action: Action) -> None:
        state, seat = self.state, action.seat
        self.declaring = seat
        untouched = state.calls_made == 0 and state.kongs_made == 0
        self.declaring_double = untouched and not state.ponds[seat]
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
            state.end_hand(Termination.ABORTIVE_DRAW)

    def after_call(self, seat: int, meld: Meld) -> None:
        if self.declaring is not None and meld.from_seat == self.declaring:
            self._stands(self.declaring)
        self.ippatsu = [False] * len(self.ippatsu)  # any call breaks every ippatsu

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
        ):
            actions.append(TILE_ACTIONS[ActionKind.CONCEALED_KONG][seat][kind])
        return actions

    def may_claim(self, seat: int, tile: Tile) -> bool:
        return not self.declared[seat]  # a locked hand only wins

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


RiichiDeclaration.part = RiichiPart


# ------------------------------------------------------------------------------- furiten


@dataclass(frozen=True, slots=True)
class Furiten(Rule):
    """No win on another's tile while a wait is in the own discards, after passing a winning
    tile since the own last discard, or (in riichi) after passing one at all."""


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

    def after_discard_passed(self, seat: int, tile: Tile) -> None:
        """A tile that completes a hand's shape passes it too (a win with no yaku not offered)."""
        state = self.state
        for other in state.seats:
            if other == seat:
                continue
            counts = state.tile_counts(other)
            counts[kind_of(tile)] += 1
            if state.is_win_counts(counts):
                self._missed(other)

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
        self.state.end_hand(Termination.ABORTIVE_DRAW)

    def after_discard_passed(self, seat: int, tile: Tile) -> None:
        state = self.state
        if state.is_over:
            return
        seats = state.seat_count
        if self.rule.four_winds and state.discards_made == seats and self._untouched():
            firsts = {pond[0] for pond in state.ponds if len(pond) == 1}
            if len(firsts) == 1 and firsts <= set(WINDS):
                state.end_hand(Termination.ABORTIVE_DRAW)
                return
        if state.kongs_made >= self.rule.kongs:
            owners = [s for s in state.seats if any(m.kind.is_kong for m in state.melds[s])]
            if len(owners) >= 2:
                state.end_hand(Termination.ABORTIVE_DRAW)


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


RiichiPayments.part = RiichiPaymentsPart
