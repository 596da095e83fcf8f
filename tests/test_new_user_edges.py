"""Rough edges a new user met on a first evening (issue 29): the command line's manners (pipes,
a waiting `score`, arguments checked before the banner), Chinese answers, the test command's
summary line, the voice warnings of a bot that uses no voice, `replay` and `play --db`, the
terminal's table lines and hubei menus, and the clocks: defined for the user, one rule."""

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
from bot.pipes import SIGPIPE_STATUS
from bot.terminal import play, read_answer
from data import Store
from tests.test_terminal import decision, options, scripted

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize(
    "command",
    [
        ["simulate", "--preset", "hkos-3-v1", "--hands", "400", "--json"],
        ["play", "--seed", "1", "--level", "easy", "--lang", "en"],
    ],
)
def test_a_reader_that_leaves_early_ends_the_output_without_a_traceback(
    command: list[str],
) -> None:
    with subprocess.Popen(
        [sys.executable, "-m", "bot", *command],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
    ) as process:
        assert process.stdout is not None and process.stderr is not None
        assert process.stdin is not None
        process.stdin.write(b"\n" * 3000)  # Enter for every menu
        process.stdin.close()
        assert process.stdout.readline()
        process.stdout.close()  # as `| head -1` does
        errors = process.stderr.read().decode()
        status = process.wait()
    assert "Traceback" not in errors and "BrokenPipe" not in errors, errors
    assert status == SIGPIPE_STATUS


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
    assert cli.main(["score"]) == 2  # Ctrl-D before any request: none was scored
    hint, refusal = capsys.readouterr().err.splitlines()
    assert "one JSON object a line" in hint and refusal.startswith("error: no score request")
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))  # a pipe: no hint, one error line
    assert cli.main(["score"]) == 2
    assert capsys.readouterr().err.startswith("error: no score request")


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
    said = " ".join(out.getvalue().split())  # a line longer than 80 columns goes on under
    assert f"Kept as hand 1 in {db}: `mahjong-bot replay 1 --db {db}`" in said
    capsys.readouterr()
    before = sorted(p.name for p in tmp_path.iterdir())
    assert cli.main(["replay", "1", "--db", str(db)]) == 0
    printed = capsys.readouterr().out
    assert sorted(p.name for p in tmp_path.iterdir()) == before  # read, nothing written
    steps = [line for line in printed.splitlines() if line[:4].strip().isdigit()]
    discards = [line for line in steps if ": discard " in line]
    assert discards and all(re.search(r": discard [1-9][mpsz]$", line) for line in discards)
    assert not [line for line in steps if re.search(r" (discard|pung|chow|kong) \d+$", line)]
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
    from bot.runtime.words import action_text, meld_text
    from engine.actions import Action
    from engine.tiles import Meld

    added = Meld.parse("added_kong 7777z")
    assert meld_text(added).in_language("en") == "added kong 7777z"
    assert meld_text(added).in_language("zh-CN") == "补杠7777z"
    assert meld_text(Meld.parse("concealed_kong 1111m")).in_language("en") == "concealed kong 1111m"
    # the menu still offers the call in its own words
    assert "your pung" in action_text(Action.parse("0 added_kong 7z")).in_language("en")


# ------------------------------------------------------------------ the terminal's table lines

