"""Every fact the bot tells, in words: the status sentence (which the picture shares), what a win
was, the public events of a change, results and ratings, the clock, and the wind and suit names.

Each fact is worded here once, as a catalogue `Text` (engine/i18n.py, domain `bot`) that each
reader puts in their own language. The `*_lines`/`*_words` functions give the same in English,
for readers without a language. The values these words go into, and the rule of what is public,
are in snapshots.py.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from bot.runtime.every_hand_words import Part, every_hand_lines
from bot.runtime.table import COMPUTER_PREFIX
from data import Phase
from data.rating import display
from engine import names
from engine.actions import Action, ActionKind
from engine.events import Event
from engine.events import Phase as HandPhase
from engine.hand import HandState
from engine.i18n import DEFAULT_LANGUAGE, Number, Text, has, text
from engine.kinds import AfterWin
from engine.names import extra_round, vocabulary_key
from engine.options import options_text
from engine.outcome import WinRecord
from engine.preset import Preset
from engine.presets import TimeControl
from engine.rules import opening_stage
from engine.scoring.names import pattern_text
from engine.set_aside import SetAsideSettlementPart
from engine.settlement import POT, WALL_DRAW_REASONS, WIN_REASONS, PaymentDetail, Reason
from engine.table_facts import table_facts
from engine.tiles import Meld, Tile, format_tiles, parse_tiles, sort_tiles, tile_name
from render.adapt import hand_name_of, rob_key, set_aside_views, wild_indicator, win_value
from render.standings import StandingsView, score_text

if TYPE_CHECKING:
    from bot.runtime.table import LiveTable

SUIT_WORDS = names.SUITS
ENDINGS = ("wall_draw", "deal_limit", "abortive_draw")  # the endings without a win that have words


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


def said_names(table: LiveTable) -> list[Text | str]:
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


def lobby_status(table: LiveTable, count: int, closed: str | None) -> Text:
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
        return text(rob_key("bot", hand))
    return text("bot.status.claims")


def win_how(win: WinRecord, names: Sequence[Text | str], vocabulary: str = "") -> Text:
    """How a win came: 'self draw', 'a discard from Bob', 'robbing Bob's kong'."""
    by = win.by.value
    if by == "self_draw":
        return text("bot.win.self_draw")
    giver: Text | str = (
        names[win.discarder] if win.discarder is not None else text("bot.win.another")
    )
    if by == "robbing_kong":
        return in_words("bot.win.robbing", vocabulary, giver=giver)
    return text("bot.win.discard", giver=giver)


def win_line(
    win: WinRecord,
    names: Sequence[Text | str],
    unit: str,
    vocabulary: str = "",
    points: int = 0,
) -> Text:
    """'Carol won by a discard from Alice: 5 faan' (no tiles); where the family counts fu and
    names its limits, with the hand's own value in points ('Ann won by self draw: 30 fu 4 han,
    mangan 8,000')."""
    how = win_how(win, names, vocabulary)
    value = value_words(win, unit, points)
    return text("bot.win.line", name=names[win.seat], how=how, value=value)


def value_words(win: WinRecord, unit: str, points: int = 0) -> Text:
    """A win's value in its unit, with its fu and its limit's name where the score has them,
    and where it counts fu its own value in points as players read it ('40 fu 3 han 5,200')."""
    score = win.score
    value = unit_text(unit, score.fan)
    if score.fu:
        value = text("bot.win.value_fu", value=value, fu=score.fu)
    if score.limit_name:
        value = text("bot.win.value_limit", value=value, limit=limit_text(score.limit_name))
    if score.fu and points:
        value = text("bot.win.value_points", value=value, points=Number(points))
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
        return in_words(f"bot.ending.{kind}", hand.preset.vocabulary)
    return text(f"bot.ending.{ending}") if ending in ENDINGS else text("bot.ending.nobody")


def win_texts(record: WinRecord, hand: HandState, names: Sequence[Text | str]) -> list[Text]:
    """A win told: who won how and for what, with its patterns; then its payment."""
    preset = hand.preset
    line = win_line(record, names, preset.unit, preset.vocabulary, win_value(hand, record))
    patterns = patterns_text(record, preset.family)  # a basic win has none
    if patterns is not None:
        lines = [text("bot.event.win_patterns", line=line, patterns=patterns)]
    else:
        lines = [text("bot.event.win", line=line)]
    # where the table keeps honba and a pot, the result says the value, the honba, the sticks
    # and what each seat receives one after another: no payment line of the win's own
    if any(record.deltas) and table_facts(hand).pot is None:
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
            "bot.list",
            items=[
                said,
                in_words("bot.payment.pot", vocabulary, delta=Number(paid.pot, signed=True)),
            ],
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
    elif facts.ready:  # each ready hand laid open, as the table lays them down
        vocabulary = hand.preset.vocabulary
        for s in facts.ready:
            tiles = open_hand(hand.concealed(s), hand.melds[s], vocabulary)
            lines.append(text("bot.result.ready_hand", name=names[s], tiles=tiles))
    elif facts.ready is not None:
        lines.append(text("bot.result.nobody_ready"))
    return lines


