"""The Discord layer's pure parts: custom ids, decision versions, hand controls, the public
table surface, and the edit coalescer."""

from __future__ import annotations

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
from bot.discord.surface import hand_controls, hand_surface, table_surface
from bot.runtime import LiveTable, Seat
from bot.runtime.snapshots import private_snapshot, public_moment, public_snapshot
from data import Phase, TableOptions
from engine.actions import Action, ActionKind
from engine.computer.easy import choose_action
from engine.events import Phase as HandPhase
from engine.hand import HandState
from engine.presets import find_preset
from engine.session import Session
from engine.tiles import parse_tiles, tile_name
from tests.clocks import SteppedClock, settle

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


def test_decision_version_and_moment_stay_put_through_one_claim_window() -> None:
    hand = HandState.arranged(HKOS, CLAIM_HANDS)
    assert hand.decision_version == 0
    hand.apply(Action.parse("0 discard 5m"))
    assert hand.phase is HandPhase.CLAIMS and sorted(hand.seats_to_act()) == [1, 2]
    opened, moment = hand.decision_version, public_moment(hand)
    assert opened == hand.version == 1
    hand.apply(Action.parse("2 pass"))
    assert hand.version == 2 and hand.decision_version == opened  # seat 1 may still chow
    assert public_moment(hand) == moment  # answers in a window are not public moments
    hand.apply(Action.parse("1 pass"))
    assert hand.phase is HandPhase.TURN and hand.decision_version == hand.version == 3
    assert public_moment(hand) > moment


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
        surface = table_surface(public_snapshot(table), "general")
        text = public_text(surface)
        assert not TILE_TEXT.search(text), text
        assert surface.picture is not None and all(s.revealed == () for s in surface.picture.seats)
        seen_calls.update(public_snapshot(table).calls)
        seat = hand.seats_to_act()[0]
        hand.apply(choose_action(hand, seat))
    assert "pass" in seen_calls
    private = hand_surface(private_snapshot(table, 0), "general")
    assert private.picture is not None and private.view is None


def test_every_claim_window_shows_the_same_call_buttons_whoever_can_call() -> None:
    # the old buttons were the union of what people could call: a Pung button told the table
    # that someone held a pair of the tile (RULES.md "Hidden information stays hidden")
    hand = HandState.arranged(HKOS, CLAIM_HANDS)
    hand.apply(Action.parse("0 discard 5m"))
    table = live_table(hand)
    everything = ("chow", "pung", "kong", "win", "pass")
    assert public_snapshot(table).calls == everything
    labels = [b["label"] for b in flat(table_surface(public_snapshot(table)).view)]  # type: ignore[arg-type]
    assert labels == ["Chow", "Pung", "Kong", "Win", "Pass", "My hand"]
    # seat 2 (the only pung) is a computer: the buttons stay the same
    table.seats[2] = Seat("cpu:1", "Computer 1")
    assert public_snapshot(table).calls == everything
    # they do not change as people answer
    hand.apply(Action.parse("2 pass"))
    assert hand.phase is HandPhase.CLAIMS and public_snapshot(table).calls == everything
    # a preset without chows has no Chow button; outside a window there are none
    hand.apply(Action.parse("1 pass"))
    assert public_snapshot(table).calls == ()
    sichuan = HandState(find_preset("sichuan-bb"), seed=3)
    while sichuan.phase is not HandPhase.CLAIMS:
        sichuan.apply(choose_action(sichuan, sichuan.seats_to_act()[0]))
    assert public_snapshot(live_table(sichuan)).calls == ("pung", "kong", "win", "pass")


# ------------------------------------------------------------------ coalescing


async def test_the_coalescer_runs_the_latest_update_at_most_once_an_interval() -> None:
    clock = SteppedClock()
    coalescer = Coalescer(interval=10, clock=clock, sleep=clock.sleep)
    runs: list[tuple[str, float]] = []

    def update(name: str):
        async def run() -> None:
            runs.append((name, clock.now))

        return run

    for index in range(20):  # a change every second, for 20 seconds
        coalescer.request("table", update(f"state {index}"))
        await settle()
        await clock.advance(1)
    await coalescer.wait("table")
    # the first at once; then, once an interval, the latest of the changes made meanwhile
    assert runs == [("state 0", 0), ("state 9", 10), ("state 19", 20)]

    coalescer.request("other", update("late"))
    await coalescer.drain()
    assert runs[-1] == ("late", 20)
    coalescer.request("other", update("after close"))
    assert not coalescer.busy and runs[-1][0] == "late"


def test_a_seventeen_tile_tw16_turn_offers_every_discard_within_discords_limits() -> None:
    # the dealer's 17 dealt tiles are 17 different kinds: the most discards a turn can have
    hands = [
        "123456789m12345678p",
        "123456789s1122z99p3z",
        "123456789s3344z9p55z",
        "123456789m666z777z9p",
    ]
    hand = HandState.arranged(find_preset("tw-16"), hands)
    private = private_snapshot(live_table(hand), 0)
    surface = hand_surface(private, "general")
    assert surface.view is not None and surface.picture is not None
    rows = components(surface.view)
    assert len(rows) <= 5 and sum(len(r["components"]) for r in rows) <= 25
    offered = set()
    for item in flat(surface.view):
        if item["type"] == 3:  # a select menu
            offered |= {o["value"].split(" ", 1)[1] for o in item["options"]}
        elif ":discard:" in item["custom_id"]:
            offered.add(item["label"])
    assert offered == {tile_name(t) for t in hand.hands[0]} and len(offered) == 17
    picture = surface.picture
    assert len(picture.concealed) + (picture.drawn is not None) == 17


# ------------------------------------------------------------------ one action encoding


@pytest.mark.parametrize(
    "notation",
    [
        "2 discard 5m",
        "1 concealed_kong 5555m",
        "0 added_kong 7z",
        "3 win",
        "1 void s",
        "2 chow 345m",
    ],
)
def test_a_private_control_carries_its_action_and_gives_it_back(notation: str) -> None:
    action = Action.parse(notation)
    button = ActButton.of(7, ids.Stamp(1, 4), action)
    match = re.fullmatch(ids.ACT_TEMPLATE, button.item.custom_id or "")
    assert match is not None
    value = match["kind"] + (f" {match['arg']}" if match["arg"] else "")
    assert ids.action_of(int(match["seat"]), value) == action  # what a click rebuilds
    assert ids.action_of(action.seat, ids.action_value(action)) == action  # a menu's value


async def test_three_chosen_tiles_make_the_action_in_the_engine_s_order() -> None:
    """The tiles menu's values are `index:tile` in hand order; the action is built from the
    chosen tiles themselves, in any order the client sends them."""
    played: list[Action] = []

    class Play:
        async def on_act(self, interaction: object, table: int, stamp: object, action: Action):
            played.append(action)

    class Client:
        controls = type("Controls", (), {"play": Play()})()

    class Interaction:
        client = Client()
        data = None

    menu = TilesSelect(7, ids.Stamp(1, 0), 2, "swap")
    menu.item._values = ["9:9p", "1:1p", "4:4p"]  # type: ignore[attr-defined]
    await menu.callback(Interaction())  # type: ignore[arg-type]
    assert played == [Action(2, ActionKind.SWAP, tuple(parse_tiles("149p")))]