# a seat's line (its flowers column only where the preset has flowers; more discards go on
# under it, the terminal's lines keeping within 80 columns)
SEAT_LINE = re.compile(
    r"melds (?P<melds>.+?)  (?:flowers (?P<flowers>\S+)  )?discards (?P<pond>.+)$"
)
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
    from render.adapt import KONGS_LABEL
    from render.views import SeatView, SetAside

    seat = SeatView(
        name="Ann",
        wind=0,
        pond=tuple(parse_tiles("7z4z6z")),
        claimed=frozenset({1}),
        melds=(Meld.parse("pung 111p"),),
        set_aside=(SetAside(KONGS_LABEL, tuple(parse_tiles("7z5s"))),),
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

    from bot.runtime.words import ending_text
    from engine.presets import find_preset

    hubei = SimpleNamespace(preset=find_preset("hubei-laizi"))
    said = ending_text(hubei, "wall_draw").in_language("en")  # type: ignore[arg-type]
    assert "last 14 tiles are held back" in said and "ran out" not in said
    hkos = SimpleNamespace(preset=find_preset("hkos-3-v1"))
    assert ending_text(hkos, "wall_draw").in_language("en") == "the wall ran out"  # type: ignore[arg-type]


# ------------------------------------------------------------------ clocks


async def test_the_table_clock_lets_the_computer_play_a_timed_out_decision(store: Store) -> None:
    """RULES.md, seed-004 tables: "a timed-out decision is played by the computer player" (the
    other clocks play "Table play around the hand": the drawn tile, calls passed)."""
    from bot.runtime import ManualTimers
    from tests.test_runtime import make_runtime

    timers = ManualTimers()
    runtime = await make_runtime(store, timers)
    table = await runtime.create_table("sichuan-bb", creator_id="101", creator_name="Ann")
    for player_id, name in (("102", "Bob"), ("103", "Cat"), ("104", "Dan")):
        await runtime.join(table.id, player_id, name)
    await runtime.start_table(table.id, "101")
    assert table.options.time_control == "table"
    timed_out = differs = 0
    deal_ends = table.deal_deadline
    assert deal_ends is not None
    while timers.now() + 40 < deal_ends:  # seven decisions fit in the deal's five minutes
        hand = table.hand
        assert hand is not None and not hand.is_over
        seats = hand.seats_to_act()
        expected = {seat: table.computer(hand, seat) for seat in seats}
        differs += sum(expected[seat] != hand.default_action(seat) for seat in seats)
        count = len(hand.log)
        await timers.advance(40)
        played = [a for a in hand.log[count:] if a.seat in expected]
        assert played and all(a == expected[a.seat] for a in played), (played, expected)
        timed_out += len(played)
    assert timed_out >= 7
    assert differs  # the computer's choice is not the default rule's, so the test tells them apart


def test_the_time_controls_are_defined_for_the_user(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from bot.discord.options import TIME_CHOICES
    from engine.presets import TIME_CONTROLS

    help_text = " ".join(cli.time_controls_help().split())
    choices = {c.value: str(c.name) for c in TIME_CHOICES}
    readme = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    for tc in TIME_CONTROLS.values():
        if tc.untimed:
            continue
        row = f"| `{tc.name}` | {tc.base} s |"
        assert row in readme, row
        if tc.deal_limit:
            assert f"{tc.deal_limit // 60} min for the whole deal" in choices[tc.name]
            continue
        reserve = f"a {tc.reserve} s reserve for the hand" if tc.reserve else "no reserve"
        assert f"{tc.name} ({tc.base} s a move" in help_text and reserve in help_text
        assert reserve in choices[tc.name], choices[tc.name]
    assert "the drawn tile (else the last) discarded" in help_text
    assert "the drawn tile (else the last) discarded" in readme


async def test_the_terminal_says_what_its_clock_gives_and_does() -> None:
    out = io.StringIO()
    await play(options(time="bullet"), scripted(["q"]), out)
    first = out.getvalue().splitlines()[:2]
    assert first[1].startswith("bullet clock: 2 s a move + a 5 s reserve for the hand. ")
    said = " ".join(out.getvalue().split())  # the line goes on under, within 80 columns
    assert "a win is taken, a call passed, the drawn tile" in said


async def test_the_clock_rule_names_no_sichuan_opening_at_a_table_without_one() -> None:
    # Sichuan's presets, whose openings it would name, always play their own table clock
    for preset in ("riichi", "hkos-3-v1"):
        out = io.StringIO()
        await play(options(preset=preset, time="bullet"), scripted(["q"]), out)
        said = " ".join(out.getvalue().split())
        assert "a call passed, the drawn tile (else the last) discarded." in said
        assert "Sichuan" not in said


async def test_a_hubei_table_says_why_the_wall_is_not_empty() -> None:
    # the person's own last draw, a move with one answer, is made for them (automatic.py), so
    # the table is not shown again while the last draws last: the ending says why
    out = io.StringIO()
    await play(options(preset="hubei-laizi", hands=1, seed=3), scripted([""] * 800), out)
    text = out.getvalue()
    said = " ".join(text.split())  # a line longer than 80 columns goes on under
    assert "the wall's last 14 tiles are held back for them" in said
    assert "the wall ran out" not in text


async def test_play_with_a_db_refuses_a_bots_database_and_closes_its_own_leftovers(
    tmp_path: Path,
) -> None:
    from bot.runtime import TableError

    bots = tmp_path / "bot.db"
    async with await Store.open(str(bots)) as store:
        await store.create_table("hkos-3-v1", guild_id=1, channel_id=2)
    out = io.StringIO()
    with pytest.raises(TableError, match="Discord table"):
        await play(options(hands=1, db=str(bots)), scripted([""] * 800), out)
    assert out.getvalue() == ""
    mine = tmp_path / "mine.db"
    async with await Store.open(str(mine)) as store:
        left = await store.create_table("hkos-3-v1")  # a terminal table a killed play left
    assert await play(options(hands=1, db=str(mine)), scripted([""] * 800), out) == 0
    async with await Store.open(str(mine)) as store:
        loaded, _ = await store.load_active_tables()
        assert loaded == [] and (await store.table_row(left)).phase.value == "closed"


def test_the_result_picture_says_the_last_draws_brought_no_win_not_that_the_wall_ran_out() -> None:
    """hubei-laizi holds its last 14 tiles back for the last draws: a hand with no win there
    did not see its wall 'run out' (the result picture's note, as the table text says)."""
    from engine.computer.simulate import play_out
    from engine.hand import HandState
    from engine.presets import find_preset
    from render.adapt import result_view_from_state

    for seed in range(200):
        hand = HandState(find_preset("hubei-laizi"), seed)
        play_out(hand)
        outcome = hand.outcome()
        assert outcome is not None
        if not outcome.wins and outcome.termination.value == "wall_draw":
            break
    else:
        raise AssertionError("no drawn hubei hand in 200 seeds")
    note = result_view_from_state(hand).note
    assert not isinstance(note, str)
    said = note.in_language("en")
    assert "last 14 tiles" in said and "ran out" not in said
