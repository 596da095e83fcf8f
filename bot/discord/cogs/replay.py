"""/mahjong replay: a private, paged viewer of a finished hand with every hand open.

The viewer is one ephemeral message: the open table at one step, ⏮ ◀ ▶ ⏭ and a menu of the
hand's calls and wins. Its controls are DynamicItems whose ids name the hand and the frame
they lead to (`mj:replay:{hand}:{verb}:{frame}`), so they work after a restart; every click
checks again who may see the hand, since an id can be forged. The discord-free work (the
export, the frames) is bot/replay.py.
"""

from __future__ import annotations

import asyncio
import io
import re
from collections import OrderedDict
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ui import Button, DynamicItem, Select

from bot.discord import ids
from bot.discord.cogs.base import MahjongCog
from bot.discord.components import controls
from bot.discord.replies import guarded, reader_language, tell
from bot.replay import Frame, ReplayLog, frames, jumps, stored_replay
from bot.replay_tenhou6 import finished_game_export
from engine.i18n import Number, text

if TYPE_CHECKING:
    from bot.discord.client import MahjongBot

Interaction = discord.Interaction[Any]
PICTURE = "replay.png"
KEEP_HANDS = 8  # replays whose frames stay in memory, for paging without replaying
MENU_SIZE = 25  # Discord's most options in one select menu
NAV = {"first": "⏮", "prev": "◀", "next": "▶", "last": "⏭"}


def replay_button_id(hand_id: int, verb: str, frame: int) -> str:
    return f"{ids.PREFIX}:replay:{hand_id}:{verb}:{frame}"


def replay_jump_id(hand_id: int) -> str:
    return f"{ids.PREFIX}:replay:{hand_id}:jump"


def _cog(interaction: Interaction) -> ReplayCog:
    replay = controls(interaction).replay
    if replay is None:
        raise RuntimeError("no cog answers the replay viewer's controls (ReplayCog is not loaded)")
    return replay


class ReplayButton(DynamicItem[Button[Any]], template=ids.REPLAY_TEMPLATE):
    """⏮ ◀ ▶ ⏭ of a replay viewer: show frame `frame` of hand `hand`."""

    def __init__(self, hand: int, verb: str, frame: int, *, disabled: bool = False) -> None:
        button: Button[Any] = Button(
            label=NAV[verb],
            style=discord.ButtonStyle.secondary,
            custom_id=replay_button_id(hand, verb, frame),
            disabled=disabled,
            row=0,
        )
        super().__init__(button)
        self.hand, self.verb, self.frame = hand, verb, frame

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ReplayButton:
        return cls(int(match["hand"]), match["verb"], int(match["frame"]))

    async def callback(self, interaction: Interaction) -> None:
        await guarded(interaction, _cog(interaction).show(interaction, self.hand, self.frame))


class ReplayJump(DynamicItem[Select[Any]], template=ids.REPLAY_JUMP_TEMPLATE):
    """The viewer's menu of calls and wins; each option's value is a frame number."""

    def __init__(
        self, hand: int, options: list[discord.SelectOption] | None = None, language: str = "en"
    ) -> None:
        menu: Select[Any] = Select(
            custom_id=replay_jump_id(hand),
            options=options or [discord.SelectOption(label="-", value="0")],
            placeholder=text("bot.replay.jump").in_language(language),
            row=1,
        )
        super().__init__(menu)
        self.hand = hand

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ReplayJump:
        return cls(int(match["hand"]))

    async def callback(self, interaction: Interaction) -> None:
        value = self.item.values[0] if self.item.values else ""
        if not value.isdigit():
            return await tell(interaction, text("bot.replay.not_a_step"))
        await guarded(interaction, _cog(interaction).show(interaction, self.hand, int(value)))


