"""Per-game results in the store: a finished game's standings kept with its last hand, ratings
that settle once per finished game by place (in the same transaction), and none for a game
abandoned before its end."""

from __future__ import annotations

import sqlite3
from dataclasses import replace

import pytest

from data import GameResult, GameStanding, HandResult, Phase, SeatRow, Store, TableOptions
from data import migrations as m

PRESET = "hkos-3-v1"  # the store keeps what the bot says; the game rule is the bot's to read
PLAYERS = ("a", "b", "c", "d")


def _hand(deltas: tuple[int, ...], rates: bool = False) -> HandResult:
    return HandResult(PRESET, PLAYERS, (True,) * 4, deltas, rated=True, rates=rates)


def _game(points: tuple[int, ...], places: tuple[int, ...], hands: int = 2) -> GameResult:
    standings = tuple(
        GameStanding(seat, PLAYERS[seat], True, p, place, float(p) + 10 * (2.5 - place))
        for seat, (p, place) in enumerate(zip(points, places, strict=True))
    )
    return GameResult(PRESET, hands, standings, rated=True, rates=True)


async def _table(store: Store) -> int:
    seats = [SeatRow(i, pid, True) for i, pid in enumerate(PLAYERS)]
    return await store.create_table(PRESET, seats=seats, options=TableOptions(rated=True))


async def _play(store: Store, tid: int, number: int, deltas: tuple[int, ...], **kw: object):
    hid = await store.start_hand(tid, number, 100 + number)
    await store.append_action(tid, hid, "0 discard 1z", 0)
    return hid, await store.record_hand_result(tid, hid, _hand(deltas), **kw)  # type: ignore[arg-type]


async def _ratings(store: Store) -> dict[str, tuple[float, int]]:
    rows = [(p, await store.ratings_of(p)) for p in PLAYERS]
    return {p: (r[0].rating, r[0].games) for p, r in rows if r}


async def test_a_per_game_table_rates_once_at_the_end_by_place(store: Store) -> None:
    tid = await _table(store)
    _, first = await _play(store, tid, 0, (24, -24, 0, 0))
    assert first.rating_changes == () and await _ratings(store) == {}
    game = _game((24, -24, 8, -8), (1, 4, 2, 3))
    hid, last = await _play(store, tid, 1, (0, 0, 8, -8), game=game)
    by_player = {c.player_id: c for c in last.rating_changes}
    assert [by_player[p].placement for p in PLAYERS] == [1, 4, 2, 3]
    assert by_player["a"].delta > by_player["c"].delta > 0 > by_player["d"].delta
    assert by_player["d"].delta > by_player["b"].delta
    assert {g for _, g in (await _ratings(store)).values()} == {1}  # one game each
    assert await store.game_result(tid) == game
    row = await store.table_row(tid)
    assert row.phase is Phase.CLOSED
    record = await store.hand_record(hid)
    assert record is not None and record.rating_changes == last.rating_changes


async def test_resubmitting_the_last_hand_changes_nothing_more(store: Store) -> None:
    tid = await _table(store)
    game = _game((8, -8, 0, 0), (1, 4, 2, 3), hands=1)
    hid, once = await _play(store, tid, 0, (8, -8, 0, 0), game=game)
    again = await store.record_hand_result(tid, hid, _hand((8, -8, 0, 0)), game=game)
    assert not again.newly_recorded and again.rating_changes == once.rating_changes
    assert {g for _, g in (await _ratings(store)).values()} == {1}


async def test_a_game_abandoned_before_its_end_keeps_no_result_and_rates_nothing(
    store: Store,
) -> None:
    tid = await _table(store)
    await _play(store, tid, 0, (24, -24, 0, 0))
    await store.close_table(tid, "closed by a player")
    assert await store.game_result(tid) is None and await _ratings(store) == {}


async def test_a_game_the_table_does_not_match_leaves_no_trace(store: Store) -> None:
    tid = await _table(store)
    hid = await store.start_hand(tid, 0, 7)
    await store.append_action(tid, hid, "0 discard 1z", 0)
    wrong = replace(_game((8, -8, 0, 0), (1, 4, 2, 3)), preset="hk-fw2")
    with pytest.raises(ValueError, match="the table plays"):
        await store.record_hand_result(tid, hid, _hand((8, -8, 0, 0)), game=wrong)
    # one transaction: the hand has no result either, and the table still plays it
    assert await store.hand_record(hid) is None
    assert (await store.table_row(tid)).phase is Phase.PLAYING
    strangers = replace(
        wrong,
        preset=PRESET,
        standings=tuple(replace(s, player_id=f"x{s.seat}") for s in wrong.standings),
    )
    with pytest.raises(ValueError, match="players of its last hand"):
        await store.record_hand_result(tid, hid, _hand((8, -8, 0, 0)), game=strangers)


def test_a_game_result_is_checked_when_made() -> None:
    seats = _game((0, 0, 0, 0), (1, 2, 3, 4)).standings
    with pytest.raises(ValueError, match="every table seat once"):
        GameResult(PRESET, 2, seats[1:])
    with pytest.raises(ValueError, match="a first place"):
        GameResult(PRESET, 2, tuple(replace(s, place=2) for s in seats))
    with pytest.raises(ValueError, match="played a hand"):
        GameResult(PRESET, 0, seats)


def test_rates_false_is_part_of_a_hand_fingerprint_only_when_said() -> None:
    assert "rates" not in _hand((0, 0, 0, 0), rates=True).fingerprint()
    assert '"rates":false' in _hand((0, 0, 0, 0)).fingerprint()


def test_the_games_migration_is_one_small_numbered_step() -> None:
    conn = sqlite3.connect(":memory:")
    for script in m.MIGRATIONS[:4]:
        conn.executescript(script)
    before = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    conn.executescript(m.MIGRATIONS[4])
    after = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert after - before == {"game_results", "game_players"}
