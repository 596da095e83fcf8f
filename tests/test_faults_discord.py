"""Forged, stale and doubled clicks, and restarts, through discord.py and the fake Discord
(issue 12): every click gets a private answer, and none changes what it may not."""

from __future__ import annotations

import copy
import logging
from typing import Any

import pytest

from bot.discord import MahjongBot, ids
from bot.discord.components import FOREIGN
from bot.runtime import StaleActionError
from data import Phase
from engine.actions import Action, ActionKind
from engine.computer.easy import choose_action
from tests.conftest import Databases
from tests.fakediscord import FakeDiscord, FakeMessage, FakeUser
from tests.fakediscord.interactions import COMPONENT
from tests.runtime_writer_proc import drive
from tests.test_discord_e2e import click, live, make_bot, open_table, private_text, refused

PASS = ActionKind.PASS


@pytest.fixture
async def fake():
    async with FakeDiscord(users=5) as server:
        yield server


async def press(fake: FakeDiscord, user: FakeUser, message: FakeMessage, custom_id: str) -> Any:
    """A click on `custom_id` as if it were on `message`, whatever the message shows."""
    channel = fake.channels[message.channel_id]
    data = {"custom_id": custom_id, "component_type": 2}
    return await fake._inject(COMPONENT, user, channel, data, message)


async def alice_to_play(fake: FakeDiscord, bot: MahjongBot) -> None:
    """Let the computers move until Alice (the only human) is on turn."""
    table = live(bot)
    for _ in range(200):
        await fake.wait_for(lambda: live(bot).players_to_act() == [0])
        hand = table.hand
        assert hand is not None
        if hand.phase.value == "turn":
            return
        await bot.runtime.act(
            table.id, table.seat(0).player_id, Action(table.hand_seat(0), PASS), hand.version
        )
    pytest.fail("Alice never got a turn")


# ------------------------------------------------------------------ 5. forged ids


FORGED = [
    "mj:-1:join:0.0",
    "mj:1:act:1.0:9:discard:5m",
    "",
    "mj:1:steal:0.0",
    "mj:1:join:0.0\n",
    "mj:1\n:join:0.0",
    "mj:1:join:0.0\x00",
    "mj:\u0661:join:0.0",  # an Arabic-Indic one: a digit to Python, not to us
    "mj:1:act:1.0:0:discard:\u00e9",
    "x" * 150,
    "mj:" + "9" * 5000 + ":join:0.0",
    "mj:1:act:" + "9" * 5000 + ".0:0:discard:5m",
    "mj:1:call:1." + "1" * 5000 + ":pung",
    "mj:1:act:0:0:discard:5m",  # the old form, without the hand
    "mj:99999:join:0.0",  # no such table
]


async def test_forged_ids_of_every_shape_get_a_private_answer_and_no_traceback(
    fake: FakeDiscord, db: Databases, caplog: pytest.LogCaptureFixture
) -> None:
    alice, bob = fake.users[:2]
    async with fake.running(make_bot(db("bot"), seed_source=lambda: 71)) as bot:
        table_msg = await open_table(fake, alice, computers=3, time="untimed")
        await click(fake, alice, table_msg, label="Start")
        await alice_to_play(fake, bot)
        table = live(bot)
        before = table.version
        stamp = ids.stamp(table)
        caplog.clear()
        caplog.set_level(logging.INFO)
        forged = [
            *FORGED,
            # well formed but not offered: only the clock plays time_up, seat 1 is a computer
            ids.act_id(table.id, stamp, 0, "time_up"),
            ids.act_id(table.id, stamp, 1, "discard", "5m"),
            ids.act_id(table.id, stamp, 0, "discard", "9z"),
        ]
        for custom_id in forged:
            for user in (alice, bob):
                record = await press(fake, user, table_msg, custom_id)
                await fake.wait_for(
                    lambda r=record: private_text(r),
                    message=lambda c=custom_id: f"no private answer to {c[:60]!r}",
                )
                assert record.ephemeral or all(m.ephemeral for m in record.followups)
        await fake.settle()
        assert live(bot).version == before and live(bot).phase is Phase.PLAYING
        assert not [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]
        record = await press(fake, alice, table_msg, "x" * 150)
        await refused(fake, record, FOREIGN[:20])


# ------------------------------------------------------------------ 3. a button of an earlier hand


