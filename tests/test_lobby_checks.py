"""The lobby's request checks are pure: they judge a create, join, computer or start request from
the request and the table alone, with no store and no runtime."""

from __future__ import annotations

import pytest

from bot.runtime import LiveTable, Seat, TableError
from bot.runtime.lobby import check_add_computer, check_create, check_join, check_start
from data import TableOptions
from engine.presets import find_preset


def lobby(*player_ids: str, visibility: str = "public") -> LiveTable:
    preset = find_preset("hkos-3-v1")
    options = TableOptions(visibility=visibility, invite_code="ABC123")
    table = LiveTable(1, preset, options, None, None, "Table 1")
    for n, player_id in enumerate(player_ids):
        table.seats[n] = Seat(player_id, player_id)
    return table


def test_a_create_request_is_settled_or_refused_without_a_store() -> None:
    settled = check_create("hkos-3-v1", computers=2)
    assert settled.preset.id == "hkos-3-v1" and settled.seats == 4
    assert settled.time_control == settled.preset.time_control
    with pytest.raises(TableError):
        check_create("hkos-3-v1", rated=True, computers=1)
    with pytest.raises(TableError):
        check_create("no-such-preset")
    with pytest.raises(TableError):
        check_create("hkos-3-v1", computers=4)


def test_join_add_and_start_are_judged_from_the_table() -> None:
    table = lobby("ann", "bob", "cat")
    check_join(table, "dan")
    with pytest.raises(TableError):
        check_join(table, "ann")
    with pytest.raises(TableError):
        check_join(lobby("ann", visibility="private"), "dan", code="WRONG")
    check_join(lobby("ann", visibility="private"), "dan", code="abc123")
    with pytest.raises(TableError):
        check_start(table, "ann")
    check_add_computer(table, "ann", table.lobby_version)
    with pytest.raises(TableError):
        check_add_computer(table, "ann", table.lobby_version + 1)
    table.seats[3] = Seat("dan", "dan")
    check_start(table, "ann")
    with pytest.raises(TableError):
        check_start(table, "eve")
