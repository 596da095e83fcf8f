"""Riichi at a Riichi client's speed (issue 43, item 6): the runtime's automatic moves
(bot/runtime/automatic.py) — after riichi the drawn tile goes by itself, and each player's
toggles (auto win, no calls, auto discard), off by default, kept with the table over a restart
and switched from the terminal."""

from __future__ import annotations

import io
from pathlib import Path

from bot.runtime.automatic import automatic_answer, toggles_of
from bot.runtime.snapshots import Decision, _refusals
from bot.runtime.toggles import set_toggle
from bot.terminal import Ask, read_answer
from bot.terminal import play as play_terminal
from bot.terminal_toggles import toggle_typed
from data import Store
from engine.actions import Action
from engine.families.riichi.presets import RIICHI
from engine.families.riichi.rules import RiichiPart
from engine.hand import HandState
from engine.hand import Phase as HandPhase
from engine.hand_setup import HandSetup
from engine.presets import find_preset
from engine.session import Session
from engine.tiles import parse_tile
from render.adapt import hand_view_from_state
from render.hand import ready_notes
from tests import riichi_scenes as scenes
from tests.hands import act as act_all
from tests.test_runtime import ManualTimers, arranged, four_humans, make_runtime, play
from tests.test_terminal import options, scripted

NOTHING: frozenset[str] = frozenset()
SANMA_HANDS = [
    "1m1m9m9m1p2p3p1s2s3s5z5z5z4z",
    "1p1p1p2p2p2p3p3p3p4p4p4p5s",
    "6s6s6s7s7s8s8s9s9s6p6p7p7p",
]


def actions(*notations: str) -> tuple[Action, ...]:
    return tuple(Action.parse(n) for n in notations)


def test_the_only_answer_on_the_own_turn_is_made_and_a_choice_is_asked() -> None:
    after_riichi = actions("0 discard 2z")
    assert automatic_answer(HandPhase.TURN, 31, after_riichi, NOTHING) == after_riichi[0]
    with_tsumo = actions("0 discard 2z", "0 win")  # a win offered: asked
    assert automatic_answer(HandPhase.TURN, 31, with_tsumo, NOTHING) is None
    with_kan = actions("0 discard 2z", "0 concealed_kong 2z")  # a kan keeping the wait: asked
    assert automatic_answer(HandPhase.TURN, 31, with_kan, NOTHING) is None
    claim = actions("2 pass", "2 pung 1z")
    assert automatic_answer(HandPhase.CLAIMS, None, claim, NOTHING) is None


def test_each_toggle_answers_its_own_decisions_only() -> None:
    turn = actions("0 discard 5m", "0 discard 3z", "0 win")
    assert automatic_answer(HandPhase.TURN, 4, turn, frozenset({"auto_win"})) == turn[2]
    assert automatic_answer(HandPhase.TURN, 4, turn, frozenset({"auto_discard"})) is None
    no_win = turn[:2]
    assert automatic_answer(HandPhase.TURN, 4, no_win, frozenset({"auto_discard"})) == turn[0]
    assert automatic_answer(HandPhase.TURN, 4, no_win, frozenset({"no_calls"})) is None
    claim = actions("1 pass", "1 chow 456m")
    assert automatic_answer(HandPhase.CLAIMS, None, claim, frozenset({"no_calls"})) == claim[0]
    ron = actions("1 pass", "1 pung 5m", "1 win")
    assert automatic_answer(HandPhase.CLAIMS, None, ron, frozenset({"no_calls"})) is None
    both = frozenset({"no_calls", "auto_win"})
    assert automatic_answer(HandPhase.CLAIMS, None, ron, both) == ron[2]


def riichi_scene(session: Session) -> HandState:
    setup = HandSetup(points=scenes.POINTS)
    return HandState.arranged(
        session.preset, scenes.RIICHI_HANDS, draws="9p7z3m2z", replacements=scenes.BACK, setup=setup
    )


async def test_after_riichi_the_drawn_tile_is_discarded_without_a_click() -> None:
    store = await Store.open(":memory:")
    runtime = await make_runtime(store, ManualTimers(), hand_factory=riichi_scene)
    table = await four_humans(runtime, "riichi")
    for move in ("0 riichi 1z", "2 pass", "1 discard 9p", "2 discard 7z", "3 discard 3m"):
        await play(runtime, table, move)
    hand = table.hand
    assert hand is not None
    # the dealer drew 2z in riichi: discarded at once, and West is asked about it
    assert str(hand.log[-1]) == "0 discard 2z"
    assert hand.phase is HandPhase.CLAIMS and hand.seats_to_act() == [2]
    await store.close()


