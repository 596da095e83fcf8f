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

Each fact is worded here once, as a catalogue `Text` (engine/i18n.py, domain `bot`) that each
reader puts in their own language: the status sentence (which the picture shares), what a win
was, the public events of a change, results and ratings, the clock, and the wind and suit names.
The `*_lines`/`*_words` functions give the same in English, for readers without a language.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from bot.runtime.table import COMPUTER_PREFIX
from data import Phase
from data.rating import display
from engine import names
from engine.actions import Action, ActionKind, DeclaredKind
from engine.events import Event
from engine.events import Phase as HandPhase
from engine.families.selfdraw.rules import SetAsideSettlementPart
from engine.hand import HandState
from engine.i18n import DEFAULT_LANGUAGE, Number, Text, has, text
from engine.options import options_text
from engine.outcome import WinRecord
from engine.presets import AfterWin, Preset, TimeControl
from engine.rules import opening_stage, void_suit
from engine.scoring.names import pattern_text
from engine.settlement import POT, WALL_DRAW_REASONS, WIN_REASONS, PaymentDetail, Reason
from engine.table_facts import table_facts
from engine.tiles import Meld, Tile, format_tiles, parse_tiles, tile_name
from render.adapt import (
    hand_view_from_state,
    result_view_from_state,
    set_aside_views,
    table_view_from_state,
    wild_indicator,
)
from render.animate import Moment, deal_moments, moments_of
from render.standings import StandingRow, StandingsView, score_text
from render.views import HandView, ResultView, TableView

if TYPE_CHECKING:
    from bot.runtime.table import LiveTable
    from engine.session import Session

SUIT_WORDS = names.SUITS
CALL_ORDER = ("chow", "pung", "kong", "win", "pass")  # the call buttons, left to right
ENDINGS = ("wall_draw", "deal_limit", "abortive_draw")  # the endings without a win that have words


def public_moment(hand: HandState) -> int:
    """A number naming the hand's current decision, counted from public facts only.

    Controls carry it (the engine's version also counts the answers given in claim windows,
    which tells how many seats could claim). It moves on with every discard, call, kong, win,
    opening stage and tile taken from the wall, and between a declared kong and its robbing
    window; answers inside one window leave it alone.
    """
    steps = hand.discards_made + hand.kongs_made + hand.calls_made + len(hand.wins)
    steps += opening_stage(hand) + len(hand.wall) - hand.wall_left
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


def swap_text(direction: int, seats: int) -> Text:
    """Where a swap sends each player's tiles: `direction` seats on, at a table of `seats`."""
    if direction % seats == 1:
        return text("bot.swap.next" if seats > 2 else "bot.swap.other")
    if direction % seats == seats - 1:
        return text("bot.swap.previous")
    return text("bot.swap.across")


def swap_words(direction: int, seats: int) -> str:
    return str(swap_text(direction, seats))


def table_title(table_id: int, name: str) -> Text:
    """'Table #12' (with its name when it has its own)."""
    default = f"Table {table_id}"
    name = name.strip()
    if name and name != default:
        return text("bot.table.title_named", table=table_id, name=name)
    return text("bot.table.title", table=table_id)


def picture_title(table: LiveTable) -> Text:
    """The title a table's pictures carry: with the table's options where it chose any
    ('Table #12 · min_fan 2'), so a picture says which rules it was played by."""
    title = table_title(table.id, table.name)
    chosen = options_text(table.preset)
    return text("bot.table.title_options", title=title, options=chosen) if chosen else title


