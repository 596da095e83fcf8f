"""Tables of two and three seats through the runtime, and the computer level of a table.

The 2- and 3-seat presets are the test-only ones of tests/rule_presets.py, registered for these
tests the way a public preset is (the runtime and the session find presets by id).
"""

from __future__ import annotations

import json
import sys
import types
from collections import Counter
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from bot.runtime import LiveTable, ManualTimers, Runtime, TableError
from bot.runtime.computers import computer_for
from bot.runtime.snapshots import private_snapshot, public_snapshot
from bot.runtime.words import event_lines, swap_words
from data import HandResult, Phase, Store
from engine.actions import Action
from engine.computer.easy import choose_action
from engine.hand import HandState
from engine.presets import PRESETS, Preset
from render.hand import render_hand
from render.result import render_result
from render.style import to_png
from render.table import render_table
from tests.rule_presets import (
    DUO_FLOW,
    LAY_ASIDE,
    MECHANISMS,
    SMALL_HK,
    TEST_PRESETS,
    TRIO_BLOOD,
)
from tests.test_runtime import PLAYERS, Recorder, make_runtime


@pytest.fixture(autouse=True)
def test_presets(monkeypatch: pytest.MonkeyPatch) -> None:
    for preset in TEST_PRESETS:
        monkeypatch.setitem(PRESETS, preset.id, preset)


@pytest.fixture
async def store() -> Iterator[Store]:
    s = await Store.open(":memory:")
    yield s  # type: ignore[misc]
    await s.close()


async def seated(
    runtime: Runtime, preset: Preset, players: int, humans: int = 1, **options: object
) -> LiveTable:
    """A started table of `players` seats: `humans` people (PLAYERS' first), computers after."""
    table = await runtime.create_table(
        preset.id,
        creator_id=PLAYERS[0][0],
        creator_name=PLAYERS[0][1],
        players=players,
        computers=players - humans,
        **options,  # type: ignore[arg-type]
    )
    for player_id, name in PLAYERS[1:humans]:
        await runtime.join(table.id, player_id, name)
    assert table.full and table.seat_count == players
    await runtime.start_table(table.id, PLAYERS[0][0])
    return table


def check_hand(table: LiveTable) -> None:
    """Every tile of the wall is somewhere, and the hand's points sum to zero."""
    hand = table.hand
    assert hand is not None and hand.seat_count == table.seat_count
    assert Counter(hand.tiles_in_play()) == Counter(hand.preset.wall), hand.describe()
    assert sum(hand.points) + hand.pot_change == 0


async def play_hand(runtime: Runtime, table: LiveTable) -> None:
    """The people at the table decide as the easy computer would, until the hand is over."""
    while table.phase is Phase.PLAYING:
        check_hand(table)
        player = table.players_to_act()[0]
        assert table.seat(player).human  # computers never leave a decision waiting
        hand = table.hand
        assert hand is not None
        action = choose_action(hand, table.hand_seat(player))
        await runtime.act(table.id, table.seat(player).player_id, action, table.version)
    check_hand(table)


@pytest.mark.parametrize(
    ("preset", "players"), [(TRIO_BLOOD, 3), (DUO_FLOW, 2), (SMALL_HK, 3), (SMALL_HK, 2)]
)
async def test_whole_hands_at_two_and_three_seats(
    store: Store, preset: Preset, players: int
) -> None:
    runtime = await make_runtime(store, ManualTimers())
    table = await seated(runtime, preset, players, humans=2)
    assert table.session is not None and table.session.seat_count == players
    start = preset.start_points * players
    for number in range(1, 4):
        await play_hand(runtime, table)
        assert table.phase is Phase.BETWEEN_HANDS and table.session.hand_number == number
        hand = table.hand
        assert hand is not None and table.hand_id is not None
        # the stored log replays to the hand that was played
        log = await store.hand_log(table.hand_id)
        again = HandState.replay(preset, log.seed, log.actions, hand.setup, seat_count=players)
        assert again.hands == hand.hands and again.melds == hand.melds
        assert again.outcome() == hand.outcome()
        # points carried forward are zero-sum, and the result holds one entry per seat
        assert sum(table.session.points) == start
        record = await store.hand_record(table.hand_id)
        assert record is not None and len(record.seats) == players
        assert sum(s.delta for s in record.seats) == 0
        # computers are ready already; the people press Ready
        status = public_snapshot(table).status
        assert f"Ready for the next hand: {players - 2} of {players}." in status
        for player_id, _ in PLAYERS[:2]:
            await runtime.ready(table.id, player_id)


