"""Games that end (engine): rotations as functions of how a hand ended, a preset's game rule
deciding when a session is over, placements with a tie rule and final scores with uma."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.computer.simulate import play_session
from engine.events import Termination
from engine.game import (
    ENDLESS,
    FinalScore,
    GameProgress,
    GameRule,
    Rounding,
    Ties,
    game_over,
    placements,
    standings,
)
from engine.kinds import Rotation
from engine.options import TableOption, choose
from engine.outcome import Outcome, WinRecord
from engine.presets import PRESETS, Preset, find_preset
from engine.rotation import ROTATIONS, HandEnd, hand_end, next_dealer_seat
from engine.scoring.base import Score, WinBy
from engine.session import Session
from tests.game_presets import SHORT_GAME, registered

HKOS = find_preset("hkos-3-v1")


def _record(seat: int, by: WinBy = WinBy.DISCARD, discarder: int | None = 1, at: int = 0):
    return WinRecord(seat, by, 0, discarder, Score(valid=True, fan=3), (0,) * 4, (), (), at)


def _old_next_dealer_seat(rotation: Rotation, outcome: Outcome) -> int:
    """The rotation as engine/session.py played it before rotations read a `HandEnd`."""
    wins = outcome.wins
    if rotation is Rotation.WINNER_DEALS:
        if not wins:
            return 0
        first = wins[0]
        if first.by is not WinBy.SELF_DRAW:
            same_tile = [w for w in wins if w.at == first.at and w.discarder == first.discarder]
            if len(same_tile) > 1:
                assert first.discarder is not None
                return first.discarder
        return first.seat
    dealer_won = any(win.seat == 0 for win in wins)
    keeps = dealer_won or (rotation is Rotation.HONG_KONG and not wins)
    if rotation is Rotation.DEALER_READY:  # RULES.md "Riichi": renchan
        aborted = outcome.termination is Termination.ABORTIVE_DRAW
        keeps = dealer_won or aborted or (not wins and 0 in outcome.ready)
    return 0 if keeps else 1


@pytest.mark.parametrize("preset_id", sorted(PRESETS))
def test_every_preset_rotates_as_before_over_played_hands(preset_id: str) -> None:
    preset = PRESETS[preset_id]
    for played in play_session(preset, 12, seed=5):
        old = _old_next_dealer_seat(preset.rotation, played.outcome)
        assert next_dealer_seat(preset.rotation, played.outcome) == old


@pytest.mark.parametrize("rotation", [r for r in Rotation if r is not Rotation.DEALER_READY])
def test_the_rotations_of_today_agree_with_the_old_one_on_chosen_outcomes(
    rotation: Rotation,
) -> None:
    outcomes = [
        Outcome(Termination.WALL_DRAW, (), (0,) * 4),
        Outcome(Termination.WIN, (_record(0),), (0,) * 4),
        Outcome(Termination.WIN, (_record(2),), (0,) * 4),
        Outcome(Termination.WIN, (_record(2), _record(3)), (0,) * 4),
        Outcome(Termination.WIN, (_record(3, WinBy.SELF_DRAW, None),), (0,) * 4),
    ]
    for outcome in outcomes:
        assert next_dealer_seat(rotation, outcome) == _old_next_dealer_seat(rotation, outcome)


def test_dealer_ready_keeps_the_deal_on_a_dealer_win_a_ready_dealer_or_an_abort() -> None:
    deal = ROTATIONS[Rotation.DEALER_READY]
    assert deal(HandEnd(wins=(_record(0),))) == 0
    assert deal(HandEnd(wins=(_record(2),))) == 1
    assert deal(HandEnd(wins=(_record(2), _record(0)))) == 0  # the dealer among two winners
    assert deal(HandEnd(wins=(), ready=frozenset({0, 2}))) == 0
    assert deal(HandEnd(wins=(), ready=frozenset({1}))) == 1
    assert deal(HandEnd(wins=())) == 1  # nobody ready: the deal moves
    assert deal(HandEnd(wins=(), abortive=True)) == 0


def test_hand_end_reads_readiness_and_aborts_from_the_outcome() -> None:
    plain = hand_end(Outcome(Termination.WALL_DRAW, (), (0,) * 4))
    assert plain.ready == frozenset() and not plain.abortive
    ready = hand_end(Outcome(Termination.WALL_DRAW, (), (0,) * 4, ready=(0, 3)))
    assert ready.ready == {0, 3} and not ready.abortive
    assert ROTATIONS[Rotation.DEALER_READY](ready) == 0
    aborted = hand_end(Outcome(Termination.ABORTIVE_DRAW, (), (0,) * 4))
    assert aborted.abortive and ROTATIONS[Rotation.DEALER_READY](aborted) == 0


# ---------------------------------------------------------------- the game rule


def _progress(**fields: object) -> GameProgress:
    values: dict[str, object] = {"hands": 1, "dealer_changes": 0, "points": (0, 0, 0, 0)}
    values.update(fields)
    return GameProgress(**values)  # type: ignore[arg-type]


def test_endless_games_never_end() -> None:
    assert not ENDLESS.ends
    assert not game_over(ENDLESS, _progress(hands=10_000, dealer_changes=999, points=(-9, 9)))
    # the presets whose games end are Riichi's (RULES.md "The game") and Chinese Classical's
    ending = {"riichi", "riichi-majsoul", "sanma", "chinese-classical"}
    assert {p.id for p in PRESETS.values() if p.game.ends} <= ending


def test_a_game_of_n_hands_ends_after_the_nth() -> None:
    rule = GameRule(hands=3)
    assert [game_over(rule, _progress(hands=n)) for n in (1, 2, 3, 4)] == [0, 0, 1, 1]


HANCHAN = GameRule(rounds=2, target=30000, extension=1, bust_below=0, leader_stop=True)


def test_rounds_end_once_someone_reaches_the_target_else_the_game_extends() -> None:
    even = (25000, 25000, 25000, 25000)
    leader = (31000, 25000, 24000, 20000)
    assert not game_over(HANCHAN, _progress(dealer_changes=7, points=leader))
    assert game_over(HANCHAN, _progress(dealer_changes=8, points=leader))  # South 4 done
    assert not game_over(HANCHAN, _progress(dealer_changes=8, points=even))  # into West
    assert not game_over(HANCHAN, _progress(dealer_changes=9, points=even))
    assert game_over(HANCHAN, _progress(dealer_changes=9, points=leader))  # reached in West
    assert game_over(HANCHAN, _progress(dealer_changes=12, points=even))  # West 4: at the latest
    assert game_over(GameRule(rounds=1), _progress(dealer_changes=4, points=even))


def test_points_below_the_bust_line_end_the_game_and_zero_plays_on() -> None:
    assert game_over(HANCHAN, _progress(points=(60000, 40001, 0, -1)))
    assert not game_over(HANCHAN, _progress(points=(60000, 40000, 0, 0)))


def test_the_last_dealer_keeping_the_deal_as_leader_at_the_target_stops() -> None:
    last = {"dealer_changes": 7, "dealer_kept": True, "dealer": 3}
    assert game_over(HANCHAN, _progress(points=(20000, 20000, 20000, 40000), **last))
    assert not game_over(HANCHAN, _progress(points=(41000, 20000, 20000, 19000), **last))
    assert not game_over(HANCHAN, _progress(points=(25000, 25000, 21000, 29000), **last))
    moved = {**last, "dealer_kept": False}
    assert not game_over(HANCHAN, _progress(points=(20000, 20000, 20000, 40000), **moved))
    early = {**last, "dealer_changes": 3}
    assert not game_over(HANCHAN, _progress(points=(20000, 20000, 20000, 40000), **early))


def test_ties_share_a_place_or_go_to_the_earlier_seat_from_the_first_dealer() -> None:
    points = [100, 0, 0, 100]
    assert placements(GameRule(), points) == [1, 3, 3, 1]
    assert placements(GameRule(ties=Ties.SEAT_ORDER), points) == [1, 3, 4, 2]
    assert placements(GameRule(ties=Ties.SEAT_ORDER), points, first_dealer=3) == [2, 3, 4, 1]


def test_tenhou_final_score_rounds_five_six_and_first_takes_the_rest() -> None:
    tenhou = FinalScore(30000, 1000, (20, 10, -10, -20), round_from=600, first_takes_rest=True)
    points = [30600, 29500, 24400, 15500]
    scores = tenhou.scores(points, [1, 2, 3, 4])
    assert scores[1:] == [10.0, -16.0, -34.0]  # -0.5 → 0, -5.6 → -6, -14.5 → -14
    assert scores[0] == 40.0 and sum(scores) == 0


def test_majsoul_final_score_has_one_decimal_and_no_oka() -> None:
    majsoul = FinalScore(25000, 1000, (15, 5, -5, -15), rounding=Rounding.TENTHS)
    assert majsoul.scores([41300, 25000, 18400, 15300], [1, 2, 3, 4]) == [31.3, 5.0, -11.6, -24.7]


def test_a_final_score_needs_a_positive_unit() -> None:
    with pytest.raises(ValueError, match="positive unit"):
        FinalScore(per=0)


def test_standings_without_a_final_score_score_the_points() -> None:
    rows = standings(GameRule(), (8, -8, 0, 0))
    assert [(s.place, s.score) for s in rows] == [(1, 8.0), (4, -8.0), (2, 0.0), (2, 0.0)]


# ---------------------------------------------------------------- the session


def test_a_session_of_a_short_game_is_over_after_its_hands_with_standings() -> None:
    played = list(play_session(SHORT_GAME, 10, seed=3))
    assert len(played) == 2  # the game ended: no third hand
    session = Session(SHORT_GAME, seed=3)
    for hand in played:
        assert not session.over
        session.finish_hand(hand.outcome)
    assert session.over and session.to_json()["over"] is True
    with registered():
        again = Session.from_json(session.to_json())
    assert again.over and again.standings() == session.standings()
    rows = session.standings()
    assert sorted(s.place for s in rows) == [1, 2, 3, 4]
    uma = {1: 20, 2: 10, 3: -10, 4: -20}
    assert all(s.score == s.points + uma[s.place] for s in rows)


def test_an_endless_session_never_says_over_and_stores_as_before() -> None:
    session = Session(HKOS, seed=3)
    for hand in play_session(HKOS, 6, seed=3):
        session.finish_hand(hand.outcome)
    assert not session.over and "over" not in session.to_json()


def test_the_first_dealer_is_seat_order_first_or_drawn_from_the_seed() -> None:
    assert Session(HKOS, seed=4).first_dealer == 0
    hubei = find_preset("hubei-laizi")
    session = Session(hubei, seed=4)
    assert session.first_dealer == session.dealer
    moved = replace(session, dealer=(session.dealer + 1) % 4, hand_number=3)
    assert moved.first_dealer == session.first_dealer


def _length(preset: Preset, value: object) -> Preset:
    return replace(preset, game=replace(preset.game, rounds=1 if value == "east" else 2))


# Riichi's `length` as a table option over a game of rounds (East only, or East and South)
BY_ROUNDS = replace(
    HKOS,
    id="test-by-rounds",
    game=GameRule(rounds=2),
    # HKOS's own options kept: its minimum to win is one of them
    options=(*HKOS.options, TableOption("length", ("south", "east"), "south", _length)),
)


@pytest.mark.parametrize(("length", "rounds"), [("east", 1), ("south", 2)])
def test_a_length_option_sets_the_rounds_a_game_plays(length: str, rounds: int) -> None:
    preset = choose(BY_ROUNDS, {"length": length})
    session = Session(preset, seed=2)
    for played in play_session(preset, 400, seed=2):
        session.finish_hand(played.outcome)
    assert session.over and session.dealer_changes == rounds * 4
    assert session.round_wind == rounds % 4  # the wind moved on as the last round ended
