"""Seed 004's self-draw tables (RULES.md): `guangdong` (a horse) and `redwild` (wild red dragons,
birds)."""

from __future__ import annotations

from dataclasses import replace

from engine.families.selfdraw import advice
from engine.families.selfdraw import scoring_guangdong as guangdong
from engine.families.selfdraw import scoring_redwild as redwild
from engine.families.selfdraw.rules import AllWildsWin, Birds, Horse
from engine.kinds import ConcealedRob, MultiWin, Rotation
from engine.preset import SEVEN_PAIRS_WITH_KONGS, Preset, tiles_108, tiles_136
from engine.rules import Wilds
from engine.tiles import COPIES, RED

GUANGDONG = Preset(
    id="guangdong",
    name="Guangdong",
    summary="136 tiles, no chows, self-draw wins only; a horse tile mirrors the payments.",
    family="guangdong",
    wall=tiles_136(),
    scoring=guangdong,
    advice=advice.KNOWLEDGE_GUANGDONG,
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

REDWILD = replace(  # guangdong's table with wild red dragons and birds instead of a horse
    GUANGDONG,
    id="redwild",
    name="Red Dragon wild",
    summary="112 tiles, the four red dragons are wild, self-draw wins only; four birds.",
    family="redwild",
    wall=tiles_108() + (RED,) * COPIES,
    scoring=redwild,
    advice=advice.KNOWLEDGE_REDWILD,
    shape_rules=SEVEN_PAIRS_WITH_KONGS,
    unit="points",
    fan_cap=13,
    set_aside=4,
    rules=(AllWildsWin(RED, COPIES), Wilds(frozenset({RED})), Birds()),
)
