"""Past one process: shard settings, the sharded bot, and two bot processes each serving only
the guilds of its own shard against one fake Discord (README "Scaling")."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.discord.client import MahjongBot, ShardedMahjongBot, make_bot
from bot.discord.config import BotConfig, ConfigError, read_shards, shard_of
from bot.runtime import ManualTimers
from tests.conftest import Databases, PgAdmin
from tests.fakediscord import FakeDiscord, FakeGuild
from tests.fakediscord.gateway import GatewaySession
from tests.runtime_writer_proc import drive, reading

SHARDS = 2
START_TIMEOUT = 60.0  # two interpreters importing discord.py, Pillow and the engine, under load
QUIET: dict[str, Any] = {"guild_ready_timeout": 0.05}  # in-process bots (timers set per bot)


# ------------------------------------------------------------------ settings


def test_shard_settings_are_read_from_the_environment() -> None:
    config = BotConfig.from_env(
        {"MAHJONG_SHARD_COUNT": "4", "MAHJONG_SHARD_IDS": "0,2-3"}, dotenv=None
    )
    assert (config.shard_count, config.shard_ids, config.sharded) == (4, (0, 2, 3), True)
    assert BotConfig.from_env({}, dotenv=None).sharded is False
    assert read_shards("3", None) == (3, None)  # a count alone: every shard in this process


@pytest.mark.parametrize(
    ("count", "ids", "says"),
    [
        (None, "0", "needs MAHJONG_SHARD_COUNT"),
        ("0", None, "1 or more"),
        ("two", None, "whole number"),
        ("2", "2", "shards 0 to 1"),
        ("4", "0,x", "such as 0,1"),
    ],
)
def test_shard_settings_that_cannot_be_used_are_refused(
    count: str | None, ids: str | None, says: str
) -> None:
    with pytest.raises(ConfigError, match=says):
        read_shards(count, ids)


def test_a_process_serves_the_guilds_of_its_shards_and_dms_on_shard_zero() -> None:
    guild = (5 << 22) | 17  # shard 5 % 4 = 1
    assert BotConfig().serves(guild) and BotConfig().serves(None)
    assert BotConfig(shard_count=4, shard_ids=(1, 2)).serves(guild)
    assert not BotConfig(shard_count=4, shard_ids=(0, 2)).serves(guild)
    assert BotConfig(shard_count=4, shard_ids=(0,)).serves(None)
    assert not BotConfig(shard_count=4, shard_ids=(1,)).serves(None)
    assert BotConfig(shard_count=4).serves(guild)  # every shard in this process


def test_the_bot_connects_as_shards_only_when_the_config_names_them() -> None:
    plain = make_bot(BotConfig(token="t"))
    sharded = make_bot(BotConfig(token="t", shard_count=4, shard_ids=(1, 3)))
    assert type(plain) is MahjongBot
    assert isinstance(sharded, ShardedMahjongBot)
    assert (sharded.shard_count, sharded.shard_ids) == (4, [1, 3])


async def test_the_fake_gives_each_shard_only_its_own_guilds() -> None:
    async with FakeDiscord(users=1, guilds=3) as fake:
        shards = [shard_of(guild.id, 3) for guild in fake.guilds]
        assert sorted(shards) == [0, 1, 2]  # three guilds, three shards
        assert [fake.guild_of(guild.channels[0]) for guild in fake.guilds] == fake.guilds
    for shard_id in range(3):
        session = GatewaySession(str(shard_id), {"shard": [shard_id, 3]})
        owned = [guild for guild in fake.guilds if session.owns(guild.id)]
        assert [shard_of(guild.id, 3) for guild in owned] == [shard_id]
        assert session.owns(None) is (shard_id == 0)  # DMs go to shard 0 only


# ------------------------------------------------------------------ two processes


def _process_env(fake: FakeDiscord, db: str, shard: int) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "MAHJONG_"))}
    env |= fake.env() | {
        "DISCORD_TOKEN": "fake-token",
        "MAHJONG_DB": str(db),
        "MAHJONG_SHARDS": f"{shard}/{SHARDS}",
        "MAHJONG_LOG_LEVEL": "INFO",
    }
    return env


@contextlib.asynccontextmanager
async def bot_process(
    fake: FakeDiscord, folder: Path, shard: int, db: str
) -> AsyncIterator[asyncio.subprocess.Process]:
    """`python -m bot run` for one shard, on database `db`; stopped with SIGTERM."""
    log = (folder / f"shard{shard}.log").open("wb")
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "run",
        cwd=folder,  # no stray .env
        env=_process_env(fake, db, shard),
        stdout=log, stderr=asyncio.subprocess.STDOUT,
    )  # fmt: skip
    try:
        yield process
    finally:
        if process.returncode is None:
            process.send_signal(signal.SIGTERM)
            try:
                await asyncio.wait_for(process.wait(), 30)
            except TimeoutError:
                process.kill()
                await process.wait()
        log.close()


def tables_in(db: str) -> list[tuple[int, int, int, int | None]]:
    """(table id, guild, channel, table message) of every table stored in `db`."""
    with reading(db) as connection:
        rows = connection.execute(
            "SELECT id, guild_id, channel_id, message_id FROM tables ORDER BY id"
        ).fetchall()
    return [tuple(row) for row in rows]


async def create_table(fake: FakeDiscord, guild: FakeGuild, user_index: int) -> str:
    """Open a table in the guild's first channel; return the gateway session that got it."""
    user = fake.users[user_index]
    record = await fake.slash(
        user, "mahjong", "create", {"computers": 3}, channel=guild.channels[0], wait_sync=30
    )
    await record.wait_responses(2, timeout=30)
    await fake.wait_for(
        lambda: [m for m in fake.channel_messages(guild.channels[0]) if m.embeds],
        timeout=30,
        message="no table message in the guild's channel",
    )
    return record.session_id


