"""How the runtime tells a front end (Discord, the terminal, tests) what happened.

Public calls carry nothing hidden; `hand_changed` and `decision` are addressed to one player
and are the only way that player's concealed tiles or options leave the runtime.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from engine.actions import Action

if TYPE_CHECKING:
    from bot.runtime.table import LiveTable


class FrontEnd(Protocol):
    async def table_changed(self, table: LiveTable) -> None:
        """The public table changed (seats, discards, calls, phase)."""

    async def hand_changed(self, table: LiveTable, player: int) -> None:
        """Player `player`'s own hand changed (a draw, a call, the deal)."""

    async def decision(
        self, table: LiveTable, player: int, actions: list[Action], deadline: float | None
    ) -> None:
        """Player `player` has a decision to make: these actions, until `deadline` (or none)."""

    async def hand_ended(self, table: LiveTable) -> None:
        """The hand is over: the result is in `table.hand.outcome()` and `table.last_result`."""

    async def table_closed(self, table: LiveTable, reason: str) -> None:
        """The table closed (players ended it, or it expired)."""


class NullFrontEnd:
    """A front end that shows nothing: for benchmarks and computer-only tables."""

    async def table_changed(self, table: LiveTable) -> None:
        pass

    async def hand_changed(self, table: LiveTable, player: int) -> None:
        pass

    async def decision(
        self, table: LiveTable, player: int, actions: list[Action], deadline: float | None
    ) -> None:
        pass

    async def hand_ended(self, table: LiveTable) -> None:
        pass

    async def table_closed(self, table: LiveTable, reason: str) -> None:
        pass
