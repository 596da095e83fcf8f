"""Pillow pictures of the game: tile sprites, a player's hand, the table, the hand's result,
a finished game's standings.

render depends on engine only (never on discord, never on the hand state machine: it draws
views, plain data built by render.adapt or by the bot). Names load on first use, so building
the command line (which imports render.cli) does not pay for importing Pillow.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from render.hand import render_hand
    from render.result import render_result
    from render.standings import StandingRow, StandingsView, render_standings
    from render.style import to_png
    from render.table import render_table
    from render.tiles import back_sprite, tile_sprite
    from render.views import (
        HandView,
        ResultView,
        SeatView,
        SetAside,
        TableView,
        WinView,
        pretty_pattern,
    )

_HOMES = {
    "render_hand": "render.hand",
    "render_result": "render.result",
    "render_standings": "render.standings",
    "StandingRow": "render.standings",
    "StandingsView": "render.standings",
    "render_table": "render.table",
    "to_png": "render.style",
    "tile_sprite": "render.tiles",
    "back_sprite": "render.tiles",
    "HandView": "render.views",
    "SeatView": "render.views",
    "SetAside": "render.views",
    "TableView": "render.views",
    "WinView": "render.views",
    "ResultView": "render.views",
    "pretty_pattern": "render.views",
}

__all__ = [
    "HandView",
    "ResultView",
    "SeatView",
    "SetAside",
    "StandingRow",
    "StandingsView",
    "TableView",
    "WinView",
    "back_sprite",
    "pretty_pattern",
    "render_hand",
    "render_result",
    "render_standings",
    "render_table",
    "tile_sprite",
    "to_png",
]


def __getattr__(name: str) -> Any:
    if name not in _HOMES:
        raise AttributeError(f"module 'render' has no attribute {name!r}")
    return getattr(import_module(_HOMES[name]), name)