def open_hand(tiles: Sequence[Tile], melds: Sequence[Meld], vocabulary: str = "") -> Text:
    """A hand laid open in notation, its melds after it: '23467m789p22z, pon 888s'."""
    said = [meld_text(m, vocabulary) for m in melds]
    return text("bot.list", items=[_tiles_text(sort_tiles(tiles)), *said])


def _tiles_text(tiles: Sequence[Tile]) -> Text:
    """Tiles in notation as an item of a worded list."""
    return text("pictures.name", name=format_tiles(tiles))


def joined(items: Sequence[Text], key: str) -> Text:
    """Items joined two by two by the catalogue's `key` (`bot.clauses`: 'A won …; B won …',
    `bot.dotted`: 'a · b'), each language with its own mark."""
    said = items[-1]
    for item in reversed(items[:-1]):
        said = text(key, first=item, rest=said)
    return said


def extra_round_text(hand: HandState) -> Text | None:
    """Where the hand is in a round beyond the game's length, why the game went on into it
    ('South round: nobody has 30,000 points, ...'); None otherwise."""
    game = hand.preset.game
    if not game.rounds or hand.round_wind < game.rounds:
        return None
    return extra_round(hand.preset.vocabulary, hand.round_wind, game.target)


def deal_lines(table: LiveTable, names: Sequence[Text | str], number: int) -> list[Text]:
    """The deal: which hand ('Hand 3 · East round', or as players name it: 'East 2, 1 honba')
    and who deals; before it, where a game went on into a round beyond its length, why."""
    hand = table.hand
    assert hand is not None
    lines = []
    named = hand_name_of(hand)
    extra = extra_round_text(hand)
    if extra is not None and hand.setup.dealer % len(hand.hands) == 0:  # the round's first deal
        lines.append(extra)
    wind = wind_text(hand.round_wind)
    vocabulary = hand.preset.vocabulary
    lines.append(
        in_words("bot.event.deal", vocabulary, number=number, wind=wind, dealer=names[0])
        if named is None
        else in_words("bot.event.deal", vocabulary, hand=named, dealer=names[0])
    )
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
    lines = win_texts(record, hand, told.names)
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
    return text(vocabulary_key(key, vocabulary), **fields)


# the fields that name a sentence's subject: where it is the reader, the catalogue's `<key>.you`
# says the sentence in the second person ('You discard 5m.', not 'You discards 5m.')
SUBJECTS = ("who", "dealer", "name", "payer")


def in_person(said: Text | str, reader: str) -> Text | str:
    """`said` as `reader` reads it: each sentence (the fields' own sentences too) whose subject
    is the reader told in the second person where the catalogue has that form, in every
    language; the others in the third.

    >>> str(in_person(text("bot.event.discard", who="You", tile="5m"), "You"))
    'You discard 5m.'
    >>> str(in_person(text("bot.event.discard", who="Ann", tile="5m"), "You"))
    'Ann discards 5m.'
    """
    if isinstance(said, str):
        return said
    fields = {name: _in_person(value, reader) for name, value in said.fields.items()}
    key = said.key
    you = f"{key}.you"
    if any(fields.get(name) == reader for name in SUBJECTS) and has(you):
        key = you
    return replace(said, key=key, fields=fields)


def _in_person(value: object, reader: str) -> object:
    if isinstance(value, Text):
        return in_person(value, reader)
    if isinstance(value, list | tuple):
        return [_in_person(item, reader) for item in value]
    return value


_ACTION_KEYS = frozenset(
    f"bot.action.{kind.value}" for kind in ActionKind if kind is not ActionKind.TIME_UP
)


def meld_text(meld: Meld, vocabulary: str = "") -> Text:
    """A meld in words and notation, as a meld on the table (not the menu's call, which says
    'add 7z to your pung'): 'pung 111p', 'added kong 7777z', '碰111p'; in a preset's
    `vocabulary` where it has its own words ('pon 111p', 'closed kan 7777z')."""
    return in_words(f"bot.meld.{meld.kind.value}", vocabulary, tiles=format_tiles(meld.tiles))


