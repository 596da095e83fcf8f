"""`mahjong-bot db copy`: a community's data moved from SQLite to PostgreSQL (and back), the
same open tables restored and the same leaderboards shown on the other side."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from bot.cli import main
from data import SeatRow, Store, TableOptions, migrations
from data.copy import NOT_COPIED, TABLES
from data.quickplay import QueueEntry
from tests.conftest import PgAdmin
from tests.game_presets import SHORT_GAME, registered
from tests.test_data_games import _game as a_game
from tests.test_data_games import _play as play_hand
from tests.test_data_games import _table as games_table
from tests.test_data_store import Clock, result
from tests.test_game_records import TENHOU_GAME, TENHOU_HANDS, game_table, play_game, seated

PRESET = "hkos-3-v1"


@pytest.fixture
def target(postgres: PgAdmin | None) -> object:
    if postgres is None:
        pytest.skip("PostgreSQL is not installed (apt-get install postgresql) nor MAHJONG_TEST_PG")
    name = postgres.create()
    yield postgres.dsn_of(name)
    postgres.drop([name])


async def a_community(path: str) -> dict[str, int]:
    """Tables in every state, rated hands, ratings, preferences."""
    clock = Clock()
    async with await Store.open(path, clock=clock) as store:
        players = ("a", "b", "c", "d")
        seats = [SeatRow(i, p, True) for i, p in enumerate(players)]
        rated = TableOptions(rated=True, invite_code="K7Q", extra={"min_fan": 1})
        between = await store.create_table(PRESET, guild_id=10**18, seats=seats, options=rated)
        for hand_no in range(3):
            hid = await store.start_hand(between, hand_no, 40 + hand_no, setup='{"d": 0}')
            await store.append_action(between, hid, "0 discard 5m", 0, {"turn": 3.5})
            await store.record_hand_result(
                between,
                hid,
                result(players, (8 * (hand_no + 1), -8 * (hand_no + 1), 0, 0)),
                session_state='{"points": [8, -8, 0, 0]}',
                deadlines={"ready": 9.0},
            )
            clock.advance(60)
        playing = await store.create_table(PRESET, guild_id=7, channel_id=8, seats=seats[:2])
        await store.set_message_id(playing, 5555)
        hid = await store.start_hand(playing, 0, 99)
        for version in range(12):
            await store.append_action(
                playing, hid, f"{version % 4} discard {version % 9 + 1}s", version, {"t": 1.0}
            )
        closed = await store.create_table(PRESET)
        await store.close_table(closed, "ended by players")
        # a finished game whose ratings settle per game, with riichi declared in its hands
        hands, game = seated(players, TENHOU_HANDS, replace(TENHOU_GAME, preset=SHORT_GAME.id))
        hands = [replace(h, preset=SHORT_GAME.id) for h in hands]
        finished = await game_table(store, SHORT_GAME.id, clock(), players=players)
        await play_game(store, finished, hands, game, clock())
        await store.import_ratings("hk-3fan", [("x", 1612.5, 20), ("y", 1490.0, 3)])
        await store.set_language("guild", "10", "zh-TW")
        await store.set_language("user", "a", "zh-CN")
        return {"between": between, "playing": playing, "closed": closed, "game": finished}


async def what_shows(path: str) -> tuple[object, ...]:
    async with await Store.open(path) as store:
        loaded, bad = await store.load_active_tables()
        return (
            loaded,
            bad,
            await store.leaderboard(PRESET, min_games=1),
            await store.leaderboard("hk-3fan", min_games=1),
            await store.ratings_of("a"),
            await store.recent_hands("a", 10),
            await store.rating_history("b", PRESET),
            await store.player_stats("a"),
            await store.languages(),
            await store.recent_games("a"),
            await store.game_stats("b"),
        )


@pytest.fixture(autouse=True)
def short_game() -> Iterator[None]:
    with registered(SHORT_GAME):
        yield


async def test_a_copy_restores_the_same_tables_and_boards(tmp_path: Path, target: str) -> None:
    source = str(tmp_path / "mahjong.db")
    ids = await a_community(source)
    before = await what_shows(source)
    games, stats = before[-2:]
    assert games and stats.declared == {"riichi": 1}  # type: ignore[attr-defined]
    assert await asyncio.to_thread(main, ["db", "copy", "--from", source, "--to", target]) == 0
    assert await what_shows(target) == before
    async with await Store.open(target) as store:
        # the ids go on after the copied ones, and the closed table came too
        assert await store.create_table(PRESET) > max(ids.values())
        assert (await store.table_row(ids["closed"])).closed_reason == "ended by players"

    # and back again, into a fresh SQLite file
    back = str(tmp_path / "back.db")
    assert await asyncio.to_thread(main, ["db", "copy", "--from", target, "--to", back]) == 0
    after = await what_shows(back)
    assert after[1:] == before[1:]  # the new lobby table made above is the one difference
    assert [t.table.id for t in after[0]] == [t.table.id for t in before[0]] + [  # type: ignore[attr-defined]
        max(ids.values()) + 1
    ]


async def test_a_target_holding_data_is_refused_unless_told(
    tmp_path: Path, target: str, capsys: pytest.CaptureFixture[str]
) -> None:
    source = str(tmp_path / "mahjong.db")
    await a_community(source)
    assert await asyncio.to_thread(main, ["db", "copy", "--from", source, "--to", target]) == 0
    before = await what_shows(target)
    assert await asyncio.to_thread(main, ["db", "copy", "--from", source, "--to", target]) == 2
    assert "refusing to mix" in capsys.readouterr().err
    assert await what_shows(target) == before  # nothing changed
    async with await Store.open(target) as store:
        await store.set_language("user", "zz", "en")
    assert (
        await asyncio.to_thread(main, ["db", "copy", "--from", source, "--to", target, "--replace"])
        == 0
    )
    assert await what_shows(target) == before


def test_copying_a_database_onto_itself_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = str(tmp_path / "same.db")
    assert main(["db", "copy", "--from", path, "--to", path]) == 2
    assert "same database" in capsys.readouterr().err


def test_every_table_of_the_schema_is_copied_or_named_as_not_copied() -> None:
    conn = sqlite3.connect(":memory:", isolation_level=None)
    migrations.migrate(conn, ":memory:")
    schema = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert schema == set(TABLES) | set(NOT_COPIED)
    assert not set(TABLES) & set(NOT_COPIED)


async def test_a_copy_keeps_finished_games_and_leaves_the_queues(tmp_path: Path) -> None:
    """A game's standings come across; a Quick Play entry does not (it lapses with its
    process, and a copy is made with the bot stopped)."""
    source, target = str(tmp_path / "from.db"), str(tmp_path / "to.db")
    async with await Store.open(source) as store:
        tid = await games_table(store)
        game = a_game((24, -24, 8, -8), (1, 4, 2, 3))
        await play_hand(store, tid, 0, (24, -24, 8, -8), game=game)
        entry = QueueEntry("e", "Eve", 7, 8)
        assert (await store.quickplay_join(PRESET, False, entry, 4)).waiting == 1
    assert await asyncio.to_thread(main, ["db", "copy", "--from", source, "--to", target]) == 0
    async with await Store.open(target) as store:
        assert await store.game_result(tid) == game
        assert await store.quickplay_waiting(PRESET, False) == 0


# ---------------------------------------------------------------- a copy never harms (issue 40.4)


async def test_a_missing_source_is_an_error_and_never_empties_the_target(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = str(tmp_path / "kept.db")
    await a_community(target)
    before = await what_shows(target)
    missing = str(tmp_path / "no-such.db")
    for more in ([], ["--replace"]):
        code = await asyncio.to_thread(
            main, ["db", "copy", "--from", missing, "--to", target, *more]
        )
        assert code == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 2 and all(line.startswith("error: --from: ") for line in err)
    assert "does not exist" in err[0]
    assert not Path(missing).exists() and await what_shows(target) == before


async def test_the_sqlite_source_is_read_only_and_never_migrated(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source, target = tmp_path / "from.db", str(tmp_path / "to.db")
    await a_community(str(source))
    files = sorted(p.name for p in tmp_path.iterdir())
    written = source.read_bytes()
    assert await asyncio.to_thread(main, ["db", "copy", "--from", str(source), "--to", target]) == 0
    assert source.read_bytes() == written
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([*files, "to.db"])
    out, err = capsys.readouterr()
    assert out.startswith(f"copied to {target}: tables 4, ") and out.count("\n") == 1
    assert "read actions: " in err and "wrote actions: " in err and "committing" in err
    older = tmp_path / "older.db"
    conn = sqlite3.connect(older)
    conn.execute("PRAGMA user_version = 1")
    conn.close()
    refused = ["db", "copy", "--from", str(older), "--to", str(tmp_path / "x.db")]
    assert await asyncio.to_thread(main, refused) == 2
    assert "older than this bot's" in capsys.readouterr().err
    assert not (tmp_path / "x.db").exists()


async def test_a_postgresql_source_is_read_only_and_never_migrated(
    tmp_path: Path, target: str, postgres: PgAdmin, capsys: pytest.CaptureFixture[str]
) -> None:
    import asyncpg

    empty = postgres.dsn_of(postgres.create())
    try:
        local = str(tmp_path / "to.db")
        assert await asyncio.to_thread(main, ["db", "copy", "--from", empty, "--to", local]) == 2
        assert "holds no mahjong bot's tables" in capsys.readouterr().err
        conn = await asyncpg.connect(empty)
        try:
            tables = await conn.fetchval(
                "SELECT count(*) FROM pg_tables WHERE schemaname = current_schema()"
            )
        finally:
            await conn.close()
        assert tables == 0 and not Path(local).exists()
    finally:
        postgres.drop([empty.rpartition("/")[2]])
    source = str(tmp_path / "from.db")
    await a_community(source)
    assert await asyncio.to_thread(main, ["db", "copy", "--from", source, "--to", target]) == 0
    async with await Store.open_read_only(target) as store:
        with pytest.raises(asyncpg.ReadOnlySQLTransactionError):
            await store.set_language("user", "zz", "en")
    back = str(tmp_path / "back.db")
    assert await asyncio.to_thread(main, ["db", "copy", "--from", target, "--to", back]) == 0
    assert await what_shows(back) == await what_shows(source)


async def test_a_copy_is_not_bound_by_the_play_timeout(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from data import copy as copying
    from data.postgres import TIMEOUT

    opened: list[float] = []
    open_store, open_read_only = Store.open, Store.open_read_only

    async def spy_open(path: str, *, timeout: float = TIMEOUT) -> Store:
        opened.append(timeout)
        return await open_store(path, timeout=timeout)

    async def spy_read_only(path: str, *, timeout: float = TIMEOUT) -> Store:
        opened.append(timeout)
        return await open_read_only(path, timeout=timeout)

    monkeypatch.setattr(Store, "open", spy_open)
    monkeypatch.setattr(Store, "open_read_only", spy_read_only)
    source = str(tmp_path / "from.db")
    await (await open_store(source)).close()  # an empty store
    copied = await copying.copy_store(source, str(tmp_path / "to.db"))
    assert copied.line() == "" and opened == [copying.COPY_TIMEOUT] * 2
    assert copying.COPY_TIMEOUT > 60 * TIMEOUT
