"""Our Riichi hands written as a tenhou.net/6 log (DESIGN.md, "Games in the format other tools
read"), so a finished game opens in the tools riichi players already use.

A hand is replayed from its dealt state, action by action; what each action changed on the table
says what the log writes: the tiles drawn from the front or the back (takes), the discards (the
tile just drawn written 60), calls with the marker where Tenhou's geometry puts the source,
kongs, then the result with Tenhou's points line and yaku names. Seats are written as players
in seating order (the log's seat 0 dealt first); our hand seats count from the dealer.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.actions import Action as EngineAction
from engine.actions import ActionKind as Kind
from engine.events import Termination
from engine.formats.tenhou6.log import (
    FOUR_SEATS,
    Call,
    CallKind,
    Discard,
    DiscardItem,
    Hand,
    KanGap,
    Log,
    Nuki,
    Result,
    Take,
    Win,
)
from engine.formats.tenhou6.results import TENHOU_ORDER, points_text, yaku_text
from engine.hand import HandState
from engine.hand_setup import HandSetup
from engine.outcome import Outcome, WinRecord
from engine.preset import Preset
from engine.presets import riichi_terms
from engine.scoring.base import WinBy
from engine.settlement import Reason, deltas_of
from engine.tiles import RED_FIVES, Meld, MeldKind, Tile, is_red, kind_of

# Where the marker of a call from the seat `offset` seats forward stands (four-seat geometry).
_SLOTS = {
    CallKind.CHI: {3: 0},
    CallKind.PON: {3: 0, 2: 1, 1: 2},
    CallKind.DAIMINKAN: {3: 0, 2: 1, 1: 3},
}
_CALL_KINDS = {MeldKind.CHOW: CallKind.CHI, MeldKind.PUNG: CallKind.PON}
_CALL_KINDS[MeldKind.KONG] = CallKind.DAIMINKAN
_DECLARED_KONGS = frozenset({MeldKind.CONCEALED_KONG, MeldKind.ADDED_KONG})
ABORT_NAMES = {
    "nine_terminals": "九種九牌",
    "four_riichi": "四家立直",
    "triple_ron": "三家和了",
    "four_kongs": "四槓散了",
    "four_winds": "四風連打",
}
DISPLAYS = {"riichi": "般", "riichi-majsoul": "雀魂", "sanma": "三般"}


@dataclass(frozen=True, slots=True)
class StoredHand:
    """A finished hand as the store rebuilds it: its setup, wall and log (hand seats)."""

    preset: Preset
    setup: HandSetup
    seed: int
    seat_count: int
    actions: tuple[EngineAction, ...]
    wall: tuple[Tile, ...] | None = None
    always_ask: tuple[int, ...] = ()


def display(preset: Preset) -> str:
    """The rule's display the log writes: lobby, length, open tanyao and red fives (赤)."""
    length = "東" if preset.game.rounds == 1 else "南"
    return f"{DISPLAYS.get(preset.id, '般')}{length}喰赤"


def red_fives_of(preset: Preset) -> tuple[int, int, int]:
    """The red fives of each suit (5m, 5p, 5s) in the preset's wall, as a log's rule says them."""
    man, pin, sou = (preset.wall.count(red) for red in RED_FIVES)
    return man, pin, sou


VERSION = 2.3  # the `ver` of the logs tenhou.net writes today


def game_log(
    hands: Sequence[StoredHand],
    names: Sequence[str],
    title: str = "",
    final: Sequence[tuple[int, float]] | None = None,
) -> Log:
    """A whole game's hands as one log; `final`: each player's final points and score (`sc`)."""
    if not hands:
        raise ValueError("a game log needs at least one hand")
    preset = hands[0].preset
    seats = hands[0].seat_count
    return Log(
        title=(title, ""),
        names=tuple(names),
        disp=display(preset),
        red_fives=red_fives_of(preset),
        seats=seats,
        hands=tuple(hand_of(stored) for stored in hands),
        final=None if final is None else tuple(final),
        version=VERSION,
    )


