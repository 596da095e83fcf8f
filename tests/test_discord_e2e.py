"""End to end through the real discord.py client and the fake Discord: tables, whole hands,
DMs with hand pictures, calls on the table message, refusals, a restart mid-hand, closed DMs,
and the rule that no hidden tile reaches a public message."""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

import bot.discord.pictures as pictures
from bot.discord import BotConfig, MahjongBot, ids
from bot.runtime import LiveTable, ManualTimers
from bot.runtime.snapshots import public_moment
from data import Phase
from engine.actions import Action, ActionKind
from engine.computer.easy import choose_action
from engine.events import Phase as HandPhase
from engine.hand import HandState
from engine.rules import OpeningsPart, VoidPart
from engine.session import Session
from engine.tiles import tile_name
from render.views import HandView, ResultView, TableView
from tests.clocks import SteppedClock
from tests.conftest import Databases
from tests.fakediscord import FakeDiscord, FakeMessage, FakeUser, SentPayload

# A short hkos hand (see tests/test_hand.py): a quiet first round, then the dealer's 5m is a
# win for West (seat 2) and North (seat 3); head bump gives it to West. North's 3p offers the
# dealer a chow on the way.
ARRANGED = [
    "234p678p234s678s3z5m",
    "11s99s44z19p33m77m8p",
    "123m46m789m111z99m",
    "5m5m5z5z5z6z6z6z2z2z2z7z7z",
]
DRAWS = "1p2p3p9s"
TILE_TEXT = re.compile(r"(?<![A-Za-z0-9])[1-9]+[mpszf](?![A-Za-z0-9])")


def arranged(session: Session) -> HandState:
    return HandState.arranged(session.preset, ARRANGED, draws=DRAWS)


def make_bot(
    path: str | Path, *, edit_interval: float = 0.02, no_call_wait: float = 0.0, **options: Any
) -> MahjongBot:
    """A bot on the fake: quick edits, a clock that never moves unless told, a fixed seed."""
    config = BotConfig(
        token="fake-token",
        db_path=str(path),
        edit_interval=edit_interval,
        no_call_wait=no_call_wait,
    )
    options.setdefault("timers", ManualTimers())
    options.setdefault("seed_source", lambda: 7)
    return MahjongBot(config, guild_ready_timeout=0.05, **options)


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord(users=5) as server:
        yield server


class Drawn:
    """Every picture the bot drew, by kind, with the bytes it produced."""

    def __init__(self) -> None:
        self.items: list[tuple[object, bytes]] = []

    def of(self, kind: type) -> list[tuple[Any, bytes]]:
        return [(view, data) for view, data in self.items if isinstance(view, kind)]

    def bytes_of(self, kind: type) -> set[bytes]:
        return {data for _, data in self.of(kind)}


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> Drawn:
    record = Drawn()
    original = pictures.draw

    def spy(view: Any, language: str = "en") -> bytes:
        data = original(view, language)
        record.items.append((view, data))
        return data

    monkeypatch.setattr(pictures, "draw", spy)
    return record


# ------------------------------------------------------------------ helpers


def table_message(fake: FakeDiscord) -> FakeMessage | None:
    """The (first) public table message of the channel."""
    for message in fake.channel_messages():
        if not message.ephemeral and message.custom_ids and message.embeds:
            return message
    return None


async def wait_table_message(fake: FakeDiscord) -> FakeMessage:
    return await fake.wait_for(lambda: table_message(fake), message="no table message")


async def open_table(fake: FakeDiscord, creator: FakeUser, **options: Any) -> FakeMessage:
    record = await fake.slash(creator, "mahjong", "create", options)
    await record.wait_responses(2)
    assert record.ephemeral, "the confirmation is private; the table message is public"
    return await wait_table_message(fake)


async def click(fake: FakeDiscord, user: FakeUser, message: FakeMessage, **find: Any) -> Any:
    """Press a button as `user` and wait until the bot has handled the click."""
    record = await fake.click(user, message, find.pop("custom_id", None), **find)
    await record.wait_response()
    await fake.settle()  # clicks are handled in order, as people make them one after another
    return record


def private_text(record: Any) -> str:
    """The text of the private answers the bot gave an interaction."""
    return "\n".join(m.text for m in record.followups if m.ephemeral) + "".join(
        r.message.text for r in record.responses if r.message is not None and r.message.ephemeral
    )


