"""Tiles, melds and their notation (RULES.md "Tile notation").

A tile is a small int, like a square in python-chess: 0-8 characters 1m-9m, 9-17 dots 1p-9p,
18-26 bamboo 1s-9s, 27-33 honours 1z-7z (E S W N white green red), 34-41 bonus tiles 1f-8f
(flowers 1f-4f, seasons 5f-8f), and 42-44 the red fives 0m 0p 0s (Riichi). An id is a physical
tile; its *kind* (`kind_of`) is what shapes, counts, calls and scoring see, so a red five is the
five of its suit everywhere but in its notation, its picture and the dora it scores. Ids 0-41 are
their own kinds. Counts over the 34 playing kinds are lists of length 34.

>>> format_tiles(parse_tiles("123m456p11z"))
'123m456p11z'
>>> kind_of(parse_tile("0p")) == parse_tile("5p")
True
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

from engine.i18n import text as catalogued  # `text` names the notation parsed, here

Tile = int

SUITS = "mpsz"
NUM_KINDS = 34
NUM_TILE_IDS = 45
EAST, SOUTH, WEST, NORTH, WHITE, GREEN, RED = range(27, 34)
WINDS = (EAST, SOUTH, WEST, NORTH)
DRAGONS = (WHITE, GREEN, RED)
HONOURS = tuple(range(27, 34))
TERMINALS = (0, 8, 9, 17, 18, 26)
ORPHANS = TERMINALS + HONOURS
FLOWERS = tuple(range(34, 38))
SEASONS = tuple(range(38, 42))
BONUS = FLOWERS + SEASONS
FIVES = (4, 13, 22)  # 5m 5p 5s: the kinds of the red fives
RED_FIVES = (42, 43, 44)  # 0m 0p 0s, in suit order
FIRST_RED = RED_FIVES[0]
RED_DIGIT = 0  # the rank a red five is written with
SEAT_NAMES = "ESWN"
COPIES = 4  # of each tile kind in a full set (a kong is all of them)
MAX_SEATS = len(SEAT_NAMES)  # a table seats 2, 3 or 4 (Preset.seat_counts); hands E, S, W, N


class InvalidNotationError(ValueError):
    """Text that is not valid tile, meld or action notation."""


# Every id's kind, and its place in sorted order (a red five right after the plain fives).
_KINDS: tuple[Tile, ...] = (*range(FIRST_RED), *FIVES)
_ORDER: tuple[int, ...] = (*(2 * t for t in range(FIRST_RED)), *(2 * f + 1 for f in FIVES))


def kind_of(tile: Tile) -> Tile:
    """The kind of a physical tile: a red five's plain five, any other tile itself.

    >>> tile_name(kind_of(parse_tile("0s")))
    '5s'
    """
    return _KINDS[tile]


def is_red(tile: Tile) -> bool:
    """Whether a tile is one of the red fives (0m 0p 0s)."""
    return tile >= FIRST_RED


def red_five_of(kind: Tile) -> Tile:
    """The red five whose kind is this five, e.g. 0p for 5p."""
    if kind not in FIVES:
        raise ValueError(f"no red five of kind {kind!r}")
    return RED_FIVES[FIVES.index(kind)]


def suit_of(tile: Tile) -> str:
    """The suit letter of a tile: m, p, s, z or f (a red five is of its five's suit)."""
    if tile >= 34:
        return "f" if tile < FIRST_RED else SUITS[tile - FIRST_RED]
    return SUITS[tile // 9]


def rank_of(tile: Tile) -> int:
    """The number of a tile's kind (1-9 suited, 5 for a red five, 1-7 honours, 1-8 bonus)."""
    if tile >= 34:
        return tile - 33 if tile < FIRST_RED else 5
    return tile % 9 + 1 if tile < 27 else tile - 26


def is_suited(tile: Tile) -> bool:
    return tile < 27 or tile >= FIRST_RED


def is_honour(tile: Tile) -> bool:
    return 27 <= tile < 34


def is_terminal(tile: Tile) -> bool:
    return tile < 27 and tile % 9 in (0, 8)


def is_bonus(tile: Tile) -> bool:
    return 34 <= tile < FIRST_RED


def make_tile(rank: int, suit: str) -> Tile:
    """The tile with this printed rank and suit letter.

    >>> tile_name(make_tile(5, "z"))
    '5z'
    """
    if suit in "mps":
        if rank == RED_DIGIT:
            return RED_FIVES[SUITS.index(suit)]
        if not 1 <= rank <= 9:
            raise InvalidNotationError(catalogued("fixups.tiles.suited_rank", tile=f"{rank}{suit}"))
        return SUITS.index(suit) * 9 + rank - 1
    if suit == "z":
        if not 1 <= rank <= 7:
            raise InvalidNotationError(catalogued("fixups.tiles.honour_rank", tile=f"{rank}z"))
        return 26 + rank
    if suit == "f":
        if not 1 <= rank <= 8:
            raise InvalidNotationError(catalogued("fixups.tiles.bonus_rank", tile=f"{rank}f"))
        return 33 + rank
    raise InvalidNotationError(catalogued("fixups.tiles.suit", suit=repr(suit)))


def _digit(tile: Tile) -> str:
    """The digit a tile is written with: its rank, or 0 for a red five."""
    return str(RED_DIGIT) if tile >= FIRST_RED else str(rank_of(tile))


def tile_name(tile: Tile) -> str:
    """The notation of one tile, e.g. '5m', or '0m' for the red five."""
    if not 0 <= tile < NUM_TILE_IDS:
        raise ValueError(f"not a tile id: {tile!r}")
    return f"{_digit(tile)}{suit_of(tile)}"


_TILES_TOKEN = re.compile(r"(\d+)([a-z])")


def parse_tiles(text: str) -> list[Tile]:
    """Parse compact notation ('123m456p11z', spaces allowed) into tiles, in order.

    >>> parse_tiles("12m 5z")
    [0, 1, 31]
    """
    compact = "".join(text.split())
    tiles: list[Tile] = []
    pos = 0
    for match in _TILES_TOKEN.finditer(compact):
        if match.start() != pos:
            bad = compact[pos : match.start()]
            raise InvalidNotationError(
                catalogued("fixups.tiles.bad", bad=repr(bad), given=repr(text))
            )
        digits, suit = match.groups()
        for digit in digits:
            try:
                tiles.append(make_tile(int(digit), suit))
            except InvalidNotationError as error:
                (detail,) = error.args
                raise InvalidNotationError(
                    catalogued("fixups.tiles.within", detail=detail, given=repr(text))
                ) from None
        pos = match.end()
    if pos != len(compact):
        raise InvalidNotationError(
            catalogued("fixups.tiles.bad", bad=repr(compact[pos:]), given=repr(text))
        )
    return tiles


def parse_tile(text: str) -> Tile:
    """Parse exactly one tile, e.g. '7z'."""
    tiles = parse_tiles(text)
    if len(tiles) != 1:
        raise InvalidNotationError(catalogued("fixups.tiles.one", given=repr(text)))
    return tiles[0]


def format_tiles(tiles: Iterable[Tile]) -> str:
    """Compact notation keeping the given order: runs of one suit share their letter."""
    out: list[str] = []
    run_suit = ""
    for tile in tiles:
        suit = suit_of(tile)
        if run_suit and suit != run_suit:
            out.append(run_suit)
        out.append(_digit(tile))
        run_suit = suit
    if run_suit:
        out.append(run_suit)
    return "".join(out)


def tile_order(tile: Tile) -> int:
    """A sort key: ids in order, each red five right after its plain fives (so '550p')."""
    return _ORDER[tile]


def sort_tiles(tiles: Iterable[Tile]) -> list[Tile]:
    """Tiles in notation order: suits m p s z f, a red five among its fives (after them)."""
    ordered = sorted(tiles)
    if ordered and ordered[-1] >= FIRST_RED:  # only then does the plain id order differ
        ordered.sort(key=_ORDER.__getitem__)
    return ordered


def counts_of(tiles: Iterable[Tile]) -> list[int]:
    """A 34-long count vector of the playing kinds (a red five counts as its five; bonus tiles
    are ignored)."""
    counts = [0] * NUM_KINDS
    for tile in tiles:
        if tile < NUM_KINDS:
            counts[tile] += 1
        elif tile >= FIRST_RED:
            counts[_KINDS[tile]] += 1
    return counts


def too_many(tiles: Iterable[Tile]) -> tuple[Tile, int] | None:
    """The first tile held more often than a set has it, with its count, or None: a kind more
    than four times (its red five included), a red five more than once.

    >>> too_many(parse_tiles("5550m"))
    >>> too_many(parse_tiles("00m"))
    (42, 2)
    """
    held = list(tiles)
    for red in RED_FIVES:
        if (count := held.count(red)) > 1:
            return red, count
    counts = counts_of(held)
    for kind, count in enumerate(counts):
        if count > COPIES:
            return kind, count
    return None


def with_red_fives(tiles: Iterable[Tile], reds: Iterable[Tile]) -> tuple[Tile, ...]:
    """A tile set with each red five given in place of one plain five of its kind.

    >>> format_tiles(with_red_fives(parse_tiles("555m5p"), parse_tiles("0m")))
    '550m5p'
    """
    out = list(tiles)
    for red in reds:
        if not is_red(red):
            raise ValueError(f"not a red five: {tile_name(red)}")
        kind = kind_of(red)
        # the last plain five, so a sorted set stays sorted ('550m')
        place = len(out) - 1 - out[::-1].index(kind) if kind in out else -1
        if place < 0:
            raise ValueError(f"no plain {tile_name(kind)} left for {tile_name(red)}")
        out[place] = red
    return tuple(out)


class MeldKind(StrEnum):
    CHOW = "chow"
    PUNG = "pung"
    KONG = "kong"  # exposed kong claimed from a discard
    ADDED_KONG = "added_kong"
    CONCEALED_KONG = "concealed_kong"

    @property
    def is_kong(self) -> bool:
        return self in (MeldKind.KONG, MeldKind.ADDED_KONG, MeldKind.CONCEALED_KONG)

    @property
    def size(self) -> int:
        return 4 if self.is_kong else 3


@dataclass(frozen=True, slots=True)
class Meld:
    """A declared set: its kind, its tiles, and (for claimed sets) the claimed tile and its seat.

    >>> Meld.parse("pung 555z")
    Meld.parse('pung 555z')
    >>> Meld.parse("chow 345m", claimed="4m", from_seat=3)
    Meld.parse('chow 345m', claimed='4m', from_seat=3)
    """

    kind: MeldKind
    tiles: tuple[Tile, ...]
    claimed: Tile | None = None
    from_seat: int | None = None

    def __reduce__(self) -> tuple[type[Meld], tuple[object, ...]]:
        return Meld, (self.kind, self.tiles, self.claimed, self.from_seat)  # as Action's

    def __post_init__(self) -> None:
        if len(self.tiles) != self.kind.size:
            raise InvalidNotationError(
                catalogued(
                    "fixups.tiles.meld_size",
                    kind=str(self.kind),
                    size=self.kind.size,
                    tiles=repr(format_tiles(self.tiles)),
                )
            )
        tiles = self.tiles  # as kinds (a red five as its five), read without the property
        kinds = tiles if max(tiles) < FIRST_RED else tuple(_KINDS[t] for t in tiles)
        if self.kind is MeldKind.CHOW:
            first = kinds[0]
            if not is_suited(first) or first % 9 > 6 or kinds != (first, first + 1, first + 2):
                raise InvalidNotationError(
                    catalogued("fixups.tiles.chow", tiles=repr(format_tiles(self.tiles)))
                )
        elif len(set(kinds)) != 1:
            raise InvalidNotationError(
                catalogued(
                    "fixups.tiles.identical",
                    kind=str(self.kind),
                    tiles=repr(format_tiles(self.tiles)),
                )
            )
        if any(is_bonus(t) for t in self.tiles):
            raise InvalidNotationError(catalogued("fixups.tiles.bonus_meld"))

    @classmethod
    def parse(cls, text: str, *, claimed: str | None = None, from_seat: int | None = None) -> Meld:
        """Parse 'pung 555z', 'chow 123m', 'kong 1111p', 'added_kong …', 'concealed_kong …'; a
        claimed set may name its claimed tile (`claimed="5z"`) and the seat it came from."""
        parts = text.split()
        if len(parts) != 2:
            raise InvalidNotationError(catalogued("fixups.tiles.meld_form", given=repr(text)))
        try:
            kind = MeldKind(parts[0].lower())
        except ValueError:
            kinds = ", ".join(k.value for k in MeldKind)
            raise InvalidNotationError(
                catalogued(
                    "fixups.tiles.meld_kind", kind=repr(parts[0]), given=repr(text), kinds=kinds
                )
            ) from None
        tiles = tuple(sort_tiles(parse_tiles(parts[1])))
        return cls(kind, tiles, None if claimed is None else parse_tile(claimed), from_seat)

    @property
    def is_concealed(self) -> bool:
        return self.kind is MeldKind.CONCEALED_KONG

    @property
    def kinds(self) -> tuple[Tile, ...]:
        """The set's tiles as kinds (a red five as its plain five)."""
        if max(self.tiles) < FIRST_RED:
            return self.tiles
        return tuple(_KINDS[t] for t in self.tiles)

    @property
    def first(self) -> Tile:
        """The kind of the set's lowest tile (a red five's plain five): what names the set."""
        tile = self.tiles[0]
        return tile if tile < FIRST_RED else _KINDS[tile]

    def __str__(self) -> str:
        return f"{self.kind.value} {format_tiles(self.tiles)}"

    def __repr__(self) -> str:
        """Notation that evaluates back to this meld, the claimed tile and its seat included."""
        source = ""
        if self.claimed is not None:
            source += f", claimed={tile_name(self.claimed)!r}"
        if self.from_seat is not None:
            source += f", from_seat={self.from_seat!r}"
        return f"Meld.parse({str(self)!r}{source})"
