"""Looking things up: /mahjong rules and /mahjong score (the same scoring as the CLI)."""

from __future__ import annotations

import json
import re
from typing import Any

import discord
from discord import app_commands

from bot.discord.cogs.base import MahjongCog
from bot.discord.cogs.language import LANGUAGE_CHOICES
from bot.discord.options import DEFAULT_PRESET, check_preset, preset_autocomplete
from bot.discord.replies import reader_language, sentence
from bot.discord.surface import clock_text
from bot.discord.translator import choice
from bot.runtime.words import in_words, pattern_name, preset_name, preset_summary, unit_text
from engine.formats.score_request import RequestError, score_request
from engine.i18n import LANGUAGES, Number, Text, text, worded
from engine.names import vocabulary_key
from engine.options import offered_options, value_word
from engine.presets import TIME_CONTROLS, Preset, find_preset, min_fan_choices
from engine.tiles import InvalidNotationError, is_red, parse_tiles, tile_name

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
VOID_CHOICES = [
    choice("void", suit, name)
    for suit, name in (("m", "characters"), ("p", "dots"), ("s", "bamboo"))
]
SCORE_LANGUAGE_CHOICES = [c for c in LANGUAGE_CHOICES if c.value in LANGUAGES]
MORE_LIMIT = 2000  # characters of `more:` (Discord allows 6,000; a request needs far fewer)
OPTION_OF_FIELD = {"lang": "language"}  # the request fields whose option is named otherwise
# what json says of a bad document, by the start of its message, as catalogue keys
JSON_PROBLEMS = {
    "Expecting value": "value",
    "Expecting property name": "property_name",
    "Expecting ',' delimiter": "comma",
    "Expecting ':' delimiter": "colon",
    "Unterminated string": "unterminated",
    "Invalid control character": "control",
    "Invalid \\escape": "escape",
    "Invalid \\uXXXX escape": "escape",
    "Extra data": "extra",
    "Illegal trailing comma": "trailing_comma",
}
_SPLIT = re.compile(r"[,;]")
LISTED = {"melds": _SPLIT, "flags": re.compile(r"[,;\s]+")}  # options that are lists


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
    if any(map(is_red, preset.wall)):  # Riichi's red fives
        key = "bot.rules.tiles_red"
    embed.add_field(
        name=say("bot.rules.tiles_title"),
        value=say(key, tiles=len(preset.wall), hand=preset.hand_size),
    )
    vocabulary = preset.vocabulary
    calls = in_words(
        "bot.rules.calls_chow" if preset.chow else "bot.rules.calls_no_chow", vocabulary
    )
    several = text(
        "bot.rules.head_bump" if preset.multi_win.value == "head_bump" else "bot.rules.all_win"
    )
    # Tenhou's triple ron aborts the hand (not at three seats, where two is the most)
    if preset.multi_win.value != "head_bump" and 0 < preset.winners_abort < max(preset.seat_counts):
        abort = preset.winners_abort
        several = text("bot.rules.all_win_abort", most=abort - 1, count=abort)
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
        minimum = in_words("bot.rules.no_minimum", vocabulary)  # Riichi: a win needs a yaku
    choices = min_fan_choices(preset)
    if choices:
        minimum = text(
            "bot.rules.table_minimum",
            low=min(choices),
            high=unit_text(preset.unit, max(choices)),
            default=preset.min_fan,
        )
    if preset.start_points:
        minimum = text(
            "bot.rules.start_points", minimum=minimum, points=Number(preset.start_points)
        )
    embed.add_field(
        name=say("bot.rules.winning_title"),
        value=say(
            vocabulary_key("bot.rules.winning", vocabulary),
            shapes=text("bot.list", items=shapes),
            minimum=minimum,
            cap=unit_text(preset.unit, preset.fan_cap),
        ),
        inline=False,
    )
    if offered_options(preset):  # what a table may choose, as `create options:` takes it
        lines = [
            say(
                "bot.rules.option",
                name=o.name,
                values=", ".join(value_word(v) for v in o.values),
                default=value_word(o.default),
            )
            for o in offered_options(preset)
        ]
        embed.add_field(name=say("bot.rules.options_title"), value="\n".join(lines), inline=False)
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
        losers = result.get("losers") or {}  # hubei-laizi: each paying loser's fan
        if losers:
            embed.add_field(
                name=say("bot.score.losers_title"),
                value="\n".join(
                    say(
                        "bot.score.loser",
                        seat=_seat(seat),
                        fan=unit_text(result["unit"], paid["fan"]),
                        pays=paid["pays"],
                    )
                    for seat, paid in losers.items()
                ),
            )
        deltas = result.get("deltas") or {}  # the win's settlement per seat (a dealer bonus...)
        if deltas:
            changes = {seat: Number(delta, signed=True) for seat, delta in deltas.items()}
            value_line = " · ".join(
                f"{worded(_seat(seat), language)} {change.in_language(language)}"
                for seat, change in changes.items()
            )
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
        void="the winner's void suit (Sichuan)",
        min_fan="a table minimum where the preset has one (hk-fw2 0-3, hubei-laizi 3 or 0)",
        players="players at the table, 2-4 (hubei-laizi)",
        wild="the wild tile (hubei-laizi), e.g. 5p",
        special_kongs="red, green and wild kongs the winner set down, e.g. red 1, wild 1",
        horse="the horse tile (guangdong), e.g. 6m",
        birds="the four bird tiles (redwild), e.g. 159m7z",
        wall_left="tiles left in the wall when the winning tile came",
        seen="copies of the winning tile seen before its discard (hk-fw2 insurance)",
        language="the language of the answer (default: yours)",
        more="more request fields as one JSON object (others, ...), as in mahjong-bot score",
    )
    @app_commands.rename(from_="from")
    @app_commands.choices(
        by=BY_CHOICES,
        seat=WIND_CHOICES,
        round=WIND_CHOICES,
        from_=WIND_CHOICES,
        void=VOID_CHOICES,
        language=SCORE_LANGUAGE_CHOICES,
    )
    @app_commands.autocomplete(preset=preset_autocomplete)
    async def score(
        self,
        interaction: Interaction,
        hand: app_commands.Range[str, 1, 100],
        win: str | None = None,
        melds: str | None = None,
        bonus: str | None = None,
        by: str | None = None,
        seat: str | None = None,
        round: str | None = None,
        flags: str | None = None,
        preset: str | None = None,
        from_: str | None = None,
        void: str | None = None,
        min_fan: app_commands.Range[int, 0, 13] | None = None,
        players: app_commands.Range[int, 2, 4] | None = None,
        wild: str | None = None,
        special_kongs: str | None = None,
        horse: str | None = None,
        birds: str | None = None,
        wall_left: app_commands.Range[int, 0, 144] | None = None,
        seen: app_commands.Range[int, 0, 3] | None = None,
        language: str | None = None,
        more: app_commands.Range[str, 1, MORE_LIMIT] | None = None,
    ) -> None:
        """Score one hand with the code behind `mahjong-bot score`."""
        options: dict[str, object] = {
            "preset": preset,
            "hand": hand,
            "win": win,
            "melds": melds,
            "bonus": bonus,
            "by": by,
            "seat": seat,
            "round": round,
            "flags": flags,
            "from": from_,
            "void": void,
            "min_fan": min_fan,
            "players": players,
            "wild": wild,
            "special_kongs": special_kongs,
            "horse": horse,
            "birds": birds,
            "wall_left": wall_left,
            "seen": seen,
            "lang": language,
            "more": more,
        }
        request = score_options_request(options, reader_language(interaction))
        result = score_request(request)  # a RequestError is told by the cog's error handler
        await interaction.response.send_message(embed=score_embed(request, result, request["lang"]))


