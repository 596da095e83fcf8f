"""Persistence on SQLite (aiosqlite) or PostgreSQL (asyncpg, `postgresql://…`): tables as action
logs, ratings per preset, history, leaderboards, expiry, and the Quick Play queues and the DM
inbox shared between processes. The only package that talks to the database; it imports only
`engine`.

>>> import asyncio
>>> async def demo():
...     async with await Store.open(":memory:") as store:
...         return await store.create_table("hkos-3-v1")
>>> asyncio.run(demo())
1
"""

from data.connection import check_database
from data.errors import (
    AlreadyOpenError,
    HandNotActiveError,
    NotAStoreError,
    ResultConflictError,
    SchemaTooNewError,
    StaleVersionError,
    StoreError,
    TableNotFoundError,
    UnusableDatabaseError,
)
from data.rows import (
    ACTIVE_PHASES,
    GameRecord,
    GameResult,
    GameStanding,
    GameStats,
    HandLog,
    HandRecord,
    HandResult,
    HandStatus,
    LeaderboardEntry,
    LeaderboardPage,
    LoadedTable,
    Payment,
    Phase,
    PlayerStats,
    QuarantinedTable,
    RatingChange,
    RatingRow,
    RecordedHand,
    SeatResult,
    SeatRow,
    StoredWin,
    TableOptions,
    TableRow,
)
from data.store import IDLE_EXPIRY, LEADERBOARD_MIN_GAMES, Store
from data.tables import Shards

__all__ = [
    "ACTIVE_PHASES",
    "IDLE_EXPIRY",
    "LEADERBOARD_MIN_GAMES",
    "AlreadyOpenError",
    "GameRecord",
    "GameResult",
    "GameStanding",
    "GameStats",
    "HandLog",
    "HandNotActiveError",
    "HandRecord",
    "HandResult",
    "HandStatus",
    "LeaderboardEntry",
    "LeaderboardPage",
    "LoadedTable",
    "NotAStoreError",
    "Payment",
    "Phase",
    "PlayerStats",
    "QuarantinedTable",
    "RatingChange",
    "RatingRow",
    "RecordedHand",
    "ResultConflictError",
    "SchemaTooNewError",
    "SeatResult",
    "SeatRow",
    "Shards",
    "StaleVersionError",
    "Store",
    "StoreError",
    "StoredWin",
    "TableNotFoundError",
    "TableOptions",
    "TableRow",
    "UnusableDatabaseError",
    "check_database",
]
