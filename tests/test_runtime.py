"""The table runtime: lobby, claims under the clock, timeouts, restore, Quick Play, expiry."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest

from bot.runtime import (
    LiveTable,
    ManualTimers,
    NotSeatedError,
    NotYourDecisionError,
    PrivateSnapshot,
    PublicSnapshot,
    Runtime,
    StaleActionError,
    TableError,
)
from data import Phase, Store
from engine.actions import Action, ActionKind
from engine.computer.easy import choose_action
from engine.events import Phase as HandPhase
from engine.hand import HandState
from engine.rules import VoidPart
from engine.session import Session

PLAYERS = [("101", "Ann"), ("102", "Bob"), ("103", "Cat"), ("104", "Dan")]

# seat 0 discards 5m; seat 1 may chow it, seat 2 may pung it (see tests/test_hand.py)
CLAIM_HANDS = [
    "234p678p234s678s3z5m",
    "4m6m1p1p3s3s5s5s7s7s9s9s1z",
    "5m5m8m8m3p3p5p5p9p9p1s1s4z",
    "1m2m3m7m7m9m9m4s4s7z7z6z6z",
]


class Recorder:
    """A front end that writes down what it was told, by whom."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, int, object]] = []

    async def table_changed(self, snapshot: PublicSnapshot) -> None:
        self.calls.append(("table", snapshot.table_id, None))
        if snapshot.ended:
            self.calls.append(("ended", snapshot.table_id, None))
        if snapshot.closed_reason is not None:
            self.calls.append(("closed", snapshot.table_id, snapshot.closed_reason))

    async def hand_changed(self, snapshot: PrivateSnapshot) -> None:
        self.calls.append(("hand", snapshot.table_id, snapshot.player))
        decision = snapshot.decision
        if decision is not None:
            actions = [str(a) for a in decision.actions]
            self.calls.append(
                ("decision", snapshot.table_id, (snapshot.player, actions, decision.deadline))
            )

    def decisions_for(self, player: int) -> list[tuple[int, list[str], float | None]]:
        return [c[2] for c in self.calls if c[0] == "decision" and c[2][0] == player]  # type: ignore[index]


def arranged(session: Session) -> HandState:
    return HandState.arranged(session.preset, CLAIM_HANDS)


async def make_runtime(
    store: Store, timers: ManualTimers, front: Recorder | None = None, **kwargs: object
) -> Runtime:
    runtime = Runtime(store, front or Recorder(), timers, seed_source=lambda: 77, **kwargs)
    await runtime.open()
    return runtime


async def four_humans(runtime: Runtime, preset: str = "hkos-3-v1", **options: object) -> LiveTable:
    table = await runtime.create_table(
        preset,
        creator_id=PLAYERS[0][0],
        creator_name=PLAYERS[0][1],
        guild_id=1,
        channel_id=2,
        **options,
    )
    for player_id, name in PLAYERS[1:]:
        await runtime.join(table.id, player_id, name)
    await runtime.start_table(table.id, PLAYERS[0][0])
    return table


async def play(runtime: Runtime, table: LiveTable, action: str) -> None:
    seat = int(action.split()[0])
    player_id = table.seat(table.player_at(seat)).player_id
    await runtime.act(table.id, player_id, action, table.version)


@pytest.fixture
async def store():
    s = await Store.open(":memory:")
    yield s
    await s.close()


async def test_lobby_rules_and_clear_refusals(store: Store) -> None:
    runtime = await make_runtime(store, ManualTimers())
    table = await runtime.create_table(
        "hkos-3-v1", creator_id="101", creator_name="Ann", visibility="private"
    )
    with pytest.raises(TableError, match="private"):
        await runtime.join(table.id, "102", "Bob")
    await runtime.join(table.id, "102", "Bob", code=table.options.invite_code)
    await runtime.invite(table.id, "101", "103")
    await runtime.join(table.id, "103", "Cat")
    with pytest.raises(TableError, match="1 more"):
        await runtime.start_table(table.id, "101")
    with pytest.raises(NotSeatedError):
        await runtime.start_table(table.id, "999")
    await runtime.add_computer(table.id, "101")
    with pytest.raises(TableError, match="full"):
        await runtime.join(table.id, "104", "Dan")
    for bad, message in [
        ({"preset": "nope"}, "unknown preset"),
        ({"time_control": "lightning"}, "unknown time control"),
        ({"rated": True, "computers": 2}, "rated tables are for four people"),
        ({"computers": 5}, "0 to 3"),
        ({"visibility": "secret"}, "public or private"),
    ]:
        args = {"preset": "hkos-3-v1", **bad}
        with pytest.raises(TableError, match=message):
            await runtime.create_table(args.pop("preset"), creator_id="1", creator_name="x", **args)


