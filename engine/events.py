"""What happened in a hand: the events `HandState.apply` returns (re-exported by engine.hand)."""

from __future__ import annotations

from dataclasses import dataclass

from engine.tiles import Tile


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened; `private` events concern only `seat`'s hidden tiles."""

    kind: str
    seat: int | None = None
    tile: Tile | None = None
    detail: str = ""
    private: bool = False
