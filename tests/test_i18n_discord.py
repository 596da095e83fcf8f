"""The bot on Discord in the reader's language: commands through the translator, replies and
DMs in the user's locale (or their choice), table messages in the server's, /mahjong language."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from data import Store
from engine import i18n
from engine.i18n import LANGUAGES
from engine.presets import PRESETS
from tests.fakediscord import FakeDiscord, FakeMessage, FakeUser
from tests.fakediscord.models import FakeRole
from tests.fakediscord.payloads import MEMBER_PERMISSIONS
from tests.test_discord_e2e import (
    click,
    live,
    make_bot,
    open_table,
    play_hand_by_clicks,
    private_text,
    wait_table_message,
)

MANAGE_GUILD = 1 << 5
CJK = re.compile(r"[\u4e00-\u9fff]")
# what a Chinese message may still hold in Latin letters: code spans (commands, ids), links,
# mentions and timestamps, tile notation, and the people's and channel's names
NOT_WORDS = re.compile(
    r"`[^`]*`|https?://\S+|<(?:@|#|t:)[^>]*>|(?<![A-Za-z0-9])[0-9]+[mpszf](?![A-Za-z0-9])"
)
SHARED_CHOICES = {"seat": "wind", "round": "wind", "from": "wind"}  # one list, three options
NATIVE_NAMES = {"bot.choice.language.en", "bot.choice.language.zh-cn", "bot.choice.language.zh-tw"}
SIMPLIFIED_ONLY = set("号开门风对这张发")  # characters Traditional writes differently


def english_words(message: str, names: list[str]) -> list[str]:
    """The Latin-letter words left in `message` beyond tile notation, names, numbers and codes."""
    stripped = NOT_WORDS.sub(" ", message)
    for name in sorted(names, key=len, reverse=True):
        stripped = stripped.replace(name, " ")
    return re.findall(r"[A-Za-z]{2,}", stripped)


def test_the_check_finds_english_and_lets_notation_and_names_through() -> None:
    names = ["Alice", "general"]
    assert english_words("你摸到**5m**。Alice 在 #general：`/mahjong hand` <t:17:R>", names) == []
    assert english_words("1号桌 · https://discord.com/x/1", names) == []
    assert english_words("Your turn: 打出 5m", names) == ["Your", "turn"]


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord(users=5) as server:
        yield server


def make_admin(fake: FakeDiscord, user: FakeUser) -> None:
    """Give `user` a role with Manage Server."""
    role = FakeRole(fake.new_id(), "Admins", MEMBER_PERMISSIONS | MANAGE_GUILD, 2)
    fake.guild.roles.append(role)
    fake.guild.member_roles[user.id] = [role.id]


def names_of(fake: FakeDiscord) -> list[str]:
    people = [fake.bot_user, fake.guild_owner, *fake.users]
    return [n for u in people for n in (u.username, u.display_name)] + [fake.channel.name]


def said_to(fake: FakeDiscord, user: FakeUser) -> list[FakeMessage]:
    """Every message only `user` sees from the bot: ephemeral replies and DMs."""
    dms = [m for m in fake.dms(user) if m.author is fake.bot_user]
    return fake.ephemerals(user) + dms


# ------------------------------------------------------------------ the command tree


def worded_as(key: str, language: str) -> re.Pattern[str]:
    """What `key` reads in `language`, its fields (clock seconds, names) whatever they are."""
    parts = re.split(r"\{[a-z_0-9]+\}", i18n.catalogue(language)[key])
    return re.compile(".+?".join(re.escape(part) for part in parts))


def _localized(node: dict[str, Any], field: str) -> dict[str, str]:
    return node.get(f"{field}_localizations") or {}


async def test_the_translator_answers_every_command_option_and_choice(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    async with fake.running(make_bot(tmp_path / "bot.db")):
        (group,) = [c for c in fake.commands if c["name"] == "mahjong"]
    checked: list[str] = []

    def check(node: dict[str, Any], field: str, key: str) -> None:
        # the code's English is the catalogue's, and each Chinese is there and Chinese
        assert worded_as(key, "en").fullmatch(node[field]), (key, node[field])
        found = _localized(node, field)
        for language in LANGUAGES[1:]:
            assert worded_as(key, language).fullmatch(found.get(language, "")), (key, language)
            if key not in NATIVE_NAMES:  # a language is named in itself, for every reader
                assert CJK.search(found[language]), (key, found[language])
        checked.append(key)

    check(group, "description", "bot.command.mahjong.description")
    for command in group["options"]:
        name = command["name"]
        assert not _localized(command, "name"), "command names stay English"
        check(command, "description", f"bot.command.{name}.description")
        for option in command.get("options", []):
            check(option, "description", f"bot.command.{name}.option.{option['name']}")
            assert not _localized(option, "name"), "option names stay English"
            for choice in option.get("choices", []):
                kind = SHARED_CHOICES.get(option["name"], option["name"])
                key = f"bot.choice.{kind}.{str(choice['value']).lower()}"
                check(choice, "name", key)
    assert len(checked) > 60 and "bot.command.language.description" in checked


# ------------------------------------------------------------------ a hand in Chinese


async def test_a_hand_played_by_a_zh_cn_user_says_everything_to_her_in_chinese(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    """Alice's Discord is in Simplified Chinese: every reply, private control and DM she gets
    while playing a whole hand against three computers is Chinese; the server stays English."""
    alice = fake.users[0]
    alice.locale = "zh-CN"
    async with fake.running(make_bot(tmp_path / "bot.db", seed_source=lambda: 71)) as bot:
        # the easy computers keep this seed's hand the one it was written for (Alice wins it)
        table_msg = await open_table(fake, alice, computers=3, time="untimed", level="easy")
        await click(fake, alice, table_msg, label="Start")  # the server's language: English
        used = await play_hand_by_clicks(fake, bot, alice)
        await fake.settle()
        said = said_to(fake, alice)
        table_text = (await wait_table_message(fake)).text
    assert {"discard", "win"} <= used
    assert len(said) > 5 and any(m.channel_id != fake.channel.id for m in said)  # DMs too
    names = names_of(fake)
    for message in said:
        assert CJK.search(message.text), message.text
        assert english_words(message.text, names) == [], message.text
    assert "Seats" in table_text and not CJK.search(table_text)  # the server reads English


# ------------------------------------------------------------------ the server's language


async def test_a_zh_tw_server_gets_its_table_message_in_traditional_chinese(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    fake.guild.locale = "zh-TW"
    bob = fake.users[1]  # his Discord is English: his own reply is English
    async with fake.running(make_bot(tmp_path / "bot.db")):
        record = await fake.slash(bob, "mahjong", "create", {})
        await record.wait_responses(2)
        table = await wait_table_message(fake)
        reply = private_text(record)
    assert reply.startswith("Table #1 is open")
    text = table.text
    assert "1號桌" in text and "等待玩家" in text and "加入" in text and "座位" in text
    assert not SIMPLIFIED_ONLY & set(text), "Traditional characters, not Simplified"
    assert "香港老式麻雀" in text  # the preset's name and rules in the server's language too
    assert english_words(text, [*names_of(fake), "hkos-3-v1"]) == []


async def test_language_for_the_server_is_for_admins_and_for_yourself_is_for_anyone(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    carol, dave, erin = fake.users[2], fake.users[3], fake.users[4]
    make_admin(fake, dave)
    path = tmp_path / "bot.db"
    async with fake.running(make_bot(path)):
        refused = await fake.slash(
            carol, "mahjong", "language", {"language": "zh-CN", "for": "guild"}
        )
        await refused.wait_response()
        assert "only members who can manage this server" in private_text(refused)
        allowed = await fake.slash(
            dave, "mahjong", "language", {"language": "zh-CN", "for": "guild"}
        )
        await allowed.wait_response()
        assert private_text(allowed) == "This server's table messages are now in 简体中文."
        mine = await fake.slash(erin, "mahjong", "language", {"language": "zh-TW"})
        await mine.wait_response()
        assert private_text(mine) == "你的回覆和私訊現在使用繁體中文。"
    # stored: after a restart the server's table messages and Erin's replies keep them
    async with fake.running(make_bot(path)):
        record = await fake.slash(erin, "mahjong", "create", {})
        await record.wait_responses(2)
        table = await wait_table_message(fake)
        assert private_text(record).startswith("1號桌已開")
        assert "1号桌" in table.text and "等待玩家" in table.text  # the server's: Simplified
        back = await fake.slash(erin, "mahjong", "language", {"language": "auto"})
        await back.wait_response()
        assert (
            private_text(back)
            == "Your replies and direct messages are now in automatic (your Discord language)."
        )


async def test_a_refusal_is_one_reply_in_the_reader_s_language(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    alice = fake.users[0]
    alice.locale = "zh-TW"
    async with fake.running(make_bot(tmp_path / "bot.db")):
        record = await fake.slash(alice, "mahjong", "join", {"code": "nope"})
        await record.wait_response()
        await fake.settle()
    assert private_text(record) == "code：加入碼是六個字母和數字，例如 `3F9A1C`。"
    assert len(record.responses) == 1  # no "something went wrong" after it


def test_every_preset_is_named_in_every_language_and_in_english_as_it_names_itself() -> None:
    english = i18n.catalogue("en")
    for preset in PRESETS.values():
        assert english[f"bot.preset.{preset.id}.name"] == preset.name
        assert english[f"bot.preset.{preset.id}.summary"] == preset.summary
        for language in LANGUAGES[1:]:
            assert CJK.search(i18n.translate(language, f"bot.preset.{preset.id}.summary"))


# ------------------------------------------------------------------ stored choices


async def test_language_choices_are_stored_changed_and_cleared(tmp_path: Path) -> None:
    path = str(tmp_path / "prefs.db")
    async with await Store.open(path) as store:
        assert await store.languages() == {}
        await store.set_language("guild", "1", "zh-TW")
        await store.set_language("user", "2", "zh-CN")
        await store.set_language("user", "2", "en")
        await store.set_language("user", "3", "zh-CN")
        await store.set_language("user", "3", None)
    async with await Store.open(path) as store:
        assert await store.languages() == {("guild", "1"): "zh-TW", ("user", "2"): "en"}
        with pytest.raises(ValueError, match="guild or a user"):
            await store.set_language("channel", "4", "en")


# ------------------------------------------------------------------ watched, refused, closed


async def test_a_chinese_table_watched_refused_closed_and_restarted_says_nothing_in_english(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    """A zh-CN server, Alice at a private table and Bob watching it, both reading Chinese:
    refusals (to watch, of options, of a score request), the spectator's view and its end,
    a restart, and the table closing as everyone leaves are all Chinese."""
    fake.guild.locale = "zh-CN"
    alice, bob = fake.users[0], fake.users[1]
    alice.locale = bob.locale = "zh-CN"
    path = tmp_path / "bot.db"

    async def slash(user: FakeUser, command: str, options: dict[str, Any]) -> Any:
        record = await fake.slash(user, "mahjong", command, options)
        await record.wait_response()
        await fake.wait_for(lambda: not (record.original and record.original.loading))
        await fake.settle()
        return record

    async with fake.running(make_bot(path)) as bot:
        options = {"computers": 3, "visibility": "private", "time": "untimed"}
        table_msg = await open_table(fake, alice, **options)
        table, code = live(bot).id, live(bot).options.invite_code or ""
        refused = await slash(bob, "watch", {"table": table})  # private: not invited
        assert "私人牌桌" in private_text(refused)
        await slash(alice, "spectators", {"table": table, "invite": bob})
        watching = await slash(bob, "watch", {"table": table})
        await fake.wait_for(lambda: watching.original and watching.original.embeds)
        await slash(alice, "spectators", {"table": table, "allow": False})
        await fake.wait_for(lambda: not watching.original.embeds)  # the view ends, saying why
        assert "不允许观战" in watching.original.text
        fixed = await slash(bob, "create", {"preset": "hkos-3-v1", "min_fan": 1})
        assert "起胡番数" in private_text(fixed)  # the engine's refusal, re-raised
        scored = await slash(bob, "score", {"hand": "111m555p999s0z", "win": "1m"})
        assert "字牌是 1z 到 7z" in private_text(scored)
    async with fake.running(make_bot(path)) as bot:
        again = await slash(bob, "watch", {"table": table})  # forbidden, and stored so
        assert "不允许观战" in private_text(again)
        leave = i18n.translate("zh-CN", "bot.button.leave")
        await click(fake, alice, table_msg, label=leave)
        closed = i18n.translate("zh-CN", "fixups.closed.everyone_left")
        await fake.wait_for(lambda: closed in table_msg.text, message="no closing reason shown")
        await fake.settle()
    names = names_of(fake)
    said = said_to(fake, alice) + said_to(fake, bob)
    assert len(said) >= 8
    for message in [*said, table_msg]:
        assert CJK.search(message.text), message.text
        assert english_words(message.text, [*names, "hkos-3-v1", code]) == [], message.text


async def test_a_locale_seen_before_a_restart_still_words_dms_after_it(tmp_path: Path) -> None:
    """A person whose Discord is Chinese gets Chinese DMs after a restart before they click
    anything: the language of the locale last seen is stored when it changes."""
    from types import SimpleNamespace

    from bot.discord.language import Languages

    path = str(tmp_path / "seen.db")
    seen = SimpleNamespace(
        locale="zh-CN", user=SimpleNamespace(id=7), guild_id=9, guild_locale="zh-TW"
    )
    async with await Store.open(path) as store:
        languages = Languages()
        await languages.load(store)
        languages.note(seen)  # type: ignore[arg-type]
        languages.note(seen)  # type: ignore[arg-type]  # unchanged: nothing more to store
        await languages.settled()
        assert await store.languages() == {
            ("user_seen", "7"): "zh-CN",
            ("guild_seen", "9"): "zh-TW",
        }
    async with await Store.open(path) as store:
        after = Languages()
        await after.load(store)
        assert (after.of_user(7), after.of_guild(9), after.of_user(8)) == ("zh-CN", "zh-TW", "en")
        assert after.chosen("user", 7) is None  # seen, not chosen
