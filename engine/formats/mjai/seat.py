"""One seat's hand rebuilt from the mjai events it is sent, and decided by our computers.

An mjai seat sees its own tiles, every public action, and `?` for the others' draws and hands.
Our engine plays a hand from a whole wall, so the seat's knowledge (`Kyoku`) is kept as a wall
whose places are known or not yet known: its own deal and draws, the dora indicators, and every
tile another seat has shown from its hand (a discard, a call's tiles, a kong) bound to a place
that seat held. A `HandState` is dealt from that wall with the places nobody knows filled from
the tiles still unseen, and the public actions are applied to it as our engine's own actions
(claim windows nobody took answered with passes), so furiten, kuikae, riichi and red fives are
the engine's. A seat that declares riichi is dealt a ready hand in its unknown places (the engine
checks that a riichi hand is ready). The computer decides from that state as at our tables: it
reads only what its seat may see (engine.seat_view), so the filled places never lead it.

The state is kept and extended action by action. Where an event shows a tile its wall placed
elsewhere (an own draw, another seat's discard from its hand), the kept state is refit in places
the seat cannot see (`refit_draws`, `refit_hand`); only where that cannot be is the hand dealt
again from the knowledge as it stands (on the bench's hands, 23 of 230 decisions, 12 of them
each hand's first).

`replay_log` plays a whole log with every tile shown (an export of ours, a reviewer's log) and
gives each hand's result beside the log's.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.actions import Action
from engine.actions import ActionKind as Kind
from engine.formats.mjai.export import MJAI_SEATS, WINDS, added_kong_tiles
from engine.formats.mjai.tiles import MjaiError, maybe_tile, name_of, tile_of
from engine.hand import HandState, IllegalActionError, Phase
from engine.hand_setup import HandSetup
from engine.presets import Preset, riichi_terms
from engine.settlement import Reason, deltas_of
from engine.tiles import FIVES, Tile, is_red, kind_of

Event = dict[str, Any]
Computer = Callable[[HandState, int], Action]
NONE: Event = {"type": "none"}
INDICATORS = 5  # dora indicator places, and ura under them (engine.families.riichi.rules.Dora)
_WINDOWS = (Phase.CLAIMS, Phase.ROB)
_CLAIMS = frozenset({Kind.CHOW, Kind.PUNG, Kind.KONG, Kind.WIN})
_KONGS = frozenset({"daiminkan", "ankan", "kakan"})


# ---------------------------------------------------------------- reading events


def field_of(event: Event, name: str) -> Any:
    if name not in event:
        raise MjaiError(f"{_kind(event)} event without {name!r}: {_short(event)}")
    return event[name]


def int_of(event: Event, name: str, low: int, high: int) -> int:
    value = field_of(event, name)
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise MjaiError(f"{_kind(event)} event: {name} {value!r} is not {low}-{high}")
    return value


def tiles_of(event: Event, name: str, count: int) -> list[Tile]:
    value = field_of(event, name)
    if not isinstance(value, list) or len(value) != count:
        raise MjaiError(f"{_kind(event)} event: {name} is not {count} tiles: {_short(event)}")
    return [tile_of(t) for t in value]


def _kind(event: Event) -> str:
    return str(event.get("type", "untyped"))


def _short(event: Event) -> str:
    text = repr(event)
    return text if len(text) <= 200 else text[:197] + "..."


def read_events(line: str) -> list[Event]:
    """One stdin line: a JSON array of events, or one event object."""
    import json

    try:
        data = json.loads(line)
    except ValueError as error:
        raise MjaiError(f"not JSON: {error}") from None
    events = data if isinstance(data, list) else [data]
    if not events or not all(
        isinstance(e, dict) and isinstance(e.get("type"), str) for e in events
    ):
        raise MjaiError(f"not an mjai event or a non-empty list of events: {line.strip()[:200]}")
    return events


# ---------------------------------------------------------------- one hand's knowledge


@dataclass
class Kyoku:
    """What a seat knows of one hand (seat None: a log with every tile shown). Places are
    indexes into `tiles` (None: not known yet); players count in seating order."""

    preset: Preset
    seat: int | None
    setup: HandSetup
    tiles: list[Tile | None] = field(default_factory=list)
    dealt: list[list[int]] = field(default_factory=list)  # places, by player
    front: list[int] = field(default_factory=list)  # places drawn from the front, in order
    back: list[int] = field(default_factory=list)  # replacement draws, in order
    dora: list[Tile] = field(default_factory=list)
    ura: list[Tile] = field(default_factory=list)
    held: list[list[int]] = field(default_factory=list)  # each player's places in hand
    drawn: list[int | None] = field(default_factory=list)  # each player's drawn place
    plays: list[Action] = field(default_factory=list)  # the public actions, as ours
    consumed: list[tuple[Tile, ...]] = field(default_factory=list)  # a play's own tiles
    reaching: set[int] = field(default_factory=set)  # players whose next dahai is riichi
    ready_hands: list[list[int]] = field(default_factory=list)  # a riichi hand's places
    last: str = ""  # the type of the last event of the hand, and its actor
    last_actor: int = -1

    @property
    def dealer(self) -> int:
        return self.setup.dealer

    def hand_seat(self, player: int) -> int:
        return (player - self.dealer) % MJAI_SEATS

    def place(self, tile: Tile | None) -> int:
        self.tiles.append(tile)
        return len(self.tiles) - 1

    def check_counts(self) -> None:
        seen = Counter(t for t in self.tiles if t is not None)
        seen.update(self.dora)
        seen.update(self.ura)
        wall = Counter(self.preset.wall)
        for tile, count in seen.items():
            if count > wall[tile]:
                raise MjaiError(
                    f"{count} {name_of(tile)} shown: the {self.preset.id} wall has {wall[tile]}"
                )

    # ------------------------------------------------------------ the events

    def draw(self, player: int, tile: Tile | None) -> None:
        if tile is None and player == self.seat:
            raise MjaiError("tsumo of this seat's own draw as '?'")
        replacement = self.last in _KONGS and self.last_actor == player
        spot = self.place(tile)
        (self.back if replacement else self.front).append(spot)
        self.held[player].append(spot)
        self.drawn[player] = spot
        self.check_counts()

    def give_up(self, player: int, tile: Tile, from_draw: bool | None = None) -> None:
        """A tile leaves a player's hand: from a place known to hold it, else (another seat)
        from a place not known yet, bound to it. `from_draw`: the drawn place (tsumogiri),
        False: another place before it, None (a call or kong): the drawn place first."""
        held = self.held[player]
        drawn = self.drawn[player]
        others = [p for p in held if p != drawn]
        mine = [drawn] if drawn is not None and drawn in held else []
        if from_draw and not mine:
            raise MjaiError(f"player {player} discards its drawn tile with none drawn")
        places = mine if from_draw else others + mine if from_draw is False else mine + others
        for spot in places:
            if self.tiles[spot] == tile:
                held.remove(spot)
                return
        for spot in places:
            if self.tiles[spot] is None:
                self.tiles[spot] = tile
                held.remove(spot)
                self.check_counts()
                return
        raise MjaiError(f"player {player} does not hold {name_of(tile)}")

    def play(self, action: Action, own: Sequence[Tile] = ()) -> None:
        self.plays.append(action)
        self.consumed.append(tuple(own))


def _ready_fill(known: list[Tile], need: int, pool: Counter[Tile]) -> list[Tile] | None:
    """`need` tiles of `pool` that make `known` and them a ready hand: sets and one single
    (the known tiles of a riichi hand are triplets a later kong showed, and at most one more
    tile, the single); None when the pool has no such tiles."""
    counts = Counter(kind_of(t) for t in known)
    leftover = [k for k, c in counts.items() for _ in range(c % 3)]
    if len(leftover) > 1:
        return None
    chosen: list[Tile] = []
    taken: Counter[Tile] = Counter()
    single = 0 if leftover else 1  # the known leftover is the single, else one is chosen
    sets = (need - single) // 3

    def take(tiles: list[Tile]) -> bool:
        wanted = Counter(tiles)
        if any(pool[t] - taken[t] < n or kind_of(t) in counts for t, n in wanted.items()):
            return False
        taken.update(wanted)
        chosen.extend(tiles)
        return True

    for tile in sorted(pool, key=_filler_order):
        if len(chosen) < 3 * sets and not is_red(tile):
            take([tile] * 3)
    for start in range(27):
        while len(chosen) < 3 * sets and start % 9 <= 6 and take([start, start + 1, start + 2]):
            pass
    if single:
        used = {kind_of(t) for t in taken} | set(counts)  # a single of its own kind: a wait
        alone = [t for t in sorted(pool, key=_filler_order) if kind_of(t) not in used]
        if not alone:
            return None
        chosen.append(alone[0])
    return chosen if len(chosen) == need else None


def _filler_order(tile: Tile) -> tuple[int, Tile]:
    """Unknown places in others' hands are filled with honours first and fives last (a red
    five shown in a call then never stands beside a plain one the engine would take first)."""
    return (kind_of(tile) in FIVES, -tile)


def arranged_wall(kyoku: Kyoku) -> list[Tile]:
    """The whole wall, in our loop's order, that deals and draws what the seat knows; the
    places nobody knows filled from the tiles still unseen."""
    preset = kyoku.preset
    tiles = list(kyoku.tiles)
    pool = Counter(preset.wall)
    pool.subtract([t for t in tiles if t is not None])
    pool.subtract([*kyoku.dora, *kyoku.ura])
    if any(count < 0 for count in pool.values()):
        kyoku.check_counts()
    for places in kyoku.ready_hands:
        unknown = [p for p in places if tiles[p] is None]
        if not unknown:
            continue
        known = [t for p in places if (t := tiles[p]) is not None]
        fill = _ready_fill(known, len(unknown), +pool)
        if fill is None:
            raise MjaiError("no ready hand fits what a riichi seat has shown")
        for spot, tile in zip(unknown, fill, strict=True):
            tiles[spot] = tile
            pool[tile] -= 1
    spare = iter([t for t in sorted(+pool, key=_filler_order) for _ in range(pool[t])])
    filled = [next(spare) if tile is None else tile for tile in tiles]
    dead_wall, replacements = preset.dead_wall, preset.replacements
    if dead_wall != 2 * INDICATORS + replacements:
        raise MjaiError(f"{preset.id} has no Riichi dead wall")
    order = [kyoku.hand_seat(p) for p in range(MJAI_SEATS)]
    by_seat = sorted(range(MJAI_SEATS), key=order.__getitem__)
    front = [filled[p] for player in by_seat for p in kyoku.dealt[player]]
    front += [filled[p] for p in kyoku.front]
    back = [filled[p] for p in kyoku.back]
    if len(back) > replacements or len(kyoku.dora) > INDICATORS:
        raise MjaiError("more kongs or dora indicators than the dead wall holds")
    live = len(preset.wall) - dead_wall - len(front)
    if live < 0:
        raise MjaiError("more draws than the live wall holds")
    dora = [*kyoku.dora, *(next(spare) for _ in range(INDICATORS - len(kyoku.dora)))]
    ura = [*kyoku.ura, *(next(spare) for _ in range(INDICATORS - len(kyoku.ura)))]
    unused = [next(spare) for _ in range(replacements - len(back))]
    middle = [next(spare) for _ in range(live)]
    assert next(spare, None) is None
    return [*front, *middle, *dora, *ura, *unused, *reversed(back)]


def answer_windows(state: HandState, coming: Action | None) -> None:
    """Every seat asked in an open window passes, unless the coming action is its claim."""
    while state.phase in _WINDOWS:
        pending = state.seats_to_act()
        if coming is not None and coming.kind in _CLAIMS and coming.seat in pending:
            return
        for seat in pending:
            state.apply(Action(seat, Kind.PASS))


def apply_play(state: HandState, action: Action) -> None:
    """A public action applied as ours (the windows before it answered); MjaiError when our
    engine refuses it."""
    try:
        answer_windows(state, action)
        legal = state.legal_actions(action.seat)
        if action not in legal:  # our engine held the other of a five and its red five
            same = [a for a in legal if a.kind is action.kind and _kinds(a) == _kinds(action)]
            if not same:
                raise MjaiError(f"our engine refuses {action}: {_why_not(action, legal)}")
            action = same[0]
        state.apply(action)
    except IllegalActionError as error:
        raise MjaiError(str(error)) from None


def _kinds(action: Action) -> tuple[Tile, ...]:
    return tuple(map(kind_of, action.tiles))


def _why_not(action: Action, legal: Sequence[Action]) -> str:
    if not legal:
        return "that seat has no decision to make here"
    return "legal: " + ", ".join(str(a) for a in legal[:12])


def build(kyoku: Kyoku) -> HandState:
    """The hand dealt from what the seat knows, every public action applied."""
    state = HandState(kyoku.preset, 0, kyoku.setup, wall=arranged_wall(kyoku))
    for action in kyoku.plays:
        apply_play(state, action)
    return state


# ---------------------------------------------------------------- a stream of events


class Table:
    """Reads a stream of mjai events for one seat (`seat` None: every tile shown) and keeps
    the hand it is in (`kyoku`), as our engine's state (`state`)."""

    def __init__(self, preset: Preset, seat: int | None) -> None:
        self.preset = preset
        self.seat = seat
        self.kyoku: Kyoku | None = None
        self.in_hand = False
        self._state: HandState | None = None
        self._applied = 0
        self.ended: list[Event] = []  # the hand's hora and ryukyoku events

    def take(self, event: Event) -> None:
        kind = event["type"]
        handler = _HANDLERS.get(kind)
        if handler is None:
            raise MjaiError(f"unknown event type {kind!r}")
        if kind not in _OUTSIDE_HANDS and not self.in_hand:
            raise MjaiError(f"{kind} event outside a hand: {_short(event)}")
        handler(self, event)
        if self.kyoku is not None and kind not in ("dora", "reach_accepted"):
            self.kyoku.last = kind
            self.kyoku.last_actor = event.get("actor", -1)

    def current(self) -> Kyoku:
        assert self.kyoku is not None
        return self.kyoku

    def actor(self, event: Event) -> int:
        return int_of(event, "actor", 0, MJAI_SEATS - 1)

    # ------------------------------------------------------------ handlers

    def start_game(self, event: Event) -> None:
        seat_id = event.get("id")
        if seat_id is not None and self.seat is not None and seat_id != self.seat:
            raise MjaiError(f"start_game for player {seat_id!r}, this bot plays {self.seat}")
        self.kyoku, self.in_hand = None, False

    def start_kyoku(self, event: Event) -> None:
        bakaze = field_of(event, "bakaze")
        if bakaze not in WINDS:
            raise MjaiError(f"start_kyoku: bakaze {bakaze!r} is not E, S, W or N")
        kyoku = int_of(event, "kyoku", 1, 4)
        oya = int_of(event, "oya", 0, 3)
        if kyoku != oya + 1:
            raise MjaiError(f"start_kyoku: kyoku {kyoku} is not dealt by oya {oya}")
        scores = field_of(event, "scores")
        if not (isinstance(scores, list) and len(scores) == MJAI_SEATS):
            raise MjaiError("start_kyoku: scores are not four numbers")
        if not all(isinstance(s, int) and not isinstance(s, bool) for s in scores):
            raise MjaiError("start_kyoku: scores are not four numbers")
        setup = HandSetup(
            dealer=oya,
            round_wind=WINDS.index(bakaze),
            honba=int_of(event, "honba", 0, 1000),
            pot=1000 * int_of(event, "kyotaku", 0, 1000),
            points=tuple(scores[(oya + s) % MJAI_SEATS] for s in range(MJAI_SEATS)),
        )
        tehais = field_of(event, "tehais")
        size = self.preset.hand_size
        if not (isinstance(tehais, list) and len(tehais) == MJAI_SEATS):
            raise MjaiError("start_kyoku: tehais are not four hands")
        found = Kyoku(self.preset, self.seat, setup)
        found.dora = [tile_of(field_of(event, "dora_marker"))]
        for player, hand in enumerate(tehais):
            if not (isinstance(hand, list) and len(hand) == size):
                raise MjaiError(f"start_kyoku: player {player}'s tehai is not {size} tiles")
            tiles = [maybe_tile(t) for t in hand]
            if (self.seat is None or player == self.seat) and None in tiles:
                raise MjaiError(f"start_kyoku: player {player}'s own tehai shows '?'")
            places = [found.place(t) for t in tiles]
            found.dealt.append(places)
            found.held.append(list(places))
            found.drawn.append(None)
        found.check_counts()
        self.kyoku, self.in_hand = found, True
        self._state, self._applied = None, 0
        self.ended = []

    def tsumo(self, event: Event) -> None:
        self.current().draw(self.actor(event), maybe_tile(field_of(event, "pai")))

    def dahai(self, event: Event) -> None:
        kyoku, player = self.current(), self.actor(event)
        tile = tile_of(field_of(event, "pai"))
        from_draw = field_of(event, "tsumogiri")
        if not isinstance(from_draw, bool):
            raise MjaiError(f"dahai: tsumogiri {from_draw!r} is not true or false")
        kyoku.give_up(player, tile, from_draw)
        kyoku.drawn[player] = None
        riichi = player in kyoku.reaching
        kyoku.reaching.discard(player)
        kind = riichi_terms.RIICHI if riichi else Kind.DISCARD
        kyoku.play(Action(kyoku.hand_seat(player), kind, (tile,)), (tile,))
        if riichi and player != self.seat:
            kyoku.ready_hands.append(list(kyoku.held[player]))

    def call(self, event: Event) -> None:
        kyoku, player = self.current(), self.actor(event)
        kind = event["type"]
        target = int_of(event, "target", 0, 3)
        if target == player:
            raise MjaiError(f"{kind}: player {player} calls its own discard")
        tile = tile_of(field_of(event, "pai"))
        own = tiles_of(event, "consumed", 3 if kind == "daiminkan" else 2)
        for taken in own:
            kyoku.give_up(player, taken)
        kyoku.drawn[player] = None
        seat = kyoku.hand_seat(player)
        if kind == "chi":
            action = Action(seat, Kind.CHOW, tuple(sorted(map(kind_of, (tile, *own)))))
        else:
            action = Action(seat, Kind.PUNG if kind == "pon" else Kind.KONG, (tile,))
        if len({kind_of(t) for t in own} | {kind_of(tile)}) != (3 if kind == "chi" else 1):
            raise MjaiError(f"{kind}: {_short(event)} is no {kind}")
        kyoku.play(action, own)

    def kakan(self, event: Event) -> None:
        kyoku, player = self.current(), self.actor(event)
        tile = tile_of(field_of(event, "pai"))
        tiles_of(event, "consumed", 3)
        kyoku.give_up(player, tile)
        kyoku.drawn[player] = None
        kyoku.play(Action(kyoku.hand_seat(player), Kind.ADDED_KONG, (kind_of(tile),)), (tile,))

    def ankan(self, event: Event) -> None:
        kyoku, player = self.current(), self.actor(event)
        own = tiles_of(event, "consumed", 4)
        if len({kind_of(t) for t in own}) != 1:
            raise MjaiError(f"ankan: {_short(event)} is not four of a kind")
        for taken in own:
            kyoku.give_up(player, taken)
        kyoku.drawn[player] = None
        seat = kyoku.hand_seat(player)
        kyoku.play(Action(seat, Kind.CONCEALED_KONG, (kind_of(own[0]),)), own)

    def dora(self, event: Event) -> None:
        kyoku = self.current()
        kyoku.dora.append(tile_of(field_of(event, "dora_marker")))
        if len(kyoku.dora) > INDICATORS:
            raise MjaiError("more dora indicators than the dead wall holds")
        kyoku.check_counts()
        self._state = None  # the kept wall turned an indicator nobody knew yet

    def reach(self, event: Event) -> None:
        self.current().reaching.add(self.actor(event))

    def reach_accepted(self, event: Event) -> None:
        self.actor(event)

    def hora(self, event: Event) -> None:
        self.actor(event)
        int_of(event, "target", 0, 3)
        kyoku = self.current()
        ura = event.get("ura_markers")
        if isinstance(ura, list) and not kyoku.ura:
            kyoku.ura = [tile_of(t) for t in ura]
            kyoku.check_counts()
        self.ended.append(event)

    def ryukyoku(self, event: Event) -> None:
        self.ended.append(event)

    def end_kyoku(self, event: Event) -> None:
        self.in_hand = False

    def end_game(self, event: Event) -> None:
        self.kyoku, self.in_hand = None, False

    def none(self, event: Event) -> None:
        pass

    # ------------------------------------------------------------ the engine's state

    def state(self) -> HandState:
        """The hand as our engine's state, with every public action so far: the one kept,
        extended while it can be made to fit (`refit`), else dealt again from what the seat
        knows."""
        kyoku = self.current()
        state = self._state
        if state is not None:
            try:
                for index in range(self._applied, len(kyoku.plays)):
                    action = kyoku.plays[index]
                    if not refit_draws(state, kyoku, index):
                        state = None
                        break
                    answer_windows(state, action)
                    fits = refit_draws(state, kyoku, index) and refit_hand(state, kyoku, index)
                    # a call's tiles in its caller's hand before the discard it takes opens
                    # the window that offers it
                    if fits and _calls(kyoku, index + 1):
                        fits = refit_hand(state, kyoku, index + 1)
                    if not fits:
                        state = None
                        break
                    apply_play(state, action)
                    self._applied = index + 1
                if state is not None and not refit_draws(state, kyoku, len(kyoku.plays)):
                    state = None
            except MjaiError:
                state = None
        if state is None:
            state = build(kyoku)
            self._applied = len(kyoku.plays)
        self._state = state
        return state

    def redeal(self) -> HandState:
        """The hand dealt again from what the seat knows (the kept state placed a tile the
        events show elsewhere)."""
        self._state = None
        return self.state()


