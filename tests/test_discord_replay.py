"""/mahjong replay through the real discord.py client on the fake Discord: the private paged
viewer, jumps, autocomplete, the export, and the refusals (hands in play, private tables)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.discord import MahjongBot
from bot.discord.cogs.replay import replay_jump_id
from bot.replay import ReplayLog, check_outcome
from bot.runtime.manager import Runtime
from bot.runtime.timers import ManualTimers
from data import Store
from tests.fakediscord import FakeDiscord, FakeMessage
from tests.replay_fixtures import finished_hand, seated_table
from tests.test_discord_e2e import click, make_bot, private_text


class Hands:
    public = private = playing = abandoned = 0


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord(users=5) as server:
        yield server


@pytest.fixture
async def hands(fake: FakeDiscord, tmp_path: Path) -> Hands:
    """Users 0-3 played a public hand and a private one; one hand is still in play and one
    was abandoned when its table closed."""
    players = [(str(u.id), u.display_name) for u in fake.users[:4]]
    where: dict[str, Any] = {"guild_id": fake.guild.id, "channel_id": fake.channel.id}
    found = Hands()
    async with await Store.open(str(tmp_path / "bot.db")) as store:
        found.public = await finished_hand(store, "hkos-3-v1", players=players, close=True, **where)
        found.private = await finished_hand(
            store, "sichuan-bb", players=players, visibility="private", close=True, **where
        )
        runtime = Runtime(store, None, ManualTimers(), seed_source=lambda: 3)
        await runtime.open()
        closed = await seated_table(runtime, "hkos-3-v1", players, **where)
        await runtime.close_table(closed.id, players[0][0])
        playing = await seated_table(runtime, "hkos-3-v1", players, **where)
        assert closed.hand_id is not None and playing.hand_id is not None
        found.abandoned, found.playing = closed.hand_id, playing.hand_id
        await runtime.close()
    return found


@pytest.fixture
async def bot(fake: FakeDiscord, tmp_path: Path, hands: Hands) -> AsyncIterator[MahjongBot]:
    async with fake.running(make_bot(tmp_path / "bot.db")) as running:
        yield running


async def replay(fake: FakeDiscord, user_index: int, options: dict[str, Any]) -> Any:
    record = await fake.slash(fake.users[user_index], "mahjong", "replay", options)
    await record.wait_responses(2)
    await fake.settle()
    return record


def viewer(record: Any) -> FakeMessage:
    (message,) = [m for m in record.followups if m.ephemeral and m.embeds]
    return message


def footer(message: FakeMessage) -> str:
    return str(message.embeds[0]["footer"]["text"])


async def test_the_viewer_pages_through_the_hand_privately(
    fake: FakeDiscord, bot: MahjongBot, hands: Hands
) -> None:
    record = await replay(fake, 0, {"hand": hands.public})
    message = viewer(record)
    assert message.ephemeral and message.visible_to == fake.users[0].id
    assert message.attachments[0].content_type == "image/png"
    assert "frame 1 of" in footer(message) and "The deal" in message.text
    disabled = {b["label"] for b in message.buttons if b.get("disabled")}
    assert disabled == {"⏮", "◀"}
    total = int(footer(message).split("frame 1 of ")[1].split(" ")[0])
    await click(fake, fake.users[0], message, label="▶")
    assert "frame 2 of" in footer(fake.message(message.id))
    await click(fake, fake.users[0], fake.message(message.id), label="⏭")
    shown = fake.message(message.id)
    assert f"frame {total} of {total}" in footer(shown) and "Result:" in shown.text
    assert {b["label"] for b in shown.buttons if b.get("disabled")} == {"▶", "⏭"}
    # the menu jumps to a call or a win
    menu = shown.find_component(replay_jump_id(hands.public))
    first = menu["options"][0]
    picked = await fake.select(fake.users[0], shown, menu["custom_id"], [first["value"]])
    await picked.wait_response()
    await fake.settle()
    assert f"frame {int(first['value']) + 1} of" in footer(fake.message(message.id))
    await click(fake, fake.users[0], fake.message(message.id), label="⏮")
    assert "frame 1 of" in footer(fake.message(message.id))


async def test_autocomplete_offers_your_recent_hands(
    fake: FakeDiscord, bot: MahjongBot, hands: Hands
) -> None:
    typing = await fake.autocomplete(
        fake.users[1], "mahjong replay", options={"hand": ""}, focused="hand"
    )
    await typing.wait_response()
    values = {choice["value"] for choice in typing.choices or []}
    assert values == {hands.public, hands.private}
    nobody = await fake.autocomplete(
        fake.users[4], "mahjong replay", options={"hand": ""}, focused="hand"
    )
    await nobody.wait_response()
    assert nobody.choices == []


async def test_the_export_plays_back_to_the_same_outcome(
    fake: FakeDiscord, bot: MahjongBot, hands: Hands
) -> None:
    record = await replay(fake, 2, {"hand": hands.private, "export": True})
    message = viewer(record)
    (exported,) = [a for a in message.attachments if a.filename.endswith(".json")]
    log = ReplayLog.loads(exported.data.decode())
    assert log.hand_id == hands.private
    assert [s.name for s in log.seats] == [u.display_name for u in fake.users[:4]]
    check_outcome(log)


async def test_refusals_hands_in_play_and_other_peoples_private_tables(
    fake: FakeDiscord, bot: MahjongBot, hands: Hands
) -> None:
    outsider = 4
    refused = await fake.slash(fake.users[outsider], "mahjong", "replay", {"hand": hands.private})
    await refused.wait_responses(2)
    await fake.settle()
    assert "private table" in private_text(refused)
    assert not any(m.embeds for m in refused.followups)
    allowed = await replay(fake, outsider, {"hand": hands.public})
    assert viewer(allowed).attachments
    for hand, answer in (
        (hands.playing, "still in play: only finished hands replay"),
        (hands.abandoned, "abandoned before its end"),
        (999, "no hand 999"),
    ):
        asked = await fake.slash(fake.users[0], "mahjong", "replay", {"hand": hand})
        await asked.wait_responses(2)
        await fake.settle()
        assert answer in private_text(asked)
        assert not any(m.embeds for m in asked.followups)


async def test_history_names_each_hand_for_its_replay(
    fake: FakeDiscord, bot: MahjongBot, hands: Hands
) -> None:
    record = await fake.slash(fake.users[0], "mahjong", "history", {})
    await record.wait_responses(2)
    await fake.settle()
    text = private_text(record)
    assert f"replay `{hands.public}`" in text and f"replay `{hands.private}`" in text