async def refused(fake: FakeDiscord, record: Any, pattern: str) -> None:
    """Wait for a private answer matching `pattern` to the interaction."""
    await fake.wait_for(
        lambda: re.search(pattern, private_text(record)),
        message=lambda: f"no private answer like {pattern!r}: {private_text(record)!r}",
    )


def latest_dm(fake: FakeDiscord, user: FakeUser) -> FakeMessage | None:
    dms = [m for m in fake.dms(user) if m.author is fake.bot_user]
    return dms[-1] if dms else None


async def dm_with_controls(fake: FakeDiscord, user: FakeUser, version: int) -> FakeMessage:
    """Wait for the user's DM offering controls for the decision drawn at `version`."""

    def found() -> FakeMessage | None:
        message = latest_dm(fake, user)
        # any hand: `version` is the decision version within it
        marker = re.compile(rf":(act|tiles|pick):[0-9]+\.{version}:")
        if message and any(marker.search(c) for c in message.custom_ids):
            return message
        return None

    return await fake.wait_for(found, message=f"{user.username} has no controls at v{version}")


def live(bot: MahjongBot) -> LiveTable:
    (table,) = bot.runtime.tables.values()
    return table


def moment(bot: MahjongBot) -> int:
    """The public moment the table's controls name now (see bot.runtime.snapshots)."""
    hand = live(bot).hand
    assert hand is not None
    return public_moment(hand)


def user_of(fake: FakeDiscord, table: LiveTable, hand_seat: int) -> FakeUser:
    player_id = table.seat(table.player_at(hand_seat)).player_id
    return next(u for u in fake.users if str(u.id) == player_id)


async def discard(fake: FakeDiscord, bot: MahjongBot, tile: str) -> None:
    """The player on turn discards `tile` with the button in their DM."""
    await fake.wait_for(lambda: live(bot).hand and live(bot).hand.phase is HandPhase.TURN)
    table = live(bot)
    assert table.hand is not None
    user = user_of(fake, table, table.hand.turn)
    version = table.version
    message = await dm_with_controls(fake, user, moment(bot))
    await click(fake, user, message, label=tile)
    await fake.wait_for(lambda: live(bot).version > version)


async def call(
    fake: FakeDiscord,
    bot: MahjongBot,
    user: FakeUser,
    kind: str,
    until: Callable[[], object] | None = None,
) -> Any:
    """Press a call button on the table message once it is offered for the current window."""
    message = await wait_table_message(fake)
    table = live(bot)
    custom_id = ids.call_id(table.id, ids.stamp(table), kind)
    await fake.wait_for(
        lambda: custom_id in message.custom_ids,
        message=lambda: f"no {custom_id} on the table message: {message.custom_ids}",
    )
    record = await click(fake, user, message, custom_id=custom_id)
    if until is not None:
        await fake.wait_for(until)
    return record


CALL_ID = re.compile(r"mj:\d+:call:\d+\.\d+:([a-z]+)")


def call_button_sets(fake: FakeDiscord) -> set[tuple[str, ...]]:
    """The sets of call buttons the public messages showed (one per distinct set)."""
    sets = set()
    for payload in fake.public_payloads():
        kinds = tuple(CALL_ID.findall(json.dumps(payload.json)))
        if kinds:
            sets.add(kinds)
    return sets


def assert_no_hidden_tile_in_public(fake: FakeDiscord, drawn: Drawn) -> None:
    """Public payloads never name a tile, and their pictures are table or result pictures."""
    public = fake.public_payloads()
    assert public, "the bot posted nothing public"
    for payload in public:
        text = json.dumps(payload.json)
        assert not TILE_TEXT.search(text), f"a tile is named in public: {payload.route} {text}"
    table_pngs = drawn.bytes_of(TableView)
    result_pngs = drawn.bytes_of(ResultView)
    hand_pngs = drawn.bytes_of(HandView)
    public_files = [f for p in public for f in p.files]
    assert public_files, "the table message carries the table picture"
    for upload in public_files:
        assert upload.data not in hand_pngs, f"a hand picture went public: {upload.filename}"
        assert upload.data in table_pngs | result_pngs, f"unknown public picture {upload.filename}"
    # what the public pictures show: never a concealed tile of a seat still playing
    for view, _ in drawn.of(TableView):
        for seat in view.seats:
            assert seat.revealed == () and not seat.won
    # every claim window showed the same call buttons, whoever could use them
    assert len(call_button_sets(fake)) <= 1, call_button_sets(fake)
    # hand pictures went to their players only
    for payload in fake.all_payloads:
        for upload in payload.files:
            if upload.data in hand_pngs:
                assert payload.visibility in ("dm", "ephemeral")


