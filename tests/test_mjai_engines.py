"""mjai engines as computer seats (issue 41, item 2): configuration, a whole hand played by our
own `python -m bot mjai` engines, each engine sent only its own seat's tiles, misbehaving engines
(tests/mjai_double.py) leaving the game whole, the cap, and no engine process left running."""

from __future__ import annotations

import logging
import shlex
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot import mjai_engines
from bot.mjai_engines import BUDGET, EngineConfigError, EngineSeats, parse_engines
from bot.runtime import LiveTable, ManualTimers, Runtime, TableError
from data import Phase, Store
from engine.computer import choose_strong
from engine.computer.simulate import play_out, play_session
from engine.families.riichi.presets import RIICHI
from engine.options import choose
from engine.session import Session
from tests.test_runtime import Recorder

DOUBLE = Path(__file__).with_name("mjai_double.py")
PYTHON = shlex.quote(sys.executable)
ENGINES = {
    "ours": f"{PYTHON} -m bot mjai",
    "slow": f"{PYTHON} {DOUBLE} slow",
    "crash": f"{PYTHON} {DOUBLE} crash",
    "lie": f"{PYTHON} {DOUBLE} lie",
}


@pytest.fixture(autouse=True)
def engines_configured(monkeypatch: pytest.MonkeyPatch) -> None:
    value = ",".join(f"{name}={command}" for name, command in ENGINES.items())
    monkeypatch.setenv("MAHJONG_MJAI_ENGINES", value)
    monkeypatch.setenv("MAHJONG_MJAI_TIMEOUT", "10")


@pytest.fixture
async def runtime() -> AsyncIterator[Runtime]:
    store = await Store.open(":memory:")
    runtime = Runtime(store, Recorder(), ManualTimers(), seed_source=lambda: 77)
    await runtime.open()
    yield runtime
    await runtime.close()
    await store.close()


def test_the_configuration_is_read_as_names_and_commands() -> None:
    assert parse_engines(" a = run.sh --x 'two words' ,b=b") == {
        "a": ["run.sh", "--x", "two words"],
        "b": ["b"],
    }
    assert parse_engines("") == {}
    for bad in ("nocommand", "=cmd", "strong=cmd", "a b=cmd", "a=unclosed 'quote"):
        with pytest.raises(EngineConfigError):
            parse_engines(bad)


async def engine_table(runtime: Runtime, level: str, preset: str = "riichi") -> LiveTable:
    table = await runtime.create_table(
        preset, creator_id="101", creator_name="Ann", computers=3, level=level
    )
    await runtime.start_table(table.id, "101")
    return table


async def play_first_hand(runtime: Runtime, table: LiveTable) -> None:
    """The person plays as the strong computer would, until the first hand ends."""
    while table.phase is Phase.PLAYING:
        hand = table.hand
        assert hand is not None
        [player] = table.humans_to_act()
        action = choose_strong(hand, table.hand_seat(player))
        await runtime.act(table.id, "101", action, hand.version)


def running(pid: int) -> bool:
    return Path(f"/proc/{pid}").exists()


async def test_our_own_mjai_bots_play_a_whole_hand_seeing_only_their_own_tiles(
    runtime: Runtime, caplog: pytest.LogCaptureFixture
) -> None:
    table = await engine_table(runtime, "ours")
    await play_first_hand(runtime, table)
    assert table.phase is Phase.BETWEEN_HANDS
    engines = table.engines
    assert isinstance(engines, EngineSeats) and len(engines.engines) == 3
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]  # all played by them
    for player, engine in engines.engines.items():
        sent = [event for batch in engine.sent for event in batch]
        assert sent[0] == {"type": "start_game", "names": table.names(), "id": player}
        assert any(e["type"] == "dahai" and e["actor"] == player for e in sent)
        for event in sent:
            if event["type"] == "start_kyoku":
                for other, tiles in enumerate(event["tehais"]):
                    assert (set(tiles) == {"?"}) == (other != player)
            if event["type"] == "tsumo":
                assert (event["pai"] == "?") == (event["actor"] != player)
    pids = engines.pids()
    assert all(map(running, pids))
    await runtime.close_table(table.id, "101")
    assert table.engines is None and not any(map(running, pids))
    assert BUDGET.reserved == 0


