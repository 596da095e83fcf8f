"""What every cog of the bot shares: the bot, and one answer to every refusal."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.replies import REFUSALS, refuse

if TYPE_CHECKING:
    from bot.discord.client import MahjongBot


class MahjongCog(commands.Cog):
    """A cog whose commands raise their refusals: they are told to the user here, once."""

    def __init__(self, bot: MahjongBot) -> None:
        self.bot = bot

    async def cog_app_command_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        original = getattr(error, "original", error)
        if isinstance(original, REFUSALS):
            await refuse(interaction, original)
        # anything else is a failure: the bot's tree handler logs it and says so
