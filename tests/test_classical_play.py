"""chinese-classical in play (RULES.md): the wall, calls, robbing, no minimum, no seven pairs, and
every hand scored when someone goes out (the winner's and the losers' settlement)."""

from __future__ import annotations

from collections import Counter

from engine.actions import Action
from engine.computer.simulate import play_session
from engine.game import GameProgress, game_over
from engine.hand import HandState, Phase
from engine.hand_setup import HandSetup
from engine.options import choose
from engine.preset import Preset
from engine.presets import find_preset
from engine.rotation import next_dealer_seat
from engine.scoring.base import WinBy
from engine.settlement import Reason
from engine.tiles import BONUS, MeldKind, parse_tile, parse_tiles

CLASSICAL = find_preset("chinese-classical")

DEALER_5M = "234p678p234s678s3z" + "5m"
QUIET_1 = "11s99s44z19p33m77m8p"


def act(state: HandState, text: str) -> None:
    state.apply(Action.parse(text))


def pass_claims(state: HandState) -> None:
    while state.phase is Phase.CLAIMS and state.seats_to_act():
        act(state, f"{state.seats_to_act()[0]} pass")


def play(state: HandState, *texts: str) -> None:
    for text in texts:
        act(state, text)
        pass_claims(state)


def test_the_set_the_deal_and_the_dead_wall() -> None:
    assert len(CLASSICAL.wall) == 144 and Counter(CLASSICAL.wall)[BONUS[0]] == 1
    state = HandState(CLASSICAL, seed=3)
    assert [len(state.hands[s]) for s in range(4)] == [14, 13, 13, 13]
    assert state.wall_left == 144 - 53 - 16 - sum(len(b) for b in state.bonus)
    assert CLASSICAL.start_points == 2000 and CLASSICAL.min_fan == 0


def test_a_flower_is_exposed_and_replaced() -> None:
    state = HandState.arranged(
        CLASSICAL,
        [
            "123m456m789m111p2p3p",
            "1f23s456s789s99p22z",
            "147m258p369s1234z",
            "335577z9m1p2p4s5s6s7s",
        ],
        replacements="5z",
    )
    assert state.bonus[1] == [parse_tile("1f")] and parse_tile("5z") in state.hands[1]


def test_no_minimum_head_bump_and_every_hand_scored() -> None:
    state = HandState.arranged(
        CLASSICAL,
        [DEALER_5M, QUIET_1, "123m46m789p111z99s", "555z666z777z1s1s4m6m"],
        draws="1p2p3p9m",
    )
    play(state, "0 discard 3z", "1 discard 1p", "2 discard 2p", "3 discard 3p")
    act(state, "0 discard 5m")
    # West and North both win on 5m: the first in turn after the discarder takes it
    act(state, "3 win")
    act(state, "2 win")
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (2,)
    win = outcome.wins[0]
    # West: going out 10, a concealed pung of East 8, the only place 2; East's pung doubles
    assert win.score.fan == 40 and not win.score.limit
    assert {p.id: p.fan for p in win.score.patterns} == {
        "pung_major_concealed": 8,
        "going_out": 10,
        "only_place": 2,
        "prevailing_wind_pung": 1,
    }
    # North lost with three concealed dragon pungs: 24 points x 2^4; East and South score 0
    assert win.score.points == {"E": 0, "S": 0, "W": 40, "N": 384}
    paid = [(p.payer, p.payee, p.amount, p.reason) for p in state.payments]
    assert paid == [
        (0, 2, 80, Reason.WIN),
        (1, 2, 40, Reason.WIN),
        (3, 2, 40, Reason.WIN),
        (0, 3, 768, Reason.SETTLEMENT),
        (1, 3, 384, Reason.SETTLEMENT),
    ]
    assert outcome.deltas == (-848, -424, 160, 1112)


def test_no_seven_pairs() -> None:
    state = HandState.arranged(
        CLASSICAL,
        [DEALER_5M, QUIET_1, "5m1p1p3p3p5p5p7p7p9p9p2s2s", "1m2m3m7m7m9m9m4s4s7z7z6z6z"],
    )
    act(state, "0 discard 5m")
    assert all(a.kind.value != "win" for a in state.legal_actions(2))


def test_chow_only_from_the_left_pung_from_anyone() -> None:
    state = HandState.arranged(
        CLASSICAL,
        [DEALER_5M, "4m6m1p1p3s3s5s5s7s7s9s9s1z", "5m5m8m8m3p3p5p5p9p9p1s1s4z", QUIET_1],
    )
    act(state, "0 discard 5m")
    assert {a.kind.value for a in state.legal_actions(1)} == {"pass", "chow"}
    assert {a.kind.value for a in state.legal_actions(2)} == {"pass", "pung"}


