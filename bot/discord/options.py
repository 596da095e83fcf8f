"""Slash-command options shared by the cogs: preset choices, clocks, checks, table lookup.

Discord enforces choices and ranges in its client, but requests can come from anywhere: every
option is checked again here, and each refusal is one sentence naming the option, from the
catalogue. Choice names are translated per user by `bot.discord.translator`.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.discord.language import reader_language
from bot.discord.translator import choice
from bot.mjai_engines import engine_levels, engine_names
from bot.runtime import LiveTable, TableError
from bot.runtime.computers import DEFAULT_LEVEL, LEVELS
from bot.runtime.table import seat_count_for
from bot.runtime.words import preset_name
from engine.formats.mjai import refusal
from engine.i18n import text, worded
from engine.presets import (
    PRESETS,
    TIME_CONTROLS,
    Preset,
    TimeControl,
    find_preset,
)

DEFAULT_PRESET = "hkos-3-v1"
NAME_LIMIT = 40


class OptionError(TableError):
    """An option value we refuse, with a catalogue `Text` worded per reader (as a TableError);
    str() is the English sentence."""


async def preset_autocomplete(
    interaction: discord.Interaction[Any], current: str
) -> list[app_commands.Choice[str]]:
    """Playable presets whose id or name (in English or the user's language) contains what
    the user typed, named in the user's language."""
    typed = current.strip().lower()
    language = reader_language(interaction)
    found = []
    for p in PRESETS.values():
        name = worded(preset_name(p), language)
        if typed in p.id.lower() or typed in p.name.lower() or typed in name.lower():
            found.append(app_commands.Choice(name=f"{p.id} — {name}"[:100], value=p.id))
    return found[:25]


def _clock_choice(tc: TimeControl) -> app_commands.Choice[str]:
    """A time control as a choice: its name and what it means."""
    if tc.untimed:
        return choice("time", tc.name, "{name} (no clock)", name=tc.name)
    if tc.deal_limit:
        english = "{name} ({base} s a move, {minutes} min for the whole deal)"
    elif tc.reserve:
        english = "{name} ({base} s a move + a {reserve} s reserve for the hand)"
    else:
        english = "{name} ({base} s a move, no reserve)"
    fields = {"base": tc.base, "reserve": tc.reserve, "minutes": tc.deal_limit // 60}
    return choice("time", tc.name, english, name=tc.name, **fields)


TIME_CHOICES = [_clock_choice(tc) for tc in TIME_CONTROLS.values()]
LEVEL_CHOICES = [
    choice("level", "easy", "easy (today's computer player)"),
    choice("level", "strong", "strong (plans for value, defends)"),
    # the operator's mjai engines (MAHJONG_MJAI_ENGINES): a person chooses a name, never a command
    *(choice("level", n, "{name} (mjai engine, Riichi only)", name=n) for n in engine_names()),
]
VISIBILITY_CHOICES = [
    choice("visibility", "public", "public (anyone here may join)"),
    choice("visibility", "private", "private (invitation or join code)"),
]


def check_preset(preset_id: str) -> Preset:
    """The playable preset with this id, or an OptionError saying which exist."""
    preset_id = preset_id.strip()
    playable = ", ".join(PRESETS)
    try:
        return find_preset(preset_id)
    except ValueError:
        raise OptionError(
            text("bot.option.preset_unknown", preset=preset_id, playable=playable)
        ) from None


def check_players(preset: Preset, players: int | None, rated: bool) -> int:
    """The seat count of a new table, checked as the runtime checks it (`seat_count_for`)."""
    try:
        return seat_count_for(preset, players, rated)
    except TableError as error:
        allowed = (preset.seat_counts[0] if players is None else players) in preset.seat_counts
        option = "rated" if allowed else "players"
        raise OptionError(text("bot.option.refused", option=option, why=error.message)) from None


def check_create(
    preset_id: str,
    visibility: str,
    rated: bool,
    time: str | None,
    computers: int,
    name: str,
    *,
    players: int | None = None,
    level: str = DEFAULT_LEVEL,
) -> Preset:
    """Check /mahjong create's options together; return the preset."""
    preset = check_preset(preset_id)
    if visibility not in ("public", "private"):
        raise OptionError(text("bot.option.visibility", value=visibility))
    if time is not None and time not in TIME_CONTROLS:
        raise OptionError(text("bot.option.time", value=time, clocks=", ".join(TIME_CONTROLS)))
    count = check_players(preset, players, rated)
    if not 0 <= computers < count:
        raise OptionError(
            text("bot.option.computers", seats=count, most=count - 1, value=computers)
        )
    levels = (*LEVELS, *engine_levels(preset.id))
    if level in engine_names() and level not in levels:
        raise OptionError(refusal(preset.id, engine=level))
    if level not in levels:
        raise OptionError(text("bot.option.level", levels=" or ".join(levels), value=level))
    if rated and computers:
        raise OptionError(text("bot.option.rated_computers"))
    clock = time or (preset.rated_time_control if rated else preset.time_control)
    if rated and TIME_CONTROLS[clock].untimed:
        raise OptionError(text("bot.option.rated_untimed"))
    if len(name) > NAME_LIMIT or "\n" in name:
        raise OptionError(text("bot.option.name", limit=NAME_LIMIT))
    return preset


def check_code(code: str) -> str:
    """A join code as the runtime makes them: six hexadecimal characters."""
    code = code.strip().upper()
    if len(code) != 6 or any(c not in "0123456789ABCDEF" for c in code):
        raise OptionError(text("bot.option.code"))
    return code


def pick_table(tables: list[LiveTable], channel_id: int | None) -> LiveTable | None:
    """The table a command means: the newest one in this channel, else the only one anywhere."""
    here = [t for t in tables if t.channel_id == channel_id]
    if here:
        return max(here, key=lambda t: t.id)
    if len(tables) == 1:
        return tables[0]
    return None


def display_name(user: discord.abc.User) -> str:
    """The name shown at the table (the member's server name when there is one)."""
    return user.display_name[:32]
