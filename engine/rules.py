"""The shared rule components: what a preset adds to the shared loop (openings, the void suit,
what a win does, robbing, the circumstances reported to scoring, pass rules, wilds, fixed kongs,
an open hand to win), each a frozen `Rule` and the `Part` that plays it in one hand (the Part API
and its hook points: `engine.parts`; the wall: `engine.wall`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from engine.actions import TILE_ACTIONS, Action, ActionKind
from engine.events import Event, Termination
from engine.kinds import AfterWin, ConcealedRob, MultiWin, Opening
from engine.parts import Part, Rule
from engine.scoring.base import WinBy
from engine.table_facts import SeatTiles, TableFacts
from engine.tiles import ORPHANS, MeldKind, Tile, kind_of, suit_of
from engine.wall import WallRule

if TYPE_CHECKING:
    from engine.hand import HandState
    from engine.preset import Preset

_SUIT_SLICES = {suit: slice(i * 9, i * 9 + 9) for i, suit in enumerate("mps")}
_SUIT_KINDS = {suit: range(i * 9, i * 9 + 9) for i, suit in enumerate("mps")}


# ------------------------------------------------------------------------------- openings


_OPENING_KIND = {
    Opening.SWAP_THREE: ActionKind.SWAP,
    Opening.DISCARD_THREE: ActionKind.REMOVE,
    Opening.VOID: ActionKind.VOID,
}


@dataclass(frozen=True, slots=True)
class Openings(Rule):
    """Decisions every seat makes at once before the first turn (seed 004: swap three, discard
    three, void declaration), in order."""

    stages: tuple[Opening, ...]


# The three-tile picks offered at the openings, built once per seat, kind and pick: every seat is
# offered dozens of them at each deal, and actions are immutable values.
_PICK_ACTIONS: dict[tuple[int, ActionKind, tuple[Tile, ...]], Action] = {}


def _pick_action(seat: int, kind: ActionKind, pick: tuple[Tile, ...]) -> Action:
    found = _PICK_ACTIONS.get((seat, kind, pick))
    if found is None:
        found = _PICK_ACTIONS[seat, kind, pick] = Action(seat, kind, pick)
    return found


def _three_of_a_suit(hand: Sequence[Tile]) -> list[tuple[Tile, Tile, Tile]]:
    """Every different choice of three held tiles of one suit, sorted (each choice sorted):
    `sorted(set(combinations(...)))` per suit, made in order instead of made and sorted."""
    held = [0] * 27
    for tile in hand:
        if tile < 27:
            held[tile] += 1
    picks = []
    for base in (0, 9, 18):
        kinds = [k for k in range(base, base + 9) if held[k]]
        for i, first in enumerate(kinds):
            for j in range(i, len(kinds)):
                second = kinds[j]
                if second == first and held[first] < 2:
                    continue
                for third in kinds[j:]:
                    same = (first == third) + (second == third)  # copies of `third` before it
                    if held[third] > same:
                        picks.append((first, second, third))
    return picks


class OpeningsPart(Part):
    """Owns the opening kinds and the decisions every seat makes at once after the deal."""

    owns = frozenset(_OPENING_KIND.values())

    def __init__(self, rule: Openings, state: HandState) -> None:
        super().__init__(rule, state)
        self.stage = 0
        self.swap_direction: int | None = None
        self.removed: list[list[Tile]] = [[] for _ in range(state.seat_count)]

    @property
    def current(self) -> Opening:
        return self.rule.stages[self.stage]

    @property
    def done(self) -> bool:
        return self.stage == len(self.rule.stages)

    def after_deal(self) -> None:
        self.state.begin_decisions(self, self.current.value)

    def decision_actions(self, seat: int) -> list[Action]:
        kind = _OPENING_KIND[self.current]
        hand = self.state.hands[seat]
        if kind is ActionKind.VOID:
            return [Action(seat, kind, suit=s) for s in "mps"]
        return [_pick_action(seat, kind, pick) for pick in _three_of_a_suit(hand)]

    def decision_default(self, seat: int, legal: Sequence[Action]) -> Action:
        """The timeout choice: void the suit held least, else the first offered pick."""
        if self.current is Opening.VOID:
            held = [sum(1 for t in self.state.hands[seat] if suit_of(t) == s) for s in "mps"]
            return Action(seat, ActionKind.VOID, suit="mps"[held.index(min(held))])
        return legal[0]

    def decide(self, answers: list[Action]) -> None:
        """Every seat has answered the current stage: carry it out, move to the next (after
        the last, the dealer's turn: its 14th tile may have moved, so any held tile stands for
        the opening draw)."""
        state = self.state
        opening = self.current
        if opening is Opening.SWAP_THREE:
            self._swap([a.tiles for a in answers])
        elif opening is Opening.DISCARD_THREE:
            for answer in answers:
                for tile in answer.tiles:
                    state.remove_tile(answer.seat, tile)
                    self.removed[answer.seat].append(tile)
        else:
            void = state.part_of(VoidPart)
            assert void is not None, "a void opening needs the VoidSuit rule"
            void.declare([a.suit for a in answers])
        self.stage += 1
        if self.done:
            state.resume_turn(0, state.hands[0][-1])
        state.emit(Event("opening_done", detail=opening.value))

    def _swap(self, picks: list[tuple[Tile, ...]]) -> None:
        """All picks move at once in one direction drawn from the seed (1 = to the next seat)."""
        state = self.state
        count = state.seat_count
        direction = random.Random(f"{state.seed}:swap").choice(tuple(range(1, count)))
        self.swap_direction = direction
        for seat, pick in enumerate(picks):
            for tile in pick:
                state.remove_tile(seat, tile)
        for seat, pick in enumerate(picks):
            for tile in pick:
                state.add_tile((seat + direction) % count, tile)
        state.emit(Event("swap", detail=str(direction)))

    def held_tiles(self) -> list[Tile]:
        return [t for tiles in self.removed for t in tiles]


Openings.part = OpeningsPart


def opening_stage(state: HandState) -> int:
    """The opening stages carried out so far (the current one's index while they last; 0
    without openings)."""
    part = state.part_of(OpeningsPart)
    return 0 if part is None else part.stage


# ------------------------------------------------------------------------------- void suit


@dataclass(frozen=True, slots=True)
class VoidSuit(Rule):
    """Seed 004's void suit: tiles of it go first, are never called, and block a win."""


