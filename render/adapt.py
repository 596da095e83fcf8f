"""From the engine's hand state to render views, and simulated hands for `mahjong-bot render`.

A public view copies how many tiles each seat hides, never which: this is where the rule
"no hidden tile in a public picture" is kept.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.actions import ActionKind
from engine.computer.easy import choose_action
from engine.computer.simulate import play_out
from engine.every_hand import seat_scores, transfers
from engine.hand import HandState, Phase
from engine.i18n import Number, Text, has
from engine.names import hand_name, vocabulary_key
from engine.outcome import WinRecord
from engine.presets import Opening, Preset, find_preset
from engine.rules import AfterWinPart, FixedKongsPart, PassEnds, PassPart, opening_stage, void_suit
from engine.set_aside import SetAsideSettlementPart
from engine.settlement import POT, Reason
from engine.table_facts import TableFacts, table_facts
from engine.tiles import Tile, sort_tiles, tile_name
from render.views import (
    HandScoreView,
    HandView,
    Label,
    ResultView,
    SeatView,
    SetAside,
    TableView,
    TransferView,
    WinView,
)
from render.words import preset_text, wind_text

DEFAULT_NAMES = ("Player 1", "Player 2", "Player 3", "Player 4")
OPENING_WORDS = {
    Opening.SWAP_THREE: Text("pictures.opening.swap_three"),
    Opening.DISCARD_THREE: Text("pictures.opening.discard_three"),
    Opening.VOID: Text("pictures.opening.void"),
}
_ENDINGS = {
    "wall_draw": Text("pictures.result.wall_ran_out"),
    "deal_limit": Text("pictures.result.deal_limit"),
    "abortive_draw": Text("pictures.result.abortive_draw"),
}


def _ending_note(state: HandState, ending: str, facts: TableFacts) -> Text | str:
    """Why a hand ended with no win. Where the wall ends in last draws (hubei-laizi), its last
    tiles were held back for them, so the wall did not 'run out'; an abortive draw a rule names
    (four winds, nine terminals) by its kind."""
    if facts.ending:
        return Text(vocabulary_key(f"pictures.ending.{facts.ending}", state.preset.vocabulary))
    if ending == "wall_draw" and state.preset.last_draws:
        return Text("pictures.result.last_draws_no_win", {"count": state.preset.last_draws})
    return _ENDINGS.get(ending, "")


_SET_ASIDE_LABELS = {"Horse": "horse", "Birds": "birds"}  # rule labels the catalogue words
# points read in thousands ('25.0k') at tables that start with this many or more (Riichi's
# 25,000): five characters where '25,000' takes six and a thousands separator that 400 px blurs
THOUSANDS_FROM = 10_000


def hand_name_of(state: HandState, *, short: bool = False) -> Text | None:
    """The hand as its players name it ('East 2, 1 honba', 'All Last'), where the preset's words
    name hands (engine.names.hand_name). A game with named hands deals first from its first
    player, so the dealer's place in seating order is the deal's number in the round."""
    seats = len(state.hands)
    number = state.setup.dealer % seats + 1
    rounds = state.preset.game.rounds
    all_last = bool(rounds) and state.round_wind == rounds - 1 and number == seats
    vocabulary, honba = state.preset.vocabulary, state.setup.honba
    return hand_name(vocabulary, state.round_wind, number, honba, all_last=all_last, short=short)


def hand_view_from_state(
    state: HandState,
    seat: int,
    *,
    table_name: Text | str = "",
    channel_name: str = "",
    player_name: str = "",
) -> HandView:
    """A seat's own hand: its concealed tiles, with the tile it just drew set apart; what it
    waits on once ready (before the drawn tile), its riichi, the table's indicators."""
    facts = table_facts(state)
    concealed = list(state.hands[seat])
    drawn = state.drawn if state.phase is Phase.TURN and state.turn == seat else None
    if drawn is not None and drawn in concealed:
        concealed.remove(drawn)
    else:
        drawn = None
    return HandView(
        table_name=table_name,
        channel_name=channel_name,
        seat_wind=seat,
        concealed=tuple(concealed),
        drawn=drawn,
        melds=tuple(state.melds[seat]),
        bonus=tuple(state.bonus[seat]),
        player_name=player_name,
        wild=state.wild_kinds,
        fixed_first=fixed_kinds(state),
        blocked=pass_notes(state, seat),
        # the wild, the dora indicators and the seat's own tiles laid apart (sanma's norths)
        set_aside=(
            *wild_indicator(state),
            *indicator_views(facts, ("dora",)),
            *seat_tiles_views(facts, seat),
        ),
        seat_count=state.seat_count,
        declared=seat in facts.declared,
        waits=tuple(state.waits(concealed)) if len(concealed) % 3 == 1 else (),
    )


