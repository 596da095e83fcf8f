"""What the database remembers: /mahjong leaderboard, rating and history."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import discord
from discord import app_commands

from bot.discord.cogs.base import MahjongCog
from bot.discord.options import DEFAULT_PRESET, OptionError, check_preset, preset_autocomplete
from bot.discord.replies import reader_language, tell
from bot.runtime.words import preset_name
from data import GameRecord, HandRecord, RatingChange, SeatResult
from data.rating import PROVISIONAL_GAMES, START_RATING, display
from engine.i18n import DEFAULT_LANGUAGE, Number, Text, text, translate
from engine.presets import PRESETS, Preset
from render.standings import score_text

Interaction = discord.Interaction[Any]
PAGE_SIZE = 10
HISTORY_SIZE = 10
BOARD_FROM_GAMES = 1  # every rated player is on the board; the first 10 games are marked


def record_preset(preset_id: str) -> Preset | None:
    """The preset of a stored rating or result; None for one this bot no longer knows."""
    return PRESETS.get(preset_id)


def per_game(preset_id: str) -> bool:
    """Whether the preset's ratings settle once per finished game (counted in games)."""
    found = record_preset(preset_id)
    return found is not None and found.game.rates_per_game


def counted_text(count: int, games: bool = False) -> Text:
    """'1 hand', '12 games': what a rating counts, in the catalogue's plural forms."""
    return text("bot.records.games" if games else "bot.records.hands", count=count)


def hand_outcome(record: HandRecord, mine: SeatResult, language: str = DEFAULT_LANGUAGE) -> str:
    """What happened to one player in a finished hand: 'won 1, net -8', 'placed 3, -16'."""
    wins = sum(1 for seat in record.winners if seat == mine.seat)
    delta = Number(mine.delta, signed=True)
    if wins:
        return translate(language, "bot.records.won", wins=wins, delta=delta)
    if record.outcome == "draw":
        return translate(language, "bot.records.draw", delta=delta)
    return translate(language, "bot.records.placed", placement=mine.placement, delta=delta)


def rating_change(changes: Sequence[RatingChange], player_id: str) -> Text | str:
    """' · rating +12' where the hand or game moved the player's rating, else nothing."""
    change = next((c for c in changes if c.player_id == player_id), None)
    if change is None:
        return ""
    return text("bot.records.rating_change", delta=Number(change.display_delta, signed=True))


def hand_line(record: HandRecord, player_id: str, language: str) -> str | None:
    """One finished hand in a player's history (None if they had no seat in it)."""
    mine = next((s for s in record.seats if s.player_id == player_id), None)
    if mine is None:
        return None
    return translate(
        language,
        "bot.records.history_line",
        when=f"<t:{math.floor(record.finished_at)}:d>",
        table=record.table_id,
        number=record.hand_no + 1,
        preset=record.preset,
        outcome=hand_outcome(record, mine, language),
        rated=rating_change(record.rating_changes, player_id),
        hand=record.hand_id,
    )


def game_line(record: GameRecord, player_id: str, language: str) -> str | None:
    """One finished game in a player's history: date, preset, place, points, final score,
    hands (None if they had no seat in it)."""
    mine = record.standing_of(player_id)
    if mine is None:
        return None
    return translate(
        language,
        "bot.records.game_line",
        when=f"<t:{math.floor(record.finished_at)}:d>",
        table=record.table_id,
        preset=record.preset,
        place=mine.place,
        points=Number(mine.points),
        score=score_text(mine.score),
        hands=counted_text(record.hands),
        rated=rating_change(record.rating_changes, player_id),
        hand=record.last_hand_id,
    )


def history_lines(
    hands: Sequence[HandRecord],
    games: Sequence[GameRecord],
    player_id: str,
    language: str,
    limit: int = HISTORY_SIZE,
) -> list[str]:
    """A player's latest hands and games, newest first: games for presets whose ratings
    settle per game, hands for the others."""
    entries: list[tuple[float, str | None]] = [
        (h.finished_at, hand_line(h, player_id, language)) for h in hands
    ]
    entries += [(g.finished_at, game_line(g, player_id, language)) for g in games]
    entries.sort(key=lambda entry: entry[0], reverse=True)
    return [line for _, line in entries if line is not None][:limit]


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
        games = found.game.rates_per_game
        title = text("bot.records.board_title", preset=preset_name(found)).in_language(language)
        embed = discord.Embed(title=title, colour=discord.Colour.gold())
        if not board.entries:
            empty = (
                text(
                    "bot.records.board_empty_games" if games else "bot.records.board_empty",
                    preset=found.id,
                )
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
                    hands=counted_text(e.games, games),
                ).in_language(language)
                for e in board.entries
            )
        footer = text(
            "bot.records.board_footer_games" if games else "bot.records.board_footer",
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
            value = text(
                key, rating=row.display, hands=counted_text(row.games, per_game(row.preset))
            )
            embed.add_field(name=row.preset, value=value.in_language(language))
        await interaction.followup.send(embed=embed, ephemeral=True)

    @app_commands.command(name="history", description="Your last hands and games")
    async def history(self, interaction: Interaction) -> None:
        """Your ten most recent finished hands and games: a game for presets whose ratings
        settle per game (place, points, final score), a hand for the others."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        user_id = str(interaction.user.id)
        hands = await self.bot.store.recent_hands(user_id, HISTORY_SIZE, game_hands=False)
        games = await self.bot.store.recent_games(user_id, HISTORY_SIZE)
        language = reader_language(interaction)
        lines = history_lines(hands, games, user_id, language)
        if not lines:
            return await tell(interaction, text("bot.records.no_hands"))
        title = text("bot.records.history_title").in_language(language)
        embed = discord.Embed(title=title, description="\n".join(lines))
        await interaction.followup.send(embed=embed, ephemeral=True)
