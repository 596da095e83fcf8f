"""A game that ends, end to end through the real discord.py client and the fake Discord: two
hands of the test preset played by clicks, Ready between them, then the table message shows
the final standings with their picture and no controls."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.discord import ids
from data import Phase
from tests.fakediscord import FakeDiscord
from tests.game_presets import SHORT_GAME, registered
from tests.test_discord_e2e import (
    click,
    fake,  # noqa: F401  (the fixture)
    live,
    make_bot,
    open_table,
    play_hand_by_clicks,
)


@pytest.fixture(autouse=True)
def short_game() -> Iterator[None]:
    with registered(SHORT_GAME):
        yield


async def test_a_short_game_ends_on_discord_with_its_standings(
    fake: FakeDiscord,  # noqa: F811
    tmp_path: Path,
) -> None:
    alice = fake.users[0]
    async with fake.running(make_bot(tmp_path / "bot.db", seed_source=lambda: 71)) as bot:
        message = await open_table(
            fake, alice, preset=SHORT_GAME.id, computers=3, time="untimed", level="easy"
        )
        await click(fake, alice, message, label="Start")
        await play_hand_by_clicks(fake, bot, alice)
        table = live(bot)
        ready = ids.table_id(table.id, "ready", ids.stamp(table))
        await fake.wait_for(lambda: ready in message.custom_ids)
        await click(fake, alice, message, custom_id=ready)
        await play_hand_by_clicks(fake, bot, alice, ends_in=Phase.GAME_OVER)
        await fake.wait_for(lambda: not message.custom_ids, message="controls stay after the end")
        await fake.settle()
        assert table.id not in bot.runtime.tables
        stored = await bot.store.game_result(table.id)
    assert stored is not None and sorted(s.place for s in stored.standings) == [1, 2, 3, 4]
    (embed,) = message.embeds
    fields = {f["name"]: f["value"] for f in embed.get("fields", [])}
    assert "Final standings" in fields and fields["Final standings"].startswith("1. ")
    assert "game is over" in embed["description"]
    assert [a.filename for a in message.attachments] == [f"standings-{table.id}.png"]
