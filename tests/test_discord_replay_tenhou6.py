"""/mahjong replay export:true on a hand of a finished Riichi game attaches the game as
tenhou.net/6 JSON beside the hand's own export, through the real discord.py client on the fake
Discord; the file replays on our engine to the game's results."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from bot.discord import MahjongBot
from data import Store
from engine.families.riichi.presets import RIICHI
from engine.formats.tenhou6.compare import FinalReport, HandReport
from engine.formats.tenhou6.log import read
from engine.formats.tenhou6.replay import replay_log
from tests.fakediscord import FakeDiscord
from tests.test_discord_e2e import make_bot
from tests.test_discord_replay import replay, viewer
from tests.test_tenhou6_replay import playable, whole_game


@pytest.fixture(autouse=True)
def riichi_tables() -> Iterator[None]:
    with playable(RIICHI):
        yield


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord(users=5) as server:
        yield server


@pytest.fixture
async def game_hand(fake: FakeDiscord, tmp_path: Path) -> tuple[int, int]:
    """Users 0-3 played a whole game of `riichi`: (its table, its first hand)."""
    players = [(str(u.id), u.display_name) for u in fake.users[:4]]
    async with await Store.open(str(tmp_path / "bot.db")) as store:
        table_id = await whole_game(
            store, RIICHI, 4, players, guild_id=fake.guild.id, channel_id=fake.channel.id
        )
        hands = await store.table_hands(table_id)
    return table_id, hands[0].hand_id


@pytest.fixture
async def bot(
    fake: FakeDiscord, tmp_path: Path, game_hand: tuple[int, int]
) -> AsyncIterator[MahjongBot]:
    async with fake.running(make_bot(tmp_path / "bot.db")) as running:
        yield running


async def test_the_export_attaches_the_whole_game_as_tenhou6(
    fake: FakeDiscord, bot: MahjongBot, game_hand: tuple[int, int]
) -> None:
    table_id, hand_id = game_hand
    message = viewer(await replay(fake, 1, {"hand": hand_id, "export": True}))
    names = sorted(a.filename for a in message.attachments if a.filename.endswith(".json"))
    assert names == [f"game-{table_id}.tenhou6.json", f"hand-{hand_id}.json"]
    (game,) = [a for a in message.attachments if a.filename.endswith(".tenhou6.json")]
    log = read(game.data.decode())
    assert log.names == tuple(u.display_name for u in fake.users[:4])
    found = list(replay_log(log))
    assert all(not r.differs for r in found if isinstance(r, HandReport))
    assert isinstance(found[-1], FinalReport) and found[-1].over
    # without export:true, nothing is attached but the picture
    plain = viewer(await replay(fake, 1, {"hand": hand_id}))
    assert [a.filename for a in plain.attachments if a.filename.endswith(".json")] == []
