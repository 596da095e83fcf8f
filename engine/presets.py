"""Rule presets as data (RULES.md): the shared loop reads these flags; scoring is per family.

>>> find_preset("hkos-3-v1").hand_size
13
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from importlib import import_module

from engine.actions import ActionKind
from engine.families.selfdraw.rules import AllWildsWin, Birds, Horse
from engine.families.taiwan.rules import DealerBonus
from engine.game import ENDLESS, GameRule
from engine.i18n import text
from engine.kinds import AfterWin, ConcealedRob, MultiWin, Opening, Rotation
from engine.options import OptionValue, TableOption, choose, has_option
from engine.parts import Rule
from engine.rules import PassEnds, PassRule, Wilds
from engine.shapes import ShapeRules
from engine.tiles import BONUS, COPIES, GREEN, HONOURS, RED, WHITE, Tile

# the kinds a preset names live in engine.kinds (a leaf); they are read from here too
__all__ = ["AfterWin", "ConcealedRob", "MultiWin", "Opening", "Rotation"]


class UnknownPresetError(ValueError):
    """A preset id that no preset has."""


@dataclass(frozen=True, slots=True)
class TimeControl:
    """Seconds per decision plus a reserve bank that resets each hand (0 base = untimed)."""

    name: str
    base: int
    reserve: int = 0
    deal_limit: int = 0  # seconds for the whole deal (seed-004 table clock), 0 = none
    computer_on_timeout: bool = False  # the computer player makes a timed-out decision

    @property
    def on_timeout_key(self) -> str:
        """The catalogue key that tells a player what this clock does when it runs out."""
        return (
            "bot.clock.on_timeout_computer" if self.computer_on_timeout else "bot.clock.on_timeout"
        )

    @property
    def untimed(self) -> bool:
        return self.base == 0


TIME_CONTROLS: dict[str, TimeControl] = {
    tc.name: tc
    for tc in (
        TimeControl("bullet", 2, 5),
        TimeControl("blitz", 3, 10),
        TimeControl("standard", 5, 20),
        TimeControl("relaxed", 15, 60),
        TimeControl("classic", 60, 0),
        TimeControl("untimed", 0, 0),
        TimeControl("table", 40, 0, deal_limit=300, computer_on_timeout=True),
    )
}


def _tiles_136() -> tuple[Tile, ...]:
    return tuple(t for t in range(34) for _ in range(COPIES))


def _tiles_144() -> tuple[Tile, ...]:
    return _tiles_136() + BONUS


def _tiles_108() -> tuple[Tile, ...]:
    return tuple(t for t in range(27) for _ in range(COPIES))


def _tiles_hubei(green_white: bool = False) -> tuple[Tile, ...]:
    """hubei-laizi: the suits and four red dragons (112); green and white too (120)."""
    dragons = (WHITE, GREEN, RED) if green_white else (RED,)
    return _tiles_108() + tuple(t for t in dragons for _ in range(COPIES))


HUBEI_MINIMUM = 3


def _at_minimum(preset: Preset, value: OptionValue) -> Preset:
    return replace(preset, min_fan=int(value))


def _green_white(preset: Preset, value: OptionValue) -> Preset:
    return replace(preset, wall=_tiles_hubei(green_white=bool(value)))


def _no_minimum(preset: Preset, value: OptionValue) -> Preset:
    return replace(preset, min_fan=0 if value else HUBEI_MINIMUM)


# hk-fw2: a table minimum of 0-3 faan; hubei-laizi: green and white dragons join (120 tiles),
# and the 3-fan minimum may be lifted
MIN_FAN = TableOption("min_fan", (0, 1, 2, 3), 0, _at_minimum)
GREEN_WHITE = TableOption("green_white", (False, True), False, _green_white)
NO_MINIMUM = TableOption("no_minimum", (False, True), False, _no_minimum)


THIRTEEN_ORPHANS = ShapeRules(thirteen_orphans=True)  # Hong Kong's one special shape


@dataclass(frozen=True, slots=True)
class Preset:
    """Everything the shared loop needs to know about a rule set."""

    id: str
    name: str
    summary: str
    family: str  # names the scoring module: engine.scoring.<family>
    wall: tuple[Tile, ...]
    hand_size: int = 13  # dealt to each; the dealer draws one more at the start
    chow: bool = True
    multi_win: MultiWin = MultiWin.HEAD_BUMP
    # this many winners on one tile abort the hand instead (an abortive draw); 0: never
    winners_abort: int = 0
    after_win: AfterWin = AfterWin.END
    # the special winning shapes besides sets and a pair (engine.shapes reads them as one value)
    shape_rules: ShapeRules = THIRTEEN_ORPHANS
    discard_wins: bool = True
    openings: tuple[Opening, ...] = ()
    min_fan: int = 0
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
    concealed_rob: ConcealedRob = ConcealedRob.THIRTEEN_ORPHANS
    rotation: Rotation = Rotation.HONG_KONG
    # scoring reads the wall and the visible copies of a winning discard (hk-fw2 insurance;
    # engine.families.hongkong.rules.InsuranceWatch, bound by engine.rules.rules_of)
    insurance: bool = False
    rules: tuple[Rule, ...] = ()  # further rule components (engine.rules) beyond those above
    # a module whose preset_rules(preset) builds further components from the preset's data
    # (engine.families.hubei.rules: from the wall, which a table option changes)
    rules_module: str = ""
    fixed_wild: Tile | None = None  # the wild a turned-wild rule shows, fixed (arranged hands)
    random_first_dealer: bool = False  # the first dealer drawn from the session seed (hubei)
    options: tuple[TableOption, ...] = ()  # what a table may choose (engine.options)
    chosen: tuple[tuple[str, OptionValue], ...] = ()  # this value's choices away from defaults
    game: GameRule = ENDLESS  # when a session's game ends and how it ranks (engine.game)
    # the words its players use for the actions: a catalogue key K is said as K.<words> where
    # the catalogue has that ("riichi": Chi, Pon, Kan, Ron, Tsumo); "" the catalogue's own
    vocabulary: str = ""

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

    @property
    def suits_only(self) -> bool:
        return not any(t in HONOURS for t in self.wall)


HKOS = Preset(
    id="hkos-3-v1",
    name="Hong Kong Old Style",
    summary="144 tiles with flowers, 3-faan minimum, 13 cap, half-laak payments, head bump.",
    family="hkos",
    wall=_tiles_144(),
    min_fan=3,
    fan_cap=13,
    time_control="classic",
)

SEVEN_PAIRS_WITH_KONGS = ShapeRules(seven_pairs=True, kong_as_two_pairs=True)

SICHUAN_BB = Preset(
    id="sichuan-bb",
    name="Sichuan Blood Battle",
    summary="108 tiles, no chows, void suit; winners leave until three have won.",
    family="sichuan",
    wall=_tiles_108(),
    chow=False,
    multi_win=MultiWin.MULTIPLE,
    after_win=AfterWin.LEAVE,
    shape_rules=SEVEN_PAIRS_WITH_KONGS,
    openings=(Opening.VOID,),
    concealed_rob=ConcealedRob.NEVER,
    rotation=Rotation.WINNER_DEALS,
    fan_cap=4,
    unit="fan",
    time_control="table",
    rated_time_control="table",
)

PRESETS: dict[str, Preset] = {
    p.id: p
    for p in (
        HKOS,
        SICHUAN_BB,  # the other Sichuan tables change its openings and what a win does
        replace(
            SICHUAN_BB,
            id="sichuan-swap3",
            name="Sichuan Swap Three",
            summary="Blood Battle with a swap of three same-suit tiles first.",
            openings=(Opening.SWAP_THREE, Opening.VOID),
        ),
        replace(
            SICHUAN_BB,
            id="bloodflow-swap3",
            name="Sichuan Blood Flow (swap three)",
            summary="Swap three, void suit; winners stay with a locked hand to the wall's end.",
            after_win=AfterWin.STAY,
            openings=(Opening.SWAP_THREE, Opening.VOID),
        ),
        replace(
            SICHUAN_BB,
            id="bloodflow-discard3",
            name="Sichuan Blood Flow (discard three)",
            summary="Three same-suit tiles leave play; 10-tile hands; winners stay to the end.",
            after_win=AfterWin.STAY,
            openings=(Opening.DISCARD_THREE, Opening.VOID),
        ),
        Preset(
            id="tw-16",
            name="Taiwanese sixteen tiles",
            summary="16-tile hands of five sets and a pair, tai and a dealer bonus, a 16-tile "
            "dead wall; a passed win blocks its tile.",
            family="taiwan",
            wall=_tiles_144(),
            hand_size=16,
            multi_win=MultiWin.MULTIPLE,
            shape_rules=ShapeRules(),
            concealed_rob=ConcealedRob.NEVER,
            fan_cap=32,
            unit="tai",
            time_control="table",
            rated_time_control="table",
            dead_wall=16,
            rotation=Rotation.HONG_KONG,
            rules=(
                PassRule(ActionKind.WIN, PassEnds.OWN_DISCARD, block_kind_only=True),
                DealerBonus(tai=1, cap=32),
            ),
        ),
        Preset(
            id="hk-3fan",
            name="Hong Kong · Three Fan",
            summary="136 tiles, 3-fan minimum, 2^fan capped at 8, multiple wins, kong payments.",
            family="hk3fan",
            wall=_tiles_136(),
            multi_win=MultiWin.MULTIPLE,
            shape_rules=replace(SEVEN_PAIRS_WITH_KONGS, thirteen_orphans=True),
            concealed_rob=ConcealedRob.NEVER,
            rotation=Rotation.HONG_KONG,
            min_fan=3,
            fan_cap=8,
            unit="fan",
            time_control="table",
            rated_time_control="table",
        ),
        Preset(
            id="hk-fw2",
            name="Hong Kong · Four Winds 2",
            summary="144 tiles with flowers, 2,000 points, table minimum 0-3 faan (chicken hands "
            "win at 0), settling table, insurance penalties, head bump.",
            family="fourwinds",
            wall=_tiles_144(),
            shape_rules=ShapeRules(seven_pairs=True, thirteen_orphans=True),
            rotation=Rotation.FOUR_WINDS,
            start_points=2000,
            min_fan=0,
            fan_cap=10,  # 10 faan or more pays the limit (the settling table's last row)
            insurance=True,
            options=(MIN_FAN,),
        ),
        Preset(
            id="hubei-laizi",
            name="Hubei wild-kong (红中赖子杠)",
            summary="112 tiles, a wild turned after the deal, red dragon and wild kongs, open "
            "hand to win, loser fan, 2 to 4 players.",
            family="hubei",
            wall=_tiles_hubei(),
            shape_rules=ShapeRules(),
            concealed_rob=ConcealedRob.NEVER,
            min_fan=HUBEI_MINIMUM,
            unit="fan",
            seat_counts=(4, 3, 2),
            last_draws=14,
            rotation=Rotation.WINNER_DEALS,
            # its components follow the wall (green joins red)
            rules_module="engine.families.hubei.rules",
            random_first_dealer=True,
            options=(GREEN_WHITE, NO_MINIMUM),
        ),
    )
}


def _self_draw_presets() -> tuple[Preset, ...]:
    """Seed 004's self-draw tables: guangdong (a horse) and redwild (wild red dragons, birds)."""
    guangdong = Preset(
        id="guangdong",
        name="Guangdong",
        summary="136 tiles, no chows, self-draw wins only; a horse tile mirrors the payments.",
        family="guangdong",
        wall=_tiles_136(),
        chow=False,
        multi_win=MultiWin.MULTIPLE,  # several robbers of one kong all win
        discard_wins=False,
        shape_rules=replace(SEVEN_PAIRS_WITH_KONGS, thirteen_orphans=True),
        concealed_rob=ConcealedRob.NEVER,
        rotation=Rotation.WINNER_DEALS,
        unit="fan",
        time_control="table",
        rated_time_control="table",
        fan_cap=8,
        set_aside=1,
        rules=(Horse(),),
    )
    redwild = replace(  # guangdong's table with wild red dragons and birds instead of a horse
        guangdong,
        id="redwild",
        name="Red Dragon wild",
        summary="112 tiles, the four red dragons are wild, self-draw wins only; four birds.",
        family="redwild",
        wall=_tiles_108() + (RED,) * COPIES,
        shape_rules=SEVEN_PAIRS_WITH_KONGS,
        unit="points",
        fan_cap=13,
        set_aside=4,
        rules=(AllWildsWin(RED, COPIES), Wilds(frozenset({RED})), Birds()),
    )
    return guangdong, redwild


