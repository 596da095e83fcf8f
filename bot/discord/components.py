"""The bot's buttons and select menus, as DynamicItems that rebuild themselves from custom ids.

An item knows only what its id says (table, verb, stamp: hand and version, seat, argument); it
refuses people who are not seated at the table in `interaction_check` (privately) and hands
every other click to the cog that owns the concern. A click on an id that is not one of ours
(forged, damaged) gets a private answer too (`answer_foreign`). No game logic lives here.
"""

from __future__ import annotations

import contextlib
import logging
import re
from collections.abc import Awaitable
from typing import TYPE_CHECKING, Any, cast

import discord
from discord.ui import Button, DynamicItem, Select

from bot.discord import ids
from bot.discord.ids import Stamp

if TYPE_CHECKING:
    from bot.discord.client import MahjongBot
    from bot.discord.cogs.lobby import LobbyCog
    from bot.discord.cogs.play import PlayCog

Interaction = discord.Interaction[Any]
log = logging.getLogger(__name__)

TABLE_LABELS = {
    "join": ("Join", discord.ButtonStyle.success),
    "leave": ("Leave", discord.ButtonStyle.secondary),
    "cpu": ("Add computer", discord.ButtonStyle.secondary),
    "start": ("Start", discord.ButtonStyle.primary),
    "hand": ("My hand", discord.ButtonStyle.secondary),
    "ready": ("Ready", discord.ButtonStyle.success),
}
CALL_LABELS = {
    "chow": ("Chow", discord.ButtonStyle.primary),
    "pung": ("Pung", discord.ButtonStyle.primary),
    "kong": ("Kong", discord.ButtonStyle.primary),
    "win": ("Win", discord.ButtonStyle.success),
    "pass": ("Pass", discord.ButtonStyle.secondary),
}
LOBBY_VERBS = ("join", "leave", "cpu", "start")


async def tell(interaction: Interaction, text: str, **kwargs: Any) -> None:
    """Answer privately: as the response if none was sent yet, else as a follow-up."""
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True, **kwargs)
    else:
        await interaction.response.send_message(text, ephemeral=True, **kwargs)


def sentence(error: Exception | str) -> str:
    """A message as a sentence: the runtime's start in lower case and may lack a full stop."""
    text = str(error)
    return text[:1].upper() + text[1:] + ("" if text.endswith((".", "!", "?", ")")) else ".")


async def guarded(interaction: Interaction, work: Awaitable[None]) -> None:
    """Run a click's handler; on an unexpected error, log it and tell the clicker privately."""
    try:
        await work
    except Exception:
        custom_id = interaction.data.get("custom_id") if interaction.data else None
        log.exception("handling %s failed", custom_id)
        with contextlib.suppress(discord.HTTPException):
            await tell(interaction, "Something went wrong on our side; it has been logged.")


def _bot(interaction: Interaction) -> MahjongBot:
    return cast("MahjongBot", interaction.client)


def _play(interaction: Interaction) -> PlayCog:
    return cast("PlayCog", _bot(interaction).get_cog("Play"))


def _lobby(interaction: Interaction) -> LobbyCog:
    return cast("LobbyCog", _bot(interaction).get_cog("Lobby"))


class SeatedOnly:
    """Mixin for items of one table: refuse, privately, anyone not seated at it."""

    table: int
    seated_only = True

    async def interaction_check(self, interaction: Interaction, /) -> bool:
        runtime = _bot(interaction).runtime
        table = runtime.tables.get(self.table)
        if table is None:
            await tell(
                interaction, f"Table #{self.table} is closed: these controls do nothing now."
            )
            return False
        if self.seated_only and table.player_of(str(interaction.user.id)) is None:
            await tell(
                interaction,
                f"You are not seated at Table #{self.table}: these controls are for its players.",
            )
            return False
        return True


class TableButton(SeatedOnly, DynamicItem[Button[Any]], template=ids.TABLE_TEMPLATE):
    """Join, Leave, Add computer, Start, My hand, Ready: one table's own buttons."""

    def __init__(self, table: int, verb: str, stamp: Stamp, label: str | None = None) -> None:
        text, style = TABLE_LABELS[verb]
        button: Button[Any] = Button(
            label=label or text, style=style, custom_id=ids.table_id(table, verb, stamp)
        )
        super().__init__(button)
        self.table, self.verb, self.stamp = table, verb, stamp
        self.seated_only = verb != "join"

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> TableButton:
        return cls(int(match["table"]), match["verb"], Stamp.of(match))

    async def callback(self, interaction: Interaction) -> None:
        if self.verb in LOBBY_VERBS:
            lobby = _lobby(interaction)
            work = lobby.on_lobby_button(interaction, self.table, self.verb, self.stamp)
        elif self.verb == "hand":
            work = _play(interaction).on_my_hand(interaction, self.table)
        else:
            work = _play(interaction).on_ready(interaction, self.table, self.stamp)
        await guarded(interaction, work)


class CallButton(SeatedOnly, DynamicItem[Button[Any]], template=ids.CALL_TEMPLATE):
    """A public call on the latest discard (or a kong to rob): Chow, Pung, Kong, Win, Pass."""

    def __init__(self, table: int, stamp: Stamp, kind: str) -> None:
        label, style = CALL_LABELS[kind]
        button: Button[Any] = Button(
            label=label, style=style, custom_id=ids.call_id(table, stamp, kind)
        )
        super().__init__(button)
        self.table, self.stamp, self.kind = table, stamp, kind

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> CallButton:
        return cls(int(match["table"]), Stamp.of(match), match["kind"])

    async def callback(self, interaction: Interaction) -> None:
        play = _play(interaction)
        await guarded(interaction, play.on_call(interaction, self.table, self.stamp, self.kind))


