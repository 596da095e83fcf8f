"""Riichi's rules on the shared loop (RULES.md "Riichi"), each with a concrete hand, for the
presets in development `riichi` (Tenhou) and `riichi-majsoul` (engine.families.riichi.presets)."""

from __future__ import annotations

import pytest

from engine.actions import Action, ActionKind
from engine.events import Phase, Termination
from engine.families.riichi.presets import RIICHI, RIICHI_MAJSOUL
from engine.families.riichi.rules import (
    NINE_TERMINALS,
    DoraPart,
    FuritenPart,
    RiichiPart,
    barred_after,
)
from engine.families.riichi.rules import RIICHI as RIICHI_KIND
from engine.hand import HandState
from engine.hand_setup import HandSetup
from engine.presets import Preset
from engine.scoring.base import WinBy
from engine.settlement import POT, Reason
from engine.tiles import MeldKind, format_tiles, parse_tile, parse_tiles
from tests.hands import act

BOTH = [RIICHI, RIICHI_MAJSOUL]
RICH = HandSetup(points=(25000, 25000, 25000, 25000))


def dead_wall(replacements: str, ura: str, dora: str) -> str:
    """The 14 tiles taken from the back, as `HandState.arranged` reads them: the replacement
    tiles in draw order, then the ura and the dora indicators (first turned first)."""
    tiles = [parse_tiles(part) for part in (replacements, ura, dora)]
    assert [len(t) for t in tiles] == [4, 5, 5]
    return format_tiles(tiles[0] + tiles[1][::-1] + tiles[2][::-1])


def play_quietly(state: HandState, until_turn: int) -> None:
    """Every seat passes its calls and discards its drawn tile until `until_turn` has drawn."""
    while not (state.phase is Phase.TURN and state.turn == until_turn):
        seat = state.seats_to_act()[0]
        if state.phase is Phase.TURN:
            state.apply(Action(seat, ActionKind.DISCARD, (state.drawn,)))
        else:
            state.apply(Action(seat, ActionKind.PASS))


def legal_kinds(state: HandState, seat: int) -> set[str]:
    return {a.kind.value for a in state.legal_actions(seat)}


def has_win(state: HandState, seat: int) -> bool:
    return any(a.kind is ActionKind.WIN for a in state.legal_actions(seat))


# ------------------------------------------------------------------------------- the presets


def test_the_presets_are_playable() -> None:
    from engine.presets import find_preset

    assert find_preset("riichi") is RIICHI and find_preset("riichi-majsoul") is RIICHI_MAJSOUL
    assert find_preset("sanma").seat_counts == (3,)


# ------------------------------------------------------------------------------- dead wall, dora

KONG_HANDS = [
    "123m789m123p789p5z1z",  # the dealer discards 5z
    "456m456m456p456p4s",
    "555z5s1m1m1p1p1s1s2z2z3z",  # seat 2 kongs the 5z and discards 5s
    "234m456m345p678p5s",  # seat 3 waits on 5s (all simples)
]
KONG_BACK = dead_wall("2s2s2s2s", "7z7z7z7z6z", "3s3s3s6z6z")


@pytest.mark.parametrize("preset", BOTH, ids=lambda p: p.id)
def test_the_dead_wall_keeps_14_tiles_and_a_kong_draws_from_it(preset: Preset) -> None:
    state = HandState.arranged(preset, KONG_HANDS, replacements=KONG_BACK)
    assert state.wall_left == 136 - 53 - 14  # 69 more draws after the dealer's 14th
    dora = state.part_of(DoraPart)
    assert dora is not None and dora.dora_indicators() == (parse_tile("3s"),)
    act(state, "0 discard 5z", "2 kong 5z")
    # the replacement came from the dead wall's back; the live wall is one shorter
    assert state.drawn == parse_tile("2s") and state.wall_left == 68
    assert state.wall_part.indicators()[0] == parse_tile("3s")  # indicators never move


