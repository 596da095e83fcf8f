"""The runtime's front end on Discord: the table message, each player's hand DM, results.

Runtime notices only mark messages dirty; the updates run in `Coalescer` workers (one per
message, at most one edit per interval, the latest state wins), so the runtime never waits on
Discord and fast play never trips rate limits.

A player's hand message: each new decision of their own (their turn, an opening choice) is a
new DM, so Discord notifies them; everything else edits the latest DM in place (the picture
after a discard, the controls taken away when a clock plays for them). When a DM cannot be
delivered, the player is mentioned once per hand in the channel and plays through the
ephemeral "My hand" / `/mahjong hand`.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord

from bot.discord.coalesce import Coalescer
from bot.discord.surface import (
    Surface,
    hand_surface,
    mention,
    private_decision,
    result_surface,
    table_surface,
    table_url,
)
from bot.runtime import LiveTable, Seat
from data import Phase
from engine.actions import Action

if TYPE_CHECKING:
    from bot.discord.client import MahjongBot

log = logging.getLogger(__name__)
QUICKPLAY_NAME = "Quick Play"  # the name the runtime gives Quick Play tables


@dataclass
class HandMessage:
    """The DM that currently shows a player's hand at one table."""

    channel_id: int
    message_id: int
    hand_id: int | None
    version: int | None  # the decision version its controls were drawn for; None: no controls
    shown: tuple[str, object] | None = None  # (text, picture) it shows, None if unknown


