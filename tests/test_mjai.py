"""The mjai protocol (issue 41): tile names, our games written as mjai logs and read back, and
`mahjong-bot mjai SEAT` as an mjai arena runs a bot."""

from __future__ import annotations

import asyncio
import copy
import io
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from bot.cli import main
from bot.mjai import serve
from engine.computer import computer_for
from engine.computer.simulate import PlayedHand, play_out, play_session
from engine.families.riichi.presets import RIICHI, RIICHI_MAJSOUL
from engine.formats.mjai.arena import Reactor, play_hand, seat_view
from engine.formats.mjai.export import game_events, write_events
from engine.formats.mjai.seat import Bot, Event, replay_log
from engine.formats.mjai.tiles import MjaiError, maybe_tile, name_of, tile_of
from engine.formats.tenhou6.export import StoredHand
from engine.hand import HandState
from engine.presets import Preset
from engine.session import Session
from engine.tiles import NUM_KINDS, RED_FIVES, parse_tiles


def stored(played: PlayedHand) -> StoredHand:
    state = played.state
    return StoredHand(
        state.preset, state.setup, state.seed, state.seat_count, tuple(state.log), tuple(state.wall)
    )


def test_tile_names() -> None:
    tiles = [*range(NUM_KINDS), *RED_FIVES]
    names = [name_of(t) for t in tiles]
    assert names[:9] == [f"{n}m" for n in range(1, 10)]
    assert names[27:] == ["E", "S", "W", "N", "P", "F", "C", "5mr", "5pr", "5sr"]
    assert [tile_of(n) for n in names] == tiles
    assert tile_of("5pr") == parse_tiles("0p")[0] and maybe_tile("?") is None
    for bad in ("0m", "5zr", "?", 5, None, "10m"):
        with pytest.raises(MjaiError):
            tile_of(bad)


@pytest.mark.parametrize(("preset", "seed"), [(RIICHI, 5), (RIICHI, 6), (RIICHI_MAJSOUL, 7)])
def test_exported_games_read_back_to_their_results(preset: Preset, seed: int) -> None:
    played = list(play_session(preset, 10, seed, level="strong"))
    events = game_events([stored(hand) for hand in played], ["A", "B", "C", "D"])
    lines = write_events(events).splitlines()
    assert json.loads(lines[0]) == {"type": "start_game", "names": ["A", "B", "C", "D"]}
    assert json.loads(lines[-1]) == {"type": "end_game"}
    assert all("?" not in line for line in lines)  # every seat's tiles shown
    replayed = replay_log(preset, [json.loads(line) for line in lines])
    assert len(replayed) == len(played)
    for ours, hand in zip(replayed, played, strict=True):
        assert ours.differs == ()
        outcome = ours.state.outcome()
        assert outcome is not None and outcome.deltas == hand.outcome.deltas
        assert [w.score for w in outcome.wins] == [w.score for w in hand.outcome.wins]
        # the same play: every discard, call and kong (a call a win took precedence over is
        # in our log, never in mjai's)
        assert ours.state.ponds == hand.state.ponds and ours.state.melds == hand.state.melds


def test_a_log_whose_points_differ_says_so() -> None:
    (hand,) = play_session(RIICHI, 1, 5, level="strong")
    events = game_events([stored(hand)], ["A", "B", "C", "D"])
    end = next(e for e in events if e["type"] in ("hora", "ryukyoku"))
    end["deltas"] = [1, 2, 3, -6]
    (ours,) = replay_log(RIICHI, events)
    assert ours.differs and "deltas" in ours.differs[0]


def test_the_cli_exports_a_stored_game_as_mjai(tmp_path: Path) -> None:
    from tests.test_tenhou6_replay import check_stored_games, playable

    db = tmp_path / "games.db"
    with playable(RIICHI):
        (table_id,) = asyncio.run(check_stored_games(str(db), RIICHI, (6,)))
    out = tmp_path / "game.mjai.jsonl"
    argv = ["replay", "--export", f"t{table_id}", "--format", "mjai", "--db", str(db)]
    assert main([*argv, "-o", str(out)]) == 0
    events = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert events[0]["names"] == ["Ann", "Bob", "Cy", "Di"]
    replayed = replay_log(RIICHI, events)
    assert replayed and all(hand.differs == () for hand in replayed)


