"""The Taiwanese preset (RULES.md `tw-16`)."""

from __future__ import annotations

from engine.actions import ActionKind
from engine.families.taiwan import advice
from engine.families.taiwan import scoring as taiwan
from engine.families.taiwan.rules import DealerBonus
from engine.kinds import ConcealedRob, MultiWin, Rotation
from engine.preset import Preset, tiles_144
from engine.rules import PassEnds, PassRule
from engine.shapes import ShapeRules

TW_16 = Preset(
    id="tw-16",
    name="Taiwanese sixteen tiles",
    summary="16-tile hands of five sets and a pair, tai and a dealer bonus, a 16-tile "
    "dead wall; a passed win blocks its tile.",
    family="taiwan",
    wall=tiles_144(),
    scoring=taiwan,
    advice=advice.KNOWLEDGE,
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
)
