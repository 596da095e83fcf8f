"""End-to-end tests of the fake Discord, driving a small throwaway discord.py bot through it."""

from __future__ import annotations

import asyncio
import io
import re
import struct
import zlib
from collections.abc import AsyncIterator
from typing import Any

import discord
import pytest
from discord import app_commands
from discord.ext import commands

from tests.fakediscord import FakeDiscord, FakeDiscordError

PRESETS = ("hkos-3-v1", "hkos-5-v1", "riichi-v1")


def tiny_png(width: int = 3, height: int = 2, rgb: tuple[int, int, int] = (200, 30, 30)) -> bytes:
    """Return a valid solid-colour PNG, built by hand so the test needs no imaging library."""

    def chunk(tag: bytes, data: bytes) -> bytes:
        crc = zlib.crc32(tag + data) & 0xFFFFFFFF
        return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", crc)

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    rows = b"".join(b"\x00" + bytes(rgb) * width for _ in range(height))
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(rows))
        + chunk(b"IEND", b"")
    )


class CounterButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"demo:count:(?P<count>\d+)",
):
    """A button whose whole state lives in its custom id, so it survives a bot restart."""

    def __init__(self, count: int) -> None:
        button: discord.ui.Button[discord.ui.View] = discord.ui.Button(
            label=f"Count {count}", custom_id=f"demo:count:{count}"
        )
        super().__init__(button)
        self.count = count

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Button[discord.ui.View],
        match: re.Match[str],
        /,
    ) -> CounterButton:
        """Rebuild the button from the clicked custom id."""
        return cls(int(match["count"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Count up by editing the message the button is on (callback type 7)."""
        count = self.count + 1
        await interaction.response.edit_message(content=f"count is {count}", view=counter(count))


def counter(count: int) -> discord.ui.View:
    """A view holding one counter button."""
    view = discord.ui.View(timeout=None)
    view.add_item(CounterButton(count))
    return view


class NameModal(discord.ui.Modal, title="Your name"):
    """A one-field modal; the answer comes back as an ephemeral reply."""

    name: discord.ui.TextInput[NameModal] = discord.ui.TextInput(label="Name", custom_id="name")

    async def on_submit(self, interaction: discord.Interaction[Any]) -> None:
        """Greet the user privately."""
        await interaction.response.send_message(f"hello {self.name.value}", ephemeral=True)


class SeatSelect(discord.ui.Select[discord.ui.View]):
    """A string select menu; the choice is confirmed privately."""

    def __init__(self) -> None:
        winds = ("east", "south", "west", "north")
        options = [discord.SelectOption(label=wind.title(), value=wind) for wind in winds]
        super().__init__(custom_id="demo:seat", options=options)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Tell the user where they sit."""
        text = f"{interaction.user.name} sits {self.values[0]}"
        await interaction.response.send_message(text, ephemeral=True)


class DemoGroup(app_commands.Group, name="demo", description="Demo commands for the fake"):
    """The ``/demo`` command group."""

    @app_commands.command(description="Post a counter and DM a picture")
    async def hello(self, interaction: discord.Interaction[DemoBot]) -> None:
        """Reply with a counter button, then DM a PNG and edit that DM."""
        await interaction.response.send_message("count is 0", view=counter(0))
        picture = discord.File(io.BytesIO(tiny_png()), filename="hand.png")
        dm = await interaction.user.send("your hand", file=picture, view=counter(100))
        interaction.client.last_dm = await dm.edit(content="your hand (edited)")

    @app_commands.command(description="Defer, follow up twice, edit the original")
    async def slow(self, interaction: discord.Interaction[Any]) -> None:
        """Exercise the deferred flow: type 5, follow-ups, PATCH @original."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        await interaction.followup.send("working")
        await interaction.followup.send("second message", ephemeral=True)
        await interaction.edit_original_response(content="done")

    @app_commands.command(description="Pick a preset")
    @app_commands.describe(preset="rule preset", seats="number of seats")
    async def pick(
        self,
        interaction: discord.Interaction[Any],
        preset: str,
        seats: app_commands.Range[int, 2, 4] = 4,
    ) -> None:
        """Answer privately with the chosen options."""
        await interaction.response.send_message(f"{preset} for {seats}", ephemeral=True)

    @pick.autocomplete("preset")
    async def preset_choices(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        """Offer presets starting with what the user typed."""
        return [app_commands.Choice(name=p, value=p) for p in PRESETS if p.startswith(current)]

    @app_commands.command(description="Choose a seat from a menu")
    async def seat(self, interaction: discord.Interaction[Any]) -> None:
        """Post a select menu (a non-persistent view, stored under the response's id)."""
        view = discord.ui.View()
        view.add_item(SeatSelect())
        await interaction.response.send_message("pick a seat", view=view)

    @app_commands.command(name="name", description="Ask for a name in a modal")
    async def ask_name(self, interaction: discord.Interaction[Any]) -> None:
        """Open the name modal (callback type 9)."""
        await interaction.response.send_modal(NameModal())


class DemoBot(commands.Bot):
    """A throwaway bot: the demo group, the dynamic counter button, a sync at start."""

    def __init__(self) -> None:
        super().__init__(
            command_prefix="!", intents=discord.Intents.default(), guild_ready_timeout=0.05
        )
        self.last_dm: discord.Message | None = None

    async def setup_hook(self) -> None:
        """Register commands and the dynamic button, then sync (the fake records the tree)."""
        self.tree.add_command(DemoGroup())
        self.add_dynamic_items(CounterButton)
        await self.tree.sync()


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    """A running fake; teardown fails on unknown routes, refused bodies, unanswered interactions."""
    async with FakeDiscord(users=3) as server:
        yield server


@pytest.fixture
async def bot(fake: FakeDiscord) -> AsyncIterator[DemoBot]:
    """A DemoBot connected to the fake and ready."""
    async with fake.running(DemoBot()) as running:
        yield running


async def test_login_and_command_sync(fake: FakeDiscord, bot: DemoBot) -> None:
    assert bot.user is not None and bot.user.id == fake.bot_user.id
    assert bot.get_guild(fake.guild.id) is not None
    assert fake.command_paths() == [
        "demo hello",
        "demo name",
        "demo pick",
        "demo seat",
        "demo slow",
    ]
    (demo,) = fake.command_tree()
    assert demo["application_id"] == str(fake.application_id)
    pick = next(o for o in demo["options"] if o["name"] == "pick")
    assert [(o["name"], o["type"], o.get("required")) for o in pick["options"]] == [
        ("preset", 3, True),
        ("seats", 4, False),
    ]
    assert fake.requests[:3] == [
        "GET /users/@me -> 200",
        "GET /oauth2/applications/@me -> 200",
        f"PUT /applications/{fake.application_id}/commands -> 200",
    ]


async def test_slash_reply_with_button_and_dm_picture(fake: FakeDiscord, bot: DemoBot) -> None:
    alice = fake.users[0]
    record = await fake.slash(alice, "demo", "hello")
    reply = await record.wait_response()
    assert reply.type == 4 and not record.ephemeral
    message = reply.message
    assert message is not None and message.content == "count is 0"
    assert message.custom_ids == ["demo:count:0"]
    assert fake.channel_messages() == [message]
    assert fake.message(message.id) is message and isinstance(message.id, int)

    (dm,) = await fake.wait_for_messages(alice)
    await fake.wait_for(lambda: dm.content == "your hand (edited)")
    picture = dm.attachment("hand.png")
    assert picture.data == tiny_png() and picture.content_type == "image/png"
    assert picture.dimensions == (3, 2)
    assert fake.dm_channel(alice) is not None and fake.dm_channel(alice).type == 1

    upload = next(p for p in fake.all_payloads if p.files)
    assert upload.route == "POST /channels/{channel_id}/messages"
    assert upload.visibility == "dm" and upload.json["content"] == "your hand"
    assert upload.files[0].data == tiny_png()
    # The bot can download what it uploaded, from the fake's CDN route.
    await fake.wait_for(lambda: bot.last_dm)
    assert bot.last_dm is not None
    assert await bot.last_dm.attachments[0].read() == tiny_png()
    assert bot.last_dm.edited_at is not None

    # The DM's button works in the DM (an interaction with ``user`` and no guild).
    click = await fake.click(alice, dm, "demo:count:100")
    assert (await click.wait_response()).type == 7 and "guild_id" not in click.payload
    assert dm.content == "count is 101" and dm.attachment("hand.png").data == tiny_png()
    with pytest.raises(ValueError, match="another user's DMs"):
        await fake.click(fake.users[1], dm, "demo:count:101")


async def test_dynamic_button_click_updates_message(fake: FakeDiscord, bot: DemoBot) -> None:
    record = await fake.slash(fake.users[0], "demo hello")
    message = (await record.wait_response()).message
    assert message is not None

    click = await fake.click(fake.users[1], message, "demo:count:0")
    update = await click.wait_response()
    assert update.type == 7 and update.message is message
    assert message.content == "count is 1" and message.custom_ids == ["demo:count:1"]
    assert message.edited_timestamp is not None

    again = await fake.click(fake.users[2], message, label="Count 1")
    await again.wait_response()
    assert message.content == "count is 2"


async def test_select_menu_choice(fake: FakeDiscord, bot: DemoBot) -> None:
    menu = (await (await fake.slash(fake.users[0], "demo seat")).wait_response()).message
    assert menu is not None
    with pytest.raises(ValueError, match="offers"):
        await fake.select(fake.users[1], menu, "demo:seat", ["centre"])
    choice = await fake.select(fake.users[1], menu, "demo:seat", ["west"])
    reply = await choice.wait_response()
    assert reply.message is not None and reply.message.content == "bob sits west"
    assert reply.message.visible_to == fake.users[1].id


async def test_deferred_followups_and_edit_original(fake: FakeDiscord, bot: DemoBot) -> None:
    alice, bob = fake.users[:2]
    record = await fake.slash(alice, "demo slow")
    responses = await record.wait_responses(4)
    assert [r.kind for r in responses] == ["callback", "followup", "followup", "edit"]
    assert record.response_type == 5 and record.ephemeral

    original = record.original
    assert original is not None and original.content == "done"
    assert original.ephemeral and original.visible_to == alice.id and not original.loading
    # The first follow-up after a deferral fills in the "thinking…" message.
    first, second = record.followups
    assert first is original and second.content == "second message" and second.ephemeral
    assert [h.get("content") for h in original.history] == [None, "working", "done"]
    assert fake.ephemerals(alice) == [original, second]
    assert fake.channel_messages(as_user=bob) == []
    assert not fake.public_payloads()


async def test_button_still_works_after_restart(fake: FakeDiscord) -> None:
    async with fake.running(DemoBot()):
        record = await fake.slash(fake.users[0], "demo hello")
        message = (await record.wait_response()).message
        command_id = fake.command_tree()[0]["id"]

    async with fake.running(DemoBot()) as second:
        assert fake.command_tree()[0]["id"] == command_id
        assert message is not None
        click = await fake.click(fake.users[1], message, "demo:count:0")
        assert (await click.wait_response()).type == 7
        assert message.content == "count is 1"
        assert second.is_ready()
    assert len(fake.gateway.sessions) == 2


async def test_autocomplete_options_and_modal(fake: FakeDiscord, bot: DemoBot) -> None:
    alice = fake.users[0]
    typing = await fake.autocomplete(alice, "demo pick", options={"preset": "hk"}, focused="preset")
    await typing.wait_response()
    assert typing.choices == [
        {"name": "hkos-3-v1", "value": "hkos-3-v1"},
        {"name": "hkos-5-v1", "value": "hkos-5-v1"},
    ]

    picked = await fake.slash(alice, "demo pick", options={"preset": "riichi-v1", "seats": 3})
    reply = await picked.wait_response()
    assert reply.message is not None and reply.message.content == "riichi-v1 for 3"
    assert picked.ephemeral
    with pytest.raises(ValueError, match="within"):
        await fake.slash(alice, "demo pick", options={"preset": "x", "seats": 9})
    with pytest.raises(ValueError, match="required"):
        await fake.slash(alice, "demo pick")

    opened = await fake.slash(alice, "demo name")
    await opened.wait_response()
    assert opened.response_type == 9 and opened.modal is not None
    submitted = await fake.submit_modal(opened, {"name": "Alice"})
    answer = await submitted.wait_response()
    assert answer.message is not None and answer.message.content == "hello Alice"


async def test_gateway_reconnect_resumes_session(fake: FakeDiscord, bot: DemoBot) -> None:
    await fake.reconnect_clients()
    await fake.wait_for(lambda: "/ws/resume" in fake.gateway.connections)
    await fake.wait_ready()
    assert len(fake.gateway.sessions) == 1
    assert any(frame["op"] == 6 for frame in fake.gateway.frames)
    record = await fake.slash(fake.users[0], "demo hello")
    assert (await record.wait_response()).type == 4


async def test_unknown_route_fails_the_test() -> None:
    with pytest.raises(FakeDiscordError, match="unknown route GET /nowhere/7"):
        async with FakeDiscord(users=1) as fake, fake.running(DemoBot()) as bot:
            with pytest.raises(discord.NotFound):
                await bot.http.request(discord.http.Route("GET", "/nowhere/{thing}", thing=7))
            assert fake.unknown_routes == ["GET /nowhere/7"]


async def test_refused_bodies_and_closed_dms(fake: FakeDiscord, bot: DemoBot) -> None:
    channel = bot.get_channel(fake.channel.id)
    assert isinstance(channel, discord.TextChannel)
    with pytest.raises(discord.HTTPException) as refused:
        await channel.send("x" * 2001)
    assert refused.value.status == 400 and refused.value.code == 50035
    assert "content" in refused.value.text
    assert fake.rejections and fake.channel_messages() == []
    fake.rejections.clear()

    bob = fake.users[1]
    bob.dms_open = False
    member = await bot.fetch_user(bob.id)
    with pytest.raises(discord.Forbidden) as closed:
        await member.send("psst")
    assert closed.value.code == 50007
    assert fake.problems == []  # a closed DM is something a correct bot meets, not misuse


async def test_late_acknowledgement_is_refused() -> None:
    async with FakeDiscord(users=1, ack_deadline=0.0) as fake, fake.running(DemoBot()):
        record = await fake.slash(fake.users[0], "demo pick", options={"preset": "hkos-3-v1"})
        await fake.wait_for(lambda: fake.rejections)
        assert "Unknown interaction" in fake.rejections[0]
        assert fake.unanswered == [record]
        assert fake.problems[-1] == "never answered: /demo pick by alice"
        fake.rejections.clear()
        fake.interactions.clear()  # both deliberate, so leaving the fake does not fail


async def test_user_message_reaches_bot(fake: FakeDiscord, bot: DemoBot) -> None:
    seen: list[discord.Message] = []

    async def on_message(message: discord.Message) -> None:
        seen.append(message)

    bot.add_listener(on_message)
    await fake.post_message(fake.users[0], f"hi {fake.bot_user.mention}")
    await fake.wait_for(lambda: seen)
    assert seen[0].author.id == fake.users[0].id
    assert seen[0].content == f"hi {fake.bot_user.mention}"


async def test_manual_lifecycle_restores_discord_urls() -> None:
    before = discord.http.Route.BASE
    async with FakeDiscord(users=1) as fake:
        fake.patch_discord()
        assert fake.api_base == discord.http.Route.BASE
        bot = DemoBot()
        await bot.login("fake-token")
        task = asyncio.create_task(bot.connect())
        await fake.wait_ready(bot)
        record = await fake.slash(fake.users[0], "demo pick", options={"preset": "riichi-v1"})
        assert (await record.wait_response()).type == 4
        await bot.close()
        await task
    assert before == discord.http.Route.BASE
