"""DM clicks between processes: Discord sends every DM interaction to shard 0's process, but the
table may live in another process (several processes on one PostgreSQL, README "Scaling").

Shard 0's process acknowledges such a click at once (a deferred update, within Discord's three
seconds) and posts the interaction, as Discord sent it, to the store's inbox with a NOTIFY
(data/inbox.py). The owner, woken, takes the clicks of its tables and runs each through the
same controls as a click it had received itself; only its answer differs: the interaction was
acknowledged already, so `defer()` does nothing and replies go through the interaction's
follow-up (its token is good for any process of the application for 15 minutes).

A NOTIFY can be lost without a word (a half-open connection), so the inbox is also read every
READ_EVERY seconds: a click waits at most that long wherever it lands. Shard 0's process, which
posts the clicks, also takes the ones no process will (their table closed or never existed, or
nobody took them for data/inbox.py STALE_AFTER) and answers them that the table is over.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections import OrderedDict
from typing import TYPE_CHECKING, Any, cast

import discord

from bot.discord.replies import tell
from engine.i18n import text

if TYPE_CHECKING:
    from bot.discord.client import MahjongBot
    from data.postgres import Listener

log = logging.getLogger(__name__)

KEPT = 512  # interactions kept as Discord sent them, newest first (only the latest are clicked)
READ_EVERY = 2.0  # seconds between reads of the inbox that no NOTIFY asked for


class ForwardedResponse(discord.InteractionResponse):
    """The response of an interaction another process acknowledged: done already."""

    def is_done(self) -> bool:
        return True

    async def defer(self, *args: Any, **kwargs: Any) -> None:
        return None


class DmInbox:
    """One process's side of the inbox: forwarding (shard 0) and taking (the owners)."""

    def __init__(self, bot: MahjongBot) -> None:
        self.bot = bot
        self._raw: OrderedDict[int, dict[str, Any]] = OrderedDict()
        self._listener: Listener | None = None
        self._draining: asyncio.Task[None] | None = None
        self._again = False
        self._timer: asyncio.Task[None] | None = None
        self.read_every = READ_EVERY

    @property
    def active(self) -> bool:
        """Processes that share a database and split its tables by shard."""
        return self.bot.store.shared and self.bot.config.owned_shards is not None

    async def start(self) -> None:
        """Keep interactions as sent (shard 0), listen for clicks handed over, take any that
        came while this process was away."""
        if not self.active:
            return
        if self.bot.config.serves(None):
            parsers = self.bot._connection.parsers
            parse = parsers["INTERACTION_CREATE"]

            def keep_then_parse(data: Any) -> None:
                self._keep(data)
                parse(data)

            parsers["INTERACTION_CREATE"] = keep_then_parse
        self._listener = await self.bot.store.listen_inbox(self.wake)
        self.wake()
        self._timer = asyncio.get_running_loop().create_task(
            self._on_timer(), name="dm-inbox-timer"
        )

    async def _on_timer(self) -> None:
        while True:
            await asyncio.sleep(self.read_every)
            self.wake()
            if self.bot.config.serves(None):
                try:
                    await self._answer_orphans()
                except Exception:
                    log.exception("the DM inbox's orphans could not be read")

    async def _answer_orphans(self) -> None:
        """The clicks no process will take, answered that their table is over."""
        for table_id, payload in await self.bot.store.take_inbox_orphans():
            interaction = self._interaction(json.loads(payload))
            try:
                await tell(interaction, text("bot.control.table_closed", table=table_id))
            except discord.HTTPException as error:  # its token may have expired meanwhile
                log.debug("a DM click for table %s could not be answered: %s", table_id, error)

    def _keep(self, data: dict[str, Any]) -> None:
        if data.get("guild_id") is None and data.get("type") == 3:  # a DM click
            self._raw[int(data["id"])] = data
            while len(self._raw) > KEPT:
                self._raw.popitem(last=False)

    async def forward(self, interaction: discord.Interaction[Any], table_id: int) -> bool:
        """Hand a DM click for a table this process does not hold to its owner; whether it was
        handed (an active inbox and the interaction as Discord sent it)."""
        if not self.active or interaction.guild_id is not None:
            return False
        raw = self._raw.pop(interaction.id, None)
        if raw is None:
            return False
        await interaction.response.defer()
        await self.bot.store.post_to_inbox(table_id, json.dumps(raw))
        log.debug("DM click for table %s handed to its owner", table_id)
        return True

    def wake(self) -> None:
        """Take the waiting clicks (again, if a take is running: one may have come since)."""
        if self._draining is not None and not self._draining.done():
            self._again = True
            return
        self._draining = asyncio.get_running_loop().create_task(self._drain(), name="dm-inbox")

    async def _drain(self) -> None:
        while True:
            self._again = False
            try:
                taken = await self.bot.store.take_inbox(self.bot.config.owned_shards)
            except Exception:
                log.exception("the DM inbox could not be read")
                return
            for table_id, payload in taken:
                try:
                    self._run(json.loads(payload))
                except Exception:
                    log.exception("a DM click handed over for table %s failed", table_id)
            if not self._again:
                return

    def _interaction(self, data: dict[str, Any]) -> discord.Interaction[Any]:
        """A click handed over, as an interaction answered already."""
        interaction: discord.Interaction[Any] = discord.Interaction(
            data=cast(Any, data), state=self.bot._connection
        )
        # discord.py caches the response object in this slot: ours says it is answered already
        interaction._cs_response = ForwardedResponse(interaction)  # type: ignore[attr-defined]
        return interaction

    def _run(self, data: dict[str, Any]) -> None:
        """The click, through the same controls as one this process received."""
        interaction = self._interaction(data)
        inner = data["data"]
        view_store = self.bot._connection._view_store
        view_store.dispatch_view(inner["component_type"], inner["custom_id"], interaction)

    async def close(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            await asyncio.gather(self._timer, return_exceptions=True)
            self._timer = None
        if self._listener is not None:
            await self._listener.close()
            self._listener = None
        if self._draining is not None:
            await asyncio.gather(self._draining, return_exceptions=True)
