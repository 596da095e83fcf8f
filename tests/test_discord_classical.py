"""A whole Chinese Classical match on Discord, end to end through the real discord.py client and
the fake Discord: one person and three (easy) computers at a casual `length=east` table, Alice's
every decision made by clicks (the easy computer's choice), to the match's end: its standings
posted, the points still 8,000 in all, nobody rated (a table with computers rates nobody)."""

from __future__ import annotations

from bot.discord import MahjongBot, ids
from data import Phase
from engine.computer.easy import choose_action
from tests.conftest import Databases
from tests.fakediscord import FakeDiscord
from tests.test_discord_e2e import (
    Drawn,
    click,
    drawn,  # noqa: F401  (the fixture)
    fake,  # noqa: F401  (the fixture)
    live,
    make_bot,
    open_table,
)
from tests.test_discord_riichi import alice_decides, fake_text


async def test_one_person_and_three_computers_play_a_whole_east_round_match_by_clicks(
    fake: FakeDiscord,  # noqa: F811
    drawn: Drawn,  # noqa: F811
    db: Databases,
) -> None:
    alice = fake.users[0]
    used: set[str] = set()
    hands = 0
    async with fake.running(make_bot(db("bot"), seed_source=lambda: 5)) as bot:
        assert isinstance(bot, MahjongBot)
        message = await open_table(
            fake,
            alice,
            preset="chinese-classical",
            computers=3,
            level="easy",
            time="untimed",
            options="length=east",
        )
        await click(fake, alice, message, label="Start")
        table = live(bot)
        for _ in range(3000):
            await fake.wait_for(
                lambda: table.phase is not Phase.PLAYING or 0 in table.players_to_act()
            )
            if table.phase is Phase.BETWEEN_HANDS:
                hands += 1
                ready = ids.table_id(table.id, "ready", ids.stamp(table))
                await fake.wait_for(lambda r=ready: r in message.custom_ids)  # type: ignore[misc]
                await click(fake, alice, message, custom_id=ready)
                continue
            if table.phase is not Phase.PLAYING:
                break
            before = table.version
            await alice_decides(fake, bot, alice, used, decide=choose_action)
            await fake.wait_for(
                lambda v=before: table.version > v or table.phase is not Phase.PLAYING
            )
        assert table.phase is Phase.GAME_OVER
        await fake.wait_for(lambda: "Final standings: 1. " in fake_text(fake))
        await fake.settle()
        posts = fake.channel_messages(include_deleted=True)
        stored = await bot.store.game_result(table.id)
        ratings = await bot.store.ratings_of(str(alice.id))
    assert "discard" in used and hands >= 3  # East's round: at least four hands
    assert stored is not None
    places = sorted(s.place for s in stored.standings)  # ties share a place
    assert len(places) == 4 and places[0] == 1 and places[-1] <= 4
    assert sum(s.points for s in stored.standings) == 8000
    assert not stored.rated and ratings == []
    # a won hand's result post says each hand's score and who paid whom (RULES.md: every hand)
    fields = {f["name"] for post in posts for embed in post.embeds for f in embed.get("fields", ())}
    assert "Who pays whom (each loser pays the winner, then the losers settle)" in fields
