"""The Preset value: everything the shared loop needs to know about a rule set, its behaviour
carried by reference — its rule components (`rules`, engine.rules), its scoring family
(`scoring`, engine.scoring.family.ScoringFamily) and the strong computer's knowledge (`advice`,
engine.advice.FamilyKnowledge). Each family writes its presets in
engine/families/<family>/presets.py; engine/presets.py is the registry.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from engine.game import ENDLESS, GameRule
from engine.kinds import AfterWin, ConcealedRob, MultiWin, Opening, Rotation
from engine.options import OptionValue, TableOption, minimum
from engine.rules import Openings, Rule
from engine.shapes import ShapeRules
from engine.tiles import BONUS, COPIES, Tile

if TYPE_CHECKING:
    from engine.advice import FamilyKnowledge
    from engine.scoring.family import ScoringFamily


def tiles_136() -> tuple[Tile, ...]:
    """The 136 tiles: four of each suited and honour kind."""
    return tuple(t for t in range(34) for _ in range(COPIES))


def tiles_144() -> tuple[Tile, ...]:
    """The 136 tiles with the eight flowers and seasons."""
    return tiles_136() + BONUS


def tiles_108() -> tuple[Tile, ...]:
    """The three suits only."""
    return tuple(t for t in range(27) for _ in range(COPIES))


THIRTEEN_ORPHANS = ShapeRules(thirteen_orphans=True)  # Hong Kong's one special shape
SEVEN_PAIRS_WITH_KONGS = ShapeRules(seven_pairs=True, kong_as_two_pairs=True)


@dataclass(frozen=True, slots=True)
class Preset:
    """Everything the shared loop needs to know about a rule set."""

    id: str
    name: str
    summary: str
    family: str  # the scoring family's name: its patterns' words (catalogue `score.<family>.*`)
    wall: tuple[Tile, ...]
    scoring: ScoringFamily  # its scoring family's module (engine.scoring dispatches through it)
    hand_size: int = 13  # dealt to each; the dealer draws one more at the start
    chow: bool = True
    multi_win: MultiWin = MultiWin.HEAD_BUMP
    # this many winners on one tile abort the hand instead (an abortive draw); 0: never
    winners_abort: int = 0
    after_win: AfterWin = AfterWin.END
    # the special winning shapes besides sets and a pair (engine.shapes reads them as one value)
    shape_rules: ShapeRules = THIRTEEN_ORPHANS
    discard_wins: bool = True
    fan_cap: int = 13
    unit: str = "faan"
    time_control: str = "classic"
    rated_time_control: str = "classic"
    start_points: int = 0
    seat_counts: tuple[int, ...] = (4,)  # players a table may seat; the first is the default
    # the wall (engine.rules.WallRule): tiles set aside at the deal, a dead wall, last draws
    set_aside: int = 0
    dead_wall: int = 0
    replacements: int = 0  # the dead wall's replacement positions (engine.rules.WallRule)
    indicators: int = 0  # the dead wall's indicators, set apart at the deal (engine.rules.WallRule)
    last_draws: int = 0
    dead_wall_replenished: bool = True  # engine.wall.WallRule.replenished
    concealed_rob: ConcealedRob = ConcealedRob.THIRTEEN_ORPHANS
    rotation: Rotation = Rotation.HONG_KONG
    # its own rule components (engine.rules, the family's rules.py), after those the fields
    # above name (engine.rules.rules_of); a table option that changes the data they are built
    # from builds them again (hubei-laizi's wall)
    rules: tuple[Rule, ...] = ()
    # the strong computer's knowledge of its scoring family (None: the easy computer plays it)
    advice: FamilyKnowledge | None = None
    # a `score` request reader of its own, where the family reads its own fields (Riichi,
    # engine/families/riichi/score_request.py); None: engine/formats/score_request.py reads it
    score_reader: Callable[[dict[str, Any]], dict[str, object]] | None = None
    random_first_dealer: bool = False  # the first dealer drawn from the session seed (hubei)
    options: tuple[TableOption, ...] = ()  # what a table may choose (engine.options)
    chosen: tuple[tuple[str, OptionValue], ...] = ()  # this value's choices away from defaults
    game: GameRule = ENDLESS  # when a session's game ends and how it ranks (engine.game)
    # the words its players use for the actions: a catalogue key K is said as K.<words> where
    # the catalogue has that ("riichi": Chi, Pon, Kan, Ron, Tsumo); "" the catalogue's own
    vocabulary: str = ""
    # its big moments move (render/animate.py): RULES.md names moving pictures for these rules
    animated: bool = False

    def __deepcopy__(self, memo: dict[int, object]) -> Preset:
        return self  # an immutable value that carries modules (its scoring family): shared

    @property
    def min_fan(self) -> int:
        """The table minimum to win: what its options set (engine.options; 0 where none)."""
        return minimum(self)

    @property
    def openings(self) -> tuple[Opening, ...]:
        """The decisions every seat makes at once before the first turn (its `Openings`
        component's stages; none without one)."""
        for rule in self.rules:
            if isinstance(rule, Openings):
                return rule.stages
        return ()

    @property
    def sets(self) -> int:
        """Sets in a winning hand besides the pair (4 for 13-tile hands, 5 for 16, 3 for 10)."""
        removed = 3 if Opening.DISCARD_THREE in self.openings else 0
        return (self.hand_size - removed - 1) // 3

    @property
    def uses_bonus(self) -> bool:
        return any(t in BONUS for t in self.wall)

    @property
    def tile_kinds(self) -> frozenset[Tile]:
        return frozenset(self.wall)
