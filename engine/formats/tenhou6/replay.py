"""A tenhou.net/6 log played on our engine, hand by hand, each hand's result beside the log's
(DESIGN.md, "Games in the format other tools read").

Each hand is dealt from a wall arranged to deal and draw what the log says
(engine.formats.tenhou6.wall) and played in the log's order of play (engine.formats.tenhou6.order):
every decision the log shows is asked of our engine as a legal action, and every claim window the
log passes by is answered with passes. The first hand starts from the log's round info; later hands
start from our own session (dealer, round, honba, pot, points), and where that differs from the
log's next round info (round and dealer, honba, sticks, points) the replay stops: NextDealDiffers
names the hand.

The log's seats are players in seating order (seat 0 dealt first); our hand seats count from the
dealer, so hand seat s is player (dealer + s) % seats.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace

from engine.actions import Action as EngineAction
from engine.actions import ActionKind as Kind
from engine.actions import kind_named
from engine.events import Phase
from engine.formats.tenhou6.compare import (
    FinalReport,
    HandReport,
    differences,
    final_differences,
    log_result,
    our_result,
    round_name,
)
from engine.formats.tenhou6.export import StoredHand, red_fives_of
from engine.formats.tenhou6.log import Hand, Log, Tenhou6Error
from engine.formats.tenhou6.order import Action, ActionKind, describe, order_of_play
from engine.formats.tenhou6.wall import arranged_wall
from engine.hand import HandState
from engine.options import choose, has_option
from engine.outcome import Outcome
from engine.presets import PRESETS, Preset, riichi_terms
from engine.session import Session
from engine.tiles import Tile, format_tiles, kind_of, tile_name

TRIPLE_RON = "三家和了"
# Mahjong Soul's rooms as its converters write the rule ("玉の間南喰赤", "Gold Room South")
MAJSOUL_MARKS = ("の間", "雀魂", "Room")
EAST_ONLY = ("東", "East")  # a game of the East round only (tonpuu)
_WINDOWS = (Phase.CLAIMS, Phase.ROB)


class NextDealDiffers(Tenhou6Error):
    """The deal our engine's session gives after a hand is not the log's next round info
    (round and dealer, honba, sticks on the table, points): the replay stops there."""


class ReplayRefused(Tenhou6Error):
    """Our engine does not accept an action of the log: the message names the hand, the action
    and why."""


def riichi_preset(preset_id: str) -> Preset | None:
    """A Riichi preset by id."""
    return PRESETS.get(preset_id)


def preset_for(log: Log) -> Preset:
    """The preset the log's rule names: Tenhou's four-player ranked rules are `riichi`, Mahjong
    Soul's rooms `riichi-majsoul`, three players `sanma`; the rule's length (東 or 南) is the
    table's `length`. An error for a rule we do not play."""
    disp = log.disp or ""
    majsoul = any(mark in disp for mark in MAJSOUL_MARKS)
    if log.seats == 3:
        preset = riichi_preset("sanma")
        if preset is None:
            raise Tenhou6Error("a three-player log: the sanma preset does not exist yet")
    else:
        preset = riichi_preset("riichi-majsoul" if majsoul else "riichi")
        assert preset is not None, "the four-player Riichi presets exist"
    if disp and not majsoul and "喰" not in disp:
        raise Tenhou6Error(f"rule {disp!r}: no open tanyao: a ruleset we do not play")
    expected = red_fives_of(preset)
    if log.red_fives != expected:
        raise Tenhou6Error(
            f"rule: red fives {list(log.red_fives)} (5m 5p 5s), but {preset.id} plays "
            f"{list(expected)}: a ruleset we do not play"
        )
    if any(mark in disp for mark in EAST_ONLY) and has_option(preset, "length"):
        preset = choose(preset, {"length": "east"})
    return preset


# ---------------------------------------------------------------- playing a hand