def clock_text(tc: TimeControl) -> Text:
    """'standard clock: 5 s a move + 20 s reserve', or 'untimed'."""
    if tc.untimed:
        return text("bot.clock.untimed")
    key = "bot.clock.reserve" if tc.reserve else "bot.clock.base"
    clock = text(key, clock=clock_name(tc.name), base=tc.base, reserve=tc.reserve)
    if tc.deal_limit:
        clock = text("bot.clock.deal_limit", clock=clock, minutes=-(-tc.deal_limit // 60))
    return clock


def preset_name(preset: Preset) -> Text | str:
    """A preset's name in the reader's language (engine.names: its own name if uncatalogued)."""
    return names.preset_name(preset.id, preset.name)


def preset_summary(preset: Preset) -> Text | str:
    """A preset's rules in one sentence, in the reader's language."""
    return names.preset_summary(preset.id, preset.summary)


def clock_name(name: str) -> Text:
    """A time control's name ('standard', 'table')."""
    return text(f"bot.clock.name.{name}")


suit_text = names.suit_name  # a suit's name ('bamboo'); an unknown letter as it is


def suit_word(suit: str | None) -> str:
    return SUIT_WORDS.get(suit or "", suit or "")


wind_text = names.wind_name  # a seat's or round's wind ('East')
unit_text = names.unit_amount  # an amount in the preset's unit ('5 faan', '2 points')


@dataclass(frozen=True)
class _InSentence(Text):
    """A name worded in lower case, as it reads inside an English sentence (Chinese has no case)."""

    def in_language(self, language: str) -> str:
        return super().in_language(language).lower()


def pattern_name(family: str, pattern_id: str, *, in_sentence: bool = False) -> Text:
    """A scoring pattern's name in its variant's own terms: the one place the bot names a
    pattern (event lines, /score); `in_sentence` lower-cases it as the event lines write it."""
    name = pattern_text(family, pattern_id)
    return _InSentence(name.key, name.fields) if in_sentence else name


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
    text: Text  # who won and how, no tiles: "Carol won by a discard from Alice: 5 faan."
    points: tuple[tuple[Text | str, int, int], ...]  # (name, this hand, total) by hand seat
    ratings: tuple[Text, ...]  # "carol: 1500 → 1512 (+12) (provisional)"
    lines: tuple[Text, ...]  # the result and each seat's points, in words
    view: ResultView


@dataclass(frozen=True, slots=True)
class PublicSnapshot:
    """The table as everyone may see it after one stored change."""

    table_id: int
    title: Text
    guild_id: int | None
    channel_id: int | None
    message_id: int | None
    preset_id: str
    preset_name: Text | str
    preset_summary: Text | str
    options_text: str  # the table's options away from the defaults ('' at the defaults)
    rated: bool
    visibility: str
    clock: Text
    phase: Phase
    seat_count: int
    seats: tuple[SeatLine, ...]  # lobby: by table seat; in a hand: by wind (East first)
    status_text: Text  # what the table waits for, or how it stands
    hand_number: int = 0  # the hand in play, or the one just played
    version: int = 0  # the public moment (`public_moment`) the call buttons answer
    stamp: tuple[int, int] = (0, 0)  # what its controls name (`control_stamp`)
    deadline: float | None = None
    calls: tuple[str, ...] = ()
    vocabulary: str = ""  # the preset's words for the calls (Preset.vocabulary: "riichi")
    wall_left: int | None = None
    table_view: TableView | None = None
    result: ResultSummary | None = None
    ended: bool = False  # this change ended a hand: its result is new
    ready_count: int = 0
    can_add_computer: bool = False
    closed_reason: str | None = None
    events: tuple[Text, ...] = ()  # what happened in this change, one line each
    quickplay: bool = False
    moments: tuple[Moment, ...] = ()  # this change's moments to animate (render.animate)
    hand_id: int | None = None  # the stored hand in play, or the one just played
    standings: StandingsView | None = None  # game over: the final standings, best first

    @property
    def status(self) -> str:
        """The status sentence in English (readers with a language word `status_text`)."""
        return str(self.status_text)

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
    # tiles a discard sets down as a kong instead (hubei-laizi's red, green and wild tiles)
    set_down: frozenset[Tile] = frozenset()
    # the words of the declarations rules own (kind name, catalogue key: Part.labels), and
    # the ones made with a discard (Part.with_discard)
    labels: tuple[tuple[str, str], ...] = ()
    with_discard: frozenset[str] = frozenset()
    vocabulary: str = ""  # the preset's words for actions (Preset.vocabulary: "riichi")

    def options(self, kind: str) -> tuple[Action, ...]:
        return tuple(a for a in self.actions if a.kind.value == kind)

    def words(self, action: Action) -> Text:
        """The action in words: a declaration by its rule's label, else `action_text`."""
        key = dict(self.labels).get(action.kind.value)
        if key is not None:
            return text(key, tiles=format_tiles(action.tiles))
        return action_text(action, self.set_down, self.vocabulary, self_draw=self.kind == "turn")

    def declared(self, action: Action) -> str | None:
        """The catalogue key of a declaration's words with its tiles left open ("discard …
        with a stake"), for a question of which tile; None for the loop's own actions."""
        return dict(self.labels).get(action.kind.value)

    @property
    def kinds(self) -> frozenset[ActionKind | DeclaredKind]:
        return frozenset(a.kind for a in self.actions)


@dataclass(frozen=True, slots=True)
class PrivateSnapshot:
    """One player's own view after a change: only ever sent to that player."""

    table_id: int
    title: Text
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
    events: tuple[Text, ...] = ()  # what happened to this player's hand, privately
    # what the rules know about this seat that only its player is told ("Furiten: no ron");
    # the hand picture and the terminal's hand line carry them among the view's notes
    facts: tuple[Text, ...] = ()

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
        "preset_name": preset_name(table.preset),
        "preset_summary": preset_summary(table.preset),
        "options_text": options_text(table.preset),
        "rated": table.options.rated,
        "visibility": table.options.visibility,
        "clock": clock_text(table.time_control),
        "phase": phase,
        "seat_count": count,
        "closed_reason": closed,
        "quickplay": table.name == "Quick Play",
        "stamp": control_stamp(table),
        "vocabulary": table.preset.vocabulary,
    }
    if hand is None or session is None or table.phase is Phase.LOBBY:
        seats = tuple(
            SeatLine(s.name, s.player_id, s.human) if s else SeatLine("(empty)", None, False)
            for s in table.seats
        )
        return PublicSnapshot(
            **common,  # type: ignore[arg-type]
            seats=seats,
            status_text=_lobby_status(table, count, closed),
            can_add_computer=not table.options.rated and not table.full,
        )
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
    said = _said_names(table)
    status_now = status_text(hand, said)
    table_view = table_view_from_state(
        hand, said, points, table_name=picture_title(table), status=status_now
    )
    result = _result(table, said) if hand.outcome() is not None else None
    standings = _standings(table, session) if table.phase is Phase.GAME_OVER else None
    if closed is not None:
        status: Text = text("bot.status.closed", reason=closed_reason_text(closed))
    elif standings is not None:
        first = standings.rows[0].name
        status = text("bot.status.game_over", hands=standings.hands, first=first)
    elif table.phase is Phase.BETWEEN_HANDS:
        summary = result.text if result else text("bot.status.over")
        status = text("bot.status.between", summary=summary, ready=len(table.ready), seats=count)
    else:
        status = status_now
    lines = list(_deal_lines(table, said, hand_number) if dealt else ())
    lines += event_texts(table, events, said, wins_before)
    if ended and result is not None:
        lines += result.lines
    if standings is not None:
        lines += [text("bot.table.standings"), *standing_lines(standings)]
    return PublicSnapshot(
        **common,  # type: ignore[arg-type]
        seats=tuple(lines_of_seats),
        status_text=status,
        hand_number=max(hand_number, 1),
        version=public_moment(hand) if playing else 0,
        deadline=table.deadline if playing else None,
        calls=window_calls(table),
        wall_left=hand.wall_left,
        table_view=table_view,
        result=result,
        ended=ended,
        hand_id=table.hand_id,
        ready_count=len(table.ready) if table.phase is Phase.BETWEEN_HANDS else 0,
        events=tuple(lines),
        moments=tuple((deal_moments(hand) if dealt else []) + moments_of(hand, events)),
        standings=standings,
    )


def _standings(table: LiveTable, session: Session) -> StandingsView:
    """The game's final standings, best place first (names as readers are told them)."""
    rows = sorted(
        (
            StandingRow(s.place, seat_name(seat.name, seat.player_id), s.points, s.score)
            for s in session.standings()
            for seat in (table.seat(s.player),)
        ),
        key=lambda row: row.place,
    )
    name = picture_title(table)
    return StandingsView(name, preset_name(table.preset), session.hand_number, tuple(rows))


def _standings_said(view: StandingsView, key: str) -> list[Text]:
    return [
        text(
            key,
            place=row.place,
            name=row.name,
            points=Number(row.points),
            score=score_text(row.score),
        )
        for row in view.rows
    ]


def standing_lines(view: StandingsView) -> list[Text]:
    """One line a player: "1. Ann: 40 points, final score +60"."""
    return _standings_said(view, "bot.standing.line")


def standings_line(view: StandingsView) -> Text:
    """The final standings on one line: "Final standings: 1. Ann 35,200 (+45.2), 2. …"."""
    items = _standings_said(view, "bot.standing.short")
    return text("bot.result.standings", standings=text("bot.list", items=items))


def seat_name(name: str, player_id: str | None) -> Text | str:
    """A seat's name as a reader is told it: a computer's ("Computer 2") in their language,
    a person's as they chose it."""
    number = (player_id or "").removeprefix(COMPUTER_PREFIX)
    if player_id != number and name == f"Computer {number}":
        return text("fixups.computer.name", number=number)
    return name


def _said_names(table: LiveTable) -> list[Text | str]:
    """`names_by_hand_seat`, computers' names worded per reader (texts and pictures)."""
    names = table.names_by_hand_seat()
    return [
        seat_name(names[s], table.seat(table.player_at(s)).player_id) for s in range(len(names))
    ]


# why a table closed, as the store keeps it (English) -> how a reader is told
CLOSED_REASONS = {
    "closed": "bot.status.closed_reason",
    "everyone left": "fixups.closed.everyone_left",
    "expired after 24 hours idle": "fixups.closed.expired",
}


def closed_reason_text(reason: str) -> Text | str:
    """A stored closing reason in the reader's words (an unknown one as it is)."""
    key = CLOSED_REASONS.get(reason)
    return text(key) if key else reason


def _lobby_status(table: LiveTable, count: int, closed: str | None) -> Text:
    if closed is not None or table.phase is Phase.CLOSED:
        return text("bot.status.closed", reason=closed_reason_text(closed or "closed"))
    if table.full:
        return text("bot.status.full", seats=count)
    seated = sum(seat is not None for seat in table.seats)
    key = (
        "bot.status.waiting_private"
        if table.options.visibility == "private"
        else "bot.status.waiting"
    )
    return text(key, seated=seated, seats=count)


def status_text(hand: HandState, names: Sequence[Text | str]) -> Text:
    """One public line saying what the table waits for (the table message and picture share it).

    It never says who a claim window or an opening waits for: that would tell who can call.
    """
    phase = hand.phase
    if phase is HandPhase.OVER:
        return text("bot.status.hand_over")
    if phase is HandPhase.TURN:
        return text("bot.status.turn", name=names[hand.turn], wind=wind_text(hand.turn))
    if phase is HandPhase.OPENING:
        opening = hand.preset.openings[opening_stage(hand)]
        return text("bot.status.opening", what=text(f"bot.opening.{opening.value}"))
    if phase is HandPhase.ROB:
        return text("bot.status.rob")
    return text("bot.status.claims")


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
        table_name=table_title(table.id, table.name),  # worded per reader, not in English
        player_name=seat.name,
    )
    facts = tuple(text(f"pictures.fact.{name}") for name in hand.private_facts(wind))
    if facts:
        view = replace(view, blocked=view.blocked + facts)
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
        void=void_suit(hand, wind),
        events=tuple(_private_lines(table, wind, events, timeouts)),
        facts=facts,
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
        hand.decision_version,
        kind,
        tuple(actions),
        table.deadline,
        table.computer(hand, seat),
        set_down_tiles(hand, seat),
        tuple(hand.declaration_labels.items()),
        hand.declared_with_discard,
        table.preset.vocabulary,
    )


