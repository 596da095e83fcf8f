"""One public and one private picture of each stored change.

The runtime builds, once per stored change, a frozen `PublicSnapshot` of the table and a frozen
`PrivateSnapshot` for each player whose view changed. Front ends (Discord, the terminal) only
format these values; they never reach back into `LiveTable` or `HandState`.

The rule "nothing public depends on what a seat hides" (RULES.md, "Hidden information stays
hidden") is kept here, in `public_snapshot`: it reads only what the whole table can see (names,
points, melds, ponds, flowers, counts of concealed tiles, the phase, whose turn it is, the wall
count, wins once made) and never a concealed tile, a seat's options, or who a claim window waits
for. Every claim window therefore offers the same call buttons (`window_calls`): the calls the
preset has, plus Pass, whoever can or cannot use them. tests/test_snapshots.py checks that two
tables differing only in concealed tiles give identical public snapshots.

Each fact is worded here once: the status sentence (via `render.adapt.status_line`, which the
picture shares), what a win was, the public events of a change, and the wind and suit names.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from data import Phase
from engine.actions import Action, ActionKind
from engine.hand import Event, HandState, WinRecord
from engine.hand import Phase as HandPhase
from engine.presets import AfterWin, TimeControl
from engine.tiles import format_tiles, parse_tiles, tile_name
from render.adapt import (
    WIND_WORDS,
    hand_view_from_state,
    result_view_from_state,
    set_aside_views,
    status_line,
    table_view_from_state,
    wild_indicator,
    win_how,
)
from render.animate import Moment, deal_moments, moments_of
from render.style import SUIT_NAMES
from render.views import HandView, ResultView, TableView, pretty_pattern

if TYPE_CHECKING:
    from bot.runtime.table import LiveTable

SUIT_WORDS = SUIT_NAMES  # spelled once, in render.style
CALL_ORDER = ("chow", "pung", "kong", "win", "pass")  # the call buttons, left to right
ENDINGS = {"wall_draw": "the wall ran out", "deal_limit": "the deal's time ran out"}


def public_moment(hand: HandState) -> int:
    """A number naming the hand's current decision, counted from public facts only.

    Controls carry it (the engine's version also counts the answers given in claim windows,
    which tells how many seats could claim). It moves on with every discard, call, kong, win,
    opening stage and tile taken from the wall, and between a declared kong and its robbing
    window; answers inside one window leave it alone.
    """
    steps = hand.discards_made + hand.kongs_made + hand.calls_made + len(hand.wins)
    steps += hand.opening_stage + len(hand.wall) - hand.wall_left
    return 2 * steps + (1 if hand.phase is HandPhase.ROB else 0)


def control_stamp(table: LiveTable) -> tuple[int, int]:
    """What a control drawn now names: the hand it belongs to and the moment within it.

    The hand is `LiveTable.hand_number` (a button from an earlier hand is refused even when
    its moment matches); the moment is the public moment in a hand, and in the lobby the
    seating's version (so Add computer pressed twice adds one).
    """
    hand = table.hand
    if table.phase is Phase.LOBBY or table.session is None or hand is None:
        return table.hand_number, table.lobby_version
    return table.hand_number, public_moment(hand)


def seat_count(table: LiveTable) -> int:
    """How many seats the table has (its hand's, which is always the table's)."""
    return table.hand.seat_count if table.hand is not None else table.seat_count


def swap_words(direction: int, seats: int) -> str:
    """Where a swap sends each player's tiles: `direction` seats on, at a table of `seats`."""
    if direction % seats == 1:
        return "to the next seat" if seats > 2 else "to the other seat"
    if direction % seats == seats - 1:
        return "to the previous seat"
    return "across the table"


def table_title(table_id: int, name: str) -> str:
    """'Table #12' (with its name when it has its own)."""
    default = f"Table {table_id}"
    name = name.strip()
    return f"Table #{table_id}" + (f" · {name}" if name and name != default else "")


