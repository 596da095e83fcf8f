"""Finished hands in a store, played by the runtime as at a table, for replay and stats tests."""

from __future__ import annotations

from collections.abc import Sequence

from bot.runtime.manager import Runtime
from bot.runtime.table import LiveTable
from bot.runtime.timers import ManualTimers
from data import Phase, Store
from engine.computer.easy import choose_action

PLAYERS = (("101", "Ann"), ("102", "Bob"), ("103", "Cy"), ("104", "Di"))


async def seated_table(
    runtime: Runtime,
    preset: str,
    players: Sequence[tuple[str, str]] = PLAYERS,
    *,
    guild_id: int = 1,
    channel_id: int = 2,
    **options: object,
) -> LiveTable:
    """A table of `players` (id, name), dealt its first hand."""
    table = await runtime.create_table(
        preset,
        creator_id=players[0][0],
        creator_name=players[0][1],
        guild_id=guild_id,
        channel_id=channel_id,
        **options,  # type: ignore[arg-type]
    )
    for player_id, name in players[1:]:
        if table.full:
            break  # a table of three (sanma) seats the first three
        await runtime.join(table.id, player_id, name, table.options.invite_code)
    await runtime.start_table(table.id, players[0][0])
    return table


async def play_to_the_end(runtime: Runtime, table: LiveTable) -> int:
    """Every seat plays as the computer would until the hand is over; returns the hand id."""
    assert table.hand_id is not None
    hand_id = table.hand_id
    while table.phase is Phase.PLAYING:
        assert table.hand is not None
        player = table.players_to_act()[0]
        action = choose_action(table.hand, table.hand_seat(player))
        await runtime.act(table.id, table.seat(player).player_id, action, table.version)
    return hand_id


async def finished_hand(
    store: Store,
    preset: str,
    seed: int = 5,
    *,
    no_call_wait: float = 0.0,
    close: bool = False,
    **options: object,
) -> int:
    """One finished hand of `preset` at a new table in `store` (closed after it if `close`);
    returns its hand id. `options` go to `seated_table`."""
    runtime = Runtime(
        store, None, ManualTimers(), seed_source=lambda: seed, no_call_wait=no_call_wait
    )
    await runtime.open()
    table = await seated_table(runtime, preset, **options)  # type: ignore[arg-type]
    hand_id = await play_to_the_end(runtime, table)
    if close:
        await runtime.close_table(table.id, table.seat(0).player_id)
    await runtime.close()
    return hand_id
