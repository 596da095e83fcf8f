"""A Riichi table speaks Riichi (issue 43 item 3): pon / chi / kan / ron / tsumo and never the
Chinese family's pung / chow / kong; the hand named as players name it ('East 2, 1 honba',
'All Last', 东2局 1本场) in the terminal, the Discord posts and the pictures; a line when the
game goes into an extra round; sentences per person; the terminal within 80 columns with a
legend of its discard marks and no flowers column where the preset has no flowers."""

from __future__ import annotations

import dataclasses
import io
import re
from argparse import Namespace

import pytest

from bot.discord.surface import table_surface
from bot.runtime.snapshots import SeatLine, public_snapshot
from bot.runtime.words import deal_lines, status_text
from bot.terminal import play, standings
from bot.terminal_lines import columns, within
from engine.actions import Action, ActionKind
from engine.events import Phase
from engine.families.riichi.presets import RIICHI, SANMA
from engine.hand import HandState
from engine.hand_setup import HandSetup
from engine.names import hand_name
from render.adapt import status_text as picture_status
from render.adapt import table_view_from_state
from tests.hands import act
from tests.test_riichi_table import READY
from tests.test_sanma import NUKI_BACK, NUKI_HANDS
from tests.test_snapshots import live_table

CHINESE_FAMILY_WORDS = re.compile(r"\b(pung|pungs|chow|chows|kong|kongs|flowers)\b|declares a win")


@pytest.mark.parametrize(
    ("language", "wind", "number", "honba", "all_last", "said"),
    [
        ("en", 0, 2, 1, False, "East 2, 1 honba"),
        ("en", 1, 3, 0, False, "South 3"),
        ("en", 1, 4, 2, True, "All Last (South 4), 2 honba"),
        ("zh-CN", 0, 2, 1, False, "东2局 1本场"),
        ("zh-TW", 0, 2, 1, False, "東2局 1本場"),
    ],
)
def test_a_riichi_hand_is_named_as_its_players_name_it(
    language: str, wind: int, number: int, honba: int, all_last: bool, said: str
) -> None:
    named = hand_name("riichi", wind, number, honba, all_last=all_last)
    assert named is not None and named.in_language(language) == said
    assert hand_name("", wind, number, honba) is None  # the Chinese family says 'hand 3'


def test_the_table_view_and_the_picture_name_the_hand_and_all_last() -> None:
    second = HandState.arranged(RIICHI, READY, setup=HandSetup(dealer=1, honba=1))
    assert str(table_view_from_state(second).hand_name) == "East 2, 1 honba"
    last = HandState.arranged(RIICHI, READY, setup=HandSetup(dealer=3, round_wind=1))
    assert str(table_view_from_state(last).hand_name) == "All Last (South 4)"
    # the picture's centre has room for less: the wind tile and the honba sticks say the rest
    assert str(table_view_from_state(last).hand_label) == "All Last"
    assert str(table_view_from_state(second).hand_label) == "East 2"


def test_going_into_an_extra_round_is_said_with_why() -> None:
    # tonpuu (one round): the South round is the extra round nobody reaching 30,000 brings
    from dataclasses import replace

    east_only = replace(RIICHI, game=replace(RIICHI.game, rounds=1))
    state = HandState.arranged(east_only, READY, setup=HandSetup(dealer=0, round_wind=1))
    lines = [str(line) for line in deal_lines(live_table(state, 4), ["A", "B", "C", "D"], 5)]
    assert lines == [
        "South round: nobody has 30,000 points, so the game goes on into an extra round.",
        "South 1 · A deals.",
    ]
    zh = [line.in_language("zh-CN") for line in deal_lines(live_table(state, 4), "ABCD", 5)]
    assert zh[0].startswith("南入：") and zh[1] == "南1局 · A坐庄。"
    # the Discord table message says it for as long as the extra round lasts
    embed = table_surface(public_snapshot(live_table(state, 4)), language="en").embed
    assert embed is not None and embed.description is not None
    assert "nobody has 30,000 points" in embed.description


def test_a_north_set_aside_opens_a_window_worded_as_what_it_is() -> None:
    hands = [NUKI_HANDS[0], "234s567s19m19p1z2z3z", "123s456s789s111z4z"]  # seat 2 waits on 4z
    state = HandState.arranged(SANMA, hands, replacements=NUKI_BACK)
    act(state, "0 nuki 4z")
    assert state.phase is Phase.ROB
    names = ["A", "B", "C"]
    assert str(status_text(state, names)) == "A north is set aside: it may be won on (ron)"
    assert str(picture_status(state, names)) == "A north is set aside: it may be won on (ron)"


