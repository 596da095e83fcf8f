"""Playing a hand: /mahjong hand, the My hand and Ready buttons, the public calls, and the
private controls (discards, self-drawn wins, kongs, opening choices)."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.discord import ids
from bot.discord.cogs.base import MahjongCog
from bot.discord.options import pick_table
from bot.discord.replies import reader_language, tell
from bot.discord.surface import CALL_QUESTIONS, call_choice, hand_surface
from bot.runtime import LiveTable, PrivateSnapshot
from bot.runtime.automatic import toggles_of
from bot.runtime.toggles import set_toggle
from bot.runtime.words import in_words, suit_text
from data import Phase
from engine.actions import Action
from engine.i18n import Text, text
from engine.names import vocabulary_key
from engine.tiles import format_tiles

Interaction = discord.Interaction[Any]


def _stale(private: PrivateSnapshot, stamp: ids.Stamp) -> Text | None:
    """Why a control drawn at `stamp` no longer applies (None: it is for this very moment)."""
    hand, moment = private.stamp
    if stamp.hand != hand:
        return text("bot.play.stale_hand")
    if private.phase is not Phase.PLAYING or stamp.version != moment:
        return text("bot.play.stale")
    return None


def done_text(action: Action, vocabulary: str = "") -> Text:
    """What the player just did, in words (private), in the preset's `vocabulary`."""
    key = vocabulary_key(f"bot.done.{action.kind.value}", vocabulary)
    return Text(key, {"tiles": format_tiles(action.tiles), "suit": suit_text(action.suit)})


class PlayCog(MahjongCog, name="Play"):
    """A hand in play, as its players meet it."""

    async def cog_load(self) -> None:
        self.bot.controls.play = self

    # ------------------------------------------------------------------ your hand, privately

    @app_commands.command(name="hand", description="Show your hand again, privately")
    async def hand(self, interaction: Interaction) -> None:
        """Your hand at your table here (or your only table), with its controls."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        user_id = str(interaction.user.id)
        playing = [t for t in self.bot.runtime.tables_of(user_id) if t.hand is not None]
        table = pick_table(playing, interaction.channel_id)
        if table is None:
            return await tell(interaction, text("bot.play.no_hand_here"))
        await self._send_hand(interaction, table)

    async def on_my_hand(self, interaction: Interaction, table_id: int) -> None:
        """The My hand button: the clicker's own hand, only to them."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self._send_hand(interaction, self.bot.runtime.get(table_id))

    async def _send_hand(self, interaction: Interaction, table: LiveTable) -> None:
        player = table.player_of(str(interaction.user.id))
        if player is None:
            return await tell(interaction, text("bot.play.not_seated", table=table.id))
        if table.hand is None:
            return await tell(interaction, text("bot.play.no_hand_yet", table=table.id))
        private = self.bot.runtime.private_view(table.id, str(interaction.user.id))
        language = reader_language(interaction)
        surface = hand_surface(private, self.bot.front.channel_name(table.channel_id), language)
        assert surface.picture is not None
        file = await self.bot.painter.file(surface.picture, surface.filename, language)
        await interaction.followup.send(
            surface.content,
            file=file,
            view=surface.view or discord.utils.MISSING,
            ephemeral=True,
        )

    async def on_toggle(self, interaction: Interaction, table_id: int, toggle: str) -> None:
        """A switch of an automatic move on the hand message: stored with the table, then the
        hand message drawn again with the switch's new state."""
        await interaction.response.defer()
        user_id = str(interaction.user.id)
        runtime = self.bot.runtime
        on = toggle not in toggles_of(runtime.get(table_id), user_id)
        await set_toggle(runtime, table_id, user_id, toggle, on)
        await runtime.refresh(table_id, user_id)

    # ------------------------------------------------------------------ between hands

    async def on_ready(self, interaction: Interaction, table_id: int, stamp: ids.Stamp) -> None:
        """The Ready button (of the hand just finished): the next hand deals when all are ready."""
        await interaction.response.defer()
        await self.bot.runtime.ready(table_id, str(interaction.user.id), stamp.hand)

    # ------------------------------------------------------------------ calls and actions

    async def on_call(
        self, interaction: Interaction, table_id: int, stamp: ids.Stamp, kind: str
    ) -> None:
        """A public call button: play it for the clicker's seat if it is theirs to make."""
        await interaction.response.defer()
        user_id = str(interaction.user.id)
        table = self.bot.runtime.get(table_id)
        if table.player_of(user_id) is None:
            return await tell(interaction, text("bot.play.not_seated", table=table_id))
        private = self.bot.runtime.private_view(table_id, user_id)
        if (stale := _stale(private, stamp)) is not None:
            return await tell(interaction, stale)
        decision = private.decision
        options = decision.options(kind) if decision and decision.kind == "claim" else ()
        if not options:
            # only about the presser's own tiles: nothing about anyone else's
            if kind == "pass":
                return await tell(interaction, text("bot.play.no_call"))
            vocabulary = table.preset.vocabulary
            return await tell(interaction, in_words(f"bot.play.cannot.{kind}", vocabulary))
        if len(options) > 1:  # several chows, or a five and its red five to call with
            assert decision is not None
            language = reader_language(interaction)
            question_key = CALL_QUESTIONS.get(kind, "bot.play.which_tiles")
            vocabulary = table.preset.vocabulary
            await interaction.followup.send(
                in_words(question_key, vocabulary).in_language(language),
                view=call_choice(table_id, stamp, kind, decision, language),
                ephemeral=True,
            )
            return
        await self._act(interaction, table_id, options[0], private.version, stamp)
        # what the presser did, and nothing about who else the window waits for
        await tell(interaction, done_text(options[0], table.preset.vocabulary))

    async def on_act(
        self, interaction: Interaction, table_id: int, stamp: ids.Stamp, action: Action
    ) -> None:
        """A private control (DM, My hand, a chow menu): play the action it carries."""
        await interaction.response.defer()
        table = self.bot.runtime.get(table_id)
        player = table.player_of(str(interaction.user.id))
        if player is None:
            return await tell(interaction, text("bot.play.not_seated", table=table_id))
        message = interaction.message
        private = message is not None and message.flags.ephemeral
        if message is not None and not private and message.guild is None:
            self.bot.front.adopt_hand_message(table, player, message)
        # controls name the hand and public moment they were drawn for; the runtime is given
        # the engine's version of the same decision (it refuses the answer if the hand moved on)
        private_view = self.bot.runtime.private_view(table_id, str(interaction.user.id))
        if (stale := _stale(private_view, stamp)) is not None:
            return await tell(interaction, stale)
        await self._act(interaction, table_id, action, private_view.version, stamp)
        if private:
            said = done_text(action, table.preset.vocabulary)
            done = text("bot.play.done_press_my_hand", done=said)
            content = done.in_language(reader_language(interaction))
            await interaction.edit_original_response(content=content, view=None, attachments=[])

    async def _act(
        self,
        interaction: Interaction,
        table_id: int,
        action: Action,
        version: int,
        stamp: ids.Stamp,
    ) -> None:
        """Play `action` for the clicker (a refusal raises, and `guarded` tells them)."""
        user_id = str(interaction.user.id)
        await self.bot.runtime.act(table_id, user_id, action, version, stamp.hand, stamp.version)
