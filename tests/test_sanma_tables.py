"""`sanma` at tables: rated at three seats (its own count, RULES.md "Riichi": its own rating per
finished game), Quick Play for three, and a tonpuu game played in the terminal to its
standings."""

from __future__ import annotations

import io
import re
from argparse import Namespace
from dataclasses import replace

import pytest

from bot.runtime import ManualTimers, TableError
from bot.runtime.quickplay import quickplay_seats
from bot.runtime.table import rated_seats, seat_count_for
from bot.terminal import play
from data import Phase, Store
from engine.families.riichi.presets import RIICHI, SANMA
from engine.presets import PRESETS
from tests.test_runtime import make_runtime


def test_a_rated_sanma_table_seats_three_and_a_rated_hubei_table_four() -> None:
    assert rated_seats(SANMA) == 3 and rated_seats(RIICHI) == 4
    assert seat_count_for(SANMA, None, rated=True) == 3
    assert seat_count_for(SANMA, None, rated=False) == 3
    with pytest.raises(TableError, match="3"):
        seat_count_for(SANMA, 4, rated=True)  # sanma seats three only
    hubei = PRESETS["hubei-laizi"]
    assert rated_seats(hubei) == 4 and seat_count_for(hubei, 3, rated=False) == 3
    with pytest.raises(TableError, match="rated"):
        seat_count_for(hubei, 3, rated=True)  # its 3-player tables stay casual
    # three seats only but rated per hand: a rated hand seats four, so it is never rated
    per_hand = replace(SANMA, game=replace(SANMA.game, rates_per_game=False))
    assert rated_seats(per_hand) == 4


async def test_quick_play_seats_a_sanma_table_of_three(store: Store) -> None:
    assert quickplay_seats(SANMA) == 3
    timers = ManualTimers()
    runtime = await make_runtime(store, timers, quickplay_fill_after=30)
    assert await runtime.quickplay("sanma", "201", "Eve") is None
    await timers.advance(31)  # a casual queue fills with computers
    [table] = runtime.tables_of("201")
    assert table.phase is Phase.PLAYING and table.preset.id == "sanma"
    assert table.seat_count == 3 and len(table.humans) == 1
    assert table.hand is not None and table.hand.seat_count == 3


async def test_the_terminal_plays_a_tonpuu_sanma_game_to_its_standings() -> None:
    out = io.StringIO()
    args = Namespace(
        preset="sanma", seed=1, images=None, hands=0, time=None, players=None,
        level="strong", lang="en", option=["length=east"],
    )  # fmt: skip
    assert await play(args, lambda: "", out) == 0  # Enter: the suggested move, every time
    said = out.getvalue()
    assert "The game is over" in said
    standings = said[said.rindex("Final standings") :].splitlines()[1:4]
    assert [line[:3] for line in standings] == ["1. ", "2. ", "3. "]
    assert all(" points, final score " in line for line in standings)
    assert "Computer 2" in said and "Computer 3" not in said  # you and two computers
    assert re.search(r"\bnuki\b", said, re.IGNORECASE)  # a north set aside, told