def test_tenhou_turns_an_open_kongs_indicator_before_the_discard() -> None:
    state = HandState.arranged(RIICHI, KONG_HANDS, replacements=KONG_BACK)
    act(state, "0 discard 5z", "2 kong 5z")
    dora = state.part_of(DoraPart)
    assert dora is not None and dora.turned == 1  # a win on the replacement would not count it
    act(state, "2 discard 5s")
    assert state.phase is Phase.CLAIMS and has_win(state, 3)
    assert dora.turned == 2  # a ron on the discard counts it
    context = state.win_context(3, parse_tile("5s"), WinBy.DISCARD)
    assert context.dora == tuple(parse_tiles("3s3s"))


def test_mahjong_soul_turns_an_open_kongs_indicator_after_the_discard() -> None:
    state = HandState.arranged(RIICHI_MAJSOUL, KONG_HANDS, replacements=KONG_BACK)
    act(state, "0 discard 5z", "2 kong 5z", "2 discard 5s")
    dora = state.part_of(DoraPart)
    assert dora is not None and dora.turned == 1  # a ron on this discard does not count it
    act(state, "3 pass")
    assert dora.turned == 2


@pytest.mark.parametrize("preset", BOTH, ids=lambda p: p.id)
def test_a_concealed_kong_turns_its_indicator_at_once(preset: Preset) -> None:
    hands = ["1111m234p067p789s2z", *KONG_HANDS[1:]]  # the red 0p: a wall has three plain 5p
    hands[2] = "5s9m9p9p1s1s3z3z4z4z5z5z6z"
    state = HandState.arranged(preset, hands, replacements=KONG_BACK)
    act(state, "0 concealed_kong 1m")
    dora = state.part_of(DoraPart)
    assert dora is not None and dora.turned == 2 and state.drawn == parse_tile("2s")


# ------------------------------------------------------------------------------- a win needs a yaku

YAKU_HANDS = [
    "123m789m123p789p5s3z",  # the dealer discards 3z (West) or, below, 4z (North)
    "456m456m456p456p4s",
    "123m456m789p33z44z",  # West waits on 3z or 4z
    "234s567s234p67p99s",
]


def test_a_complete_shape_without_a_yaku_is_not_offered() -> None:
    state = HandState.arranged(RIICHI, YAKU_HANDS)
    act(state, "0 discard 3z")
    assert has_win(state, 2)  # a pung of its seat wind: yakuhai
    hands = [YAKU_HANDS[0].replace("3z", "4z"), *YAKU_HANDS[1:]]
    state = HandState.arranged(RIICHI, hands)
    act(state, "0 discard 4z")
    # the shape is complete with 4z, but no yaku: no win offered (the pon is)
    assert not has_win(state, 2) and "pung" in legal_kinds(state, 2)


# ------------------------------------------------------------------------------- riichi

RIICHI_HANDS = [
    "234m567m234p567p9s1z",  # the dealer: discarding 1z leaves 9s tanki; 9s leaves 1z tanki
    "456m456m456p456p4s",
    "111z222z333z5s6s7s8s",  # waits on 5s or 8s; three east: may pon a 1z
    "123s123s789s789s9m",
]


def test_riichi_is_offered_with_each_discard_that_leaves_the_hand_ready() -> None:
    state = HandState.arranged(RIICHI, RIICHI_HANDS, setup=RICH)
    offered = {a.tile for a in state.legal_actions(0) if a.kind is RIICHI_KIND}
    assert offered == {parse_tile("1z"), parse_tile("9s")}


def test_riichi_needs_a_thousand_points() -> None:
    poor = HandSetup(points=(999, 25000, 25000, 25000))
    state = HandState.arranged(RIICHI, RIICHI_HANDS, setup=poor)
    assert RIICHI_KIND not in {a.kind for a in state.legal_actions(0)}