def test_robbing_an_added_kong() -> None:
    state = HandState.arranged(
        CLASSICAL,
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
    play(state, "1 discard 9s", "2 discard 9m", "3 discard 8s", "0 discard 1z")
    act(state, "1 added_kong 5p")
    assert state.phase is Phase.ROB and state.seats_to_act() == [3]
    act(state, "3 win")
    outcome = state.outcome()
    assert outcome is not None
    win = outcome.wins[0]
    assert win.by is WinBy.ROBBING_KONG
    assert "robbing_kong" in {p.id for p in win.score.patterns}
    assert sum(outcome.deltas) == 0


def test_only_thirteen_orphans_robs_a_concealed_kong() -> None:
    hands = [
        "234p678p234s678s3z" + "2m",
        "1m1m1m5s5s6s6s7s7s8s8s2p2p",
        "9m1p9p1s9s1z2z3z4z5z6z7z7z",
        "2m3m4m5m6m7m8m8m5p5p6p6p4s",
    ]
    state = HandState.arranged(CLASSICAL, hands, draws="1m")
    play(state, "0 discard 2m")
    act(state, "1 concealed_kong 1m")
    assert state.phase is Phase.ROB and state.seats_to_act() == [2]
    act(state, "2 win")
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (2,)
    assert outcome.wins[0].score.fan == 1000 and outcome.wins[0].score.limit
    hands[2] = "2m3m5p6p7p1s2s3s7s8s9s5z5z"
    state = HandState.arranged(CLASSICAL, hands, draws="1m", replacements="9p")
    play(state, "0 discard 2m")
    act(state, "1 concealed_kong 1m")
    assert state.phase is Phase.TURN and state.melds[1][0].kind is MeldKind.CONCEALED_KONG


def test_a_match_is_four_rounds_east_keeps_the_deal_and_is_rated_once() -> None:
    game = CLASSICAL.game
    assert game.rounds == 4 and game.rates_per_game
    # sixteen passes of the deal end it, not fifteen
    points = (2000, 2000, 2000, 2000)
    assert not game_over(game, GameProgress(30, 15, points))
    assert game_over(game, GameProgress(30, 16, points))
    session = list(play_session(CLASSICAL, 40, 5))
    dealers = [played.dealer for played in session]
    for before, after, played in zip(dealers, dealers[1:], session, strict=False):
        east_won = 0 in played.outcome.winners
        drawn = not played.outcome.winners
        if east_won or drawn:
            assert after == before  # East keeps the deal on his win and on a draw


def test_east_length_is_casual_only() -> None:
    length = next(o for o in CLASSICAL.options if o.name == "length")
    assert length.values == ("full", "east") and length.default == "full" and not length.rated
    assert parse_tiles("1f")


def test_a_kong_is_replaced_from_the_dead_wall_which_is_never_replenished() -> None:
    state = HandState.arranged(
        CLASSICAL,
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
    play(state, "1 discard 9s", "2 discard 9m", "3 discard 8s", "0 discard 1z")
    live = state.wall_left
    act(state, "1 added_kong 5p")
    assert state.drawn == parse_tile("7p") and state.after_kong
    # the live wall is as long as before: the dead wall gave the replacement and stays short
    assert state.wall_left == live
    hkos = HandState.arranged(
        find_preset("hkos-3-v1"),
        [
            "234m678m234s678s3z" + "5p",
            "5p5p1s1s9s9s4z4z3m3m7m7m8p",
            "1m1m9p9p4s4s7z7z6z6z5s5s8p",
            "1p1p2z2z6p6p8p9p1s2s3s5s6s",
        ],
        draws="9m" + "8s" + "1z" + "5p",
        replacements="7p",
    )
    act(hkos, "0 discard 5p")
    act(hkos, "1 pung 5p")
    pass_claims(hkos)
    play(hkos, "1 discard 9s", "2 discard 9m", "3 discard 8s", "0 discard 1z")
    before = hkos.wall_left
    act(hkos, "1 added_kong 5p")
    assert hkos.wall_left == before - 1  # where the dead wall is made up from the live wall


def test_a_whole_match_conserves_the_points() -> None:
    session = list(play_session(CLASSICAL, 60, 2))
    assert 16 <= len(session) < 60  # the match ended by its length
    for played in session:
        assert sum(played.outcome.deltas) == 0
        assert sum(played.state.setup.points) == 8000


def _east_wins_after(kept: int, preset: Preset = CLASSICAL) -> HandState:
    """East wins by a self draw in a hand dealt after he kept the deal `kept` times."""
    state = HandState.arranged(
        preset,
        [
            "123m456m789m11p23s" + "3z",
            QUIET_1,
            "5m5m8m8m3p3p5p5p9p9p1s1s4z",
            "5z5z5z6z6z6z5p5p6s6s8s8s2z",
        ],
        draws="1p2p3p4s",
        setup=HandSetup(honba=kept),
    )
    play(state, "0 discard 3z", "1 discard 1p", "2 discard 2p", "3 discard 3p")
    act(state, "0 win")
    return state


def test_easts_ninth_win_is_a_limit_and_passes_the_deal() -> None:
    ninth = _east_wins_after(8)
    outcome = ninth.outcome()
    assert outcome is not None and outcome.wins[0].score.fan == 1000
    assert {p.id for p in outcome.wins[0].score.patterns} == {"east_ninth_win"}
    assert next_dealer_seat(CLASSICAL.rotation, outcome) == 1  # the deal passes
    eighth = _east_wins_after(7).outcome()
    assert eighth is not None and not eighth.wins[0].score.limit
    assert next_dealer_seat(CLASSICAL.rotation, eighth) == 0  # East keeps it
    off = choose(CLASSICAL, {"east_nine": False})
    assert not _east_wins_after(8, off).wins[0].score.limit
