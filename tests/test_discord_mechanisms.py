"""The preset with every mechanism of issue 30 (tests/rule_presets.py MECHANISMS), a whole game
played on the fake Discord by clicks: the declarations by their worded button and the stake
by its menu of tiles, Ready between hands, and the final standings at the end."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.discord import ids
from data import Phase
from engine.computer.easy import choose_action
from tests.fakediscord import FakeDiscord
from tests.fakediscord.models import walk_components
from tests.game_presets import registered
from tests.rule_presets import MECHANISMS, declaring
from tests.test_discord_e2e import (
    click,
    fake,  # noqa: F401  (the fixture)
    live,
    make_bot,
    open_table,
    play_hand_by_clicks,
)


@pytest.fixture(autouse=True)
def mechanisms() -> Iterator[None]:
    with registered(MECHANISMS):
        yield


async def test_a_game_of_every_mechanism_is_played_on_discord_by_clicks(
    fake: FakeDiscord,  # noqa: F811
    tmp_path: Path,
) -> None:
    alice = fake.users[0]
    used: set[str] = set()
    async with fake.running(make_bot(tmp_path / "bot.db", seed_source=lambda: 7)) as bot:
        message = await open_table(
            fake, alice, preset=MECHANISMS.id, computers=3, time="untimed", level="easy"
        )
        await click(fake, alice, message, label="Start")
        table = live(bot)
        for number in range(1, MECHANISMS.game.hands + 1):
            last = number == MECHANISMS.game.hands
            ends_in = Phase.GAME_OVER if last else Phase.BETWEEN_HANDS
            used |= await play_hand_by_clicks(
                fake, bot, alice, ends_in=ends_in, chooser=declaring(choose_action)
            )
            if last:
                break
            ready = ids.table_id(table.id, "ready", ids.stamp(table))
            await fake.wait_for(lambda r=ready: r in message.custom_ids)
            await click(fake, alice, message, custom_id=ready)
        await fake.wait_for(lambda: not message.custom_ids, message="controls stay after the end")
        await fake.settle()
        stored = await bot.store.game_result(table.id)
        shown = {  # every label and menu question Alice's hand messages showed
            component.get("label") or component.get("placeholder")
            for dm in fake.dms(alice)
            for payload in dm.history
            for component in walk_components(payload.get("components") or [])
        }
    assert {"lay_aside", "stake menu", "discard"} <= used  # the declaration's button and menu
    assert "set 4z aside (and draw a replacement)" in shown  # worded, not "lay_aside 4z"
    assert "discard … with a stake into the pot: which tile?" in shown
    assert stored is not None and stored.hands == MECHANISMS.game.hands
    assert sorted(s.place for s in stored.standings) == [1, 2, 3, 4]
    assert [a.filename for a in message.attachments] == [f"standings-{table.id}.png"]
