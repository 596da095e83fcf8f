"""Rule components: what a preset adds to the shared loop, as data plus small hooks.

The loop in `engine.hand` keeps the sequence — deal, openings, turns, claims and robbing, what
follows a win, the end — and asks the preset's components at named points (python-chess's
`variant.py` hooks, riichi_advanced's rules as data). A component is a frozen dataclass (the
rule's data, shared by every hand of the preset); `bind(state)` makes its `Part`, which owns the
component's per-seat state for one hand and answers the hooks below. A part answers only the
hooks it overrides; the loop calls nothing else, so a preset without a rule pays nothing for it.

Hook points (all on `Part`, defaults say "no objection"):
- `after_deal()` — the deal is done (openings start here).
- `turn_actions(seat)` — replace a seat's whole turn (a locked blood-flow hand, the last draws).
- `offer(seat)` — actions of the kinds the part owns, added to a seat's turn (a declaration).
- `after_call(seat, meld)` — a call or a kong was made (before any replacement draw).
- `after_interruption(seat)` — a declaration interrupted the go-around as a call does, with no
  meld (sanma's nuki, through `state.interrupt`): ippatsu ends.
- `after_discard_passed(seat, tile)` — nobody claimed a discard (before the next draw); every
  seat's waits are `state.waits_of(seat)`, offered a win or not.
- `ready(seat)` — whether a seat is ready (a special shape); None leaves it to the standard shapes.
- `discard_choices(seat)` — the tiles a seat must choose its discard from (void suit first).
- `may_kong(seat, tile)` — an own-turn kong of `tile` (concealed or added).
- `may_win(seat, counts, tile, by)` — a win with these counts (winning tile included).
- `win_shape(seat, counts, by)` — decide whether the counts are a winning shape (wilds standing
  in, a special hand such as hubei-laizi's all 2-5-8); None leaves it to the standard shapes.
  The first part to answer decides.
- `may_claim(seat, tile)` — any call at all on this tile (void suit, locked hand, wild kinds).
- `allows_call(seat, action)` — one offered call (pass rules, wilds in a chow).
- `discard_is_kong(seat, tile)` — a discard that is a kong instead (fixed kong tiles).
- `on_pass(seat, offered)`, `on_draw(seat)`, `on_discard(seat, tile)` — pass-rule bookkeeping.
- `settle_win(seat, by, source, payments)` — change one win's payments (a horse mirroring them,
  a dealer bonus, liability, a cap: small functions over a list of `Payment`s).
- `after_wins(winners, tile, source)` — what a win does to the hand (end, leave, stay).
- `context(seat)` — extra WinContext fields for scoring (the void suit).
- `held_tiles()` — tiles the part keeps out of hands, wall and ponds (conservation checks).
- `table_facts()` — what the part shows everyone at the table (indicators, the pot and repeat
  count, staked seats, sideways pond tiles, an abortive draw's kind): `engine.table_facts`.

Advice for computer players (engine.computer.easy reads it; the loop never does):
`computer_declares` names the owned declarations made with a discard that a beginner makes whenever
offered with the discard it chose (riichi), `computer_takes` those made on their own on the turn
that it makes whenever offered (nuki), and `call_keeps_a_way(seat, call)` whether a call leaves the
hand a way to a win the rules accept (Riichi: a yaku). A preset whose parts keep the defaults plays
as before.
- `private_facts(seat)` — what the part knows about a seat that only its owner may be told
  (furiten), as fact names: the front ends word `pictures.fact.<name>` on the own hand only.

Actions a part owns: `owns` names the action kinds it applies (the loop's own, such as a pass on
the last draws, or kinds it declares with `engine.actions.declare_kind`). The loop applies a
seat's win, discard and kongs itself and hands every other turn action to its owner's
`apply_action`; a declaration the others may rob opens `state.open_rob_window` (its `by`: how a
win on it counts, robbing a kong or, for sanma's north, a discard), and its owner's
`commit` carries it out when nobody robs it. Decisions every seat makes at once (the openings)
belong to the part that begins them (`state.begin_decisions`): it offers them
(`decision_actions`), times them out (`decision_default`) and carries out the answers (`decide`).

Parts change the hand only through `HandState`'s public API for them (`emit`, `add_tile`,
`remove_tile`, `pay`, `discard`, `draw_replacement`, `draw_next`, `end_hand`, `begin_decisions`,
`resume_turn`, `open_rob_window`, `interrupt`; the wall part alone `take_from_wall`;
`win_context` reads what scoring sees of a win, for a part that settles it from the whole
hand), never through the loop's private state (tests/test_part_api.py). Replacement draws
come from the wall part (`WallPart.take_replacement`), which owns the dead wall's positions:
with `WallRule.replacements` set, the replacement tiles and the indicator positions before
them (or, with `WallRule.indicators`, the indicators set apart at the deal).
"""

