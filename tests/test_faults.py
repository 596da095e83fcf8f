"""Faults and forged clicks (issue 12): what a click may carry, what a restart must finish."""

from __future__ import annotations

import asyncio
import signal
from pathlib import Path

import pytest

from bot.runtime import ManualTimers, NotYourDecisionError, Runtime, StaleActionError, TableError
from data import Phase, Store
from tests.conftest import Databases
from tests.game_presets import SHORT_GAME, registered
from tests.runtime_writer_proc import (
    HUMANS,
    KILL_IN_GAME_END,
    audit,
    drive,
    over_without_result,
    read_acks,
    run_writer,
    stuck_reason,
)
from tests.test_runtime import PLAYERS, Recorder, arranged, four_humans, make_runtime, play

# ------------------------------------------------------------------ 1. only what was offered


async def test_a_forged_time_up_from_a_click_is_refused_and_changes_nothing(store: Store) -> None:
    runtime = await make_runtime(store, ManualTimers(), hand_factory=arranged)
    table = await four_humans(runtime, rated=True)
    await play(runtime, table, "0 discard 5m")  # seats 1 and 2 may claim; the dealer may not
    dealer = table.seat(table.player_at(0)).player_id
    claimer = table.seat(table.player_at(1)).player_id
    before = table.version
    with pytest.raises(NotYourDecisionError):
        await runtime.act(table.id, dealer, "0 time_up", table.hand.decision_version)  # type: ignore[union-attr]
    # a seat with a decision open may not time it out either: only the clock does that
    with pytest.raises(TableError, match="not allowed"):
        await runtime.act(table.id, claimer, "1 time_up", table.version)
    await play(runtime, table, "1 pass")
    pung_by = table.seat(table.player_at(2)).player_id
    with pytest.raises(TableError, match="not allowed"):
        await runtime.act(table.id, pung_by, "2 time_up", table.version)
    assert table.phase is Phase.PLAYING and table.version == before + 1
    log = await store.hand_log(table.hand_id)  # type: ignore[arg-type]
    assert log.lines == ("0 discard 5m", "1 pass")


# ------------------------------------------------------------------ issue 10.5: the table clock


async def test_seed_004_presets_always_use_the_table_clock(store: Store) -> None:
    runtime = await make_runtime(store, ManualTimers(), quickplay_fill_after=1.0)
    for preset in ("sichuan-bb", "sichuan-swap3"):
        for clock in ("bullet", "standard", "untimed"):
            with pytest.raises(TableError, match="table clock"):
                await runtime.create_table(
                    preset, creator_id="101", creator_name="Ann", time_control=clock
                )
        table = await runtime.create_table(
            preset, creator_id="101", creator_name="Ann", time_control="table", rated=True
        )
        assert table.options.time_control == "table"
        await runtime.close_table(table.id, "101")
    # Quick Play of a Sichuan preset gets the table clock, other presets the standard one
    for preset, clock in (("sichuan-bb", "table"), ("hkos-3-v1", "standard")):
        tables = []
        for player_id, name in PLAYERS:
            found = await runtime.quickplay(preset, player_id, name, rated=True)
            tables.append(found)
        table = tables[-1]
        assert table is not None and table.options.time_control == clock


# ------------------------------------------------------------------ 2. kills between commits

MOVE = "a move of the hand stored"


def kill_points(calls: list[str], every_call_of_hand: int | None) -> dict[int, str]:
    """The database calls of a clean run after which to kill: those that tell the most (each
    hand stored, its first moves, its last move stored with no result yet, each result, each
    Ready press), and every call from the deal to the result of hand `every_call_of_hand`."""
    points: dict[int, str] = {}
    deals = [n for n, name in enumerate(calls, 1) if name == "start_hand"]
    results = [n for n, name in enumerate(calls, 1) if name == "record_hand_result"]
    if every_call_of_hand is not None:
        hand = every_call_of_hand - 1
        for number in range(deals[hand], results[hand] + 1):
            points[number] = MOVE
    for number, name in enumerate(calls, 1):
        if name == "start_hand":
            points[number] = "hand stored, no move"
            points[number + 1] = "first moves stored"
        elif name == "record_hand_result":
            points[number - 1] = "last move stored, no result"
            points[number] = "result stored"
        elif name == "set_options" and "start_hand" in calls[:number]:
            points[number] = "a Ready press stored"  # (before the deal: seats in the lobby)
    return points


def every_other_of_each(points: list[tuple[int, str]], half: int) -> list[tuple[int, str]]:
    """Of each moment's kill points in order, the first, third... (`half` 0) or the second,
    fourth... (1): every moment with two points or more is in both halves."""
    taken: dict[str, int] = {}
    found = []
    for number, moment in points:
        before = taken.get(moment, 0)
        if before % 2 == half:
            found.append((number, moment))
        taken[moment] = before + 1
    return found