class VoidPart(Part):
    def __init__(self, rule: VoidSuit, state: HandState) -> None:
        super().__init__(rule, state)
        self.void: list[str | None] = [None] * state.seat_count

    def declare(self, suits: list[str]) -> None:
        self.void = list(suits)
        self.state.emit(Event("void_revealed", detail="".join(suits)))

    def discard_choices(self, seat: int) -> list[Tile] | None:
        void = self.void[seat]
        if void is None:
            return None
        counts = self.state.held_counts(seat)  # the kinds held, in order: sorted, each once
        return [t for t in _SUIT_KINDS[void] if counts[t]] or None

    def may_kong(self, seat: int, tile: Tile) -> bool:
        return suit_of(tile) != self.void[seat]

    def may_win(self, seat: int, counts: list[int], tile: Tile, by: WinBy) -> bool:
        void = self.void[seat]
        return void is None or not any(counts[_SUIT_SLICES[void]])

    def may_claim(self, seat: int, tile: Tile) -> bool:
        void = self.void[seat]
        return void is None or suit_of(tile) != void

    def context(self, seat: int) -> dict[str, Any]:
        return {"void_suit": self.void[seat]}


VoidSuit.part = VoidPart


def void_suit(state: HandState, seat: int) -> str | None:
    """The seat's declared void suit (None before the declaration, or without the rule)."""
    part = state.part_of(VoidPart)
    return None if part is None else part.void[seat]


# ------------------------------------------------------------------------------- after a win


@dataclass(frozen=True, slots=True)
class AfterWinRule(Rule):
    """What a win does: end the hand, the winner leaves (blood battle), or stays locked (blood
    flow: draws, wins again on a winning tile, else discards the drawn tile)."""

    mode: AfterWin = AfterWin.END

    def bind(self, state: HandState) -> Part:
        # only locked hands answer the turn and claim hooks, so the other modes cost nothing there
        return (LockedHandsPart if self.mode is AfterWin.STAY else AfterWinPart)(self, state)


