"""What the database remembers: /mahjong leaderboard, rating and history."""

from __future__ import annotations

import math
from typing import Any

import discord
from discord import app_commands

from bot.discord.cogs.base import MahjongCog
from bot.discord.options import DEFAULT_PRESET, OptionError, check_preset, preset_autocomplete
from bot.discord.replies import reader_language, tell
from bot.runtime.snapshots import preset_name
from data import HandRecord, SeatResult
from data.rating import PROVISIONAL_GAMES, START_RATING, display
from engine.i18n import DEFAULT_LANGUAGE, Text, text, translate

Interaction = discord.Interaction[Any]
PAGE_SIZE = 10
BOARD_FROM_GAMES = 1  # every rated player is on the board; the first 10 games are marked


def hands_text(games: int) -> Text:
    return text("bot.records.hand" if games == 1 else "bot.records.hands", games=games)


def hand_outcome(record: HandRecord, mine: SeatResult, language: str = DEFAULT_LANGUAGE) -> str:
    """What happened to one player in a finished hand: 'won 1, net -8', 'placed 3, -16'."""
    wins = sum(1 for seat in record.winners if seat == mine.seat)
    delta = f"{mine.delta:+d}"
    if wins:
        return translate(language, "bot.records.won", wins=wins, delta=delta)
    if record.outcome == "draw":
        return translate(language, "bot.records.draw", delta=delta)
    return translate(language, "bot.records.placed", placement=mine.placement, delta=delta)


def who(player_id: str) -> Text | str:
    """A player as the embed shows them: a mention for people (embeds do not ping)."""
    return f"<@{player_id}>" if player_id.isdigit() else text("bot.records.a_computer")


class RecordsCog(MahjongCog, name="Records"):
    """Ratings, leaderboards and hand history, read from the store."""

    @app_commands.command(name="leaderboard", description="The best rated players of a preset")
    @app_commands.describe(preset="the rules whose ratings to show", page="page number")
    @app_commands.autocomplete(preset=preset_autocomplete)
    async def leaderboard(
        self,
        interaction: Interaction,
        preset: str = DEFAULT_PRESET,
        page: app_commands.Range[int, 1, 10_000] = 1,
    ) -> None:
        """One page of a preset's leaderboard: every rated player, provisional ones marked."""
        found = check_preset(preset)
        if page < 1:
            raise OptionError(text("bot.records.page"))
        await interaction.response.defer(thinking=True)
        board = await self.bot.store.leaderboard(
            found.id, page, PAGE_SIZE, min_games=BOARD_FROM_GAMES
        )
        language = reader_language(interaction)
        title = text("bot.records.board_title", preset=preset_name(found)).in_language(language)
        embed = discord.Embed(title=title, colour=discord.Colour.gold())
        if not board.entries:
            empty = (
                text("bot.records.board_empty", preset=found.id)
                if board.total == 0
                else text("bot.records.board_past_end", page=page, pages=board.pages)
            )
            embed.description = empty.in_language(language)
        else:
            embed.description = "\n".join(
                text(
                    "bot.records.board_line_provisional"
                    if e.provisional
                    else "bot.records.board_line",
                    rank=e.rank,
                    who=who(e.player_id),
                    rating=e.display,
                    hands=hands_text(e.games),
                ).in_language(language)
                for e in board.entries
            )
        footer = text(
            "bot.records.board_footer",
            page=board.page,
            pages=board.pages,
            total=board.total,
            games=PROVISIONAL_GAMES,
        )
        embed.set_footer(text=footer.in_language(language))
        await interaction.followup.send(embed=embed)

    @app_commands.command(name="rating", description="Your rating (or someone else's), per preset")
    @app_commands.describe(user="whose rating (default: yours)")
    async def rating(self, interaction: Interaction, user: discord.User | None = None) -> None:
        """Every preset someone has played rated, with games and provisional status."""
        target = user or interaction.user
        if target.bot:
            return await tell(interaction, text("bot.records.no_rating_bot"))
        await interaction.response.defer(ephemeral=True, thinking=True)
        language = reader_language(interaction)
        rows = await self.bot.store.ratings_of(str(target.id))
        title = text("bot.records.ratings_title", name=target.display_name).in_language(language)
        embed = discord.Embed(title=title, colour=discord.Colour.blue())
        if not rows:
            none = text("bot.records.no_ratings", start=display(START_RATING))
            embed.description = none.in_language(language)
        for row in rows:
            key = "bot.records.rating_provisional" if row.provisional else "bot.records.rating"
            value = text(key, rating=row.display, hands=hands_text(row.games))
            embed.add_field(name=row.preset, value=value.in_language(language))
        await interaction.followup.send(embed=embed, ephemeral=True)

    @app_commands.command(name="history", description="Your last hands")
    async def history(self, interaction: Interaction) -> None:
        """Your ten most recent finished hands: result, points, rating change."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        user_id = str(interaction.user.id)
        records = await self.bot.store.recent_hands(user_id, 10)
        if not records:
            return await tell(interaction, text("bot.records.no_hands"))
        language = reader_language(interaction)
        lines = []
        for record in records:
            mine = next((s for s in record.seats if s.player_id == user_id), None)
            if mine is None:
                continue
            change = next((c for c in record.rating_changes if c.player_id == user_id), None)
            rated: Text | str = ""
            if change:
                rated = text("bot.records.rating_change", delta=f"{change.display_delta:+d}")
            line = text(
                "bot.records.history_line",
                when=f"<t:{math.floor(record.finished_at)}:d>",
                table=record.table_id,
                number=record.hand_no + 1,
                preset=record.preset,
                outcome=hand_outcome(record, mine, language),
                rated=rated,
                hand=record.hand_id,
            )
            lines.append(line.in_language(language))
        title = text("bot.records.history_title").in_language(language)
        embed = discord.Embed(title=title, description="\n".join(lines))
        await interaction.followup.send(embed=embed, ephemeral=True)