def clock_text(tc: TimeControl) -> str:
    """'standard clock: 5 s a move + 20 s reserve', or 'untimed'."""
    if tc.untimed:
        return "untimed"
    text = f"{tc.name} clock: {tc.base} s a move"
    if tc.reserve:
        text += f" + {tc.reserve} s reserve"
    if tc.deal_limit:
        text += f", {-(-tc.deal_limit // 60)} min a deal"
    return text


def suit_word(suit: str | None) -> str:
    return SUIT_WORDS.get(suit or "", suit or "")


def window_calls(table: LiveTable) -> tuple[str, ...]:
    """The call buttons of an open claim window: the preset's calls and Pass, for everyone.

    The same set on every window, whoever can use them, so the buttons tell nobody who holds
    what; a press its player cannot make is refused privately.
    """
    hand = table.hand
    if hand is None or table.phase is not Phase.PLAYING:
        return ()
    if hand.phase not in (HandPhase.CLAIMS, HandPhase.ROB):
        return ()
    return tuple(kind for kind in CALL_ORDER if kind != "chow" or table.preset.chow)


# ------------------------------------------------------------------ the snapshots


@dataclass(frozen=True, slots=True)
class SeatLine:
    """One seat of the table message, as everyone sees it."""

    name: str
    player_id: str | None  # None: an empty seat
    human: bool
    wind: int | None = None  # the seat's wind in the hand (0: East, who deals); None: lobby
    points: int | None = None
    reserve: int | None = None  # seconds of reserve left (timed tables, in play)
    ready: bool = False


@dataclass(frozen=True, slots=True)
class ResultSummary:
    """A finished hand in words and as a picture."""

    hand_number: int
    text: str  # who won and how, no tiles: "Carol won on Alice's discard: 5 faan."
    points: tuple[tuple[str, int, int], ...]  # (name, this hand, total) by hand seat
    ratings: tuple[str, ...]  # "carol: 1500 → 1512 (+12) (provisional)"
    lines: tuple[str, ...]  # each win with its patterns, and the payments, in words
    view: ResultView


@dataclass(frozen=True, slots=True)
class PublicSnapshot:
    """The table as everyone may see it after one stored change."""

    table_id: int
    title: str
    guild_id: int | None
    channel_id: int | None
    message_id: int | None
    preset_id: str
    preset_name: str
    preset_summary: str
    rated: bool
    visibility: str
    clock: str
    phase: Phase
    seat_count: int
    seats: tuple[SeatLine, ...]  # lobby: by table seat; in a hand: by wind (East first)
    status: str
    hand_number: int = 0  # the hand in play, or the one just played
    version: int = 0  # the public moment (`public_moment`) the call buttons answer
    stamp: tuple[int, int] = (0, 0)  # what its controls name (`control_stamp`)
    deadline: float | None = None
    calls: tuple[str, ...] = ()
    wall_left: int | None = None
    table_view: TableView | None = None
    result: ResultSummary | None = None
    ended: bool = False  # this change ended a hand: its result is new
    ready_count: int = 0
    can_add_computer: bool = False
    closed_reason: str | None = None
    events: tuple[str, ...] = ()  # what happened in this change, one line each
    quickplay: bool = False
    moments: tuple[Moment, ...] = ()  # this change's moments to animate (render.animate)

    @property
    def humans(self) -> tuple[str, ...]:
        return tuple(s.player_id for s in self.seats if s.player_id and s.human)

    @property
    def seated(self) -> int:
        return sum(s.player_id is not None for s in self.seats)


@dataclass(frozen=True, slots=True)
class Decision:
    """A decision a player has to make now."""

    version: int  # the decision version an answer must name
    kind: str  # "turn", "opening" or "claim"
    actions: tuple[Action, ...]
    deadline: float | None
    suggestion: Action | None  # what a computer player would do

    def options(self, kind: str) -> tuple[Action, ...]:
        return tuple(a for a in self.actions if a.kind.value == kind)

    @property
    def kinds(self) -> frozenset[ActionKind]:
        return frozenset(a.kind for a in self.actions)