from __future__ import annotations

import copy
import random
import weakref
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any, ClassVar

from engine.actions import SEAT_ACTIONS, TILE_ACTIONS, Action, ActionKind, DeclaredKind
from engine.events import Event, Termination
from engine.kinds import AfterWin, ConcealedRob, MultiWin, Opening
from engine.scoring.base import WinBy
from engine.settlement import Payment
from engine.table_facts import SeatTiles, TableFacts
from engine.tiles import ORPHANS, Meld, MeldKind, Tile, kind_of, suit_of

if TYPE_CHECKING:
    from engine.hand import HandState
    from engine.preset import Preset

_SUIT_SLICES = {suit: slice(i * 9, i * 9 + 9) for i, suit in enumerate("mps")}
_SUIT_KINDS = {suit: range(i * 9, i * 9 + 9) for i, suit in enumerate("mps")}


class Part:
    """One component's state in one hand, and its answers at the loop's hook points."""

    # the action kinds this part applies (`apply_action`, `commit`): see the module docstring
    owns: ClassVar[frozenset[ActionKind | DeclaredKind]] = frozenset()
    # the catalogue key of each owned declaration's words (`{tiles}` its tiles), so the front
    # ends word a declaration ("discard 5m with a stake") instead of printing its notation
    labels: ClassVar[Mapping[DeclaredKind, str]] = {}
    # owned declarations made with a discard: a front end asks which tile, offering the ones
    # the rule offers
    with_discard: ClassVar[frozenset[DeclaredKind]] = frozenset()
    # advice for computer players (engine.computer.easy), not a rule: the owned declarations made
    # with a discard that a beginner makes whenever the discard it chose is offered with one
    # (riichi)
    computer_declares: ClassVar[frozenset[DeclaredKind]] = frozenset()
    # likewise: the owned turn declarations made on their own that a beginner makes whenever
    # offered and it cannot win (sanma's nuki)
    computer_takes: ClassVar[frozenset[DeclaredKind]] = frozenset()

    def __init__(self, rule: Any, state: HandState) -> None:
        self.rule = rule
        # a weak reference: the state holds its parts, and a part holding the state back would
        # make every finished hand a cycle that only a full garbage collection frees (a pause of
        # ~100 ms at 5,000 live tables); without it a hand is freed when its last reader drops it
        # (`score` binds a settlement part to no hand at all)
        self.state: HandState = weakref.proxy(state) if state is not None else state

    def _own_state(self) -> dict[str, Any]:
        return {k: v for k, v in vars(self).items() if k != "state"}

    def __deepcopy__(self, memo: dict[int, Any]) -> Part:
        # a weak reference cannot be deep-copied: the copied hand points its parts at itself
        # (HandState.__deepcopy__)
        clone = copy.copy(self)
        memo[id(self)] = clone
        for key, value in self._own_state().items():
            setattr(clone, key, copy.deepcopy(value, memo))
        return clone

    def __eq__(self, other: object) -> bool:
        """Parts are equal when they play the same rule from the same state (a replayed hand
        equals the live one)."""
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, Part)
        return self._own_state() == other._own_state()

    __hash__ = None  # type: ignore[assignment]

    def after_deal(self) -> None:
        return None

    def turn_actions(self, seat: int) -> list[Action] | None:
        return None

    def offer(self, seat: int) -> list[Action]:
        return []

    def discard_choices(self, seat: int) -> list[Tile] | None:
        return None

    def may_kong(self, seat: int, tile: Tile) -> bool:
        return True

    def may_win(self, seat: int, counts: list[int], tile: Tile, by: WinBy) -> bool:
        return True

    def win_shape(self, seat: int, counts: list[int], by: WinBy) -> bool | None:
        return None

    def may_claim(self, seat: int, tile: Tile) -> bool:
        return True

    def allows_call(self, seat: int, action: Action) -> bool:
        return True

    def discard_is_kong(self, seat: int, tile: Tile) -> bool:
        return False

    def sets_down(self, tile: Tile) -> bool:
        """Whether a discard of `tile` is set down as a kong (what `discard_is_kong` would
        answer, without recording it): for menus that say so."""
        return False

    def on_pass(self, seat: int, offered: Sequence[Action]) -> None:
        return None

    def on_draw(self, seat: int) -> None:
        return None

    def on_discard(self, seat: int, tile: Tile) -> None:
        return None

    def after_call(self, seat: int, meld: Meld) -> None:
        return None

    def after_interruption(self, seat: int) -> None:
        return None

    def after_discard_passed(self, seat: int, tile: Tile) -> None:
        return None

    def ready(self, seat: int) -> bool | None:
        return None

    def settle_win(
        self, seat: int, by: WinBy, source: int | None, payments: list[Payment]
    ) -> list[Payment]:
        return payments

    def after_wins(self, winners: list[int], tile: Tile, source: int | None) -> None:
        return None

    def context(self, seat: int) -> dict[str, Any]:
        return {}

    def held_tiles(self) -> list[Tile]:
        return []

    def table_facts(self) -> TableFacts | None:
        return None

    def call_keeps_a_way(self, seat: int, call: Action) -> bool:
        """Advice for computer players, not a rule: whether the hand after this offered call
        still has a way to a win the rules accept (Riichi: a yaku an open hand may have)."""
        return True

    def private_facts(self, seat: int) -> tuple[str, ...]:
        return ()

    # ---- what an owner of action kinds (and of decisions made at once) answers

    def apply_action(self, action: Action) -> None:
        raise AssertionError(f"{type(self).__name__} owns no action {action.kind.value!r}")

    def commit(self, declared: Action) -> None:
        raise AssertionError(f"{type(self).__name__} opened no window for {declared}")

    def decision_actions(self, seat: int) -> list[Action]:
        raise AssertionError(f"{type(self).__name__} began no decisions")

    def decision_default(self, seat: int, legal: Sequence[Action]) -> Action:
        return legal[0]

    def decide(self, answers: list[Action]) -> None:
        raise AssertionError(f"{type(self).__name__} began no decisions")


