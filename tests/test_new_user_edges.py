"""Rough edges a new user met on a first evening (issue 29): the command line's manners (pipes,
a waiting `score`, arguments checked before the banner), Chinese answers, the test command's
summary line, and the voice warnings of a bot that uses no voice."""

from __future__ import annotations

import asyncio
import io
import logging
import re
import subprocess
import sys
from pathlib import Path

import discord
import pytest

from bot import cli
from bot.terminal import play, read_answer
from tests.test_terminal import decision, options, scripted

ROOT = Path(__file__).resolve().parent.parent


def test_a_reader_that_leaves_early_ends_the_output_without_a_traceback() -> None:
    command = [sys.executable, "-m", "bot", "simulate", "--preset", "hkos-3-v1", "--hands"]
    with subprocess.Popen(
        [*command, "400", "--json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT
    ) as process:
        assert process.stdout is not None and process.stderr is not None
        assert process.stdout.readline().startswith(b"{")
        process.stdout.close()  # as `| head -1` does
        errors = process.stderr.read().decode()
        status = process.wait()
    assert "Traceback" not in errors and "BrokenPipeError" not in errors
    assert status == cli.SIGPIPE_STATUS


def test_the_void_is_read_from_chinese_with_the_suit_glued_on() -> None:
    void = decision("0 void m", "0 void p", "0 void s")
    for typed in ("缺万", "缺萬", "缺 万", "缺 m"):
        assert str(read_answer(typed, void)) == "0 void m", typed
    assert str(read_answer("缺条", void)) == "0 void s"


def test_one_quiet_level_still_ends_with_the_summary_line(tmp_path: Path) -> None:
    (tmp_path / "test_one.py").write_text("def test_one() -> None:\n    assert True\n")
    ini = ROOT / "pyproject.toml"
    pytest_q = [sys.executable, "-m", "pytest", "-q", "-c", str(ini), "-p", "no:cacheprovider"]
    found = subprocess.run(
        [*pytest_q, "--rootdir", str(tmp_path), str(tmp_path / "test_one.py")],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        check=False,
    )
    assert "1 passed" in found.stdout, found.stdout + found.stderr


def test_the_bot_does_not_warn_about_voice_it_never_uses(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from tests.test_discord_e2e import make_bot

    monkeypatch.setattr(discord.VoiceClient, "warn_nacl", True)
    monkeypatch.setattr(discord.VoiceClient, "warn_dave", True)
    with caplog.at_level(logging.WARNING, logger="discord"):
        make_bot(tmp_path / "bot.db")
    assert not [r for r in caplog.records if "voice will NOT be supported" in r.getMessage()]


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_score_at_a_terminal_says_what_it_waits_for(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "stdin", _Terminal(""))
    assert cli.main(["score"]) == 0
    assert "one JSON object a line" in capsys.readouterr().err
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))  # a pipe: nothing to say
    assert cli.main(["score"]) == 0
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize(
    "bad", [{"level": "hard"}, {"min_fan": 2}, {"preset": "hk-fw2", "min_fan": 7}]
)
async def test_every_argument_is_checked_before_the_banner(bad: dict[str, object]) -> None:
    from bot.runtime import TableError

    out = io.StringIO()
    with pytest.raises(TableError):
        await play(options(**bad), scripted([]), out)
    assert out.getvalue() == ""


# ------------------------------------------------------------------ replay and play --db


