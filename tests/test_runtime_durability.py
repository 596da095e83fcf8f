"""Group commits keep FULL durability: what the runtime confirmed survives a SIGKILL.

Many tables of one process play at once (tests/runtime_tables_proc.py), so their runs wait for
the same commits; the process is killed while commits are in flight, three times over one file
(each restart restores the tables and plays them on). After every kill each action the runtime
had confirmed is in the log, the logs have no gaps and every result is stored once
(`audit` of tests/runtime_writer_proc.py).
"""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

from tests.runtime_writer_proc import audit, read_acks

WRITER = Path(__file__).with_name("runtime_tables_proc.py")
TABLES = 16
KILLS = 3
CONFIRMED = 120  # person actions confirmed in a round before its kill
PATIENCE = 120.0  # seconds a round may take on a loaded machine


def test_actions_confirmed_at_many_tables_survive_kills(tmp_path: Path) -> None:
    db, ack = tmp_path / "tables.db", tmp_path / "ack.txt"
    for _ in range(KILLS):
        before = len(read_acks(str(ack))[0])
        proc = subprocess.Popen([sys.executable, str(WRITER), str(db), str(ack), str(TABLES)])
        try:
            deadline = time.monotonic() + PATIENCE
            while len(read_acks(str(ack))[0]) < before + CONFIRMED:
                assert proc.poll() is None, f"the writer stopped by itself ({proc.returncode})"
                assert time.monotonic() < deadline, "the writer confirmed too little in time"
                time.sleep(0.05)
            proc.send_signal(signal.SIGKILL)
            proc.wait(timeout=30)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
        assert proc.returncode == -signal.SIGKILL
        acked, _ = read_acks(str(ack))
        found = audit(str(db), acked)
        assert found.ok, found.problems[:5]
        hands = {hand_id for hand_id, _, _ in acked}
        assert len(hands) >= TABLES // 2  # the confirmations came from many tables at once
