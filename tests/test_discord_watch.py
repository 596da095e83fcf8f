"""Spectators: /mahjong watch shows the public table only, refreshed; players may forbid it;
a private table needs an invitation to watch."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.runtime import Runtime, TableError
from bot.runtime.spectators import set_spectators, watch_refusal
from bot.runtime.timers import ManualTimers
from data import Store
from render.views import TableView
from tests.fakediscord import FakeDiscord, FakeMessage
from tests.test_discord_e2e import (
    Drawn,
    arranged,
    click,
    discard,
    drawn,
    live,
    make_bot,
    open_table,
    private_text,
    wait_table_message,
)

__all__ = ["drawn"]  # the fixture, used by name


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord(users=5) as server:
        yield server


async def slash(fake: FakeDiscord, user_index: int, command: str, options: dict[str, Any]) -> Any:
    record = await fake.slash(fake.users[user_index], "mahjong", command, options)
    await record.wait_response()
    await fake.wait_for(lambda: not (record.original and record.original.loading))
    await fake.settle()
    return record


def picture_of(message: FakeMessage) -> bytes:
    (attachment,) = message.attachments
    return attachment.data


async def test_a_spectator_sees_the_public_table_refreshed_and_nothing_private(
    fake: FakeDiscord, drawn: Drawn, tmp_path: Path
) -> None:
    alice, bob, carol, dave, erin = fake.users
    async with fake.running(make_bot(tmp_path / "bot.db", hand_factory=arranged)) as bot:
        table_msg = await open_table(fake, alice)
        for user in (bob, carol, dave):
            await click(fake, user, table_msg, label="Join")
        await click(fake, alice, table_msg, label="Start")
        await fake.wait_for(lambda: table_msg.attachments)
        table_id = live(bot).id

        watching = await slash(fake, 4, "watch", {"table": table_id})
        await fake.wait_for(lambda: watching.original and watching.original.attachments)
        view = watching.original
        assert view.ephemeral and view.visible_to == erin.id
        assert "Watching" in view.text and not view.custom_ids  # no controls for spectators
        assert picture_of(view) == picture_of(await wait_table_message(fake))

        await discard(fake, bot, "3z")
        await bot.front.settled(table_id)
        await fake.settle()
        await fake.wait_for(lambda: picture_of(view) == picture_of(table_msg))
        assert len(view.history) > 1  # it was refreshed, not posted again
        # what a spectator was shown is the public picture, which holds no hidden tile
        public_pictures = {
            data for v, data in drawn.of(TableView) if not any(s.revealed for s in v.seats)
        }
        assert picture_of(view) in public_pictures
        assert fake.dms(erin) == []

        # a player forbids spectators: the view stops, and watching is refused
        said = await slash(fake, 0, "spectators", {"table": table_id, "allow": False})
        assert "not allowed" in private_text(said)
        await fake.wait_for(lambda: "do not allow spectators" in view.text)
        assert not view.attachments
        again = await slash(fake, 4, "watch", {"table": table_id})
        assert "do not allow spectators" in private_text(again)
        outsider = await slash(fake, 4, "spectators", {"table": table_id, "allow": True})
        assert "not seated" in private_text(outsider)
        missing = await slash(fake, 4, "watch", {"table": 99})
        assert "no open table #99" in private_text(missing)


async def test_a_private_table_is_watched_by_invitation_only(tmp_path: Path) -> None:
    async with await Store.open(str(tmp_path / "bot.db")) as store:
        runtime = Runtime(store, None, ManualTimers())
        await runtime.open()
        table = await runtime.create_table(
            "hkos-3-v1", creator_id="1", creator_name="Ann", visibility="private"
        )
        assert watch_refusal(table, "1") is None  # its players may
        assert "private" in str(watch_refusal(table, "9"))
        refusal = watch_refusal(table, "9")
        assert refusal is not None and "私人牌桌" in refusal.in_language("zh-CN")  # a reader's
        with pytest.raises(TableError, match="not seated"):
            await set_spectators(runtime, table.id, "9", invite="9")
        await set_spectators(runtime, table.id, "1", invite="9")
        assert watch_refusal(table, "9") is None and watch_refusal(table, "8") is not None
        await set_spectators(runtime, table.id, "1", allow=False)
        assert "do not allow" in str(watch_refusal(table, "9"))
        await runtime.close()
        # stored with the table: a restart keeps both
        restarted = Runtime(store, None, ManualTimers())
        await restarted.open()
        again = restarted.get(table.id)
        assert again.options.extra["watchers"] == ["9"]
        assert again.options.extra["spectators"] is False
        await restarted.close()
