"""A short run of the kill soak, tests/soak.py (long: `python -m tests.soak --kills 200`)."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import Databases
from tests.runtime_writer_proc import audit
from tests.soak import soak


def test_random_kills_during_whole_hands_lose_nothing_and_stick_nowhere(
    tmp_path: Path, db: Databases
) -> None:
    """On SQLite and on PostgreSQL: 0 stuck tables, 0 actions lost or doubled."""
    tally = soak(kills=16, seed=3, hands=2, folder=tmp_path, place=db if db.postgres else None)
    print(tally.line())
    assert tally.kills >= 16 and tally.tables >= 2  # both kinds of table: 1+3 casual, 4 rated
    assert tally.clean, (tally.line(), tally.other)
    assert tally.hands >= 2 * tally.tables - 1  # every table but the last played its hands


def test_random_kills_during_per_game_tables_leave_no_game_half_stored(tmp_path: Path) -> None:
    """Tables whose ratings settle per finished game (tests/game_presets.py SHORT_GAME): no
    result of a game's last hand without the game's standings and ratings, nor the reverse."""
    tally = soak(kills=6, seed=5, hands=2, folder=tmp_path, modes=("game",))
    assert tally.kills >= 6 and tally.clean, (tally.line(), tally.other)
    assert tally.hands >= 2 * tally.tables - 1


def test_the_audit_sees_a_lost_action_and_a_changed_log(tmp_path: Path) -> None:
    """The soak's checks can fail: an acknowledged action missing from the log is found."""
    import sqlite3

    db = tmp_path / "empty.db"
    sqlite3.connect(db).executescript(
        "CREATE TABLE actions (hand_id, seq, action);"
        "CREATE TABLE hands (id, table_id, status);"
        "CREATE TABLE tables (id, rated, preset, phase);"
        "CREATE TABLE hand_results (hand_id, table_id, rated, rates);"
        "CREATE TABLE game_results (table_id, last_hand_id, hands);"
        "CREATE TABLE game_players (table_id);"
        "CREATE TABLE hand_players (hand_id);"
        "CREATE TABLE rating_history (hand_id, player_id, preset);"
        "CREATE TABLE table_seats (table_id, human);"
        "CREATE TABLE ratings (player_id, preset, games);"
        "INSERT INTO actions VALUES (1, 0, '0 discard 5m');"
    )
    assert audit(str(db), [(1, 0, "0 discard 5m")]).ok
    found = audit(str(db), [(1, 0, "0 discard 5m"), (1, 1, "1 pass")])
    assert not found.ok and found.problems == ["lost: hand 1 action 1 1 pass"]