# ------------------------------------------------------------------ the tests


async def test_whole_rated_hand_to_a_win(fake: FakeDiscord, drawn: Drawn, db: Databases) -> None:
    alice, bob, carol, dave, erin = fake.users
    async with fake.running(make_bot(db("bot"), hand_factory=arranged)) as bot:
        table_msg = await open_table(fake, alice, rated=True, time="classic")
        assert [b["label"] for b in table_msg.buttons] == ["Join", "Leave", "Start"]
        for user in (bob, carol, dave):
            await click(fake, user, table_msg, label="Join")
        await fake.wait_for(lambda: "All 4 seats are taken" in table_msg.text)
        # someone not seated cannot start the table
        record = await click(fake, erin, table_msg, label="Start")
        await refused(fake, record, "not seated at Table #1")
        assert live(bot).phase is Phase.LOBBY
        await click(fake, alice, table_msg, label="Start")

        # every player gets their hand as a PNG by DM; the dealer's has the discard buttons
        for user in (alice, bob, carol, dave):
            message = await fake.wait_for(lambda u=user: latest_dm(fake, u))
            (picture,) = message.attachments
            assert picture.content_type == "image/png" and picture.data[:4] == b"\x89PNG"
            assert "Table #1" in message.content and "#general" in message.content
        first = await dm_with_controls(fake, alice, moment(bot))
        assert "Your turn" in first.content
        await fake.wait_for(lambda: table_msg.attachments)
        assert "My hand" in [b["label"] for b in table_msg.buttons]

        # My hand: the same hand and controls, privately
        mine = await click(fake, alice, table_msg, label="My hand")
        private = await fake.wait_for(
            lambda: mine.original and mine.original.custom_ids and mine.original
        )
        assert private.ephemeral and private.attachments[0].content_type == "image/png"

        await discard(fake, bot, "3z")
        # the DM's controls are taken away once used (the automatic moves' switches stay)
        await fake.wait_for(lambda: all(":auto:" in c for c in first.custom_ids))
        # the private copy still shows them: a click there is for an outdated moment
        stale = await click(fake, alice, private, label="5m")
        await refused(fake, stale, "earlier moment")
        assert live(bot).version == 1

        await discard(fake, bot, "1p")
        await discard(fake, bot, "2p")
        await discard(fake, bot, "3p")

        # North's 3p: only the dealer may chow it, but the public buttons are the same on
        # every window: every call the preset has, and Pass
        await fake.wait_for(lambda: "Chow" in [b.get("label") for b in table_msg.buttons])
        labels = [b["label"] for b in table_msg.buttons]
        assert labels == ["Chow", "Pung", "Kong", "Win", "Pass", "My hand"]
        record = await click(fake, bob, table_msg, label="Chow")
        await refused(fake, record, "You cannot chow this tile")
        record = await click(fake, erin, table_msg, label="Pass")
        await refused(fake, record, "not seated")
        assert live(bot).version == 4
        await call(fake, bot, alice, "pass", until=lambda: live(bot).version == 5)

        await discard(fake, bot, "5m")
        await fake.wait_for(lambda: "Win" in [b.get("label") for b in table_msg.buttons])
        answer = await call(fake, bot, dave, "pass", until=lambda: live(bot).version == 7)
        await refused(fake, answer, "You passed")
        assert "Carol" not in private_text(answer)  # nobody learns who else may claim
        await call(fake, bot, carol, "win")

        # the result is posted; the table waits for Ready; ratings moved
        result = await fake.wait_for(
            lambda: next((m for m in fake.channel_messages() if "won" in m.content), None)
        )
        assert "Carol won by a discard from Alice: 5 faan" in result.content
        assert result.attachments[0].content_type == "image/png"
        assert "Ratings" in result.text
        await fake.wait_for(lambda: "Ready (0/4)" in [b.get("label") for b in table_msg.buttons])
        # as /mahjong rating reads them: one row per preset played rated
        ratings = {u.username: await bot.store.ratings_of(str(u.id)) for u in fake.users}
        assert all(
            [(r.preset, r.games) for r in ratings[n]] == [("hkos-3-v1", 1)]
            for n in ("alice", "bob", "carol", "dave")
        )
        assert ratings["carol"][0].rating > 1500 > ratings["alice"][0].rating
        assert ratings["erin"] == []
        # the dealer's hand message now says the hand is over, without controls
        await fake.wait_for(lambda: "over" in (latest_dm(fake, alice) or first).content)
        assert not latest_dm(fake, alice).custom_ids  # type: ignore[union-attr]

        await click(fake, alice, table_msg, label="Ready (0/4)")
        await fake.wait_for(lambda: "Ready (1/4)" in [b.get("label") for b in table_msg.buttons])

    assert_no_hidden_tile_in_public(fake, drawn)
    # the chow window (only Alice could chow) and the win window (Carol and Dave could win)
    assert call_button_sets(fake) == {("chow", "pung", "kong", "win", "pass")}
    wins = drawn.of(ResultView)
    assert wins and all(w.winner.startswith("Carol") for v, _ in wins for w in v.wins)