def set_down_tiles(hand: HandState, seat: int) -> frozenset[Tile]:
    """The seat's tiles whose discard sets them down as a kong (a red dragon, a turned wild)."""
    return frozenset(t for t in set(hand.hands[seat]) if hand.sets_down(t))


# ------------------------------------------------------------------ what happened, in words


def win_how(win: WinRecord, names: Sequence[Text | str]) -> Text:
    """How a win came: 'self draw', 'a discard from Bob', 'robbing Bob's kong'."""
    by = win.by.value
    if by == "self_draw":
        return text("bot.win.self_draw")
    giver: Text | str = (
        names[win.discarder] if win.discarder is not None else text("bot.win.another")
    )
    key = "bot.win.robbing" if by == "robbing_kong" else "bot.win.discard"
    return text(key, giver=giver)


def win_line(win: WinRecord, names: Sequence[Text | str], unit: str) -> Text:
    """'Carol won by a discard from Alice: 5 faan' (no tiles); where the family counts fu and
    names its limits, 'Ann won by self draw: 4 han 30 fu, mangan'."""
    how = win_how(win, names)
    return text("bot.win.line", name=names[win.seat], how=how, value=value_words(win, unit))


def value_words(win: WinRecord, unit: str) -> Text:
    """A win's value in its unit, with its fu and its limit's name where the score has them."""
    score = win.score
    value = unit_text(unit, score.fan)
    if score.fu:
        value = text("bot.win.value_fu", value=value, fu=score.fu)
    if score.limit_name:
        value = text("bot.win.value_limit", value=value, limit=limit_text(score.limit_name))
    return value