async def test_claims_resolve_by_priority_whatever_the_arrival_order(store: Store) -> None:
    for order in (("1 chow 456m", "2 pung 5m"), ("2 pung 5m", "1 chow 456m")):
        front = Recorder()
        runtime = await make_runtime(store, ManualTimers(), front, hand_factory=arranged)
        table = await four_humans(runtime)
        await play(runtime, table, "0 discard 5m")
        assert table.hand is not None and table.hand.phase is HandPhase.CLAIMS
        # only the seats that can claim were asked, each privately with its own options
        asked = {d[0] for c in front.calls if c[0] == "decision" for d in [c[2]]}
        assert {table.player_at(1), table.player_at(2)} <= asked
        for text in order:
            await play(runtime, table, text)
        assert table.hand.turn == 2 and table.hand.melds[2][0].kind.value == "pung"


async def test_stale_and_foreign_actions_are_refused_and_change_nothing(store: Store) -> None:
    runtime = await make_runtime(store, ManualTimers(), hand_factory=arranged)
    table = await four_humans(runtime)
    dealer = table.seat(table.player_at(0)).player_id
    other = table.seat(table.player_at(1)).player_id
    with pytest.raises(NotYourDecisionError):
        await runtime.act(table.id, other, "0 discard 5m", table.version)
    with pytest.raises(StaleActionError):
        await runtime.act(table.id, dealer, "0 discard 5m", table.version + 3)
    with pytest.raises(TableError, match="not allowed"):
        await runtime.act(table.id, dealer, "0 discard 9m", table.version)
    assert table.version == 0
    await runtime.act(table.id, dealer, "0 discard 5m", 0)
    with pytest.raises(StaleActionError):
        await runtime.act(table.id, other, "1 pass", 0)
    log = await store.hand_log(table.hand_id)  # type: ignore[arg-type]
    assert log.lines == ("0 discard 5m",)


async def test_a_timeout_plays_the_policy_and_spends_the_reserve(store: Store) -> None:
    timers = ManualTimers()
    runtime = await make_runtime(store, timers, hand_factory=arranged)
    table = await four_humans(runtime, time_control="standard")  # 5 s + 20 s reserve
    dealer = table.player_at(0)
    assert table.deadline == timers.now() + 25
    await timers.advance(24)
    assert table.version == 0
    await timers.advance(1.5)
    # the drawn tile (5m) was discarded for the dealer, whose reserve is gone
    assert table.hand is not None and str(table.hand.log[0]) == "0 discard 5m"
    assert table.reserves[dealer] == 0
    # the claim window uses the base only: 5 s, then everyone still asked passes
    assert table.hand.phase is HandPhase.CLAIMS
    assert table.deadline == pytest.approx(timers.now() + 5)
    await timers.advance(5)
    assert [str(a) for a in table.hand.log[1:]] == ["1 pass", "2 pass"]
    assert table.hand.turn == 1


async def test_restore_in_the_middle_of_a_claim_window(tmp_path: Path) -> None:
    path = str(tmp_path / "bot.db")
    timers = ManualTimers()
    store = await Store.open(path, clock=timers.now)
    runtime = await make_runtime(store, timers, hand_factory=arranged)
    table = await four_humans(runtime, time_control="standard")
    await play(runtime, table, "0 discard 5m")
    await play(runtime, table, "1 chow 456m")
    live = table.hand
    assert live is not None
    await runtime.close()
    await store.close()

    store = await Store.open(path, clock=timers.now)
    again = await make_runtime(store, timers, hand_factory=arranged)
    restored = again.get(table.id)
    assert restored.hand is not None
    assert restored.hand.hands == live.hands and restored.hand.version == live.version
    assert restored.hand.pending == live.pending
    assert restored.deadline == table.deadline
    # the restored clock is armed: seat 2 times out, its pass lets the chow through
    await timers.advance(10)
    assert restored.hand.melds[1][0].kind.value == "chow"
    await store.close()


Policy = Callable[[HandState, int], Action]


def never_wins(state: HandState, seat: int) -> Action:
    """Pass every call and discard the drawn tile: the hand ends in a wall draw."""
    legal = [a for a in state.legal_actions(seat) if a.kind is not ActionKind.WIN]
    discards = [a for a in legal if a.kind is ActionKind.DISCARD]
    drawn = next((a for a in discards if a.tile == state.drawn), None)
    passed = next((a for a in legal if a.kind is ActionKind.PASS), None)
    return drawn or passed or (discards or legal)[0]


