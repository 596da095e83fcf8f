"""/mahjong stats: a player's figures over their finished hands (games, for presets whose
ratings settle per game) and their rating history."""

from __future__ import annotations

import asyncio
import io
from collections.abc import Iterable
from typing import Any

import discord
from discord import app_commands

from bot.discord.cogs.base import MahjongCog
from bot.discord.cogs.records import per_game
from bot.discord.options import check_preset, preset_autocomplete
from bot.discord.replies import reader_language, tell
from bot.runtime.words import preset_name
from data import GameStats, PlayerStats
from data.rows import RatingPoint
from engine.actions import DeclaredKind
from engine.i18n import DEFAULT_LANGUAGE, has, text, translate
from engine.presets import Preset
from render.standings import score_text

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


def game_fields(
    stats: GameStats, kinds: Iterable[str] = (), language: str = DEFAULT_LANGUAGE
) -> list[tuple[str, str]]:
    """A player's games as (name, value) pairs in `language`: games, placements, average
    place and final score; with `kinds` (a preset's counted declarations), the games' hands:
    how many, the rate won, dealt in and of each declaration, per hand played."""
    hands = stats.hands
    fields = [
        ("bot.stats.games", str(stats.games)),
        ("bot.stats.places", " / ".join(str(count) for count in stats.places)),
        ("bot.stats.average_place", f"{stats.average_place:.2f}"),
        ("bot.stats.average_score", score_text(round(stats.average_score, 1))),
    ]
    if kinds:
        fields += [
            ("bot.stats.hands", str(hands.hands)),
            ("bot.stats.win_rate", share(hands.hands_won, hands.hands, language)),
            ("bot.stats.deal_in_rate", share(hands.hands_dealt_in, hands.hands, language)),
        ]
        fields += [
            (declared_key(kind), share(stats.declared_in(kind), hands.hands, language))
            for kind in kinds
        ]
    return [(translate(language, key), value) for key, value in fields]


def declared_key(kind: str) -> str:
    return f"bot.stats.declared.{kind}"


def counted_declarations(preset: Preset) -> list[str]:
    """The declarations of the preset's rules the statistics count per hand (those the
    catalogue words as a rate: riichi), in the order of the rules."""
    kinds = [
        kind
        for rule in preset.rules
        for kind in sorted(rule.part.owns, key=str)
        if isinstance(kind, DeclaredKind)
    ]
    return [kind for kind in dict.fromkeys(kinds) if has(declared_key(kind))]


def chart_png(points: list[RatingPoint], title: str, language: str, per_game: bool) -> bytes:
    from render.chart import render_rating_chart
    from render.style import to_png

    ratings = [p.display for p in points]
    return to_png(render_rating_chart(ratings, title, language, per_game=per_game))


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
        scope = preset_name(found) if found else text("bot.stats.all_presets")
        title = text("bot.stats.title", name=target.display_name, scope=scope)
        embed = discord.Embed(title=title.in_language(language), colour=discord.Colour.blue())
        fields = await self._fields(player_id, found, language)
        if not fields:
            none = "bot.stats.no_games" if found and found.game.rates_per_game else "bot.stats.none"
            embed.description = text(none).in_language(language)
            return await interaction.followup.send(embed=embed, ephemeral=True)
        for name, value in fields:
            embed.add_field(name=name, value=value)
        chart_preset = found.id if found else await self._most_rated(player_id)
        files: list[discord.File] = []
        if chart_preset is not None:
            points = await self.bot.store.rating_history(player_id, chart_preset)
            if points:
                chart_title = text("bot.stats.chart", preset=chart_preset, now=points[-1].display)
                chart_words = chart_title.in_language(language)
                by_game = per_game(chart_preset)
                data = await asyncio.to_thread(chart_png, points, chart_words, language, by_game)
                files.append(discord.File(io.BytesIO(data), filename=CHART))
                embed.set_image(url=f"attachment://{CHART}")
        await interaction.followup.send(embed=embed, files=files, ephemeral=True)

    async def _fields(
        self, player_id: str, found: Preset | None, language: str
    ) -> list[tuple[str, str]]:
        """The embed's figures: a per-game preset's games and their hands, another preset's
        hands, or (every preset) the hands of the others and a summary of the games."""
        store = self.bot.store
        if found is not None and found.game.rates_per_game:
            games = await store.game_stats(player_id, found.id)
            return game_fields(games, counted_declarations(found), language) if games.games else []
        stats = await store.player_stats(player_id, found.id if found else None)
        fields = (
            stats_fields(stats, found.unit if found else "fan", language) if stats.hands else []
        )
        if found is None:
            games = await store.game_stats(player_id)
            fields += game_fields(games, (), language) if games.games else []
        return fields

    async def _most_rated(self, player_id: str) -> str | None:
        """The preset the player has the most rated hands in, if any."""
        rows = await self.bot.store.ratings_of(player_id)
        return max(rows, key=lambda r: r.games).preset if rows else None
