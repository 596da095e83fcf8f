"""hubei-laizi's rule components beyond engine.rules (RULES.md `hubei-laizi`).

engine.rules already plays the fixed kong tiles (`FixedKongs`: red, and green with the
`green_white` option), the open-hand rule, both pass rules and the last draws; this module adds
the wild turned after the deal (`TurnedWild`: never claimed, discarded as a wild kong, standing
for any tile in a winning hand) and the facts a win's payment reads about every seat
(`SeatsFacts`). `wall_rules(wall)` builds the components from the wall they play with, and the
table option that changes the wall (engine/families/hubei/presets.py) changes them with it
(`with_wall`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from engine import shapes
from engine.actions import ActionKind
from engine.events import Event
from engine.parts import Part, Rule
from engine.rules import (
    FixedKongs,
    FixedKongsPart,
    OpenHandToWin,
    PassEnds,
    PassRule,
    Wilds,
    WildsPart,
    set_down_facts,
)
from engine.scoring.base import SeatFacts, WinBy
from engine.tiles import GREEN, NUM_KINDS, RED, Meld, MeldKind, Tile, is_suited

if TYPE_CHECKING:
    from engine.hand import HandState
    from engine.preset import Preset
    from engine.table_facts import TableFacts

FIXED_KONG_KINDS = (RED, GREEN)  # in this order they sort to the left of a hand
RANKS_258 = frozenset({1, 4, 7})  # rank_of - 1 of the 2, 5 and 8 of a suit


def is_258(tile: Tile) -> bool:
    return is_suited(tile) and tile % 9 in RANKS_258


def all_258(counts: list[int], melds: tuple[Meld, ...] | list[Meld]) -> bool:
    """Every tile of hand and melds a 2, 5 or 8 (the counts already without wilds)."""
    held = all(is_258(t) for t in range(NUM_KINDS) if counts[t])
    return held and all(is_258(t) for m in melds for t in m.tiles)


def completes(counts: list[int], wild: Tile | None, melds: tuple[Meld, ...] | list[Meld]) -> bool:
    """Whether concealed counts (winning tile included) are a hubei-laizi winning shape: sets
    and a pair with the wilds standing for any tile, or all 2-5-8 (no shape needed)."""
    rest = list(counts)
    jokers = 0
    if wild is not None:
        jokers, rest[wild] = rest[wild], 0
    return shapes.is_win(rest, jokers=jokers) or all_258(rest, melds)


def fixed_kong_kinds(preset: Preset) -> frozenset[Tile]:
    return fixed_kongs_of(preset.tile_kinds)


def fixed_kongs_of(tile_kinds: frozenset[Tile]) -> frozenset[Tile]:
    return frozenset(t for t in FIXED_KONG_KINDS if t in tile_kinds)


def wall_rules(wall: tuple[Tile, ...]) -> tuple[Rule, ...]:
    """The hubei-laizi components for this wall (green joins red with green_white)."""
    fixed = fixed_kongs_of(frozenset(wall))
    return (
        FixedKongs(fixed),
        TurnedWild(frozenset(), never=fixed),
        OpenHandToWin(),
        PassRule(ActionKind.PUNG, PassEnds.OWN_DRAW, block_kind_only=False),
        PassRule(ActionKind.WIN, PassEnds.OWN_DRAW, block_kind_only=False, self_draw_too=False),
        SeatsFacts(),
    )


def with_wall(rules: tuple[Rule, ...], wall: tuple[Tile, ...]) -> tuple[Rule, ...]:
    """The components as this wall plays them: its fixed kong kinds (a fixed wild kept)."""
    fixed = fixed_kongs_of(frozenset(wall))
    return tuple(
        replace(rule, never=fixed)
        if isinstance(rule, TurnedWild)
        else replace(rule, kinds=fixed)
        if isinstance(rule, FixedKongs)
        else rule
        for rule in rules
    )


def fixed_wild(rules: tuple[Rule, ...], wild: Tile) -> tuple[Rule, ...]:
    """The components with the wild the turned-wild rule shows fixed (arranged hands: tests,
    examples)."""
    return tuple(
        replace(rule, kinds=frozenset({wild})) if isinstance(rule, TurnedWild) else rule
        for rule in rules
    )


# ------------------------------------------------------------------------------- the wild


@dataclass(frozen=True, slots=True)
class TurnedWild(Wilds):
    """The wild (癞子): after the deal a random live-wall tile's kind (from the hand seed) is
    shown; the tile stays where it is. A fixed kong kind (`never`) gives way to the next tile.
    Wilds are never claimed nor used in a claimed meld or kong; discarding one is a wild kong
    (a replacement from the back, play on). `kinds`, when given, fixes the wild (tests)."""

    never: frozenset[Tile] = field(default_factory=frozenset)


class TurnedWildPart(WildsPart):
    def __init__(self, rule: TurnedWild, state: HandState) -> None:
        super().__init__(rule, state)
        self.wild: Tile | None = None
        self.wild_kongs: list[list[Tile]] = [[] for _ in range(state.seat_count)]

    def after_deal(self) -> None:
        state = self.state
        if self.rule.kinds:
            wild = min(self.rule.kinds)
        else:
            live = state.wall[state.front : state.back]
            index = random.Random(f"{state.seed}:wild").randrange(len(live))
            while live[index] in self.rule.never:  # a red (green) dragon: the next tile instead
                index = (index + 1) % len(live)
            wild = live[index]
        self.wild = wild
        self.kinds = frozenset({wild})
        state.emit(Event("wild", tile=wild))

    def discard_is_kong(self, seat: int, tile: Tile) -> bool:
        if tile != self.wild:
            return False
        self.wild_kongs[seat].append(tile)
        return True

    def sets_down(self, tile: Tile) -> bool:
        return tile == self.wild

    def win_shape(self, seat: int, counts: list[int], by: WinBy) -> bool | None:
        # decides every shape, with or without a wild held: all 2-5-8 needs no sets
        return completes(counts, self.wild, self.state.melds[seat])

    def held_tiles(self) -> list[Tile]:
        return [t for tiles in self.wild_kongs for t in tiles]

    def table_facts(self) -> TableFacts:
        facts = set_down_facts(self.wild_kongs)
        return facts if self.wild is None else replace(facts, wilds=(self.wild,))


TurnedWild.part = TurnedWildPart


# ------------------------------------------------------------------------------- the seats' facts


@dataclass(frozen=True, slots=True)
class SeatsFacts(Rule):
    """Gives scoring what a hubei-laizi payment reads: the wild, every seat's fixed kongs and
    melds, who discarded (or was robbed), the table size, and whether the discarder is ready."""


class SeatsFactsPart(Part):
    def special_kongs(self, seat: int) -> tuple[Tile, ...]:
        state = self.state
        fixed = state.part_of(FixedKongsPart)
        wild = state.part_of(TurnedWildPart)
        tiles = list(fixed.kongs[seat]) if fixed is not None else []
        if wild is not None:
            tiles += wild.wild_kongs[seat]
        return tuple(tiles)

    def wild(self) -> Tile | None:
        part = self.state.part_of(TurnedWildPart)
        return part.wild if part is not None else None

    def is_ready(self, seat: int) -> bool:
        """One tile from a winning shape (the open-hand rule and the minimum not asked), holding
        no fixed kong tile."""
        state = self.state
        counts = state.tile_counts(seat)
        fixed = fixed_kong_kinds(state.preset)
        if any(counts[t] for t in fixed):
            return False
        wild, melds = self.wild(), state.melds[seat]
        for tile in state.preset.tile_kinds:
            if tile in fixed or counts[tile] >= 4:
                continue
            counts[tile] += 1
            found = completes(counts, wild, melds)
            counts[tile] -= 1
            if found:
                return True
        return False

    def context(self, seat: int) -> dict[str, Any]:
        state = self.state
        phase = state.phase.value
        discarder = state.claim_from if phase in ("claims", "rob") else None
        single_wait = sum(1 for m in state.melds[seat] if m.kind is not MeldKind.CONCEALED_KONG)
        others = tuple(
            SeatFacts(
                other,
                tuple(state.melds[other]),
                self.special_kongs(other),
                # only an all-melded single wait's liability asks whether the discarder is ready
                self.is_ready(other) if other == discarder and single_wait == 4 else None,
            )
            for other in state.seats
            if other != seat and state.active(other)
        )
        return {
            "wild": self.wild(),
            "special_kongs": self.special_kongs(seat),
            "discarder": discarder,
            "players": state.seat_count,
            "others": others,
        }


SeatsFacts.part = SeatsFactsPart