async def test_toggles_are_off_then_kept_with_the_table_over_a_restart(tmp_path: Path) -> None:
    path = str(tmp_path / "bot.db")
    timers = ManualTimers()
    store = await Store.open(path, clock=timers.now)
    runtime = await make_runtime(store, timers, hand_factory=arranged)
    table = await four_humans(runtime)
    dealer, south = (table.seat(table.player_at(s)).player_id for s in (0, 1))
    assert all(toggles_of(table, s.player_id) == NOTHING for s in table.seats if s is not None)
    # the dealer's turn is waiting: switching auto discard on plays the drawn 5m
    assert await set_toggle(runtime, table.id, dealer, "auto_discard", True) == {"auto_discard"}
    assert table.hand is not None and str(table.hand.log[0]) == "0 discard 5m"
    # South may chow 456m, West pung 5m: with no calls South passes by itself
    await set_toggle(runtime, table.id, south, "no_calls", True)
    assert table.hand.phase is HandPhase.CLAIMS and table.hand.seats_to_act() == [2]
    await play(runtime, table, "2 pass")
    await runtime.close()
    await store.close()
    store = await Store.open(path, clock=timers.now)
    again = await make_runtime(store, timers, hand_factory=arranged)
    restored = again.get(table.id)
    assert toggles_of(restored, dealer) == {"auto_discard"}
    assert toggles_of(restored, south) == {"no_calls"}
    await set_toggle(again, table.id, south, "no_calls", False)
    assert toggles_of(again.get(table.id), south) == NOTHING
    await again.close()
    await store.close()


def test_the_terminal_reads_a_toggle_however_it_is_typed() -> None:
    assert toggle_typed("auto win") == toggle_typed("Auto-Win") == "auto_win"
    assert (
        toggle_typed(" no_calls ") == "no_calls" and toggle_typed("auto discard") == "auto_discard"
    )
    assert toggle_typed("discard 5m") is None and toggle_typed("auto") is None


async def test_the_terminal_switches_a_toggle_at_any_prompt_and_says_which_are_on() -> None:
    out = io.StringIO()
    answers = ["auto discard", "no calls", "auto discard", "q"]
    await play_terminal(options(preset="riichi", seed=3), scripted(answers), out)
    lines = [line for line in out.getvalue().splitlines() if "on now" in line]
    assert [line.split(" (")[0].lstrip("> ") for line in lines] == [
        "auto discard on",
        "no calls on",
        "auto discard off",
    ]
    assert "(on now: no calls;" in lines[-1]


# ------------------------------------------------------------------------------- `riichi`


def riichi_decision(state: HandState, seat: int) -> Decision:
    legal = state.legal_actions(seat)
    labels = tuple(state.declaration_labels.items())
    refusals = _refusals(state, seat, legal)
    return Decision(
        state.version,
        "turn",
        legal,
        None,
        legal[0],
        labels=labels,
        with_discard=state.declared_with_discard,
        vocabulary="riichi",
        refusals=refusals,
    )


def test_riichi_alone_lists_the_discards_that_keep_the_hand_ready() -> None:
    state = riichi_scene(Session(RIICHI, seed=1))  # the dealer is ready discarding 1z or 9s
    asked = read_answer("riichi", riichi_decision(state, 0))
    assert isinstance(asked, Ask) and "'riichi 9s' or 'riichi 1z'" in asked.text
    assert read_answer("riichi 9s", riichi_decision(state, 0)) == Action.parse("0 riichi 9s")


def test_riichi_when_not_possible_says_why() -> None:
    hands = ["159m159p159s1234z5z", *scenes.RIICHI_HANDS[1:]]  # the dealer is far from ready
    state = HandState.arranged(RIICHI, hands, setup=HandSetup(points=scenes.POINTS))
    for language, words in (("en", "The hand is not ready"), ("zh-CN", "还没听牌")):
        asked = read_answer("riichi", riichi_decision(state, 0), language=language)
        assert isinstance(asked, Ask) and asked.text.startswith(words)
    assert hand_view_from_state(state, 0).waits == ()  # not ready: no waits shown
    state.apply(Action.parse("0 discard 5z"))
    part = state.part_of(RiichiPart)
    assert part is not None and part.refusal(2) is not None
    assert part.refusal(2).key == "riichi.refusal.not_your_turn"  # type: ignore[union-attr]


# ------------------------------------------------------------------------------- the hand


def test_the_hand_shows_its_riichi_its_waits_and_the_dora_indicators() -> None:
    state = riichi_scene(Session(RIICHI, seed=1))
    dealt = hand_view_from_state(state, 0)  # ready before its 14th tile (1z), no riichi yet
    assert dealt.waits == (parse_tile("9s"),) and not dealt.declared
    act_all(state, "0 riichi 1z", "2 pass", "1 discard 9p", "2 discard 7z", "3 discard 3m")
    view = hand_view_from_state(state, 0)  # the dealer drew 2z in riichi
    assert view.declared and view.waits == (parse_tile("9s"),)
    (dora,) = view.set_aside
    assert dora.tiles == (parse_tile("3s"),) and dora.face_down == 4
    assert [note for note, _ in ready_notes(view, "en")] == ["Riichi", "Waits: 9s"]
    assert [note for note, _ in ready_notes(view, "zh-CN")] == ["立直", "听牌：9s"]
    south = hand_view_from_state(state, 1)
    assert not south.declared and south.set_aside == view.set_aside


def test_a_sanma_hand_shows_its_own_norths_set_aside() -> None:
    state = HandState.arranged(find_preset("sanma"), SANMA_HANDS)
    act_all(state, "0 nuki 4z")
    kinds = [item.label.key for item in hand_view_from_state(state, 0).set_aside]  # type: ignore[union-attr]
    assert kinds == ["pictures.indicators.dora", "pictures.set_aside.nuki"]
    assert hand_view_from_state(state, 0).set_aside[1].tiles == (parse_tile("4z"),)