def wins_when_it_can(state: HandState, seat: int) -> Action:
    legal = state.legal_actions(seat)
    win = next((a for a in legal if a.kind is ActionKind.WIN), None)
    return win or next((a for a in legal if a.kind is ActionKind.PASS), None) or legal[0]


async def play_out(runtime: Runtime, table: LiveTable, policy: Policy) -> None:
    """Every seat decides by `policy` until the hand is over."""
    while table.phase is Phase.PLAYING:
        assert table.hand is not None
        player = table.players_to_act()[0]
        action = policy(table.hand, table.hand_seat(player))
        await runtime.act(table.id, table.seat(player).player_id, action, table.version)


async def test_rated_hand_to_the_end_updates_ratings_and_waits_for_ready(store: Store) -> None:
    front = Recorder()
    runtime = await make_runtime(store, ManualTimers(), front)
    table = await four_humans(runtime, rated=True)
    await play_out(runtime, table, never_wins)
    assert table.phase is Phase.BETWEEN_HANDS and ("ended", table.id, None) in front.calls
    assert table.last_result is not None
    # A wall draw: every player still gets a rated hand (games 1, rating unmoved).
    assert table.hand is not None and table.hand.outcome().wins == ()  # type: ignore[union-attr]
    changes = table.last_result.rating_changes
    assert sorted(c.player_id for c in changes) == sorted(p for p, _ in PLAYERS)
    assert all(c.games == 1 and c.delta == 0 for c in changes)
    for player_id, _ in PLAYERS:
        rows = await store.ratings_of(player_id)
        assert [(r.preset, r.games) for r in rows] == [("hkos-3-v1", 1)]
    for player_id, _ in PLAYERS:
        await runtime.ready(table.id, player_id)
    assert table.phase is Phase.PLAYING and table.session.hand_number == 1  # type: ignore[union-attr]


# The dealer's 14th tile, 5m, completes West's hand (half flush with East's pung); North
# waits on it too, and South has no claim (see tests/test_discord_e2e.py).
WINNING_DISCARD_HANDS = [
    "234p678p234s678s3z5m",
    "11s99s44z19p33m77m8p",
    "123m46m789m111z99m",
    "5m5m5z5z5z6z6z6z2z2z2z7z7z",
]


async def test_a_won_rated_hand_moves_ratings_by_placement(store: Store) -> None:
    runtime = await make_runtime(
        store,
        ManualTimers(),
        hand_factory=lambda s: HandState.arranged(s.preset, WINNING_DISCARD_HANDS),
    )
    table = await four_humans(runtime, rated=True)
    await play(runtime, table, "0 discard 5m")
    await play_out(runtime, table, wins_when_it_can)
    outcome = table.hand.outcome()  # type: ignore[union-attr]
    assert outcome is not None and [w.seat for w in outcome.wins] == [2]
    assert table.last_result is not None
    by_seat = {c.player_id: c for c in table.last_result.rating_changes}
    winner = table.seat(table.player_at(2)).player_id
    discarder = table.seat(table.player_at(0)).player_id
    assert by_seat[winner].delta > 0 > by_seat[discarder].delta
    assert by_seat[winner].placement == 1
    assert sum(c.delta for c in by_seat.values()) == pytest.approx(0)
    for player_id, _ in PLAYERS:
        (row,) = await store.ratings_of(player_id)
        assert row.games == 1 and row.rating == pytest.approx(by_seat[player_id].after)


async def test_computers_play_their_seats_and_hidden_hands_stay_private(store: Store) -> None:
    front = Recorder()
    runtime = await make_runtime(store, ManualTimers(), front)
    table = await runtime.create_table(
        "hkos-3-v1", creator_id="101", creator_name="Ann", computers=3
    )
    await runtime.start_table(table.id, "101")
    human = table.player_of("101")
    assert table.players_to_act() == [human]
    # every private notice went to the only human
    assert {c[2] for c in front.calls if c[0] == "hand"} == {human}
    assert {c[2][0] for c in front.calls if c[0] == "decision"} == {human}  # type: ignore[index]


