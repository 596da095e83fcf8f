"""The hand state machine for hkos-3-v1: deal, draws, calls, priority, robbing, endings."""

from __future__ import annotations

import pytest

from engine.actions import Action, ActionKind
from engine.events import Phase, Termination
from engine.hand import HandState, IllegalActionError
from engine.presets import find_preset
from engine.scoring.base import WinBy
from engine.tiles import MeldKind, parse_tile, parse_tiles

HKOS = find_preset("hkos-3-v1")

# A dealer hand that discards 5m (its 14th tile) and claims nothing the tests use.
DEALER_5M = "234p678p234s678s3z" + "5m"
QUIET_1 = "11s99s44z19p33m77m8p"  # seat 1: calls nothing on 5m


def act(state: HandState, text: str) -> None:
    state.apply(Action.parse(text))


def kinds(state: HandState, seat: int) -> set[str]:
    return {a.kind.value for a in state.legal_actions(seat)}


def pass_claims(state: HandState, keep: tuple[int, ...] = ()) -> None:
    """Pass every open claim except those of the seats in `keep`."""
    while state.phase is Phase.CLAIMS and any(s not in keep for s in state.seats_to_act()):
        seat = next(s for s in state.seats_to_act() if s not in keep)
        act(state, f"{seat} pass")


def play(state: HandState, *texts: str) -> None:
    """Apply each action, letting every claim it opens pass."""
    for text in texts:
        act(state, text)
        pass_claims(state)


def test_deal_gives_thirteen_and_the_dealer_fourteen() -> None:
    state = HandState(HKOS, seed=11)
    for seat in range(4):
        assert len(state.hands[seat]) == (14 if seat == 0 else 13)
        assert not any(t >= 34 for t in state.hands[seat])
    assert state.phase is Phase.TURN and state.turn == 0
    assert state.wall_left == 144 - 53 - sum(len(b) for b in state.bonus)


def test_flowers_in_the_deal_are_replaced_repeatedly_from_the_back() -> None:
    # seat 1 is dealt a flower; its first replacement (from the back) is another flower
    state = HandState.arranged(
        HKOS,
        [
            "123m456m789m111p2p3p",
            "1f" + "23s456s789s99p22z",
            "147m258p369s1234z",
            "4f5f6f7f" + "335577z9m1p2p",
        ],
        replacements="2f" + "5z",
    )
    assert sorted(state.bonus[1]) == parse_tiles("1f2f")
    assert parse_tile("5z") in state.hands[1]
    assert len(state.hands[1]) == 13
    assert sorted(state.bonus[3]) == parse_tiles("4f5f6f7f")
    assert len(state.hands[3]) == 13


def test_draw_from_front_and_discard_passes_the_turn() -> None:
    state = HandState.arranged(
        HKOS,
        [DEALER_5M, QUIET_1, "1p1p3s3s5s5s7s7s9s9p2z2z6z", "1m2m3m7m7m9m9m4s4s7z7z6z6z"],
        draws="8m",
    )
    act(state, "0 discard 5m")
    pass_claims(state)
    assert state.turn == 1 and state.phase is Phase.TURN
    assert state.drawn == parse_tile("8m")
    assert state.version == 1


def test_pung_beats_chow_whoever_answers_first() -> None:
    for order in (("1 chow 456m", "2 pung 5m"), ("2 pung 5m", "1 chow 456m")):
        state = HandState.arranged(
            HKOS,
            [
                DEALER_5M,
                "4m6m1p1p3s3s5s5s7s7s9s9s1z",
                "5m5m8m8m3p3p5p5p9p9p1s1s4z",
                "1m2m3m7m7m9m9m4s4s7z7z6z6z",
            ],
        )
        act(state, "0 discard 5m")
        assert kinds(state, 1) == {"pass", "chow"}
        assert kinds(state, 2) == {"pass", "pung"}
        for text in order:
            act(state, text)
        assert state.turn == 2 and state.phase is Phase.TURN
        assert state.melds[2][0].kind is MeldKind.PUNG and state.melds[2][0].from_seat == 0
        assert state.melds[1] == [] and state.drawn is None