# A kept state is refit where the events show what its wall placed otherwise, in places the
# seat cannot see only: undrawn places of the live wall swapped, and a tile another seat shows
# from its hand put there in place of a filled one (that one back into the undrawn wall). The
# hand's log is unchanged, and the state is one a wall arranged so from the start deals.
# (A general hook, written here: HandState has none for it; its public `wall` list and
# `add_tile`/`remove_tile` are used.)


def _draw_places(state: HandState, kyoku: Kyoku) -> dict[int, Tile]:
    """The undrawn wall places whose tile the events have shown (draws to come, as the kept
    state counts them)."""
    dealt = kyoku.preset.hand_size * MJAI_SEATS
    shown = {dealt + k: kyoku.tiles[spot] for k, spot in enumerate(kyoku.front)}
    return {at: tile for at, tile in shown.items() if at >= state.front and tile is not None}


def _unseen_places(state: HandState, kyoku: Kyoku) -> list[int]:
    """The wall places nobody has seen: the undrawn live wall, the dora indicators not turned
    yet, the ura indicators (until a win shows them), the replacements not drawn."""
    preset = kyoku.preset
    dead = len(state.wall) - preset.dead_wall
    live_end = dead - len(kyoku.back)
    dora = state.part_of(riichi_terms.DoraPart)
    turned = max(len(kyoku.dora), 0 if dora is None else dora.turned)
    places = [*range(state.front, live_end), *range(dead + turned, dead + INDICATORS)]
    if not kyoku.ura:
        places += range(dead + INDICATORS, dead + 2 * INDICATORS)
    places += range(dead + 2 * INDICATORS, min(state.back, len(state.wall) - len(kyoku.back)))
    return places


