"""Looking things up: /mahjong rules and /mahjong score (the same scoring as the CLI)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.components import sentence, tell
from bot.discord.options import DEFAULT_PRESET, OptionError, check_preset, preset_autocomplete
from bot.discord.surface import clock_text
from engine.presets import TIME_CONTROLS, Preset, min_fan_choices
from engine.score_request import RequestError, score_request
from engine.tiles import InvalidNotationError, parse_tiles, tile_name
from render.views import pretty_pattern

if TYPE_CHECKING:
    from bot.discord.client import MahjongBot

Interaction = discord.Interaction[Any]
WIND_CHOICES = [
    app_commands.Choice(name=name, value=value)
    for name, value in (("East", "E"), ("South", "S"), ("West", "W"), ("North", "N"))
]
BY_CHOICES = [
    app_commands.Choice(name="on a discard", value="discard"),
    app_commands.Choice(name="self draw", value="self_draw"),
    app_commands.Choice(name="robbing a kong", value="robbing_kong"),
]
_SPLIT = re.compile(r"[,;]")


def rules_embed(preset: Preset) -> discord.Embed:
    """A preset's rules at a glance."""
    embed = discord.Embed(
        title=f"{preset.name} (`{preset.id}`)",
        description=preset.summary,
        colour=discord.Colour.blurple(),
    )
    bonus = " with flowers and seasons" if preset.uses_bonus else ""
    embed.add_field(
        name="Tiles", value=f"{len(preset.wall)} tiles{bonus}; {preset.hand_size} in a hand"
    )
    calls = "chow, pung, kong" if preset.chow else "pung and kong (no chows)"
    several = "head bump" if preset.multi_win.value == "head_bump" else "all of them win"
    embed.add_field(name="Calls", value=f"{calls}; several wins on one discard: {several}")
    shapes = ["four sets and a pair" if preset.sets == 4 else f"{preset.sets} sets and a pair"]
    if preset.shape_rules.seven_pairs:
        shapes.append("seven pairs")
    if preset.shape_rules.thirteen_orphans:
        shapes.append("thirteen orphans")
    minimum = f"at least {preset.min_fan} {preset.unit}" if preset.min_fan else "no minimum"
    choices = min_fan_choices(preset)
    if choices:
        minimum = (
            f"the table chooses a minimum of {min(choices)}–{max(choices)} {preset.unit} "
            f"(default {preset.min_fan})"
        )
    if preset.start_points:
        minimum += f"; everyone starts with {preset.start_points:,} points"
    embed.add_field(
        name="Winning",
        value=f"{', '.join(shapes)}; {minimum}, capped at {preset.fan_cap} {preset.unit}",
        inline=False,
    )
    if preset.openings:
        embed.add_field(
            name="Before play",
            value=", ".join(o.value.replace("_", " ") for o in preset.openings),
        )
    embed.add_field(
        name="Clocks",
        value=f"casual: {clock_text(TIME_CONTROLS[preset.time_control])}\n"
        f"rated: {clock_text(TIME_CONTROLS[preset.rated_time_control])}",
        inline=False,
    )
    embed.set_footer(text="Score a hand with /mahjong score · the full rules are in RULES.md")
    return embed


