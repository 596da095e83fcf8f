"""What one seat can see: its own tiles and every public fact of the hand, nothing else.

A computer player decides from a `SeatView`, never from the whole `HandState`, so it cannot use
other seats' concealed tiles or the wall order (a test proves two states that differ only there
give equal views). The constructor is the one place that reads a `HandState`: when the engine's
internals change, only `SeatView.of` needs to follow.

>>> from engine.hand import HandState
>>> from engine.presets import find_preset
>>> view = SeatView.of(HandState(find_preset("hkos-3-v1"), seed=3), 0)
>>> len(view.hand) + 3 * len(view.melds[0]) >= 14, view.seat_count
(True, 4)
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from operator import attrgetter
from typing import TYPE_CHECKING

from engine.actions import Action, ActionKind
from engine.hand_setup import HandSetup
from engine.preset import Preset
from engine.rules import AfterWinPart, OpeningsPart, void_suit
from engine.table_facts import TableFacts, table_facts
from engine.tiles import NUM_KINDS, Meld, Tile, is_red, kind_of

if TYPE_CHECKING:
    from engine.hand import HandState


_NO_SETUP = HandSetup()  # a table that keeps no points (tests)


@dataclass(frozen=True, slots=True)
class SeatView:
    """A seat's knowledge at one decision. Tuples per seat are indexed by hand seat (0 = dealer)."""

    preset: Preset
    seat: int
    seat_count: int
    phase: str  # engine.hand.Phase value: opening, turn, claims, rob
    legal: tuple[Action, ...]
    hand: tuple[Tile, ...]  # own concealed tiles, sorted (the drawn tile included)
    counts: tuple[int, ...]  # own concealed tiles as a 34-count vector
    drawn: Tile | None  # own tile just drawn, on own turn
    removed: tuple[Tile, ...]  # own tiles taken out of play by a discard-three opening
    melds: tuple[tuple[Meld, ...], ...]
    ponds: tuple[tuple[Tile, ...], ...]  # every discard in order, claimed ones included
    bonus: tuple[tuple[Tile, ...], ...]
    void: tuple[str | None, ...]  # declared void suits (None until all have declared)
    left: tuple[bool, ...]  # blood battle winners who left
    locked: tuple[bool, ...]  # blood flow winners with a locked hand
    revealed: tuple[tuple[Tile, ...], ...]  # a locked hand is shown; () for the others
    claim_tile: Tile | None
    claim_from: int | None
    wall_left: int
    round_wind: int
    points: tuple[int, ...]  # this hand's running point changes
    visible: tuple[int, ...]  # per kind, copies this seat can account for (own tiles included)
    wilds: frozenset[Tile] = frozenset()  # this hand's wild kinds (shown to everyone)
    set_down: tuple[tuple[Tile, ...], ...] = ()  # per seat, tiles set down as fixed or wild kongs
    # per seat, tiles it could have won on since its own last discard (others' discards, tiles
    # added to kongs) and did not: its hand has not changed since (engine/computer reads them)
    offered: tuple[tuple[Tile, ...], ...] = ()
    # Riichi's public facts: the dora indicators turned; per seat, the pond index of its riichi
    # discard (-1: none) and the tiles others discarded since (it cannot win on them: furiten);
    # the table as the hand started (points, honba, pot); own red fives (a computer deciding on
    # kinds sees fives only)
    dora: tuple[Tile, ...] = ()
    riichi_at: tuple[int, ...] = ()
    after_riichi: tuple[tuple[Tile, ...], ...] = ()
    setup: HandSetup = _NO_SETUP
    own_reds: int = 0

    def __reduce__(self) -> tuple[type[SeatView], tuple[object, ...]]:
        # it crosses to a decision worker (bot/runtime/decisions.py): by its fields in order
        return SeatView, _FIELDS(self)

    @classmethod
    def of(cls, state: HandState, seat: int) -> SeatView:
        """The view of `seat` in `state` (the only reader of HandState in the computer player)."""
        seat_count = state.seat_count
        seats = range(seat_count)
        counts = state.tile_counts(seat)
        melds = tuple(tuple(state.melds[s]) for s in seats)
        ponds = tuple(tuple(state.ponds[s]) for s in seats)
        after_win = state.require(AfterWinPart)
        locked = tuple(bool(after_win.locked[s]) for s in seats)
        revealed = tuple(
            tuple(state.concealed(s)) if locked[s] and s != seat else () for s in seats
        )
        openings = state.part_of(OpeningsPart)
        removed = tuple(openings.removed[seat]) if openings is not None else ()
        visible = list(counts)
        for s in seats:
            pond = ponds[s]
            for tile in pond:
                visible[tile] += 1
            for index in state.claimed[s]:  # a claimed discard is counted in its meld
                visible[pond[index]] -= 1
            for meld in melds[s]:
                for tile in meld.tiles:
                    visible[tile] += 1
            for tile in after_win.won_tiles[s]:
                visible[tile] += 1
            for tile in revealed[s]:
                visible[tile] += 1
        for tile in removed:
            visible[tile] += 1
        facts = table_facts(state)
        set_down = _set_down(state, facts)
        for tiles in set_down:
            for tile in tiles:
                visible[tile] += 1
        phase = state.phase.value
        if state.claim_tile is not None and phase == "rob":
            visible[state.claim_tile] += 1  # the robbed kong's fourth tile is shown
        on_turn = phase == "turn" and state.turn == seat
        return cls(
            preset=state.preset,
            seat=seat,
            seat_count=seat_count,
            phase=phase,
            legal=tuple(state.legal_actions(seat)),
            hand=tuple(state.concealed(seat)),
            counts=tuple(counts),
            drawn=state.drawn if on_turn else None,
            removed=removed,
            melds=melds,
            ponds=ponds,
            bonus=tuple(tuple(state.bonus[s]) for s in seats),
            void=tuple(void_suit(state, s) for s in seats),
            left=tuple(bool(after_win.left[s]) for s in seats),
            locked=locked,
            revealed=revealed,
            claim_tile=state.claim_tile,
            claim_from=state.claim_from,
            wall_left=state.wall_left,
            round_wind=state.round_wind,
            points=tuple(state.points[s] for s in seats),
            visible=tuple([v if v < 4 else 4 for v in visible[:NUM_KINDS]]),
            wilds=state.wild_kinds,
            set_down=set_down,
            offered=_offered(state),
            dora=_dora(facts),
            **_riichi_facts(facts),  # type: ignore[arg-type]
            setup=state.setup,
        )

    def with_own_reds(self, state: HandState) -> SeatView:
        """This view (made on the hand's kinds) with the seat's own red fives counted from the
        physical hand `state`: its concealed tiles and melds."""
        seat = self.seat
        tiles = [*state.hands[seat], *(t for m in state.melds[seat] for t in m.tiles)]
        return replace(self, own_reds=sum(1 for t in tiles if is_red(t)))

    def unseen(self, tile: Tile) -> int:
        """Copies of `tile` this seat cannot account for (in others' hands or the wall)."""
        return 4 - self.visible[tile]


