"""The loop's general mechanisms for rule components (issue 30): actions a rule owns, hooks after
a call and after a passed discard, the parts' public API (the dead wall, abortive draws, events,
windows), the hand's setup, and outcomes that say more (the pot, who was ready, reasons)."""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.runtime.recipe import HandRecipe, replay_hand
from bot.runtime.words import payment_line
from data.rows import HandLog, HandStatus
from engine.actions import Action, ActionKind, DeclaredKind, declare_kind
from engine.computer.easy import choose_action
from engine.events import Phase, Termination
from engine.hand import HandState
from engine.hand_setup import HandSetup
from engine.presets import PRESETS, MultiWin, find_preset
from engine.rules import OpeningsPart
from engine.session import Session
from engine.settlement import (
    POT,
    WALL_DRAW_REASONS,
    Payment,
    PaymentDetail,
    Reason,
    deltas_of,
    pot_change,
)
from engine.tiles import InvalidNotationError, parse_tile
from engine.wall import LastDrawsPart, WallRule
from tests.hands import act
from tests.rule_presets import (
    DEAD_WALL,
    LAY_ASIDE,
    MECHANISMS,
    STAKE,
    LayAsidePart,
    QuietAbort,
    QuietAbortPart,
    StakePart,
)

ENGINE = Path(__file__).resolve().parent.parent / "engine"
NORTH = parse_tile("4z")

# dealt so that the dealer holds a north to lay aside and seat 1 waits on it
LAY_HANDS = [
    "123m456m789m11p2p4z5z",
    "123s456s789s11s44z",
    "234m567m234p567p9s",
    "345m678m345p678p9s",
]


def arranged(hands: list[str], draws: str = "", replacements: str = "", **changes: object):
    preset = replace(MECHANISMS, **changes) if changes else MECHANISMS  # type: ignore[arg-type]
    return HandState.arranged(preset, hands, draws, replacements)


# ------------------------------------------------------------------------------- the part API


def test_no_rule_component_touches_the_hands_private_state() -> None:
    """Parts change a hand only through its public API (engine.parts' docstring lists it)."""
    private = re.compile(r"\bstate\._[a-z]")
    found = [
        f"{path.name}:{number}: {line.strip()}"
        for path in [
            ENGINE / "parts.py",
            ENGINE / "wall.py",
            ENGINE / "rules.py",
            *sorted(ENGINE.glob("families/*/*.py")),
        ]
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if private.search(line)
    ]
    assert found == []


def test_the_hard_wired_owners_are_parts_that_own_their_kinds() -> None:
    assert ActionKind.PASS in LastDrawsPart.owns
    assert {ActionKind.SWAP, ActionKind.REMOVE, ActionKind.VOID} == OpeningsPart.owns
    state = HandState(find_preset("sichuan-swap3"), 5)
    assert state.phase is Phase.OPENING
    assert state.seats_to_act() == [0, 1, 2, 3]


# ------------------------------------------------------------------------------- owned actions


def test_a_declared_kind_round_trips_through_the_notation() -> None:
    action = Action.parse("2 lay_aside 4z")
    assert action.kind is LAY_ASIDE and isinstance(action.kind, DeclaredKind)
    assert str(action) == "2 lay_aside 4z" and Action.parse(str(action)) == action
    assert declare_kind("lay_aside") is LAY_ASIDE
    with pytest.raises(InvalidNotationError, match="never_declared"):
        Action.parse("0 never_declared 4z")


@pytest.mark.parametrize("name", ["discard", "pass", "two words", ""])
def test_a_declared_kind_cannot_take_a_loop_name_or_a_bad_one(name: str) -> None:
    with pytest.raises(ValueError, match="cannot name"):
        declare_kind(name)


