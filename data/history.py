"""Leaderboard and history reads: what `/mahjong leaderboard`, `rating` and `history` show."""

from __future__ import annotations

import json

from data import rating as rating_math
from data.connection import transaction
from data.dialect import Db
from data.errors import StoreError, UnreadableError
from data.games import game_result
from data.results import rating_changes
from data.rows import (
    GameRecord,
    GameStats,
    HandRecord,
    LeaderboardEntry,
    LeaderboardPage,
    Payment,
    PlayerStats,
    RatingPoint,
    RatingRow,
    SeatResult,
    StoredWin,
    TableRow,
)
from data.tables import read_table

LEADERBOARD_MIN_GAMES = 3  # on the board from the third rated hand; provisional ones marked


def leaderboard(
    conn: Db, preset: str, page: int, page_size: int, min_games: int
) -> LeaderboardPage:
    offset = (page - 1) * page_size
    with transaction(conn, "DEFERRED"):
        # Counting 100,000 index entries costs milliseconds; the per-games tally is a few
        # hundred rows at most.
        total = int(  # PostgreSQL sums integers as numeric
            conn.execute(
                "SELECT coalesce(sum(players), 0) FROM rating_counts"
                " WHERE preset = ? AND games >= ?",
                (preset, min_games),
            ).fetchone()[0]
        )
        end = min(offset + page_size, total)
        if offset >= total:
            rows = []
        elif offset <= total - end:
            # Both walk the ratings_board index (covering; see the migration) and skip `OFFSET`
            # entries; a page in the lower half is found from the bottom, so no page skips
            # more than half the board.
            rows = conn.execute(
                "SELECT player_id, rating, games FROM ratings"
                " WHERE preset = ? AND games >= ?"
                " ORDER BY rating DESC, player_id LIMIT ? OFFSET ?",
                (preset, min_games, end - offset, offset),
            ).fetchall()
        else:
            rows = conn.execute(
                "SELECT player_id, rating, games FROM ratings"
                " WHERE preset = ? AND games >= ?"
                " ORDER BY rating ASC, player_id DESC LIMIT ? OFFSET ?",
                (preset, min_games, end - offset, total - end),
            ).fetchall()[::-1]
    entries = tuple(
        LeaderboardEntry(offset + 1 + i, pid, r, g, rating_math.is_provisional(g))
        for i, (pid, r, g) in enumerate(rows)
    )
    return LeaderboardPage(preset, page, page_size, min_games, total, entries)


def ratings_of(conn: Db, player_id: str) -> list[RatingRow]:
    rows = conn.execute(
        "SELECT preset, rating, games, updated_at FROM ratings WHERE player_id = ? ORDER BY preset",
        (player_id,),
    ).fetchall()
    return [RatingRow(player_id, *r) for r in rows]


def recent_hands(
    conn: Db, player_id: str, limit: int, preset: str | None, game_hands: bool = True
) -> list[HandRecord]:
    """The player's latest finished hands; without `game_hands`, not the hands of games whose
    ratings settle per game (history shows those as their games)."""
    with transaction(conn, "DEFERRED"):
        if preset is None and game_hands:
            ids = conn.execute(
                "SELECT hand_id FROM hand_players WHERE player_id = ?"
                " ORDER BY hand_id DESC LIMIT ?",
                (player_id, limit),
            ).fetchall()
        else:
            ids = conn.execute(
                "SELECT p.hand_id FROM hand_players p"
                " JOIN hand_results r ON r.hand_id = p.hand_id"
                " WHERE p.player_id = ?1 AND (CAST(?2 AS TEXT) IS NULL OR r.preset = ?2)"
                " AND r.rates >= ?3 ORDER BY p.hand_id DESC LIMIT ?4",
                (player_id, preset, 0 if game_hands else 1, limit),
            ).fetchall()
        return [_hand_record(conn, hid) for (hid,) in ids]


