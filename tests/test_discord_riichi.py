"""A whole Riichi game on Discord, end to end through the real discord.py client and the fake
Discord: a rated tonpuu `riichi` table, Alice's every decision made by clicks (riichi declared
whenever it is legal, through its menu of tiles), the three other seats played with the easy
computer's choices; the game ends with its standings posted, and each rating moves once."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence

from bot.discord import MahjongBot, ids
from bot.runtime import LiveTable
from bot.runtime.snapshots import public_moment
from data import Phase
from engine.actions import Action, ActionKind
from engine.computer.easy import choose_action
from engine.events import Phase as HandPhase
from engine.families.riichi.rules import RIICHI
from engine.hand import HandState
from render.standings import StandingsView, score_text
from render.views import HandView, ResultView, TableView
from tests.conftest import Databases
from tests.fakediscord import FakeDiscord, FakeUser
from tests.test_discord_e2e import (
    CALL_ID,
    Drawn,
    call,
    click,
    dm_with_controls,
    drawn,  # noqa: F401  (the fixture)
    fake,  # noqa: F401  (the fixture)
    live,
    make_bot,
    open_table,
)

# a tile named in words: never in a public payload while the hand hides it
TILE_TEXT = re.compile(r"(?<![A-Za-z0-9])[0-9]+[mpsz](?![A-Za-z0-9])")


def riichi_first(hand: HandState, seat: int) -> Action:
    """The easy computer's choice, except that riichi is declared whenever it is legal."""
    riichis = [a for a in hand.legal_actions(seat) if a.kind is RIICHI]
    return riichis[-1] if riichis else choose_action(hand, seat)


async def alice_decides(
    server: FakeDiscord,
    bot: MahjongBot,
    alice: FakeUser,
    used: set[str],
    decide: Callable[[HandState, int], Action] = riichi_first,
) -> None:
    """Alice's decision now (`decide`'s), made with the control a person would use."""
    table = live(bot)
    hand = table.hand
    assert hand is not None
    seat = table.hand_seat(0)
    action = decide(hand, seat)
    stamp = ids.stamp(table)
    used.add(action.kind.value)
    if hand.phase in (HandPhase.CLAIMS, HandPhase.ROB):
        record = await call(server, bot, alice, action.kind.value)
        chows = [a for a in table.legal_for(0) if a.kind is ActionKind.CHOW]
        if action.kind is ActionKind.CHOW and len(chows) > 1:
            menu = await server.wait_for(lambda: record.followups and record.followups[-1])
            picked = await server.select(
                alice, menu, ids.pick_id(1, stamp, seat), [ids.action_value(action)]
            )
            await picked.wait_response()
        return
    message = await dm_with_controls(server, alice, public_moment(hand))
    if action.kind is RIICHI:  # the menu of the tiles that keep the hand ready
        (menu,) = [c for c in message.iter_components() if c.get("custom_id", "").endswith(":1")]
        offered = [o["value"] for o in menu["options"]]
        ready = [a for a in hand.legal_actions(seat) if a.kind is RIICHI]
        assert offered == [ids.action_value(a) for a in ready]
        assert menu["placeholder"] == "riichi, discarding …: which tile?"
        await (
            await server.select(alice, message, menu["custom_id"], [ids.action_value(action)])
        ).wait_response()
        return
    kind, _, arg = ids.action_value(action).partition(" ")
    await click(server, alice, message, custom_id=ids.act_id(1, stamp, seat, kind, arg))


async def others_decide(bot: MahjongBot, table: LiveTable) -> None:
    """The other seats' decisions, as the easy computer would make them."""
    hand = table.hand
    assert hand is not None
    for player in table.players_to_act():
        if player == 0:
            continue
        seat = table.hand_seat(player)
        player_id = table.seat(player).player_id
        assert player_id is not None
        await bot.runtime.act(table.id, player_id, choose_action(hand, seat), hand.decision_version)


async def test_a_rated_tonpuu_riichi_game_by_clicks_ends_with_standings_and_rates_once(
    fake: FakeDiscord,  # noqa: F811
    drawn: Drawn,  # noqa: F811
    db: Databases,
) -> None:
    alice, bob, carol, dave, _ = fake.users
    used: set[str] = set()
    async with fake.running(make_bot(db("bot"), seed_source=lambda: 5)) as bot:
        table, hands = await play_tonpuu_by_clicks(
            fake, bot, "riichi", [alice, bob, carol, dave], used, riichi_first
        )
        await fake.wait_for(lambda: "Final standings: 1. " in fake_text(fake))
        await fake.settle()
        stored = await bot.store.game_result(table.id)
        ratings = {
            user.id: await bot.store.ratings_of(str(user.id)) for user in (alice, bob, carol, dave)
        }
    assert {"discard", "riichi"} <= used  # riichi declared, through its menu
    assert stored is not None and sorted(s.place for s in stored.standings) == [1, 2, 3, 4]
    # the game's result post: its standings with the final score, on one line
    (post,) = [m for m in fake.channel_messages() if "Final standings: 1. " in m.content]
    line = post.content.split("Final standings: ", 1)[1]
    ranked = sorted(stored.standings, key=lambda s: s.place)
    said = [f"{s.place}. " for s in ranked] + [f"({score_text(s.score)})" for s in ranked]
    assert all(part in line for part in said), line
    # one rating each, of the riichi preset, settled once: one game
    for rows in ratings.values():
        assert [(r.preset, r.games) for r in rows] == [("riichi", 1)]
    check_public(fake, drawn)
    assert hands >= 1


