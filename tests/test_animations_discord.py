"""The moving pictures of hubei-laizi on the table message (RULES.md "Pictures that move"): the
Discord front end gathers the moments of coalesced edits, attaches one GIF whose last frame is
the still picture, and goes back to the still picture on the next edit; and nothing animated
depends on what a seat hides."""

from __future__ import annotations

import io
import random
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageChops

import bot.discord.pictures as pictures
from bot.discord import BotConfig, MahjongBot
from bot.runtime import LiveTable, ManualTimers
from bot.runtime.snapshots import public_moment, public_snapshot
from engine.computer.easy import choose_action
from engine.events import Phase as HandPhase
from engine.families.hubei.presets import with_fixed_wild
from engine.hand import HandState
from engine.presets import PRESETS, find_preset, with_options
from engine.session import Session
from engine.tiles import RED, parse_tile
from render.animate import (
    MAX_MS,
    Moment,
    animate_over,
    deal_moments,
    moments_of,
)
from render.samples import sample_table_view
from tests.fakediscord import FakeDiscord, FakeMessage, SentPayload
from tests.test_discord_e2e import click, dm_with_controls
from tests.test_snapshots import hidden_elsewhere, live_table

HUBEI = find_preset("hubei-laizi")
WILD = parse_tile("5p")
# The dealer holds a red dragon (a red kong when discarded) and the wild; the wild is fixed.
DEALT = ["123m456m789m12s7z5p", "5p4p1p2p3p9p8p1m4m7m2s3s", "147s258s369s11m", "99s88s66m22p9m"]
EDIT = "PATCH /channels/{channel_id}/messages/{message_id}"
POST = "POST /channels/{channel_id}/messages"


def arranged(session: Session) -> HandState:
    fixed = with_fixed_wild(session.preset, parse_tile("5p"))
    return HandState.arranged(fixed, DEALT, replacements="8s9s")


def frames_of(data: bytes) -> tuple[list[Image.Image], list[int], bytes]:
    """Every frame of a GIF as RGB, each frame's duration, and the GIF's comment."""
    image = Image.open(io.BytesIO(data))
    frames, durations = [], []
    for index in range(image.n_frames):
        image.seek(index)
        frames.append(image.convert("RGB"))
        durations.append(int(image.info.get("duration", 0)))
    image.seek(0)
    return frames, durations, image.info.get("comment", b"")


def same_pixels(one: Image.Image, other: Image.Image) -> bool:
    return ImageChops.difference(one.convert("RGB"), other.convert("RGB")).getbbox() is None


# ------------------------------------------------------------------ the picture itself


def test_an_animation_plays_over_the_still_picture_and_ends_on_it() -> None:
    still = pictures.picture_of(sample_table_view())
    png = Image.open(io.BytesIO(pictures.draw(sample_table_view())))
    for moments in (
        [Moment("wild", (WILD,))],
        [Moment("wild", (WILD,)), Moment("red_kong", (RED,))],
        [Moment("red_kong", (RED,)), Moment("wild_kong", (WILD,)), Moment("gold")] * 2,
    ):
        data = animate_over(still, moments)
        frames, durations, comment = frames_of(data)
        assert data[:6] == b"GIF89a" and len(data) < 400_000
        assert frames[0].size == still.size and 0 < sum(durations) <= MAX_MS
        assert same_pixels(frames[-1], png)  # the last frame is the posted still, exactly
        assert not same_pixels(frames[0], png)  # the first shows the moment over it
        shown = [m.name for m in moments][-3:]  # the latest three at most
        assert comment == ("moments: " + " ".join(shown)).encode()


# ------------------------------------------------------------------ on Discord


class Animations:
    """Every GIF the front end drew: (view, moments, bytes)."""

    def __init__(self) -> None:
        self.items: list[tuple[Any, tuple[Moment, ...], bytes]] = []


@pytest.fixture
def animations(monkeypatch: pytest.MonkeyPatch) -> Animations:
    record = Animations()
    original = pictures.draw_animation

    def spy(view: Any, moments: Any, language: str = "en") -> bytes:
        data = original(view, moments, language)
        record.items.append((view, tuple(moments), data))
        return data

    monkeypatch.setattr(pictures, "draw_animation", spy)
    return record


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord(users=2) as server:
        yield server


def make_bot(path: Path) -> MahjongBot:
    config = BotConfig(token="fake-token", db_path=str(path), edit_interval=0.02, no_call_wait=0)
    return MahjongBot(
        config,
        timers=ManualTimers(),
        seed_source=lambda: 7,
        hand_factory=arranged,
        guild_ready_timeout=0.05,
    )


def table_message(fake: FakeDiscord) -> FakeMessage | None:
    for message in fake.channel_messages():
        if not message.ephemeral and message.custom_ids and message.embeds:
            return message
    return None


def table_pictures(fake: FakeDiscord, message_id: int) -> list[SentPayload]:
    """The table message's bodies that carried a picture, in order."""
    return [
        p
        for p in fake.all_payloads
        if p.files
        and (
            (p.route == EDIT and p.message_id == message_id)
            or (p.route == POST and p.json.get("embeds"))
        )
    ]