def _undrawn_place(
    state: HandState, kyoku: Kyoku, tile: Tile | None, fixed: dict[int, Tile]
) -> int:
    """A wall place nobody has seen holding `tile` (None: any) that no shown draw needs, or
    -1."""
    wall = state.wall
    for at in _unseen_places(state, kyoku):
        if (tile is None or wall[at] == tile) and at not in fixed:
            return at
    return -1


def _unseen_in_hand(state: HandState, kyoku: Kyoku, seat: int, index: int) -> Counter[Tile]:
    """The tiles of another seat's hand in the kept state that nobody has seen there: neither
    shown from it later (from play `index` on) nor its drawn tile."""
    player = (seat + kyoku.dealer) % MJAI_SEATS
    keep = Counter(t for spot in kyoku.held[player] if (t := kyoku.tiles[spot]) is not None)
    for later, tiles in zip(kyoku.plays[index:], kyoku.consumed[index:], strict=True):
        if later.seat == seat:
            keep.update(tiles)
    if state.turn == seat and state.drawn is not None:
        keep[state.drawn] += 1  # the drawn tile stays: a discard from the hand is another
    return Counter(state.hands[seat]) - keep


def _swap_into_hand(state: HandState, seat: int, given: Tile, taken: Tile, at: int) -> None:
    """`taken` from wall place `at` into a seat's hand, `given` from it to that place."""
    state.remove_tile(seat, given)
    state.add_tile(seat, taken)
    state.wall[at] = given


