"""tenhou.net/6 logs replayed on our engine and our games exported as such logs: hands written
here with their results by Tenhou's rules (tests.tenhou6_hands), the command line, and the
export of games played through the runtime, which must replay to the same results."""

from __future__ import annotations

import asyncio
import copy
import io
import json
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from bot.cli import main
from bot.replay import ReplayError, stored_replay
from bot.replay_tenhou6 import finished_game_export, game_export, parse_reference, run_tenhou6
from bot.runtime.manager import Runtime
from bot.runtime.timers import ManualTimers
from data import Phase, Store
from engine.computer.easy import choose_action
from engine.computer.simulate import play_session
from engine.families.riichi.presets import RIICHI, RIICHI_MAJSOUL, SANMA
from engine.families.riichi.scoring import YAKU_IDS, YAKUMAN_IDS
from engine.formats.tenhou6.compare import FinalReport, HandReport
from engine.formats.tenhou6.export import StoredHand, game_log, hand_of
from engine.formats.tenhou6.log import Tenhou6Error, from_json, read, write
from engine.formats.tenhou6.order import describe, order_of_play
from engine.formats.tenhou6.replay import (
    NextDealDiffers,
    play_hand,
    preset_for,
    replay_log,
    session_from,
)
from engine.formats.tenhou6.results import WinWordsError, read_win_texts, yaku_text
from engine.presets import PRESETS, Preset
from engine.tiles import format_tiles
from tests import tenhou6_hands as written
from tests.replay_fixtures import PLAYERS, seated_table
from tests.tenhou6_logs import REAL_LOGS, real_log, require_real_logs

HANDS = {
    "riichi_ura": written.RIICHI_URA,
    "double_ron": written.DOUBLE_RON,
    "chankan": written.CHANKAN,
    "four_riichi": written.FOUR_RIICHI,
    "nine_terminals": written.NINE_TERMINALS,
    "exhaustive": written.EXHAUSTIVE,
    "kan_dora": written.KAN_DORA,
    "pao": written.PAO,
    "triple_ron": written.TRIPLE_RON,
    "red_five_pon": written.RED_FIVE_PON,
    "red_five_chi": written.RED_FIVE_CHI,
}


def reports(data: dict[str, Any]) -> list[HandReport]:
    return [r for r in replay_log(from_json(data)) if isinstance(r, HandReport)]


@pytest.mark.parametrize("name", sorted(HANDS))
def test_each_written_hand_replays_to_its_result(name: str) -> None:
    (report,) = reports(written.log(HANDS[name]))
    assert report.differs == ()
    assert report.ours == report.log


@pytest.mark.parametrize("name", sorted(HANDS))
def test_our_replay_of_each_written_hand_exports_its_result_as_the_log_writes_it(
    name: str,
) -> None:
    """Our hand, written back as a log: the same result name, deltas, winners, pao and yaku
    (the yaku in Tenhou's words), and the same deal, draws and indicators."""
    log = from_json(written.log(HANDS[name]))
    original = log.hands[0]
    preset = preset_for(log)
    state, _, _ = play_hand(preset, original, 1, session_from(preset, original))
    stored = StoredHand(preset, state.setup, 0, 4, tuple(state.log), tuple(state.wall))
    exported = hand_of(stored)
    assert exported.result.name == original.result.name
    assert exported.result.deltas == original.result.deltas
    for ours, theirs in zip(exported.result.wins, original.result.wins, strict=True):
        assert (ours.deltas, ours.winner, ours.from_seat, ours.pao) == (
            theirs.deltas,
            theirs.winner,
            theirs.from_seat,
            theirs.pao,
        )
        assert read_win_texts(ours.texts) == read_win_texts(theirs.texts)
    assert (exported.starts, exported.dora) == (original.starts, original.dora)
    assert exported.ura == original.ura
    assert exported.takes == original.takes and exported.discards == original.discards
    played = [describe(a) for a in order_of_play(exported)]
    assert played == [describe(a) for a in order_of_play(original)]