def test_a_rule_offers_its_declaration_beside_the_turn_and_applies_it() -> None:
    state = arranged(LAY_HANDS, replacements="1s")
    legal = state.legal_actions(0)
    assert Action(0, LAY_ASIDE, (NORTH,)) in legal
    assert Action(0, ActionKind.DISCARD, (NORTH,)) in legal  # added to, not replacing, the turn
    # seat 1 waits on the north: the declaration opens a window to rob it
    events = act(state, "0 lay_aside 4z")
    assert [e.kind for e in events] == ["lay_aside", "claim_window"]
    assert state.phase is Phase.ROB and state.legal_actions(1)[1].kind is ActionKind.WIN
    events = act(state, "1 pass")
    part = state.part_of(LayAsidePart)
    assert part is not None and part.laid[0] == [NORTH]
    # the stake went into the pot, and the replacement came from the dead wall
    assert state.pot_change == 1 and state.points == [-1, 0, 0, 0]
    assert state.drawn == parse_tile("1s") and state.after_kong
    payment = next(e for e in events if e.kind == "payment")
    assert PaymentDetail.parse(payment.detail, payment.reason) == PaymentDetail(
        (Reason.DEPOSIT,), (-1, 0, 0, 0), 1
    )
    # the log replays, the declared kind parsed by its notation
    again = HandState.replay(MECHANISMS, 0, [str(a) for a in state.log], wall=state.wall)
    assert again.hands == state.hands and again.pot_change == 1


def test_a_robbed_declaration_is_a_win_and_takes_the_pot() -> None:
    state = arranged(LAY_HANDS)
    state = HandState(MECHANISMS, 0, HandSetup(pot=5), wall=state.wall)
    act(state, "0 lay_aside 4z", "1 win")
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (1,)
    assert outcome.wins[0].tile == NORTH
    assert Payment(POT, 1, 5, Reason.POT) in outcome.payments
    assert outcome.pot == -5 and sum(outcome.deltas) == 5  # seats and pot conserve points
    assert NORTH not in state.hands[0]


@pytest.mark.parametrize(
    ("answer", "stake"), [("1 pass", 1), ("1 pung 4z", 1), ("1 win", 0)], ids=str
)
def test_a_declaration_made_with_a_discard_stakes_once_the_discard_is_not_won_on(
    answer: str, stake: int
) -> None:
    """The riichi stick's shape: the stake is paid when the discard passes or is called (the
    hooks after a passed discard and after a call), never when it is won on."""
    hands = ["123m456m789m11p22p4z", *LAY_HANDS[1:]]
    state = HandState.arranged(MECHANISMS, hands)
    stakes = [a for a in state.legal_actions(0) if a.kind is STAKE]
    assert state.drawn == NORTH and stakes == [Action(0, STAKE, (NORTH,))]  # only to be ready
    act(state, "0 stake 4z")
    assert state.phase is Phase.CLAIMS and state.ponds[0] == [NORTH]
    act(state, answer)
    assert state.pot_change == stake
    assert (Payment(0, POT, 1, Reason.DEPOSIT) in state.payments) == bool(stake)
    part = state.part_of(StakePart)
    assert part is not None and part.staked == [0] * stake  # staked seats stake no more


def test_an_unowned_turn_kind_is_refused_clearly() -> None:
    state = HandState(DEAD_WALL, 3)
    assert not state.is_legal(Action(0, LAY_ASIDE, (NORTH,)))
    with pytest.raises(ValueError, match="illegal action"):
        state.apply(Action(0, LAY_ASIDE, (NORTH,)))


# ------------------------------------------------------------------------------- hooks


def test_hooks_hear_every_call_and_kong_and_every_passed_discard_with_all_waits() -> None:
    hands = [
        "1111m456m789m119p5z",
        "123s456s789s56p55z",
        "234m567m234p567p9s",
        "345m678m345p678p9s",
    ]
    state = arranged(hands, replacements="1s")
    part = state.part_of(QuietAbortPart)
    assert part is not None
    act(state, "0 concealed_kong 1m")
    assert part.calls == [(0, "concealed_kong")]  # before its replacement draw
    assert state.drawn == parse_tile("1s")
    act(state, "0 discard 5z", "1 pung 5z")
    assert part.calls[-1] == (1, "pung")
    assert part.passed == []  # a claimed discard never passes
    act(state, "1 discard 9s", "2 pass", "3 pass")
    # heard once the window closed unclaimed, with every seat that waits on the tile
    assert part.passed == [(1, parse_tile("9s"), (2, 3))]
    assert state.turn == 2 and state.waits_of(3) == [parse_tile("9s")]