def _free(state: HandState, kyoku: Kyoku, tile: Tile, fixed: dict[int, Tile], index: int) -> int:
    """An undrawn live place holding `tile`, fetched from another seat's unseen tiles when the
    undrawn wall has none (that seat given the place's tile instead); -1 when none has it."""
    at = _undrawn_place(state, kyoku, tile, fixed)
    if at >= 0:
        return at
    mine = kyoku.seat is not None and kyoku.hand_seat(kyoku.seat)
    acting = kyoku.plays[index].seat if index < len(kyoku.plays) else -1
    for seat in state.seats:
        if seat in (mine, acting) or not _unseen_in_hand(state, kyoku, seat, index)[tile]:
            continue
        at = _undrawn_place(state, kyoku, None, fixed)
        if at < 0:
            return -1
        _swap_into_hand(state, seat, tile, state.wall[at], at)
        return at
    return -1


def _calls(kyoku: Kyoku, index: int) -> bool:
    """Whether play `index` is a call of a discard."""
    return index < len(kyoku.plays) and kyoku.plays[index].kind in (Kind.CHOW, Kind.PUNG, Kind.KONG)


def refit_draws(state: HandState, kyoku: Kyoku, index: int) -> bool:
    """The kept wall's undrawn places made to hold the draws the events have shown; False
    when a tile shown cannot be put there (then the hand is dealt again)."""
    fixed = _draw_places(state, kyoku)
    wall = state.wall
    for at, tile in fixed.items():
        if wall[at] != tile:
            other = _free(state, kyoku, tile, fixed, index)
            if other < 0:
                return False
            wall[at], wall[other] = wall[other], wall[at]
    return True