def test_riichi_needs_a_closed_hand() -> None:
    hands = [
        "123m789m123p789p5s5z",  # the dealer discards 5z
        "456m456m456p456p1s",
        "5z5z234m234p678s1s9s",  # seat 2 pons it, discards 9s: ready on 1s, open
        "124s124s789s789s9m",
    ]
    state = HandState.arranged(RIICHI, hands, setup=RICH)
    act(state, "0 discard 5z", "2 pung 5z", "2 discard 9s")
    play_quietly(state, until_turn=2)
    rest = list(state.hands[2])
    rest.remove(state.drawn)  # type: ignore[arg-type]
    assert state.waits(rest)  # ready with the drawn tile discarded, but open: no riichi
    assert RIICHI_KIND not in {a.kind for a in state.legal_actions(2)}


def test_the_stick_goes_into_the_pot_when_the_discard_passes() -> None:
    state = HandState.arranged(RIICHI, RIICHI_HANDS, setup=RICH)
    act(state, "0 riichi 1z")
    # seat 2 may pon the east: the stick waits for the answer
    assert state.phase is Phase.CLAIMS and state.pot_change == 0
    act(state, "2 pass")
    riichi = state.part_of(RiichiPart)
    assert riichi is not None and riichi.declared[0] and riichi.double[0]
    assert state.pot_change == 1000 and state.points[0] == -1000
    assert [p.reason for p in state.payments] == [Reason.DEPOSIT]


def test_the_stick_goes_into_the_pot_when_the_discard_is_called() -> None:
    state = HandState.arranged(RIICHI, RIICHI_HANDS, setup=RICH)
    act(state, "0 riichi 1z", "2 pung 1z")
    riichi = state.part_of(RiichiPart)
    assert riichi is not None and riichi.declared[0] and state.pot_change == 1000


def test_no_stick_when_the_riichi_discard_is_won_on() -> None:
    hands = [
        RIICHI_HANDS[0],
        "456m456m456p11z22z",  # South waits on 1z (the round wind) or 2z
        "555z666z777z5s6s7s8s",
        RIICHI_HANDS[3],
    ]
    state = HandState.arranged(RIICHI, hands, setup=RICH)
    act(state, "0 riichi 1z")
    assert has_win(state, 1)
    act(state, "1 win")
    outcome = state.outcome()
    assert outcome is not None and outcome.pot == 0
    assert all(p.reason is not Reason.DEPOSIT for p in outcome.payments)


def test_a_hand_in_riichi_is_locked() -> None:
    state = HandState.arranged(RIICHI, RIICHI_HANDS, draws="7z", setup=RICH)
    act(state, "0 riichi 1z", "2 pass", "1 discard 4s")
    # seats 2 and 3 play on; the dealer's next turn: only the drawn tile goes
    while state.turn != 0:
        seat = state.seats_to_act()[0]
        act(state, str(state.default_action(seat)))
    kinds = [(a.kind, a.tile) for a in state.legal_actions(0)]
    assert all(kind in (ActionKind.DISCARD, ActionKind.WIN) for kind, _ in kinds)
    assert [t for k, t in kinds if k is ActionKind.DISCARD] == [state.drawn]


# ------------------------------------------------------------------------------- kuikae


def test_kuikae_bars_the_called_kind_and_the_chis_other_end() -> None:
    assert barred_after(MeldKind.CHOW, parse_tiles("345m"), parse_tile("5m")) == frozenset(
        parse_tiles("5m2m")
    )
    assert barred_after(MeldKind.PUNG, parse_tiles("777p"), parse_tile("7p")) == frozenset(
        parse_tiles("7p")
    )


def test_after_a_chi_the_barred_kinds_cannot_be_discarded() -> None:
    hands = [
        "123m789m123p789p5m1z",  # the dealer discards 5m
        "34m2m5m6m7p7p8p8p9p9p1z2z",  # seat 1 chis 3-4 with the 5m
        "555z666z777z5s6s7s8s",
        "123s123s789s789s9m",
    ]
    state = HandState.arranged(RIICHI, hands)
    act(state, "0 discard 5m", "1 chow 345m")
    discards = {a.tile for a in state.legal_actions(1) if a.kind is ActionKind.DISCARD}
    assert parse_tile("5m") not in discards and parse_tile("2m") not in discards
    assert parse_tile("6m") in discards


# ------------------------------------------------------------------------------- furiten