async def test_quick_play_fills_and_starts_tables(store: Store) -> None:
    timers = ManualTimers()
    runtime = await make_runtime(store, timers, quickplay_fill_after=30)
    for player_id, name in PLAYERS[:3]:
        assert await runtime.quickplay("hkos-3-v1", player_id, name, rated=True) is None
    table = await runtime.quickplay("hkos-3-v1", *PLAYERS[3], rated=True)
    assert table is not None and table.phase is Phase.PLAYING
    assert table.options.time_control == "standard" and len(table.humans) == 4

    assert await runtime.quickplay("hkos-3-v1", "201", "Eve") is None
    with pytest.raises(TableError, match="already"):
        await runtime.quickplay("hkos-3-v1", "201", "Eve")
    await timers.advance(31)
    [filled] = runtime.tables_of("201")
    assert filled.phase is Phase.PLAYING and len(filled.humans) == 1
    assert await runtime.quickplay_waiting("hkos-3-v1") == 0


async def test_idle_tables_expire_after_24_hours(tmp_path: Path) -> None:
    timers = ManualTimers()
    store = await Store.open(str(tmp_path / "x.db"), clock=timers.now)
    front = Recorder()
    runtime = await make_runtime(store, timers, front)
    table = await runtime.create_table("hkos-3-v1", creator_id="101", creator_name="Ann")
    await timers.advance(23 * 3600)
    assert table.id in runtime.tables
    await timers.advance(3600 + 1200)
    assert table.id not in runtime.tables
    assert ("closed", table.id, "expired after 24 hours idle") in front.calls
    await store.close()


async def test_a_finished_hand_keeps_its_own_seating_when_the_deal_moves(store: Store) -> None:
    runtime = await make_runtime(store, ManualTimers())
    table = await runtime.create_table(
        "hkos-3-v1", creator_id="101", creator_name="Ann", computers=3
    )
    await runtime.start_table(table.id, "101")
    for _ in range(20):  # hands until a non-dealer wins, so the deal moves on
        names_during = table.names_by_hand_seat()
        while table.phase is Phase.PLAYING:
            assert table.hand is not None
            seat = table.hand_seat(table.player_of("101"))  # type: ignore[arg-type]
            await runtime.act(table.id, "101", choose_action(table.hand, seat), table.version)
        assert table.names_by_hand_seat() == names_during
        outcome = table.hand.outcome()  # type: ignore[union-attr]
        if outcome.wins and outcome.wins[0].seat != 0:
            assert table.session.dealer != table.dealer  # type: ignore[union-attr]
            return
        await runtime.ready(table.id, "101")
    pytest.fail("no non-dealer win in 20 hands")


