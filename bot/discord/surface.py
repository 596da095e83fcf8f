"""What the table message and a player's hand message say and offer, built from a live table.

Pure builders (no network): text, embeds and views. The table message is public, so it names
players, seats, points, clocks and whose decision it is, never a tile: the picture (a
`TableView`) shows the ponds and melds. Hand messages are private and may name tiles.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import discord

from bot.discord import ids
from bot.discord.components import ActButton, ActSelect, CallButton, TableButton, TilesSelect
from bot.discord.pictures import (
    View,
    hand_picture,
    result_picture,
    table_picture,
    table_title,
)
from bot.runtime import LiveTable
from data import Phase
from engine.actions import Action, ActionKind
from engine.hand import Phase as HandPhase
from engine.presets import Preset, TimeControl
from engine.tiles import format_tiles, tile_name

WINDS = ("East", "South", "West", "North")
SUIT_WORDS = {"m": "characters", "p": "dots", "s": "bamboo"}
MAX_ROWS = 5
PER_ROW = 5
COLOURS = {
    Phase.LOBBY: discord.Colour.blurple(),
    Phase.PLAYING: discord.Colour.green(),
    Phase.BETWEEN_HANDS: discord.Colour.gold(),
    Phase.CLOSED: discord.Colour.dark_grey(),
}


@dataclass
class Surface:
    """One message's content: text, embed, controls and the picture to attach (if any)."""

    content: str
    embed: discord.Embed | None
    view: discord.ui.View | None
    picture: View | None
    filename: str


# ------------------------------------------------------------------ shared wording


def clock_text(tc: TimeControl) -> str:
    """'standard clock: 5 s a move + 20 s reserve', or 'untimed'."""
    if tc.untimed:
        return "untimed"
    text = f"{tc.name} clock: {tc.base} s a move"
    if tc.reserve:
        text += f" + {tc.reserve} s reserve"
    if tc.deal_limit:
        text += f", {math.ceil(tc.deal_limit / 60)} min a deal"
    return text


def preset_line(preset: Preset) -> str:
    """The preset's rules in one line (its summary says the essentials)."""
    return f"**{preset.name}** (`{preset.id}`): {preset.summary}"


def rules_line(table: LiveTable) -> str:
    """The table's rules line: preset, rated or casual, visibility, clock."""
    kind = "rated" if table.options.rated else "casual"
    return (
        f"{preset_line(table.preset)}\n"
        f"{kind} · {table.options.visibility} · {clock_text(table.time_control)}"
    )


def timestamp(at: float | None) -> str:
    """A Discord relative timestamp ('in 12 seconds'), drawn by each reader's client."""
    return f"<t:{math.ceil(at)}:R>" if at else ""


def jump_url(guild_id: int | None, channel_id: int | None, message_id: int | None) -> str:
    """The link to a message, or '' when it is not known yet."""
    if not (channel_id and message_id):
        return ""
    return f"https://discord.com/channels/{guild_id or '@me'}/{channel_id}/{message_id}"


def table_url(table: LiveTable) -> str:
    """The link to the table message."""
    return jump_url(table.guild_id, table.channel_id, table.message_id)


def mention(player_id: str) -> str:
    """A user mention (computers have none)."""
    return f"<@{player_id}>" if player_id.isdigit() else player_id


def waiting_names(table: LiveTable) -> list[str]:
    """Names of the players the hand waits for."""
    return [table.seat(p).name for p in table.players_to_act()]


# ------------------------------------------------------------------ the table message


def available_calls(table: LiveTable) -> list[str]:
    """Call kinds some seated person may make now, in button order (empty outside windows)."""
    hand = table.hand
    if hand is None or table.phase is not Phase.PLAYING:
        return []
    if hand.phase not in (HandPhase.CLAIMS, HandPhase.ROB):
        return []
    kinds: set[str] = set()
    for player in table.players_to_act():
        if table.seat(player).human:
            kinds.update(action.kind.value for action in table.legal_for(player))
    return [kind for kind in ids.CALL_KINDS if kind in kinds]


def _seat_lines(table: LiveTable) -> str:
    if table.phase is Phase.LOBBY or table.session is None or table.hand is None:
        lines = []
        for index, seat in enumerate(table.seats):
            if seat is None:
                lines.append(f"{index + 1}. *(empty)*")
            else:
                who = f"{seat.name} (computer)" if not seat.human else seat.name
                lines.append(f"{index + 1}. {who}")
        return "\n".join(lines)
    names = table.names_by_hand_seat()
    points = table.points_by_hand_seat()
    timed = not table.time_control.untimed and table.time_control.reserve
    lines = []
    for hand_seat in range(4):
        player = table.player_at(hand_seat)
        line = f"**{WINDS[hand_seat]}** · {names[hand_seat]} · {points[hand_seat]} pts"
        if hand_seat == 0:
            line += " · deals"
        if not table.seat(player).human:
            line += " · computer"
        elif timed and table.phase is Phase.PLAYING:
            line += f" · reserve {int(table.reserves[player])} s"
        if table.phase is Phase.BETWEEN_HANDS and player in table.ready:
            line += " · ready"
        lines.append(line)
    return "\n".join(lines)


