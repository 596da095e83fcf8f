"""Presets are plain values: hashable, their shape rules one frozen value, Sichuan by replace."""

from __future__ import annotations

from dataclasses import fields, replace

import pytest

from engine.families.hubei.presets import with_fixed_wild
from engine.hand import HandState
from engine.options import choose
from engine.presets import (
    PRESETS,
    Preset,
    find_preset,
    table_options,
    with_min_fan,
    with_options,
)
from engine.rules import Openings
from engine.shapes import SETS_AND_PAIR, ShapeRules
from engine.tiles import counts_of, parse_tile, parse_tiles

SEVEN_PAIRS = counts_of(parse_tiles("1122m3344p5566s77z"))
ORPHANS = counts_of(parse_tiles("19m19p19s12345677z"))

# RULES.md, per preset: seven pairs, thirteen orphans, four of a kind as two of the pairs
SHAPES = {
    "hkos-3-v1": ShapeRules(thirteen_orphans=True),
    "hk-3fan": ShapeRules(seven_pairs=True, thirteen_orphans=True, kong_as_two_pairs=True),
    "hk-fw2": ShapeRules(seven_pairs=True, thirteen_orphans=True),
    "tw-16": SETS_AND_PAIR,
    "sichuan-bb": ShapeRules(seven_pairs=True, kong_as_two_pairs=True),
    "sichuan-swap3": ShapeRules(seven_pairs=True, kong_as_two_pairs=True),
    "bloodflow-swap3": ShapeRules(seven_pairs=True, kong_as_two_pairs=True),
    "bloodflow-discard3": ShapeRules(seven_pairs=True, kong_as_two_pairs=True),
    "guangdong": ShapeRules(seven_pairs=True, thirteen_orphans=True, kong_as_two_pairs=True),
    "redwild": ShapeRules(seven_pairs=True, kong_as_two_pairs=True),
    "hubei-laizi": SETS_AND_PAIR,
    # seven pairs without a four of a kind as two pairs, thirteen orphans
    "riichi": ShapeRules(seven_pairs=True, thirteen_orphans=True),
    "riichi-majsoul": ShapeRules(seven_pairs=True, thirteen_orphans=True),
    "sanma": ShapeRules(seven_pairs=True, thirteen_orphans=True),
    "chinese-classical": ShapeRules(thirteen_orphans=True),  # no seven pairs
}


def test_every_preset_carries_its_shape_rules_as_one_value() -> None:
    assert {preset_id: preset.shape_rules for preset_id, preset in PRESETS.items()} == SHAPES


@pytest.mark.parametrize("preset_id", sorted(SHAPES))
def test_a_hand_wins_by_the_shape_rules_of_its_preset(preset_id: str) -> None:
    preset = find_preset(preset_id)
    state = HandState(preset, 1)
    assert state.is_win_counts(list(SEVEN_PAIRS)) is preset.shape_rules.seven_pairs
    assert state.is_win_counts(list(ORPHANS)) is preset.shape_rules.thirteen_orphans


def test_a_changed_preset_value_plays_its_own_shapes_under_the_same_id() -> None:
    """Nothing remembers shape switches by preset id: a replaced value keeps its own."""
    hkos = find_preset("hkos-3-v1")
    assert not HandState(hkos, 1).is_win_counts(list(SEVEN_PAIRS))
    pairs = replace(hkos, shape_rules=ShapeRules(seven_pairs=True))
    state = HandState(pairs, 1)
    assert state.preset.id == hkos.id
    assert state.is_win_counts(list(SEVEN_PAIRS))
    assert state.waits(parse_tiles("1122m3344p5566s7z")) == parse_tiles("7z")


def test_shape_rules_are_frozen() -> None:
    rules = ShapeRules()
    with pytest.raises(AttributeError):
        rules.seven_pairs = True  # type: ignore[misc]


def test_presets_are_hashable_values() -> None:
    presets = list(PRESETS.values())
    assert len(set(presets)) == len(presets)
    hubei = find_preset("hubei-laizi")
    chosen = with_options(hubei, ["no_minimum", "green_white"])
    again = with_options(with_options(hubei, ["green_white"]), ["no_minimum"])
    assert chosen == again and hash(chosen) == hash(again) and chosen != hubei
    assert table_options(chosen) == ("green_white", "no_minimum")
    # a table's choice is part of the value: the same choice made either way is the same key
    assert {with_min_fan(find_preset("hk-fw2"), 2): "a table"}[
        choose(find_preset("hk-fw2"), {"min_fan": 2})
    ] == "a table"


def test_every_preset_field_is_an_immutable_value() -> None:
    for preset in PRESETS.values():
        for field in fields(Preset):
            value = getattr(preset, field.name)
            hash(value)  # a dict or list here would raise TypeError
            assert not isinstance(value, list | dict | set), field.name


def test_the_sichuan_tables_are_blood_battle_with_other_openings_and_after_win() -> None:
    battle = find_preset("sichuan-bb")
    allowed = {"id", "name", "summary", "rules", "after_win"}
    for preset_id in ("sichuan-swap3", "bloodflow-swap3", "bloodflow-discard3"):
        preset = find_preset(preset_id)
        differ = {
            f.name for f in fields(Preset) if getattr(preset, f.name) != getattr(battle, f.name)
        }
        assert differ <= allowed, (preset_id, differ - allowed)
        # of its components only the openings differ
        assert [r for r in preset.rules if not isinstance(r, Openings)] == [
            r for r in battle.rules if not isinstance(r, Openings)
        ]
    assert find_preset("bloodflow-discard3").sets == 3 and battle.sets == 4


def test_a_fixed_wild_is_the_wild_a_hubei_hand_shows() -> None:
    fixed = with_fixed_wild(find_preset("hubei-laizi"), parse_tile("5p"))
    for seed in (1, 2, 3):
        assert HandState(fixed, seed).wild_kinds == frozenset({parse_tile("5p")})
