"""The /mahjong commands through the fake Discord: option checks with specific messages,
private tables and invitations, Quick Play, the table list, records and reference commands."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.discord import MahjongBot
from bot.discord.cogs.records import hand_outcome
from bot.runtime import ManualTimers
from data import HandRecord, Phase, SeatResult, StoredWin
from tests.fakediscord import FakeDiscord, FakeUser, InteractionRecord
from tests.test_discord_e2e import click, live, make_bot, refused, wait_table_message

SUBCOMMANDS = [
    "create",
    "hand",
    "history",
    "invite",
    "join",
    "language",
    "leaderboard",
    "leave",
    "quickplay",
    "rating",
    "replay",
    "rules",
    "score",
    "spectators",
    "start",
    "stats",
    "tables",
    "watch",
]


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord(users=4) as server:
        yield server


@pytest.fixture
def timers() -> ManualTimers:
    return ManualTimers()


@pytest.fixture
async def bot(fake: FakeDiscord, timers: ManualTimers, tmp_path: Path) -> AsyncIterator[MahjongBot]:
    async with fake.running(make_bot(tmp_path / "bot.db", timers=timers)) as running:
        yield running


async def run(
    fake: FakeDiscord, user: FakeUser, command: str, options: dict[str, Any] | None = None
) -> InteractionRecord:
    """Run /mahjong <command> and wait until the bot has answered it fully."""
    record = await fake.slash(user, "mahjong", command, options or {})
    await record.wait_response()
    await fake.wait_for(lambda: not (record.original and record.original.loading))
    return record


def answer(record: InteractionRecord) -> str:
    assert record.original is not None
    return record.original.text


async def test_one_group_of_commands_with_preset_autocomplete(
    fake: FakeDiscord, bot: MahjongBot
) -> None:
    assert fake.command_paths() == [f"mahjong {name}" for name in SUBCOMMANDS]
    typing = await fake.autocomplete(
        fake.users[0], "mahjong create", options={"preset": "swap"}, focused="preset"
    )
    await typing.wait_response()
    values = [choice["value"] for choice in typing.choices or []]
    assert values == ["sichuan-swap3", "bloodflow-swap3"]
    (mahjong,) = fake.command_tree()
    create = next(o for o in mahjong["options"] if o["name"] == "create")
    time = next(o for o in create["options"] if o["name"] == "time")
    assert "standard" in [c["value"] for c in time["choices"]]


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"preset": "nope"}, "there is no preset `nope`"),
        ({"rated": True, "computers": 2}, "rated tables are for four people"),
        ({"rated": True, "time": "untimed"}, "needs a clock"),
        ({"name": "x" * 40, "preset": "hkos-3-v1 "}, None),
    ],
)
async def test_create_checks_every_option(
    fake: FakeDiscord,
    bot: MahjongBot,
    options: dict[str, Any],
    message: str | None,
) -> None:
    record = await run(fake, fake.users[0], "create", options)
    assert record.ephemeral
    if message is None:
        assert "Table #1 is open" in answer(record)
        assert live(bot).name == "x" * 40
    else:
        assert message in answer(record)
        assert not bot.runtime.tables and not fake.public_payloads()


async def test_private_table_invitation_and_join_code(fake: FakeDiscord, bot: MahjongBot) -> None:
    alice, bob, carol, dave = fake.users
    created = await run(fake, alice, "create", {"visibility": "private"})
    code = live(bot).options.invite_code
    assert code and code in answer(created)
    table_msg = await wait_table_message(fake)
    assert code not in table_msg.text  # the code is not public

    record = await click(fake, bob, table_msg, label="Join")
    await refused(fake, record, "private: you need an invitation or its code")
    invited = await run(fake, alice, "invite", {"user": bob})
    assert bob.mention in answer(invited) and code in answer(invited)
    (letter,) = await fake.wait_for_messages(bob)
    assert "Alice invites you" in letter.content and code in letter.content
    await click(fake, bob, table_msg, label="Join")
    await fake.wait_for(lambda: "2 of 4" in table_msg.text)

    bad = await run(fake, carol, "join", {"code": "nope"})
    assert "six letters and digits" in answer(bad)
    joined = await run(fake, carol, "join", {"code": code.lower()})
    assert "You sit at Table #1" in answer(joined)
    nothing = await run(fake, dave, "join")
    assert "No public table here has a free seat" in answer(nothing)
    listed = await run(fake, dave, "tables")
    assert "No public tables" in answer(listed)

    refused_invite = await run(fake, alice, "invite", {"user": fake.bot_user})
    assert "bots cannot play" in answer(refused_invite)
    left = await run(fake, carol, "leave")
    assert "You left Table #1" in answer(left)
    await fake.wait_for(lambda: "2 of 4" in table_msg.text)
    early = await run(fake, alice, "start")
    assert "needs 2 more player(s)" in answer(early)


async def test_public_tables_join_and_start_by_command(fake: FakeDiscord, bot: MahjongBot) -> None:
    alice, bob, carol, dave = fake.users
    await run(fake, alice, "create", {"computers": 1, "name": "Friday"})
    table_msg = await wait_table_message(fake)
    assert "Table #1 · Friday" in table_msg.text
    for user in (bob, carol):
        record = await run(fake, user, "join")
        assert "You sit at Table #1" in answer(record)
    listed = await run(fake, dave, "tables")
    assert "#1" in answer(listed) and "4/4 seated" in answer(listed)
    not_seated = await run(fake, dave, "start")
    assert "not at a table" in answer(not_seated)
    started = await run(fake, bob, "start")
    assert "is dealt" in answer(started)
    await fake.wait_for(lambda: live(bot).phase is Phase.PLAYING)
    for user in (alice, bob, carol):
        dm = await fake.wait_for(lambda u=user: fake.dms(u))
        assert dm[0].attachments[0].content_type == "image/png"
    mine = await run(fake, bob, "hand")
    assert mine.original is not None and mine.original.attachments
    none = await run(fake, dave, "hand")
    assert "no hand in play" in answer(none)
    stay = await run(fake, bob, "leave")
    assert "A hand is in play" in answer(stay)


async def test_quickplay_fills_with_computers_after_the_wait(
    fake: FakeDiscord, bot: MahjongBot, timers: ManualTimers
) -> None:
    alice, bob, *_ = fake.users
    first = await run(fake, alice, "quickplay")
    assert "queue (1 of 4)" in answer(first) and "Computers take the empty seats" in answer(first)
    again = await run(fake, alice, "quickplay")
    assert "already in the Quick Play queue" in answer(again)
    await run(fake, bob, "quickplay")
    assert not bot.runtime.tables
    await timers.advance(61)
    table_msg = await wait_table_message(fake)
    ping = await fake.wait_for(
        lambda: next((m for m in fake.channel_messages() if alice.mention in m.content), None)
    )
    assert bob.mention in ping.content and str(table_msg.id) in ping.content
    table = live(bot)
    assert table.phase is Phase.PLAYING and table.options.time_control == "standard"
    assert sum(seat.human for seat in table.seats if seat) == 2
    for user in (alice, bob):
        await fake.wait_for(lambda u=user: fake.dms(u))


async def test_rules_and_score(fake: FakeDiscord, bot: MahjongBot) -> None:
    alice = fake.users[0]
    rules = await run(fake, alice, "rules", {"preset": "sichuan-swap3"})
    assert "Sichuan Swap Three" in answer(rules) and "swap three" in answer(rules)
    assert not rules.ephemeral

    scored = await run(fake, alice, "score", {"hand": "123m456m789m11122z"})
    text = answer(scored)
    assert "6 faan" in text and "Half flush: 3" in text and "the discarder pays 32" in text
    drawn = await run(fake, alice, "score", {"hand": "123m456m789m11122z", "by": "self_draw"})
    assert "7 faan" in answer(drawn) and "each other player pays 24" in answer(drawn)
    melded = await run(
        fake, alice, "score", {"hand": "123m456m11z", "win": "1z", "melds": "pung 555z, chow 789m"}
    )
    assert "Dragon" in answer(melded)
    not_win = await run(fake, alice, "score", {"hand": "123m456m789m11123z"})
    assert "Not a win" in answer(not_win)
    bad = await run(fake, alice, "score", {"hand": "123m456m789m1112x"})
    assert bad.ephemeral and "Hand: unknown suit" in answer(bad)
    too_many = await run(fake, alice, "score", {"hand": "11111m456m789m112z"})
    assert too_many.ephemeral and "appears 5 times" in answer(too_many)


async def test_score_shows_the_settlement_with_a_dealer_bonus(
    fake: FakeDiscord, bot: MahjongBot
) -> None:
    hand = {"hand": "123m456m789m234p555z99s", "by": "self_draw", "seat": "S", "preset": "tw-16"}
    scored = await run(fake, fake.users[0], "score", hand)
    text = answer(scored)
    assert "3 tai" in text and "each other player pays 4" in text
    assert "E -5 · S +13 · W -4 · N -4" in text  # the dealer pays the bonus
    discard = {"hand": "123m456m789m234p555z99s", "seat": "S", "from": "E", "preset": "tw-16"}
    assert "E -4 · S +4 · W +0 · N +0" in answer(await run(fake, fake.users[0], "score", discard))


async def test_records_leaderboard_rating_and_history(fake: FakeDiscord, bot: MahjongBot) -> None:
    alice, bob, *_ = fake.users
    empty = await run(fake, alice, "leaderboard")
    assert "Nobody has played a rated hand" in answer(empty)
    carol = fake.users[2]
    await bot.store.import_ratings(
        "hkos-3-v1",
        [(str(alice.id), 1612.0, 14), (str(bob.id), 1540.0, 4), (str(carol.id), 1510.0, 1)],
    )
    board = await run(fake, bob, "leaderboard", {"preset": "hkos-3-v1"})
    text = answer(board)
    assert text.index(alice.mention) < text.index(bob.mention) < text.index(carol.mention)
    assert "1612" in text and "provisional" in text
    # every rated player is listed, the first ten games marked provisional (RULES.md)
    lines = {line for line in text.splitlines() if " hand" in line and "·" in line}
    assert any(carol.mention in line and "1 hand · provisional" in line for line in lines)
    assert any(alice.mention in line and "provisional" not in line for line in lines)
    past = await run(fake, bob, "leaderboard", {"page": 3})
    assert "past the end" in answer(past)
    rating = await run(fake, bob, "rating", {"user": alice})
    assert "1612 · 14 hands" in answer(rating) and rating.ephemeral
    fresh = await run(fake, fake.users[3], "rating")
    assert "everyone starts at 1500" in answer(fresh)
    history = await run(fake, alice, "history")
    assert "no finished hands" in answer(history)
    unknown = await run(fake, alice, "leaderboard", {"preset": "nope"})
    assert unknown.ephemeral and "no preset `nope`" in answer(unknown)


async def test_unexpected_errors_are_logged_and_told_privately(
    fake: FakeDiscord, bot: MahjongBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    alice = fake.users[0]

    async def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("the database caught fire")

    monkeypatch.setattr(bot.store, "leaderboard", broken)
    record = await run(fake, alice, "leaderboard")
    assert "Something went wrong on our side" in answer(record)

    await run(fake, alice, "create", {"computers": 3})
    table_msg = await wait_table_message(fake)
    await click(fake, alice, table_msg, label="Start")
    (dm,) = await fake.wait_for_messages(alice)
    await fake.wait_for(lambda: dm.custom_ids)
    monkeypatch.setattr(bot.runtime, "act", broken)
    clicked = await click(fake, alice, dm, custom_id=dm.custom_ids[0])
    await refused(fake, clicked, "Something went wrong on our side")
    assert live(bot).version == 0


async def test_the_last_person_leaving_closes_the_table(fake: FakeDiscord, bot: MahjongBot) -> None:
    alice = fake.users[0]
    await run(fake, alice, "create", {"computers": 2})
    table_msg = await wait_table_message(fake)
    await click(fake, alice, table_msg, label="Leave")
    await fake.wait_for(lambda: "closed (everyone left)" in table_msg.text)
    assert table_msg.components == [] and not bot.runtime.tables
    await fake.wait_for(lambda: not bot.front.hand_messages and not bot.front.updates.busy)


def test_history_says_what_happened_to_a_winner_who_finished_behind() -> None:
    """Blood Flow: a player can win a hand and still lose points in it."""
    seats = tuple(
        SeatResult(seat, str(100 + seat), True, delta, placement)
        for seat, (delta, placement) in enumerate([(-8, 3), (24, 1), (0, 2), (-16, 4)])
    )
    wins = (
        StoredWin(seat=0, fan=1, patterns=(("self_draw", 1),), by="self_draw", discarder=None),
        StoredWin(seat=1, fan=2, patterns=(), by="discard", discarder=3),
    )
    record = HandRecord(1, 1, 0, "bloodflow-swap3", 0.0, False, "win", seats, wins, (), ())
    assert hand_outcome(record, seats[0]) == "**won 1**, net -8"
    assert hand_outcome(record, seats[3]) == "placed 4, -16"
    draw = HandRecord(2, 1, 1, "hkos-3-v1", 0.0, False, "draw", seats, (), (), ())
    assert hand_outcome(draw, seats[1]) == "draw, +24"
