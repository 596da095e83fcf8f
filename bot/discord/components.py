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
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

import discord
from discord.ui import Button, DynamicItem, Select

from bot.discord import ids
from bot.discord.ids import Stamp
from bot.discord.replies import clicked_id, guarded, tell
from bot.runtime.words import in_words
from engine.actions import Action, ActionKind
from engine.i18n import text
from engine.tiles import InvalidNotationError, parse_tile

if TYPE_CHECKING:
    from bot.discord.client import MahjongBot
    from bot.discord.cogs.lobby import LobbyCog
    from bot.discord.cogs.play import PlayCog
    from bot.discord.cogs.replay import ReplayCog

Interaction = discord.Interaction[Any]
log = logging.getLogger(__name__)

TABLE_STYLES = {
    "join": discord.ButtonStyle.success,
    "leave": discord.ButtonStyle.secondary,
    "cpu": discord.ButtonStyle.secondary,
    "start": discord.ButtonStyle.primary,
    "hand": discord.ButtonStyle.secondary,
    "ready": discord.ButtonStyle.success,
}
CALL_STYLES = {
    "chow": discord.ButtonStyle.primary,
    "pung": discord.ButtonStyle.primary,
    "kong": discord.ButtonStyle.primary,
    "win": discord.ButtonStyle.success,
    "pass": discord.ButtonStyle.secondary,
}
LOBBY_VERBS = ("join", "leave", "cpu", "start")
NOTATION_LIMIT = 40  # characters; the longest action a control plays is far shorter


@dataclass
class Controls:
    """The cogs that answer clicks on the bot's controls; each sets itself here as it loads."""

    lobby: LobbyCog | None = None
    play: PlayCog | None = None
    replay: ReplayCog | None = None


def controls(interaction: Interaction) -> Controls:
    return cast("MahjongBot", interaction.client).controls


def _play(interaction: Interaction) -> PlayCog:
    play = controls(interaction).play
    if play is None:
        raise RuntimeError("no cog answers the table's controls (PlayCog is not loaded)")
    return play


def _lobby(interaction: Interaction) -> LobbyCog:
    lobby = controls(interaction).lobby
    if lobby is None:
        raise RuntimeError("no cog answers the lobby's controls (LobbyCog is not loaded)")
    return lobby


class SeatedOnly:
    """Mixin for items of one table: refuse, privately, anyone not seated at it."""

    table: int
    seated_only = True

    async def interaction_check(self, interaction: Interaction, /) -> bool:
        bot = cast("MahjongBot", interaction.client)
        table = bot.runtime.tables.get(self.table)
        if table is None:
            # a DM click for a table another process owns: handed to it (bot/discord/inbox.py)
            if not await bot.inbox.forward(interaction, self.table):
                await tell(interaction, text("bot.control.table_closed", table=self.table))
            return False
        if self.seated_only and table.player_of(str(interaction.user.id)) is None:
            await tell(interaction, text("bot.control.not_seated", table=self.table))
            return False
        return True


