"""Tiles, melds and their notation (RULES.md "Tile notation").

A tile is a small int, like a square in python-chess: 0-8 characters 1m-9m, 9-17 dots 1p-9p,
18-26 bamboo 1s-9s, 27-33 honours 1z-7z (E S W N white green red), 34-41 bonus tiles 1f-8f
(flowers 1f-4f, seasons 5f-8f). Counts over the 34 playing kinds are lists of length 34.

>>> format_tiles(parse_tiles("123m456p11z"))
'123m456p11z'
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
NUM_TILE_IDS = 42
EAST, SOUTH, WEST, NORTH, WHITE, GREEN, RED = range(27, 34)
WINDS = (EAST, SOUTH, WEST, NORTH)
DRAGONS = (WHITE, GREEN, RED)
HONOURS = tuple(range(27, 34))
TERMINALS = (0, 8, 9, 17, 18, 26)
ORPHANS = TERMINALS + HONOURS
FLOWERS = tuple(range(34, 38))
SEASONS = tuple(range(38, 42))
BONUS = FLOWERS + SEASONS
SEAT_NAMES = "ESWN"
COPIES = 4  # of each tile kind in a full set (a kong is all of them)
MAX_SEATS = len(SEAT_NAMES)  # a table seats 2, 3 or 4 (Preset.seat_counts); hands E, S, W, N


class InvalidNotationError(ValueError):
    """Text that is not valid tile, meld or action notation."""


def suit_of(tile: Tile) -> str:
    """The suit letter of a tile: m, p, s, z or f."""
    if tile >= 34:
        return "f"
    return SUITS[tile // 9]


def rank_of(tile: Tile) -> int:
    """The printed number of a tile (1-9 suited, 1-7 honours, 1-8 bonus)."""
    if tile >= 34:
        return tile - 33
    return tile % 9 + 1 if tile < 27 else tile - 26


def is_suited(tile: Tile) -> bool:
    return tile < 27


def is_honour(tile: Tile) -> bool:
    return 27 <= tile < 34


def is_terminal(tile: Tile) -> bool:
    return tile < 27 and tile % 9 in (0, 8)


def is_bonus(tile: Tile) -> bool:
    return tile >= 34


def make_tile(rank: int, suit: str) -> Tile:
    """The tile with this printed rank and suit letter.

    >>> tile_name(make_tile(5, "z"))
    '5z'
    """
    if suit in "mps":
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


def tile_name(tile: Tile) -> str:
    """The notation of one tile, e.g. '5m'."""
    if not 0 <= tile < NUM_TILE_IDS:
        raise ValueError(f"not a tile id: {tile!r}")
    return f"{rank_of(tile)}{suit_of(tile)}"


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
        out.append(str(rank_of(tile)))
        run_suit = suit
    if run_suit:
        out.append(run_suit)
    return "".join(out)


def sort_tiles(tiles: Iterable[Tile]) -> list[Tile]:
    return sorted(tiles)


def counts_of(tiles: Iterable[Tile]) -> list[int]:
    """A 34-long count vector of the playing tiles (bonus tiles are ignored)."""
    counts = [0] * NUM_KINDS
    for tile in tiles:
        if tile < NUM_KINDS:
            counts[tile] += 1
    return counts


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
        if self.kind is MeldKind.CHOW:
            first = self.tiles[0]
            if (
                not is_suited(first)
                or first % 9 > 6
                or list(self.tiles) != [first, first + 1, first + 2]
            ):
                raise InvalidNotationError(
                    catalogued("fixups.tiles.chow", tiles=repr(format_tiles(self.tiles)))
                )
        elif len(set(self.tiles)) != 1:
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
        tiles = tuple(sorted(parse_tiles(parts[1])))
        return cls(kind, tiles, None if claimed is None else parse_tile(claimed), from_seat)

    @property
    def is_concealed(self) -> bool:
        return self.kind is MeldKind.CONCEALED_KONG

    @property
    def first(self) -> Tile:
        return self.tiles[0]

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
