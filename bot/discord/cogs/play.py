"""Playing a hand: /mahjong hand, the My hand and Ready buttons, the public calls, and the
private controls (discards, self-drawn wins, kongs, opening choices)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord import ids
from bot.discord.components import sentence, tell
from bot.discord.options import pick_table
from bot.discord.surface import chow_choice, hand_surface
from bot.runtime import LiveTable, PrivateSnapshot, TableError
from bot.runtime.snapshots import suit_word
from data import Phase
from engine.actions import Action, ActionKind
from engine.tiles import InvalidNotationError, format_tiles

if TYPE_CHECKING:
    from bot.discord.client import MahjongBot

Interaction = discord.Interaction[Any]


def _stale(private: PrivateSnapshot, stamp: ids.Stamp) -> str | None:
    """Why a control drawn at `stamp` no longer applies (None: it is for this very moment)."""
    hand, moment = private.stamp
    if stamp.hand != hand:
        return STALE_HAND
    if private.phase is not Phase.PLAYING or stamp.version != moment:
        return STALE
    return None


STALE = (
    "That control was for an earlier moment of the hand and the table has moved on; "
    "press **My hand** (or `/mahjong hand`) for your hand as it is now."
)
STALE_HAND = (
    "That control was for an earlier hand; "
    "press **My hand** (or `/mahjong hand`) for your hand as it is now."
)
NOTATION_LIMIT = 40  # characters; the longest action a control plays is far shorter
DONE = {
    ActionKind.DISCARD: "You discarded {tiles}.",
    ActionKind.WIN: "You declared a win.",
    ActionKind.CHOW: "You called chow {tiles}.",
    ActionKind.PUNG: "You called pung.",
    ActionKind.KONG: "You called kong.",
    ActionKind.PASS: "You passed.",
    ActionKind.CONCEALED_KONG: "You declared a kong of {tiles}.",
    ActionKind.ADDED_KONG: "You added {tiles} to your pung.",
    ActionKind.SWAP: "You pass on {tiles}.",
    ActionKind.REMOVE: "You set aside {tiles}.",
    ActionKind.VOID: "You play without {suit}.",
}


def done_text(action: Action) -> str:
    """What the player just did, in words (private)."""
    return DONE.get(action.kind, "Done.").format(
        tiles=format_tiles(action.tiles), suit=suit_word(action.suit)
    )


class PlayCog(commands.Cog, name="Play"):
    """A hand in play, as its players meet it."""

    def __init__(self, bot: MahjongBot) -> None:
        self.bot = bot

    # ------------------------------------------------------------------ your hand, privately

    @app_commands.command(name="hand", description="Show your hand again, privately")
    async def hand(self, interaction: Interaction) -> None:
        """Your hand at your table here (or your only table), with its controls."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        user_id = str(interaction.user.id)
        playing = [t for t in self.bot.runtime.tables_of(user_id) if t.hand is not None]
        table = pick_table(playing, interaction.channel_id)
        if table is None:
            return await tell(interaction, "You have no hand in play here.")
        await self._send_hand(interaction, table)

    async def on_my_hand(self, interaction: Interaction, table_id: int) -> None:
        """The My hand button: the clicker's own hand, only to them."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            table = self.bot.runtime.get(table_id)
        except TableError as error:
            return await tell(interaction, sentence(error))
        await self._send_hand(interaction, table)

    async def _send_hand(self, interaction: Interaction, table: LiveTable) -> None:
        player = table.player_of(str(interaction.user.id))
        if player is None:
            return await tell(interaction, f"You are not seated at Table #{table.id}.")
        if table.hand is None:
            return await tell(interaction, f"No hand is in play at Table #{table.id} yet.")
        private = self.bot.runtime.private_view(table.id, str(interaction.user.id))
        surface = hand_surface(private, self.bot.front.channel_name(table.channel_id))
        assert surface.picture is not None
        file = await self.bot.painter.file(surface.picture, surface.filename)
        await interaction.followup.send(
            surface.content,
            file=file,
            view=surface.view or discord.utils.MISSING,
            ephemeral=True,
        )

    # ------------------------------------------------------------------ between hands

    async def on_ready(self, interaction: Interaction, table_id: int, stamp: ids.Stamp) -> None:
        """The Ready button (of the hand just finished): the next hand deals when all are ready."""
        await interaction.response.defer()
        try:
            await self.bot.runtime.ready(table_id, str(interaction.user.id), stamp.hand)
        except TableError as error:
            await tell(interaction, sentence(error))

    # ------------------------------------------------------------------ calls and actions

    async def on_call(
        self, interaction: Interaction, table_id: int, stamp: ids.Stamp, kind: str
    ) -> None:
        """A public call button: play it for the clicker's seat if it is theirs to make."""
        await interaction.response.defer()
        user_id = str(interaction.user.id)
        try:
            table = self.bot.runtime.get(table_id)
        except TableError as error:
            return await tell(interaction, sentence(error))
        if table.player_of(user_id) is None:
            return await tell(interaction, f"You are not seated at Table #{table_id}.")
        private = self.bot.runtime.private_view(table_id, user_id)
        if (stale := _stale(private, stamp)) is not None:
            return await tell(interaction, stale)
        decision = private.decision
        options = decision.options(kind) if decision and decision.kind == "claim" else ()
        if not options:
            # only about the presser's own tiles: nothing about anyone else's
            if kind == "pass":
                return await tell(interaction, "You have no call to make on this tile.")
            return await tell(interaction, f"You cannot {kind} this tile.")
        if len(options) > 1:
            await interaction.followup.send(
                "Which chow?", view=chow_choice(table_id, stamp, list(options)), ephemeral=True
            )
            return
        if await self._act(interaction, table_id, options[0], private.version, stamp.hand):
            # what the presser did, and nothing about who else the window waits for
            await tell(interaction, done_text(options[0]))

    async def on_act(
        self, interaction: Interaction, table_id: int, stamp: ids.Stamp, notations: list[str]
    ) -> None:
        """A private control (DM, My hand, a chow menu): play the action it names."""
        await interaction.response.defer()
        if not notations:
            return await tell(interaction, "Nothing was chosen.")
        if len(notations[0]) > NOTATION_LIMIT:  # no action is written this long: forged
            return await tell(interaction, "That control is damaged.")
        try:
            action = Action.parse(notations[0])
        except InvalidNotationError as error:
            return await tell(interaction, f"That control is damaged ({error}).")
        try:
            table = self.bot.runtime.get(table_id)
        except TableError as error:
            return await tell(interaction, sentence(error))
        player = table.player_of(str(interaction.user.id))
        if player is None:
            return await tell(interaction, f"You are not seated at Table #{table_id}.")
        message = interaction.message
        private = message is not None and message.flags.ephemeral
        if message is not None and not private and message.guild is None:
            self.bot.front.adopt_hand_message(table, player, message)
        # controls name the hand and public moment they were drawn for; the runtime is given
        # the engine's version of the same decision (it refuses the answer if the hand moved on)
        private_view = self.bot.runtime.private_view(table_id, str(interaction.user.id))
        if (stale := _stale(private_view, stamp)) is not None:
            return await tell(interaction, stale)
        if not await self._act(interaction, table_id, action, private_view.version, stamp.hand):
            return
        if private:
            text = f"{done_text(action)} Press **My hand** for your hand as it is now."
            await interaction.edit_original_response(content=text, view=None, attachments=[])

    async def _act(
        self, interaction: Interaction, table_id: int, action: Action, version: int, hand: int
    ) -> bool:
        try:
            user_id = str(interaction.user.id)
            await self.bot.runtime.act(table_id, user_id, action, version, hand)
        except TableError as error:
            await tell(interaction, sentence(error))
            return False
        return True