def pass_notes(state: HandState, seat: int) -> tuple[Text, ...]:
    """What a passed call blocks for this seat now (engine.rules.PassRule), one note each:
    "you passed 5p: no win on 5p until you discard" (tw-16), "no pung until your draw"
    (hubei-laizi, whose passes block every such call)."""
    notes: list[Text] = []
    for part in state.parts:
        if not isinstance(part, PassPart) or not part.blocked[seat]:
            continue
        rule = part.rule
        call = Text(f"pictures.call.{rule.passed.value}")
        until = "discard" if rule.until is PassEnds.OWN_DISCARD else "draw"
        if -1 in part.blocked[seat]:
            own_draws_free = rule.passed is ActionKind.WIN and not rule.self_draw_too
            scope = "on_discard" if own_draws_free else "any"
            notes.append(Text(f"pictures.pass.{scope}.{until}", {"call": call}))
            continue
        notes += [
            Text(f"pictures.pass.tile.{until}", {"tile": tile_name(t), "call": call})
            for t in sorted(part.blocked[seat])
        ]
    return tuple(notes)


def fixed_kinds(state: HandState) -> frozenset[Tile]:
    """Fixed kong kinds (red, green): sorted to the front of a hand."""
    part = state.part_of(FixedKongsPart)
    return part.rule.kinds if part is not None else frozenset()


def wild_indicator(state: HandState) -> tuple[SetAside, ...]:
    """The turned wild, shown to everyone."""
    wilds = table_facts(state).wilds
    return (SetAside(Text("pictures.set_aside.wild"), wilds),) if wilds else ()


KONGS_LABEL = Text("pictures.set_aside.kongs")  # a seat's set-down kongs, said as kongs


def special_kongs(facts: TableFacts, seat: int) -> tuple[SetAside, ...]:
    """The tiles a seat set down as fixed kongs (red, green) and wild kongs, shown to all."""
    tiles = facts.set_down(seat)
    return (SetAside(KONGS_LABEL, tiles),) if tiles else ()


def seat_tiles_views(facts: TableFacts, seat: int) -> tuple[SetAside, ...]:
    """The tiles the rules say `seat` laid apart in the open (sanma's norths), by kind."""
    return tuple(
        SetAside(Text(f"pictures.set_aside.{item.kind}"), item.tiles)
        for item in facts.seat_tiles
        if item.seat == seat
    )


def table_view_from_state(
    state: HandState,
    names: Sequence[Label] = DEFAULT_NAMES,
    points: Sequence[int] | None = None,
    *,
    table_name: Text | str = "",
    channel_name: str = "",
    status: Text | str | None = None,
) -> TableView:
    """The public table; `names` and `points` are per hand seat (seat 0 deals).

    Concealed tiles become a count; only a seat whose hand is out in the open (a blood-battle
    winner who left, a blood-flow winner with a locked hand) shows them face up.
    """
    if points is None:
        points = [state.preset.start_points + delta for delta in state.points]
    count = len(state.hands)
    facts = table_facts(state)
    seats = tuple(
        _seat_view(state, seat, names[seat], points[seat], facts) for seat in range(count)
    )
    return TableView(
        table_name=table_name,
        channel_name=channel_name,
        preset_name=preset_text(state.preset.id, state.preset.name),
        seats=seats,
        wall_left=state.wall_left,
        prevailing_wind=state.round_wind,
        turn=state.turn if state.phase is Phase.TURN else None,
        latest=state.last_discard,
        status=status_text(state, names) if status is None else status,
        wild=state.wild_kinds,
        set_aside=set_aside_views(state, revealed=False) + wild_indicator(state),
        indicators=indicator_views(facts, ("dora",)),
        honba=facts.honba,
        pot=facts.pot,
        sticks=facts.sticks if facts.pot is not None else None,
        thousands=state.preset.start_points >= THOUSANDS_FROM,
        hand_name=hand_name_of(state) or "",
        hand_label=hand_name_of(state, short=True) or "",
    )


