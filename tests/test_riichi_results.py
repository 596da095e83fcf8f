"""The result as Riichi players read it (issue 43 item 5): the hand's own value ('40 fu 3 han
5,200'), then the honba, then the riichi sticks, then what each seat receives (Tenhou's +6,200:
the winner's own stick not netted away, the Pot row kept); the winning hand with its winning
tile in the terminal; at an exhaustive draw the tenpai hands laid open (terminal, picture,
Discord result post); one line per event."""

from __future__ import annotations

import io
import re
from argparse import Namespace

from bot.discord.surface import result_surface
from bot.runtime.snapshots import public_snapshot
from bot.runtime.words import win_texts
from bot.terminal import play
from render.adapt import result_view_from_state, win_value
from tests import riichi_scenes as scenes
from tests.test_snapshots import live_table

NAMES = ["Ann", "Bo", "Cy", "Di"]
NUMBER = r"[+-]?[\d,]+"


def _amount(said: str) -> int:
    return int(said.replace(",", ""))


def test_a_winner_receives_its_own_stick_back_in_its_change() -> None:
    state = scenes.riichi_win()  # the dealer's riichi mangan ron, the pot held only its stick
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.deltas[0] == 12000 and outcome.received[0] == 13000
    assert win_value(state, outcome.wins[0]) == 12000
    view = result_view_from_state(state, NAMES)
    rows = dict(view.other_payments)
    assert [label.key for label in rows] == ["pictures.result.row_pot.riichi"]  # type: ignore[union-attr]


def test_the_draw_lays_the_tenpai_hands_open_in_the_picture_and_the_discord_post() -> None:
    state = scenes.exhaustive_draw()
    view = result_view_from_state(state, NAMES)
    assert [name for name, _, _ in view.ready_hands] == ["Ann", "Cy"]
    assert all(len(tiles) + 3 * len(melds) == 13 for _, tiles, melds in view.ready_hands)
    public = public_snapshot(live_table(state, 4), ended=True)
    embed = result_surface(public, language="en").embed
    assert embed is not None
    (ready,) = [field for field in embed.fields if field.name == "Tenpai hands"]
    assert ready.value is not None and len(ready.value.splitlines()) == 2
    assert re.match(r"\S+ was tenpai: [0-9mpsz]+", ready.value)


async def test_the_terminal_tells_value_honba_sticks_then_totals_once_each() -> None:
    out = io.StringIO()
    args = Namespace(
        preset="riichi", seed=5, images=None, hands=0, time=None, players=None,
        level="easy", lang="en", option=["length=east"],
    )  # fmt: skip
    assert await play(args, lambda: "", out) == 0
    lines = [line.removeprefix("> ") for line in out.getvalue().splitlines()]
    assert not any(line.startswith("Hand ") and " over" in line for line in lines)
    results = [i for i, line in enumerate(lines) if line.startswith("Result of ")]
    assert results
    wins = 0
    for at in results:
        told = lines[at - 1]
        block = lines[at + 1 : at + 12]
        totals = {
            m[1]: _amount(m[2])
            for line in block
            if (m := re.fullmatch(rf"  (.+): ({NUMBER}) \(total [\d,]+\)", line))
        }
        assert len(totals) == 4
        win = re.fullmatch(r"(.+) won by .*: \d+ fu \d+ han(?:, \w+)? ([\d,]+)(?: \(.*\))?\.", told)
        if win is None or lines[at - 2].endswith(" won by"):  # a draw (or two wins): not here
            continue
        wins += 1
        winner, value = win[1], _amount(win[2])
        assert block[0].startswith(f"{winner}'s winning hand: ") and " + " in block[0]
        honba = sum(
            _amount(m[1])
            for line in block
            if (m := re.fullmatch(r"\d+ honba: .+ \+([\d,]+)\.", line))
        )
        sticks = sum(
            _amount(m[1])
            for line in block
            if (m := re.fullmatch(r"Riichi sticks: .+ takes ([\d,]+) from the pot\.", line))
        )
        order = [i for i, line in enumerate(block) if re.match(r"\d+ honba|Riichi sticks|  ", line)]
        assert order == sorted(order)
        assert totals[winner] == value + honba + sticks  # Tenhou's change, nothing netted away
    assert wins


def test_a_riichi_win_is_told_with_its_value_and_no_payment_line_of_its_own() -> None:
    state = scenes.riichi_win()
    outcome = state.outcome()
    assert outcome is not None
    said = [str(line) for line in win_texts(outcome.wins[0], state, NAMES)]
    assert said[0].startswith("Ann won by a discard from Bo: 40 fu 4 han, mangan 12,000 (")
    assert not any(line.startswith("Payment:") for line in said)


def test_the_discord_result_post_names_the_hand_and_reads_value_then_receipts() -> None:
    state = scenes.riichi_win()
    public = public_snapshot(live_table(state, 4), ended=True)
    surface = result_surface(public, language="en")
    assert re.match(
        r"\*\*.+ · East 1(, \d honba)?\*\*: .+ 40 fu 4 han, mangan 12,000", surface.content
    )
    assert surface.embed is not None and surface.embed.title is not None
    assert re.search(r" · East 1(, \d honba)? · result$", surface.embed.title)
    (points,) = [f for f in surface.embed.fields if f.name == "Points"]
    assert points.value is not None and "+13,000" in points.value  # the own stick back
    zh = result_surface(public, language="zh-TW")
    assert zh.embed is not None and "東1局" in str(zh.embed.title)