def test_a_rule_ends_a_hand_with_an_abortive_draw() -> None:
    preset = replace(MECHANISMS, rules=(QuietAbort(discards=3),))
    state = HandState(preset, 11)
    while not state.is_over:
        seat = state.seats_to_act()[0]
        state.apply(state.default_action(seat))  # type: ignore[arg-type]
    outcome = state.outcome()
    assert outcome is not None and outcome.termination is Termination.ABORTIVE_DRAW
    assert outcome.ready == () and not outcome.wins
    assert not any(outcome.paid_for(*WALL_DRAW_REASONS))  # no wall-draw check


def test_three_winners_on_one_discard_abort_the_hand_as_preset_data() -> None:
    hands = [
        "111p234p678p999p5z5p",
        "123m456m789m123s5p",
        "234m678m234s678s5p",
        "111z222z333z444z0p",  # a red five waits as a five
    ]
    aborting = HandState.arranged(MECHANISMS, hands)
    act(aborting, "0 discard 5p", "1 win", "2 win", "3 win")
    outcome = aborting.outcome()
    assert outcome is not None and outcome.termination is Termination.ABORTIVE_DRAW
    assert outcome.wins == () and not any(outcome.deltas)
    paying = HandState.arranged(replace(MECHANISMS, winners_abort=0), hands)
    act(paying, "0 discard 5p", "1 win", "2 win", "3 win")
    assert paying.outcome().winners == (1, 2, 3)  # type: ignore[union-attr]


def test_winners_abort_needs_several_winners_on_one_tile() -> None:
    for preset in (
        replace(MECHANISMS, winners_abort=1),
        replace(MECHANISMS, multi_win=MultiWin.HEAD_BUMP),
    ):
        with pytest.raises(ValueError, match="winners_abort"):
            HandState(preset, 1)


# ------------------------------------------------------------------------------- the dead wall


def test_replacements_come_from_their_positions_and_never_reach_the_indicators() -> None:
    rule = WallRule(dead_wall=14, replacements=4)
    preset = replace(MECHANISMS, replacements=4)
    state = HandState(preset, 9)
    wall = state.wall_part
    assert wall.rule == rule
    indicators = wall.indicators()
    assert len(indicators) == 10 and indicators == tuple(state.wall[-14:-4])
    live = state.wall_left
    for n in range(4):
        tile = wall.take_replacement()
        assert tile == state.wall[-1 - n]
        assert state.wall_left == live - n - 1  # each replacement shortens the live wall
    assert not wall.can_replace() and wall.indicators() == indicators
    with pytest.raises(ValueError, match="4 replacements are drawn"):
        wall.take_replacement()


def test_a_dead_wall_cannot_hold_more_replacements_than_its_tiles() -> None:
    with pytest.raises(ValueError, match="do not fit"):
        WallRule(dead_wall=4, replacements=5)


def test_without_replacement_positions_the_back_is_drawn_as_before() -> None:
    state = HandState(DEAD_WALL, 4)
    assert state.wall_part.indicators() == ()
    assert state.wall_part.take_replacement() == state.wall[-1]


# ------------------------------------------------------------------------------- the setup


def test_the_session_gives_the_hand_one_setup_by_hand_seat() -> None:
    session = Session(find_preset("hkos-3-v1"), 3, dealer=2, round_wind=1)
    session.points = [10, 20, 30, 40]
    state = session.new_hand()
    assert state.setup == HandSetup(dealer=2, round_wind=1, points=(30, 40, 10, 20))
    assert state.round_wind == 1


def test_a_hand_setup_refuses_what_no_table_has() -> None:
    with pytest.raises(ValueError, match="prevailing wind"):
        HandSetup(round_wind=4)
    with pytest.raises(ValueError, match="never negative"):
        HandSetup(pot=-1)
    with pytest.raises(ValueError, match="no field colour"):
        HandSetup.from_json({"colour": 1})


