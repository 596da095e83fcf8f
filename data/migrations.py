"""Numbered schema migrations, recorded in PRAGMA user_version.

MIGRATIONS[i] takes a database from version i to version i + 1. A migration is never edited
once released: a change to the schema is a new entry at the end. Each runs in its own
transaction together with the user_version bump, so a crash mid-upgrade leaves the file at the
previous version and the next start simply tries again.

A database whose user_version is above LATEST_VERSION was written by a newer bot; it is refused
before anything is written to it (the version is read through a read-only connection).
"""

from __future__ import annotations

import os
import sqlite3

from data.errors import NotAStoreError, SchemaTooNewError

# v1 - tables, their seats, hands as seed + action log, clock deadlines.
_V1 = """
CREATE TABLE tables (
    id              INTEGER PRIMARY KEY,
    guild_id        INTEGER,
    channel_id      INTEGER,
    preset          TEXT NOT NULL,
    visibility      TEXT NOT NULL DEFAULT 'public' CHECK (visibility IN ('public', 'private')),
    rated           INTEGER NOT NULL DEFAULT 0 CHECK (rated IN (0, 1)),
    time_control    TEXT NOT NULL,
    invite_code     TEXT,
    options_json    TEXT NOT NULL DEFAULT '{}',
    phase           TEXT NOT NULL CHECK (phase IN
                        ('lobby', 'playing', 'between_hands', 'closed', 'quarantined')),
    message_id      INTEGER,
    session_json    TEXT,
    current_hand_id INTEGER REFERENCES hands (id),
    created_at      REAL NOT NULL,
    last_action_at  REAL NOT NULL
);
CREATE UNIQUE INDEX tables_invite ON tables (invite_code) WHERE invite_code IS NOT NULL;

CREATE TABLE table_seats (
    table_id  INTEGER NOT NULL REFERENCES tables (id),
    seat      INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3),
    player_id TEXT NOT NULL,
    human     INTEGER NOT NULL CHECK (human IN (0, 1)),
    PRIMARY KEY (table_id, seat)
) WITHOUT ROWID;
CREATE INDEX table_seats_player ON table_seats (player_id);

CREATE TABLE hands (
    id         INTEGER PRIMARY KEY,
    table_id   INTEGER NOT NULL REFERENCES tables (id),
    hand_no    INTEGER NOT NULL,
    seed       TEXT NOT NULL,
    setup_json TEXT,
    status     TEXT NOT NULL DEFAULT 'playing'
                   CHECK (status IN ('playing', 'finished', 'abandoned')),
    started_at REAL NOT NULL,
    ended_at   REAL,
    UNIQUE (table_id, hand_no)
);

CREATE TABLE actions (
    hand_id INTEGER NOT NULL REFERENCES hands (id),
    seq     INTEGER NOT NULL CHECK (seq >= 0),
    action  TEXT NOT NULL,
    at      REAL NOT NULL,
    PRIMARY KEY (hand_id, seq)
) WITHOUT ROWID;

CREATE TABLE clock_deadlines (
    table_id INTEGER NOT NULL REFERENCES tables (id),
    name     TEXT NOT NULL,
    at       REAL NOT NULL,
    PRIMARY KEY (table_id, name)
) WITHOUT ROWID;
"""

# v2 - hand history and ratings per preset.
_V2 = """
CREATE TABLE hand_results (
    hand_id       INTEGER PRIMARY KEY REFERENCES hands (id),
    table_id      INTEGER NOT NULL REFERENCES tables (id),
    preset        TEXT NOT NULL,
    rated         INTEGER NOT NULL CHECK (rated IN (0, 1)),
    outcome       TEXT NOT NULL CHECK (outcome IN ('win', 'draw')),
    wins_json     TEXT NOT NULL,
    payments_json TEXT NOT NULL,
    fingerprint   TEXT NOT NULL,
    finished_at   REAL NOT NULL
);

CREATE TABLE hand_players (
    hand_id   INTEGER NOT NULL REFERENCES hand_results (hand_id),
    seat      INTEGER NOT NULL,
    player_id TEXT NOT NULL,
    human     INTEGER NOT NULL CHECK (human IN (0, 1)),
    delta     INTEGER NOT NULL,
    placement INTEGER NOT NULL,
    PRIMARY KEY (hand_id, seat)
) WITHOUT ROWID;
CREATE INDEX hand_players_player ON hand_players (player_id, hand_id DESC);

CREATE TABLE ratings (
    player_id  TEXT NOT NULL,
    preset     TEXT NOT NULL,
    rating     REAL NOT NULL,
    games      INTEGER NOT NULL CHECK (games >= 0),
    updated_at REAL NOT NULL,
    PRIMARY KEY (player_id, preset)
) WITHOUT ROWID;
-- The leaderboard walks this index in its exact order (rating, then player id for ties) and
-- filters games from it: a page reads LIMIT + OFFSET index entries and no table rows.
CREATE INDEX ratings_board ON ratings (preset, rating DESC, player_id, games);

-- How many players of a preset have each number of games: the leaderboard's total without
-- counting the board. Kept in step with ratings in the same transactions.
CREATE TABLE rating_counts (
    preset  TEXT NOT NULL,
    games   INTEGER NOT NULL,
    players INTEGER NOT NULL CHECK (players >= 0),
    PRIMARY KEY (preset, games)
) WITHOUT ROWID;

CREATE TABLE rating_history (
    hand_id       INTEGER NOT NULL REFERENCES hand_results (hand_id),
    player_id     TEXT NOT NULL,
    preset        TEXT NOT NULL,
    rating_before REAL NOT NULL,
    rating_after  REAL NOT NULL,
    games_after   INTEGER NOT NULL,
    placement     INTEGER NOT NULL,
    at            REAL NOT NULL,
    PRIMARY KEY (hand_id, player_id)
) WITHOUT ROWID;
CREATE INDEX rating_history_player ON rating_history (player_id, preset, hand_id);
"""

