"""A test-only preset whose games end: Hong Kong Old Style's hands, a game of a few hands with
placements by seat order, a final score with uma, and ratings that settle per finished game.

Not a public preset; `registered` puts it in the registry for the runtime (which finds a
table's preset by id on a restore) while a test runs.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace

from engine.game import FinalScore, GameRule, Ties
from engine.presets import HKOS, PRESETS, Preset

SHORT_GAME_RULE = GameRule(
    hands=2,
    ties=Ties.SEAT_ORDER,
    score=FinalScore(base=0, per=1, uma=(20, 10, -10, -20)),
    rates_per_game=True,
)

SHORT_GAME = replace(
    HKOS,
    id="test-short-game",
    name="Short game",
    summary="Two hands of Hong Kong Old Style, then final standings.",
    game=SHORT_GAME_RULE,
)


@contextmanager
def registered(preset: Preset = SHORT_GAME) -> Iterator[Preset]:
    """`preset` findable by id while the block runs (a preset already registered under its id,
    as the Riichi presets once playable, is put back after)."""
    before = PRESETS.get(preset.id)
    PRESETS[preset.id] = preset
    try:
        yield preset
    finally:
        if before is None:
            del PRESETS[preset.id]
        else:
            PRESETS[preset.id] = before