class TableButton(SeatedOnly, DynamicItem[Button[Any]], template=ids.TABLE_TEMPLATE):
    """Join, Leave, Add computer, Start, My hand, Ready: one table's own buttons."""

    def __init__(
        self, table: int, verb: str, stamp: Stamp, label: str | None = None, language: str = "en"
    ) -> None:
        button: Button[Any] = Button(
            label=label or text(f"bot.button.{verb}").in_language(language),
            style=TABLE_STYLES[verb],
            custom_id=ids.table_id(table, verb, stamp),
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
        work: Awaitable[None]
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

    def __init__(
        self, table: int, stamp: Stamp, kind: str, language: str = "en", vocabulary: str = ""
    ) -> None:
        button: Button[Any] = Button(
            label=in_words(f"bot.call.{kind}", vocabulary).in_language(language),
            style=CALL_STYLES[kind],
            custom_id=ids.call_id(table, stamp, kind),
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


async def play_action(
    interaction: Interaction, table: int, stamp: Stamp, build: Callable[[], Action]
) -> None:
    """Hand a private control's action to the play cog; a control whose id or values do not
    make an action (forged, damaged) is refused privately."""
    try:
        action = build()
    except (InvalidNotationError, ValueError, IndexError) as error:
        log.info("a damaged control on table %s: %s", table, error)
        return await tell(interaction, text("bot.control.damaged"))
    await guarded(interaction, _play(interaction).on_act(interaction, table, stamp, action))


class ActButton(SeatedOnly, DynamicItem[Button[Any]], template=ids.ACT_TEMPLATE):
    """A private control playing one action of one seat: discard 5m, win, kong, void m.

    Its id holds the action in the engine's notation (`ids.action_value`), read back with
    `ids.action_of`: the one encoding every private control uses."""

    def __init__(
        self,
        table: int,
        stamp: Stamp,
        seat: int,
        value: str,
        *,
        label: str = "",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        row: int | None = None,
    ) -> None:
        kind, _, arg = value.partition(" ")
        custom_id = ids.act_id(table, stamp, seat, kind, arg)
        button: Button[Any] = Button(label=label or value, style=style, custom_id=custom_id)
        super().__init__(button, row=row)
        self.table, self.stamp, self.seat, self.value = table, stamp, seat, value

    @classmethod
    def of(cls, table: int, stamp: Stamp, action: Action, **kwargs: Any) -> ActButton:
        """The button that plays `action`."""
        return cls(table, stamp, action.seat, ids.action_value(action), **kwargs)

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ActButton:
        value = match["kind"] + (f" {match['arg']}" if match["arg"] else "")
        return cls(int(match["table"]), Stamp.of(match), int(match["seat"]), value)

    async def callback(self, interaction: Interaction) -> None:
        def build() -> Action:
            return ids.action_of(self.seat, self.value)

        await play_action(interaction, self.table, self.stamp, build)


class ActSelect(SeatedOnly, DynamicItem[Select[Any]], template=ids.PICK_TEMPLATE):
    """A private menu of one seat's actions (discards of a long hand, several chows); each
    option's value is an action as `ids.action_value` writes it."""

    def __init__(
        self,
        table: int,
        stamp: Stamp,
        seat: int,
        options: list[discord.SelectOption] | None = None,
        *,
        placeholder: str = "…",
        row: int | None = None,
        menu_number: int = 0,
    ) -> None:
        menu: Select[Any] = Select(
            custom_id=ids.pick_id(table, stamp, seat, menu_number),
            options=options or [],
            placeholder=placeholder,
        )
        super().__init__(menu, row=row)
        self.table, self.stamp, self.seat = table, stamp, seat

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ActSelect:
        number = int(match["menu"] or 0)
        return cls(int(match["table"]), Stamp.of(match), int(match["seat"]), menu_number=number)

    async def callback(self, interaction: Interaction) -> None:
        values = self.item.values

        def build() -> Action:
            if not values:
                raise ValueError("nothing was chosen")
            if len(values[0]) > NOTATION_LIMIT:  # no action is written this long: forged
                raise ValueError("an option value too long to be an action")
            return ids.action_of(self.seat, values[0])

        await play_action(interaction, self.table, self.stamp, build)


class TilesSelect(SeatedOnly, DynamicItem[Select[Any]], template=ids.TILES_TEMPLATE):
    """A private menu of three tiles to pass on or set aside (Sichuan openings).

    Option values are `index:tile` (tiles repeat, values may not), in hand order; the chosen
    tiles make the action directly, in the engine's tile order."""

    def __init__(
        self,
        table: int,
        stamp: Stamp,
        seat: int,
        kind: str,
        options: list[discord.SelectOption] | None = None,
        *,
        placeholder: str = "…",
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
        values = self.item.values

        def build() -> Action:
            tiles = sorted(parse_tile(value.partition(":")[2]) for value in values)
            return Action(self.seat, ActionKind(self.kind), tuple(tiles))

        await play_action(interaction, self.table, self.stamp, build)


class ToggleButton(SeatedOnly, DynamicItem[Button[Any]], template=ids.TOGGLE_TEMPLATE):
    """A player's switch of an automatic move on their hand message: Auto win, No calls,
    Auto discard (green when on). It names no moment: a switch is good at any time."""

    def __init__(self, table: int, toggle: str, on: bool = False, language: str = "en") -> None:
        state = text("bot.toggle.on" if on else "bot.toggle.off")
        label = text("bot.toggle.label", toggle=text(f"bot.toggle.{toggle}"), state=state)
        button: Button[Any] = Button(
            label=label.in_language(language),
            style=discord.ButtonStyle.success if on else discord.ButtonStyle.secondary,
            custom_id=ids.toggle_id(table, toggle),
        )
        super().__init__(button)
        self.table, self.toggle = table, toggle

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ToggleButton:
        return cls(int(match["table"]), match["toggle"])

    async def callback(self, interaction: Interaction) -> None:
        play = _play(interaction)
        await guarded(interaction, play.on_toggle(interaction, self.table, self.toggle))


DYNAMIC_ITEMS = (TableButton, CallButton, ActButton, ActSelect, TilesSelect, ToggleButton)
FOREIGN_KEY = "bot.control.foreign"
FOREIGN = str(text(FOREIGN_KEY))  # in English (each clicker gets their language)


async def answer_foreign(interaction: Interaction) -> None:
    """Answer, privately, a click none of our items will take: an id that is not ours (forged,
    damaged), or one its message does not show (discord.py drops those silently). Discord
    would otherwise show the clicker "interaction failed"."""
    if interaction.type is not discord.InteractionType.component:
        return
    clicked = clicked_id(interaction)
    if ids.ours(clicked) and clicked in _shown(interaction.message):
        return
    log.info("a click on a foreign control id (%d characters)", len(clicked))
    with contextlib.suppress(discord.HTTPException):
        await tell(interaction, text(FOREIGN_KEY))


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