async def test_restart_in_the_middle_of_a_hand(fake: FakeDiscord, db: Databases) -> None:
    alice, bob, carol, dave, _ = fake.users
    path = db("bot")
    async with fake.running(make_bot(path, hand_factory=arranged)) as first_bot:
        table_msg = await open_table(fake, alice, time="untimed")
        for user in (bob, carol, dave):
            await click(fake, user, table_msg, label="Join")
        await click(fake, alice, table_msg, label="Start")
        await discard(fake, first_bot, "3z")
        old_dm = await dm_with_controls(fake, bob, moment(first_bot))
    assert first_bot.is_closed()

    # a new process: same database, new runtime restored from it, no memory of messages
    async with fake.running(make_bot(path)) as bot:
        table = live(bot)
        assert table.version == 1 and table.message_id == table_msg.id
        edits = len(table_msg.history)
        await fake.wait_for(lambda: len(table_msg.history) > edits)  # refreshed on start
        # Bob's hand comes again as a new DM, and the one from before the restart loses its
        # controls rather than looking alive
        new_dm = await dm_with_controls(fake, bob, moment(bot))
        assert new_dm.id != old_dm.id
        await fake.wait_for(lambda: not old_dm.custom_ids)
        await click(fake, bob, new_dm, label="1p")
        await fake.wait_for(lambda: live(bot).version == 2)
        await discard(fake, bot, "2p")
        await discard(fake, bot, "3p")
        await call(fake, bot, alice, "pass", until=lambda: live(bot).version == 5)
        await discard(fake, bot, "5m")
        # both may win on the 5m; head bump gives it to Carol, whoever answers first
        await call(fake, bot, dave, "win", until=lambda: live(bot).version == 7)
        await call(fake, bot, carol, "win", until=lambda: live(bot).phase is Phase.BETWEEN_HANDS)
        await fake.wait_for(lambda: any("Carol won" in m.content for m in fake.channel_messages()))
    record = await _reopened_store_history(path, str(carol.id))
    assert record == ("win", 24)


async def _reopened_store_history(path: Path, player: str) -> tuple[str, int]:
    from data import Store

    async with await Store.open(str(path)) as store:
        (hand,) = await store.recent_hands(player)
        mine = next(s for s in hand.seats if s.player_id == player)
        return hand.outcome, mine.delta