def test_what_the_written_hands_say_our_engine_scores() -> None:
    ura = reports(written.log(written.RIICHI_URA))[0].ours
    assert ("ura_dora", 1) in ura.wins[0].yaku and ura.deltas == (19000, -6000, -6000, -6000)
    double = reports(written.log(written.DOUBLE_RON))[0].ours
    assert [w.deltas for w in double.wins] == [(-2300, 3300, 0, 0), (-1300, 0, 1300, 0)]
    chankan = reports(written.log(written.CHANKAN))[0].ours
    assert ("chankan", 1) in chankan.wins[0].yaku and chankan.wins[0].source == 2
    kan = reports(written.log(written.KAN_DORA))[0].ours
    assert ("dora", 4) in kan.wins[0].yaku and ("rinshan", 1) in kan.wins[0].yaku
    pao = reports(written.log(written.PAO))[0].ours
    assert pao.wins[0].liable == 3 and pao.deltas == (0, 32000, 0, -32000)
    assert reports(written.log(written.FOUR_RIICHI))[0].ours.outcome == "abortive"


@pytest.mark.parametrize("name", ["red_five_pon", "red_five_chi"])
def test_a_call_with_the_red_five_while_a_plain_one_is_held_replays_as_the_log_names_it(
    name: str,
) -> None:
    """The log's call names the red five (52, 51): our engine gives that tile to the meld and
    keeps the plain five, which the log then discards; nothing bent, nothing noted."""
    log = from_json(written.log(HANDS[name]))
    (report,) = [r for r in replay_log(log) if isinstance(r, HandReport)]
    assert report.differs == () and report.ours == report.log and report.notes == ()
    preset = preset_for(log)
    state, _, _ = play_hand(preset, log.hands[0], 1, session_from(preset, log.hands[0]))
    (meld,) = state.melds[1]
    assert "0" in format_tiles(meld.tiles)
    assert any(len(a.tiles) > 1 and any(t >= 42 for t in a.tiles) for a in state.log)


def test_a_chi_with_the_red_five_scores_it() -> None:
    (report,) = reports(written.log(written.RED_FIVE_CHI))
    (win,) = report.ours.wins
    assert ("aka_dora", 1) in win.yaku and report.ours.deltas == (-1000, 2000, -500, -500)


@pytest.mark.parametrize("name", ["ranked_game.json", "suukantsu_0.json", "suukantsu_1.json"])
def test_real_logs_whose_calls_use_a_red_five_replay_as_they_name_it(name: str) -> None:
    """Real Tenhou calls with the red five (ranked_game's chi 6-4-0s, suukantsu_0's 7-0-6p,
    suukantsu_1's 6-4-0p): each log replays to its results with no five bent."""
    log = read(real_log(name).read_text(encoding="utf-8"))
    found = [r for r in replay_log(log) if isinstance(r, HandReport)]
    assert found and all(r.differs == () and r.notes == () for r in found)


def test_the_next_deal_carries_honba_sticks_and_points_from_our_engine() -> None:
    """After four riichi the sticks stay on the table and the dealer deals again, one honba on:
    the second hand's round info must be what our session deals."""
    second = copy.deepcopy(written.NINE_TERMINALS)
    second[0], second[1] = [0, 1, 4], [24000] * 4
    found = reports(written.log(written.FOUR_RIICHI, second))
    assert [r.differs for r in found] == [(), ()]


@pytest.mark.parametrize(
    ("info", "points", "words"),
    [
        ([1, 1, 4], [24000] * 4, "ours E1 1 honba 4 sticks points [24000, 24000, 24000, "
         "24000], the log's E2 1 honba"),
        ([0, 0, 4], [24000] * 4, "the log's E1 0 honba 4 sticks"),
        ([0, 1, 3], [24000] * 4, "the log's E1 1 honba 3 sticks"),
        ([0, 1, 4], [25000, 24000, 24000, 23000], "sticks points [25000, 24000, 24000, 23000]"),
    ],
)  # fmt: skip
def test_a_next_deal_other_than_ours_stops_the_replay_naming_the_hand(
    info: list[int], points: list[int], words: str
) -> None:
    """Round and dealer, honba, sticks on the table and points are each compared in full."""
    wrong = copy.deepcopy(written.NINE_TERMINALS)
    wrong[0], wrong[1] = info, points
    found = replay_log(from_json(written.log(written.FOUR_RIICHI, wrong)))
    first = next(found)
    assert isinstance(first, HandReport) and first.differs == ()
    with pytest.raises(NextDealDiffers, match=r"^hand 2, the deal after hand 1: ") as stopped:
        next(found)
    assert words in str(stopped.value)