def indicator_views(facts: TableFacts, kinds: Sequence[str]) -> tuple[SetAside, ...]:
    """The rules' indicator tiles of these kinds (dora, ura) as set-aside tiles, face-down
    positions as backs."""
    return tuple(
        SetAside(Text(f"pictures.indicators.{item.kind}"), item.tiles, item.face_down)
        for kind in kinds
        for item in (facts.indicator(kind),)
        if item is not None
    )


def set_aside_views(state: HandState, *, revealed: bool) -> tuple[SetAside, ...]:
    """The tiles set aside at the deal (a horse, birds): face down during play, shown with what
    hit once revealed. Nobody sees them before, so the picture shows only how many there are."""
    tiles = tuple(state.set_aside)
    if not tiles:
        return ()
    part = state.part_of(SetAsideSettlementPart)
    label = set_aside_label(part.rule.label if part is not None else "")
    if not revealed:
        return (SetAside(label, face_down=len(tiles)),)
    if part is None:
        return (SetAside(label, tiles),)
    named = part.rule.named_seat(tiles, state.seat_count)
    if named is not None:
        label = Text("pictures.set_aside.named", {"label": label, "wind": wind_text(named)})
    return (SetAside(label, tiles, hits=part.rule.hits(tiles)),)


def set_aside_label(rule_label: str) -> Text | str:
    """A set-aside rule's label (Horse, Birds) in the catalogue's words; another as it is."""
    if not rule_label:
        return Text("pictures.set_aside.other")
    key = _SET_ASIDE_LABELS.get(rule_label)
    return Text(f"pictures.set_aside.{key}") if key else rule_label


def _seat_view(
    state: HandState, seat: int, name: Label, points: int, facts: TableFacts
) -> SeatView:
    finished = state.require(AfterWinPart).locked[seat] or not state.active(seat)
    revealed = tuple(sort_tiles(state.hands[seat])) if finished else ()
    declared = state.phase.value != "opening"  # a void stays secret until all have chosen
    return SeatView(
        name=name,
        wind=seat,
        points=points,
        is_dealer=seat == 0,
        concealed_count=0 if finished else len(state.hands[seat]),
        melds=tuple(state.melds[seat]),
        bonus=tuple(state.bonus[seat]),
        pond=tuple(state.ponds[seat]),
        claimed=frozenset(state.claimed[seat]),
        void_suit=void_suit(state, seat) if declared else None,
        won=finished,
        revealed=revealed,
        set_aside=special_kongs(facts, seat) + seat_tiles_views(facts, seat),
        staked=seat in facts.declared,
        turned=frozenset(index for s, index in facts.turned if s == seat),
    )


def status_text(state: HandState, names: Sequence[Label]) -> Text:
    """One public line saying what the table waits for (the table message and picture share it).

    It never says who a claim window or an opening waits for: that would tell who can call.
    """
    phase = state.phase
    if phase is Phase.OVER:
        return Text("pictures.status.over")
    if phase is Phase.TURN:
        who = {"name": names[state.turn], "wind": wind_text(state.turn)}
        return Text("pictures.status.turn", who)
    if phase is Phase.OPENING:
        what = OPENING_WORDS[state.preset.openings[opening_stage(state)]]
        return Text("pictures.status.opening", {"what": what})
    if phase is Phase.ROB:
        return Text(rob_key("pictures", state))
    return Text("pictures.status.claims")


def rob_key(domain: str, state: HandState) -> str:
    """The catalogue key saying what a rob window is open on: the declaration's own words where
    the catalogue has them (sanma's north set aside: `<domain>.status.rob.nuki`), else a kong's
    in the preset's words ('A kan is added: it may be robbed (chankan)')."""
    declared = state.window.declared if state.window is not None else None
    own = f"{domain}.status.rob.{declared.kind.value}" if declared is not None else ""
    if own and has(own):
        return own
    return vocabulary_key(f"{domain}.status.rob", state.preset.vocabulary)