@pytest.mark.parametrize("level", ["slow", "crash", "lie"])
async def test_a_misbehaving_engine_leaves_the_game_whole(
    runtime: Runtime, level: str, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MAHJONG_MJAI_TIMEOUT", "0.5")
    table = await engine_table(runtime, level)
    with caplog.at_level(logging.WARNING):
        await play_first_hand(runtime, table)
    assert table.phase is Phase.BETWEEN_HANDS  # the strong computer played on
    failed = [r.getMessage() for r in caplog.records if "failed" in r.getMessage()]
    assert failed and all("the strong computer plays for it" in m for m in failed)
    engines = table.engines
    assert engines is not None and engines.failed and not engines.engines  # stopped at once
    # the next hand starts them again (and they fail again: logged again)
    await runtime.ready(table.id, "101")
    assert table.phase is Phase.PLAYING and table.engines is engines
    again = [r for r in caplog.records if "failed" in r.getMessage()]
    assert len(again) > len(failed)
    await runtime.close()
    assert not engines.engines and BUDGET.reserved == 0


async def test_engines_are_offered_on_riichi_presets_only(runtime: Runtime) -> None:
    for preset, computers in (("hkos-3-v1", 3), ("sanma", 2)):
        with pytest.raises(TableError) as refused:
            await runtime.create_table(
                preset, creator_id="101", creator_name="Ann", computers=computers, level="ours"
            )
        assert str(refused.value) == (
            f"the mjai engine ours plays Riichi's four-seat presets only "
            f"(riichi, riichi-majsoul), not {preset}"
        )
    with pytest.raises(TableError):
        await runtime.create_table(
            "riichi", creator_id="101", creator_name="Ann", computers=3, level="nobody"
        )


async def test_a_table_that_would_pass_the_cap_is_refused_with_why(
    runtime: Runtime, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MAHJONG_MJAI_MAX_PROCESSES", "4")
    first = await engine_table(runtime, "ours")
    second = await runtime.create_table(
        "riichi", creator_id="102", creator_name="Bo", computers=3, level="ours"
    )
    with pytest.raises(TableError, match="at most 4 mjai engine processes"):
        await runtime.start_table(second.id, "102")
    assert second.phase is Phase.LOBBY
    await runtime.close_table(first.id, "101")
    await runtime.start_table(second.id, "102")  # the first table's share is given back
    assert second.phase is Phase.PLAYING


def test_stop_all_ends_every_engine() -> None:
    seats = mjai_engines.engine_seats_for("ours", 1, "test", None, ["a", "b", "c", "d"])
    engine = seats._engine(0)
    assert running(engine.pid)
    mjai_engines.stop_all()
    assert not running(engine.pid) and seats.closed and BUDGET.reserved == 0


def test_create_offers_an_engine_on_riichi_presets_only() -> None:
    from bot.discord.options import OptionError, check_create

    assert check_create("riichi", "public", False, None, 3, "", level="ours").id == "riichi"
    with pytest.raises(OptionError, match="mjai engine ours plays Riichi's four-seat presets"):
        check_create("hkos-3-v1", "public", False, None, 3, "", level="ours")


async def test_a_copy_that_cannot_follow_the_hand_leaves_it_to_the_strong_computer(
    runtime: Runtime, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def broken(self: object, action: object) -> None:
        raise RuntimeError("a bug of ours")

    monkeypatch.setattr(mjai_engines.Writer, "apply", broken)
    table = await engine_table(runtime, "ours")
    await play_first_hand(runtime, table)
    assert table.phase is Phase.BETWEEN_HANDS
    assert any("could not follow" in r.getMessage() for r in caplog.records)


async def test_a_restart_ends_the_engines_and_the_restored_table_starts_its_own(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = str(tmp_path / "t.db")
    store = await Store.open(path)
    runtime = Runtime(store, Recorder(), ManualTimers(), seed_source=lambda: 77)
    await runtime.open()
    table = await engine_table(runtime, "ours")
    hand = table.hand
    assert hand is not None
    while table.engines is None or not table.engines.engines:  # until an engine has played
        [player] = table.humans_to_act()
        action = choose_strong(hand, table.hand_seat(player))
        await runtime.act(table.id, "101", action, hand.version)
    pids = table.engines.pids()
    await runtime.close()
    await store.close()
    assert not any(map(running, pids)) and BUDGET.reserved == 0

    store = await Store.open(path)
    runtime = Runtime(store, Recorder(), ManualTimers(), seed_source=lambda: 77)
    await runtime.open()
    restored = runtime.tables[table.id]
    await play_first_hand(runtime, restored)  # the engines follow the hand from its log
    assert restored.phase is Phase.BETWEEN_HANDS
    assert restored.engines is not None and restored.engines.engines
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]
    await runtime.close()
    await store.close()
    assert BUDGET.reserved == 0


def test_four_mahjong_bot_mjai_engines_play_the_whole_game_our_computers_play(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Every seat an engine (`ours`, as MAHJONG_MJAI_ENGINES configures it): each of the four
    `python -m bot mjai` processes is sent its own seat's view of our stream, and the game they
    play, action by action, is the in-process strong computers' game (same seed, same walls).
    An east game (`length east`: five hands with riichi, calls, an added and a concealed kong)
    keeps it to seconds; the hanchan of the same mechanism is only longer."""
    east = choose(RIICHI, {"length": "east"})
    seats = mjai_engines.engine_seats_for("ours", 4, "test", None, ["A", "B", "C", "D"])
    played = []
    try:
        session = Session(east, 2)
        while not session.over:
            state = play_out(session.new_hand(), computer=seats)
            outcome = state.outcome()
            assert outcome is not None
            session.finish_hand(outcome)
            played.append(state)
        assert sorted(seats.engines) == [0, 1, 2, 3] and not seats.failed and not seats.lost
    finally:
        seats.close()
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]  # none fell back
    theirs = [hand.state for hand in play_session(east, 20, 2, level="strong")]
    assert len(played) == len(theirs) == 5
    for ours, same in zip(played, theirs, strict=True):
        assert ours.wall == same.wall and ours.log == same.log
