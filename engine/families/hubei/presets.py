"""The Hubei preset (RULES.md `hubei-laizi`, 红中赖子杠) and its table options: green and white
dragons join (120 tiles, and green becomes a fixed kong), and the 3-fan minimum may be lifted."""

from __future__ import annotations

from dataclasses import replace

from engine.families.hubei import advice
from engine.families.hubei import scoring as hubei
from engine.families.hubei.rules import fixed_wild, wall_rules, with_wall
from engine.kinds import ConcealedRob, Rotation
from engine.options import OptionValue, TableOption
from engine.preset import Preset, tiles_108
from engine.shapes import ShapeRules
from engine.tiles import COPIES, GREEN, RED, WHITE, Tile

HUBEI_MINIMUM = 3


def hubei_wall(green_white: bool = False) -> tuple[Tile, ...]:
    """The suits and four red dragons (112); green and white too (120)."""
    dragons = (WHITE, GREEN, RED) if green_white else (RED,)
    return tiles_108() + tuple(t for t in dragons for _ in range(COPIES))


def _green_white(preset: Preset, value: OptionValue) -> Preset:
    wall = hubei_wall(green_white=bool(value))
    return replace(preset, wall=wall, rules=with_wall(preset.rules, wall))  # green: a fixed kong


GREEN_WHITE = TableOption("green_white", (False, True), False, _green_white)
NO_MINIMUM = TableOption("no_minimum", (False, True), False, minimums=(HUBEI_MINIMUM, 0))

HUBEI = Preset(
    id="hubei-laizi",
    name="Hubei wild-kong (红中赖子杠)",
    summary="112 tiles, a wild turned after the deal, red dragon and wild kongs, open "
    "hand to win, loser fan, 2 to 4 players.",
    family="hubei",
    wall=hubei_wall(),
    scoring=hubei,
    advice=advice.KNOWLEDGE,
    shape_rules=ShapeRules(),
    concealed_rob=ConcealedRob.NEVER,
    unit="fan",
    seat_counts=(4, 3, 2),
    last_draws=14,
    rotation=Rotation.WINNER_DEALS,
    rules=wall_rules(hubei_wall()),  # changed with the wall (green_white)
    random_first_dealer=True,
    options=(GREEN_WHITE, NO_MINIMUM),
    animated=True,  # RULES.md "Pictures that move"
)


def with_fixed_wild(preset: Preset, wild: Tile) -> Preset:
    """The preset with the wild every hand shows fixed (arranged hands: tests, examples)."""
    return replace(preset, rules=fixed_wild(preset.rules, wild))