def hand_record(conn: Db, hand_id: int) -> HandRecord | None:
    with transaction(conn, "DEFERRED"):
        if not conn.execute("SELECT 1 FROM hand_results WHERE hand_id = ?", (hand_id,)).fetchone():
            return None
        return _hand_record(conn, hand_id)


def _hand_record(conn: Db, hand_id: int) -> HandRecord:
    table_id, preset, rated, outcome, wins_json, payments_json, finished_at, hand_no = conn.execute(
        "SELECT r.table_id, r.preset, r.rated, r.outcome, r.wins_json, r.payments_json,"
        " r.finished_at, h.hand_no FROM hand_results r JOIN hands h ON h.id = r.hand_id"
        " WHERE r.hand_id = ?",
        (hand_id,),
    ).fetchone()
    seats = conn.execute(
        "SELECT seat, player_id, human, delta, placement FROM hand_players"
        " WHERE hand_id = ? ORDER BY seat",
        (hand_id,),
    ).fetchall()
    return HandRecord(
        hand_id=hand_id,
        table_id=table_id,
        hand_no=hand_no,
        preset=preset,
        finished_at=finished_at,
        rated=bool(rated),
        outcome=outcome,
        seats=tuple(SeatResult(s, p, bool(h), d, pl) for s, p, h, d, pl in seats),
        wins=tuple(StoredWin.from_json(w) for w in json.loads(wins_json)),
        payments=tuple(Payment.from_json(p) for p in json.loads(payments_json)),
        rating_changes=rating_changes(conn, hand_id),
    )


def table_row(conn: Db, table_id: int) -> TableRow:
    """A table as stored, for reads (who may replay its hands): no restore, no quarantine."""
    with transaction(conn, "DEFERRED"):
        try:
            return read_table(conn, table_id)
        except UnreadableError as e:
            raise StoreError(f"table {table_id}: {e}") from None


def player_stats(conn: Db, player_id: str, preset: str | None) -> PlayerStats:
    """Counted from the player's seats in hand_players and the wins stored with each result;
    the hands of games whose ratings settle per game are counted with their games
    (`game_stats`), not here."""
    rows = conn.execute(
        "SELECT p.hand_id, p.seat, r.wins_json FROM hand_players p"
        " JOIN hand_results r ON r.hand_id = p.hand_id"
        # the type named: PostgreSQL cannot tell a lone `?2 IS NULL` parameter's
        " WHERE p.player_id = ?1 AND (CAST(?2 AS TEXT) IS NULL OR r.preset = ?2)"
        " AND r.rates = 1 ORDER BY p.hand_id",
        (player_id, preset),
    ).fetchall()
    return _hand_figures(player_id, preset, rows)


def _hand_figures(
    player_id: str, preset: str | None, rows: list[tuple[int, int, str]]
) -> PlayerStats:
    """A player's figures over hands given as (hand id, the player's seat, wins JSON)."""
    won = dealt_in = wins = self_draws = fan_total = best_fan = 0
    best_hand: int | None = None
    for hand_id, seat, wins_json in rows:
        records = [StoredWin.from_json(w) for w in json.loads(wins_json)]
        mine = [w for w in records if w.seat == seat]
        won += bool(mine)
        dealt_in += any(w.discarder == seat and w.by != "self_draw" for w in records)
        wins += len(mine)
        self_draws += sum(1 for w in mine if w.by == "self_draw")
        fan_total += sum(w.fan for w in mine)
        for w in mine:
            if best_hand is None or w.fan > best_fan:  # the first of equal wins stays best
                best_hand, best_fan = hand_id, w.fan
    return PlayerStats(
        player_id=player_id,
        preset=preset,
        hands=len(rows),
        hands_won=won,
        hands_dealt_in=dealt_in,
        wins=wins,
        self_draws=self_draws,
        fan_total=fan_total,
        best_hand_id=best_hand,
        best_fan=best_fan,
    )