class AfterWinPart(Part):
    def __init__(self, rule: AfterWinRule, state: HandState) -> None:
        super().__init__(rule, state)
        count = state.seat_count
        self.left = [False] * count  # blood battle winners leave the hand
        self.locked = [False] * count  # blood flow winners keep a locked hand
        self.won_tiles: list[list[Tile]] = [[] for _ in range(count)]

    def after_wins(self, winners: list[int], tile: Tile, source: int | None) -> None:
        state = self.state
        if self.rule.mode is AfterWin.END:
            if source is not None:
                state.add_tile(winners[0], tile)
            state.end_hand(Termination.WIN)
            return
        if source is None:
            state.remove_tile(winners[0], tile)
        # the winning tile is set aside: one physical tile, kept by the first winner
        self.won_tiles[winners[0]].append(tile)
        for seat in winners:
            if self.rule.mode is AfterWin.LEAVE:
                self.left[seat] = True
            else:
                self.locked[seat] = True
        state.drawn = None
        state.after_kong = False
        if sum(not gone for gone in self.left) <= 1:
            state.end_hand(Termination.WIN)
            return
        state.draw_next(winners[-1])

    def held_tiles(self) -> list[Tile]:
        return [t for tiles in self.won_tiles for t in tiles]


def kong_keeps_waits(state: HandState, seat: int, tile: Tile) -> bool:
    """Whether a concealed kong of `tile` (the drawn tile the fourth) leaves a locked hand
    waiting on the same tiles as before the draw."""
    hand = list(state.hands[seat])
    hand.remove(state.drawn)  # type: ignore[arg-type]
    after_hand = [t for t in state.hands[seat] if kind_of(t) != tile]  # a red five is a five
    return state.waits(hand) == state.waits(after_hand)


class LockedHandsPart(AfterWinPart):
    """Blood flow: a winner's hand is locked; only its drawn tile moves (or a kong that keeps
    its waits), and it makes no new exposed melds."""

    def turn_actions(self, seat: int) -> list[Action] | None:
        if not self.locked[seat]:
            return None
        state = self.state
        tile = state.drawn
        assert tile is not None
        actions = [TILE_ACTIONS[ActionKind.DISCARD][seat][tile]]
        if state.wall_left == 0:
            return actions
        if state.hands[seat].count(tile) == 4 and kong_keeps_waits(state, seat, tile):
            actions.append(TILE_ACTIONS[ActionKind.CONCEALED_KONG][seat][tile])
        if any(m.kind is MeldKind.PUNG and m.first == tile for m in state.melds[seat]):
            actions.append(TILE_ACTIONS[ActionKind.ADDED_KONG][seat][tile])
        return actions

    def may_claim(self, seat: int, tile: Tile) -> bool:
        return not self.locked[seat]  # no new exposed melds


AfterWinRule.part = AfterWinPart


# ------------------------------------------------------------------------------- robbing


@dataclass(frozen=True, slots=True)
class Robbing(Rule):
    """Which kongs may be robbed: an added kong by any winning hand; a concealed one per rule."""

    concealed: ConcealedRob = ConcealedRob.THIRTEEN_ORPHANS

    def may_rob_concealed(self, counts: list[int]) -> bool:
        if self.concealed is ConcealedRob.NEVER:
            return False
        return all(counts[t] for t in ORPHANS) and sum(counts) == 14


# ------------------------------------------------------------------------------- circumstances


