"""/mahjong language: a server admin sets the language of the server's table messages; anyone
sets their own for replies and DMs (otherwise each follows its Discord locale)."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.cogs.base import MahjongCog
from bot.discord.language import GUILD, USER
from bot.discord.replies import tell
from bot.discord.translator import choice
from engine.i18n import LANGUAGE_NAMES, Text, text

Interaction = discord.Interaction[Any]
AUTO = "auto"  # back to the Discord locale
LANGUAGE_CHOICES = [
    choice("language", value, "{name}", name=LANGUAGE_NAMES[value]) for value in LANGUAGE_NAMES
] + [choice("language", AUTO, "automatic (Discord's language)")]
SCOPE_CHOICES = [
    choice("for", USER, "me: my replies and direct messages"),
    choice("for", GUILD, "this server: its table messages (Manage Server)"),
]


def language_name(language: str | None) -> Text:
    """A language as a reader sees it named ('简体中文'), or 'automatic'."""
    if language is None:
        return text("bot.language.auto")
    return text("bot.language.named", name=LANGUAGE_NAMES[language])


class LanguageCog(MahjongCog, name="Language"):
    """Who reads which language; the choices are stored and loaded at start-up."""

    async def cog_load(self) -> None:
        await self.bot.languages.load(self.bot.store)

    @commands.Cog.listener()
    async def on_interaction(self, interaction: Interaction) -> None:
        """Note each person's and server's Discord locale, for the DMs and posts sent later."""
        self.bot.languages.note(interaction)

    @app_commands.command(name="language", description="Choose the bot's language")
    @app_commands.describe(
        language="the language, or automatic to follow Discord",
        for_="yourself (the default) or this server's table messages",
    )
    @app_commands.rename(for_="for")
    @app_commands.choices(language=LANGUAGE_CHOICES, for_=SCOPE_CHOICES)
    async def language(self, interaction: Interaction, language: str, for_: str = USER) -> None:
        """Store the choice; a server's needs Manage Server, a person's anyone may make."""
        chosen = None if language == AUTO else language
        if chosen is not None and chosen not in LANGUAGE_NAMES:
            return await tell(interaction, text("bot.language.unknown", value=language))
        if for_ == GUILD:
            if interaction.guild_id is None:
                return await tell(interaction, text("bot.language.not_in_guild"))
            permissions = interaction.permissions
            if not (permissions.manage_guild or permissions.administrator):
                return await tell(interaction, text("bot.language.not_admin"))
            await self.bot.languages.choose(GUILD, interaction.guild_id, chosen)
            await self._refresh_tables(interaction.guild_id)
            return await tell(
                interaction, text("bot.language.server_set", language=language_name(chosen))
            )
        await self.bot.languages.choose(USER, interaction.user.id, chosen)
        await tell(interaction, text("bot.language.user_set", language=language_name(chosen)))

    async def _refresh_tables(self, guild_id: int) -> None:
        """Redraw the server's table messages in its new language."""
        runtime = self.bot.runtime
        for table_id, table in list(runtime.tables.items()):
            if table.guild_id == guild_id:
                self.bot.front.update_table(runtime.public_view(table_id))