def score_embed(request: dict[str, Any], result: dict[str, Any]) -> discord.Embed:
    """The answer to /mahjong score."""
    hand = request["hand"]
    if not result.get("valid"):
        embed = discord.Embed(title="Not a win", colour=discord.Colour.red())
        embed.description = sentence(str(result.get("message", "not a winning hand")))
        if result.get("reason") == "below_minimum":
            embed.description += f" ({result.get('fan')} counted)"
    else:
        unit = result["unit"]
        embed = discord.Embed(
            title=f"{result['fan']} {unit}" + (" (limit)" if result.get("limit") else ""),
            colour=discord.Colour.green(),
        )
        embed.description = "\n".join(
            f"{pretty_pattern(p['id'])}: {p['fan']}" for p in result["patterns"]
        )
        points = result.get("points") or {}
        if points.get("others"):
            embed.add_field(
                name="Payment",
                value=f"the discarder pays {points['discarder']}, "
                f"each other player {points['others']}",
            )
        elif "discarder" in points:
            embed.add_field(name="Payment", value=f"the discarder pays {points['discarder']}")
        elif "each" in points:
            embed.add_field(name="Payment", value=f"each other player pays {points['each']}")
        deltas = result.get("deltas") or {}  # the win's settlement per seat (a dealer bonus...)
        if deltas:
            value = " · ".join(f"{seat} {delta:+d}" for seat, delta in deltas.items())
            embed.add_field(name="Settlement", value=value)
    melds = ", ".join(request.get("melds", []))
    embed.set_footer(
        text=f"{request['preset']} · {hand} · win {request['win']}"
        + (f" · {melds}" if melds else "")
    )
    return embed


class ReferenceCog(commands.Cog, name="Reference"):
    """Rules and hand scoring, without a table."""

    def __init__(self, bot: MahjongBot) -> None:
        self.bot = bot

    @app_commands.command(name="rules", description="The rules of a preset at a glance")
    @app_commands.describe(preset="which rules")
    @app_commands.autocomplete(preset=preset_autocomplete)
    async def rules(self, interaction: Interaction, preset: str = DEFAULT_PRESET) -> None:
        """Show a preset's tiles, calls, winning shapes, minimum and clocks."""
        try:
            found = check_preset(preset)
        except OptionError as error:
            return await tell(interaction, sentence(error))
        await interaction.response.send_message(embed=rules_embed(found))

    @app_commands.command(name="score", description="Score a winning hand")
    @app_commands.describe(
        hand="concealed tiles including the winning tile, e.g. 123m456m789m11122z",
        win="the winning tile (default: the last tile of hand)",
        melds="exposed sets, comma-separated, e.g. pung 555z, chow 123m",
        bonus="flowers and seasons, e.g. 1f5f",
        by="how the winning tile came",
        seat="the winner's seat wind",
        round="the prevailing wind",
        flags="kong_replacement, last_tile, heavenly or earthly, comma-separated",
        preset="the rules to score by",
        from_="the discarder's (or robbed player's) seat wind: shows each seat's settlement",
    )
    @app_commands.rename(from_="from")
    @app_commands.choices(by=BY_CHOICES, seat=WIND_CHOICES, round=WIND_CHOICES, from_=WIND_CHOICES)
    @app_commands.autocomplete(preset=preset_autocomplete)
    async def score(
        self,
        interaction: Interaction,
        hand: app_commands.Range[str, 1, 100],
        win: str | None = None,
        melds: str | None = None,
        bonus: str | None = None,
        by: str = "discard",
        seat: str = "E",
        round: str = "E",
        flags: str | None = None,
        preset: str = DEFAULT_PRESET,
        from_: str | None = None,
    ) -> None:
        """Score one hand with the code behind `mahjong-bot score`."""
        request: dict[str, Any] = {
            "preset": preset.strip(),
            "hand": hand.strip(),
            "win": (win or _last_tile(hand)).strip(),
            "by": by,
            "seat": seat,
            "round": round,
        }
        if melds:
            request["melds"] = [m.strip() for m in _SPLIT.split(melds) if m.strip()]
        if bonus:
            request["bonus"] = bonus.strip()
        if flags:
            request["flags"] = [f.strip() for f in re.split(r"[,;\s]+", flags) if f.strip()]
        if from_:
            request["from"] = from_
        try:
            result = score_request(request)
        except RequestError as error:
            return await tell(interaction, sentence(error))
        await interaction.response.send_message(embed=score_embed(request, result))


def _last_tile(hand: str) -> str:
    """The last tile written in `hand` ('' if it does not parse: the hand error shows first)."""
    try:
        tiles = parse_tiles(hand)
    except InvalidNotationError:
        return ""
    return tile_name(tiles[-1]) if tiles else ""
