"""The easy computer's choices and the engine's answers, pinned by digests (wave 6: speed, exact).

A speed-up of `engine.computer.easy.choose_action`, `HandState.legal_actions` or `HandState.apply`
must change no answer. The goldens (tests/goldens/) pin the hands the easy computer plays against
itself; these digests also reach the states it never steers into: at every decision of seeded
hands, every seat asked is asked for its easy choice, and a seeded coin then plays either the
first seat's easy choice or a random legal action (a call the easy computer refuses, a kong, a
discard it would keep). Each digest covers the offered actions, every easy choice and every
event `apply` returned, for each preset at its players and hubei-laizi at three and two.

An intended change of play updates DIGESTS with the values the failing test prints.
"""

from __future__ import annotations

import hashlib
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.computer import easy as ai
from engine.computer.easy import choose_action
from engine.hand import HandState
from engine.hand_setup import HandSetup
from engine.presets import PRESETS, find_preset
from engine.tiles import DRAGONS, HONOURS, NUM_KINDS, WINDS

HANDS = 60  # per table: some 6,000 decisions
RANDOM_SHARE = 0.25  # of the moves played, those chosen at random among the legal ones

DIGESTS = {
    "bloodflow-discard3": "15fabeb26f16d05502af16c412d51365",
    "bloodflow-swap3": "b184266641a6543e896f2c184e2119b5",
    "chinese-classical": "b2f73794e77126fc226422ead221f9ab",
    "guangdong": "64ab479b0db2acf196be8e60f3ea1d96",
    "hk-3fan": "f159fb262c7ba73698ac403bdcb7e3c8",
    "hk-fw2": "98ca8ed68c861346e4ced19e60323445",
    "hkos-3-v1": "509333626132324ffa4f2b28c60386e7",
    "hubei-laizi": "c852de62adba4ad0d6f2779474e5933a",
    "hubei-laizi@3": "5cfc20afb8f6ae3ae26d1f20e31bfdb2",
    "hubei-laizi@2": "9270eb94e2fa9141e7374d5447bbd4a6",
    "redwild": "d9d925d3e0eb59ee955fdb0733db4009",
    "riichi": "bd6a7fb64533028d0bf19df4ace96e2f",
    "riichi-majsoul": "94acd220b1c20b5dba1d52b626c4cbee",
    "sanma": "123940119496d786d5edab8334c487f2",
    "sichuan-bb": "0446104d57c9f93c93deb537250a9d73",
    "sichuan-swap3": "d7e829d1e84e3d4747ab6a4515170907",
    "tw-16": "58c76fb83938b644e4f9a260536ea377",
}


def _tables() -> list[str]:
    return [*sorted(PRESETS), "hubei-laizi@3", "hubei-laizi@2"]


def easy_digest(table: str, hands: int = HANDS) -> str:
    """The md5 of every offer, easy choice and event over `hands` seeded hands of `table`."""
    preset_id, _, players = table.partition("@")
    preset = find_preset(preset_id)
    digest = hashlib.md5()
    for seed in range(hands):
        coin = random.Random(seed)
        setup = HandSetup(round_wind=seed % 4)
        state = HandState(preset, seed, setup, seat_count=int(players or 0) or None)
        lines = []
        while not state.is_over:
            seats = state.seats_to_act()
            first = seats[0]
            legal = state.legal_actions(first)
            lines.append(" ".join(map(str, legal)))
            choices = [choose_action(state, seat) for seat in seats]
            lines.append(" | ".join(map(str, choices)))
            action = coin.choice(legal) if coin.random() < RANDOM_SHARE else choices[0]
            events = state.apply(action)
            lines.append(" ".join(f"{e.kind}:{e.seat}:{e.tile}:{e.detail}" for e in events))
        digest.update("\n".join(lines).encode())
    return digest.hexdigest()


@pytest.mark.parametrize("table", _tables())
def test_easy_choices_and_engine_answers_are_as_recorded(table: str) -> None:
    found = easy_digest(table)
    assert found == DIGESTS[table], f"{table}: digest {found!r}"


def test_every_table_has_a_digest() -> None:
    assert sorted(DIGESTS) == sorted(_tables())


def _keep_value_by_hand(
    counts: list[int], tile: int, seat: int, round_wind: int, target: str
) -> int:
    """A held tile's keep value worked out from the hand, as the easy computer did per discard
    before it read the values of each component's pattern."""
    if tile >= HONOURS[0]:
        valuable = (*DRAGONS, WINDS[seat], WINDS[round_wind])
        copies = counts[tile]
        return copies * 3 - (0 if copies > 1 else 2) + (2 if tile in valuable else 0)
    rank, suit = tile % 9, "mps"[tile // 9]
    near = [tile + d for d in (-2, -1, 1, 2) if 0 <= rank + d < 9]
    base = (4 if suit == target else 0) + len(near) - (1 if rank in (0, 8) else 0)
    return base + counts[tile] * 2 - sum(1 for kind in near if not counts[kind])


@settings(max_examples=300, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    size=st.sampled_from([2, 5, 8, 11, 14, 17]),
    seat=st.integers(0, 3),
    round_wind=st.integers(0, 3),
    toward_flush=st.booleans(),
)
def test_keep_values_read_by_component_are_the_values_worked_out_per_tile(
    seed: int, size: int, seat: int, round_wind: int, toward_flush: bool
) -> None:
    rng = random.Random(seed)
    counts = [0] * NUM_KINDS
    for tile in rng.sample([kind for kind in range(NUM_KINDS) for _ in range(4)], size):
        counts[tile] += 1
    sizes = [sum(counts[0:9]), sum(counts[9:18]), sum(counts[18:27])]
    target = "mps"[sizes.index(max(sizes))] if toward_flush else ""
    state = HandState(find_preset("hkos-3-v1"), 0, HandSetup(round_wind=round_wind))
    values = ai._keep_values(state, seat, counts, toward_flush)
    for tile in range(NUM_KINDS):
        if counts[tile]:
            assert values[tile] == _keep_value_by_hand(counts, tile, seat, round_wind, target)
