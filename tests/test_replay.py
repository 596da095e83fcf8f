"""Replays of stored hands: the export, the check against the stored outcome, frames, the CLI."""

from __future__ import annotations

import asyncio
import itertools
import json
from dataclasses import replace
from pathlib import Path

import pytest
from PIL import Image

from bot.cli import main
from bot.replay import (
    EXPORT_VERSION,
    ReplayError,
    ReplayLog,
    check_outcome,
    export_hand,
    frames,
    jumps,
    rebuild,
    replayed_outcome,
    stored_replay,
)
from bot.runtime.manager import Runtime
from bot.runtime.timers import ManualTimers
from data import Store
from engine.actions import Action, ActionKind
from engine.presets import PRESETS
from tests.replay_fixtures import PLAYERS, finished_hand, seated_table


@pytest.fixture
async def store():
    s = await Store.open(":memory:")
    yield s
    await s.close()


async def exported(store: Store, hand_id: int) -> ReplayLog:
    return export_hand(await store.hand_log(hand_id), await store.hand_record(hand_id))


@pytest.mark.parametrize("preset", sorted(PRESETS))
async def test_a_replay_rebuilt_from_the_log_equals_the_stored_outcome(
    store: Store, preset: str
) -> None:
    for seed, wait in ((5, 0.0), (11, 2.0)):  # 2.0: every discard asks everyone (stored setup)
        hand_id = await finished_hand(store, preset, seed, no_call_wait=wait)
        record = await store.hand_record(hand_id)
        assert record is not None
        log = await exported(store, hand_id)
        deltas, wins = replayed_outcome(log)
        assert deltas == tuple(s.delta for s in record.seats)
        assert wins == record.wins
        # through the JSON text and back, the export still replays to the same outcome
        again = ReplayLog.loads(log.dumps())
        assert again == log
        check_outcome(again)


async def test_a_log_that_does_not_lead_to_its_outcome_is_refused(store: Store) -> None:
    log = await exported(store, await finished_hand(store, "hkos-3-v1"))
    changed = replace(log, deltas=(log.deltas[0] + 1, *log.deltas[1:]))
    with pytest.raises(ReplayError, match="deltas"):
        check_outcome(changed)
    with pytest.raises(ReplayError, match="before the hand is over"):
        check_outcome(replace(log, actions=log.actions[:-1]))
    first = Action.parse(log.actions[0])
    other = next(a for a in _legal_at_start(log) if a != first)
    with pytest.raises(ReplayError):
        check_outcome(replace(log, actions=(str(other), *log.actions[1:])))


def _legal_at_start(log: ReplayLog) -> list[Action]:
    _, hand = rebuild(log, actions=0)
    return [a for seat in hand.seats_to_act() for a in hand.legal_actions(seat)]


async def test_a_hand_still_in_play_has_no_replay(store: Store) -> None:
    runtime = Runtime(store, None, ManualTimers(), seed_source=lambda: 5)
    await runtime.open()
    table = await seated_table(runtime, "hkos-3-v1")
    assert table.hand_id is not None
    stored = await store.hand_log(table.hand_id)
    with pytest.raises(ReplayError, match="not finished"):
        export_hand(stored, await store.hand_record(table.hand_id))
    await runtime.close()


def test_an_export_of_another_version_or_format_is_refused() -> None:
    with pytest.raises(ReplayError, match="version"):
        ReplayLog.from_json({"format": "mahjong-bot-hand", "version": EXPORT_VERSION + 1})
    with pytest.raises(ReplayError, match="not a"):
        ReplayLog.from_json({"version": EXPORT_VERSION})
    with pytest.raises(ReplayError, match="not JSON"):
        ReplayLog.loads("{")


