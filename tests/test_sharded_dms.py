"""Hand DMs under sharding: Discord delivers DM interactions to shard 0 only, so a process that
does not run shard 0 sends hands without controls and its players play through **My hand**
on the table message, a guild interaction that reaches the process owning the table. On one
PostgreSQL, a DM click travels to the owner through the inbox, and people queued for Quick Play
on two processes get one table."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.discord import ids
from bot.discord.client import MahjongBot, make_bot
from bot.discord.config import BotConfig, shard_of
from bot.runtime import ManualTimers
from engine.actions import ActionKind
from engine.computer.easy import choose_action
from engine.i18n import translate
from engine.tiles import tile_name
from tests.conftest import PgAdmin
from tests.fakediscord import FakeDiscord, FakeMessage
from tests.fakediscord.models import FakeChannel, FakeUser
from tests.test_discord_e2e import click, live

SHARDS = 2


async def _table_message(fake: FakeDiscord, channel: object) -> FakeMessage:
    return await fake.wait_for(
        lambda: next((m for m in fake.channel_messages(channel) if m.embeds), None),  # type: ignore[arg-type]
        message="no table message",
    )


async def _started_with_her_dm(
    fake: FakeDiscord, bot: MahjongBot, alice: FakeUser, channel: FakeChannel
) -> tuple[FakeMessage, FakeMessage]:
    """Alice opens a table against computers in `channel` (of `bot`'s shard) and starts it; the
    table message and her hand DM once it shows her first decision."""
    record = await fake.slash(
        alice, "mahjong", "create", {"computers": 3, "time": "untimed"}, channel=channel
    )
    await record.wait_responses(2)
    table_msg = await _table_message(fake, channel)
    await click(fake, alice, table_msg, label="Start")
    await fake.wait_for(lambda: 0 in live(bot).players_to_act())
    await bot.front.updates.wait(("hand", 1, 0))  # her DM shows this decision
    (dm,) = [m for m in fake.dms(alice) if m.author is fake.bot_user][-1:]
    return table_msg, dm


async def _hand_dm_played_through_my_hand(
    tmp_path: Path, shard_ids: tuple[int, ...]
) -> tuple[list[str], str]:
    """Alice opens a table in the guild of shard 1, against computers, on a bot running
    `shard_ids`; her hand DM at her first decision (its controls and
    words) is returned once she has discarded through My hand."""
    async with FakeDiscord(users=1, guilds=SHARDS) as fake:
        (guild,) = [g for g in fake.guilds if shard_of(g.id, SHARDS) == 1]
        channel = guild.channels[0]
        alice = fake.users[0]
        alice.locale = "zh-CN"
        config = BotConfig(
            token="fake-token",
            db_path=str(tmp_path / "bot.db"),
            edit_interval=0.02,
            no_call_wait=0.0,
            shard_count=SHARDS,
            shard_ids=shard_ids,
        )
        bot = make_bot(
            config, timers=ManualTimers(), seed_source=lambda: 7, guild_ready_timeout=0.05
        )
        async with fake.running(bot, timeout=30):
            table_msg, dm = await _started_with_her_dm(fake, bot, alice, channel)
            shown = (list(dm.custom_ids), dm.content)
            await fake.wait_for(
                lambda: any(b.get("label") == "My hand" for b in table_msg.buttons),
                message="no My hand on the table message",
            )
            # My hand on the table message: answered in the guild, with the controls
            record = await click(fake, alice, table_msg, label="My hand")
            private = record.original or record.followups[-1]
            table = live(bot)
            action = choose_action(table.hand, table.hand_seat(0))  # type: ignore[arg-type]
            assert action.kind is ActionKind.DISCARD
            act = ids.act_id(1, ids.stamp(table), action.seat, "discard", tile_name(action.tile))
            assert act in private.custom_ids
            await click(fake, alice, private, custom_id=act)
            await fake.wait_for(lambda: live(bot).hand.log, message="the discard was not played")  # type: ignore[union-attr]
            assert str(live(bot).hand.log[0]) == str(action)  # type: ignore[union-attr]
            await fake.settle()
        return shown


async def test_a_process_without_shard_zero_sends_hand_dms_without_controls(
    tmp_path: Path,
) -> None:
    controls, words = await _hand_dm_played_through_my_hand(tmp_path, (1,))
    assert controls == []  # a DM click would reach shard 0's process, not this one
    # in the reader's language, naming the button as the (English) table message shows it
    assert translate("zh-CN", "fixups.dm.use_my_hand", button="My hand") in words


async def test_the_process_of_shard_zero_keeps_the_dm_controls(tmp_path: Path) -> None:
    controls, words = await _hand_dm_played_through_my_hand(tmp_path, (0, 1))
    assert controls  # its DM clicks reach it
    assert translate("zh-CN", "fixups.dm.use_my_hand", button="My hand") not in words


@contextlib.asynccontextmanager
async def _two_bots_on_one_postgres(
    postgres: PgAdmin | None, users: int
) -> AsyncIterator[tuple[FakeDiscord, MahjongBot, MahjongBot]]:
    """The fake Discord with two guilds, and two bots (shards 0 and 1 of 2, each its own
    manual clock) on one fresh PostgreSQL database."""
    if postgres is None:
        pytest.skip("PostgreSQL is not installed (apt-get install postgresql) nor MAHJONG_TEST_PG")
    name = postgres.create()
    try:
        place = postgres.dsn_of(name)
        async with FakeDiscord(users=users, guilds=SHARDS) as fake:

            def bot_of(shard: int) -> MahjongBot:
                config = BotConfig(
                    token="fake-token",
                    db_path=place,
                    edit_interval=0.02,
                    no_call_wait=0.0,
                    shard_count=SHARDS,
                    shard_ids=(shard,),
                )
                return make_bot(
                    config, timers=ManualTimers(), seed_source=lambda: 7, guild_ready_timeout=0.05
                )

            zero, one = bot_of(0), bot_of(1)
            async with fake.running(zero, timeout=30), fake.running(one, timeout=30):
                yield fake, zero, one
                await fake.settle()
    finally:
        postgres.drop([name])


def _channel_of_shard(fake: FakeDiscord, shard: int) -> FakeChannel:
    (guild,) = [g for g in fake.guilds if shard_of(g.id, SHARDS) == shard]
    return guild.channels[0]


async def test_a_dm_click_reaches_the_process_owning_the_table(
    postgres: PgAdmin | None,
) -> None:
    """Two bots (shards 0 and 1) on one PostgreSQL: the hand DM of a table in shard 1's guild
    keeps its controls; a click on it reaches shard 0's bot (as Discord sends DMs), which
    acknowledges it at once and hands it over through the inbox; shard 1's bot plays it and
    answers through the interaction's follow-up."""
    async with _two_bots_on_one_postgres(postgres, users=1) as (fake, receiver, owner):
        alice = fake.users[0]
        _, dm = await _started_with_her_dm(fake, owner, alice, _channel_of_shard(fake, 1))
        table = live(owner)
        action = choose_action(table.hand, table.hand_seat(0))  # type: ignore[arg-type]
        act = ids.act_id(1, ids.stamp(table), action.seat, "discard", tile_name(action.tile))
        assert act in dm.custom_ids  # the DM keeps its controls
        pressed = await fake.click(alice, dm, act)
        await pressed.wait_response()
        # Discord gave the click to shard 0's session; its bot does not hold the table
        assert pressed.session_id == fake.gateway.current(None).session_id
        assert not receiver.runtime.tables
        await fake.wait_for(
            lambda: live(owner).hand.log,  # type: ignore[union-attr]
            message="the DM click was not played by the table's owner",
        )
        assert str(live(owner).hand.log[0]) == str(action)  # type: ignore[union-attr]


async def test_two_people_queued_on_two_processes_get_one_table(
    postgres: PgAdmin | None,
) -> None:
    """Quick Play on two bots sharing one PostgreSQL: Alice queues in shard 0's guild, Bob
    in shard 1's, each through their own guild's bot; they share one casual queue, and when
    Alice's wait runs out shard 0's bot seats them both (and two computers) at one table in
    her channel, pings them there and deals them their hands."""
    async with _two_bots_on_one_postgres(postgres, users=2) as (fake, zero, one):
        alice, bob = fake.users
        for waiting, (user, shard) in enumerate(((alice, 0), (bob, 1)), 1):
            channel = _channel_of_shard(fake, shard)
            record = await fake.slash(user, "mahjong", "quickplay", {}, channel=channel)
            await record.wait_response()
            await fake.wait_for(lambda r=record: not (r.original and r.original.loading))
            assert record.original is not None
            assert f"queue ({waiting} of 4)" in record.original.text  # one queue for both
        for bot in (zero, one):
            assert isinstance(bot.runtime.timers, ManualTimers)
            await bot.runtime.timers.advance(61)
        table = live(zero)
        assert not one.runtime.tables  # one table, made by Alice's guild's bot
        humans = [seat.player_id for seat in table.seats if seat is not None and seat.human]
        assert humans == [str(alice.id), str(bob.id)]
        assert table.channel_id == _channel_of_shard(fake, 0).id
        ping = await fake.wait_for(
            lambda: next(
                (
                    m
                    for m in fake.channel_messages(_channel_of_shard(fake, 0))
                    if alice.mention in m.content
                ),
                None,
            ),
            message="no Quick Play ping",
        )
        assert bob.mention in ping.content
        for user in (alice, bob):
            await fake.wait_for(lambda u=user: fake.dms(u), message="no hand DM")