def refit_hand(state: HandState, kyoku: Kyoku, index: int) -> bool:
    """Another seat's hand made to hold the tiles play `index` shows from it, each in place
    of a tile nobody has seen there; False when that cannot be (then the hand is dealt again)."""
    action = kyoku.plays[index]
    seat = action.seat
    missing = Counter(kyoku.consumed[index]) - Counter(state.hands[seat])
    if not missing:
        return True
    if kyoku.seat is not None and seat == kyoku.hand_seat(kyoku.seat):
        return False
    spare = sorted(_unseen_in_hand(state, kyoku, seat, index).elements(), key=_filler_order)
    fixed = _draw_places(state, kyoku)
    for tile in missing.elements():
        at = _free(state, kyoku, tile, fixed, index)
        if at < 0 or not spare:
            return False
        _swap_into_hand(state, seat, spare.pop(), tile, at)
    return True


_OUTSIDE_HANDS = frozenset({"start_game", "start_kyoku", "end_game", "none", "end_kyoku"})
_HANDLERS: dict[str, Callable[[Table, Event], None]] = {
    "none": Table.none,
    "start_game": Table.start_game,
    "start_kyoku": Table.start_kyoku,
    "tsumo": Table.tsumo,
    "dahai": Table.dahai,
    "chi": Table.call,
    "pon": Table.call,
    "daiminkan": Table.call,
    "kakan": Table.kakan,
    "ankan": Table.ankan,
    "dora": Table.dora,
    "reach": Table.reach,
    "reach_accepted": Table.reach_accepted,
    "hora": Table.hora,
    "ryukyoku": Table.ryukyoku,
    "end_kyoku": Table.end_kyoku,
    "end_game": Table.end_game,
}


