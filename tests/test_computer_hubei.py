"""The strong computer at hubei-laizi, as positions: what a deal-in costs, when a discard win
is passed for a self draw.

Only an open hand may win, so a closed opponent threatens no discard; a win pays 2^(winner fan +
loser fan), so an opponent's kongs and this seat's own kongs and open hand make a deal-in dearer,
and where the fan of both stays below the minimum no win on a discard can be made at all. A small
win on a discard is paid by the discarder alone, a self draw by every other seat: where those
seats' fan makes the self draw pay well more, the discard win is passed (the hand stays ready).
"""

from __future__ import annotations

from dataclasses import replace

from engine.actions import Action, ActionKind
from engine.computer import decide, strong
from engine.presets import with_options
from engine.tiles import RED, Meld, parse_tiles
from tests.test_computer_presets import HUBEI, OPENED, WILD_9M, claim_view, seat_view, t

HAND = "123m456m78p2s5s99s9m"  # seat 0 holds a wild and tiles of every suit
POND = tuple(parse_tiles("1m9m1p9p1s4m6m"))  # a long pond: the seat has played for a while


def _view(
    opponent: tuple[Meld, ...],
    opponent_kongs: tuple[int, ...] = (),
    own: tuple[Meld, ...] = (),
    own_kongs: tuple[int, ...] = (),
):
    """Seat 0 on its turn; seat 1 has discarded POND and shows `opponent` and `opponent_kongs`
    set down; seats 2 and 3 show nothing."""
    return seat_view(
        HUBEI,
        HAND,
        (own, opponent, (), ()),
        wilds=WILD_9M,
        ponds=((), POND, (), ()),
        set_down=(own_kongs, opponent_kongs, (), ()),
    )


def _danger(view) -> float:  # type: ignore[no-untyped-def]
    return decide.Player(view).dangers()[t("5s")]


def test_hubei_fears_no_discard_of_a_closed_hand() -> None:
    # a closed hand cannot win, however long its pond and whatever it has set down
    assert _danger(_view((), (RED, RED))) == 0


def test_hubei_fears_no_win_below_the_minimum() -> None:
    # both seats closed of kongs, this one closed: no win on its discard reaches 3 fan
    assert _danger(_view((Meld.parse("pung 333s"),))) == 0


def test_hubei_fears_an_open_hand_more_with_each_kong_of_either_seat() -> None:
    opened = (Meld.parse("pung 333s"),)
    one_kong = _danger(_view(opened, (RED,)))
    two_kongs = _danger(_view(opened, (RED, RED)))
    assert 0 < one_kong < two_kongs
    # this seat's own red kong and open hand are paid as well
    own = (Meld.parse("chow 789m"),)
    assert _danger(_view(opened, (RED,), own, (RED,))) > one_kong


# ---------------------------------------------------------------- a discard win or a self draw

_READY = "234m567m22p78p"  # with pung 333s: waits on 6p or 9p, a hard small win (1 fan)


def _offered_win(others: tuple[tuple[Meld, ...], ...], kongs: tuple[tuple[int, ...], ...]):
    """Seat 0, open and ready, may win on seat 3's 6p: only seat 3 would pay (a small win)."""
    view = seat_view(HUBEI, _READY, ((Meld.parse("pung 333s"),), *others), wilds=WILD_9M)
    view = replace(view, set_down=((), *kongs))
    return claim_view(view, "6p", 3, Action(0, ActionKind.WIN))


def test_hubei_passes_a_small_discard_win_for_a_self_draw_every_seat_pays() -> None:
    # seat 3 (an open hand and a red kong) would pay 2^(1 + 2) = 8 for the discard; a self draw
    # is paid by all three, the others open with kongs too: 16 + 8 + 8 = 32, 7 tiles still live
    others = ((Meld.parse("pung 111s"),), (Meld.parse("pung 111m"),), (Meld.parse("chow 345s"),))
    view = _offered_win(others, ((RED, RED), (RED,), (RED,)))
    assert strong.choose(view).kind is ActionKind.PASS


def test_hubei_takes_a_discard_win_when_the_self_draw_adds_little() -> None:
    # the other two are closed and show nothing: a self draw brings 2 + 2 + 8 = 12 against 8
    view = _offered_win(((), (), (Meld.parse("chow 345s"),)), ((), (), (RED,)))
    assert strong.choose(view).kind is ActionKind.WIN


# ---------------------------------------------------------------------------- wild kongs


def test_hubei_keeps_a_wild_while_the_hand_is_worth_something_with_it() -> None:
    # seat 1's two red kongs let the small win reach the minimum with the wild kept; setting it
    # down brings 2 fan (and 2 more to every payment this seat makes as a loser) for less than
    # twice the worth, the wild no longer standing in (the two tests of wild kongs in
    # tests/test_computer_presets.py set it down where the hand is worthless with it)
    view = seat_view(HUBEI, "456p789p22s6s8s9m", OPENED, wilds=WILD_9M)
    view = replace(view, set_down=((), (RED, RED), (), ()))
    assert strong.choose(view).tile != t("9m")


# ---------------------------------------------------------------------- how far a plan looks


def test_hubei_at_the_minimum_aims_at_far_plans_and_without_it_at_near_ones() -> None:
    # at the 3-fan minimum most near shapes are worth nothing and each fan doubles what every
    # loser pays: an exchange more keeps most of a plan's chance (bench/strength.py measured
    # the step); without the minimum every open hand wins, and near plans count as elsewhere
    live = 12
    at_minimum = decide.Player(seat_view(HUBEI, HAND, wilds=WILD_9M))
    assert at_minimum.chance(2, live) > 0.5 * at_minimum.chance(1, live)
    free = with_options(HUBEI, ["no_minimum"])
    no_minimum = decide.Player(seat_view(free, HAND, wilds=WILD_9M))
    assert no_minimum.chance(2, live) < 0.2 * no_minimum.chance(1, live)