async def test_two_bot_processes_each_serve_only_their_own_shards_guilds(
    tmp_path: Path, db: Databases
) -> None:
    """On SQLite each process has its own file; on PostgreSQL both share one database, with
    table ids from its one sequence."""
    places = {shard: db("shared" if db.postgres else f"shard{shard}") for shard in (0, 1)}
    async with FakeDiscord(users=4, guilds=SHARDS) as fake:
        by_shard = {shard_of(guild.id, SHARDS): guild for guild in fake.guilds}
        assert sorted(by_shard) == [0, 1]
        async with (
            bot_process(fake, tmp_path, 0, places[0]) as first,
            bot_process(fake, tmp_path, 1, places[1]) as second,
        ):
            sessions = await fake.wait_for(
                lambda: (
                    all(fake.gateway.current(g.id) for g in fake.guilds)
                    and {s: fake.gateway.current(g.id) for s, g in by_shard.items()}
                ),
                timeout=START_TIMEOUT,
                message=lambda: (
                    "both shards did not connect: "
                    + (tmp_path / "shard0.log").read_text(errors="replace")[-2000:]
                    + (tmp_path / "shard1.log").read_text(errors="replace")[-2000:]
                ),
            )
            # each process identified as its own shard and was given only that shard's guild
            assert {s: session.shard for s, session in sessions.items()} == {
                0: [0, SHARDS],
                1: [1, SHARDS],
            }
            assert sessions[0].session_id != sessions[1].session_id
            for shard, guild in by_shard.items():
                assert await create_table(fake, guild, shard) == sessions[shard].session_id
            # a command in a guild is answered by the process of its shard only
            for record in fake.interactions:
                guild = fake.guild_by_id(record.guild_id)
                assert guild is not None
                assert record.session_id == sessions[shard_of(guild.id, SHARDS)].session_id
            assert first.returncode is None and second.returncode is None
        assert (first.returncode, second.returncode) == (0, 0)
    made = [(by_shard[shard].id, by_shard[shard].channels[0].id) for shard in (0, 1)]
    if db.postgres:
        rows = await asyncio.to_thread(tables_in, places[0])
        assert sorted((g, c) for _, g, c, _ in rows) == sorted(made)
        assert [table_id for table_id, *_ in rows] == [1, 2]  # one sequence for both
    else:
        for shard in (0, 1):
            rows = await asyncio.to_thread(tables_in, places[shard])
            assert [(g, c) for _, g, c, _ in rows] == [made[shard]]
    assert all(message is not None for *_, message in rows)


