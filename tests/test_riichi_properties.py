"""Properties of Riichi play over both presets (`riichi`, `riichi-majsoul`): random legal play
conserves tiles and points (seats and pot) at every step, a hand replayed from its stored action
log equals the live one, and every abortive draw and every game end comes up in seeded runs
(a triple ron, too rare for seeded play, in generated hands)."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.computer.simulate import simulate_games
from engine.events import Termination
from engine.families.riichi.presets import RIICHI, RIICHI_MAJSOUL
from engine.game import GameEnd
from engine.hand import HandState
from engine.hand_setup import HandSetup
from engine.presets import Preset
from engine.tiles import COPIES, format_tiles, parse_tiles
from tests.hands import act
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


def triple_ron_hands(rng: random.Random) -> tuple[list[str], str]:
    """Three seats each holding four sets of simples and one `tile` (all simples: tanyao), and a
    dealer that discards the fourth `tile`: a triple ron, which seeded play almost never deals
    (seven double rons in 2,850 eager closed hands, no triple)."""
    tile = rng.choice([t for t in range(27) if t % 9 not in (0, 4, 8)])  # a simple, not a five
    left = [COPIES] * 34
    for five in parse_tiles("5m5p5s"):
        left[five] = COPIES - 1  # the wall's fourth five is the red one
    left[tile] = 0
    hands = []
    for _ in range(3):
        sets: list[int] = []
        while len(sets) < 12:
            suit, rank = rng.randrange(3), rng.randrange(1, 8)  # 2..8
            first = suit * 9 + rank
            group = [first] * 3 if rng.random() < 0.3 or rank > 5 else [first, first + 1, first + 2]
            if all(left[t] >= group.count(t) for t in group):
                for t in group:
                    left[t] -= 1
                sets += group
        hands.append(format_tiles([*sorted(sets), tile]))
    pool = [t for t in range(34) for _ in range(left[t])]
    dealer = format_tiles([*sorted(rng.sample(pool, 13)), tile])
    return [dealer, *hands], format_tiles([tile])


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), honba=st.integers(0, 3), sticks=st.integers(0, 3))
def test_a_triple_ron_aborts_at_tenhou_and_pays_three_at_mahjong_soul(
    seed: int, honba: int, sticks: int
) -> None:
    hands, tile = triple_ron_hands(random.Random(seed))
    setup = HandSetup(honba=honba, pot=1000 * sticks, points=(25000,) * 4)
    for preset in BOTH:
        state = HandState.arranged(preset, hands, setup=setup)
        act(state, f"0 discard {tile}")
        assert sorted(state.pending) == [1, 2, 3]
        act(state, "1 win", "2 win", "3 win")
        check_invariants(state)
        outcome = state.outcome()
        assert outcome is not None
        if preset is RIICHI:  # an abortive draw: nothing moves, the pot stays
            assert outcome.termination is Termination.ABORTIVE_DRAW
            assert outcome.deltas == (0, 0, 0, 0) and outcome.pot == 0
        else:  # each paid by the dealer; honba and pot to the first in turn
            assert [w.seat for w in outcome.wins] == [1, 2, 3]
            assert outcome.deltas[0] < 0 and all(d > 0 for d in outcome.deltas[1:])
            assert outcome.pot == -1000 * sticks


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