def test_the_cli_stops_with_exit_2_at_a_next_deal_other_than_ours(tmp_path: Path) -> None:
    wrong = copy.deepcopy(written.NINE_TERMINALS)
    wrong[0], wrong[1] = [0, 1, 3], [24000] * 4
    path = tmp_path / "game.json"
    path.write_text(json.dumps(written.log(written.FOUR_RIICHI, wrong)))
    for check in (False, True):
        code, out, err = run(path, check=check)
        assert code == 2 and len(out) == 1 and json.loads(out[0])["hand"] == 1
        assert err == [f"error: {path}: hand 2, the deal after hand 1: ours E1 1 honba 4 sticks "
                       "points [24000, 24000, 24000, 24000], the log's E1 1 honba 3 sticks "
                       "points [24000, 24000, 24000, 24000]"]  # fmt: skip


def test_a_changed_result_is_a_difference_named_in_words() -> None:
    changed = copy.deepcopy(written.CHANKAN)
    changed[16][1] = [0, 0, -3900, 3900]
    changed[16][2] = [3, 2, 3, "30符3飜3900点", "槍槓(1飜)", "一気通貫(2飜)"]
    (report,) = reports(written.log(changed))
    assert report.differs == (
        "deltas: ours [0, 0, -5200, 5200], the log's [0, 0, -3900, 3900]",
        "seat 3's win: ours 40 fu, the log's 30",
    )


def test_the_rule_names_the_preset() -> None:
    assert preset_for(from_json(written.log(written.PAO))) is RIICHI
    east = preset_for(from_json(written.log(written.PAO, disp="般東喰赤")))
    assert east.id == "riichi" and east.game.rounds == 1
    assert preset_for(from_json(written.log(written.PAO, disp="玉の間南喰赤"))).id == (
        "riichi-majsoul"
    )
    with pytest.raises(Tenhou6Error, match="no open tanyao"):
        preset_for(from_json(written.log(written.PAO, disp="般南")))
    with pytest.raises(Tenhou6Error, match="red fives"):
        preset_for(from_json(written.log(written.PAO, aka=0)))


# ---------------------------------------------------------------- the command line


def run(path: Path, check: bool = False) -> tuple[int, list[str], list[str]]:
    out, err = io.StringIO(), io.StringIO()
    code = run_tenhou6(str(path), check, out, err)
    return code, out.getvalue().splitlines(), err.getvalue().splitlines()


def test_the_cli_prints_a_line_a_hand_then_the_final_points(tmp_path: Path) -> None:
    """The dealer's haneman, then the dealer's kong and haneman again with one honba (100
    more from each): the second hand starts where our engine says the first left the table."""
    again = copy.deepcopy(written.KAN_DORA)
    again[0], again[1] = [0, 1, 0], [43000, 19000, 19000, 19000]
    again[16][1] = [18300, -6100, -6100, -6100]
    path = tmp_path / "game.json"
    path.write_text(json.dumps(written.log(written.RIICHI_URA, again)))
    code, out, err = run(path, check=True)
    first, second, final = (json.loads(line) for line in out)
    assert code == 0 and err == ["2 of 2 hands replay to the log's results"]
    assert (first["hand"], first["round"], first["outcome"]) == (1, "E1", "tsumo")
    assert first["deltas"] == [19000, -6000, -6000, -6000]
    assert first["wins"][0]["yaku"]["ura_dora"] == 1 and "differs" not in first
    assert (second["honba"], second["deltas"]) == (1, [18300, -6100, -6100, -6100])
    assert final == {"final": {"points": [61300, 12900, 12900, 12900], "score": None,
                               "over": False}}  # fmt: skip


def test_check_stops_at_the_first_hand_that_differs(tmp_path: Path) -> None:
    changed = copy.deepcopy(written.PAO)
    changed[16][1] = [-16000, 32000, -8000, -8000]
    changed[16][2] = [1, 1, 1, "役満8000-16000点", "大三元(役満)"]
    path = tmp_path / "pao.json"
    path.write_text(json.dumps(written.log(changed, written.RIICHI_URA)))
    code, out, err = run(path, check=True)
    assert code == 2 and len(out) == 1 and len(err) == 1
    assert err[0] == (
        "error: hand 1 (E1, 0 honba) differs from the log: deltas: ours [0, 32000, 0, -32000], "
        "the log's [-16000, 32000, -8000, -8000]; seat 1's win: liable seat ours 3, the log's "
        "None"
    )


