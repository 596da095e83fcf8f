"""/mahjong watch and /mahjong spectators: a private, refreshing view of a table's public side.

A spectator's view is one ephemeral message drawn from the table's public snapshot only (the
table message's embed and picture, without its controls), so it can show nothing a seat hides.
It is refreshed with every public snapshot (through the front's table listeners and its
coalesced updates) for as long as Discord lets a bot edit an interaction's message, and it
stops, saying why, when the table closes or its players forbid spectators.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.discord.cogs.base import MahjongCog
from bot.discord.replies import reader_language, sentence, tell
from bot.discord.surface import table_surface
from bot.runtime import PublicSnapshot
from bot.runtime.spectators import set_spectators, watch_refusal
from engine.i18n import Text, text

if TYPE_CHECKING:
    from bot.discord.client import MahjongBot

Interaction = discord.Interaction[Any]
WATCH_SECONDS = 14 * 60  # Discord lets a bot edit an interaction's messages for 15 minutes


@dataclass(slots=True)
class Watcher:
    interaction: Interaction  # its original response is the spectator's message
    viewer_id: str
    until: float  # loop time after which the message can no longer be edited
    language: str  # the spectator's


class WatchCog(MahjongCog, name="Watch"):
    """Spectators: the public table, privately, refreshed."""

    def __init__(self, bot: MahjongBot) -> None:
        super().__init__(bot)
        self.watchers: dict[int, dict[str, Watcher]] = {}  # table -> viewer -> their view

    async def cog_load(self) -> None:
        self.bot.front.table_listeners.append(self.table_changed)

    async def cog_unload(self) -> None:
        self.bot.front.table_listeners.remove(self.table_changed)

    @app_commands.command(name="watch", description="Watch a table: its public view, for you")
    @app_commands.describe(table="the table's number (see /mahjong tables)")
    async def watch(self, interaction: Interaction, table: app_commands.Range[int, 1]) -> None:
        """Only the public table is shown, never a hand; it refreshes for 14 minutes."""
        viewer = str(interaction.user.id)
        live = self.bot.runtime.get(table)
        refusal = watch_refusal(live, viewer)
        language = reader_language(interaction)
        if refusal is not None:
            return await tell(interaction, _sentence(refusal, language))
        await interaction.response.defer(ephemeral=True, thinking=True)
        until = asyncio.get_running_loop().time() + WATCH_SECONDS
        watcher = Watcher(interaction, viewer, until, language)
        self.watchers.setdefault(table, {})[viewer] = watcher
        await self._refresh(table, watcher, self.bot.runtime.public_view(table))

    @app_commands.command(
        name="spectators", description="Allow or forbid spectators at your table, or invite one"
    )
    @app_commands.describe(
        table="your table's number",
        allow="whether people may watch the table",
        invite="someone who may watch (private tables need this)",
    )
    async def spectators(
        self,
        interaction: Interaction,
        table: app_commands.Range[int, 1],
        allow: bool | None = None,
        invite: discord.User | None = None,
    ) -> None:
        """Seated players only; stored with the table."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        live = await set_spectators(
            self.bot.runtime,
            table,
            str(interaction.user.id),
            allow=allow,
            invite=None if invite is None else str(invite.id),
        )
        allowed: Text | str = ""
        if allow is not None:
            allowed = text("bot.watch.allowed" if allow else "bot.watch.forbidden")
        invited: Text | str = ""
        if invite is not None:
            invited = text("bot.watch.invited", who=invite.mention, table=table)
        await tell(
            interaction, text("bot.watch.spectators", table=table, allowed=allowed, invited=invited)
        )
        self.table_changed(self.bot.runtime.public_view(live.id))  # stop views now forbidden

    def table_changed(self, snapshot: PublicSnapshot) -> None:
        """A table listener: bring each of the table's spectators up to date soon."""
        for viewer, watcher in list(self.watchers.get(snapshot.table_id, {}).items()):
            key = ("watch", snapshot.table_id, viewer)

            def update(watcher: Watcher = watcher) -> Any:
                return self._refresh(snapshot.table_id, watcher, snapshot)

            self.bot.front.updates.request(key, update)

    async def _refresh(self, table_id: int, watcher: Watcher, snapshot: PublicSnapshot) -> None:
        live = self.bot.runtime.tables.get(table_id)
        language = watcher.language
        ending = None
        if live is None or snapshot.closed_reason is not None:
            ending = text("bot.watch.closed", table=table_id).in_language(language)
        elif (refusal := watch_refusal(live, watcher.viewer_id)) is not None:
            ending = _sentence(refusal, language)
        elif asyncio.get_running_loop().time() > watcher.until:
            ending = text("bot.watch.expired", table=table_id).in_language(language)
        if ending is not None:
            self.watchers.get(table_id, {}).pop(watcher.viewer_id, None)
            await watcher.interaction.edit_original_response(
                content=ending, embed=None, attachments=[], view=None
            )
            return
        channel = self.bot.front.channel_name(snapshot.channel_id)
        surface = table_surface(snapshot, channel, language)
        embed = surface.embed or discord.Embed()
        embed.title = text("bot.watch.title", title=embed.title or "").in_language(language)
        files = []
        if surface.picture is not None:
            picture = await self.bot.painter.file(surface.picture, surface.filename, language)
            files.append(picture)
        await watcher.interaction.edit_original_response(
            content=None, embed=embed, attachments=files, view=None
        )


def _sentence(refusal: Text, language: str) -> str:
    """Why a watch is refused, as a sentence in the spectator's language."""
    return sentence(refusal.in_language(language), language)