HOOKS = (
    "after_deal",
    "turn_actions",
    "offer",
    "discard_choices",
    "may_kong",
    "may_win",
    "win_shape",
    "may_claim",
    "allows_call",
    "discard_is_kong",
    "on_pass",
    "on_draw",
    "on_discard",
    "after_call",
    "after_interruption",
    "after_discard_passed",
    "ready",
    "settle_win",
    "after_wins",
    "context",
    "held_tiles",
    "table_facts",
    "call_keeps_a_way",
    "private_facts",
)


_ANSWERS: dict[type[Part], frozenset[str]] = {}


def overrides(part: Part, hook: str) -> bool:
    """Whether the part answers this hook (the loop skips parts that keep the default)."""
    kind = type(part)
    answers = _ANSWERS.get(kind)
    if answers is None:
        answers = _ANSWERS[kind] = frozenset(
            name for name in HOOKS if getattr(kind, name) is not getattr(Part, name)
        )
    return hook in answers


class Rule:
    """A rule component: frozen data; `bind` makes the part that plays it in one hand."""

    part: ClassVar[type[Part]] = Part

    def bind(self, state: HandState) -> Part:
        return self.part(self, state)


# ------------------------------------------------------------------------------- wall


@dataclass(frozen=True, slots=True)
class WallRule(Rule):
    """How the wall is used: tiles set aside at the deal (a horse, birds), a dead wall that is
    never drawn, and a last-draw phase (the last `last_draws` tiles: draw and keep, win only).

    Replacements (for kongs, bonus tiles, a rule's declaration) come from the back. With
    `replacements` 0 they walk the wall from its end, as far as they go; with `replacements`
    set, at most that many are drawn, and the positions of the dead wall before the last
    `replacements` hold indicators (`WallPart.indicators`), which a replacement never takes.
    Each replacement shortens the live wall by one (the dead wall keeps its size: the live
    wall's last tile moves into it).

    With `indicators` set, the dead wall's indicator tiles are set apart at the deal instead
    (the first `indicators` tiles taken from the back, before the replacement positions): the
    replacements are then the rest of the dead wall and, beyond it, the tiles the live wall's
    end moved into the dead wall, in the order they moved (sanma: 10 indicators, 4 replacement
    positions and 8 replacements in a dead wall of 14).
    """

    set_aside: int = 0  # taken from the back before the deal, out of play until revealed
    dead_wall: int = 0  # the last tiles of the wall: never drawn; the hand ends when they remain
    last_draws: int = 0  # from this many tiles left, a turn may only win by self draw or pass
    replacements: int = 0  # the replacements the dead wall gives (0: the back, unbounded)
    indicators: int = 0  # indicator tiles set apart at the deal (0: positions in the dead wall)

    def __post_init__(self) -> None:
        if self.replacements and not 0 < self.replacements <= self.dead_wall:
            raise ValueError(
                f"{self.replacements} replacement tiles do not fit a dead wall of {self.dead_wall}"
            )
        if self.indicators and not (self.replacements and self.indicators < self.dead_wall):
            raise ValueError(
                f"{self.indicators} indicators set apart need a dead wall larger than them"
                f" ({self.dead_wall}) and a number of replacements ({self.replacements})"
            )

    @property
    def left_in_wall(self) -> int:
        """The tiles left in the wall when the live wall ends: the dead wall, less the
        indicators set apart at the deal."""
        return self.dead_wall - self.indicators

    def bind(self, state: HandState) -> Part:
        return (LastDrawsPart if self.last_draws else WallPart)(self, state)