def test_the_setup_is_stored_with_the_hand_and_a_replay_rebuilds_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(PRESETS, MECHANISMS.id, MECHANISMS)
    session = Session(MECHANISMS, 4, round_wind=2)
    state = HandState(MECHANISMS, 77, HandSetup(round_wind=2, honba=2, pot=3, points=(1, 2, 3, 4)))
    state.apply(state.default_action(0))  # type: ignore[arg-type]
    stored = json.loads(HandRecipe.dealt(session, state, MECHANISMS, arranged_wall=False).to_json())
    assert stored["hand"] == {
        "dealer": 0,
        "round_wind": 2,
        "honba": 2,
        "pot": 3,
        "points": [1, 2, 3, 4],
    }
    log = HandLog(1, 1, 1, 77, json.dumps(stored), HandStatus.PLAYING, 0.0, None, tuple(state.log))
    again = replay_hand(HandRecipe.stored(log, MECHANISMS), log.actions)
    assert again.setup == state.setup and again.hands == state.hands
    # a hand stored before its setup was kept gets the one its session gives
    del stored["hand"]
    older = replace(log, setup=json.dumps(stored))
    again = replay_hand(HandRecipe.stored(older, MECHANISMS), older.actions)
    assert again.setup == session.hand_setup() and again.round_wind == 2


# ------------------------------------------------------------------------------- outcomes


def test_pot_payments_conserve_points_with_the_seats() -> None:
    paid = [
        Payment(0, POT, 10, Reason.DEPOSIT),
        Payment(POT, 2, 4, Reason.POT),
        Payment(1, 2, 3, Reason.WIN),
    ]
    assert deltas_of(paid, 3) == [-10, -3, 7] and pot_change(paid) == 6
    assert sum(deltas_of(paid, 3)) + pot_change(paid) == 0
    with pytest.raises(ValueError):
        Payment(POT, POT, 1, Reason.POT)
    with pytest.raises(ValueError):
        Payment(-2, 1, 1, Reason.WIN)


def test_who_was_ready_at_a_wall_draw() -> None:
    seen = 0
    for seed in range(40):
        state = HandState(find_preset("hkos-3-v1"), seed)
        while not state.is_over:
            seat = state.seats_to_act()[0]
            state.apply(choose_action(state, seat))
        outcome = state.outcome()
        assert outcome is not None
        if outcome.termination is Termination.WALL_DRAW:
            ready = tuple(s for s in state.seats if state.waits(state.hands[s]))
            assert outcome.ready == ready
            seen += bool(ready)
        else:
            assert outcome.ready == ()
    assert seen  # some wall draws had a ready seat


def test_payment_events_are_worded_from_their_reason() -> None:
    names = ["Ann", "Bo", "Cy", "Di"]

    def said(reason: str, detail: str) -> str:
        return payment_line(PaymentDetail.parse(detail, reason), names).in_language("en")

    assert said("kong", "3 -1 -1 -1").startswith("Kong payment: Ann +3")
    assert said("not_ready flower_pig", "2 -2 0 0").startswith("Wall-draw check:")
    assert said("deposit", "-1 0 0 0 pot=1") == "Pot: Ann -1, the pot +1."
    assert {Reason.NOT_READY, Reason.FLOWER_PIG} == WALL_DRAW_REASONS


@pytest.mark.parametrize("count", MECHANISMS.seat_counts)
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), picks=st.data())
def test_random_play_of_every_mechanism_conserves_tiles_and_points_and_replays(
    count: int, seed: int, picks: st.DataObject
) -> None:
    live = HandState(MECHANISMS, seed, HandSetup(pot=2), seat_count=count)
    while not live.is_over:
        seat = picks.draw(st.sampled_from(live.seats_to_act()))
        live.apply(picks.draw(st.sampled_from(live.legal_actions(seat))))
        assert Counter(live.tiles_in_play()) == Counter(MECHANISMS.wall)
        assert sum(live.points) + live.pot_change == 0
    outcome = live.outcome()
    assert outcome is not None and sum(outcome.deltas) + outcome.pot == 0
    again = HandState.replay(
        MECHANISMS, seed, [str(a) for a in live.log], live.setup, seat_count=count
    )
    assert again.outcome() == outcome
