"""The Discord layer: slash commands, the table message, hand DMs, buttons that survive restarts.

Nothing outside `bot/` imports discord; the runtime under `bot/runtime` knows nothing of it.
"""

from bot.discord.client import MahjongBot, invite_url
from bot.discord.config import BotConfig, ConfigError, point_discord_at, read_dotenv

__all__ = [
    "BotConfig",
    "ConfigError",
    "MahjongBot",
    "invite_url",
    "point_discord_at",
    "read_dotenv",
]
