"""The order of play of a tenhou.net/6 hand, rebuilt from its per-seat lists
(engine.formats.tenhou6.log).

The log keeps each seat's takes and discards apart, so which discard a call took is implied: a seat
whose next take is a call of the tile just discarded, from the discarder, may have called it, or
may have let it pass and called the same tile discarded later. The walk tries a call first (pon and
kong before chi, as their priority says) and backs up to the other reading when the rest of the
hand does not fit; a hand fits when every list is used up at an end its result allows.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum

from engine.formats.tenhou6.log import (
    WIN,
    Call,
    CallKind,
    Discard,
    Hand,
    KanGap,
    Nuki,
    Tenhou6Error,
    encode_call,
    encode_item,
    encode_tile,
)
from engine.tiles import Tile, tile_name

NINE_TERMINALS = "九種九牌"


class ActionKind(StrEnum):
    DRAW = "draw"
    DISCARD = "discard"
    CHI = "chi"
    PON = "pon"
    DAIMINKAN = "daiminkan"
    KAKAN = "kakan"
    ANKAN = "ankan"
    RIICHI = "riichi"
    NUKI = "nuki"
    TSUMO = "tsumo"
    RON = "ron"
    NINE_TERMINALS = "nine_terminals"


_CALL_ACTIONS = {
    CallKind.CHI: ActionKind.CHI,
    CallKind.PON: ActionKind.PON,
    CallKind.DAIMINKAN: ActionKind.DAIMINKAN,
    CallKind.KAKAN: ActionKind.KAKAN,
    CallKind.ANKAN: ActionKind.ANKAN,
}
# Which calls of one discard win over which: pon and kong before chi.
_PRIORITY = {CallKind.PON: 0, CallKind.DAIMINKAN: 0, CallKind.CHI: 1}


@dataclass(frozen=True)
class Action:
    """One step of play. `tile` is the tile drawn, discarded, called, added, set aside or won on;
    `tiles` a call's tiles; `source` the seat a called or ron tile came from; `from_draw` marks a
    discard of the tile just drawn (tsumogiri)."""

    seat: int
    kind: ActionKind
    tile: Tile | None = None
    tiles: tuple[Tile, ...] = ()
    source: int | None = None
    from_draw: bool = False


@dataclass
class _Failure:
    """The failure that got furthest into the hand: the one worth reporting."""

    progress: int = -1
    message: str = ""

    def note(self, progress: int, message: str) -> None:
        if progress > self.progress:
            self.progress, self.message = progress, message


@dataclass
class _Cursor:
    took: list[int]
    threw: list[int]
    drawn: list[Tile | None]
    held: list[list[Tile]]  # each seat's concealed tiles, to tell a reading that cannot be
    actions: list[Action] = field(default_factory=list)

    def copy(self) -> _Cursor:
        held = [[*tiles] for tiles in self.held]
        return _Cursor([*self.took], [*self.threw], [*self.drawn], held, [*self.actions])

    def give_up(self, seat: int, tiles: Iterable[Tile]) -> bool:
        """Take these tiles out of a seat's hand; False when it does not hold them all."""
        held = self.held[seat]
        for tile in tiles:
            if tile not in held:
                return False
            held.remove(tile)
        return True


def order_of_play(hand: Hand, number: int = 1) -> tuple[Action, ...]:
    """Every seat's actions in the order they happened, ending with the wins (or the nine
    terminals declaration); `number` is the hand's place in its log, for messages."""
    seats = len(hand.starts)
    walk = _Walk(hand, number, seats)
    held = [list(tiles) for tiles in hand.starts]
    start = _Cursor([0] * seats, [0] * seats, [None] * seats, held)
    actions = walk.run(start, hand.dealer, must_draw=True)
    if actions is None:
        raise Tenhou6Error(walk.failure.message)
    return tuple(actions)