def limit_text(name: str) -> Text:
    """A limit by name ('mangan', 'kazoe') as a sentence says it, in the pictures' words."""
    key = f"pictures.limit.{name}"
    return _InSentence(text(key).key)


def patterns_text(win: WinRecord, family: str) -> Text | None:
    """The win's patterns with their values ('half flush 3, all pungs 3'); None for a basic win.
    A pattern that is a limit of its own is named by it: 'daisangen (yakuman)'."""
    items = []
    for p in win.score.patterns:
        name = pattern_name(family, p.id, in_sentence=True)
        if p.limit and win.score.limit_name:
            limit = limit_text(win.score.limit_name)
            items.append(text("bot.win.pattern_limit", pattern=name, limit=limit))
        else:
            items.append(text("bot.win.pattern", pattern=name, fan=p.fan))
    return text("bot.list", items=items) if items else None


def ending_text(hand: HandState, ending: str) -> Text:
    """Why a hand ended without a (further) win. Where the wall ends in last draws
    (hubei-laizi), the tiles still in it were held back for them: say so, not 'ran out'."""
    last_draws = hand.preset.last_draws
    if ending == "wall_draw" and last_draws:
        return text("bot.ending.last_draws", count=last_draws)
    kind = table_facts(hand).ending if ending == "abortive_draw" else ""
    if kind:  # an abortive draw a rule names (four winds, triple ron)
        return text(f"bot.ending.{kind}")
    return text(f"bot.ending.{ending}") if ending in ENDINGS else text("bot.ending.nobody")


