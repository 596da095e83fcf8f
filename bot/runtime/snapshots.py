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

Every fact in these values is worded in words.py.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from bot.runtime.automatic import toggles_of
from bot.runtime.every_hand_words import Part, every_hand_parts
from bot.runtime.words import (
    action_text,
    clock_text,
    deal_lines,
    event_texts,
    extra_round_text,
    lobby_status,
    picture_title,
    preset_name,
    preset_summary,
    private_lines,
    public_status,
    rating_texts,
    result_lines,
    result_text,
    said_names,
    seat_name,
    standing_lines,
    status_text,
    table_title,
)
from data import Phase
from engine.actions import Action, ActionKind, DeclaredKind
from engine.events import Event
from engine.events import Phase as HandPhase
from engine.hand import HandState
from engine.i18n import Text, text
from engine.options import options_text
from engine.rules import opening_stage, void_suit
from engine.tiles import Tile, format_tiles
from render.adapt import hand_view_from_state, result_view_from_state, table_view_from_state
from render.animate import Moment, deal_moments, moments_of
from render.standings import StandingRow, StandingsView
from render.views import HandView, ResultView, TableView

if TYPE_CHECKING:
    from bot.runtime.table import LiveTable
    from engine.session import Session

CALL_ORDER = ("chow", "pung", "kong", "win", "pass")  # the call buttons, left to right


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
    # where every hand is scored: each seat's score, and who paid whom (a heading and lines each)
    every_hand: tuple[Part, ...] = ()


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
    notice: Text | None = None  # in a game's extra round, why it went on ('nobody has 30,000')

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
    # each call's meld as physical tiles (the claimed one among them), and the calls that may
    # give a plain five or the red one: those are worded by their melds ('chi 406m')
    melds: tuple[tuple[Action, tuple[Tile, ...]], ...] = ()
    five_choices: frozenset[Action] = frozenset()
    # why a declaration of the rules is not offered now (kind name, words: Part.refusal)
    refusals: tuple[tuple[str, Text], ...] = ()

    def options(self, kind: str) -> tuple[Action, ...]:
        return tuple(a for a in self.actions if a.kind.value == kind)

    def meld_of(self, action: Action) -> tuple[Tile, ...]:
        """The physical tiles of the meld a call makes (the action's own tiles otherwise)."""
        return dict(self.melds).get(action, action.tiles)

    def words(self, action: Action) -> Text:
        """The action in words: a declaration by its rule's label, else `action_text` (a call
        that chooses between a five and its red five by its meld's tiles)."""
        key = dict(self.labels).get(action.kind.value)
        if key is not None:
            return text(key, tiles=format_tiles(action.tiles))
        if action in self.five_choices:
            action = replace(action, tiles=self.meld_of(action))
        return action_text(action, self.set_down, self.vocabulary, self_draw=self.kind == "turn")

    def typed(self, action: Action) -> str:
        """The action as the README says to type it, in the preset's words ('discard 3s',
        'riichi 3s', 'pon 5m'; 'pon 550m' where a five is chosen)."""
        if action in self.five_choices:
            return str(self.words(action))
        if not isinstance(action.kind, ActionKind):  # a rule's declaration, typed by its name
            return f"{action.kind.value} {format_tiles(action.tiles)}".strip()
        return str(action_text(action, vocabulary=self.vocabulary, self_draw=self.kind == "turn"))

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
    toggles: frozenset[str] = frozenset()  # the automatic moves this player switched on

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
            status_text=lobby_status(table, count, closed),
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
    said = said_names(table)
    status_now = status_text(hand, said)
    table_view = table_view_from_state(
        hand, said, points, table_name=picture_title(table), status=status_now
    )
    result = _result(table, said) if hand.outcome() is not None else None
    standings = _standings(table, session) if table.phase is Phase.GAME_OVER else None
    status = public_status(
        table, count, status_now, closed, standings, result.text if result else None
    )
    lines = list(deal_lines(table, said, hand_number) if dealt else ())
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
        notice=extra_round_text(hand) if playing else None,
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
        "toggles": toggles_of(table, seat.player_id),
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
        events=tuple(private_lines(table, wind, events, timeouts)),
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
    calls = [a for a in actions if a.kind in _CALLS] if kind == "claim" else []
    melds = tuple((a, hand.call_meld_tiles(a)) for a in calls)
    return Decision(
        hand.decision_version,
        kind,
        tuple(actions),
        table.deadline,
        table.suggestion(hand, seat),
        set_down_tiles(hand, seat),
        tuple(hand.declaration_labels.items()),
        hand.declared_with_discard,
        table.preset.vocabulary,
        melds,
        five_choices(hand, calls),
        _refusals(hand, seat, actions),
    )