async def test_a_three_seat_table_restores_in_the_lobby_and_mid_hand(tmp_path: Path) -> None:
    path = str(tmp_path / "bot.db")
    timers = ManualTimers()
    store = await Store.open(path, clock=timers.now)
    runtime = await make_runtime(store, timers)
    lobby = await runtime.create_table(SMALL_HK.id, creator_id="201", creator_name="Eve", players=3)
    table = await seated(runtime, SMALL_HK, 3, humans=3, time_control="standard")
    for _ in range(5):  # a few decisions into the hand
        player = table.players_to_act()[0]
        action = choose_action(table.hand, table.hand_seat(player))  # type: ignore[arg-type]
        await runtime.act(table.id, table.seat(player).player_id, action, table.version)
    live = table.hand
    assert live is not None and live.version >= 5
    await runtime.close()
    await store.close()

    store = await Store.open(path, clock=timers.now)
    again = await make_runtime(store, timers)
    waiting = again.get(lobby.id)
    assert waiting.seat_count == 3 and not waiting.full  # a lobby keeps its seat count
    restored = again.get(table.id)
    assert restored.seat_count == 3 and len(restored.reserves) == 3
    assert restored.hand is not None and restored.hand.seat_count == 3
    assert restored.hand.hands == live.hands and restored.hand.version == live.version
    assert restored.reserves == table.reserves and restored.deadline == table.deadline
    assert restored.session is not None and restored.session.seat_count == 3
    await play_hand(again, restored)
    assert restored.phase is Phase.BETWEEN_HANDS
    await store.close()


async def test_seat_counts_are_checked_against_the_preset(store: Store) -> None:
    runtime = await make_runtime(store, ManualTimers())
    for preset, options, message in [
        (SMALL_HK, {"players": 5}, "played by 4, 3 or 2 players, not 5"),
        (TRIO_BLOOD, {"players": 4}, "played by 3 players, not 4"),
        (PRESETS["hkos-3-v1"], {"players": 3}, "played by 4 players, not 3"),
        (SMALL_HK, {"players": 3, "rated": True}, "rated tables seat 4 people"),
        (SMALL_HK, {"players": 3, "computers": 3}, "0 to 2 computer players"),
        (SMALL_HK, {"level": "hard"}, "easy or strong"),
    ]:
        with pytest.raises(TableError, match=message):
            await runtime.create_table(preset.id, creator_id="1", creator_name="x", **options)  # type: ignore[arg-type]
    with pytest.raises(TableError, match="rated tables seat 4"):
        await runtime.quickplay(TRIO_BLOOD.id, "1", "x", rated=True)
    # the default is the preset's first seat count
    table = await runtime.create_table(TRIO_BLOOD.id, creator_id="1", creator_name="x")
    assert table.seat_count == 3 and table.options.extra["seat_count"] == 3
    await runtime.add_computer(table.id, "1")
    await runtime.add_computer(table.id, "1")
    assert table.full
    with pytest.raises(TableError, match="full"):
        await runtime.add_computer(table.id, "1")


def test_a_rated_result_seats_four() -> None:
    with pytest.raises(ValueError, match="rated hand seats 4 players, not 3"):
        HandResult("hkos-3-v1", ("a", "b", "c"), (True,) * 3, (2, -1, -1), rated=True)
    HandResult("hkos-3-v1", ("a", "b", "c"), (True,) * 3, (2, -1, -1))


def test_swap_words_follow_the_seat_count() -> None:
    assert [swap_words(d, 4) for d in (1, 2, 3)] == [
        "to the next seat",
        "across the table",
        "to the previous seat",
    ]
    assert [swap_words(d, 3) for d in (1, 2)] == ["to the next seat", "to the previous seat"]
    assert swap_words(1, 2) == "to the other seat"


async def test_the_lobby_counts_the_table_s_own_seats(store: Store) -> None:
    runtime = await make_runtime(store, ManualTimers(), Recorder())
    table = await runtime.create_table(DUO_FLOW.id, creator_id="101", creator_name="Ann")
    snapshot = public_snapshot(table)
    assert snapshot.seat_count == 2 and len(snapshot.seats) == 2
    assert "1 of 2 seated" in snapshot.status


@pytest.mark.parametrize(("preset", "players"), [(SMALL_HK, 3), (DUO_FLOW, 2)])
async def test_the_pictures_of_a_two_and_a_three_seat_table(
    store: Store, preset: Preset, players: int
) -> None:
    """The runtime's views of a smaller table are laid out for its seats and draw as PNGs."""
    runtime = await make_runtime(store, ManualTimers())
    table = await seated(runtime, preset, players)
    drawn: list[bytes] = []
    while table.phase is Phase.PLAYING:
        public = public_snapshot(table)
        private = private_snapshot(table, 0)
        assert public.table_view is not None and private.hand_view is not None
        assert len(public.table_view.seats) == len(public.seats) == players
        assert private.hand_view.seat_count == players  # claimed tiles turn to their giver
        if len(drawn) < 2 and any(public.table_view.seats[s].pond for s in range(players)):
            drawn.append(to_png(render_table(public.table_view)))
            drawn.append(to_png(render_hand(private.hand_view)))
        hand = table.hand
        assert hand is not None
        player = table.players_to_act()[0]
        action = choose_action(hand, table.hand_seat(player))
        await runtime.act(table.id, table.seat(player).player_id, action, table.version)
    result = public_snapshot(table).result
    assert result is not None and len(result.points) == players
    assert all(win.seat_count == players for win in result.view.wins)
    drawn.append(to_png(render_result(result.view)))
    assert all(data.startswith(b"\x89PNG") for data in drawn) and len(drawn) == 3