def win_texts(record: WinRecord, preset: Preset, names: Sequence[Text | str]) -> list[Text]:
    """A win told: who won how and for what, with its patterns; then its payment."""
    line = win_line(record, names, preset.unit)
    patterns = patterns_text(record, preset.family)  # a basic win has none
    if patterns is not None:
        lines = [text("bot.event.win_patterns", line=line, patterns=patterns)]
    else:
        lines = [text("bot.event.win", line=line)]
    if any(record.deltas):
        lines.append(text("bot.event.payment", paid=payment_text(record.deltas, names)))
    return lines


def set_aside_texts(hand: HandState) -> list[Text]:
    """'Horse: South (2m).', 'Birds (1s 2s 9s 7s), 2 hits.': the set-aside tiles, revealed."""
    part = hand.part_of(SetAsideSettlementPart)
    label = part.rule.label if part is not None else "Set aside"
    lines = []
    for item in set_aside_views(hand, revealed=True):
        named = part.rule.named_seat(item.tiles, hand.seat_count) if part is not None else None
        what = text(f"bot.set_aside.{label.lower().replace(' ', '_')}")
        if named is not None:
            what = text("bot.set_aside.named", what=what, wind=wind_text(named))
        tiles = " ".join(map(tile_name, item.tiles))
        if item.hits:
            lines.append(text("bot.set_aside.hits", what=what, tiles=tiles, count=len(item.hits)))
        else:
            lines.append(text("bot.set_aside.line", what=what, tiles=tiles))
    return lines


def set_aside_text(hand: HandState, language: str = DEFAULT_LANGUAGE) -> list[str]:
    return [line.in_language(language) for line in set_aside_texts(hand)]


def payment_line(paid: PaymentDetail, names: Sequence[Text | str], vocabulary: str = "") -> Text:
    """A payment event said by its reason: a kong payment, a wall-draw check (tenpai payments
    in Riichi's words), the pot."""
    if paid.reason in WALL_DRAW_REASONS:
        key = "bot.event.wall_check"
    elif paid.reason is Reason.KONG:
        key = "bot.event.kong_payment"
    else:  # a stake into the pot, the pot taken out, or a reason said no other way
        key = "bot.event.pot_payment"
    said = payment_text(paid.deltas, names)
    if paid.pot:
        said = text(
            "bot.list", items=[said, text("bot.payment.pot", delta=Number(paid.pot, signed=True))]
        )
    return in_words(key, vocabulary, paid=said)


def payment_text(deltas: Iterable[int], names: Sequence[Text | str]) -> Text:
    """'Alice +8, Bob -8': each seat's change, zeros left out."""
    items = [
        text("bot.payment.item", name=names[s], delta=Number(d, signed=True))
        for s, d in enumerate(deltas)
        if d
    ]
    return text("bot.list", items=items) if items else text("bot.payment.none")


