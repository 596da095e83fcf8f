"""What the table message and a player's hand message say and offer, formatted from snapshots.

Pure builders (no network): text, embeds and views. The table message is formatted from the
runtime's `PublicSnapshot` (built from nothing a seat hides), a hand message from the player's
`PrivateSnapshot`. No rule is decided here: which calls to offer, the status sentence, what a win
was, all come in the snapshots.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Protocol

import discord

from bot.discord import ids
from bot.discord.components import ActButton, ActSelect, CallButton, TableButton, TilesSelect
from bot.discord.pictures import View
from bot.runtime import PrivateSnapshot, PublicSnapshot
from bot.runtime.snapshots import clock_text as clock_text
from bot.runtime.snapshots import suit_word
from data import Phase
from engine.actions import Action, ActionKind
from engine.presets import Preset
from engine.tiles import format_tiles, tile_name
from render.adapt import WIND_WORDS

MAX_ROWS = 5
PER_ROW = 5
COLOURS = {
    Phase.LOBBY: discord.Colour.blurple(),
    Phase.PLAYING: discord.Colour.green(),
    Phase.BETWEEN_HANDS: discord.Colour.gold(),
    Phase.CLOSED: discord.Colour.dark_grey(),
}


@dataclasses.dataclass
class Surface:
    """One message's content: text, embed, controls and the picture to attach (if any)."""

    content: str
    embed: discord.Embed | None
    view: discord.ui.View | None
    picture: View | None
    filename: str


class Located(Protocol):
    """Anything that knows where its table message is (a live table or a snapshot)."""

    @property
    def guild_id(self) -> int | None: ...
    @property
    def channel_id(self) -> int | None: ...
    @property
    def message_id(self) -> int | None: ...


# ------------------------------------------------------------------ shared wording


def preset_line(preset: Preset) -> str:
    """The preset's rules in one line (its summary says the essentials)."""
    return f"**{preset.name}** (`{preset.id}`): {preset.summary}"


def rules_line(public: PublicSnapshot) -> str:
    """The table's rules line: preset, rated or casual, visibility, clock."""
    kind = "rated" if public.rated else "casual"
    return (
        f"**{public.preset_name}** (`{public.preset_id}`): {public.preset_summary}\n"
        f"{kind} · {public.visibility} · {public.clock}"
    )


def timestamp(at: float | None) -> str:
    """A Discord relative timestamp ('in 12 seconds'), drawn by each reader's client."""
    return f"<t:{math.ceil(at)}:R>" if at else ""


def jump_url(guild_id: int | None, channel_id: int | None, message_id: int | None) -> str:
    """The link to a message, or '' when it is not known yet."""
    if not (channel_id and message_id):
        return ""
    return f"https://discord.com/channels/{guild_id or '@me'}/{channel_id}/{message_id}"


def table_url(table: Located) -> str:
    """The link to the table message."""
    return jump_url(table.guild_id, table.channel_id, table.message_id)


def mention(player_id: str) -> str:
    """A user mention (computers have none)."""
    return f"<@{player_id}>" if player_id.isdigit() else player_id


def with_channel(view: View | None, channel_name: str) -> View | None:
    """The picture with the channel's name on it (the runtime does not know channel names)."""
    if view is None or not channel_name:
        return view
    return dataclasses.replace(view, channel_name=channel_name)


# ------------------------------------------------------------------ the table message


def _seat_lines(public: PublicSnapshot) -> str:
    lines = []
    for index, seat in enumerate(public.seats):
        if seat.wind is None:
            if seat.player_id is None:
                lines.append(f"{index + 1}. *(empty)*")
            else:
                who = seat.name if seat.human else f"{seat.name} (computer)"
                lines.append(f"{index + 1}. {who}")
            continue
        line = f"**{WIND_WORDS[seat.wind]}** · {seat.name} · {seat.points} pts"
        if seat.wind == 0:
            line += " · deals"
        if not seat.human:
            line += " · computer"
        elif seat.reserve is not None:
            line += f" · reserve {seat.reserve} s"
        if seat.ready:
            line += " · ready"
        lines.append(line)
    return "\n".join(lines)