class _Writer:
    """Follows one hand as it is replayed and writes down what the log keeps."""

    def __init__(self, state: HandState) -> None:
        self.state = state
        self.seats = state.seat_count
        self.dealer = state.setup.dealer
        self.takes: list[list[Take]] = [[] for _ in range(self.seats)]
        self.discards: list[list[DiscardItem]] = [[] for _ in range(self.seats)]
        self.pons: dict[tuple[int, Tile], Call] = {}  # (player, kind): the pon's call
        hands = state.hands
        self.starts = [tuple(hands[self.seat(p)][: state.preset.hand_size]) for p in self.players]
        dealt = hands[0][state.preset.hand_size :]
        self.takes[self.dealer] += dealt
        self.front, self.back = state.front, state.back

    @property
    def players(self) -> range:
        return range(self.seats)

    def player(self, seat: int) -> int:
        return (self.dealer + seat) % self.seats

    def seat(self, player: int) -> int:
        return (player - self.dealer) % self.seats

    def apply(self, action: EngineAction) -> None:
        state = self.state
        before = [list(melds) for melds in state.melds]
        player = self.player(action.seat)
        if action.kind is Kind.DISCARD or action.kind is riichi_terms.RIICHI:
            tile = action.tile
            drawn = state.drawn is not None and state.drawn == tile
            discard = Discard(None if drawn else tile, riichi=action.kind is riichi_terms.RIICHI)
            self.discards[player].append(discard)
        elif action.kind is Kind.CONCEALED_KONG or action.kind is Kind.ADDED_KONG:
            # written as declared: a robbed kong is in the log too, with the win after it
            self.discards[player].append(self.kong(action))
        elif action.kind is riichi_terms.NUKI:  # sanma: a north set aside ("f44"), won on or not
            self.discards[player].append(Nuki(action.tile))
        state.apply(action)
        for seat, melds in enumerate(state.melds):
            self.melds_changed(seat, before[seat], melds)
        self.draws()

    def melds_changed(self, seat: int, before: list[Meld], after: list[Meld]) -> None:
        """A chi, pon or open kong the last action made (kongs from the hand are written as
        declared)."""
        player = self.player(seat)
        for meld in after[len(before) :]:
            if meld.kind in _DECLARED_KONGS:
                continue
            call = self.call(seat, meld)
            self.takes[player].append(call)
            if call.kind is CallKind.PON:
                self.pons[player, kind_of(meld.tiles[0])] = call
            if call.kind is CallKind.DAIMINKAN:
                self.discards[player].append(KanGap())

    def kong(self, action: EngineAction) -> Call:
        """A concealed or added kong as declared: the physical tiles it sets down (the added
        tile as our loop takes it, a plain five before a red one), in the log's order."""
        hand = self.state.hands[action.seat]
        kind = action.tile
        held = [t for t in hand if kind_of(t) == kind]
        if action.kind is Kind.CONCEALED_KONG:
            tiles = (*sorted(t for t in held if not is_red(t)), *(t for t in held if is_red(t)))
            return Call(CallKind.ANKAN, tiles, 3)
        added = kind if kind in hand else max(held)  # the red five when no plain one is held
        pon = self.pons[self.player(action.seat), kind]
        tiles = (*pon.tiles[: pon.slot], added, *pon.tiles[pon.slot :])
        return Call(CallKind.KAKAN, tiles, pon.slot)

    def call(self, seat: int, meld: Meld) -> Call:
        """A chi, pon or open kong as the log writes it: the called tile where the marker
        stands, the caller's own tiles around it."""
        assert meld.claimed is not None and meld.from_seat is not None
        kind = _CALL_KINDS[meld.kind]
        source = self.player(meld.from_seat)
        offset = (source - self.player(seat)) % FOUR_SEATS
        slot = _SLOTS[kind][offset]
        own = list(meld.tiles)
        own.remove(meld.claimed)
        tiles = (*own[:slot], meld.claimed, *own[slot:])
        return Call(kind, tiles, slot)

    def draws(self) -> None:
        """The tiles the last action drew, to the seat that drew them."""
        state = self.state
        drawer = self.player(state.turn)
        self.takes[drawer] += state.wall[self.front : state.front]
        self.takes[drawer] += reversed(state.wall[state.back : self.back])
        self.front, self.back = state.front, state.back


