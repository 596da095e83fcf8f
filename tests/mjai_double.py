"""A misbehaving mjai engine for tests/test_mjai_engines.py: `python tests/mjai_double.py MODE
PLAYER`. It answers start_game with none, then on every later line: `slow` sleeps past any limit,
`crash` exits 3, `lie` answers an ankan of four 1m (never legal in a claim window, nor on a turn
without four 1m)."""

from __future__ import annotations

import json
import sys
import time


def main() -> int:
    mode, player = sys.argv[1], int(sys.argv[2])
    for line in sys.stdin:
        events = json.loads(line)
        if events and events[0]["type"] == "start_game":
            reply: dict[str, object] = {"type": "none"}
        elif mode == "slow":
            time.sleep(30)
            reply = {"type": "none"}
        elif mode == "crash":
            return 3
        else:
            reply = {"type": "ankan", "actor": player, "consumed": ["1m", "1m", "1m", "1m"]}
        print(json.dumps(reply), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