def test_chow_only_from_the_left() -> None:
    state = HandState.arranged(
        HKOS,
        [DEALER_5M, QUIET_1, "4m6m1p1p3s3s5s5s7s7s9s9s1z", "1m2m3m7m7m9m9m4s4s7z7z6z6z"],
    )
    act(state, "0 discard 5m")
    assert "chow" not in kinds(state, 2)


def test_head_bump_gives_the_win_to_the_first_seat_after_the_discarder() -> None:
    state = HandState.arranged(
        HKOS,
        [DEALER_5M, QUIET_1, "123m46m789m111z99m", "5m5m5z5z5z6z6z6z2z2z2z7z7z"],
        draws="1p2p3p9s",
    )
    # a quiet first round, so that the win is not an earthly hand
    play(state, "0 discard 3z", "1 discard 1p", "2 discard 2p", "3 discard 3p")
    act(state, "0 discard 5m")
    assert "win" in kinds(state, 2) and "win" in kinds(state, 3)
    act(state, "3 win")
    act(state, "2 win")
    outcome = state.outcome()
    assert outcome is not None and outcome.termination is Termination.WIN
    assert outcome.winners == (2,)
    win = outcome.wins[0]
    assert win.by is WinBy.DISCARD and win.discarder == 0
    # half flush 3 + prevailing wind 1 + no bonus tiles 1 = 5 faan: discarder pays 24
    assert win.score.fan == 5
    assert outcome.deltas == (-24, 0, 24, 0)


def test_win_outranks_pung() -> None:
    state = HandState.arranged(
        HKOS,
        [DEALER_5M, QUIET_1, "5m5m8m8m3p3p5p5p9p9p1s1s4z", "123m46m789m222z99m"],
    )
    act(state, "0 discard 5m")
    act(state, "2 pung 5m")
    act(state, "3 win")
    assert state.outcome() is not None and state.outcome().winners == (3,)


def test_passing_a_win_does_not_block_a_later_win() -> None:
    state = HandState.arranged(
        HKOS,
        [DEALER_5M, QUIET_1, "123m456m789m111z5m", "1p1p3s3s5s5s7s7s9s9p2z2z6z"],
        draws="1p" + "6p" + "2p" + "5m",
    )
    act(state, "0 discard 5m")
    act(state, "2 pass")
    pass_claims(state)
    play(state, "1 discard 1p", "2 discard 6p", "3 discard 2p")
    assert state.turn == 0 and state.drawn == parse_tile("5m")
    act(state, "0 discard 5m")
    assert "win" in kinds(state, 2)


def test_a_hand_below_three_faan_cannot_win() -> None:
    # all chows (1) + no bonus tiles (1) = 2 faan on a discard: below the minimum
    state = HandState.arranged(
        HKOS,
        [DEALER_5M, QUIET_1, "123m456p789s234s5m", "1m2m3m7m7m9m9m4s4s7z7z6z6z"],
        draws="1z2z5z9p",
    )
    play(state, "0 discard 3z", "1 discard 1z", "2 discard 2z", "3 discard 5z")
    act(state, "0 discard 5m")
    # nobody could claim: no window opened and seat 1 drew
    assert state.phase is Phase.TURN and state.turn == 1
    assert state.ponds[0][-1] == parse_tile("5m") and not state.claimed[0]


def test_robbing_an_added_kong() -> None:
    state = HandState.arranged(
        HKOS,
        [
            "234m678m234s678s3z" + "5p",
            "5p5p1s1s9s9s4z4z3m3m7m7m8p",
            "1m1m9p9p4s4s7z7z6z6z5s5s8p",
            "1p2p3p4p6p7p8p9p2z2z2z3z3z",
        ],
        draws="9m" + "8s" + "1z" + "5p",
    )
    act(state, "0 discard 5p")
    act(state, "1 pung 5p")
    pass_claims(state)
    act(state, "1 discard 9s")
    pass_claims(state)
    act(state, "2 discard 9m")
    pass_claims(state)
    act(state, "3 discard 8s")
    pass_claims(state)
    act(state, "0 discard 1z")
    pass_claims(state)
    assert state.turn == 1 and state.drawn == parse_tile("5p")
    act(state, "1 added_kong 5p")
    assert state.phase is Phase.ROB and state.seats_to_act() == [3]
    act(state, "3 win")
    outcome = state.outcome()
    assert outcome is not None
    win = outcome.wins[0]
    assert win.by is WinBy.ROBBING_KONG and win.discarder == 1
    ids = {p.id for p in win.score.patterns}
    assert "robbing_kong" in ids
    # the robbed player pays as the discarder
    assert outcome.deltas[1] == -win.score.points["discarder"]
    assert sum(outcome.deltas) == 0


