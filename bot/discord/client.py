"""The Discord bot: one `commands.Bot` holding the store, the runtime and the front end.

`setup_hook` opens the database, restores the tables (clocks re-armed), loads one cog per
concern, puts their commands under `/mahjong`, registers the dynamic buttons (so controls
on old messages keep working after a restart) and syncs the commands.

`make_bot` gives a `ShardedMahjongBot` (discord.py's `AutoShardedBot`) when the config names
shards: the process then connects only `shard_ids` of `shard_count`, and Discord sends it the
events of those shards' guilds alone (README "Scaling").
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.coalesce import Clock, Sleep
from bot.discord.cogs import COGS
from bot.discord.components import DYNAMIC_ITEMS, Controls, answer_foreign
from bot.discord.config import BotConfig, ConfigError
from bot.discord.front import DiscordFront
from bot.discord.inbox import DmInbox
from bot.discord.language import Languages
from bot.discord.pictures import Painter
from bot.discord.replies import is_refusal, tell
from bot.discord.translator import CatalogueTranslator
from bot.metrics import Metrics, MetricsServer
from bot.runtime import Runtime, SchedulerTimers, Timers
from data import Store
from data.postgres import ShardLease, redact
from engine.hand import HandState
from engine.i18n import text
from engine.session import Session

log = logging.getLogger(__name__)

# View channel, send messages, embed links, attach files, read message history.
PERMISSIONS = discord.Permissions(
    view_channel=True,
    send_messages=True,
    embed_links=True,
    attach_files=True,
    read_message_history=True,
)


def invite_url(application_id: int) -> str:
    """The link that adds the bot to a server with the permissions it needs."""
    return discord.utils.oauth_url(
        application_id, permissions=PERMISSIONS, scopes=("bot", "applications.commands")
    )


class MahjongBot(commands.Bot):
    """Mahjong tables in Discord channels."""

    def __init__(
        self,
        config: BotConfig,
        *,
        timers: Timers | None = None,
        hand_factory: Callable[[Session], HandState] | None = None,
        seed_source: Callable[[], int] | None = None,
        quickplay_fill_after: float = 60.0,
        edit_clock: Clock | None = None,
        edit_sleep: Sleep = asyncio.sleep,
        metrics: Metrics | None = None,
        **options: Any,
    ) -> None:
        """`timers`, `hand_factory` and `seed_source` go to the runtime; `edit_clock` and
        `edit_sleep` time the message edits (the event loop's clock unless a test steps one);
        `metrics` are served at `config.metrics` (made there if not given; none if unset)."""
        intents = discord.Intents.none()
        intents.guilds = True  # channel names and the guild cache; no privileged intents
        # no voice here: discord.py's warnings that PyNaCl and davey (voice only) are missing
        # would greet every start for nothing
        discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False
        options.setdefault(
            "allowed_mentions",
            discord.AllowedMentions(everyone=False, roles=False, users=True, replied_user=False),
        )
        super().__init__(
            command_prefix=commands.when_mentioned, intents=intents, help_command=None, **options
        )
        self.config = config
        self.painter = Painter()
        self.front = DiscordFront(self, config.edit_interval, clock=edit_clock, sleep=edit_sleep)
        self.languages = Languages(
            lambda guild_id: getattr(self.get_guild(guild_id), "preferred_locale", None)
        )
        self.controls = Controls()  # the cogs that answer clicks (each sets itself as it loads)
        # not `self.group`: commands.Bot.group is the decorator for prefix command groups
        self.mahjong_group = app_commands.Group(name="mahjong", description="Mahjong tables")
        self._runtime_options: dict[str, Any] = {
            "hand_factory": hand_factory,
            "seed_source": seed_source,
            "quickplay_fill_after": quickplay_fill_after,
            "no_call_wait": config.no_call_wait,
            "shards": config.owned_shards,
            "metrics": (metrics or Metrics()) if config.metrics else None,
        }
        self.metrics_server: MetricsServer | None = None
        self._timers = timers
        self._store: Store | None = None
        self._runtime: Runtime | None = None
        self.inbox = DmInbox(self)  # DM clicks between processes on one PostgreSQL
        self._announced = False
        self._closed = False
        self._lease: ShardLease | None = None

    @property
    def store(self) -> Store:
        """The database (open from `setup_hook` to `close`)."""
        if self._store is None:
            raise RuntimeError("the bot's database is not open (setup_hook has not run)")
        return self._store

    @property
    def runtime(self) -> Runtime:
        """The table runtime (from `setup_hook` to `close`)."""
        if self._runtime is None:
            raise RuntimeError("the bot's runtime is not running (setup_hook has not run)")
        return self._runtime

    async def setup_hook(self) -> None:
        """Open the store, restore tables, load cogs, register dynamic items, sync commands."""
        self._store = await Store.open(self.config.db_path)
        # one table, one process: no other process may run these shards on this database
        self._lease = await self._store.hold_shards(self.config.owned_shards, self._lease_lost)
        timers = self._timers or SchedulerTimers()
        workers = self.config.decision_workers
        decisions = None
        if workers:  # the runtime closes it
            from bot.runtime.decisions import DecisionPool

            decisions = DecisionPool(workers)
        self._runtime = Runtime(
            self._store, self.front, timers, decisions=decisions, **self._runtime_options
        )
        quarantined = await self._runtime.open()
        for item in quarantined:
            log.error("table %s was set aside: %s", item.table_id, item.reason)
        where = redact(self._store.path)
        log.info("restored %d open table(s) from %s", len(self._runtime.tables), where)
        self.front.restored = set(self._runtime.tables)  # their old DMs lose their controls
        await self.inbox.start()
        metrics = self._runtime.metrics
        if metrics is not None and self.config.metrics is not None:
            self.metrics_server = MetricsServer(
                metrics, lambda: self._runtime, self.gateway_connected
            )
            try:
                await self.metrics_server.start(*self.config.metrics)
            except OSError as error:  # the port taken, an address not this machine's
                host, port = self.config.metrics
                raise ConfigError(
                    f"MAHJONG_METRICS cannot listen at {host}:{port}: {error.strerror or error}"
                ) from None
        for cog_class in COGS:
            await self._add_grouped_cog(cog_class(self))
        self.tree.add_command(self.mahjong_group)
        self.tree.error(self.on_app_command_error)
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        self.add_listener(answer_foreign, "on_interaction")  # ids none of the items take
        await self.tree.set_translator(CatalogueTranslator())  # descriptions per client language
        synced = await self.tree.sync()
        log.info("synced %d command(s)", len(synced))
        if self.application_id:
            log.info("invite link: %s", invite_url(self.application_id))

    async def _add_grouped_cog(self, cog: commands.Cog) -> None:
        """Add a cog and move its slash commands under /mahjong (one group, many cogs)."""
        await self.add_cog(cog)
        for command in cog.get_app_commands():
            self.tree.remove_command(command.name)
            self.mahjong_group.add_command(command)

    def _lease_lost(self, why: str) -> None:
        """Another process took this one's shards while its lease's connection was away."""
        log.critical("stopping: %s", why)
        asyncio.get_running_loop().create_task(self.close(), name="mahjong-lease-lost")

    def gateway_connected(self) -> bool:
        """Whether the gateway connection is open now (every shard's, when sharded)."""
        ws = self.ws
        return not self.is_closed() and ws is not None and ws.open

    async def on_ready(self) -> None:
        """Log who we are; refresh the messages of restored tables once."""
        if self._announced:
            return
        self._announced = True
        assert self.user is not None
        log.info("logged in as %s (%s) in %d server(s)", self.user, self.user.id, len(self.guilds))
        # the runtime restored only the tables of this process's shards (Runtime.shards)
        for table_id in list(self.runtime.tables):
            self.front.update_table(self.runtime.public_view(table_id))

    async def on_app_command_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        """Log what went wrong and tell the user, privately, that it was on our side."""
        if is_refusal(error):
            return  # a refusal: its cog has told the user why
        command = interaction.command.qualified_name if interaction.command else "?"
        log.error("/%s failed", command, exc_info=error)
        try:
            await tell(interaction, text("bot.error.internal"))
        except discord.HTTPException:
            log.warning("could not tell the user about the failure of /%s", command)

    async def close(self) -> None:
        """Stop the clocks, finish pending message updates, disconnect, close the database."""
        if self._closed:
            return await super().close()
        self._closed = True
        await self.inbox.close()
        if self.metrics_server is not None:
            await self.metrics_server.close()
        if self._runtime is not None:
            await self._runtime.close()
        if self._lease is not None:
            await self._lease.release()
        await self.front.drain()
        await super().close()
        self.painter.close()
        await self.languages.settled()  # the locales seen last are written before the store closes
        if self._store is not None:
            await self._store.close()


class ShardedMahjongBot(MahjongBot, commands.AutoShardedBot):
    """The same bot connected as shards: `config.shard_ids` of `config.shard_count`."""

    def __init__(self, config: BotConfig, **options: Any) -> None:
        if config.shard_count is None:
            raise ValueError("a sharded bot needs config.shard_count")
        options.setdefault("shard_count", config.shard_count)
        if config.shard_ids is not None:
            options.setdefault("shard_ids", list(config.shard_ids))
        super().__init__(config, **options)

    def gateway_connected(self) -> bool:
        shards = self.shards.values()
        return not self.is_closed() and bool(shards) and not any(s.is_closed() for s in shards)


def make_bot(config: BotConfig, **options: Any) -> MahjongBot:
    """The bot the config asks for: sharded when it names a shard count, else one connection."""
    if config.sharded:
        return ShardedMahjongBot(config, **options)
    return MahjongBot(config, **options)