# ---------------------------------------------------------------- a seat's bot


class Bot:
    """`mahjong-bot mjai SEAT`'s player: reads the events it is sent and answers each batch with
    its reaction when its seat has a decision, else `{"type":"none"}`."""

    def __init__(self, preset: Preset, player: int, computer: Computer) -> None:
        self.table = Table(preset, player)
        self.player = player
        self.computer = computer
        self.riichi_tile: Tile | None = None  # the discard our riichi declaration waits for
        self.warmed = False

    def react(self, events: Sequence[Event]) -> Event:
        """Our reaction to a batch of events; MjaiError naming the event that is malformed or
        impossible."""
        for event in events:
            try:
                self.table.take(event)
            except MjaiError as error:
                raise MjaiError(f"{_short(event)}: {error}") from None
            if event["type"] == "start_game":
                self.warm_up()
        # the decision follows the last event a seat acts on (an indicator may follow a draw)
        acted = [e for e in events if e["type"] not in _AFTERWARDS]
        if not acted:
            return NONE
        try:
            return self.decide(acted[-1])
        except MjaiError as error:
            raise MjaiError(f"{_short(acted[-1])}: {error}") from None

    def warm_up(self) -> None:
        """One decision on a hand of our own, answering start_game (an arena allows it time):
        the computer's tables are loaded before the first decision that is timed."""
        if not self.warmed:
            self.computer(HandState(self.table.preset, 0), 0)
            self.warmed = True

    def decide(self, last: Event) -> Event:
        kind = last["type"]
        if not self.table.in_hand or kind not in _DECISIONS:
            return NONE
        mine = last.get("actor") == self.player
        if mine != _DECISIONS[kind]:
            return NONE
        table = self.table
        seat = table.current().hand_seat(self.player)
        if kind == "reach":
            return self.riichi_discard(table.state(), seat)
        state = table.state()
        if kind == "tsumo":
            state = self.drawn_state(state, seat, tile_of(last["pai"]))
        elif mine:  # our call: nobody took the discard before it
            answer_windows(state, None)
        elif state.phase not in _WINDOWS:  # another's discard or kong nobody may claim
            return NONE
        if seat not in state.seats_to_act():
            return NONE
        return self.reaction(state, self.computer(state, seat))

    def drawn_state(self, state: HandState, seat: int, tile: Tile) -> HandState:
        """The state at our draw of `tile`: the kept one when its wall drew it, else dealt
        again from what we know."""
        for attempt in range(2):
            answer_windows(state, None)
            if state.phase is Phase.TURN and state.turn == seat and state.drawn == tile:
                return state
            if attempt == 0:
                state = self.table.redeal()
        raise MjaiError(f"tsumo of {name_of(tile)}: our engine's hand does not draw it here")

    def riichi_discard(self, state: HandState, seat: int) -> Event:
        tile = self.riichi_tile
        self.riichi_tile = None
        if tile is None:  # a reach we did not answer: the computer's riichi discard, if any
            answer_windows(state, None)
            offered = [a for a in state.legal_actions(seat) if a.kind is riichi_terms.RIICHI]
            if not offered:
                raise MjaiError("reach of this seat where our engine allows no riichi")
            chosen = self.computer(state, seat)
            tile = (chosen if chosen.kind is riichi_terms.RIICHI else offered[0]).tile
        return self.discard(state, tile)

    def discard(self, state: HandState, tile: Tile) -> Event:
        tsumogiri = tile == state.drawn
        return {"type": "dahai", "actor": self.player, "pai": name_of(tile), "tsumogiri": tsumogiri}

    def reaction(self, state: HandState, action: Action) -> Event:
        """Our action as mjai's reaction (the tiles a call takes as our engine takes them: a
        plain five before a red one)."""
        me = self.player
        kind = action.kind
        hand = state.hands[action.seat]
        dealer = state.setup.dealer
        source = None if state.claim_from is None else (state.claim_from + dealer) % MJAI_SEATS
        claimed = state.claim_tile
        if kind is Kind.PASS:
            return NONE
        if kind is Kind.DISCARD:
            return self.discard(state, action.tile)
        if kind is riichi_terms.RIICHI:
            self.riichi_tile = action.tile
            return {"type": "reach", "actor": me}
        if kind is riichi_terms.NINE_TERMINALS:
            return {"type": "ryukyoku", "actor": me}
        if kind is Kind.WIN:
            if state.phase is Phase.TURN:
                assert state.drawn is not None
                return {"type": "hora", "actor": me, "target": me, "pai": name_of(state.drawn)}
            assert claimed is not None
            return {"type": "hora", "actor": me, "target": source, "pai": name_of(claimed)}
        if kind is Kind.CONCEALED_KONG:
            own = sorted(t for t in hand if kind_of(t) == action.tile)
            return {"type": "ankan", "actor": me, "consumed": [name_of(t) for t in own]}
        if kind is Kind.ADDED_KONG:
            added, pung = added_kong_tiles(state, action)
            consumed = [name_of(t) for t in pung]
            return {"type": "kakan", "actor": me, "pai": name_of(added), "consumed": consumed}
        assert claimed is not None
        if kind is Kind.CHOW:
            kinds = list(action.tiles)
            kinds.remove(kind_of(claimed))
            call, own = "chi", [_held_id(hand, k) for k in kinds]
        else:
            count = 2 if kind is Kind.PUNG else 3
            call = "pon" if kind is Kind.PUNG else "daiminkan"
            own = sorted((t for t in hand if kind_of(t) == kind_of(claimed)), key=is_red)[:count]
        return {
            "type": call,
            "actor": me,
            "target": source,
            "pai": name_of(claimed),
            "consumed": [name_of(t) for t in own],
        }


