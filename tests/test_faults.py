"""Faults and forged clicks (issue 12): what a click may carry, what a restart must finish."""

from __future__ import annotations

import pytest

from bot.runtime import ManualTimers, NotYourDecisionError, TableError
from data import Phase, Store
from tests.test_runtime import PLAYERS, arranged, four_humans, make_runtime, play


@pytest.fixture
async def store():
    s = await Store.open(":memory:")
    yield s
    await s.close()


# ------------------------------------------------------------------ 1. only what was offered


async def test_a_forged_time_up_from_a_click_is_refused_and_changes_nothing(store: Store) -> None:
    runtime = await make_runtime(store, ManualTimers(), hand_factory=arranged)
    table = await four_humans(runtime, rated=True)
    await play(runtime, table, "0 discard 5m")  # seats 1 and 2 may claim; the dealer may not
    dealer = table.seat(table.player_at(0)).player_id
    claimer = table.seat(table.player_at(1)).player_id
    before = table.version
    with pytest.raises(NotYourDecisionError):
        await runtime.act(table.id, dealer, "0 time_up", table.hand.decision_version)  # type: ignore[union-attr]
    # a seat with a decision open may not time it out either: only the clock does that
    with pytest.raises(TableError, match="not allowed"):
        await runtime.act(table.id, claimer, "1 time_up", table.version)
    await play(runtime, table, "1 pass")
    pung_by = table.seat(table.player_at(2)).player_id
    with pytest.raises(TableError, match="not allowed"):
        await runtime.act(table.id, pung_by, "2 time_up", table.version)
    assert table.phase is Phase.PLAYING and table.version == before + 1
    log = await store.hand_log(table.hand_id)  # type: ignore[arg-type]
    assert log.lines == ("0 discard 5m", "1 pass")


# ------------------------------------------------------------------ issue 10.5: the table clock


async def test_seed_004_presets_always_use_the_table_clock(store: Store) -> None:
    runtime = await make_runtime(store, ManualTimers(), quickplay_fill_after=1.0)
    for preset in ("sichuan-bb", "sichuan-swap3"):
        for clock in ("bullet", "standard", "untimed"):
            with pytest.raises(TableError, match="table clock"):
                await runtime.create_table(
                    preset, creator_id="101", creator_name="Ann", time_control=clock
                )
        table = await runtime.create_table(
            preset, creator_id="101", creator_name="Ann", time_control="table", rated=True
        )
        assert table.options.time_control == "table"
        await runtime.close_table(table.id, "101")
    # Quick Play of a Sichuan preset gets the table clock, other presets the standard one
    for preset, clock in (("sichuan-bb", "table"), ("hkos-3-v1", "standard")):
        tables = []
        for player_id, name in PLAYERS:
            found = await runtime.quickplay(preset, player_id, name, rated=True)
            tables.append(found)
        table = tables[-1]
        assert table is not None and table.options.time_control == clock