def test_an_added_kong_nobody_robs_is_committed_with_a_replacement_from_the_back() -> None:
    state = HandState.arranged(
        HKOS,
        [
            "234m678m234s678s3z" + "5p",
            "5p5p1s1s9s9s4z4z3m3m7m7m8p",
            "1m1m9p9p4s4s7z7z6z6z5s5s8p",
            "1p1p2z2z6p6p8p9p1s2s3s5s6s",
        ],
        draws="9m" + "8s" + "1z" + "5p",
        replacements="7p",
    )
    act(state, "0 discard 5p")
    act(state, "1 pung 5p")
    pass_claims(state)
    for text in ("1 discard 9s", "2 discard 9m", "3 discard 8s", "0 discard 1z"):
        act(state, text)
        pass_claims(state)
    act(state, "1 added_kong 5p")
    assert state.melds[1][0].kind is MeldKind.ADDED_KONG
    assert state.drawn == parse_tile("7p") and state.after_kong


def test_only_thirteen_orphans_robs_a_concealed_kong() -> None:
    hands = [
        "234p678p234s678s3z" + "2m",
        "1m1m1m5s5s6s6s7s7s8s8s2p2p",
        "9m1p9p1s9s1z2z3z4z5z6z7z7z",
        "2m3m4m5m6m7m8m8m5p5p6p6p4s",
    ]
    state = HandState.arranged(HKOS, hands, draws="1m")
    act(state, "0 discard 2m")
    pass_claims(state)
    act(state, "1 concealed_kong 1m")
    assert state.phase is Phase.ROB and state.seats_to_act() == [2]
    act(state, "2 win")
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (2,)
    assert outcome.wins[0].score.fan == 13 and outcome.deltas[1] == -384

    # the same kong with an ordinary hand waiting on 1m: no rob window at all
    hands[2] = "2m3m5p6p7p1s2s3s7s8s9s5z5z"
    state = HandState.arranged(HKOS, hands, draws="1m", replacements="9p")
    act(state, "0 discard 2m")
    pass_claims(state)
    act(state, "1 concealed_kong 1m")
    assert state.phase is Phase.TURN and state.turn == 1
    assert state.melds[1][0].kind is MeldKind.CONCEALED_KONG
    assert state.drawn == parse_tile("9p")


def test_kong_replacement_win_scores_self_draw_and_kong_replacement() -> None:
    state = HandState.arranged(
        HKOS,
        [
            "1m1m1m1m2p3p4p5p6p7p7s9s5z" + "5z",
            "11s99s44z19p33m77m8p",
            "1p1p3s3s5s5s7s7s9s9p2z2z6z",
            "2p3p4p2s3s4s6p7p8p6s7s8s3z",
        ],
        replacements="8s",
    )
    act(state, "0 concealed_kong 1m")
    assert state.drawn == parse_tile("8s")
    assert "win" in kinds(state, 0)
    act(state, "0 win")
    win = state.outcome().wins[0]
    ids = {p.id for p in win.score.patterns}
    assert {"self_draw", "kong_replacement"} <= ids
    assert win.by is WinBy.SELF_DRAW


def test_heavenly_hand_for_the_dealers_dealt_win() -> None:
    state = HandState.arranged(
        HKOS,
        [
            "123m456p789s234s5m5m",
            "11s99s44z19p33m77m8p",
            "1p1p3s3s5s5s7s7s9s9p2z2z6z",
            "2p3p4p2s6s8s6p7p8p6s7s8s3z",
        ],
    )
    assert "win" in kinds(state, 0)
    act(state, "0 win")
    win = state.outcome().wins[0]
    assert win.score.fan == 13 and [p.id for p in win.score.patterns] == ["heavenly_hand"]
    assert state.outcome().deltas == (576, -192, -192, -192)


