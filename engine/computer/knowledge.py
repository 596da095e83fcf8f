"""The strong computer's knowledge as one table plays it.

A preset carries its family's knowledge by reference (`Preset.advice`, engine/advice.py's
`FamilyKnowledge`, written in each family's `advice.py`); a preset without any is played by the
easy computer. `knowledge_for_table(preset)` is the entry for one table: a family whose minimum is
a table option may tune its entry to it (hk-fw2's 0-3, hubei-laizi's `no_minimum`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.advice import FamilyKnowledge

if TYPE_CHECKING:
    from engine.preset import Preset


def knows(preset: Preset) -> bool:
    """Whether the strong computer has this preset's scoring family's values (others play as
    easy)."""
    return preset.advice is not None


# per family's knowledge (by identity: every preset of a family carries the same value) and
# minimum, the tuned entry: worked out once, not at every decision
_TABLES: dict[tuple[int, int], FamilyKnowledge] = {}


def knowledge_for_table(preset: Preset) -> FamilyKnowledge:
    """The family's knowledge as this table plays it (its minimum)."""
    know = preset.advice
    assert know is not None, f"{preset.id}: the strong computer has no knowledge of it"
    key = (id(know), preset.min_fan)
    found = _TABLES.get(key)
    if found is None:
        found = _TABLES[key] = know.tune(know, preset) if know.tune is not None else know
    return found
