"""The claim window as a value: a tile offered to the other seats' calls and wins (a discard) or
to robbing wins only (a kong's tile, a rule's declaration), and what the loop needs to close it."""

from __future__ import annotations

from dataclasses import dataclass

from engine.actions import Action, ActionKind, DeclaredKind
from engine.scoring.base import WinBy
from engine.tiles import Tile


@dataclass(slots=True)
class ClaimWindow:
    """One window. The hand keeps the last one after it closes: what it started (a call, the
    wins settled on its tile, the declaration carried out) still reads its tile and seat."""

    tile: Tile  # the tile offered (in a rob window, the physical tile robbed)
    source: int  # the seat whose tile it is
    # in a rob window: the declaration that stands when nobody robs it (None: a discard)
    declared: Action | None
    rob_by: WinBy  # how a win in a rob window counts
    # each asked seat's options: answers do not change them
    options: dict[int, list[Action]]

    @property
    def rob_kind(self) -> ActionKind | DeclaredKind | None:
        """The kind of the declaration a rob window may rob (None for a discard)."""
        return None if self.declared is None else self.declared.kind
