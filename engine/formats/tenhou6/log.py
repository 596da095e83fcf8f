"""The tenhou.net/6 JSON game log, read into frozen values and written back (DESIGN.md, "Games in
the format other tools read").

A log is `{"title", "name", "rule", "log": [hand, ...]}`; each hand is `[[kyoku, honba, sticks],
points, dora indicators, ura indicators, then per seat (start hand, takes, discards), result]`.
Tiles are codes 11-19 / 21-29 / 31-39 (m p s), 41-47 (E S W N white green red) and 51-53 (the red
fives); a discard of 60 is the tile just drawn. A take is a drawn tile or a call string naming the
tiles with one marker letter ("c" chi, "p" pon, "m" open kong); a discard is a tile, "r" + tile (a
riichi declared with that discard), "k" or "a" strings (added and concealed kongs), "f44" (a north
set aside in three-player) or 0 (the slot an open kong leaves, filled by nothing).

A marker's place says who gave the tile, in four-seat geometry even at a three-player table: before
the first tile the left seat (three seats back), before the second the seat across (two), and
before the last the right seat (one). An added kong keeps its pon's place, with the added tile
written right after the "k". The order of play across the seats is rebuilt by
engine.formats.tenhou6.order.

Names are kept as the log gives them; `anonymous` replaces them. The final-score line `sc` (each
seat's final points and score, in turn: `[p0, s0, p1, s1, ...]`, unused seats 0) is kept when the
log has one. Other keys (ratings, ranks, lobby) are not kept: they describe the players, not the
game.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, replace
from enum import StrEnum
from pathlib import Path
from typing import Any

from engine.tiles import RED_FIVES, Tile

FOUR_SEATS = 4
HAND_TILES = 13
TSUMOGIRI_CODE = 60
KAN_GAP_CODE = 0
WIN = "和了"
# Every way Tenhou and its converters name a hand that ends with nobody winning.
EXHAUSTIVE_DRAWS = frozenset(("流局", "全員聴牌", "全員不聴", "流し満貫"))
ABORTIVE_DRAWS = frozenset(("九種九牌", "四家立直", "三家和了", "四風連打", "四槓散了"))
DRAW_NAMES = EXHAUSTIVE_DRAWS | ABORTIVE_DRAWS
SANMA_MARK = "三"
# What a log may hold, so that a hostile file cannot make reading it unbounded: its size (a
# Tenhou game is some tens of kilobytes), a number's digits (Python refuses past 4,300 with a
# bare ValueError), and a name's length (Discord's longest display name; a picture draws it).
MAX_LOG_BYTES = 16 * 1024 * 1024
MAX_NUMBER_DIGITS = 12
NAME_LENGTH = 32


class Tenhou6Error(ValueError):
    """A tenhou.net/6 log that is not well formed; the message names the hand, seat and token."""


class CallKind(StrEnum):
    CHI = "c"
    PON = "p"
    DAIMINKAN = "m"
    KAKAN = "k"
    ANKAN = "a"


# Where each kind's marker may stand (as a tile slot) and which seat, counted forward from the
# caller in four-seat geometry, that place names; a concealed kong names nobody.
_SOURCES: dict[CallKind, dict[int, int | None]] = {
    CallKind.CHI: {0: 3},
    CallKind.PON: {0: 3, 1: 2, 2: 1},
    CallKind.DAIMINKAN: {0: 3, 1: 2, 3: 1},
    CallKind.KAKAN: {0: 3, 1: 2, 2: 1},
    CallKind.ANKAN: {3: None},
}
_TILE_COUNTS = {CallKind.CHI: 3, CallKind.PON: 3, CallKind.DAIMINKAN: 4}
_TILE_COUNTS |= {CallKind.KAKAN: 4, CallKind.ANKAN: 4}
TAKE_CALLS = frozenset({CallKind.CHI, CallKind.PON, CallKind.DAIMINKAN})


@dataclass(frozen=True)
class Call:
    """A call as written: its tiles in the log's order and the slot its marker stands before."""

    kind: CallKind
    tiles: tuple[Tile, ...]
    slot: int

    @property
    def tile(self) -> Tile:
        """The tile the marker names: the called tile, the added tile of a kakan, for an ankan
        the last one written."""
        return self.tiles[self.slot]

    @property
    def offset(self) -> int | None:
        """How many seats forward from the caller the called tile came from (four-seat geometry)."""
        return _SOURCES[self.kind][self.slot]

    def source(self, seat: int) -> int | None:
        offset = self.offset
        return None if offset is None else (seat + offset) % FOUR_SEATS


