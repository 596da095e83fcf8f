"""A writer for the crash tests: plays tables into a database until it is killed.

    python tests/data_writer_proc.py DB_PATH ACK_PATH SEED

Several tables play at once through one Store (so group commits are in flight): each creates
a table, starts a hand, appends actions, records the result (sometimes twice), sometimes
leaves a hand unfinished. After every write the store confirmed, a line goes to ACK_PATH
("A hand seq" for an action, "R hand" for a result), flushed, so the test can check that
nothing confirmed was lost. "ready" is written once the store is open.
"""

from __future__ import annotations

import asyncio
import os
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from data import HandResult, Payment, SeatRow, Store, StoredWin, StoreError, TableOptions

PRESET = "hkos-3-v1"
PLAYERS = [f"p{i}" for i in range(10)] + ["cpu:1", "cpu:2"]
LINES = ["0 discard 5m", "1 pass", "2 pung 5m", "3 chow 456p", "1 discard 1z", "2 win"]


async def table_loop(store: Store, rng: random.Random, ack) -> None:
    while True:
        seats = rng.sample(PLAYERS, 4)
        humans = [not p.startswith("cpu") for p in seats]
        rated = rng.random() < 0.8
        tid = await store.create_table(
            PRESET,
            seats=[SeatRow(i, p, h) for i, (p, h) in enumerate(zip(seats, humans, strict=True))],
            options=TableOptions(rated=rated),
        )
        for hand_no in range(1, rng.randint(2, 4)):
            hid = await store.start_hand(tid, hand_no, rng.getrandbits(64))
            for seq in range(rng.randint(1, 25)):
                await store.append_action(
                    tid, hid, rng.choice(LINES), seq, {"turn": float(seq), "reserve": 20.0}
                )
                ack(f"A {hid} {seq}")
            if rng.random() < 0.1:
                break  # left mid-hand: the table stays in play
            winner, loser = rng.sample(range(4), 2)
            points = rng.choice([8, 16, 32, 64])
            deltas = [0, 0, 0, 0]
            deltas[winner], deltas[loser] = points, -points
            result = HandResult(
                PRESET,
                tuple(seats),
                tuple(humans),
                tuple(deltas),
                (StoredWin(winner, 3, (("all_pungs", 3),), "discard", loser),),
                (Payment(loser, winner, points),),
                rated=rated,
            )
            await store.record_hand_result(tid, hid, result, session_state='{"hand": 1}')
            ack(f"R {hid}")
            if rng.random() < 0.3:  # a retried submission must change nothing
                await store.record_hand_result(tid, hid, result)


async def main() -> None:
    db_path, ack_path, seed = sys.argv[1], sys.argv[2], int(sys.argv[3])
    fd = os.open(ack_path, os.O_WRONLY | os.O_CREAT | os.O_APPEND)

    def ack(line: str) -> None:
        os.write(fd, (line + "\n").encode())  # unbuffered: written before the next step

    store = await Store.open(db_path)
    ack("ready")
    rng = random.Random(seed)
    loops = [table_loop(store, random.Random(rng.getrandbits(32)), ack) for _ in range(4)]
    try:
        await asyncio.gather(*loops)
    except StoreError as e:  # not expected; the test sees the exit code
        print(f"writer error: {e}", file=sys.stderr)
        raise


if __name__ == "__main__":
    asyncio.run(main())