@dataclass
class _Driver:
    """Feeds one hand's order of play to our engine."""

    state: HandState
    dealer: int  # the player who deals
    number: int
    notes: list[str] = field(default_factory=list)
    step: int = 0

    @property
    def seats(self) -> int:
        return self.state.seat_count

    def seat(self, player: int) -> int:
        return (player - self.dealer) % self.seats

    def refuse(self, action: Action | None, why: str) -> ReplayRefused:
        what = "the hand's end" if action is None else f"action {self.step} ({describe(action)})"
        return ReplayRefused(f"hand {self.number}, {what}: our engine refuses it: {why}")

    def play(self, played: tuple[Action, ...], triple_ron: bool) -> Outcome:
        for self.step, action in enumerate(played, 1):
            if self.state.is_over:
                over = self.state.outcome()
                assert over is not None
                raise self.refuse(action, f"our hand is over already ({over.termination.value})")
            if action.kind is ActionKind.DRAW:
                self.check_draw(action)
                continue
            if action.kind is ActionKind.RIICHI:
                continue  # declared with the discard that follows it
            riichi = self.step >= 2 and played[self.step - 2].kind is ActionKind.RIICHI
            self.answer_windows(action)
            self.apply(action, self.engine_action(action, riichi))
        if triple_ron:
            for seat in self.state.seats_to_act():
                self.apply(None, EngineAction(seat, Kind.WIN))
        self.answer_windows(None)
        outcome = self.state.outcome()
        if outcome is None:
            seats = [(s + self.dealer) % self.seats for s in self.state.seats_to_act()]
            raise self.refuse(None, f"the log's hand ends where ours waits for seat(s) {seats}")
        return outcome

    def check_draw(self, action: Action) -> None:
        state = self.state
        self.answer_windows(action)
        seat = self.seat(action.seat)
        if state.phase is not Phase.TURN or state.turn != seat or state.drawn is None:
            raise self.refuse(action, "it is not that seat's draw in our hand")
        if state.drawn != action.tile:
            assert action.tile is not None
            drawn = tile_name(state.drawn)
            raise self.refuse(action, f"our seat draws {drawn}, not {tile_name(action.tile)}")

    def answer_windows(self, coming: Action | None) -> None:
        """Every seat asked in an open window passes, unless the coming action is its claim."""
        state = self.state
        while state.phase in _WINDOWS:
            pending = state.seats_to_act()
            if coming is not None and coming.kind in _CLAIMS and self.seat(coming.seat) in pending:
                return
            for seat in pending:
                self.apply(coming, EngineAction(seat, Kind.PASS))

    def engine_action(self, action: Action, riichi: bool) -> EngineAction:
        """The log's action as our engine's (tiles as physical tiles or kinds, as it names
        them)."""
        seat = self.seat(action.seat)
        tile = action.tile
        match action.kind:
            case ActionKind.DISCARD:
                assert tile is not None
                return EngineAction(seat, riichi_terms.RIICHI if riichi else Kind.DISCARD, (tile,))
            case ActionKind.CHI:
                return EngineAction(seat, Kind.CHOW, tuple(sorted(map(kind_of, action.tiles))))
            case ActionKind.PON | ActionKind.DAIMINKAN:
                claimed = self.state.claim_tile if tile is None else tile
                assert claimed is not None
                kind = Kind.PUNG if action.kind is ActionKind.PON else Kind.KONG
                return EngineAction(seat, kind, (claimed,))
            case ActionKind.ANKAN | ActionKind.KAKAN:
                assert tile is not None
                kind = Kind.CONCEALED_KONG if action.kind is ActionKind.ANKAN else Kind.ADDED_KONG
                return EngineAction(seat, kind, (kind_of(tile),))
            case ActionKind.TSUMO | ActionKind.RON:
                return EngineAction(seat, Kind.WIN)
            case ActionKind.NINE_TERMINALS:
                return EngineAction(seat, riichi_terms.NINE_TERMINALS)
            case ActionKind.NUKI:
                nuki = kind_named("nuki")
                if nuki is None or tile is None:
                    raise self.refuse(action, "no rule of ours sets a north aside")
                return EngineAction(seat, nuki, (tile,))
        raise self.refuse(action, "an action our engine has no counterpart for")

    def apply(self, action: Action | None, wanted: EngineAction) -> None:
        """Apply the legal action that is `wanted`, or the one naming the same kinds (our
        engine chose the other of a five and its red five for an earlier call: noted)."""
        state = self.state
        legal = state.legal_actions(wanted.seat)
        if wanted not in legal:
            same = [
                a
                for a in legal
                if a.kind is wanted.kind and tuple(map(kind_of, a.tiles)) == _kinds(wanted)
            ]
            if not same:
                raise self.refuse(action, self.why_not(wanted, legal))
            what = "the answer" if action is None else describe(action)
            played = format_tiles(same[0].tiles)
            self.notes.append(
                f"hand {self.number}, action {self.step} ({what}): played with {played}, the "
                "five our engine holds (it kept the other of a five and its red five earlier)"
            )
            wanted = same[0]
        state.apply(wanted)

    def why_not(self, wanted: EngineAction, legal: tuple[EngineAction, ...]) -> str:
        if wanted.kind is Kind.WIN:
            return "our engine offers no win here (furiten, no yaku, or not complete)"
        if not legal:
            return "that seat has no decision to make here"
        offered = ", ".join(str(a) for a in legal[:12])
        more = ", ..." if len(legal) > 12 else ""
        return f"not among our legal actions ({offered}{more})"


