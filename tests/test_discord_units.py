"""The Discord layer's pure parts: custom ids, decision versions, hand controls, the public
table surface, and the edit coalescer."""

from __future__ import annotations

import asyncio
import itertools
import json
import re

import discord
import pytest

from bot.discord import ids
from bot.discord.coalesce import Coalescer
from bot.discord.components import (
    DYNAMIC_ITEMS,
    ActButton,
    ActSelect,
    CallButton,
    TableButton,
    TilesSelect,
)
from bot.discord.surface import available_calls, hand_controls, hand_surface, table_surface
from bot.runtime import LiveTable, Seat
from data import Phase, TableOptions
from engine.actions import Action, ActionKind
from engine.ai import choose_action
from engine.hand import HandState
from engine.hand import Phase as HandPhase
from engine.presets import find_preset
from engine.session import Session
from engine.tiles import parse_tiles, tile_name

HKOS = find_preset("hkos-3-v1")
TILE_TEXT = re.compile(r"(?<![A-Za-z0-9])[1-9]+[mpszf](?![A-Za-z0-9])")
CLAIM_HANDS = [  # seat 0 discards 5m: seat 1 may chow it, seat 2 may pung it
    "234p678p234s678s3z5m",
    "4m6m1p1p3s3s5s5s7s7s9s9s1z",
    "5m5m8m8m3p3p5p5p9p9p1s1s4z",
    "1m2m3m7m7m9m9m4s4s7z7z6z6z",
]


def components(view: discord.ui.View) -> list[dict]:
    return view.to_components()


def flat(view: discord.ui.View) -> list[dict]:
    return [item for row in components(view) for item in row["components"]]


def live_table(hand: HandState, humans: int = 4) -> LiveTable:
    session = Session(hand.preset, 1)
    seats: list[Seat | None] = [
        Seat(str(100 + p) if p < humans else f"cpu:{p}", f"P{p}") for p in range(4)
    ]
    return LiveTable(
        7, hand.preset, TableOptions(), 1, 2, "", seats, Phase.PLAYING, session, hand, hand_id=1
    )


# ------------------------------------------------------------------ ids


def test_every_id_matches_its_template_and_stays_short() -> None:
    big = 10**18 - 1
    stamp = ids.Stamp(big, big)
    cases = [
        (TableButton, ids.table_id(big, "ready", stamp)),
        (CallButton, ids.call_id(big, stamp, "pung")),
        (ActButton, ids.act_id(big, stamp, 3, "concealed_kong", "9s")),
        (ActButton, ids.act_id(big, stamp, 3, "chow", "789m")),
        (ActSelect, ids.pick_id(big, stamp, 2)),
        (TilesSelect, ids.tiles_id(big, stamp, 1, "remove")),
    ]
    for item, custom_id in cases:
        assert len(custom_id) < 100
        matching = [
            c for c in DYNAMIC_ITEMS if c.__discord_ui_compiled_template__.fullmatch(custom_id)
        ]
        assert matching == [item], custom_id
    with pytest.raises(ValueError):
        ids.call_id(1, stamp, "steal")


def test_decision_version_stays_put_through_one_claim_window() -> None:
    hand = HandState.arranged(HKOS, CLAIM_HANDS)
    assert ids.decision_version(hand) == 0
    hand.apply(Action.parse("0 discard 5m"))
    assert hand.phase is HandPhase.CLAIMS and sorted(hand.seats_to_act()) == [1, 2]
    opened = ids.decision_version(hand)
    assert opened == hand.version == 1
    hand.apply(Action.parse("2 pass"))
    assert hand.version == 2 and ids.decision_version(hand) == opened  # seat 1 may still chow
    hand.apply(Action.parse("1 pass"))
    assert hand.phase is HandPhase.TURN and ids.decision_version(hand) == hand.version == 3
    assert ids.decision_version(None) == 0


# ------------------------------------------------------------------ hand controls


def test_a_turn_gets_a_button_per_tile_with_the_drawn_tile_marked() -> None:
    hand = HandState.arranged(HKOS, CLAIM_HANDS)
    actions = hand.legal_actions(0)
    view = hand_controls(7, ids.Stamp(1, 0), actions, sorted(hand.hands[0]), drawn=hand.drawn)
    buttons = flat(view)
    assert [b["label"] for b in buttons] == sorted(
        {tile_name(t) for t in hand.hands[0]}, key=lambda n: parse_tiles(n)[0]
    )
    assert all(b["type"] == 2 for b in buttons)
    drawn = next(b for b in buttons if b["label"] == "5m")
    assert drawn["style"] == discord.ButtonStyle.primary.value
    assert drawn["custom_id"] == "mj:7:act:1.0:0:discard:5m"


