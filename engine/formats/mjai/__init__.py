"""The mjai protocol (Riichi's AI world: Mortal, akochan, the mjai.app arena, mjai-reviewer):
tile names and events (engine.formats.mjai.tiles), a finished game of ours written as an mjai
event log (engine.formats.mjai.export), and one seat's hand rebuilt from the events it is sent and
decided by our computers (engine.formats.mjai.seat)."""

from __future__ import annotations

from engine.i18n import Text, text

MJAI_PRESETS = ("riichi", "riichi-majsoul")  # mjai plays the four-seat Riichi game


def refusal(preset_id: str, engine: str | None = None) -> Text:
    """The one line refusing an mjai bot (`engine`: an operator's engine level) at a preset
    mjai does not play."""
    presets = ", ".join(MJAI_PRESETS)
    if engine is None:
        return text("fixups.mjai.preset", preset=preset_id, presets=presets)
    return text("fixups.mjai.engine_preset", engine=engine, preset=preset_id, presets=presets)