def _status(table: LiveTable, closed_reason: str | None) -> str:
    if closed_reason is not None or table.phase is Phase.CLOSED:
        return f"This table is closed ({closed_reason or 'closed'})."
    if table.phase is Phase.LOBBY:
        seated = sum(seat is not None for seat in table.seats)
        if table.full:
            return "All four seats are taken: press **Start** to deal."
        how = (
            " (with an invitation or the join code)"
            if table.options.visibility == "private"
            else ""
        )
        return f"Waiting for players: {seated} of 4 seated. Press **Join** to sit down{how}."
    if table.phase is Phase.BETWEEN_HANDS:
        ready = sum(1 for p in range(4) if p in table.ready)
        return f"{result_summary(table)}\nReady for the next hand: {ready} of 4."
    hand = table.hand
    assert hand is not None
    clock = f" · {timestamp(table.deadline)}" if table.deadline else ""
    names = ", ".join(waiting_names(table)) or "nobody"
    if hand.phase is HandPhase.TURN:
        player = table.player_at(hand.turn)
        return f"**{table.seat(player).name}** ({WINDS[hand.turn]}) to play{clock}"
    if hand.phase is HandPhase.OPENING:
        return f"Opening: waiting for {names}{clock}"
    # who may claim stays private: naming them would tell the table who holds what
    if hand.phase is HandPhase.ROB:
        return f"A kong may be robbed{clock}"
    return f"The latest discard is open to calls{clock}"


def table_surface(
    table: LiveTable, channel_name: str = "", *, closed_reason: str | None = None
) -> Surface:
    """The table message as it should stand now."""
    phase = Phase.CLOSED if closed_reason is not None else table.phase
    embed = discord.Embed(
        title=table_title(table),
        description=f"{rules_line(table)}\n\n{_status(table, closed_reason)}",
        colour=COLOURS.get(phase, discord.Colour.dark_grey()),
    )
    embed.add_field(name="Seats", value=_seat_lines(table), inline=False)
    footer = [table.preset.id]
    if table.session is not None:
        number = table.session.hand_number + (1 if phase is Phase.PLAYING else 0)
        footer.append(f"hand {max(number, 1)}")
    if table.hand is not None and phase is Phase.PLAYING:
        footer.append(f"wall {table.hand.wall_left}")
    embed.set_footer(text=" · ".join(footer))
    picture: View | None = None
    filename = f"table-{table.id}.png"
    if phase is Phase.BETWEEN_HANDS:
        picture = result_picture(table, channel_name)
        filename = f"result-{table.id}.png"
    if picture is None and phase is not Phase.LOBBY:
        picture = table_picture(table, channel_name)
    if picture is not None:
        embed.set_image(url=f"attachment://{filename}")
    view = _table_controls(table, phase)
    return Surface("", embed, view, picture, filename)


def _table_controls(table: LiveTable, phase: Phase) -> discord.ui.View | None:
    view = discord.ui.View(timeout=None)
    if phase is Phase.LOBBY:
        stamp = ids.stamp(table)
        view.add_item(TableButton(table.id, "join", stamp))
        view.add_item(TableButton(table.id, "leave", stamp))
        if not table.options.rated and not table.full:
            view.add_item(TableButton(table.id, "cpu", stamp))
        view.add_item(TableButton(table.id, "start", stamp))
    elif phase is Phase.PLAYING:
        stamp = ids.stamp(table)
        for kind in available_calls(table):
            call = CallButton(table.id, stamp, kind)
            call.row = 0
            view.add_item(call)
        mine = TableButton(table.id, "hand", stamp)
        mine.row = 1
        view.add_item(mine)
    elif phase is Phase.BETWEEN_HANDS:
        stamp = ids.stamp(table)
        ready = sum(1 for p in range(4) if p in table.ready)
        view.add_item(TableButton(table.id, "ready", stamp, label=f"Ready ({ready}/4)"))
        view.add_item(TableButton(table.id, "leave", stamp))
    else:
        return None
    return view


# ------------------------------------------------------------------ the result message


def result_summary(table: LiveTable) -> str:
    """Who won and how, in words (no tiles: the picture has them)."""
    hand = table.hand
    outcome = hand.outcome() if hand is not None else None
    if outcome is None or hand is None:
        return "The hand is over."
    names = table.names_by_hand_seat()
    if not outcome.wins:
        ending = {"wall_draw": "the wall ran out", "deal_limit": "the deal's time ran out"}
        return f"A draw: {ending.get(outcome.termination.value, 'nobody won')}."
    parts = []
    for win in outcome.wins:
        giver = names[win.discarder] if win.discarder is not None else "another player"
        if win.by.value == "self_draw":
            how = "by self draw"
        elif win.by.value == "robbing_kong":
            how = f"robbing {giver}'s kong"
        else:
            how = f"on {giver}'s discard"
        parts.append(f"{names[win.seat]} won {how}: {win.score.fan} {hand.preset.unit}")
    return "; ".join(parts) + "."


