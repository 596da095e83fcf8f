"""The bot's cogs, one concern each; their commands are the subcommands of `/mahjong`."""

from bot.discord.cogs.lobby import LobbyCog
from bot.discord.cogs.play import PlayCog
from bot.discord.cogs.records import RecordsCog
from bot.discord.cogs.reference import ReferenceCog

COGS = (LobbyCog, PlayCog, RecordsCog, ReferenceCog)

__all__ = ["COGS", "LobbyCog", "PlayCog", "RecordsCog", "ReferenceCog"]