async def test_closed_dms_fall_back_to_my_hand(fake: FakeDiscord, db: Databases) -> None:
    alice = fake.users[0]
    alice.dms_open = False
    async with fake.running(make_bot(db("bot"))) as bot:
        table_msg = await open_table(fake, alice, computers=3, time="untimed")
        await click(fake, alice, table_msg, label="Start")
        notice = await fake.wait_for(
            lambda: next((m for m in fake.channel_messages() if alice.mention in m.content), None)
        )
        assert "My hand" in notice.content and "/mahjong hand" in notice.content
        assert fake.dms(alice) == []

        record = await fake.slash(alice, "mahjong", "hand")
        await record.wait_responses(2)
        private = record.original
        assert private is not None and private.ephemeral and private.visible_to == alice.id
        assert private.attachments[0].content_type == "image/png"
        table = live(bot)
        action = choose_action(table.hand, 0)  # type: ignore[arg-type]
        assert action.kind is ActionKind.DISCARD
        await click(
            fake,
            alice,
            private,
            custom_id=ids.act_id(1, ids.stamp(live(bot)), 0, "discard", tile_name(action.tile)),
        )
        await fake.wait_for(lambda: live(bot).version > 0)
        await fake.wait_for(lambda: "You discarded" in private.content)
        assert not private.custom_ids and not private.attachments
        assert str(live(bot).hand.log[0]) == str(action)  # type: ignore[union-attr]
        # the notice is posted once per hand, not at every turn
        assert sum(alice.mention in m.content for m in fake.channel_messages()) == 1


async def play_hand_by_clicks(
    fake: FakeDiscord,
    bot: MahjongBot,
    user: FakeUser,
    ends_in: Phase = Phase.BETWEEN_HANDS,
    chooser: Callable[[HandState, int], Action] = choose_action,
) -> set[str]:
    """Play seat 0's decisions of the hand now running (as `chooser` makes them) with the
    controls a person would use (DM buttons on its turn, the public call buttons, a chow menu,
    a rule's declaration button or its menu of tiles) until the hand ends, whatever the
    computers do (the table then in phase `ends_in`); the kinds of control used."""
    used: set[str] = set()
    table = live(bot)  # kept: a table whose game ends leaves the runtime's live tables
    for _ in range(200):
        await fake.wait_for(lambda: table.phase is not Phase.PLAYING or 0 in table.players_to_act())
        if table.phase is not Phase.PLAYING:
            break
        hand = table.hand
        assert hand is not None
        seat = table.hand_seat(0)
        action = chooser(hand, seat)
        version = public_moment(hand)
        stamp = ids.stamp(table)
        before = hand.version
        used.add(action.kind.value)
        if hand.phase in (HandPhase.CLAIMS, HandPhase.ROB):
            record = await call(fake, bot, user, action.kind.value)
            chows = [a for a in table.legal_for(0) if a.kind is ActionKind.CHOW]
            if action.kind is ActionKind.CHOW and len(chows) > 1:
                menu = await fake.wait_for(lambda r=record: r.followups and r.followups[-1])
                value = ids.action_value(action)
                await (
                    await fake.select(user, menu, ids.pick_id(1, stamp, seat), [value])
                ).wait_response()
                used.add("chow menu")
        elif action.kind.value in hand.declared_with_discard:  # its own menu: which tile
            message = await dm_with_controls(fake, user, version)
            menu = ids.pick_id(1, stamp, seat, 1)
            value = ids.action_value(action)
            await (await fake.select(user, message, menu, [value])).wait_response()
            used.add(f"{action.kind.value} menu")
        else:
            message = await dm_with_controls(fake, user, version)
            kind, _, arg = ids.action_value(action).partition(" ")
            await click(fake, user, message, custom_id=ids.act_id(1, stamp, seat, kind, arg))
        await fake.wait_for(lambda v=before: table.version > v)
    assert table.phase is ends_in
    return used


async def test_a_hand_against_computers_played_by_clicks(fake: FakeDiscord, db: Databases) -> None:
    """Alice plays a whole hand against three computers, each choice made with the controls a
    person would use: DM buttons on her turn, the public call buttons, a chow menu."""
    alice = fake.users[0]
    async with fake.running(make_bot(db("bot"), seed_source=lambda: 71)) as bot:
        # the easy computers, so that the hand's flow is the one below
        table_msg = await open_table(fake, alice, computers=3, time="untimed", level="easy")
        await click(fake, alice, table_msg, label="Start")
        used = await play_hand_by_clicks(fake, bot, alice)
        await fake.wait_for(lambda: any("hand 1" in m.content for m in fake.channel_messages()))
    # seed 71: Alice chooses among several chows once, and wins the hand
    assert {"discard", "chow menu", "win"} <= used


