"""Properties of Riichi play over both presets (`riichi`, `riichi-majsoul`): random legal play
conserves tiles and points (seats and pot) at every step, a hand replayed from its stored action
log equals the live one, and every abortive draw and every game end comes up in seeded runs."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.game import GameEnd
from engine.hand import HandSetup, HandState
from engine.presets import Preset
from engine.presets_riichi import RIICHI, RIICHI_MAJSOUL
from engine.simulate import simulate_games
from tests.riichi_play import Style, abortive_kind, eager_choice, play_eagerly

BOTH = [RIICHI, RIICHI_MAJSOUL]
DORA = {"dora", "aka_dora", "ura_dora"}


def check_invariants(state: HandState) -> None:
    assert Counter(state.tiles_in_play()) == Counter(state.preset.wall), state.describe()
    assert sum(state.points) + state.pot_change == 0, (state.points, state.pot_change)
    outcome = state.outcome()
    if outcome is not None:
        assert sum(outcome.deltas) + outcome.pot == 0, outcome
        for win in outcome.wins:  # never a win without a yaku: dora alone is none
            assert {p.id for p in win.score.patterns} - DORA, win
        assert outcome.pot <= state.setup.pot + 4000  # at most four sticks paid in a hand
    else:
        assert all(state.legal_actions(seat) for seat in state.seats_to_act())


@pytest.mark.parametrize("preset", BOTH, ids=lambda p: p.id)
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32),
    honba=st.integers(0, 4),
    sticks=st.integers(0, 3),
    points=st.lists(st.integers(0, 60000), min_size=4, max_size=4),
    picks=st.data(),
)
def test_random_play_conserves_tiles_and_points_and_replays(
    preset: Preset,
    seed: int,
    honba: int,
    sticks: int,
    points: list[int],
    picks: st.DataObject,
) -> None:
    setup = HandSetup(honba=honba, pot=1000 * sticks, points=tuple(points))
    live = HandState(preset, seed, setup)
    rng = random.Random(seed)
    while not live.is_over:
        seat = live.seats_to_act()[0]
        if picks.draw(st.booleans()):
            action = eager_choice(live, seat, rng)
        else:
            action = picks.draw(st.sampled_from(live.legal_actions(seat)))
        live.apply(action)
        check_invariants(live)
    # the stored log (its notation) replays to the same hand and the same results
    again = HandState.replay(preset, seed, [str(a) for a in live.log], setup)
    assert again.hands == live.hands and again.melds == live.melds
    assert again.ponds == live.ponds and again.points == live.points
    assert again.pot_change == live.pot_change and again.payments == live.payments
    assert again.parts == live.parts  # riichi sticks, furiten, dora turned, kuikae ...
    assert again.outcome() == live.outcome() and again.version == live.version


# Seeds found by playing hands 0.. eagerly in a style (tests/riichi_play.py) and reading what
# ended them; the deal is the same at both tables, and so is play until their rules differ.
ABORTIVE_SEEDS = {
    "nine_terminals": (Style.CALLING, 105),
    "four_winds": (Style.WINDS, 114),
    "four_riichi": (Style.CLOSED, 140),
    "four_kongs": (Style.CALLING, 58),
}


@pytest.mark.parametrize("preset", BOTH, ids=lambda p: p.id)
@pytest.mark.parametrize("kind", sorted(ABORTIVE_SEEDS))
def test_every_abortive_draw_comes_up_in_a_seeded_hand(preset: Preset, kind: str) -> None:
    style, seed = ABORTIVE_SEEDS[kind]
    state = play_eagerly(preset, seed, style)
    check_invariants(state)
    assert abortive_kind(state) == kind
    again = HandState.replay(preset, seed, [str(a) for a in state.log], state.setup)
    assert again.outcome() == state.outcome()


# Session seeds of whole games of easy computers (`simulate --games 1 --seed S`) by how they
# end, the same at both tables (no hand of these games met a rule in which they differ).
GAME_END_SEEDS = {GameEnd.BUST: 4, GameEnd.LENGTH: 1, GameEnd.EXTENSION: 25, GameEnd.LEADER_STOP: 0}


@pytest.mark.parametrize("preset", BOTH, ids=lambda p: p.id)
@pytest.mark.parametrize("end", list(GameEnd))
def test_every_game_end_comes_up_in_a_seeded_game(preset: Preset, end: GameEnd) -> None:
    (game,) = simulate_games(preset, 1, GAME_END_SEEDS[end])
    assert game.end is end
    assert sum(s.points for s in game.standings) == 4 * preset.start_points
    if end is GameEnd.BUST:
        assert min(s.points for s in game.standings) < 0