def _result(table: LiveTable, names: Sequence[Text | str]) -> ResultSummary:
    hand, session = table.hand, table.session
    assert hand is not None and session is not None
    outcome = hand.outcome()
    assert outcome is not None
    unit = hand.preset.unit
    if outcome.wins:
        wins = [win_line(w, names, unit) for w in outcome.wins]
        summary = text("bot.result.wins", wins=_semicolons(wins))
    else:
        summary = text("bot.result.draw", why=ending_text(hand, outcome.termination.value))
    count = len(names)
    settled = table.phase is not Phase.PLAYING  # the session holds the hand's points
    totals = [session.points[table.player_at(s)] for s in range(count)]
    if not settled:
        totals = [t + d for t, d in zip(totals, outcome.deltas, strict=True)]
    points = tuple((names[s], outcome.deltas[s], totals[s]) for s in range(count))
    by_id = {s.player_id: s.name for s in table.seats if s is not None}
    ratings = tuple(
        text(
            "bot.result.rating_provisional" if c.provisional else "bot.result.rating",
            name=by_id.get(c.player_id, c.player_id),
            before=display(c.before),  # as every rating is shown (halves up; round() is
            after=display(c.after),  # banker's, and would not add up with the change)
            delta=Number(c.display_delta, signed=True),
        )
        for c in (table.last_result.rating_changes if table.last_result else ())
    )
    lines = [text("bot.result.hand_over", number=session.hand_number, summary=summary)]
    lines += fact_lines(hand, names)
    lines += [
        text("bot.result.points", name=names[s], delta=Number(d, signed=True), total=Number(t))
        for s, (_, d, t) in enumerate(points)
    ]
    view = result_view_from_state(hand, _said_names(table), table_name=picture_title(table))
    return ResultSummary(session.hand_number, summary, points, ratings, tuple(lines), view)


def fact_lines(hand: HandState, names: Sequence[Text | str]) -> list[Text]:
    """The end of a hand in words beyond who won and for what (the summary, and each win's
    event line with its patterns): the indicators (the ura ones after a riichi win), the honba
    and the pot a winner took; at a draw, who was ready or paid a nagashi mangan. Only what the
    rules show everyone (`engine.table_facts`)."""
    outcome = hand.outcome()
    assert outcome is not None
    facts = table_facts(hand)
    lines = []
    dora, ura = facts.indicator("dora"), facts.indicator("ura")
    if dora is not None and ura is not None:
        shown = {"dora": format_tiles(dora.tiles), "ura": format_tiles(ura.tiles)}
        lines.append(text("bot.result.indicators_ura", **shown))
    elif dora is not None:
        lines.append(text("bot.result.indicators", dora=format_tiles(dora.tiles)))
    if facts.honba_paid and outcome.wins:
        first = names[outcome.wins[0].seat]
        paid = Number(facts.honba_paid)
        lines.append(text("bot.result.honba", count=facts.honba, name=first, points=paid))
    taken = [p for p in outcome.payments if p.payer == POT and p.reason is Reason.POT]
    lines += [
        text("bot.result.pot_taken", name=names[p.payee], points=Number(p.amount)) for p in taken
    ]
    said = [text("pictures.name", name=names[s]) for s in facts.nagashi or facts.ready or ()]
    if facts.nagashi:
        lines.append(text("bot.result.nagashi", names=said))
    elif facts.ready is not None:
        ready = text("bot.result.ready", names=said) if said else text("bot.result.nobody_ready")
        lines.append(ready)
    return lines


def _semicolons(items: Sequence[Text]) -> Text:
    """Items joined as clauses ('A won …; B won …'), each language with its own mark."""
    joined = items[-1]
    for item in reversed(items[:-1]):
        joined = text("bot.clauses", first=item, rest=joined)
    return joined


def _deal_lines(table: LiveTable, names: Sequence[Text | str], number: int) -> list[Text]:
    hand = table.hand
    assert hand is not None
    lines = [
        text("bot.event.deal", number=number, wind=wind_text(hand.round_wind), dealer=names[0])
    ]
    lines += [
        text("bot.event.wild", tiles=format_tiles(item.tiles)) for item in wild_indicator(hand)
    ]
    return lines


CALL_VERBS = ("chow", "pung", "kong")


