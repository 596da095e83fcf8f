"""What three-player Riichi (`sanma`, RULES.md "Riichi") adds to Riichi's parts: nuki.

- `Nuki`: on the own turn a held north may be set aside (not a call, not a meld): it is one dora
  for its owner (nuki dora), the owner draws a replacement from the dead wall, and the go-around
  counts as interrupted as by a call (`HandState.interrupt`: ippatsu, double riichi, the
  first-draw wins and nine terminals end). A hand in riichi sets aside only a drawn north (its
  waits stay as they are); right after a pon (no draw) nothing is set aside. RULES.md is silent
  on a win on a north set aside; as in Tenhou's sanma, a hand it completes (with a yaku) may
  ron it through the loop's rob window: a ron as on a discard (no chankan), paid by the one who
  set it aside, whose nuki dora it never becomes. Passing it is furiten as a passed discard is;
  when nobody rons, it is set aside and replaced (`commit`).

The rest of sanma is data in engine.families.riichi.presets (the 108 tiles, three seats, no chi,
the dead wall of 14 with its indicators set apart and 8 replacements) and Riichi's own parts.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from engine.actions import Action, DeclaredKind, declare_kind
from engine.events import Event
from engine.families.riichi.rules import RiichiPart
from engine.parts import Part, Rule
from engine.scoring.base import WinBy
from engine.table_facts import SeatTiles, TableFacts
from engine.tiles import NORTH, Tile, kind_of

if TYPE_CHECKING:
    from engine.hand import HandState

NUKI = declare_kind("nuki")


@dataclass(frozen=True, slots=True)
class Nuki(Rule):
    """A held `kind` (the north) set aside on the own turn as one dora, replaced from the dead
    wall while a replacement and a live-wall tile are left."""

    kind: Tile = NORTH


class NukiPart(Part):
    owns = frozenset({NUKI})
    labels: ClassVar[Mapping[DeclaredKind, str]] = {NUKI: "bot.declare.nuki"}
    computer_takes = frozenset({NUKI})  # a beginner sets a north aside whenever it may

    def __init__(self, rule: Nuki, state: HandState) -> None:
        super().__init__(rule, state)
        self.set_aside: list[list[Tile]] = [[] for _ in range(state.seat_count)]

    def offer(self, seat: int) -> list[Action]:
        state, kind = self.state, self.rule.kind
        drawn = state.drawn
        if drawn is None or not state.held_counts(seat)[kind]:
            return []  # right after a pon the turn has no draw: a discard first
        if state.wall_left <= 0 or not state.wall_part.can_replace():
            return []
        riichi = state.part_of(RiichiPart)
        if riichi is not None and riichi.declared[seat] and kind_of(drawn) != kind:
            return []  # a locked hand keeps its tiles: only a drawn north leaves it
        return [Action(seat, NUKI, (kind,))]

    def apply_action(self, action: Action) -> None:
        """Told to the table, then offered to a ron (as on a discard, Tenhou's sanma) before
        it is set aside (`commit`)."""
        self.state.emit(Event("nuki", action.seat, action.tile))
        self.state.open_rob_window(action, action.tile, WinBy.DISCARD)

    def commit(self, declared: Action) -> None:
        """Nobody ronned the north: set aside as one dora, replaced from the dead wall."""
        state, seat = self.state, declared.seat
        state.remove_tile(seat, declared.tile)
        self.set_aside[seat].append(declared.tile)
        state.interrupt(seat)
        state.draw_replacement(seat)

    def count(self, seat: int) -> int:
        """The norths `seat` has set aside: public, each one dora for it."""
        return len(self.set_aside[seat])

    def context(self, seat: int) -> dict[str, object]:
        return {"nuki": self.count(seat)}

    def table_facts(self) -> TableFacts:
        """Each seat's norths set aside, in the open for the whole table."""
        return TableFacts(
            seat_tiles=tuple(
                SeatTiles(seat, "nuki", tuple(tiles))
                for seat, tiles in enumerate(self.set_aside)
                if tiles
            )
        )

    def held_tiles(self) -> list[Tile]:
        return [t for tiles in self.set_aside for t in tiles]


Nuki.part = NukiPart
