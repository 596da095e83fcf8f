"""The Part API: what a preset adds to the shared loop, as data plus small hooks.

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
import weakref
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from engine.actions import Action, ActionKind, DeclaredKind
from engine.i18n import Text
from engine.scoring.base import WinBy
from engine.settlement import Payment
from engine.tiles import Meld, Tile

if TYPE_CHECKING:
    from engine.hand import HandState
    from engine.table_facts import TableFacts


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

    def refusal(self, seat: int) -> Text | None:
        """Why this part's declarations are not offered to `seat` now, worded for the player
        who asks for one by name (the terminal's `riichi`); None: no reason to give."""
        return None

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


# Per sequence of part types (the same for every hand of a preset): for each hook, the positions
# of the parts that answer it. Worked out once, not at every deal.
_ANSWERERS: dict[tuple[type[Part], ...], dict[str, tuple[int, ...]]] = {}
# Per sequence of part types: for every kind a part is (Part subclasses), the position of the
# first part of that kind (part_of's answers).
_KIND_POSITIONS: dict[tuple[type[Part], ...], dict[type[Part], int]] = {}


def _answerers(parts: Sequence[Part]) -> dict[str, tuple[int, ...]]:
    kinds = tuple(type(part) for part in parts)
    found = _ANSWERERS.get(kinds)
    if found is None:
        found = _ANSWERERS[kinds] = {
            hook: tuple(i for i, part in enumerate(parts) if overrides(part, hook))
            for hook in HOOKS
        }
    return found


def _kind_positions(parts: Sequence[Part]) -> dict[type[Part], int]:
    kinds = tuple(type(part) for part in parts)
    found = _KIND_POSITIONS.get(kinds)
    if found is None:
        found = _KIND_POSITIONS[kinds] = {}
        for i, part in enumerate(parts):
            for kind in type(part).__mro__:
                if issubclass(kind, Part):
                    found.setdefault(kind, i)
    return found


def hook_answerers(parts: Sequence[Part]) -> dict[str, tuple[Part, ...]]:
    """For each hook, the parts that answer it, in order (the loop asks only those)."""
    positions = _answerers(parts)
    return {hook: tuple([parts[i] for i in found]) for hook, found in positions.items()}


def parts_by_kind(parts: Sequence[Part]) -> dict[type[Part], Part]:
    """For every kind a part is (Part subclasses), the first part of that kind (`part_of`)."""
    return {kind: parts[i] for kind, i in _kind_positions(parts).items()}


def owners(parts: Sequence[Part], preset_id: str) -> dict[ActionKind | DeclaredKind, Part]:
    """Who applies each action kind a part declares (`Part.owns`): one owner per kind."""
    found: dict[ActionKind | DeclaredKind, Part] = {}
    for part in parts:
        for kind in part.owns:
            if kind in found:
                raise ValueError(f"two rules of {preset_id} own the action {kind.value}")
            found[kind] = part
    return found
