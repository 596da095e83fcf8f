"""Opening and filling tables: /mahjong create, join, leave, invite, start, tables, quickplay,
and the Join / Leave / Add computer / Start buttons of the table message."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.components import sentence, tell
from bot.discord.ids import Stamp
from bot.discord.options import (
    DEFAULT_PRESET,
    LEVEL_CHOICES,
    TIME_CHOICES,
    VISIBILITY_CHOICES,
    OptionError,
    check_code,
    check_create,
    check_preset,
    display_name,
    pick_table,
    preset_autocomplete,
)
from bot.discord.surface import table_url
from bot.runtime import LiveTable, TableError
from bot.runtime.computers import DEFAULT_LEVEL
from bot.runtime.manager import quickplay_seats
from data import Phase

if TYPE_CHECKING:
    from bot.discord.client import MahjongBot

Interaction = discord.Interaction[Any]
NOT_IN_GUILD = "Tables live in server channels: use this command in a channel of a server."


class LobbyCog(commands.Cog, name="Lobby"):
    """Tables before their first deal: creating, seating, inviting, Quick Play."""

    def __init__(self, bot: MahjongBot) -> None:
        self.bot = bot

    # ------------------------------------------------------------------ commands

    @app_commands.command(name="create", description="Open a mahjong table in this channel")
    @app_commands.describe(
        preset="the rules (start typing: hkos-3-v1 is Hong Kong Old Style)",
        visibility="public: anyone here may join; private: by invitation or join code",
        rated="whether the hands count for ratings (four people, with a clock)",
        time="the clock for each decision",
        computers="computer players to seat now (up to one fewer than the players; casual only)",
        name="a name for the table",
        min_fan="the minimum faan to win, where the rules let a table choose (hk-fw2: 0-3)",
        players="how many play (2-4, as the preset allows; rated tables seat four)",
        level="how well the computer players play",
        options="rule options, e.g. green_white no_minimum (hubei-laizi)",
    )
    @app_commands.autocomplete(preset=preset_autocomplete)
    @app_commands.choices(visibility=VISIBILITY_CHOICES, time=TIME_CHOICES, level=LEVEL_CHOICES)
    async def create(
        self,
        interaction: Interaction,
        preset: str = DEFAULT_PRESET,
        visibility: str = "public",
        rated: bool = False,
        time: str | None = None,
        computers: app_commands.Range[int, 0, 3] = 0,
        name: app_commands.Range[str, 1, 40] | None = None,
        min_fan: app_commands.Range[int, 0, 3] | None = None,
        players: app_commands.Range[int, 2, 4] | None = None,
        level: str = DEFAULT_LEVEL,
        options: app_commands.Range[str, 1, 100] | None = None,
    ) -> None:
        """Check the options, open the table, and say where it is (privately)."""
        if interaction.guild_id is None:
            return await tell(interaction, NOT_IN_GUILD)
        try:
            found = check_create(
                preset,
                visibility,
                rated,
                time,
                computers,
                (name or "").strip(),
                players=players,
                level=level,
            )
        except OptionError as error:
            return await tell(interaction, sentence(error))
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            table = await self.bot.runtime.create_table(
                found.id,
                creator_id=str(interaction.user.id),
                creator_name=display_name(interaction.user),
                guild_id=interaction.guild_id,
                channel_id=interaction.channel_id,
                visibility=visibility,
                rated=rated,
                time_control=time,
                computers=computers,
                name=(name or "").strip(),
                min_fan=min_fan,
                players=players,
                level=level,
                table_options=(options or "").replace(",", " ").split(),
            )
        except TableError as error:
            return await tell(interaction, sentence(error))
        await self.bot.front.settled(table)
        text = f"Table #{table.id} is open: {table_url(table) or 'see the table message'}."
        if table.options.invite_code:
            text += (
                f"\nIt is private: share the join code **{table.options.invite_code}** "
                "(`/mahjong join code:`) or invite people with `/mahjong invite`."
            )
        await tell(interaction, text)

    @app_commands.command(name="join", description="Sit at the open table here, or by join code")
    @app_commands.describe(code="the join code of a private table")
    async def join(self, interaction: Interaction, code: str | None = None) -> None:
        """Take a seat: the newest public table with room in this channel, or the code's table."""
        if interaction.guild_id is None:
            return await tell(interaction, NOT_IN_GUILD)
        try:
            checked = check_code(code) if code is not None else None
        except OptionError as error:
            return await tell(interaction, sentence(error))
        await interaction.response.defer(ephemeral=True, thinking=True)
        runtime, user_id = self.bot.runtime, str(interaction.user.id)
        name = display_name(interaction.user)
        try:
            if checked is not None:
                table = await runtime.join_by_code(checked, user_id, name)
            else:
                open_here = [
                    t
                    for t in runtime.public_tables(interaction.guild_id)
                    if t.channel_id == interaction.channel_id
                    and t.phase is Phase.LOBBY
                    and not t.full
                ]
                if not open_here:
                    return await tell(
                        interaction,
                        "No public table here has a free seat. Open one with `/mahjong create`, "
                        "or join a private table with `/mahjong join code:`.",
                    )
                table = await runtime.join(max(open_here, key=lambda t: t.id).id, user_id, name)
        except TableError as error:
            return await tell(interaction, sentence(error))
        await tell(interaction, f"You sit at Table #{table.id}: {table_url(table)}")

    @app_commands.command(name="leave", description="Leave your table (between hands) or the queue")
    async def leave(self, interaction: Interaction) -> None:
        """Stand up from your table here, or leave the Quick Play queue."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        user_id = str(interaction.user.id)
        left_queue = await self.bot.runtime.leave_queue(user_id)
        table = pick_table(self.bot.runtime.tables_of(user_id), interaction.channel_id)
        if table is None:
            text = "You left the Quick Play queue." if left_queue else "You are not at a table."
            return await tell(interaction, text)
        try:
            await self.bot.runtime.leave(table.id, user_id)
        except TableError as error:
            return await tell(interaction, sentence(error))
        await tell(interaction, f"You left Table #{table.id}.")

    @app_commands.command(name="invite", description="Invite someone to your table")
    @app_commands.describe(user="who to invite")
    async def invite(self, interaction: Interaction, user: discord.User) -> None:
        """Let `user` join your table without the code, and tell them."""
        if interaction.guild_id is None:
            return await tell(interaction, NOT_IN_GUILD)
        if user.bot:
            return await tell(
                interaction, "user: bots cannot play; add computers with **Add computer**."
            )
        if user.id == interaction.user.id:
            return await tell(interaction, "user: you are already at your own table.")
        await interaction.response.defer(ephemeral=True, thinking=True)
        user_id = str(interaction.user.id)
        table = pick_table(self.bot.runtime.tables_of(user_id), interaction.channel_id)
        if table is None:
            return await tell(
                interaction, "You are not at a table: open one with `/mahjong create`."
            )
        if table.phase is not Phase.LOBBY:
            return await tell(interaction, f"Table #{table.id} has started: invite between tables.")
        try:
            code = await self.bot.runtime.invite(table.id, user_id, str(user.id))
        except TableError as error:
            return await tell(interaction, sentence(error))
        await self._tell_invitee(interaction, table, user, code)
        extra = f" Its join code is **{code}**." if code else ""
        await tell(interaction, f"{user.mention} may now join Table #{table.id}.{extra}")

    async def _tell_invitee(
        self, interaction: Interaction, table: LiveTable, user: discord.User, code: str | None
    ) -> None:
        host = display_name(interaction.user)
        url = table_url(table)
        text = f"{host} invites you to mahjong at Table #{table.id}: press **Join** on {url}"
        if code:
            text += f" or use `/mahjong join code:{code}`"
        try:
            await user.send(text + ".")
        except discord.HTTPException:
            channel = self.bot.get_partial_messageable(
                table.channel_id or 0, guild_id=table.guild_id
            )
            await channel.send(
                f"{user.mention}: {host} invites you to Table #{table.id}. "
                "Press **Join** on the table message."
            )

    @app_commands.command(name="start", description="Deal the first hand at your full table")
    async def start(self, interaction: Interaction) -> None:
        """Start your table here once every seat is taken."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        user_id = str(interaction.user.id)
        table = pick_table(self.bot.runtime.tables_of(user_id), interaction.channel_id)
        if table is None:
            return await tell(
                interaction, "You are not at a table: open one with `/mahjong create`."
            )
        try:
            await self.bot.runtime.start_table(table.id, user_id)
        except TableError as error:
            return await tell(interaction, sentence(error))
        await tell(interaction, f"Table #{table.id} is dealt: your hand comes by DM.")

    @app_commands.command(name="tables", description="List the public tables of this server")
    async def tables(self, interaction: Interaction) -> None:
        """The public tables here: rules, seats, phase, and a link to each."""
        if interaction.guild_id is None:
            return await tell(interaction, NOT_IN_GUILD)
        found = sorted(self.bot.runtime.public_tables(interaction.guild_id), key=lambda t: t.id)
        if not found:
            return await tell(
                interaction, "No public tables are open here. Open one with `/mahjong create`."
            )
        lines = []
        for table in found[:20]:
            seated = sum(seat is not None for seat in table.seats)
            phase = {"lobby": "waiting", "playing": "playing", "between_hands": "between hands"}
            link = table_url(table)
            where = f" in <#{table.channel_id}>" if table.channel_id else ""
            lines.append(
                f"**#{table.id}** {table.preset.name}{where} · {phase.get(table.phase.value, '')}"
                f" · {seated}/{table.seat_count} seated" + (f" · [open]({link})" if link else "")
            )
        embed = discord.Embed(title="Public tables", description="\n".join(lines))
        await tell(interaction, "", embed=embed)

    @app_commands.command(name="quickplay", description="Queue for a table with the next players")
    @app_commands.describe(
        preset="the rules", rated="a rated queue (four people; casual queues fill with computers)"
    )
    @app_commands.autocomplete(preset=preset_autocomplete)
    async def quickplay(
        self, interaction: Interaction, preset: str = DEFAULT_PRESET, rated: bool = False
    ) -> None:
        """Join the Quick Play queue; four players make a table with the standard clock."""
        if interaction.guild_id is None:
            return await tell(interaction, NOT_IN_GUILD)
        try:
            found = check_preset(preset)
        except OptionError as error:
            return await tell(interaction, sentence(error))
        await interaction.response.defer(ephemeral=True, thinking=True)
        runtime = self.bot.runtime
        try:
            table = await runtime.quickplay(
                found.id,
                str(interaction.user.id),
                display_name(interaction.user),
                guild_id=interaction.guild_id,
                channel_id=interaction.channel_id,
                rated=rated,
            )
        except TableError as error:
            return await tell(interaction, sentence(error))
        if table is None:
            waiting = runtime.quickplay_waiting(found.id, rated)
            seats = quickplay_seats(found)
            fill = (
                ""
                if rated
                else f" Computers take the empty seats after {int(runtime.quickplay_fill_after)} s."
            )
            return await tell(
                interaction,
                f"You are in the {found.name} queue ({waiting} of {seats}).{fill} "
                "`/mahjong leave` takes you out.",
            )
        await self.bot.front.settled(table)
        await tell(interaction, f"Your table is ready: {table_url(table)}")

    # ------------------------------------------------------------------ buttons

    async def on_lobby_button(
        self, interaction: Interaction, table_id: int, verb: str, stamp: Stamp
    ) -> None:
        """Join, Leave, Add computer or Start on the table message, as drawn at `stamp`.

        Join, Leave and Start are idempotent by nature (seated already, not seated, started);
        Add computer is not, so it carries the seating's version: pressed twice on one
        drawing (a double click), it adds one computer."""
        await interaction.response.defer()
        runtime, user_id = self.bot.runtime, str(interaction.user.id)
        try:
            if verb == "join":
                await runtime.join(table_id, user_id, display_name(interaction.user))
            elif verb == "leave":
                await runtime.leave(table_id, user_id)
            elif verb == "cpu":
                await runtime.add_computer(table_id, user_id, stamp.version)
            else:
                await runtime.start_table(table_id, user_id)
        except TableError as error:
            await tell(interaction, sentence(error))