def result_text(table: LiveTable) -> str:
    """The result post's first line: which table and hand, and who won."""
    number = table.session.hand_number if table.session else 0
    return f"**{table_title(table)} · hand {number}**: {result_summary(table)}"


def result_surface(table: LiveTable, channel_name: str = "") -> Surface:
    """The message posted when a hand ends: its picture, the points and rating changes."""
    embed = discord.Embed(title=f"{table_title(table)} · result", colour=discord.Colour.gold())
    hand = table.hand
    if hand is not None and hand.outcome() is not None and table.session is not None:
        outcome = hand.outcome()
        assert outcome is not None
        names = table.names_by_hand_seat()
        totals = table.session.points
        lines = []
        for seat in range(4):
            player = table.player_at(seat)
            delta = outcome.deltas[seat]
            lines.append(f"{names[seat]}: {delta:+d} (total {totals[player]})")
        embed.add_field(name="Points", value="\n".join(lines), inline=False)
    changes = table.last_result.rating_changes if table.last_result else ()
    if changes:
        by_id = {s.player_id: s.name for s in table.seats if s is not None}
        lines = []
        for change in changes:
            before = round(change.before)
            after = round(change.after)
            mark = " (provisional)" if change.provisional else ""
            who = by_id.get(change.player_id, change.player_id)
            lines.append(f"{who}: {before} → {after} ({change.display_delta:+d}){mark}")
        embed.add_field(name="Ratings", value="\n".join(lines), inline=False)
    picture = result_picture(table, channel_name)
    filename = f"result-{table.id}.png"
    if picture is not None:
        embed.set_image(url=f"attachment://{filename}")
    return Surface(result_text(table), embed, None, picture, filename)


# ------------------------------------------------------------------ a player's hand


def private_decision(table: LiveTable, player: int) -> tuple[ids.Stamp, list[Action]] | None:
    """The player's own-turn or opening decision (its version and actions), if one is open.

    Claims on a discard are made with the public call buttons, not in the hand message.
    """
    hand = table.hand
    if hand is None or table.phase is not Phase.PLAYING:
        return None
    if hand.phase not in (HandPhase.TURN, HandPhase.OPENING):
        return None
    actions = table.legal_for(player)
    return (ids.stamp(table), actions) if actions else None


def hand_text(table: LiveTable, player: int, channel_name: str = "") -> str:
    """The words above a player's hand picture (private: tiles may be named)."""
    where = f" in #{channel_name}" if channel_name else ""
    link = table_url(table)
    head = f"**{table_title(table)}**{where}"
    if link:
        head += f" · [table message]({link})"
    hand = table.hand
    if hand is None or table.session is None:
        return f"{head}\nNo hand is in play."
    seat = table.hand_seat(player)
    head += f" · you sit **{WINDS[seat]}**"
    if table.phase is Phase.CLOSED:
        return f"{head}\nThe table is closed."
    if table.phase is not Phase.PLAYING or hand.is_over:
        return f"{head}\nThe hand is over: the result is on the table message."
    clock = f" Clock: {timestamp(table.deadline)}." if table.deadline else ""
    decision = private_decision(table, player)
    if decision is not None:
        kinds = {action.kind for action in decision[1]}
        if hand.phase is HandPhase.OPENING:
            if ActionKind.VOID in kinds:
                return f"{head}\nOpening: choose the suit you will play without.{clock}"
            verb = "pass on" if ActionKind.SWAP in kinds else "set aside"
            return f"{head}\nOpening: choose three tiles of one suit to {verb}.{clock}"
        drew = f" You drew **{tile_name(hand.drawn)}**." if hand.drawn is not None else ""
        extra = []
        if ActionKind.WIN in kinds:
            extra.append("declare a win")
        if kinds & {ActionKind.CONCEALED_KONG, ActionKind.ADDED_KONG}:
            extra.append("declare a kong")
        offer = f", or {' or '.join(extra)}" if extra else ""
        return f"{head}\nYour turn: discard a tile{offer}.{drew}{clock}"
    # claims are made on the table message; a line about one here would outlive its window
    return f"{head}\nWaiting for the other players: calls are made on the table message."


def hand_surface(table: LiveTable, player: int, channel_name: str = "") -> Surface:
    """A player's private hand message: picture, words, and controls for an open decision."""
    decision = private_decision(table, player)
    view = None
    if decision is not None and table.hand is not None:
        version, actions = decision
        concealed = sorted(table.hand.hands[table.hand_seat(player)])
        view = hand_controls(table.id, version, actions, concealed, drawn=table.hand.drawn)
    picture = hand_picture(table, player, channel_name)
    return Surface(
        hand_text(table, player, channel_name), None, view, picture, f"hand-{table.id}.png"
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
        label, style = f"Void: {SUIT_WORDS[action.suit]}", discord.ButtonStyle.primary
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