PRESETS.update((preset.id, preset) for preset in _self_draw_presets())


def with_options(preset: Preset, options: Iterable[str]) -> Preset:
    """The preset with these switches on (hubei-laizi: `green_white` adds green and white
    dragons, 120 tiles; `no_minimum` lifts the 3-fan minimum). The id stays."""
    return choose(preset, dict.fromkeys(options, True))


def table_options(preset: Preset) -> tuple[str, ...]:
    """The switches this preset value plays with on, sorted."""
    return tuple(name for name, value in preset.chosen if value is True)


# presets the rules name that are not playable yet (none now)
PLANNED_PRESETS: dict[str, str] = {}


def min_fan_choices(preset: Preset) -> tuple[int, ...]:
    """The minimums a table of this preset may choose (empty: the preset's own is fixed)."""
    if not has_option(preset, "min_fan"):
        return ()
    return tuple(int(v) for v in next(o for o in preset.options if o.name == "min_fan").values)


def with_min_fan(preset: Preset, min_fan: int | None) -> Preset:
    """The preset as a table with this minimum plays it (None: the preset's default): its
    `min_fan` option, or a `no_minimum` switch for 0.

    >>> with_min_fan(find_preset("hk-fw2"), 3).min_fan
    3
    """
    if min_fan is None or min_fan == preset.min_fan:
        return preset
    if min_fan == 0 and has_option(preset, "no_minimum"):
        return choose(preset, {"no_minimum": True})  # hubei-laizi's switch
    choices = min_fan_choices(preset)
    if min_fan not in choices:
        if not choices:
            raise ValueError(
                text("fixups.preset.fixed_minimum", preset=preset.id, min_fan=preset.min_fan)
            )
        low, high = min(choices), max(choices)
        raise ValueError(
            text(
                "fixups.preset.minimum_range", preset=preset.id, low=low, high=high, min_fan=min_fan
            )
        )
    return choose(preset, {"min_fan": min_fan})


def find_preset(preset_id: str) -> Preset:
    """The preset with this id, or a clear error listing the ones that exist."""
    try:
        return PRESETS[preset_id]
    except KeyError:
        known = ", ".join(PRESETS)
        if preset_id in PLANNED_PRESETS:
            raise UnknownPresetError(
                text("fixups.preset.planned", preset=repr(preset_id), known=known)
            ) from None
        raise UnknownPresetError(
            text("fixups.preset.unknown", preset=repr(preset_id), known=known)
        ) from None


# the Riichi presets register themselves in PRESETS: their rule components build on the hand
# loop, which reads this module, so their module comes last (either may be imported first)
import_module("engine.families.riichi.presets")