def test_a_wait_in_the_own_discards_forbids_a_ron_not_a_self_draw() -> None:
    hands = [
        "123m789m123p789p4s6z",  # the dealer discards 4s
        "456m456m456p456p1s",
        "234m234p56s777z66z",  # waits on 4s or 7s, with a red dragon pung
        "123s123s789s789s9m",
    ]
    state = HandState.arranged(RIICHI, hands)
    assert has_win_after(state, "0 discard 4s", 2)
    state = HandState.arranged(RIICHI, hands)
    furiten = state.part_of(FuritenPart)
    assert furiten is not None
    state.ponds[2].append(parse_tile("7s"))  # as if seat 2 had discarded its other wait
    assert not has_win_after(state, "0 discard 4s", 2)


def has_win_after(state: HandState, text: str, seat: int) -> bool:
    act(state, text)
    return state.phase is Phase.CLAIMS and has_win(state, seat)


def test_passing_a_win_is_furiten_until_the_own_discard() -> None:
    hands = [
        "123m789m123p789p4s7s",
        "456m456m456p456p1s",
        "234m234p56s777z66z",  # waits on 4s/7s
        "123s123s789s789s9m",
    ]
    state = HandState.arranged(RIICHI, hands)
    act(state, "0 discard 4s", "2 pass")
    furiten = state.part_of(FuritenPart)
    assert furiten is not None and furiten.passed[2]
    act(state, str(state.default_action(1)))
    # seat 1 discarded; if seat 2 could win on it, it may not: still furiten
    assert furiten.is_furiten(2)


# ------------------------------------------------------------------------------- aborts


def test_nine_terminals_may_be_declared_on_the_first_draw() -> None:
    hands = [
        "19m19p19s1234z2m3m4m5z",
        "456m456m456p456p4s",
        "234m234p56s777z66z",
        "123s123s789s789s9m",
    ]
    state = HandState.arranged(RIICHI, hands)
    assert Action(0, NINE_TERMINALS) in state.legal_actions(0)
    act(state, "0 nine_terminals")
    outcome = state.outcome()
    assert outcome is not None and outcome.termination is Termination.ABORTIVE_DRAW


def test_four_winds_discarded_first_abort_the_hand() -> None:
    hands = [
        "123m789m123p789p5s1z",
        "456m456m456p457p1z",
        "234m234p56s777z1z9s",
        "124s125s789s789s1z",
    ]
    state = HandState.arranged(RIICHI, hands)
    for seat in range(4):
        act(state, f"{seat} discard 1z")
    outcome = state.outcome()
    assert outcome is not None and outcome.termination is Termination.ABORTIVE_DRAW


# ------------------------------------------------------------------------------- several winners

TRIPLE = [
    "123m789m123p789p0s6z",  # the dealer discards the red 0s (a wall has three plain 5s)
    "234m456m345p678p5s",  # three seats wait on it with all simples
    "234m456m345p678p5s",
    "678m678m234p222s5s",
]


def test_triple_ron_aborts_in_tenhou_and_pays_in_mahjong_soul() -> None:
    for preset, ends in ((RIICHI, Termination.ABORTIVE_DRAW), (RIICHI_MAJSOUL, Termination.WIN)):
        state = HandState.arranged(preset, TRIPLE)
        act(state, "0 discard 0s", "1 win", "2 win", "3 win")
        outcome = state.outcome()
        assert outcome is not None and outcome.termination is ends
        assert len(outcome.wins) == (3 if ends is Termination.WIN else 0)


def test_double_ron_gives_honba_and_pot_to_the_first_winner_in_turn() -> None:
    hands = [*TRIPLE[:3], "111z222z333z4z4z1s1s"]
    setup = HandSetup(honba=2, pot=2000, points=(25000,) * 4)
    state = HandState.arranged(RIICHI, hands, setup=setup)
    act(state, "0 discard 0s", "1 win", "2 win")
    outcome = state.outcome()
    assert outcome is not None and [w.seat for w in outcome.wins] == [1, 2]
    first, second = (w.deltas for w in outcome.wins)
    # the same hand for two non-dealers: the first in turn also takes the honba and the pot
    assert first[1] - second[2] == 2 * 300 + 2000
    assert outcome.pot == -2000 and sum(outcome.deltas) + outcome.pot == 0
    assert any(p.payer == POT and p.payee == 1 for p in outcome.payments)