@dataclass(frozen=True, slots=True)
class PrivateSnapshot:
    """One player's own view after a change: only ever sent to that player."""

    table_id: int
    title: str
    player: int  # table seat index
    player_id: str
    name: str
    guild_id: int | None
    channel_id: int | None
    message_id: int | None
    hand_id: int | None
    phase: Phase
    version: int = 0  # the engine's decision version now (what `Runtime.act` is given)
    moment: int = 0  # the public moment now (what a control names: `public_moment`)
    stamp: tuple[int, int] = (0, 0)  # what its controls name (`control_stamp`)
    wind: int | None = None
    hand_over: bool = False
    decision: Decision | None = None
    hand_view: HandView | None = None
    concealed: tuple[int, ...] = ()  # sorted, the drawn tile included
    drawn: int | None = None
    void: str | None = None
    events: tuple[str, ...] = ()  # what happened to this player's hand, privately

    @property
    def has_hand(self) -> bool:
        return self.hand_view is not None


# ------------------------------------------------------------------ building them


def public_snapshot(
    table: LiveTable,
    events: Sequence[Event] = (),
    *,
    wins_before: int = 0,
    ended: bool = False,
    dealt: bool = False,
    closed: str | None = None,
) -> PublicSnapshot:
    """The public picture of the table now; `events` are the engine's events of this change."""
    hand, session = table.hand, table.session
    phase = Phase.CLOSED if closed is not None else table.phase
    count = seat_count(table)
    common = {
        "table_id": table.id,
        "title": table_title(table.id, table.name),
        "guild_id": table.guild_id,
        "channel_id": table.channel_id,
        "message_id": table.message_id,
        "preset_id": table.preset.id,
        "preset_name": table.preset.name,
        "preset_summary": table.preset.summary,
        "rated": table.options.rated,
        "visibility": table.options.visibility,
        "clock": clock_text(table.time_control),
        "phase": phase,
        "seat_count": count,
        "closed_reason": closed,
        "quickplay": table.name == "Quick Play",
        "stamp": control_stamp(table),
    }
    if hand is None or session is None or table.phase is Phase.LOBBY:
        seats = tuple(
            SeatLine(s.name, s.player_id, s.human) if s else SeatLine("(empty)", None, False)
            for s in table.seats
        )
        return PublicSnapshot(
            **common,  # type: ignore[arg-type]
            seats=seats,
            status=_lobby_status(table, count, closed),
            can_add_computer=not table.options.rated and not table.full,
        )
    names = table.names_by_hand_seat()
    points = table.points_by_hand_seat()
    playing = table.phase is Phase.PLAYING
    timed = not table.time_control.untimed and table.time_control.reserve
    lines_of_seats: list[SeatLine] = []
    for wind in range(count):
        player = table.player_at(wind)
        seat = table.seat(player)
        reserve = int(table.reserves[player]) if timed and playing and seat.human else None
        lines_of_seats.append(
            SeatLine(
                seat.name, seat.player_id, seat.human, wind, points[wind], reserve,
                ready=table.phase is Phase.BETWEEN_HANDS and player in table.ready,
            )
        )  # fmt: skip
    hand_number = session.hand_number + (1 if playing else 0)
    status_now = status_line(hand, names)
    table_view = table_view_from_state(
        hand, names, points, table_name=str(common["title"]), status=status_now
    )
    result = _result(table, names) if hand.outcome() is not None else None
    if closed is not None:
        status = f"This table is closed ({closed})."
    elif table.phase is Phase.BETWEEN_HANDS:
        ready = len(table.ready)
        summary = result.text if result else "The hand is over."
        status = f"{summary}\nReady for the next hand: {ready} of {count}."
    else:
        status = status_now
    lines = list(_deal_lines(table, names, hand_number) if dealt else ())
    lines += event_lines(table, events, names, wins_before)
    if ended and result is not None:
        lines += result.lines
    return PublicSnapshot(
        **common,  # type: ignore[arg-type]
        seats=tuple(lines_of_seats),
        status=status,
        hand_number=max(hand_number, 1),
        version=public_moment(hand) if playing else 0,
        deadline=table.deadline if playing else None,
        calls=window_calls(table),
        wall_left=hand.wall_left,
        table_view=table_view,
        result=result,
        ended=ended,
        ready_count=len(table.ready) if table.phase is Phase.BETWEEN_HANDS else 0,
        events=tuple(lines),
        moments=tuple((deal_moments(hand) if dealt else []) + moments_of(hand, events)),
    )


