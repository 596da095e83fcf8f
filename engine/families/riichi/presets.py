"""The four-player Riichi presets (RULES.md "Riichi"): `riichi` (Tenhou) and `riichi-majsoul`.

engine/presets.py registers them.

>>> from engine.presets import PRESETS
>>> PRESETS["riichi"] is RIICHI
True
>>> PRESETS["sanma"] is SANMA, SANMA.seat_counts
(True, (3,))
"""

from __future__ import annotations

from dataclasses import replace

from engine.families.riichi import advice
from engine.families.riichi import scoring as riichi
from engine.families.riichi.rules import (
    Dora,
    Furiten,
    KanDora,
    KongLimit,
    Kuikae,
    RiichiAborts,
    RiichiDeclaration,
    RiichiPayments,
)
from engine.families.riichi.sanma import Nuki
from engine.families.riichi.score_request import score_riichi
from engine.families.riichi.scoring import RIICHI_RULES
from engine.game import FinalScore, GameRule, RepeatCount, Rounding, Ties
from engine.kinds import ConcealedRob, MultiWin, Rotation
from engine.options import OptionValue, TableOption
from engine.preset import Preset
from engine.shapes import ShapeRules
from engine.tiles import COPIES, NUM_KINDS, parse_tiles, with_red_fives

# 136 tiles, one five of each suit red (0m 0p 0s): the hand loop counts kinds and keeps the
# physical tiles, the scoring family counts the red ones as aka dora
_WALL = with_red_fives((t for t in range(NUM_KINDS) for _ in range(COPIES)), parse_tiles("0m0p0s"))

ROUNDS = {"south": 2, "east": 1}  # hanchan (East and South), tonpuu (East only)


def _length(preset: Preset, value: OptionValue) -> Preset:
    return replace(preset, game=replace(preset.game, rounds=ROUNDS[str(value)]))


LENGTH = TableOption("length", tuple(ROUNDS), "south", _length)

_TENHOU_GAME = GameRule(
    rounds=ROUNDS["south"],
    target=30000,
    extension=1,
    bust_below=0,
    leader_stop=True,
    ties=Ties.SEAT_ORDER,
    score=FinalScore(30000, 1000, (20, 10, -10, -20), round_from=600, first_takes_rest=True),
    rates_per_game=True,
    repeats=RepeatCount(),  # honba: +1 after a dealer keep or a hand nobody won, else back to 0
    pot_to_leader=True,  # the pot left when the game ends goes to the leader
)
_MAJSOUL_SCORE = FinalScore(25000, 1000, (15, 5, -5, -15), rounding=Rounding.TENTHS)

RIICHI = Preset(
    id="riichi",
    name="Riichi (Tenhou rules)",
    summary="136 tiles, yaku to win, riichi, dora, furiten, honba and the pot; Tenhou's ranked "
    "rules.",
    family="riichi",
    wall=_WALL,
    scoring=riichi,
    advice=advice.KNOWLEDGE,
    score_reader=score_riichi,  # the `score` request's Riichi fields
    multi_win=MultiWin.MULTIPLE,
    winners_abort=3,
    shape_rules=ShapeRules(seven_pairs=True, thirteen_orphans=True),
    concealed_rob=ConcealedRob.NEVER,
    unit="han",
    fan_cap=13,
    time_control="standard",
    rated_time_control="standard",
    start_points=25000,
    dead_wall=14,
    replacements=4,
    rotation=Rotation.DEALER_READY,
    options=(LENGTH,),
    game=_TENHOU_GAME,
    vocabulary="riichi",  # Chi, Pon, Kan, Ron, Tsumo (catalogue keys bot.call.win.riichi, ...)
    rules=(
        Dora(KanDora.BEFORE_DISCARD),
        KongLimit(),
        Kuikae(),
        RiichiDeclaration(),
        Furiten(),
        RiichiAborts(),
        RiichiPayments(),
    ),
)

RIICHI_MAJSOUL = replace(
    RIICHI,
    id="riichi-majsoul",
    name="Riichi (Mahjong Soul rules)",
    summary="Riichi with Mahjong Soul's differences: triple ron pays, kan dora after the "
    "discard, thirteen orphans robs a concealed kong.",
    winners_abort=0,
    concealed_rob=ConcealedRob.THIRTEEN_ORPHANS,
    game=replace(_TENHOU_GAME, score=_MAJSOUL_SCORE),
    rules=(Dora(KanDora.AFTER_DISCARD), *RIICHI.rules[1:]),
)

# Tenhou's three-player game: start 35,000, return 40,000 (the target), uma +20/0/-20
_SANMA_GAME = replace(
    _TENHOU_GAME,
    target=40000,
    score=FinalScore(40000, 1000, (20, 0, -20), round_from=600, first_takes_rest=True),
)

SANMA = replace(
    RIICHI,
    id="sanma",
    name="Sanma (Tenhou three-player rules)",
    summary="Three-player Riichi: 108 tiles without the characters 2 to 8, no chi, north set "
    "aside as nuki dora, tsumo loss; Tenhou's ranked rules.",
    # 1m 9m, all pins and sous, the honours; red 0p and 0s
    wall=RIICHI_RULES["sanma"].wall,
    chow=False,
    seat_counts=(3,),
    start_points=35000,
    # a dead wall of 14: its 10 indicators set apart at the deal, 4 replacement tiles, and as
    # many more as the live wall's end moves into it, 8 replacements in all (kongs and nuki)
    dead_wall=14,
    indicators=10,
    replacements=8,
    game=_SANMA_GAME,
    # Tenhou's rules without the four winds abort (three seats), and nuki
    rules=(
        *(
            RiichiAborts(four_winds=False) if isinstance(r, RiichiAborts) else r
            for r in RIICHI.rules
        ),
        Nuki(),
    ),
)