# v3 - table lifecycle: closing and quarantine recorded, idle tables found by one index.
_V3 = """
ALTER TABLE tables ADD COLUMN closed_at REAL;
ALTER TABLE tables ADD COLUMN closed_reason TEXT;
ALTER TABLE tables ADD COLUMN quarantine_reason TEXT;
CREATE INDEX tables_phase_idle ON tables (phase, last_action_at);

CREATE TABLE table_events (
    id       INTEGER PRIMARY KEY,
    table_id INTEGER NOT NULL REFERENCES tables (id),
    at       REAL NOT NULL,
    kind     TEXT NOT NULL,
    detail   TEXT NOT NULL DEFAULT ''
);
CREATE INDEX table_events_table ON table_events (table_id, id);
"""

# v4 - language preferences: a server's for its table messages, a person's for replies and DMs;
# the `_seen` scopes keep the language of the Discord locale last seen, for after a restart.
_V4 = """
CREATE TABLE language_preferences (
    scope      TEXT NOT NULL CHECK (scope IN ('guild', 'user', 'guild_seen', 'user_seen')),
    subject    TEXT NOT NULL,
    language   TEXT NOT NULL,
    updated_at REAL NOT NULL,
    PRIMARY KEY (scope, subject)
) WITHOUT ROWID;
"""

# v5 - games that end: a finished game's final standings, one row a table and one a seat (a
# preset whose games end plays one game a table; its table closes with the game).
_V5 = """
CREATE TABLE game_results (
    table_id     INTEGER PRIMARY KEY REFERENCES tables (id),
    last_hand_id INTEGER NOT NULL REFERENCES hand_results (hand_id),
    preset       TEXT NOT NULL,
    rated        INTEGER NOT NULL CHECK (rated IN (0, 1)),
    rates        INTEGER NOT NULL CHECK (rates IN (0, 1)), -- ratings settled by this game
    hands        INTEGER NOT NULL CHECK (hands > 0),
    finished_at  REAL NOT NULL
);

CREATE TABLE game_players (
    table_id  INTEGER NOT NULL REFERENCES game_results (table_id),
    seat      INTEGER NOT NULL,
    player_id TEXT NOT NULL,
    human     INTEGER NOT NULL CHECK (human IN (0, 1)),
    points    INTEGER NOT NULL,
    placement INTEGER NOT NULL,
    score     REAL NOT NULL,
    PRIMARY KEY (table_id, seat)
) WITHOUT ROWID;
CREATE INDEX game_players_player ON game_players (player_id, table_id DESC);
"""

# v6 - the DM inbox: several processes share one database (PostgreSQL), and Discord sends every
# DM click to shard 0's process; a click for another process's table waits here for its owner.
_V6 = """
CREATE TABLE dm_inbox (
    id         INTEGER PRIMARY KEY,
    table_id   INTEGER NOT NULL,
    payload    TEXT NOT NULL,
    created_at REAL NOT NULL
);
CREATE INDEX dm_inbox_table ON dm_inbox (table_id, id);
"""

# v7 - games in history and statistics: whether a hand settles ratings itself (1) or is one of a
# game that does (0: a Riichi game's hands, shown as their game), and the declarations a rule
# made in each hand by seat (riichi), which the statistics count per hand played.
_V7 = """
ALTER TABLE hand_results ADD COLUMN rates INTEGER NOT NULL DEFAULT 1 CHECK (rates IN (0, 1));

CREATE TABLE hand_declarations (
    hand_id INTEGER NOT NULL REFERENCES hand_results (hand_id),
    seat    INTEGER NOT NULL,
    kind    TEXT NOT NULL,
    PRIMARY KEY (hand_id, seat, kind)
) WITHOUT ROWID;
"""