def status_line(state: HandState, names: Sequence[Label]) -> str:
    """`status_text` in English, for texts not yet worded per reader."""
    return str(status_text(state, names))


def win_how_text(win: WinRecord, names: Sequence[Label], vocabulary: str = "") -> Text:
    """How a win came: 'self draw', 'a discard from Bob', 'robbing Bob's kong' (in a preset's
    `vocabulary`: 'robbing Bob's kan (chankan)')."""
    by = win.by.value
    if by == "self_draw":
        return Text("pictures.win.self_draw")
    giver: Text | str = Text("pictures.win.another_seat")
    if win.discarder is not None:
        giver = names[win.discarder]
    robbing = vocabulary_key("pictures.win.robbing", vocabulary)
    return Text(robbing if by == "robbing_kong" else "pictures.win.discard", {"giver": giver})


def win_how(win: WinRecord, names: Sequence[Label]) -> str:
    """`win_how_text` in English, for texts not yet worded per reader."""
    return str(win_how_text(win, names))


def win_value(state: HandState, record: WinRecord) -> int:
    """What a win is worth by itself, as players read it ('40 fu 3 han 5,200'): what it
    received less the honba and the pot the first win takes (said apart, after it); 0 before
    the hand's outcome is known."""
    outcome = state.outcome()
    if outcome is None or not outcome.wins:
        return 0
    first = record is outcome.wins[0]
    taken = sum(p.amount for p in outcome.payments if p.payer == POT and p.reason is Reason.POT)
    extras = table_facts(state).honba_paid + taken if first else 0
    return record.deltas[record.seat] - extras


def result_view_from_state(
    state: HandState,
    names: Sequence[Label] = DEFAULT_NAMES,
    *,
    table_name: Text | str = "",
    channel_name: str = "",
) -> ResultView:
    """The end of a hand: every win in the order it happened, and each seat's payments."""
    outcome = state.outcome()
    if outcome is None:
        raise ValueError(f"the hand is not over yet: {state.describe()}")
    facts = table_facts(state)
    wins = tuple(
        _win_view(state, win, names, facts.honba_paid if i == 0 else 0)
        for i, win in enumerate(outcome.wins)
    )
    # Riichi's pot is its sticks on the table (供託), as its players say it
    pot_row = Text(vocabulary_key("pictures.result.row_pot", state.preset.vocabulary))
    return ResultView(
        table_name=table_name,
        preset_name=preset_text(state.preset.id, state.preset.name),
        unit=state.preset.unit,
        wins=wins,
        payments=tuple((names[s], outcome.received[s]) for s in range(len(outcome.deltas))),
        channel_name=channel_name,
        note="" if wins else _ending_note(state, outcome.termination.value, facts),
        details=ending_details(facts, names),
        other_payments=tuple(
            (label, tuple((names[s], amount) for s, amount in enumerate(ledger) if amount))
            for label, ledger in (
                (Text("pictures.result.row_kongs"), state.kong_points),
                (Text("pictures.result.row_wall_draw"), state.draw_points),
                (Text("pictures.result.row_settlement"), outcome.paid_for(Reason.SETTLEMENT)),
                (Text("pictures.result.row_horse"), outcome.paid_for(Reason.HORSE)),
                (Text("pictures.result.row_birds"), outcome.paid_for(Reason.BIRD)),
                # the stakes taken out of the pot (those paid in left the points when paid)
                (pot_row, outcome.paid_for(Reason.POT)),
            )
            if any(ledger)
        ),
        wild=state.wild_kinds,
        # revealed when the hand ends with a win (RULES.md: the horse, the birds); the wild too
        set_aside=set_aside_views(state, revealed=bool(wins))
        + wild_indicator(state)
        + indicator_views(facts, ("dora", "ura")),
        family=state.preset.family,
        hand_name=hand_name_of(state) or "",
        ready_hands=tuple(
            (names[s], tuple(state.concealed(s)), tuple(state.melds[s]))
            for s in (() if wins or facts.nagashi else facts.ready or ())
        ),
        hand_scores=tuple(
            HandScoreView(
                names[h.seat],
                h.points,
                h.doubles,
                h.score,
                limit=h.limit,
                capped=h.capped,
                won=h.seat in outcome.winners,
                seat_wind=h.seat,
            )
            for h in seat_scores(outcome)
        ),
        transfers=tuple(
            TransferView(
                names[t.payer],
                names[t.payee],
                t.amount,
                settlement=t.reason is Reason.SETTLEMENT,
                times=t.times,
            )
            for t in transfers(outcome)
        ),
    )


