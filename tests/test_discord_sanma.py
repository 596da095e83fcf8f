"""A whole sanma game on Discord, end to end through the real discord.py client and the fake
Discord: a rated tonpuu `sanma` table of three, Alice's every decision made by clicks (a north
set aside whenever she may, riichi declared whenever it is legal), the two other seats played
with the easy computer's choices; the game ends with its standings posted, and each rating of
`sanma` moves once."""

from __future__ import annotations

from engine.actions import Action
from engine.families.riichi.sanma import NUKI
from engine.hand import HandState
from render.standings import score_text
from tests.conftest import Databases
from tests.fakediscord import FakeDiscord
from tests.test_discord_e2e import (
    Drawn,
    drawn,  # noqa: F401  (the fixture)
    fake,  # noqa: F401  (the fixture)
    make_bot,
)
from tests.test_discord_riichi import check_public, fake_text, play_tonpuu_by_clicks, riichi_first


def nuki_first(hand: HandState, seat: int) -> Action:
    """A north set aside whenever it may be, else riichi whenever legal, else the easy choice."""
    nukis = [a for a in hand.legal_actions(seat) if a.kind is NUKI]
    return nukis[0] if nukis else riichi_first(hand, seat)


async def test_a_rated_tonpuu_sanma_game_of_three_by_clicks_ends_with_standings_and_rates_once(
    fake: FakeDiscord,  # noqa: F811
    drawn: Drawn,  # noqa: F811
    db: Databases,
) -> None:
    alice, bob, carol, _, _ = fake.users
    used: set[str] = set()
    async with fake.running(make_bot(db("bot"), seed_source=lambda: 5)) as bot:
        table, hands = await play_tonpuu_by_clicks(
            fake, bot, "sanma", [alice, bob, carol], used, nuki_first
        )
        assert len(table.seats) == 3 and table.preset.id == "sanma"
        await fake.wait_for(lambda: "Final standings: 1. " in fake_text(fake))
        await fake.settle()
        stored = await bot.store.game_result(table.id)
        ratings = {
            user.id: await bot.store.ratings_of(str(user.id)) for user in (alice, bob, carol)
        }
    assert {"discard", "nuki"} <= used  # a north set aside by its button
    assert stored is not None and sorted(s.place for s in stored.standings) == [1, 2, 3]
    # the game's result post: its three standings with the final score, on one line
    (post,) = [m for m in fake.channel_messages() if "Final standings: 1. " in m.content]
    line = post.content.split("Final standings: ", 1)[1]
    ranked = sorted(stored.standings, key=lambda s: s.place)
    said = [f"{s.place}. " for s in ranked] + [f"({score_text(s.score)})" for s in ranked]
    assert all(part in line for part in said) and "4. " not in line, line
    # one rating each, of sanma, settled once: one game
    for rows in ratings.values():
        assert [(r.preset, r.games) for r in rows] == [("sanma", 1)]
    check_public(fake, drawn, windows=("pung", "kong", "win", "pass"))  # no chi in sanma
    assert hands >= 1