# v8 - Quick Play queues, shared by the processes on one database: a person queued on one is
# matched with people queued on another. Each entry lives while the process serving its guild
# renews `alive_until`; a crashed process's entries lapse (data/quickplay.py).
_V8 = """
CREATE TABLE quickplay_queue (
    id          INTEGER PRIMARY KEY, -- the order people queued in
    preset      TEXT NOT NULL,
    rated       INTEGER NOT NULL CHECK (rated IN (0, 1)),
    player_id   TEXT NOT NULL,
    name        TEXT NOT NULL,
    guild_id    INTEGER,
    channel_id  INTEGER,
    queued_at   REAL NOT NULL,
    alive_until REAL NOT NULL,
    UNIQUE (preset, rated, player_id)
);
CREATE INDEX quickplay_queue_player ON quickplay_queue (player_id);
"""

MIGRATIONS: tuple[str, ...] = (_V1, _V2, _V3, _V4, _V5, _V6, _V7, _V8)
LATEST_VERSION = len(MIGRATIONS)


def statements(script: str) -> list[str]:
    """Split a script into complete statements (each run alone, inside our own transaction).

    executescript() would commit on its own, outside our transaction and version bump.
    """
    out: list[str] = []
    pending = ""
    for line in script.splitlines(keepends=True):
        if not pending and (not line.strip() or line.lstrip().startswith("--")):
            continue
        pending += line
        if sqlite3.complete_statement(pending):
            out.append(pending.strip())
            pending = ""
    if pending.strip():
        raise ValueError(f"incomplete SQL statement in migration: {pending.strip()[:80]!r}")
    return out


def probe_version(path: str) -> int:
    """The file's schema version, read without writing a byte (0 for a missing or empty file).

    The version is read from the database header (user_version is bytes 60-63), so nothing is
    created or changed beside the file either. Only when a non-empty WAL lies next to it (a
    writer stopped before checkpointing, so the header may be stale) is SQLite asked, through a
    read-only connection, which can neither checkpoint nor roll anything back into the file.
    """
    if path == ":memory:" or path.startswith("file:"):
        return 0
    try:
        with open(path, "rb") as f:
            header = f.read(100)
    except FileNotFoundError:
        return 0
    if not header:
        return 0  # SQLite treats an empty file as a new database
    if len(header) < 100 or not header.startswith(b"SQLite format 3\x00"):
        raise NotAStoreError(f"{path!r} is not a SQLite database; refusing to touch it")
    version = int.from_bytes(header[60:64], "big", signed=True)
    try:
        wal_size = os.path.getsize(path + "-wal")
    except OSError:
        wal_size = 0
    if wal_size:
        conn = sqlite3.connect(f"file:{_uri_path(path)}?mode=ro", uri=True)
        try:
            version = int(conn.execute("PRAGMA user_version").fetchone()[0])
        except sqlite3.DatabaseError as e:
            raise NotAStoreError(f"{path!r} is not a readable SQLite database ({e})") from None
        finally:
            conn.close()
    return version


def _uri_path(path: str) -> str:
    # '?' and '#' would end the path part of the URI.
    return path.replace("%", "%25").replace("?", "%3f").replace("#", "%23")


def check_compatible(conn: sqlite3.Connection, path: str) -> int:
    """The database's version, if this bot can use it; reads only (run before any write)."""
    found = int(conn.execute("PRAGMA user_version").fetchone()[0])
    if found > LATEST_VERSION:
        raise SchemaTooNewError(path, found, LATEST_VERSION)
    if found == 0 and conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]:
        raise NotAStoreError(
            f"{path!r} holds a SQLite database that is not the mahjong bot's "
            "(it has tables but no schema version); refusing to touch it"
        )
    return found


def migrate(conn: sqlite3.Connection, path: str) -> tuple[int, int]:
    """Bring the database up to LATEST_VERSION; returns (version found, version now).

    `conn` is in autocommit mode (isolation_level None). Safe against another process migrating
    the same file at the same time: each step re-reads the version under the write lock.
    """
    found = check_compatible(conn, path)
    while True:
        conn.execute("BEGIN IMMEDIATE")
        try:
            version = int(conn.execute("PRAGMA user_version").fetchone()[0])
            if version > LATEST_VERSION:
                raise SchemaTooNewError(path, version, LATEST_VERSION)
            if version == LATEST_VERSION:
                conn.execute("COMMIT")
                return found, version
            for sql in statements(MIGRATIONS[version]):
                conn.execute(sql)
            # PRAGMA takes no parameters; the value is our own int.
            conn.execute(f"PRAGMA user_version = {version + 1}")
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
