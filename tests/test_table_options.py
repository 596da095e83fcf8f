"""One table-options mechanism: a preset declares its options, a table's choices are one dict,
and `/mahjong create`, `play`, `simulate`, `score` and the stored table read it; tables stored
before it (a `min_fan` and a list `table_options`) still load."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from bot.runtime.errors import TableError
from bot.runtime.manager import Runtime
from bot.runtime.timers import ManualTimers
from data import Phase, SeatRow, Store, TableOptions
from engine.formats.score_request import score_request
from engine.options import (
    TableOption,
    choices_of,
    choose,
    from_stored,
    options_text,
    parse_choices,
    stored,
    unrated_choices,
)
from engine.presets import HKOS, PRESETS, Preset, find_preset
from engine.session import Session
from tests.game_presets import registered

FW2 = find_preset("hk-fw2")
HUBEI = find_preset("hubei-laizi")


def _at_length(preset: Preset, value: object) -> Preset:
    # the default leaves the preset as it is (the contract of an option's apply)
    return replace(preset, summary="length east" if value == "east" else HKOS.summary)


# a test preset with an option of words that a rated table may not change (as Riichi's length
# would be if only hanchan were ranked)
LENGTHY = replace(
    HKOS,
    id="test-lengthy",
    options=(TableOption("length", ("south", "east"), "south", _at_length, rated=False),),
)


@pytest.mark.parametrize("preset_id", sorted(PRESETS))
def test_a_registry_preset_at_its_defaults_is_itself(preset_id: str) -> None:
    preset = PRESETS[preset_id]
    assert choose(preset, {}) == preset and preset.chosen == ()
    assert choose(preset, {o.name: o.default for o in preset.options}) == preset


def test_the_options_of_hk_fw2_and_hubei_are_declared_once() -> None:
    assert {o.name: (o.values, o.default) for o in FW2.options} == {"min_fan": ((0, 1, 2, 3), 0)}
    assert choices_of(HUBEI) == {"green_white": False, "no_minimum": False}
    wider = choose(HUBEI, {"green_white": True, "no_minimum": True})
    assert len(wider.wall) == 120 and wider.min_fan == 0 and wider.id == HUBEI.id
    back = choose(wider, {"green_white": False, "no_minimum": False})
    assert back == HUBEI  # every option sets its fields from its value alone


def test_choices_in_any_order_make_the_same_table() -> None:
    one = choose(choose(HUBEI, {"no_minimum": True}), {"green_white": True})
    assert one == choose(HUBEI, {"green_white": True, "no_minimum": True})
    assert options_text(one) == "green_white, no_minimum"
    assert options_text(choose(FW2, {"min_fan": 2})) == "min_fan 2" and options_text(FW2) == ""


def test_choices_as_people_type_them() -> None:
    assert parse_choices(HUBEI, ["green_white", "no_minimum=off"]) == {
        "green_white": True,
        "no_minimum": False,
    }
    assert parse_choices(FW2, ["min_fan:2"]) == {"min_fan": 2}
    assert parse_choices(LENGTHY, ["length=east"]) == {"length": "east"}


@pytest.mark.parametrize(
    ("preset", "words", "message"),
    [
        (HUBEI, ["bells"], "has no table option 'bells'"),
        (FW2, ["min_fan=9"], "option min_fan takes 0, 1, 2, 3, not 9"),
        (FW2, ["min_fan"], "option min_fan takes 0, 1, 2, 3, not ''"),
        (LENGTHY, ["length=west"], "option length takes south, east, not west"),
        (HUBEI, ["green_white=maybe"], "takes off, on, not maybe"),
    ],
)
def test_a_bad_choice_is_refused_naming_it(preset: Preset, words: list[str], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        choose(preset, parse_choices(preset, words))


def test_a_value_of_the_wrong_kind_is_refused() -> None:
    with pytest.raises(ValueError, match="min_fan"):
        choose(FW2, {"min_fan": True})  # True is not 1 here
    with pytest.raises(ValueError, match="green_white"):
        choose(HUBEI, {"green_white": 1})


def test_the_stored_dict_and_the_old_forms_read_back_alike() -> None:
    fw2 = choose(FW2, {"min_fan": 2})
    assert stored(fw2) == {"options": {"min_fan": 2}} and stored(HKOS) == {}
    assert from_stored(FW2, json.loads(json.dumps(stored(fw2)))) == fw2
    assert from_stored(FW2, {"min_fan": 2}) == fw2  # as tables were stored before
    wider = choose(HUBEI, {"green_white": True, "no_minimum": True})
    assert from_stored(HUBEI, {"table_options": ["green_white", "no_minimum"]}) == wider
    assert from_stored(HUBEI, {"min_fan": 0}) == choose(HUBEI, {"no_minimum": True})


def test_a_session_stored_before_the_options_mechanism_loads() -> None:
    old = {  # Session.to_json of an hk-fw2 table at minimum 2 before this change
        "min_fan": 2, "preset": "hk-fw2", "seed": 5, "dealer": 1, "round_wind": 0,
        "dealer_changes": 1, "hand_number": 3, "points": [2100, 1900, 2000, 2000],
        "seat_count": 4,
    }  # fmt: skip
    session = Session.from_json(old)
    assert session.preset == choose(FW2, {"min_fan": 2}) and session.dealer == 1
    assert Session.from_json(session.to_json()) == session
    assert session.to_json()["options"] == {"min_fan": 2} and "min_fan" not in session.to_json()
    hubei_old = {
        "preset": "hubei-laizi", "seed": 5, "dealer": 2, "round_wind": 0, "dealer_changes": 0,
        "hand_number": 1, "points": [0, 0, 0], "seat_count": 3,
        "table_options": ["green_white"],
    }  # fmt: skip
    assert len(Session.from_json(hubei_old).preset.wall) == 120


async def test_a_table_stored_the_old_way_is_restored_with_its_options(store: Store) -> None:
    # stored_options of a hk-fw2 table at minimum 3 and a hubei table with both switches, as
    # bot/runtime/conversions.py wrote them before this change
    old_extras = {
        "hk-fw2": {"name": "", "invited": [], "min_fan": 3, "seat_count": 4, "level": "easy"},
        "hubei-laizi": {
            "name": "", "invited": [], "table_options": ["green_white", "no_minimum"],
            "seat_count": 4, "level": "easy",
        },
    }  # fmt: skip
    ids = {}
    for preset_id, extra in old_extras.items():
        extra = {**extra, "names": {"1": "Ann"}, "lobby_version": 0}
        ids[preset_id] = await store.create_table(
            preset_id, seats=[SeatRow(0, "1", True)], options=TableOptions(extra=extra)
        )
    runtime = Runtime(store, None, ManualTimers())
    assert await runtime.open() == []
    assert runtime.get(ids["hk-fw2"]).preset == choose(FW2, {"min_fan": 3})
    hubei = runtime.get(ids["hubei-laizi"]).preset
    assert hubei == choose(HUBEI, {"green_white": True, "no_minimum": True})


async def test_create_stores_one_dict_and_refuses_unrated_choices_on_rated_tables(
    store: Store,
) -> None:
    runtime = Runtime(store, None, ManualTimers())
    await runtime.open()
    table = await runtime.create_table(
        "hubei-laizi", creator_id="1", creator_name="Ann", table_options=["green_white"]
    )
    row = await store.table_row(table.id)
    assert row.options.extra["options"] == {"green_white": True, "no_minimum": False}
    assert "table_options" not in row.options.extra and row.phase is Phase.LOBBY
    fw2 = await runtime.create_table("hk-fw2", creator_id="2", creator_name="Bo", min_fan=1)
    assert fw2.preset.min_fan == 1
    assert (await store.table_row(fw2.id)).options.extra["options"] == {"min_fan": 1}
    with registered(LENGTHY):
        casual = await runtime.create_table(
            LENGTHY.id, creator_id="3", creator_name="Cy", table_options=["length=east"]
        )
        assert casual.preset.summary == "length east" and unrated_choices(casual.preset)
        with pytest.raises(TableError, match="a rated table plays length at its default"):
            await runtime.create_table(
                LENGTHY.id, creator_id="4", creator_name="Di", rated=True,
                time_control="standard", table_options=["length=east"],
            )  # fmt: skip
        rated = await runtime.create_table(
            LENGTHY.id, creator_id="5", creator_name="Ed", rated=True, time_control="standard"
        )
        assert rated.preset == LENGTHY


def test_score_reads_the_minimum_through_the_options() -> None:
    request = {"preset": "hk-fw2", "hand": "123m456p789s123s11z", "win": "1z", "min_fan": 3}
    answer = score_request(request)
    assert answer["valid"] is False and answer["reason"] == "below_minimum"
    assert score_request({**request, "min_fan": 0})["valid"] is True


async def test_the_rules_line_and_the_pictures_say_the_table_options(store: Store) -> None:
    from bot.discord.surface import table_surface
    from engine.i18n import worded

    runtime = Runtime(store, None, ManualTimers(), seed_source=lambda: 3)
    await runtime.open()
    table = await runtime.create_table(
        "hk-fw2", creator_id="1", creator_name="Ann", computers=3, min_fan=2
    )
    lobby = runtime.public_view(table.id)
    assert lobby.options_text == "min_fan 2"
    description = table_surface(lobby).embed.description  # type: ignore[union-attr]
    assert "Table options: min_fan 2" in str(description)
    await runtime.start_table(table.id, "1")
    view = runtime.public_view(table.id).table_view
    assert view is not None and worded(view.table_name, "en").endswith(" · min_fan 2")
    plain = await runtime.create_table("hk-fw2", creator_id="2", creator_name="Bo")
    assert runtime.public_view(plain.id).options_text == ""


def test_simulate_and_play_take_options_on_the_command_line(capsys) -> None:
    from bot.cli import _parser, main

    assert (
        main(["simulate", "--preset", "hubei-laizi", "--hands", "2", "--option", "green_white"])
        == 0
    )
    assert "hands: 2" in capsys.readouterr().out
    assert main(["simulate", "--preset", "hk-fw2", "--hands", "2", "--option", "min_fan=7"]) == 2
    assert "option min_fan takes 0, 1, 2, 3, not 7" in capsys.readouterr().err
    args = _parser().parse_args(["play", "--preset", "hubei-laizi", "--option", "no_minimum"])
    assert args.option == ["no_minimum"]


def test_the_rules_command_lists_a_preset_options() -> None:
    from bot.discord.cogs.reference import rules_embed

    fields = {f["name"]: f["value"] for f in rules_embed(HUBEI).to_dict()["fields"]}
    assert fields["Table options"] == (
        "`green_white`: off, on (default off)\n`no_minimum`: off, on (default off)"
    )
    zh = {f["name"]: f["value"] for f in rules_embed(FW2, "zh-CN").to_dict()["fields"]}
    assert zh["本桌选项"] == "`min_fan`：0, 1, 2, 3（默认 0）"
    assert "Table options" not in {f["name"] for f in rules_embed(HKOS).to_dict()["fields"]}
