"""Games in history and statistics, for presets whose ratings settle per finished game (the
Riichi presets): `/mahjong history` lists the finished games (hands for the other presets),
`/mahjong stats` counts places, final scores and the games' hands (won, dealt in, riichi
declared), the ratings count games; a game abandoned or expired before its end counts nowhere.
On SQLite and on PostgreSQL (the `store` fixture)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import replace

import pytest

from bot.runtime.conversions import declarations
from bot.runtime.manager import Runtime
from bot.runtime.snapshots import public_snapshot
from bot.runtime.timers import ManualTimers
from data import (
    GameResult,
    GameStanding,
    HandResult,
    Phase,
    SeatRow,
    Store,
    StoredWin,
    TableOptions,
)
from engine.actions import Action
from engine.computer.easy import choose_action
from engine.families.riichi.presets import RIICHI, RIICHI_MAJSOUL
from engine.hand import HandState
from engine.i18n import Number
from engine.presets import HKOS
from tests.game_presets import registered
from tests.rule_presets import LAY_ASIDE, MECHANISMS, STAKE, declaring
from tests.test_runtime import (
    PLAYERS,
    WINNING_DISCARD_HANDS,
    Recorder,
    four_humans,
    make_runtime,
    play,
    play_out,
    wins_when_it_can,
)

ANN, BOB, CAT, DAN = "a", "b", "c", "d"
FOUR = (ANN, BOB, CAT, DAN)


@pytest.fixture(autouse=True)
def riichi_known() -> Iterator[None]:
    """The Riichi presets findable by id (the store checks a table's preset exists)."""
    with registered(RIICHI), registered(RIICHI_MAJSOUL):
        yield


async def game_table(
    store: Store, preset: str, now: float, rated: bool = True, players: Sequence[str] = FOUR
) -> int:
    seats = [SeatRow(i, p, True) for i, p in enumerate(players)]
    return await store.create_table(preset, seats=seats, options=TableOptions(rated=rated), now=now)


def _hand(
    deltas: Sequence[int],
    wins: Sequence[StoredWin] = (),
    declared: Sequence[tuple[int, str]] = (),
    preset: str = RIICHI.id,
    rated: bool = True,
) -> HandResult:
    return HandResult(
        preset,
        FOUR,
        (True,) * 4,
        tuple(deltas),
        tuple(wins),
        rated=rated,
        rates=False,
        declared=tuple(declared),
    )


def _game(
    points: Sequence[int],
    places: Sequence[int],
    scores: Sequence[float],
    hands: int,
    preset: str = RIICHI.id,
    rated: bool = True,
) -> GameResult:
    standings = tuple(
        GameStanding(seat, FOUR[seat], True, p, place, score)
        for seat, (p, place, score) in enumerate(zip(points, places, scores, strict=True))
    )
    return GameResult(preset, hands, standings, rated=rated, rates=True)


def seated(
    players: Sequence[str], hands: Sequence[HandResult], game: GameResult
) -> tuple[list[HandResult], GameResult]:
    """The hands and game with `players` in the seats."""
    standings = tuple(replace(s, player_id=players[s.seat]) for s in game.standings)
    return [replace(h, seats=tuple(players)) for h in hands], replace(game, standings=standings)


async def play_game(
    store: Store,
    table: int,
    hands: Sequence[HandResult],
    game: GameResult | None,
    now: float,
) -> list[int]:
    """The hands one after another; the last with `game` (None: the game goes on)."""
    ids = []
    for number, result in enumerate(hands):
        at = now + 10 * number
        hid = await store.start_hand(table, number, 50 + number, now=at)
        await store.append_action(table, hid, "0 discard 1z", 0, now=at + 1)
        last = game if number == len(hands) - 1 else None
        await store.record_hand_result(table, hid, result, game=last, now=at + 2)
        ids.append(hid)
    return ids


# Ann's first Tenhou game: two hands. Hand 1: Ann declares riichi and wins 3 han on Bob's
# discard; hand 2: Bob and Cat declare riichi, Cat wins by self draw. Final: Cat 1st, Ann 2nd,
# Dan 3rd, Bob 4th.
TENHOU_HANDS = (
    _hand((5200, -5200, 0, 0), [StoredWin(0, 3, by="discard", discarder=1)], [(0, "riichi")]),
    _hand(
        (-1300, -2600, 6200, -1300),
        [StoredWin(2, 2, by="self_draw")],
        [(1, "riichi"), (2, "riichi")],
    ),
)
TENHOU_GAME = _game((28900, 16200, 31200, 23700), (2, 4, 1, 3), (9.0, -34.0, 51.0, -26.0), 2)


async def test_a_finished_game_shows_as_a_game_and_its_hands_count_with_it(
    store: Store,
) -> None:
    tenhou = await game_table(store, RIICHI.id, now=1000.0)
    hand_ids = await play_game(store, tenhou, TENHOU_HANDS, TENHOU_GAME, now=1000.0)
    hkos = await game_table(store, HKOS.id, now=2000.0)
    hkos_result = HandResult(HKOS.id, FOUR, (True,) * 4, (8, -8, 0, 0), rated=True)
    hid = await store.start_hand(hkos, 0, 9, now=2001.0)
    await store.record_hand_result(hkos, hid, hkos_result, now=2002.0)

    (game,) = await store.recent_games(ANN)
    assert (game.table_id, game.preset, game.hands, game.last_hand_id) == (
        tenhou,
        RIICHI.id,
        2,
        hand_ids[-1],
    )
    assert game.finished_at == 1012.0 and game.rated
    assert game.standing_of(ANN) == TENHOU_GAME.standings[0]
    assert game.standing_of("nobody") is None
    assert {c.player_id: c.placement for c in game.rating_changes} == {
        ANN: 2,
        BOB: 4,
        CAT: 1,
        DAN: 3,
    }
    # the hands of the game are its own: history lists the other presets' hands only
    assert [h.hand_id for h in await store.recent_hands(ANN, game_hands=False)] == [hid]
    assert [h.hand_id for h in await store.recent_hands(ANN)] == [hid, *reversed(hand_ids)]
    assert await store.recent_games(ANN, preset=RIICHI_MAJSOUL.id) == []
    assert (await store.player_stats(ANN)).hands == 1  # the hkos hand alone

    ann = await store.game_stats(ANN, RIICHI.id)
    assert (ann.games, ann.places, ann.score_total) == (1, (0, 1, 0, 0), 9.0)
    assert (ann.hands.hands, ann.hands.hands_won, ann.hands.hands_dealt_in) == (2, 1, 0)
    assert ann.declared == {"riichi": 1} and ann.average_place == 2.0
    bob = await store.game_stats(BOB)
    assert (bob.hands.hands_won, bob.hands.hands_dealt_in, bob.declared_in("riichi")) == (0, 1, 1)
    assert bob.places == (0, 0, 0, 1) and bob.average_score == -34.0
    cat = await store.game_stats(CAT)
    assert (cat.hands.self_draws, cat.declared_in("riichi"), cat.places[0]) == (1, 1, 1)
    dan = await store.game_stats(DAN, RIICHI.id)
    assert dan.declared == {} and dan.declared_in("riichi") == 0
    assert (await store.game_stats(ANN, HKOS.id)).games == 0


async def test_places_scores_and_ratings_are_counted_in_games_not_hands(store: Store) -> None:
    first = await game_table(store, RIICHI.id, now=1000.0)
    await play_game(store, first, TENHOU_HANDS, TENHOU_GAME, now=1000.0)
    second = await game_table(store, RIICHI.id, now=3000.0)
    three = (*TENHOU_HANDS, _hand((0, 0, 0, 0)))
    game = _game((40000, 20000, 25000, 15000), (1, 3, 2, 4), (60.0, -20.0, 5.0, -45.0), 3)
    await play_game(store, second, three, game, now=3000.0)
    ann = await store.game_stats(ANN, RIICHI.id)
    assert (ann.games, ann.places, ann.average_place) == (2, (1, 1, 0, 0), 1.5)
    assert ann.average_score == pytest.approx(34.5) and ann.hands.hands == 5
    assert ann.declared_in("riichi") == 2
    # the rating moved once a game: two games, five hands
    (rating,) = await store.ratings_of(ANN)
    assert (rating.preset, rating.games) == (RIICHI.id, 2)
    board = await store.leaderboard(RIICHI.id, min_games=1)
    assert {e.player_id: e.games for e in board.entries} == dict.fromkeys(FOUR, 2)
    assert len(await store.rating_history(ANN, RIICHI.id)) == 2
    games = await store.recent_games(ANN)
    assert [g.table_id for g in games] == [second, first]  # newest first
    assert [g.table_id for g in await store.recent_games(ANN, 1)] == [second]


@pytest.mark.parametrize("ending", ["closed", "expired"])
async def test_a_game_that_never_ended_rates_nothing_and_shows_in_no_stats(
    store: Store, ending: str
) -> None:
    table = await game_table(store, RIICHI.id, now=1000.0)
    await play_game(store, table, TENHOU_HANDS, None, now=1000.0)  # no game: two hands of it
    hid = await store.start_hand(table, 2, 77, now=1100.0)  # and one in play
    await store.append_action(table, hid, "0 discard 1z", 0, now=1101.0)
    if ending == "closed":
        await store.close_table(table, "closed by a player", now=1200.0)
    else:
        assert await store.expire_idle(now=10**9) == [table]
    assert (await store.table_row(table)).phase is Phase.CLOSED
    for player in FOUR:
        assert await store.ratings_of(player) == []
        assert await store.recent_games(player) == []
        assert await store.recent_hands(player, game_hands=False) == []
        stats = await store.game_stats(player)
        assert (stats.games, stats.places, stats.hands.hands, stats.declared) == (0, (), 0, {})
        assert (await store.player_stats(player)).hands == 0
    board = await store.leaderboard(RIICHI.id, min_games=0)
    assert (board.total, board.entries) == (0, ())


def test_a_hand_result_lists_its_declarations_once_each_in_order() -> None:
    assert '"declared"' not in _hand((0, 0, 0, 0)).fingerprint()  # older results keep theirs
    said = _hand((0, 0, 0, 0), declared=[(0, "riichi"), (2, "riichi")]).fingerprint()
    assert '"declared":[[0,"riichi"],[2,"riichi"]]' in said
    with pytest.raises(ValueError, match="once each, in order"):
        _hand((0, 0, 0, 0), declared=[(2, "riichi"), (0, "riichi")])
    with pytest.raises(ValueError, match="once each, in order"):
        _hand((0, 0, 0, 0), declared=[(0, "riichi"), (0, "riichi")])
    with pytest.raises(ValueError, match="a seat of the hand"):
        _hand((0, 0, 0, 0), declared=[(4, "riichi")])


def test_declarations_are_read_from_a_hand_log_by_table_seat() -> None:
    log = [Action.parse(line) for line in ("1 discard 1z", "1 riichi 2z", "3 riichi 5p", "1 pass")]
    # hand seat s sits at table seat (s + 2) % 4 (the dealer at table seat 2)
    assert declarations(log, lambda s: (s + 2) % 4) == ((1, "riichi"), (3, "riichi"))
    assert declarations([Action.parse("0 discard 1z")], lambda s: s) == ()


async def test_a_whole_game_through_the_runtime_stores_its_declarations_and_rates_once(
    store: Store,
) -> None:
    """The test preset with every mechanism (six hands, ratings per game; a stake is made as
    riichi is, with a discard): four people play it rated to its end."""
    with registered(MECHANISMS):
        runtime = Runtime(store, Recorder(), ManualTimers(), seed_source=lambda: 7)
        await runtime.open()
        table = await four_humans(runtime, MECHANISMS.id, rated=True)
        made: dict[str, dict[str, int]] = {p: {} for p, _ in PLAYERS}
        while True:
            hand = table.hand
            assert hand is not None
            await play_out(runtime, table, declaring(choose_action))
            seat_of = table.seating.player_at  # the finished hand's seating, kept till a deal
            for seat, kind in {(a.seat, a.kind) for a in hand.log if a.kind in (LAY_ASIDE, STAKE)}:
                counts = made[table.seat(seat_of(seat)).player_id]
                counts[kind] = counts.get(kind, 0) + 1
            if table.phase is Phase.GAME_OVER:
                break
            for player_id, _ in PLAYERS:
                await runtime.ready(table.id, player_id)
    assert any(made.values())  # the seed makes declarations
    for player_id, _ in PLAYERS:
        stats = await store.game_stats(player_id, MECHANISMS.id)
        assert (stats.games, stats.hands.hands, stats.declared) == (1, 6, made[player_id])
        (game,) = await store.recent_games(player_id)
        assert game.hands == 6 and game.standing_of(player_id) is not None
        (rating,) = await store.ratings_of(player_id)
        assert rating.games == 1  # one game, six hands
        assert await store.recent_hands(player_id, game_hands=False) == []
        assert len(await store.recent_hands(player_id)) == 6  # still offered for replays


def test_the_games_in_history_migration_is_one_small_numbered_step() -> None:
    """Migration 7: existing results settle their ratings themselves (rates 1), and a table of
    declarations by hand and seat."""
    import sqlite3

    from data import migrations as m

    conn = sqlite3.connect(":memory:")
    for script in m.MIGRATIONS[:6]:
        conn.executescript(script)
    conn.execute(
        "INSERT INTO hand_results (hand_id, table_id, preset, rated, outcome, wins_json,"
        " payments_json, fingerprint, finished_at) VALUES (1, 1, 'hkos-3-v1', 0, 'draw', '[]',"
        " '[]', '', 0)"
    )
    tables = "SELECT name FROM sqlite_master WHERE type = 'table'"
    before = {r[0] for r in conn.execute(tables)}
    conn.executescript(m.MIGRATIONS[6])
    assert {r[0] for r in conn.execute(tables)} - before == {"hand_declarations"}
    assert conn.execute("SELECT rates FROM hand_results").fetchall() == [(1,)]


async def test_the_rating_lines_of_a_result_show_ratings_as_everywhere_else(store: Store) -> None:
    """A hand's result says each rating before and after as the boards show it (halves up, so
    1502.5 is 1503 and the change adds up) and the change signed, per reader."""
    await store.import_ratings("hkos-3-v1", [(pid, 1502.5, 20) for pid, _ in PLAYERS])
    runtime = await make_runtime(
        store,
        ManualTimers(),
        hand_factory=lambda s: HandState.arranged(s.preset, WINNING_DISCARD_HANDS),
    )
    table = await four_humans(runtime, rated=True)
    await play(runtime, table, "0 discard 5m")
    await play_out(runtime, table, wins_when_it_can)
    result = public_snapshot(table).result
    assert result is not None and table.last_result is not None
    changes = {c.player_id: c for c in table.last_result.rating_changes}
    names = dict(PLAYERS)
    said = {line.in_language("zh-CN") for line in result.ratings}
    for player_id, change in changes.items():
        delta = Number(change.display_delta, signed=True).in_language("zh-CN")
        line = f"{names[player_id]}：1503 → {1503 + change.display_delta}（{delta}）"
        assert line in said, (said, change)
    assert {c.display_delta > 0 for c in changes.values()} == {True, False}  # a winner, a loser