async def test_a_process_restores_only_its_own_shards_tables(db: Databases) -> None:
    """Processes on one database split its tables: each restores (and clocks, and expires)
    those of its own shards' guilds only, so no table is played by two processes."""
    place = db("bot")

    def config(**shards: Any) -> BotConfig:
        return BotConfig(token="fake-token", db_path=place, edit_interval=0.02, **shards)

    async with FakeDiscord(users=1, guilds=SHARDS) as fake:
        guild = fake.guilds[0]
        own_shard = shard_of(guild.id, SHARDS)
        async with fake.running(make_bot(config(), timers=ManualTimers(), **QUIET)):
            await create_table(fake, guild, 0)
        for shard, restored in ((1 - own_shard, 0), (own_shard, 1)):
            sharded = config(shard_count=SHARDS, shard_ids=(shard,))
            bot = make_bot(sharded, timers=ManualTimers(), **QUIET)
            async with fake.running(bot):
                assert len(bot.runtime.tables) == restored


async def test_a_rating_earned_on_one_process_shows_on_the_others_leaderboard(
    postgres: PgAdmin | None,
) -> None:
    """Two bots (shards 0 and 1 of 2) on one PostgreSQL: a rated hand finished at a table of
    shard 0's guild moves ratings that `/mahjong leaderboard` in shard 1's guild, answered by
    the other bot, shows."""
    if postgres is None:
        pytest.skip("PostgreSQL is not installed (apt-get install postgresql) nor MAHJONG_TEST_PG")
    name = postgres.create()
    try:
        place = postgres.dsn_of(name)

        def config(shard: int) -> BotConfig:
            return BotConfig(
                token="fake-token",
                db_path=place,
                edit_interval=0.02,
                shard_count=SHARDS,
                shard_ids=(shard,),
            )

        async with FakeDiscord(users=4, guilds=SHARDS) as fake:
            by_shard = {shard_of(guild.id, SHARDS): guild for guild in fake.guilds}
            first = make_bot(config(0), timers=ManualTimers(), **QUIET)
            second = make_bot(config(1), timers=ManualTimers(), **QUIET)
            async with fake.running(first), fake.running(second):
                runtime = first.runtime
                players = [(str(user.id), user.username) for user in fake.users]
                channel = by_shard[0].channels[0]
                table = await runtime.create_table(
                    "hkos-3-v1",
                    creator_id=players[0][0],
                    creator_name=players[0][1],
                    guild_id=by_shard[0].id,
                    channel_id=channel.id,
                    rated=True,
                )
                for player_id, player_name in players[1:]:
                    await runtime.join(table.id, player_id, player_name)
                await runtime.start_table(table.id, players[0][0])
                await drive(runtime, table.id, 1)
                assert table.id not in second.runtime.tables  # shard 0's table only
                ratings = await first.store.ratings_of(players[0][0])
                assert ratings and ratings[0].games == 1
                record = await fake.slash(
                    fake.users[1],
                    "mahjong",
                    "leaderboard",
                    {"preset": "hkos-3-v1"},
                    channel=by_shard[1].channels[0],
                )
                await record.wait_response()
                await fake.wait_for(lambda: not (record.original and record.original.loading))
                assert record.session_id == fake.gateway.current(by_shard[1].id).session_id
                assert record.original is not None
                board = record.original.text
                for user in fake.users:
                    assert user.mention in board
                assert f"{round(ratings[0].rating)}" in board
    finally:
        postgres.drop([name])