def table_surface(public: PublicSnapshot, channel_name: str = "") -> Surface:
    """The table message as the snapshot has it."""
    phase = public.phase
    status = public.status
    if public.deadline and phase is Phase.PLAYING:
        status += f" · {timestamp(public.deadline)}"
    embed = discord.Embed(
        title=public.title,
        description=f"{rules_line(public)}\n\n{status}",
        colour=COLOURS.get(phase, discord.Colour.dark_grey()),
    )
    embed.add_field(name="Seats", value=_seat_lines(public), inline=False)
    footer = [public.preset_id]
    if public.hand_number:
        footer.append(f"hand {public.hand_number}")
    if public.wall_left is not None and phase is Phase.PLAYING:
        footer.append(f"wall {public.wall_left}")
    embed.set_footer(text=" · ".join(footer))
    picture: View | None = None
    filename = f"table-{public.table_id}.png"
    if phase is Phase.BETWEEN_HANDS and public.result is not None:
        picture = public.result.view
        filename = f"result-{public.table_id}.png"
    elif phase is not Phase.LOBBY:
        picture = public.table_view
    picture = with_channel(picture, channel_name)
    if picture is not None:
        embed.set_image(url=f"attachment://{filename}")
    return Surface("", embed, _table_controls(public), picture, filename)


def _table_controls(public: PublicSnapshot) -> discord.ui.View | None:
    view = discord.ui.View(timeout=None)
    table_id = public.table_id
    stamp = ids.Stamp(*public.stamp)
    if public.phase is Phase.LOBBY:
        view.add_item(TableButton(table_id, "join", stamp))
        view.add_item(TableButton(table_id, "leave", stamp))
        if public.can_add_computer:
            view.add_item(TableButton(table_id, "cpu", stamp))
        view.add_item(TableButton(table_id, "start", stamp))
    elif public.phase is Phase.PLAYING:
        for kind in public.calls:  # the same set on every claim window
            call = CallButton(table_id, stamp, kind)
            call.row = 0
            view.add_item(call)
        mine = TableButton(table_id, "hand", stamp)
        mine.row = 1
        view.add_item(mine)
    elif public.phase is Phase.BETWEEN_HANDS:
        label = f"Ready ({public.ready_count}/{public.seat_count})"
        view.add_item(TableButton(table_id, "ready", stamp, label=label))
        view.add_item(TableButton(table_id, "leave", stamp))
    else:
        return None
    return view


# ------------------------------------------------------------------ the result message


def result_text(public: PublicSnapshot) -> str:
    """The result post's first line: which table and hand, and who won."""
    summary = public.result.text if public.result else "The hand is over."
    return f"**{public.title} · hand {public.hand_number}**: {summary}"


def result_surface(public: PublicSnapshot, channel_name: str = "") -> Surface:
    """The message posted when a hand ends: its picture, the points and rating changes."""
    embed = discord.Embed(title=f"{public.title} · result", colour=discord.Colour.gold())
    result = public.result
    picture = None
    if result is not None:
        lines = [f"{name}: {delta:+d} (total {total})" for name, delta, total in result.points]
        embed.add_field(name="Points", value="\n".join(lines), inline=False)
        if result.ratings:
            embed.add_field(name="Ratings", value="\n".join(result.ratings), inline=False)
        picture = with_channel(result.view, channel_name)
    filename = f"result-{public.table_id}.png"
    if picture is not None:
        embed.set_image(url=f"attachment://{filename}")
    return Surface(result_text(public), embed, None, picture, filename)


# ------------------------------------------------------------------ a player's hand


def dm_decision(private: PrivateSnapshot) -> tuple[ids.Stamp, tuple[Action, ...]] | None:
    """The player's own-turn or opening decision (the stamp its controls name, and its
    actions), if one is open.

    Claims on a discard are made with the public call buttons, not in the hand message.
    """
    decision = private.decision
    if decision is None or decision.kind == "claim":
        return None
    return ids.Stamp(*private.stamp), decision.actions


def hand_text(private: PrivateSnapshot, channel_name: str = "") -> str:
    """The words above a player's hand picture (private: tiles may be named)."""
    where = f" in #{channel_name}" if channel_name else ""
    link = table_url(private)
    head = f"**{private.title}**{where}"
    if link:
        head += f" · [table message]({link})"
    if not private.has_hand or private.wind is None:
        return f"{head}\nNo hand is in play."
    head += f" · you sit **{WIND_WORDS[private.wind]}**"
    if private.phase is Phase.CLOSED:
        return f"{head}\nThe table is closed."
    if private.hand_over:
        return f"{head}\nThe hand is over: the result is on the table message."
    decision = private.decision
    if decision is None or decision.kind == "claim":
        # claims are made on the table message; a line about one here would outlive its window
        return f"{head}\nWaiting for the other players: calls are made on the table message."
    clock = f" Clock: {timestamp(decision.deadline)}." if decision.deadline else ""
    kinds = decision.kinds
    if decision.kind == "opening":
        if ActionKind.VOID in kinds:
            return f"{head}\nOpening: choose the suit you will play without.{clock}"
        verb = "pass on" if ActionKind.SWAP in kinds else "set aside"
        return f"{head}\nOpening: choose three tiles of one suit to {verb}.{clock}"
    drew = f" You drew **{tile_name(private.drawn)}**." if private.drawn is not None else ""
    extra = []
    if ActionKind.WIN in kinds:
        extra.append("declare a win")
    if kinds & {ActionKind.CONCEALED_KONG, ActionKind.ADDED_KONG}:
        extra.append("declare a kong")
    offer = f", or {' or '.join(extra)}" if extra else ""
    return f"{head}\nYour turn: discard a tile{offer}.{drew}{clock}"


