"""`mahjong-bot run`: read the settings, connect to Discord, stop cleanly on SIGINT/SIGTERM."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import sys
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TextIO

from bot.pauses import keep_pauses_short

if TYPE_CHECKING:
    from bot.discord.config import BotConfig

NO_TOKEN = """\
mahjong-bot needs a Discord bot token, and DISCORD_TOKEN is not set (nor in a .env file here).

To get one:
  1. Open https://discord.com/developers/applications and press "New Application".
  2. On the "Bot" page press "Reset Token" and copy the token.
  3. Run:  DISCORD_TOKEN=<your token> mahjong-bot
     or put the line  DISCORD_TOKEN=<your token>  in a file named .env in this directory.
  4. Invite the bot with the link it logs when it starts (see "Run the bot" in README.md).

To play without Discord, against three computer players in this terminal:
  mahjong-bot play --preset hkos-3-v1
"""

log = logging.getLogger("bot")


def run_bot(environ: Mapping[str, str] | None = None, *, stderr: TextIO | None = None) -> int:
    """Run the Discord bot until it is stopped; return the process exit code."""
    from bot.discord.config import BotConfig, ConfigError, point_discord_at

    err = stderr or sys.stderr
    try:
        config = BotConfig.from_env(environ)
    except ConfigError as error:
        print(f"error: {error}", file=err)
        return 2
    if not config.token:
        print(NO_TOKEN, file=err, end="")
        return 2
    from data import StoreError, check_database

    try:
        check_database(config.db_path)  # before Discord: a bad path is one line, not a login
    except StoreError as error:
        print(f"error: the database cannot be used: {error}", file=err)
        return 2
    setup_logging(config.log_level_number)
    point_discord_at(config)
    try:
        return asyncio.run(serve(config))
    except KeyboardInterrupt:  # a second Ctrl-C while shutting down
        return 130


def setup_logging(level: int) -> None:
    """Log to stderr with times; discord.py's own chatter one level quieter than ours."""
    logging.basicConfig(
        level=level, format="%(asctime)s %(levelname)-7s %(name)s: %(message)s", force=True
    )
    logging.getLogger("discord").setLevel(max(level, logging.INFO))
    logging.getLogger("apscheduler").setLevel(max(level, logging.WARNING))


async def serve(
    config: BotConfig,
    *,
    stop: asyncio.Event | None = None,
    handle_signals: bool = True,
    **bot_options: Any,
) -> int:
    """Run a MahjongBot until `stop` is set (or SIGINT/SIGTERM); close it cleanly.

    Returns 0 after a requested stop, 1 when Discord refused the token or the connection ended
    for good.
    """
    import aiohttp
    import discord

    from bot.discord.client import make_bot
    from bot.discord.config import ConfigError
    from data.errors import StoreError

    stop = stop or asyncio.Event()
    loop = asyncio.get_running_loop()
    installed: list[signal.Signals] = []
    if handle_signals:
        for sig in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                loop.add_signal_handler(sig, stop.set)
                installed.append(sig)
    if config.shard_count is not None:
        shards = config.shard_ids or range(config.shard_count)
        log.info("running shards %s of %d", ", ".join(map(str, shards)), config.shard_count)
    bot = make_bot(config, **bot_options)
    code = 0
    runner = asyncio.create_task(bot.start(config.token or ""), name="mahjong-bot")
    freezer = asyncio.create_task(_freeze_when_ready(bot), name="mahjong-collections")
    try:
        stopper = asyncio.create_task(stop.wait(), name="mahjong-stop")
        done, _ = await asyncio.wait({runner, stopper}, return_when=asyncio.FIRST_COMPLETED)
        if runner in done:
            error = runner.exception()
            if isinstance(error, discord.LoginFailure):
                log.error("Discord refused the token: check DISCORD_TOKEN (%s)", error)
            elif isinstance(error, StoreError):
                log.error("the database cannot be used: %s", error)
            elif isinstance(error, discord.PrivilegedIntentsRequired | ConfigError):
                log.error("%s", error)
            elif isinstance(error, OSError | aiohttp.ClientError | discord.GatewayNotFound):
                log.error("cannot reach Discord: %s", error or type(error).__name__)
            elif error is not None:
                log.error("the bot stopped", exc_info=error)
            code = 1
        else:
            log.info("stopping: closing tables' clocks, pending messages and the database")
        stopper.cancel()
    finally:
        freezer.cancel()
        await bot.close()
        if not runner.done():
            runner.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await runner
        for sig in installed:
            loop.remove_signal_handler(sig)
    return code


async def _freeze_when_ready(bot: Any) -> None:
    """Once the runtime has opened and restored its tables (the bot is ready), keep garbage
    collections short for the rest of the process's life (bot/pauses.py)."""
    await bot.wait_until_ready()
    await keep_pauses_short()