def _held_id(hand: Sequence[Tile], kind: Tile) -> Tile:
    """The tile of `kind` a call takes from a hand, as our engine takes it: a plain one while
    one is held, else the red five."""
    return kind if kind in hand else next(t for t in hand if kind_of(t) == kind)


_AFTERWARDS = frozenset({"dora", "reach_accepted"})
# the event types after which this seat may decide: True on its own event, False on another's
_DECISIONS = {
    "tsumo": True,
    "chi": True,
    "pon": True,
    "reach": True,
    "dahai": False,
    "kakan": False,
    "ankan": False,
}


# ---------------------------------------------------------------- a whole log, every tile shown


@dataclass(frozen=True, slots=True)
class ReplayedHand:
    """One hand of a log played on our engine: its state at the end, and how our result
    differs from the log's (empty: the same)."""

    state: HandState
    differs: tuple[str, ...]


def replay_log(preset: Preset, events: Iterable[Event]) -> list[ReplayedHand]:
    """Every hand of a log with every tile shown, played on our engine to its end (the log's
    wins and draws declared as ours) and compared with the log's points."""
    table = Table(preset, None)
    played = []
    for number, event in enumerate(events, 1):
        if not isinstance(event, dict) or not isinstance(event.get("type"), str):
            raise MjaiError(f"line {number}: not an mjai event")
        if event["type"] == "end_kyoku" and table.in_hand:
            state = build(table.current())
            played.append(ReplayedHand(state, tuple(finish(state, table.ended))))
        table.take(event)
    return played