# ------------------------------------------------------------------------------- random play


@pytest.mark.parametrize("preset", BOTH, ids=lambda p: p.id)
def test_random_legal_play_conserves_tiles_and_points(preset: Preset) -> None:
    import random

    for seed in range(25):
        setup = HandSetup(honba=seed % 3, pot=1000 * (seed % 2), points=(25000,) * 4)
        state = HandState(preset, seed, setup)
        rng = random.Random(seed)
        while not state.is_over:
            seat = state.seats_to_act()[0]
            legal = state.legal_actions(seat)
            eager = [a for a in legal if a.kind in (ActionKind.WIN, RIICHI_KIND)]
            state.apply(eager[0] if eager and rng.random() < 0.9 else rng.choice(legal))
            assert sorted(state.tiles_in_play()) == sorted(preset.wall)
        outcome = state.outcome()
        assert outcome is not None
        assert sum(outcome.deltas) + outcome.pot == 0


def answer_all_but(state: HandState, winner: int) -> None:
    """The winner takes the tile; every other asked seat passes."""
    act(state, f"{winner} win")
    for seat in state.seats_to_act():
        act(state, f"{seat} pass")


def test_double_riichi_and_ippatsu_reach_the_score() -> None:
    state = HandState.arranged(RIICHI, RIICHI_HANDS, draws="9s", setup=RICH)
    act(state, "0 riichi 1z", "2 pass", "1 discard 9s")
    assert has_win(state, 0)
    answer_all_but(state, 0)
    outcome = state.outcome()
    assert outcome is not None
    ids = {p.id for p in outcome.wins[0].score.patterns}
    assert {"double_riichi", "ippatsu"} <= ids and "riichi" not in ids


def test_a_call_breaks_ippatsu() -> None:
    state = HandState.arranged(RIICHI, RIICHI_HANDS, draws="5s", setup=RICH)
    act(state, "0 riichi 1z", "2 pass", "1 discard 5s", "2 chow 567s")
    riichi = state.part_of(RiichiPart)
    assert riichi is not None and riichi.declared[0] and not riichi.ippatsu[0]


# ------------------------------------------------------------------------------- chankan

ORPHANS_ROB = [
    "1111z234m567m234p5p",  # the dealer makes a concealed kong of east
    "19m19p19s2345677z",  # thirteen orphans waiting on east
    "234m567m234p567p5s",
    "345s345s678s678s5p",
]


def test_thirteen_orphans_robs_a_concealed_kong_only_in_mahjong_soul() -> None:
    state = HandState.arranged(RIICHI, ORPHANS_ROB)
    act(state, "0 concealed_kong 1z")
    assert state.phase is Phase.TURN and state.turn == 0  # committed: nobody may rob it
    state = HandState.arranged(RIICHI_MAJSOUL, ORPHANS_ROB)
    act(state, "0 concealed_kong 1z")
    assert state.phase is Phase.ROB and has_win(state, 1)
    act(state, "1 win")
    outcome = state.outcome()
    assert outcome is not None and outcome.wins[0].by is WinBy.ROBBING_KONG
    assert outcome.wins[0].score.patterns[0].id == "kokushi_musou"


# ------------------------------------------------------------------------------- exhaustive draw


def play_out(state: HandState) -> None:
    """Every seat passes its calls and discards its drawn tile to the end of the hand."""
    while not state.is_over:
        seat = state.seats_to_act()[0]
        if state.phase is Phase.TURN:
            state.apply(Action(seat, ActionKind.DISCARD, (state.drawn,)))
        else:
            state.apply(Action(seat, ActionKind.PASS))


