"""Snowflake ids and timestamps shaped like Discord's own."""

from __future__ import annotations

import datetime
import time

DISCORD_EPOCH_MS = 1_420_070_400_000


class SnowflakeFactory:
    """Hand out strictly increasing snowflakes stamped with the current time.

    discord.py derives ``created_at`` from a snowflake, so ids must carry a real timestamp; the
    low bits only need to keep ids unique when several are made in the same millisecond.
    """

    def __init__(self) -> None:
        self._last = 0

    def __call__(self) -> int:
        """Return the next id."""
        stamped = (int(time.time() * 1000) - DISCORD_EPOCH_MS) << 22
        self._last = max(stamped, self._last + 1)
        return self._last


def iso_now() -> str:
    """Return the current UTC time in the ISO 8601 form Discord uses for timestamps."""
    return datetime.datetime.now(datetime.UTC).isoformat()
