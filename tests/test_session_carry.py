"""The session carries the repeat count (honba) and the pot from hand to hand into HandSetup,
as game-rule data says; the pot left when the game ends goes to the leader."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.computer import computer_for
from engine.computer.simulate import play_out
from engine.game import GameRule, RepeatCount
from engine.outcome import Outcome
from engine.presets import find_preset
from engine.session import Session
from tests.game_presets import SHORT_GAME, registered
from tests.rule_presets import MECHANISMS, declaring


@pytest.mark.parametrize(
    ("kept", "won", "after"),
    [(True, True, 3), (True, False, 3), (False, False, 3), (False, True, 0)],
)
def test_riichi_counts_a_repeat_after_a_keep_or_a_hand_nobody_won(
    kept: bool, won: bool, after: int
) -> None:
    assert RepeatCount().next(2, dealer_kept=kept, won=won) == after


def test_a_count_of_keeps_only_resets_after_a_drawn_hand_that_passes_the_deal() -> None:
    keeps = RepeatCount(after_keep=True, after_no_win=False)
    assert keeps.next(1, dealer_kept=False, won=False) == 0
    assert keeps.next(1, dealer_kept=True, won=False) == 2


def _played(session: Session, level: str) -> list[tuple[int, int, Outcome, bool]]:
    """Each hand's (honba, pot) as dealt, its outcome and whether the dealer kept the deal."""
    computer = declaring(computer_for(level))
    hands = []
    while not session.over:
        total = sum(session.points) + session.pot
        dealer = session.dealer
        state = play_out(session.new_hand(), computer=computer)
        outcome = state.outcome()
        assert outcome is not None
        session.finish_hand(outcome)
        hands.append((state.setup.honba, state.setup.pot, outcome, session.dealer == dealer))
        assert sum(session.points) + session.pot == total  # seats and pot conserve points
    return hands


@pytest.mark.parametrize(("seed", "level"), [(4, "easy"), (12, "easy"), (2, "strong")])
def test_each_hand_is_dealt_with_the_honba_and_pot_the_last_left(seed: int, level: str) -> None:
    session = Session(MECHANISMS, seed)
    hands = _played(session, level)
    assert len(hands) == MECHANISMS.game.hands
    honba = pot = 0
    for dealt_honba, dealt_pot, outcome, kept in hands:
        assert (dealt_honba, dealt_pot) == (honba, pot)
        honba = honba + 1 if kept or not outcome.wins else 0
        pot += outcome.pot
    assert session.pot == 0  # the pot left at the end went to the leader
    (leader,) = [s.player for s in session.standings() if s.place == 1]
    assert sum(session.points) == MECHANISMS.start_points * session.seat_count
    if pot:  # seed 12: the last hand ends in an abortive draw with stakes in the pot
        others = sum(p for player, p in enumerate(session.points) if player != leader)
        assert session.points[leader] == MECHANISMS.start_points * 4 - others


def test_some_game_carries_a_pot_and_a_repeat_count() -> None:
    """The mechanisms preset's games do carry both (so the test above is not vacuous)."""
    carried = [
        (honba, pot)
        for seed in range(1, 6)
        for honba, pot, _, _ in _played(Session(MECHANISMS, seed), "easy")
    ]
    assert any(honba for honba, _ in carried) and any(pot for _, pot in carried)


def test_without_a_repeat_count_every_hand_is_dealt_at_0() -> None:
    session = Session(SHORT_GAME, 3)
    assert SHORT_GAME.game.repeats is None
    assert all(honba == 0 and pot == 0 for honba, pot, _, _ in _played(session, "easy"))


def test_the_pot_stays_when_the_game_rule_gives_it_to_nobody() -> None:
    keeps_pot = replace(MECHANISMS, game=replace(MECHANISMS.game, pot_to_leader=False))
    for seed in range(1, 30):
        session = Session(keeps_pot, seed)
        hands = _played(session, "easy")
        if session.pot:
            assert session.pot == sum(outcome.pot for _, _, outcome, _ in hands)
            return
    pytest.fail("no game ended with a pot")


def test_honba_and_pot_are_stored_and_old_sessions_load_at_0() -> None:
    with registered(MECHANISMS):
        _stored_and_loaded()


def _stored_and_loaded() -> None:
    session = Session(MECHANISMS, 4, honba=2, pot=3)
    stored = session.to_json()
    assert (stored["honba"], stored["pot"]) == (2, 3)
    again = Session.from_json(stored)
    assert (again.honba, again.pot) == (2, 3)
    assert again.hand_setup().honba == 2 and again.hand_setup().pot == 3
    older = {k: v for k, v in stored.items() if k not in ("honba", "pot")}
    assert (Session.from_json(older).honba, Session.from_json(older).pot) == (0, 0)
    plain = Session(find_preset("hkos-3-v1"), 4).to_json()
    assert "honba" not in plain and "pot" not in plain  # other tables store what they did


def test_a_game_rule_without_repeats_is_the_default() -> None:
    assert GameRule().repeats is None and not GameRule().pot_to_leader
