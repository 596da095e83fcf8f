"""The Chinese Classical preset (RULES.md `chinese-classical`): every hand scored, East pays and
receives double, the losers settle among themselves; a match of four rounds from 2,000 each."""

from __future__ import annotations

from dataclasses import replace

from engine.families.classical import advice, scoring
from engine.families.classical.rules import EveryHand
from engine.families.classical.score_request import score_classical
from engine.game import FinalScore, GameRule, RepeatCount
from engine.kinds import ConcealedRob, MultiWin, Rotation
from engine.options import OptionValue, TableOption
from engine.preset import THIRTEEN_ORPHANS, Preset, tiles_144

START_POINTS = 2000
ROUNDS = {"full": 4, "east": 1}  # the four prevailing winds, or East only (casual)


def _length(preset: Preset, value: OptionValue) -> Preset:
    return replace(preset, game=replace(preset.game, rounds=ROUNDS[str(value)]))


def _east_nine(preset: Preset, value: OptionValue) -> Preset:
    return preset  # scoring reads the choice (`Preset.chosen`)


LENGTH = TableOption("length", tuple(ROUNDS), "full", _length, rated=False)
EAST_NINE = TableOption(scoring.EAST_NINE, (False, True), True, _east_nine)

CLASSICAL = Preset(
    id="chinese-classical",
    name="Chinese Classical",
    summary="144 tiles, every hand scored (points and doubles, limit 1,000), East pays and "
    "receives double, the losers settle; four rounds from 2,000.",
    family="classical",
    wall=tiles_144(),
    scoring=scoring,
    advice=advice.KNOWLEDGE,
    score_reader=score_classical,
    multi_win=MultiWin.HEAD_BUMP,
    shape_rules=THIRTEEN_ORPHANS,
    concealed_rob=ConcealedRob.THIRTEEN_ORPHANS,
    rotation=Rotation.HONG_KONG,  # East keeps the deal on his win and on a draw
    fan_cap=scoring.LIMIT,  # each hand's score, in points
    unit="points",
    time_control="standard",
    rated_time_control="standard",
    start_points=START_POINTS,
    # 16 tiles for kongs only, never replenished; a flower is replaced from the live wall
    dead_wall=16,
    replacements=16,
    dead_wall_replenished=False,
    rules=(EveryHand(),),
    options=(LENGTH, EAST_NINE),
    game=GameRule(
        rounds=ROUNDS["full"],
        rates_per_game=True,
        # placed by final points; the score said beside them is what the match won or lost
        score=FinalScore(base=START_POINTS),
        # East's run of hands kept (`east_nine` reads it); the deal passing sets it back to 0
        repeats=RepeatCount(after_keep=True, after_no_win=False),
    ),
)
