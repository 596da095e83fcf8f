"""A writer for the group-commit kill test: many tables of one runtime play at once until killed.

    python tests/runtime_tables_proc.py DB ACK TABLES

The process opens the runtime on DB (FULL durability, as the bot), restoring the tables there,
or opening TABLES tables of one person and three easy computers if there are none, and plays
every person's decisions on all of them at once, so their runs wait for the same group
commits. Each person action the runtime confirmed (confirmed means stored) goes to ACK as
`A <hand id> <version> <action>`, flushed line by line; `ready` once the tables are open. The
test kills the process (SIGKILL) while commits are in flight.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.runtime import ManualTimers, NullFrontEnd, Runtime
from data import Store
from tests.runtime_writer_proc import drive

HANDS = 1_000  # more than a table finishes before it is killed


async def main(db: str, ack_path: str, count: int) -> None:
    with open(ack_path, "a", encoding="utf-8", buffering=1) as out:

        def ack(line: str) -> None:
            out.write(line + "\n")
            out.flush()

        store = await Store.open(db)
        runtime = Runtime(store, NullFrontEnd(), ManualTimers(), seed_source=lambda: 77)
        await runtime.open()
        for n in range(0 if runtime.tables else count):  # after a kill: the restored ones
            person = str(500 + n)
            table = await runtime.create_table(
                "hkos-3-v1", creator_id=person, creator_name=f"P{n}", computers=3, level="easy"
            )
            await runtime.start_table(table.id, person)
        ack("ready")
        await asyncio.gather(*(drive(runtime, table_id, HANDS, ack) for table_id in runtime.tables))


if __name__ == "__main__":
    db_path, ack_file, tables = sys.argv[1:4]
    asyncio.run(main(db_path, ack_file, int(tables)))