def hand_of(stored: StoredHand) -> Hand:
    """One finished hand as the log writes it."""
    state = HandState(
        stored.preset,
        stored.seed,
        stored.setup,
        wall=stored.wall,
        seat_count=stored.seat_count,
        always_ask=stored.always_ask,
    )
    writer = _Writer(state)
    for action in stored.actions:
        writer.apply(action)
    outcome = state.outcome()
    if outcome is None:
        raise ValueError("only a finished hand is written as a log")
    setup = stored.setup
    seats = stored.seat_count
    dora = state.part_of(riichi_terms.DoraPart)
    riichi_win = any(
        p.id in ("riichi", "double_riichi") for win in outcome.wins for p in win.score.patterns
    )
    return Hand(
        kyoku=setup.round_wind * 4 + setup.dealer,
        honba=setup.honba,
        sticks=setup.pot // 1000,
        points=tuple(setup.points[writer.seat(p)] for p in range(seats)),
        dora=() if dora is None else dora.dora_indicators(),
        ura=dora.ura_indicators() if dora is not None and riichi_win else (),
        starts=tuple(writer.starts),
        takes=tuple(tuple(t) for t in writer.takes),
        discards=tuple(tuple(d) for d in writer.discards),
        result=result_of(state, outcome, stored.actions, writer),
    )


def result_of(
    state: HandState, outcome: Outcome, actions: Sequence[EngineAction], writer: _Writer
) -> Result:
    def by_player(deltas: Sequence[int]) -> tuple[int, ...]:
        out = [0] * writer.seats
        for seat, delta in enumerate(deltas):
            out[writer.player(seat)] += delta
        return tuple(out)

    if outcome.wins:
        wins = tuple(
            _win(state, outcome, win, writer, by_player(win.deltas)) for win in outcome.wins
        )
        return Result("和了", wins=wins)
    paid = [p for p in outcome.payments if p.reason is not Reason.DEPOSIT]
    deltas = by_player(deltas_of(paid, writer.seats))
    if outcome.termination is Termination.WALL_DRAW:
        if any(p.reason is Reason.WIN for p in paid):
            return Result("流し満貫", deltas=(deltas,))
        if any(deltas):
            return Result("流局", deltas=(deltas,))
        return Result("全員聴牌" if len(outcome.ready) == writer.seats else "全員不聴")
    return Result(ABORT_NAMES[_abort(state, actions)])


def _abort(state: HandState, actions: Sequence[EngineAction]) -> str:
    last = actions[-1]
    if last.kind is riichi_terms.NINE_TERMINALS:
        return "nine_terminals"
    if last.kind is Kind.WIN:
        return "triple_ron"
    riichi = state.part_of(riichi_terms.RiichiPart)
    if riichi is not None and sum(riichi.declared) >= 4:
        return "four_riichi"
    if state.kongs_made >= 4:
        return "four_kongs"
    return "four_winds"


def liable_seat(outcome: Outcome, winner: int) -> int | None:
    """The hand seat that pays for feeding the winner's yakuman (pao), if one does."""
    for payment in outcome.payments:
        if payment.reason is Reason.LIABILITY and payment.payee == winner:
            return payment.payer
    return None


def _win(
    state: HandState, outcome: Outcome, win: WinRecord, writer: _Writer, deltas: tuple[int, ...]
) -> Win:
    score = win.score
    liable = liable_seat(outcome, win.seat)
    source = win.seat if win.by is WinBy.SELF_DRAW else win.discarder
    assert source is not None
    yakuman = (
        sum(p.fan for p in score.patterns if p.id in riichi_terms.YAKUMAN_IDS)
        // riichi_terms.YAKUMAN_HAN
    )
    limit, _ = riichi_terms.limit_of(score.fan, score.fu, yakuman)
    seat_wind, round_wind = win.seat, state.round_wind
    texts = (
        points_text(score.fan, score.fu, limit, score.points, dealer=win.seat == 0),
        *(
            yaku_text(p.id, p.fan, seat_wind, round_wind)
            for p in sorted(score.patterns, key=lambda p: TENHOU_ORDER[p.id])
        ),
    )
    pao = writer.player(win.seat if liable is None else liable)
    return Win(deltas, writer.player(win.seat), writer.player(source), pao, texts)
