"""Riichi at the table (issue 32): the DM controls and the terminal menus in the players' words
(Riichi with the tiles that keep the hand ready, nine terminals, Tsumo, Chi / Pon / Kan / Ron /
Pass on every claim window), and furiten told to its owner only."""

from __future__ import annotations

import copy
import io
import re
from argparse import Namespace

import pytest

from bot.cli import _parser
from bot.discord import ids
from bot.discord.pictures import draw
from bot.discord.surface import hand_controls, hand_surface, hand_text, table_surface
from bot.runtime import ManualTimers
from bot.runtime.snapshots import Decision, private_snapshot, public_snapshot
from bot.runtime.words import event_lines
from bot.terminal import Ask, hand_line, play, read_answer
from data import Phase, Store
from engine.actions import Action, ActionKind
from engine.events import Event
from engine.events import Phase as HandPhase
from engine.families.riichi.presets import RIICHI, RIICHI_MAJSOUL
from engine.families.riichi.rules import NINE_TERMINALS, FuritenPart
from engine.families.riichi.rules import RIICHI as RIICHI_KIND
from engine.hand import HandState
from engine.presets import PRESETS, Preset
from engine.tiles import parse_tile
from tests.hands import act
from tests.test_discord_units import flat
from tests.test_runtime import make_runtime
from tests.test_snapshots import live_table, payload

BOTH = [RIICHI, RIICHI_MAJSOUL]
# the dealer may declare riichi discarding 4s or 6z (either leaves a single wait on the other)
READY = [
    "123m789m123p789p4s6z",
    "456m456m456p456p1s",
    "234m234p56s777z66z",  # waits on 4s or 7s, with a red dragon pung
    "123s123s789s789s9m",
]
# the dealer's first draw holds nine different terminals and honours
NINE = ["19m19p19s1234z2m3m4m5z", *READY[1:]]


def turn(preset: Preset, hands: list[str], seat: int = 0) -> tuple[Decision, HandState]:
    state = HandState.arranged(preset, hands)
    private = private_snapshot(live_table(state, 4), seat)
    assert private.decision is not None and private.decision.kind == "turn"
    return private.decision, state


@pytest.mark.parametrize("preset", BOTH, ids=lambda p: p.id)
def test_riichi_is_a_menu_of_the_discards_that_keep_the_hand_ready(preset: Preset) -> None:
    decision, state = turn(preset, READY)
    riichis = [a for a in decision.actions if a.kind is RIICHI_KIND]
    assert [str(a) for a in riichis] == ["0 riichi 4s", "0 riichi 6z"]
    view = hand_controls(7, ids.Stamp(1, 0), list(decision.actions), [], decision=decision)
    items = flat(view)
    (menu,) = [i for i in items if i["type"] == 3]
    assert menu["placeholder"] == "riichi, discarding …: which tile?"
    assert [o["label"] for o in menu["options"]] == [
        "riichi, discarding 4s",
        "riichi, discarding 6z",
    ]
    assert [o["value"] for o in menu["options"]] == ["riichi 4s", "riichi 6z"]
    buttons = [i.get("label") for i in items if i["type"] == 2]
    assert not any("riichi" in str(label) for label in buttons)  # a menu, not buttons
    assert len([b for b in buttons if b and len(b) == 2]) == len(set(state.hands[0]))  # discards


def test_riichi_is_not_offered_where_no_discard_keeps_the_hand_ready() -> None:
    decision, _ = turn(RIICHI, ["1357m2468p13579s1z", READY[1], READY[2], "123m789m123p789p6z"])
    assert not any(a.kind is RIICHI_KIND for a in decision.actions)
    view = hand_controls(7, ids.Stamp(1, 0), list(decision.actions), [], decision=decision)
    assert not [i for i in flat(view) if i["type"] == 3]


@pytest.mark.parametrize("language", ["en", "zh-CN", "zh-TW"])
def test_nine_terminals_is_offered_in_words_and_never_played_by_the_clock(language: str) -> None:
    decision, state = turn(RIICHI, NINE)
    assert Action(0, NINE_TERMINALS) in decision.actions
    assert state.default_action(0).kind is ActionKind.DISCARD  # the clock never declares it
    view = hand_controls(
        7, ids.Stamp(1, 0), list(decision.actions), [], language=language, decision=decision
    )
    words = {"en": "nine terminals (an abortive draw)", "zh-CN": "九种九牌（流局）"}
    words["zh-TW"] = "九種九牌（流局）"
    assert words[language] in [i.get("label") for i in flat(view)]