def test_tenpai_payments_count_formal_tenpai_and_not_karaten() -> None:
    hands = [
        "234m567m234p567p1z9s",  # discards 9s: tanki on 1z, no yaku (formal tenpai)
        "456m456m406p457p4s",
        "9s9s9s234m234p567p2z",  # pons the 9s, discards 2z: tanki on its own fourth 9s
        "123s124s1m1m1p1p3z3z9m",
    ]
    state = HandState.arranged(RIICHI, hands)
    act(state, "0 discard 9s", "2 pung 9s", "2 discard 2z")
    play_out(state)
    outcome = state.outcome()
    assert outcome is not None and outcome.termination is Termination.WALL_DRAW
    assert state.waits(state.hands[2]) == [parse_tile("9s")]  # the shape is ready ...
    assert outcome.ready == (0,)  # ... but karaten is not tenpai
    assert outcome.deltas == (3000, -1000, -1000, -1000)


# ------------------------------------------------------------------------------- the game


def test_the_game_is_a_hanchan_or_with_length_east_a_tonpuu() -> None:
    from engine.game import GameProgress, game_over
    from engine.options import choose

    rule = RIICHI.game
    after_south = GameProgress(hands=8, dealer_changes=8, points=(31000, 29000, 20000, 20000))
    assert game_over(rule, after_south)
    short = choose(RIICHI, {"length": "east"}).game
    after_east = GameProgress(hands=4, dealer_changes=4, points=(31000, 29000, 20000, 20000))
    assert game_over(short, after_east) and not game_over(rule, after_east)
    # nobody at 30,000: the game extends into the next round
    level = GameProgress(hands=8, dealer_changes=8, points=(25000, 25000, 25000, 25000))
    assert not game_over(rule, level)
    assert game_over(
        rule, GameProgress(hands=3, dealer_changes=2, points=(-100, 45100, 30000, 25000))
    )


def test_the_final_scores_of_each_platform() -> None:
    from engine.game import standings

    points = (42600, 28400, 19600, 9400)
    assert [s.score for s in standings(RIICHI.game, points)] == [53.0, 8.0, -20.0, -41.0]
    assert [s.score for s in standings(RIICHI_MAJSOUL.game, points)] == [32.6, 8.4, -10.4, -30.6]


def test_nagashi_mangan_is_paid_as_a_mangan_self_draw_instead() -> None:
    from engine.families.riichi.scoring import nagashi, wall_draw_payments

    hands = [
        "234m567m234p567p1z9s",
        "456m456m406p457p4s",
        "9s9s9s234m234p567p2z",
        "123s124s1m1m1p1p3z3z9m",
    ]
    state = HandState.arranged(RIICHI, hands)
    play_out(state)
    assert not any(nagashi(state, seat) for seat in state.seats)
    # seat 1's discards as if every one had been a terminal or an honour, none called
    state.ponds[1][:] = parse_tiles("19m19p19s1234567z")
    assert nagashi(state, 1)
    paid = sorted((p.payer, p.payee, p.amount) for p in wall_draw_payments(RIICHI, state))
    assert paid == [(0, 1, 4000), (2, 1, 2000), (3, 1, 2000)]


# ------------------------------------------------------------------------------- pao


def test_the_seat_that_fed_the_third_dragon_pays_a_self_drawn_big_three_dragons() -> None:
    hands = [
        "5z6z7z147m258p369s4z9m",  # the dealer feeds the three dragons
        "5z5z6z6z7z7z1m1m2m3m1z2z3z",
        "2m5m8m1p4p7p1s4s7s8m8p8s9p",
        "3m6m9m3p6p9p2s5s8s4z4z9s9p",
    ]
    state = HandState.arranged(RIICHI, hands, draws="6m6m6m6p6p6p6s6s6s4m")
    for dragon, discard in (("5z", "1z"), ("6z", "2z"), ("7z", "3z")):
        play_quietly(state, until_turn=0)
        act(state, f"0 discard {dragon}", f"1 pung {dragon}", f"1 discard {discard}")
    play_quietly(state, until_turn=1)
    assert state.drawn == parse_tile("4m") and has_win(state, 1)
    act(state, "1 win")
    outcome = state.outcome()
    assert outcome is not None and outcome.wins[0].score.patterns[0].id == "daisangen"
    assert outcome.deltas == (-32000, 32000, 0, 0)
    assert {p.reason for p in outcome.payments} == {Reason.LIABILITY}