class WallPart(Part):
    def __init__(self, rule: WallRule, state: HandState) -> None:
        super().__init__(rule, state)
        self.set_aside: list[Tile] = []
        self.apart: list[Tile] = []  # the indicators set apart at the deal (`indicators`)
        self.replaced = 0  # replacement tiles drawn so far
        self.dead_end = 0  # the wall's end once tiles are set aside: the dead wall ends here

    def take_set_aside(self) -> None:
        state = self.state
        for _ in range(self.rule.set_aside):
            self.set_aside.append(state.take_from_wall(front=False))
        self.dead_end = len(state.wall) - len(self.set_aside)
        for _ in range(self.rule.indicators):
            self.apart.append(state.take_from_wall(front=False))

    def can_replace(self) -> bool:
        """Whether a replacement tile is left (rules offer a kong or a declaration only then)."""
        rule = self.rule
        return not rule.replacements or self.replaced < rule.replacements

    def take_replacement(self) -> Tile:
        """The next replacement tile: from the back, within the dead wall's replacement
        positions when the rule has them (never an indicator)."""
        if not self.can_replace():
            raise ValueError(f"the dead wall's {self.rule.replacements} replacements are drawn")
        self.replaced += 1
        return self.state.take_from_wall(front=False)

    def indicators(self) -> tuple[Tile, ...]:
        """The tiles at the dead wall's indicator positions (in wall order), fixed from the deal
        whatever is replaced; empty unless the rule sets `replacements`. Indicators set apart
        at the deal come in the order they were taken from the back."""
        rule = self.rule
        if rule.indicators:
            return tuple(self.apart)
        if not rule.replacements:
            return ()
        end = self.dead_end
        return tuple(self.state.wall[end - rule.dead_wall : end - rule.replacements])

    def held_tiles(self) -> list[Tile]:
        return [*self.set_aside, *self.apart]

    def in_last_draws(self) -> bool:
        rule = self.rule
        return rule.last_draws > 0 and self.state.wall_left < rule.last_draws


class LastDrawsPart(WallPart):
    """From `last_draws` tiles left, each seat in turn draws once and keeps the tile: a win by
    self draw or nothing (the part owns that turn's pass); when every seat in play has drawn,
    the hand is a draw."""

    owns = frozenset({ActionKind.PASS})

    def __init__(self, rule: WallRule, state: HandState) -> None:
        super().__init__(rule, state)
        self.kept = 0

    def turn_actions(self, seat: int) -> list[Action] | None:
        if not self.in_last_draws():
            return None
        return [SEAT_ACTIONS[ActionKind.PASS][seat]]

    def apply_action(self, action: Action) -> None:
        """Keep the drawn tile."""
        state = self.state
        self.kept += 1
        if self.kept >= len(state.seats_in_play()) or state.wall_left == 0:
            state.end_hand(Termination.WALL_DRAW)
        else:
            state.draw_next(action.seat)


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

    def holds_void(self, seat: int) -> bool:
        """A "flower pig": the seat still holds a tile of its declared void suit."""
        void = self.void[seat]
        return void is not None and any(suit_of(t) == void for t in self.state.hands[seat])


VoidSuit.part = VoidPart


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