def _lobby_status(table: LiveTable, count: int, closed: str | None) -> str:
    if closed is not None or table.phase is Phase.CLOSED:
        return f"This table is closed ({closed or 'closed'})."
    if table.full:
        return f"All {count} seats are taken: press **Start** to deal."
    seated = sum(seat is not None for seat in table.seats)
    how = " (with an invitation or the join code)" if table.options.visibility == "private" else ""
    return f"Waiting for players: {seated} of {count} seated. Press **Join** to sit down{how}."


def private_snapshot(
    table: LiveTable,
    player: int,
    events: Sequence[Event] = (),
    timeouts: Sequence[Action] = (),
) -> PrivateSnapshot:
    """Player `player`'s own view now: their tiles, their decision (if any), its deadline."""
    seat = table.seat(player)
    hand = table.hand
    base = {
        "table_id": table.id,
        "title": table_title(table.id, table.name),
        "player": player,
        "player_id": seat.player_id,
        "name": seat.name,
        "guild_id": table.guild_id,
        "channel_id": table.channel_id,
        "message_id": table.message_id,
        "hand_id": table.hand_id,
        "phase": table.phase,
        "stamp": control_stamp(table),
    }
    if hand is None or table.session is None:
        return PrivateSnapshot(**base)  # type: ignore[arg-type]
    wind = table.hand_seat(player)
    view = hand_view_from_state(
        hand,
        wind,
        table_name=str(base["title"]),
        player_name=seat.name,
    )
    return PrivateSnapshot(
        **base,  # type: ignore[arg-type]
        version=hand.decision_version,
        moment=public_moment(hand),
        wind=wind,
        hand_over=hand.is_over or table.phase is not Phase.PLAYING,
        decision=_decision(table, player),
        hand_view=view,
        concealed=tuple(hand.concealed(wind)),
        drawn=view.drawn,
        void=hand.void[wind],
        events=tuple(_private_lines(table, wind, events, timeouts)),
    )


def _decision(table: LiveTable, player: int) -> Decision | None:
    hand = table.hand
    if hand is None or table.phase is not Phase.PLAYING or hand.is_over:
        return None
    actions = table.legal_for(player)
    if not actions:
        return None
    seat = table.hand_seat(player)
    kind = {HandPhase.TURN: "turn", HandPhase.OPENING: "opening"}.get(hand.phase, "claim")
    return Decision(
        hand.decision_version, kind, tuple(actions), table.deadline, table.computer(hand, seat)
    )


# ------------------------------------------------------------------ what happened, in words


def win_line(win: WinRecord, names: Sequence[str], unit: str) -> str:
    """'Carol won by a discard from Alice: 5 faan' (no tiles)."""
    return f"{names[win.seat]} won by {win_how(win, names)}: {win.score.fan} {unit}"


def patterns_text(win: WinRecord) -> str:
    return ", ".join(f"{pretty_pattern(p.id).lower()} {p.fan}" for p in win.score.patterns)