def finish(state: HandState, ended: Sequence[Event]) -> list[str]:
    """The log's end of a hand applied to our state: its wins, or the draw our engine ends it
    with (nine terminals declared, a triple ron); how our points differ from the log's."""
    dealer = state.setup.dealer
    horas = [e for e in ended if e["type"] == "hora"]
    for hora in horas:
        if hora["actor"] == hora["target"]:  # a self draw: on the draw after the windows
            answer_windows(state, None)
        apply_play(state, Action((hora["actor"] - dealer) % MJAI_SEATS, Kind.WIN))
    if not horas and not state.is_over:
        if state.phase is Phase.TURN:
            apply_play(state, Action(state.turn, riichi_terms.NINE_TERMINALS))
        else:
            ron = [s for s in state.seats_to_act() if Action(s, Kind.WIN) in state.legal_actions(s)]
            for seat in ron if len(ron) >= 3 else ():
                state.apply(Action(seat, Kind.WIN))
    answer_windows(state, None)
    outcome = state.outcome()
    if outcome is None:
        return ["the log's hand ends where ours goes on"]

    def by_player(deltas: Sequence[int]) -> list[int]:
        return [deltas[(p - dealer) % MJAI_SEATS] for p in range(MJAI_SEATS)]

    ours: list[list[int]] = [by_player(w.deltas) for w in outcome.wins]
    if not outcome.wins:
        paid = [p for p in outcome.payments if p.reason is not Reason.DEPOSIT]
        ours = [by_player(deltas_of(paid, state.seat_count))]
    theirs = [e.get("deltas") for e in ended]
    if [e["type"] for e in ended] != (["hora"] * len(ours) if outcome.wins else ["ryukyoku"]):
        return [f"the log ends with {[e['type'] for e in ended]}, ours with {len(ours)} win(s)"]
    return [
        f"deltas: ours {mine}, the log's {logged}"
        for mine, logged in zip(ours, theirs, strict=True)
        if logged is not None and mine != logged
    ]