@dataclass(frozen=True)
class Discard:
    """A discard: `tile` None is the tile just drawn (60); `riichi` when declared with it."""

    tile: Tile | None
    riichi: bool = False


@dataclass(frozen=True)
class Nuki:
    """A north set aside in three-player ("f44")."""

    tile: Tile


@dataclass(frozen=True)
class KanGap:
    """The empty discard slot after an open kong (0): the caller draws a replacement instead."""


Take = Tile | Call
DiscardItem = Discard | Call | Nuki | KanGap


@dataclass(frozen=True)
class Win:
    """One win of a 和了 result: deltas, then [winner, from, pao, texts...] as written."""

    deltas: tuple[int, ...]
    winner: int
    from_seat: int
    pao: int
    texts: tuple[str, ...]  # the points line then the yaku, e.g. "30符1飜1000点", "立直(1飜)"

    @property
    def tsumo(self) -> bool:
        return self.winner == self.from_seat


@dataclass(frozen=True)
class Result:
    """How a hand ended: `name` 和了 with its wins, or a draw's name with its deltas (if any)."""

    name: str
    wins: tuple[Win, ...] = ()
    deltas: tuple[tuple[int, ...], ...] = ()


@dataclass(frozen=True)
class Hand:
    kyoku: int  # wind * 4 + dealer, in four-seat geometry at every table
    honba: int
    sticks: int  # riichi sticks on the table when the hand starts
    points: tuple[int, ...]
    dora: tuple[Tile, ...]  # indicators
    ura: tuple[Tile, ...]
    starts: tuple[tuple[Tile, ...], ...]
    takes: tuple[tuple[Take, ...], ...]
    discards: tuple[tuple[DiscardItem, ...], ...]
    result: Result

    @property
    def dealer(self) -> int:
        return self.kyoku % FOUR_SEATS


@dataclass(frozen=True)
class Log:
    title: tuple[str, ...]
    names: tuple[str, ...]
    disp: str | None
    red_fives: tuple[int, int, int]  # red 5m, 5p, 5s in the set
    seats: int
    hands: tuple[Hand, ...]
    final: tuple[tuple[int, float], ...] | None = None  # the log's `sc`: (points, score) a seat
    version: float | str | None = None  # the log's `ver` (Tenhou's own logs: 2.3)


def anonymous(log: Log) -> Log:
    """The log with the players' names replaced by A, B, C (and D)."""
    return replace(log, names=tuple("ABCD"[: log.seats]))


# ---------------------------------------------------------------- tiles


def decode_tile(code: object, where: str) -> Tile:
    """Our tile for a Tenhou code (11-47, 51-53), or an error naming where it was found."""
    if isinstance(code, int) and not isinstance(code, bool):
        suit, rank = divmod(code, 10)
        if 1 <= suit <= 3 and 1 <= rank <= 9:
            return (suit - 1) * 9 + rank - 1
        if suit == 4 and 1 <= rank <= 7:
            return 27 + rank - 1
        if suit == 5 and 1 <= rank <= 3:
            return RED_FIVES[rank - 1]
    raise Tenhou6Error(f"{where}: {code!r} is not a tile code")


def encode_tile(tile: Tile) -> int:
    if tile in RED_FIVES:
        return 51 + RED_FIVES.index(tile)
    suit, rank = divmod(tile, 9)
    return (suit + 1) * 10 + rank + 1


def _tiles(codes: object, where: str) -> tuple[Tile, ...]:
    if not isinstance(codes, list):
        raise Tenhou6Error(f"{where}: {codes!r} is not a list of tiles")
    return tuple(decode_tile(code, where) for code in codes)


