"""Test-only presets: small rule sets that prove each hook point of engine.rules.

They are not public presets (nothing registers them in engine.presets.PRESETS); the engine takes
any `Preset` value, so tests build these to play whole hands at 2 and 3 seats and with the
components the coming presets need.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, ClassVar

from engine.actions import Action, ActionKind, DeclaredKind, declare_kind
from engine.events import Event, Termination
from engine.families.selfdraw.rules import mirror_seat
from engine.game import FinalScore, GameRule, RepeatCount, Ties
from engine.parts import Part, Rule
from engine.presets import HKOS, PRESETS, ConcealedRob, MultiWin, Preset
from engine.rules import FixedKongs, OpenHandToWin, PassEnds, PassRule, Wilds
from engine.scoring.base import WinBy
from engine.settlement import POT, Payment, Reason

if TYPE_CHECKING:
    from engine.hand import HandState
from engine.tiles import (
    COPIES,
    RED,
    RED_FIVES,
    Meld,
    MeldKind,
    Tile,
    kind_of,
    parse_tile,
    sort_tiles,
    with_red_fives,
)

_SUITS = tuple(t for t in range(27) for _ in range(COPIES))
_NO_FLOWERS = tuple(t for t in range(34) for _ in range(COPIES))

# Hong Kong Old Style at 4 (the default), 3 or 2 seats
SMALL_HK = replace(HKOS, id="test-small-hk", name="Small HK", seat_counts=(4, 3, 2))

# Sichuan Swap Three at three seats (the swap moves one or two seats on)
TRIO_BLOOD = replace(
    PRESETS["sichuan-swap3"], id="test-trio-blood", name="Trio blood battle", seat_counts=(3,)
)

# Sichuan blood flow with discard three at two seats
DUO_FLOW = replace(
    PRESETS["bloodflow-discard3"], id="test-duo-flow", name="Duo blood flow", seat_counts=(2,)
)

# a Taiwanese-style dead wall of 16 and a passed win blocking its tile kind to the own discard
DEAD_WALL = Preset(
    id="test-dead-wall",
    name="Dead wall",
    summary="",
    family="sichuan",
    scoring=PRESETS["sichuan-bb"].scoring,
    advice=PRESETS["sichuan-bb"].advice,
    wall=_NO_FLOWERS,
    multi_win=MultiWin.MULTIPLE,
    dead_wall=16,
    rules=(PassRule(ActionKind.WIN, PassEnds.OWN_DISCARD, block_kind_only=True),),
)

# the horse (guangdong) and birds (redwild): tiles set aside from the back at the deal
SET_ASIDE = replace(SMALL_HK, id="test-set-aside", set_aside=4, seat_counts=(4,))

# (the sichuan family scores every shape at 0 fan and up, so these tests' hands are wins)

# hubei-laizi's shape of play: red dragons are fixed kong tiles, 5p is wild, only an open hand
# may win, passing a pung blocks punging to the own next draw, the last 14 tiles are last draws
WILD_KONGS = Preset(
    id="test-wild-kongs",
    name="Wild kongs",
    summary="",
    family="sichuan",
    scoring=PRESETS["sichuan-bb"].scoring,
    advice=PRESETS["sichuan-bb"].advice,
    wall=_SUITS + (RED,) * COPIES,
    concealed_rob=ConcealedRob.NEVER,
    last_draws=14,
    seat_counts=(4, 3, 2),
    rules=(
        FixedKongs(frozenset({RED})),
        Wilds(frozenset({parse_tile("5p")})),
        OpenHandToWin(),
        PassRule(ActionKind.PUNG, PassEnds.OWN_DRAW, block_kind_only=False),
    ),
)


@dataclass(frozen=True, slots=True)
class MirrorSeat(Rule):
    """guangdong's horse in miniature: every win payment to or from `seat` is paid a second
    time with the dealer in its place (one between the dealer and the dealer vanishes)."""

    seat: int = 1


class MirrorSeatPart(Part):
    def settle_win(
        self, seat: int, by: WinBy, source: int | None, payments: list[Payment]
    ) -> list[Payment]:
        return mirror_seat(payments, self.rule.seat)


MirrorSeat.part = MirrorSeatPart

# Sichuan scoring without openings, seat 1 as the horse
HORSE = replace(
    PRESETS["sichuan-bb"],
    id="test-horse",
    after_win=PRESETS["hkos-3-v1"].after_win,
    rules=(MirrorSeat(1),),
)


# ------------------------------------------------------------------------------- mechanisms
# Each general mechanism Riichi will use, in miniature: a declaration a rule owns (offered beside
# the turn, robbable, replaced from the dead wall), a stake into the pot and the pot taken by a
# winner, hooks after calls and after a discard passes, an abortive draw.

LAY_ASIDE = declare_kind("lay_aside")
NORTH = parse_tile("4z")


@dataclass(frozen=True, slots=True)
class LayAside(Rule):
    """sanma's nuki in miniature: on the own turn a held `kind` may be laid aside (a robbing win
    may take it first); it leaves play, its owner stakes `stake` into the pot and draws a
    replacement from the dead wall."""

    kind: Tile = NORTH
    stake: int = 1


class LayAsidePart(Part):
    owns = frozenset({LAY_ASIDE})
    labels: ClassVar[Mapping[DeclaredKind, str]] = {LAY_ASIDE: "bot.declare.set_aside"}

    def __init__(self, rule: LayAside, state: object) -> None:
        super().__init__(rule, state)  # type: ignore[arg-type]
        self.laid: list[list[Tile]] = [[] for _ in self.state.seats]

    def offer(self, seat: int) -> list[Action]:
        state, kind = self.state, self.rule.kind
        if state.held_counts(seat)[kind] and state.wall_left and state.wall_part.can_replace():
            return [Action(seat, LAY_ASIDE, (kind,))]
        return []

    def apply_action(self, action: Action) -> None:
        self.state.emit(Event("lay_aside", action.seat, action.tile))
        self.state.open_rob_window(action, action.tile)

    def commit(self, declared: Action) -> None:
        state, seat = self.state, declared.seat
        state.remove_tile(seat, declared.tile)
        self.laid[seat].append(declared.tile)
        state.pay([Payment(seat, POT, self.rule.stake, Reason.DEPOSIT)])
        state.draw_replacement(seat)

    def held_tiles(self) -> list[Tile]:
        return [t for tiles in self.laid for t in tiles]


LayAside.part = LayAsidePart


STAKE = declare_kind("stake")


@dataclass(frozen=True, slots=True)
class Stake(Rule):
    """The riichi stick in miniature: a seat with at least `stake` points (the hand's setup)
    may discard a tile that leaves it ready with a stake (once a hand); the stake goes into the
    pot once the discard is not won on (it passes, or is called)."""

    stake: int = 1


class StakePart(Part):
    owns = frozenset({STAKE})
    labels: ClassVar[Mapping[DeclaredKind, str]] = {STAKE: "bot.declare.stake"}
    with_discard = frozenset({STAKE})

    def __init__(self, rule: Stake, state: object) -> None:
        super().__init__(rule, state)  # type: ignore[arg-type]
        self.staking: int | None = None  # the seat whose staked discard is open
        self.staked: list[int] = []

    def offer(self, seat: int) -> list[Action]:
        """A stake with each tile whose discard leaves the seat ready (as riichi's)."""
        state = self.state
        points = state.setup.points
        rich = not points or points[seat] + state.points[seat] >= self.rule.stake
        if state.drawn is None or not rich or seat in self.staked:
            return []
        hand = state.hands[seat]
        allowed = []
        for tile in sort_tiles(set(hand)):
            rest = list(hand)
            rest.remove(tile)
            if state.waits(rest):
                allowed.append(Action(seat, STAKE, (tile,)))
        return allowed

    def apply_action(self, action: Action) -> None:
        self.staking = action.seat
        self.state.discard(action.seat, action.tile)

    def _paid(self, seat: int) -> None:
        if self.staking == seat:
            self.staking = None
            self.staked.append(seat)
            self.state.pay([Payment(seat, POT, self.rule.stake, Reason.DEPOSIT)])

    def after_call(self, seat: int, meld: Meld) -> None:
        if self.staking is not None and meld.from_seat == self.staking:
            self._paid(self.staking)

    def after_discard_passed(self, seat: int, tile: Tile) -> None:
        self._paid(seat)


Stake.part = StakePart


@dataclass(frozen=True, slots=True)
class PotToWinner(Rule):
    """The first winner takes the pot: what the table brought (`HandSetup.pot`) and the hand's
    stakes."""


class PotToWinnerPart(Part):
    def settle_win(
        self, seat: int, by: WinBy, source: int | None, payments: list[Payment]
    ) -> list[Payment]:
        state = self.state
        pot = state.setup.pot + state.pot_change
        if pot and not state.wins:
            return [*payments, Payment(POT, seat, pot, Reason.POT)]
        return payments


PotToWinner.part = PotToWinnerPart


@dataclass(frozen=True, slots=True)
class QuietAbort(Rule):
    """An abortive draw after `discards` discards passed unclaimed; calls and kongs are
    recorded as they happen (the hooks after a call and after a passed discard)."""

    discards: int = 48


class QuietAbortPart(Part):
    def __init__(self, rule: QuietAbort, state: object) -> None:
        super().__init__(rule, state)  # type: ignore[arg-type]
        self.passed: list[tuple[int, Tile, tuple[int, ...]]] = []  # (seat, tile, who waited on it)
        self.calls: list[tuple[int, MeldKind]] = []

    def after_call(self, seat: int, meld: Meld) -> None:
        self.calls.append((seat, meld.kind))

    def after_discard_passed(self, seat: int, tile: Tile) -> None:
        state = self.state
        kind = kind_of(tile)  # waits are kinds; a red five passes as its five
        waiting = tuple(s for s in state.seats if s != seat and kind in state.waits_of(s))
        self.passed.append((seat, tile, waiting))
        if len(self.passed) >= self.rule.discards:
            state.end_hand(Termination.ABORTIVE_DRAW)


QuietAbort.part = QuietAbortPart

MECHANISMS = Preset(
    id="test-mechanisms",
    name="Mechanisms",
    summary="",
    family="sichuan",
    scoring=PRESETS["sichuan-bb"].scoring,
    advice=PRESETS["sichuan-bb"].advice,
    wall=with_red_fives(_NO_FLOWERS, RED_FIVES),  # one red five of each suit, as Riichi's
    multi_win=MultiWin.MULTIPLE,
    winners_abort=3,
    dead_wall=14,
    replacements=8,
    seat_counts=(4, 3),
    rules=(LayAside(), Stake(), PotToWinner(), QuietAbort()),
    start_points=20,  # a stake needs points to stake
    # a game of six hands placed by seat order with uma; honba counted as Riichi counts it, and
    # the pot carried from hand to hand, what is left going to the leader at the end
    game=GameRule(
        hands=6,
        ties=Ties.SEAT_ORDER,
        score=FinalScore(base=20, per=1, uma=(10, 5, -5, -10)),
        repeats=RepeatCount(),
        pot_to_leader=True,
        rates_per_game=True,
    ),
)


def declaring(computer: Callable[[HandState, int], Action]) -> Callable[[HandState, int], Action]:
    """A player that makes every declaration the mechanisms preset offers it (a tile laid
    aside, a stake with its first tile), else plays as `computer`: so stakes fill the pot."""

    def choose(state: HandState, seat: int) -> Action:
        legal = state.legal_actions(seat)
        declared = [a for a in legal if a.kind is LAY_ASIDE or a.kind is STAKE]
        return declared[0] if declared else computer(state, seat)

    return choose


TEST_PRESETS = (SMALL_HK, TRIO_BLOOD, DUO_FLOW, DEAD_WALL, SET_ASIDE, WILD_KONGS, HORSE, MECHANISMS)