def test_discord_names_the_hand_in_the_table_message() -> None:
    state = HandState.arranged(RIICHI, READY, setup=HandSetup(dealer=1, honba=1))
    public = public_snapshot(live_table(state, 4))
    embed = table_surface(public, language="zh-TW").embed
    assert embed is not None and embed.title is not None and embed.title.endswith("東2局 1本場")


@pytest.mark.parametrize("language", ["en", "zh-CN", "zh-TW"])
async def test_the_terminal_speaks_riichi_within_80_columns(language: str) -> None:
    out = io.StringIO()
    args = Namespace(
        preset="riichi", seed=3, images=None, hands=2 if language == "en" else 1, time=None,
        players=None, level="easy", lang=language, option=["length=east"],
    )  # fmt: skip
    assert await play(args, lambda: "", out) == 0
    said = out.getvalue()
    lines = [line.removeprefix("> ") for line in said.splitlines()]
    assert max(map(columns, lines)) <= 80
    assert not CHINESE_FAMILY_WORDS.search(said)
    assert "flowers" not in said and "花 " not in said  # no flowers column at Riichi
    assert "[8p]" in lines[1] and "(6z)" in lines[1]  # the legend, once, at the start
    first = {"en": "East 1 · You deal.", "zh-CN": "东1局 · 你坐庄。", "zh-TW": "東1局 · 你坐莊。"}
    assert first[language] in lines
    if language == "en":
        assert any(re.fullmatch(r"East 2(, \d honba)? · Computer 1 deals\.", ln) for ln in lines)
        assert not re.search(r"\bYou (discards|takes|sets|calls|declares|wins)\b", said)
        assert any(re.fullmatch(r"You discard \w+\.", line) for line in lines)


def test_a_riichi_replay_says_pon_chi_kan_ron_tsumo() -> None:
    from bot.replay import _caption

    names = ["A", "B", "C", "D"]
    pon = _caption(Action(1, ActionKind.PUNG, (33,)), names, "riichi", self_draw=False)
    assert str(pon) == "B (South): pon 7z"
    tsumo = _caption(Action(0, ActionKind.WIN), names, "riichi", self_draw=True)
    assert str(tsumo) == "A (East): tsumo"
    assert str(_caption(Action(0, ActionKind.WIN), names, "", self_draw=False)) == "A (East): win"


def test_a_riichi_stick_put_down_is_said_in_riichi_words() -> None:
    from bot.runtime.words import payment_line
    from engine.settlement import PaymentDetail

    paid = PaymentDetail.parse("-1000 0 0 0 pot=1000", "deposit")
    assert str(payment_line(paid, ["A", "B", "C", "D"], "riichi")).startswith(
        "Riichi stick: A -1,000"
    )
    assert str(payment_line(paid, ["A", "B", "C", "D"])).startswith("Pot: A -1,000")


def test_the_terminal_s_questions_use_the_readme_s_syntax() -> None:
    from bot.runtime.snapshots import private_snapshot
    from bot.terminal import Ask, read_answer

    state = HandState.arranged(RIICHI, READY)  # the dealer may riichi discarding 4s or 6z
    private = private_snapshot(live_table(state, 4), 0)
    assert private.decision is not None
    asked = read_answer("6z", private.decision, tuple(state.concealed(0)))
    assert asked == Ask("Which one? Type 'discard 6z' or 'riichi 6z'.")
    assert "0 riichi" not in asked.text


def test_a_standings_entry_is_never_cut_across_two_lines() -> None:
    """At 80 columns the standings go on under, between entries, not inside one
    ('4.' at a line's end and 'You 22,000.' under it)."""
    state = HandState.arranged(RIICHI, READY)
    names = ["Alexandrina the Patient", "Bartholomew Longname", "You", "Cornelius Q."]
    points = [31_500, 27_800, 22_000, 18_700]
    seats = tuple(
        SeatLine(name, f"p{n}", True, wind=n, points=p)
        for n, (name, p) in enumerate(zip(names, points, strict=True))
    )
    said = standings(dataclasses.replace(public_snapshot(live_table(state, 4)), seats=seats))
    lines = within(said, 2)
    assert len(lines) > 1 and all(columns(line) <= 80 for line in lines)
    for rank, (name, p) in enumerate(zip(names, points, strict=True), 1):
        entry = f"{rank}. {name} {p:,}"
        assert any(entry in line for line in lines), (entry, lines)
    assert "\u00a0" not in "\n".join(lines)
