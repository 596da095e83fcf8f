"""Results and ratings: ending a hand exactly once, with its history and (rated) Elo changes.

Ratings move only on rated tables and only between the hand's human players (computers take
no part); each change is a rating_history row beside the rating, in the same transaction as
the result, so a rating is always the sum of its history.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence

from data import games
from data import rating as rating_math
from data.connection import transaction
from data.dialect import Db, lock_ratings
from data.errors import HandNotActiveError, ResultConflictError
from data.rows import GameResult, HandResult, HandStatus, RatingChange, RecordedHand
from data.tables import replace_deadlines


def record_hand_result(
    conn: Db,
    table_id: int,
    hand_id: int,
    result: HandResult,
    session_state: str | None,
    deadlines: Mapping[str, float],
    at: float,
    game: GameResult | None = None,
) -> RecordedHand:
    fingerprint = result.fingerprint()
    places = result.placements
    with transaction(conn):
        row = conn.execute(
            "SELECT h.table_id, h.status, t.preset, t.rated, r.fingerprint FROM hands h"
            " JOIN tables t ON t.id = h.table_id"
            " LEFT JOIN hand_results r ON r.hand_id = h.id WHERE h.id = ?",
            (hand_id,),
        ).fetchone()
        if row is None or row[0] != table_id:
            raise HandNotActiveError(f"table {table_id} has no hand {hand_id}")
        _, status, preset, rated, stored = row
        if stored is not None:
            if stored != fingerprint:
                raise ResultConflictError(
                    f"hand {hand_id} already has a different result; the first stands"
                )
            return RecordedHand(hand_id, False, rating_changes(conn, hand_id))
        if status != HandStatus.PLAYING:
            raise HandNotActiveError(f"hand {hand_id} is {status}; it takes no result")
        if result.preset != preset:
            raise ValueError(f"result is for {result.preset!r}, the table plays {preset!r}")
        if result.rated != bool(rated):
            raise ValueError(f"result says rated={result.rated}, the table is rated={bool(rated)}")
        conn.execute(
            "INSERT INTO hand_results (hand_id, table_id, preset, rated, rates, outcome,"
            " wins_json, payments_json, fingerprint, finished_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                hand_id,
                table_id,
                preset,
                int(result.rated),
                int(result.rates),
                result.outcome,
                json.dumps([w.to_json() for w in result.wins]),
                json.dumps([p.to_json() for p in result.payments]),
                fingerprint,
                at,
            ),
        )
        players = list(zip(result.seats, result.humans, result.deltas, places, strict=True))
        conn.execute(  # one statement for the seats (an executemany is one a seat)
            "INSERT INTO hand_players (hand_id, seat, player_id, human, delta, placement)"
            " VALUES " + ", ".join(["(?, ?, ?, ?, ?, ?)"] * len(players)),
            [
                value
                for seat, (pid, human, delta, place) in enumerate(players)
                for value in (hand_id, seat, pid, int(human), delta, place)
            ],
        )
        if result.declared:
            conn.execute(
                "INSERT INTO hand_declarations (hand_id, seat, kind) VALUES "
                + ", ".join(["(?, ?, ?)"] * len(result.declared)),
                [value for seat, kind in result.declared for value in (hand_id, seat, kind)],
            )
        changes: tuple[RatingChange, ...] = ()
        if result.rated and result.rates:
            humans, deltas = result.humans, result.deltas
            lock_ratings(conn, preset)
            changes = apply_ratings(conn, hand_id, preset, result.seats, humans, deltas, places, at)
        conn.execute(
            "UPDATE hands SET status = 'finished', ended_at = ? WHERE id = ?", (at, hand_id)
        )
        conn.execute(
            "UPDATE tables SET phase = CASE phase WHEN 'playing' THEN 'between_hands'"
            " ELSE phase END, current_hand_id = NULL, last_action_at = ?,"
            " session_json = coalesce(?, session_json) WHERE id = ?",
            (at, session_state, table_id),
        )
        replace_deadlines(conn, table_id, deadlines)
        if game is not None:  # the game ends with this hand: its standings, in this commit
            if tuple(s.player_id for s in game.standings) != result.seats:
                raise ValueError("a game's standings seat the players of its last hand")
            games.record_game(conn, table_id, hand_id, preset, bool(rated), game, at)
            if game.rated and game.rates:  # by final place (the game rule has broken ties)
                rows = game.standings
                lock_ratings(conn, preset)
                changes += apply_ratings(
                    conn,
                    hand_id,
                    preset,
                    [s.player_id for s in rows],
                    [s.human for s in rows],
                    [-s.place for s in rows],
                    [s.place for s in rows],
                    at,
                )
        return RecordedHand(hand_id, True, changes)


def apply_ratings(
    conn: Db,
    hand_id: int,
    preset: str,
    seats: Sequence[str],
    human: Sequence[bool],
    scores: Sequence[float],
    places: Sequence[int],
    at: float,
) -> tuple[RatingChange, ...]:
    """Elo between the humans (computers take no part) by `scores` (a hand's points, or a
    game's places negated); rows for each, kept against `hand_id`, or nothing."""
    humans = [i for i, h in enumerate(human) if h]
    if len(humans) < 2:
        return ()
    before: list[tuple[float, int]] = []
    for i in humans:
        row = conn.execute(
            "SELECT rating, games FROM ratings WHERE player_id = ? AND preset = ?",
            (seats[i], preset),
        ).fetchone()
        before.append(row if row is not None else (rating_math.START_RATING, 0))
    deltas = rating_math.elo_deltas(
        [r for r, _ in before], [g for _, g in before], [scores[i] for i in humans]
    )
    changes = tuple(
        RatingChange(seats[i], preset, r, r + d, g + 1, places[i])
        for i, (r, g), d in zip(humans, before, deltas, strict=True)
    )
    conn.executemany(
        "INSERT INTO ratings (player_id, preset, rating, games, updated_at) VALUES (?, ?, ?, ?, ?)"
        " ON CONFLICT (player_id, preset) DO UPDATE SET rating = excluded.rating,"
        " games = excluded.games, updated_at = excluded.updated_at",
        [(c.player_id, preset, c.after, c.games, at) for c in changes],
    )
    # Keep the per-games tally in step: each player moves from `games` to `games + 1`.
    conn.executemany(
        "UPDATE rating_counts SET players = players - 1 WHERE preset = ? AND games = ?",
        [(preset, g) for _, g in before if g > 0],
    )
    conn.executemany(
        "INSERT INTO rating_counts (preset, games, players) VALUES (?, ?, 1)"
        " ON CONFLICT (preset, games) DO UPDATE SET players = rating_counts.players + 1",
        [(preset, c.games) for c in changes],
    )
    conn.executemany(
        "INSERT INTO rating_history (hand_id, player_id, preset, rating_before, rating_after,"
        " games_after, placement, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        [
            (hand_id, c.player_id, preset, c.before, c.after, c.games, c.placement, at)
            for c in changes
        ],
    )
    return changes