async def play_tonpuu_by_clicks(
    fake: FakeDiscord,  # noqa: F811
    bot: MahjongBot,
    preset: str,
    users: Sequence[FakeUser],
    used: set[str],
    decide: Callable[[HandState, int], Action],
) -> tuple[LiveTable, int]:
    """A rated tonpuu game of `preset` opened by the first of `users`, the others joining: the
    first decides by clicks (`decide`'s choices, each kind noted in `used`), the others as the
    easy computer would, to the game's end; the table and the hands played before the last."""
    alice, *others = users
    message = await open_table(
        fake, alice, preset=preset, rated=True, time="classic", options="length=east"
    )
    for user in others:
        await click(fake, user, message, label="Join")
    await click(fake, alice, message, label="Start")
    table = live(bot)
    assert table.preset.game.rounds == 1  # tonpuu: the East round
    hands = 0
    for _ in range(2000):
        await fake.wait_for(lambda: table.phase is not Phase.PLAYING or table.players_to_act())
        if table.phase is Phase.BETWEEN_HANDS:
            hands += 1
            ready = ids.table_id(table.id, "ready", ids.stamp(table))
            await fake.wait_for(lambda r=ready: r in message.custom_ids)  # type: ignore[misc]
            await click(fake, alice, message, custom_id=ready)
            for user in others:
                await bot.runtime.ready(table.id, str(user.id))
            continue
        if table.phase is not Phase.PLAYING:
            break
        before = table.version
        await others_decide(bot, table)
        if 0 in table.players_to_act():
            await alice_decides(fake, bot, alice, used, decide)
        await fake.wait_for(lambda v=before: table.version > v or table.phase is not Phase.PLAYING)
    assert table.phase is Phase.GAME_OVER and table.id not in bot.runtime.tables
    return table, hands


def fake_text(server: FakeDiscord) -> str:
    return "\n".join(m.content for m in server.channel_messages())


def check_public(
    server: FakeDiscord,
    pictures: Drawn,
    windows: tuple[str, ...] = ("chow", "pung", "kong", "win", "pass"),
) -> None:
    """No public payload names a tile or carries a hand picture, and every claim window showed
    the calls `windows` (Chi, Pon, Kan, Ron and Pass)."""
    words = {"chow": '"Chi"', "pung": '"Pon"', "kong": '"Kan"', "win": '"Ron"', "pass": '"Pass"'}
    hand_pngs = pictures.bytes_of(HandView)
    shown = (
        pictures.bytes_of(TableView)
        | pictures.bytes_of(ResultView)
        | pictures.bytes_of(StandingsView)
    )
    calls = set()
    for payload in server.public_payloads():
        text = json.dumps(payload.json)
        assert not TILE_TEXT.search(text), f"a tile is named in public: {payload.route} {text}"
        kinds = tuple(CALL_ID.findall(text))
        if kinds:
            calls.add(kinds)
            assert all(words[kind] in text for kind in windows)
        for upload in payload.files:
            assert upload.data not in hand_pngs and upload.data in shown
    assert calls == {windows}


async def test_one_person_and_three_computers_play_a_whole_tonpuu_game_by_clicks(
    fake: FakeDiscord,  # noqa: F811
    drawn: Drawn,  # noqa: F811
    db: Databases,
) -> None:
    """The table most new users start at: Alice alone with three (easy) computers, casual (a
    table with computers rates nobody), every decision of hers by clicks, to the game's end."""
    alice = fake.users[0]
    used: set[str] = set()
    async with fake.running(make_bot(db("bot"), seed_source=lambda: 5)) as bot:
        message = await open_table(
            fake,
            alice,
            preset="riichi",
            computers=3,
            level="easy",
            time="untimed",
            options="length=east",
        )
        await click(fake, alice, message, label="Start")
        table = live(bot)
        for _ in range(2000):
            await fake.wait_for(
                lambda: table.phase is not Phase.PLAYING or 0 in table.players_to_act()
            )
            if table.phase is Phase.BETWEEN_HANDS:
                ready = ids.table_id(table.id, "ready", ids.stamp(table))
                await fake.wait_for(lambda r=ready: r in message.custom_ids)  # type: ignore[misc]
                await click(fake, alice, message, custom_id=ready)
                continue
            if table.phase is not Phase.PLAYING:
                break
            before = table.version
            await alice_decides(fake, bot, alice, used)
            await fake.wait_for(
                lambda v=before: table.version > v or table.phase is not Phase.PLAYING
            )
        assert table.phase is Phase.GAME_OVER
        await fake.wait_for(lambda: "Final standings: 1. " in fake_text(fake))
        await fake.settle()
        stored = await bot.store.game_result(table.id)
        ratings = await bot.store.ratings_of(str(alice.id))
    assert "discard" in used
    assert stored is not None and sorted(s.place for s in stored.standings) == [1, 2, 3, 4]
    assert not stored.rated and ratings == []  # casual: the game is kept, nobody is rated
    check_public(fake, drawn)