async def test_a_hand_against_the_default_computers_played_by_clicks(
    fake: FakeDiscord, db: Databases
) -> None:
    """A table created without a level seats the strong computers; a hand against them is
    played to its end by clicks, whatever it brings."""
    alice = fake.users[0]
    async with fake.running(make_bot(db("bot"), seed_source=lambda: 71)) as bot:
        table_msg = await open_table(fake, alice, computers=3, time="untimed")
        assert live(bot).level == "strong"
        await click(fake, alice, table_msg, label="Start")
        used = await play_hand_by_clicks(fake, bot, alice)
        await fake.wait_for(lambda: any("hand 1" in m.content for m in fake.channel_messages()))
    assert "discard" in used


async def test_table_message_edits_are_coalesced(fake: FakeDiscord, db: Databases) -> None:
    """Many quick changes: no edit until the interval has passed, then one edit with the end;
    the edits' clock is stepped by the test, so nothing depends on how fast the machine is."""
    alice, bob, carol, dave, erin = fake.users
    interval = 10.0
    clock = SteppedClock()
    bot_under_test = make_bot(
        db("bot"), edit_interval=interval, edit_clock=clock, edit_sleep=clock.sleep
    )

    def edits() -> list[SentPayload]:
        return [
            p
            for p in fake.all_payloads
            if p.route == "PATCH /channels/{channel_id}/messages/{message_id}"
            and p.message_id == table_msg.id
        ]

    async def edited(count: int) -> None:
        await fake.wait_for(lambda: not bot.front.updates.busy and len(edits()) == count)

    async with fake.running(bot_under_test) as bot:
        table_msg = await open_table(fake, alice)  # posted at once, at time 0
        clicks = [(bob, "Join"), (carol, "Join"), (bob, "Leave"), (dave, "Join")]
        clicks += [(carol, "Leave"), (erin, "Join"), (bob, "Join"), (alice, "Leave")]
        clicks += [(carol, "Join")]
        for user, label in clicks:
            await click(fake, user, table_msg, label=label)
        # nine changes, no edit yet: the message's worker sleeps until the interval is over
        assert edits() == [] and clock.wake_times == [interval]
        await clock.advance(interval)
        await edited(1)  # one edit, showing the last state
        assert "Alice" not in table_msg.text and "All 4 seats are taken" in table_msg.text
        assert all(name in table_msg.text for name in ["Dave", "Erin", "Bob", "Carol"])
        # a change just after an edit waits out a whole interval, however the clock is stepped
        await click(fake, carol, table_msg, label="Leave")
        assert clock.wake_times == [2 * interval]
        await clock.advance(interval / 2)
        assert len(edits()) == 1 and clock.wake_times == [2 * interval]
        await clock.advance(interval / 2)
        await edited(2)
        assert "Carol" not in table_msg.text


@pytest.mark.parametrize(("preset", "aside"), [("guangdong", 1), ("redwild", 4)])
async def test_self_draw_tables_play_on_discord(
    fake: FakeDiscord, db: Databases, preset: str, aside: int
) -> None:
    """guangdong and redwild tables open, start and offer the first turn's controls."""
    alice = fake.users[0]
    async with fake.running(make_bot(db("bot"))) as bot:
        table_msg = await open_table(fake, alice, preset=preset, computers=3)
        await click(fake, alice, table_msg, label="Start")
        message = await dm_with_controls(fake, alice, moment(bot))
        hand = live(bot).hand
        assert hand is not None and hand.preset.id == preset and len(hand.set_aside) == aside
        assert any(":act:" in c for c in message.custom_ids)


async def test_sichuan_openings_by_menu_and_buttons(fake: FakeDiscord, db: Databases) -> None:
    """Swap three: a three-tile menu in the DM; then the void suit: three buttons."""
    alice = fake.users[0]
    async with fake.running(make_bot(db("bot"))) as bot:
        table_msg = await open_table(fake, alice, preset="sichuan-swap3", computers=3)
        await click(fake, alice, table_msg, label="Start")
        message = await dm_with_controls(fake, alice, moment(bot))
        assert "three tiles of one suit to pass on" in message.content
        hand = live(bot).hand
        assert hand is not None and hand.phase is HandPhase.OPENING
        (menu,) = [c for c in message.iter_components() if c["type"] == 3]
        suit = next(s for s in "mps" if sum(tile_name(t)[1] == s for t in hand.hands[0]) >= 3)
        values = [o["value"] for o in menu["options"] if o["value"].endswith(suit)][:3]
        record = await fake.select(alice, message, menu["custom_id"], values)
        await record.wait_response()
        await fake.wait_for(lambda: live(bot).hand.require(OpeningsPart).stage == 1)  # type: ignore[union-attr]
        assert live(bot).hand.log[-4:][0].kind is ActionKind.SWAP  # type: ignore[union-attr]
        voids = await dm_with_controls(fake, alice, moment(bot))
        assert "play without" in voids.content
        await click(fake, alice, voids, label="Void: bamboo")
        await fake.wait_for(lambda: live(bot).hand.require(VoidPart).void[0] == "s")  # type: ignore[union-attr]
        await fake.wait_for(lambda: "Opening" not in table_msg.text)