class _Walk:
    def __init__(self, hand: Hand, number: int, seats: int) -> None:
        self.hand, self.number, self.seats = hand, number, seats
        self.failure = _Failure()

    def fail(self, at: _Cursor, seat: int, token: object, why: str) -> None:
        self.failure.note(
            len(at.actions), f"hand {self.number}, seat {seat}, token {token!r}: {why}"
        )

    def run(self, at: _Cursor, seat: int, must_draw: bool) -> list[Action] | None:
        """Play on from `seat` (drawing first when `must_draw`) to the hand's end."""
        hand = self.hand
        while True:
            if must_draw:
                takes = hand.takes[seat]
                if at.took[seat] == len(takes):
                    return self.finish(at)
                take = takes[at.took[seat]]
                if isinstance(take, Call):
                    self.fail(at, seat, encode_call(take), "a call where a draw is due")
                    return None
                at.took[seat] += 1
                at.drawn[seat] = take
                at.held[seat].append(take)
                at.actions.append(Action(seat, ActionKind.DRAW, take))
            discards = hand.discards[seat]
            if at.threw[seat] == len(discards):
                return self.finish(at)
            item = discards[at.threw[seat]]
            at.threw[seat] += 1
            if isinstance(item, Nuki):
                if not at.give_up(seat, [item.tile]):
                    self.fail(at, seat, encode_item(item), "a north not in the hand")
                    return None
                at.actions.append(Action(seat, ActionKind.NUKI, item.tile))
                must_draw = True
                continue
            if isinstance(item, Call):
                from_hand = item.tiles if item.kind is CallKind.ANKAN else [item.tile]
                if not at.give_up(seat, from_hand):
                    self.fail(at, seat, encode_call(item), "a kong of tiles not in the hand")
                    return None
                source = item.source(seat)
                kind = _CALL_ACTIONS[item.kind]
                at.actions.append(Action(seat, kind, item.tile, item.tiles, source))
                must_draw = True
                continue
            if isinstance(item, KanGap):
                self.fail(at, seat, 0, "an open kong's empty slot with no open kong")
                return None
            tile = self.discarded(at, seat, item, must_draw)
            if tile is None:
                return None
            for caller, call in self.callers(at, seat, tile):
                ended = self.take_call(at.copy(), caller, call, seat)
                if ended is not None:
                    return ended
            seat, must_draw = (seat + 1) % self.seats, True

    def discarded(self, at: _Cursor, seat: int, item: Discard, drew: bool) -> Tile | None:
        tile = item.tile if item.tile is not None else at.drawn[seat]
        if tile is None or (item.tile is None and not drew):
            self.fail(at, seat, 60, "the drawn tile discarded when nothing was drawn")
            return None
        if not at.give_up(seat, [tile]):
            self.fail(at, seat, encode_tile(tile), "a discard of a tile not in the hand")
            return None
        if item.riichi:
            at.actions.append(Action(seat, ActionKind.RIICHI))
        from_draw = item.tile is None
        at.actions.append(Action(seat, ActionKind.DISCARD, tile, from_draw=from_draw))
        return tile

    def callers(self, at: _Cursor, seat: int, tile: Tile) -> list[tuple[int, Call]]:
        """The seats whose next take is a call of this discard, in the order calls win."""
        found = []
        for other in range(self.seats):
            takes = self.hand.takes[other]
            if other == seat or at.took[other] == len(takes):
                continue
            item = takes[at.took[other]]
            if isinstance(item, Call) and item.source(other) == seat and item.tile == tile:
                found.append((other, item))
        return sorted(found, key=lambda pair: _PRIORITY[pair[1].kind])

    def take_call(self, at: _Cursor, caller: int, call: Call, source: int) -> list[Action] | None:
        at.took[caller] += 1
        at.drawn[caller] = None
        own = [*call.tiles[: call.slot], *call.tiles[call.slot + 1 :]]
        if not at.give_up(caller, own):
            self.fail(at, caller, encode_call(call), "a call with tiles not in the hand")
            return None
        kind = _CALL_ACTIONS[call.kind]
        at.actions.append(Action(caller, kind, call.tile, call.tiles, source))
        if call.kind is not CallKind.DAIMINKAN:
            return self.run(at, caller, must_draw=False)
        discards = self.hand.discards[caller]
        index = at.threw[caller]
        if index == len(discards) or not isinstance(discards[index], KanGap):
            self.fail(at, caller, encode_call(call), "an open kong without its empty discard (0)")
            return None
        at.threw[caller] += 1
        return self.run(at, caller, must_draw=True)

    def finish(self, at: _Cursor) -> list[Action] | None:
        """The hand's end, when every list is used up and the last action fits the result."""
        for seat in range(self.seats):
            takes, discards = self.hand.takes[seat], self.hand.discards[seat]
            left = [*takes[at.took[seat] :], *discards[at.threw[seat] :]]
            if left:
                self.fail(at, seat, encode_item(left[0]), "left over when the hand has ended")
                return None
        last = at.actions[-1] if at.actions else None
        result = self.hand.result
        if result.name == NINE_TERMINALS:
            if last is None or last.kind is not ActionKind.DRAW:
                self.fail(at, -1, result.name, "nine terminals declared other than on a draw")
                return None
            return [*at.actions, Action(last.seat, ActionKind.NINE_TERMINALS)]
        if result.name != WIN:
            return at.actions
        ends = []
        for win in result.wins:
            # a ron takes a discard, a robbed added kong, or (Tenhou's sanma) a north set aside
            robbed = (ActionKind.DISCARD, ActionKind.KAKAN, ActionKind.NUKI)
            wanted = (ActionKind.DRAW,) if win.tsumo else robbed
            if last is None or last.kind not in wanted or last.seat != win.from_seat:
                info = [win.winner, win.from_seat, win.pao]
                self.fail(at, win.winner, info, "the win does not follow its tile")
                return None
            kind = ActionKind.TSUMO if win.tsumo else ActionKind.RON
            source = None if win.tsumo else win.from_seat
            ends.append(Action(win.winner, kind, last.tile, source=source))
        return [*at.actions, *ends]


def describe(action: Action) -> str:
    """One action as a short line in our notation, e.g. `2 pon 6s from 3`, for tests and logs."""
    text = f"{action.seat} {action.kind.value}"
    if action.tile is not None:
        text += f" {tile_name(action.tile)}"
    if action.source is not None:
        text += f" from {action.source}"
    return text
