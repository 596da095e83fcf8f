"""The runtime's front end on Discord: the table message, each player's hand DM, results.

Runtime notices only mark messages dirty; the updates run in `Coalescer` workers (one per
message, at most one edit per interval, the latest state wins), so the runtime never waits on
Discord and fast play never trips rate limits.

A player's hand message: each new decision of their own (their turn, an opening choice) is a
new DM, so Discord notifies them; everything else edits the latest DM in place (the picture
after a discard, the controls taken away when a clock plays for them). When a DM cannot be
delivered, the player is mentioned once per hand in the channel and plays through the
ephemeral "My hand" / `/mahjong hand`. A process that does not run shard 0 sends hand DMs
without controls (Discord would deliver their clicks to shard 0's process), unless the
processes share PostgreSQL, whose inbox hands the clicks over (bot/discord/inbox.py): otherwise
the player plays through "My hand" there too (README "Scaling").
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import io
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord

from bot.discord import ids
from bot.discord.coalesce import Clock, Coalescer, Sleep
from bot.discord.ids import Stamp
from bot.discord.surface import (
    Surface,
    dm_decision,
    hand_surface,
    jump_url,
    mention,
    result_surface,
    table_surface,
)
from bot.runtime import LiveTable, PrivateSnapshot, PublicSnapshot
from data import Phase
from engine.i18n import text
from render.animate import Moment

if TYPE_CHECKING:
    from bot.discord.client import MahjongBot

log = logging.getLogger(__name__)


EARLIER_DMS = 10  # how far back a player's DMs are looked at after a start
_UNKNOWN_MOMENT = Stamp(-1, -1)  # an adopted DM: its controls name a moment we do not know


@dataclass
class HandMessage:
    """The DM that currently shows a player's hand at one table."""

    channel_id: int
    message_id: int
    hand_id: int | None
    version: Stamp | None  # the moment its controls were drawn for; None: no controls
    shown: tuple[str, object, str] | None = None  # (text, picture, language), None if unknown