def score_options_request(options: dict[str, object], language: str) -> dict[str, Any]:
    """The `mahjong-bot score` request /mahjong score's options make, keyed by request field
    (None: not given): the typed options as the request writes them, then the fields of
    `more:` (a JSON object), each field given once; the default preset, the last tile of
    `hand` as `win`, and the answer in the reader's `language` unless the request names one."""
    more = options.get("more")
    request = typed_fields({f: v for f, v in options.items() if f != "more"})
    extra = more_fields(more) if isinstance(more, str) else {}
    for field in extra:
        if field in request:
            option = OPTION_OF_FIELD.get(field, field)
            raise RequestError(text("bot.score.more_twice", field=field, option=option))
    request.update(extra)
    request.setdefault("preset", DEFAULT_PRESET)
    if "win" not in request and isinstance(request.get("hand"), str):
        request["win"] = _last_tile(request["hand"])
    request.setdefault("lang", language)
    return request


def typed_fields(options: dict[str, object]) -> dict[str, Any]:
    """The typed options given, as request fields: text stripped, lists split at commas,
    `special_kongs` counted by name."""
    fields: dict[str, Any] = {}
    for field, value in options.items():
        if isinstance(value, str):
            if field in LISTED:
                value = _listed(value, LISTED[field])
            elif field == "special_kongs":
                value = special_kongs_of(value)
            else:
                value = _stripped(value)
        if value is not None:
            fields[field] = value
    return fields


