"""A call that may give a plain five or the red one (issue 43 item 1), as players meet it: the
terminal's menu and answers, and the Discord menu of melds the call button opens."""

from __future__ import annotations

from bot.discord.ids import Stamp
from bot.discord.surface import call_choice
from bot.runtime import Decision
from bot.runtime.snapshots import five_choices
from bot.terminal import Ask, read_answer
from engine.actions import Action, ActionKind
from engine.families.riichi.presets import RIICHI
from engine.hand import HandState
from engine.tiles import format_tiles

FILL = ["2p2p2p8p8p8p2s2s2s8s8s8s6z", "3p3p3p7p7p7p3s3s3s7s7s7s1z"]


def offered(seat1: str, discard: str) -> HandState:
    """The dealer discards `discard`; seat 1 holds `seat1`."""
    dealer = "4m4m4m6m6m6m7m7m7m8m8m9m9m" + discard
    state = HandState.arranged(RIICHI, [dealer, seat1, *FILL])
    state.apply(Action.parse(f"0 discard {discard}"))
    return state


def claim_decision(state: HandState, vocabulary: str = "riichi") -> Decision:
    """Seat 1's claim decision as the runtime's snapshot builds it."""
    actions = state.legal_actions(1)
    calls = [a for a in actions if a.kind in (ActionKind.CHOW, ActionKind.PUNG, ActionKind.KONG)]
    melds = tuple((a, state.call_meld_tiles(a)) for a in calls)
    return Decision(
        state.decision_version,
        "claim",
        actions,
        None,
        actions[0],
        vocabulary=vocabulary,
        melds=melds,
        five_choices=five_choices(state, calls),
    )


def test_the_terminal_lists_both_fives_and_takes_either() -> None:
    chi = claim_decision(offered("3m5m0m2p3p4p2s3s4s6s7s8s9s", "4m"))
    assert [str(chi.words(a)) for a in chi.actions] == ["pass", "chi 345m", "chi 340m"]
    assert read_answer("chi 340m", chi) == Action.parse("1 chow 340m")
    assert read_answer("chi 304m", chi) == Action.parse("1 chow 340m")
    assert read_answer("chi 345m", chi) == Action.parse("1 chow 345m")
    assert read_answer("chi", chi) == Ask("Which chi? Type 'chi 345m' or 'chi 340m'.")
    pon = claim_decision(offered("5m5m0m2p3p4p2s3s4s6s7s8s9s", "5m"))
    words = [str(pon.words(a)) for a in pon.actions]
    assert words == ["pass", "pon 555m", "pon 550m", "kan 5m"]
    assert read_answer("pon 055m", pon) == Action.parse("1 pung 550m")
    assert read_answer("pon 555m", pon) == Action.parse("1 pung 5m")
    asked = read_answer("pon", pon)
    assert isinstance(asked, Ask) and "'pon 555m'" in asked.text and "'pon 550m'" in asked.text


def test_the_terminal_names_a_call_as_before_when_there_is_no_choice() -> None:
    one = claim_decision(offered("5m5m2p3p4p2s3s4s6s7s8s9s1z", "5m"))
    assert [str(one.words(a)) for a in one.actions] == ["pass", "pon 5m"]
    assert one.five_choices == frozenset()
    red_only = claim_decision(offered("3m0m2p3p4p2s3s4s6s7s8s9s1z", "4m"))
    assert [str(red_only.words(a)) for a in red_only.actions] == ["pass", "chi 345m"]
    assert read_answer("chi 340m", red_only) == Action.parse("1 chow 345m")  # its meld


def test_the_call_button_opens_the_melds_as_tenhou_names_them() -> None:
    chi = claim_decision(offered("3m5m0m2p3p4p2s3s4s6s7s8s9s", "4m"))
    view = call_choice(7, Stamp(1, 2), "chow", chi)
    (menu,) = view.children
    labels = [option.label for option in menu.item.options]  # type: ignore[attr-defined]
    assert labels == ["Chi 3-4-5m", "Chi 3-4-0m"]
    pon = claim_decision(offered("5m5m0m2p3p4p2s3s4s6s7s8s9s", "5m"), vocabulary="")
    (menu,) = call_choice(7, Stamp(1, 2), "pung", pon).children
    assert [o.label for o in menu.item.options] == ["Pung 5-5-5m", "Pung 5-5-0m"]  # type: ignore[attr-defined]
    assert len(chi.options("chow")) == 2 and len(pon.options("pung")) == 2


def test_a_log_without_the_naming_replays_as_it_was_played() -> None:
    """Logs written before calls named their fives say 'pung 5m', 'chow 345m': the loop gives
    the plain five, as it always did, and the red one stays in the hand."""
    for seat1, discard, call, meld in (
        ("5m5m0m2p3p4p2s3s4s6s7s8s9s", "5m", "1 pung 5m", "555m"),
        ("3m5m0m2p3p4p2s3s4s6s7s8s9s", "4m", "1 chow 345m", "345m"),
        ("3m5m0m2p3p4p2s3s4s6s7s8s9s", "4m", "1 chow 340m", "340m"),
    ):
        state = offered(seat1, discard)
        again = HandState.replay(RIICHI, 0, [*map(str, state.log), call], wall=state.wall)
        assert format_tiles(again.melds[1][0].tiles) == meld
        assert ("0m" in format_tiles(again.hands[1])) is (meld != "340m")