async def test_frames_show_every_hand_open_and_jump_to_calls_and_wins(store: Store) -> None:
    log = await exported(store, await finished_hand(store, "sichuan-bb"))
    found = frames(log)
    assert found[0].step == 0 and str(found[0].caption) == "The deal"
    for frame in found:
        assert all(seat.concealed_count == 0 and seat.revealed for seat in frame.view.seats)
    # each frame differs from the one before it, or marks a call or a win
    for before, after in itertools.pairwise(found):
        assert after.view != before.view or after.mark
        assert after.step > before.step
    kinds = {Action.parse(line).kind for line in log.actions}
    marked = [found[i] for i in jumps(found)]
    calls = [f for f in marked if f.mark == "call"]
    wins = [f for f in marked if f.mark == "win"]
    assert len(wins) == sum(1 for line in log.actions if " win" in line)
    assert bool(calls) == bool(kinds & {ActionKind.PUNG, ActionKind.KONG, ActionKind.CHOW})
    # the deal shows the tiles dealt, which a player's own hand at that moment also holds
    _, hand = rebuild(log, actions=0)
    assert [s.revealed for s in found[0].view.seats] == [tuple(sorted(h)) for h in hand.hands]


def test_the_cli_writes_frames_a_gif_and_an_export_that_plays_back(tmp_path: Path) -> None:
    db = tmp_path / "hands.db"

    async def one_hand() -> tuple[int, int]:
        async with await Store.open(str(db)) as store:
            hand_id = await finished_hand(store, "hkos-3-v1")
            return hand_id, len(frames(await exported(store, hand_id)))

    hand_id, count = asyncio.run(one_hand())
    out = tmp_path / "frames"
    export = tmp_path / "hand.json"
    args = ["replay", str(hand_id), "--db", str(db), "-o", str(out), "--export", str(export)]
    assert main(args) == 0
    pngs = sorted(out.glob("frame-*.png"))
    assert len(pngs) == count and (out / "result.png").exists()
    with Image.open(pngs[0]) as picture:
        assert picture.size == (864, 648)
    data = json.loads(export.read_text())
    assert data["version"] == EXPORT_VERSION and data["seat_count"] == len(PLAYERS)
    assert [s["player_id"] for s in data["seats"]] == [p for p, _ in PLAYERS]
    gif_dir = tmp_path / "gif"
    assert main(["replay", "--log", str(export), "-o", str(gif_dir), "--gif"]) == 0
    with Image.open(gif_dir / "hand.gif") as animation:
        assert animation.n_frames == count
    data["outcome"]["deltas"][0] += 1
    export.write_text(json.dumps(data))
    assert main(["replay", "--log", str(export)]) == 1
    assert main(["replay", "999", "--db", str(db)]) == 1


async def test_a_private_tables_hands_replay_only_for_its_players(store: Store) -> None:
    hand_id = await finished_hand(store, "hkos-3-v1", visibility="private")
    with pytest.raises(ReplayError, match="private table"):
        await stored_replay(store, hand_id, "999")
    mine = await stored_replay(store, hand_id, PLAYERS[2][0])
    assert mine.names() == [name for _, name in PLAYERS]  # as the table named its players
    assert await stored_replay(store, hand_id) == mine  # the command line: the file's owner
    public = await finished_hand(store, "hkos-3-v1")
    assert (await stored_replay(store, public, "999")).hand_id == public


async def test_replay_steps_in_the_readers_language(
    store: Store, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = await exported(store, await finished_hand(store, "sichuan-bb"))
    found = frames(log)
    assert found[0].caption.in_language("zh-CN") == "发牌"  # type: ignore[union-attr]
    discard = next(f for f in found if ": discard " in str(f.caption))
    english = str(discard.caption)
    simplified = discard.caption.in_language("zh-CN")  # type: ignore[union-attr]
    traditional = discard.caption.in_language("zh-TW")  # type: ignore[union-attr]
    tile = english.rsplit(" ", 1)[1]
    assert simplified.endswith(f"） 打出 {tile}") and traditional.endswith(f"） 打出 {tile}")
    path = tmp_path / "hand.json"
    path.write_text(log.dumps(), encoding="utf-8")
    assert main(["replay", "--log", str(path), "--lang", "zh-TW"]) == 0
    printed = capsys.readouterr().out
    assert "   0 發牌" in printed and " 打出 " in printed and "discard" not in printed
