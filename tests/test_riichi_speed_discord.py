"""The automatic moves' switches on Discord (issue 43, item 6): Auto win, No calls and Auto
discard on the hand message, off at first; a click stores the switch with the table and the
hand message shows it on, and a decision it answers is made at once."""

from __future__ import annotations

from bot.discord import ids
from bot.runtime.automatic import TOGGLES, toggles_of
from bot.runtime.snapshots import public_moment
from engine.actions import Action, ActionKind
from engine.events import Phase as HandPhase
from tests.conftest import Databases
from tests.fakediscord import FakeDiscord, FakeMessage
from tests.test_discord_e2e import (
    click,
    dm_with_controls,
    fake,  # noqa: F401  (the fixture)
    latest_dm,
    live,
    make_bot,
    open_table,
)


def switches(message: FakeMessage) -> dict[str, str]:
    return {b["custom_id"]: b["label"] for b in message.buttons if ":auto:" in b["custom_id"]}


async def test_auto_discard_on_the_hand_message_plays_the_drawn_tile(
    fake: FakeDiscord,  # noqa: F811
    db: Databases,
) -> None:
    alice = fake.users[0]
    async with fake.running(make_bot(db("bot"), seed_source=lambda: 5)) as bot:
        message = await open_table(
            fake, alice, preset="riichi", computers=3, level="easy", time="untimed"
        )
        await click(fake, alice, message, label="Start")
        table = live(bot)
        hand = table.hand
        assert hand is not None
        seat = table.hand_seat(0)
        for _ in range(50):  # to Alice's own turn, passing any call she is offered
            await fake.wait_for(lambda: 0 in table.players_to_act())
            if hand.phase is HandPhase.TURN:
                break
            await bot.runtime.act(
                table.id, str(alice.id), Action(seat, ActionKind.PASS), hand.decision_version
            )
        dm = await dm_with_controls(fake, alice, public_moment(hand))
        toggle = ids.toggle_id(table.id, "auto_discard")
        assert switches(dm) == {
            ids.toggle_id(table.id, name): f"{label}: off"
            for name, label in zip(TOGGLES, ("Auto win", "No calls", "Auto discard"), strict=True)
        }
        drawn, before = hand.drawn, len(hand.log)
        await click(fake, alice, dm, custom_id=toggle)
        assert toggles_of(table, str(alice.id)) == {"auto_discard"}
        assert hand.log[before] == Action(seat, ActionKind.DISCARD, (drawn,))
        await fake.wait_for(
            lambda: switches(latest_dm(fake, alice) or dm).get(toggle) == "Auto discard: on"
        )
        stored = await bot.store.table_row(table.id)
        assert stored.options.extra["automatic"] == {str(alice.id): ["auto_discard"]}