async def test_a_button_from_an_earlier_hand_is_refused(fake: FakeDiscord, db: Databases) -> None:
    """A "My hand" answer is private and never edited: its controls stay. Pressed in the next
    hand, they are refused (even where seat, version and tile would fit) and change nothing."""
    alice = fake.users[0]
    async with fake.running(make_bot(db("bot"), seed_source=lambda: 71)) as bot:
        table_msg = await open_table(fake, alice, computers=3, time="untimed")
        await click(fake, alice, table_msg, label="Start")
        table = live(bot)
        await alice_to_play(fake, bot)
        await fake.wait_for(lambda: "My hand" in [b.get("label") for b in table_msg.buttons])
        mine = await click(fake, alice, table_msg, label="My hand")
        old = await fake.wait_for(lambda: mine.followups and mine.followups[-1])
        assert any(":act:1." in c for c in old.custom_ids)
        await drive(bot.runtime, table.id, 1)  # the first hand, played to its end
        await bot.runtime.ready(table.id, str(alice.id))
        assert table.hand_number == 2
        await alice_to_play(fake, bot)
        hand = table.hand
        assert hand is not None
        button = next(c for c in old.custom_ids if ":discard:" in c)
        record = await click(fake, alice, old, custom_id=button)
        await refused(fake, record, "earlier hand")
        assert FOREIGN not in private_text(record)
        assert table.hand is hand and table.version == hand.version
        assert tuple(hand.log) == (await bot.store.hand_log(table.hand_id)).actions  # type: ignore[arg-type]
        # the runtime refuses it by the hand number alone: same seat, version and a legal tile
        action = choose_action(hand, table.hand_seat(0))
        with pytest.raises(StaleActionError, match="earlier hand"):
            await bot.runtime.act(table.id, str(alice.id), action, hand.version, 1)
        await bot.runtime.act(table.id, str(alice.id), action, hand.version, 2)


# ------------------------------------------------------------------ 6. a double click


async def test_a_double_click_on_add_computer_adds_one_computer(
    fake: FakeDiscord, db: Databases
) -> None:
    alice = fake.users[0]
    async with fake.running(make_bot(db("bot"))) as bot:
        table_msg = await open_table(fake, alice, time="untimed")
        (cpu,) = [c for c in table_msg.custom_ids if ":cpu:" in c]
        first = await press(fake, alice, table_msg, cpu)
        second = await press(fake, alice, table_msg, cpu)  # before the first was answered
        await first.wait_response()
        await second.wait_response()
        await fake.settle()
        seated = [s for s in live(bot).seats if s is not None]
        assert [s.name for s in seated] == [alice.global_name or alice.username, "Computer 1"]
        await refused(fake, second, "seats changed")
        assert FOREIGN not in private_text(first) + private_text(second)  # both were ours
        # the button as the table message now draws it adds the next one
        await fake.wait_for(lambda: cpu not in table_msg.custom_ids)
        (again,) = [c for c in table_msg.custom_ids if ":cpu:" in c]
        await click(fake, alice, table_msg, custom_id=again)
        assert sum(s is not None for s in live(bot).seats) == 3


# ------------------------------------------------------------------ 4. restarts


def shown(message: FakeMessage) -> tuple[object, ...]:
    """What a table message shows: its embed, whether it has a picture, its buttons."""
    labels = tuple(b.get("label") for b in message.buttons)
    return (
        message.embeds[0].get("description"),
        message.embeds[0].get("fields"),
        bool(message.attachments),
        labels,
    )


async def test_ready_presses_and_the_result_survive_a_restart(
    fake: FakeDiscord, db: Databases
) -> None:
    users = fake.users[:4]
    path = db("bot")
    async with fake.running(make_bot(path)) as bot:
        table_msg = await open_table(fake, users[0], rated=True)
        for user in users[1:]:
            await click(fake, user, table_msg, label="Join")
        await click(fake, users[0], table_msg, label="Start")
        await drive(bot.runtime, live(bot).id, 0)  # the hand, played to its end
        for user in users[:3]:
            await fake.wait_for(lambda: "Ready" in str(table_msg.buttons))
            await click(
                fake,
                user,
                table_msg,
                label=next(b["label"] for b in table_msg.buttons if b["label"].startswith("Ready")),
            )
        await fake.wait_for(lambda: "Ready (3/4)" in shown(table_msg)[3])
        await fake.settle()
        before = shown(table_msg)
        assert before[2] and "Ready for the next hand: 3 of 4" in str(before[0])

    async with fake.running(make_bot(path)) as bot:
        edits = len(table_msg.history)
        await fake.wait_for(lambda: len(table_msg.history) > edits)  # refreshed on start
        await fake.settle()
        assert shown(table_msg) == before  # summary, points, picture and "Ready (3/4)"
        await click(fake, users[3], table_msg, label="Ready (3/4)")
        await fake.wait_for(lambda: live(bot).phase is Phase.PLAYING)