@dataclass
class _Telling:
    """What the event formatters share while one change is told: the hand, the seats' names,
    and how many of the hand's wins were told before (a win event names its record by order)."""

    hand: HandState
    names: Sequence[Text | str]
    wins: int

    def who(self, event: Event) -> Text | str:
        return self.names[event.seat] if event.seat is not None else ""


def _tile(event: Event) -> str:
    return tile_name(event.tile) if event.tile is not None else ""


def _discard(told: _Telling, event: Event) -> list[Text]:
    return [text("bot.event.discard", who=told.who(event), tile=_tile(event))]


def _bonus(told: _Telling, event: Event) -> list[Text]:
    return [text("bot.event.bonus", who=told.who(event), tile=_tile(event))]


def _nuki(told: _Telling, event: Event) -> list[Text]:
    return [text("bot.event.nuki", who=told.who(event), tile=_tile(event))]


def _call(told: _Telling, event: Event) -> list[Text]:
    verb = event.detail.split(" ", 1)[0]
    if verb == "chow":
        shape = format_tiles(_meld_tiles(event.detail))
        vocabulary = told.hand.preset.vocabulary
        return [
            in_words(
                "bot.event.chow", vocabulary, who=told.who(event), tile=_tile(event), shape=shape
            )
        ]
    key = f"bot.event.{verb}" if verb in CALL_VERBS else "bot.event.call"
    return [in_words(key, told.hand.preset.vocabulary, who=told.who(event), tile=_tile(event))]


def _fixed_kong(told: _Telling, event: Event) -> list[Text]:
    """A red / green / wild tile set down: a replacement follows."""
    wild = event.tile in told.hand.wild_kinds
    key = "bot.event.wild_kong" if wild else "bot.event.fixed_kong"
    return [text(key, who=told.who(event), tile=_tile(event))]


def _kong_declared(told: _Telling, event: Event) -> list[Text]:
    added = event.detail == ActionKind.ADDED_KONG.value
    key = "bot.event.added_kong" if added else "bot.event.concealed_kong"
    return [in_words(key, told.hand.preset.vocabulary, who=told.who(event), tile=_tile(event))]


def _win(told: _Telling, event: Event) -> list[Text]:
    hand = told.hand
    record = hand.wins[told.wins] if told.wins < len(hand.wins) else None
    told.wins += 1
    if record is None:
        return [text("bot.event.wins", who=told.who(event))]
    lines = win_texts(record, hand.preset, told.names)
    if told.wins == 1:  # the tiles set aside at the deal are revealed at the first win
        lines.extend(set_aside_texts(hand))
    after = hand.preset.after_win
    if after is AfterWin.LEAVE and not hand.is_over:
        lines.append(text("bot.event.out", who=told.who(event)))
    elif after is AfterWin.STAY and not hand.is_over:
        lines.append(text("bot.event.locked", who=told.who(event)))
    return lines


def _declared(told: _Telling, event: Event) -> list[Text]:
    """A rule's own declaration made in public (riichi, nine terminals): who declared what."""
    return [text(f"bot.event.{event.kind}", who=told.who(event))]


def _payment(told: _Telling, event: Event) -> list[Text]:
    paid = PaymentDetail.parse(event.detail, event.reason)
    if paid.reason in WIN_REASONS:
        return []  # a win's payment comes just before it: said with the win
    return [payment_line(paid, told.names, told.hand.preset.vocabulary)]


def _swap(told: _Telling, event: Event) -> list[Text]:
    return [text("bot.event.swap", where=swap_text(int(event.detail), told.hand.seat_count))]


def _void_revealed(told: _Telling, event: Event) -> list[Text]:
    voids = [
        text("bot.event.void_item", name=told.names[s], suit=suit_text(v))
        for s, v in enumerate(event.detail)
        if s < len(told.names)
    ]
    return [text("bot.event.voids", voids=voids)]


def _hand_over(told: _Telling, event: Event) -> list[Text]:
    if event.detail == "win":
        return []  # the win itself was told
    return [text("bot.event.hand_over", why=ending_text(told.hand, event.detail))]


EventWording = Callable[[_Telling, Event], list[Text]]

# Each public event kind and how it is told; a kind not here (claim windows, the opening's
# bookkeeping, the kong's replacement draw) says nothing. A new event joins by adding a row.
EVENT_WORDING: Mapping[str, EventWording] = {
    "discard": _discard,
    "bonus": _bonus,
    "nuki": _nuki,
    "call": _call,
    "fixed_kong": _fixed_kong,
    "kong_declared": _kong_declared,
    "win": _win,
    "payment": _payment,
    "swap": _swap,
    "void_revealed": _void_revealed,
    "hand_over": _hand_over,
    "riichi": _declared,
    "nine_terminals": _declared,
}