def _set_down(state: HandState, facts: TableFacts) -> tuple[tuple[Tile, ...], ...]:
    """Per seat, the tiles it set down as fixed kongs (red, green) and wild kongs, shown to all."""
    if not facts.kongs_set_down:
        return ()
    return tuple(facts.set_down(s) for s in range(state.seat_count))


_OFFERING = (ActionKind.DISCARD, ActionKind.ADDED_KONG)


def _offered(state: HandState) -> tuple[tuple[Tile, ...], ...]:
    """Per seat, the tiles others discarded or added to a kong since that seat's last discard
    (read back from the log: a seat's concealed tiles change only on its own turn)."""
    offered: list[list[Tile]] = [[] for _ in range(state.seat_count)]
    open_seats = set(range(state.seat_count))
    for action in reversed(state.log):
        if not open_seats:
            break
        if action.kind not in _OFFERING:
            continue
        if action.kind is ActionKind.DISCARD:
            open_seats.discard(action.seat)
        for seat in open_seats:
            if seat != action.seat:
                offered[seat].append(action.tiles[0])
    return tuple(tuple(tiles) for tiles in offered)


def _dora(facts: TableFacts) -> tuple[Tile, ...]:
    """The dora indicators turned so far (shown to all), where the preset has them."""
    dora = facts.indicator("dora")
    return () if dora is None else tuple(kind_of(t) for t in dora.tiles)


def _riichi_facts(facts: TableFacts) -> dict[str, object]:
    """Per seat, the pond index of its riichi discard (-1: none) and the tiles others discarded
    since; nothing before a declaration."""
    if not facts.declared_at:
        return {}
    return {"riichi_at": facts.declared_at, "after_riichi": facts.after_declared}


_FIELDS = attrgetter(*(f.name for f in fields(SeatView)))