def more_fields(more: str) -> dict[str, Any]:
    """`more:` as the request fields it adds: a JSON object, or a RequestError saying in the
    reader's language why it is not one."""
    try:
        fields = json.loads(more)
    except json.JSONDecodeError as error:
        problem = next(
            (k for start, k in JSON_PROBLEMS.items() if error.msg.startswith(start)), None
        )
        detail: Text | str = text(f"bot.score.json.{problem}") if problem else error.msg
        raise RequestError(
            text("bot.score.more_json", detail=detail, position=error.pos + 1)
        ) from None
    except (RecursionError, ValueError):  # nested too deeply, or a number too long to convert
        raise RequestError(text("bot.score.more_json_deep")) from None
    if not isinstance(fields, dict):
        raise RequestError(text("bot.score.more_not_object", example='{"wall_left": 3}'))
    return fields


def special_kongs_of(given: str | None) -> dict[str, object] | None:
    """`red 1, wild 1` (a bare name is one kong; a name twice adds up) as the request's
    `special_kongs`; a count that is not a number is passed on for the request to refuse."""
    if given is None or not given.strip():
        return None
    kongs: dict[str, object] = {}
    for item in _listed(given, _SPLIT) or []:
        name, _, count = item.replace(":", " ").replace("=", " ").partition(" ")
        amount: object = int(count) if count.strip().isdigit() else (count.strip() or 1)
        before = kongs.get(name, 0)
        both = isinstance(before, int) and isinstance(amount, int)
        kongs[name] = before + amount if both else amount  # type: ignore[operator]
    return kongs


def _stripped(value: str | None) -> str | None:
    """An option's text without surrounding spaces; None when nothing is left."""
    return value.strip() or None if value is not None else None


def _listed(value: str | None, separator: re.Pattern[str]) -> list[str] | None:
    """An option's comma-separated items; None when there are none."""
    if value is None:
        return None
    items = [item.strip() for item in separator.split(value) if item.strip()]
    return items or None


def _seat(seat: str) -> Text:
    """A seat wind as the score answer names it (E S W N; 东 南 西 北)."""
    return text(f"bot.score.seat.{seat.lower()}")


def _last_tile(hand: str) -> str:
    """The last tile written in `hand` ('' if it does not parse: the hand error shows first)."""
    try:
        tiles = parse_tiles(hand)
    except InvalidNotationError:
        return ""
    return tile_name(tiles[-1]) if tiles else ""
