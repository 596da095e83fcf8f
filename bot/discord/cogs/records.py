"""What the database remembers: /mahjong leaderboard, rating and history."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.components import sentence, tell
from bot.discord.options import DEFAULT_PRESET, OptionError, check_preset, preset_autocomplete
from data import HandRecord, SeatResult
from data.rating import PROVISIONAL_GAMES, START_RATING, display

if TYPE_CHECKING:
    from bot.discord.client import MahjongBot

Interaction = discord.Interaction[Any]
PAGE_SIZE = 10
BOARD_FROM_GAMES = 1  # every rated player is on the board; the first 10 games are marked


def hands_text(games: int) -> str:
    return f"{games} hand" + ("" if games == 1 else "s")


def hand_outcome(record: HandRecord, mine: SeatResult) -> str:
    """What happened to one player in a finished hand: 'won 1, net -8', 'placed 3, -16'."""
    wins = sum(1 for seat in record.winners if seat == mine.seat)
    if wins:
        return f"**won {wins}**, net {mine.delta:+d}"
    if record.outcome == "draw":
        return f"draw, {mine.delta:+d}"
    return f"placed {mine.placement}, {mine.delta:+d}"


def who(player_id: str) -> str:
    """A player as the embed shows them: a mention for people (embeds do not ping)."""
    return f"<@{player_id}>" if player_id.isdigit() else "a computer"


class RecordsCog(commands.Cog, name="Records"):
    """Ratings, leaderboards and hand history, read from the store."""

    def __init__(self, bot: MahjongBot) -> None:
        self.bot = bot

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
        try:
            found = check_preset(preset)
            if page < 1:
                raise OptionError("page: pages start at 1.")
        except OptionError as error:
            return await tell(interaction, sentence(error))
        await interaction.response.defer(thinking=True)
        board = await self.bot.store.leaderboard(
            found.id, page, PAGE_SIZE, min_games=BOARD_FROM_GAMES
        )
        embed = discord.Embed(title=f"Leaderboard · {found.name}", colour=discord.Colour.gold())
        if not board.entries:
            embed.description = (
                f"Nobody has played a rated hand of `{found.id}` yet."
                if board.total == 0
                else f"Page {page} is past the end: the board has {board.pages} page(s)."
            )
        else:
            embed.description = "\n".join(
                f"**{e.rank}.** {who(e.player_id)} · {e.display} · {hands_text(e.games)}"
                + (" · provisional" if e.provisional else "")
                for e in board.entries
            )
        embed.set_footer(
            text=f"page {board.page} of {board.pages} · {board.total} players · "
            f"provisional: fewer than {PROVISIONAL_GAMES} rated hands"
        )
        await interaction.followup.send(embed=embed)

    @app_commands.command(name="rating", description="Your rating (or someone else's), per preset")
    @app_commands.describe(user="whose rating (default: yours)")
    async def rating(self, interaction: Interaction, user: discord.User | None = None) -> None:
        """Every preset someone has played rated, with games and provisional status."""
        target = user or interaction.user
        if target.bot:
            return await tell(interaction, "User: bots and computer players have no rating.")
        await interaction.response.defer(ephemeral=True, thinking=True)
        rows = await self.bot.store.ratings_of(str(target.id))
        embed = discord.Embed(
            title=f"Ratings · {target.display_name}", colour=discord.Colour.blue()
        )
        if not rows:
            embed.description = (
                f"No rated hands yet: everyone starts at {display(START_RATING)}. "
                "Rated tables: `/mahjong create rated:True`."
            )
        for row in rows:
            mark = " (provisional)" if row.provisional else ""
            embed.add_field(name=row.preset, value=f"{row.display}{mark} · {hands_text(row.games)}")
        await interaction.followup.send(embed=embed, ephemeral=True)

    @app_commands.command(name="history", description="Your last hands")
    async def history(self, interaction: Interaction) -> None:
        """Your ten most recent finished hands: result, points, rating change."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        user_id = str(interaction.user.id)
        records = await self.bot.store.recent_hands(user_id, 10)
        if not records:
            return await tell(interaction, "You have no finished hands yet.")
        lines = []
        for record in records:
            mine = next((s for s in record.seats if s.player_id == user_id), None)
            if mine is None:
                continue
            change = next((c for c in record.rating_changes if c.player_id == user_id), None)
            rated = f" · rating {change.display_delta:+d}" if change else ""
            when = f"<t:{math.floor(record.finished_at)}:d>"
            lines.append(
                f"{when} · Table #{record.table_id} hand {record.hand_no + 1} · `{record.preset}`"
                f" · {hand_outcome(record, mine)}{rated} · replay `{record.hand_id}`"
            )
        embed = discord.Embed(title="Your last hands", description="\n".join(lines))
        await interaction.followup.send(embed=embed, ephemeral=True)
