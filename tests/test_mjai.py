"""The mjai protocol (issue 41): tile names, our games written as mjai logs and read back, and
`mahjong-bot mjai SEAT` as an mjai arena runs a bot."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from bot.cli import main
from engine.families.riichi.presets import RIICHI, RIICHI_MAJSOUL
from engine.formats.mjai.export import game_events, write_events
from engine.formats.mjai.seat import replay_log
from engine.formats.mjai.tiles import MjaiError, maybe_tile, name_of, tile_of
from engine.formats.tenhou6.export import StoredHand
from engine.presets import Preset
from engine.simulate import PlayedHand, play_session
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