# ---------------------------------------------------------------- our computers as mjai bots


def bot_players(preset: Preset, level: str) -> list[Bot]:
    return [Bot(preset, player, computer_for(level)) for player in range(4)]


def mjai_game(preset: Preset, seed: int, hands: int, react: Reactor) -> list[HandState]:
    """`hands` hands of a session played through mjai players (`react`)."""
    session = Session(preset, seed)
    played = []
    for number in range(hands):
        if session.over:
            break
        state = session.new_hand()
        play_hand(state, ["A", "B", "C", "D"] if number == 0 else None, react)
        outcome = state.outcome()
        assert outcome is not None
        session.finish_hand(outcome)
        played.append(state)
    return played


def in_process_game(preset: Preset, seed: int, hands: int, level: str) -> list[HandState]:
    session = Session(preset, seed)
    played = []
    for _ in range(hands):
        if session.over:
            break
        state = play_out(session.new_hand(), computer=computer_for(level))
        outcome = state.outcome()
        assert outcome is not None
        session.finish_hand(outcome)
        played.append(state)
    return played


@pytest.mark.parametrize(
    ("preset", "seed", "level"),
    [(RIICHI, 5, "strong"), (RIICHI_MAJSOUL, 11, "strong"), (RIICHI, 8, "easy")],
)
def test_mjai_bots_play_the_game_our_computers_play(preset: Preset, seed: int, level: str) -> None:
    bots = bot_players(preset, level)
    sent: list[list[Event]] = [[] for _ in bots]

    def react(player: int, batch: list[Event]) -> Event:
        sent[player] += batch
        return bots[player].react(batch)

    ours = mjai_game(preset, seed, 4, react)
    theirs = in_process_game(preset, seed, 4, level)
    assert [state.log for state in ours] == [state.log for state in theirs]
    for player, events in enumerate(sent):  # each seat saw its own tiles only
        for event in events:
            if event["type"] == "tsumo" and event["actor"] != player:
                assert event["pai"] == "?"
            if event["type"] == "start_kyoku":
                hidden = [hand for p, hand in enumerate(event["tehais"]) if p != player]
                assert all(tile == "?" for hand in hidden for tile in hand)
                assert "?" not in event["tehais"][player]