def fifth_white_dragon() -> str:
    data = written.log(copy.deepcopy(written.NINE_TERMINALS))
    data["log"][0][7] = written.codes("5z5z5z5z") + data["log"][0][7][4:]
    return json.dumps(data)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("{not json", "not JSON"),
        (json.dumps(written.log(written.PAO, disp="般南", aka=0)), "a ruleset we do not play"),
        (fifth_white_dragon(), "a tile that is not in the riichi wall (1 5z too many)"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(tmp_path: Path, text: str, words: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(text)
    code, out, err = run(path)
    assert code == 2 and out == [] and len(err) == 1
    assert err[0].startswith(f"error: {path}: ") and words in err[0], err[0]


def test_an_action_our_engine_refuses_names_the_hand_the_action_and_why(tmp_path: Path) -> None:
    """Seat 1 cannot rob the kong (it is not waiting on 2p): our engine offers no win."""
    robbed = copy.deepcopy(written.CHANKAN)
    robbed[16][1], robbed[16][2] = [0, 5200, -5200, 0], [1, 2, 1, "40符3飜5200点", "槍槓(1飜)"]
    path = tmp_path / "refused.json"
    path.write_text(json.dumps(written.log(robbed)))
    code, out, err = run(path)
    assert code == 2 and out == []
    assert err == [
        f"error: {path}: hand 1, action 13 (1 ron 2p from 2): our engine refuses it: our engine "
        "offers no win here (furiten, no yaku, or not complete)"
    ]


def test_the_cli_reads_a_file_through_main(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "kan.json"
    path.write_text(json.dumps(written.log(written.KAN_DORA)))
    assert main(["replay", "--tenhou6", str(path), "--check"]) == 0
    assert json.loads(capsys.readouterr().out.splitlines()[0])["outcome"] == "tsumo"
    assert main(["replay", "--tenhou6", str(tmp_path / "missing.json")]) == 2


# ---------------------------------------------------------------- our games, exported


@pytest.mark.parametrize("preset", [RIICHI, RIICHI_MAJSOUL, SANMA], ids=lambda p: p.id)
@pytest.mark.parametrize("seed", [1, 2])
def test_a_simulated_game_exports_and_replays_to_the_same_results(
    preset: Preset, seed: int
) -> None:
    played = list(play_session(preset, 40, seed))
    hands = [
        StoredHand(preset, p.state.setup, p.state.seed, p.state.seat_count, tuple(p.state.log))
        for p in played
    ]
    log = read(write(game_log(hands, ["A", "B", "C", "D"][: preset.seat_counts[0]])))
    assert preset_for(log).id == preset.id
    found = list(replay_log(log))
    hand_reports = [r for r in found if isinstance(r, HandReport)]
    assert [r.differs for r in hand_reports] == [()] * len(played)
    for report, hand in zip(hand_reports, played, strict=True):
        assert report.ours.wins == report.log.wins
        assert len(report.ours.wins) == len(hand.outcome.wins)
    final = found[-1]
    assert isinstance(final, FinalReport) and final.over


@contextmanager
def playable(preset: Preset) -> Iterator[None]:
    """The preset findable by the runtime while the block runs (while it is in development)."""
    added = preset.id not in PRESETS
    if added:
        PRESETS[preset.id] = preset
    try:
        yield
    finally:
        if added:
            del PRESETS[preset.id]


async def whole_game(
    store: Store,
    preset: Preset,
    seed: int,
    players: Sequence[tuple[str, str]] = PLAYERS,
    **options: object,
) -> int:
    """A whole game of `preset` at a new table of `players` (id, name), every seat playing as
    the easy computer; returns the table id."""
    runtime = Runtime(store, None, ManualTimers(), seed_source=lambda: seed)
    await runtime.open()
    table = await seated_table(runtime, preset.id, players, **options)
    while table.phase is not Phase.GAME_OVER:
        if table.phase is Phase.BETWEEN_HANDS:
            for player_id, _ in players:
                await runtime.ready(table.id, player_id)
            continue
        assert table.hand is not None
        player = table.players_to_act()[0]
        action = choose_action(table.hand, table.hand_seat(player))
        await runtime.act(table.id, table.seat(player).player_id, action, table.version)
    await runtime.close()
    return table.id


async def check_stored_games(db: str, preset: Preset, seeds: tuple[int, ...]) -> list[int]:
    """Whole games played into `db`, each exported and replayed: every hand as the store
    recorded it, the final points as the game's standings. Returns the tables' ids."""
    async with await Store.open(db) as store:
        tables = [await whole_game(store, preset, seed) for seed in seeds]
        for table_id in tables:
            game = await store.game_result(table_id)
            hands = await store.table_hands(table_id)
            export = await game_export(store, hand_id=hands[-1].hand_id)
            assert export.table_id == table_id
            # what /mahjong replay export:true attaches beside the hand
            viewed = await stored_replay(store, hands[0].hand_id, PLAYERS[0][0])
            assert await finished_game_export(store, viewed, PLAYERS[0][0]) == export
            log = read(export.text)
            assert log.names == ("Ann", "Bob", "Cy", "Di")
            # the final line (`sc`) and the version as Tenhou's own logs carry them
            assert game is not None and json.loads(export.text)["ver"] == 2.3
            assert log.final == tuple((s.points, s.score) for s in game.standings)
            found = list(replay_log(log))
            assert all(not r.differs for r in found if isinstance(r, HandReport))
            final = found[-1]
            assert isinstance(final, FinalReport) and final.over and game is not None
            assert list(final.points) == [s.points for s in game.standings]
            assert len(found) == len(hands) + 1
            for report, hand in zip(found, hands, strict=False):
                record = await store.hand_record(hand.hand_id)
                assert isinstance(report, HandReport) and record is not None
                assert len(report.ours.wins) == len(record.wins)
    return tables


@pytest.mark.parametrize("preset", [RIICHI, RIICHI_MAJSOUL], ids=lambda p: p.id)
def test_stored_games_export_and_replay_to_their_stored_results(preset: Preset) -> None:
    with playable(preset):
        asyncio.run(check_stored_games(":memory:", preset, (4, 5)))


def test_the_cli_exports_a_stored_game_that_replays_with_check(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    with playable(RIICHI):
        (table_id,) = asyncio.run(check_stored_games(str(db), RIICHI, (6,)))
        out = tmp_path / "game.json"
        assert main(["replay", "--export", f"t{table_id}", "--db", str(db), "-o", str(out)]) == 0
        assert main(["replay", "--tenhou6", str(out), "--check"]) == 0
        assert main(["replay", "--export", "table:99", "--db", str(db)]) == 2


async def test_only_a_finished_riichi_game_exports(tmp_path: Path) -> None:
    async with await Store.open(str(tmp_path / "hands.db")) as store:
        from tests.replay_fixtures import finished_hand

        hand_id = await finished_hand(store, "hkos-3-v1")
        with pytest.raises(ReplayError, match="no finished game"):
            await game_export(store, hand_id=hand_id)
        viewed = await stored_replay(store, hand_id, PLAYERS[0][0])
        assert await finished_game_export(store, viewed, PLAYERS[0][0]) is None
        with pytest.raises(ReplayError, match="no hand 999"):
            await game_export(store, hand_id=999)
    assert parse_reference("12") == (12, None) and parse_reference("table:3") == (None, 3)
    assert parse_reference("t7") == (None, 7)
    with pytest.raises(ReplayError, match="names no hand or table"):
        parse_reference("twelve")


def test_the_real_logs_are_at_hand() -> None:
    require_real_logs()


@pytest.mark.parametrize("path", REAL_LOGS, ids=lambda path: path.name)
def test_real_logs_replay_to_their_results(path: Path) -> None:
    """Every hand to the log's result, and the final points to the log's (`--check`)."""
    code, out, err = run(path, check=True)
    hands = len(out) - 1
    assert code == 0 and err == [f"{hands} of {hands} hands replay to the log's results"], err


def test_a_disputed_log_differs_only_by_the_riichi_stick_it_kept_from_the_winner() -> None:
    """confusing_nakis_1: seat 2's riichi stood, then seat 0 won on seat 2's 7p; the log keeps
    the stick from the winner (every other log, and Tenhou's rule, give it). Nothing else may
    differ: the win's han, fu and yaku, the loser's payment, the final points but the stick."""
    path = real_log("disputed/confusing_nakis_1.json")
    log = read(path.read_text(encoding="utf-8"))
    played = [describe(a) for a in order_of_play(log.hands[0])]
    assert "2 riichi" in played and played[-1] == "0 ron 7p from 2"
    found = list(replay_log(log))
    assert len(found) == 2
    report, final = found
    assert isinstance(report, HandReport) and isinstance(final, FinalReport)
    stick = [
        ours - theirs for ours, theirs in zip(report.ours.deltas, report.log.deltas, strict=True)
    ]
    assert stick == [1000, 0, 0, 0]
    assert report.differs == (
        f"deltas: ours {list(report.ours.deltas)}, the log's {list(report.log.deltas)}",
    )
    assert report.ours.outcome == report.log.outcome == "ron"
    (ours,), (theirs,) = report.ours.wins, report.log.wins
    assert ours == replace(theirs, deltas=ours.deltas)
    assert final.differs == () and not final.over


def test_a_disputed_log_with_no_rule_name_holds_a_fifth_5s() -> None:
    """confusing_nakis_2: no Tenhou rule name (read as Tenhou's four-player ranked rules, red
    fives as `aka` says), and more copies of 5s than the wall holds: refused at that tile alone."""
    path = real_log("disputed/confusing_nakis_2.json")
    log = read(path.read_text(encoding="utf-8"))
    assert (log.disp, log.red_fives, log.seats) == (None, (1, 1, 1), 4)
    assert preset_for(log) is RIICHI
    code, out, err = run(path, check=True)
    assert code == 2 and out == []
    assert err == [f"error: {path}: hand 1: a tile that is not in the riichi wall (1 5s too many)"]


def test_a_three_player_log_plays_on_sanma_by_its_seats_and_length() -> None:
    """Three seats are read from an empty fourth seat (or a rule display starting with 三); such
    a log plays on `sanma`, East-only where the display says 東, and only with sanma's red fives."""
    three = written.log(written.NINE_TERMINALS)
    three["name"][3] = ""
    for index in (13, 14, 15):
        three["log"][0][index] = []
    three["log"][0][1][3] = 0
    with pytest.raises(Tenhou6Error, match=r"but sanma plays \[0, 1, 1\]: a ruleset we do not"):
        preset_for(from_json(three))
    for disp, rounds in ((None, 2), ("三般東喰赤", 1), ("三般南喰赤", 2)):
        rule: dict[str, Any] = {"aka51": 0, "aka52": 1, "aka53": 1}
        three["rule"] = rule if disp is None else rule | {"disp": disp}
        log = from_json(three)
        preset = preset_for(log)
        assert log.seats == 3 and preset.id == "sanma" and preset.game.rounds == rounds


def test_every_yaku_we_score_has_its_tenhou_name_and_reads_back() -> None:
    for yaku in sorted(set(YAKU_IDS.values())):
        han = 13 if yaku in YAKUMAN_IDS else 2
        text = yaku_text(yaku, han, seat_wind=1, round_wind=0)
        assert read_win_texts(("満貫8000点", text)).yaku == ((yaku, han),), text
    assert yaku_text("yakuhai_seat_wind", 1, 1, 0) == "自風 南(1飜)"
    assert yaku_text("daisangen", 13, 0, 0) == "大三元(役満)"
    with pytest.raises(WinWordsError, match="'焼き鳥' is not a yaku we know"):
        read_win_texts(("満貫8000点", "焼き鳥(1飜)"))
    with pytest.raises(WinWordsError, match="is not a points line"):
        read_win_texts(("8000",))


def two_hand_game(sc: list[float] | None) -> dict[str, Any]:
    """The dealer's haneman twice (the second with one honba), with the log's final line."""
    again = copy.deepcopy(written.KAN_DORA)
    again[0], again[1] = [0, 1, 0], [43000, 19000, 19000, 19000]
    again[16][1] = [18300, -6100, -6100, -6100]
    data = written.log(written.RIICHI_URA, again)
    return data if sc is None else data | {"sc": sc}


def test_the_log_s_final_line_is_read_and_written_back() -> None:
    sc = [61300, 51.3, 12900, -17.1, 12900, -17.1, 12900, -17.1]
    log = from_json(two_hand_game(sc))
    assert log.final == ((61300, 51.3), (12900, -17.1), (12900, -17.1), (12900, -17.1))
    assert read(write(log)) == log and json.loads(write(log))["sc"] == sc
    assert "sc" not in json.loads(write(from_json(two_hand_game(None))))
    with pytest.raises(Tenhou6Error, match=r"sc: .* is not four seats' final points and score"):
        from_json(two_hand_game([61300, 51.3]))


@pytest.mark.parametrize(
    ("sc", "words"),
    [
        ([61300, 51.3, 12900, -17.1, 12900, -17.1, 12900, -17.1],
         "final score: our game is not over, the log's [51.3, -17.1, -17.1, -17.1]"),
        ([61300, 0, 13900, 0, 12900, 0, 11900, 0],
         "final points: ours [61300, 12900, 12900, 12900], the log's [61300, 13900, 12900, 11900]"),
    ],
)  # fmt: skip
def test_check_compares_the_final_result_with_the_log_s(
    tmp_path: Path, sc: list[float], words: str
) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(two_hand_game(sc)))
    code, out, err = run(path, check=False)
    assert code == 0 and words in json.loads(out[-1])["differs"]
    code, out, err = run(path, check=True)
    assert code == 2 and len(out) == 3 and len(err) == 1
    assert err[0].startswith("error: the final result differs from the log's: ") and words in err[0]


def test_output_writes_our_replay_as_a_log_and_each_hand_s_result_picture(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(two_hand_game(None)))
    directory = tmp_path / "made" / "here"
    out, err = io.StringIO(), io.StringIO()
    assert run_tenhou6(str(path), True, out, err, str(directory)) == 0
    names = sorted(p.name for p in directory.iterdir())
    assert names == ["hand-001.png", "hand-002.png", "replay.tenhou6.json"]
    assert (directory / "hand-002.png").read_bytes().startswith(b"\x89PNG")
    ours = json.loads((directory / "replay.tenhou6.json").read_text())
    final = json.loads(out.getvalue().splitlines()[-1])["final"]
    assert ours["ver"] == 2.3
    assert not final["over"] and "sc" not in ours  # two hands: no final line yet
    code, again, _ = run(directory / "replay.tenhou6.json", check=True)
    deltas = [json.loads(line).get("deltas") for line in again]
    assert code == 0 and deltas == [
        json.loads(line).get("deltas") for line in out.getvalue().splitlines()
    ]


def test_our_replay_of_a_whole_game_ends_with_its_final_line(tmp_path: Path) -> None:
    path = real_log("ranked_game.json")
    assert run_tenhou6(str(path), True, io.StringIO(), io.StringIO(), str(tmp_path)) == 0
    ours = json.loads((tmp_path / "replay.tenhou6.json").read_text())
    assert ours["ver"] == 2.3 and ours["sc"] == json.loads(path.read_text())["sc"]


def test_output_that_is_a_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(two_hand_game(None)))
    out, err = io.StringIO(), io.StringIO()
    assert run_tenhou6(str(path), False, out, err, str(path)) == 2
    assert err.getvalue() == f"error: {path}: -o {path}: a file, not a directory\n"


@pytest.mark.parametrize(
    ("name", "outcome"),
    [
        ("double_ron", "ron"),
        ("chankan", "ron"),
        ("exhaustive", "exhaustive"),
        ("four_riichi", "abortive"),
        ("triple_ron", "abortive"),
    ],
)
def test_each_line_holds_the_contract_s_keys(tmp_path: Path, name: str, outcome: str) -> None:
    """DESIGN.md's keys, exactly: `hand` from 1, `round`, `honba`, `deltas` (a double ron's wins
    summed on one line), `outcome`; then the final line's points, score and over."""
    path = tmp_path / f"{name}.json"
    data = written.log(copy.deepcopy(HANDS[name]))
    path.write_text(json.dumps(data | {"name": ["A", "B", "C", "D"]}))
    code, out, err = run(path, check=True)
    assert len(out) == 2, err
    line, final = (json.loads(text) for text in out)
    assert code == 0 and (line["hand"], line["round"], line["outcome"]) == (1, "E1", outcome)
    assert isinstance(line["honba"], int)
    summed = [sum(win["deltas"][s] for win in line["wins"]) for s in range(4)]
    assert line["deltas"] == (summed if line["wins"] else line["log"]["deltas"])
    assert set(final["final"]) == {"points", "score", "over"}
    if name == "double_ron":
        assert line["deltas"] == [-3600, 3300, 1300, 0] and len(line["wins"]) == 2
