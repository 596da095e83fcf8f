"""Games that end: a finished game's standings, kept with its last hand's result in one
transaction, and (where the preset says so) its ratings, settled once by final place.

A game abandoned or expired before its end has no row here and changes no rating: ratings that
settle per game move only in `record_game`, which runs only as a game finishes.
"""

from __future__ import annotations

from data.dialect import Db
from data.rows import GameResult, GameStanding
from data.tables import close

GAME_OVER = "game over"  # the closing reason of a table whose game finished


def record_game(
    conn: Db,
    table_id: int,
    last_hand_id: int,
    preset: str,
    rated: bool,
    game: GameResult,
    at: float,
) -> None:
    """Inside the caller's transaction (the last hand's result, which settles the game's
    ratings beside it): the game's standings, and the table closed as its game is over."""
    if game.preset != preset:
        raise ValueError(f"game result is for {game.preset!r}, the table plays {preset!r}")
    if game.rated != rated:
        raise ValueError(f"game result says rated={game.rated}, the table is rated={rated}")
    conn.execute(
        "INSERT INTO game_results (table_id, last_hand_id, preset, rated, rates, hands,"
        " finished_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
        (table_id, last_hand_id, preset, int(rated), int(game.rates), game.hands, at),
    )
    rows = game.standings
    conn.execute(
        "INSERT INTO game_players (table_id, seat, player_id, human, points, placement, score)"
        " VALUES " + ", ".join(["(?, ?, ?, ?, ?, ?, ?)"] * len(rows)),
        [
            value
            for s in rows
            for value in (table_id, s.seat, s.player_id, int(s.human), s.points, s.place, s.score)
        ],
    )
    close(conn, [table_id], GAME_OVER, at)


def game_result(conn: Db, table_id: int) -> GameResult | None:
    """A table's finished game (None if it has none: endless, unfinished or abandoned)."""
    head = conn.execute(
        "SELECT preset, rated, rates, hands FROM game_results WHERE table_id = ?", (table_id,)
    ).fetchone()
    if head is None:
        return None
    preset, rated, rates, hands = head
    rows = conn.execute(
        "SELECT seat, player_id, human, points, placement, score FROM game_players"
        " WHERE table_id = ? ORDER BY seat",
        (table_id,),
    ).fetchall()
    standings = tuple(GameStanding(s, p, bool(h), pts, pl, sc) for s, p, h, pts, pl, sc in rows)
    return GameResult(preset, hands, standings, bool(rated), bool(rates))
