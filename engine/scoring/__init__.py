"""Scoring per preset family: each family module exposes `score(preset, ctx) -> Score`."""

from __future__ import annotations

from importlib import import_module

from engine.presets import Preset
from engine.scoring.base import Score, WinContext


def score(preset: Preset, ctx: WinContext) -> Score:
    """Score a finished hand under its preset's family rules."""
    module = import_module(f"engine.scoring.{preset.family}")
    return module.score(preset, ctx)