# A finished game of a preset whose ratings settle per game, and the player's seat in it (a
# game abandoned or expired before its end has no game_results row, so counts nowhere).
_MY_GAMES = (
    " FROM game_players gp JOIN game_results g ON g.table_id = gp.table_id"
    " WHERE gp.player_id = ?1 AND (CAST(?2 AS TEXT) IS NULL OR g.preset = ?2) AND g.rates = 1"
)


def recent_games(conn: Db, player_id: str, limit: int, preset: str | None) -> list[GameRecord]:
    """The player's latest finished games whose ratings settle per game, newest first."""
    with transaction(conn, "DEFERRED"):
        ids = conn.execute(
            "SELECT g.table_id" + _MY_GAMES + " ORDER BY g.finished_at DESC, g.table_id DESC"
            " LIMIT ?3",
            (player_id, preset, limit),
        ).fetchall()
        records = []
        for (table_id,) in ids:
            preset_id, rated, hands, last_hand, finished_at = conn.execute(
                "SELECT preset, rated, hands, last_hand_id, finished_at FROM game_results"
                " WHERE table_id = ?",
                (table_id,),
            ).fetchone()
            game = game_result(conn, table_id)
            assert game is not None  # read in this transaction, just found
            records.append(
                GameRecord(
                    table_id=table_id,
                    preset=preset_id,
                    finished_at=finished_at,
                    hands=hands,
                    last_hand_id=last_hand,
                    rated=bool(rated),
                    standings=game.standings,
                    rating_changes=rating_changes(conn, last_hand),
                )
            )
        return records


def game_stats(conn: Db, player_id: str, preset: str | None) -> GameStats:
    """A player's figures over their finished games: places, final scores, and their hands'
    wins, deal-ins and declarations."""
    with transaction(conn, "DEFERRED"):
        placed = conn.execute(
            "SELECT gp.placement, count(*), sum(gp.score)" + _MY_GAMES + " GROUP BY gp.placement",
            (player_id, preset),
        ).fetchall()
        # the places counted: as many as the largest of the player's games seats
        seats = conn.execute(
            "SELECT coalesce(max(seats), 0) FROM (SELECT count(*) AS seats FROM game_players o"
            " WHERE o.table_id IN (SELECT g.table_id" + _MY_GAMES + ") GROUP BY o.table_id) AS s",
            (player_id, preset),
        ).fetchone()[0]
        hands = conn.execute(
            "SELECT p.hand_id, p.seat, r.wins_json FROM hand_players p"
            " JOIN hand_results r ON r.hand_id = p.hand_id"
            " WHERE p.player_id = ?1 AND r.table_id IN (SELECT g.table_id" + _MY_GAMES + ")"
            " ORDER BY p.hand_id",
            (player_id, preset),
        ).fetchall()
        declared = conn.execute(
            "SELECT d.kind, count(*) FROM hand_declarations d"
            " JOIN hand_players p ON p.hand_id = d.hand_id AND p.seat = d.seat"
            " JOIN hand_results r ON r.hand_id = d.hand_id"
            " WHERE p.player_id = ?1 AND r.table_id IN (SELECT g.table_id" + _MY_GAMES + ")"
            " GROUP BY d.kind",
            (player_id, preset),
        ).fetchall()
    places = [0] * max([seats, *(place for place, _, _ in placed)])
    for place, count, _ in placed:
        places[place - 1] = int(count)
    return GameStats(
        player_id=player_id,
        preset=preset,
        games=sum(places),
        places=tuple(places),
        score_total=float(sum(total for _, _, total in placed)),
        hands=_hand_figures(player_id, preset, hands),
        declared={kind: int(count) for kind, count in declared},
    )


def rating_history(conn: Db, player_id: str, preset: str) -> list[RatingPoint]:
    """The player's rating after each rated hand of `preset` (each rated game, where ratings
    settle per game), oldest first."""
    rows = conn.execute(
        "SELECT hand_id, rating_after, at FROM rating_history"
        " WHERE player_id = ? AND preset = ? ORDER BY hand_id",
        (player_id, preset),
    ).fetchall()
    return [RatingPoint(*row) for row in rows]