_CLAIMS = frozenset({ActionKind.CHI, ActionKind.PON, ActionKind.DAIMINKAN, ActionKind.RON})


def _kinds(action: EngineAction) -> tuple[Tile, ...]:
    return tuple(map(kind_of, action.tiles))


def play_hand(
    preset: Preset, hand: Hand, number: int, session: Session
) -> tuple[HandState, Outcome, list[str]]:
    """Our engine's hand played as the log's hand `number`, dealt from `session`: the state at
    the end, its outcome and the notes."""
    played = order_of_play(hand, number)
    wall = arranged_wall(preset, hand, played, number)
    state = HandState(preset, 0, session.hand_setup(), wall=wall, seat_count=session.seat_count)
    driver = _Driver(state, session.dealer, number)
    outcome = driver.play(played, hand.result.name == TRIPLE_RON)
    return state, outcome, driver.notes


# ---------------------------------------------------------------- a whole log


def session_from(preset: Preset, hand: Hand) -> Session:
    """A session standing where the log's hand starts."""
    seats = len(hand.starts)
    wind, dealer = divmod(hand.kyoku, 4)
    return Session(
        preset,
        seed=0,
        dealer=dealer,
        round_wind=wind % 4,
        dealer_changes=wind * seats + dealer,
        points=list(hand.points),
        seat_count=seats,
        honba=hand.honba,
        pot=hand.sticks * 1000,
    )


def deal_differences(session: Session, hand: Hand) -> list[str]:
    """How the deal our session gives differs from the log's round info for this hand."""
    ours = (
        session.round_wind * 4 + session.dealer,
        session.honba,
        session.pot // 1000,
        tuple(session.points),
    )
    theirs = (hand.kyoku, hand.honba, hand.sticks, hand.points)
    if ours == theirs:
        return []
    return [
        f"ours {round_name(ours[0])} {ours[1]} honba {ours[2]} sticks points "
        f"{list(ours[3])}, the log's {round_name(theirs[0])} {theirs[1]} honba {theirs[2]} "
        f"sticks points {list(theirs[3])}"
    ]


@dataclass(frozen=True, slots=True)
class PlayedHand:
    """One hand as our engine played it: enough to write it back (as StoredHand) and to draw
    its result (the state at its end)."""

    stored: StoredHand
    state: HandState


def replay_log(
    log: Log, preset: Preset | None = None, played: Callable[[PlayedHand], object] | None = None
) -> Iterator[HandReport | FinalReport]:
    """Every hand of the log played on our engine, with its report, then the final report;
    each hand as we played it is given to `played` (before its report) when given, and kept
    nowhere else: memory stays flat in the number of hands.
    Raises ReplayRefused when our engine refuses an action of the log, and NextDealDiffers
    (after the hand's report) when our next deal is not the log's next round info."""
    preset = preset_for(log) if preset is None else preset
    if not log.hands:
        raise Tenhou6Error("the log has no hands")
    session = session_from(preset, log.hands[0])
    for number, hand in enumerate(log.hands, 1):
        setup = session.hand_setup()
        state, outcome, notes = play_hand(preset, hand, number, session)
        if played is not None:
            stored = StoredHand(
                preset, setup, 0, session.seat_count, tuple(state.log), tuple(state.wall)
            )
            played(PlayedHand(stored, state))
        ours = our_result(state, outcome, session.dealer)
        theirs = log_result(hand, number)
        differs = tuple(differences(ours, theirs))
        yield HandReport(number, hand.kyoku, hand.honba, ours, theirs, differs, tuple(notes))
        session.finish_hand(outcome)
        if number < len(log.hands):
            following = log.hands[number]
            deal = deal_differences(session, following)
            if session.over:
                deal.append("our game is over after it, the log plays on")
            if deal:
                raise NextDealDiffers(
                    f"hand {number + 1}, the deal after hand {number}: " + "; ".join(deal)
                )
    standings = session.standings()
    score = tuple(s.score for s in standings) if session.over else None
    final = FinalReport(tuple(session.points), score, session.over)
    yield replace(final, differs=tuple(final_differences(final, log)))