async def test_every_computer_discard_shows_the_call_buttons_and_passes_after_the_wait(
    fake: FakeDiscord, db: Databases
) -> None:
    """With the claim wait on (as in production), the table message shows the call buttons
    on every discard Alice did not make, whether or not she can call; with nothing to claim
    her seat passes by itself when the wait is over."""
    alice = fake.users[0]
    timers = ManualTimers()
    bot_ = make_bot(db("bot"), no_call_wait=2.0, timers=timers, seed_source=lambda: 71)
    async with fake.running(bot_) as bot:
        table_msg = await open_table(fake, alice, computers=3, time="untimed")
        await click(fake, alice, table_msg, label="Start")
        seen_windows = 0
        for _ in range(40):
            table = live(bot)
            hand = table.hand
            if table.phase is not Phase.PLAYING or hand is None:
                break
            seat = table.hand_seat(0)
            if hand.phase is HandPhase.CLAIMS and len(table.legal_for(0)) == 1:
                stamp = ids.stamp(table)
                pass_id = ids.call_id(table.id, stamp, "pass")
                await fake.wait_for(
                    lambda p=pass_id: p in table_msg.custom_ids,  # type: ignore[misc]
                    message=lambda: f"no call buttons on a window: {table_msg.custom_ids}",
                )
                seen_windows += 1
                version = hand.version
                await timers.advance(2.1)
                await fake.wait_for(lambda v=version: live(bot).version > v)  # type: ignore[misc]
                continue
            await bot.runtime.act(
                table.id, str(alice.id), choose_action(hand, seat), hand.decision_version
            )
        assert seen_windows >= 3
        assert call_button_sets(fake) == {("chow", "pung", "kong", "win", "pass")}


async def test_a_tw16_turn_of_seventeen_tiles_is_played_from_the_dm(
    fake: FakeDiscord, db: Databases
) -> None:
    """Taiwanese sixteen tiles: at Alice's turn she holds 17 tiles; the DM offers a control for
    every tile she may discard, within Discord's limits, and a click plays it."""
    alice = fake.users[0]
    async with fake.running(make_bot(db("bot"), seed_source=lambda: 5)) as bot:
        table_msg = await open_table(fake, alice, preset="tw-16", computers=3)
        await click(fake, alice, table_msg, label="Start")
        table = live(bot)
        seat = table.hand_seat(0)

        def alices_turn() -> bool:
            hand = live(bot).hand
            return hand is not None and hand.phase is HandPhase.TURN and hand.turn == seat

        await fake.wait_for(alices_turn)
        hand = live(bot).hand
        assert hand is not None
        assert len(hand.hands[seat]) + 3 * len(hand.melds[seat]) == 17
        message = await dm_with_controls(fake, alice, moment(bot))
        components = list(message.iter_components())
        assert sum(c["type"] == 1 for c in components) <= 5  # action rows
        assert sum(c["type"] != 1 for c in components) <= 25
        offered = set()
        for item in components:
            if item["type"] == 3:
                offered |= {o["value"].split(" ", 1)[1] for o in item["options"]}
            elif ":discard:" in item.get("custom_id", ""):
                offered.add(item["label"])
        legal = hand.legal_actions(seat)
        assert offered == {tile_name(a.tile) for a in legal if a.kind is ActionKind.DISCARD}
        before = hand.version
        button = next(c for c in components if ":discard:" in c.get("custom_id", ""))
        await click(fake, alice, message, custom_id=button["custom_id"])
        await fake.wait_for(lambda: live(bot).version > before)
        assert live(bot).hand.log[before].kind is ActionKind.DISCARD  # type: ignore[union-attr]
