"""What Riichi's own log format and protocol (engine/formats/tenhou6, engine/formats/mjai) read
of the family: its declared action kinds, the dora and riichi parts, and the hand limits. The
registry re-exports this module (`engine.presets.riichi_terms`): the formats' one door into the
family, so nothing outside engine/families/ imports from it but the registry."""

from __future__ import annotations

from engine.families.riichi.rules import NINE_TERMINALS, RIICHI, DoraPart, RiichiPart
from engine.families.riichi.sanma import NUKI
from engine.families.riichi.scoring import YAKUMAN_HAN, YAKUMAN_IDS, Limit, limit_of

__all__ = [
    "NINE_TERMINALS",
    "NUKI",
    "RIICHI",
    "YAKUMAN_HAN",
    "YAKUMAN_IDS",
    "DoraPart",
    "Limit",
    "RiichiPart",
    "limit_of",
]
