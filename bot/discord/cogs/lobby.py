"""Opening and filling tables: /mahjong create, join, leave, invite, start, tables, quickplay,
and the Join / Leave / Add computer / Start buttons of the table message."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.discord.cogs.base import MahjongCog
from bot.discord.ids import Stamp
from bot.discord.options import (
    DEFAULT_PRESET,
    LEVEL_CHOICES,
    TIME_CHOICES,
    VISIBILITY_CHOICES,
    check_code,
    check_create,
    check_preset,
    display_name,
    pick_table,
    preset_autocomplete,
)
from bot.discord.replies import reader_language, tell
from bot.discord.surface import table_url
from bot.runtime import LiveTable
from bot.runtime.computers import DEFAULT_LEVEL
from bot.runtime.quickplay import quickplay_seats
from bot.runtime.words import preset_name
from data import Phase
from engine.i18n import text

Interaction = discord.Interaction[Any]
NOT_IN_GUILD = text("bot.lobby.not_in_guild")
PHASE_KEYS = {"lobby": "waiting", "playing": "playing", "between_hands": "between"}


class LobbyCog(MahjongCog, name="Lobby"):
    """Tables before their first deal: creating, seating, inviting, Quick Play."""

    async def cog_load(self) -> None:
        self.bot.controls.lobby = self

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
        options="table options: green_white no_minimum (hubei-laizi), min_fan=2 (hk-fw2), "
        "length=east (riichi)",
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
        await interaction.response.defer(ephemeral=True, thinking=True)
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
        await self.bot.front.settled(table)
        where = table_url(table) or text("bot.lobby.see_table_message")
        said = text("bot.lobby.open", table=table.id, where=where)
        if table.options.invite_code:
            said = text("bot.lobby.open_private", open=said, code=table.options.invite_code)
        await tell(interaction, said)

    @app_commands.command(name="join", description="Sit at the open table here, or by join code")
    @app_commands.describe(code="the join code of a private table")
    async def join(self, interaction: Interaction, code: str | None = None) -> None:
        """Take a seat: the newest public table with room in this channel, or the code's table."""
        if interaction.guild_id is None:
            return await tell(interaction, NOT_IN_GUILD)
        checked = check_code(code) if code is not None else None
        await interaction.response.defer(ephemeral=True, thinking=True)
        runtime, user_id = self.bot.runtime, str(interaction.user.id)
        name = display_name(interaction.user)
        if checked is not None:
            table = await runtime.join_by_code(checked, user_id, name)
        else:
            open_here = [
                t
                for t in runtime.public_tables(interaction.guild_id)
                if t.channel_id == interaction.channel_id and t.phase is Phase.LOBBY and not t.full
            ]
            if not open_here:
                return await tell(interaction, text("bot.lobby.no_free_seat"))
            table = await runtime.join(max(open_here, key=lambda t: t.id).id, user_id, name)
        await tell(interaction, text("bot.lobby.seated", table=table.id, link=table_url(table)))

    @app_commands.command(name="leave", description="Leave your table (between hands) or the queue")
    async def leave(self, interaction: Interaction) -> None:
        """Stand up from your table here, or leave the Quick Play queue."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        user_id = str(interaction.user.id)
        left_queue = await self.bot.runtime.leave_queue(user_id)
        table = pick_table(self.bot.runtime.tables_of(user_id), interaction.channel_id)
        if table is None:
            key = "bot.lobby.left_queue" if left_queue else "bot.lobby.not_at_table"
            return await tell(interaction, text(key))
        await self.bot.runtime.leave(table.id, user_id)
        await tell(interaction, text("bot.lobby.left", table=table.id))

    @app_commands.command(name="invite", description="Invite someone to your table")
    @app_commands.describe(user="who to invite")
    async def invite(self, interaction: Interaction, user: discord.User) -> None:
        """Let `user` join your table without the code, and tell them."""
        if interaction.guild_id is None:
            return await tell(interaction, NOT_IN_GUILD)
        if user.bot:
            return await tell(interaction, text("bot.lobby.invite_bot"))
        if user.id == interaction.user.id:
            return await tell(interaction, text("bot.lobby.invite_self"))
        await interaction.response.defer(ephemeral=True, thinking=True)
        user_id = str(interaction.user.id)
        table = pick_table(self.bot.runtime.tables_of(user_id), interaction.channel_id)
        if table is None:
            return await tell(interaction, text("bot.lobby.no_table"))
        if table.phase is not Phase.LOBBY:
            return await tell(interaction, text("bot.lobby.invite_started", table=table.id))
        code = await self.bot.runtime.invite(table.id, user_id, str(user.id))
        await self._tell_invitee(interaction, table, user, code)
        key = "bot.lobby.invited_code" if code else "bot.lobby.invited"
        await tell(interaction, text(key, who=user.mention, table=table.id, code=code))

    async def _tell_invitee(
        self, interaction: Interaction, table: LiveTable, user: discord.User, code: str | None
    ) -> None:
        host = display_name(interaction.user)
        url = table_url(table)
        key = "bot.lobby.invitation_code" if code else "bot.lobby.invitation"
        invitation = text(key, host=host, table=table.id, link=url, code=code)
        try:
            await user.send(invitation.in_language(self.bot.languages.of_user(user.id)))
        except discord.HTTPException:
            channel = self.bot.get_partial_messageable(
                table.channel_id or 0, guild_id=table.guild_id
            )
            notice = text("bot.lobby.invitation_here", who=user.mention, host=host, table=table.id)
            await channel.send(notice.in_language(self.bot.languages.of_guild(table.guild_id)))

    @app_commands.command(name="start", description="Deal the first hand at your full table")
    async def start(self, interaction: Interaction) -> None:
        """Start your table here once every seat is taken."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        user_id = str(interaction.user.id)
        table = pick_table(self.bot.runtime.tables_of(user_id), interaction.channel_id)
        if table is None:
            return await tell(interaction, text("bot.lobby.no_table"))
        await self.bot.runtime.start_table(table.id, user_id)
        await tell(interaction, text("bot.lobby.dealt", table=table.id))

    @app_commands.command(name="tables", description="List the public tables of this server")
    async def tables(self, interaction: Interaction) -> None:
        """The public tables here: rules, seats, phase, and a link to each."""
        if interaction.guild_id is None:
            return await tell(interaction, NOT_IN_GUILD)
        found = sorted(self.bot.runtime.public_tables(interaction.guild_id), key=lambda t: t.id)
        if not found:
            return await tell(interaction, text("bot.lobby.no_tables"))
        language = reader_language(interaction)
        lines = []
        for table in found[:20]:
            seated = sum(seat is not None for seat in table.seats)
            phase = PHASE_KEYS.get(table.phase.value)
            link = table_url(table)
            line = text(
                "bot.lobby.table_line",
                table=table.id,
                preset=preset_name(table.preset),
                where=text("bot.lobby.in_channel", channel=table.channel_id)
                if table.channel_id
                else "",
                phase=text(f"bot.lobby.phase.{phase}") if phase else "",
                seated=seated,
                seats=table.seat_count,
                link=text("bot.lobby.open_link", link=link) if link else "",
            )
            lines.append(line.in_language(language))
        title = text("bot.lobby.tables_title").in_language(language)
        await tell(interaction, "", embed=discord.Embed(title=title, description="\n".join(lines)))

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
        found = check_preset(preset)
        await interaction.response.defer(ephemeral=True, thinking=True)
        runtime = self.bot.runtime
        table = await runtime.quickplay(
            found.id,
            str(interaction.user.id),
            display_name(interaction.user),
            guild_id=interaction.guild_id,
            channel_id=interaction.channel_id,
            rated=rated,
        )
        if table is None:
            waiting = await runtime.quickplay_waiting(found.id, rated)
            fill = (
                ""
                if rated
                else text("bot.lobby.queue_fill", after=int(runtime.quickplay_fill_after))
            )
            queued = text(
                "bot.lobby.queued",
                preset=preset_name(found),
                waiting=waiting,
                seats=quickplay_seats(found),
                fill=fill,
            )
            return await tell(interaction, queued)
        await self.bot.front.settled(table)
        await tell(interaction, text("bot.lobby.ready", link=table_url(table)))

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
        if verb == "join":
            await runtime.join(table_id, user_id, display_name(interaction.user))
        elif verb == "leave":
            await runtime.leave(table_id, user_id)
        elif verb == "cpu":
            await runtime.add_computer(table_id, user_id, stamp.version)
        else:
            await runtime.start_table(table_id, user_id)