def decode_call(text: str, where: str) -> Call:
    for kind in CallKind:
        if kind not in text:
            continue
        at = text.index(kind)
        body = text[:at] + text[at + 1 :]
        if at % 2 or len(body) != 2 * _TILE_COUNTS[kind] or at // 2 not in _SOURCES[kind]:
            break
        if not (body.isascii() and body.isdigit()):
            break
        tiles = tuple(decode_tile(int(body[i : i + 2]), where) for i in range(0, len(body), 2))
        return Call(kind, tiles, at // 2)
    raise Tenhou6Error(f"{where}: {text!r} is not a call")


def encode_call(call: Call) -> str:
    codes = [f"{encode_tile(tile):02d}" for tile in call.tiles]
    codes.insert(call.slot, call.kind.value)
    return "".join(codes)


# ---------------------------------------------------------------- reading


def read_file(path: str | Path) -> Log:
    """Parse the tenhou.net/6 log in a file (or a pipe), reading at most MAX_LOG_BYTES."""
    with open(path, "rb") as file:
        raw = file.read(MAX_LOG_BYTES + 1)
    if len(raw) > MAX_LOG_BYTES:
        raise Tenhou6Error(f"longer than {MAX_LOG_BYTES // (1024 * 1024)} MB: not a game's log")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise Tenhou6Error(f"not UTF-8 text: {error}") from None
    return read(text)


def read(text: str) -> Log:
    """Parse a tenhou.net/6 log from its JSON text (numbers of at most MAX_NUMBER_DIGITS digits,
    no NaN or Infinity, nesting as deep as Python's stack allows)."""
    try:
        data = json.loads(text, parse_int=_int, parse_float=_float, parse_constant=_no_constant)
    except json.JSONDecodeError as error:
        raise Tenhou6Error(f"not JSON: {error}") from None
    except RecursionError:
        raise Tenhou6Error("not a log: its JSON is nested too deeply") from None
    return from_json(data)


def _int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_NUMBER_DIGITS:
        raise Tenhou6Error(f"not a log: a number of {len(text)} digits")
    return int(text)


def _float(text: str) -> float:
    """A fraction as converters write it (41.300000000000004 too), finite."""
    value = float(text[: 3 * MAX_NUMBER_DIGITS])
    if len(text) > 3 * MAX_NUMBER_DIGITS or not math.isfinite(value):
        raise Tenhou6Error(f"not a log: {text[:20]!r}... is not a number a log writes")
    return value


def _no_constant(name: str) -> float:
    raise Tenhou6Error(f"not a log: {name} is not a number a log writes")


def ascii_number(text: str) -> int | None:
    """The number `text` writes in ASCII digits (at most MAX_NUMBER_DIGITS), else None: `isdigit`
    takes "²" and "٣", which `int` refuses or reads."""
    if text.isascii() and text.isdigit() and len(text) <= MAX_NUMBER_DIGITS:
        return int(text)
    return None


def from_json(data: object) -> Log:
    if not isinstance(data, dict):
        raise Tenhou6Error("a tenhou.net/6 log is a JSON object")
    for key in ("name", "rule", "log"):
        if key not in data:
            raise Tenhou6Error(f'the log has no "{key}"')
    rule, raw_hands = data["rule"], data["log"]
    if not isinstance(rule, dict) or not isinstance(raw_hands, list):
        raise Tenhou6Error('"rule" is an object and "log" a list')
    disp = rule.get("disp")
    if disp is not None and not isinstance(disp, str):
        raise Tenhou6Error(f'rule "disp" {disp!r} is not text')
    seats = _seat_count(disp, raw_hands)
    names = _texts(data["name"], "name")
    if len(names) != FOUR_SEATS or any(names[seats:]):
        raise Tenhou6Error(f"name: {list(names)!r} is not four names with empty unused seats")
    hands = tuple(_hand(raw, i + 1, seats) for i, raw in enumerate(raw_hands))
    return Log(
        title=_texts(data.get("title", []), "title"),
        names=tuple(name[:NAME_LENGTH] for name in names[:seats]),
        disp=disp,
        red_fives=_red_fives(rule),
        seats=seats,
        hands=hands,
        final=None if "sc" not in data else _final(data["sc"], seats),
        version=_version(data.get("ver")),
    )


def _version(value: object) -> float | str | None:
    if value is None or (isinstance(value, int | float | str) and not isinstance(value, bool)):
        return value
    raise Tenhou6Error(f"ver: {value!r} is not a version")


def _final(value: object, seats: int) -> tuple[tuple[int, float], ...]:
    """The `sc` line: final points and score of each seat, in turn, for four seats."""
    numbers = value if isinstance(value, list) else []
    readable = all(isinstance(n, int | float) and not isinstance(n, bool) for n in numbers)
    if (
        len(numbers) != 2 * FOUR_SEATS
        or not readable
        or numbers[0::2] != list(map(int, numbers[0::2]))
    ):
        raise Tenhou6Error(f"sc: {value!r} is not four seats' final points and score in turn")
    return tuple((int(numbers[2 * s]), numbers[2 * s + 1]) for s in range(seats))


def _texts(value: object, where: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise Tenhou6Error(f"{where}: {value!r} is not a list of text")
    return tuple(value)


def _red_fives(rule: dict[str, Any]) -> tuple[int, int, int]:
    counts = []
    for suit_key in ("aka51", "aka52", "aka53"):
        count = rule.get(suit_key, rule.get("aka", 0))
        if not isinstance(count, int) or not 0 <= count <= 4:
            raise Tenhou6Error(f"rule {suit_key}: {count!r} is not a count of red fives")
        counts.append(count)
    return counts[0], counts[1], counts[2]


def _seat_count(disp: str | None, raw_hands: list[Any]) -> int:
    """Three when the rule's display starts with 三 or the fourth seat is empty in every hand."""
    if disp is not None and disp.startswith(SANMA_MARK):
        return 3
    fourth_empty = [isinstance(raw, list) and len(raw) > 13 and raw[13] == [] for raw in raw_hands]
    return 3 if fourth_empty and all(fourth_empty) else FOUR_SEATS


def _hand(raw: object, number: int, seats: int) -> Hand:
    where = f"hand {number}"
    if not isinstance(raw, list) or len(raw) != 4 + 3 * FOUR_SEATS + 1:
        raise Tenhou6Error(f"{where}: not a list of {4 + 3 * FOUR_SEATS + 1} entries")
    round_info, points = raw[0], raw[1]
    if (
        not isinstance(round_info, list)
        or len(round_info) != 3
        or not all(isinstance(n, int) and n >= 0 for n in round_info)
    ):
        raise Tenhou6Error(f"{where}: round {round_info!r} is not [kyoku, honba, sticks]")
    if round_info[0] % FOUR_SEATS >= seats:
        raise Tenhou6Error(f"{where}: round {round_info!r} has a dealer outside the table")
    if not isinstance(points, list) or len(points) != FOUR_SEATS:
        raise Tenhou6Error(f"{where}: points {points!r} are not four numbers")
    if not all(isinstance(p, int) for p in points) or any(points[seats:]):
        raise Tenhou6Error(f"{where}: points {points!r} are not numbers with empty unused seats")
    starts, takes, discards = [], [], []
    for seat in range(FOUR_SEATS):
        at = f"{where}, seat {seat}"
        start, take_list, discard_list = raw[4 + 3 * seat : 7 + 3 * seat]
        if seat >= seats:
            if start or take_list or discard_list:
                raise Tenhou6Error(f"{at}: a three-player log's fourth seat must be empty")
            continue
        tiles = _tiles(start, f"{at}, start hand")
        if len(tiles) != HAND_TILES:
            raise Tenhou6Error(f"{at}, start hand: {len(tiles)} tiles, not {HAND_TILES}")
        starts.append(tiles)
        takes.append(tuple(_take(item, f"{at}, takes") for item in _list(take_list, at)))
        thrown = _list(discard_list, at)
        discards.append(tuple(_discard(item, f"{at}, discards") for item in thrown))
    return Hand(
        kyoku=round_info[0],
        honba=round_info[1],
        sticks=round_info[2],
        points=tuple(points[:seats]),
        dora=_tiles(raw[2], f"{where}, dora"),
        ura=_tiles(raw[3], f"{where}, ura"),
        starts=tuple(starts),
        takes=tuple(takes),
        discards=tuple(discards),
        result=_result(raw[16], where, seats),
    )


def _list(value: object, where: str) -> list[Any]:
    if not isinstance(value, list):
        raise Tenhou6Error(f"{where}: {value!r} is not a list")
    return value


def _take(item: object, where: str) -> Take:
    if isinstance(item, str):
        call = decode_call(item, where)
        if call.kind not in TAKE_CALLS:
            raise Tenhou6Error(f"{where}: {item!r} is not a chi, pon or open kong")
        return call
    return decode_tile(item, where)


def _discard(item: object, where: str) -> DiscardItem:
    if item == TSUMOGIRI_CODE:
        return Discard(None)
    if item == KAN_GAP_CODE:
        return KanGap()
    if not isinstance(item, str):
        return Discard(decode_tile(item, where))
    code = ascii_number(item[1:]) if len(item) == 3 else None
    if item.startswith("r") and code is not None:
        return Discard(None if code == TSUMOGIRI_CODE else decode_tile(code, where), riichi=True)
    if item.startswith("f") and code is not None:
        return Nuki(decode_tile(code, where))
    call = decode_call(item, where)
    if call.kind in TAKE_CALLS:
        raise Tenhou6Error(f"{where}: {item!r} is a call on a discard, not a kong from the hand")
    return call


def _result(raw: object, where: str, seats: int) -> Result:
    if not isinstance(raw, list) or not raw or not isinstance(raw[0], str):
        raise Tenhou6Error(f"{where}: result {raw!r} does not start with its name")
    name, rest = raw[0], raw[1:]
    if name == WIN:
        if not rest or len(rest) % 2:
            raise Tenhou6Error(f"{where}: result {raw!r} is not pairs of deltas and win info")
        wins = tuple(
            _win(rest[i], rest[i + 1], f"{where}, win {i // 2 + 1}", seats)
            for i in range(0, len(rest), 2)
        )
        return Result(name, wins=wins)
    if name not in DRAW_NAMES:
        raise Tenhou6Error(f"{where}: result {name!r} is not a win or a known draw")
    return Result(name, deltas=tuple(_deltas(d, f"{where}, result", seats) for d in rest))


def _deltas(raw: object, where: str, seats: int) -> tuple[int, ...]:
    if (
        not isinstance(raw, list)
        or len(raw) != FOUR_SEATS
        or not all(isinstance(n, int) for n in raw)
        or any(raw[seats:])
    ):
        raise Tenhou6Error(f"{where}: {raw!r} is not four point deltas")
    return tuple(raw[:seats])


def _win(deltas: object, info: object, where: str, seats: int) -> Win:
    if (
        not isinstance(info, list)
        or len(info) < 3
        or not all(isinstance(n, int) and 0 <= n < seats for n in info[:3])
        or not all(isinstance(text, str) for text in info[3:])
    ):
        raise Tenhou6Error(f"{where}: {info!r} is not [winner, from, pao, texts...]")
    return Win(_deltas(deltas, where, seats), info[0], info[1], info[2], tuple(info[3:]))


# ---------------------------------------------------------------- writing


def to_json(log: Log) -> dict[str, Any]:
    """The log as the JSON value tenhou.net/6 reads (unused seats written empty)."""
    names = [*log.names, *[""] * (FOUR_SEATS - log.seats)]
    rule: dict[str, Any] = {} if log.disp is None else {"disp": log.disp}
    if len(set(log.red_fives)) == 1:
        rule["aka"] = log.red_fives[0]
    else:
        rule |= {f"aka5{i + 1}": count for i, count in enumerate(log.red_fives)}
    data: dict[str, Any] = {} if log.version is None else {"ver": log.version}
    data |= {
        "title": list(log.title),
        "name": names,
        "rule": rule,
        "log": [_hand_json(hand, log.seats) for hand in log.hands],
    }
    if log.final is not None:
        unused = [0, 0] * (FOUR_SEATS - log.seats)
        # a whole score as Tenhou writes it (-19, not -19.0)
        numbers = [n for seat in log.final for n in seat]
        data["sc"] = [int(n) if float(n).is_integer() else n for n in numbers] + unused
    return data


def write(log: Log) -> str:
    """The log as tenhou.net/6 JSON text (compact, as the viewer's URLs carry it)."""
    return json.dumps(to_json(log), ensure_ascii=False, separators=(",", ":"))


def _pad(values: tuple[int, ...], seats: int) -> list[int]:
    return [*values, *[0] * (FOUR_SEATS - seats)]


def _hand_json(hand: Hand, seats: int) -> list[Any]:
    raw: list[Any] = [
        [hand.kyoku, hand.honba, hand.sticks],
        _pad(hand.points, seats),
        [encode_tile(t) for t in hand.dora],
        [encode_tile(t) for t in hand.ura],
    ]
    for seat in range(FOUR_SEATS):
        if seat >= seats:
            raw += [[], [], []]
            continue
        raw.append([encode_tile(t) for t in hand.starts[seat]])
        raw.append([_take_json(item) for item in hand.takes[seat]])
        raw.append([_discard_json(item) for item in hand.discards[seat]])
    raw.append(_result_json(hand.result, seats))
    return raw


def encode_item(item: Take | DiscardItem) -> int | str:
    """A take or discard as the log writes it, e.g. 47, 60, "r23", "4343p43"."""
    return _take_json(item) if isinstance(item, int) else _discard_json(item)


def _take_json(item: Take) -> int | str:
    return encode_call(item) if isinstance(item, Call) else encode_tile(item)


def _discard_json(item: DiscardItem) -> int | str:
    match item:
        case Call():
            return encode_call(item)
        case Nuki(tile):
            return f"f{encode_tile(tile)}"
        case KanGap():
            return KAN_GAP_CODE
        case Discard(tile, riichi):
            code = TSUMOGIRI_CODE if tile is None else encode_tile(tile)
            return f"r{code}" if riichi else code
    raise TypeError(f"not a discard item: {item!r}")


def _result_json(result: Result, seats: int) -> list[Any]:
    raw: list[Any] = [result.name]
    for win in result.wins:
        raw.append(_pad(win.deltas, seats))
        raw.append([win.winner, win.from_seat, win.pao, *win.texts])
    raw += [_pad(deltas, seats) for deltas in result.deltas]
    return raw
