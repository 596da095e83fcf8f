"""Looking things up: /mahjong rules and /mahjong score (the same scoring as the CLI)."""

from __future__ import annotations

import re
from typing import Any

import discord
from discord import app_commands

from bot.discord.cogs.base import MahjongCog
from bot.discord.options import DEFAULT_PRESET, check_preset, preset_autocomplete
from bot.discord.replies import reader_language, sentence
from bot.discord.surface import clock_text
from bot.discord.translator import choice
from bot.runtime.snapshots import pattern_name, preset_name, preset_summary, unit_text
from engine.i18n import Text, text, worded
from engine.presets import TIME_CONTROLS, Preset, find_preset, min_fan_choices
from engine.score_request import score_request
from engine.tiles import InvalidNotationError, parse_tiles, tile_name

Interaction = discord.Interaction[Any]
WIND_CHOICES = [
    choice("wind", value, name)
    for name, value in (("East", "E"), ("South", "S"), ("West", "W"), ("North", "N"))
]
BY_CHOICES = [
    choice("by", "discard", "on a discard"),
    choice("by", "self_draw", "self draw"),
    choice("by", "robbing_kong", "robbing a kong"),
]
_SPLIT = re.compile(r"[,;]")


def rules_embed(preset: Preset, language: str = "en") -> discord.Embed:
    """A preset's rules at a glance, in `language`."""

    def say(key: str, **fields: object) -> str:
        return text(key, **fields).in_language(language)

    embed = discord.Embed(
        title=f"{worded(preset_name(preset), language)} (`{preset.id}`)",
        description=worded(preset_summary(preset), language),
        colour=discord.Colour.blurple(),
    )
    key = "bot.rules.tiles_bonus" if preset.uses_bonus else "bot.rules.tiles"
    embed.add_field(
        name=say("bot.rules.tiles_title"),
        value=say(key, tiles=len(preset.wall), hand=preset.hand_size),
    )
    calls = text("bot.rules.calls_chow" if preset.chow else "bot.rules.calls_no_chow")
    several = text(
        "bot.rules.head_bump" if preset.multi_win.value == "head_bump" else "bot.rules.all_win"
    )
    embed.add_field(
        name=say("bot.rules.calls_title"),
        value=say("bot.rules.calls", calls=calls, several=several),
    )
    shapes = [
        text("bot.rules.four_sets")
        if preset.sets == 4
        else text("bot.rules.sets", sets=preset.sets)
    ]
    if preset.shape_rules.seven_pairs:
        shapes.append(text("bot.rules.seven_pairs"))
    if preset.shape_rules.thirteen_orphans:
        shapes.append(text("bot.rules.thirteen_orphans"))
    minimum: Text
    if preset.min_fan:
        minimum = text("bot.rules.minimum", value=unit_text(preset.unit, preset.min_fan))
    else:
        minimum = text("bot.rules.no_minimum")
    choices = min_fan_choices(preset)
    if choices:
        minimum = text(
            "bot.rules.table_minimum",
            low=min(choices),
            high=unit_text(preset.unit, max(choices)),
            default=preset.min_fan,
        )
    if preset.start_points:
        minimum = text("bot.rules.start_points", minimum=minimum, points=f"{preset.start_points:,}")
    embed.add_field(
        name=say("bot.rules.winning_title"),
        value=say(
            "bot.rules.winning",
            shapes=text("bot.list", items=shapes),
            minimum=minimum,
            cap=unit_text(preset.unit, preset.fan_cap),
        ),
        inline=False,
    )
    if preset.openings:
        embed.add_field(
            name=say("bot.rules.before_title"),
            value=say(
                "bot.list", items=[text(f"bot.rules.opening.{o.value}") for o in preset.openings]
            ),
        )
    embed.add_field(
        name=say("bot.rules.clocks_title"),
        value=say(
            "bot.rules.clocks",
            casual=clock_text(TIME_CONTROLS[preset.time_control]),
            rated=clock_text(TIME_CONTROLS[preset.rated_time_control]),
        ),
        inline=False,
    )
    embed.set_footer(text=say("bot.rules.footer"))
    return embed


def score_embed(
    request: dict[str, Any], result: dict[str, Any], language: str = "en"
) -> discord.Embed:
    """The answer to /mahjong score, in `language`."""

    def say(key: str, **fields: object) -> str:
        return text(key, **fields).in_language(language)

    hand = request["hand"]
    if not result.get("valid"):
        embed = discord.Embed(title=say("bot.score.not_a_win"), colour=discord.Colour.red())
        message = result.get("message") or text("bot.score.not_winning")
        embed.description = sentence(worded(message, language), language)
        if result.get("reason") == "below_minimum":
            embed.description += say("bot.score.counted", fan=result.get("fan"))
    else:
        value = unit_text(result["unit"], result["fan"])
        key = "bot.score.limit" if result.get("limit") else "bot.score.value"
        embed = discord.Embed(title=say(key, value=value), colour=discord.Colour.green())
        family = find_preset(request["preset"]).family
        embed.description = "\n".join(
            say("bot.score.pattern", pattern=pattern_name(family, p["id"]), fan=p["fan"])
            for p in result["patterns"]
        )
        points = result.get("points") or {}
        payment = say("bot.score.payment_title")
        if points.get("others"):
            embed.add_field(
                name=payment,
                value=say(
                    "bot.score.pays_both", discarder=points["discarder"], others=points["others"]
                ),
            )
        elif "discarder" in points:
            embed.add_field(
                name=payment, value=say("bot.score.pays_discarder", discarder=points["discarder"])
            )
        elif "each" in points:
            embed.add_field(name=payment, value=say("bot.score.pays_each", each=points["each"]))
        deltas = result.get("deltas") or {}  # the win's settlement per seat (a dealer bonus...)
        if deltas:
            value_line = " · ".join(f"{seat} {delta:+d}" for seat, delta in deltas.items())
            embed.add_field(name=say("bot.score.settlement_title"), value=value_line)
    melds = ", ".join(request.get("melds", []))
    footer = say("bot.score.footer", preset=request["preset"], hand=hand, win=request["win"])
    embed.set_footer(text=footer + (f" · {melds}" if melds else ""))
    return embed


class ReferenceCog(MahjongCog, name="Reference"):
    """Rules and hand scoring, without a table."""

    @app_commands.command(name="rules", description="The rules of a preset at a glance")
    @app_commands.describe(preset="which rules")
    @app_commands.autocomplete(preset=preset_autocomplete)
    async def rules(self, interaction: Interaction, preset: str = DEFAULT_PRESET) -> None:
        """Show a preset's tiles, calls, winning shapes, minimum and clocks."""
        found = check_preset(preset)
        language = reader_language(interaction)
        await interaction.response.send_message(embed=rules_embed(found, language))

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
        language = reader_language(interaction)
        request["lang"] = language  # the message worded for the reader; ids stay English
        result = score_request(request)  # a RequestError is told by the cog's error handler
        await interaction.response.send_message(embed=score_embed(request, result, language))


def _last_tile(hand: str) -> str:
    """The last tile written in `hand` ('' if it does not parse: the hand error shows first)."""
    try:
        tiles = parse_tiles(hand)
    except InvalidNotationError:
        return ""
    return tile_name(tiles[-1]) if tiles else ""
