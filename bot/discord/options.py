"""Slash-command options shared by the cogs: preset choices, clocks, checks, table lookup.

Discord enforces choices and ranges in its client, but requests can come from anywhere: every
option is checked again here, and each refusal is one sentence naming the option.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.runtime import LiveTable, TableError
from bot.runtime.computers import DEFAULT_LEVEL, LEVELS
from bot.runtime.manager import seat_count_for
from engine.presets import (
    PLANNED_PRESETS,
    PRESETS,
    TIME_CONTROLS,
    Preset,
    TimeControl,
    find_preset,
)

DEFAULT_PRESET = "hkos-3-v1"
NAME_LIMIT = 40


class OptionError(ValueError):
    """An option value we refuse; str() is the sentence shown to the user."""


async def preset_autocomplete(
    interaction: discord.Interaction[Any], current: str
) -> list[app_commands.Choice[str]]:
    """Playable presets whose id or name contains what the user typed."""
    text = current.strip().lower()
    return [
        app_commands.Choice(name=f"{p.id} — {p.name}"[:100], value=p.id)
        for p in PRESETS.values()
        if text in p.id.lower() or text in p.name.lower()
    ][:25]


def _clock_choice(tc: TimeControl) -> app_commands.Choice[str]:
    """A time control as a choice: its name and what it means."""
    meaning = "no clock" if tc.untimed else f"{tc.base} s a move, {tc.reserve} s reserve"
    if tc.deal_limit:
        meaning += f", {tc.deal_limit // 60} min a deal"
    return app_commands.Choice(name=f"{tc.name} ({meaning})", value=tc.name)


TIME_CHOICES = [_clock_choice(tc) for tc in TIME_CONTROLS.values()]
LEVEL_CHOICES = [
    app_commands.Choice(name="easy (today's computer player)", value="easy"),
    app_commands.Choice(name="strong (plans for value, defends)", value="strong"),
]
VISIBILITY_CHOICES = [
    app_commands.Choice(name="public (anyone here may join)", value="public"),
    app_commands.Choice(name="private (invitation or join code)", value="private"),
]


def check_preset(preset_id: str) -> Preset:
    """The playable preset with this id, or an OptionError saying which exist."""
    preset_id = preset_id.strip()
    if preset_id in PLANNED_PRESETS:
        playable = ", ".join(PRESETS)
        raise OptionError(
            f"preset: `{preset_id}` ({PLANNED_PRESETS[preset_id]}) is planned but not playable "
            f"yet; choose one of {playable}."
        )
    try:
        return find_preset(preset_id)
    except ValueError:
        raise OptionError(
            f"preset: there is no preset `{preset_id}`; choose one of {', '.join(PRESETS)}."
        ) from None


def check_players(preset: Preset, players: int | None, rated: bool) -> int:
    """The seat count of a new table, checked as the runtime checks it (`seat_count_for`)."""
    try:
        return seat_count_for(preset, players, rated)
    except TableError as error:
        allowed = (preset.seat_counts[0] if players is None else players) in preset.seat_counts
        raise OptionError(f"{'rated' if allowed else 'players'}: {error}.") from None


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
        raise OptionError(f"visibility: choose public or private, not `{visibility}`.")
    if time is not None and time not in TIME_CONTROLS:
        raise OptionError(
            f"time: there is no clock `{time}`; choose one of {', '.join(TIME_CONTROLS)}."
        )
    count = check_players(preset, players, rated)
    if not 0 <= computers < count:
        raise OptionError(
            f"computers: a {count}-seat table has room for 0 to {count - 1} computers, "
            f"not {computers}."
        )
    if level not in LEVELS:
        raise OptionError(f"level: choose {' or '.join(LEVELS)}, not `{level}`.")
    if rated and computers:
        raise OptionError("rated: rated tables are for four people; computers play casual tables.")
    clock = time or (preset.rated_time_control if rated else preset.time_control)
    if rated and TIME_CONTROLS[clock].untimed:
        raise OptionError("time: a rated table needs a clock; choose one other than untimed.")
    if len(name) > NAME_LIMIT or "\n" in name:
        raise OptionError(f"name: a table name is one line of at most {NAME_LIMIT} characters.")
    return preset


def check_code(code: str) -> str:
    """A join code as the runtime makes them: six hexadecimal characters."""
    code = code.strip().upper()
    if len(code) != 6 or any(c not in "0123456789ABCDEF" for c in code):
        raise OptionError("code: a join code is six letters and digits, like `3F9A1C`.")
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