class DiscordFront:
    """Implements the runtime's FrontEnd protocol on Discord, from its snapshots."""

    def __init__(
        self,
        bot: MahjongBot,
        interval: float = 1.0,
        *,
        clock: Clock | None = None,
        sleep: Sleep = asyncio.sleep,
    ) -> None:
        """`clock` and `sleep` time the edits (default: the event loop's; tests step them)."""
        self.bot = bot
        self.updates = Coalescer(interval, clock=clock, sleep=sleep)
        self.hand_messages: dict[tuple[int, int], HandMessage] = {}
        self.table_messages: dict[int, int] = {}  # table id -> its message (once posted)
        self._closed_dms: dict[int, tuple[int | None, set[str]]] = {}  # table -> (hand, ids)
        # tables restored at start, whose DMs from before may still show live controls, and
        # the (table, player) pairs whose earlier DMs have been looked at since
        self.restored: set[int] = set()
        self._swept: set[tuple[int, int]] = set()
        self._posts: set[asyncio.Task[None]] = set()
        self._announced: set[int] = set()  # Quick Play tables whose players were pinged
        # moments of changes not yet shown, per table: coalesced edits play them all at once
        self._moments: dict[int, list[Moment]] = {}
        # called with every public snapshot, e.g. to refresh spectators (cogs/watch.py)
        self.table_listeners: list[Callable[[PublicSnapshot], None]] = []

    # ------------------------------------------------------------------ FrontEnd

    async def table_changed(self, snapshot: PublicSnapshot) -> None:
        self.update_table(snapshot)
        for listener in self.table_listeners:
            listener(snapshot)
        if snapshot.ended and snapshot.channel_id is not None:
            language = self.table_language(snapshot)
            surface = result_surface(snapshot, self.channel_name(snapshot.channel_id), language)
            self._spawn(self._post(snapshot, surface, language))
        if snapshot.closed_reason is not None or snapshot.phase is Phase.GAME_OVER:
            self._spawn(self._forget(snapshot))
        elif snapshot.quickplay and snapshot.table_id not in self._announced:
            self._spawn(self._announce_quickplay(snapshot))

    async def hand_changed(self, snapshot: PrivateSnapshot) -> None:
        if not snapshot.player_id.isdigit():
            return  # computers have no DMs
        key = ("hand", snapshot.table_id, snapshot.player)
        self.updates.request(key, lambda: self._flush_hand(snapshot))

    # ------------------------------------------------------------------ requests

    def update_table(self, snapshot: PublicSnapshot) -> None:
        """Bring the table message up to date soon (posting it if it has none)."""
        if snapshot.channel_id is None:
            return
        if snapshot.moments:
            self._moments.setdefault(snapshot.table_id, []).extend(snapshot.moments)
        key = ("table", snapshot.table_id)
        self.updates.request(key, lambda: self._flush_table(snapshot))

    async def settled(self, table: LiveTable | int) -> None:
        """Wait until the table message shows the latest state."""
        table_id = table if isinstance(table, int) else table.id
        await self.updates.wait(("table", table_id))

    async def drain(self, timeout: float = 5.0) -> None:
        """Finish pending updates and posts (at shutdown)."""
        await self.updates.drain(timeout)
        if self._posts:
            await asyncio.wait(list(self._posts), timeout=timeout)

    def adopt_hand_message(self, table: LiveTable, player: int, message: discord.Message) -> None:
        """Treat a DM a player clicked in as their current hand message (e.g. after a restart)."""
        current = self.hand_messages.get((table.id, player))
        if current is not None and current.message_id == message.id:
            return
        self.hand_messages[(table.id, player)] = HandMessage(
            message.channel.id, message.id, table.hand_id, version=_UNKNOWN_MOMENT
        )

    async def _forget(self, snapshot: PublicSnapshot) -> None:
        """Once a closed table's last updates are out, drop what was kept about its messages."""
        table_id = snapshot.table_id
        await self.settled(table_id)
        for player in range(len(snapshot.seats)):
            await self.updates.wait(("hand", table_id, player))
            self.hand_messages.pop((table_id, player), None)
        self.bot.painter.remember(("table", table_id), None)
        self._closed_dms.pop(table_id, None)
        self._moments.pop(table_id, None)
        self._announced.discard(table_id)
        self.table_messages.pop(table_id, None)

    def table_language(self, snapshot: PublicSnapshot | PrivateSnapshot) -> str:
        """The language of a table's public messages: its server's."""
        return self.bot.languages.of_guild(snapshot.guild_id)

    def channel_name(self, channel_id: int | None) -> str:
        """The name of a channel, if the bot knows it."""
        channel = self.bot.get_channel(channel_id) if channel_id else None
        return getattr(channel, "name", "") or ""

    def message_of(self, snapshot: PublicSnapshot | PrivateSnapshot) -> int | None:
        """The table message's id: the one this front end posted, else the one restored."""
        return self.table_messages.get(snapshot.table_id, snapshot.message_id)

    # ------------------------------------------------------------------ the table message

    async def _flush_table(self, snapshot: PublicSnapshot) -> None:
        assert snapshot.channel_id is not None
        table_id = snapshot.table_id
        language = self.table_language(snapshot)
        surface = table_surface(snapshot, self.channel_name(snapshot.channel_id), language)
        painter = self.bot.painter
        key = ("table", table_id)
        files = []
        moments = self._moments.pop(table_id, [])
        animated = surface.picture is not None and bool(moments)
        if animated:
            files = [await self._animation(surface, moments, language)]
        elif surface.picture is not None and not painter.unchanged(key, surface.picture, language):
            files = [await self._file(surface, language)]
        channel = self.bot.get_partial_messageable(snapshot.channel_id, guild_id=snapshot.guild_id)
        message_id = self.message_of(snapshot)
        if message_id is not None:
            kwargs: dict[str, Any] = {"embed": surface.embed, "view": surface.view}
            if files:
                kwargs["attachments"] = files
            elif surface.picture is None:
                kwargs["attachments"] = []
            try:
                await channel.get_partial_message(message_id).edit(**kwargs)
            except discord.NotFound:
                log.warning("table %s: its message is gone; posting a new one", table_id)
                self.table_messages.pop(table_id, None)
                painter.remember(key, None)
                files = [await self._file(surface, language)] if surface.picture is not None else []
                if animated and surface.embed is not None:  # a new message shows the still
                    surface.embed.set_image(url=f"attachment://{surface.filename}")
                    animated = False
            else:
                self.table_messages[table_id] = message_id
                # after an animation the next edit attaches the still picture again
                painter.remember(key, None if animated else surface.picture, language)
                return
        if snapshot.closed_reason is not None:
            return
        message = await channel.send(
            embed=discord.utils.MISSING if surface.embed is None else surface.embed,
            view=surface.view or discord.utils.MISSING,
            files=files or discord.utils.MISSING,
        )  # fmt: skip
        painter.remember(key, None if animated else surface.picture, language)
        self.table_messages[table_id] = message.id
        await self.bot.runtime.message_posted(table_id, message.id)

    async def _announce_quickplay(self, snapshot: PublicSnapshot) -> None:
        """Ping the people a Quick Play table was made for, once, with its link.

        They queued with a private reply and may have waited a while: an edit never notifies,
        so they get one short message when their table deals.
        """
        table_id = snapshot.table_id
        if table_id in self._announced or snapshot.phase is Phase.LOBBY:
            return
        if snapshot.channel_id is None:
            return
        self._announced.add(table_id)
        await self.settled(table_id)
        people = " ".join(mention(player_id) for player_id in snapshot.humans)
        link = jump_url(snapshot.guild_id, snapshot.channel_id, self.message_of(snapshot))
        channel = self.bot.get_partial_messageable(snapshot.channel_id, guild_id=snapshot.guild_id)
        ready = text("bot.front.quickplay_ready", people=people, link=link)
        await channel.send(ready.in_language(self.table_language(snapshot)))

    async def _file(self, surface: Surface, language: str) -> discord.File:
        assert surface.picture is not None
        data = await self.bot.painter.png(surface.picture, language)
        return discord.File(io.BytesIO(data), filename=surface.filename)

    async def _animation(
        self, surface: Surface, moments: list[Moment], language: str
    ) -> discord.File:
        """The moments played over the surface's picture, as the embed's image: a GIF whose
        last frame is the still picture (render.animate.animate_over)."""
        assert surface.picture is not None and surface.embed is not None
        data = await self.bot.painter.gif(surface.picture, moments, language)
        filename = surface.filename.rsplit(".", 1)[0] + ".gif"
        surface.embed.set_image(url=f"attachment://{filename}")
        return discord.File(io.BytesIO(data), filename=filename)

    async def _post(self, snapshot: PublicSnapshot, surface: Surface, language: str) -> None:
        assert snapshot.channel_id is not None
        files = [await self._file(surface, language)] if surface.picture is not None else []
        channel = self.bot.get_partial_messageable(snapshot.channel_id, guild_id=snapshot.guild_id)
        embed = discord.utils.MISSING if surface.embed is None else surface.embed  # None: MISSING
        await channel.send(content=surface.content, embed=embed, files=files)

    def _spawn(self, work: Any) -> None:
        task = asyncio.create_task(self._guard(work), name="mahjong-post")
        self._posts.add(task)
        task.add_done_callback(self._posts.discard)

    @staticmethod
    async def _guard(work: Any) -> None:
        try:
            await work
        except Exception:
            log.exception("posting to Discord failed")

    # ------------------------------------------------------------------ hand messages

    async def _flush_hand(self, snapshot: PrivateSnapshot) -> None:
        if not snapshot.has_hand or self._dms_closed_for(snapshot):
            return
        key = (snapshot.table_id, snapshot.player)
        located = dataclasses.replace(snapshot, message_id=self.message_of(snapshot))
        language = self.bot.languages.of_user(snapshot.player_id)
        surface = hand_surface(located, self.channel_name(snapshot.channel_id), language)
        decision = dm_decision(snapshot)
        if not self.bot.config.serves(None) and not self.bot.inbox.active:
            # Discord delivers DM clicks to shard 0's process only, which does not hold this
            # table and (processes apart) cannot hand them over: the DM shows the hand, and the
            # player plays through My hand (a guild click)
            decision = None
            button = text("bot.button.hand").in_language(self.table_language(snapshot))
            note = text("fixups.dm.use_my_hand", button=button).in_language(language)
            surface = dataclasses.replace(surface, content=f"{surface.content}\n{note}", view=None)
        version = decision[0] if decision else None
        current = self.hand_messages.get(key)
        if current is not None and current.hand_id != snapshot.hand_id:
            current = None
        if current is None or (version is not None and version != current.version):
            await self._new_hand_message(snapshot, surface, version, current, language)
            return
        shown = (surface.content, surface.picture, language)
        if shown == current.shown and version == current.version:
            return
        kwargs: dict[str, Any] = {"content": surface.content, "view": surface.view}
        if current.shown is None or current.shown[1:] != shown[1:]:
            kwargs["attachments"] = [await self._file(surface, language)]
        partial = self._dm_partial(current)
        try:
            await partial.edit(**kwargs)
        except discord.NotFound:
            self.hand_messages.pop(key, None)
            return
        current.version, current.shown = version, shown

    async def _new_hand_message(
        self,
        snapshot: PrivateSnapshot,
        surface: Surface,
        version: Stamp | None,
        previous: HandMessage | None,
        language: str,
    ) -> None:
        if previous is not None and previous.version is not None:
            # its controls are for a decision that is over: take them away
            with contextlib.suppress(discord.HTTPException):
                await self._dm_partial(previous).edit(view=None)
        try:
            channel = await self.bot.create_dm(discord.Object(int(snapshot.player_id)))
            pair = (snapshot.table_id, snapshot.player)
            if previous is None and snapshot.table_id in self.restored and pair not in self._swept:
                await self._retire_earlier_dms(channel, snapshot.table_id)
                self._swept.add(pair)
            message = await channel.send(
                surface.content,
                file=await self._file(surface, language),
                view=surface.view or discord.utils.MISSING,
            )
        except discord.Forbidden:
            await self._dms_closed(snapshot)
            return
        self.hand_messages[(snapshot.table_id, snapshot.player)] = HandMessage(
            channel.id,
            message.id,
            snapshot.hand_id,
            version,
            (surface.content, surface.picture, language),
        )

    async def _retire_earlier_dms(self, channel: discord.DMChannel, table_id: int) -> None:
        """Take the controls off this table's hand DMs sent before this process knew them
        (before a restart): the hand is sent again as a new DM, and the old one's buttons
        should not look alive. Its last few messages are enough: each decision is a new DM,
        and the newest earlier one is the only one that kept its controls."""
        try:
            async for old in channel.history(limit=EARLIER_DMS):
                if self.bot.user is None or old.author.id != self.bot.user.id:
                    continue
                names = [
                    getattr(child, "custom_id", None) or ""
                    for row in old.components
                    for child in getattr(row, "children", ())
                ]
                if any(ids.table_of(name) == table_id for name in names):
                    await old.edit(view=None)
        except discord.HTTPException:
            log.warning("could not take the controls off earlier DMs of table %d", table_id)

    def _dm_partial(self, message: HandMessage) -> discord.PartialMessage:
        return self.bot.get_partial_messageable(message.channel_id).get_partial_message(
            message.message_id
        )

    def _dms_closed_for(self, snapshot: PrivateSnapshot) -> bool:
        hand_id, players = self._closed_dms.get(snapshot.table_id, (None, set()))
        return hand_id == snapshot.hand_id and snapshot.player_id in players

    async def _dms_closed(self, snapshot: PrivateSnapshot) -> None:
        """Note a closed DM for this hand and tell the player, once, in the channel."""
        table_id = snapshot.table_id
        hand_id, players = self._closed_dms.get(table_id, (None, set()))
        if hand_id != snapshot.hand_id:
            players = set()
        players.add(snapshot.player_id)
        self._closed_dms[table_id] = (snapshot.hand_id, players)
        if snapshot.channel_id is None:
            return
        channel = self.bot.get_partial_messageable(snapshot.channel_id, guild_id=snapshot.guild_id)
        notice = text("bot.front.dms_closed", who=mention(snapshot.player_id), table=table_id)
        await channel.send(notice.in_language(self.table_language(snapshot)))
