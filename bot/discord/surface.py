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
from bot.discord.components import (
    ActButton,
    ActSelect,
    CallButton,
    TableButton,
    TilesSelect,
    ToggleButton,
)
from bot.discord.pictures import View
from bot.runtime import PrivateSnapshot, PublicSnapshot
from bot.runtime.automatic import TOGGLES
from bot.runtime.snapshots import Decision
from bot.runtime.words import (
    action_text,
    dashed_tiles,
    in_words,
    joined,
    open_hand,
    seat_name,
    standing_lines,
    standings_line,
    suit_text,
    wind_text,
)
from bot.runtime.words import clock_text as clock_text
from data import Phase
from engine.actions import Action, ActionKind
from engine.i18n import Number, Text, text, worded
from engine.tiles import tile_name

MAX_ROWS = 5
PER_ROW = 5
COLOURS = {
    Phase.LOBBY: discord.Colour.blurple(),
    Phase.PLAYING: discord.Colour.green(),
    Phase.BETWEEN_HANDS: discord.Colour.gold(),
    Phase.CLOSED: discord.Colour.dark_grey(),
    Phase.GAME_OVER: discord.Colour.dark_gold(),
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


def rules_line(public: PublicSnapshot) -> Text:
    """The table's rules line: preset, rated or casual, visibility, clock (and the table's
    options where it chose any)."""
    rules = text(
        "bot.table.rules",
        name=public.preset_name,
        preset=public.preset_id,
        summary=public.preset_summary,
        kind=text("bot.table.rated" if public.rated else "bot.table.casual"),
        visibility=text(f"bot.table.{public.visibility}"),
        clock=public.clock,
    )
    if not public.options_text:
        return rules
    return text("bot.table.rules_options", rules=rules, options=public.options_text)


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


def _seat_lines(public: PublicSnapshot) -> list[Text]:
    lines = []
    for index, seat in enumerate(public.seats):
        number = index + 1
        if seat.wind is None:
            if seat.player_id is None:
                lines.append(text("bot.seat.empty", number=number))
            else:
                key = "bot.seat.person" if seat.human else "bot.seat.computer"
                lines.append(text(key, number=number, name=seat_name(seat.name, seat.player_id)))
            continue
        parts = [
            text(
                "bot.seat.in_hand",
                wind=wind_text(seat.wind),
                name=seat_name(seat.name, seat.player_id),
                points=Number(seat.points or 0),
            )
        ]
        if seat.wind == 0:
            parts.append(text("bot.seat.deals"))
        if not seat.human:
            parts.append(text("bot.seat.is_computer"))
        elif seat.reserve is not None:
            parts.append(text("bot.seat.reserve", seconds=seat.reserve))
        if seat.ready:
            parts.append(text("bot.seat.ready"))
        lines.append(joined(parts, "bot.dotted"))  # one line: parts joined with ' · '
    return lines


def table_surface(public: PublicSnapshot, channel_name: str = "", language: str = "en") -> Surface:
    """The table message as the snapshot has it, in `language`."""
    phase = public.phase
    status = worded(public.status_text, language)
    if public.deadline and phase is Phase.PLAYING:
        status += f" · {timestamp(public.deadline)}"
    if public.notice is not None:  # why the game went on into an extra round
        status = f"{worded(public.notice, language)}\n{status}"
    named = public.table_view.hand_name if public.table_view is not None else ""
    title = text("bot.table.title_hand", title=public.title, hand=named) if named else public.title
    embed = discord.Embed(
        title=title.in_language(language),
        description=f"{rules_line(public).in_language(language)}\n\n{status}",
        colour=COLOURS.get(phase, discord.Colour.dark_grey()),
    )
    seats = "\n".join(line.in_language(language) for line in _seat_lines(public))
    embed.add_field(name=text("bot.table.seats").in_language(language), value=seats, inline=False)
    footer = [public.preset_id]
    if public.hand_number:
        footer.append(text("bot.table.hand", number=public.hand_number).in_language(language))
    if public.wall_left is not None and phase is Phase.PLAYING:
        footer.append(text("bot.table.wall", left=public.wall_left).in_language(language))
    embed.set_footer(text=" · ".join(footer))
    picture: View | None = None
    filename = f"table-{public.table_id}.png"
    if public.standings is not None:  # game over: the final standings, and no controls
        picture = public.standings
        filename = f"standings-{public.table_id}.png"
        lines = standing_lines(public.standings)
        embed.add_field(
            name=text("bot.table.standings").in_language(language),
            value="\n".join(line.in_language(language) for line in lines),
            inline=False,
        )
    elif phase is Phase.BETWEEN_HANDS and public.result is not None:
        picture = public.result.view
        filename = f"result-{public.table_id}.png"
    elif phase is not Phase.LOBBY:
        picture = public.table_view
    picture = with_channel(picture, channel_name)
    if picture is not None:
        embed.set_image(url=f"attachment://{filename}")
    return Surface("", embed, _table_controls(public, language), picture, filename)


def _table_controls(public: PublicSnapshot, language: str) -> discord.ui.View | None:
    view = discord.ui.View(timeout=None)
    table_id = public.table_id
    stamp = ids.Stamp(*public.stamp)

    def button(verb: str, label: str | None = None) -> TableButton:
        return TableButton(table_id, verb, stamp, label=label, language=language)

    if public.phase is Phase.LOBBY:
        view.add_item(button("join"))
        view.add_item(button("leave"))
        if public.can_add_computer:
            view.add_item(button("cpu"))
        view.add_item(button("start"))
    elif public.phase is Phase.PLAYING:
        for kind in public.calls:  # the same set on every claim window
            call = CallButton(table_id, stamp, kind, language, public.vocabulary)
            call.row = 0
            view.add_item(call)
        mine = button("hand")
        mine.row = 1
        view.add_item(mine)
    elif public.phase is Phase.BETWEEN_HANDS:
        ready = text("bot.button.ready_count", ready=public.ready_count, seats=public.seat_count)
        view.add_item(button("ready", ready.in_language(language)))
        view.add_item(button("leave"))
    else:
        return None
    return view


# ------------------------------------------------------------------ the result message


def result_text(public: PublicSnapshot) -> Text:
    """The result post's first line: which table and hand, and who won."""
    summary = public.result.text if public.result else text("bot.status.over")
    named = public.result.view.hand_name if public.result else ""
    if named:  # the hand as its players name it: 'East 2, 1 honba'
        return text("bot.result.post_named", title=public.title, hand=named, summary=summary)
    return text("bot.result.post", title=public.title, number=public.hand_number, summary=summary)


def result_surface(public: PublicSnapshot, channel_name: str = "", language: str = "en") -> Surface:
    """The message posted when a hand ends, in `language`: its picture, the points and rating
    changes."""
    named = public.result.view.hand_name if public.result else ""
    said = text("bot.table.title_hand", title=public.title, hand=named) if named else public.title
    title = text("bot.result.title", title=said).in_language(language)
    embed = discord.Embed(title=title, colour=discord.Colour.gold())
    result = public.result
    picture = None
    if result is not None:
        lines = [
            text(
                "bot.result.total",
                name=name,
                delta=Number(delta, signed=True),
                total=Number(total),
            )
            for name, delta, total in result.points
        ]
        embed.add_field(
            name=text("bot.result.points_title").in_language(language),
            value="\n".join(line.in_language(language) for line in lines),
            inline=False,
        )
        if result.view.ready_hands:  # a draw's ready hands laid open, as the picture has them
            vocabulary = public.vocabulary
            ready = [
                text("bot.result.ready_hand", name=name, tiles=open_hand(tiles, melds, vocabulary))
                for name, tiles, melds in result.view.ready_hands
            ]
            embed.add_field(
                name=text("bot.result.ready_title").in_language(language),
                value="\n".join(line.in_language(language) for line in ready),
                inline=False,
            )
        for heading, told in result.every_hand:  # each hand's score, who paid whom
            embed.add_field(
                name=heading.in_language(language).rstrip(":："),
                value="\n".join(line.in_language(language).strip() for line in told),
                inline=False,
            )
        if result.ratings:
            embed.add_field(
                name=text("bot.result.ratings_title").in_language(language),
                value="\n".join(line.in_language(language) for line in result.ratings),
                inline=False,
            )
        picture = with_channel(result.view, channel_name)
    filename = f"result-{public.table_id}.png"
    if picture is not None:
        embed.set_image(url=f"attachment://{filename}")
    content = result_text(public).in_language(language)
    if public.standings is not None:  # the hand ended the game: its standings, in a line
        content += "\n" + standings_line(public.standings).in_language(language)
    return Surface(content, embed, None, picture, filename)


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


def hand_text(private: PrivateSnapshot, channel_name: str = "") -> Text:
    """The words above a player's hand picture (private: tiles may be named)."""
    link = table_url(private)
    head = text("bot.hand.head", title=private.title)
    if channel_name:
        head = text("bot.hand.head_in", head=head, channel=channel_name)
    if link:
        head = text("bot.hand.head_link", head=head, link=link)
    if not private.has_hand or private.wind is None:
        return text("bot.hand.lines", head=head, line=text("bot.hand.no_hand"))
    head = text("bot.hand.head_wind", head=head, wind=wind_text(private.wind))
    return text("bot.hand.lines", head=head, line=_hand_line(private))


def _hand_line(private: PrivateSnapshot) -> Text:
    """What the player is to do now (the second line of `hand_text`)."""
    if private.phase is Phase.CLOSED:
        return text("bot.hand.closed")
    if private.phase is Phase.GAME_OVER:
        return text("bot.hand.game_over")
    if private.hand_over:
        return text("bot.hand.over")
    decision = private.decision
    if decision is None or decision.kind == "claim":
        # claims are made on the table message; a line about one here would outlive its window
        return text("bot.hand.waiting")
    clock = text("bot.hand.clock", at=timestamp(decision.deadline)) if decision.deadline else ""
    kinds = decision.kinds
    if decision.kind == "opening":
        if ActionKind.VOID in kinds:
            return text("bot.hand.opening_void", clock=clock)
        key = "bot.hand.opening_swap" if ActionKind.SWAP in kinds else "bot.hand.opening_remove"
        return text(key, clock=clock)
    drew: Text | str = ""
    if private.drawn is not None:
        drew = text("bot.hand.drew", tile=tile_name(private.drawn))
    win = ActionKind.WIN in kinds
    kong = bool(kinds & {ActionKind.CONCEALED_KONG, ActionKind.ADDED_KONG})
    offer = "_win_kong" if win and kong else "_win" if win else "_kong" if kong else ""
    return in_words(f"bot.hand.turn{offer}", decision.vocabulary, drew=drew, clock=clock)


def hand_surface(private: PrivateSnapshot, channel_name: str = "", language: str = "en") -> Surface:
    """A player's private hand message in `language`: picture, words, and controls for an open
    decision."""
    decision = dm_decision(private)
    view = None
    if decision is not None:
        version, actions = decision
        view = hand_controls(
            private.table_id,
            version,
            list(actions),
            list(private.concealed),
            drawn=private.drawn,
            language=language,
            decision=private.decision,
        )
    if private.has_hand and not private.hand_over:
        view = with_toggles(view, private, language)
    picture = with_channel(private.hand_view, channel_name)
    content = hand_text(private, channel_name).in_language(language)
    return Surface(content, None, view, picture, f"hand-{private.table_id}.png")


def with_toggles(
    view: discord.ui.View | None, private: PrivateSnapshot, language: str
) -> discord.ui.View | None:
    """The player's switches of the automatic moves (bot/runtime/automatic.py) on a row of
    their own, where the decision's controls leave one free."""
    view = view or discord.ui.View(timeout=None)
    used = {item.row for item in view.children if item.row is not None}
    rows = max(used, default=-1) + 1 if used else (1 if view.children else 0)
    if rows >= MAX_ROWS:
        return view
    for toggle in TOGGLES:
        on = toggle in private.toggles
        view.add_item(ToggleButton(private.table_id, toggle, on, language))
        view.children[-1].row = rows
    return view


def _button_for(
    table_id: int,
    version: ids.Stamp,
    action: Action,
    drawn: int | None,
    language: str,
    decision: Decision | None = None,
) -> ActButton:
    kind = action.kind
    tiles = "".join(tile_name(t) for t in action.tiles)
    style = discord.ButtonStyle.secondary
    vocabulary = decision.vocabulary if decision is not None else ""
    if kind is ActionKind.DISCARD:
        if action.tile == drawn:
            style = discord.ButtonStyle.primary
        return ActButton.of(table_id, version, action, label=tiles, style=style)
    if kind is ActionKind.WIN:
        label = in_words("bot.control.win_self_draw", vocabulary)
        style = discord.ButtonStyle.success
    elif kind is ActionKind.CONCEALED_KONG:
        label = in_words("bot.control.kong", vocabulary, tiles=tiles)
        style = discord.ButtonStyle.danger
    elif kind is ActionKind.ADDED_KONG:
        label = in_words("bot.control.add_kong", vocabulary, tiles=tiles)
        style = discord.ButtonStyle.danger
    elif kind is ActionKind.VOID:
        label = text("bot.control.void", suit=suit_text(action.suit))
        style = discord.ButtonStyle.primary
    elif decision is not None and decision.declared(action):  # a rule's, in its own words
        label, style = decision.words(action), discord.ButtonStyle.primary
    else:
        label = action_text(action)
    return ActButton.of(table_id, version, action, label=label.in_language(language), style=style)


def hand_controls(
    table_id: int,
    version: ids.Stamp,
    actions: list[Action],
    concealed: list[int],
    *,
    drawn: int | None = None,
    language: str = "en",
    decision: Decision | None = None,
) -> discord.ui.View:
    """Controls for one seat's decision: a button per discard where they fit, else a menu.

    Discord allows 5 rows of 5 buttons. Discards take whole rows and the other actions
    (win, kongs, a void suit, a rule's declaration, worded as `decision` says) a row of their
    own; when that does not fit, the discards become one select menu. Three-tile picks (Sichuan
    openings) are always a menu. A declaration made with a discard is a menu of its own that
    asks which tile, offering only the tiles the rule offers.
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
        key = (
            "bot.control.pick_swap"
            if picks[0].kind is ActionKind.SWAP
            else "bot.control.pick_remove"
        )
        view.add_item(
            TilesSelect(
                table_id,
                version,
                seat,
                picks[0].kind.value,
                options,
                placeholder=text(key).in_language(language),
            )
        )
        return view
    with_discard = decision.with_discard if decision is not None else frozenset()
    declared = [a for a in actions if a.kind.value in with_discard]
    discards = [a for a in actions if a.kind is ActionKind.DISCARD]
    others = [
        a for a in actions if a.kind is not ActionKind.DISCARD and a.kind.value not in with_discard
    ][:PER_ROW]
    rows_for_discards = math.ceil(len(discards) / PER_ROW)
    menus = len({a.kind for a in declared})
    fits = rows_for_discards + (1 if others else 0) + menus <= MAX_ROWS
    if fits:
        for index, action in enumerate(discards):
            button = _button_for(table_id, version, action, drawn, language)
            button.row = index // PER_ROW
            view.add_item(button)
        row = rows_for_discards
    else:
        options = [
            discord.SelectOption(
                label=text("bot.control.discard", tile=tile_name(a.tile)).in_language(language),
                value=ids.action_value(a),
                default=False,
            )
            for a in discards[:25]
        ]
        placeholder = text("bot.control.discard_placeholder").in_language(language)
        view.add_item(ActSelect(table_id, version, seat, options, placeholder=placeholder, row=0))
        row = 1
    for action in others:
        button = _button_for(table_id, version, action, drawn, language, decision)
        button.row = row
        view.add_item(button)
    if decision is not None and declared:
        _declaration_menus(view, table_id, version, declared, decision, language, row + 1)
    return view


def _declaration_menus(
    view: discord.ui.View,
    table_id: int,
    version: ids.Stamp,
    declared: list[Action],
    decision: Decision,
    language: str,
    row: int,
) -> None:
    """A menu per declaration made with a discard: which tile (the ones the rule offers)."""
    for number, kind in enumerate(dict.fromkeys(a.kind for a in declared), 1):
        offered = [a for a in declared if a.kind is kind][:25]
        key = decision.declared(offered[0])
        assert key is not None
        options = [
            discord.SelectOption(
                label=decision.words(a).in_language(language), value=ids.action_value(a)
            )
            for a in offered
        ]
        placeholder = text("bot.control.which_tile", what=text(key, tiles="…"))
        menu = ActSelect(
            table_id,
            version,
            offered[0].seat,
            options,
            placeholder=placeholder.in_language(language),
            row=min(row, MAX_ROWS - 1),
            menu_number=number,
        )
        view.add_item(menu)
        row += 1


def call_choice(
    table_id: int,
    version: ids.Stamp,
    kind: str,
    decision: Decision,
    language: str = "en",
) -> discord.ui.View:
    """A private menu of the calls of `kind` a seat may make on the discard, each named by its
    meld's tiles as Tenhou's client offers them ('Chi 4-0-6m', 'Chi 4-5-6m', 'Pon 5-5-0m')."""
    actions = decision.options(kind)
    vocabulary = decision.vocabulary
    options = [
        discord.SelectOption(
            label=in_words(
                f"bot.control.{kind}", vocabulary, tiles=dashed_tiles(decision.meld_of(a))
            ).in_language(language),
            value=ids.action_value(a),
        )
        for a in actions
    ]
    question_key = CALL_QUESTIONS.get(kind, "bot.play.which_tiles")
    placeholder = in_words(question_key, vocabulary).in_language(language)
    view = discord.ui.View(timeout=None)
    view.add_item(ActSelect(table_id, version, actions[0].seat, options, placeholder=placeholder))
    return view


CALL_QUESTIONS = {"chow": "bot.play.which_chow"}  # a pung or kong: which tiles