async def test_the_player_to_act_gets_a_fresh_hand_message_after_a_restart(
    fake: FakeDiscord, db: Databases
) -> None:
    alice = fake.users[0]
    path = db("bot")
    async with fake.running(make_bot(path, seed_source=lambda: 71)) as bot:
        table_msg = await open_table(fake, alice, computers=3, time="untimed")
        await click(fake, alice, table_msg, label="Start")
        await alice_to_play(fake, bot)
        stamp = ids.stamp(live(bot))
        before = live(bot).version
        await fake.settle()
    dms = len(fake.dms(alice))

    async with fake.running(make_bot(path)) as bot:
        fresh = await fake.wait_for(
            lambda: len(fake.dms(alice)) > dms and fake.dms(alice)[-1],
            message="no fresh hand message after the restart",
        )
        assert any(f":act:{stamp}:" in c for c in fresh.custom_ids)
        assert fresh.attachments  # the hand picture
        button = next(c for c in fresh.custom_ids if ":discard:" in c)
        await click(fake, alice, fresh, custom_id=button)
        await fake.wait_for(lambda: live(bot).version > before)


# ------------------------------------------------------------------ issue 10.5 on Discord


async def test_a_sichuan_table_with_another_clock_is_refused_clearly(
    fake: FakeDiscord, db: Databases
) -> None:
    alice = fake.users[0]
    async with fake.running(make_bot(db("bot"))) as bot:
        record = await fake.slash(
            alice, "mahjong", "create", {"preset": "sichuan-bb", "time": "bullet"}
        )
        await refused(fake, record, "always played with its table clock")
        assert not bot.runtime.tables


async def test_forged_menu_values_get_a_private_answer_and_no_traceback(
    fake: FakeDiscord, db: Databases, caplog: pytest.LogCaptureFixture
) -> None:
    alice = fake.users[0]
    async with fake.running(make_bot(db("bot"))) as bot:
        table_msg = await open_table(fake, alice, preset="sichuan-swap3", computers=3)
        await click(fake, alice, table_msg, label="Start")
        dm = await fake.wait_for(
            lambda: next((m for m in fake.dms(alice) if ":tiles:" in str(m.custom_ids)), None)
        )
        (menu,) = [c for c in dm.custom_ids if ":tiles:" in c]
        await fake.settle()  # the deal's messages are out: the clicks are the only work left
        before = live(bot).version
        caplog.clear()
        for values in (["", "", ""], ["9" * 5000] * 3, ["1:" + "9" * 5000 + "m"] * 3, ["\x00"]):
            channel = fake.channels[dm.channel_id]
            data = {"custom_id": menu, "component_type": 3, "values": values}
            record = await fake._inject(COMPONENT, alice, channel, data, dm)
            await fake.wait_for(lambda r=record: private_text(r))
        assert live(bot).version == before
        assert not [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]


async def test_an_old_hand_control_pressed_again_after_each_restart_is_refused(
    fake: FakeDiscord, db: Databases
) -> None:
    """Issue 40.0: a discard made from a DM control, then a restart; the same control pressed
    again is refused and the log does not grow (each of Alice's first turns, a restart each)."""
    alice = fake.users[0]
    path = db("bot")
    async with fake.running(make_bot(path, seed_source=lambda: 71)) as bot:
        table_msg = await open_table(fake, alice, computers=3, time="untimed")
        await click(fake, alice, table_msg, label="Start")
    used: list[tuple[FakeMessage, str]] = []
    for _ in range(4):
        async with fake.running(make_bot(path)) as bot:
            hand = live(bot).hand
            assert hand is not None
            for message, custom_id in used:
                actions = len(hand.log)
                await refused(fake, await press(fake, alice, message, custom_id), "earlier moment")
                assert len(hand.log) == actions, custom_id
            await alice_to_play(fake, bot)
            stamp = ids.stamp(live(bot))

            def offered(stamp: ids.Stamp = stamp) -> FakeMessage | None:
                marker = f":act:{stamp}:"
                return next(
                    (
                        m
                        for m in reversed(fake.dms(alice))
                        if any(marker in c for c in m.custom_ids)
                    ),
                    None,
                )

            message = await fake.wait_for(offered)
            button = next(c for c in message.custom_ids if ":discard:" in c)
            # as a kill would leave it: the DM still showing its controls (no edit took them)
            shown_then = copy.deepcopy(message)
            version = live(bot).version
            await press(fake, alice, message, button)
            await fake.wait_for(lambda v=version: live(bot).version > v)  # type: ignore[misc]
            used.append((shown_then, button))
