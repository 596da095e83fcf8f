"""The hand loop holds red fives: counts, calls, kongs and wins go by kind while the physical
tile stays in hands, ponds and melds, and which physical five moves is in the log or follows
from the hand (a plain five before the red), so a hand replays the same.

The test preset with every mechanism (tests/rule_presets.py MECHANISMS) holds one red five of
each suit."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.actions import Action
from engine.computer.on_kinds import as_kinds, physical_action
from engine.computer.simulate import play_session
from engine.hand import HandState
from engine.hand_setup import HandSetup
from engine.presets import PRESETS
from engine.scoring.base import WinBy
from engine.tiles import counts_of, format_tiles, is_red, kind_of, parse_tile, sort_tiles
from tests.hands import act
from tests.rule_presets import MECHANISMS

RED_5M, RED_5S = parse_tile("0m"), parse_tile("0s")
# seats 2 and 3 of most hands here: seat 2 waits on a five of characters (4m 6m)
OTHERS = ["46m111p222p333p77z", "777p888p999p9m555z"]


def legal(state: HandState, seat: int) -> set[str]:
    return {str(a) for a in state.legal_actions(seat)}


def test_the_preset_with_every_mechanism_holds_one_red_five_a_suit() -> None:
    assert Counter(t for t in MECHANISMS.wall if is_red(t)) == Counter(
        {parse_tile("0m"): 1, parse_tile("0p"): 1, parse_tile("0s"): 1}
    )
    # among the playable presets, only Riichi's walls hold red fives (one a suit its set has:
    # sanma has no 5m)
    for preset in PRESETS.values():
        reds = Counter(t for t in preset.wall if is_red(t))
        kinds = {kind_of(t) for t in preset.wall}
        assert reds == (
            Counter(t for t in MECHANISMS.wall if is_red(t) and kind_of(t) in kinds)
            if preset.family == "riichi"
            else Counter()
        )


def test_a_red_five_is_discarded_as_itself_and_punged_as_a_five() -> None:
    state = HandState.arranged(MECHANISMS, ["50m123p456p789p11z2z", "55m123s456s789m36z", *OTHERS])
    assert {"0 discard 5m", "0 discard 0m"} <= legal(state, 0)  # two tiles to choose between
    events = act(state, "0 discard 0m")
    assert state.ponds[0] == [RED_5M] and events[0].tile == RED_5M
    assert "1 pung 0m" in legal(state, 1)
    assert "2 win" in legal(state, 2)  # 4m 6m waits on the red five too
    act(state, "1 pung 0m", "2 pass")
    (meld,) = state.melds[1]
    assert str(meld) == "pung 550m" and meld.claimed == RED_5M and meld.from_seat == 0
    assert state.tile_counts(1) == counts_of(state.hands[1])


@pytest.mark.parametrize(
    ("call", "meld", "kept"), [("pung", "pung 555m", "0m"), ("kong", "kong 5550m", "")]
)
def test_a_call_takes_the_plain_fives_before_the_red(call: str, meld: str, kept: str) -> None:
    state = HandState.arranged(MECHANISMS, ["5m123p456p789p11z22z", "550m123s456s789m3z", *OTHERS])
    act(state, "0 discard 5m", f"1 {call} 5m", "2 pass")
    assert str(state.melds[1][0]) == meld
    assert format_tiles(t for t in state.hands[1] if t in (RED_5M, 4)) == kept


def test_a_chow_on_a_red_five_keeps_it_in_the_run() -> None:
    state = HandState.arranged(MECHANISMS, ["50m123p456p789p11z2z", "46m123s456s789m36z", *OTHERS])
    act(state, "0 discard 0m")
    assert "1 chow 456m" in legal(state, 1)
    act(state, "1 chow 456m", "2 pass")
    assert str(state.melds[1][0]) == "chow 406m"


def test_a_concealed_kong_takes_all_four_fives_the_red_among_them() -> None:
    hands = ["5550s123p456p789m1z", "123s789s11m22m33m4m", *OTHERS]
    state = HandState.arranged(MECHANISMS, hands)
    kongs = [a for a in state.legal_actions(0) if a.kind.value == "concealed_kong"]
    assert [str(a) for a in kongs] == ["0 concealed_kong 5s"]  # one kong, named by its kind
    act(state, "0 concealed_kong 5s")
    assert str(state.melds[0][0]) == "concealed_kong 5550s"
    assert RED_5S not in state.hands[0] and state.tile_counts(0)[parse_tile("5s")] == 0


def _added_kong_of_the_red_five() -> HandState:
    """Seat 1 punges 5m, then draws 0m and adds it; seat 2 waits on a five of characters."""
    hands = ["5m123p456p789p11z22z", "55m123s456s789m36z", *OTHERS]
    state = HandState.arranged(MECHANISMS, hands, draws="7s8s9s0m")
    act(state, "0 discard 5m", "1 pung 5m", "2 pass", "1 discard 6z")
    act(state, "2 discard 7s", "3 discard 8s", "0 discard 9s")
    assert state.drawn == RED_5M and "1 added_kong 5m" in legal(state, 1)
    act(state, "1 added_kong 5m")
    return state


def test_an_added_kong_adds_the_red_five_and_offers_it_to_robbing() -> None:
    state = _added_kong_of_the_red_five()
    assert state.claim_tile == RED_5M and "2 win" in legal(state, 2)
    act(state, "2 pass")
    assert str(state.melds[1][0]) == "added_kong 5550m"


def test_robbing_an_added_red_five_wins_on_it() -> None:
    state = _added_kong_of_the_red_five()
    act(state, "2 win")
    (win,) = state.wins
    assert win.by is WinBy.ROBBING_KONG and win.tile == RED_5M and RED_5M in win.concealed
    assert RED_5M not in state.hands[1] and str(state.melds[1][0]) == "pung 555m"
    assert Counter(state.tiles_in_play()) == Counter(MECHANISMS.wall)


@pytest.mark.parametrize("count", MECHANISMS.seat_counts)
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), picks=st.data())
def test_random_play_with_red_fives_conserves_every_physical_tile_and_counts_kinds(
    count: int, seed: int, picks: st.DataObject
) -> None:
    live = HandState(MECHANISMS, seed, HandSetup(pot=1), seat_count=count)
    while not live.is_over:
        seat = picks.draw(st.sampled_from(live.seats_to_act()))
        live.apply(picks.draw(st.sampled_from(live.legal_actions(seat))))
        assert Counter(live.tiles_in_play()) == Counter(MECHANISMS.wall)  # each red five once
        for s in live.seats:
            assert live.held_counts(s) == counts_of(live.hands[s])
            assert all(list(m.tiles) == sort_tiles(m.tiles) for m in live.melds[s])
        assert sum(live.points) + live.pot_change == 0
    again = HandState.replay(
        MECHANISMS, seed, [str(a) for a in live.log], live.setup, seat_count=count
    )
    assert again.outcome() == live.outcome()
    assert again.ponds == live.ponds and again.melds == live.melds


@pytest.mark.parametrize("level", ["easy", "strong"])
def test_the_computers_play_red_fives_as_fives_and_their_hands_replay(level: str) -> None:
    red_moves = 0
    for played in play_session(MECHANISMS, 6, seed=3, level=level):
        state = played.state
        red_moves += sum(1 for a in state.log if any(map(is_red, a.tiles)))
        again = HandState.replay(MECHANISMS, state.seed, [str(a) for a in state.log], state.setup)
        assert again.outcome() == played.outcome and again.melds == state.melds
    assert red_moves  # the red fives were played, not only held


def test_a_choice_on_kinds_is_played_with_a_plain_five_before_the_red() -> None:
    state = HandState.arranged(MECHANISMS, ["50m123p456p789p11z2z", "55m123s456s789m36z", *OTHERS])
    plain = as_kinds(state, 0)
    assert RED_5M not in plain.hands[0] and not plain.has_red_fives
    assert RED_5M in state.hands[0]  # the hand itself is untouched
    assert physical_action(state, Action.parse("0 discard 5m")) == Action.parse("0 discard 5m")
    act(state, "0 discard 0m")  # a choice of "pung 5m" is the pung of the red five discarded
    assert physical_action(state, Action.parse("1 pung 5m")) == Action.parse("1 pung 0m")