# ------------------------------------------------------------------ the computer level


def test_computer_for_easy_is_today_s_player() -> None:
    assert computer_for("easy") is choose_action
    with pytest.raises(TableError, match="easy or strong"):
        computer_for("v9")


async def test_a_strong_table_s_computers_use_engine_computer(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`strong` comes from engine.computer's own `computer_for`, found when a table asks."""
    asked: list[tuple[str, int]] = []

    def strong(state: HandState, seat: int) -> Action:
        asked.append(("strong", seat))
        return choose_action(state, seat)

    fake = types.ModuleType("engine.computer")
    fake.computer_for = lambda level: {"strong": strong}[level]  # type: ignore[attr-defined]
    fake.suggest = lambda state, seat, computer: computer(state, seat)  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "engine.computer", fake)
    runtime = await make_runtime(store, ManualTimers())
    table = await seated(runtime, SMALL_HK, 3, level="strong")
    assert table.level == "strong" and table.options.extra["level"] == "strong"
    await play_hand(runtime, table)
    assert {seat for _, seat in asked} >= {table.hand_seat(1), table.hand_seat(2)}
    # without the module, a strong table is refused in one sentence
    monkeypatch.setitem(sys.modules, "engine.computer", None)
    with pytest.raises(TableError, match="strong computer is not in this build"):
        await runtime.create_table(SMALL_HK.id, creator_id="9", creator_name="x", level="strong")


# ------------------------------------------------------------------ the command line


def test_simulate_takes_the_number_of_players(capsys: pytest.CaptureFixture[str]) -> None:
    from bot.cli import main

    assert (
        main(["simulate", "--preset", SMALL_HK.id, "--players", "3", "--hands", "5", "--json"]) == 0
    )
    hands = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(hands) == 5
    assert all(len(h["deltas"]) == 3 and sum(h["deltas"]) == 0 for h in hands)
    assert {h["dealer"] for h in hands} <= {0, 1, 2}
    assert main(["simulate", "--preset", "hkos-3-v1", "--players", "3"]) == 2
    assert capsys.readouterr().err == "error: --players: hkos-3-v1 seats 4 players, not 3\n"


async def test_a_table_whose_seat_count_disagrees_with_its_session_is_set_aside(
    tmp_path: Path,
) -> None:
    path = str(tmp_path / "bot.db")
    timers = ManualTimers()
    store = await Store.open(path, clock=timers.now)
    runtime = await make_runtime(store, timers)
    table = await seated(runtime, SMALL_HK, 3)
    # the options say four seats, the stored session three: restore must not guess
    options = replace(table.options, extra={**table.options.extra, "seat_count": 4})
    await store.set_options(table.id, options)
    await runtime.close()
    await store.close()

    store = await Store.open(path, clock=timers.now)
    again = Runtime(store, Recorder(), timers)
    quarantined = await again.open()
    assert [q.table_id for q in quarantined] == [table.id]
    assert "session seats 3, the table 4" in quarantined[0].reason
    await store.close()


# ------------------------------------------------------------------ the loop's mechanisms


async def test_a_table_of_every_mechanism_plays_through_the_runtime(store: Store) -> None:
    """A rule-owned declaration, stakes into the pot, the pot taken, abortive draws: through
    the runtime, its stored log, the snapshots' words and the result picture."""
    runtime = await make_runtime(store, ManualTimers())
    table = await seated(runtime, MECHANISMS, 4, humans=2)
    lines: list[str] = []
    rows: set[str] = set()
    for _ in range(3):
        while table.phase is Phase.PLAYING:
            check_hand(table)
            player = table.players_to_act()[0]
            hand, seat = table.hand, table.hand_seat(player)
            assert hand is not None
            declared = [a for a in hand.legal_actions(seat) if a.kind is LAY_ASIDE]
            action = declared[0] if declared else choose_action(hand, seat)
            await runtime.act(table.id, table.seat(player).player_id, action, table.version)
        hand = table.hand
        assert hand is not None and table.hand_id is not None
        log = await store.hand_log(table.hand_id)
        again = HandState(MECHANISMS, log.seed, hand.setup)
        events = []
        for action in log.actions:
            events += again.apply(action)
        assert again.outcome() == hand.outcome()
        lines += event_lines(table, events, ["Ann", "Bo", "Cy", "Di"])
        result = public_snapshot(table).result
        assert result is not None
        rows |= {str(label) for label, _ in result.view.other_payments}
        assert to_png(render_result(result.view)).startswith(b"\x89PNG")
        for player_id, _ in PLAYERS[:2]:
            await runtime.ready(table.id, player_id)
    assert any(line.startswith("Pot: ") for line in lines), lines
    assert "Pot" in rows, rows  # the result picture's row of payments into and out of the pot