# the kill points a case takes: the named boundaries (the rated table's twenty, four players'
# Ready presses among them, in two halves), or every other one of the moves of the second hand
# (a computer deals it) on the casual table: cases of a similar length, that the workers share
@pytest.mark.parametrize(
    ("mode", "part"),
    [
        ("cpu", "named"),
        ("cpu", "moves 0"),
        ("cpu", "moves 1"),
        ("rated", "named 0"),
        ("rated", "named 1"),
    ],
)
async def test_a_kill_at_each_commit_boundary_of_a_hand_is_carried_on(
    tmp_path: Path, mode: str, part: str
) -> None:
    clean_db, clean_ack = tmp_path / "clean.db", tmp_path / "clean.ack"
    assert run_writer(clean_db, clean_ack, mode, 0, 3) == 0
    _, calls = read_acks(str(clean_ack))
    seen: set[str] = set()
    computer_dealer_killed = False
    if part == "named":
        points = sorted(kill_points(calls, None).items())
    elif part.startswith("named"):
        points = every_other_of_each(sorted(kill_points(calls, None).items()), int(part[-1]))
    else:
        moves = sorted(p for p in kill_points(calls, 2).items() if p[1] == MOVE)
        points = moves[int(part[-1]) :: 2]
        assert points
    for kill_at, moment in points:
        db, ack = tmp_path / f"{kill_at}.db", tmp_path / f"{kill_at}.ack"
        assert run_writer(db, ack, mode, kill_at, 3) == -signal.SIGKILL
        acked, _ = read_acks(str(ack))
        before = audit(str(db), acked)
        assert before.ok, (moment, before.problems)
        over = over_without_result(str(db))
        store = await Store.open(str(db))
        runtime = Runtime(store, Recorder(), ManualTimers(), seed_source=lambda: 4242)
        try:
            await runtime.open()
            [table] = runtime.tables.values()
            assert stuck_reason(table) is None, (moment, stuck_reason(table))
            if moment == "hand stored, no move" and not table.seat(table.dealer).human:
                computer_dealer_killed = True
            restored = audit(str(db), acked)
            assert restored.ok, (moment, restored.problems)
            assert over_without_result(str(db)) == []
            assert restored.finished == before.finished + len(over)  # recorded, and once
            for hand_id, lines in before.hands.items():  # the log only grows
                assert restored.hands[hand_id][: len(lines)] == lines
            # the table moves on: one more hand is played to its end and recorded once
            assert table.session is not None
            await drive(runtime, table.id, table.session.hand_number + 1)
            after = audit(str(db), acked)
            assert after.ok, (moment, after.problems)
            assert after.finished == restored.finished + 1
        finally:
            await runtime.close()
            await store.close()
        seen.add(moment)
    if not part.startswith("named"):
        assert seen == {MOVE}
        return
    assert seen == {
        "hand stored, no move",
        "first moves stored",
        "last move stored, no result",
        "result stored",
        "a Ready press stored",
    }
    assert computer_dealer_killed or mode == "rated"


async def test_a_kill_as_a_game_ends_keeps_its_last_result_and_its_ratings_together(
    db: Databases,
) -> None:
    """A preset whose ratings settle per finished game (two hands here): killed just before
    the last hand's result, inside its transaction after the result is written and before the
    game's standings and ratings are, and just after, the restart finds both or neither, and
    the game ends once, rating each player once. (The database is read on a thread of its
    own: PostgreSQL's reader runs a loop.)"""
    with registered(SHORT_GAME):
        clean = db("clean")
        clean_ack = Path(db.folder) / "clean.ack"
        assert run_writer(clean, clean_ack, "game", 0, 5) == 0
        assert (await asyncio.to_thread(audit, str(clean))).ok
        _, calls = read_acks(str(clean_ack))
        results = [n for n, name in enumerate(calls, 1) if name == "record_hand_result"]
        assert len(results) == SHORT_GAME.game.hands
        points = {
            results[-1] - 1: "the last move stored, no result",
            KILL_IN_GAME_END: "the last result written, not the game",
            results[-1]: "the last result and the game stored",
        }
        for kill_at, moment in points.items():
            path, ack = db(f"kill{kill_at + 1}"), Path(db.folder) / f"kill{kill_at + 1}.ack"
            assert run_writer(path, ack, "game", kill_at, 5) == -signal.SIGKILL, moment
            acked, _ = read_acks(str(ack))
            before = await asyncio.to_thread(audit, str(path), acked)
            assert before.ok, (moment, before.problems)  # both or neither, as the kill found it
            store = await Store.open(str(path))
            runtime = Runtime(store, Recorder(), ManualTimers(), seed_source=lambda: 4242)
            try:
                over = await store.game_result(1) is not None
                assert over == (kill_at == results[-1]), moment
                if kill_at in (KILL_IN_GAME_END, results[-1] - 1):  # played out, no result
                    assert len(await asyncio.to_thread(over_without_result, str(path))) == 1, moment
                await runtime.open()  # records the result of a hand played out, as it ends
                for table in list(runtime.tables.values()):
                    await drive(runtime, table.id, 5)
                assert not runtime.tables  # the game is over and its table closed
                after = await asyncio.to_thread(audit, str(path), acked)
                assert after.ok and after.finished == SHORT_GAME.game.hands, (moment, after)
                game = await store.game_result(1)
                assert game is not None and game.hands == SHORT_GAME.game.hands
                for player_id, _ in HUMANS:
                    (rating,) = await store.ratings_of(player_id)
                    assert rating.games == 1, moment  # one game, rated once
            finally:
                await runtime.close()
                await store.close()