def test_four_riichi_abort_the_hand_once_the_fourth_stick_is_paid() -> None:
    hands = [
        "234m567m234p567p9s1z",
        "123m456m789m123p5s",
        "111s222s333s444s5p",
        "666s777s888s999s6z",
    ]
    state = HandState.arranged(RIICHI, hands, draws="7z7z7z", setup=RICH)
    act(state, "0 riichi 1z", "1 riichi 7z", "2 riichi 7z")
    assert not state.is_over
    act(state, "3 riichi 7z")
    outcome = state.outcome()
    assert outcome is not None and outcome.termination is Termination.ABORTIVE_DRAW
    assert outcome.pot == 4000 and outcome.deltas == (-1000, -1000, -1000, -1000)


def test_riichi_needs_four_tiles_left_in_the_live_wall() -> None:
    state = HandState.arranged(RIICHI, RIICHI_HANDS, setup=RICH)
    act(state, "0 discard 1z")  # ready on 9s, closed: riichi is offered on each turn while it may
    offered: dict[int, bool] = {}
    while not state.is_over:
        seat = state.seats_to_act()[0]
        if state.phase is Phase.TURN:
            if seat == 0:
                offered[state.wall_left] = RIICHI_KIND in {a.kind for a in state.legal_actions(0)}
            state.apply(Action(seat, ActionKind.DISCARD, (state.drawn,)))
        else:
            state.apply(Action(seat, ActionKind.PASS))
    assert offered[5] and not offered[1]
    assert all(offered[left] == (left >= 4) for left in offered)


def test_four_kongs_by_two_players_abort_once_the_next_discard_passes() -> None:
    hands = [
        "1111m2222m345p67p9s",  # the dealer makes two concealed kongs
        "3333s444s5s6s7s8s9s1z",  # seat 1 draws the fourth 4s: two more
        "3m4m5m6m7m8m9m1p2p3p4z4z7z",
        "3m4m5m6m7m8m9m9p9p8p8p7z1z",
    ]
    state = HandState.arranged(RIICHI, hands, draws="4s", replacements="5z5z6z6z")
    act(state, "0 concealed_kong 1m", "0 concealed_kong 2m", "0 discard 5z")
    act(state, "1 concealed_kong 3s", "1 concealed_kong 4s")
    assert state.kongs_made == 4 and not state.is_over
    act(state, "1 discard 6z")
    outcome = state.outcome()
    assert outcome is not None and outcome.termination is Termination.ABORTIVE_DRAW


def test_the_last_discard_may_only_be_won_on() -> None:
    hands = [*RIICHI_HANDS[:3], "123s123s789s78s5z5z"]  # seat 3 holds a pair of south...
    back = "6z6z6z6z7z7z7z7z4z4z4z4z3s3s"  # ... and the live wall ends with the other two
    state = HandState.arranged(RIICHI, hands, replacements=back)
    pung_offered: dict[int, bool] = {}  # tiles left when a 5z was discarded: a pon for seat 3?
    while not state.is_over:
        seat = state.seats_to_act()[0]
        if state.phase is Phase.TURN:
            state.apply(Action(seat, ActionKind.DISCARD, (state.drawn or state.hands[seat][-1],)))
            continue
        if state.claim_tile == parse_tile("5z") and 3 in state.pending:
            pung_offered[state.wall_left] = "pung" in legal_kinds(state, 3)
        state.apply(Action(seat, ActionKind.PASS))
    # the south before the last was offered to seat 3's pon; the last one, discarded at the
    # wall's end by another seat, was not (no window opened for a pon)
    assert state.last_discard is not None
    last_seat, index = state.last_discard
    assert state.ponds[last_seat][index] == parse_tile("5z") and last_seat != 3
    assert pung_offered == {1: True}