@dataclass(frozen=True, slots=True)
class WinConditions(Rule):
    """The circumstances the loop reports to scoring as flags (scoring decides their worth)."""

    heavenly: bool = True  # the dealer's dealt hand is complete, before any call or kong
    earthly: bool = True  # a win on the dealer's first discard, before any call or kong
    last_tile: bool = True  # a win on the final draw, or on the discard after it

    def flags(self, state: HandState, seat: int, by: WinBy) -> frozenset[str]:
        flags = set()
        if by is WinBy.SELF_DRAW and state.after_kong:
            flags.add("kong_replacement")
        if by is WinBy.SELF_DRAW and state.after_bonus:
            flags.add("flower_replacement")
        if self.last_tile and state.wall_left == 0:
            flags.add("last_tile")
        if by is WinBy.SELF_DRAW and state.wall_part.in_last_draws():
            flags.add("last_draw")
        untouched = state.kongs_made == 0 and state.calls_made == 0
        first = state.discards_made
        if self.heavenly and by is WinBy.SELF_DRAW and seat == 0 and first == 0 and untouched:
            flags.add("heavenly")
        if (
            self.earthly
            and by is WinBy.DISCARD
            and first == 1
            and state.claim_from == 0
            and untouched
        ):
            flags.add("earthly")
        return frozenset(flags)


# ------------------------------------------------------------------------------- calls


class PassEnds(StrEnum):
    OWN_DISCARD = "own_discard"  # tw-16: until the passing player's next discard
    OWN_DRAW = "own_draw"  # hubei-laizi: until the passing player's next draw


@dataclass(frozen=True, slots=True)
class PassRule(Rule):
    """Passing an offered call blocks something for a while.

    `passed` is the kind of call whose refusal counts (WIN or PUNG). `block_kind_only`: a passed
    win blocks winning on that tile kind only (tw-16), else every win (or pung) on a discard or
    robbed kong (hubei-laizi). `self_draw_too`: the block covers self draws as well.
    """

    passed: ActionKind = ActionKind.WIN
    until: PassEnds = PassEnds.OWN_DISCARD
    block_kind_only: bool = True
    self_draw_too: bool = True


class PassPart(Part):
    def __init__(self, rule: PassRule, state: HandState) -> None:
        super().__init__(rule, state)
        # per seat: the blocked tile kinds (block_kind_only) or {-1} for "everything"
        self.blocked: list[set[Tile]] = [set() for _ in range(state.seat_count)]

    def on_pass(self, seat: int, offered: Sequence[Action]) -> None:
        if any(a.kind is self.rule.passed for a in offered):
            tile = self.state.claim_tile
            assert tile is not None
            self.blocked[seat].add(tile if self.rule.block_kind_only else -1)

    def _blocks(self, seat: int, tile: Tile) -> bool:
        blocked = self.blocked[seat]
        return bool(blocked) and (-1 in blocked or tile in blocked)

    def may_win(self, seat: int, counts: list[int], tile: Tile, by: WinBy) -> bool:
        if self.rule.passed is not ActionKind.WIN:
            return True
        if by is WinBy.SELF_DRAW and not self.rule.self_draw_too:
            return True
        return not self._blocks(seat, tile)

    def allows_call(self, seat: int, action: Action) -> bool:
        if action.kind is not self.rule.passed or action.kind is ActionKind.WIN:
            return True
        return not self._blocks(seat, action.tile)

    def on_draw(self, seat: int) -> None:
        if self.rule.until is PassEnds.OWN_DRAW:
            self.blocked[seat].clear()

    def on_discard(self, seat: int, tile: Tile) -> None:
        if self.rule.until is PassEnds.OWN_DISCARD:
            self.blocked[seat].clear()


PassRule.part = PassPart


@dataclass(frozen=True, slots=True)
class Wilds(Rule):
    """Wild tile kinds: never claimed, never part of a claimed meld or an own-turn kong; in a
    winning hand each held wild stands for any tile (engine.shapes' jokers)."""

    kinds: frozenset[Tile] = frozenset()


class WildsPart(Part):
    def __init__(self, rule: Wilds, state: HandState) -> None:
        super().__init__(rule, state)
        # this hand's wild kinds (a preset may choose them per hand, after the deal)
        self.kinds: frozenset[Tile] = rule.kinds

    def win_shape(self, seat: int, counts: list[int], by: WinBy) -> bool | None:
        wilds = sum(counts[kind] for kind in self.kinds)
        if not wilds:
            return None
        return self.state.is_win_counts(wild_free(counts, self.kinds), jokers=wilds)

    def may_claim(self, seat: int, tile: Tile) -> bool:
        return tile not in self.kinds

    def allows_call(self, seat: int, action: Action) -> bool:
        return not any(t in self.kinds for t in action.tiles)

    def may_kong(self, seat: int, tile: Tile) -> bool:
        return tile not in self.kinds