_CALLS = (ActionKind.CHOW, ActionKind.PUNG, ActionKind.KONG)


def five_choices(hand: HandState, calls: Sequence[Action]) -> frozenset[Action]:
    """The calls that may give a plain five or the red one from the hand: each plain call
    whose red-five twin is offered too, and the twin (`HandState.red_choice`)."""
    tile = hand.claim_tile
    found: set[Action] = set()
    for call in calls:
        twin = None if tile is None else hand.red_choice(call.seat, call, tile)
        if twin is not None and twin in calls:
            found |= {call, twin}
    return frozenset(found)


def _refusals(
    hand: HandState, seat: int, offered: Sequence[Action]
) -> tuple[tuple[str, Text], ...]:
    """Why each declaration the rules own and do not offer now is not offered (Part.refusal)."""
    kinds = {a.kind for a in offered}
    found = []
    for part in hand.parts:
        for kind in part.labels:
            if kind not in kinds and (why := part.refusal(seat)) is not None:
                found.append((kind.value, why))
    return tuple(found)


def set_down_tiles(hand: HandState, seat: int) -> frozenset[Tile]:
    """The seat's tiles whose discard sets them down as a kong (a red dragon, a turned wild)."""
    return frozenset(t for t in set(hand.hands[seat]) if hand.sets_down(t))


def _result(table: LiveTable, names: Sequence[Text | str]) -> ResultSummary:
    hand, session = table.hand, table.session
    assert hand is not None and session is not None
    outcome = hand.outcome()
    assert outcome is not None
    summary = result_text(hand, names)
    count = len(names)
    settled = table.phase is not Phase.PLAYING  # the session holds the hand's points
    totals = [session.points[table.player_at(s)] for s in range(count)]
    if not settled:
        totals = [t + d for t, d in zip(totals, outcome.deltas, strict=True)]
    # a seat's stakes left its points when paid, as the table showed: not in its change
    received = list(outcome.received)
    view = result_view_from_state(hand, said_names(table), table_name=picture_title(table))
    left = session.pot_to_leader if settled and session.over else None
    pot_left = None
    if left is not None:  # the game's last pot went to the leader: counted in its change
        seat, amount = table.hand_seat(left[0]), left[1]
        received[seat] += amount
        pot_left = (seat, amount)
        view = with_pot_to_leader(view, names[seat], amount)
    points = tuple((names[s], received[s], totals[s]) for s in range(count))
    ratings = tuple(rating_texts(table))
    every_hand = every_hand_parts(outcome, names)
    lines = result_lines(hand, session.hand_number, names, points, pot_left, every_hand)
    return ResultSummary(
        session.hand_number, summary, points, ratings, tuple(lines), view, every_hand
    )


def with_pot_to_leader(view: ResultView, leader: Text | str, amount: int) -> ResultView:
    """The result picture with the game's last pot given to the leader: its own row, and in the
    leader's total."""
    payments = tuple((n, d + amount if n == leader else d) for n, d in view.payments)
    row = (text("pictures.result.row_pot_leader"), ((leader, amount),))
    return replace(view, payments=payments, other_payments=(*view.other_payments, row))
