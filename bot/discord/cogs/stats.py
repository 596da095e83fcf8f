"""/mahjong stats: a player's figures over their finished hands and their rating history."""

from __future__ import annotations

import asyncio
import io
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.components import sentence, tell
from bot.discord.options import OptionError, check_preset, preset_autocomplete
from data import PlayerStats
from data.rows import RatingPoint

if TYPE_CHECKING:
    from bot.discord.client import MahjongBot

Interaction = discord.Interaction[Any]
CHART = "rating.png"


def share(part: int, whole: int) -> str:
    """'60% (3 of 5)'; a dash when there is nothing to count."""
    return f"{round(100 * part / whole)}% ({part} of {whole})" if whole else "—"


def stats_fields(stats: PlayerStats, unit: str = "fan") -> list[tuple[str, str]]:
    """The figures as (name, value) pairs, the way the embed shows them; `unit` is what the
    preset counts a win's value in (faan, fan, points)."""
    best = (
        f"{stats.best_fan} · `/mahjong replay hand:{stats.best_hand_id}`"
        if stats.best_hand_id is not None
        else "—"
    )
    return [
        ("Hands played", str(stats.hands)),
        ("Win rate", share(stats.hands_won, stats.hands)),
        ("Deal-in rate", share(stats.hands_dealt_in, stats.hands)),
        (f"Average {unit} of wins", f"{stats.average_fan:.1f}" if stats.wins else "—"),
        ("Self-draw share", share(stats.self_draws, stats.wins)),
        ("Best hand", best),
    ]


def chart_png(points: list[RatingPoint], title: str) -> bytes:
    from render.chart import render_rating_chart
    from render.style import to_png

    return to_png(render_rating_chart([p.display for p in points], title))


class StatsCog(commands.Cog, name="Stats"):
    """Statistics read from the hand history."""

    def __init__(self, bot: MahjongBot) -> None:
        self.bot = bot

    @app_commands.command(name="stats", description="Your statistics (or someone else's)")
    @app_commands.describe(user="whose statistics (default: yours)", preset="one preset only")
    @app_commands.autocomplete(preset=preset_autocomplete)
    async def stats(
        self, interaction: Interaction, user: discord.User | None = None, preset: str | None = None
    ) -> None:
        """Hands, win and deal-in rates, average value of wins, self draws, the best hand and
        (for a rated preset) the rating after each rated hand as a small chart."""
        target = user or interaction.user
        try:
            found = check_preset(preset) if preset else None
        except OptionError as error:
            return await tell(interaction, sentence(error))
        if target.bot:
            return await tell(interaction, "User: bots and computer players keep no statistics.")
        await interaction.response.defer(ephemeral=True, thinking=True)
        player_id = str(target.id)
        stats = await self.bot.store.player_stats(player_id, found.id if found else None)
        scope = found.name if found else "all presets"
        embed = discord.Embed(
            title=f"Statistics · {target.display_name} · {scope}", colour=discord.Colour.blue()
        )
        if not stats.hands:
            embed.description = "No finished hands yet."
            return await interaction.followup.send(embed=embed, ephemeral=True)
        for name, value in stats_fields(stats, found.unit if found else "fan"):
            embed.add_field(name=name, value=value)
        chart_preset = found.id if found else await self._most_rated(player_id)
        files: list[discord.File] = []
        if chart_preset is not None:
            points = await self.bot.store.rating_history(player_id, chart_preset)
            if points:
                title = f"Rating · {chart_preset} · now {points[-1].display}"
                data = await asyncio.to_thread(chart_png, points, title)
                files.append(discord.File(io.BytesIO(data), filename=CHART))
                embed.set_image(url=f"attachment://{CHART}")
        await interaction.followup.send(embed=embed, files=files, ephemeral=True)

    async def _most_rated(self, player_id: str) -> str | None:
        """The preset the player has the most rated hands in, if any."""
        rows = await self.bot.store.ratings_of(player_id)
        return max(rows, key=lambda r: r.games).preset if rows else None
