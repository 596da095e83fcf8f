"""Restoring through the engine: a table rebuilt from SQLite equals the live one.

The live side plays with the real engine (HandState, Session, the computer player) and writes
every action through the store; the database is closed and reopened, the table is rebuilt by
replaying the stored seed and log, and the rebuilt state must equal the live state exactly,
mid-hand and between hands. Play then continues on the rebuilt table.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from data import HandResult, LoadedTable, Payment, Phase, SeatRow, Store, StoredWin, TableOptions
from engine.computer.easy import choose_action
from engine.hand import HandState
from engine.hand_setup import HandSetup
from engine.outcome import Outcome
from engine.presets import find_preset
from engine.session import Session
from tests.conftest import Databases

PRESET = "hkos-3-v1"
PLAYERS = ("111", "222", "333", "444")


def snapshot(state: HandState) -> dict[str, Any]:
    """Everything a hand state is, plus what it answers (caches and event buffers left out)."""
    out = {k: v for k, v in vars(state).items() if k not in ("_legal_cache", "_events")}
    out["legal"] = [state.legal_actions(seat) for seat in range(4)]
    out["to_act"] = state.seats_to_act()
    out["outcome"] = state.outcome()
    out["describe"] = state.describe()
    return out


def restore_hand(loaded: LoadedTable) -> HandState:
    """What the bot does at start-up for a table in play."""
    assert loaded.hand is not None
    setup = json.loads(loaded.hand.setup or "{}")
    return HandState.replay(
        find_preset(loaded.table.preset),
        loaded.hand.seed,
        loaded.hand.actions,
        HandSetup.from_json(setup),
    )


def hand_result(session: Session, outcome: Outcome) -> HandResult:
    """The store's view of a finished hand (hand seats mapped to the players sitting there)."""
    seats = tuple(PLAYERS[session.player_at(s)] for s in range(4))
    return HandResult(
        preset=PRESET,
        seats=seats,
        humans=(True,) * 4,
        deltas=outcome.deltas,
        wins=tuple(
            StoredWin(
                w.seat,
                w.score.fan,
                tuple((p.id, p.fan) for p in w.score.patterns),
                w.by.value,
                w.discarder,
            )
            for w in outcome.wins
        ),
        payments=tuple(
            Payment(payer, w.seat, -d)
            for w in outcome.wins
            for payer, d in enumerate(w.deltas)
            if d < 0
        ),
        rated=True,
    )


async def play(store: Store, tid: int, hid: int, state: HandState, actions: int) -> None:
    """Computer players decide `actions` times (or to the end); every action goes to the log."""
    for _ in range(actions):
        seats = state.seats_to_act()
        if not seats:
            return
        action = choose_action(state, seats[0])
        version = state.version
        state.apply(action)
        await store.append_action(tid, hid, action, version, {"turn": 1000.0 + state.version})


async def reopen(store: Store) -> tuple[Store, dict[int, LoadedTable]]:
    path = store.path
    await store.close()
    store = await Store.open(path)
    loaded, bad = await store.load_active_tables()
    assert bad == []
    return store, {lt.table.id: lt for lt in loaded}


@pytest.mark.parametrize("seed", [1, 2, 5])
async def test_restored_table_equals_live_mid_hand_and_between_hands(
    db: Databases, seed: int
) -> None:
    rng = random.Random(seed)
    store = await Store.open(db("live"))
    tid = await store.create_table(
        PRESET,
        seats=[SeatRow(i, p, True) for i, p in enumerate(PLAYERS)],
        options=TableOptions(rated=True),
    )
    session = Session(find_preset(PRESET), seed)

    hand_ids = []
    for hand_no in (1, 2):
        live = session.new_hand()
        hid = await store.start_hand(
            tid,
            hand_no,
            live.seed,
            setup=json.dumps(live.setup.to_json()),
        )
        hand_ids.append(hid)
        await play(store, tid, hid, live, rng.randint(5, 60))

        # Mid-hand: a restart rebuilds exactly the live hand.
        store, tables = await reopen(store)
        assert tables[tid].table.phase is Phase.PLAYING
        restored = restore_hand(tables[tid])
        assert snapshot(restored) == snapshot(live)
        assert tables[tid].deadlines == {"turn": 1000.0 + live.version}

        # Play on from the restored table; the log keeps growing where it stopped.
        await play(store, tid, hid, restored, 10_000)
        outcome = restored.outcome()
        assert outcome is not None
        replayed = HandState.replay(find_preset(PRESET), live.seed, restored.log, live.setup)
        assert snapshot(replayed) == snapshot(restored)

        result = hand_result(session, outcome)
        session.finish_hand(outcome)
        await store.record_hand_result(
            tid, hid, result, session_state=json.dumps(session.to_json())
        )

        # Between hands: the session (dealer, winds, points) comes back equal.
        store, tables = await reopen(store)
        lt = tables[tid]
        assert lt.table.phase is Phase.BETWEEN_HANDS and lt.hand is None
        back = Session.from_json(json.loads(lt.table.session_state))
        assert back == session
        assert back.hand_seed() == session.hand_seed()
        session = back  # the next hand is dealt from the restored session

    # The whole history is recomputable from the logs: replaying each stored hand gives the
    # points the history recorded.
    logs = [await store.hand_log(hid) for hid in hand_ids]
    assert [h.hand_no for h in logs] == [1, 2]
    for log in logs:
        setup = json.loads(log.setup or "{}")
        state = HandState.replay(
            find_preset(PRESET), log.seed, log.actions, HandSetup.from_json(setup)
        )
        record = await store.hand_record(log.hand_id)
        assert record is not None
        assert state.outcome().deltas == tuple(s.delta for s in record.seats)
    await store.close()