def hand_surface(private: PrivateSnapshot, channel_name: str = "") -> Surface:
    """A player's private hand message: picture, words, and controls for an open decision."""
    decision = dm_decision(private)
    view = None
    if decision is not None:
        version, actions = decision
        view = hand_controls(
            private.table_id, version, list(actions), list(private.concealed), drawn=private.drawn
        )
    picture = with_channel(private.hand_view, channel_name)
    return Surface(
        hand_text(private, channel_name), None, view, picture, f"hand-{private.table_id}.png"
    )


def _button_for(table_id: int, version: ids.Stamp, action: Action, drawn: int | None) -> ActButton:
    kind = action.kind
    arg = action.suit or "".join(tile_name(t) for t in action.tiles)
    if kind is ActionKind.DISCARD:
        style = (
            discord.ButtonStyle.primary if action.tile == drawn else discord.ButtonStyle.secondary
        )
        return ActButton(table_id, version, action.seat, "discard", arg, label=arg, style=style)
    if kind is ActionKind.WIN:
        label, style = "Win (self draw)", discord.ButtonStyle.success
    elif kind is ActionKind.CONCEALED_KONG:
        label, style = f"Kong {arg}", discord.ButtonStyle.danger
    elif kind is ActionKind.ADDED_KONG:
        label, style = f"Add to kong {arg}", discord.ButtonStyle.danger
    elif kind is ActionKind.VOID:
        label, style = f"Void: {suit_word(action.suit)}", discord.ButtonStyle.primary
    else:
        label, style = str(action).split(" ", 1)[1], discord.ButtonStyle.secondary
    return ActButton(table_id, version, action.seat, kind.value, arg, label=label, style=style)


def hand_controls(
    table_id: int,
    version: ids.Stamp,
    actions: list[Action],
    concealed: list[int],
    *,
    drawn: int | None = None,
) -> discord.ui.View:
    """Controls for one seat's decision: a button per discard where they fit, else a menu.

    Discord allows 5 rows of 5 buttons. Discards take whole rows and the other actions
    (win, kongs, a void suit) a row of their own; when that does not fit, the discards
    become one select menu. Three-tile picks (Sichuan openings) are always a menu.
    """
    view = discord.ui.View(timeout=None)
    if not actions:
        return view
    seat = actions[0].seat
    picks = [a for a in actions if a.kind in (ActionKind.SWAP, ActionKind.REMOVE)]
    if picks:
        options = [
            discord.SelectOption(label=tile_name(tile), value=f"{index}:{tile_name(tile)}")
            for index, tile in enumerate(concealed[:25])
        ]
        verb = "pass on" if picks[0].kind is ActionKind.SWAP else "set aside"
        view.add_item(
            TilesSelect(
                table_id,
                version,
                seat,
                picks[0].kind.value,
                options,
                placeholder=f"Choose three tiles of one suit to {verb}",
            )
        )
        return view
    discards = [a for a in actions if a.kind is ActionKind.DISCARD]
    others = [a for a in actions if a.kind is not ActionKind.DISCARD][:PER_ROW]
    rows_for_discards = math.ceil(len(discards) / PER_ROW)
    fits = rows_for_discards + (1 if others else 0) <= MAX_ROWS
    if fits:
        for index, action in enumerate(discards):
            button = _button_for(table_id, version, action, drawn)
            button.row = index // PER_ROW
            view.add_item(button)
        row = rows_for_discards
    else:
        options = [
            discord.SelectOption(
                label=f"Discard {tile_name(a.tile)}",
                value=f"discard {tile_name(a.tile)}",
                default=False,
            )
            for a in discards[:25]
        ]
        view.add_item(
            ActSelect(table_id, version, seat, options, placeholder="Discard a tile", row=0)
        )
        row = 1
    for action in others:
        button = _button_for(table_id, version, action, drawn)
        button.row = row
        view.add_item(button)
    return view


def chow_choice(table_id: int, version: ids.Stamp, actions: list[Action]) -> discord.ui.View:
    """A private menu of the chows a seat may make on the discard."""
    options = [
        discord.SelectOption(
            label=f"Chow {format_tiles(a.tiles)}",
            value=f"chow {format_tiles(a.tiles)}",
        )
        for a in actions
    ]
    view = discord.ui.View(timeout=None)
    view.add_item(ActSelect(table_id, version, actions[0].seat, options, placeholder="Which chow?"))
    return view
