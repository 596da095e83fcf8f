"""A bounded memo for answers worked out from exactly their key.

Scoring remembers what it reads from the tiles: a computer player scores the same tiles as a
discard win and as a self draw, and other seats' hands again on every discard. Such answers are
met again within a few decisions and rarely after, so a memo holds up to `limit` of them and then
forgets them all at once (cheaper than tracking which are old).
"""

from __future__ import annotations

from typing import TypeVar

K = TypeVar("K")
V = TypeVar("V")

DEFAULT_LIMIT = 20_000


class Memo(dict[K, V]):
    """A dict (lookups stay dict lookups) that `keep` fills up to `limit` entries."""

    def __init__(self, limit: int = DEFAULT_LIMIT) -> None:
        super().__init__()
        self.limit = limit

    def keep(self, key: K, value: V) -> V:
        """Remember `value` for `key` (first forgetting everything once full); return it."""
        if len(self) >= self.limit:
            self.clear()
        self[key] = value
        return value
