"""The Hong Kong presets (RULES.md): `hkos-3-v1` (Old Style), `hk-3fan` and `hk-fw2` (Four Winds,
with its table minimum and insurance penalties)."""

from __future__ import annotations

from dataclasses import replace

from engine.families.hongkong import advice
from engine.families.hongkong import scoring_fourwinds as fourwinds
from engine.families.hongkong import scoring_hk3fan as hk3fan
from engine.families.hongkong import scoring_hkos as hkos
from engine.families.hongkong.rules import InsuranceWatch
from engine.kinds import ConcealedRob, MultiWin, Rotation
from engine.options import minimum_option
from engine.preset import SEVEN_PAIRS_WITH_KONGS, Preset, tiles_136, tiles_144
from engine.shapes import ShapeRules

MIN_FAN = minimum_option(0, 1, 2, 3)  # hk-fw2: a table minimum of 0-3 faan
THREE_FAN = minimum_option(3)  # Old Style and Three Fan: 3, fixed

HKOS = Preset(
    id="hkos-3-v1",
    name="Hong Kong Old Style",
    summary="144 tiles with flowers, 3-faan minimum, 13 cap, half-laak payments, head bump.",
    family="hkos",
    wall=tiles_144(),
    scoring=hkos,
    advice=advice.KNOWLEDGE_HKOS,
    fan_cap=13,
    time_control="classic",
    options=(THREE_FAN,),
)

HK_3FAN = Preset(
    id="hk-3fan",
    name="Hong Kong · Three Fan",
    summary="136 tiles, 3-fan minimum, 2^fan capped at 8, multiple wins, kong payments.",
    family="hk3fan",
    wall=tiles_136(),
    scoring=hk3fan,
    advice=advice.KNOWLEDGE_HK3FAN,
    multi_win=MultiWin.MULTIPLE,
    shape_rules=replace(SEVEN_PAIRS_WITH_KONGS, thirteen_orphans=True),
    concealed_rob=ConcealedRob.NEVER,
    rotation=Rotation.HONG_KONG,
    fan_cap=8,
    unit="fan",
    time_control="table",
    rated_time_control="table",
    options=(THREE_FAN,),
)

HK_FW2 = Preset(
    id="hk-fw2",
    name="Hong Kong · Four Winds 2",
    summary="144 tiles with flowers, 2,000 points, table minimum 0-3 faan (chicken hands "
    "win at 0), settling table, insurance penalties, head bump.",
    family="fourwinds",
    wall=tiles_144(),
    scoring=fourwinds,
    advice=advice.KNOWLEDGE_FOURWINDS,
    shape_rules=ShapeRules(seven_pairs=True, thirteen_orphans=True),
    rotation=Rotation.FOUR_WINDS,
    start_points=2000,
    fan_cap=10,  # 10 faan or more pays the limit (the settling table's last row)
    # scoring reads the wall and the visible copies of a winning discard (insurance)
    rules=(InsuranceWatch(),),
    options=(MIN_FAN,),
)