def set_aside_text(hand: HandState) -> list[str]:
    """'Horse: South (2m).', 'Birds (1s 2s 9s 7s), 2 hits.': the set-aside tiles, revealed."""
    lines = []
    for item in set_aside_views(hand, revealed=True):
        hits = f", {len(item.hits)} hit{'s' if len(item.hits) != 1 else ''}" if item.hits else ""
        lines.append(f"{item.label} ({' '.join(map(tile_name, item.tiles))}){hits}.")
    return lines


def payment_text(deltas: Iterable[int], names: Sequence[str]) -> str:
    return ", ".join(f"{names[s]} {d:+d}" for s, d in enumerate(deltas) if d)


def _result(table: LiveTable, names: Sequence[str]) -> ResultSummary:
    hand, session = table.hand, table.session
    assert hand is not None and session is not None
    outcome = hand.outcome()
    assert outcome is not None
    unit = hand.preset.unit
    if outcome.wins:
        text = "; ".join(win_line(w, names, unit) for w in outcome.wins) + "."
    else:
        text = f"A draw: {ENDINGS.get(outcome.termination.value, 'nobody won')}."
    count = len(names)
    settled = table.phase is not Phase.PLAYING  # the session holds the hand's points
    totals = [session.points[table.player_at(s)] for s in range(count)]
    if not settled:
        totals = [t + d for t, d in zip(totals, outcome.deltas, strict=True)]
    points = tuple((names[s], outcome.deltas[s], totals[s]) for s in range(count))
    by_id = {s.player_id: s.name for s in table.seats if s is not None}
    ratings = tuple(
        f"{by_id.get(c.player_id, c.player_id)}: {round(c.before)} → {round(c.after)} "
        f"({c.display_delta:+d})" + (" (provisional)" if c.provisional else "")
        for c in (table.last_result.rating_changes if table.last_result else ())
    )
    lines = [f"Hand {session.hand_number} over: {text}"]
    lines += [f"  {names[s]}: {d:+d} (total {t})" for s, (_, d, t) in enumerate(points)]
    view = result_view_from_state(hand, names, table_name=table_title(table.id, table.name))
    return ResultSummary(session.hand_number, text, points, ratings, tuple(lines), view)


def _deal_lines(table: LiveTable, names: Sequence[str], number: int) -> list[str]:
    hand = table.hand
    assert hand is not None
    lines = [f"Hand {number} · {WIND_WORDS[hand.round_wind]} round · {names[0]} deals."]
    lines += [f"The wild is {format_tiles(item.tiles)}." for item in wild_indicator(hand)]
    return lines