async def test_the_seed_004_table_clock(store: Store) -> None:
    """40 s per decision played by the computer, the opening gets at least 15 s, and a deal
    unfinished after 5 minutes ends with no further winner."""
    timers = ManualTimers()
    runtime = await make_runtime(store, timers)
    table = await runtime.create_table("sichuan-swap3", creator_id="101", creator_name="Ann")
    for player_id, name in PLAYERS[1:]:
        await runtime.join(table.id, player_id, name)
    await runtime.start_table(table.id, "101")
    assert table.options.time_control == "table"
    assert table.hand is not None and table.hand.phase is HandPhase.OPENING
    assert table.deadline == timers.now() + 40
    assert table.deal_deadline == timers.now() + 300
    await timers.advance(40)
    # the computer chose each swap: three tiles of one suit per player
    swaps = [a for a in table.hand.log if a.kind.value == "swap"]
    assert len(swaps) == 4 and all(len({t // 9 for t in a.tiles}) == 1 for a in swaps)
    while table.phase is Phase.PLAYING and timers.now() < table.deal_deadline - 40:  # type: ignore[operator]
        await timers.advance(40)
    if table.phase is Phase.PLAYING:
        await timers.advance(40)
    assert table.phase is Phase.BETWEEN_HANDS
    outcome = table.hand.outcome()
    assert outcome is not None
    assert outcome.termination.value == "deal_limit"  # seven 40 s decisions cannot finish
    assert str(table.hand.log[-1]) == "0 time_up"


async def test_a_returning_player_gets_the_hand_and_decision_again(store: Store) -> None:
    front = Recorder()
    runtime = await make_runtime(store, ManualTimers(), front, hand_factory=arranged)
    table = await four_humans(runtime)
    dealer = table.player_at(0)
    front.calls.clear()
    await runtime.refresh(table.id, table.seat(dealer).player_id)
    assert ("hand", table.id, dealer) in front.calls
    assert [d[0] for d in front.decisions_for(dealer)] == [dealer]
    with pytest.raises(NotSeatedError):
        await runtime.refresh(table.id, "999")


async def test_answers_in_one_claim_window_share_its_version(store: Store) -> None:
    runtime = await make_runtime(store, ManualTimers(), hand_factory=arranged)
    table = await four_humans(runtime)
    await play(runtime, table, "0 discard 5m")
    opened = table.version
    chow_by = table.seat(table.player_at(1)).player_id
    pung_by = table.seat(table.player_at(2)).player_id
    await runtime.act(table.id, chow_by, "1 pass", opened)
    # another seat's answer moved the version on, but the window is the same decision
    await runtime.act(table.id, pung_by, "2 pung 5m", opened)
    assert table.hand is not None and table.hand.turn == 2
    with pytest.raises(StaleActionError):
        await runtime.act(table.id, pung_by, "2 discard 1s", opened)


async def test_a_sichuan_opening_gets_at_least_15_seconds_under_a_fast_clock(
    store: Store,
) -> None:
    timers = ManualTimers()
    runtime = await make_runtime(store, timers)
    table = await runtime.create_table("sichuan-bb", creator_id="101", creator_name="Ann")
    # new Sichuan tables always use the table clock; a table stored under a fast clock
    # before that rule still gets the opening floor
    table.options = replace(table.options, time_control="bullet")
    for player_id, name in PLAYERS[1:]:
        await runtime.join(table.id, player_id, name)
    await runtime.start_table(table.id, "101")
    assert table.hand is not None and table.hand.phase is HandPhase.OPENING
    assert table.deadline == timers.now() + 15  # bullet is 2 s + 5 s, the void choice 15 s
    held_before = [
        [sum(1 for t in table.hand.hands[seat] if t // 9 == suit) for suit in range(3)]
        for seat in range(4)
    ]
    await timers.advance(14.9)
    assert table.hand.phase is HandPhase.OPENING
    await timers.advance(0.1)
    # the timeout policy declared each player's least-held suit void
    assert table.hand.phase is not HandPhase.OPENING
    expected = ["mps"[held.index(min(held))] for held in held_before]
    assert table.hand.require(VoidPart).void == expected


async def test_a_failed_write_leaves_the_table_as_the_database_has_it(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    timers = ManualTimers()
    runtime = await make_runtime(store, timers)
    table = await runtime.create_table(
        "hkos-3-v1", creator_id="101", creator_name="Ann", computers=3
    )
    await runtime.start_table(table.id, "101")
    assert table.hand is not None
    before = (table.version, [list(h) for h in table.hand.hands])
    real_append = store.append_actions
    runs: list[int] = []

    async def failing_append(*args: object, **kwargs: object) -> None:
        runs.append(len(args[2]))  # type: ignore[arg-type]
        if len(runs) == 1:  # the human's discard and the computers' answers: one write
            raise OSError("disk full")
        await real_append(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(store, "append_actions", failing_append)
    seat = table.hand_seat(table.player_of("101"))  # type: ignore[arg-type]
    action = choose_action(table.hand, seat)
    with pytest.raises(OSError, match="disk full"):
        await runtime.act(table.id, "101", action, table.version)
    assert runs[0] > 1  # the computers had answered in memory before the write failed
    # memory holds what the log holds: nothing of the run (the discard was never confirmed)
    log = await store.hand_log(table.hand_id)  # type: ignore[arg-type]
    assert table.version == len(log.actions) == before[0]
    assert table.hand.log == list(log.actions)
    assert [list(h) for h in table.hand.hands] == before[1]
    # a few seconds later the table carries on from there: it is the person's turn again
    await timers.advance(5)
    assert table.players_to_act() == [table.player_of("101")]
    await runtime.act(table.id, "101", action, table.version)
    assert len(runs) == 2 and table.version > before[0] + 1
    log = await store.hand_log(table.hand_id)  # type: ignore[arg-type]
    assert table.hand.log == list(log.actions)


async def test_a_table_of_people_never_looks_up_a_computer(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The runtime's loop looks a computer up only when one is to act: four people's moves
    (with no front end asking for hints) never call for the table's level."""

    def missing(level: str) -> Callable[..., Action]:
        raise TableError(f"the {level} computer is not in this build")

    runtime = Runtime(store, None, ManualTimers(), seed_source=lambda: 77)
    await runtime.open()
    table = await four_humans(runtime, level="strong")
    monkeypatch.setattr("bot.runtime.table.computer_for", missing)
    moves = 0
    while table.phase is Phase.PLAYING and moves < 12:
        hand = table.hand
        assert hand is not None
        player = table.players_to_act()[0]
        action = choose_action(hand, table.hand_seat(player))
        await runtime.act(table.id, table.seat(player).player_id, action, table.version)
        moves += 1
    assert moves >= 4