def test_too_many_discards_for_buttons_become_a_menu() -> None:
    # a long hand (e.g. 16 tiles + 1 of Taiwanese rules) with 22 different tiles to discard
    tiles = parse_tiles("123456789m123456789p1234z")[:22]
    actions = [Action(1, ActionKind.DISCARD, (t,)) for t in tiles]
    actions += [Action(1, ActionKind.WIN), Action(1, ActionKind.CONCEALED_KONG, (tiles[0],))]
    view = hand_controls(7, ids.Stamp(2, 40), actions, tiles)
    rows = components(view)
    assert len(rows) <= 5 and sum(len(r["components"]) for r in rows) <= 25
    menu = rows[0]["components"][0]
    assert menu["type"] == 3 and menu["custom_id"] == "mj:7:pick:2.40:1"
    assert len(menu["options"]) == 22 and menu["options"][0]["value"] == "discard 1m"
    assert [b["label"] for b in rows[1]["components"]] == ["Win (self draw)", "Kong 1m"]

    # up to four rows of discards and a row of others still fit as buttons
    view = hand_controls(7, ids.Stamp(2, 40), actions[:20] + actions[22:], tiles)
    assert all(item["type"] == 2 for item in flat(view)) and len(components(view)) == 5


def test_openings_choose_a_suit_or_three_tiles() -> None:
    swap = find_preset("sichuan-swap3")
    hand = HandState(swap, seed=5)
    assert hand.phase is HandPhase.OPENING
    actions = hand.legal_actions(2)
    concealed = sorted(hand.hands[2])
    (menu,) = flat(hand_controls(7, ids.Stamp(1, 0), actions, concealed))
    assert menu["custom_id"] == "mj:7:tiles:1.0:2:swap"
    assert menu["min_values"] == menu["max_values"] == 3
    assert len(menu["options"]) == len(concealed) == 13
    assert len({o["value"] for o in menu["options"]}) == 13  # repeated tiles, distinct values

    voids = [Action(2, ActionKind.VOID, suit=s) for s in "mps"]
    labels = [b["label"] for b in flat(hand_controls(7, ids.Stamp(1, 3), voids, concealed))]
    assert labels == ["Void: characters", "Void: dots", "Void: bamboo"]


# ------------------------------------------------------------------ the public surface


def public_text(surface: object) -> str:
    embed = surface.embed.to_dict() if surface.embed else {}  # type: ignore[attr-defined]
    view = surface.view  # type: ignore[attr-defined]
    return json.dumps([surface.content, embed, components(view) if view else []])  # type: ignore[attr-defined]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_table_message_never_names_a_tile(seed: int) -> None:
    hand = HandState(HKOS, seed=seed)
    table = live_table(hand, humans=2)
    seen_calls: set[str] = set()
    while not hand.is_over:
        surface = table_surface(table, "general")
        text = public_text(surface)
        assert not TILE_TEXT.search(text), text
        assert surface.picture is not None and all(s.revealed == () for s in surface.picture.seats)
        seen_calls.update(available_calls(table))
        seat = hand.seats_to_act()[0]
        hand.apply(choose_action(hand, seat))
    assert "pass" in seen_calls
    private = hand_surface(table, 0, "general")
    assert private.picture is not None and private.view is None


def test_call_buttons_only_for_what_a_person_can_call() -> None:
    hand = HandState.arranged(HKOS, CLAIM_HANDS)
    hand.apply(Action.parse("0 discard 5m"))
    table = live_table(hand)
    assert available_calls(table) == ["chow", "pung", "pass"]
    labels = [b["label"] for b in flat(table_surface(table).view)]  # type: ignore[arg-type]
    assert labels == ["Chow", "Pung", "Pass", "My hand"]
    # seat 2 (the only pung) is a computer: its call is not offered as a button
    table.seats[2] = Seat("cpu:1", "Computer 1")
    assert available_calls(table) == ["chow", "pass"]


# ------------------------------------------------------------------ coalescing


async def test_the_coalescer_runs_the_latest_update_at_most_once_an_interval() -> None:
    loop = asyncio.get_running_loop()
    coalescer = Coalescer(interval=0.1)
    runs: list[tuple[str, float]] = []

    def update(name: str):
        async def run() -> None:
            runs.append((name, loop.time()))

        return run

    for index in range(20):
        coalescer.request("table", update(f"state {index}"))
        await asyncio.sleep(0.01)
    await coalescer.wait("table")
    names = [name for name, _ in runs]
    assert names[0] == "state 0" and names[-1] == "state 19"  # first at once, latest last
    assert len(runs) <= 4  # 20 changes in ~0.2 s
    gaps = [b - a for (_, a), (_, b) in itertools.pairwise(runs)]
    assert all(gap >= 0.095 for gap in gaps), gaps

    coalescer.request("other", update("late"))
    await coalescer.drain()
    assert runs[-1][0] == "late"
    coalescer.request("other", update("after close"))
    assert not coalescer.busy and runs[-1][0] == "late"