def rating_changes(conn: Db, hand_id: int) -> tuple[RatingChange, ...]:
    """The rating changes a hand made, by seat (empty for casual hands)."""
    rows = conn.execute(
        "SELECT r.player_id, r.preset, r.rating_before, r.rating_after, r.games_after,"
        " r.placement FROM rating_history r"
        " JOIN hand_players p ON p.hand_id = r.hand_id AND p.player_id = r.player_id"
        " WHERE r.hand_id = ? ORDER BY p.seat",
        (hand_id,),
    ).fetchall()
    return tuple(RatingChange(*r) for r in rows)


def import_ratings(conn: Db, preset: str, rows: Iterable[tuple[str, float, int]], at: float) -> int:
    batch = [(pid, preset, float(r), int(g), at) for pid, r, g in rows]
    with transaction(conn):
        conn.executemany(
            "INSERT INTO ratings (player_id, preset, rating, games, updated_at)"
            " VALUES (?, ?, ?, ?, ?) ON CONFLICT (player_id, preset) DO UPDATE SET"
            " rating = excluded.rating, games = excluded.games, updated_at = excluded.updated_at",
            batch,
        )
        # Replaced rows may have moved between tallies: recount this preset.
        conn.execute("DELETE FROM rating_counts WHERE preset = ?", (preset,))
        conn.execute(
            "INSERT INTO rating_counts (preset, games, players)"
            " SELECT preset, games, count(*) FROM ratings WHERE preset = ?"
            " GROUP BY preset, games",
            (preset,),
        )
    return len(batch)
