"""The tiles of one hand and where they are: the wall (drawn from the front, replacements from
the back), and each seat's concealed tiles with their counts, melds, bonus tiles and pond.
`engine.hand.HandState` plays the shared loop on them; only it moves tiles (parts through its
public API)."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from engine.actions import Action, ActionKind
from engine.hand_tables import RED_OF
from engine.tiles import (
    FIRST_RED,
    NUM_KINDS,
    Meld,
    Tile,
    is_bonus,
    is_red,
    kind_of,
    parse_tiles,
    sort_tiles,
    tile_name,
)

if TYPE_CHECKING:
    from engine.parts import Part
    from engine.presets import Preset


def _has_red_fives(preset: Preset) -> bool:
    """Whether the preset's wall holds red fives: only then does the loop tell a tile's
    physical id from its kind (every other preset's ids are their kinds)."""
    return max(preset.wall) >= FIRST_RED


def shuffled(tiles: Sequence[Tile], seed: int) -> list[Tile]:
    """The tiles in the order `random.Random(seed).shuffle` leaves them, with the same draws.

    Written out because a deal's shuffle was half the cost of starting a hand: the library's
    shuffle calls a method per tile for the same `getrandbits` draws (Fisher-Yates from the
    end, each index drawn by rejection with the bit length of its range).
    """
    wall = list(tiles)
    getrandbits = random.Random(seed).getrandbits
    for i in range(len(wall) - 1, 0, -1):
        size = i + 1
        bits = size.bit_length()
        j = getrandbits(bits)
        while j >= size:
            j = getrandbits(bits)
        wall[i], wall[j] = wall[j], wall[i]
    return wall


def arranged_wall(
    preset: Preset, hands: Sequence[str], draws: str = "", replacements: str = ""
) -> list[Tile]:
    """The wall that deals `hands`, then draws `draws` from the front and takes `replacements`
    from the back, in order (`HandState.arranged`); the rest holds the remaining tiles in a
    fixed order."""
    dealt = [parse_tiles(h) for h in hands]
    # the deal takes 13 per seat in seat order, then the dealer's 14th
    order = dealt[0][: preset.hand_size]
    for h in dealt[1:]:
        order += h
    order += dealt[0][preset.hand_size :] + parse_tiles(draws)
    back = parse_tiles(replacements)
    rest = list(preset.wall)
    for tile in order + back:
        if tile not in rest:
            raise ValueError(f"arranged hand uses more {tile_name(tile)} than {preset.id} has")
        rest.remove(tile)
    # spare bonus tiles go first so that the back holds ordinary replacements
    rest.sort(key=lambda t: not is_bonus(t))
    return order + rest + back[::-1]


class HandTiles:
    """Where every tile of one hand is. Seats are 0..seat_count-1 counted from the dealer."""

    parts: list[Part]  # the preset's rule components in this hand (engine.hand binds them)

    def __init__(
        self, preset: Preset, seed: int, seat_count: int, wall: Sequence[Tile] | None
    ) -> None:
        self.seats = range(seat_count)
        if wall is None:
            wall = shuffled(preset.wall, seed)
        elif sorted(wall) != sorted(preset.wall):
            raise ValueError(f"an arranged wall must hold exactly the tiles of {preset.id}")
        self.wall = list(wall)
        self.front = 0
        self.back = len(wall)
        # red fives in the wall: a held five may be either physical tile (see _held_id); a
        # player's copy on kinds has none (engine.computer.on_kinds)
        self.has_red_fives = _has_red_fives(preset)
        self.hands: list[list[Tile]] = [[] for _ in self.seats]
        # counts_of(hands[seat]) kept up to date by _add/_remove: every discard asks three seats
        # whether they can win on it, and recounting the hand each time was the cost
        self._counts: list[list[int]] = [[0] * NUM_KINDS for _ in self.seats]
        self.melds: list[list[Meld]] = [[] for _ in self.seats]
        self.bonus: list[list[Tile]] = [[] for _ in self.seats]
        self.ponds: list[list[Tile]] = [[] for _ in self.seats]
        self.claimed: list[set[int]] = [set() for _ in self.seats]  # pond indexes taken by calls

    def _deal_tiles(self, size: int) -> None:
        """Deal `size` tiles to each seat from the front, then the dealer's one more."""
        for seat in self.seats:  # each seat's tiles at once, as _take and _add would
            dealt = self.wall[self.front : self.front + size]
            self.front += size
            self.hands[seat] += dealt
            counts = self._counts[seat]
            for tile in dealt:
                if tile < NUM_KINDS:
                    counts[tile] += 1
                elif tile >= FIRST_RED:
                    counts[kind_of(tile)] += 1
        self._add(0, self._take(front=True))

    def _take(self, *, front: bool) -> Tile:
        if front:
            self.front += 1
            return self.wall[self.front - 1]
        self.back -= 1
        return self.wall[self.back]

    def _add(self, seat: int, tile: Tile) -> None:
        """Put a tile into a seat's concealed hand (the only way tiles enter it); the counts
        are of kinds (a red five counts as its five, a bonus tile not at all)."""
        self.hands[seat].append(tile)
        if tile < NUM_KINDS:
            self._counts[seat][tile] += 1
        elif tile >= FIRST_RED:
            self._counts[seat][kind_of(tile)] += 1

    def _remove(self, seat: int, tile: Tile) -> None:
        """Take a tile out of a seat's concealed hand (the only way tiles leave it)."""
        self.hands[seat].remove(tile)
        if tile < NUM_KINDS:
            self._counts[seat][tile] -= 1
        elif tile >= FIRST_RED:
            self._counts[seat][kind_of(tile)] -= 1

    def _held_id(self, seat: int, kind: Tile) -> Tile:
        """The physical tile of `kind` that the loop takes from a seat's hand when an action
        names only the kind (a call's other tiles, a kong): a plain tile while one is held,
        else the red five, so which tile moves follows from the hand and replays the same."""
        if not self.has_red_fives or kind in self.hands[seat]:
            return kind
        return RED_OF[kind]

    def _remove_kinds(self, seat: int, kinds: Iterable[Tile]) -> list[Tile]:
        """Take a tile of each kind out of a seat's hand (`_held_id` says which); the
        physical tiles taken, in order."""
        taken = []
        for kind in kinds:
            tile = self._held_id(seat, kind)
            self._remove(seat, tile)
            taken.append(tile)
        return taken

    def call_tiles(self, seat: int, claim: Action, claimed: Tile) -> list[Tile]:
        """The physical tiles `seat`'s hand gives to the call `claim` on `claimed`, the tile
        offered. A chow names its run, a pung its claimed tile (or, choosing a red five, its
        three tiles: `red_choice`): a red five the call names is given as itself, every other
        tile as `_held_id` picks it (a plain five while one is held), so an old log whose
        calls name no red five replays as it was played."""
        if len(claim.tiles) > 1:
            named = list(claim.tiles)
            named.remove(claimed if claimed in named else kind_of(claimed))
        else:
            named = [kind_of(claimed)] * (3 if claim.kind is ActionKind.KONG else 2)
        hand = list(self.hands[seat])
        given = []
        for tile in named:
            if self.has_red_fives and not is_red(tile) and tile not in hand:
                tile = RED_OF[tile]
            hand.remove(tile)
            given.append(tile)
        return given

    def red_choice(self, seat: int, call: Action, claimed: Tile) -> Action | None:
        """The call `call` made with the seat's red five where its hand could give either a
        plain five or the red one (`call` gives the plain one), else None. Only a chow or a
        pung chooses: a kong gives every tile of its kind."""
        hand = self.hands[seat]
        claimed_kind = kind_of(claimed)
        if call.kind is ActionKind.PUNG:
            red = RED_OF.get(claimed_kind)
            if red is None or red not in hand or self._counts[seat][claimed_kind] < 3:
                return None
            # two plain fives and the red one held: the claimed five is plain
            return Action(seat, call.kind, (claimed_kind, claimed_kind, red))
        if call.kind is ActionKind.CHOW:
            for index, kind in enumerate(call.tiles):  # a run holds one five at most
                red = RED_OF.get(kind)
                if red is not None and kind != claimed_kind and red in hand and kind in hand:
                    named = list(call.tiles)
                    named[index] = red
                    return Action(seat, call.kind, tuple(named))
        return None

    def _held_ids(self, seat: int, kind: Tile) -> list[Tile]:
        """The distinct physical tiles of `kind` a seat holds (a five and its red five are two
        tiles a seat may choose between)."""
        hand = self.hands[seat]
        held = [kind] if kind in hand else []
        red = RED_OF.get(kind)
        if red is not None and red in hand:
            held.append(red)
        return held

    def add_tile(self, seat: int, tile: Tile) -> None:
        """Put a tile into a seat's concealed hand."""
        self._add(seat, tile)

    def remove_tile(self, seat: int, tile: Tile) -> None:
        """Take a tile out of a seat's concealed hand."""
        self._remove(seat, tile)

    def held_counts(self, seat: int) -> list[int]:
        """The seat's concealed tile kinds as the loop keeps them (34 counts, bonus tiles not
        counted): read, never change (`tile_counts` gives a copy)."""
        return self._counts[seat]

    def take_from_wall(self, *, front: bool) -> Tile:
        """The next tile from the front or the back of the wall: for the wall part, which owns
        which back positions are replacements (other parts draw through `draw_replacement`)."""
        return self._take(front=front)

    def tile_counts(self, seat: int) -> list[int]:
        """A copy of the seat's concealed tiles as a 34-count vector (as `counts_of` gives)."""
        return list(self._counts[seat])

    def concealed(self, seat: int) -> list[Tile]:
        """The seat's concealed tiles, sorted (the drawn tile included; a red five after the
        plain fives of its suit)."""
        return sort_tiles(self.hands[seat])

    def tiles_in_play(self) -> list[Tile]:
        """Every tile the hand accounts for: wall, hands, melds, bonus, ponds, set-aside tiles."""
        tiles = self.wall[self.front : self.back]
        for seat in self.seats:
            tiles = tiles + self.hands[seat] + self.bonus[seat]
            tiles = tiles + [t for m in self.melds[seat] for t in m.tiles]
            pond = self.ponds[seat]
            tiles = tiles + [t for i, t in enumerate(pond) if i not in self.claimed[seat]]
        for part in self.parts:
            tiles = tiles + part.held_tiles()
        return tiles
