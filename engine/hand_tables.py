"""The values the loop in `engine.hand` meets again and again, built once: the seats after each
seat, the shared actions it offers, each tile's chows, and the events of every turn (actions and
events are immutable values, and building one costs more than finding it)."""

from __future__ import annotations

from engine.actions import SEAT_ACTIONS, TILE_ACTIONS, Action, ActionKind
from engine.events import Event
from engine.tiles import FIVES, MAX_SEATS, NUM_TILE_IDS, Meld, MeldKind, Tile, red_five_of

SEATS = range(MAX_SEATS)
# per table size, per seat: the other seats in turn order
SEATS_AFTER = {
    count: tuple(tuple((seat + k) % count for k in range(1, count)) for seat in range(count))
    for count in range(2, MAX_SEATS + 1)
}

# the shared actions (engine.actions) the per-action paths offer, bound as module globals
DISCARD_ACTIONS = TILE_ACTIONS[ActionKind.DISCARD]
PUNG_ACTIONS = TILE_ACTIONS[ActionKind.PUNG]
KONG_ACTIONS = TILE_ACTIONS[ActionKind.KONG]
CONCEALED_KONG_ACTIONS = TILE_ACTIONS[ActionKind.CONCEALED_KONG]
ADDED_KONG_ACTIONS = TILE_ACTIONS[ActionKind.ADDED_KONG]
WIN_ACTIONS = SEAT_ACTIONS[ActionKind.WIN]
PASS_ACTIONS = SEAT_ACTIONS[ActionKind.PASS]


def _chow_options(seat: int, tile: Tile) -> tuple[tuple[Tile, Tile, Action], ...]:
    """Each run of the suited tile's suit through it: the two other tiles it needs, and the
    seat's chow of it."""
    found = []
    for start in (tile - 2, tile - 1, tile):
        if start // 9 == tile // 9 and start % 9 <= 6:
            run = (start, start + 1, start + 2)
            first, second = (t for t in run if t != tile)
            found.append((first, second, Action(seat, ActionKind.CHOW, run)))
    return tuple(found)


CHOW_OPTIONS = tuple(tuple(_chow_options(seat, tile) for tile in range(27)) for seat in SEATS)

# The events of every turn, built once per seat and physical tile: events are immutable values.
DISCARD_EVENTS = tuple(
    tuple(Event("discard", seat, tile) for tile in range(NUM_TILE_IDS)) for seat in SEATS
)
DRAW_EVENTS = tuple(
    tuple(Event("draw", seat, tile, private=True) for tile in range(NUM_TILE_IDS)) for seat in SEATS
)
# each five's red five (the other kinds have none)
RED_OF: dict[Tile, Tile] = {five: red_five_of(five) for five in FIVES}


# Public events met again and again (a bonus tile, a payment's deltas, a call, the end), shared:
# events are immutable values, and building one costs more than finding it.
_EVENTS: dict[tuple[str, int | None, Tile | None, str, str], Event] = {}
_EVENTS_LIMIT = 20_000  # payments' details vary: forget them all now and then


def shared_event(
    kind: str, seat: int | None = None, tile: Tile | None = None, detail: str = "", reason: str = ""
) -> Event:
    key = (kind, seat, tile, detail, reason)
    found = _EVENTS.get(key)
    if found is None:
        if len(_EVENTS) >= _EVENTS_LIMIT:
            _EVENTS.clear()
        found = _EVENTS[key] = Event(kind, seat, tile, detail, reason=reason)
    return found


# A claim window's event per (discarder, tile, asked seats), found without writing its detail.
_WINDOW_EVENTS: dict[tuple[int, Tile, tuple[int, ...]], Event] = {}


def window_event(seat: int, tile: Tile, asked: tuple[int, ...]) -> Event:
    found = _WINDOW_EVENTS.get((seat, tile, asked))
    if found is None:
        detail = ",".join(map(str, asked))
        found = _WINDOW_EVENTS[seat, tile, asked] = shared_event("claim_window", seat, tile, detail)
    return found


# A call's meld and its event per (caller, call, tile, discarder): a meld checks its tiles when
# built, and its event spells them out.
_CALLS: dict[tuple[int, Action, Tile, int], tuple[Meld, Event]] = {}


def call_meld(claim: Action, tile: Tile, source: int) -> tuple[Meld, Event]:
    found = _CALLS.get((claim.seat, claim, tile, source))
    if found is None:
        if claim.kind is ActionKind.CHOW:
            meld = Meld(MeldKind.CHOW, claim.tiles, tile, source)
        else:
            kong = claim.kind is ActionKind.KONG
            kind = MeldKind.KONG if kong else MeldKind.PUNG
            meld = Meld(kind, (tile,) * (4 if kong else 3), tile, source)
        found = meld, shared_event("call", claim.seat, tile, str(meld))
        _CALLS[claim.seat, claim, tile, source] = found
    return found