def action_words(action: Action) -> str:
    return str(action_text(action))


def _meld_tiles(detail: str) -> list[int]:
    """The tiles of a meld as the engine's call event spells it ('chow 456m')."""
    return parse_tiles(detail.split(" ", 1)[1]) if " " in detail else []


def private_lines(
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


def result_text(hand: HandState, names: Sequence[Text | str]) -> Text:
    """A finished hand in one sentence, no tiles: who won how and for what, or why nobody did."""
    outcome = hand.outcome()
    assert outcome is not None
    if outcome.wins:
        unit, vocabulary = hand.preset.unit, hand.preset.vocabulary
        wins = [win_line(w, names, unit, vocabulary, win_value(hand, w)) for w in outcome.wins]
        return text("bot.result.wins", wins=joined(wins, "bot.clauses"))
    return text("bot.result.draw", why=ending_text(hand, outcome.termination.value))


def rating_texts(table: LiveTable) -> list[Text]:
    """The last hand's rating changes: "carol: 1500 → 1512 (+12) (provisional)"."""
    by_id = {s.player_id: s.name for s in table.seats if s is not None}
    return [
        text(
            "bot.result.rating_provisional" if c.provisional else "bot.result.rating",
            name=by_id.get(c.player_id, c.player_id),
            before=display(c.before),  # as every rating is shown (halves up; round() is
            after=display(c.after),  # banker's, and would not add up with the change)
            delta=Number(c.display_delta, signed=True),
        )
        for c in (table.last_result.rating_changes if table.last_result else ())
    ]


def result_lines(
    hand: HandState,
    number: int,
    names: Sequence[Text | str],
    points: Sequence[tuple[Text | str, int, int]],
    pot_left: tuple[int, int] | None = None,
    every_hand: Sequence[Part] = (),
) -> list[Text]:
    """The result after the lines that told the win or the draw: which hand ('Result of East 2,
    1 honba:'), its facts (indicators, honba, sticks, the ready hands laid open; the sticks
    left at the game's end, `pot_left` (seat, points), given to the leader), each hand's score
    and who paid whom where every hand is scored, and what each seat received (this hand,
    total), in words."""
    named = hand_name_of(hand)
    if named is not None:
        lines = [text("bot.result.heading_named", hand=named)]
    else:
        lines = [text("bot.result.heading", number=number)]
    outcome = hand.outcome()
    assert outcome is not None
    vocabulary = hand.preset.vocabulary
    for win in outcome.wins:  # each winning hand laid open, its winning tile apart
        held = list(win.concealed)
        held.remove(win.tile)
        tiles = open_hand(held, win.melds, vocabulary)
        winner, tile = names[win.seat], tile_name(win.tile)
        lines.append(text("bot.result.winning_hand", name=winner, tiles=tiles, tile=tile))
    lines += fact_lines(hand, names)
    if pot_left is not None:
        seat, amount = pot_left
        lines.append(text("bot.result.pot_to_leader", name=names[seat], points=Number(amount)))
    lines += every_hand_lines(every_hand)
    lines += [
        text("bot.result.points", name=names[s], delta=Number(d, signed=True), total=Number(t))
        for s, (_, d, t) in enumerate(points)
    ]
    return lines


def public_status(
    table: LiveTable,
    count: int,
    status_now: Text,
    closed: str | None,
    standings: StandingsView | None,
    summary: Text | None,
) -> Text:
    """How a table in a hand or after it stands: closed, the game's end, between hands with the
    last hand's `summary`, or what the hand waits for (`status_now`)."""
    if closed is not None:
        return text("bot.status.closed", reason=closed_reason_text(closed))
    if standings is not None:
        first = standings.rows[0].name
        return text("bot.status.game_over", hands=standings.hands, first=first)
    if table.phase is Phase.BETWEEN_HANDS:
        said = summary if summary is not None else text("bot.status.over")
        return text("bot.status.between", summary=said, ready=len(table.ready), seats=count)
    return status_now


def dashed_tiles(tiles: Sequence[Tile]) -> str:
    """A meld's tiles as Tenhou's call menu names them, digit by digit: '4-0-6m' (a red five
    is 0), '5-5-5z'; tiles of several suits as notation.

    >>> dashed_tiles(parse_tiles("406m"))
    '4-0-6m'
    """
    written = format_tiles(tiles)
    digits, suit = written[:-1], written[-1:]
    return "-".join(digits) + suit if digits.isdigit() else written