def test_mahjong_bot_mjai_as_a_process_plays_its_seat() -> None:
    """Seat 0 played by a real `mahjong-bot mjai 0` process, the others in-process."""
    bots = bot_players(RIICHI, "strong")
    process = subprocess.Popen(
        [sys.executable, "-m", "bot", "mjai", "0"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stdin is not None and process.stdout is not None
    answers = 0

    def react(player: int, batch: list[Event]) -> Event:
        nonlocal answers
        if player != 0:
            return bots[player].react(batch)
        process.stdin.write(json.dumps(batch) + "\n")
        process.stdin.flush()
        answers += 1
        return json.loads(process.stdout.readline())

    try:
        ours = mjai_game(RIICHI, 5, 2, react)
    finally:
        process.stdin.close()
        code = process.wait(timeout=60)
    assert code == 0 and answers > 20
    assert [s.log for s in ours] == [s.log for s in in_process_game(RIICHI, 5, 2, "strong")]


# ---------------------------------------------------------------- bad input


def seat_lines(player: int) -> list[str]:
    (hand,) = play_session(RIICHI, 1, 5, level="strong")
    events = game_events([stored(hand)], ["A", "B", "C", "D"])
    return [json.dumps([seat_view(event, player)]) for event in events]


def serve_lines(lines: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = serve(Bot(RIICHI, 0, computer_for("easy")), io.StringIO("\n".join(lines)), out, err)
    return code, out.getvalue(), err.getvalue()


def test_a_whole_stream_is_answered_line_by_line() -> None:
    lines = seat_lines(0)
    code, out, err = serve_lines(lines)
    assert code == 0 and err == ""
    answers = [json.loads(line) for line in out.splitlines()]
    assert len(answers) == len(lines)
    assert sum(a["type"] == "dahai" for a in answers) > 5


def _mutations(rng: random.Random, event: Event) -> Event | str:
    choice = rng.randrange(6)
    mutated = copy.deepcopy(event)
    keys = [k for k in mutated if k != "type"]
    garbage = rng.choice([None, -1, 7, "0m", "?", "5zr", [], {}, "x" * 3, True, 1.5, ["1m"] * 20])
    if choice == 0 and keys:
        del mutated[rng.choice(keys)]
    elif choice == 1 and keys:
        mutated[rng.choice(keys)] = garbage
    elif choice == 2:
        mutated["type"] = rng.choice(["tsumo", "dahai", "pon", "hora", "bogus", 3, "start_kyoku"])
    elif choice == 3:
        return json.dumps(mutated)[: rng.randrange(1, 40)]  # cut short: not JSON
    elif choice == 4 and "actor" in mutated:
        mutated["actor"] = rng.choice([4, -1, (mutated["actor"] + 1) % 4, "0"])
    elif choice == 5 and "pai" in mutated:
        mutated["pai"] = rng.choice(["1m", "9s", "C", "5mr", "?", "E"])
    return mutated


def test_fuzzed_events_end_with_one_line_naming_them_never_a_traceback() -> None:
    rng = random.Random(41)
    lines = seat_lines(0)
    internal = []
    for _ in range(60):
        at = rng.randrange(min(len(lines), 45))  # the hand's first turns: each run is short
        event = json.loads(lines[at])[0]
        mutated = _mutations(rng, event)
        bad = mutated if isinstance(mutated, str) else json.dumps([mutated])
        code, _, err = serve_lines([*lines[:at], bad, *lines[at + 1 : at + 4]])
        assert code in (0, 2)  # an event that is still possible plays on
        if code == 2:
            assert err.count("\n") == 1 and err.startswith("error: line ")
            if "cannot follow" in err:
                internal.append(err)
    assert internal == []


def test_the_command_exits_2_with_one_line() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "bot", "mjai", "1", "--level", "easy"],
        input='[{"type":"start_game","id":1}]\n{"type":"tsumo","actor":9,"pai":"1m"}\n',
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2
    assert result.stdout == '{"type":"none"}\n'
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    assert "tsumo" in result.stderr


@pytest.mark.parametrize("preset", ["hkos-3-v1", "sanma", "nonesuch"])
def test_a_preset_mjai_does_not_play_is_refused_in_one_line(
    preset: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["mjai", "0", "--preset", preset]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and err.startswith("error: ")
    assert preset in err and ("riichi, riichi-majsoul" in err or "unknown preset" in err)


def test_the_arena_readme_stream_is_answered() -> None:
    """The exchange mjai.app's README shows for player 0 (a game resumed at South 2, 2 honba)."""
    own = ["4p", "4s", "P", "3p", "1p", "5s", "2m", "F", "1m", "7s", "9m", "6m", "9s"]
    start = {
        "type": "start_kyoku",
        "bakaze": "S",
        "dora_marker": "1p",
        "kyoku": 2,
        "honba": 2,
        "kyotaku": 0,
        "oya": 1,
        "scores": [800, 61100, 11300, 26800],
        "tehais": [own, *[["?"] * 13] * 3],
    }
    turns = [
        {"type": "tsumo", "actor": 1, "pai": "?"},
        {"type": "dahai", "actor": 1, "pai": "F", "tsumogiri": False},
        {"type": "tsumo", "actor": 2, "pai": "?"},
        {"type": "dahai", "actor": 2, "pai": "3m", "tsumogiri": True},
        {"type": "tsumo", "actor": 3, "pai": "?"},
        {"type": "dahai", "actor": 3, "pai": "1m", "tsumogiri": True},
        {"type": "tsumo", "actor": 0, "pai": "3s"},
    ]
    lines = [
        '[{"type":"start_game","names":["0","1","2","3"],"id":0}]',
        '[{"type":"end_kyoku"}]',
        json.dumps([start, *turns]),
    ]
    code, out, err = serve_lines(lines)
    assert code == 0 and err == ""
    first, second, third = (json.loads(line) for line in out.splitlines())
    assert first == second == {"type": "none"}
    assert third["type"] == "dahai" and third["actor"] == 0
    assert third["pai"] in [*own, "3s"]
    assert third["tsumogiri"] == (third["pai"] == "3s")