def ending_details(facts: TableFacts, names: Sequence[Label]) -> tuple[Text, ...]:
    """What a hand with no win says besides why it ended: who was paid a nagashi mangan, or
    who was ready (tenpai) where being ready is paid."""
    if facts.nagashi:
        return (Text("pictures.result.nagashi", {"names": name_list(facts.nagashi, names)}),)
    if facts.ready is None:
        return ()
    if not facts.ready:
        return (Text("pictures.result.nobody_ready"),)
    return (Text("pictures.result.ready", {"names": name_list(facts.ready, names)}),)


def name_list(seats: Sequence[int], names: Sequence[Label]) -> list[Text]:
    """The seats' names as a list a catalogue message joins in the reader's way."""
    return [Text("pictures.name", {"name": names[s]}) for s in seats]


def loser_notes(win: WinRecord, names: Sequence[Label]) -> list[Text]:
    """Each paying loser's own fan and payment, where the score counts loser fan (hubei-laizi):
    'Bob 2 fan pays 8'."""
    return [
        Text(
            "pictures.win.loser", {"name": names[loser.seat], "fan": loser.fan, "pays": loser.pays}
        )
        for loser in getattr(win.score, "losers", ())
    ]


def _win_view(
    state: HandState, win: WinRecord, names: Sequence[Label], honba_paid: int = 0
) -> WinView:
    concealed = list(win.concealed)
    concealed.remove(win.tile)  # the record's concealed tiles include the winning tile
    notes: list[Text] = loser_notes(win, names)
    if honba_paid:
        honba = state.setup.honba
        notes.append(Text("pictures.win.honba", {"count": honba, "points": Number(honba_paid)}))
    score = win.score
    return WinView(
        winner=names[win.seat],  # drawn with the seat's wind (seat_wind)
        concealed=tuple(concealed),
        win_tile=win.tile,
        melds=tuple(win.melds),
        bonus=tuple(state.bonus[win.seat]),
        patterns=tuple((p.id, p.fan) for p in win.score.patterns),
        total=win.score.fan,
        limit=win.score.limit,
        by=win_how_text(win, names, state.preset.vocabulary),
        notes=tuple(notes),
        seat_wind=win.seat,
        paid_by=tuple((names[s], -d) for s, d in enumerate(win.deltas) if d < 0),
        seat_count=state.seat_count,
        fu=score.fu,
        value=win_value(state, win) if score.fu else 0,
        limit_name=Text(f"pictures.limit.{score.limit_name}") if score.limit_name else "",
        limit_patterns=frozenset(p.id for p in score.patterns if p.limit),
    )


def _new_hand(preset: Preset | str, seed: int) -> HandState:
    return HandState(find_preset(preset) if isinstance(preset, str) else preset, seed)


def engine_table_view(preset: Preset | str, seed: int, actions: int) -> TableView:
    """The table after computer players have made `actions` decisions (fewer if it ends);
    `preset` a Preset or a playable preset's id."""
    state = _new_hand(preset, seed)
    preset_id = state.preset.id
    for _ in range(actions):
        seats = state.seats_to_act()
        if not seats:
            break
        state.apply(choose_action(state, seats[0]))
    label = f"{preset_id} · seed {seed}"
    return table_view_from_state(state, table_name=label, channel_name="simulated")


def engine_result_view(preset: Preset | str, seed: int) -> ResultView:
    """The result of a hand that computer players played to its end."""
    state = play_out(_new_hand(preset, seed))
    preset_id = state.preset.id
    label = f"{preset_id} · seed {seed}"
    return result_view_from_state(state, table_name=label, channel_name="simulated")