def test_earthly_hand_on_easts_first_discard() -> None:
    state = HandState.arranged(
        HKOS,
        [
            DEALER_5M,
            "123m456p789s234s5m",
            "1p1p3s3s5s5s7s7s9s9p2z2z6z",
            "1m2m3m7m7m9m9m4s4s7z7z6z6z",
        ],
    )
    act(state, "0 discard 5m")
    act(state, "1 win")
    win = state.outcome().wins[0]
    assert [p.id for p in win.score.patterns] == ["earthly_hand"]
    assert state.outcome().deltas == (-384, 384, 0, 0)


def test_exhaustive_draw_pays_nothing_and_a_stale_action_is_refused() -> None:
    state = HandState(HKOS, seed=5)
    stale = state.legal_actions(0)[0]
    while not state.is_over:
        seat = state.seats_to_act()[0]
        legal = state.legal_actions(seat)
        # everyone passes and discards the drawn tile: nobody ever wins
        choice = next((a for a in legal if a.kind is ActionKind.PASS), None)
        if choice is None:
            choice = next(a for a in legal if a.kind is ActionKind.DISCARD)
            drawn = [a for a in legal if a.kind is ActionKind.DISCARD and a.tile == state.drawn]
            choice = drawn[0] if drawn else choice
        state.apply(choice)
    outcome = state.outcome()
    assert outcome is not None and outcome.termination is Termination.WALL_DRAW
    assert outcome.deltas == (0, 0, 0, 0) and state.wall_left == 0
    with pytest.raises(IllegalActionError, match="illegal action"):
        state.apply(stale)


def test_replay_rebuilds_the_same_state() -> None:
    from engine.computer.simulate import play_out

    live = play_out(HandState(HKOS, seed=42))
    again = HandState.replay(HKOS, 42, [str(a) for a in live.log])
    assert again.hands == live.hands and again.melds == live.melds
    assert again.ponds == live.ponds and again.outcome() == live.outcome()
    assert again.version == live.version == len(live.log)


def _at_the_last_tile(hands: list[str], last: str) -> HandState:
    """A hand whose wall is drained so that the next draw is its final tile, `last`."""
    state = HandState.arranged(HKOS, hands, replacements=last)
    state.front = state.back - 1  # the wall's other tiles are gone
    return state


def test_a_win_on_the_final_draw_scores_last_tile() -> None:
    state = _at_the_last_tile(
        [DEALER_5M, "123m46m789m111z99m", "1p1p3s3s5s5s7s7s9s9p2z2z6z", "11s99s44z19p33m77m8p"],
        last="5m",
    )
    act(state, "0 discard 3z")
    assert state.turn == 1 and state.drawn == parse_tile("5m") and state.wall_left == 0
    act(state, "1 win")
    win = state.outcome().wins[0]
    assert "last_tile" in {p.id for p in win.score.patterns}
    assert win.by is WinBy.SELF_DRAW


def test_the_discard_after_the_final_draw_can_be_won_but_not_called() -> None:
    state = _at_the_last_tile(
        [DEALER_5M, "11s99s44z19p33m77m8p", "123m46m789m111z99m", "5m5m1p1p3s3s5s5s7s7s9s9p2z"],
        last="5m",
    )
    act(state, "0 discard 3z")
    act(state, "1 discard 5m")  # seat 1 drew the final tile and lets it go
    assert kinds(state, 2) == {"pass", "win"}
    # seat 3 holds 5m5m, but no pung is offered on the last discard; the dealer may win too
    # (all chows + no bonus tiles + last tile = 3 faan), and head bump prefers seat 2
    assert 3 not in state.seats_to_act() and kinds(state, 0) == {"pass", "win"}
    act(state, "0 win")
    act(state, "2 win")
    assert state.outcome().winners == (2,)
    win = state.outcome().wins[0]
    assert "last_tile" in {p.id for p in win.score.patterns}


def test_the_wall_running_out_ends_the_hand_in_a_draw() -> None:
    state = _at_the_last_tile(
        [
            DEALER_5M,
            "11s99s44z19p33m77m8p",
            "1p1p3s3s5s5s7s7s9s9p2z2z6z",
            "1m2m3m7m7m9m9m4s4s7z7z6z6z",
        ],
        last="8m",
    )
    act(state, "0 discard 3z")
    act(state, "1 discard 8m")
    outcome = state.outcome()
    assert outcome is not None and outcome.termination is Termination.WALL_DRAW
    assert outcome.deltas == (0, 0, 0, 0)