Wilds.part = WildsPart


def wild_free(counts: Sequence[int], kinds: frozenset[Tile]) -> list[int]:
    """A copy of the counts with the wild kinds taken out (they are counted as jokers)."""
    return [0 if kind in kinds else count for kind, count in enumerate(counts)]


@dataclass(frozen=True, slots=True)
class FixedKongs(Rule):
    """Tiles "discarded" as kongs (hubei-laizi's red dragons): set down, a replacement drawn
    from the back, the player plays on; nobody may claim them, and a hand holding one cannot win."""

    kinds: frozenset[Tile] = frozenset()


class FixedKongsPart(Part):
    def __init__(self, rule: FixedKongs, state: HandState) -> None:
        super().__init__(rule, state)
        self.kongs: list[list[Tile]] = [[] for _ in range(state.seat_count)]

    def discard_is_kong(self, seat: int, tile: Tile) -> bool:
        if tile not in self.rule.kinds:
            return False
        self.kongs[seat].append(tile)
        return True

    def may_win(self, seat: int, counts: list[int], tile: Tile, by: WinBy) -> bool:
        return not any(counts[kind] for kind in self.rule.kinds)

    def sets_down(self, tile: Tile) -> bool:
        return tile in self.rule.kinds

    def may_kong(self, seat: int, tile: Tile) -> bool:
        return tile not in self.rule.kinds  # four held are still four fixed kongs, one by one

    def held_tiles(self) -> list[Tile]:
        return [t for tiles in self.kongs for t in tiles]

    def table_facts(self) -> TableFacts:
        return set_down_facts(self.kongs)


def set_down_facts(kongs: Sequence[Sequence[Tile]]) -> TableFacts:
    """Every seat's tiles set down as kongs, shown to all (an entry per seat, empty or not)."""
    return TableFacts(
        kongs_set_down=tuple(SeatTiles(s, "kongs", tuple(t)) for s, t in enumerate(kongs))
    )


FixedKongs.part = FixedKongsPart


@dataclass(frozen=True, slots=True)
class OpenHandToWin(Rule):
    """Only an open hand may win: a chow, pung, exposed or added kong made (hubei-laizi)."""


class OpenHandPart(Part):
    def may_win(self, seat: int, counts: list[int], tile: Tile, by: WinBy) -> bool:
        return any(m.kind is not MeldKind.CONCEALED_KONG for m in self.state.melds[seat])


OpenHandToWin.part = OpenHandPart


# ------------------------------------------------------------------------------- a preset's rules


def rules_of(preset: Preset) -> tuple[Rule, ...]:
    """The components a preset plays with: those its data fields name, then its own `rules`
    (openings, a void suit, insurance, a family's components: carried by the preset itself)."""
    if preset.winners_abort and (
        preset.winners_abort < 2 or preset.multi_win is MultiWin.HEAD_BUMP
    ):
        raise ValueError(
            f"{preset.id}: winners_abort is 2 or more, and only where several win on one tile"
            f" (multi_win 'multiple'), not {preset.winners_abort} with {preset.multi_win.value!r}"
        )
    return (
        WallRule(
            preset.set_aside,
            preset.dead_wall,
            preset.last_draws,
            preset.replacements,
            preset.indicators,
            preset.dead_wall_replenished,
        ),
        Robbing(preset.concealed_rob),
        WinConditions(),
        AfterWinRule(preset.after_win),
        *preset.rules,
    )


def check_seat_count(preset: Preset, seat_count: int) -> None:
    """Refuse a table size the preset does not seat."""
    if seat_count not in preset.seat_counts:
        allowed = ", ".join(map(str, preset.seat_counts))
        raise ValueError(f"{preset.id} seats {allowed} players, not {seat_count}")
