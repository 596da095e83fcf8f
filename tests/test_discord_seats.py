"""A table of three seats on the fake Discord: `/mahjong create players:` and `level:`, the
table message and pictures for three, a whole hand, Ready counted out of three."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.discord.options import OptionError, check_create
from bot.runtime import ManualTimers
from data import Phase
from engine.computer.easy import choose_action
from engine.presets import PRESETS
from render.views import TableView
from tests import test_discord_e2e
from tests.fakediscord import FakeDiscord
from tests.rule_presets import SMALL_HK, TEST_PRESETS
from tests.test_discord_commands import answer, run
from tests.test_discord_e2e import (
    Drawn,
    assert_no_hidden_tile_in_public,
    click,
    live,
    make_bot,
    open_table,
    refused,
)

drawn = test_discord_e2e.drawn  # the fixture recording every picture drawn


@pytest.fixture(autouse=True)
def test_presets(monkeypatch: pytest.MonkeyPatch) -> None:
    for preset in TEST_PRESETS:
        monkeypatch.setitem(PRESETS, preset.id, preset)


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord(users=3) as server:
        yield server


def labels(message: Any) -> list[str]:
    return [b.get("label") for b in message.buttons]


async def test_a_three_seat_table_plays_a_hand(
    fake: FakeDiscord, drawn: Drawn, tmp_path: Path
) -> None:
    alice, bob, carol = fake.users
    async with fake.running(make_bot(tmp_path / "bot.db", seed_source=lambda: 5)) as bot:
        table_msg = await open_table(
            fake, alice, preset=SMALL_HK.id, players=3, computers=1, time="untimed"
        )
        assert live(bot).seat_count == 3 and live(bot).level == "strong"
        await fake.wait_for(lambda: "2 of 3 seated" in table_msg.text)
        await click(fake, bob, table_msg, label="Join")
        await fake.wait_for(lambda: "All 3 seats are taken" in table_msg.text)
        record = await click(fake, carol, table_msg, label="Join")
        await refused(fake, record, "This table is full")
        await click(fake, alice, table_msg, label="Start")
        await fake.wait_for(lambda: table_msg.attachments)
        # Alice and Bob decide as the easy computer would (clicks are tested in test_discord_e2e)
        table = live(bot)
        while table.phase is Phase.PLAYING:
            player = table.players_to_act()[0]
            action = choose_action(table.hand, table.hand_seat(player))  # type: ignore[arg-type]
            await bot.runtime.act(table.id, table.seat(player).player_id, action, table.version)
        assert table.phase is Phase.BETWEEN_HANDS
        # the computer is ready already: one of three
        await fake.wait_for(lambda: "Ready (1/3)" in labels(table_msg))
        await click(fake, alice, table_msg, label="Ready (1/3)")
        await fake.wait_for(lambda: "Ready (2/3)" in labels(table_msg))
    pictures = drawn.of(TableView)
    assert pictures and all(len(view.seats) == 3 for view, _ in pictures)
    assert_no_hidden_tile_in_public(fake, drawn)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"players": 3}, "Players: Hong Kong Old Style is played by 4 players, not 3"),
        ({"preset": SMALL_HK.id, "players": 3, "rated": True}, "rated tables seat 4 people"),
        ({"preset": SMALL_HK.id, "players": 2, "computers": 2}, "room for 0 to 1 computers"),
    ],
)
async def test_create_checks_players_and_level(
    fake: FakeDiscord, tmp_path: Path, options: dict[str, Any], message: str
) -> None:
    async with fake.running(make_bot(tmp_path / "bot.db", timers=ManualTimers())) as bot:
        record = await run(fake, fake.users[0], "create", options)
        assert message in answer(record)
        assert not bot.runtime.tables


def test_a_level_from_anywhere_is_checked_again() -> None:
    """Discord's client enforces the choices; a request made without it is checked here."""
    with pytest.raises(OptionError, match=r"level: choose easy or strong, not `hard`\."):
        check_create("hkos-3-v1", "public", False, None, 0, "", level="hard")
    assert check_create(SMALL_HK.id, "public", False, None, 1, "", players=2) is SMALL_HK


async def test_create_offers_players_and_level(fake: FakeDiscord, tmp_path: Path) -> None:
    async with fake.running(make_bot(tmp_path / "bot.db")):
        (mahjong,) = fake.command_tree()
        create = next(o for o in mahjong["options"] if o["name"] == "create")
        by_name = {o["name"]: o for o in create["options"]}
        assert (by_name["players"]["min_value"], by_name["players"]["max_value"]) == (2, 4)
        assert [c["value"] for c in by_name["level"]["choices"]] == ["easy", "strong"]
