"""Player decisions: the only things written to a hand's action log.

Draws, flower and kong replacements are consequences the state applies itself; the log holds
only what players chose, so seed + log replays a hand exactly.

The loop's own kinds are `ActionKind`; a rule component may declare more (`declare_kind`: a
declaration such as setting a tile aside), which parse and print like the loop's own.

>>> Action.parse("2 chow 345m")
Action.parse('2 chow 345m')
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum

from engine.i18n import text as catalogued  # `text` here is the notation parsed
from engine.tiles import (
    MAX_SEATS,
    NUM_TILE_IDS,
    InvalidNotationError,
    Tile,
    format_tiles,
    parse_tiles,
)


class ActionKind(StrEnum):
    DISCARD = "discard"  # tiles = (tile,): the physical tile (0m, not 5m, for a red five)
    WIN = "win"  # self draw on own turn, or a claim on a discard / robbed kong
    PASS = "pass"  # decline a claim (or, in an opening, nothing)
    CHOW = "chow"  # tiles = the three tiles of the chow, claimed tile included
    PUNG = "pung"  # tiles = (claimed tile,), as discarded
    KONG = "kong"  # exposed kong on a discard; tiles = (claimed tile,), as discarded
    CONCEALED_KONG = "concealed_kong"  # tiles = (tile,)
    ADDED_KONG = "added_kong"  # tiles = (tile,)
    SWAP = "swap"  # Sichuan: the three tiles passed on
    REMOVE = "remove"  # discard three: the three tiles leaving play
    VOID = "void"  # the declared missing suit, in `suit`
    TIME_UP = "time_up"  # the table clock's deal limit ran out (logged by the table, seat 0)


class DeclaredKind(str):
    """An action kind a rule component declares (engine.parts `Part.owns`): a name beside the
    loop's own `ActionKind`s, compared by identity like them (one object per name)."""

    __slots__ = ()

    @property
    def value(self) -> str:
        return str(self)

    def __repr__(self) -> str:
        return f"DeclaredKind({str(self)!r})"

    def __reduce__(self) -> tuple[Callable[[str], DeclaredKind], tuple[str]]:
        return _declared_again, (str(self),)


def _declared_again(name: str) -> DeclaredKind:
    """A pickled declared kind, made again as the one object of its name where declared."""
    found = _DECLARED.get(name)
    return DeclaredKind(name) if found is None else found


_DECLARED: dict[str, DeclaredKind] = {}


def declare_kind(name: str) -> DeclaredKind:
    """The action kind `name` of a rule component (the same object on every call), so that
    `Action.parse` reads it; a name the loop uses already is refused."""
    if name in ActionKind._value2member_map_ or not name.replace("_", "").isalpha():
        raise ValueError(f"{name!r} cannot name a declared action kind")
    found = _DECLARED.get(name)
    if found is None:
        found = _DECLARED[name] = DeclaredKind(name)
    return found


def kind_named(name: str) -> ActionKind | DeclaredKind | None:
    """The loop's or a rule's action kind of this name, or None."""
    found = ActionKind._value2member_map_.get(name)
    return found if found is not None else _DECLARED.get(name)  # type: ignore[return-value]


CLAIM_PRIORITY: dict[ActionKind | DeclaredKind, int] = {
    ActionKind.WIN: 3,
    ActionKind.KONG: 2,
    ActionKind.PUNG: 2,
    ActionKind.CHOW: 1,
    ActionKind.PASS: 0,
}


@dataclass(frozen=True, slots=True)
class Action:
    seat: int
    kind: ActionKind | DeclaredKind
    tiles: tuple[Tile, ...] = ()
    suit: str = ""

    def __reduce__(self) -> tuple[Callable[..., Action], tuple[object, ...]]:
        # pickled by its fields (a computer's view crosses to a decision worker, ten actions
        # a view): a slotted dataclass's own way costs ~5 us more each
        return _action_again, (self.seat, self.kind, self.tiles, self.suit)

    @classmethod
    def parse(cls, text: str) -> Action:
        """Parse '<seat> <kind> [tiles|suit]', e.g. '0 discard 5m', '1 void s', '3 win'."""
        parts = text.split()
        if len(parts) not in (2, 3) or not parts[0].isdigit() or int(parts[0]) >= MAX_SEATS:
            raise InvalidNotationError(
                catalogued("fixups.action.form", last=MAX_SEATS - 1, given=repr(text))
            )
        kind = kind_named(parts[1])
        if kind is None:
            raise InvalidNotationError(
                catalogued("fixups.action.unknown", kind=repr(parts[1]), given=repr(text))
            )
        seat = int(parts[0])
        if kind is ActionKind.VOID:
            if len(parts) != 3 or parts[2] not in ("m", "p", "s"):
                raise InvalidNotationError(catalogued("fixups.action.void", given=repr(text)))
            return cls(seat, kind, suit=parts[2])
        tiles = tuple(parse_tiles(parts[2])) if len(parts) == 3 else ()
        return cls(seat, kind, tiles)

    @property
    def tile(self) -> Tile:
        return self.tiles[0]

    def __str__(self) -> str:
        rest = self.suit or format_tiles(self.tiles)
        return f"{self.seat} {self.kind.value}" + (f" {rest}" if rest else "")

    def __repr__(self) -> str:
        return f"Action.parse({str(self)!r})"


# Actions are immutable values, so the ones offered on every turn and claim window are built once
# and shared instead of being rebuilt for each legal-action list: [kind][seat][tile], [kind][seat].
# Every physical tile id has its actions (a red five is discarded, punged and claimed as itself).
TILE_ACTIONS: dict[ActionKind, tuple[tuple[Action, ...], ...]] = {
    kind: tuple(
        tuple(Action(seat, kind, (tile,)) for tile in range(NUM_TILE_IDS))
        for seat in range(MAX_SEATS)
    )
    for kind in (
        ActionKind.DISCARD,
        ActionKind.PUNG,
        ActionKind.KONG,
        ActionKind.CONCEALED_KONG,
        ActionKind.ADDED_KONG,
    )
}
SEAT_ACTIONS: dict[ActionKind, tuple[Action, ...]] = {
    kind: tuple(Action(seat, kind) for seat in range(MAX_SEATS))
    for kind in (ActionKind.WIN, ActionKind.PASS)
}


_MADE_AGAIN: dict[tuple[object, ...], Action] = {}
_MADE_AGAIN_MAX = 50_000  # far more than the distinct actions of every table: never reached


def _action_again(
    seat: int, kind: ActionKind | DeclaredKind, tiles: tuple[Tile, ...], suit: str
) -> Action:
    """A pickled action made again, one object per distinct action: a decision worker reads
    thousands of views a second holding the same few hundred actions, and a frozen
    dataclass is slow to make (2.7 us each; a lookup 0.3)."""
    key = (seat, kind, tiles, suit)
    found = _MADE_AGAIN.get(key)
    if found is None:
        if len(_MADE_AGAIN) >= _MADE_AGAIN_MAX:
            _MADE_AGAIN.clear()
        found = _MADE_AGAIN[key] = Action(seat, kind, tiles, suit)
    return found