def _menu(found: list[Frame], at: int, language: str) -> list[discord.SelectOption]:
    """Up to 25 calls and wins around frame `at`, each labelled with what happened."""
    marked = jumps(found)
    before = sum(1 for index in marked if index < at)
    start = max(0, min(before - MENU_SIZE // 2, len(marked) - MENU_SIZE))
    return [
        discord.SelectOption(
            label=f"{found[index].caption}"[:100],
            value=str(index),
            description=text(
                f"bot.replay.step_{found[index].mark or 'call'}", step=found[index].step
            ).in_language(language),
            default=index == at,
        )
        for index in marked[start : start + MENU_SIZE]
    ]


class ReplayCog(MahjongCog, name="Replay"):
    """Replays of finished hands, read from the store and drawn with every hand open."""

    def __init__(self, bot: MahjongBot) -> None:
        super().__init__(bot)
        self._frames: OrderedDict[int, tuple[ReplayLog, list[Frame]]] = OrderedDict()

    async def cog_load(self) -> None:
        self.bot.controls.replay = self
        self.bot.add_dynamic_items(ReplayButton, ReplayJump)

    async def hand_autocomplete(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[int]]:
        """The asker's recent finished hands whose id starts with what they typed."""
        records = await self.bot.store.recent_hands(str(interaction.user.id), MENU_SIZE)
        typed = current.strip().lstrip("#")
        language = reader_language(interaction)
        return [
            app_commands.Choice(
                name=text(
                    "bot.replay.choice",
                    hand=r.hand_id,
                    table=r.table_id,
                    number=r.hand_no + 1,
                    preset=r.preset,
                    outcome=text(f"bot.replay.outcome.{r.outcome}"),
                ).in_language(language)[:100],
                value=r.hand_id,
            )
            for r in records
            if str(r.hand_id).startswith(typed)
        ]

    @app_commands.command(name="replay", description="Replay a finished hand, every hand open")
    @app_commands.describe(
        hand="a hand id from /mahjong history", export="also attach the hand as a JSON log"
    )
    @app_commands.autocomplete(hand=hand_autocomplete)
    async def replay(
        self,
        interaction: Interaction,
        hand: app_commands.Range[int, 1, 2**53],
        export: bool = False,
    ) -> None:
        """A private viewer of one finished hand (a private table's only for its players)."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        log, found = await self._load(hand, str(interaction.user.id))
        embed, files, view = await self._page(log, found, 0, reader_language(interaction))
        if export:
            data = log.dumps().encode()
            files.append(discord.File(io.BytesIO(data), filename=f"hand-{hand}.json"))
            # a finished Riichi game: its hands as tenhou.net/6 JSON too, for the riichi tools
            game = await finished_game_export(self.bot.store, log, str(interaction.user.id))
            if game is not None:
                files.append(discord.File(io.BytesIO(game.text.encode()), filename=game.filename))
        await interaction.followup.send(embed=embed, files=files, view=view, ephemeral=True)

    async def show(self, interaction: Interaction, hand_id: int, frame: int) -> None:
        """A viewer control: the viewer's message now shows frame `frame`."""
        log, found = await self._load(hand_id, str(interaction.user.id))
        if not 0 <= frame < len(found):
            return await tell(interaction, text("bot.replay.no_step"))
        await interaction.response.defer()
        embed, files, view = await self._page(log, found, frame, reader_language(interaction))
        await interaction.edit_original_response(embed=embed, attachments=files, view=view)

    async def _load(self, hand_id: int, viewer_id: str) -> tuple[ReplayLog, list[Frame]]:
        """The hand and its frames; the access check runs every time, the replay once."""
        log = await stored_replay(self.bot.store, hand_id, viewer_id)
        cached = self._frames.get(hand_id)
        if cached is not None and cached[0] == log:
            self._frames.move_to_end(hand_id)
            return cached
        found = await asyncio.to_thread(frames, log)
        self._frames[hand_id] = (log, found)
        while len(self._frames) > KEEP_HANDS:
            self._frames.popitem(last=False)
        return log, found

    async def _page(
        self, log: ReplayLog, found: list[Frame], at: int, language: str
    ) -> tuple[discord.Embed, list[discord.File], discord.ui.View]:
        frame = found[at]
        lines = [
            text("bot.replay.step", step=frame.step, steps=len(log.actions), caption=frame.caption)
        ]
        if at == len(found) - 1:
            paid = [
                text("bot.payment.item", name=s.name, delta=Number(d, signed=True))
                for s, d in zip(log.seats, log.deltas, strict=True)
            ]
            lines.append(text("bot.replay.result", paid=text("bot.list", items=paid)))
        title = text(
            "bot.replay.title", table=log.table_id, number=log.hand_no + 1, preset=log.preset
        )
        embed = discord.Embed(
            title=title.in_language(language),
            description="\n".join(line.in_language(language) for line in lines),
            colour=discord.Colour.dark_teal(),
        )
        embed.set_image(url=f"attachment://{PICTURE}")
        footer = text("bot.replay.footer", hand=log.hand_id, frame=at + 1, frames=len(found))
        embed.set_footer(text=footer.in_language(language))
        last = len(found) - 1
        view = discord.ui.View(timeout=None)
        targets = {"first": 0, "prev": max(at - 1, 0), "next": min(at + 1, last), "last": last}
        for verb, target in targets.items():
            view.add_item(ReplayButton(log.hand_id or 0, verb, target, disabled=target == at))
        menu = _menu(found, at, language)
        if menu:
            view.add_item(ReplayJump(log.hand_id or 0, menu, language))
        picture = await self.bot.painter.file(frame.view, PICTURE, language)
        return embed, [picture], view