def test_a_self_draw_win_is_tsumo() -> None:
    hands = ["123m456m789m1p1p5z5z5z", *READY[1:]]  # dealt complete: heavenly hand (tenhou)
    decision, _ = turn(RIICHI, hands)
    assert any(a.kind is ActionKind.WIN for a in decision.actions)
    labels = [
        i.get("label")
        for i in flat(
            hand_controls(7, ids.Stamp(1, 0), list(decision.actions), [], decision=decision)
        )
    ]
    assert "Tsumo" in labels and "Win (self draw)" not in labels
    assert decision.words(Action(0, ActionKind.WIN)).in_language("en") == "tsumo"
    assert decision.words(Action(0, ActionKind.WIN)).in_language("zh-CN") == "自摸"
    private = private_snapshot(live_table(HandState.arranged(RIICHI, hands), 4), 0)
    assert "Your turn: discard a tile, or tsumo." in hand_text(private).in_language("en")
    hk = HandState.arranged(PRESETS["hk-3fan"], hands)
    hk_decision = private_snapshot(live_table(hk, 4), 0).decision
    assert hk_decision is not None
    hk_labels = [
        i.get("label")
        for i in flat(
            hand_controls(7, ids.Stamp(1, 0), list(hk_decision.actions), [], decision=hk_decision)
        )
    ]
    assert "Win (self draw)" in hk_labels  # the other presets keep their words


def claim_window(preset: Preset) -> HandState:
    state = HandState.arranged(preset, READY)
    act(state, "0 discard 4s")  # seat 2 may ron; seat 1 has nothing
    assert state.phase is HandPhase.CLAIMS
    return state


@pytest.mark.parametrize("preset", BOTH, ids=lambda p: p.id)
def test_every_claim_window_offers_chi_pon_kan_ron_pass(preset: Preset) -> None:
    state = claim_window(preset)
    public = public_snapshot(live_table(state, 4))
    surface = table_surface(public, "general")
    assert surface.view is not None
    labels = [i.get("label") for i in flat(surface.view)]
    assert labels == ["Chi", "Pon", "Kan", "Ron", "Pass", "My hand"]
    zh = table_surface(public, "general", "zh-TW")
    assert zh.view is not None
    assert [i.get("label") for i in flat(zh.view)][:5] == ["吃", "碰", "槓", "榮和", "過"]


def test_the_terminal_words_a_riichi_table_s_menus_and_reads_its_words() -> None:
    state = claim_window(RIICHI)
    private = private_snapshot(live_table(state, 4), 2)
    decision = private.decision
    assert decision is not None and decision.kind == "claim"
    assert [decision.words(a).in_language("en") for a in decision.actions] == ["pass", "ron"]
    assert read_answer("ron", decision) == Action(2, ActionKind.WIN)
    assert read_answer("win", decision) == Action(2, ActionKind.WIN)
    turn_decision, _ = turn(RIICHI, READY)
    assert read_answer("riichi 6z", turn_decision) == Action.parse("0 riichi 6z")
    asked = read_answer("riichi", turn_decision)
    assert isinstance(asked, Ask) and "'riichi 4s'" in asked.text and "'riichi 6z'" in asked.text
    refused = read_answer("riichi 1m", turn_decision)  # keeps the hand no nearer to ready
    assert isinstance(refused, Ask)


def furiten_pair() -> tuple[HandState, HandState]:
    """Two tables alike in everything but seat 2's furiten (a winning tile it passed)."""
    state = HandState.arranged(RIICHI, READY)
    act(state, "0 discard 4s", "2 pass")
    furiten = state.part_of(FuritenPart)
    assert furiten is not None and furiten.is_furiten(2)
    other = copy.deepcopy(state)
    other_part = other.part_of(FuritenPart)
    assert other_part is not None
    other_part.passed[2] = False
    assert not other_part.is_furiten(2)
    return state, other


