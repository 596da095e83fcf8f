"""Hand DMs under sharding: Discord delivers DM interactions to shard 0 only, so a process that
does not run shard 0 sends hands without controls and its players play through **My hand**
on the table message, a guild interaction that reaches the process owning the table."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.discord import ids
from bot.discord.client import MahjongBot, make_bot
from bot.discord.config import BotConfig, shard_of
from bot.runtime import ManualTimers
from engine.actions import ActionKind
from engine.ai import choose_action
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


async def test_a_dm_click_reaches_the_process_owning_the_table(
    postgres: PgAdmin | None,
) -> None:
    """Two bots (shards 0 and 1) on one PostgreSQL: the hand DM of a table in shard 1's guild
    keeps its controls; a click on it reaches shard 0's bot (as Discord sends DMs), which
    acknowledges it at once and hands it over through the inbox; shard 1's bot plays it and
    answers through the interaction's follow-up."""
    if postgres is None:
        pytest.skip("PostgreSQL is not installed (apt-get install postgresql) nor MAHJONG_TEST_PG")
    name = postgres.create()
    try:
        place = postgres.dsn_of(name)
        async with FakeDiscord(users=1, guilds=SHARDS) as fake:
            (guild,) = [g for g in fake.guilds if shard_of(g.id, SHARDS) == 1]
            channel = guild.channels[0]
            alice = fake.users[0]

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

            receiver, owner = bot_of(0), bot_of(1)
            async with fake.running(receiver, timeout=30), fake.running(owner, timeout=30):
                _, dm = await _started_with_her_dm(fake, owner, alice, channel)
                table = live(owner)
                action = choose_action(table.hand, table.hand_seat(0))  # type: ignore[arg-type]
                act = ids.act_id(
                    1, ids.stamp(table), action.seat, "discard", tile_name(action.tile)
                )
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
                await fake.settle()
    finally:
        postgres.drop([name])
