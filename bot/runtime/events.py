"""How the runtime tells a front end (Discord, the terminal, tests) what happened.

After each stored change the runtime sends one `PublicSnapshot` of the table (built from
nothing a seat hides) and one `PrivateSnapshot` for each player whose own view changed; a
private snapshot is the only way a player's concealed tiles or options leave the runtime.
Front ends format these values and never reach back into the live table.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from bot.runtime.snapshots import PrivateSnapshot, PublicSnapshot


class FrontEnd(Protocol):
    async def table_changed(self, snapshot: PublicSnapshot) -> None:
        """The table changed: seats, discards, calls, phase, a result (`snapshot.ended`), or
        its closing (`snapshot.closed_reason`)."""

    async def hand_changed(self, snapshot: PrivateSnapshot) -> None:
        """One player's own view changed: their tiles, or a decision for them
        (`snapshot.decision`, with its actions and deadline)."""


class NullFrontEnd:
    """A front end that shows nothing: for benchmarks and computer-only tables."""

    async def table_changed(self, snapshot: PublicSnapshot) -> None:
        pass

    async def hand_changed(self, snapshot: PrivateSnapshot) -> None:
        pass
