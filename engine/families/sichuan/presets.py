"""The Sichuan presets (RULES.md): Blood Battle (`sichuan-bb`) and the tables that change its
openings and what a win does."""

from __future__ import annotations

from dataclasses import replace

from engine.families.sichuan import advice
from engine.families.sichuan import scoring as sichuan
from engine.kinds import AfterWin, ConcealedRob, MultiWin, Opening, Rotation
from engine.preset import SEVEN_PAIRS_WITH_KONGS, Preset, tiles_108
from engine.rules import Openings, VoidSuit

SICHUAN_BB = Preset(
    id="sichuan-bb",
    name="Sichuan Blood Battle",
    summary="108 tiles, no chows, void suit; winners leave until three have won.",
    family="sichuan",
    wall=tiles_108(),
    scoring=sichuan,
    advice=advice.KNOWLEDGE,
    chow=False,
    multi_win=MultiWin.MULTIPLE,
    after_win=AfterWin.LEAVE,
    shape_rules=SEVEN_PAIRS_WITH_KONGS,
    rules=(Openings((Opening.VOID,)), VoidSuit()),
    concealed_rob=ConcealedRob.NEVER,
    rotation=Rotation.WINNER_DEALS,
    fan_cap=4,
    unit="fan",
    time_control="table",
    rated_time_control="table",
)

SICHUAN_SWAP3 = replace(
    SICHUAN_BB,
    id="sichuan-swap3",
    name="Sichuan Swap Three",
    summary="Blood Battle with a swap of three same-suit tiles first.",
    rules=(Openings((Opening.SWAP_THREE, Opening.VOID)), VoidSuit()),
)

BLOODFLOW_SWAP3 = replace(
    SICHUAN_BB,
    id="bloodflow-swap3",
    name="Sichuan Blood Flow (swap three)",
    summary="Swap three, void suit; winners stay with a locked hand to the wall's end.",
    after_win=AfterWin.STAY,
    rules=(Openings((Opening.SWAP_THREE, Opening.VOID)), VoidSuit()),
)

BLOODFLOW_DISCARD3 = replace(
    SICHUAN_BB,
    id="bloodflow-discard3",
    name="Sichuan Blood Flow (discard three)",
    summary="Three same-suit tiles leave play; 10-tile hands; winners stay to the end.",
    after_win=AfterWin.STAY,
    rules=(Openings((Opening.DISCARD_THREE, Opening.VOID)), VoidSuit()),
)