def event_lines(
    table: LiveTable, events: Sequence[Event], names: Sequence[str], wins_before: int = 0
) -> list[str]:
    """One line per public event; private events (draws) and window bookkeeping are skipped."""
    hand = table.hand
    assert hand is not None
    lines: list[str] = []
    wins = wins_before
    for index, event in enumerate(events):
        kind, seat = event.kind, event.seat
        following = events[index + 1].kind if index + 1 < len(events) else ""
        who = names[seat] if seat is not None else ""
        tile = tile_name(event.tile) if event.tile is not None else ""
        if event.private or kind in ("claim_window", "opening", "opening_done", "kong"):
            continue
        if kind == "discard":
            lines.append(f"{who} discards {tile}.")
        elif kind == "bonus":
            lines.append(f"{who} shows a bonus tile: {tile}.")
        elif kind == "call":
            verb = {"chow": "chows", "pung": "pungs", "kong": "kongs"}.get(
                event.detail.split(" ", 1)[0], "calls"
            )
            shape = f" ({format_tiles(_meld_tiles(event.detail))})" if verb == "chows" else ""
            lines.append(f"{who} {verb} {tile}{shape}.")
        elif kind == "fixed_kong":  # a red / green / wild tile set down: a replacement follows
            what = f"the wild {tile}" if event.tile in hand.wild_kinds else tile
            lines.append(f"{who} sets down {what} as a kong and draws a replacement.")
        elif kind == "kong_declared":
            if event.detail == ActionKind.ADDED_KONG.value:
                lines.append(f"{who} adds {tile} to their pung (a kong that may be robbed).")
            else:
                lines.append(f"{who} declares a concealed kong of {tile}.")
        elif kind == "win":
            record = hand.wins[wins] if wins < len(hand.wins) else None
            wins += 1
            if record is None:
                lines.append(f"{who} wins.")
                continue
            line = win_line(record, names, hand.preset.unit)
            patterns = patterns_text(record)  # a basic win has none
            lines.append(f"{line} ({patterns})." if patterns else f"{line}.")
            paid = payment_text(record.deltas, names)
            if paid:
                lines.append(f"Payment: {paid}.")
            if wins == 1:  # the tiles set aside at the deal are revealed at the first win
                lines.extend(set_aside_text(hand))
            after = hand.preset.after_win
            if after is AfterWin.LEAVE and not hand.is_over:
                lines.append(f"{who} is out of the hand.")
            elif after is AfterWin.STAY and not hand.is_over:
                lines.append(f"{who}'s hand is locked: they draw and discard until the end.")
        elif kind == "payment":
            if following == "win":
                continue  # a win's payment comes just before it: said with the win
            deltas = [int(d) for d in event.detail.split()]
            label = "Wall-draw check" if following == "hand_over" else "Kong payment"
            lines.append(f"{label}: {payment_text(deltas, names)}.")
        elif kind == "swap":
            direction = int(event.detail)
            words = swap_words(direction, hand.seat_count)
            lines.append(f"Swap: everyone passes three tiles {words}.")
        elif kind == "void_revealed":
            voids = ", ".join(
                f"{names[s]} ({suit_word(v)})" for s, v in enumerate(event.detail) if s < len(names)
            )
            lines.append(f"Void suits: {voids}.")
        elif kind == "hand_over" and event.detail != "win":
            lines.append(f"The hand is over: {ENDINGS.get(event.detail, event.detail)}.")
    return lines


def action_words(action: Action) -> str:
    """An action in words and notation: 'discard 5m', 'pung 7p', 'declare bamboo void'."""
    tiles = format_tiles(action.tiles)
    words = {
        ActionKind.DISCARD: f"discard {tiles}",
        ActionKind.WIN: "win",
        ActionKind.PASS: "pass",
        ActionKind.CHOW: f"chow {tiles}",
        ActionKind.PUNG: f"pung {tiles}",
        ActionKind.KONG: f"kong {tiles}",
        ActionKind.CONCEALED_KONG: f"concealed kong {tiles}",
        ActionKind.ADDED_KONG: f"add {tiles} to your pung (kong)",
        ActionKind.SWAP: f"pass on {tiles}",
        ActionKind.REMOVE: f"set aside {tiles}",
        ActionKind.VOID: f"void {action.suit} ({suit_word(action.suit)})",
    }
    return words.get(action.kind, str(action))


def _meld_tiles(detail: str) -> list[int]:
    """The tiles of a meld as the engine's call event spells it ('chow 456m')."""
    return parse_tiles(detail.split(" ", 1)[1]) if " " in detail else []


def _private_lines(
    table: LiveTable, wind: int, events: Sequence[Event], timeouts: Sequence[Action]
) -> list[str]:
    """What happened to this seat's own tiles: the clock's moves, the tiles a swap brought
    (a drawn tile is in the hand view)."""
    hand = table.hand
    assert hand is not None
    mine = [a for a in timeouts if a.seat == wind]
    lines = [f"Time's up: {action_words(a)} was played for you." for a in mine]
    for event in events:
        if event.kind == "swap":
            direction = int(event.detail)
            source = (wind - direction) % len(hand.hands)
            picks = [a for a in hand.log if a.kind is ActionKind.SWAP and a.seat == source]
            if picks:
                came = format_tiles(picks[-1].tiles)
                lines.append(f"You received {came} from {WIND_WORDS[source]}.")
    return lines