class DiscordFront:
    """Implements the runtime's FrontEnd protocol on Discord."""

    def __init__(self, bot: MahjongBot, interval: float = 1.0) -> None:
        self.bot = bot
        self.updates = Coalescer(interval)
        self.hand_messages: dict[tuple[int, int], HandMessage] = {}
        self._closed_dms: dict[int, tuple[int | None, set[str]]] = {}  # table -> (hand, ids)
        self._posts: set[asyncio.Task[None]] = set()
        self._announced: set[int] = set()  # Quick Play tables whose players were pinged

    # ------------------------------------------------------------------ FrontEnd

    async def table_changed(self, table: LiveTable) -> None:
        self.update_table(table)
        if table.name == QUICKPLAY_NAME and table.id not in self._announced:
            self._spawn(self._announce_quickplay(table))

    async def hand_changed(self, table: LiveTable, player: int) -> None:
        self._update_hand(table, player)

    async def decision(
        self, table: LiveTable, player: int, actions: list[Action], deadline: float | None
    ) -> None:
        self._update_hand(table, player)

    async def hand_ended(self, table: LiveTable) -> None:
        if table.channel_id is not None:
            surface = result_surface(table, self.channel_name(table))  # as it stands now
            self._spawn(self._post(table, surface))
        for player in table.humans:
            self._update_hand(table, player)

    async def table_closed(self, table: LiveTable, reason: str) -> None:
        self.update_table(table, closed=reason)
        for player in table.humans:
            self._update_hand(table, player)
        self._spawn(self._forget(table))

    # ------------------------------------------------------------------ requests

    def update_table(self, table: LiveTable, *, closed: str | None = None) -> None:
        """Bring the table message up to date soon (posting it if it has none)."""
        if table.channel_id is None:
            return
        self.updates.request(("table", table.id), lambda: self._flush_table(table, closed))

    def _update_hand(self, table: LiveTable, player: int) -> None:
        seat = table.seats[player]
        if seat is None or not seat.human:
            return
        key = ("hand", table.id, player)
        self.updates.request(key, lambda: self._flush_hand(table, player))

    async def settled(self, table: LiveTable) -> None:
        """Wait until the table message shows the latest state."""
        await self.updates.wait(("table", table.id))

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
            message.channel.id, message.id, table.hand_id, version=-1
        )

    async def _forget(self, table: LiveTable) -> None:
        """Once a closed table's last updates are out, drop what was kept about its messages."""
        await self.settled(table)
        for player in range(4):
            await self.updates.wait(("hand", table.id, player))
            self.hand_messages.pop((table.id, player), None)
        self.bot.painter.remember(("table", table.id), None)
        self._closed_dms.pop(table.id, None)
        self._announced.discard(table.id)

    def channel_name(self, table: LiveTable) -> str:
        """The name of the table's channel, if the bot knows it."""
        channel = self.bot.get_channel(table.channel_id) if table.channel_id else None
        return getattr(channel, "name", "") or ""

    # ------------------------------------------------------------------ the table message

    async def _flush_table(self, table: LiveTable, closed: str | None) -> None:
        assert table.channel_id is not None
        surface = table_surface(table, self.channel_name(table), closed_reason=closed)
        painter = self.bot.painter
        key = ("table", table.id)
        files = []
        if surface.picture is not None and not painter.unchanged(key, surface.picture):
            files = [await self._file(surface)]
        channel = self.bot.get_partial_messageable(table.channel_id, guild_id=table.guild_id)
        if table.message_id is not None:
            kwargs: dict[str, Any] = {"embed": surface.embed, "view": surface.view}
            if files:
                kwargs["attachments"] = files
            elif surface.picture is None:
                kwargs["attachments"] = []
            try:
                await channel.get_partial_message(table.message_id).edit(**kwargs)
            except discord.NotFound:
                log.warning("table %s: its message is gone; posting a new one", table.id)
                table.message_id = None
                painter.remember(key, None)
                files = [await self._file(surface)] if surface.picture is not None else []
            else:
                painter.remember(key, surface.picture)
                return
        if closed is not None:
            return
        message = await channel.send(
            embed=surface.embed, view=surface.view or discord.utils.MISSING,
            files=files or discord.utils.MISSING,
        )  # fmt: skip
        painter.remember(key, surface.picture)
        table.message_id = message.id
        await self.bot.store.set_message_id(table.id, message.id)

    async def _announce_quickplay(self, table: LiveTable) -> None:
        """Ping the people a Quick Play table was made for, once, with its link.

        They queued with a private reply and may have waited a while: an edit never notifies,
        so they get one short message when their table deals.
        """
        if table.id in self._announced or table.phase is Phase.LOBBY or table.channel_id is None:
            return
        self._announced.add(table.id)
        await self.settled(table)
        people = " ".join(mention(table.seat(p).player_id) for p in table.humans)
        channel = self.bot.get_partial_messageable(table.channel_id, guild_id=table.guild_id)
        await channel.send(f"{people}: your Quick Play table is ready: {table_url(table)}")

    async def _file(self, surface: Surface) -> discord.File:
        assert surface.picture is not None
        data = await self.bot.painter.png(surface.picture)
        return discord.File(io.BytesIO(data), filename=surface.filename)

    async def _post(self, table: LiveTable, surface: Surface) -> None:
        assert table.channel_id is not None
        files = [await self._file(surface)] if surface.picture is not None else []
        channel = self.bot.get_partial_messageable(table.channel_id, guild_id=table.guild_id)
        await channel.send(content=surface.content, embed=surface.embed, files=files)

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

    async def _flush_hand(self, table: LiveTable, player: int) -> None:
        seat = table.seats[player]
        if seat is None or not seat.human or table.hand is None or table.session is None:
            return
        if self._dms_closed_for(table, seat):
            return
        key = (table.id, player)
        surface = hand_surface(table, player, self.channel_name(table))
        decision = private_decision(table, player)
        version = decision[0] if decision else None
        current = self.hand_messages.get(key)
        if current is not None and current.hand_id != table.hand_id:
            current = None
        if current is None or (version is not None and version != current.version):
            await self._new_hand_message(table, player, seat, surface, version, current)
            return
        shown = (surface.content, surface.picture)
        if shown == current.shown and version == current.version:
            return
        kwargs: dict[str, Any] = {"content": surface.content, "view": surface.view}
        if current.shown is None or current.shown[1] != surface.picture:
            kwargs["attachments"] = [await self._file(surface)]
        partial = self._dm_partial(current)
        try:
            await partial.edit(**kwargs)
        except discord.NotFound:
            self.hand_messages.pop(key, None)
            return
        current.version, current.shown = version, shown

    async def _new_hand_message(
        self,
        table: LiveTable,
        player: int,
        seat: Seat,
        surface: Surface,
        version: int | None,
        previous: HandMessage | None,
    ) -> None:
        if previous is not None and previous.version is not None:
            # its controls are for a decision that is over: take them away
            with contextlib.suppress(discord.HTTPException):
                await self._dm_partial(previous).edit(view=None)
        try:
            channel = await self.bot.create_dm(discord.Object(int(seat.player_id)))
            message = await channel.send(
                surface.content,
                file=await self._file(surface),
                view=surface.view or discord.utils.MISSING,
            )
        except discord.Forbidden:
            await self._dms_closed(table, seat)
            return
        self.hand_messages[(table.id, player)] = HandMessage(
            channel.id, message.id, table.hand_id, version, (surface.content, surface.picture)
        )

    def _dm_partial(self, message: HandMessage) -> discord.PartialMessage:
        return self.bot.get_partial_messageable(message.channel_id).get_partial_message(
            message.message_id
        )

    def _dms_closed_for(self, table: LiveTable, seat: Seat) -> bool:
        hand_id, players = self._closed_dms.get(table.id, (None, set()))
        return hand_id == table.hand_id and seat.player_id in players

    async def _dms_closed(self, table: LiveTable, seat: Seat) -> None:
        """Note a closed DM for this hand and tell the player, once, in the channel."""
        hand_id, players = self._closed_dms.get(table.id, (None, set()))
        if hand_id != table.hand_id:
            players = set()
        players.add(seat.player_id)
        self._closed_dms[table.id] = (table.hand_id, players)
        if table.channel_id is None:
            return
        channel = self.bot.get_partial_messageable(table.channel_id, guild_id=table.guild_id)
        await channel.send(
            f"{mention(seat.player_id)} I cannot send you direct messages, so your hand at "
            f"Table #{table.id} stays here: press **My hand** on the table message or use "
            "`/mahjong hand` to see it and play (only you will see it)."
        )
