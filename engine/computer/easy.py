"""A computer player: legal, quick, and sensible — wins when it can, calls when a call brings it
closer to a win, and discards toward the lowest shanten while steering to a valuable hand.

>>> from engine.hand import HandState
>>> from engine.presets import find_preset
>>> state = HandState(find_preset("hkos-3-v1"), seed=3)
>>> choose_action(state, state.turn) in state.legal_actions(state.turn)
True
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import itemgetter

from engine import scoring, shapes
from engine.actions import Action, ActionKind
from engine.computer.on_kinds import as_kinds, physical_action
from engine.events import Phase
from engine.hand import HandState
from engine.memo import Memo
from engine.rules import AfterWinPart, FixedKongsPart, wild_free
from engine.tiles import (
    COPIES,
    DRAGONS,
    HONOURS,
    WINDS,
    MeldKind,
    Tile,
    counts_of,
    is_honour,
    is_terminal,
    suit_of,
)

# Enum members compared for every legal action: on Python 3.11 a lookup such as `ActionKind.WIN`
# costs about ten times a module global, and these loops run on every decision.
_WIN, _DISCARD, _PASS = ActionKind.WIN, ActionKind.DISCARD, ActionKind.PASS
_CHOW, _KONG = ActionKind.CHOW, ActionKind.KONG
_CONCEALED_KONG, _ADDED_KONG = ActionKind.CONCEALED_KONG, ActionKind.ADDED_KONG
_TURN_PHASE = Phase.TURN


def choose_action(state: HandState, seat: int) -> Action:
    """The computer's choice for `seat`; the seat must have a decision to make. It reasons on
    kinds: at a table with red fives it decides on `engine.computer.on_kinds` and plays the physical
    tile its choice names (a plain five before the red)."""
    plain = as_kinds(state, seat)  # the hand itself where the seat sees no red five
    if plain is not state:
        return physical_action(state, choose_action(plain, seat))
    legal = state.legal_actions(seat)
    if not legal:
        raise ValueError(f"seat {seat} has no decision to make in {state.describe()}")
    if state.phase is not _TURN_PHASE:
        for action in legal:
            if action.kind is _WIN:
                return action
        if state.phase is Phase.OPENING:
            return _opening_choice(state, seat, legal)
        return _claim_choice(state, seat, legal)
    # the own turn: one pass sorts the offer (a win anywhere in it is taken)
    discards: list[Action] = []
    kongs: list[Action] = []
    taken: Action | None = None  # a declaration a rule advises a beginner to make (nuki)
    takes = state.computer_takes
    for action in legal:
        kind = action.kind
        if kind is _DISCARD:
            discards.append(action)
        elif kind is _WIN:
            return action
        elif kind is _CONCEALED_KONG or kind is _ADDED_KONG:
            kongs.append(action)
        elif kind in takes:
            taken = action
    if taken is not None:
        return taken
    for kong in kongs:
        if _kong_keeps_shanten(state, seat, kong, legal):
            return kong
    if legal[-1].kind is _PASS:  # a turn with no discard (a last draw): keep the tile
        return legal[-1]
    return _declared_with(state, legal, _discard_choice(state, seat, discards))


def _declared_with(state: HandState, legal: Sequence[Action], discard: Action) -> Action:
    """The declaration made with `discard` that a rule advises a beginner to make (riichi), or
    the discard itself."""
    declares = state.computer_declares
    if declares:
        for action in legal:
            if action.kind in declares and action.tiles == discard.tiles:
                return action
    return discard


def _shanten(state: HandState, tiles: list[Tile]) -> int:
    return _counts_shanten(state, counts_of(tiles))


def _counts_shanten(state: HandState, counts: list[int]) -> int:
    """Shanten of these counts (left as they are), held wilds counted as jokers."""
    wilds = state.wild_kinds
    jokers = sum(counts[kind] for kind in wilds) if wilds else 0
    if jokers:
        counts = wild_free(counts, wilds)
    return shapes.shanten(counts, state.preset.shape_rules, jokers=jokers)


def _shanten_after(state: HandState, counts: list[int], tile: Tile) -> int:
    """Shanten of `counts` less one `tile`, without a copy of the counts."""
    counts[tile] -= 1
    try:
        return _counts_shanten(state, counts)
    finally:
        counts[tile] += 1


# The static parts of a suited kind's keep value: the ranks at most two away in its suit (read
# with one itemgetter call), and how many those are, less one for a terminal.
_NEAR_RANKS = tuple(
    tuple(rank + d for d in (-2, -1, 1, 2) if 0 <= rank + d < 9) for rank in range(9)
)
_NEIGHBOURS = tuple(itemgetter(*ranks) for ranks in _NEAR_RANKS)  # two to four ranks each
_NEAR_LESS_TERMINAL = tuple(
    len(_NEAR_RANKS[rank]) - (1 if is_terminal(rank) else 0) for rank in range(9)
)
_TARGET_BONUS = 4  # a kind of the suit the hand leans to
# an honour's value by its copies held (a lone one is worth less), before its bonus for value
_HONOUR_BY_COPIES = tuple(copies * 3 - (0 if copies > 1 else 2) for copies in range(COPIES + 1))
_VALUABLE_BONUS = 2  # a dragon, the seat's wind or the round's
# Keep values by component pattern: a suit's nine values (its copies and held neighbours) by its
# counts, in the target suit or not; the honours' seven by their counts and the two winds that
# are worth a pung. The same patterns come back hand after hand, and reading a value is cheaper
# than working it out per discard.
_SUIT_VALUES: Memo[tuple[int, ...], tuple[int, ...]] = Memo()
_TARGET_SUIT_VALUES: Memo[tuple[int, ...], tuple[int, ...]] = Memo()
_HONOUR_VALUES: Memo[tuple[tuple[int, ...], int, int], tuple[int, ...]] = Memo()


def _suit_values(key: tuple[int, ...], target: bool) -> tuple[int, ...]:
    memo = _TARGET_SUIT_VALUES if target else _SUIT_VALUES
    found = memo.get(key)
    if found is None:
        bonus = _TARGET_BONUS if target else 0
        found = memo.keep(
            key,
            tuple(
                bonus + _NEAR_LESS_TERMINAL[rank] + key[rank] * 2 - _NEIGHBOURS[rank](key).count(0)
                for rank in range(9)
            ),
        )
    return found


def _honour_values(key: tuple[int, ...], seat_wind: Tile, round_wind: Tile) -> tuple[int, ...]:
    found = _HONOUR_VALUES.get(memo_key := (key, seat_wind, round_wind))
    if found is None:
        valuable = (*DRAGONS, seat_wind, round_wind)
        found = _HONOUR_VALUES.keep(
            memo_key,
            tuple(
                _HONOUR_BY_COPIES[copies] + (_VALUABLE_BONUS if kind in valuable else 0)
                for kind, copies in zip(HONOURS, key, strict=True)
            ),
        )
    return found


def _keep_values(
    state: HandState, seat: int, counts: list[int], toward_flush: bool
) -> tuple[int, ...]:
    """How much each kind held is worth keeping beyond shanten (higher keeps it), by kind (the
    entries of kinds not held mean nothing); `counts` of the hand. With `toward_flush`, the suit
    the hand leans to (the most tiles, the first of equals) is worth more: a flush is the surest
    way to a valuable hand.

    This runs on every discard of every computer player.
    """
    m, p, s = tuple(counts[0:9]), tuple(counts[9:18]), tuple(counts[18:27])
    target = ""
    if toward_flush:
        sizes = [sum(m), sum(p), sum(s)]
        target = "mps"[sizes.index(max(sizes))]
    return (
        _suit_values(m, target == "m")
        + _suit_values(p, target == "p")
        + _suit_values(s, target == "s")
        + _honour_values(tuple(counts[27:34]), WINDS[seat], WINDS[state.round_wind])
    )


def _kong_keeps_shanten(state: HandState, seat: int, kong: Action, legal: Sequence[Action]) -> bool:
    """Whether a kong on the own turn leaves the hand no further from a win than the best discard
    (a locked blood-flow hand is only offered kongs that keep its waits)."""
    if state.require(AfterWinPart).locked[seat]:
        return True
    hand = state.hands[seat]
    rest = list(hand)
    for _ in range(4 if kong.kind is ActionKind.CONCEALED_KONG else 1):
        rest.remove(kong.tile)
    # a full hand's shanten is what its best discard keeps
    return _shanten(state, rest) <= _shanten(state, hand)


def _discard_choice(state: HandState, seat: int, discards: list[Action]) -> Action:
    """The discard to make among the offered ones (in the order offered)."""
    wilds = state.wild_kinds
    if wilds:  # a wild completes any hand: keep it while anything else can go
        discards = [a for a in discards if a.tiles[0] not in wilds] or discards
    if len(discards) == 1:
        return discards[0]
    fixed = state.part_of(FixedKongsPart)
    if fixed is not None:  # a fixed kong tile is a free kong, and holding one cannot win
        for action in discards:
            if action.tiles[0] in fixed.rule.kinds:
                return action
    counts = state.tile_counts(seat)
    values = _keep_values(state, seat, counts, bool(state.preset.min_fan))
    tiles = [action.tiles[0] for action in discards]
    # from the least to the most worth keeping, equal values in the order offered
    by_value = sorted(tiles, key=values.__getitem__)
    # A full hand's shanten is the best any discard can keep: stop at the first that keeps it,
    # trying the least valuable tiles first (the same choice as the minimum of both, cheaper).
    if wilds:  # shanten with jokers: the one-table-per-hand shortcut below has none
        full = _counts_shanten(state, counts)
        for tile in by_value:
            if _shanten_after(state, counts, tile) == full:
                return discards[tiles.index(tile)]
        best = min(by_value, key=lambda tile: _shanten_after(state, counts, tile))
        return discards[tiles.index(best)]
    shanten = shapes.DiscardShanten(counts, state.preset.shape_rules)
    full, after = shanten.full, shanten.after
    for tile in by_value:
        if after(tile) == full:
            return discards[tiles.index(tile)]
    return discards[tiles.index(min(by_value, key=after))]


def _claim_choice(state: HandState, seat: int, legal: Sequence[Action]) -> Action:
    """Take a call when the best discard after it leaves the hand closer to winning."""
    counts = state.tile_counts(seat)
    tile = state.claim_tile
    assert tile is not None
    # jokerless: every call's shanten shares the merge of the components it leaves as they are
    shanten = None
    if not state.wild_kinds:
        shanten = shapes.CallShanten(counts, tile // 9, state.preset.shape_rules)
    now = _counts_shanten(state, counts) if shanten is None else shanten.now
    valuable = is_honour(tile) and (
        tile in DRAGONS or tile in (WINDS[seat], WINDS[state.round_wind])
    )
    # rules that advise against calls into a hand that cannot win (Riichi: no yaku left)
    advisers = state.call_advisers
    best: tuple[int, Action] | None = None
    for action in legal:
        kind = action.kind
        if kind is _PASS:
            continue
        if advisers and not all(part.call_keeps_a_way(seat, action) for part in advisers):
            continue
        # a chow rarely reaches a minimum-faan hand unless the hand is one suit
        if kind is _CHOW and state.preset.min_fan and _off_suit(counts, tile):
            continue
        after = _best_after_call(state, seat, counts, action, tile, shanten)
        gain = now - after + (1 if valuable else 0)
        # a kong that keeps the hand as close to a win is worth it where kongs are paid at once
        if kind is _KONG and gain == 0 and _kong_pays(state, seat):
            gain = 1
        if gain > 0 and (best is None or gain > best[0]):
            best = (gain, action)
    return best[1] if best else next(a for a in legal if a.kind is _PASS)


def _off_suit(counts: list[int], tile: Tile) -> bool:
    """Whether the hand holds suited tiles of another suit than the claimed (suited) tile's."""
    start = tile // 9 * 9
    return sum(counts[0:27]) != sum(counts[start : start + 9])