# ------------------------------------------------------------------ 4. what a restart keeps


async def reopen(path: str, timers: ManualTimers, front: Recorder) -> tuple[Store, Runtime]:
    store = await Store.open(path, clock=timers.now)
    return store, await make_runtime(store, timers, front)


async def test_ready_presses_and_the_finished_hand_survive_a_restart(db: Databases) -> None:
    path, timers = db("bot"), ManualTimers()
    store, runtime = await reopen(path, timers, Recorder())
    table = await four_humans(runtime, rated=True)
    await drive(runtime, table.id, 0)  # to the end of the first hand, nobody ready yet
    for player_id, _ in PLAYERS[:3]:
        await runtime.ready(table.id, player_id)
    assert table.hand is not None and table.last_result is not None
    shown = (table.hand.outcome(), table.last_result.rating_changes, list(table.session.points))  # type: ignore[union-attr]
    await runtime.close()
    await store.close()

    store, again = await reopen(path, timers, Recorder())
    restored = again.get(table.id)
    assert restored.phase is Phase.BETWEEN_HANDS
    assert restored.ready == {0, 1, 2}  # "Ready 3 of 4" still
    # the table message can show the result again: the hand, its rating changes, the points
    assert restored.hand is not None and restored.last_result is not None
    assert restored.dealer == table.dealer
    assert (
        restored.hand.outcome(),
        restored.last_result.rating_changes,
        list(restored.session.points),  # type: ignore[union-attr]
    ) == shown
    await again.ready(table.id, PLAYERS[3][0])
    assert restored.phase is Phase.PLAYING and restored.session.hand_number == 1  # type: ignore[union-attr]
    await store.close()


async def test_the_player_to_act_is_asked_again_after_a_restart(db: Databases) -> None:
    path, timers = db("bot"), ManualTimers()
    store, runtime = await reopen(path, timers, Recorder())
    table = await four_humans(runtime, time_control="standard")
    to_act = table.players_to_act()
    await runtime.close()
    await store.close()

    front = Recorder()
    store, again = await reopen(path, timers, front)
    assert [d[0] for d in front.decisions_for(to_act[0])] == to_act[:1]
    assert ("table", table.id, None) in front.calls
    # and the clock was armed again: the decision times out as it would have
    restored = again.get(table.id)
    await timers.advance(30)
    assert restored.version > table.version
    await store.close()


# ------------------------------------------------------------------ 8. render -o


@pytest.mark.parametrize(
    ("where", "words"),
    [
        ("missing/dir/hand.png", "No such file or directory"),
        (".", "Is a directory"),
        ("/dev/full", "No space left on device"),
    ],
)
def test_render_to_a_place_it_cannot_write_is_one_line(
    where: str, words: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from bot.cli import main

    if where == "/dev/full" and not Path(where).exists():
        pytest.skip("no /dev/full here")
    target = where if where.startswith("/") else str(tmp_path / where)
    assert main(["render", "hand", "123m456p789s11z555z", "-o", target]) == 2
    captured = capsys.readouterr()
    assert captured.err.splitlines() == [f"error: cannot write {target}: {words}"]
    assert captured.out == ""


# ------------------------------------------------------------------ 6. lobby presses


async def test_add_computer_once_per_seating_also_back_in_the_lobby(store: Store) -> None:
    from bot.discord import ids

    runtime = await make_runtime(store, ManualTimers())
    table = await four_humans(runtime)
    await drive(runtime, table.id, 0)
    await runtime.leave(table.id, PLAYERS[3][0])  # between hands: back to the lobby
    assert table.phase is Phase.LOBBY
    drawn = ids.stamp(table)  # what the table message's Add computer button carries
    await runtime.add_computer(table.id, PLAYERS[0][0], drawn.version)
    with pytest.raises(StaleActionError, match="seats changed"):
        await runtime.add_computer(table.id, PLAYERS[0][0], drawn.version)  # the double click
    assert sum(not s.human for s in table.seats if s is not None) == 1
