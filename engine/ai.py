"""A computer player: legal, quick, and sensible — wins when it can, calls when a call brings it
closer to a win, and discards toward the lowest shanten while steering to a valuable hand.

>>> from engine.hand import HandState
>>> from engine.presets import find_preset
>>> state = HandState(find_preset("hkos-3-v1"), seed=3)
>>> choose_action(state, state.turn) in state.legal_actions(state.turn)
True
"""

from __future__ import annotations

from engine import scoring, shapes
from engine.actions import Action, ActionKind
from engine.hand import HandState, Phase
from engine.presets import shape_options
from engine.tiles import DRAGONS, WINDS, MeldKind, Tile, counts_of, is_honour, is_terminal, suit_of


def choose_action(state: HandState, seat: int) -> Action:
    """The computer's choice for `seat`; the seat must have a decision to make."""
    legal = state.legal_actions(seat)
    if not legal:
        raise ValueError(f"seat {seat} has no decision to make in {state.describe()}")
    for action in legal:
        if action.kind is ActionKind.WIN:
            return action
    if state.phase is Phase.OPENING:
        return _opening_choice(state, seat, legal)
    if state.phase in (Phase.CLAIMS, Phase.ROB):
        return _claim_choice(state, seat, legal)
    own_kongs = (ActionKind.CONCEALED_KONG, ActionKind.ADDED_KONG)
    for action in legal:
        if action.kind in own_kongs and _kong_keeps_shanten(state, seat, action, legal):
            return action
    return _discard_choice(state, seat, legal)


def _shanten(state: HandState, tiles: list[Tile]) -> int:
    return shapes.shanten(counts_of(tiles), **shape_options(state.preset))


def _target_suit(counts: list[int]) -> str:
    """The suit the hand leans to: a flush is the surest way to a valuable hand."""
    sizes = [sum(counts[i * 9 : i * 9 + 9]) for i in range(3)]
    return "mps"[sizes.index(max(sizes))]


def _keep_value(state: HandState, seat: int, tile: Tile, counts: list[int], target: str) -> int:
    """How much a tile is worth keeping beyond shanten (higher keeps it); `counts` of the hand."""
    copies = counts[tile]
    if is_honour(tile):
        valuable = tile in DRAGONS or tile in (WINDS[seat], WINDS[state.round_wind])
        return copies * 3 + (2 if valuable else 0) - (0 if copies > 1 else 2)
    value = 4 if suit_of(tile) == target else 0
    rank = tile % 9
    neighbours = sum(1 for d in (-2, -1, 1, 2) if 0 <= rank + d < 9 and counts[tile + d])
    return value + copies * 2 + neighbours - (1 if is_terminal(tile) else 0)


def _kong_keeps_shanten(state: HandState, seat: int, kong: Action, legal: list[Action]) -> bool:
    """Whether a kong on the own turn leaves the hand no further from a win than the best discard
    (a locked blood-flow hand is only offered kongs that keep its waits)."""
    if state.locked[seat]:
        return True
    hand = state.hands[seat]
    rest = list(hand)
    for _ in range(4 if kong.kind is ActionKind.CONCEALED_KONG else 1):
        rest.remove(kong.tile)
    # a full hand's shanten is what its best discard keeps
    return _shanten(state, rest) <= _shanten(state, hand)


def _without(hand: list[Tile], tile: Tile) -> list[Tile]:
    rest = list(hand)
    rest.remove(tile)
    return rest


def _discard_choice(state: HandState, seat: int, legal: list[Action]) -> Action:
    discards = [a for a in legal if a.kind is ActionKind.DISCARD]
    if len(discards) == 1:
        return discards[0]
    counts = counts_of(state.hands[seat])
    options = shape_options(state.preset)
    target = _target_suit(counts) if state.preset.min_fan else ""
    by_value = sorted(discards, key=lambda a: _keep_value(state, seat, a.tile, counts, target))

    def after(tile: Tile) -> int:
        counts[tile] -= 1
        try:
            return shapes.shanten(counts, **options)
        finally:
            counts[tile] += 1

    # a full hand's shanten is the best any discard can keep: stop at the first that keeps it,
    # trying the least valuable tiles first (the same choice as the minimum of both, cheaper)
    best = shapes.shanten(counts, **options)
    for action in by_value:
        if after(action.tile) == best:
            return action
    return min(by_value, key=lambda a: after(a.tile))


def _claim_choice(state: HandState, seat: int, legal: list[Action]) -> Action:
    """Take a call when the best discard after it leaves the hand closer to winning."""
    hand = state.hands[seat]
    now = _shanten(state, hand)
    tile = state.claim_tile
    assert tile is not None
    best: tuple[int, Action] | None = None
    for action in legal:
        if action.kind is ActionKind.PASS:
            continue
        rest = list(hand)
        if action.kind is ActionKind.CHOW:
            for t in action.tiles:
                if t != tile:
                    rest.remove(t)
        else:
            for _ in range(3 if action.kind is ActionKind.KONG else 2):
                rest.remove(tile)
        after = _best_after_call(state, rest, action.kind)
        valuable = is_honour(tile) and (
            tile in DRAGONS or tile in (WINDS[seat], WINDS[state.round_wind])
        )
        gain = now - after + (1 if valuable else 0)
        # a chow rarely reaches a minimum-faan hand unless the hand is one suit
        off_suit = any(suit_of(t) not in (suit_of(tile), "z") for t in rest)
        if action.kind is ActionKind.CHOW and state.preset.min_fan and off_suit:
            continue
        # a kong that keeps the hand as close to a win is worth it where kongs are paid at once
        if action.kind is ActionKind.KONG and gain == 0 and _kong_pays(state, seat):
            gain = 1
        if gain > 0 and (best is None or gain > best[0]):
            best = (gain, action)
    return best[1] if best else next(a for a in legal if a.kind is ActionKind.PASS)


def _kong_pays(state: HandState, seat: int) -> bool:
    """Whether the preset's family pays an exposed kong at once (Sichuan: 2 from the discarder)."""
    source = state.claim_from
    in_play = [s for s in range(4) if state.active(s)]
    return scoring.kong_deltas(state.preset, MeldKind.KONG, seat, source, in_play)[seat] > 0


def _best_after_call(state: HandState, rest: list[Tile], kind: ActionKind) -> int:
    """Shanten after the call and its discard: after a pung or chow the rest is a full hand,
    whose shanten is already what its best discard keeps."""
    if kind is ActionKind.KONG and len(rest) % 3 != 1:
        return _shanten(state, rest[:-1])
    return _shanten(state, rest)


def _opening_choice(state: HandState, seat: int, legal: list[Action]) -> Action:
    hand = state.hands[seat]
    held = {s: sum(1 for t in hand if suit_of(t) == s) for s in "mps"}
    if legal[0].kind is ActionKind.VOID:
        weakest = min("mps", key=lambda s: (held[s], _suit_strength(hand, s)))
        return next(a for a in legal if a.suit == weakest)
    # swap / remove: three tiles of the weakest suit that has three, least connected first
    suit = min((s for s in "mps" if held[s] >= 3), key=lambda s: (held[s], _suit_strength(hand, s)))
    counts = counts_of(hand)
    tiles = sorted(
        (t for t in hand if suit_of(t) == suit),
        key=lambda t: _keep_value(state, seat, t, counts, ""),
    )[:3]
    pick = tuple(sorted(tiles))
    return next(a for a in legal if a.tiles == pick)


def _suit_strength(hand: list[Tile], suit: str) -> int:
    counts = counts_of(t for t in hand if suit_of(t) == suit)
    return sum(c * c for c in counts)