def _kong_pays(state: HandState, seat: int) -> bool:
    """Whether the preset's family pays an exposed kong at once (Sichuan: 2 from the discarder)."""
    source = state.claim_from
    in_play = [s for s in state.seats if state.active(s)]
    paid = scoring.kong_payments(state.preset, MeldKind.KONG, seat, source, in_play)
    return any(payment.payee == seat for payment in paid)


def _best_after_call(
    state: HandState,
    seat: int,
    counts: list[int],
    call: Action,
    tile: Tile,
    shanten: shapes.CallShanten | None,
) -> int:
    """Shanten after the call on `tile` and its discard, from the hand's `counts` (left as they
    are) or, jokerless, its `shanten`: after a pung or chow the rest is a full hand, whose
    shanten is already what its best discard keeps."""
    kind = call.kind
    if kind is _CHOW:
        taken = [t for t in call.tiles if t != tile]
    else:
        taken = [tile] * (3 if kind is _KONG else 2)
    if kind is _KONG and (len(state.hands[seat]) - 3) % 3 != 1:
        # a kong leaving a full hand (no claim window has one): less its last tile, as held
        rest = list(state.hands[seat])
        for t in taken:
            rest.remove(t)
        return _shanten(state, rest[:-1])
    if shanten is not None:
        return shanten.less(taken)
    for t in taken:
        counts[t] -= 1
    try:
        return _counts_shanten(state, counts)
    finally:
        for t in taken:
            counts[t] += 1


def _opening_choice(state: HandState, seat: int, legal: Sequence[Action]) -> Action:
    hand = state.hands[seat]
    held = {s: sum(1 for t in hand if suit_of(t) == s) for s in "mps"}
    if legal[0].kind is ActionKind.VOID:
        weakest = min("mps", key=lambda s: (held[s], _suit_strength(hand, s)))
        return next(a for a in legal if a.suit == weakest)
    # swap / remove: three tiles of the weakest suit that has three, least connected first
    suit = min((s for s in "mps" if held[s] >= 3), key=lambda s: (held[s], _suit_strength(hand, s)))
    suited = [t for t in hand if suit_of(t) == suit]
    values = _keep_values(state, seat, counts_of(hand), False)
    pick = tuple(sorted(sorted(suited, key=values.__getitem__)[:3]))
    return next(a for a in legal if a.tiles == pick)


def _suit_strength(hand: list[Tile], suit: str) -> int:
    counts = counts_of(t for t in hand if suit_of(t) == suit)
    return sum(c * c for c in counts)