class ActButton(SeatedOnly, DynamicItem[Button[Any]], template=ids.ACT_TEMPLATE):
    """A private control playing one action of one seat: discard 5m, win, kong, void m."""

    def __init__(
        self,
        table: int,
        stamp: Stamp,
        seat: int,
        kind: str,
        arg: str = "",
        *,
        label: str = "",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        row: int | None = None,
    ) -> None:
        custom_id = ids.act_id(table, stamp, seat, kind, arg)
        button: Button[Any] = Button(label=label or kind, style=style, custom_id=custom_id)
        super().__init__(button, row=row)
        self.table, self.stamp, self.seat, self.kind, self.arg = table, stamp, seat, kind, arg

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ActButton:
        return cls(
            int(match["table"]),
            Stamp.of(match),
            int(match["seat"]),
            match["kind"],
            match["arg"] or "",
        )

    @property
    def notation(self) -> str:
        """The action in the engine's notation, e.g. '2 discard 5m'."""
        return f"{self.seat} {self.kind}" + (f" {self.arg}" if self.arg else "")

    async def callback(self, interaction: Interaction) -> None:
        play = _play(interaction)
        await guarded(
            interaction, play.on_act(interaction, self.table, self.stamp, [self.notation])
        )


class ActSelect(SeatedOnly, DynamicItem[Select[Any]], template=ids.PICK_TEMPLATE):
    """A private menu of one seat's actions (discards of a long hand, several chows)."""

    def __init__(
        self,
        table: int,
        stamp: Stamp,
        seat: int,
        options: list[discord.SelectOption] | None = None,
        *,
        placeholder: str = "Choose…",
        row: int | None = None,
    ) -> None:
        menu: Select[Any] = Select(
            custom_id=ids.pick_id(table, stamp, seat),
            options=options or [],
            placeholder=placeholder,
        )
        super().__init__(menu, row=row)
        self.table, self.stamp, self.seat = table, stamp, seat

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ActSelect:
        return cls(int(match["table"]), Stamp.of(match), int(match["seat"]))

    async def callback(self, interaction: Interaction) -> None:
        chosen = [f"{self.seat} {value}" for value in self.item.values[:1]]
        play = _play(interaction)
        await guarded(interaction, play.on_act(interaction, self.table, self.stamp, chosen))


class TilesSelect(SeatedOnly, DynamicItem[Select[Any]], template=ids.TILES_TEMPLATE):
    """A private menu of three tiles to pass on or set aside (Sichuan openings).

    Option values are `index:tile` (tiles repeat, values may not), in hand order.
    """

    def __init__(
        self,
        table: int,
        stamp: Stamp,
        seat: int,
        kind: str,
        options: list[discord.SelectOption] | None = None,
        *,
        placeholder: str = "Choose three tiles of one suit",
        row: int | None = None,
    ) -> None:
        count = min(3, len(options)) if options else 3
        menu: Select[Any] = Select(
            custom_id=ids.tiles_id(table, stamp, seat, kind),
            options=options or [],
            placeholder=placeholder,
            min_values=count,
            max_values=count,
        )
        super().__init__(menu, row=row)
        self.table, self.stamp, self.seat, self.kind = table, stamp, seat, kind

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> TilesSelect:
        return cls(int(match["table"]), Stamp.of(match), int(match["seat"]), match["kind"])

    async def callback(self, interaction: Interaction) -> None:
        tiles = "".join(sorted((value.partition(":")[2] for value in self.item.values), key=_order))
        chosen = [f"{self.seat} {self.kind} {tiles}"]
        play = _play(interaction)
        await guarded(interaction, play.on_act(interaction, self.table, self.stamp, chosen))


def _order(tile: str) -> tuple[str, str]:
    return (tile[-1:], tile[:-1])  # (a forged value may be empty)


DYNAMIC_ITEMS = (TableButton, CallButton, ActButton, ActSelect, TilesSelect)
FOREIGN = "That control is not one of this bot's, or it is damaged: it does nothing."


async def answer_foreign(interaction: Interaction) -> None:
    """Answer, privately, a click none of our items will take: an id that is not ours (forged,
    damaged), or one its message does not show (discord.py drops those silently). Discord
    would otherwise show the clicker "interaction failed"."""
    if interaction.type is not discord.InteractionType.component:
        return
    custom_id = str(interaction.data.get("custom_id", "") if interaction.data else "")
    if ids.ours(custom_id) and custom_id in _shown(interaction.message):
        return
    log.info("a click on a foreign control id (%d characters)", len(custom_id))
    with contextlib.suppress(discord.HTTPException):
        await tell(interaction, FOREIGN)


def _shown(message: discord.Message | None) -> set[str]:
    """The custom ids of the components a message shows."""
    found: set[str] = set()
    rows: list[Any] = list(message.components) if message is not None else []
    while rows:
        item = rows.pop()
        rows.extend(getattr(item, "children", ()))
        if isinstance(getattr(item, "custom_id", None), str):
            found.add(item.custom_id)
    return found