def live(bot: MahjongBot) -> LiveTable:
    (table,) = bot.runtime.tables.values()
    return table


async def test_a_wild_reveal_and_a_red_kong_are_animated_on_the_table_message(
    fake: FakeDiscord, tmp_path: Path, animations: Animations
) -> None:
    alice = fake.users[0]
    async with fake.running(make_bot(tmp_path / "bot.db")) as bot:
        record = await fake.slash(
            alice, "mahjong", "create", {"preset": "hubei-laizi", "computers": 3}
        )
        await record.wait_responses(2)
        message = await fake.wait_for(lambda: table_message(fake))
        start = await fake.click(alice, message, label="Start")
        await start.wait_response()
        table = live(bot)
        await fake.wait_for(lambda: table.hand is not None)
        if table.hand.turn == table.hand_seat(0):  # Alice deals: she sets the red dragon down
            dm = await dm_with_controls(fake, alice, public_moment(table.hand))
            await click(fake, alice, dm, label="7z")
        # (a computer dealer sets it down at once, as computers do: RULES.md)
        await fake.wait_for(
            lambda: any(Moment("red_kong", (RED,)) in m for _, m, _ in animations.items),
            message=lambda: f"no red kong animated: {[m for _, m, _ in animations.items]}",
        )
        await bot.front.settled(table.id)
        gifs = [p for p in table_pictures(fake, message.id) if p.files[0].filename.endswith(".gif")]
        assert gifs, "no GIF reached the table message"
        shown = [name for _, moments, _ in animations.items for name, _ in moments]
        assert shown[:1] == ["wild"] and "red_kong" in shown
        for payload in gifs:
            (upload,) = payload.files
            view, moments, _ = next(a for a in animations.items if a[2] == upload.data)
            assert payload.json["embeds"][0]["image"]["url"] == f"attachment://{upload.filename}"
            frames, durations, comment = frames_of(upload.data)
            assert len(upload.data) < 400_000 and sum(durations) <= MAX_MS
            assert comment == ("moments: " + " ".join(m.name for m in moments)).encode()
            still = Image.open(io.BytesIO(pictures.draw(view)))
            assert same_pixels(frames[-1], still) and not same_pixels(frames[0], still)
        # the next edit of the table shows the still picture again
        count = len(table_pictures(fake, message.id))
        while len(table_pictures(fake, message.id)) == count:  # Alice plays on
            await fake.wait_for(lambda: 0 in table.players_to_act())
            hand = table.hand
            assert hand is not None and not hand.is_over
            action = choose_action(hand, table.hand_seat(0))
            await bot.runtime.act(table.id, str(alice.id), action, table.version)
            await bot.front.settled(table.id)
        following = table_pictures(fake, message.id)[count]
        assert following.files[0].filename.endswith(".png")
        assert following.json["embeds"][0]["image"]["url"].endswith(".png")


# ------------------------------------------------------------------ hidden tiles


def test_nothing_animated_depends_on_hidden_tiles() -> None:
    """Hands played to their end; after each action, a table with the same public history but
    other concealed tiles (and other tiles drawn) has the same moments and the same GIF."""
    rng = random.Random(16)
    preset = with_options(HUBEI, ["no_minimum"])
    seen: set[str] = set()
    gifs_compared = 0
    for seed in range(6):
        for seats in (4, 3, 2):
            hand = HandState(preset, seed=seed, seat_count=seats)
            while not hand.is_over:
                seat = hand.seats_to_act()[0]
                legal = hand.legal_actions(seat)
                action = choose_action(hand, seat) if rng.random() < 0.8 else rng.choice(legal)
                events = hand.apply(action)
                other = hidden_elsewhere(hand, rng)
                hidden_draws = [
                    replace(e, tile=rng.randrange(34)) if e.private and e.tile is not None else e
                    for e in events
                ]
                one = public_snapshot(live_table(hand, 1), events)
                two = public_snapshot(live_table(other, 1), hidden_draws)
                assert one.moments == two.moments == tuple(moments_of(hand, events))
                seen.update(m.name for m in one.moments)
                if one.moments and gifs_compared < 3 and hand.phase is not HandPhase.OVER:
                    assert one.table_view is not None and two.table_view is not None
                    assert pictures.draw_animation(
                        one.table_view, one.moments
                    ) == pictures.draw_animation(two.table_view, two.moments)
                    gifs_compared += 1
    assert {"red_kong", "last_draws"} <= seen and gifs_compared, seen


def test_only_the_presets_whose_rules_name_moving_pictures_have_moments() -> None:
    """Kong blooms happen in Sichuan and Guangdong hands too; only hubei-laizi animates them."""
    bloomed = 0
    for preset in PRESETS.values():
        for seed in range(12):
            hand = HandState(preset, seed=seed)
            assert deal_moments(hand) == [] or preset.animated
            while not hand.is_over:
                events = hand.apply(choose_action(hand, hand.seats_to_act()[0]))
                if not preset.animated:
                    assert moments_of(hand, events) == [], (preset.id, seed)
            if not preset.animated:
                bloomed += any(p.id == "kong_bloom" for w in hand.wins for p in w.score.patterns)
    assert bloomed  # other families' kong blooms were there to be left still
