"""A hand as a player that reasons on tile kinds sees it: at a table with red fives, a copy in
which every red five is its plain five, and the way back from a choice made on it to the
physical action it stands for.

Where a call may give a plain five or the red one from the hand, the way back gives the red
one: the hand keeps the same kinds either way, and the red five in the meld is dora for good,
where kept in hand it is lost the moment its kind is discarded with no plain five left (and it
then gives whoever wins on it its dora)."""

from __future__ import annotations

from engine.actions import Action, ActionKind
from engine.hand import HandState, IllegalActionError
from engine.rules import AfterWinPart
from engine.tiles import FIRST_RED, Meld, is_red, kind_of


def _as_kinds(action: Action) -> Action:
    """The action with each tile as its kind."""
    if not action.tiles or max(action.tiles) < FIRST_RED:
        return action
    return Action(action.seat, action.kind, tuple(map(kind_of, action.tiles)), action.suit)


def _names_red_five(call: Action) -> bool:
    """Whether a call names a red five its hand gives (`HandState.red_choice`): the copy on
    kinds offers the same call once, as the plain one."""
    return call.kind in _CHOOSING and len(call.tiles) > 1 and any(is_red(t) for t in call.tiles)


_CHOOSING = (ActionKind.CHOW, ActionKind.PUNG)


def _red_in_sight(state: HandState, seat: int) -> bool:
    """Whether `seat` can see a red five: in its own hand, a pond, a meld or a won pile
    (other hands and the wall it may not read). The copy `as_kinds` makes costs ~3 ms, so a
    decision pays for it only then."""
    if any(t is not None and is_red(t) for t in (state.drawn, state.claim_tile)):
        return True
    if any(is_red(t) for t in state.hands[seat]):
        return True
    places = (state.ponds, state.require(AfterWinPart).won_tiles)
    return any(is_red(t) for place in places for tiles in place for t in tiles) or any(
        is_red(t) for melds in state.melds for meld in melds for t in meld.tiles
    )


def as_kinds(state: HandState, seat: int) -> HandState:
    """A copy of the hand in which every tile is its kind (a red five a plain five), for a
    player that reasons on kinds: its choice is mapped back with `physical_action`. The
    hand itself when `seat` sees no red five: all it may read is then the same as kinds
    (other seats' hidden tiles and the wall it never reads)."""
    if not state.has_red_fives or not _red_in_sight(state, seat):
        return state
    plain = state.reading_copy()
    plain.has_red_fives = False
    plain.wall = [kind_of(t) for t in plain.wall]
    won_tiles = plain.require(AfterWinPart).won_tiles
    for other in plain.seats:
        plain.hands[other] = [kind_of(t) for t in plain.hands[other]]
        plain.ponds[other] = [kind_of(t) for t in plain.ponds[other]]
        plain.melds[other] = [
            Meld(
                m.kind,
                m.kinds,
                None if m.claimed is None else kind_of(m.claimed),
                m.from_seat,
            )
            for m in plain.melds[other]
        ]
        won = won_tiles[other]
        won[:] = [kind_of(t) for t in won]
    if plain.drawn is not None:
        plain.drawn = kind_of(plain.drawn)
    window = plain.window
    if window is not None:
        window.tile = kind_of(window.tile)
        window.options = {
            seat: [_as_kinds(a) for a in options if not _names_red_five(a)]
            for seat, options in window.options.items()
        }
    return plain


def physical_action(state: HandState, chosen: Action) -> Action:
    """The legal action a choice made on `as_kinds(state, seat)` stands for: the same action, or
    the one naming the same kinds, a plain five before a red one (a red five is kept: it
    scores more); a call sets the red five in its meld where it may (the module says why)."""
    legal = state.legal_actions(chosen.seat)
    if chosen in legal:
        tile = state.claim_tile
        if chosen.kind in _CHOOSING and tile is not None:
            red = state.red_choice(chosen.seat, chosen, tile)
            if red is not None and red in legal:
                return red
        return chosen
    for action in legal:
        if action.kind is chosen.kind and _as_kinds(action) == chosen:
            return action
    raise IllegalActionError(f"no legal action of the kinds of {chosen}")