def event_texts(
    table: LiveTable, events: Sequence[Event], names: Sequence[Text | str], wins_before: int = 0
) -> list[Text]:
    """One line per public event; private events (draws) and window bookkeeping are skipped."""
    hand = table.hand
    assert hand is not None
    told = _Telling(hand, names, wins_before)
    lines: list[Text] = []
    for event in events:
        wording = EVENT_WORDING.get(event.kind)
        if wording is not None and not event.private:
            lines += wording(told, event)
    return lines


def event_lines(
    table: LiveTable,
    events: Sequence[Event],
    names: Sequence[str],
    wins_before: int = 0,
    language: str = DEFAULT_LANGUAGE,
) -> list[str]:
    """`event_texts` in one language (English unless told)."""
    return [line.in_language(language) for line in event_texts(table, events, names, wins_before)]


def action_text(
    action: Action,
    set_down: frozenset[Tile] = frozenset(),
    vocabulary: str = "",
    *,
    self_draw: bool = False,
) -> Text:
    """An action in words and notation: 'discard 5m', 'pung 7p', 'declare bamboo void'; a
    discard of a tile in `set_down` (`Decision.set_down`) is said as the kong it makes. In a
    preset's `vocabulary` where it has its own words ('pon 7p'; a win 'ron', or 'tsumo' on
    the seat's own turn, `self_draw`)."""
    if action.kind is ActionKind.DISCARD and action.tiles and action.tiles[0] in set_down:
        return text("bot.action.set_down", tiles=format_tiles(action.tiles))
    if action.kind is ActionKind.VOID:
        return text("bot.action.void", suit=action.suit, name=suit_text(action.suit))
    key = f"bot.action.{action.kind.value}"
    if key not in _ACTION_KEYS:
        return Text("bot.action.other", {"action": str(action)})
    if self_draw and action.kind is ActionKind.WIN:
        key = "bot.action.win_self_draw"
    return in_words(key, vocabulary, tiles=format_tiles(action.tiles))


def in_words(key: str, vocabulary: str, /, **fields: object) -> Text:
    """`key` as the players of a preset say it (`Preset.vocabulary`): the catalogue's
    `<key>.<vocabulary>` where it has one ('Ron' for `bot.call.win` at a Riichi table), else
    `key` itself.

    >>> str(in_words("bot.call.win", "riichi")), str(in_words("bot.call.win", ""))
    ('Ron', 'Win')
    """
    own = f"{key}.{vocabulary}"
    return text(own if vocabulary and has(own) else key, **fields)


_ACTION_KEYS = frozenset(
    f"bot.action.{kind.value}" for kind in ActionKind if kind is not ActionKind.TIME_UP
)


def meld_text(meld: Meld) -> Text:
    """A meld in words and notation, as a meld on the table (not the menu's call, which says
    'add 7z to your pung'): 'pung 111p', 'added kong 7777z', '碰111p'."""
    return text(f"bot.meld.{meld.kind.value}", tiles=format_tiles(meld.tiles))


def action_words(action: Action) -> str:
    return str(action_text(action))


def _meld_tiles(detail: str) -> list[int]:
    """The tiles of a meld as the engine's call event spells it ('chow 456m')."""
    return parse_tiles(detail.split(" ", 1)[1]) if " " in detail else []


def _private_lines(
    table: LiveTable, wind: int, events: Sequence[Event], timeouts: Sequence[Action]
) -> list[Text]:
    """What happened to this seat's own tiles: the clock's moves, the tiles a swap brought
    (a drawn tile is in the hand view)."""
    hand = table.hand
    assert hand is not None
    mine = [a for a in timeouts if a.seat == wind]
    set_down = frozenset(t for a in mine for t in a.tiles if hand.sets_down(t))
    lines = [text("bot.event.time_up", action=action_text(a, set_down)) for a in mine]
    for event in events:
        if event.kind == "swap":
            direction = int(event.detail)
            source = (wind - direction) % len(hand.hands)
            picks = [a for a in hand.log if a.kind is ActionKind.SWAP and a.seat == source]
            if picks:
                came = format_tiles(picks[-1].tiles)
                lines.append(text("bot.event.received", tiles=came, wind=wind_text(source)))
    return lines
