"""The bot's cogs, one concern each; their commands are the subcommands of `/mahjong`."""

from bot.discord.cogs.language import LanguageCog
from bot.discord.cogs.lobby import LobbyCog
from bot.discord.cogs.play import PlayCog
from bot.discord.cogs.records import RecordsCog
from bot.discord.cogs.reference import ReferenceCog
from bot.discord.cogs.replay import ReplayCog
from bot.discord.cogs.stats import StatsCog
from bot.discord.cogs.watch import WatchCog

COGS = (LanguageCog, LobbyCog, PlayCog, RecordsCog, ReferenceCog, ReplayCog, StatsCog, WatchCog)

__all__ = [
    "COGS",
    "LanguageCog",
    "LobbyCog",
    "PlayCog",
    "RecordsCog",
    "ReferenceCog",
    "ReplayCog",
    "StatsCog",
    "WatchCog",
]