def test_furiten_is_a_private_fact_of_its_seat() -> None:
    state, other = furiten_pair()
    assert state.private_facts(2) == ("furiten",) and other.private_facts(2) == ()
    assert state.private_facts(1) == ()
    private = private_snapshot(live_table(state, 4), 2)
    assert [str(f) for f in private.facts] == ["Furiten: no ron"]
    assert "Furiten: no ron" in hand_line(private)
    assert "振听" in hand_line(private, "zh-CN")
    assert private.hand_view is not None and "Furiten: no ron" in map(
        str, private.hand_view.blocked
    )
    clear = private_snapshot(live_table(other, 4), 2)
    assert clear.facts == () and "Furiten" not in hand_line(clear)
    # the hand picture says it: it differs from the one without
    assert clear.hand_view is not None
    assert draw(private.hand_view) != draw(clear.hand_view)
    surface = hand_surface(private)
    assert surface.picture is not None


def test_nothing_public_shows_furiten() -> None:
    state, other = furiten_pair()
    for humans in (1, 4):
        one = public_snapshot(live_table(state, humans))
        two = public_snapshot(live_table(other, humans))
        assert one == two
        assert payload(one) == payload(two)
        assert one.table_view is not None and two.table_view is not None
        assert draw(one.table_view) == draw(two.table_view)
    # nor does another seat's own view
    assert private_snapshot(live_table(state, 4), 1) == private_snapshot(live_table(other, 4), 1)


def test_the_riichi_presets_are_table_choices() -> None:
    assert PRESETS["riichi"] is RIICHI and PRESETS["riichi-majsoul"] is RIICHI_MAJSOUL
    assert [o.name for o in RIICHI.options] == ["length"]


@pytest.mark.parametrize("preset_id", ["riichi", "riichi-majsoul"])
async def test_quick_play_seats_a_riichi_table(store: Store, preset_id: str) -> None:
    timers = ManualTimers()
    runtime = await make_runtime(store, timers, quickplay_fill_after=30)
    assert await runtime.quickplay(preset_id, "201", "Eve") is None
    await timers.advance(31)  # a casual queue fills with computers
    [table] = runtime.tables_of("201")
    assert table.phase is Phase.PLAYING and table.preset.id == preset_id
    assert table.options.time_control == "standard" and len(table.humans) == 1
    assert table.hand is not None and table.hand.preset.vocabulary == "riichi"


async def test_the_terminal_plays_a_tonpuu_game_to_its_standings_and_final_score() -> None:
    out = io.StringIO()
    args = Namespace(
        preset="riichi", seed=1, images=None, hands=0, time=None, players=None,
        level="easy", lang="en", option=["length=east"],
    )  # fmt: skip
    assert await play(args, lambda: "", out) == 0  # Enter: the suggested move, every time
    said = out.getvalue()
    assert "The game is over" in said
    standings = said[said.rindex("Final standings") :].splitlines()[1:5]
    assert [line[:3] for line in standings] == ["1. ", "2. ", "3. ", "4. "]
    assert all(" points, final score " in line for line in standings)
    assert re.search(r"\btsumo\b|\bron\b|\bpon \w+|\bchi \w+", said)  # the menus' words


def test_play_length_is_the_length_table_option() -> None:
    args = _parser().parse_args(["play", "--preset", "riichi", "--length", "east"])
    assert args.option == ["length=east"]
    both = _parser().parse_args(
        ["play", "--preset", "riichi", "--option", "x", "--length", "south"]
    )
    assert both.option == ["x", "length=south"]


def test_the_table_tells_riichi_and_the_calls_in_riichi_words() -> None:
    state = HandState.arranged(RIICHI, READY)
    events = state.apply(Action.parse("0 riichi 6z"))
    names = ["Ann", "Bob", "Cat", "Dan"]
    lines = event_lines(live_table(state, 4), events, names)
    assert lines[:2] == ["Ann declares riichi.", "Ann discards 6z."]
    assert event_lines(live_table(state, 4), events, names, language="zh-TW")[0] == "Ann立直。"
    calls = [
        Event("call", 1, parse_tile("6z"), "pung 666z"),
        Event("call", 1, parse_tile("3m"), "chow 234m"),
        Event("kong_declared", 2, parse_tile("1z"), "concealed_kong"),
    ]
    assert event_lines(live_table(state, 4), calls, names) == [
        "Bob calls pon on 6z.",
        "Bob calls chi on 3m (234m).",
        "Cat declares a closed kan of 1z.",
    ]
    hk = HandState.arranged(PRESETS["hk-3fan"], READY)
    assert event_lines(live_table(hk, 4), calls[:1], names) == ["Bob pungs 6z."]