def test_play_with_a_db_keeps_its_hands_for_replay_which_prints_notation_and_the_outcome(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "mine.db"
    out = io.StringIO()
    code = asyncio.run(play(options(hands=1, seed=5, db=str(db)), scripted([""] * 800), out))
    assert code == 0
    assert f"Kept as hand 1 in {db}: `mahjong-bot replay 1 --db {db}`" in out.getvalue()
    capsys.readouterr()
    before = sorted(p.name for p in tmp_path.iterdir())
    assert cli.main(["replay", "1", "--db", str(db)]) == 0
    printed = capsys.readouterr().out
    assert sorted(p.name for p in tmp_path.iterdir()) == before  # read, nothing written
    steps = [line for line in printed.splitlines() if line[:4].strip().isdigit()]
    discards = [line for line in steps if " discards " in line]
    assert discards and all(re.search(r" discards [1-9][mpsz]$", line) for line in discards)
    assert not [line for line in steps if re.search(r" (discards|pung|chow|kong) \d+$", line)]
    ending = printed.splitlines()[len(steps) :]
    assert ending[-1].strip().startswith(("Points for the hand: ", "No points changed hands."))
    if "[win]" in printed:
        assert " won by " in ending[0] and ("faan" in ending[0] or "fan" in ending[0])
        assert any(line.strip().startswith("Payment: ") for line in ending)


def test_replay_of_a_missing_database_creates_nothing_and_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("MAHJONG_DB", raising=False)
    assert cli.main(["replay", "1"]) == 1
    assert "'mahjong.db' does not exist" in capsys.readouterr().err
    assert cli.main(["replay", "1", "--db", "none.db"]) == 1
    assert "'none.db' does not exist" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


def test_a_meld_on_the_table_is_worded_as_a_meld_not_as_the_menus_call() -> None:
    from bot.runtime.snapshots import action_text, meld_text
    from engine.actions import Action
    from engine.tiles import Meld

    added = Meld.parse("added_kong 7777z")
    assert meld_text(added).in_language("en") == "added kong 7777z"
    assert meld_text(added).in_language("zh-CN") == "补杠7777z"
    assert meld_text(Meld.parse("concealed_kong 1111m")).in_language("en") == "concealed kong 1111m"
    # the menu still offers the call in its own words
    assert "your pung" in action_text(Action.parse("0 added_kong 7z")).in_language("en")


# ------------------------------------------------------------------ the terminal's table lines

SEAT_LINE = re.compile(r"melds (?P<melds>.+?)  flowers (?P<flowers>\S+)  discards (?P<pond>.+)$")
POND = re.compile(r"^-$|^\(?[1-9][mpsz]\)?( \(?[1-9][mpsz]\)?)*$")


async def test_ponds_are_listed_in_order_with_claimed_tiles_marked_and_flowers_sorted() -> None:
    out = io.StringIO()
    await play(options(preset="tw-16", hands=1, seed=2), scripted([""] * 800), out)
    seats = [m for line in out.getvalue().splitlines() if (m := SEAT_LINE.search(line))]
    assert seats
    for seat in seats:
        assert POND.match(seat["pond"]), seat["pond"]
        flowers = [] if seat["flowers"] == "-" else re.findall(r"[1-8]", seat["flowers"])
        assert flowers == sorted(flowers), seat["flowers"]
    assert any("(" in seat["pond"] for seat in seats)  # a claimed discard, in brackets


def test_pond_and_meld_text_of_one_seat() -> None:
    from bot.terminal import melds_text, pond_text
    from engine.tiles import Meld, parse_tiles
    from render.views import SeatView, SetAside

    seat = SeatView(
        name="Ann",
        wind=0,
        pond=tuple(parse_tiles("7z4z6z")),
        claimed=frozenset({1}),
        melds=(Meld.parse("pung 111p"),),
        set_aside=(SetAside("Kongs", tuple(parse_tiles("7z5s"))),),
    )
    assert pond_text(seat) == "7z (4z) 6z"
    wild = frozenset(parse_tiles("5s"))
    assert melds_text(seat, wild, "en") == "pung 111p kong 7z wild kong 5s"


async def test_hubei_menus_say_a_red_dragon_is_set_down_and_the_table_shows_its_kong() -> None:
    out = io.StringIO()
    await play(options(preset="hubei-laizi", hands=1, seed=4), scripted([""] * 800), out)
    text = out.getvalue()
    assert "set down 7z as a kong (and draw a replacement)" in text
    assert "discard 7z" not in text
    kongs = [m["melds"] for line in text.splitlines() if (m := SEAT_LINE.search(line))]
    assert any("kong 7z" in melds for melds in kongs)


def test_a_hubei_hand_without_a_win_says_the_last_tiles_were_held_back() -> None:
    from types import SimpleNamespace

    from bot.runtime.snapshots import ending_text
    from engine.presets import find_preset

    hubei = SimpleNamespace(preset=find_preset("hubei-laizi"))
    said = ending_text(hubei, "wall_draw").in_language("en")  # type: ignore[arg-type]
    assert "last 14 tiles are held back" in said and "ran out" not in said
    hkos = SimpleNamespace(preset=find_preset("hkos-3-v1"))
    assert ending_text(hkos, "wall_draw").in_language("en") == "the wall ran out"  # type: ignore[arg-type]
