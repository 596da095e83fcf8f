"""/mahjong stats: a player's figures over their finished hands and their rating history."""

from __future__ import annotations

import asyncio
import io
from typing import Any

import discord
from discord import app_commands

from bot.discord.cogs.base import MahjongCog
from bot.discord.options import check_preset, preset_autocomplete
from bot.discord.replies import reader_language, tell
from bot.runtime.snapshots import preset_name
from data import PlayerStats
from data.rows import RatingPoint
from engine.i18n import DEFAULT_LANGUAGE, text, translate

Interaction = discord.Interaction[Any]
CHART = "rating.png"


def share(part: int, whole: int, language: str = DEFAULT_LANGUAGE) -> str:
    """'60% (3 of 5)'; a dash when there is nothing to count."""
    if not whole:
        return "—"
    percent = round(100 * part / whole)
    return translate(language, "bot.stats.share", percent=percent, part=part, whole=whole)


def stats_fields(
    stats: PlayerStats, unit: str = "fan", language: str = DEFAULT_LANGUAGE
) -> list[tuple[str, str]]:
    """The figures as (name, value) pairs in `language`, the way the embed shows them; `unit`
    is what the preset counts a win's value in (faan, fan, points)."""
    best = "—"
    if stats.best_hand_id is not None:
        best = translate(
            language, "bot.stats.best_value", fan=stats.best_fan, hand=stats.best_hand_id
        )
    average = f"{stats.average_fan:.1f}" if stats.wins else "—"
    fields = [
        ("bot.stats.hands", str(stats.hands)),
        ("bot.stats.win_rate", share(stats.hands_won, stats.hands, language)),
        ("bot.stats.deal_in_rate", share(stats.hands_dealt_in, stats.hands, language)),
        ("bot.stats.average", average),
        ("bot.stats.self_draw_share", share(stats.self_draws, stats.wins, language)),
        ("bot.stats.best", best),
    ]
    unit_name = text(f"bot.unit_name.{unit}")
    return [(translate(language, key, unit=unit_name), value) for key, value in fields]


def chart_png(points: list[RatingPoint], title: str) -> bytes:
    from render.chart import render_rating_chart
    from render.style import to_png

    return to_png(render_rating_chart([p.display for p in points], title))


class StatsCog(MahjongCog, name="Stats"):
    """Statistics read from the hand history."""

    @app_commands.command(name="stats", description="Your statistics (or someone else's)")
    @app_commands.describe(user="whose statistics (default: yours)", preset="one preset only")
    @app_commands.autocomplete(preset=preset_autocomplete)
    async def stats(
        self, interaction: Interaction, user: discord.User | None = None, preset: str | None = None
    ) -> None:
        """Hands, win and deal-in rates, average value of wins, self draws, the best hand and
        (for a rated preset) the rating after each rated hand as a small chart."""
        target = user or interaction.user
        found = check_preset(preset) if preset else None
        if target.bot:
            return await tell(interaction, text("bot.stats.bot"))
        await interaction.response.defer(ephemeral=True, thinking=True)
        language = reader_language(interaction)
        player_id = str(target.id)
        stats = await self.bot.store.player_stats(player_id, found.id if found else None)
        scope = preset_name(found) if found else text("bot.stats.all_presets")
        title = text("bot.stats.title", name=target.display_name, scope=scope)
        embed = discord.Embed(title=title.in_language(language), colour=discord.Colour.blue())
        if not stats.hands:
            embed.description = text("bot.stats.none").in_language(language)
            return await interaction.followup.send(embed=embed, ephemeral=True)
        for name, value in stats_fields(stats, found.unit if found else "fan", language):
            embed.add_field(name=name, value=value)
        chart_preset = found.id if found else await self._most_rated(player_id)
        files: list[discord.File] = []
        if chart_preset is not None:
            points = await self.bot.store.rating_history(player_id, chart_preset)
            if points:
                chart_title = text("bot.stats.chart", preset=chart_preset, now=points[-1].display)
                chart_words = chart_title.in_language(language)
                data = await asyncio.to_thread(chart_png, points, chart_words)
                files.append(discord.File(io.BytesIO(data), filename=CHART))
                embed.set_image(url=f"attachment://{CHART}")
        await interaction.followup.send(embed=embed, files=files, ephemeral=True)

    async def _most_rated(self, player_id: str) -> str | None:
        """The preset the player has the most rated hands in, if any."""
        rows = await self.bot.store.ratings_of(player_id)
        return max(rows, key=lambda r: r.games).preset if rows else None
