"""The registry of rule presets (RULES.md): every family's presets by id, one way.

Each family writes its presets in engine/families/<family>/presets.py (a `Preset`, engine/preset.py,
carrying its rule components, scoring family and computer knowledge by reference); this module
imports them and is the only module outside engine/families/ that does.

>>> find_preset("hkos-3-v1").hand_size
13
"""

from __future__ import annotations

import copyreg
import functools
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from engine.families.classical.presets import CLASSICAL
from engine.families.hongkong.presets import HK_3FAN, HK_FW2, HKOS
from engine.families.hubei.presets import HUBEI
from engine.families.riichi import terms as riichi_terms
from engine.families.riichi.presets import RIICHI, RIICHI_MAJSOUL, SANMA
from engine.families.selfdraw.presets import GUANGDONG, REDWILD
from engine.families.sichuan.presets import (
    BLOODFLOW_DISCARD3,
    BLOODFLOW_SWAP3,
    SICHUAN_BB,
    SICHUAN_SWAP3,
)
from engine.families.taiwan.presets import TW_16
from engine.i18n import text
from engine.kinds import AfterWin, ConcealedRob, MultiWin, Opening, Rotation
from engine.options import (
    OptionValue,
    choose,
    min_fan_choices,
    with_min_fan,
)
from engine.preset import Preset

# read from here too: the Preset value, the kinds a preset names (engine.kinds), the minimum's
# helpers (engine.options), the first preset, and what Riichi's log formats read of the family
__all__ = [
    "HKOS",
    "AfterWin",
    "ConcealedRob",
    "MultiWin",
    "Opening",
    "Preset",
    "Rotation",
    "min_fan_choices",
    "riichi_terms",
    "with_min_fan",
]


class UnknownPresetError(ValueError):
    """A preset id that no preset has."""


@dataclass(frozen=True, slots=True)
class TimeControl:
    """Seconds per decision plus a reserve bank that resets each hand (0 base = untimed)."""

    name: str
    base: int
    reserve: int = 0
    deal_limit: int = 0  # seconds for the whole deal (seed-004 table clock), 0 = none
    computer_on_timeout: bool = False  # the computer player makes a timed-out decision

    @property
    def on_timeout_key(self) -> str:
        """The catalogue key that tells a player what this clock does when it runs out."""
        return (
            "bot.clock.on_timeout_computer" if self.computer_on_timeout else "bot.clock.on_timeout"
        )

    @property
    def untimed(self) -> bool:
        return self.base == 0


TIME_CONTROLS: dict[str, TimeControl] = {
    tc.name: tc
    for tc in (
        TimeControl("bullet", 2, 5),
        TimeControl("blitz", 3, 10),
        TimeControl("standard", 5, 20),
        TimeControl("relaxed", 15, 60),
        TimeControl("classic", 60, 0),
        TimeControl("untimed", 0, 0),
        TimeControl("table", 40, 0, deal_limit=300, computer_on_timeout=True),
    )
}


PRESETS: dict[str, Preset] = {
    p.id: p
    for p in (
        HKOS,
        SICHUAN_BB,  # the other Sichuan tables change its openings and what a win does
        SICHUAN_SWAP3,
        BLOODFLOW_SWAP3,
        BLOODFLOW_DISCARD3,
        TW_16,
        HK_3FAN,
        HK_FW2,
        HUBEI,
        GUANGDONG,
        REDWILD,
        RIICHI,
        RIICHI_MAJSOUL,
        SANMA,
        CLASSICAL,
    )
}


def with_options(preset: Preset, options: Iterable[str]) -> Preset:
    """The preset with these switches on (hubei-laizi: `green_white` adds green and white
    dragons, 120 tiles; `no_minimum` lifts the 3-fan minimum). The id stays."""
    return choose(preset, dict.fromkeys(options, True))


def table_options(preset: Preset) -> tuple[str, ...]:
    """The switches this preset value plays with on, sorted."""
    return tuple(name for name, value in preset.chosen if value is True)


@functools.cache
def preset_chosen(preset_id: str, chosen: tuple[tuple[str, OptionValue], ...]) -> Preset:
    """The preset with this id as a table with these choices plays it (how a pickled preset
    is made again: `Preset.__reduce__`)."""
    return choose(find_preset(preset_id), dict(chosen)) if chosen else find_preset(preset_id)


def _pickled(preset: Preset) -> tuple[Callable[..., Preset], tuple[object, ...]]:
    # a preset carries modules, so it is pickled as what makes it: its id and its table's
    # choices (a computer's view crosses to a decision worker, bot/runtime/decisions.py); the
    # registry says so, as it is what makes a preset again
    return preset_chosen, (preset.id, preset.chosen)


copyreg.pickle(Preset, _pickled)


def find_preset(preset_id: str) -> Preset:
    """The preset with this id, or a clear error listing the ones that exist."""
    try:
        return PRESETS[preset_id]
    except KeyError:
        known = ", ".join(PRESETS)
        raise UnknownPresetError(
            text("fixups.preset.unknown", preset=repr(preset_id), known=known)
        ) from None
